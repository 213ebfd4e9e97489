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
Command-line tools: ``urdf2sdf`` and ``sdf_tools convert|check|tree|fk``.

Exit codes: 0 success, 1 invalid description (every problem printed with file:line), 2 usage
error. Results go to stdout (or ``-o``, written atomically), diagnostics to stderr, never a
traceback (``--traceback`` shows one for bug reports). Also runnable as
``ros2 run sdf_tools urdf2sdf`` and ``ros2 run sdf_tools sdf_tools``.
"""

import argparse
import math
import os
import re
import sys

from sdf_tools.errors import Code
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so main() owns exit codes."""

    def error(self, message):
        raise _UsageError(f'{self.prog}: error: {message}')


def _color(stream, text, code):
    if hasattr(stream, 'isatty') and stream.isatty() and 'NO_COLOR' not in os.environ:
        return f'\033[{code}m{text}\033[0m'
    return text


def _print_diagnostics(diagnostics, stream=None, quiet=False):
    stream = stream or sys.stderr
    for d in diagnostics:
        if d.severity is Severity.WARNING:
            if not quiet:
                print(_color(stream, 'Warning', '33') + f': {d}', file=stream)
        else:
            print(_color(stream, 'Error', '31') + f': {d}', file=stream)


_ASSIGNMENT = re.compile(r'[A-Za-z_][\w./-]*:?=')
_VALUE_OPTIONS = ('-o', '--output', '--to', '--model', '--format', '--sdf-version',
                  '--package-path', '--mesh-uris', '--auto-inertials', '--keep-expanded')
_KEEP_EXPANDED_HELP = ("xacro input: also write xacro's expansion here (one element per "
                       'line); messages about elements whose xacro line cannot be told '
                       'then name its lines')
_PACKAGE_PATH_HELP = ('where xacro $(find pkg) looks first (repeatable, or DIR:DIR): a '
                      'package, a folder of packages, an install prefix or a colcon '
                      'workspace; then AMENT_PREFIX_PATH, ROS_PACKAGE_PATH and the '
                      "input's own package and workspace")


_MESH_URIS = ('model', 'file', 'package')  # sdf_tools.convert.mesh_uris.MODES (not imported)
_MESH_URIS_HELP = ('how mesh URIs are written: model (libsdformat: package:// becomes '
                   'model://, found through GZ_SIM_RESOURCE_PATH), file (absolute file:// '
                   'paths, found like $(find pkg)), package (as written); default model')
_AUTO_INERTIALS_HELP = ('give links without <inertial> the mass properties of their '
                        'collision geometry at this density (kg/m^3, e.g. 1000); meshes need '
                        'trimesh')


