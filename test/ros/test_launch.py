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
"""

import ast
import importlib.util
import math
import sys
import types
import xml.etree.ElementTree as ET

import pytest
from sdf_tools.errors import SdfToolsError
from sdf_tools.launch_helpers import as_bool
from sdf_tools.launch_helpers import as_float
from sdf_tools.launch_helpers import parse_xacro_args
from sdf_tools.launch_helpers import read_description
from support import DATA_DIR
from support import REPO_DIR
import yaml

LAUNCH_DIR = REPO_DIR / 'launch'
CONFIG_DIR = REPO_DIR / 'config'
LAUNCH_FILES = ('bringup.launch.py', 'gazebo_spawn.launch.py')
EXAMPLE_XACRO = REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
# ros_gz_sim create's ROS parameters (ros_gz_sim/src/create.cpp, see the research notes).
CREATE_PARAMETERS = {'world', 'file', 'string', 'topic', 'name', 'allow_renaming', 'x', 'y',
                     'z', 'R', 'P', 'Y'}
FOREIGN_EXECUTABLES = {('ros_gz_sim', 'create')}
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
                        assert name in CREATE_PARAMETERS, name
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
    imported -= set(sys.stdlib_module_names) | {'sdf_tools'}
    assert imported <= depends, sorted(imported - depends)
    assert 'ros_gz_sim' in depends


# --- executed with stand-in launch classes ------------------------------------------------------

class _Recorded:
    """Stand-in for a launch class: keeps its arguments."""

    def __init__(self, *args, **kwargs):
        self.args = args
        self.kwargs = kwargs


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


def _fake_launch_modules(share):
    """Return sys.modules entries standing in for launch, launch_ros and ament_index."""
    names = {
        'launch': {'LaunchDescription': _Recorded},
        'launch.actions': {n: type(n, (_Recorded,), {}) for n in (
            'DeclareLaunchArgument', 'OpaqueFunction', 'IncludeLaunchDescription',
            'GroupAction')},
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
    return modules


def _load_with_fakes(monkeypatch, file_name):
    def share(package):
        return {'sdf_tools': str(REPO_DIR), 'ros_gz_sim': '/opt/ros/ros_gz_sim'}[package]

    for name, module in _fake_launch_modules(share).items():
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location(file_name.replace('.', '_'),
                                                  LAUNCH_DIR / file_name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(description, overrides):
    """Collect declared arguments, then run the OpaqueFunctions; return (arguments, actions)."""
    arguments, actions = {}, []
    entities = list(description.args[0])
    context = types.SimpleNamespace(configurations={})
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
            actions.extend(entity.kwargs['function'](context))
        elif type(entity).__name__ != 'DeclareLaunchArgument':
            actions.append(entity)
    return arguments, actions


def test_bringup_runs_with_stand_in_launch(monkeypatch):
    module = _load_with_fakes(monkeypatch, 'bringup.launch.py')
    arguments, actions = _run(module.generate_launch_description(), {
        'description_file': str(EXAMPLE_XACRO), 'xacro_args': 'prefix:=left_ with_camera:=false',
        'frame_prefix': 'l/', 'namespace': 'left', 'publish_frequency': '50',
        'use_sim_time': 'True', 'mesh_uris': 'file', 'auto_inertials': '1000'})
    assert set(arguments) == {'description_file', 'xacro_args', 'frame_prefix', 'namespace',
                              'use_sim_time', 'publish_frequency', 'start_sdf_converter',
                              'package_path', 'mesh_uris', 'auto_inertials'}
    assert (arguments['mesh_uris']['default_value'],
            arguments['auto_inertials']['default_value']) == ('model', '0.0')
    assert all(a['description'] for a in arguments.values())
    state_publisher, converter = actions
    assert state_publisher.kwargs['executable'] == 'state_publisher'
    assert converter.kwargs['executable'] == 'sdf_converter'
    for node in actions:
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
    # Without the converter; other formats are passed through as text.
    sdf = DATA_DIR / 'sdf' / 'joint_types.sdf'
    _, actions = _run(module.generate_launch_description(), {
        'description_file': str(sdf), 'start_sdf_converter': 'false'})
    assert len(actions) == 1
    assert actions[0].kwargs['parameters'][1]['robot_description'].value == sdf.read_text()
    with pytest.raises(ValueError, match='description_file is required'):
        _run(module.generate_launch_description(), {'description_file': ''})
    with pytest.raises(SdfToolsError):
        _run(module.generate_launch_description(), {'description_file': '/no/such.urdf'})


def test_gazebo_spawn_runs_with_stand_in_launch(monkeypatch):
    module = _load_with_fakes(monkeypatch, 'gazebo_spawn.launch.py')
    arguments, actions = _run(module.generate_launch_description(), {
        'x': '1', 'Y': '-1.5', 'name': 'r2', 'namespace': 'ns', 'gz_args': '-s -r'})
    assert all(a['description'] for a in arguments.values())
    include_bringup, include_gazebo, create = actions
    assert include_bringup.args[0].args[0] == str(LAUNCH_DIR / 'bringup.launch.py')
    # Spawned with file:// mesh URIs unless told otherwise (the module docstring says why).
    assert arguments['mesh_uris']['default_value'] == 'file'
    (name, value), = include_bringup.kwargs['launch_arguments']
    assert name == 'mesh_uris' and value.name == 'mesh_uris'
    assert include_gazebo.args[0].args[0] == '/opt/ros/ros_gz_sim/launch/gz_sim.launch.py'
    assert dict(include_gazebo.kwargs['launch_arguments']) == {'gz_args': '-s -r empty.sdf'}
    assert (create.kwargs['package'], create.kwargs['executable']) == ('ros_gz_sim', 'create')
    assert create.kwargs['namespace'] == 'ns'
    (parameters,) = create.kwargs['parameters']
    assert parameters['topic'] == 'robot_description_sdf' and parameters['name'] == 'r2'
    assert parameters['allow_renaming'] is False
    for axis in 'xyzRPY':  # doubles, as create declares them (x:=1 must not be an int)
        assert type(parameters[axis]) is float
    assert (parameters['x'], parameters['Y'], parameters['z']) == (1.0, -1.5, 0.0)
    _, actions = _run(module.generate_launch_description(), {'start_gazebo': 'false'})
    assert len(actions) == 2


# --- the real launch, where it exists ------------------------------------------------------------

def _walk(entity, context, nodes):
    """Visit launch entities like LaunchService would, collecting (not running) the nodes."""
    from launch_ros.actions import Node
    if isinstance(entity, Node):
        nodes.append(entity)
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
    runs = {'bringup.launch.py': ({'xacro_args': 'prefix:=left_', 'namespace': 'left'},
                                  [('sdf_tools', 'state_publisher'),
                                   ('sdf_tools', 'sdf_converter')]),
            'gazebo_spawn.launch.py': ({'start_gazebo': 'false', 'x': '1'},
                                       [('sdf_tools', 'state_publisher'),
                                        ('sdf_tools', 'sdf_converter'),
                                        ('ros_gz_sim', 'create')])}
    for file_name, (arguments, expected) in runs.items():
        source = PythonLaunchDescriptionSource(str(LAUNCH_DIR / file_name))
        context = LaunchContext()
        context.launch_configurations.update(description_file=str(EXAMPLE_XACRO),
                                             **arguments)
        for argument in source.get_launch_description(context).get_launch_arguments():
            assert argument.description, argument.name
        nodes = []
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
    for node in actions:
        value = node.kwargs['parameters'][1]['package_path']
        assert (value.value, value.value_type) == (str(tree['src']), str)
    text = actions[0].kwargs['parameters'][1]['robot_description'].value
    assert f'filename="{tree["package"]}{mesh}"' in text
