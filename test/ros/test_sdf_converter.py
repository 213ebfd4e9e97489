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
Tests of the ``sdf_converter`` node (sdf_tools.ros.sdf_converter) with real rclpy.

The reference output is what ``urdf2sdf`` writes (``urdf_to_sdf(parse_urdf(text)).sdf``), or
the SDFormat writer for SDFormat and RobCoGen input; the node's SDF is read by a
transient-local subscriber that joins after it was published, as ``ros_gz_sim create
-topic`` does.
"""

import os
import signal
import stat
import subprocess
import sys

import pytest

rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed')
pytest.importorskip('std_msgs.msg', reason='std_msgs is not installed')

from rclpy.executors import SingleThreadedExecutor  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from rclpy.qos import DurabilityPolicy  # noqa: E402
from rclpy.qos import QoSProfile  # noqa: E402
from rclpy.qos import ReliabilityPolicy  # noqa: E402
from ros_support import RecordingLogger  # noqa: E402
from ros_support import ros_context  # noqa: E402
from ros_support import spin_until  # noqa: E402
from ros_support import subprocess_env  # noqa: E402
from ros_support import unique_namespace  # noqa: E402
from sdf_tools.convert.urdf_to_sdf import ConversionOptions  # noqa: E402
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf  # noqa: E402
from sdf_tools.formats.sdf.writer import write_sdf  # noqa: E402
from sdf_tools.formats.urdf.reader import parse_urdf  # noqa: E402
from sdf_tools.loading import load  # noqa: E402
from sdf_tools.ros.bringup.gazebo import joint_state_publisher  # noqa: E402
from sdf_tools.ros.node_support import StartupError  # noqa: E402
from sdf_tools.ros.sdf_converter import PARAMETERS  # noqa: E402
from sdf_tools.ros.sdf_converter import SdfConverter  # noqa: E402
from std_msgs.msg import String  # noqa: E402
from support import CORPUS_DIR  # noqa: E402
from support import DATA_DIR  # noqa: E402
from support import NO_CORPUS  # noqa: E402
from support import REPO_DIR  # noqa: E402

pytestmark = pytest.mark.ros

LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
CORPUS_ROBOTS = ('ur5e', 'panda_hand_gazebo', 'husky', 'turtlebot3_waffle', 'pr2',
                 'talos_full_v2')
TWO_LINKS = """<robot name="two">
  <link name="base"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="tip"/>
  <joint name="j" type="fixed"><parent link="base"/><child link="tip"/>
    <origin xyz="0 0 1"/></joint>
  <link name="arm"><inertial><mass value="2"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="k" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""
BROKEN = '<robot name="broken">\n  <link name="a"/>\n  <joint name="j" type="revolute"/>\n'


def reference(text, **options):
    """Return urdf2sdf's output for URDF text."""
    return urdf_to_sdf(parse_urdf(text, '<robot_description>'),
                       ConversionOptions(**options)).sdf


class Ros:
    def __init__(self):
        self.context = ros_context()
        self.executor = SingleThreadedExecutor(context=self.context)
        self.helper = rclpy.create_node('sdf_converter_test', context=self.context)
        self.executor.add_node(self.helper)
        self.nodes = []
        self.entities = []

    def converter(self, ns, **parameters):
        node = SdfConverter(context=self.context, namespace=ns, parameter_overrides=[
            Parameter(k, value=v) for k, v in parameters.items()])
        self.executor.add_node(node)
        self.nodes.append(node)
        return node

    def description_publisher(self, ns):
        pub = self.helper.create_publisher(String, f'{ns}/robot_description', LATCHED)
        self.entities.append(pub)
        return pub

    def late_sdf(self, ns, timeout=5.0):
        """Subscribe now (after publication) and return the latched SDF."""
        received = []
        sub = self.helper.create_subscription(String, f'{ns}/robot_description_sdf',
                                              lambda m: received.append(m.data), LATCHED)
        try:
            assert spin_until(self.executor, lambda: received, timeout), 'no SDF received'
            return received[-1]
        finally:
            self.helper.destroy_subscription(sub)

    def cleanup(self):
        for node in self.nodes:
            self.executor.remove_node(node)
            node.destroy_node()
        for pub in self.entities:
            self.helper.destroy_publisher(pub)
        self.nodes, self.entities = [], []

    def close(self):
        self.cleanup()
        self.executor.shutdown()
        self.helper.destroy_node()
        rclpy.try_shutdown(context=self.context)


