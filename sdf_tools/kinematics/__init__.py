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

"""Forward kinematics: a :class:`~sdf_tools.model.Robot` compiled once, then evaluated fast."""

from sdf_tools.kinematics.evaluate import compile_tree
from sdf_tools.kinematics.evaluate import DEFAULT_CHUNK_SIZE
from sdf_tools.kinematics.evaluate import forward_kinematics
from sdf_tools.kinematics.evaluate import frame_poses
from sdf_tools.kinematics.evaluate import JointStatePlan
from sdf_tools.kinematics.evaluate import JointVector
from sdf_tools.kinematics.evaluate import KinematicTree
from sdf_tools.kinematics.evaluate import MimicJoint
from sdf_tools.kinematics.evaluate import MISSING_MIMIC_MODES
from sdf_tools.kinematics.evaluate import TreeJoint

__all__ = ['compile_tree', 'DEFAULT_CHUNK_SIZE', 'forward_kinematics', 'frame_poses',
           'JointStatePlan', 'JointVector', 'KinematicTree', 'MimicJoint', 'MISSING_MIMIC_MODES',
           'TreeJoint']
