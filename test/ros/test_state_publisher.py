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
Tests of the ``state_publisher`` node (sdf_tools.ros.state_publisher) with real rclpy.

The node runs in-process with a capturing broadcaster factory (tf2_ros is not needed): every
``sendTransform`` is recorded as plain values, and, where ``tf2_msgs`` can be had
(conftest.py), the tests of ``/tf`` run again with the node's default serialised output,
decoded. ``joint_states`` and ``robot_description`` go through DDS (private domain,
loopback, a namespace per test), and so does ``/tf`` in one test. Expected transforms come
from :func:`~sdf_tools.kinematics.forward_kinematics` (model-frame link poses, a different
evaluator from the per-joint one the node uses): ``inv(T_parent) @ T_child`` per joint.
The publishing rules themselves are tested on
:class:`~sdf_tools.ros.joint_state_tf.JointStateTf` in test_joint_state_tf.py.
"""

import math
import re
import subprocess
import sys
import time

import numpy as np
import pytest

rclpy = pytest.importorskip('rclpy', reason='rclpy is not installed (pip install '
                            "'ros-rclpy[fastrtps]' ros-kilted-sensor-msgs ...)")
pytest.importorskip('sensor_msgs.msg', reason='sensor_msgs is not installed')
pytest.importorskip('geometry_msgs.msg', reason='geometry_msgs is not installed')

from rclpy.executors import SingleThreadedExecutor  # noqa: E402
from rclpy.parameter import Parameter  # noqa: E402
from rclpy.qos import DurabilityPolicy  # noqa: E402
from rclpy.qos import QoSProfile  # noqa: E402
from rclpy.qos import ReliabilityPolicy  # noqa: E402
from ros_support import ARM  # noqa: E402
from ros_support import expected_joint_matrices  # noqa: E402
from ros_support import joint_state  # noqa: E402
from ros_support import random_positions  # noqa: E402
from ros_support import RecordingLogger  # noqa: E402
from ros_support import ros_context  # noqa: E402
from ros_support import spin_for  # noqa: E402
from ros_support import spin_until  # noqa: E402
from ros_support import tf_matrix  # noqa: E402
from ros_support import TfCapture  # noqa: E402
from ros_support import unique_namespace  # noqa: E402
from sdf_tools.ros.node_support import StartupError  # noqa: E402
from sdf_tools.ros.state_publisher import DESCRIPTION_FROM_TOPIC_REASON  # noqa: E402
from sdf_tools.ros.state_publisher import PARAMETERS  # noqa: E402
from sdf_tools.ros.state_publisher import StatePublisher  # noqa: E402
from sensor_msgs.msg import JointState  # noqa: E402
from std_msgs.msg import String  # noqa: E402
from support import CORPUS_DIR  # noqa: E402
from support import DATA_DIR  # noqa: E402
from support import NO_CORPUS  # noqa: E402

pytestmark = pytest.mark.ros

TOL = 1e-9
S = 1_000_000_000  # ns per second
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE,
                     durability=DurabilityPolicy.TRANSIENT_LOCAL)
CORPUS_ROBOTS = ('ur5e', 'panda_hand_gazebo', 'talos_full_v2', 'pr2', 'alex_psyonic_hands',
                 'unitree_as2_floating')

# ARM without the finger links (and with a renamed fixed frame): a description swap target.
SMALL = """<robot name="small">
  <link name="base"/><link name="l1"/><link name="flange"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.4"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="flange_mount" type="fixed"><parent link="l1"/><child link="flange"/>
    <origin xyz="0 0 0.1"/></joint>
</robot>"""
FLOATING = """<robot name="flyer">
  <link name="world"/><link name="body"/><link name="slider"/><link name="cam"/>
  <joint name="free" type="floating"><parent link="world"/><child link="body"/>
    <origin xyz="0 0 1"/></joint>
  <joint name="plane" type="planar"><parent link="body"/><child link="slider"/>
    <origin xyz="0.1 0 0"/><axis xyz="0 0 1"/></joint>
  <joint name="cam_mount" type="fixed"><parent link="body"/><child link="cam"/>
    <origin xyz="0 0 0.2"/></joint>
</robot>"""


def corpus_text(name):
    path = CORPUS_DIR / f'{name}.urdf'
    if not path.is_file():
        pytest.skip(NO_CORPUS)
    return path.read_text()


class Ros:
    """The module's rclpy context, executor and helper node."""

    def __init__(self):
        self.context = ros_context()
        self.executor = SingleThreadedExecutor(context=self.context)
        self.helper = rclpy.create_node('state_publisher_test', context=self.context)
        self.executor.add_node(self.helper)

    def close(self):
        self.executor.shutdown()
        self.helper.destroy_node()
        rclpy.try_shutdown(context=self.context)


