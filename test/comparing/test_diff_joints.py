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


"""Joints compared: what each type uses, axes as directions, absent dynamics as zero."""

from diff_support import ARM
from diff_support import compare
from diff_support import edited

CONTINUOUS = ARM.replace('name="shoulder" type="revolute"', 'name="shoulder" type="continuous"')


def test_position_limits_of_a_continuous_joint_do_not_count():
    unlimited = edited('lower="-1.5" upper="1.5" effort="10"', 'effort="10"', CONTINUOUS)
    assert compare(CONTINUOUS, unlimited).equal
    d, = compare(CONTINUOUS, unlimited.replace('effort="10"', 'effort="11"')).differences
    assert (d.name, d.kind, d.field, d.a, d.b) == ('shoulder', 'limit', 'effort', 10.0, 11.0)


def test_an_axis_compares_as_a_direction():
    assert compare(ARM, edited('<axis xyz="0 0 1"/>', '<axis xyz="0 0 2"/>')).equal
    d, = compare(ARM, edited('<axis xyz="0 0 1"/>', '<axis xyz="0 0 -1"/>')).differences
    assert (d.name, d.kind, d.a, d.b) == ('shoulder', 'axis', [0.0, 0.0, 1.0], [0.0, 0.0, -1.0])


def test_absent_dynamics_are_zero_dynamics():
    assert compare(edited('<dynamics damping="0.1"/>', '<dynamics damping="0"/>'),
                   edited('<dynamics damping="0.1"/>', '')).equal


def test_a_changed_mimic_is_one_difference_and_explains_the_poses():
    mimic = edited('<axis xyz="1 0 0"/>', '<axis xyz="1 0 0"/><mimic joint="elbow" '
                   'multiplier="0.01"/>')
    comparison = compare(mimic, mimic.replace('multiplier="0.01"', 'multiplier="0.02"'))
    d, = comparison.differences
    assert comparison.poses.position_link == 'finger' and not comparison.poses.unexplained
    assert (d.name, d.kind, d.a, d.b) == ('finger_joint', 'mimic',
                                          {'joint': 'elbow', 'multiplier': 0.01, 'offset': 0.0},
                                          {'joint': 'elbow', 'multiplier': 0.02, 'offset': 0.0})
