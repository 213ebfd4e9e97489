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
imports ROS. Data flows one way: text -> located elements (:mod:`sdf_tools.xmlio`) -> readers
(:mod:`sdf_tools.formats`) -> :mod:`sdf_tools.model` -> (the SDFormat writer or the URDF
converter, :mod:`sdf_tools.convert` | the compiled tree, :mod:`sdf_tools.kinematics`) ->
pictures (:mod:`sdf_tools.drawing`) -> the command line (:mod:`sdf_tools.cli`) and the ROS
nodes (:mod:`sdf_tools.ros`), both loading through :mod:`sdf_tools.loading`.

Example::

    import sdf_tools

    loaded = sdf_tools.load('robot.urdf.xacro',
                            sdf_tools.LoadOptions(mappings={'prefix': 'left_'}))
    print(sdf_tools.to_sdf(loaded).sdf)
    tree = sdf_tools.compile_tree(loaded.robot)
    poses = sdf_tools.forward_kinematics(tree, tree.joint_vector({'left_elbow': 0.5}).q)
    sdf_tools.view(loaded.robot, joints={'left_elbow': 0.5}).save('robot.png')

The names below are imported on first use; type checkers read them from ``__init__.pyi``
(the package ships ``py.typed``).
"""

import importlib

__version__ = '0.1.0'

_API = {
    'load': 'sdf_tools.loading',
    'LoadOptions': 'sdf_tools.loading',
    'Loaded': 'sdf_tools.loading',
    'to_sdf': 'sdf_tools.loading',
    'Converted': 'sdf_tools.loading',
    'check': 'sdf_tools.loading',
    'Resources': 'sdf_tools.resources.lookup',
    'find_resources': 'sdf_tools.resources.lookup',
    'export': 'sdf_tools.exporting',
    'ExportOptions': 'sdf_tools.exporting',
    'Exported': 'sdf_tools.exporting',
    'write_atomically': 'sdf_tools.outputs',
    'PackagePath': 'sdf_tools.resources.packages',
    'PackageResolver': 'sdf_tools.resources.packages',
    'PackageNotFoundError': 'sdf_tools.resources.packages',
    'ModelFinder': 'sdf_tools.resources.models',
    'ResourcePath': 'sdf_tools.resources.models',
    'parse_urdf': 'sdf_tools.formats.urdf.reader',
    'parse_sdf': 'sdf_tools.formats.sdf.reader',
    'parse_sdf_document': 'sdf_tools.formats.sdf.reader',
    'parse_kindsl': 'sdf_tools.formats.kindsl.reader',
    'urdf_to_sdf': 'sdf_tools.convert.urdf_to_sdf',
    'ConversionOptions': 'sdf_tools.convert.urdf_to_sdf',
    'ConversionResult': 'sdf_tools.convert.urdf_to_sdf',
    'write_sdf': 'sdf_tools.formats.sdf.writer',
    'write_urdf': 'sdf_tools.formats.urdf.writer',
    'compile_tree': 'sdf_tools.kinematics',
    'forward_kinematics': 'sdf_tools.kinematics',
    'frame_poses': 'sdf_tools.kinematics',
    'KinematicTree': 'sdf_tools.kinematics',
    'diff': 'sdf_tools.comparing',
    'DiffOptions': 'sdf_tools.comparing',
    'Robot': 'sdf_tools.model',
    'World': 'sdf_tools.worlds',
    'Diagnostic': 'sdf_tools.errors',
    'SdfToolsError': 'sdf_tools.errors',
    'XmlSyntaxError': 'sdf_tools.errors',
    'DescriptionError': 'sdf_tools.errors',
    'ConversionError': 'sdf_tools.errors',
    'KinematicsError': 'sdf_tools.errors',
    'view': 'sdf_tools.drawing',
    'ViewOptions': 'sdf_tools.drawing',
}

__all__ = sorted(_API)


def __getattr__(name: str) -> object:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))