@pytest.fixture(scope='module')
def ros():
    r = Ros()
    yield r
    r.close()


class Harness:
    """One state_publisher in its own namespace, a capture and a joint_states publisher."""

    def __init__(self, ros, text=None, tf_message_type=None, factory=None, **parameters):
        self.ros = ros
        self.ns = unique_namespace('sp')
        self.capture = TfCapture(tf_message_type)
        overrides = [Parameter(k, value=v) for k, v in parameters.items()]
        if text is not None:
            overrides.append(Parameter('robot_description', value=text))
        self.node = StatePublisher(broadcaster_factory=factory or self.capture.factory,
                                   context=ros.context, namespace=self.ns,
                                   parameter_overrides=overrides)
        ros.executor.add_node(self.node)
        self.publishers = []
        self.pub = self.publisher()

    def publisher(self):
        pub = self.ros.helper.create_publisher(JointState, f'{self.ns}/joint_states', 10)
        assert spin_until(self.ros.executor, lambda: pub.get_subscription_count() > 0)
        self.publishers.append(pub)
        return pub

    def send(self, names, positions, stamp_ns, pub=None):
        """Publish one message and wait until the node handled it; return the new sends."""
        state = self.node.tf_state
        before_received, before_sent = state.received, len(self.capture.tf)
        (pub or self.pub).publish(joint_state(names, positions, stamp_ns))
        assert spin_until(self.ros.executor, lambda: state.received > before_received), \
            'the node did not receive the message'
        return self.capture.tf[before_sent:]

    def spin(self, seconds=0.05):
        spin_for(self.ros.executor, seconds)

    def close(self):
        for pub in self.publishers:
            self.ros.helper.destroy_publisher(pub)
        self.ros.executor.remove_node(self.node)
        self.node.destroy_node()


@pytest.fixture
def harness(ros):
    made = []

    def make(text=None, tf_message_type=None, **parameters):
        h = Harness(ros, text, tf_message_type, **parameters)
        made.append(h)
        return h

    yield make
    for h in made:
        h.close()


@pytest.fixture(params=['objects', 'serialized'])
def tf_output(request):
    """
    Return how the harness captures ``/tf``.

    ``None``: TransformStamped lists (tf2_ros's ``sendTransform``); ``TFMessage``: serialised
    messages (the node's default), decoded.
    """
    if request.param == 'objects':
        return None
    return request.getfixturevalue('tf_message_type')


def assert_matches_fk(tree, q, sent, stamp_ns, prefix=''):
    """Every transform in ``sent`` equals the FK-derived one, with the right names/stamp."""
    expected = expected_joint_matrices(tree, q)
    parents = {j.child: j.parent for j in tree.moving_joints}
    for t in sent:
        child = t.child[len(prefix):]
        assert t.child.startswith(prefix) and t.parent == prefix + parents[child]
        assert t.stamp_ns == stamp_ns
        assert abs(math.fsum(v * v for v in t.quat) - 1.0) < 1e-12
        np.testing.assert_allclose(tf_matrix(t), expected[child], rtol=0, atol=TOL,
                                   err_msg=f'joint to {child}')


# --- layering -------------------------------------------------------------------------------

def test_core_import_does_not_load_rclpy():
    code = ('import importlib, pkgutil, sys\n'
            'import sdf_tools\n'
            'for m in pkgutil.iter_modules(sdf_tools.__path__):\n'
            "    if m.name != 'ros':\n"
            "        importlib.import_module('sdf_tools.' + m.name)\n"
            "loaded = [n for n in sys.modules if n.split('.')[0] in ('rclpy', 'sensor_msgs',\n"
            "          'geometry_msgs', 'std_msgs', 'tf2_ros', 'launch', 'launch_ros')\n"
            "          or n.startswith('sdf_tools.ros')]\n"
            'assert not loaded, loaded\n')
    result = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr


# --- transforms against forward kinematics ----------------------------------------------------

