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
Tests of :class:`~sdf_tools.ros.joint_state_tf.JointStateTf`, without DDS.

robot_state_publisher's publishing rules with a recording logger and a controlled node
clock, and the two outputs (``TransformStamped`` lists and serialised ``TFMessage`` bytes)
giving the same transforms. The node's use of it through DDS is in test_state_publisher.py.
"""

import math
import time

import pytest

pytest.importorskip('rclpy', reason='rclpy is not installed (pip install '
                    "'ros-rclpy[fastrtps]' ros-kilted-sensor-msgs ...)")
pytest.importorskip('sensor_msgs.msg', reason='sensor_msgs is not installed')
pytest.importorskip('geometry_msgs.msg', reason='geometry_msgs is not installed')

from ros_support import ARM  # noqa: E402
from ros_support import decode_tf  # noqa: E402
from ros_support import joint_state  # noqa: E402
from ros_support import RecordingLogger  # noqa: E402
from ros_support import snapshot  # noqa: E402
from sdf_tools.ros.descriptions import load_model  # noqa: E402
from sdf_tools.ros.joint_state_tf import BACKWARDS_MESSAGE  # noqa: E402
from sdf_tools.ros.joint_state_tf import FUTURE_STAMP_SEC  # noqa: E402
from sdf_tools.ros.joint_state_tf import JointStateTf  # noqa: E402
from support import DATA_DIR  # noqa: E402

pytestmark = pytest.mark.ros

S = 1_000_000_000  # ns per second


def test_throttle_and_clock_rules_on_the_state():
    """robot_state_publisher's rules with a controlled node clock."""
    tree = load_model(ARM).tree
    log = RecordingLogger()
    state = JointStateTf(tree, publish_frequency=20.0, logger=log)
    now = 1000 * S
    msg = joint_state(['j1'], [0.5], now + 5 * S)  # in the future, within FUTURE_STAMP_SEC
    assert state.process(msg, now) is not None
    # The reference is min(now, last stamps): a later message 50 ms after *now* publishes.
    assert state.process(joint_state(['j1'], [0.5], now + 50_000_000), now) is not None
    assert state.process(joint_state(['j1'], [0.5], now + 40_000_000), now) is None
    # Clock going backwards clears the stamps, with robot_state_publisher's warning.
    assert state.process(joint_state(['j1'], [0.5], 10 * S), now) is None
    assert state.process(joint_state(['j1'], [0.5], 10 * S), now - S) is not None
    assert log.texts('warning', BACKWARDS_MESSAGE) == [BACKWARDS_MESSAGE]
    # A zero stamp is never published, and the reason is given (throttled).
    for _ in range(3):
        assert state.process(joint_state(['fa'], [0.1], 0), now) is None
    zero = log.records[-1]
    assert 'stamped 0' in zero[1] and zero[2]['throttle_duration_sec'] > 0
    assert len(log.texts('warning', 'stamped 0')) == 1


def test_a_stamp_from_the_future_is_dropped_and_tf_goes_on():
    """One message stamped in 2038 is dropped with a throttled warning, not remembered."""
    tree = load_model(ARM).tree
    log = RecordingLogger()
    state = JointStateTf(tree, publish_frequency=20.0, logger=log)
    now = 1000 * S
    assert state.process(joint_state(['j1'], [0.1], now - S), now) is not None
    for _ in range(3):
        assert state.process(joint_state(['j1'], [0.2], (2**31 - 1) * S), now) is None
    (text, kwargs), = [(r[1], r[2]) for r in log.records]
    assert text.startswith("Dropped joint_states about 'j1' stamped 2147483647.000000000 s, "
                           '2147482647.000 s after the node clock (1000.000000000 s)')
    assert 'ignore_timestamp' in text and kwargs['throttle_duration_sec'] > 0
    # The next message stamped by a sane clock is published: nothing was remembered.
    out = state.process(joint_state(['j1'], [0.3], now - S + 50_000_000), now)
    assert [t.child_frame_id for t in out] == ['l1']
    assert state.positions()['j1'] == 0.3
    # Just within the limit: published (robot_state_publisher's rule).
    limit = int(FUTURE_STAMP_SEC * S)
    assert state.process(joint_state(['fa'], [0.1], now + limit), now) is not None
    # ignore_timestamp publishes whatever the stamp.
    state.ignore_timestamp = True
    assert state.process(joint_state(['j1'], [0.4], (2**31 - 1) * S), now) is not None
    assert len(log.records) == 1
    # A node clock at 0 (use_sim_time before the first /clock) has no now to compare with.
    fresh = JointStateTf(tree, logger=log)
    assert fresh.process(joint_state(['j1'], [0.1], 10**6 * S), 0) is not None
    assert len(log.records) == 1


