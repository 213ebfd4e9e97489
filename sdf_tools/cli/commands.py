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
The bodies of ``urdf2sdf`` and ``sdf_tools convert|check|tree|fk`` (``view``: :mod:`.view`).

Each takes the parsed arguments, loads the input (:func:`sdf_tools.loading.load`), runs the job,
prints the diagnostics and writes the result (``-o`` atomically). The converter, the readers
and numpy are imported inside the commands that use them.
"""

from argparse import Namespace
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
import os
from typing import TYPE_CHECKING

from sdf_tools.cli.arguments import mappings_of
from sdf_tools.cli.arguments import number
from sdf_tools.cli.arguments import split_assignments
from sdf_tools.cli.arguments import UsageError
from sdf_tools.cli.common import EXIT_INVALID
from sdf_tools.cli.common import EXIT_OK
from sdf_tools.cli.common import limit_warnings
from sdf_tools.cli.common import load_input
from sdf_tools.cli.common import print_diagnostics
from sdf_tools.cli.common import write_result
from sdf_tools.errors import Code
from sdf_tools.errors import combine
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import short_name

if TYPE_CHECKING:  # the commands import what they use when they run
    import numpy as np
    import numpy.typing as npt

    from sdf_tools.convert.urdf_to_sdf import ConversionOptions
    from sdf_tools.loading import Loaded
    from sdf_tools.model import Limit
    from sdf_tools.model import Robot
    from sdf_tools.resources.packages import PackageResolver


def _conversion_options(args: Namespace, packages: 'PackageResolver',
                        ) -> 'ConversionOptions':
    """Return the ConversionOptions of ``urdf2sdf`` / ``sdf_tools convert`` arguments."""
    from sdf_tools.convert.urdf_to_sdf import ConversionOptions
    folder = None if args.input == '-' else os.path.dirname(os.path.abspath(args.input))
    return ConversionOptions(preserve_fixed_joints=args.preserve_fixed_joints,
                             sdf_version=args.sdf_version, mesh_uris=args.mesh_uris,
                             packages=packages, input_folder=folder,
                             auto_inertials=args.auto_inertials)


def urdf2sdf(args: Namespace) -> int:
    """Convert URDF (or xacro) to SDFormat: the body of ``urdf2sdf``."""
    from sdf_tools.loading import to_sdf
    mappings = mappings_of(args.mappings)
    loaded = load_input(args, mappings, 'urdf2sdf', formats=('urdf',))
    converted = to_sdf(loaded, _conversion_options(args, loaded.resources.packages))
    print_diagnostics(combine(loaded.warnings, converted.warnings), quiet=args.quiet)
    write_result(args.output, converted.sdf, loaded, 'urdf2sdf', read=converted.inputs)
    return EXIT_OK


def _convert(args: Namespace) -> int:
    mappings = mappings_of(args.mappings)
    to = args.to
    if to is None and args.output not in (None, '-'):
        ext = os.path.splitext(args.output)[1].lower()
        to = {'.urdf': 'urdf', '.sdf': 'sdf', '.world': 'sdf'}.get(ext)
        if to is None:
            raise UsageError(f'sdf_tools convert: error: cannot tell the output format of '
                             f'{args.output!r}; use --to')
    to = to or 'sdf'
    for option, given in (('--lossy', args.lossy),
                          ('--unlimited-prismatic', args.unlimited_prismatic),
                          ('--unlimited-effort', args.unlimited_effort)):
        if given and to != 'urdf':
            raise UsageError(f'sdf_tools convert: error: {option} is for conversions to URDF')
    loaded = load_input(args, mappings, 'sdf_tools convert')
    warnings = list(loaded.warnings)
    read: tuple[str, ...] = ()
    if to == 'sdf':
        from sdf_tools.loading import to_sdf
        converted = to_sdf(loaded, _conversion_options(args, loaded.resources.packages))
        text, read = converted.sdf, converted.inputs
        warnings = list(combine(warnings, converted.warnings))  # each problem once
    else:
        from sdf_tools.formats.urdf.writer import write_urdf
        text, written = write_urdf(loaded.robot, lossy=args.lossy,
                                   unlimited_prismatic=_prismatic_limit(args.unlimited_prismatic),
                                   unlimited_effort=_unlimited_effort(args.unlimited_effort))
        warnings += written
    print_diagnostics(warnings, quiet=args.quiet)
    write_result(args.output, text, loaded, 'sdf_tools convert', read=read)
    return EXIT_OK


def _prismatic_limit(values: Sequence[float] | None) -> 'Limit | None':
    """Return ``--unlimited-prismatic LOWER UPPER EFFORT VELOCITY`` as a Limit (or None)."""
    if values is None:
        return None
    from sdf_tools.model import Limit
    lower, upper, effort, velocity = values
    if lower > upper or effort < 0.0 or velocity < 0.0:
        raise UsageError('sdf_tools convert: error: --unlimited-prismatic LOWER UPPER EFFORT '
                         'VELOCITY needs LOWER <= UPPER and EFFORT, VELOCITY >= 0, got '
                         + ' '.join(f'{v:g}' for v in values))
    return Limit(lower, upper, effort, velocity)


def _unlimited_effort(values: Sequence[float] | None) -> tuple[float, ...] | None:
    """Return ``--unlimited-effort EFFORT VELOCITY`` as a tuple (or None)."""
    if values is not None and min(values) <= 0.0:
        raise UsageError('sdf_tools convert: error: --unlimited-effort EFFORT VELOCITY stands '
                         'for limits that are not enforced and needs both above 0, got '
                         + ' '.join(f'{v:g}' for v in values))
    return None if values is None else tuple(values)


def _check(args: Namespace) -> int:
    """
    Print the summary, the tree and every problem; exit 1 if any is an error.

    A description that cannot be read whole gets the summary of what was read (the reader's
    model, unchecked) and every problem, warnings and errors.
    """
    from sdf_tools import describe
    from sdf_tools.loading import check
    from sdf_tools.model import Robot
    mappings, values = split_assignments(args.assignments)
    if values:
        raise UsageError(f'sdf_tools check: error: unexpected {next(iter(values))}=...')
    try:
        loaded = load_input(args, mappings, 'sdf_tools check', whole_document=True)
    except SdfToolsError as e:
        partial = e.partial
        text = describe.summary(partial) + '\n' if isinstance(partial, Robot) else ''
        return _check_result(text, e.warnings + e.diagnostics, None,
                             () if args.input == '-' else (args.input,))
    problems = check(loaded, missing_mimic=args.missing_mimic)
    text = ''
    worlds = () if loaded.document is None else loaded.document.worlds
    if any(world.name is not None for world in worlds) or (worlds and not loaded.models):
        text += ''.join(describe.world_line(world) + '\n' for world in worlds)
    for robot in loaded.models:
        text += describe.summary(robot) + '\n' + describe.tree_text(robot)
    return _check_result(text, problems, loaded)


def _check_result(text: str, problems: Sequence[Diagnostic], loaded: 'Loaded | None',
                  read: tuple[str, ...] = ()) -> int:
    """
    Print ``text`` and the problems (in file order, repeats grouped); return the exit code.

    Standard output may not be a file read: what ``loaded`` was made of, or (nothing loaded
    whole) ``read``.
    """
    from sdf_tools.errors import presented
    from sdf_tools.loading import errors_in
    errors = errors_in(problems)
    lines = ['problems:'] + [f'  {d}' for d in presented(problems)] if problems else []
    lines.append(f'{"OK" if not errors else "INVALID"}: {errors} error(s), '
                 f'{len(problems) - errors} warning(s)')
    write_result(None, text + ''.join(line + '\n' for line in lines), loaded,  # one write: a
                 'sdf_tools check', read=read)                       # failure names <stdout>
    return EXIT_INVALID if errors else EXIT_OK


def _tree(args: Namespace) -> int:
    from sdf_tools import describe
    mappings, values = split_assignments(args.assignments)
    if values:
        raise UsageError(f'sdf_tools tree: error: unexpected {next(iter(values))}=...')
    loaded = load_input(args, mappings, 'sdf_tools tree')
    print_diagnostics(loaded.warnings)
    robot = loaded.robot
    if args.format == 'text':
        text = describe.tree_text(robot)
    else:
        text = describe.tree_dot(robot)
        if args.format == 'svg':
            text = _render_svg(text)
    write_result(args.output, text, loaded, 'sdf_tools tree')
    return EXIT_OK


def _render_svg(dot_text: str) -> str:
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


def _fk(args: Namespace) -> int:
    """Print every link's pose in the root (URDF) or model (SDFormat) frame."""
    import json
    from sdf_tools import transforms
    from sdf_tools.kinematics import compile_tree
    from sdf_tools.kinematics import forward_kinematics
    from sdf_tools.kinematics import frame_poses
    mappings, raw = split_assignments(args.assignments)
    values = {name: number(text, f'joint value {name}={text}') for name, text in raw.items()}
    loaded = load_input(args, mappings, 'sdf_tools fk')
    robot = loaded.robot
    _no_joint_arguments(loaded, mappings)
    tree = compile_tree(robot, missing_mimic=args.missing_mimic)
    print_diagnostics(combine(loaded.warnings, tree.warnings) +
                      limit_warnings(robot, values))  # each problem once
    q, unknown, mimic = tree.joint_vector(values)
    if unknown:
        known = _names(tree.coordinate_names) or '(none: the robot has no moving joints)'
        raise UsageError(f"sdf_tools fk: error: not a joint coordinate of '"
                         f"{short_name(robot.name)}': {_names(unknown)}; use: {known}")
    # A mimic joint's value wins over its formula, as in the state publisher's joint_states.
    poses = forward_kinematics(tree, q, mimic_values={name: values[name] for name in mimic})
    names = list(tree.link_names)
    matrices = list(poses)
    if tree.frame_names:
        names += list(tree.frame_names)
        matrices += list(frame_poses(tree, link_poses=poses))
    _refuse_overflow(robot, names, matrices)
    result = {}
    for name, t in zip(names, matrices):
        result[name] = {'xyz': [float(v) + 0.0 for v in t[:3, 3]],
                        'quat_xyzw': [float(v) + 0.0 for v in
                                      transforms.quat_from_matrix(t[:3, :3])]}
    if args.json:  # names whole: data for programs
        text = json.dumps(result, indent=2, allow_nan=False) + '\n'  # JSON has no inf
    else:
        text = _pose_table(result)
    write_result(None, text, loaded, 'sdf_tools fk')
    return EXIT_OK