@pytest.mark.parametrize('name', CORPUS_ROBOTS)
def test_corpus_transforms_match_forward_kinematics(harness, tf_output, name):
    text = corpus_text(name)
    h = harness(text, ignore_timestamp=False, tf_message_type=tf_output)
    model = h.node.model
    tree = model.tree
    if name == 'alex_psyonic_hands':  # <mimic> of joints that do not exist: warned, ignored
        assert any('<mimic> is ignored' in w and ':' in w.split()[0] for w in model.warnings)
    # The fixed joints, once, on /tf_static, stamped with the node clock.
    assert len(h.capture.static) == 1
    static = h.capture.static[0]
    assert sorted(t.child for t in static) == sorted(j.child for j in tree.fixed_joints)
    expected = expected_joint_matrices(tree, tree.default_q())
    now = time.time_ns()
    for t in static:
        assert abs(t.stamp_ns - now) < 60 * S
        np.testing.assert_allclose(tf_matrix(t), expected[t.child], rtol=0, atol=TOL)
    # Every moving joint (mimic and floating included) on /tf, for random states.
    rng = np.random.default_rng(sum(map(ord, name)))
    names = list(tree.coordinate_names)
    for k in range(3):
        positions = random_positions(model.robot, tree, names, rng)
        stamp = (100 + k) * S + 12345
        sent = h.send(names, positions, stamp)
        assert len(sent) == 1
        assert sorted(t.child for t in sent[0]) == sorted(j.child for j in tree.moving_joints)
        q = tree.joint_vector(dict(zip(names, positions))).q
        assert_matches_fk(tree, q, sent[0], stamp)


@pytest.mark.parametrize('path', ['sdf/joint_types.sdf', 'kindsl/fancy.kindsl'])
def test_sdformat_and_robcogen_descriptions(harness, tf_output, path):
    """Every joint kind of SDFormat (gearbox, ball, screw, ...) and a RobCoGen robot."""
    h = harness((DATA_DIR / path).read_text(), frame_prefix='r/', tf_message_type=tf_output)
    tree = h.node.model.tree
    names = list(tree.coordinate_names)
    rng = np.random.default_rng(3)
    positions = random_positions(h.node.model.robot, tree, names, rng)
    sent = h.send(names, positions, 5 * S)
    assert sorted(t.child for t in sent[0]) == sorted('r/' + j.child
                                                      for j in tree.moving_joints)
    assert_matches_fk(tree, tree.joint_vector(dict(zip(names, positions))).q, sent[0], 5 * S,
                      prefix='r/')


def test_named_frames_are_published_as_static_transforms(harness):
    """Publish RobCoGen 'frames {}' and SDFormat <frame>s, rigid on their link, as static."""
    h = harness((DATA_DIR / 'kindsl/fancy.kindsl').read_text(), frame_prefix='f/')
    static = h.capture.latest_static()
    ee = static['f/ee']  # the Fancy robot's end effector: 1 m along link5's x axis
    assert ee.parent == 'f/link5'
    assert ee.xyz == pytest.approx((1.0, 0.0, 0.0)) and ee.quat == pytest.approx(
        (0.0, 0.0, 0.0, 1.0))
    frames = {f.name for f in h.node.model.robot.frames}
    assert {name[len('f/'):] for name in static} >= frames


def test_frame_prefix_and_runtime_change(harness, tf_output):
    h = harness(ARM, frame_prefix='left/', tf_message_type=tf_output)
    static = h.capture.latest_static()
    assert set(static) == {'left/tool'} and static['left/tool'].parent == 'left/l2'
    sent = h.send(['j1', 'j2'], [0.1, 0.2], 1 * S)[0]
    assert {(t.parent, t.child) for t in sent} == {
        ('left/base', 'left/l1'), ('left/l1', 'left/l2')}
    result = h.node.set_parameters([Parameter('frame_prefix', value='right_')])[0]
    assert result.successful
    assert set(h.capture.latest_static()) == {'right_tool'}  # re-sent at once
    assert h.capture.static_broadcasters == 2
    sent = h.send(['j1'], [0.3], 2 * S)[0]
    assert [(t.parent, t.child) for t in sent] == [('right_base', 'right_l1')]


