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
The second half of :func:`sdf_tools.loading.load`: a prepared description read into a model.

:func:`read` hands a :class:`~sdf_tools.loading.sources.Prepared` description to its
format's reader (each imported when first needed): URDF (expanded xacro too, its places
mapped back to the xacro files) and RobCoGen through :func:`_read_model`, SDFormat whole
(its worlds, its includes) through :func:`_read_sdf`. The result, :class:`Loaded`, holds
what every format has, plus the part only one format has: the xacro source map, or the
SDFormat document.
"""

import math
from typing import TYPE_CHECKING

from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.loading.options import LoadOptions
from sdf_tools.loading.sources import Prepared
from sdf_tools.model import Robot
from sdf_tools.outputs import STDIN
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.lookup import Resources
from sdf_tools.resources.uris import check_uris
from sdf_tools.source_map import relocated
from sdf_tools.source_map import relocating
from sdf_tools.source_map import SourceMap
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from sdf_tools.formats.sdf.world import SdfDocument


@record(frozen=True, eq=False)
class Loaded:
    """
    A description read into a model.

    Attributes
    ----------
    robot : Robot
        The model; for xacro input its locations name the xacro files.
    source : str
        The file name, ``<stdin>`` or the name of the text.
    fmt : str
        ``'urdf'``, ``'sdf'`` or ``'kindsl'`` (expanded xacro is ``'urdf'``).
    text : bytes
        What the reader read (for xacro input: the expansion, one element per line).
    resources : Resources
        Where packages and models were looked for: :func:`~sdf_tools.loading.to_sdf`'s
        callers, export, diff and the pictures look up the files the model names there.
    warnings : tuple of Diagnostic
        For the arguments that change nothing, xacro's package lookups' (a duplicate
        package, at its ``$(find)``), the reader's, then (``LoadOptions.check_uris``) the
        URIs that name no file.
    inputs : tuple of str
        The files read: the input (unless standard input or text), then for xacro input
        the files xacro read (includes and YAML files, absolute paths), for SDFormat the
        files its ``<include>`` s read.
    unused : tuple of str
        The names of ``LoadOptions.mappings`` that changed nothing: for xacro, arguments no
        file declares or reads (each also a warning); for URDF and SDFormat, all of them.
    origins : SourceMap or None
        xacro input only: where the lines of the expansion come from
        (:func:`~sdf_tools.loading.to_sdf` and :func:`~sdf_tools.loading.check` map what
        they report through it).
    document : SdfDocument or None
        SDFormat input only: the document read whole, its worlds
        (:class:`~sdf_tools.worlds.World`, ``robot`` is one of their models) and the files
        its includes read.

    """

    robot: Robot
    source: str
    fmt: str
    text: bytes
    resources: Resources
    warnings: tuple[Diagnostic, ...] = ()
    inputs: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()
    origins: SourceMap | None = None
    document: 'SdfDocument | None' = None

    @property
    def xacro(self) -> bool:
        """Return whether the input was xacro: expanded, its places mapped by ``origins``."""
        return self.origins is not None

    @property
    def models(self) -> tuple[Robot, ...]:
        """
        Return the models :func:`~sdf_tools.loading.check` checks: ``(robot,)``, or all.

        All: with ``LoadOptions.whole_document`` and no one model to take from an SDFormat
        document, every model of its worlds (``robot`` is then an empty one named after
        the first world).
        """
        document = self.document
        if document is not None and document.robot is None:
            return tuple(model for world in document.worlds for model in world.models)
        return (self.robot,)


def files_read(loaded: 'Loaded | Prepared', *more: str) -> tuple[str, ...]:
    """
    Return every file read so far to make what ``loaded`` becomes (:func:`check_outputs`).

    :data:`~sdf_tools.outputs.STDIN` (the file on standard input), ``inputs``, the
    package.xml files the lookups read, then ``more`` (``Converted.inputs``: meshes).
    """
    return ((STDIN,) if loaded.source == '<stdin>' else ()) + loaded.inputs + \
        loaded.resources.files_read() + more


def read(prepared: Prepared, options: LoadOptions | None = None) -> Loaded:
    """
    Read a prepared description with its format's reader (module docstring).

    Raises
    ------
    SdfToolsError
        The description is invalid (every problem, with its file and line; for xacro,
        the xacro files' lines), or (SDFormat) holds no one model to take.
    ValueError
        A RobCoGen parameter value is not a number.

    """
    options = options or LoadOptions()
    if prepared.fmt == 'sdf':
        return _read_sdf(prepared, options)
    origins = prepared.origins
    try:
        with relocating(origins):
            robot = _read_model(prepared, options)
    except SdfToolsError as e:  # the warnings found so far go with the errors
        e.warnings = prepared.warnings + e.warnings
        raise
    if origins is not None:
        robot = robot.relocated(origins.locate)
    warnings = prepared.warnings + robot.warnings
    if options.check_uris:  # <gazebo> content keeps the expansion's lines: map them too
        warnings += relocated(origins, check_uris(robot, prepared.resources.packages)[1])
    return Loaded(robot, prepared.source, prepared.fmt, prepared.data, prepared.resources,
                  warnings, prepared.inputs, prepared.unused, origins)


def _read_sdf(prepared: Prepared, options: LoadOptions) -> Loaded:
    """Read an SDFormat document whole: its worlds, includes, and the model asked for."""
    from sdf_tools.formats.sdf.reader import parse_sdf_document
    document = parse_sdf_document(prepared.data, prepared.source, model=options.model,
                                  includes=prepared.resources.models, path=prepared.file,
                                  max_bytes=options.max_bytes or DEFAULT_MAX_BYTES)
    robot = document.robot
    if robot is None:
        if not options.whole_document or options.model is not None:
            document.required_robot()  # raises: no model, or not the one asked for
        names = [world.name for world in document.worlds if world.name is not None]
        robot = Robot(name=names[0] if names else '', source=prepared.source,
                      source_format='sdf', warnings=document.warnings)
    loaded = Loaded(robot, prepared.source, 'sdf', prepared.data, prepared.resources,
                    prepared.warnings + robot.warnings, prepared.inputs + document.files,
                    prepared.unused, document=document)
    if options.check_uris:
        packages = prepared.resources.packages
        loaded = replace(loaded, warnings=loaded.warnings + tuple(
            warning for model in loaded.models for warning in check_uris(model, packages)[1]))
    return loaded


def _read_model(prepared: Prepared, options: LoadOptions) -> Robot:
    """Read URDF (xacro's expansion under its map's label) or RobCoGen text."""
    max_bytes = options.max_bytes
    if prepared.fmt == 'urdf':
        from sdf_tools.formats.urdf.reader import parse_urdf
        origins = prepared.origins
        source = prepared.source if origins is None else origins.label or prepared.source
        return parse_urdf(prepared.data, source, max_bytes=max_bytes or DEFAULT_MAX_BYTES)
    if prepared.fmt == 'kindsl':
        from sdf_tools.formats.kindsl.reader import MAX_BYTES
        from sdf_tools.formats.kindsl.reader import parse_kindsl
        parameters = options.parameters
        if parameters is None and options.mappings:
            parameters = {name: _number(value, f'RobCoGen parameter {name}:={value}')
                          for name, value in options.mappings.items()}
        # Bytes, so that the reader refuses text that is not UTF-8 instead of guessing.
        return parse_kindsl(prepared.data, prepared.source, parameters=parameters,
                            max_bytes=max_bytes or MAX_BYTES)
    raise ValueError(f'unknown format {prepared.fmt!r}')


def _number(text: str, what: str) -> float:
    """Return ``text`` as a finite float, or raise ``ValueError`` naming ``what``."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(f'{what} must be a finite number, got {text!r}')
    return value