def _density(text):
    """Return ``--auto-inertials``' value: a finite density greater than 0 (kg/m^3)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0.0):
        raise argparse.ArgumentTypeError(f'the density (kg/m^3) must be a finite number '
                                         f'greater than 0, got {text!r}')
    return value


def _add_mesh_options(parser):
    """Add ``--mesh-uris`` and ``--auto-inertials`` (URDF to SDFormat)."""
    parser.add_argument('--mesh-uris', choices=_MESH_URIS, default='model',
                        help=_MESH_URIS_HELP)
    parser.add_argument('--auto-inertials', type=_density, metavar='DENSITY',
                        help=_AUTO_INERTIALS_HELP)


def _conversion_options(args, packages):
    """Return the ConversionOptions of ``urdf2sdf`` / ``sdf_tools convert`` arguments."""
    from sdf_tools.convert.urdf_to_sdf import ConversionOptions
    folder = None if args.input == '-' else os.path.dirname(os.path.abspath(args.input))
    return ConversionOptions(preserve_fixed_joints=args.preserve_fixed_joints,
                             sdf_version=args.sdf_version, mesh_uris=args.mesh_uris,
                             packages=packages, input_folder=folder,
                             auto_inertials=args.auto_inertials)


def _split_extras(argv):
    """
    Take ``name:=value`` / ``NAME=VALUE`` words out of ``argv`` wherever they are.

    argparse cannot mix a ``nargs='*'`` positional with options given after it, so these
    words are collected first and the rest is parsed; values of options are left alone.
    """
    rest, extras = [], []
    previous = None
    for word in argv:
        if _ASSIGNMENT.match(word) and previous not in _VALUE_OPTIONS:
            extras.append(word)
        else:
            rest.append(word)
        previous = word
    return rest, extras


def _mappings(items):
    """Split ``name:=value`` arguments (as xacro and ros2 launch take them)."""
    mappings = {}
    for item in items:
        name, sep, value = item.partition(':=')
        if not sep or not name:
            raise _UsageError(f'expected name:=value, got {item!r}')
        if not name.startswith('_') or name.startswith('__'):
            mappings[name] = value
    return mappings


def _packages(args, prog):
    """Return where packages are looked for: ``--package-path``, environment, input file."""
    from sdf_tools.files.packages import PackagePath
    from sdf_tools.files.packages import PackageResolver
    try:
        return PackageResolver(PackagePath.from_environment(
            args.package_path, near=None if args.input == '-' else args.input))
    except ValueError as e:
        raise _UsageError(f'{prog}: error: {e}') from None


def _read(args, mappings, prog, packages=None):
    """Read ``args.input`` (xacro expanded); write the expansion for ``--keep-expanded``."""
    from sdf_tools.files.sources import read_description
    description = read_description(args.input, mappings, packages or _packages(args, prog))
    if args.keep_expanded is None:
        return description
    if not description.xacro:
        raise _UsageError(f'{prog}: error: --keep-expanded is for xacro input; '
                          f'{description.source} is {description.fmt}')
    if _same_file(args.input, args.keep_expanded):
        raise _UsageError(f'{prog}: error: the expansion would overwrite the input')
    from dataclasses import replace
    _write_output(description.data.decode('utf-8'), args.keep_expanded)
    return replace(description, origins=description.origins.kept_as(args.keep_expanded))


def _write_output(text, output):
    from sdf_tools.files.atomic import write_atomically
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


def _run(func, argv, traceback_flag):
    """Run a command body, turning every failure into a message and an exit code."""
    try:
        return func(argv)
    except _UsageError as e:
        print(str(e), file=sys.stderr)
        return EXIT_USAGE
    except SdfToolsError as e:
        _print_diagnostics(e.diagnostics)
        return EXIT_INVALID
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, 'w')
        except OSError:
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except OSError as e:
        print(_color(sys.stderr, 'Error', '31') + f': {e.filename or ""}: {e.strerror or e}',
              file=sys.stderr)
        return EXIT_INVALID
    except Exception as e:  # a bug: say so briefly, traceback only on request
        if traceback_flag:
            raise
        print(_color(sys.stderr, 'Error', '31') + f': internal error ({type(e).__name__}: '
              f'{e}); rerun with --traceback and report it', file=sys.stderr)
        return EXIT_INVALID


# --- urdf2sdf -------------------------------------------------------------------------------

def _urdf2sdf_parser(prog='urdf2sdf'):
    p = _Parser(prog=prog, description='Convert a URDF (or xacro) with <gazebo> extensions to '
                'SDFormat, as libsdformat (gz sdf -p) does, with its documented bugs fixed.')
    p.add_argument('input', help='a .urdf or .xacro file, or - for standard input')
    p.add_argument('mappings', nargs='*', metavar='name:=value',
                   help='xacro arguments')
    p.add_argument('-o', '--output', help='write here (atomically) instead of stdout')
    p.add_argument('--preserve-fixed-joints', action='store_true',
                   help='keep every fixed joint instead of lumping it into its parent')
    p.add_argument('--sdf-version', default='1.9', choices=CONVERTIBLE_VERSIONS,
                   help='SDFormat version to write (default 1.9, as libsdformat 12)')
    p.add_argument('--package-path', action='append', default=[], metavar='DIR',
                   help=_PACKAGE_PATH_HELP)
    _add_mesh_options(p)
    p.add_argument('--keep-expanded', metavar='FILE', help=_KEEP_EXPANDED_HELP)
    p.add_argument('-q', '--quiet', action='store_true', help='do not print warnings')
    p.add_argument('--traceback', action='store_true', help=argparse.SUPPRESS)
    return p


def _urdf2sdf(argv):
    from sdf_tools.pipeline import read_model
    from sdf_tools.pipeline import to_sdf

    rest, extras = _split_extras(argv)
    args = _urdf2sdf_parser().parse_args(rest)
    mappings = _mappings(args.mappings + extras)
    if _same_file(args.input, args.output):
        raise _UsageError('urdf2sdf: error: the output would overwrite the input')
    packages = _packages(args, 'urdf2sdf')
    description = _read(args, mappings, 'urdf2sdf', packages)
    fmt = description.fmt
    if fmt != 'urdf':
        raise _UsageError(f'urdf2sdf: error: {description.source} is {fmt}, not URDF (use '
                          'sdf_tools convert)')
    robot = read_model(description)
    sdf, warnings = to_sdf(robot, _conversion_options(args, packages))
    _print_diagnostics(robot.warnings + warnings, quiet=args.quiet)
    _write_output(sdf, args.output)
    return EXIT_OK


def urdf2sdf_main(argv=None) -> int:
    """Entry point of ``urdf2sdf``."""
    argv = sys.argv[1:] if argv is None else argv
    return _run(_urdf2sdf, argv, '--traceback' in argv)


# --- sdf_tools <command> --------------------------------------------------------------------

def _main_parser():
    p = _Parser(prog='sdf_tools', description='Robot description tools: convert between URDF, '
                'xacro, SDFormat and RobCoGen Kinematics-DSL; check; print the tree; forward '
                'kinematics.')
    common = _Parser(add_help=False)
    common.add_argument('--traceback', action='store_true', help=argparse.SUPPRESS)
    common.add_argument('--package-path', action='append', default=[], metavar='DIR',
                        help=_PACKAGE_PATH_HELP)
    common.add_argument('--keep-expanded', metavar='FILE', help=_KEEP_EXPANDED_HELP)
    sub = p.add_subparsers(dest='command', metavar='COMMAND', parser_class=_Parser)
    sub.required = True

    c = sub.add_parser('convert', help='convert between formats', parents=[common],
                       description='Convert a description (.urdf .xacro .sdf .world .kindsl) '
                       'to URDF or SDFormat. URDF input goes through the libsdformat-'
                       'compatible converter (gazebo extensions, lumping).')
    c.add_argument('input', help='input file, or - for standard input')
    c.add_argument('mappings', nargs='*', metavar='name:=value',
                   help='xacro arguments, or RobCoGen parameter values')
    c.add_argument('-o', '--output', help='output file (.urdf or .sdf), written atomically')
    c.add_argument('--to', choices=('sdf', 'urdf'), help='output format (default: from -o, '
                   'else sdf)')
    c.add_argument('--model', help='model to take from an SDFormat world')
    c.add_argument('--preserve-fixed-joints', action='store_true',
                   help='URDF to SDF: keep every fixed joint')
    c.add_argument('--sdf-version', default='1.9', choices=CONVERTIBLE_VERSIONS)
    _add_mesh_options(c)
    c.add_argument('--lossy', action='store_true', help='to URDF: write the nearest URDF, '
                   'leaving out (with a warning for each) what URDF cannot hold, instead of '
                   'refusing it')
    c.add_argument('-q', '--quiet', action='store_true', help='do not print warnings')

    for name, helptext in (('check', 'check a description and print its tree'),
                           ('tree', 'print the kinematic tree (text, dot or svg)'),
                           ('fk', 'print every link pose for given joint values')):
        s = sub.add_parser(name, help=helptext, description=helptext, parents=[common])
        s.add_argument('input', help='input file, or - for standard input')
        s.add_argument('assignments', nargs='*', metavar='NAME=VALUE',
                       help='joint values (fk), xacro name:=value, RobCoGen parameters')
        s.add_argument('--model', help='model to take from an SDFormat world')
        if name == 'tree':
            s.add_argument('--format', choices=('text', 'dot', 'svg'), default='text')
            s.add_argument('-o', '--output', help='output file, written atomically')
        if name == 'fk':
            s.add_argument('--json', action='store_true', help='print JSON')
    p.add_argument('--traceback', action='store_true', help=argparse.SUPPRESS)
    return p


def _split_assignments(items):
    """Split positional extras into xacro/DSL ``name:=value`` and joint ``NAME=VALUE``."""
    mappings, values = {}, {}
    for item in items:
        if ':=' in item:
            mappings.update(_mappings([item]))
            continue
        name, sep, value = item.partition('=')
        if not sep or not name:
            raise _UsageError(f'expected NAME=VALUE or name:=value, got {item!r}')
        values[name] = value
    return mappings, values


def _number(text, what):
    """Return ``text`` as a finite float, or raise a usage error naming ``what``."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value):
        raise _UsageError(f'sdf_tools: error: {what} must be a finite number, got {text!r}')
    return value