def test_tf_goes_out_serialised_as_tf2_ros_broadcasts_it(
        ros, harness, tf_message_type, monkeypatch):
    """The default /tf path through DDS: tf2_ros's topic, type and QoS; the transforms."""
    from rclpy.qos import DurabilityPolicy as Durability
    from ros_support import snapshot
    from sdf_tools.ros.tf_broadcasters import default_broadcaster
    from sdf_tools.ros.tf_broadcasters import SerializedTfBroadcaster
    received = []
    sub = ros.helper.create_subscription(tf_message_type, '/tf', received.append,
                                         QoSProfile(depth=100))
    static, made = TfCapture(), []

    def factory(node, is_static):
        if is_static:
            return static.factory(node, True)
        made.append(default_broadcaster(node, False))
        return made[-1]

    try:
        h = harness(ARM, ignore_timestamp=True, frame_prefix='dds/', factory=factory)
        [broadcaster] = made
        assert isinstance(broadcaster, SerializedTfBroadcaster)
        publisher = broadcaster.pub_tf
        assert publisher.topic_name == '/tf' and publisher.msg_type is tf_message_type
        assert publisher.qos_profile == QoSProfile(depth=100)  # tf2_ros's TransformBroadcaster
        assert spin_until(ros.executor, lambda: publisher.get_subscription_count() > 0)
        [info] = [i for i in ros.helper.get_publishers_info_by_topic('/tf')
                  if i.node_namespace == h.ns]
        assert info.topic_type == 'tf2_msgs/msg/TFMessage'
        assert info.qos_profile.reliability == ReliabilityPolicy.RELIABLE
        assert info.qos_profile.durability == Durability.VOLATILE
        h.send(['j1', 'fa'], [0.1, 0.2], 5 * S)
        assert spin_until(ros.executor, lambda: received)
        sent = [snapshot(t) for t in received[-1].transforms]
        assert [t.child for t in sent] == ['dds/l1', 'dds/finger_a', 'dds/finger_b',
                                           'dds/finger_c']
        tree = h.node.model.tree
        assert_matches_fk(tree, tree.joint_vector({'j1': 0.1, 'fa': 0.2}).q, sent, 5 * S,
                          prefix='dds/')
    finally:
        ros.helper.destroy_subscription(sub)
    # SDF_TOOLS_TF=broadcaster: tf2_ros's TransformBroadcaster (not installed here).
    monkeypatch.setenv('SDF_TOOLS_TF', 'broadcaster')
    monkeypatch.setitem(sys.modules, 'tf2_ros', None)
    with pytest.raises(ImportError):
        default_broadcaster(h.node, False)


# --- throttle ---------------------------------------------------------------------------------

def test_rate_limit_per_set_of_joints(harness):
    h = harness(ARM, publish_frequency=10.0)  # interval 100 ms
    arm, fingers = ['j1', 'j2'], ['fa']
    assert len(h.send(arm, [0.1, 0.2], 10 * S)) == 1
    assert h.send(arm, [0.1, 0.2], 10 * S + 50_000_000) == []  # too soon
    assert len(h.send(fingers, [0.3], 10 * S + 50_000_000)) == 1  # other joints: own throttle
    assert len(h.send(arm, [0.1, 0.2], 10 * S + 100_000_000)) == 1  # exactly one interval
    assert h.send(arm, [0.1, 0.2], 10 * S + 90_000_000) == []  # out of order
    assert h.send(['j1', 'fa'], [0.0, 0.0], 10 * S + 120_000_000) == []  # min over names
    assert h.send(arm, [0.1, 0.2], 0) == []  # zero stamp: never
    state = h.node.tf_state
    assert (state.published, state.throttled) == (3, 4)
    assert h.node.set_parameters([Parameter('ignore_timestamp', value=True)])[0].successful
    for stamp in (0, 5 * S, 1 * S):
        assert len(h.send(arm, [0.1, 0.2], stamp)) == 1


def test_publish_frequency_changes_and_range(harness):
    h = harness(ARM, publish_frequency=1.0)
    assert len(h.send(['j1'], [0.0], 10 * S)) == 1
    assert h.send(['j1'], [0.0], 10 * S + 500_000_000) == []
    for bad in (0.0, -1.0, 1000.5):
        result = h.node.set_parameters([Parameter('publish_frequency', value=bad)])[0]
        assert not result.successful and 'publish_frequency' in result.reason
    assert h.node.set_parameters([Parameter('publish_frequency', value=1000.0)])[0].successful
    assert len(h.send(['j1'], [0.0], 10 * S + 501_000_000)) == 1


# --- merging, mimic, multi-dof ------------------------------------------------------------------

