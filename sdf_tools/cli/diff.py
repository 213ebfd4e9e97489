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
The body of ``sdf_tools diff A B``: load both, compare them, print the report.

Exit codes, so that it can gate a description package in CI: 0 the two are equal, 1 they
differ, 2 a usage error or an input that cannot be read (each problem printed with its
file and line). The report goes to stdout (``--json``: the schema of
:mod:`sdf_tools.comparing`), the readers' warnings to stderr.

``--picture`` never changes what the comparison says: a name that cannot be a picture (not
``.png``/``.svg``, in no folder, a folder) is a usage error (2) and a missing matplotlib a
missing optional tool (1, as for every command), both found before anything is read; a
picture that cannot then be drawn or written is an error on stderr, and the exit code is
still the comparison's. The picture's legend names both files, its caption the configuration
shown. A side without a kinematic tree only because a ``<mimic>`` names a missing joint is
drawn with that joint moving on its own.
"""

import argparse
from collections.abc import Iterable
import json
import math
import os
import sys
from typing import TYPE_CHECKING

from sdf_tools.cli.arguments import mappings_of
from sdf_tools.cli.arguments import UsageError
from sdf_tools.cli.common import EXIT_INVALID
from sdf_tools.cli.common import load_input
from sdf_tools.cli.common import print_diagnostics
from sdf_tools.errors import SdfToolsError
from sdf_tools.model import Robot
from sdf_tools.outputs import write_output

if TYPE_CHECKING:  # the command imports comparing (and numpy) when it runs
    import numpy as np
    import numpy.typing as npt
    from sdf_tools.comparing.results import Comparison

EXIT_EQUAL = 0
EXIT_DIFFERENT = 1
EXIT_UNREADABLE = 2
_PROG = 'sdf_tools diff'


def diff_command(args: argparse.Namespace) -> int:
    """Compare ``args.a`` and ``args.b`` (module docstring); return the exit code."""
    from sdf_tools.comparing import diff
    from sdf_tools.comparing import DiffOptions
    from sdf_tools.comparing.report import to_json
    from sdf_tools.comparing.report import to_text
    if args.a == '-' and args.b == '-':
        raise UsageError(f'{_PROG}: error: only one of A and B can be standard input')
    try:
        picture_format = _picture_format(args)
    except SdfToolsError as e:  # no matplotlib: a missing optional tool
        print_diagnostics(e.diagnostics)
        return EXIT_INVALID
    both = _mappings(args.assignments)
    try:
        loaded = [load_input(args, {**both, **mappings_of(extra)}, _PROG, path=path,
                             outputs=(args.picture,))
                  for path, extra in ((args.a, args.a_arg), (args.b, args.b_arg))]
        comparison = diff(loaded[0], loaded[1], DiffOptions(args.tol, args.configurations,
                                                            args.seed))
    except SdfToolsError as e:
        print_diagnostics(e.warnings + e.diagnostics)
        return EXIT_UNREADABLE
    except OSError as e:
        print(f'Error: {e.filename or ""}: {e.strerror or e}', file=sys.stderr)
        return EXIT_UNREADABLE
    # A file compared with itself (or with a file both read) warns once, not once a side.
    print_diagnostics(tuple(dict.fromkeys(loaded[0].warnings + loaded[1].warnings)),
                      quiet=args.quiet)
    if args.json:
        text = json.dumps(_finite(to_json(comparison)), indent=2) + '\n'
    else:
        text = to_text(comparison)
    write_output(None, text)
    if picture_format is not None:
        try:
            _draw(comparison, args, picture_format)
        except SdfToolsError as e:
            print_diagnostics(e.diagnostics)
            print(f'{_PROG}: the picture {args.picture} is not written', file=sys.stderr)
        except OSError as e:
            print(f'Error: {e.filename or args.picture}: {e.strerror or e}', file=sys.stderr)
    return EXIT_EQUAL if comparison.equal else EXIT_DIFFERENT


def _picture_format(args: argparse.Namespace) -> str | None:
    """Return ``--picture``'s format (``png``/``svg``), checked before anything is loaded."""
    if args.picture is None:
        return None
    fmt = {'.png': 'png', '.svg': 'svg'}.get(os.path.splitext(args.picture)[1].lower())
    if fmt is None:
        raise UsageError(f'{_PROG}: error: cannot tell the picture format of '
                         f'{args.picture!r}: name a .png or .svg file')
    folder = os.path.dirname(args.picture) or os.curdir
    if not os.path.isdir(folder):
        raise UsageError(f'{_PROG}: error: --picture {args.picture}: the folder that would '
                         'hold it does not exist')
    if os.path.isdir(args.picture):
        raise UsageError(f'{_PROG}: error: --picture {args.picture}: it is a folder')
    from sdf_tools.drawing import require_matplotlib
    require_matplotlib()  # say at once what is missing
    return fmt


def _draw(comparison: 'Comparison', args: argparse.Namespace, fmt: str) -> None:
    """Draw both sides over each other where their link poses differ most."""
    from sdf_tools.drawing import overlay
    from sdf_tools.drawing import ViewOptions
    from sdf_tools.drawing.caption import configuration
    poses = comparison.poses
    worst = poses.position_configuration or poses.angle_configuration or 0
    poses_a, poses_b = comparison.link_poses(worst)
    sides = ((comparison.a, args.a), (comparison.b, args.b))
    sources = tuple((side.loaded.resources,
                     None if path == '-' else os.path.dirname(os.path.abspath(path)))
                    for side, path in sides)
    labels = tuple(f'{tag} ({_name(side.loaded.source)})'
                   for tag, (side, _) in zip('AB', sides))
    shown = 'at the zero configuration' + ('' if poses_a else ' (poses not compared)')
    if worst:
        shown = (f'at configuration {worst} of {len(poses.configurations)}, where the links '
                 f'are farthest apart: {configuration(poses.configurations[worst])}')
    picture = overlay((comparison.a.robot, poses_a or _zero_poses(comparison.a.robot)),
                      (comparison.b.robot, poses_b or _zero_poses(comparison.b.robot)),
                      ViewOptions(fmt=fmt), labels=labels, sources=sources,
                      tolerance=comparison.tolerance, caption=(shown,))
    warnings = [d for d in picture.warnings
                if d not in comparison.a.loaded.warnings + comparison.b.loaded.warnings]
    print_diagnostics(warnings, quiet=args.quiet)
    picture.save(args.picture)


def _name(source: str) -> str:
    """Return a side's file name for the picture's legend (``<stdin>`` as it is)."""
    return os.path.basename(source) or source


def _zero_poses(robot: Robot) -> 'dict[str, npt.NDArray[np.float64]]':
    """
    Return a side's link poses at zero when the comparison has none (no kinematic tree).

    A ``<mimic>`` naming a missing joint moves its joint on its own here (as
    ``--missing-mimic ignore`` does); a robot that still has no tree raises
    :class:`~sdf_tools.errors.KinematicsError`.
    """
    from sdf_tools.kinematics import compile_tree
    from sdf_tools.kinematics import forward_kinematics
    tree = compile_tree(robot, missing_mimic='ignore')
    return dict(zip(tree.link_names, forward_kinematics(tree, tree.joint_vector({}).q)))


def _mappings(items: Iterable[str]) -> dict[str, str]:
    """Return the ``name:=value`` words for both sides (joint values make no sense here)."""
    for item in items:
        if ':=' not in item:
            raise UsageError(f'{_PROG}: error: expected name:=value, got {item!r}')
    return mappings_of(items)


def _finite(value: object) -> object:
    """Return JSON data with infinite and NaN numbers written as text (JSON has none)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value
