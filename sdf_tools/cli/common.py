# Copyright 2026 sdf_tools contributors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.


"""
What every command-line tool shares: exit codes, printing diagnostics, loading the input.

Every command loads its input through :func:`load_input` (the two halves of
:func:`sdf_tools.loading.load`, with the command's own outputs checked and
``--keep-expanded`` written in between): xacro arguments, ``--xacro``, ``--package-path``,
``--resource-path``, ``--keep-expanded``, ``--model`` and the outputs that must not
overwrite what was read mean the same in each; and writes its result through
:func:`write_result`, which checks the output again against everything read by then
(meshes, package.xml files).
"""

import argparse
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
import os
import sys
from typing import TextIO
from typing import TYPE_CHECKING

from sdf_tools.cli.arguments import UsageError
from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import presented
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.model import JointType
from sdf_tools.model import Robot
from sdf_tools.outputs import check_outputs
from sdf_tools.outputs import OverwriteError
from sdf_tools.outputs import write_output
from sdf_tools.records import replace

if TYPE_CHECKING:  # the commands import loading when they run
    from sdf_tools.loading import Loaded
    from sdf_tools.loading import LoadOptions
    from sdf_tools.loading import Prepared

EXIT_OK = 0
EXIT_INVALID = 1


def color(stream: object, text: str, code: str) -> str:
    """Return ``text`` in the ANSI colour ``code`` when ``stream`` is a terminal (no NO_COLOR)."""
    if hasattr(stream, 'isatty') and stream.isatty() and 'NO_COLOR' not in os.environ:
        return f'\033[{code}m{text}\033[0m'
    return text


def print_diagnostics(diagnostics: Iterable[Diagnostic], stream: TextIO | None = None,
                      quiet: bool = False) -> None:
    """
    Print each diagnostic on its line: ``Error: file:line: ...`` or ``file:line: warning: ...``.

    In file order, the warnings that repeat one problem in a file as one
    (:func:`~sdf_tools.errors.presented`). A warning says ``warning`` itself
    (:class:`~sdf_tools.errors.Diagnostic`); ``quiet`` leaves warnings out.
    """
    stream = stream or sys.stderr
    for d in presented(diagnostics):
        if d.severity is Severity.WARNING:
            if not quiet:
                print(color(stream, str(d), '33'), file=stream)
        else:
            print(color(stream, 'Error', '31') + f': {d}', file=stream)


def limit_warnings(robot: Robot, values: Mapping[str, float]) -> tuple[Diagnostic, ...]:
    """
    Return a warning for each joint value outside its joint's limits (``view``, ``fk``).

    ``values``: coordinate name -> value. Revolute and prismatic joints with a ``<limit>``
    (lower at most upper) are checked, mimic joints given a value too; the value is still
    used, as the joint_states the state publisher receives are.
    """
    warnings = []
    for joint in robot.joints:
        limit = joint.limit
        value = values.get(joint.name)
        if value is None or limit is None or limit.lower > limit.upper or \
                joint.kind not in (JointType.REVOLUTE, JointType.PRISMATIC):
            continue
        if not limit.lower <= value <= limit.upper:
            unit = 'm' if joint.kind is JointType.PRISMATIC else 'rad'
            warnings.append(Diagnostic(
                f'{joint.name}={value:g} is outside its limits ({limit.lower:g} to '
                f'{limit.upper:g} {unit}); used as given', joint.location,
                f"joint '{joint.name}'", Severity.WARNING, Code.OUT_OF_LIMITS))
    return tuple(warnings)


#: What the refusal of xacro markup in a file not named .xacro tells a command's user.
XACRO_REMEDY = 'if you trust it, give --xacro to expand it'


