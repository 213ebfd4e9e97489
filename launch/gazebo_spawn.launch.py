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
Spawn a robot in Gazebo (ros_gz_sim) from its description file, optionally starting Gazebo.

Meshes: the robot is spawned with absolute ``file://`` mesh URIs (``mesh_uris:=file``, passed
to bringup.launch.py's sdf_converter), found the way ``package_path`` and xacro's
``$(find pkg)`` find packages. Setting ``GZ_SIM_RESOURCE_PATH`` for ``model://`` URIs instead
would reach only a Gazebo this file starts (not one already running, start_gazebo:=false),
and only packages whose folder is named like the package (not a cloned
``Universal_Robots_ROS2_Description`` used from its sources). A Gazebo that does not see this
machine's files (another host or container) needs ``mesh_uris:=model`` and its own
``GZ_SIM_RESOURCE_PATH`` (``IGN_GAZEBO_RESOURCE_PATH`` for Fortress) naming the ``share``
folders of the packages.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.actions import IncludeLaunchDescription
from launch.actions import OpaqueFunction
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from sdf_tools.launch_helpers import as_bool
from sdf_tools.launch_helpers import as_float

PACKAGE = 'sdf_tools'
POSE = (('x', 'Initial x position (m) in the world.'),
        ('y', 'Initial y position (m) in the world.'),
        ('z', 'Initial z position (m) in the world.'),
        ('R', 'Initial roll (rad).'),
        ('P', 'Initial pitch (rad).'),
        ('Y', 'Initial yaw (rad).'))


def _gazebo_and_spawner(context, *args, **kwargs):
    """Return Gazebo (if asked for) and ros_gz_sim create, with typed parameters."""
    def arg(name):
        return LaunchConfiguration(name).perform(context)

    actions = []
    if as_bool('start_gazebo', arg('start_gazebo')):
        gz_sim = os.path.join(get_package_share_directory('ros_gz_sim'), 'launch',
                              'gz_sim.launch.py')
        actions.append(IncludeLaunchDescription(
            PythonLaunchDescriptionSource(gz_sim),
            launch_arguments={'gz_args': f"{arg('gz_args')} {arg('world')}".strip()}.items()))
    # create reads the SDFormat that sdf_converter latches on robot_description_sdf (same
    # namespace). Its x..Y parameters are doubles: float() lets x:=1 through as 1.0.
    actions.append(Node(
        package='ros_gz_sim', executable='create', output='screen',
        namespace=LaunchConfiguration('namespace', default='').perform(context),
        parameters=[{
            'topic': 'robot_description_sdf',
            'name': arg('name'),
            'allow_renaming': as_bool('allow_renaming', arg('allow_renaming')),
            'x': as_float('x', arg('x')),
            'y': as_float('y', arg('y')),
            'z': as_float('z', arg('z')),
            'R': as_float('R', arg('R')),
            'P': as_float('P', arg('P')),
            'Y': as_float('Y', arg('Y')),
        }]))
    return actions


def generate_launch_description():
    """Return the launch description (bringup.launch.py's arguments apply too)."""
    bringup = os.path.join(get_package_share_directory(PACKAGE), 'launch',
                           'bringup.launch.py')
    return LaunchDescription([
        DeclareLaunchArgument(
            'name', default_value='robot',
            description='Entity name in Gazebo (overrides the model name).'),
        *[DeclareLaunchArgument(axis, default_value='0.0', description=text)
          for axis, text in POSE],
        DeclareLaunchArgument(
            'allow_renaming', default_value='false',
            description='Let Gazebo pick another name if the entity name is taken.'),
        DeclareLaunchArgument(
            'start_gazebo', default_value='true',
            description='Start Gazebo with ros_gz_sim gz_sim.launch.py (false: spawn into '
                        'a running one).'),
        DeclareLaunchArgument(
            'world', default_value='empty.sdf',
            description='World file Gazebo loads when start_gazebo is true.'),
        DeclareLaunchArgument(
            'gz_args', default_value='-r',
            description='Other gz sim arguments when start_gazebo is true, e.g. "-r -v 4", '
                        'or "-s -r" for a headless server.'),
        DeclareLaunchArgument(
            'mesh_uris', default_value='file',
            description='How the spawned SDFormat names meshes: file (absolute file:// paths, '
                        'for a Gazebo on this machine), model (model://, found through '
                        "Gazebo's GZ_SIM_RESOURCE_PATH) or package (as written)."),
        # description_file, xacro_args, frame_prefix, namespace, use_sim_time,
        # auto_inertials, ...: see bringup.launch.py (set use_sim_time:=true with Gazebo's
        # /clock bridged).
        IncludeLaunchDescription(PythonLaunchDescriptionSource(bringup), launch_arguments={
            'mesh_uris': LaunchConfiguration('mesh_uris')}.items()),
        OpaqueFunction(function=_gazebo_and_spawner),
    ])
