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

Each takes the parsed arguments, reads the input (:mod:`sdf_tools.loading`), runs the job,
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
from sdf_tools.errors import combine
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.outputs import write_atomically
from sdf_tools.records import replace

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


def _packages(args, prog):
    """Return where packages are looked for: ``--package-path``, environment, input file."""
    from sdf_tools.resources.packages import PackagePath
    from sdf_tools.resources.packages import PackageResolver
    try:
        return PackageResolver(PackagePath.from_environment(
            args.package_path, near=None if args.input == '-' else args.input))
    except ValueError as e:
        raise UsageError(f'{prog}: error: {e}') from None


def _read(args, mappings, prog, packages=None):
    """Read ``args.input`` (xacro expanded); write the expansion for ``--keep-expanded``."""
    from sdf_tools.loading.sources import read_description
    description = read_description(args.input, mappings, packages or _packages(args, prog))
    if args.keep_expanded is None:
        return description
    if not description.xacro:
        raise UsageError(f'{prog}: error: --keep-expanded is for xacro input; '
                         f'{description.source} is {description.fmt}')
    if _same_file(args.input, args.keep_expanded):
        raise UsageError(f'{prog}: error: the expansion would overwrite the input')
    _write_output(description.data.decode('utf-8'), args.keep_expanded)
    return replace(description, origins=description.origins.kept_as(args.keep_expanded))


def _write_output(text, output):
    if output in (None, '-'):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(output, text)


def _same_file(a, b):
    try:
        return a != '-' and b not in (None, '-') and os.path.samefile(a, b)
    except OSError:
        return False


def urdf2sdf(args) -> int:
    """Convert URDF (or xacro) to SDFormat: the body of ``urdf2sdf``."""
    from sdf_tools.loading import read_model
    from sdf_tools.loading import to_sdf

    mappings = mappings_of(args.mappings)
    if _same_file(args.input, args.output):
        raise UsageError('urdf2sdf: error: the output would overwrite the input')
    packages = _packages(args, 'urdf2sdf')
    description = _read(args, mappings, 'urdf2sdf', packages)
    fmt = description.fmt
    if fmt != 'urdf':
        raise UsageError(f'urdf2sdf: error: {description.source} is {fmt}, not URDF (use '
                         'sdf_tools convert)')
    robot = read_model(description)
    sdf, warnings = to_sdf(robot, _conversion_options(args, packages))
    print_diagnostics(robot.warnings + warnings, quiet=args.quiet)
    _write_output(sdf, args.output)
    return EXIT_OK


def _load(args, mappings, packages=None):
    """Load ``args.input``: ``mappings`` are xacro arguments or RobCoGen parameters."""
    from sdf_tools.loading import read_model
    description = _read(args, mappings, f'sdf_tools {args.command}', packages)
    fmt = description.fmt
    if args.model is not None and fmt != 'sdf':
        raise UsageError(f'sdf_tools: error: --model picks a model from an SDFormat world; '
                         f'{description.source} is {fmt}')
    parameters = None
    if fmt == 'kindsl':
        parameters = {name: number(value, f'RobCoGen parameter {name}:={value}')
                      for name, value in mappings.items()}
    return read_model(description, parameters=parameters, model=args.model)


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
    packages = _packages(args, 'sdf_tools convert')
    robot = _load(args, mappings, packages)
    warnings = list(robot.warnings)
    if to == 'sdf':
        from sdf_tools.loading import to_sdf
        text, converter_warnings = to_sdf(robot, _conversion_options(args, packages))
        warnings += converter_warnings
    else:
        from sdf_tools.formats.urdf.writer import write_urdf
        if args.lossy:
            text, dropped = write_urdf(robot, lossy=True)
            warnings += dropped
        else:
            text = write_urdf(robot)
    print_diagnostics(warnings, quiet=args.quiet)
    _write_output(text, args.output)
    return EXIT_OK


def _check(args):
    """Print the summary, the tree and every problem; exit 1 if any is an error."""
    from sdf_tools import describe
    from sdf_tools.kinematics import compile_tree
    mappings, values = split_assignments(args.assignments)
    if values:
        raise UsageError(f'sdf_tools check: error: unexpected {next(iter(values))}=...')
    robot = _load(args, mappings)
    problems = list(robot.warnings)
    try:
        compile_tree(robot)
    except KinematicsError as e:
        problems = list(combine(problems, e.diagnostics))
    if robot.source_format == 'urdf':
        from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
        from sdf_tools.loading import relocated
        from sdf_tools.loading import relocating
        with relocating(robot.origins):
            problems.extend(relocated(robot.origins, urdf_to_sdf(robot).warnings))
    print(describe.summary(robot))
    print(describe.tree_text(robot), end='')
    errors = sum(d.severity is Severity.ERROR for d in problems)
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
    robot = _load(args, mappings)
    if args.format == 'text':
        text = describe.tree_text(robot)
    else:
        text = describe.tree_dot(robot)
        if args.format == 'svg':
            text = _render_svg(text)
    _write_output(text, args.output)
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
    robot = _load(args, mappings)
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
    _write_output(text, None)
    return EXIT_OK


#: ``sdf_tools COMMAND``'s bodies, each taking the parsed arguments and returning the exit code.
COMMANDS = {'convert': _convert, 'check': _check, 'tree': _tree, 'fk': _fk}