def load_input(args: argparse.Namespace, mappings: dict[str, str], prog: str,
               formats: tuple[str, ...] = ('urdf', 'sdf', 'kindsl'), *,
               path: str | None = None, outputs: Sequence[str] | None = None,
               whole_document: bool = False) -> 'Loaded':
    """
    Load ``path`` (default ``args.input``) as :func:`sdf_tools.loading.load` does.

    ``mappings`` are xacro arguments, or RobCoGen parameters (``name:=value``) for a
    ``.kindsl`` file; ``--xacro`` expands xacro markup in files not named ``.xacro`` and in
    standard input, ``--keep-expanded`` writes xacro's expansion, ``--model`` picks a model
    from an SDFormat world, ``--package-path`` and ``--resource-path`` are where packages
    and SDFormat ``<include>`` s look first (the run's
    :class:`~sdf_tools.resources.lookup.Resources`, built here once); ``whole_document``: an
    SDFormat document need not hold exactly one model (check). An output (``-o``,
    ``--keep-expanded``) that is a file read (the input, a xacro include or YAML file, an
    SDFormat include) or that both name is refused before anything is written (``outputs``:
    default ``-o``).
    """
    from sdf_tools.loading import files_read
    from sdf_tools.loading import LoadOptions
    from sdf_tools.loading import prepare
    from sdf_tools.loading import WrongFormat
    from sdf_tools.resources.lookup import find_resources
    path = args.input if path is None else path
    keep_expanded = getattr(args, 'keep_expanded', None)
    if outputs is None:  # the command's -o, or its standard output
        outputs = ((args.output or '-',) if hasattr(args, 'output') else ())
    try:
        resources = find_resources(args.package_path, getattr(args, 'resource_path', ()),
                                   near=None if path == '-' else path)
    except ValueError as e:
        raise UsageError(f'{prog}: error: {e}') from None
    options = LoadOptions(mappings=mappings, model=getattr(args, 'model', None),
                          xacro=args.xacro or None, xacro_remedy=XACRO_REMEDY,
                          formats=formats, whole_document=whole_document)
    try:
        prepared = prepare(path, options, resources)
        kept = keep_expanded if prepared.origins is not None else None
        check_outputs((kept,) + tuple(outputs), files_read(prepared))  # before reading
        loaded = _read_keeping(prepared, options, kept)
        check_outputs(tuple(outputs), files_read(loaded))  # and SDFormat's includes
    except OverwriteError as e:
        raise UsageError(f'{prog}: error: {e}') from None
    except WrongFormat as e:  # urdf2sdf: not URDF
        raise UsageError(f'{prog}: error: {e.source} is {e.fmt}, not URDF (use sdf_tools '
                         'convert)') from None
    except ValueError as e:  # RobCoGen parameters that are not numbers
        raise UsageError(f'sdf_tools: error: {e}') from None
    if keep_expanded is not None and not loaded.xacro:
        raise UsageError(f'{prog}: error: --keep-expanded is for xacro input; '
                         f'{loaded.source} is {loaded.fmt}')
    if getattr(args, 'model', None) is not None and loaded.fmt != 'sdf':
        raise UsageError(f'sdf_tools: error: --model picks a model from an SDFormat world; '
                         f'{loaded.source} is {loaded.fmt}')
    return loaded


def _read_keeping(prepared: 'Prepared', options: 'LoadOptions', kept: str | None) -> 'Loaded':
    """
    Read a prepared description; with ``kept``, write xacro's expansion there too.

    The expansion is written once it is read (its messages then name ``kept``'s lines where
    no xacro line can be told), or before the errors of a failed read are raised, so that it
    is there to look at; never over a mesh or texture the expanded model names
    (``--auto-inertials`` reads them after loading): each that names an existing local file
    counts as read.
    """
    from sdf_tools.loading import read
    from sdf_tools.resources.uris import locate
    if kept is None:
        return read(prepared, options)
    assert prepared.origins is not None  # kept only when xacro expanded it (load_input)
    prepared = replace(prepared, origins=prepared.origins.kept_as(kept))
    try:
        loaded = read(prepared, options)
    except SdfToolsError:
        write_output(kept, prepared.data.decode('utf-8'))
        raise
    named = []
    folder = None if prepared.file is None else os.path.dirname(os.path.abspath(prepared.file))
    for uri, *_ in loaded.robot.resource_uses():
        try:
            found = locate(uri, loaded.resources.packages, folder)
        except (ValueError, LookupError):  # named no file that can be found: nothing read
            continue
        if os.path.isfile(found):
            named.append(os.fspath(found))
    check_outputs((kept,), named)
    write_output(kept, prepared.data.decode('utf-8'))
    return loaded


def write_result(output: str | None, result: str | bytes, loaded: 'Loaded | None',
                 prog: str, *, read: tuple[str, ...] = ()) -> None:
    """
    Write a command's result to ``output`` (``None`` or ``-``: standard output).

    Before anything is written, the output is refused (a usage error, as when loading) if
    it is a file the run read: what :func:`load_input` read (``loaded``; ``None`` when it
    failed), the package.xml files every package lookup since read, and ``read`` (e.g. the
    meshes a conversion weighed); standard output is compared by the file open on it
    (``urdf2sdf r.urdf >> r.urdf``).
    """
    from sdf_tools.loading import files_read
    try:
        check_outputs((output or '-',), read if loaded is None else files_read(loaded, *read))
    except OverwriteError as e:
        raise UsageError(f'{prog}: error: {e}') from None
    write_output(output, result)
