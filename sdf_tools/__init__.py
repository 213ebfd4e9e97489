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
sdf_tools: robot descriptions for ROS 2 bringup and Gazebo spawning.

The core (everything outside :mod:`sdf_tools.ros`) is pure Python on lxml and numpy and never
imports ROS. Data flows one way: XML text -> :mod:`~sdf_tools.xml_source` -> readers
(:mod:`~sdf_tools.urdf`) -> :mod:`~sdf_tools.model` -> SDFormat writer or kinematics.
"""

__version__ = '0.1.0'
