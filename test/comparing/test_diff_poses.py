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


"""Link poses compared by forward kinematics at the same joint values on both sides."""

import math

from diff_support import ARM
from diff_support import compare
from diff_support import edited
from diff_support import read
from sdf_tools.comparing import diff
from sdf_tools.comparing import DiffOptions
from sdf_tools.comparing.poses import check_poses


def test_both_sides_get_the_same_values_even_under_a_renamed_joint():
    comparison = compare(ARM, ARM.replace('"elbow"', '"elbow_pitch"'), configurations=3)
    side_b = comparison.b.tree
    for values in comparison.poses.configurations:
        q_b = side_b.joint_vector({comparison.joint_names[k]: v for k, v in values.items()}).q
        assert list(q_b) == [values[name] for name in ('shoulder', 'elbow', 'finger_joint')]
    assert comparison.poses.position_error == 0.0


def test_random_values_stay_within_the_limits_and_angles_within_pi():
    text = ARM.replace('name="shoulder" type="revolute"', 'name="shoulder" type="continuous"')
    comparison = compare(text, text, configurations=50, seed=3)
    random = comparison.poses.configurations[1:]
    assert all(-math.pi <= q['shoulder'] <= math.pi for q in random)
    assert all(-2 <= q['elbow'] <= 2 and 0 <= q['finger_joint'] <= 0.04 for q in random)
    assert max(q['shoulder'] for q in random) > 2  # continuous: beyond the old limits
    assert compare(text, text, configurations=50, seed=3).poses.configurations == \
        comparison.poses.configurations


def test_the_largest_error_and_where_it_is():
    moved = edited('<origin xyz="0 0 0.4"/><axis xyz="0 1 0"/>',
                   '<origin xyz="0 0 0.4" rpy="0 0 0.1"/><axis xyz="0 1 0"/>')
    poses = compare(ARM, moved, configurations=2).poses
    assert poses.angle_error == abs(poses.angle_error) and math.isclose(poses.angle_error, 0.1)
    assert poses.angle_link in ('fore', 'tool', 'finger')
    assert poses.position_link == 'finger' and poses.position_configuration in (1, 2)


def test_only_the_first_link_that_moves_is_unexplained_without_a_difference():
    a, b = read(ARM, 'a.urdf'), read(edited('<origin xyz="0 0 0.4"/>',
                                            '<origin xyz="0 0 0.5"/>'), 'b.urdf')
    comparison = diff(a, b, DiffOptions(configurations=1))
    matching = type('Matching', (), {'links': comparison.link_names,
                                     'joints': comparison.joint_names})
    check = check_poses(comparison.a, comparison.b, matching, set(), 1e-6, 1, 0)
    assert check.unexplained == ('fore',)  # not 'tool' nor 'finger', which only follow it
    assert comparison.poses.unexplained == ()  # the joint origin difference explains it


def chain(n: int) -> str:
    """Return a URDF chain of ``n`` revolute joints."""
    links = ''.join(f'<link name="l{i}"/>' for i in range(n + 1))
    joints = ''.join(f'<joint name="j{i}" type="revolute"><parent link="l{i}"/>'
                     f'<child link="l{i + 1}"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                     for i in range(n))
    return f'<robot name="chain">{links}{joints}</robot>'


def test_the_poses_of_a_long_chain_are_compared_in_linear_time():
    # The link poses in their parents were compared with a set rebuilt per link: diff of a
    # 48,000-link chain took 31.7 s. Four times the links now cost under eight times the CPU
    # time (quadratic: sixteen), both sizes measured in the same run.
    import support

    def cpu_seconds(n):
        a, b = read(chain(n), 'a.urdf'), read(chain(n), 'b.urdf')
        comparison = diff(a, b, DiffOptions(configurations=1))
        assert comparison.poses.links == n + 1 and comparison.poses.unexplained == ()
        matching = type('Matching', (), {'links': comparison.link_names,
                                         'joints': comparison.joint_names})
        return support.least_cpu_seconds(check_poses, comparison.a, comparison.b, matching,
                                         set(), 1e-6, 1, 0, repeats=2)

    small, large = cpu_seconds(1_500), cpu_seconds(6_000)
    assert large < 8.0 * small, f'{small:.3f} s -> {large:.3f} s of CPU time: not linear'