def _pose_table(poses: dict[str, dict[str, list[float]]]) -> str:
    """Return ``fk``'s table: a line per link or frame (its name as messages quote it)."""
    shown = [short_name(name) for name in poses]
    width = max(map(len, shown), default=0)
    lines = [f'{"":{width}}  {"x":>10} {"y":>10} {"z":>10}   {"qx":>9} {"qy":>9} '
             f'{"qz":>9} {"qw":>9}']
    for name, pose in zip(shown, poses.values()):
        x, y, z = pose['xyz']
        qx, qy, qz, qw = pose['quat_xyzw']
        lines.append(f'{name:{width}}  {x:10.6f} {y:10.6f} {z:10.6f}   {qx:9.6f} '
                     f'{qy:9.6f} {qz:9.6f} {qw:9.6f}')
    return '\n'.join(lines) + '\n'


def _names(names: Iterable[str], most: int = 20) -> str:
    """Return the first ``most`` names (as messages quote them), and how many more."""
    names = list(names)
    more = f', ... ({len(names) - most} more)' if len(names) > most else ''
    return ', '.join(short_name(name) for name in names[:most]) + more


def _refuse_overflow(robot: 'Robot', names: Sequence[str],
                     matrices: Sequence['npt.NDArray[np.float64]']) -> None:
    """
    Raise for the first link or frame whose pose overflowed, as check and urdf2sdf refuse it.

    Composing finite joint origins and values can overflow (two ``xyz="1e308 0 0"``): the
    error names the joint that places the link (or the frame) and its line.
    """
    import numpy as np
    index = robot.index
    for name, t in zip(names, matrices):
        if np.isfinite(t).all():
            continue
        joint = index.parent_joint.get(name)
        item = joint if joint is not None else index.frames.get(name)
        what = 'frame' if joint is None and name not in index.links else 'link'
        entity = (f"joint '{short_name(joint.name)}'" if joint is not None
                  else f"{what} '{short_name(name)}'")
        xyz = ' '.join(f'{float(v):g}' for v in t[:3, 3])
        raise KinematicsError(Diagnostic(
            f"the pose of {what} '{short_name(name)}' is not finite (xyz {xyz}): the joint "
            'origins and values composed from the root are too large',
            getattr(item, 'location', None), entity, code=Code.BAD_POSE))