def _load(args, mappings, packages=None):
    """Load ``args.input``: ``mappings`` are xacro arguments or RobCoGen parameters."""
    from sdf_tools.pipeline import read_model
    description = _read(args, mappings, f'sdf_tools {args.command}', packages)
    fmt = description.fmt
    if args.model is not None and fmt != 'sdf':
        raise _UsageError(f'sdf_tools: error: --model picks a model from an SDFormat world; '
                          f'{description.source} is {fmt}')
    parameters = None
    if fmt == 'kindsl':
        parameters = {name: _number(value, f'RobCoGen parameter {name}:={value}')
                      for name, value in mappings.items()}
    return read_model(description, parameters=parameters, model=args.model)


def _convert(args):
    mappings = _mappings(args.mappings)
    to = args.to
    if to is None and args.output not in (None, '-'):
        ext = os.path.splitext(args.output)[1].lower()
        to = {'.urdf': 'urdf', '.sdf': 'sdf', '.world': 'sdf'}.get(ext)
        if to is None:
            raise _UsageError(f'sdf_tools convert: error: cannot tell the output format of '
                              f'{args.output!r}; use --to')
    to = to or 'sdf'
    if args.lossy and to != 'urdf':
        raise _UsageError('sdf_tools convert: error: --lossy is for conversions to URDF')
    if _same_file(args.input, args.output):
        raise _UsageError('sdf_tools convert: error: the output would overwrite the input')
    packages = _packages(args, 'sdf_tools convert')
    robot = _load(args, mappings, packages)
    warnings = list(robot.warnings)
    if to == 'sdf':
        from sdf_tools.pipeline import to_sdf
        text, converter_warnings = to_sdf(robot, _conversion_options(args, packages))
        warnings += converter_warnings
    else:
        from sdf_tools.formats.urdf.writer import write_urdf
        if args.lossy:
            text, dropped = write_urdf(robot, lossy=True)
            warnings += dropped
        else:
            text = write_urdf(robot)
    _print_diagnostics(warnings, quiet=args.quiet)
    _write_output(text, args.output)
    return EXIT_OK


