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


def chain(n: int, branch_at: int = -1) -> Robot:
    """Return a chain l0 -> l1 -> ... -> ln of revolute joints (a fixed ``side`` joint at one)."""
    links = tuple(Link(f'l{i}') for i in range(n + 1))
    joints = tuple(Joint(f'j{i}', JointType.REVOLUTE, f'l{i}', f'l{i + 1}',
                         axis=(0.0, 0.0, 1.0)) for i in range(n))
    if branch_at >= 0:
        links += (Link('side'),)
        joints += (Joint('side', JointType.FIXED, f'l{branch_at}', 'side'),)
    return Robot('chain', links, joints, frames=(Frame('tip', f'l{n}'),), source='chain.urdf',
                 source_format='urdf')


def test_deep_trees_stop_indenting_and_mark_the_depth():
    # Indented in full, a 20,000-joint chain's tree was 810 MB of text. Beyond the deepest
    # indentation each line keeps the guides drawn so far and says how deep it is.
    deep = describe.TREE_INDENT_LEVELS
    robot = chain(deep + 3, branch_at=deep + 1)
    lines = describe.tree_text(robot).splitlines()
    guides = '    ' * deep
    assert lines[deep] == guides[4:] + f'`-- j{deep - 1} (revolute, axis 0 0 1) -> l{deep}'
    assert lines[deep + 1:] == [
        f'{guides}`-- j{deep} (revolute, axis 0 0 1) -> l{deep + 1}',
        f'{guides}[depth {deep + 2}] |-- j{deep + 1} (revolute, axis 0 0 1) -> l{deep + 2}',
        f'{guides}[depth {deep + 3}] `-- j{deep + 2} (revolute, axis 0 0 1) -> l{deep + 3}',
        f'{guides}[depth {deep + 4}] `-- [frame] tip',
        f'{guides}[depth {deep + 2}] `-- side (fixed) -> side',
    ]
    assert max(len(line) for line in lines) < 4 * deep + 60


def test_check_and_tree_of_a_long_chain_grow_linearly(tmp_path, capsys):
    # 'sdf_tools check' and 'tree' of a chain: four times the joints make under eight times
    # the text and the traced peak memory (indenting every level made sixteen times).
    import tracemalloc
    from sdf_tools import cli

    def measure(command, n):
        path = tmp_path / f'chain{n}.urdf'
        path.write_text(write_urdf(chain(n))[0])
        tracemalloc.start()
        try:
            assert cli.main([command, str(path)]) == 0
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        return len(capsys.readouterr().out), peak

    for command in ('check', 'tree'):
        (small_out, small_peak), (large_out, large_peak) = measure(command, 500), \
            measure(command, 2_000)
        assert large_out < 8 * small_out, (command, small_out, large_out)
        assert large_peak < 8 * small_peak, (command, small_peak, large_peak)