def test_multi_publisher_merge_and_mimic_chain(harness, tf_output):
    h = harness(ARM, ignore_timestamp=True, tf_message_type=tf_output)
    tree = h.node.model.tree
    gripper = h.publisher()
    arm_sent = h.send(['j1', 'j2'], [0.4, 0.25], 1 * S)[0]
    assert [t.child for t in arm_sent] == ['l1', 'l2']
    # fa moves fb (mimic of fa) and fc (mimic of fb): the chain is followed.
    grip_sent = h.send(['fa'], [0.3], 2 * S, pub=gripper)[0]
    assert [t.child for t in grip_sent] == ['finger_a', 'finger_b', 'finger_c']
    fb = -1.5 * 0.3 + 0.1
    fc = 2.0 * fb - 0.2
    by_child = {t.child: t for t in grip_sent}
    np.testing.assert_allclose(by_child['finger_b'].quat,
                               (math.sin(fb / 2), 0, 0, math.cos(fb / 2)), atol=TOL)
    np.testing.assert_allclose(by_child['finger_c'].quat,
                               (0, math.sin(fc / 2), 0, math.cos(fc / 2)), atol=TOL)
    # The shared configuration holds both publishers' joints.
    q = tree.joint_vector({'j1': 0.4, 'j2': 0.25, 'fa': 0.3}).q
    assert_matches_fk(tree, q, grip_sent, 2 * S)
    assert h.node.tf_state.positions() == {'j1': 0.4, 'j2': 0.25, 'fa': 0.3}
    # A value given for a mimic joint wins over the formula (robot_state_publisher): fb is
    # 0.9 and fc, which mimics fb, follows the reported value.
    sent = {t.child: t.quat for t in h.send(['fa', 'fb'], [0.3, 0.9], 3 * S)[0]}
    fc = 2.0 * 0.9 - 0.2
    np.testing.assert_allclose(sent['finger_b'], (math.sin(0.45), 0, 0, math.cos(0.45)),
                               atol=TOL)
    np.testing.assert_allclose(sent['finger_c'], (0, math.sin(fc / 2), 0, math.cos(fc / 2)),
                               atol=TOL)
    # Not remembered: the next message with only the source uses the formula again.
    sent = {t.child: t.quat for t in h.send(['fa'], [0.3], 4 * S)[0]}
    assert sent['finger_b'] == pytest.approx(by_child['finger_b'].quat, abs=TOL)
    assert sent['finger_c'] == pytest.approx(by_child['finger_c'].quat, abs=TOL)


def test_floating_and_planar_joints(harness, tf_output):
    h = harness(FLOATING, ignore_timestamp=True, tf_message_type=tf_output)
    tree = h.node.model.tree
    # Never static: only the fixed camera mount is on /tf_static.
    assert set(h.capture.latest_static()) == {'cam'}
    # Published when (any of) their coordinates arrive, merged across messages.
    sent = h.send(['free/x', 'free/y', 'free/z'], [1.0, 2.0, 3.0], 1 * S)[0]
    assert [t.child for t in sent] == ['body']
    assert sent[0].xyz == pytest.approx((1.0, 2.0, 4.0)) and sent[0].quat == (0, 0, 0, 1)
    c, s = math.cos(0.25), math.sin(0.25)
    sent = h.send(['free/qx', 'free/qy', 'free/qz', 'free/qw'], [0, 0, s, c], 2 * S)[0]
    assert sent[0].xyz == pytest.approx((1.0, 2.0, 4.0))
    assert sent[0].quat == pytest.approx((0, 0, s, c))
    sent = h.send(['plane/x', 'plane/y', 'plane/theta'], [0.5, -0.5, 0.7], 3 * S)[0]
    assert [t.child for t in sent] == ['slider']
    q = tree.joint_vector(h.node.tf_state.positions()).q
    assert_matches_fk(tree, q, sent, 3 * S)
    # The joint's own name is not a coordinate: warned once, with a hint.
    log = RecordingLogger()
    h.node.tf_state.logger = log
    assert h.send(['free'], [1.0], 4 * S) == []
    assert h.send(['free'], [1.0], 5 * S) == []
    assert len(log.texts('warning')) == 1 and 'free/x' in log.texts('warning')[0]


def test_bad_messages_through_dds_do_not_kill_the_node(harness):
    h = harness(ARM, ignore_timestamp=True)
    for names, positions in ((['j1', 'j2'], [math.nan, 0.1]), ([], []), ([''], [0.0]),
                             (['j1'], [math.inf]), (['fb'], [math.nan])):
        assert h.send(names, positions, 1 * S) == []
    # A joint named twice is no longer refused: the first value counts (robot_state_publisher).
    [sent] = h.send(['j1', 'j1'], [0.1, 0.2], 1 * S)
    assert [t.child for t in sent] == ['l1'] and h.node.tf_state.positions()['j1'] == 0.1
    state = h.node.tf_state
    msg = JointState(name=['j1', 'j2'], position=[0.1])
    state_before = state.received
    h.pub.publish(msg)
    assert spin_until(h.ros.executor, lambda: state.received > state_before)
    assert len(h.send(['j1', 'j2'], [0.1, 0.2], 2 * S)) == 1


# --- descriptions -------------------------------------------------------------------------------

