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
The bodies of ``urdf2sdf`` and ``sdf_tools convert|check|tree|fk``.

Each takes the parsed arguments, loads the input (:func:`sdf_tools.loading.load`), runs the job,
prints the diagnostics and writes the result (``-o`` atomically). The converter, the readers
and numpy are imported inside the commands that use them.
"""

import os
import sys

from sdf_tools.cli.arguments import mappings_of
from sdf_tools.cli.arguments import number
from sdf_tools.cli.arguments import split_assignments
from sdf_tools.cli.arguments import UsageError
from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.outputs import write_output

EXIT_OK = 0
EXIT_INVALID = 1


def color(stream, text: str, code: str) -> str:
    """Return ``text`` in the ANSI colour ``code`` when ``stream`` is a terminal (no NO_COLOR)."""
    if hasattr(stream, 'isatty') and stream.isatty() and 'NO_COLOR' not in os.environ:
        return f'\033[{code}m{text}\033[0m'
    return text


def print_diagnostics(diagnostics, stream=None, quiet=False) -> None:
    """
    Print each diagnostic on its line: ``Error: file:line: ...`` or ``file:line: warning: ...``.

    A warning says ``warning`` itself (:class:`~sdf_tools.errors.Diagnostic`); ``quiet``
    leaves warnings out.
    """
    stream = stream or sys.stderr
    for d in diagnostics:
        if d.severity is Severity.WARNING:
            if not quiet:
                print(color(stream, str(d), '33'), file=stream)
        else:
            print(color(stream, 'Error', '31') + f': {d}', file=stream)


def _conversion_options(args, packages):
    """Return the ConversionOptions of ``urdf2sdf`` / ``sdf_tools convert`` arguments."""
    from sdf_tools.convert.urdf_to_sdf import ConversionOptions
    folder = None if args.input == '-' else os.path.dirname(os.path.abspath(args.input))
    return ConversionOptions(preserve_fixed_joints=args.preserve_fixed_joints,
                             sdf_version=args.sdf_version, mesh_uris=args.mesh_uris,
                             packages=packages, input_folder=folder,
                             auto_inertials=args.auto_inertials)


def _load(args, mappings, prog, formats=('urdf', 'sdf', 'kindsl'), whole_document=False):
    """
    Load ``args.input`` through :func:`sdf_tools.loading.load`.

    ``mappings`` are xacro arguments, or RobCoGen parameters (``name:=value``) for a
    ``.kindsl`` file; ``--keep-expanded`` writes xacro's expansion, ``--model`` picks a model
    from an SDFormat world, ``--resource-path`` is where SDFormat includes look first;
    ``whole_document``: an SDFormat document need not hold exactly one model (check).
    """
    from sdf_tools.loading import load
    from sdf_tools.loading import LoadOptions
    from sdf_tools.loading import model_finder
    from sdf_tools.loading import package_resolver
    from sdf_tools.loading import WrongFormat
    if _same_file(args.input, args.keep_expanded):
        raise UsageError(f'{prog}: error: the expansion would overwrite the input')
    try:
        packages = package_resolver(args.package_path,
                                    near=None if args.input == '-' else args.input)
        models = model_finder(getattr(args, 'resource_path', ()), packages=packages)
    except ValueError as e:
        raise UsageError(f'{prog}: error: {e}') from None
    try:
        loaded = load(args.input, LoadOptions(mappings=mappings,
                                              model=getattr(args, 'model', None),
                                              packages=packages,
                                              keep_expanded=args.keep_expanded,
                                              formats=formats, models=models,
                                              whole_document=whole_document))
    except WrongFormat as e:  # urdf2sdf: not URDF
        raise UsageError(f'{prog}: error: {e.source} is {e.fmt}, not URDF (use sdf_tools '
                         'convert)') from None
    except ValueError as e:  # RobCoGen parameters that are not numbers
        raise UsageError(f'sdf_tools: error: {e}') from None
    if args.keep_expanded is not None and not loaded.xacro:
        raise UsageError(f'{prog}: error: --keep-expanded is for xacro input; '
                         f'{loaded.source} is {loaded.fmt}')
    if getattr(args, 'model', None) is not None and loaded.fmt != 'sdf':
        raise UsageError(f'sdf_tools: error: --model picks a model from an SDFormat world; '
                         f'{loaded.source} is {loaded.fmt}')
    return loaded


def _same_file(a, b):
    try:
        return a != '-' and b not in (None, '-') and os.path.samefile(a, b)
    except OSError:
        return False


def urdf2sdf(args) -> int:
    """Convert URDF (or xacro) to SDFormat: the body of ``urdf2sdf``."""
    from sdf_tools.loading import to_sdf
    mappings = mappings_of(args.mappings)
    if _same_file(args.input, args.output):
        raise UsageError('urdf2sdf: error: the output would overwrite the input')
    loaded = _load(args, mappings, 'urdf2sdf', formats=('urdf',))
    converted = to_sdf(loaded, _conversion_options(args, loaded.packages))
    print_diagnostics(loaded.warnings + converted.warnings, quiet=args.quiet)
    write_output(args.output, converted.sdf)
    return EXIT_OK


def _convert(args):
    mappings = mappings_of(args.mappings)
    to = args.to
    if to is None and args.output not in (None, '-'):
        ext = os.path.splitext(args.output)[1].lower()
        to = {'.urdf': 'urdf', '.sdf': 'sdf', '.world': 'sdf'}.get(ext)
        if to is None:
            raise UsageError(f'sdf_tools convert: error: cannot tell the output format of '
                             f'{args.output!r}; use --to')
    to = to or 'sdf'
    if args.lossy and to != 'urdf':
        raise UsageError('sdf_tools convert: error: --lossy is for conversions to URDF')
    if _same_file(args.input, args.output):
        raise UsageError('sdf_tools convert: error: the output would overwrite the input')
    loaded = _load(args, mappings, 'sdf_tools convert')
    warnings = list(loaded.warnings)
    if to == 'sdf':
        from sdf_tools.loading import to_sdf
        converted = to_sdf(loaded, _conversion_options(args, loaded.packages))
        text = converted.sdf
        warnings += converted.warnings
    else:
        from sdf_tools.formats.urdf.writer import write_urdf
        if args.lossy:
            text, dropped = write_urdf(loaded.robot, lossy=True)
            warnings += dropped
        else:
            text = write_urdf(loaded.robot)
    print_diagnostics(warnings, quiet=args.quiet)
    write_output(args.output, text)
    return EXIT_OK


def _check(args):
    """Print the summary, the tree and every problem; exit 1 if any is an error."""
    from sdf_tools import describe
    from sdf_tools.loading import check
    from sdf_tools.loading import errors_in
    mappings, values = split_assignments(args.assignments)
    if values:
        raise UsageError(f'sdf_tools check: error: unexpected {next(iter(values))}=...')
    loaded = _load(args, mappings, 'sdf_tools check', whole_document=True)
    problems = check(loaded)
    worlds = loaded.worlds
    if any(world.name is not None for world in worlds) or (worlds and not loaded.models):
        for world in worlds:
            print(describe.world_line(world))
    for robot in loaded.models:
        print(describe.summary(robot))
        print(describe.tree_text(robot), end='')
    errors = errors_in(problems)
    if problems:
        print('problems:')
        for d in problems:
            print(f'  {d}')
    print(f'{"OK" if not errors else "INVALID"}: {errors} error(s), '
          f'{len(problems) - errors} warning(s)')
    return EXIT_INVALID if errors else EXIT_OK


def _tree(args):
    from sdf_tools import describe
    mappings, values = split_assignments(args.assignments)
    if values:
        raise UsageError(f'sdf_tools tree: error: unexpected {next(iter(values))}=...')
    if _same_file(args.input, args.output):
        raise UsageError('sdf_tools tree: error: the output would overwrite the input')
    robot = _load(args, mappings, 'sdf_tools tree').robot
    if args.format == 'text':
        text = describe.tree_text(robot)
    else:
        text = describe.tree_dot(robot)
        if args.format == 'svg':
            text = _render_svg(text)
    write_output(args.output, text)
    return EXIT_OK


def _render_svg(dot_text):
    import shutil
    import subprocess
    dot = shutil.which('dot')
    if dot is None:
        raise SdfToolsError(Diagnostic("--format svg needs Graphviz's 'dot' program (apt "
                                       'install graphviz); --format dot works without it',
                                       code=Code.NO_GRAPHVIZ))
    proc = subprocess.run([dot, '-Tsvg'], input=dot_text, capture_output=True, text=True,
                          timeout=120)
    if proc.returncode != 0:
        raise SdfToolsError(Diagnostic(f'dot failed: {proc.stderr.strip()}',
                                       code=Code.GRAPHVIZ_FAILED))
    return proc.stdout


def _fk(args):
    """Print every link's pose in the root (URDF) or model (SDFormat) frame."""
    import json
    from sdf_tools import transforms
    from sdf_tools.kinematics import compile_tree
    from sdf_tools.kinematics import forward_kinematics
    from sdf_tools.kinematics import frame_poses
    mappings, raw = split_assignments(args.assignments)
    values = {name: number(text, f'joint value {name}={text}') for name, text in raw.items()}
    robot = _load(args, mappings, 'sdf_tools fk').robot
    tree = compile_tree(robot)
    q, unknown, mimic = tree.joint_vector(values)
    if unknown:
        known = ', '.join(tree.coordinate_names) or '(none: the robot has no moving joints)'
        raise UsageError(f'sdf_tools fk: error: not a joint coordinate of '
                         f"{robot.name!r}: {', '.join(unknown)}; use: {known}")
    # A mimic joint's value wins over its formula, as in the state publisher's joint_states.
    poses = forward_kinematics(tree, q, mimic_values={name: values[name] for name in mimic})
    names = list(tree.link_names)
    matrices = list(poses)
    if tree.frame_names:
        names += list(tree.frame_names)
        matrices += list(frame_poses(tree, link_poses=poses))
    result = {}
    for name, t in zip(names, matrices):
        result[name] = {'xyz': [float(v) + 0.0 for v in t[:3, 3]],
                        'quat_xyzw': [float(v) + 0.0 for v in
                                      transforms.quat_from_matrix(t[:3, :3])]}
    if args.json:
        text = json.dumps(result, indent=2) + '\n'
    else:
        width = max(len(n) for n in names)
        lines = [f'{"":{width}}  {"x":>10} {"y":>10} {"z":>10}   {"qx":>9} {"qy":>9} '
                 f'{"qz":>9} {"qw":>9}']
        for name, pose in result.items():
            x, y, z = pose['xyz']
            qx, qy, qz, qw = pose['quat_xyzw']
            lines.append(f'{name:{width}}  {x:10.6f} {y:10.6f} {z:10.6f}   {qx:9.6f} '
                         f'{qy:9.6f} {qz:9.6f} {qw:9.6f}')
        text = '\n'.join(lines) + '\n'
    write_output(None, text)
    return EXIT_OK


def _export(args):
    from sdf_tools.cli.export import export_command  # imports this module: not at the top
    return export_command(args)


#: ``sdf_tools COMMAND``'s bodies, each taking the parsed arguments and returning the exit code.
COMMANDS = {'convert': _convert, 'check': _check, 'tree': _tree, 'fk': _fk, 'export': _export}