@pytest.fixture(scope='module')
def ros_module():
    r = Ros()
    yield r
    r.close()


@pytest.fixture
def ros(ros_module):
    yield ros_module
    ros_module.cleanup()


@pytest.mark.parametrize('name', CORPUS_ROBOTS)
def test_corpus_sdf_for_a_late_subscriber_equals_urdf2sdf(ros, name):
    path = CORPUS_DIR / f'{name}.urdf'
    if not path.is_file():
        pytest.skip(NO_CORPUS)
    text = path.read_text()
    ns = unique_namespace('conv')
    ros.description_publisher(ns).publish(String(data=text))
    node = ros.converter(ns)
    assert spin_until(ros.executor, lambda: node.converted is not None, timeout=10)
    assert ros.late_sdf(ns) == reference(text)


@pytest.mark.parametrize('path', ['sdf/joint_types.sdf', 'sdf/nested.sdf', 'kindsl/fancy.kindsl'])
def test_sdformat_and_robcogen_input_written_back(ros, path):
    text = (DATA_DIR / path).read_text()
    ns = unique_namespace('conv')
    node = ros.converter(ns, robot_description=text, sdf_version='1.11')
    assert node.converted.source_format == path.split('/')[0]
    expected = write_sdf(load(text=text).robot, version='1.11')
    assert ros.late_sdf(ns) == expected


def test_parameter_takes_precedence_over_topic(ros):
    ns = unique_namespace('conv')
    pub = ros.description_publisher(ns)
    node = ros.converter(ns, robot_description=TWO_LINKS)
    assert ros.late_sdf(ns) == reference(TWO_LINKS)
    other = TWO_LINKS.replace('name="two"', 'name="other"')
    pub.publish(String(data=other))  # remembered, not used while the parameter is set
    assert spin_until(ros.executor, lambda: node._topic_text == other)
    assert ros.late_sdf(ns) == reference(TWO_LINKS)
    assert node.set_parameters([Parameter('robot_description', value='')])[0].successful
    assert ros.late_sdf(ns) == reference(other)  # cleared: the topic's description
    third = TWO_LINKS.replace('name="two"', 'name="third"')
    pub.publish(String(data=third))
    assert spin_until(ros.executor, lambda: 'third' in node.converted.sdf)
    assert ros.late_sdf(ns) == reference(third)


def test_option_changes_reconvert(ros):
    ns = unique_namespace('conv')
    node = ros.converter(ns, robot_description=TWO_LINKS)
    assert ros.late_sdf(ns) == reference(TWO_LINKS)
    changes = [('preserve_fixed_joints', True), ('sdf_version', '1.11'),
               ('massless_mass', 0.5), ('massless_inertia', 0.25)]
    options = {}
    for name, value in changes:
        assert node.set_parameters([Parameter(name, value=value)])[0].successful
        options[name] = value
        assert ros.late_sdf(ns) == reference(TWO_LINKS, **options), name
    assert "version='1.11'" in node.converted.sdf or 'version="1.11"' in node.converted.sdf
    for name, value, reason in [('sdf_version', '2.0', 'sdf_version must be one of'),
                                ('massless_mass', 0.0, 'greater than 0'),
                                ('massless_inertia', float('nan'), 'greater than 0')]:
        result = node.set_parameters([Parameter(name, value=value)])[0]
        assert not result.successful and reason in result.reason
    assert ros.late_sdf(ns) == reference(TWO_LINKS, **options)
    assert not node.set_parameters([Parameter('preserve_fixed_joints', value='yes')])[0] \
        .successful  # wrong type: rclpy refuses


