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
Tests of :mod:`sdf_tools.ros.tf_cdr`: the serialised ``TFMessage`` against rclpy's own.

The reference is ``rclpy.serialization.serialize_message`` (Fast DDS's CDR) of the
equivalent ``TFMessage`` object, with ``tf2_msgs`` generated from a line of our own ``.msg``
(conftest.py). Fast DDS leaves alignment padding uninitialised, so the bytes are compared
everywhere else, the padding is checked to be zero on our side, and our bytes must
deserialise to exactly the message (names, stamps, doubles bit for bit).
"""

import math
import struct

import numpy as np
import pytest

from sdf_tools.ros.tf_cdr import TfMessageCdr
from support import corpus_files
from support import corpus_ids

pytestmark = pytest.mark.ros


def assert_same_as_rclpy(data: bytes, message) -> None:
    """Assert ``data`` is ``serialize_message(message)`` but for the (zero) padding."""
    from rclpy.serialization import deserialize_message
    from rclpy.serialization import serialize_message
    reference = serialize_message(message)
    assert type(data) is bytes and len(data) == len(reference)
    padding = set(TfMessageCdr([(t.header.frame_id, t.child_frame_id)
                                for t in message.transforms]).padding)
    assert all(data[i] == 0 for i in padding)
    differ = [i for i in range(len(data)) if data[i] != reference[i] and i not in padding]
    assert not differ, f'bytes differ at {differ[:10]}'
    assert deserialize_message(data, type(message)) == message


def tf_message(message_type, frames, sec, nanosec, transforms):
    from sdf_tools.ros.tf_messages import make_transform
    message = message_type()
    for (parent, child), (xyz, quat) in zip(frames, transforms):
        t = make_transform(parent, child, xyz, quat)
        t.header.stamp.sec, t.header.stamp.nanosec = sec, nanosec
        message.transforms.append(t)
    return message


def test_layout_of_one_transform():
    """The wire layout, written out from the CDR rules (no ROS needed)."""
    data = TfMessageCdr([('a', 'bc')]).fill(7, 8, [((1.0, 2.0, 3.0), (0.0, 0.0, 0.6, 0.8))])
    expected = (b'\x00\x01\x00\x00'              # CDR, little endian
                + struct.pack('<I', 1)           # 1 transform
                + struct.pack('<iI', 7, 8)       # header.stamp
                + struct.pack('<I', 2) + b'a\0'  # header.frame_id
                + b'\0\0'                        # align the next length to 4
                + struct.pack('<I', 3) + b'bc\0'
                + b'\0' * 5                      # align the doubles to 8 (after the header)
                + struct.pack('<7d', 1.0, 2.0, 3.0, 0.0, 0.0, 0.6, 0.8))
    assert data == expected
    template = TfMessageCdr([('a', 'bc')])
    assert template.size == len(expected) and len(template) == 1
    assert template.padding == (22, 23, 31, 32, 33, 34, 35)


def test_empty_and_special_names(tf_message_type):
    empty = TfMessageCdr([])
    assert empty.fill(1, 2, []) == b'\x00\x01\x00\x00\x00\x00\x00\x00'
    assert_same_as_rclpy(empty.fill(1, 2, []), tf_message_type())
    # Names beyond ASCII (UTF-8), an empty name, lengths needing no padding, extreme stamps.
    frames = [('läufer/base', 'ü'), ('', 'x'), ('abc', 'abcdefg'), ('a' * 300, '腕')]
    rng = np.random.default_rng(4)
    transforms = [(tuple(rng.normal(size=3)), tuple(rng.normal(size=4))) for _ in frames]
    template = TfMessageCdr(frames)
    for sec, nanosec in ((0, 0), (-2**31, 999_999_999), (2**31 - 1, 2**32 - 1)):
        data = template.fill(sec, nanosec, transforms)
        assert_same_as_rclpy(data, tf_message(tf_message_type, frames, sec, nanosec,
                                              transforms))
    with pytest.raises(ValueError, match='NUL'):
        TfMessageCdr([('a\0b', 'c')])


def test_values_are_written_bit_for_bit(tf_message_type):
    from rclpy.serialization import deserialize_message
    values = (-0.0, math.inf, -math.inf, 5e-324, 1.7976931348623157e308, 1 / 3, -1e-300)
    template = TfMessageCdr([('p', 'c')])
    data = template.fill(1, 2, [(values[:3], values[3:])])
    t = deserialize_message(data, tf_message_type).transforms[0].transform
    got = (t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
           t.rotation.z, t.rotation.w)
    assert struct.pack('<7d', *got) == struct.pack('<7d', *values)
    nan = template.fill(1, 2, [((math.nan, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))])
    assert math.isnan(deserialize_message(nan, tf_message_type).transforms[0]
                      .transform.translation.x)


@pytest.mark.parametrize('path', corpus_files(), ids=corpus_ids())
def test_joint_state_tf_bytes_equal_rclpy_serialization(tf_message_type, path):
    """Every corpus robot, seeded random joint states, full and partial name lists."""
    from ros_support import joint_state
    from ros_support import random_positions
    from sdf_tools.ros.descriptions import load_model
    from sdf_tools.ros.joint_state_tf import JointStateTf
    model = load_model(path.read_text())
    tree = model.tree
    rng = np.random.default_rng(sum(map(ord, path.stem)))
    objects = JointStateTf(tree, ignore_timestamp=True, frame_prefix='robot_1/')
    cdr = JointStateTf(tree, ignore_timestamp=True, frame_prefix='robot_1/', serialized=True)
    names = list(tree.coordinate_names)
    compared = 0
    for k in range(6):
        subset = names if k % 2 == 0 else [n for n in names if rng.random() < 0.5]
        if k == 4:
            objects.frame_prefix = cdr.frame_prefix = ''
        msg = joint_state(subset, random_positions(model.robot, tree, subset, rng),
                          int(rng.integers(0, 2**31 - 1)) * 1_000_000_000 + k)
        expected = objects.process(msg, 0)
        data = cdr.process(msg, 0)
        if expected is None:  # the names move no joint
            assert data is None
            continue
        assert_same_as_rclpy(data, tf_message_type(transforms=expected))
        compared += 1
    assert compared or not tree.moving_joints


# --- JointState in ----------------------------------------------------------------------------

def test_joint_state_reader_against_rclpy_serialization():
    """Random messages serialised by rclpy read back exactly; names decoded once per list."""
    pytest.importorskip('sensor_msgs.msg', reason='sensor_msgs is not installed')
    from rclpy.serialization import serialize_message
    from sdf_tools.ros.tf_cdr import JointStateReader
    from sensor_msgs.msg import JointState
    rng = np.random.default_rng(11)
    reader = JointStateReader()
    alphabet = 'abz_/0ü腕'
    for k in range(2000):
        msg = JointState()
        msg.name = [''.join(rng.choice(list(alphabet), size=int(rng.integers(1, 9))))
                    for _ in range(int(rng.integers(0, 7)))]
        msg.header.frame_id = 'f' * int(rng.integers(0, 9))
        msg.header.stamp.sec = int(rng.integers(-2**31, 2**31))
        msg.header.stamp.nanosec = int(rng.integers(0, 2**32))
        msg.position = [float(v) for v in rng.normal(size=int(rng.integers(0, 7)))]
        msg.velocity = [float(v) for v in rng.normal(size=int(rng.integers(0, 3)))]
        msg.effort = [float(v) for v in rng.normal(size=int(rng.integers(0, 3)))]
        data = serialize_message(msg)
        first = reader.read(data)
        again = reader.read(data)
        assert first[:2] == (msg.header.stamp.sec, msg.header.stamp.nanosec)
        assert list(first[2]) == list(msg.name) and first[3].tolist() == msg.position.tolist()
        assert again[2] is first[2] and again[3] == first[3]


def test_joint_state_reader_same_names_other_layouts():
    """The names kept while the frame_id's length moves the positions: read where they are."""
    pytest.importorskip('sensor_msgs.msg', reason='sensor_msgs is not installed')
    from rclpy.serialization import serialize_message
    from sdf_tools.ros.tf_cdr import JointStateReader
    from sensor_msgs.msg import JointState
    reader = JointStateReader()
    for k, length in enumerate([0, 1, 2, 3, 4, 5, 9, 4, 4, 0, 7, 7, 3]):
        msg = JointState(name=['shoulder', 'elbow'], position=[k + 0.25, -k - 0.5])
        msg.header.frame_id = 'f' * length
        msg.header.stamp.sec = k
        sec, nanosec, read_names, positions = reader.read(serialize_message(msg))
        assert (sec, read_names, positions.tolist()) == (k, ('shoulder', 'elbow'),
                                                         [k + 0.25, -k - 0.5])


def test_joint_state_reader_refuses_what_it_cannot_read():
    pytest.importorskip('sensor_msgs.msg', reason='sensor_msgs is not installed')
    from rclpy.serialization import serialize_message
    from sdf_tools.ros.tf_cdr import JointStateReader
    from sensor_msgs.msg import JointState
    data = serialize_message(JointState(name=['a', 'bc'], position=[1.0, 2.0]))
    reader = JointStateReader()
    end = data.index(struct.pack('<d', 2.0)) + 8
    bad = [data[:n] for n in range(end)]  # cut anywhere before the positions' end
    bad += [b'\x00\x00\x00\x00' + data[4:],  # big endian header
            data[:20] + b'\xff\xff\xff\x7f' + data[24:],  # name count beyond the message
            data.replace(b'bc\x00', b'b\xff\x00')]  # not UTF-8
    for blob in bad:
        with pytest.raises(ValueError):
            JointStateReader().read(blob)
    assert reader.read(data)[2] == ('a', 'bc')