def test_robot_description_republished_transient_local(ros, harness):
    h = harness(ARM)
    received = []
    sub = ros.helper.create_subscription(String, f'{h.ns}/robot_description',
                                         lambda m: received.append(m.data), LATCHED)
    try:  # a subscriber joining after the publication still gets the description
        assert spin_until(ros.executor, lambda: received)
        assert received == [ARM]
        assert h.node.set_parameters([Parameter('robot_description', value=SMALL)])[0] \
            .successful
        assert spin_until(ros.executor, lambda: len(received) == 2)
        assert received[-1] == SMALL
    finally:
        ros.helper.destroy_subscription(sub)


def test_description_swap_replaces_static_set_and_rejects_invalid(harness, tf_output):
    h = harness(ARM, ignore_timestamp=True, tf_message_type=tf_output)
    assert set(h.capture.latest_static()) == {'tool'}
    assert len(h.send(['j1', 'fa'], [0.1, 0.2], 1 * S)[0]) == 4
    # Invalid: rejected with file:line, the old model keeps publishing.
    broken = ARM.replace('<child link="l2"/>', '<child link="nowhere"/>')
    result = h.node.set_parameters([Parameter('robot_description', value=broken)])[0]
    assert not result.successful
    assert result.reason.startswith('<robot_description>:') and 'nowhere' in result.reason
    for bad in ('', '<robot name="x">', 'Robot nonsense {'):
        assert not h.node.set_parameters([Parameter('robot_description', value=bad)])[0] \
            .successful
    assert h.node.model.text == ARM
    assert h.node.get_parameter('robot_description').value == ARM
    assert len(h.send(['j1'], [0.3], 2 * S)[0]) == 1
    # Valid: a new /tf_static publisher with exactly the new fixed set; old frames gone.
    assert h.node.set_parameters([Parameter('robot_description', value=SMALL)])[0].successful
    assert h.capture.static_broadcasters == 2
    assert set(h.capture.latest_static()) == {'flange'}
    sent = h.send(['j1', 'fa', 'j2'], [0.3, 0.1, 0.2], 3 * S)[0]
    assert [t.child for t in sent] == ['l1']  # fa, j2 no longer exist
    assert sent[0].quat == pytest.approx((0, math.sin(0.15), 0, math.cos(0.15)))


def test_description_from_topic(ros, harness):
    ns = unique_namespace('topic')
    pub = ros.helper.create_publisher(String, f'{ns}/robot_description', LATCHED)
    try:
        pub.publish(String(data=ARM))  # before the node exists: it joins late
        capture = TfCapture()
        node = StatePublisher(broadcaster_factory=capture.factory, context=ros.context,
                              namespace=ns, parameter_overrides=[
                                  Parameter('description_from_topic', value=True)])
        ros.executor.add_node(node)
        try:
            assert spin_until(ros.executor, lambda: node.model is not None)
            assert node.model.text == ARM and set(capture.latest_static()) == {'tool'}
            # Invalid on the topic: logged, the model stays.
            log = RecordingLogger()
            node._log = log
            pub.publish(String(data='<robot name="broken"><link name="a"/>'))
            assert spin_until(ros.executor, lambda: log.texts('error'))
            assert '<robot_description>:' in log.texts('error')[0]
            assert node.model.text == ARM
            pub.publish(String(data=SMALL))
            assert spin_until(ros.executor, lambda: node.model.text == SMALL)
            assert set(capture.latest_static()) == {'flange'}
            # The parameter is read only in this mode, and robot_description is refused with
            # the reason (it used to be accepted and ignored).
            assert not node.set_parameters(
                [Parameter('description_from_topic', value=False)])[0].successful
            result = node.set_parameters([Parameter('robot_description', value=ARM)])[0]
            assert not result.successful
            assert result.reason == DESCRIPTION_FROM_TOPIC_REASON
            assert 'description_from_topic is true' in result.reason
            assert node.get_parameter('robot_description').value == ''
            assert node.model.text == SMALL
            # It does not publish the description itself.
            assert node.count_publishers(f'{ns}/robot_description') == 1
        finally:
            ros.executor.remove_node(node)
            node.destroy_node()
    finally:
        ros.helper.destroy_publisher(pub)