def test_output_file_written_atomically(ros, tmp_path):
    ns = unique_namespace('conv')
    target = tmp_path / 'out' / 'robot.sdf'
    target.parent.mkdir()
    node = ros.converter(ns, robot_description=TWO_LINKS, output_file=str(target))
    assert target.read_text() == reference(TWO_LINKS)
    first_inode = target.stat().st_ino
    other = TWO_LINKS.replace('name="two"', 'name="other"')
    assert node.set_parameters([Parameter('robot_description', value=other)])[0].successful
    assert target.read_text() == reference(other)
    assert target.stat().st_ino != first_inode  # replaced by rename, not rewritten in place
    assert os.listdir(target.parent) == ['robot.sdf']  # no temporary file left behind
    moved = tmp_path / 'moved.sdf'
    assert node.set_parameters([Parameter('output_file', value=str(moved))])[0].successful
    assert moved.read_text() == reference(other)  # the current SDF, at once
    log = RecordingLogger()
    node._log = log
    missing = tmp_path / 'no' / 'such' / 'dir.sdf'
    assert node.set_parameters([Parameter('output_file', value=str(missing))])[0].successful
    assert any('Cannot write output_file' in t for t in log.texts('error'))
    assert ros.late_sdf(ns) == reference(other)  # still published


def test_output_file_never_replaces_a_file_the_conversion_read(ros, tmp_path):
    """A mesh --auto-inertials weighed (a package's, found through package_path) stays."""
    trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
    package = tmp_path / 'arm'
    (package / 'meshes').mkdir(parents=True)
    (package / 'package.xml').write_text('<package format="3"><name>arm</name></package>')
    mesh = package / 'meshes' / 'box.stl'
    mesh.write_bytes(trimesh.creation.box((1, 1, 1)).export(file_type='stl'))
    before = mesh.read_bytes()
    robot = ('<robot name="r"><link name="a"><collision><geometry><mesh filename='
             '"package://arm/meshes/box.stl"/></geometry></collision></link></robot>')
    ns = unique_namespace('conv')
    node = ros.converter(ns, robot_description=robot, auto_inertials=1000.0,
                         package_path=str(tmp_path), output_file=str(mesh))
    log = RecordingLogger()
    node._log = log
    assert node.set_parameters([Parameter('sdf_version', value='1.10')])[0].successful
    assert any(f'Cannot write output_file: refusing to write {mesh}' in t
               for t in log.texts('error'))
    assert mesh.read_bytes() == before
    assert 'mass' in ros.late_sdf(ns)  # still converted and published