def test_a_stamp_jump_back_is_warned_with_the_way_to_recover():
    """Stamps well before the last published: dropped as before, and the warning says so."""
    tree = load_model(ARM).tree
    log = RecordingLogger()
    state = JointStateTf(tree, publish_frequency=20.0, logger=log, throttle_sec=0.0)
    now = 1000 * S
    assert state.process(joint_state(['j1'], [0.1], 100 * S), now) is not None
    # Out of order by less than STAMP_JUMP_SEC: dropped quietly (robot_state_publisher).
    assert state.process(joint_state(['j1'], [0.2], 100 * S - S // 2), now) is None
    assert log.records == []
    # The sender's clock jumped back 50 s: dropped, and the warning says until when and why.
    assert state.process(joint_state(['j1'], [0.2], 50 * S), now) is None
    (level, text, kwargs), = log.records
    assert level == 'warning' and kwargs['throttle_duration_sec'] == 0.0
    assert text.startswith("Dropped joint_states about 'j1' stamped 50.000000000 s, "
                           '50.000 s before the last stamp published for these joints '
                           '(100.000000000 s): their messages are dropped until their stamps '
                           "pass it, or the node's clock where that is earlier")
    assert 'use_sim_time' in text and 'ignore_timestamp to true, and back to false' in text
    # The recovery the warning gives: ignore_timestamp true, then false.
    state.ignore_timestamp = True
    assert state.process(joint_state(['j1'], [0.3], 50 * S + 10_000_000), now) is not None
    state.ignore_timestamp = False
    assert state.process(joint_state(['j1'], [0.4], 50 * S + 60_000_000), now) is not None
    assert state.positions()['j1'] == 0.4 and len(log.records) == 1


def test_unknown_names_warned_once_each():
    tree = load_model(ARM).tree
    log = RecordingLogger()
    state = JointStateTf(tree, ignore_timestamp=True, logger=log)
    for k in range(5):
        out = state.process(joint_state(['j1', 'ghost', 'tool_mount'], [0.1, 0.2, 0.3], k), 0)
        assert [t.child_frame_id for t in out] == ['l1']
        state.process(joint_state(['ghost', 'j2'], [0.1, 0.2], k), 0)
    warnings = log.texts('warning')
    assert len(warnings) == 2
    assert "'ghost'" in warnings[0] and "'tool_mount'" in warnings[1]
    assert 'fixed joint' in warnings[1]
    # A mimic joint alone is no unknown name: its value moves it and fc, which mimics it.
    out = state.process(joint_state(['fb'], [0.1], 1), 0)
    assert [t.child_frame_id for t in out] == ['finger_b', 'finger_c']
    assert len(log.texts('warning')) == 2


def test_a_loop_joint_in_joint_states_is_ignored_with_a_hint():
    loaded = load_model((DATA_DIR / 'sdf' / 'four_bar.sdf').read_text())
    assert any('closes a kinematic loop' in w for w in loaded.warnings)
    log = RecordingLogger()
    state = JointStateTf(loaded.tree, ignore_timestamp=True, logger=log)
    out = state.process(joint_state(['crank_coupler', 'rocker_coupler'], [0.5, 0.2], 1), 0)
    assert [t.child_frame_id for t in out] == ['coupler']
    [warning] = log.texts('warning')
    assert "'rocker_coupler'" in warning and 'closes a kinematic loop' in warning


def test_robot_without_moving_joints():
    tree = load_model(
        '<robot name="rigid"><link name="a"/><link name="b"/><joint name="f" type="fixed">'
        '<parent link="a"/><child link="b"/></joint></robot>').tree
    log = RecordingLogger()
    state = JointStateTf(tree, ignore_timestamp=True, logger=log)
    assert state.process(joint_state(['f', 'x'], [0.0, 1.0], 1), 0) is None
    assert state.process(joint_state([], [], 2), 0) is None
    assert len(log.texts('warning')) == 2


def test_invalid_messages_rejected_with_throttled_warnings():
    tree = load_model(ARM).tree
    log = RecordingLogger()
    state = JointStateTf(tree, ignore_timestamp=True, logger=log, throttle_sec=0.5)
    bad = [
        (['j1', 'j2'], [0.1], 'name(s) but'),
        (['j1', 'j2'], [], 'position member was empty'),
        (['j1'], [math.nan], 'must be finite'),
        (['j1'], [math.inf], 'must be finite'),
        (['fb'], [math.nan], 'must be finite'),  # a mimic joint's value is used: checked
    ]
    for names, positions, _ in bad:
        msg = joint_state(names, [])
        msg.position = positions  # bypass the helper's float() for the mismatch cases
        assert state.process(msg, 0) is None
    assert state.rejected == len(bad)
    assert state.positions()['j1'] == 0.0  # nothing was written
    texts = log.texts('warning')
    for _, _, expected in bad[:3]:
        assert sum(expected in t for t in texts) == 1, expected
    assert all(r[2].get('throttle_duration_sec', 0) > 0 for r in log.records)
    # Within the period, more of the same kind are counted, not logged.
    assert len(texts) == 3  # the non-finite values share a kind
    time.sleep(0.5)
    state.process(joint_state(['j1'], [math.nan]), 0)
    assert 'suppressed' in log.texts('warning')[-1]
    assert state.process(joint_state(['j1'], [0.2], 1), 0) is not None  # still works


def test_a_joint_named_twice_uses_the_first_value_and_warns_once():
    """robot_state_publisher keeps the first value (std::map::insert); so do we."""
    tree = load_model(ARM).tree
    log = RecordingLogger()
    state = JointStateTf(tree, ignore_timestamp=True, logger=log)
    for k in range(3):
        out = state.process(joint_state(['j1', 'j2', 'j1'], [0.1, 0.2, 0.9], k + 1), 0)
        assert [t.child_frame_id for t in out] == ['l1', 'l2']
    assert state.positions()['j1'] == 0.1 and state.rejected == 0
    [warning] = log.texts('warning')
    assert "name 'j1' more than once; the first value is used" in warning
    state.process(joint_state(['j2', 'j2'], [0.3, 0.4], 5), 0)  # another name list: warned
    assert len(log.texts('warning', "'j2' more than once")) == 1
    assert state.positions()['j2'] == 0.3


# --- the two outputs ----------------------------------------------------------------------------

def test_serialized_output_carries_the_same_transforms(tf_message_type):
    """Bytes mode and object mode agree message by message, across a frame_prefix change."""
    tree = load_model(ARM).tree
    objects = JointStateTf(tree, publish_frequency=10.0, frame_prefix='left/')
    cdr = JointStateTf(tree, publish_frequency=10.0, frame_prefix='left/', serialized=True)
    messages = [(['j1', 'j2'], [0.4, 0.25], 10 * S), (['fa'], [0.3], 10 * S),
                (['j1', 'j2'], [0.1, 0.2], 10 * S + 50_000_000),  # throttled
                (['fa', 'j2', 'ghost'], [-0.2, 0.5, 1.0], 11 * S),
                (['j1', 'j1'], [0.1, 0.2], 12 * S),  # the first j1 counts
                (['fb', 'j1'], [0.7, -0.1], 13 * S)]  # a mimic joint's own value
    for prefix in ('left/', 'r_'):
        objects.frame_prefix = cdr.frame_prefix = prefix
        for names, positions, stamp in messages:
            msg = joint_state(names, positions, stamp)
            expected = objects.process(msg, 100 * S)
            data = cdr.process(msg, 100 * S)
            if expected is None:
                assert data is None
                continue
            assert type(data) is bytes
            assert decode_tf(data, tf_message_type) == [snapshot(t) for t in expected]
            assert all(t.parent.startswith(prefix) for t in decode_tf(data, tf_message_type))
        messages = [(n, p, stamp + 10 * S) for n, p, stamp in messages]
    for attribute in ('received', 'published', 'throttled', 'rejected'):
        assert getattr(cdr, attribute) == getattr(objects, attribute), attribute
    assert cdr.published == 10 and cdr.positions() == objects.positions()


def test_serialized_output_of_a_robot_without_moving_joints():
    tree = load_model(
        '<robot name="rigid"><link name="a"/><link name="b"/><joint name="f" type="fixed">'
        '<parent link="a"/><child link="b"/></joint></robot>').tree
    state = JointStateTf(tree, ignore_timestamp=True, serialized=True)
    assert state.process(joint_state(['f', 'x'], [0.0, 1.0], 1), 0) is None


def test_many_joints_tf_and_configuration_follow_every_message(tf_message_type):
    """A plan of many joints (as arrays, its values written when read) and small ones."""
    n = 24
    links = ''.join(f'<link name="l{i}"/>' for i in range(n + 1))
    joints = ''.join(
        f'<joint name="j{i}" type="{"prismatic" if i % 5 == 4 else "revolute"}">'
        f'<parent link="l{i}"/><child link="l{i + 1}"/><origin xyz="0.1 {i / 10} 0" '
        f'rpy="0 0.{i} 0"/><axis xyz="{i % 3} 1 0"/>'
        '<limit lower="-9" upper="9" effort="1" velocity="1"/></joint>' for i in range(n))
    tree = load_model(f'<robot name="chain">{links}{joints}</robot>').tree
    state = JointStateTf(tree, ignore_timestamp=True, serialized=True)
    every = [f'j{i}' for i in range(n)]
    expected = dict.fromkeys(every, 0.0)
    messages = [(every, [0.1 * i - 1.0 for i in range(n)]), (['j3', 'j7'], [2.5, -3.0]),
                (every[::2], [0.5] * (n // 2)), (every, [4.0 - 0.3 * i for i in range(n)]),
                (every, [-0.2 * i for i in range(n)])]
    for k, (names, positions) in enumerate(messages):
        data = state.process(joint_state(names, positions, (k + 1) * S), 0)
        expected.update(zip(names, positions))
        if k in (2, 4):  # read now and then: each message's values are kept
            assert state.positions() == expected
        q = [expected[name] for name in tree.coordinate_names]
        moved = {j.child: tf for j, tf in zip(tree.moving_joints, tree.joint_transforms(q))}
        got = decode_tf(data, tf_message_type)
        assert len(got) == len(names)
        for t in got:
            assert (t.xyz, t.quat) == moved[t.child]
