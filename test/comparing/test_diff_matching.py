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


"""Which link and joint is which: by name, else a likely rename (through joints or content)."""

from diff_support import ARM
from diff_support import compare
from diff_support import edited


def test_a_link_renamed_under_a_kept_joint_pairs_through_the_joint():
    comparison = compare(ARM, ARM.replace('"upper"', '"upper_arm"'))
    assert comparison.link_names['upper'] == 'upper_arm'
    assert [(d.kind, d.a, d.b) for d in comparison.differences] == [
        ('renamed', 'upper', 'upper_arm')]


def test_a_leaf_renamed_with_its_joint_pairs_by_content():
    renamed = ARM.replace('"finger"', '"digit"').replace('"finger_joint"', '"digit_joint"')
    comparison = compare(ARM, renamed)
    assert comparison.link_names['finger'] == 'digit'
    assert comparison.joint_names['finger_joint'] == 'digit_joint'
    assert [(d.entity, d.kind) for d in comparison.differences] == [
        ('link', 'renamed'), ('joint', 'renamed')]


def test_a_renamed_leaf_whose_content_changed_too_is_removed_and_added():
    renamed = edited('<mass value="0.01"/>', '<mass value="0.02"/>',
                     ARM.replace('"finger"', '"digit"').replace('"finger_joint"',
                                                                '"digit_joint"'))
    comparison = compare(ARM, renamed)
    assert 'finger' not in comparison.link_names
    assert [(d.entity, d.name, d.kind) for d in comparison.differences] == [
        ('link', 'finger', 'only-in-a'), ('link', 'digit', 'only-in-b'),
        ('joint', 'finger_joint', 'only-in-a'), ('joint', 'digit_joint', 'only-in-b')]


def test_two_links_of_the_same_content_are_not_guessed():
    leaf = ('<joint name="{j}" type="fixed"><parent link="base"/><child link="{l}"/></joint>'
            '<link name="{l}"/>')
    a = ARM.replace('</robot>', leaf.format(j='j1', l='l1') + leaf.format(j='j2', l='l2') +
                    '</robot>')
    b = ARM.replace('</robot>', leaf.format(j='k1', l='m1') + leaf.format(j='k2', l='m2') +
                    '</robot>')
    comparison = compare(a, b)
    assert not {'l1', 'l2'} & set(comparison.link_names)
    assert sum(d.kind == 'only-in-a' for d in comparison.differences) == 4


def test_names_that_differ_by_a_prefix_are_one_difference():
    """A xacro prefix:=arm_ renames every link and joint: said once, the rest compared."""
    prefixed = ARM
    for attribute in ('name', 'link', 'reference'):
        prefixed = prefixed.replace(f' {attribute}="', f' {attribute}="arm_')
    prefixed = prefixed.replace('<robot name="arm_arm"', '<robot name="arm"')
    comparison = compare(ARM, edited('<mass value="0.5"/>', '<mass value="0.6"/>', prefixed))
    found = [(d.entity, d.name, d.kind, d.a, d.b) for d in comparison.differences]
    assert found[0] == ('model', '', 'prefix', None, 'arm_')
    assert comparison.differences[0].detail == 'the names of B are those of A with arm_ in ' \
        'front: 5 links, 4 joints'
    # No link or joint only on one side or renamed: the mass is the one link difference
    # (the sensor and the transmission keep their own names, prefixed too).
    links_and_joints = [d for d in found if d[0] in ('link', 'joint')]
    assert links_and_joints == [('link', 'fore', 'mass', 0.5, 0.6)]
    assert comparison.poses.links == 5 and comparison.link_names['tool'] == 'arm_tool'
    back = compare(prefixed, ARM).differences[0]
    assert (back.kind, back.a, back.b) == ('prefix', 'arm_', None)