def test_output_file_onto_a_fifo_is_written_in_place(ros, tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    ns = unique_namespace('conv')
    node = ros.converter(ns, robot_description=TWO_LINKS, output_file=str(fifo))
    log = RecordingLogger()
    node._log = log
    # No process reads it: an error, at once (a node must not hang in a callback).
    assert node.set_parameters([Parameter('sdf_version', value='1.10')])[0].successful
    assert [t for t in log.texts('error') if 'Cannot write output_file' in t] == [
        f"Cannot write output_file '{fifo}': a FIFO that no process reads"]
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # a reader, before the next write
    try:
        assert node.set_parameters([Parameter('sdf_version', value='1.9')])[0].successful
        received = os.read(reader, 1 << 20).decode()  # the SDF is far below a pipe's 64 KiB
    finally:
        os.close(reader)
    assert received == reference(TWO_LINKS) == ros.late_sdf(ns)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ['pipe']


def test_bad_input_keeps_the_last_good_sdf(ros):
    ns = unique_namespace('conv')
    pub = ros.description_publisher(ns)
    pub.publish(String(data=TWO_LINKS))
    node = ros.converter(ns)
    assert spin_until(ros.executor, lambda: node.converted is not None)
    log = RecordingLogger()
    node._log = log
    for bad in (BROKEN, '', 'not a description at all {', '<sdf version="1.9"><model/></sdf>',
                '<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "aaaa">]>\n<robot>&a;</robot>'):
        before = len(log.texts('error'))
        pub.publish(String(data=bad))
        assert spin_until(ros.executor, lambda: len(log.texts('error')) > before), bad
    assert '<robot_description>:' in log.texts('error')[0]
    assert ros.late_sdf(ns) == reference(TWO_LINKS)
    result = node.set_parameters([Parameter('robot_description', value=BROKEN)])[0]
    assert not result.successful and result.reason.startswith('<robot_description>:')
    assert ros.late_sdf(ns) == reference(TWO_LINKS)


def test_startup(ros):
    ns = unique_namespace('conv')
    # A description given at startup that cannot be converted cannot get better by itself.
    # One line a problem, each saying what happened (a grep of the log finds each).
    with pytest.raises(StartupError, match=r'^Cannot convert the robot_description parameter '
                                           r'\(nothing is published, stopping\): '
                                           '<robot_description>:4: not well-formed XML'):
        ros.converter(ns, robot_description=BROKEN)
    node = ros.converter(ns)
    assert node.converted is None and node.failure is None  # waits for the topic
    with pytest.raises(StartupError, match='sdf_version must be one of'):
        SdfConverter(context=ros.context, namespace=ns,
                     parameter_overrides=[Parameter('sdf_version', value='1.6')])
    for spec in PARAMETERS:
        assert node.describe_parameter(spec.name).description
        assert type(node.get_parameter(spec.name).value) is type(spec.default)


def test_a_first_description_the_options_cannot_convert_stops_the_node(ros, monkeypatch):
    """auto_inertials without trimesh: nothing can be published, so the node says so and stops."""
    monkeypatch.setitem(sys.modules, 'trimesh', None)  # import trimesh -> ImportError
    ns = unique_namespace('conv')
    meshed = TWO_LINKS.replace('<link name="tip"/>', '<link name="tip"><collision><geometry>'
                               '<mesh filename="package://p/m.stl"/></geometry></collision>'
                               '</link>')  # a mesh the inertia must be read from
    ros.description_publisher(ns).publish(String(data=meshed))
    node = ros.converter(ns, auto_inertials=1000.0)
    log = RecordingLogger()
    node._log = log
    assert spin_until(ros.executor, lambda: node.failure is not None)
    assert node.failure.startswith(
        'Cannot convert the description from the robot_description topic with these options '
        "(nothing is published, stopping): <robot_description>:4: link 'tip': package://p/m.stl: "
        'auto_inertials (--auto-inertials) reads meshes with the trimesh package, which is not '
        'installed')
    assert node.converted is None and log.records == []  # run() logs the failure as fatal


def test_an_invalid_first_description_on_the_topic_is_waited_past(ros):
    """An invalid description on the topic never stops the node, and nothing is claimed kept."""
    ns = unique_namespace('conv')
    pub = ros.description_publisher(ns)
    pub.publish(String(data=BROKEN))
    node = ros.converter(ns)
    log = RecordingLogger()
    node._log = log
    assert spin_until(ros.executor, lambda: log.records)
    (level, text, _), = log.records
    assert level == 'error' and text.startswith(
        'Ignored an invalid description from the robot_description topic (nothing is '
        'published yet: waiting for a valid description): <robot_description>:4:')
    pub.publish(String(data=TWO_LINKS))
    assert spin_until(ros.executor, lambda: node.converted is not None)
    # Once something is published, the options failing on a new description stop nothing.
    pub.publish(String(data='<robot name="w"><link name="world"/></robot>'))
    assert spin_until(ros.executor, lambda: log.texts('error')[1:])
    assert log.texts('error')[1].startswith(
        'Cannot convert the description from the robot_description topic (the last good '
        "SDFormat stays published): <robot_description>:1: robot 'w': the robot has no link")
    assert node.failure is None and ros.late_sdf(ns) == reference(TWO_LINKS)


def test_description_source_names_the_first_description(ros):
    """The launch files name the file the description was read from; later ones are not it."""
    with pytest.raises(StartupError, match=': robot.urdf:4: not well-formed XML'):
        ros.converter(unique_namespace('conv'), robot_description=BROKEN,
                      description_source='robot.urdf')
    ns = unique_namespace('conv')
    pub = ros.description_publisher(ns)
    pub.publish(String(data=BROKEN))
    node = ros.converter(ns, description_source='robot.urdf')
    log = RecordingLogger()
    node._log = log
    assert spin_until(ros.executor, lambda: log.texts('error'))
    pub.publish(String(data=BROKEN))
    assert spin_until(ros.executor, lambda: log.texts('error')[1:])
    first, second = log.texts('error')
    assert '): robot.urdf:4: ' in first and '): <robot_description>:4: ' in second
    result = node.set_parameters([Parameter('robot_description', value=BROKEN)])[0]
    assert result.reason.startswith('<robot_description>:4: ')
    assert not node.set_parameters([Parameter('description_source', value='x')])[0].successful


def test_main_publishes_and_stops_cleanly(ros, tmp_path):
    import yaml
    ns = unique_namespace('main')
    params = tmp_path / 'params.yaml'
    params.write_text(yaml.safe_dump({'/**': {'ros__parameters': {
        'robot_description': TWO_LINKS, 'sdf_version': '1.10'}}}))
    env = subprocess_env()
    env['PYTHONPATH'] = os.pathsep.join([str(REPO_DIR), env.get('PYTHONPATH', '')])
    code = 'import sys; from sdf_tools.ros.sdf_converter import main; sys.exit(main())'
    process = subprocess.Popen([sys.executable, '-c', code, '--ros-args', '-r',
                                f'__ns:={ns}', '--params-file', str(params)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert ros.late_sdf(ns, timeout=20) == reference(TWO_LINKS, sdf_version='1.10')
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=20)
        assert process.returncode == 0, stderr
        assert 'Traceback' not in stderr
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    result = subprocess.run([sys.executable, '-c', code, '--ros-args', '-p',
                             'massless_mass:=-1.0'], env=env, capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 1 and 'massless_mass must be' in result.stderr
    assert 'Traceback' not in result.stderr
    # A version that YAML reads as a number: the message says how to quote it.
    result = subprocess.run([sys.executable, '-c', code, '--ros-args', '-p',
                             'sdf_version:=1.11'], env=env, capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 1, result.stderr
    assert 'needs YAML quotes: -p sdf_version:="\'1.9\'"' in result.stderr
    # Malformed ROS arguments are a usage error, not a traceback.
    for args in (['-p', 'foo'], ['--params-file', str(tmp_path / 'missing.yaml')]):
        result = subprocess.run([sys.executable, '-c', code, '--ros-args', *args], env=env,
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 2, (args, result.stderr)
        assert 'sdf_converter: error:' in result.stderr and 'Traceback' not in result.stderr


def test_package_path_parameter_and_every_lookup_route(ros, tmp_path, monkeypatch):
    from workspaces import description
    from workspaces import make_tree
    from workspaces import not_found_warning
    from workspaces import PACKAGE
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    tree = make_tree(tmp_path)
    text = description()
    empty = tmp_path / 'empty'
    empty.mkdir()
    for folder, expected in (('package', 'package'), ('src', 'package'), ('ws', 'install'),
                             ('prefix', 'prefix_share')):
        node = ros.converter(unique_namespace('conv'), robot_description=text,
                             package_path=f'{empty}{os.pathsep}{tree[folder]}')
        assert node.converted.warnings == (), folder
        assert node.resources.packages.find(PACKAGE) == tree[expected]
    for variable, folder, expected in (('AMENT_PREFIX_PATH', 'prefix', 'prefix_share'),
                                       ('ROS_PACKAGE_PATH', 'src', 'package')):
        with monkeypatch.context() as m:
            m.setenv(variable, str(tree[folder]))
            node = ros.converter(unique_namespace('conv'), robot_description=text)
            assert node.converted.warnings == ()
            assert node.resources.packages.find(PACKAGE) == tree[expected]
    # Not found, or a file the package lacks: warned about, converted all the same.
    ns = unique_namespace('conv')
    node = ros.converter(ns, robot_description=text)
    assert node.converted.warnings == (not_found_warning('the package_path parameter'),)
    assert ros.late_sdf(ns) == reference(text)
    node = ros.converter(unique_namespace('conv'), package_path=str(tree['src']))
    log = RecordingLogger()
    node._log = log
    missing = description(mesh='gone.stl')
    assert node.set_parameters([Parameter('robot_description', value=missing)])[0].successful
    assert log.texts('warning') == [
        "<robot_description>:3: warning: link 'base': package://arm_description/meshes/"
        f"gone.stl: no such file: {tree['package']}/meshes/gone.stl"]
    # Read only; a folder that does not exist stops the node at startup.
    result = node.set_parameters([Parameter('package_path', value=str(tree['prefix']))])[0]
    assert not result.successful
    with pytest.raises(StartupError, match=f'^the package_path parameter {tmp_path}/typo: '
                                           'no such folder$'):
        SdfConverter(context=ros.context, namespace=unique_namespace('conv'),
                     parameter_overrides=[Parameter('package_path', value=str(tmp_path / 'typo'))])


def test_mesh_uris_and_auto_inertials_parameters(ros, tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import make_mesh_robot
    files = make_mesh_robot(tmp_path)
    text = files['urdf'].read_text()
    ns = unique_namespace('conv')
    node = ros.converter(ns, robot_description=text, package_path=str(files['src']),
                         mesh_uris='file', auto_inertials=1000.0)
    cube = f"<uri>file://{files['package']}/meshes/cube.stl</uri>"
    sdf = ros.late_sdf(ns)
    assert cube in sdf and '<mass>32</mass>' in sdf
    assert any("link 'base': has no <inertial>; it is given" in w
               for w in node.converted.warnings)
    # Back to libsdformat's URIs and the placeholder; 0.0 is off.
    assert node.set_parameters([Parameter('mesh_uris', value='model'),
                                Parameter('auto_inertials', value=0.0)])[0].successful
    assert ros.late_sdf(ns) == reference(text)
    for name, value, reason in [('mesh_uris', 'absolute', 'mesh_uris must be one of model, '
                                 "file, package, got 'absolute'"),
                                ('auto_inertials', -1.0, 'auto_inertials must be a finite '
                                 'density >= 0 (0: off), got -1.0'),
                                ('auto_inertials', float('inf'), 'auto_inertials must be')]:
        result = node.set_parameters([Parameter(name, value=value)])[0]
        assert not result.successful and reason in result.reason
    assert ros.late_sdf(ns) == reference(text)
    with pytest.raises(StartupError, match='^mesh_uris must be one of'):
        SdfConverter(context=ros.context, namespace=unique_namespace('conv'),
                     parameter_overrides=[Parameter('mesh_uris', value='absolute')])


def test_gz_joint_state_topic_adds_gazebos_joint_state_publisher(ros):
    ns = unique_namespace('conv')
    node = ros.converter(ns, robot_description=TWO_LINKS, sdf_version='1.11',
                         gz_joint_state_topic='/model/two/joint_state')
    # The conversion, then the system (its placement is test_gazebo.py's).
    sdf = ros.late_sdf(ns)
    assert sdf == reference(TWO_LINKS, sdf_version='1.11', plugins=(
        joint_state_publisher('1.11', '/model/two/joint_state'),))
    assert 'name="gz::sim::systems::JointStatePublisher"' in sdf
    # Fortress's names below SDFormat 1.10; off again with ''.
    assert node.set_parameters([Parameter('sdf_version', value='1.9')])[0].successful
    assert 'filename="ignition-gazebo-joint-state-publisher-system"' in ros.late_sdf(ns)
    assert node.set_parameters([Parameter('gz_joint_state_topic', value='')])[0].successful
    assert ros.late_sdf(ns) == reference(TWO_LINKS)
    result = node.set_parameters([Parameter('gz_joint_state_topic', value='/a b')])[0]
    assert not result.successful and 'a Gazebo topic cannot hold whitespace' in result.reason
    with pytest.raises(StartupError, match='^a Gazebo topic cannot hold'):
        SdfConverter(context=ros.context, namespace=unique_namespace('conv'),
                     parameter_overrides=[Parameter('gz_joint_state_topic', value='/x@y')])
