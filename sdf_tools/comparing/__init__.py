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
Two robot descriptions compared by what they mean: ``sdf_tools diff A B``.

:func:`diff` takes two loaded descriptions (:func:`sdf_tools.loading.load`, any format) and
returns a :class:`~.results.Comparison`: every difference grouped by entity (model, links,
joints, frames, URDF ``<gazebo>`` references), each with both sides' values and places, the
link poses compared by forward kinematics, and notes. Order, formatting, number precision
and names that only follow a rename do not count.

What is compared
----------------
* links and joints only on one side, or likely renamed, or all renamed by one prefix (a
  xacro ``prefix:=arm_``: one difference, :mod:`.matching`); joint type, the
  links it joins, its frame, axes, limits, dynamics, mimic, calibration, safety controller
  (:mod:`.joints`); mass, centre of mass and inertia tensor in the link frame; visuals and
  collisions: geometry, pose, material, the mesh file a URI leads to (:mod:`.links`,
  :mod:`.parts`); frames; the model's name, ``<static>`` and pose (:mod:`.model`);
* content sdf_tools keeps without modelling it (sensors, plugins, surfaces, ``<gazebo>``
  blocks, ``<transmission>``) as the settings it holds (:mod:`.blobs`);
* link poses in the model frame at the zero configuration and at seeded random ones
  (:mod:`.poses`): the largest distance and angle, and where; a pose difference no other
  difference explains is a difference of its own.

