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
Tests of the launch files, their config YAML and the launch helpers.

``launch`` and ``launch_ros`` are not pip-installable, so three layers of checks:

* static (always): both launch files parsed with :mod:`ast`; every ``Node`` names an
  executable that exists (ours from setup.py's entry points, ``ros_gz_sim create``); every
  parameter passed is declared by that node and present in its YAML; every YAML key is
  declared by the node with that default; every ``DeclareLaunchArgument`` has a
  description; package.xml lists what the launch files import;
* executed with stand-in ``launch``/``launch_ros`` classes (always): the launch functions
  run, read and expand the description, and pass typed parameters;
* with the real ``launch`` (where importable, else skipped with the reason): the same
  through launch's own classes.

What gazebo_spawn.launch.py passes to the programs it starts was read against their sources
(gazebosim/ros_gz branches humble, jazzy and ros2; gazebosim/gz-sim; ros-controls/
gz_ros2_control):

* ros_gz_sim ``create`` (``ros_gz_sim/src/create.cpp``, ``main`` and
  ``set_XML_from_topic``): the ROS parameters it declares (:data:`CREATE_PARAMETERS`;
  ``x .. Y`` are doubles); ``topic`` is read with depth 1 transient local and waited for
  forever, and so is ``/gazebo/worlds`` and ``/world/<w>/create``: there is no timeout
  parameter, hence ``spawn_timeout`` and the log lines of
  :data:`~sdf_tools.ros.bringup.helpers.CREATE_WAITS`;
* ros_gz_sim ``gz_sim.launch.py`` (``launch/gz_sim.launch.py.in``, ``launch_gz``): ``gz_args``
  and ``on_exit_shutdown`` (any non-empty value shuts down on Gazebo's exit);
* ros_gz_bridge ``parameter_bridge`` (``src/parameter_bridge.cpp``, ``main``): one argument
  per topic, ``topic@ROS type`` then ``[`` (Gazebo to ROS) and the Gazebo type; the ROS topic
  is named like the Gazebo one (so the launch remaps it); parameters ``lazy`` (and
  ``config_file``, ``expand_gz_topic_names`` in the bridge node of jazzy and later).
  ``resource/get_mappings.cpp.em``: ``gz.msgs.*`` and ``ignition.msgs.*`` are both accepted
  (Humble too, since 2023); ``ros_gz_bridge/mappings.py``: ``rosgraph_msgs/Clock`` <->
  ``Clock``, ``sensor_msgs/JointState`` <-> ``Model``;
* gz-sim's JointStatePublisher (``src/systems/joint_state_publisher/JointStatePublisher.cc``,
  ``Configure``/``PostUpdate``): ``<topic>`` overrides ``/world/<w>/model/<m>/joint_state``;
  message ``gz.msgs.Model`` (test_gazebo.py has the names);
* gz_ros2_control (``gz_ros2_control/src/gz_ros2_control_plugin.cpp``, ``Configure``): the
  controller manager runs inside Gazebo and takes robot_description from the topic (jazzy,
  rolling); Humble's ``ign_ros2_control`` reads the parameter of node ``robot_param_node``
  (default ``robot_state_publisher``); joint states come from its joint_state_broadcaster,
  started with ``controller_manager spawner joint_state_broadcaster`` after ``create``
  (``gz_ros2_control_demos/launch/*.launch.py``).
"""

import ast
import importlib.util
import math
import re
import sys
import types
import xml.etree.ElementTree as ET

import pytest
from sdf_tools.errors import SdfToolsError
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.ros.bringup.actions import LaunchStopped
from sdf_tools.ros.bringup.helpers import as_bool
from sdf_tools.ros.bringup.helpers import as_float
from sdf_tools.ros.bringup.helpers import as_timeout
from sdf_tools.ros.bringup.helpers import CLOCK_BRIDGE
from sdf_tools.ros.bringup.helpers import create_waiting_for
from sdf_tools.ros.bringup.helpers import default_sdf_version
from sdf_tools.ros.bringup.helpers import exit_message
from sdf_tools.ros.bringup.helpers import gazebo_of_distro
from sdf_tools.ros.bringup.helpers import GZ_ROS2_CONTROL_HARDWARE
from sdf_tools.ros.bringup.helpers import joint_state_bridge
from sdf_tools.ros.bringup.helpers import joint_state_source
from sdf_tools.ros.bringup.helpers import missing_packages
from sdf_tools.ros.bringup.helpers import parse_xacro_args
from sdf_tools.ros.bringup.helpers import read_description
from sdf_tools.ros.bringup.helpers import ros2_control_hardware
from sdf_tools.ros.bringup.helpers import spawn_timeout_message
from support import DATA_DIR
from support import REPO_DIR
import yaml

LAUNCH_DIR = REPO_DIR / 'launch'
CONFIG_DIR = REPO_DIR / 'config'
LAUNCH_FILES = ('bringup.launch.py', 'gazebo_spawn.launch.py')
EXAMPLE_XACRO = REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
# ros_gz_sim create's ROS parameters (ros_gz_sim/src/create.cpp, main).
CREATE_PARAMETERS = {'world', 'file', 'string', 'topic', 'name', 'allow_renaming', 'x', 'y',
                     'z', 'R', 'P', 'Y'}
# ros_gz_bridge parameter_bridge (src/parameter_bridge.cpp, main; ros_gz_bridge.cpp).
BRIDGE_PARAMETERS = {'lazy', 'config_file', 'expand_gz_topic_names'}
FOREIGN_EXECUTABLES = {('ros_gz_sim', 'create'): CREATE_PARAMETERS,
                       ('ros_gz_bridge', 'parameter_bridge'): BRIDGE_PARAMETERS,
                       ('controller_manager', 'spawner'): set()}
# Started only when asked for, and checked then: not an exec_depend (see package.xml).
OPTIONAL_PACKAGES = {'controller_manager'}
# parameter_bridge's argument: topic@ROS type, then [ (Gazebo to ROS) and the Gazebo type.
BRIDGE_ARGUMENT = r'/[A-Za-z0-9_/]+@[a-z_]+/msg/[A-Za-z]+\[(gz|ignition)\.msgs\.[A-Za-z]+'

# Every node declares this one (rclpy), so launch files may pass it.
IMPLICIT_PARAMETERS = {'use_sim_time'}


def node_parameters():
    """Return executable -> ParameterSpec tuple of our nodes (no rclpy needed to read)."""
    specs = {}
    for executable in ('state_publisher', 'sdf_converter'):
        tree = ast.parse((REPO_DIR / 'sdf_tools' / 'ros' / f'{executable}.py').read_text())
        for node in tree.body:
            if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id == 'PARAMETERS'):
                specs[executable] = [call.args[0].value for call in node.value.elts]
    return specs


def yaml_parameters(executable):
    """Return the ``ros__parameters`` of ``config/<executable>.yaml`` (key: node name)."""
    data = yaml.safe_load((CONFIG_DIR / f'{executable}.yaml').read_text())
    (key, value), = data.items()
    assert key.split('/')[-1] == executable, f'YAML key {key!r} is not the node name'
    return value['ros__parameters']


def entry_points():
    """Return our console scripts from setup.py."""
    tree = ast.parse((REPO_DIR / 'setup.py').read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == 'console_scripts':
                    return {ast.literal_eval(item).split('=')[0].strip()
                            for item in value.elts}
    raise AssertionError('no console_scripts in setup.py')


# --- static checks ----------------------------------------------------------------------------

def _constants(tree):
    return {n.targets[0].id: n.value.value for n in tree.body
            if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, ast.Constant)}


def _value(node, constants):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    return None


def _calls(tree, name):
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and getattr(n.func, 'id', getattr(n.func, 'attr', None)) == name]


@pytest.mark.parametrize('file_name', LAUNCH_FILES)
def test_launch_file_static_check(file_name):
    tree = ast.parse((LAUNCH_DIR / file_name).read_text(), file_name)
    constants = _constants(tree)
    assert any(isinstance(n, ast.FunctionDef) and n.name == 'generate_launch_description'
               for n in tree.body)
    assert ast.get_docstring(tree), 'module docstring'
    # Every argument has a description.
    for call in _calls(tree, 'DeclareLaunchArgument'):
        keywords = {k.arg: k.value for k in call.keywords}
        assert 'description' in keywords, ast.unparse(call)
        text = _value(keywords['description'], constants)
        assert text is None or text.strip(), ast.unparse(call)
    # Every node: an existing executable; parameters declared by it and in its YAML.
    ours = entry_points()
    specs = node_parameters()
    nodes = _calls(tree, 'Node')
    assert nodes
    for call in nodes:
        keywords = {k.arg: k.value for k in call.keywords}
        package = _value(keywords['package'], constants)
        executable = _value(keywords['executable'], constants)
        assert (package == 'sdf_tools' and executable in ours) or \
            (package, executable) in FOREIGN_EXECUTABLES, (package, executable)
        if 'parameters' not in keywords:
            continue
        parameters = keywords.get('parameters')
        assert isinstance(parameters, ast.List)
        for item in parameters.elts:
            if isinstance(item, ast.Dict):
                for key in item.keys:
                    name = _value(key, constants)
                    if package == 'sdf_tools':
                        assert name in set(specs[executable]) | IMPLICIT_PARAMETERS, name
                        assert name in yaml_parameters(executable) or \
                            name in IMPLICIT_PARAMETERS, name
                    else:
                        assert name in FOREIGN_EXECUTABLES[package, executable] | \
                            IMPLICIT_PARAMETERS, name
            else:  # the node's own YAML file
                yaml_names = [c.value for c in ast.walk(item) if isinstance(c, ast.Constant)
                              and str(c.value).endswith('.yaml')]
                assert yaml_names == [f'{executable}.yaml'], ast.unparse(item)
                assert (CONFIG_DIR / yaml_names[0]).is_file()


def test_yaml_declares_exactly_the_node_parameters_with_their_defaults():
    pytest.importorskip('rclpy', reason='the parameter tables import rclpy')
    from sdf_tools.ros import sdf_converter
    from sdf_tools.ros import state_publisher
    for module in (state_publisher, sdf_converter):
        values = yaml_parameters(module.NODE_NAME)
        assert list(values) == [spec.name for spec in module.PARAMETERS]
        for spec in module.PARAMETERS:
            assert type(values[spec.name]) is type(spec.default), spec.name
            assert values[spec.name] == spec.default, spec.name
            assert spec.description


def test_package_xml_lists_what_the_launch_files_use():
    root = ET.parse(REPO_DIR / 'package.xml').getroot()
    depends = {e.text for e in root if e.tag in ('exec_depend', 'depend')}
    imported = set()
    for file_name in LAUNCH_FILES:
        tree = ast.parse((LAUNCH_DIR / file_name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                imported.add(node.module.split('.')[0])
            elif isinstance(node, ast.Import):
                imported.update(a.name.split('.')[0] for a in node.names)
        for call in _calls(tree, 'Node'):
            package = _value({k.arg: k.value for k in call.keywords}['package'],
                             _constants(tree))
            imported.add(package)
    imported -= set(sys.stdlib_module_names) | {'sdf_tools'} | OPTIONAL_PACKAGES
    assert imported <= depends, sorted(imported - depends)
    assert {'ros_gz_sim', 'ros_gz_bridge'} <= depends
    assert not OPTIONAL_PACKAGES & depends


def test_bridge_arguments_have_parameter_bridges_format():
    for argument in (CLOCK_BRIDGE, joint_state_bridge('/model/r2/joint_state')):
        assert re.fullmatch(BRIDGE_ARGUMENT, argument), argument
    assert CLOCK_BRIDGE == '/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock'
    assert joint_state_bridge('/model/r2/joint_state') == \
        '/model/r2/joint_state@sensor_msgs/msg/JointState[gz.msgs.Model'


# --- executed with stand-in launch classes ------------------------------------------------------

class _Recorded:
    """Stand-in for a launch class: keeps its arguments."""

    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs


class _TimerAction(_Recorded):
    cancelled = False

    def cancel(self):
        self.cancelled = True


_TimerAction.__name__ = 'TimerAction'


class _LaunchConfiguration:
    def __init__(self, name, default=None):
        self.name = name
        self.default = default

    def perform(self, context):
        if self.name in context.configurations:
            return context.configurations[self.name]
        if self.default is None:
            raise KeyError(f'launch configuration {self.name!r} is not set')
        return self.default


class _ParameterValue:
    def __init__(self, value, value_type=None):
        self.value = value
        self.value_type = value_type


class _Logger:
    def __init__(self, lines):
        self.lines = lines

    def error(self, text):
        self.lines.append(text)


def _fake_launch_modules(share, logged):
    """Return sys.modules entries standing in for launch, launch_ros and ament_index."""
    names = {
        'launch': {'LaunchDescription': _Recorded},
        'launch.actions': {**{n: type(n, (_Recorded,), {}) for n in (
            'DeclareLaunchArgument', 'OpaqueFunction', 'IncludeLaunchDescription',
            'GroupAction', 'RegisterEventHandler', 'Shutdown', 'SetLaunchConfiguration',
            'LogInfo')}, 'TimerAction': _TimerAction},
        'launch.event_handlers': {n: type(n, (_Recorded,), {}) for n in (
            'OnProcessExit', 'OnProcessIO')},
        'launch.logging': {'get_logger': lambda name: _Logger(logged)},
        'launch.substitutions': {'LaunchConfiguration': _LaunchConfiguration},
        'launch.launch_description_sources': {
            'PythonLaunchDescriptionSource': type('PythonLaunchDescriptionSource',
                                                  (_Recorded,), {})},
        'launch.conditions': {'IfCondition': _Recorded, 'UnlessCondition': _Recorded},
        'launch_ros': {},
        'launch_ros.actions': {'Node': type('Node', (_Recorded,), {})},
        'launch_ros.parameter_descriptions': {'ParameterValue': _ParameterValue},
        'ament_index_python': {},
        'ament_index_python.packages': {'get_package_share_directory': share},
    }
    modules = {}
    for name, attributes in names.items():
        module = types.ModuleType(name)
        module.__dict__.update(attributes)
        modules[name] = module
    modules['launch'].logging = modules['launch.logging']
    return modules


class _PackageNotFound(KeyError):
    """Stand-in for ament_index_python's PackageNotFoundError (a KeyError)."""


def _load_with_fakes(monkeypatch, file_name, installed=('ros_gz_sim', 'ros_gz_bridge')):
    """Load a launch file against the stand-ins; return (module, lines logged as errors)."""
    def share(package):
        if package == 'sdf_tools':
            return str(REPO_DIR)
        if package in installed:
            return f'/opt/ros/{package}'
        raise _PackageNotFound(package)

    logged = []
    for name, module in _fake_launch_modules(share, logged).items():
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location(file_name.replace('.', '_'),
                                                  LAUNCH_DIR / file_name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.logged = logged
    return module


def _run(description, overrides, environment=None):
    """Collect declared arguments, then run the OpaqueFunctions; return (arguments, actions)."""
    arguments, actions = {}, []
    entities = list(description.args[0])
    context = types.SimpleNamespace(configurations={}, is_shutdown=False)
    for entity in entities:
        kind = type(entity).__name__
        if kind == 'DeclareLaunchArgument':
            name = entity.args[0]
            arguments[name] = entity.kwargs
            if 'default_value' in entity.kwargs:
                context.configurations[name] = entity.kwargs['default_value']
    context.configurations.update(overrides)
    for entity in entities:
        if type(entity).__name__ == 'OpaqueFunction':
            for action in entity.kwargs['function'](context):
                if type(action).__name__ == 'SetLaunchConfiguration':
                    context.configurations[action.args[0]] = action.args[1]
                actions.append(action)
        elif type(entity).__name__ != 'DeclareLaunchArgument':
            actions.append(entity)
    return arguments, actions


def _kinds(actions):
    return [type(a).__name__ for a in actions]


def _on_exit(handler, returncode, is_shutdown=False):
    """Run an OnProcessExit stand-in's callback for an exit code."""
    (event_handler,) = handler.args
    event = types.SimpleNamespace(returncode=returncode)
    return event_handler.kwargs['on_exit'](event, types.SimpleNamespace(is_shutdown=is_shutdown))


def _stop_reason(actions):
    """
    Run the action :func:`sdf_tools.ros.bringup.actions.stop` returned; return why it stops.

    launch turns the exception into one logged line, a shutdown of every process and exit
    code 1 (launch_service.py, ``LaunchService.run``: ``Caught exception in launch``).
    """
    (action,) = actions
    assert type(action).__name__ == 'OpaqueFunction'
    with pytest.raises(LaunchStopped) as stopped:
        action.kwargs['function'](None)
    return str(stopped.value)


def test_bringup_runs_with_stand_in_launch(monkeypatch):
    monkeypatch.setenv('ROS_DISTRO', 'humble')
    module = _load_with_fakes(monkeypatch, 'bringup.launch.py')
    arguments, actions = _run(module.generate_launch_description(), {
        'description_file': str(EXAMPLE_XACRO), 'xacro_args': 'prefix:=left_ with_camera:=false',
        'frame_prefix': 'l/', 'namespace': 'left', 'publish_frequency': '50',
        'use_sim_time': 'True', 'mesh_uris': 'file', 'auto_inertials': '1000'})
    assert set(arguments) == {'description_file', 'xacro_args', 'frame_prefix', 'namespace',
                              'use_sim_time', 'publish_frequency', 'start_sdf_converter',
                              'package_path', 'mesh_uris', 'auto_inertials', 'sdf_version'}
    assert (arguments['mesh_uris']['default_value'],
            arguments['auto_inertials']['default_value']) == ('model', '0.0')
    assert all(a['description'] for a in arguments.values())
    # Humble pairs with Fortress, which reads SDFormat 1.9.
    assert arguments['sdf_version']['default_value'] == '1.9'
    assert _kinds(actions) == ['Node', 'Node', 'RegisterEventHandler', 'RegisterEventHandler']
    state_publisher, converter, *handlers = actions
    assert state_publisher.kwargs['executable'] == 'state_publisher'
    assert converter.kwargs['executable'] == 'sdf_converter'
    for node in (state_publisher, converter):
        assert node.kwargs['namespace'] == 'left'
        config, overrides = node.kwargs['parameters']
        assert config == str(CONFIG_DIR / f"{node.kwargs['executable']}.yaml")
        assert overrides['use_sim_time'] is True
    overrides = state_publisher.kwargs['parameters'][1]
    description = overrides['robot_description']
    assert description.value_type is str and 'name="left_base_link"' in description.value
    assert 'camera_link' not in description.value
    assert overrides['frame_prefix'].value == 'l/' and overrides['frame_prefix'].value_type is str
    assert overrides['publish_frequency'] == 50.0 and type(overrides['publish_frequency']) is float
    overrides = converter.kwargs['parameters'][1]
    assert (overrides['mesh_uris'].value, overrides['mesh_uris'].value_type) == ('file', str)
    assert overrides['auto_inertials'] == 1000.0 and type(overrides['auto_inertials']) is float
    assert (overrides['sdf_version'].value, overrides['sdf_version'].value_type) == ('1.9', str)
    assert overrides['gz_joint_state_topic'].value == ''
    # Either node failing stops the launch with one line; a clean exit or a shutdown does not.
    for handler, node, name in zip(handlers, (state_publisher, converter),
                                   ('state_publisher', 'sdf_converter')):
        (event_handler,) = handler.args
        assert event_handler.kwargs['target_action'] is node
        assert _stop_reason(_on_exit(handler, 1)) == (
            f'{name} exited with code 1 (its error is above); stopping the launch')
        assert _on_exit(handler, 0) is None and _on_exit(handler, -2, is_shutdown=True) is None
    # Without the converter; other formats are passed through as text.
    sdf = DATA_DIR / 'sdf' / 'joint_types.sdf'
    _, actions = _run(module.generate_launch_description(), {
        'description_file': str(sdf), 'start_sdf_converter': 'false', 'sdf_version': '1.11'})
    assert _kinds(actions) == ['Node', 'RegisterEventHandler']
    assert actions[0].kwargs['parameters'][1]['robot_description'].value == sdf.read_text()
    with pytest.raises(ValueError, match='description_file is required'):
        _run(module.generate_launch_description(), {'description_file': ''})
    with pytest.raises(SdfToolsError):
        _run(module.generate_launch_description(), {'description_file': '/no/such.urdf'})
    with pytest.raises(ValueError, match='sdf_version must be one of 1.9, 1.10, 1.11'):
        _run(module.generate_launch_description(), {'description_file': str(sdf),
                                                    'sdf_version': '1.7'})
    # Values the nodes refuse are refused by the launch, with the node's message, before the
    # description is read (here a file that does not exist) and before anything starts.
    for name, value, message in (
            ('publish_frequency', '0', 'publish_frequency must be between 0.0 (exclusive) and '
                                       '1000.0, got 0.0'),
            ('publish_frequency', '1e9', 'publish_frequency must be between'),
            ('publish_frequency', 'fast', 'publish_frequency must be a number'),
            ('mesh_uris', 'bogus', "mesh_uris must be one of model, file, package, got 'bogus'"),
            ('auto_inertials', '-1', 'auto_inertials must be a finite density >= 0'),
            ('auto_inertials', 'inf', 'auto_inertials must be a finite density >= 0')):
        with pytest.raises(ValueError, match=re.escape(message)):
            _run(module.generate_launch_description(), {'description_file': '/no/such.urdf',
                                                        name: value})


def test_bringup_names_the_description_file_in_the_nodes_messages(monkeypatch):
    # Both nodes get description_source: the file, whose lines the text keeps; for xacro
    # the lines are the expansion's, and the name says so.
    module = _load_with_fakes(monkeypatch, 'bringup.launch.py')
    sdf = DATA_DIR / 'sdf' / 'joint_types.sdf'
    for path, source in ((sdf, str(sdf)), (EXAMPLE_XACRO, f'{EXAMPLE_XACRO} (expanded)')):
        _, actions = _run(module.generate_launch_description(), {
            'description_file': str(path), 'sdf_version': '1.11'})
        nodes = [a for a in actions if type(a).__name__ == 'Node']
        assert [n.kwargs['executable'] for n in nodes] == ['state_publisher', 'sdf_converter']
        for node in nodes:
            value = node.kwargs['parameters'][1]['description_source']
            assert (value.value, value.value_type) == (source, str)


@pytest.mark.parametrize('distro, version', [('humble', '1.9'), ('jazzy', '1.11'),
                                             ('kilted', '1.11'), ('rolling', '1.11'),
                                             (None, '1.11')])
def test_sdf_version_default_follows_the_distributions_gazebo(monkeypatch, distro, version):
    if distro is None:
        monkeypatch.delenv('ROS_DISTRO', raising=False)
    else:
        monkeypatch.setenv('ROS_DISTRO', distro)
    module = _load_with_fakes(monkeypatch, 'bringup.launch.py')
    arguments, _ = _run(module.generate_launch_description(), {
        'description_file': str(EXAMPLE_XACRO)})
    assert arguments['sdf_version']['default_value'] == version
    assert default_sdf_version({'ROS_DISTRO': distro} if distro else {}) == version
    assert version == (CONVERTIBLE_VERSIONS[-1] if distro not in ('humble', 'jazzy')
                       else version)


def _gazebo_spawn(monkeypatch, overrides, installed=('ros_gz_sim', 'ros_gz_bridge')):
    module = _load_with_fakes(monkeypatch, 'gazebo_spawn.launch.py', installed)
    # namespace: declared by the included bringup.launch.py, which the stand-in does not run.
    arguments, actions = _run(module.generate_launch_description(), {
        'description_file': str(EXAMPLE_XACRO), 'namespace': '', **overrides})
    return module, arguments, actions


def test_gazebo_spawn_runs_with_stand_in_launch(monkeypatch):
    module, arguments, actions = _gazebo_spawn(monkeypatch, {
        'x': '1', 'Y': '-1.5', 'name': 'r2', 'namespace': 'ns', 'gz_args': '-s -r'})
    assert all(a['description'] for a in arguments.values())
    assert (arguments['use_sim_time']['default_value'], arguments['joint_states']['default_value'],
            arguments['spawn_timeout']['default_value']) == ('true', 'auto', '60.0')
    assert _kinds(actions) == [
        'SetLaunchConfiguration', 'SetLaunchConfiguration',  # the check: nothing started
        'IncludeLaunchDescription', 'IncludeLaunchDescription',  # bringup, Gazebo
        'Node', 'RegisterEventHandler', 'Node', 'RegisterEventHandler',  # the two bridges
        'Node', 'RegisterEventHandler', 'TimerAction', 'RegisterEventHandler']  # create
    (topic, source, include_bringup, include_gazebo, clock, _, joints, _, create, io, timer,
     exit_handler) = actions
    # No <ros2_control>: Gazebo's JointStatePublisher, named for the entity.
    assert (topic.args, source.args) == (('gz_joint_state_topic', '/model/r2/joint_state'),
                                         ('sdf_tools.joint_state_source', 'gazebo'))
    assert include_bringup.args[0].args[0] == str(LAUNCH_DIR / 'bringup.launch.py')
    # Spawned with file:// mesh URIs unless told otherwise (the module docstring says why).
    assert arguments['mesh_uris']['default_value'] == 'file'
    (name, value), = include_bringup.kwargs['launch_arguments']
    assert name == 'mesh_uris' and value.name == 'mesh_uris'
    assert include_gazebo.args[0].args[0] == '/opt/ros/ros_gz_sim/launch/gz_sim.launch.py'
    assert dict(include_gazebo.kwargs['launch_arguments']) == {
        'gz_args': '-s -r empty.sdf', 'on_exit_shutdown': 'true'}
    assert (clock.kwargs['package'], clock.kwargs['executable']) == (
        'ros_gz_bridge', 'parameter_bridge')
    assert clock.kwargs['arguments'] == ['/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock']
    assert joints.kwargs['arguments'] == [
        '/model/r2/joint_state@sensor_msgs/msg/JointState[gz.msgs.Model']
    assert joints.kwargs['remappings'] == [('/model/r2/joint_state', 'joint_states')]
    assert joints.kwargs['namespace'] == 'ns'
    assert joints.kwargs['parameters'] == [{'use_sim_time': True}]
    assert (create.kwargs['package'], create.kwargs['executable']) == ('ros_gz_sim', 'create')
    assert create.kwargs['namespace'] == 'ns'
    (parameters,) = create.kwargs['parameters']
    assert parameters['topic'] == 'robot_description_sdf' and parameters['name'] == 'r2'
    assert parameters['allow_renaming'] is False
    for axis in 'xyzRPY':  # doubles, as create declares them (x:=1 must not be an int)
        assert type(parameters[axis]) is float
    assert (parameters['x'], parameters['Y'], parameters['z']) == (1.0, -1.5, 0.0)
    # create stuck: the timer stops the launch, saying what create last said it waits for.
    (on_io,) = io.args
    assert on_io.kwargs['target_action'] is create
    on_io.kwargs['on_stderr'](types.SimpleNamespace(
        text=b'[INFO] [ros_gz_sim]: Requesting list of world names.\n'
             b'[INFO] [ros_gz_sim]: Waiting messages on topic [robot_description_sdf].\n'))
    assert timer.kwargs['period'] == 60.0
    (stop_action,) = timer.kwargs['actions']
    assert _stop_reason(stop_action.kwargs['function'](None)) == (
        "ros_gz_sim create did not spawn 'r2' within spawn_timeout=60 s: it was waiting for "
        "the SDFormat on /ns/robot_description_sdf (see sdf_converter's errors above); "
        'stopping the launch')
    # create failing stops the launch; succeeding cancels the timer.
    assert _stop_reason(_on_exit(exit_handler, 255)).startswith(
        'ros_gz_sim create exited with code 255')
    assert not timer.cancelled and _on_exit(exit_handler, 0) is None and timer.cancelled
    # A Gazebo already running; no sim time: no clock bridge; no timeout.
    _, _, actions = _gazebo_spawn(monkeypatch, {'start_gazebo': 'false', 'use_sim_time': 'false',
                                                'spawn_timeout': '0', 'joint_states': 'none'})
    assert _kinds(actions) == ['SetLaunchConfiguration', 'SetLaunchConfiguration',
                               'IncludeLaunchDescription', 'Node', 'RegisterEventHandler',
                               'RegisterEventHandler']
    assert actions[0].args == ('gz_joint_state_topic', '')


def test_gazebo_spawn_checks_packages_and_arguments_before_starting_anything(monkeypatch):
    """A missing package is one line, raised by the first action: nothing else is visited."""
    monkeypatch.setenv('ROS_DISTRO', 'jazzy')
    for installed, expected in (
            ((), 'gazebo_spawn.launch.py needs ros_gz_sim and ros_gz_bridge, which are not '
                 'installed: apt install ros-jazzy-ros-gz-sim ros-jazzy-ros-gz-bridge (or source '
                 'the workspace that has them); nothing was started'),
            (('ros_gz_sim',), 'needs ros_gz_bridge, which is not installed: apt install '
                              'ros-jazzy-ros-gz-bridge')):
        with pytest.raises(RuntimeError) as caught:
            _gazebo_spawn(monkeypatch, {}, installed)
        assert expected in str(caught.value) and '\n' not in str(caught.value)
    # What is missing is said before the description is read: a file that cannot be read
    # does not hide it.
    with pytest.raises(RuntimeError, match='needs ros_gz_sim and ros_gz_bridge'):
        _gazebo_spawn(monkeypatch, {'description_file': '/no/such.urdf'}, ())
    # Without sim time and joint states from elsewhere, the bridge is not needed.
    _gazebo_spawn(monkeypatch, {'use_sim_time': 'false', 'joint_states': 'none'},
                  ('ros_gz_sim',))
    for overrides, message in (({'x': 'one'}, 'x must be a number'),
                               ({'spawn_timeout': '-1'}, 'spawn_timeout must be 0'),
                               ({'joint_states': 'sometimes'}, 'joint_states must be one of'),
                               ({'mesh_uris': 'bogus'}, 'mesh_uris must be one of'),
                               ({'name': 'my-robot'}, 'name must be letters, digits')):
        with pytest.raises(ValueError, match=message):
            _gazebo_spawn(monkeypatch, overrides)


GZ_ROS2_CONTROL = """<robot name="cart">
  <link name="base"/><link name="cart"/>
  <joint name="slider" type="prismatic"><parent link="base"/><child link="cart"/>
    <axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <ros2_control name="GazeboSimSystem" type="system">
    <hardware><plugin>{hardware}</plugin></hardware>
    <joint name="slider"><state_interface name="position"/></joint>
  </ros2_control>
  <gazebo><plugin filename="gz_ros2_control-system"
    name="gz_ros2_control::GazeboSimROS2ControlPlugin"/></gazebo>
</robot>"""


def test_gazebo_spawn_with_gz_ros2_control(monkeypatch, tmp_path):
    monkeypatch.setenv('ROS_DISTRO', 'jazzy')
    robot = tmp_path / 'cart.urdf'
    robot.write_text(GZ_ROS2_CONTROL.format(hardware='gz_ros2_control/GazeboSimSystem'))
    module, _, actions = _gazebo_spawn(monkeypatch, {'description_file': str(robot)},
                                       ('ros_gz_sim', 'ros_gz_bridge'))
    assert actions[0].args == ('gz_joint_state_topic', '')
    assert actions[1].args == ('sdf_tools.joint_state_source', 'ros2_control')
    note = actions[2]
    assert type(note).__name__ == 'LogInfo' and note.kwargs['msg'].startswith(
        'joint_states come from gz_ros2_control: the controller manager it runs in Gazebo '
        'publishes them through its joint_state_broadcaster (start it with '
        'joint_state_broadcaster:=true')
    nodes = [a for a in actions if type(a).__name__ == 'Node']
    assert [n.kwargs['executable'] for n in nodes] == ['parameter_bridge', 'create']  # clock
    assert _on_exit(actions[-1], 0) is None  # no spawner unless asked
    # Asked for: controller_manager must be installed, and the spawner follows create.
    with pytest.raises(RuntimeError, match='needs controller_manager'):
        _gazebo_spawn(monkeypatch, {'description_file': str(robot),
                                    'joint_state_broadcaster': 'true'})
    _, _, actions = _gazebo_spawn(
        monkeypatch, {'description_file': str(robot), 'joint_state_broadcaster': 'true'},
        ('ros_gz_sim', 'ros_gz_bridge', 'controller_manager'))
    spawner, handler = _on_exit(actions[-1], 0)
    assert (spawner.kwargs['package'], spawner.kwargs['executable'],
            spawner.kwargs['arguments']) == ('controller_manager', 'spawner',
                                             ['joint_state_broadcaster'])
    assert _stop_reason(_on_exit(handler, 1)).startswith('joint_state_broadcaster spawner')
    # Humble's ign_ros2_control looks for robot_state_publisher's parameter: said so.
    monkeypatch.setenv('ROS_DISTRO', 'humble')
    robot.write_text(GZ_ROS2_CONTROL.format(hardware='ign_ros2_control/IgnitionSystem'))
    _, _, actions = _gazebo_spawn(monkeypatch, {'description_file': str(robot)})
    assert '<robot_param_node>state_publisher</robot_param_node>' in actions[2].kwargs['msg']
    # Forced: Gazebo's system even so.
    _, _, actions = _gazebo_spawn(monkeypatch, {'description_file': str(robot),
                                                'joint_states': 'gazebo'})
    assert actions[0].args == ('gz_joint_state_topic', '/model/robot/joint_state')


# --- the real launch, where it exists ------------------------------------------------------------

def _walk(entity, context, nodes):
    """Visit launch entities like LaunchService would, collecting (not running) the nodes."""
    from launch.actions import TimerAction
    from launch_ros.actions import Node
    if isinstance(entity, Node):
        nodes.append(entity)
        return
    if isinstance(entity, TimerAction):  # needs LaunchService's event loop
        return
    for sub in entity.visit(context) or []:
        _walk(sub, context, nodes)


def test_with_real_launch():
    reason = ('launch/launch_ros are not installed here (not on PyPI; a ROS install has '
              'them): the static and stand-in tests above cover the launch files')
    launch = pytest.importorskip('launch', reason=reason)
    if not hasattr(launch, 'LaunchDescription'):  # the repository's launch/ directory
        pytest.skip(reason)
    pytest.importorskip('launch_ros', reason=reason)
    from ament_index_python.packages import get_package_share_directory
    from ament_index_python.packages import PackageNotFoundError
    from launch import LaunchContext
    from launch.actions import IncludeLaunchDescription
    from launch.launch_description_sources import PythonLaunchDescriptionSource
    try:
        get_package_share_directory('sdf_tools')
    except PackageNotFoundError:
        pytest.skip('sdf_tools is not installed in an ament prefix (colcon build first)')
    try:
        get_package_share_directory('ros_gz_sim')
        spawn = [('sdf_tools', 'state_publisher'), ('sdf_tools', 'sdf_converter'),
                 ('ros_gz_bridge', 'parameter_bridge'), ('ros_gz_bridge', 'parameter_bridge'),
                 ('ros_gz_sim', 'create')]
    except PackageNotFoundError:
        spawn = 'needs ros_gz_sim'  # the one line, before any node
    runs = {'bringup.launch.py': ({'xacro_args': 'prefix:=left_', 'namespace': 'left'},
                                  [('sdf_tools', 'state_publisher'),
                                   ('sdf_tools', 'sdf_converter')]),
            'gazebo_spawn.launch.py': ({'start_gazebo': 'false', 'x': '1'}, spawn)}
    for file_name, (arguments, expected) in runs.items():
        source = PythonLaunchDescriptionSource(str(LAUNCH_DIR / file_name))
        context = LaunchContext()
        context.launch_configurations.update(description_file=str(EXAMPLE_XACRO),
                                             **arguments)
        for argument in source.get_launch_description(context).get_launch_arguments():
            assert argument.description, argument.name
        nodes = []
        if isinstance(expected, str):
            with pytest.raises(RuntimeError, match=expected):
                _walk(IncludeLaunchDescription(source), context, nodes)
            assert nodes == []
            continue
        _walk(IncludeLaunchDescription(source), context, nodes)
        assert [(n.node_package, n.node_executable) for n in nodes] == expected
        for node in nodes:
            node._perform_substitutions(context)  # parameters evaluated as at launch time


# --- the YAML loaded by rclpy, the helpers ----------------------------------------------------

def test_config_files_load_into_the_nodes():
    """``--params-file config/<node>.yaml`` is accepted (types) in any namespace."""
    pytest.importorskip('rclpy', reason='rclpy is not installed')
    pytest.importorskip('sensor_msgs.msg', reason='sensor_msgs is not installed')
    import rclpy
    from rclpy.parameter import Parameter
    from ros_support import ros_context
    from ros_support import TfCapture
    from sdf_tools.ros.sdf_converter import SdfConverter
    from sdf_tools.ros.state_publisher import StatePublisher
    context = ros_context()
    try:
        for namespace in (None, '/robots/left'):
            node = StatePublisher(
                broadcaster_factory=TfCapture().factory, context=context, namespace=namespace,
                cli_args=['--ros-args', '--params-file',
                          str(CONFIG_DIR / 'state_publisher.yaml')],
                parameter_overrides=[Parameter('robot_description', value=(
                    DATA_DIR / 'sdf' / 'joint_types.sdf').read_text())])
            assert node.get_parameter('publish_frequency').value == 20.0
            node.destroy_node()
            node = SdfConverter(context=context, namespace=namespace, cli_args=[
                '--ros-args', '--params-file', str(CONFIG_DIR / 'sdf_converter.yaml')])
            assert node.get_parameter('sdf_version').value == '1.9'
            node.destroy_node()
    finally:
        rclpy.try_shutdown(context=context)


def test_read_description_expands_xacro_files_only(tmp_path):
    """Expanding xacro runs code: a description_file of another name with markup is refused."""
    urdf = tmp_path / 'robot.urdf'
    urdf.write_text('<robot name="r">\n<link name="$(optenv NO_SUCH_VARIABLE a)"/>\n</robot>\n')
    with pytest.raises(SdfToolsError) as refused:
        read_description(str(urdf))
    assert str(refused.value) == (
        f"{urdf}:2: xacro markup '$(optenv NO_SUCH_VARIABLE a)' in a file not named .xacro: "
        'not expanded, because expanding xacro runs the code it holds; the launch files '
        'expand .xacro files only: if you trust it, rename it to end in .xacro (e.g. '
        'robot.urdf.xacro), or expand it first (xacro FILE > robot.urdf)')
    renamed = urdf.rename(tmp_path / 'robot.urdf.xacro')
    assert '<link name="a"/>' in read_description(str(renamed))


def test_launch_helpers():
    assert parse_xacro_args('prefix:=left_ arm:=true "label:=a b"') == {
        'prefix': 'left_', 'arm': 'true', 'label': 'a b'}
    assert parse_xacro_args('') == {}
    with pytest.raises(ValueError, match='name:=value'):
        parse_xacro_args('prefix=left_')
    text = read_description(str(EXAMPLE_XACRO), 'prefix:=r_')
    assert 'name="r_base_link"' in text and 'xacro:' not in text.split('?>')[-1][:200]
    with pytest.raises(ValueError, match='not xacro'):
        read_description(str(DATA_DIR / 'sdf' / 'joint_types.sdf'), 'a:=b')
    with pytest.raises(SdfToolsError, match='xacro'):
        read_description(str(EXAMPLE_XACRO), 'with_camera:=maybe')
    assert (as_bool('b', 'True'), as_bool('b', '0'), as_float('x', '1')) == (True, False, 1.0)
    assert math.isinf(as_float('x', 'inf'))
    with pytest.raises(ValueError, match='use_sim_time must be true or false'):
        as_bool('use_sim_time', 'maybe')
    with pytest.raises(ValueError, match='x must be a number'):
        as_float('x', 'one')


def test_gazebo_launch_helpers():
    assert gazebo_of_distro('Humble') == ('Fortress', '1.9')
    assert gazebo_of_distro('jazzy') == ('Harmonic', '1.11')
    assert gazebo_of_distro('lyrical') == gazebo_of_distro(None) == ('Ionic or later',
                                                                     CONVERTIBLE_VERSIONS[-1])
    assert as_timeout('t', '0') == 0.0 and as_timeout('t', '2.5') == 2.5
    for bad in ('-1', 'inf', 'nan', 'soon'):
        with pytest.raises(ValueError, match='t must be'):
            as_timeout('t', bad)
    assert ros2_control_hardware('<robot name="r"><ros2_control') is None  # not XML: no
    hardware = '<ros2_control name="s"><hardware><plugin>{}</plugin></hardware></ros2_control>'
    assert ros2_control_hardware(f'<robot name="r">{hardware.format(GZ_ROS2_CONTROL_HARDWARE[0])}'
                                 '</robot>') == GZ_ROS2_CONTROL_HARDWARE[0]
    # Parsed with entities off: an entity that would name the hardware is refused, not expanded.
    entity = (f'<!DOCTYPE robot [<!ENTITY hw "{GZ_ROS2_CONTROL_HARDWARE[0]}">]>'
              f'<robot name="r">{hardware.format("&hw;")}</robot>')
    assert ros2_control_hardware(entity) is None
    assert joint_state_source('auto', None) == 'gazebo'
    assert missing_packages(['a', 'b'], {'a': '/share/a'}.__getitem__) == ['b']
    assert create_waiting_for('[INFO] [ros_gz_sim]: Waiting for service '
                              '[/world/empty/create] to become available ...', 't') == (
        "Gazebo's /world/<world>/create service (is Gazebo running, with that world?)")
    assert create_waiting_for('[INFO] Entity creation successfull.', 't') is None
    assert spawn_timeout_message('r', 5, None) == (
        "ros_gz_sim create did not spawn 'r' within spawn_timeout=5 s: it was waiting for "
        'Gazebo and the SDFormat; stopping the launch')


def test_exit_message_says_an_error_is_above_only_after_an_exit_code():
    # A program that exits with a code said why (our nodes log a fatal line); one killed by
    # a signal had no chance to.
    assert exit_message('sdf_converter', 1) == ('sdf_converter exited with code 1 (its error '
                                                'is above); stopping the launch')
    assert exit_message('create', -9) == ('create was killed by signal 9 (SIGKILL); stopping '
                                          'the launch')
    assert exit_message('create', -200) == 'create was killed by signal 200; stopping the launch'


def test_launch_helpers_and_bringup_find_packages(monkeypatch, tmp_path):
    from workspaces import make_tree
    from workspaces import PACKAGE
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    tree = make_tree(tmp_path)
    robot = str(tree['robot'])
    mesh = '/meshes/base.stl'
    for folder, expected in (('package', 'package'), ('src', 'package'), ('ws', 'install'),
                             ('prefix', 'prefix_share')):
        text = read_description(robot, '', str(tree[folder]))
        assert f'filename="{tree[expected]}{mesh}"' in text, folder
    assert f'filename="{tree["install"]}{mesh}"' in read_description(str(tree['inner_robot']))
    with monkeypatch.context() as m:
        m.setenv('AMENT_PREFIX_PATH', str(tree['prefix']))
        assert f'filename="{tree["prefix_share"]}{mesh}"' in read_description(robot)
    with monkeypatch.context() as m:
        m.setenv('ROS_PACKAGE_PATH', str(tree['src']))
        assert f'filename="{tree["package"]}{mesh}"' in read_description(robot)
    with pytest.raises(SdfToolsError) as caught:
        read_description(robot)
    assert str(caught.value) == (
        f"{robot}:3: $(find {PACKAGE}): package '{PACKAGE}' not found; searched: "
        'AMENT_PREFIX_PATH (not set), ROS_PACKAGE_PATH (not set); give its folder in the '
        'package_path launch argument')
    with pytest.raises(ValueError, match='^the package_path launch argument .*/typo: no such'):
        read_description(robot, '', str(tmp_path / 'typo'))
    # bringup.launch.py: the argument reaches xacro and both nodes.
    module = _load_with_fakes(monkeypatch, 'bringup.launch.py')
    arguments, actions = _run(module.generate_launch_description(), {
        'description_file': robot, 'package_path': str(tree['src'])})
    assert arguments['package_path']['default_value'] == ''
    for node in actions[:2]:  # the nodes; then their exit handlers
        value = node.kwargs['parameters'][1]['package_path']
        assert (value.value, value.value_type) == (str(tree['src']), str)
    text = actions[0].kwargs['parameters'][1]['robot_description'].value
    assert f'filename="{tree["package"]}{mesh}"' in text
