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
sdf_tools.diff: each small edit is reported once, where it is, and nothing else.

A URDF and its SDFormat are equal up to what lumping changes, which the notes say.
"""

from diff_support import ARM
from diff_support import compare
from diff_support import edited
from diff_support import line_of
from diff_support import read
import numpy as np
import pytest
import sdf_tools
from sdf_tools.comparing import diff
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.loading import to_sdf

# (old text, new text, (entity, name, kind, part, field), fragment on the line it is at)
EDITS = {
    'limit': ('lower="-2" upper="2"', 'lower="-2" upper="2.5"',
              ('joint', 'elbow', 'limit', '', 'upper'), '<joint name="elbow"'),
    'origin': ('<origin xyz="0 0 0.4"/>', '<origin xyz="0 0 0.45"/>',
               ('joint', 'elbow', 'origin', '', ''), '<joint name="elbow"'),
    'axis': ('<origin xyz="0 0 0.4"/><axis xyz="0 1 0"/>', '<origin xyz="0 0 0.4"/><axis '
             'xyz="1 0 0"/>', ('joint', 'elbow', 'axis', '', ''), '<joint name="elbow"'),
    'type': ('type="prismatic"', 'type="revolute"', ('joint', 'finger_joint', 'type', '', ''),
             '<joint name="finger_joint"'),
    'damping': ('damping="0.1"', 'damping="0.2"', ('joint', 'elbow', 'dynamics', '', 'damping'),
                '<joint name="elbow"'),
    'fixed-joint-origin': ('<origin xyz="0 0 0.3"/>', '<origin xyz="0 0 0.35"/>',
                           ('joint', 'tool_joint', 'origin', '', ''), '<joint name="tool_joint"'),
    'mass': ('<mass value="0.5"/>', '<mass value="0.6"/>', ('link', 'fore', 'mass', '', ''),
             '<link name="fore"'),
    'centre-of-mass': ('<origin xyz="0 0 0.1"/><mass', '<origin xyz="0 0 0.12"/><mass',
                       ('link', 'fore', 'centre-of-mass', '', ''), '<link name="fore"'),
    'inertia': ('iyy="0.02"', 'iyy="0.03"', ('link', 'fore', 'inertia', '', ''),
                '<link name="fore"'),
    'mesh': ('base.stl', 'base_v2.stl', ('link', 'base', 'mesh', 'visual 1', ''), 'base.stl'),
    'visual-pose': ('<visual><origin xyz="0 0 0.2"/>', '<visual><origin xyz="0 0 0.25"/>',
                    ('link', 'upper', 'pose', 'visual 1', ''), '<visual><origin xyz="0 0 0.2'),
    'geometry': ('radius="0.04"', 'radius="0.05"', ('link', 'fore', 'geometry', 'visual 1', ''),
                 'radius="0.04"'),
    'colour': ('0.5 0.5 0.5 1', '0.5 0.5 0.6 1', ('link', 'fore', 'material', 'visual 1',
                                                  'rgba'), 'cylinder'),
    'collision-removed': ('    <collision><origin xyz="0 0 0.2"/><geometry><box size="0.1 0.1 '
                          '0.4"/></geometry></collision>\n', '',
                          ('link', 'upper', 'only-in-a', 'collision 1', ''), '<collision><origin'),
    'sensor': ('<update_rate>30', '<update_rate>60', ('gazebo', 'tool', 'content', '',
                                                      "sensor 'camera'/update_rate"),
               '<sensor name="camera"'),  # the sensor's line, not its block's
    'transmission': ('PositionJointInterface', 'EffortJointInterface',
                     ('model', '', 'content', '',
                      "transmission 'elbow_transmission'/joint 'elbow'/hardwareInterface"),
                     '<transmission'),
}


@pytest.mark.parametrize('edit', EDITS, ids=list(EDITS))
def test_each_edit_is_reported_once_where_it_is(edit):
    old, new, expected, fragment = EDITS[edit]
    changed = edited(old, new)
    comparison = compare(ARM, changed)
    assert len(comparison.differences) == 1, comparison.differences
    d = comparison.differences[0]
    assert (d.entity, d.name, d.kind, d.part, d.field) == expected
    a_line = line_of(ARM, fragment)
    b_line = None if d.kind == 'only-in-a' else line_of(changed, fragment.replace(old, new))
    assert (d.a_location.source, d.a_location.line) == ('a.urdf', a_line)
    assert (d.b_location and (d.b_location.source, d.b_location.line)) == \
        (b_line and ('b.urdf', b_line))
    assert not comparison.poses.unexplained


def test_a_renamed_link_is_one_rename_and_joints_follow_it():
    renamed = ARM.replace('"fore"', '"forearm"')
    comparison = compare(ARM, renamed)
    assert [(d.entity, d.name, d.kind, d.a, d.b) for d in comparison.differences] == [
        ('link', 'fore', 'renamed', 'fore', 'forearm')]
    assert comparison.link_names['fore'] == 'forearm'
    assert comparison.differences[0].b_location.line == line_of(renamed, 'name="forearm"')


def test_a_renamed_joint_is_one_rename():
    comparison = compare(ARM, ARM.replace('"shoulder"', '"shoulder_yaw"'))
    assert [(d.entity, d.kind, d.a, d.b) for d in comparison.differences] == [
        ('joint', 'renamed', 'shoulder', 'shoulder_yaw')]


def test_a_removed_leaf_is_its_link_and_its_joint():
    removed = ARM.replace(ARM[ARM.index('  <joint name="finger_joint"'):
                              ARM.index('  <gazebo reference="tool">')], '')
    comparison = compare(ARM, removed)
    assert [(d.entity, d.name, d.kind) for d in comparison.differences] == [
        ('link', 'finger', 'only-in-a'), ('joint', 'finger_joint', 'only-in-a')]


def test_a_description_equals_itself_and_its_reformatting():
    reformatted = ARM.replace('"0 0 0.4"', '"0.0  0.0 0.40000000000000002"').replace(
        'effort="5" velocity="1"', 'velocity="1.0" effort="5e0"')
    comparison = compare(ARM, reformatted)
    assert comparison.equal and comparison.differences == ()
    assert comparison.poses.links == 5 and len(comparison.poses.configurations) == 5
    assert comparison.poses.position_error < 1e-15 and comparison.poses.angle_error < 1e-15


def test_a_change_below_the_tolerance_does_not_count():
    slightly = edited('<mass value="0.5"/>', '<mass value="0.5000001"/>')
    assert compare(ARM, slightly).equal
    assert not compare(ARM, slightly, tol=1e-9).equal


def test_a_urdf_equals_its_sdformat_and_the_notes_say_what_lumping_did():
    urdf = read(ARM, 'arm.urdf')
    sdf = read(to_sdf(urdf).sdf, 'arm.sdf')
    comparison = diff(urdf, sdf)
    assert comparison.equal, comparison.differences
    assert comparison.a.lumped and not comparison.b.lumped
    notes = [(n.kind, n.text, n.location.line) for n in comparison.notes
             if n.kind == 'lumped']
    assert notes == [('lumped', "fixed joint 'tool_joint' lumped: link 'tool' merged into link "
                      "'fore' (1 collision, its mass)", line_of(ARM, 'name="tool_joint"'))]
    assert 'tool' not in comparison.a.robot.index.links  # the lumped view is compared


def test_fixed_joints_the_sdformat_keeps_are_not_lumped():
    urdf = read(ARM, 'arm.urdf')
    kept = read(to_sdf(urdf, ConversionOptions(preserve_fixed_joints=True)).sdf, 'arm.sdf')
    comparison = diff(urdf, kept)
    assert comparison.equal, comparison.differences
    assert comparison.a.robot.joint('tool_joint').child == 'tool'
    assert not [n for n in comparison.notes if n.kind == 'lumped']


def test_a_fixed_joint_the_sdformat_keeps_is_kept_and_the_other_lumped():
    two = edited('<child link="finger"/>', '<child link="finger"/><origin xyz="0 0 0.1"/>',
                 ARM.replace('type="prismatic"', 'type="fixed"'))
    preserve = '<gazebo reference="tool_joint"><preserveFixedJoint>1</preserveFixedJoint></gazebo>'
    urdf = read(two, 'arm.urdf')
    sdf = read(to_sdf(read(two.replace('</robot>', preserve + '</robot>'), 'x.urdf')).sdf,
               'arm.sdf')
    comparison = diff(urdf, sdf)
    assert comparison.equal, comparison.differences
    assert [n.text for n in comparison.notes if n.kind == 'lumped'] == [
        "fixed joint 'finger_joint' lumped: link 'finger' merged into link 'tool' (its mass)"]


def test_an_edit_of_the_sdformat_is_placed_in_both_files():
    urdf = read(ARM, 'arm.urdf')
    text = to_sdf(urdf).sdf
    changed = edited('<radius>0.05</radius>', '<radius>0.06</radius>', text)
    comparison = diff(urdf, read(changed, 'arm.sdf'))
    d, = comparison.differences
    assert (d.entity, d.name, d.kind, d.part) == (
        'link', 'fore', 'geometry', "collision 'fore_fixed_joint_lump__tool_collision'")
    assert str(d.a_location) == f"arm.urdf:{line_of(ARM, 'sphere')}"  # the tool's collision
    collision = 'name="fore_fixed_joint_lump__tool_collision"'
    assert str(d.b_location) == f'arm.sdf:{line_of(text, collision)}'


def test_the_comparison_keeps_both_robots_their_trees_and_the_configurations():
    comparison = sdf_tools.diff(read(ARM, 'a.urdf'), read(ARM, 'b.urdf'))
    for side in (comparison.a, comparison.b):
        assert side.robot.name == 'arm' and side.tree.n_links == 5
    zero, *random = comparison.poses.configurations
    assert zero == {'shoulder': 0.0, 'elbow': 0.0, 'finger_joint': 0.0}
    assert all(-1.5 <= q['shoulder'] <= 1.5 and 0 <= q['finger_joint'] <= 0.04 for q in random)
    assert len({q['elbow'] for q in random}) == 4


def test_the_comparison_gives_both_sides_link_poses_at_a_configuration():
    moved = edited('<origin xyz="0 0 0.4"/>', '<origin xyz="0 0 0.5"/>')
    comparison = compare(ARM, moved.replace('"elbow"', '"elbow_pitch"'))
    poses_a, poses_b = comparison.link_poses(2)
    assert set(poses_a) == set(poses_b) == {'base', 'upper', 'fore', 'tool', 'finger'}
    assert (poses_a['upper'] == poses_b['upper']).all()  # the same joint values on both sides
    t_upper_fore = np.linalg.inv(poses_b['upper']) @ poses_b['fore']
    assert np.allclose(t_upper_fore[:3, 3], [0, 0, 0.5])
