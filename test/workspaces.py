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
Tiny ROS package trees for the package lookup tests: colcon workspaces and ament prefixes.

:func:`make_tree` builds, in a temporary folder, one description package
(``arm_description``: a xacro macro whose visual uses ``$(find arm_description)`` and whose
collision uses ``package://arm_description/...``, and a mesh) laid out every way a user
meets it, plus a robot file outside any package that includes the macro::

    robot.urdf.xacro                  includes $(find arm_description)/urdf/arm.xacro
    ws/src/arm_description/           the package's sources (a colcon src/ tree)
    ws/src/robot_bringup/urdf/robot.urdf.xacro   the same robot file, inside a package
    ws/install/arm_description/share/arm_description/   colcon's isolated install
    ws/build/, ws/log/                colcon's marks (a built workspace: mark_built)
    prefix/share/arm_description/     an ament prefix (merged install, ament index marker)

Each copy of the mesh file says where it is, so a test can tell which copy was found.
"""

from pathlib import Path

PACKAGE = 'arm_description'
XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
ROBOT_XACRO = f"""<?xml version="1.0"?>
<robot name="robot" {XACRO_NS}>
  <xacro:include filename="$(find {PACKAGE})/urdf/arm.xacro"/>
  <xacro:arm prefix=""/>
</robot>
"""
ARM_XACRO = f"""<?xml version="1.0"?>
<robot {XACRO_NS}>
  <xacro:macro name="arm" params="prefix">
    <link name="${{prefix}}base">
      <inertial><mass value="1"/>
        <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
      <visual><geometry>
        <mesh filename="$(find {PACKAGE})/meshes/base.stl"/>
      </geometry></visual>
      <collision><geometry>
        <mesh filename="package://{PACKAGE}/meshes/base.stl"/>
      </geometry></collision>
    </link>
  </xacro:macro>
</robot>
"""


def manifest(name: str) -> str:
    """Return a minimal package.xml for ``name``."""
    return (f'<?xml version="1.0"?>\n<package format="3">\n  <name>{name}</name>\n'
            '  <version>0.0.0</version>\n  <description>test</description>\n'
            '  <maintainer email="m@example.com">m</maintainer>\n'
            '  <license>Apache-2.0</license>\n</package>\n')


def stl(label: str) -> str:
    """Return a one-triangle ASCII STL whose solid is named ``label``."""
    return (f'solid {label}\n  facet normal 0 0 1\n    outer loop\n      vertex 0 0 0\n'
            '      vertex 1 0 0\n      vertex 0 1 0\n    endloop\n  endfacet\n'
            f'endsolid {label}\n')


def make_package(folder: Path, name: str = PACKAGE, label: str = 'src') -> Path:
    """Write the description package (package.xml, xacro macro, mesh) into ``folder``."""
    (folder / 'urdf').mkdir(parents=True)
    (folder / 'meshes').mkdir()
    (folder / 'package.xml').write_text(manifest(name))
    (folder / 'urdf' / 'arm.xacro').write_text(ARM_XACRO.replace(PACKAGE, name))
    (folder / 'meshes' / 'base.stl').write_text(stl(label))
    return folder


def mark_built(ws: Path, install: bool = True) -> None:
    """
    Leave in ``ws`` the marks ``colcon build`` leaves (colcon-core 0.x, isolated layout).

    ``build/``, ``install/`` and ``log/`` each hold an empty ``COLCON_IGNORE``; ``install/``
    also ``.colcon_install_layout`` and the setup scripts (here empty). Without ``install``:
    only ``build/`` and ``log/`` (a build that failed before installing anything).
    """
    for sub in ('build', 'log') + (('install',) if install else ()):
        (ws / sub).mkdir(exist_ok=True)
        (ws / sub / 'COLCON_IGNORE').write_text('')
    if install:
        (ws / 'install' / '.colcon_install_layout').write_text('isolated\n')
        for script in ('setup.sh', 'local_setup.sh', '_local_setup_util_sh.py'):
            (ws / 'install' / script).write_text('')


def make_tree(root: Path) -> dict:
    """
    Build the layouts of the module docstring under ``root``; return their paths by role.

    Keys: ``robot`` (the robot file outside any package), ``inner_robot`` (the same file in
    package ``robot_bringup`` of the workspace), ``ws``, ``src``, ``package`` (the source
    package), ``install`` (its isolated install share folder), ``prefix``, ``prefix_share``.
    """
    ws = root / 'ws'
    package = make_package(ws / 'src' / PACKAGE, label='src')
    install = make_package(ws / 'install' / PACKAGE / 'share' / PACKAGE, label='install')
    mark_built(ws)
    bringup = ws / 'src' / 'robot_bringup'
    (bringup / 'urdf').mkdir(parents=True)
    (bringup / 'package.xml').write_text(manifest('robot_bringup'))
    (bringup / 'urdf' / 'robot.urdf.xacro').write_text(ROBOT_XACRO)
    prefix = root / 'prefix'
    share = make_package(prefix / 'share' / PACKAGE, label='prefix')
    index = prefix / 'share' / 'ament_index' / 'resource_index' / 'packages'
    index.mkdir(parents=True)
    (index / PACKAGE).write_text('')
    robot = root / 'robot.urdf.xacro'
    robot.write_text(ROBOT_XACRO)
    return {'robot': robot, 'inner_robot': bringup / 'urdf' / 'robot.urdf.xacro', 'ws': ws,
            'src': ws / 'src', 'package': package, 'install': install, 'prefix': prefix,
            'prefix_share': share}


def description(package: str = PACKAGE, mesh: str = 'base.stl') -> str:
    """
    Return URDF text (xacro expanded) whose link uses ``package://<package>/meshes/<mesh>``.

    The ``<visual>`` holding the URI is on line 3.
    """
    return (f'<robot name="robot">\n  <link name="base"><inertial><mass value="1"/><inertia '
            'ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>\n    <visual>'
            f'<geometry><mesh filename="package://{package}/meshes/{mesh}"/></geometry>'
            '</visual>\n  </link>\n</robot>\n')


def not_found_warning(option: str) -> str:
    """Return the warning for :func:`description`'s URI with nothing to search."""
    return (f"<robot_description>:3: warning: link 'base': package://{PACKAGE}/meshes/base.stl: "
            f"package '{PACKAGE}' not found; searched: AMENT_PREFIX_PATH (not set), "
            f'ROS_PACKAGE_PATH (not set); give its folder in {option}')
