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
Bring up state_publisher and sdf_converter for a URDF, xacro, SDFormat or RobCoGen file.

Starts ``state_publisher`` (``robot_description`` from ``description_file``, xacro expanded)
and, unless ``start_sdf_converter:=false``, ``sdf_converter``, which reads state_publisher's
latched ``robot_description`` and latches the SDFormat (``sdf_version``: by default the
version the distribution's Gazebo reads) on ``robot_description_sdf``. When either exits
with an error the whole launch stops, saying which one.
"""

import os

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.actions import OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from launch_ros.parameter_descriptions import ParameterValue
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.ros.bringup.actions import stop_on_failure
from sdf_tools.ros.bringup.helpers import as_bool
from sdf_tools.ros.bringup.helpers import as_choice
from sdf_tools.ros.bringup.helpers import as_parameter
from sdf_tools.ros.bringup.helpers import default_sdf_version
from sdf_tools.ros.bringup.helpers import GAZEBO_OF_DISTRO
from sdf_tools.ros.bringup.helpers import NEWER_GAZEBO
from sdf_tools.ros.bringup.helpers import read_description_and_source

PACKAGE = 'sdf_tools'


def _nodes(context, *args, **kwargs):
    """Read the description file and return the nodes (run when the arguments are known)."""
    def arg(name):
        return LaunchConfiguration(name).perform(context)

    # Every argument is checked before the description is read (a bad value names itself,
    # not a failure further on), and refused as the node would refuse it.
    package_path = arg('package_path')
    use_sim_time = as_bool('use_sim_time', arg('use_sim_time'))
    sdf_version = as_choice('sdf_version', arg('sdf_version'), CONVERTIBLE_VERSIONS)
    start_converter = as_bool('start_sdf_converter', arg('start_sdf_converter'))
    publish_frequency, mesh_uris, auto_inertials = (as_parameter(name, arg(name)) for name in (
        'publish_frequency', 'mesh_uris', 'auto_inertials'))
    namespace = arg('namespace')
    text, source = read_description_and_source(arg('description_file'), arg('xacro_args'),
                                               package_path)
    config = os.path.join(get_package_share_directory(PACKAGE), 'config')
    nodes = [Node(
        package=PACKAGE, executable='state_publisher', name='state_publisher',
        namespace=namespace, output='screen',
        parameters=[os.path.join(config, 'state_publisher.yaml'), {
            # value_type=str: launch_ros would otherwise parse the text as YAML.
            'robot_description': ParameterValue(text, value_type=str),
            'frame_prefix': ParameterValue(arg('frame_prefix'), value_type=str),
            'publish_frequency': publish_frequency,
            'package_path': ParameterValue(package_path, value_type=str),
            'description_source': ParameterValue(source, value_type=str),
            'use_sim_time': use_sim_time,
        }])]
    if start_converter:
        # Reads robot_description from state_publisher's latched topic.
        nodes.append(Node(
            package=PACKAGE, executable='sdf_converter', name='sdf_converter',
            namespace=namespace, output='screen',
            parameters=[os.path.join(config, 'sdf_converter.yaml'), {
                'package_path': ParameterValue(package_path, value_type=str),
                'mesh_uris': ParameterValue(mesh_uris, value_type=str),
                'auto_inertials': auto_inertials,
                'sdf_version': ParameterValue(sdf_version, value_type=str),
                # Set by gazebo_spawn.launch.py (not an argument of this file).
                'gz_joint_state_topic': ParameterValue(LaunchConfiguration(
                    'gz_joint_state_topic', default='').perform(context), value_type=str),
                # Names the first description from the topic: state_publisher's, read above.
                'description_source': ParameterValue(source, value_type=str),
                'use_sim_time': use_sim_time,
            }]))
    # One failing node stops the launch (and so ros_gz_sim create waiting for the SDFormat).
    return nodes + [stop_on_failure(node, executable) for node, executable in
                    zip(nodes, ('state_publisher', 'sdf_converter'))]


def generate_launch_description():
    """Return the launch description."""
    return LaunchDescription([
        # Required, but with a default: an included file's arguments without a default must
        # be passed explicitly by every includer (launch checks that), and the error for an
        # empty value names the argument anyway.
        DeclareLaunchArgument(
            'description_file', default_value='',
            description='Robot description file: .urdf, .xacro, .sdf/.world or .kindsl '
                        '(required).'),
        DeclareLaunchArgument(
            'xacro_args', default_value='',
            description='xacro arguments for a .xacro file, e.g. "prefix:=left_ arm:=true".'),
        DeclareLaunchArgument(
            'package_path', default_value='',
            description="Folders where xacro's $(find pkg) and package:// URIs look, "
                        "':'-separated: packages, folders of packages, install prefixes or "
                        "colcon workspaces; after the description file's own package, "
                        'checkout and workspace, before AMENT_PREFIX_PATH and '
                        'ROS_PACKAGE_PATH.'),
        DeclareLaunchArgument(
            'frame_prefix', default_value='',
            description='Prepended to every TF frame name, e.g. "left/".'),
        DeclareLaunchArgument(
            'namespace', default_value='',
            description='Namespace of the nodes (robot_description, joint_states and '
                        'robot_description_sdf move into it; /tf and /tf_static do not).'),
        DeclareLaunchArgument(
            'use_sim_time', default_value='false',
            description='Use simulation time from /clock (true with Gazebo).'),
        DeclareLaunchArgument(
            'publish_frequency', default_value='20.0',
            description='Maximum /tf rate per set of joints (Hz), in (0, 1000].'),
        DeclareLaunchArgument(
            'mesh_uris', default_value='model',
            description='How the SDFormat names URDF meshes: model (libsdformat: model://pkg/..., '
                        'found through GZ_SIM_RESOURCE_PATH), file (absolute file:// paths, '
                        'packages found as for package_path) or package (as written).'),
        DeclareLaunchArgument(
            'auto_inertials', default_value='0.0',
            description='Density (kg/m^3) at which URDF links without <inertial> get the mass '
                        'properties of their collision geometry (meshes need trimesh); 0.0: '
                        'off (a 1 g placeholder).'),
        DeclareLaunchArgument(
            'start_sdf_converter', default_value='true',
            description='Also start sdf_converter, which publishes the SDFormat on '
                        'robot_description_sdf for ros_gz_sim create.'),
        DeclareLaunchArgument(
            'sdf_version', default_value=default_sdf_version(os.environ),
            choices=list(CONVERTIBLE_VERSIONS),
            description='SDFormat version sdf_converter writes. Default: what the Gazebo of '
                        'this ROS_DISTRO reads: ' + ', '.join(
                            f'{distro} {gazebo} {version}'
                            for distro, (gazebo, version) in GAZEBO_OF_DISTRO.items()) +
                        f', others {NEWER_GAZEBO[0]} {NEWER_GAZEBO[1]}; <mimic> needs 1.11.'),
        OpaqueFunction(function=_nodes),
    ])