Lumping
-------
A URDF compared with an SDFormat model is compared as SDFormat holds it: converted as
``urdf2sdf`` converts it, fixed joints lumped, ``<gazebo>`` content applied (:mod:`.sides`),
so a URDF and its SDFormat (ours or libsdformat's) are equal in everything lumping keeps;
the notes say which links were merged into which and what else the conversion changed.
Two URDFs, two SDFormat files or a RobCoGen model are compared as read.

Tolerance
---------
``DiffOptions.tol`` (default :data:`DEFAULT_TOLERANCE`, ``1e-6``): numbers within ``tol``
times the larger of 1 and their size are equal (masses and inertias: relative to the
larger); poses within ``tol`` m and rad (:mod:`.values`). It ignores printing precision
(libsdformat writes 16 significant digits; urdfdom keeps colours as 32-bit floats).

JSON (``sdf_tools diff --json``, :func:`.report.to_json`)
--------------------------------------------------------
An object: ``equal`` (bool), ``tolerance``, ``a`` and ``b`` (``source``, ``format``,
``xacro``, ``lumped``: whether compared as SDFormat), ``differences`` (a list of objects
with ``entity``, ``name``, ``kind``, ``part``, ``field``, ``a``, ``b`` (JSON values, ``null``
when absent; a pose is ``{"xyz": [...], "rpy": [...]}``), ``a_location`` and
``b_location`` (``"file:line"`` or ``null``) and ``detail``), ``poses`` (``configurations``:
the joint values used, zero first; ``links``; ``position_error`` (m), ``position_link``,
``position_configuration``; ``angle_error`` (rad), ``angle_link``,
``angle_configuration``; ``unexplained``; ``skipped``), and ``notes`` (``kind``, ``text``,
``location``). ``kind`` is one of :data:`.results.KINDS`.
"""

from typing import TYPE_CHECKING

from sdf_tools.comparing.context import Context
from sdf_tools.comparing.joints import compare_joints
from sdf_tools.comparing.joints import KINEMATIC
from sdf_tools.comparing.links import compare_links
from sdf_tools.comparing.links import same_content
from sdf_tools.comparing.matching import match
from sdf_tools.comparing.matching import Matching
from sdf_tools.comparing.model import compare_frames
from sdf_tools.comparing.model import compare_gazebo
from sdf_tools.comparing.model import compare_model
from sdf_tools.comparing.parts import MeshFiles
from sdf_tools.comparing.poses import check_poses
from sdf_tools.comparing.results import Comparison
from sdf_tools.comparing.results import Difference
from sdf_tools.comparing.results import Note
from sdf_tools.comparing.results import PoseCheck
from sdf_tools.comparing.results import Side
from sdf_tools.comparing.sides import lumped
from sdf_tools.comparing.sides import sdf_version
from sdf_tools.errors import KinematicsError
from sdf_tools.loading import Loaded
from sdf_tools.model import Robot
from sdf_tools.records import record

if TYPE_CHECKING:  # numpy is imported when comparing
    from sdf_tools.kinematics.tree import KinematicTree

__all__ = ['Comparison', 'DEFAULT_TOLERANCE', 'diff', 'DiffOptions', 'Difference', 'Note',
           'PoseCheck', 'Side']

#: The default tolerance (module docstring).
DEFAULT_TOLERANCE = 1e-6
_ENTITIES = ('model', 'link', 'joint', 'frame', 'gazebo')


@record(frozen=True)
class DiffOptions:
    """
    How :func:`diff` compares.

    Attributes
    ----------
    tol : float
        The tolerance (module docstring).
    configurations : int
        Random configurations whose link poses are compared, besides the zero one.
    seed : int
        Of the random configurations.

    """

    tol: float = DEFAULT_TOLERANCE
    configurations: int = 4
    seed: int = 0


def diff(a: Loaded, b: Loaded, options: DiffOptions | None = None) -> Comparison:
    """
    Compare two loaded descriptions (module docstring).

    Parameters
    ----------
    a, b : Loaded
        From :func:`sdf_tools.loading.load`.
    options : DiffOptions, optional
        Tolerance and configurations.

    Returns
    -------
    Comparison
        ``.equal`` when nothing differs; ``.differences``, ``.notes``, ``.poses``; both
        sides' robots and trees (``.a``, ``.b``).

    Raises
    ------
    SdfToolsError
        A URDF side cannot be converted to SDFormat for comparison with the other.
    ValueError
        ``options`` out of range.

    """
    options = options or DiffOptions()
    if not (options.tol >= 0.0) or options.configurations < 0:
        raise ValueError('the tolerance and the number of configurations must not be negative')
    side_a, side_b, notes, blocks = _sides(a, b)
    meshes = MeshFiles(a, b)
    matching = match(side_a.robot, side_b.robot,
                     same_content(side_a, side_b, options.tol, meshes))
    ctx = Context(side_a, side_b, options.tol, matching, blocks)
    compare_model(ctx)
    compare_links(ctx, meshes)
    compare_joints(ctx)
    compare_frames(ctx)
    compare_gazebo(ctx)
    poses = check_poses(side_a, side_b, matching, _explained(ctx), options.tol,
                        options.configurations, options.seed)
    if poses.skipped:
        notes += (Note('poses', f'poses not compared: {poses.skipped}'),)
    differences = ctx.differences + _unexplained(side_a, side_b, poses, matching)
    return Comparison(side_a, side_b, _grouped(differences), notes, poses, options.tol,
                      dict(matching.links), dict(matching.joints))


def _sides(a: Loaded, b: Loaded) -> tuple:
    """Return both sides, the notes about them and where their ``<gazebo>`` content is from."""
    notes: tuple = ()
    blocks: list = [{}, {}]
    sides = []
    formats = (a.robot.source_format, b.robot.source_format)
    for k, (loaded, other) in enumerate(((a, b), (b, a))):
        if formats == (('urdf', 'sdf') if k == 0 else ('sdf', 'urdf')):
            view = lumped(loaded, frozenset(other.robot.index.links), sdf_version(other))
            notes += view.notes
            blocks[k] = view.blocks
            sides.append(Side(loaded, view.robot, True, _compiled(view.robot)))
        else:
            sides.append(Side(loaded, loaded.robot, False, _compiled(loaded.robot)))
    return sides[0], sides[1], notes, tuple(blocks)


def _compiled(robot: Robot) -> 'KinematicTree | None':
    """Return the robot's kinematic tree, or ``None`` if it cannot be compiled."""
    from sdf_tools.kinematics import compile_tree  # numpy: imported when comparing
    try:
        return compile_tree(robot)
    except KinematicsError:
        return None


def _explained(ctx: Context) -> set:
    """Return the side A links whose pose moves because of a difference already found."""
    a, b = ctx.a.robot, ctx.b.robot
    back = {other: name for name, other in ctx.matching.links.items()}
    explained: set = set()
    for d in ctx.differences:
        if d.entity == 'joint' and d.kind in KINEMATIC:
            if d.kind != 'only-in-b':
                explained.add(a.joint(d.name).child)
            if d.kind != 'only-in-a':
                joint = b.joint(d.name if d.kind == 'only-in-b' else ctx.matching.joints[d.name])
                explained.add(back.get(joint.child))
        elif d.entity == 'link' and d.kind in ('pose', 'renamed') and not d.part:
            explained.add(d.name)
    return explained


def _unexplained(a: Side, b: Side, poses: PoseCheck, matching: Matching) -> list[Difference]:
    """Return a difference for each link whose pose nothing else explains."""
    out: list[Difference] = []
    for name in poses.unexplained:
        other = matching.links[name]
        out.append(Difference(
            'link', name, 'poses', part='', a=None, b=None,
            a_location=a.robot.link(name).location, b_location=b.robot.link(other).location,
            detail='its pose relative to its parent link differs in some configuration, '
            'though its joint reads the same'))
    return out


def _grouped(differences: list) -> tuple[Difference, ...]:
    """Return the differences grouped by entity, then by name (first seen first)."""
    first: dict = {}
    for i, d in enumerate(differences):
        first.setdefault((d.entity, d.name), i)
    return tuple(sorted(differences, key=lambda d: (_ENTITIES.index(d.entity),
                                                    first[(d.entity, d.name)])))
