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
Name look-ups and tree structure of a robot: :attr:`sdf_tools.model.Robot.index`.

Computed once per robot (a cached property) from its links and joints.
"""

from typing import Any
from typing import Protocol

from sdf_tools.topology import Topology


class _Described(Protocol):
    """What an index reads of a :class:`~sdf_tools.model.Robot` (which holds this index)."""

    @property
    def links(self) -> tuple[Any, ...]: ...  # noqa: D102

    @property
    def joints(self) -> tuple[Any, ...]: ...  # noqa: D102

    @property
    def frames(self) -> tuple[Any, ...]: ...  # noqa: D102


class RobotIndex:
    """
    Derived look-ups of a :class:`~sdf_tools.model.Robot` (its ``index``).

    The links and joints form a tree (URDF, RobCoGen) or forest (SDFormat). SDFormat also
    allows joints that close kinematic loops (parallel linkages): a link that is the child of
    several joints. The first of them in document order is its *tree joint*; the others are
    *loop joints*, kept in the model but not part of the tree forward kinematics walks
    (:class:`~sdf_tools.topology.Topology`).

    Attributes
    ----------
    links, joints, frames : dict
        By name (the last one wins if names repeat; readers report duplicates).
    topology : Topology
        The walk: order, tree joints, loops.
    parent_joint : dict
        Child link name -> its tree joint.
    child_joints : dict
        Link name -> tree joints whose parent it is, sorted by joint name (byte order), the
        order urdfdom and libsdformat visit children in.
    loop_joints : list of Joint
        Joints whose child already has a tree joint, in document order.
    roots : list of str
        Links no joint attaches, in document order.

    """

    __slots__ = ('links', 'joints', 'frames', 'topology', 'parent_joint', 'child_joints',
                 'loop_joints', 'roots')

    def __init__(self, robot: _Described) -> None:
        self.links = {link.name: link for link in robot.links}
        self.joints = {joint.name: joint for joint in robot.joints}
        self.frames = {frame.name: frame for frame in robot.frames}
        self.topology = topology = Topology(robot.links, robot.joints)
        self.parent_joint = topology.parent_joint
        self.child_joints = {parent: sorted(js, key=lambda j: j.name.encode())
                             for parent, js in topology.child_joints.items()}
        self.loop_joints = list(topology.loop_joints)
        self.roots = list(topology.roots)