def test_startup_errors(ros):
    def start(**parameters):
        overrides = [Parameter(k, value=v) for k, v in parameters.items()]
        return StatePublisher(broadcaster_factory=TfCapture().factory, context=ros.context,
                              namespace=unique_namespace('bad'), parameter_overrides=overrides)

    with pytest.raises(StartupError, match='robot_description parameter must not be empty'):
        start()
    with pytest.raises(StartupError, match=r'<robot_description>:\d+: .*nowhere'):
        start(robot_description=ARM.replace('<child link="l2"/>', '<child link="nowhere"/>'))
    with pytest.raises(StartupError, match='publish_frequency must be between'):
        start(robot_description=ARM, publish_frequency=0.0)
    with pytest.raises(StartupError, match="'publish_frequency'"):
        start(robot_description=ARM, publish_frequency=20)  # an int for a double
    with pytest.raises(StartupError, match='^robot_description cannot be set while '
                                           'description_from_topic is true'):
        start(robot_description=ARM, description_from_topic=True)


def test_description_source_names_the_description_given_at_startup(ros, harness):
    broken = ARM.replace('<child link="l2"/>', '<child link="nowhere"/>')
    with pytest.raises(StartupError, match=r'description: arm.urdf:\d+: .*nowhere'):
        StatePublisher(broadcaster_factory=TfCapture().factory, context=ros.context,
                       namespace=unique_namespace('bad'), parameter_overrides=[
                           Parameter('robot_description', value=broken),
                           Parameter('description_source', value='arm.urdf')])
    # A description set later is not the file's.
    h = harness(ARM, description_source='arm.urdf')
    result = h.node.set_parameters([Parameter('robot_description', value=broken)])[0]
    assert re.match(r'<robot_description>:\d+: .*nowhere', result.reason), result.reason


def test_parameters_are_declared_with_descriptors(harness):
    h = harness(ARM)
    for spec in PARAMETERS:
        descriptor = h.node.describe_parameter(spec.name)
        assert descriptor.description and descriptor.read_only == spec.read_only
        assert type(h.node.get_parameter(spec.name).value) is type(spec.default)
    assert h.node.describe_parameter('publish_frequency').floating_point_range[0].to_value \
        == 1000.0
    overrides = h.node.get_parameters_by_prefix('qos_overrides')
    assert f'{h.ns}/joint_states.subscription.reliability' in overrides


# --- main() ------------------------------------------------------------------------------------

MAIN = 'import sys; from sdf_tools.ros.state_publisher import main; sys.exit(main())'
BLOCK_TF2 = ("import sys; sys.modules['tf2_ros'] = None; "  # import tf2_ros -> ImportError
             'from sdf_tools.ros.state_publisher import main; sys.exit(main())')
STUB_BROADCASTER = """
from rclpy.qos import DurabilityPolicy
from rclpy.qos import QoSProfile
from std_msgs.msg import String


class {name}:
    def __init__(self, node, qos=None):
        qos = QoSProfile(depth=1, durability=DurabilityPolicy.{durability})
        self.pub_tf = node.create_publisher(String, '/stub{topic}', qos)

    def sendTransform(self, transforms):
        self.pub_tf.publish(String(data=' '.join(t.child_frame_id for t in transforms)))
"""


