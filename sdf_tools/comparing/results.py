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
The records a comparison produces: differences, notes, the pose check and both sides.

Every value a :class:`Difference` holds (``a``, ``b``) is JSON as it is: a number, a string,
a list of numbers or a small dict (a pose is ``{'xyz': [...], 'rpy': [...]}``, m and rad);
``None`` means absent on that side.
"""

from typing import Any
from typing import TYPE_CHECKING

from sdf_tools.errors import SourceLocation
from sdf_tools.loading import Loaded
from sdf_tools.model import Robot
from sdf_tools.records import record

if TYPE_CHECKING:
    from sdf_tools.kinematics import KinematicTree

#: What a difference is about (``Difference.kind``), in report order within an entity.
KINDS = (
    'only-in-a', 'only-in-b', 'renamed', 'prefix', 'name', 'type', 'parent', 'child', 'origin',
    'joint-in-child', 'pose', 'axis', 'limit', 'dynamics', 'mimic', 'calibration',
    'safety-controller', 'screw', 'gearbox', 'static', 'inertial', 'mass', 'centre-of-mass',
    'inertia', 'geometry', 'mesh', 'material', 'content', 'attached-to', 'poses')


@record(frozen=True)
class Difference:
    """
    One way the two descriptions differ.

    Attributes
    ----------
    entity : str
        ``'model'``, ``'link'``, ``'joint'``, ``'frame'`` or ``'gazebo'`` (a URDF
        ``<gazebo>`` reference compared between two URDFs).
    name : str
        The entity's name on side A (on side B when it is only there; ``''`` for the model).
    kind : str
        One of :data:`KINDS`.
    a, b : JSON value or None
        The value on each side (module docstring); ``None``: absent there.
    part : str
        The part of the entity: ``"visual 'base_visual'"``, ``'collision 2'``,
        ``"sensor 'camera'"``... (``''``: the entity itself).
    field : str
        Which field of the kind (``'upper'`` of a limit), or the path inside an element.
    a_location, b_location : SourceLocation or None
        Where it is on each side.
    detail : str
        More words (``'moved 0.01 m, turned 0 rad'``, ``'different files'``).

    """

    entity: str
    name: str
    kind: str
    a: Any = None
    b: Any = None
    part: str = ''
    field: str = ''
    a_location: SourceLocation | None = None
    b_location: SourceLocation | None = None
    detail: str = ''


@record(frozen=True)
class Note:
    """
    Something the reader of a comparison should know that is no difference.

    ``kind``: ``'lumped'`` (what converting a URDF side to SDFormat changed: a merged link,
    a renamed joint, a converter warning), ``'left-out'`` (URDF content SDFormat cannot
    hold) or ``'poses'`` (why poses were not compared).
    """

    kind: str
    text: str
    location: SourceLocation | None = None


@record(frozen=True)
class PoseCheck:
    """
    Link poses in the model frame compared at a few configurations.

    Attributes
    ----------
    configurations : tuple of dict
        The joint values used (coordinate name on side A -> rad or m), zero configuration
        first; side B got the same values under its names.
    links : int
        How many links were compared (those with a counterpart).
    position_error, angle_error : float
        The largest distance (m) and rotation (rad) between a link's poses on both sides.
    position_link, angle_link : str or None
        Where (side A's link name); ``None`` when nothing differs.
    position_configuration, angle_configuration : int or None
        Index in ``configurations``.
    unexplained : tuple of str
        The links that are the first to move on their branch and whose joint (or own pose)
        reads the same on both sides: pose differences the other differences do not explain.
    skipped : str
        Why poses were not compared (a side whose tree cannot be compiled), else ``''``.
    b_configurations : tuple of dict
        The same configurations under side B's coordinate names (coordinates only B has
        drawn the same way).

    """

    configurations: tuple = ()
    links: int = 0
    position_error: float = 0.0
    position_link: str | None = None
    position_configuration: int | None = None
    angle_error: float = 0.0
    angle_link: str | None = None
    angle_configuration: int | None = None
    unexplained: tuple[str, ...] = ()
    skipped: str = ''
    b_configurations: tuple = ()


@record(frozen=True, eq=False)
class Side:
    """
    One side of a comparison.

    Attributes
    ----------
    loaded : Loaded
        What was read.
    robot : Robot
        What was compared: ``loaded.robot``, or for a URDF compared with SDFormat, the model
        converted to SDFormat (fixed joints lumped) with its places in the URDF.
    lumped : bool
        Whether ``robot`` is that conversion.
    tree : KinematicTree or None
        ``robot`` compiled (``None`` when it cannot be).

    """

    loaded: Loaded
    robot: Robot
    lumped: bool = False
    tree: 'KinematicTree | None' = None


@record(frozen=True, eq=False)
class Comparison:
    """
    The result of :func:`sdf_tools.comparing.diff`.

    Attributes
    ----------
    a, b : Side
        Both sides, with the robots compared and their compiled trees, e.g. to draw both at
        one of ``poses.configurations``.
    differences : tuple of Difference
        Grouped by entity (model, links, joints, frames, gazebo), each group in side A's
        order.
    notes : tuple of Note
        What lumping changed, what was left out.
    poses : PoseCheck
        The link poses compared.
    tolerance : float
        The tolerance used (:mod:`sdf_tools.comparing.values`).
    link_names, joint_names : dict
        Side A's link (joint) name -> side B's, for every one matched by name or as a
        likely rename.

    """

    a: Side
    b: Side
    differences: tuple[Difference, ...]
    notes: tuple[Note, ...]
    poses: PoseCheck
    tolerance: float
    link_names: dict
    joint_names: dict

    @property
    def equal(self) -> bool:
        """Return whether no difference was found (notes do not count)."""
        return not self.differences

    def link_poses(self, configuration: int = 0) -> tuple[dict, dict]:
        """
        Return both sides' link poses at one of the configurations compared.

        Parameters
        ----------
        configuration : int
            Index in ``poses.configurations`` (0: the zero configuration).

        Returns
        -------
        tuple of dict
            Per side, link name -> ``T_model_link``, a numpy (4, 4) array (m); ``{}`` for a
            side without a kinematic tree. Side A's names map to side B's through
            :attr:`link_names`.

        """
        from sdf_tools.kinematics import forward_kinematics  # numpy: only when asked
        out: list[dict] = []
        for side, values in ((self.a, self.poses.configurations),
                             (self.b, self.poses.b_configurations)):
            tree = side.tree
            if tree is None or not values:
                out.append({})
                continue
            poses = forward_kinematics(tree, tree.joint_vector(values[configuration]).q)
            out.append(dict(zip(tree.link_names, poses)))
        return out[0], out[1]
