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

What it starts, in this order (each decided before anything starts):

1. a check (no process): the packages it needs are installed (ros_gz_sim; ros_gz_bridge
   when it bridges; controller_manager for joint_state_broadcaster:=true), the arguments
   are valid, and where joint states come from. A missing package is one line and nothing
   starts;
2. bringup.launch.py: state_publisher and sdf_converter, the SDFormat at ``sdf_version``
   (``<mimic>`` kept from 1.11) and, for ``joint_states`` from Gazebo, with Gazebo's
   JointStatePublisher system on ``/model/<name>/joint_state``;
3. Gazebo through ros_gz_sim's gz_sim.launch.py (``start_gazebo``), ``on_exit_shutdown``
   true: closing Gazebo ends the launch;
4. ros_gz_bridge's parameter_bridge: ``/clock`` from Gazebo when ``use_sim_time`` (default
   true here), and the JointStatePublisher topic remapped to ``joint_states``;
5. ros_gz_sim ``create`` reading the latched ``robot_description_sdf``; with gz_ros2_control
   and ``joint_state_broadcaster:=true``, the controller_manager spawner once it succeeded.

The whole launch stops, with one line saying why, when state_publisher, sdf_converter,
``create``, a bridge or the spawner exits with an error, or when ``create`` has not
spawned the robot within ``spawn_timeout`` seconds (it waits forever by itself).

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
from launch.actions import LogInfo
from launch.actions import OpaqueFunction
from launch.actions import RegisterEventHandler
from launch.actions import SetLaunchConfiguration
from launch.actions import TimerAction
from launch.event_handlers import OnProcessIO
from launch.launch_description_sources import PythonLaunchDescriptionSource
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from sdf_tools.ros.bringup.actions import stop
from sdf_tools.ros.bringup.actions import stop_on_failure
from sdf_tools.ros.bringup.helpers import as_bool
from sdf_tools.ros.bringup.helpers import as_float
from sdf_tools.ros.bringup.helpers import as_parameter
from sdf_tools.ros.bringup.helpers import as_timeout
from sdf_tools.ros.bringup.helpers import CLOCK_BRIDGE
from sdf_tools.ros.bringup.helpers import create_waiting_for
from sdf_tools.ros.bringup.helpers import gz_joint_state_topic
from sdf_tools.ros.bringup.helpers import joint_state_bridge
from sdf_tools.ros.bringup.helpers import joint_state_source
from sdf_tools.ros.bringup.helpers import JOINT_STATE_SOURCES
from sdf_tools.ros.bringup.helpers import missing_packages
from sdf_tools.ros.bringup.helpers import missing_packages_message
from sdf_tools.ros.bringup.helpers import read_description
from sdf_tools.ros.bringup.helpers import required_packages
from sdf_tools.ros.bringup.helpers import ros2_control_note
from sdf_tools.ros.bringup.helpers import spawn_timeout_message

PACKAGE = 'sdf_tools'
POSE = (('x', 'Initial x position (m) in the world.'),
        ('y', 'Initial y position (m) in the world.'),
        ('z', 'Initial z position (m) in the world.'),
        ('R', 'Initial roll (rad).'),
        ('P', 'Initial pitch (rad).'),
        ('Y', 'Initial yaw (rad).'))
#: Launch configuration in which the check passes its decision on (not an argument).
SOURCE = 'sdf_tools.joint_state_source'


def _arg(context, name, default=None):
    return LaunchConfiguration(name, default=default).perform(context)


def _check(context, *args, **kwargs):
    """Decide everything before a process starts; raise one line if something is missing."""
    def arg(name):
        return _arg(context, name)

    use_sim_time = as_bool('use_sim_time', arg('use_sim_time'))
    broadcaster = as_bool('joint_state_broadcaster', arg('joint_state_broadcaster'))
    as_bool('start_gazebo', arg('start_gazebo'))
    as_bool('allow_renaming', arg('allow_renaming'))
    as_timeout('spawn_timeout', arg('spawn_timeout'))
    for axis, _ in POSE:
        as_float(axis, arg(axis))
    as_parameter('mesh_uris', arg('mesh_uris'))  # passed on to bringup's sdf_converter
    choice = arg('joint_states')
    joint_state_source(choice, None)  # a valid choice
    # What is missing is said first: the packages these arguments need, before the
    # description is read (a bad description_file must not hide a missing ros_gz_sim).
    _refuse_missing(required_packages(bridge=use_sim_time or choice == 'gazebo',
                                      broadcaster=broadcaster and choice == 'ros2_control'))
    description = None
    if choice in ('auto', 'ros2_control'):  # needs the text (read again by bringup, which
        # declares these arguments: not yet here)
        description = read_description(*(_arg(context, name, '') for name in (
            'description_file', 'xacro_args', 'package_path')))
    source = joint_state_source(choice, description)
    topic = gz_joint_state_topic(arg('name')) if source == 'gazebo' else ''
    _refuse_missing(required_packages(bridge=use_sim_time or source == 'gazebo',
                                      broadcaster=broadcaster and source == 'ros2_control'))
    actions = [SetLaunchConfiguration('gz_joint_state_topic', topic),
               SetLaunchConfiguration(SOURCE, source)]
    if source == 'ros2_control':
        actions.append(LogInfo(msg=ros2_control_note(description, os.environ.get('ROS_DISTRO'),
                                                     broadcaster)))
    return actions


