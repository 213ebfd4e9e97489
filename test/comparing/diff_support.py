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
Shared helpers of the comparison tests: a small arm, one element per line, and its edits.

:data:`ARM` is a three-joint arm whose tool is attached by a fixed joint (so converting it
lumps the tool into the forearm); :func:`line_of` tells the line of an element, so tests
check that a difference points where the edit is.
"""

from sdf_tools.comparing import diff
from sdf_tools.comparing import DiffOptions
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions

INERTIA = 'ixy="0" ixz="0" iyz="0"'

ARM = f"""<robot name="arm">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" iyy="0.1" izz="0.1" {INERTIA}/></inertial>
    <visual><geometry><mesh filename="package://arm/meshes/base.stl"/></geometry></visual>
  </link>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit lower="-1.5" upper="1.5" effort="10" velocity="1"/>
  </joint>
  <link name="upper">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" {INERTIA}/></inertial>
    <visual><origin xyz="0 0 0.2"/><geometry><box size="0.1 0.1 0.4"/></geometry></visual>
    <collision><origin xyz="0 0 0.2"/><geometry><box size="0.1 0.1 0.4"/></geometry></collision>
  </link>
  <joint name="elbow" type="revolute">
    <parent link="upper"/><child link="fore"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="5" velocity="1"/>
    <dynamics damping="0.1"/>
  </joint>
  <link name="fore">
    <inertial><origin xyz="0 0 0.1"/><mass value="0.5"/>
      <inertia ixx="0.01" iyy="0.02" izz="0.01" {INERTIA}/></inertial>
    <visual><geometry><cylinder radius="0.04" length="0.3"/></geometry>
      <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material></visual>
  </link>
  <joint name="tool_joint" type="fixed">
    <parent link="fore"/><child link="tool"/><origin xyz="0 0 0.3"/>
  </joint>
  <link name="tool">
    <inertial><mass value="0.1"/>
      <inertia ixx="0.001" iyy="0.001" izz="0.001" {INERTIA}/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <joint name="finger_joint" type="prismatic">
    <parent link="tool"/><child link="finger"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.04" effort="1" velocity="0.1"/>
  </joint>
  <link name="finger">
    <inertial><mass value="0.01"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5" {INERTIA}/></inertial>
  </link>
  <gazebo reference="tool">
    <sensor name="camera" type="camera"><update_rate>30</update_rate></sensor>
  </gazebo>
  <transmission name="elbow_transmission">
    <joint name="elbow"><hardwareInterface>PositionJointInterface</hardwareInterface></joint>
  </transmission>
</robot>
"""


def line_of(text: str, fragment: str) -> int:
    """Return the 1-based line of the first line of ``text`` holding ``fragment``."""
    for number, line in enumerate(text.splitlines(), 1):
        if fragment in line:
            return number
    raise AssertionError(f'{fragment!r} is not in the text')


def read(text: str, source: str, **options):
    """Return ``text`` loaded as if read from the file ``source``."""
    return load(text=text, options=LoadOptions(source=source, **options))


def compare(a: str, b: str, names=('a.urdf', 'b.urdf'), **options):
    """Return the comparison of two description texts (named like files)."""
    return diff(read(a, names[0]), read(b, names[1]), DiffOptions(**options))


def edited(old: str, new: str, text: str = ARM) -> str:
    """Return ``text`` with its one ``old`` replaced by ``new``."""
    assert text.count(old) == 1, old
    return text.replace(old, new)
