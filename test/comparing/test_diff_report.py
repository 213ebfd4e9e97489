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


"""The comparison written for people (grouped, both places on each line) and as JSON."""

import json

from diff_support import ARM
from diff_support import compare
from diff_support import edited
from diff_support import line_of
from diff_support import read
from sdf_tools.comparing import diff
from sdf_tools.comparing.report import to_json
from sdf_tools.comparing.report import to_text
from sdf_tools.loading import to_sdf


def test_the_text_groups_differences_by_entity_with_both_places():
    changed = edited('lower="-2" upper="2"', 'lower="-2" upper="2.5"',
                     edited('<mass value="0.5"/>', '<mass value="0.6"/>'))
    joint = line_of(ARM, '<joint name="elbow"')
    link = line_of(ARM, '<link name="fore"')
    assert to_text(compare(ARM, changed)).splitlines()[:6] == [
        'A: a.urdf (URDF)',
        'B: b.urdf (URDF)',
        "link 'fore'",
        f'  mass: 0.5 | 0.6  [a.urdf:{link} | b.urdf:{link}]',
        "joint 'elbow'",
        f'  limit upper: 2 | 2.5  [a.urdf:{joint} | b.urdf:{joint}]']
    assert to_text(compare(ARM, changed)).endswith(
        'different: 2 differences: 1 limit, 1 mass (tolerance 1e-06)\n')  # counts by kind


def test_the_text_of_equal_descriptions_says_so_with_the_pose_check_and_notes():
    urdf = read(ARM, 'arm.urdf')
    lines = to_text(diff(urdf, read(to_sdf(urdf).sdf, 'arm.sdf'))).splitlines()
    assert lines[0] == 'A: arm.urdf (URDF, compared as SDFormat: converted, fixed joints lumped)'
    assert lines[2] == 'poses (5 configurations, 4 links): the same'
    assert lines[3] == 'notes:'
    assert lines[4] == (f"  arm.urdf:{line_of(ARM, 'tool_joint')}: fixed joint 'tool_joint' "
                        "lumped: link 'tool' merged into link 'fore' (1 collision, its mass)")
    assert lines[-1] == 'equal (tolerance 1e-06)'


def test_json_holds_every_difference_with_values_and_places():
    changed = edited('<origin xyz="0 0 0.4"/>', '<origin xyz="0 0 0.5"/>')
    data = json.loads(json.dumps(to_json(compare(ARM, changed))))
    assert data['equal'] is False and data['tolerance'] == 1e-6
    assert data['a'] == {'source': 'a.urdf', 'format': 'urdf', 'xacro': False, 'lumped': False}
    line = line_of(ARM, '<joint name="elbow"')
    assert data['differences'] == [{
        'entity': 'joint', 'name': 'elbow', 'kind': 'origin', 'part': '', 'field': '',
        'a': {'xyz': [0.0, 0.0, 0.4], 'rpy': [0.0, 0.0, 0.0]},
        'b': {'xyz': [0.0, 0.0, 0.5], 'rpy': [0.0, 0.0, 0.0]},
        'a_location': f'a.urdf:{line}', 'b_location': f'b.urdf:{line}',
        'detail': 'moved 0.1 m, turned 0 rad'}]
    poses = data['poses']
    assert len(poses['configurations']) == 5 and poses['links'] == 5
    assert abs(poses['position_error'] - 0.1) < 1e-12
    assert poses['position_link'] in ('fore', 'tool', 'finger')  # all moved by 0.1 m
    assert poses['unexplained'] == [] and poses['skipped'] == '' and data['notes'] == []


def test_a_rotation_the_same_on_both_sides_reads_the_same_and_noise_reads_0():
    """Only the position of the elbow changed: its rotation is written once, as A has it."""
    a = edited('<origin xyz="0 0 0.4"/>', '<origin xyz="0 0 0.4" rpy="3.141592653589793 0 0"/>')
    b = edited('<origin xyz="0 0 0.4"/>', '<origin xyz="1e-17 0 0.5" '
               'rpy="-3.141592653589793 0 0"/>')
    (d,) = compare(a, b).differences
    assert (d.a, d.b) == ({'xyz': [0.0, 0.0, 0.4], 'rpy': [3.141592653589793, 0.0, 0.0]},
                          {'xyz': [0.0, 0.0, 0.5], 'rpy': [3.141592653589793, 0.0, 0.0]})
    assert d.detail == 'moved 0.1 m, turned 0 rad'
    assert '  origin: xyz 0 0 0.4, rpy 3.141592654 0 0 | xyz 0 0 0.5, rpy 3.141592654 0 0 (' \
        in to_text(compare(a, b))


def test_a_mesh_not_found_is_said_once():
    two = ARM.replace('<collision><origin xyz="0 0 0.2"/><geometry><box size="0.1 0.1 0.4"/>',
                      '<collision><origin xyz="0 0 0.2"/><geometry><mesh filename="package:'
                      '//arm/meshes/base.stl"/>')
    moved = two.replace('package://arm/meshes/base.stl', 'package://other/base.stl')
    text = to_text(compare(two, moved))
    assert text.count('not found: package://arm/meshes/base.stl, package://other/base.stl') \
        == 1 and text.count(' mesh: package://arm/meshes/base.stl | package://other/') == 2