def _export(args: Namespace) -> int:
    from sdf_tools.cli.export import export_command  # imports this module: not at the top
    return export_command(args)


def _view(args: Namespace) -> int:
    from sdf_tools.cli.view import view  # the drawing and matplotlib: only for pictures
    return view(args)


def _diff(args: Namespace) -> int:
    from sdf_tools.cli.diff import diff_command  # the comparison is imported for diff only
    return diff_command(args)


def _no_joint_arguments(loaded: 'Loaded', mappings: Mapping[str, str]) -> None:
    """Refuse ``NAME:=VALUE`` that changed nothing when NAME is a joint: a joint value."""
    coordinates = {name for joint in loaded.robot.joints
                   for name in (joint.name,) + tuple(joint.kind.coordinate_names(joint.name))}
    misplaced = [name for name in loaded.unused if name in coordinates]
    if misplaced:
        given = ' '.join(f'{short_name(name)}:={mappings[name]}' for name in misplaced)
        use = ' '.join(f'{short_name(name)}={mappings[name]}' for name in misplaced)
        joints = _names(misplaced) + (' is a joint' if len(misplaced) == 1 else ' are joints')
        raise UsageError(f'sdf_tools fk: error: {given}: name:=value is a xacro argument, and '
                         f"{loaded.source} has no such argument; {joints} of '"
                         f"{short_name(loaded.robot.name)}': joint values are NAME=VALUE (use "
                         f'{use})')


#: ``sdf_tools COMMAND``'s bodies, each taking the parsed arguments and returning the exit code.
COMMANDS = {'convert': _convert, 'check': _check, 'tree': _tree, 'fk': _fk, 'diff': _diff,
            'export': _export, 'view': _view}
