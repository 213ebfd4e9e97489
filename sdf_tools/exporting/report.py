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
What export says about a model folder as a whole.

* :func:`summary`: one warning counting the files the model uses and those copied, and
  naming those left out for a common reason (:attr:`~sdf_tools.exporting.assets.Plan.left`),
  a few of each group and how many: ``copied 0 of 14 meshes; missing: 14 files of package
  'ur_description', which was not found (...): meshes/base.dae, ... and 11 more``;
* :func:`loop_joints`: one warning naming the joints of ``<gazebo>`` blocks that close
  kinematic loops. ``sdf_tools check`` of the folder reports each, and Gazebo's DART
  engine does not build them (the joint is missing from the simulated model);
* :func:`refuse_unless_self_contained`: for ``--strict``, the error that keeps the folder
  from being written when a warning says it would not hold everything the model uses.
"""

from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.errors import short_name
from sdf_tools.errors import SourceLocation
from sdf_tools.records import replace
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.xmlio.parse import local_name

if TYPE_CHECKING:
    from sdf_tools.exporting.assets import Plan
    from sdf_tools.model import GazeboExtension
    from sdf_tools.model import Robot

#: ``Plan.used``: ``(kind, outcome)`` -> how many files.
_Used = Mapping[tuple[str, str], int]

#: Names listed for each group of a message; the rest are counted.
LISTED = 3
#: The warnings that say the folder does not hold something the model uses.
NOT_HELD = frozenset({Code.NOT_COPIED, Code.NOT_SELF_CONTAINED})


class NotSelfContained(SdfToolsError):
    """``--strict``: the folder would not hold everything the model uses; nothing written."""


def summary(plan: 'Plan', source: str) -> tuple[Diagnostic, ...]:
    """
    Return the warning saying what of ``plan`` is not copied (module docstring), or nothing.

    Parameters
    ----------
    plan : Plan
        Its ``used`` counts and ``left`` uses.
    source : str
        The description, where the warning is.

    """
    if not lacking(plan.used):
        return ()
    parts = ['copied ' + counted(plan.used)]
    groups: dict[str, tuple[str | PackageNotFoundError, list[str]]] = {}
    for left in plan.left:
        key = left.why.package if isinstance(left.why, PackageNotFoundError) else left.why
        groups.setdefault(key, (left.why, []))[1].append(left.name)
    for why, names in groups.values():
        parts.append(_group(why, names))
    refused = sum(n for (_, outcome), n in plan.used.items() if outcome == 'refused')
    if refused:
        parts.append(f'{refused} more not copied, each said above')
    return (Diagnostic('; '.join(parts), SourceLocation(source), None, Severity.WARNING,
                       Code.NOT_COPIED),)


def lacking(used: _Used) -> bool:
    """Return whether ``used`` (``Plan.used``) counts a file that is not copied."""
    return any(n for (_, outcome), n in used.items() if outcome != 'copied')


def counted(used: _Used, outcome: str = 'copied') -> str:
    """
    Return how many of the files ``used`` counts have ``outcome``, of how many, by kind.

    ``used`` is ``Plan.used``; ``outcome`` ``'copied'`` (``0 of 14 meshes and 1 of 2 other
    files``) or ``'not copied'``.
    """
    said: list[str] = []
    for kind in ('mesh', 'other'):
        total = sum(n for (k, _), n in used.items() if k == kind)
        copied = used.get((kind, 'copied'), 0)
        nouns = ('mesh', 'meshes') if kind == 'mesh' else \
            ('other file', 'other files') if said else ('file', 'files')
        if total:
            number = copied if outcome == 'copied' else total - copied
            said.append(f'{number} of {_count(total, *nouns)}')
    return ' and '.join(said)


def _group(why: 'str | PackageNotFoundError', names: list[str]) -> str:
    """Return the part of :func:`summary` saying one group of ``Plan.left``."""
    listed = listing(names)
    if isinstance(why, PackageNotFoundError):
        detail = str(why).partition(' not found; ')[2]
        return (f"missing: {_count(len(names), 'file', 'files')} of package '{why.package}', "
                f'which was not found ({detail}): {listed}')
    if why == 'missing':
        return f'missing (no such file): {listed}'
    return ('not copied, in no ROS package or model folder (one holding package.xml or '
            f'model.config: export copies only their files): {listed}')


def listing(names: Iterable[str]) -> str:
    """Return the first :data:`LISTED` names, each as messages quote it, and how many more."""
    names = list(names)
    shortened = [short_name(name) for name in names[:LISTED]]
    more = f' and {len(names) - LISTED} more' if len(names) > LISTED else ''
    return ', '.join(shortened) + more


def _count(number: int, one: str, many: str) -> str:
    return f'{number} {one if number == 1 else many}'


def loop_joints(robot: 'Robot', sdf: str, file: str) -> tuple[Diagnostic, ...]:
    """
    Return one warning naming the joints of ``<gazebo>`` blocks that close kinematic loops.

    Parameters
    ----------
    robot : Robot
        The description (URDF: its loops can only come from ``<gazebo>`` blocks; the other
        formats' readers warn about theirs).
    sdf : str
        The SDFormat written for it, read back as ``sdf_tools check`` reads the folder.
    file : str
        Its name for messages (the folder's ``model.sdf``).

    """
    blocks: dict[str | None, GazeboExtension] = {}  # joint name -> the <gazebo> declaring it
    for block in robot.gazebo if robot.source_format == 'urdf' else ():
        for element in block.elements:
            if isinstance(element.tag, str) and local_name(element) == 'joint':
                blocks.setdefault(element.get('name'), block)
    if not blocks:
        return ()
    from sdf_tools.formats.sdf.reader import parse_sdf  # only for such a robot
    try:
        loops = parse_sdf(sdf, file).index.loop_joints
    except SdfToolsError:  # past the reader's size limits (what it reads is the converter's)
        return ()
    if not loops:
        return ()
    first = blocks.get(loops[0].name)
    return (Diagnostic(
        f'{_count(len(loops), "joint", "joints")} of <gazebo> blocks '
        f'{"closes a kinematic loop" if len(loops) == 1 else "close kinematic loops"} '
        f'({listing(joint.name for joint in loops)}): each joins a link that already has a '
        "parent joint, and Gazebo's DART physics engine does not build such a joint, so the "
        f'loop stays open in simulation (sdf_tools check {file} lists them)',
        first.location if first is not None else loops[0].location, None, Severity.WARNING,
        Code.KINEMATIC_LOOP),)


def refuse_unless_self_contained(warnings: Sequence[Diagnostic], folder: str) -> None:
    """
    Raise :class:`NotSelfContained` if a warning says the folder lacks what the model uses.

    Those warnings (:data:`NOT_HELD`) become errors, after the other warnings, and a last
    error says that nothing was written.
    """
    lacking = [replace(w, severity=Severity.ERROR) for w in warnings if w.code in NOT_HELD]
    if lacking:
        raise NotSelfContained([w for w in warnings if w.code not in NOT_HELD] + lacking + [
            Diagnostic(f'{folder}: not written, because it would not hold everything the '
                       'model uses (--strict)', code=Code.NOT_SELF_CONTAINED)])
