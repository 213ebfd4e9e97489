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
Forward kinematics: a :class:`~sdf_tools.model.Robot` compiled once, then evaluated fast.

:func:`compile_tree` turns a robot (from any reader) into a :class:`KinematicTree`: links in
topological order (``link_parent[i] < i``), unit axes, mimic joints resolved to their
independent source, and per-joint constants precomposed so that each evaluation does the
minimum. Three evaluators share that compiled form:

* :func:`forward_kinematics`: ``T_model_link`` of every link, for one configuration
  (pure Python with :mod:`math`, which beats numpy on one chain of 4x4 products) or for a
  batch (numpy, vectorised over configurations, in chunks so that memory stays linear in the
  batch size and time linear in the number of links).
* :meth:`KinematicTree.joint_transforms` and :class:`JointStatePlan`: the parent link to
  child link transform of each moving joint as plain ``(xyz, quat)`` float tuples, the way
  robot_state_publisher publishes ``/tf``; no numpy on that path.
* :func:`frame_poses`: ``T_model_frame`` of the robot's named frames.

Frames and units
----------------
Poses follow :mod:`sdf_tools.transforms`: ``T_a_b`` maps ``b`` coordinates into ``a``,
quaternions are ``(x, y, z, w)``, angles are radians and lengths metres. "Model frame" is
the frame of the robot: URDF's single root link sits at its origin; SDFormat root links sit
at their ``Link.pose`` (``None``: the origin), and a joint whose parent is ``world`` (and no
link has that name) attaches its child to the model frame.

Modules
-------
========================= ============================================================
``tree``                  :class:`KinematicTree` and the records it hands out
``compile``               :func:`compile_tree`; the coordinates and mimic joints
``motion``                how a joint moves its child: the interface every evaluator uses
``joint_motions``         ``M(q)`` of each joint kind (the table of motions)
``single``                world poses of one configuration, pure Python
``batch``                 world poses of many configurations, numpy, in chunks
``poses``                 :func:`forward_kinematics` and :func:`frame_poses`
``joint_states``          per-joint transforms for ``/tf`` and :class:`JointStatePlan`
``values``                joint values that are not finite numbers, and their messages
========================= ============================================================
"""

from sdf_tools.kinematics.compile import compile_tree
from sdf_tools.kinematics.compile import MISSING_MIMIC_MODES
from sdf_tools.kinematics.joint_states import JointStatePlan
from sdf_tools.kinematics.poses import DEFAULT_CHUNK_SIZE
from sdf_tools.kinematics.poses import forward_kinematics
from sdf_tools.kinematics.poses import frame_poses
from sdf_tools.kinematics.tree import JointVector
from sdf_tools.kinematics.tree import KinematicTree
from sdf_tools.kinematics.tree import MimicJoint
from sdf_tools.kinematics.tree import TreeJoint

__all__ = ['compile_tree', 'DEFAULT_CHUNK_SIZE', 'forward_kinematics', 'frame_poses',
           'JointStatePlan', 'JointVector', 'KinematicTree', 'MimicJoint', 'MISSING_MIMIC_MODES',
           'TreeJoint']