def _refuse_missing(needed) -> None:
    """Raise the one line naming the packages of ``needed`` that are not installed."""
    missing = missing_packages(needed, get_package_share_directory)
    if missing:
        raise RuntimeError(missing_packages_message(missing, os.environ.get('ROS_DISTRO')))


def _simulation(context, *args, **kwargs):
    """Return Gazebo, the bridges, create and the handlers that stop a failed spawn."""
    def arg(name):
        return _arg(context, name)

    namespace = arg('namespace')  # declared by bringup.launch.py, included before
    use_sim_time = as_bool('use_sim_time', arg('use_sim_time'))
    source = arg(SOURCE)
    actions = []
    if as_bool('start_gazebo', arg('start_gazebo')):
        gz_sim = os.path.join(get_package_share_directory('ros_gz_sim'), 'launch',
                              'gz_sim.launch.py')
        actions.append(IncludeLaunchDescription(
            PythonLaunchDescriptionSource(gz_sim), launch_arguments={
                'gz_args': f"{arg('gz_args')} {arg('world')}".strip(),
                'on_exit_shutdown': 'true'}.items()))
    bridges = []
    if use_sim_time:  # /clock is absolute: one bridge serves every namespace
        bridges.append(('clock_bridge', CLOCK_BRIDGE, []))
    gz_topic = arg('gz_joint_state_topic')
    if source == 'gazebo':
        bridges.append(('joint_state_bridge', joint_state_bridge(gz_topic),
                        [(gz_topic, 'joint_states')]))
    for name, bridge, remappings in bridges:
        node = Node(package='ros_gz_bridge', executable='parameter_bridge', name=name,
                    namespace=namespace, output='screen', arguments=[bridge],
                    remappings=remappings, parameters=[{'use_sim_time': use_sim_time}])
        actions += [node, stop_on_failure(node, f'ros_gz_bridge ({name})')]
    # create reads the SDFormat that sdf_converter latches on robot_description_sdf (same
    # namespace). Its x..Y parameters are doubles: float() lets x:=1 through as 1.0.
    create = Node(
        package='ros_gz_sim', executable='create', output='screen', namespace=namespace,
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
        }])
    return actions + [create, *_spawn_handlers(context, create, source, namespace)]


def _spawn_handlers(context, create, source, namespace):
    """Return the timeout of ``create`` and what follows its exit."""
    name = _arg(context, 'name')
    timeout = as_timeout('spawn_timeout', _arg(context, 'spawn_timeout'))
    topic = (f"/{namespace.strip('/')}/" if namespace.strip('/') else '') + \
        'robot_description_sdf'
    waiting = {'for': None}  # what create said it waits for, last
    handlers = []

    def on_output(event):
        for line in event.text.decode(errors='replace').splitlines():
            waiting['for'] = create_waiting_for(line, topic) or waiting['for']

    handlers.append(RegisterEventHandler(OnProcessIO(
        target_action=create, on_stdout=on_output, on_stderr=on_output)))
    timer = None
    if timeout > 0:
        timer = TimerAction(period=timeout, actions=[OpaqueFunction(
            function=lambda context: stop(spawn_timeout_message(name, timeout,
                                                                waiting['for'])))])
        handlers.append(timer)

    def spawned():
        if timer is not None:
            timer.cancel()
        if source == 'ros2_control' and as_bool(
                'joint_state_broadcaster', _arg(context, 'joint_state_broadcaster')):
            spawner = Node(package='controller_manager', executable='spawner',
                           namespace=namespace, output='screen',
                           arguments=['joint_state_broadcaster'],
                           parameters=[{'use_sim_time': as_bool(
                               'use_sim_time', _arg(context, 'use_sim_time'))}])
            return [spawner, stop_on_failure(spawner, 'joint_state_broadcaster spawner')]
        return None

    handlers.append(stop_on_failure(create, 'ros_gz_sim create', on_success=spawned))
    return handlers


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
        DeclareLaunchArgument(
            'use_sim_time', default_value='true',
            description="Use Gazebo's clock: bridges /clock (ros_gz_bridge) and sets "
                        'use_sim_time on every node.'),
        DeclareLaunchArgument(
            'joint_states', default_value='auto', choices=list(JOINT_STATE_SOURCES),
            description="Where joint_states come from: gazebo (Gazebo's JointStatePublisher "
                        'system added to the model, bridged to joint_states), ros2_control '
                        "(gz_ros2_control's joint_state_broadcaster), none (something else "
                        'publishes them); auto: ros2_control when the description has a '
                        '<ros2_control> block with gz_ros2_control hardware, else gazebo.'),
        DeclareLaunchArgument(
            'joint_state_broadcaster', default_value='false',
            description='With ros2_control joint states: spawn joint_state_broadcaster '
                        '(controller_manager spawner) once the robot is created.'),
        DeclareLaunchArgument(
            'spawn_timeout', default_value='60.0',
            description='Seconds ros_gz_sim create may take to spawn the robot (it waits '
                        'for Gazebo and the SDFormat) before the launch stops, saying what '
                        'it was waiting for; 0: wait forever.'),
        OpaqueFunction(function=_check),
        # description_file, xacro_args, frame_prefix, namespace, sdf_version,
        # auto_inertials, ...: see
        # bringup.launch.py.
        IncludeLaunchDescription(PythonLaunchDescriptionSource(bringup), launch_arguments={
            'mesh_uris': LaunchConfiguration('mesh_uris')}.items()),
        OpaqueFunction(function=_simulation),
    ])
