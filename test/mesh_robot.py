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
A small robot without inertials whose meshes exist, for ``--mesh-uris`` and ``--auto-inertials``.

:func:`make_mesh_robot` writes, in a temporary folder::

    ws/src/mesh_robot/package.xml
    ws/src/mesh_robot/meshes/cube.stl   the closed unit cube [0, 1]^3 (ASCII STL, 12 facets)
    ws/src/mesh_robot/meshes/open.stl   the same cube without its top (10 facets)
    ws/src/mesh_robot/urdf/robot.urdf   the robot below, no <inertial> anywhere
    ws/src/mesh_robot/urdf/local.stl    a copy of cube.stl, named by a relative path

The robot: ``world`` -fixed-> ``base`` (a box) -revolute-> ``arm`` (cube.stl scaled to
0.1 x 0.1 x 0.5, placed so that it hangs centred on the joint axis; visual ``local.stl`` by
a relative path) -revolute-> ``hand`` (open.stl scaled by 0.1, a cylinder and a sphere), and
``tool`` fixed to ``hand`` with neither inertial nor collision.
"""

from pathlib import Path

from workspaces import manifest

PACKAGE = 'mesh_robot'
_CUBE = (  # outward-wound triangles of [0, 1]^3, two per face; the last two are the top
    ((0, 0, 0), (0, 1, 0), (1, 1, 0)), ((0, 0, 0), (1, 1, 0), (1, 0, 0)),
    ((0, 0, 0), (1, 0, 0), (1, 0, 1)), ((0, 0, 0), (1, 0, 1), (0, 0, 1)),
    ((0, 1, 0), (0, 1, 1), (1, 1, 1)), ((0, 1, 0), (1, 1, 1), (1, 1, 0)),
    ((0, 0, 0), (0, 0, 1), (0, 1, 1)), ((0, 0, 0), (0, 1, 1), (0, 1, 0)),
    ((1, 0, 0), (1, 1, 0), (1, 1, 1)), ((1, 0, 0), (1, 1, 1), (1, 0, 1)),
    ((0, 0, 1), (1, 0, 1), (1, 1, 1)), ((0, 0, 1), (1, 1, 1), (0, 1, 1)),
)


def ascii_stl(triangles, name: str = 'solid') -> str:
    """Return an ASCII STL of ``triangles`` (normals left to the reader, as many writers do)."""
    lines = [f'solid {name}']
    for triangle in triangles:
        lines += ['  facet normal 0 0 0', '    outer loop']
        lines += [f'      vertex {x} {y} {z}' for x, y, z in triangle]
        lines += ['    endloop', '  endfacet']
    return '\n'.join(lines + [f'endsolid {name}', ''])


def cube_stl(open_top: bool = False) -> str:
    """Return the unit cube [0, 1]^3 as ASCII STL, closed or without its top face."""
    return ascii_stl(_CUBE[:-2] if open_top else _CUBE, 'cube')


ROBOT = f"""<?xml version="1.0"?>
<robot name="mesh_robot">
  <link name="world"/>
  <joint name="fix" type="fixed"><parent link="world"/><child link="base"/></joint>
  <link name="base">
    <collision><geometry><box size="0.4 0.4 0.2"/></geometry></collision>
  </link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1" rpy="0 0.4 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="2"/></joint>
  <link name="arm">
    <visual><origin xyz="-0.05 -0.05 0"/>
      <geometry><mesh filename="local.stl" scale="0.1 0.1 0.5"/></geometry></visual>
    <collision><origin xyz="-0.05 -0.05 0"/>
      <geometry><mesh filename="package://{PACKAGE}/meshes/cube.stl" scale="0.1 0.1 0.5"/>
      </geometry></collision>
  </link>
  <joint name="wrist" type="revolute"><parent link="arm"/><child link="hand"/>
    <origin xyz="0 0 0.5"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="2"/></joint>
  <link name="hand">
    <visual><geometry><mesh filename="package://{PACKAGE}/meshes/open.stl" scale="0.1 0.1 0.1"/>
      </geometry></visual>
    <collision><origin xyz="-0.05 -0.05 0"/>
      <geometry><mesh filename="package://{PACKAGE}/meshes/open.stl" scale="0.1 0.1 0.1"/>
      </geometry></collision>
    <collision><origin xyz="0 0 0.15" rpy="1.5707963267948966 0 0"/>
      <geometry><cylinder radius="0.02" length="0.1"/></geometry></collision>
    <collision><origin xyz="0 0 0.2"/><geometry><sphere radius="0.03"/></geometry></collision>
  </link>
  <joint name="tool_joint" type="fixed"><parent link="hand"/><child link="tool"/>
    <origin xyz="0 0 0.25"/></joint>
  <link name="tool"/>
</robot>
"""


def make_mesh_robot(root: Path) -> dict:
    """Write the tree of the module docstring under ``root``; return paths by role."""
    package = root / 'ws' / 'src' / PACKAGE
    (package / 'meshes').mkdir(parents=True)
    (package / 'urdf').mkdir()
    (package / 'package.xml').write_text(manifest(PACKAGE))
    (package / 'meshes' / 'cube.stl').write_text(cube_stl())
    (package / 'meshes' / 'open.stl').write_text(cube_stl(open_top=True))
    (package / 'urdf' / 'local.stl').write_text(cube_stl())
    (package / 'urdf' / 'robot.urdf').write_text(ROBOT)
    return {'src': root / 'ws' / 'src', 'package': package,
            'urdf': package / 'urdf' / 'robot.urdf'}
