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

"""Tests of sdf_tools.describe: summary, text tree and DOT of a model."""

import pytest
from sdf_tools import describe
from sdf_tools.errors import ConversionError
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.model import Frame
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Mimic
from sdf_tools.model import Robot


def linkage():
    """Return a four-bar linkage: base -> a -> c, base -> b, and b -> c closing the loop."""
    links = tuple(Link(n) for n in ('base', 'a', 'b', 'c'))
    joints = (
        Joint('j_a', JointType.REVOLUTE, 'base', 'a', axis=(0.0, 0.0, 1.0)),
        Joint('j_b', JointType.REVOLUTE, 'base', 'b', axis=(0.0, 0.0, 1.0)),
        Joint('j_c', JointType.REVOLUTE, 'a', 'c', axis=(0.0, 0.0, 1.0),
              mimic=Mimic('j_a', -1.0)),
        Joint('close', JointType.BALL, 'b', 'c'),
    )
    return Robot('linkage', links, joints, frames=(Frame('tip', 'c'),), source='linkage.sdf',
                 source_format='sdf')


def test_tree_text_lists_frames_and_loop_joints():
    assert describe.tree_text(linkage()).splitlines() == [
        'base',
        '|-- j_a (revolute, axis 0 0 1) -> a',
        '|   `-- j_c (revolute, axis 0 0 1, mimics j_a) -> c',
        '|       `-- [frame] tip',
        '`-- j_b (revolute, axis 0 0 1) -> b',
        '[loop] close (ball): b -> c',
    ]


def test_summary_counts_joint_types_and_loops():
    text = describe.summary(linkage())
    assert "robot 'linkage' (sdf, linkage.sdf)" in text
    assert '4 links, 4 joints (ball 1, revolute 3), 1 frame' in text
    assert '1 joint closing kinematic loops: close' in text


def test_dot_draws_every_joint_and_frame():
    dot = describe.tree_dot(linkage())
    assert dot.count(' -> ') == 5  # four joints and one frame edge
    assert '"b" -> "c" [label="close\\nball"];' in dot
    assert '"tip" [shape=ellipse, style=dashed];' in dot


def test_links_attached_to_the_world_are_listed_under_it():
    # SDFormat: 'world' is no link of the model, but joints may attach links to it.
    robot = Robot('m', (Link('base'), Link('arm')), (
        Joint('w', JointType.FIXED, 'world', 'base'),
        Joint('j', JointType.REVOLUTE, 'base', 'arm', axis=(0.0, 0.0, 1.0))),
        source='m.sdf', source_format='sdf')
    assert describe.tree_text(robot).splitlines() == [
        'world', '`-- w (fixed) -> base', '    `-- j (revolute, axis 0 0 1) -> arm']
    assert '  root link: world' in describe.summary(robot)


def test_dot_escapes_names():
    robot = Robot('r"', (Link('a'), Link('b\\'), Link('c')), (
        Joint('s\\', JointType.REVOLUTE, 'a', 'b\\', axis=(1.0, 0.0, 0.0)),
        Joint('m', JointType.REVOLUTE, 'a', 'c', axis=(1.0, 0.0, 0.0), mimic=Mimic('s\\'))))
    dot = describe.tree_dot(robot)
    assert dot.startswith('digraph "r\\"" {')
    assert '"a" -> "b\\\\" [label="s\\\\\\nrevolute, axis 1 0 0"];' in dot
    assert '"a" -> "c" [label="m\\nrevolute, axis 1 0 0, mimics s\\\\"];' in dot


def test_urdf_cannot_express_a_kinematic_loop():
    with pytest.raises(ConversionError, match="joint 'close': closes a kinematic loop"):
        write_urdf(linkage())