def _check(args):
    """Print the summary, the tree and every problem; exit 1 if any is an error."""
    from sdf_tools import describe
    from sdf_tools.errors import combine
    from sdf_tools.errors import KinematicsError
    from sdf_tools.kinematics import compile_tree
    mappings, values = _split_assignments(args.assignments)
    if values:
        raise _UsageError(f'sdf_tools check: error: unexpected {next(iter(values))}=...')
    robot = _load(args, mappings)
    problems = list(robot.warnings)
    try:
        compile_tree(robot)
    except KinematicsError as e:
        problems = list(combine(problems, e.diagnostics))
    if robot.source_format == 'urdf':
        from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
        from sdf_tools.files.xacro_origins import SourceMap
        origins = robot.origins or SourceMap()
        with origins.relocating():
            problems.extend(origins.diagnostics(urdf_to_sdf(robot).warnings))
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
    mappings, values = _split_assignments(args.assignments)
    if values:
        raise _UsageError(f'sdf_tools tree: error: unexpected {next(iter(values))}=...')
    if _same_file(args.input, args.output):
        raise _UsageError('sdf_tools tree: error: the output would overwrite the input')
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
        from sdf_tools.errors import Diagnostic
        raise SdfToolsError(Diagnostic("--format svg needs Graphviz's 'dot' program (apt "
                                       'install graphviz); --format dot works without it',
                                       code=Code.NO_GRAPHVIZ))
    proc = subprocess.run([dot, '-Tsvg'], input=dot_text, capture_output=True, text=True,
                          timeout=120)
    if proc.returncode != 0:
        from sdf_tools.errors import Diagnostic
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
    mappings, raw = _split_assignments(args.assignments)
    values = {name: _number(text, f'joint value {name}={text}') for name, text in raw.items()}
    robot = _load(args, mappings)
    tree = compile_tree(robot)
    q, unknown, mimic = tree.joint_vector(values)
    if unknown:
        known = ', '.join(tree.coordinate_names) or '(none: the robot has no moving joints)'
        raise _UsageError(f'sdf_tools fk: error: not a joint coordinate of '
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


def _main(argv):
    rest, extras = _split_extras(argv)
    args = _main_parser().parse_args(rest)
    if args.command == 'convert':
        args.mappings += extras
    else:
        args.assignments += extras
    return {'convert': _convert, 'check': _check, 'tree': _tree, 'fk': _fk}[args.command](args)


def main(argv=None) -> int:
    """Entry point of ``sdf_tools``."""
    argv = sys.argv[1:] if argv is None else argv
    return _run(_main, argv, '--traceback' in argv)


if __name__ == '__main__':
    sys.exit(main())