def _run_main(code, *args, env=None, timeout=30):
    return subprocess.run([sys.executable, '-c', code, *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def _env(extra_path=None):
    import os
    from ros_support import subprocess_env
    from support import REPO_DIR
    env = subprocess_env()
    paths = [str(REPO_DIR)] + ([str(extra_path)] if extra_path else [])
    env['PYTHONPATH'] = os.pathsep.join(paths + [env.get('PYTHONPATH', '')])
    return env


def _params_file(tmp_path, **parameters):
    import yaml
    path = tmp_path / 'params.yaml'
    path.write_text(yaml.safe_dump({'/**': {'ros__parameters': parameters}}))
    return path


def test_main_without_tf2_ros_says_so(tmp_path):
    result = _run_main(BLOCK_TF2, '--ros-args', '--params-file',
                       str(_params_file(tmp_path, robot_description=ARM)), env=_env())
    assert result.returncode == 1
    assert 'state_publisher needs tf2_ros (ros-' in result.stderr
    assert '-tf2-ros-py)' in result.stderr
    assert 'Traceback' not in result.stderr + result.stdout


def test_main_help_and_usage_errors():
    result = _run_main(BLOCK_TF2, '--help', env=_env())
    assert result.returncode == 0
    for spec in PARAMETERS:
        assert spec.name in result.stdout
    result = _run_main(BLOCK_TF2, 'robot.urdf', env=_env())
    assert result.returncode == 2 and '--ros-args' in result.stderr
    assert 'Traceback' not in result.stderr


def test_main_runs_and_reports_bad_descriptions(ros, tmp_path):
    """main() with a stand-in tf2_ros: starts, publishes, stops on SIGINT; or fails cleanly."""
    import signal
    stub = tmp_path / 'stub' / 'tf2_ros'
    stub.mkdir(parents=True)
    (stub / '__init__.py').write_text('')
    (stub / 'transform_broadcaster.py').write_text(
        STUB_BROADCASTER.format(name='TransformBroadcaster', topic='_tf',
                                durability='VOLATILE'))
    (stub / 'static_transform_broadcaster.py').write_text(
        STUB_BROADCASTER.format(name='StaticTransformBroadcaster', topic='_tf_static',
                                durability='TRANSIENT_LOCAL'))
    env = _env(stub.parent)
    broken = ARM.replace('<child link="l2"/>', '<child link="nowhere"/>')
    result = _run_main(MAIN, '--ros-args', '--params-file',
                       str(_params_file(tmp_path, robot_description=broken)), env=env)
    assert result.returncode == 1
    assert re.search(r'<robot_description>:\d+: .*nowhere', result.stderr), result.stderr
    assert 'Traceback' not in result.stderr
    result = _run_main(MAIN, '--ros-args', '-p', 'publish_frequency:=0.0', env=env)
    assert result.returncode == 1 and 'publish_frequency must be' in result.stderr

    ns = unique_namespace('main')
    received, static = [], []
    subs = [ros.helper.create_subscription(String, f'{ns}/robot_description',
                                           lambda m: received.append(m.data), LATCHED),
            ros.helper.create_subscription(String, '/stub_tf_static',
                                           lambda m: static.append(m.data), LATCHED)]
    process = subprocess.Popen(
        [sys.executable, '-c', MAIN, '--ros-args', '-r', f'__ns:={ns}', '--params-file',
         str(_params_file(tmp_path, robot_description=ARM, frame_prefix='m/'))],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert spin_until(ros.executor, lambda: received and static, timeout=20), \
            process.stderr.read() if process.poll() is not None else 'no description'
        assert received == [ARM] and static[-1] == 'm/tool'
        # Parameter services work with the executor main() picked (events executor).
        from rclpy.parameter_client import AsyncParameterClient
        client = AsyncParameterClient(ros.helper, f'{ns}/state_publisher')
        assert client.wait_for_services(timeout_sec=10)
        future = client.set_parameters([
            Parameter('frame_prefix', value='n/'),
            Parameter('robot_description', value='<robot name="bad"/>')])
        assert spin_until(ros.executor, future.done, timeout=10)
        first, second = future.result().results
        assert first.successful and not second.successful
        assert '<robot_description>:1' in second.reason
        assert spin_until(ros.executor, lambda: static[-1] == 'n/tool', timeout=10)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=20)
        assert process.returncode == 0, stderr
        assert 'Traceback' not in stderr and 'Robot initialized' in stderr
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        for sub in subs:
            ros.helper.destroy_subscription(sub)


def test_package_path_parameter_and_every_lookup_route(harness, tmp_path, monkeypatch):
    from workspaces import description
    from workspaces import make_tree
    from workspaces import not_found_warning
    from workspaces import PACKAGE
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    tree = make_tree(tmp_path)
    text = description()
    for folder, expected in (('package', 'package'), ('src', 'package'), ('ws', 'install'),
                             ('prefix', 'prefix_share')):
        h = harness(text, package_path=str(tree[folder]))
        assert h.node.model.warnings == ()
        assert h.node.resources.packages.find(PACKAGE) == tree[expected]
    for variable, folder, expected in (('AMENT_PREFIX_PATH', 'prefix', 'prefix_share'),
                                       ('ROS_PACKAGE_PATH', 'src', 'package')):
        with monkeypatch.context() as m:
            m.setenv(variable, str(tree[folder]))
            h = harness(text)
            assert h.node.model.warnings == ()
            assert h.node.resources.packages.find(PACKAGE) == tree[expected]
    h = harness(text)
    assert h.node.model.warnings == (not_found_warning('the package_path parameter'),)
    assert h.node.model.tree.link_names == ('base',)  # published all the same
    missing = description(mesh='gone.stl')
    h = harness(text, package_path=str(tree['src']))
    log = RecordingLogger()
    h.node._log = log
    assert h.node.set_parameters([Parameter('robot_description', value=missing)])[0].successful
    assert f"{tree['package']}/meshes/gone.stl" in log.texts('warning')[0]
    assert not h.node.set_parameters([Parameter('package_path', value='')])[0].successful
    with pytest.raises(StartupError, match='^the package_path parameter .*/typo: no such '):
        harness(text, package_path=str(tmp_path / 'typo'))
