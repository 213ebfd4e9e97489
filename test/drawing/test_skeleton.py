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


"""Tests of sdf_tools.drawing.skeleton: a segment from each joint to the next, by hand."""

import numpy as np
import pytest
from sdf_tools.drawing import link_poses
from sdf_tools.drawing.skeleton import matching_rows
from sdf_tools.drawing.skeleton import skeleton
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf

#: base -hinge (z 0.1)-> arm -fixed (z 0.5)-> tip, and base -slide (x 0.2)-> cart.
ARM = """<robot name="arm">
  <link name="base"/><link name="arm"/><link name="tip"/><link name="cart"/>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="fix" type="fixed"><parent link="arm"/><child link="tip"/>
    <origin xyz="0 0 0.5"/></joint>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="cart"/>
    <origin xyz="0.2 0 0"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def test_segments_run_from_each_joint_to_the_next():
    robot = parse_urdf(ARM)
    hinge = 0.5
    bones = skeleton(robot, link_poses(robot, {'hinge': hinge, 'slide': 0.3}))
    tip = (0.0, -0.5 * np.sin(hinge), 0.1 + 0.5 * np.cos(hinge))  # turned about x
    assert bones.segments == pytest.approx(np.array([
        [(0, 0, 0), (0, 0, 0.1)],       # the root's origin to the hinge
        [(0, 0, 0.1), tip],             # the hinge to the fixed joint
        [(0, 0, 0), (0.5, 0, 0)]]))     # the root to the slide, moved 0.3 along x
    assert bones.joints == pytest.approx(np.array([(0, 0, 0.1), tip, (0.5, 0, 0)]))
    assert bones.moving.tolist() == [True, False, True]
    assert bones.roots == pytest.approx(np.zeros((1, 3)))
    assert [names for names, _ in bones.labels] == ['arm', 'tip', 'cart', 'base']


def test_a_joint_is_where_sdformat_puts_it_in_its_child_and_names_share_a_place():
    robot = parse_sdf('<sdf version="1.9"><model name="m">'
                      '<link name="a"/><link name="b"><pose>1 0 0 0 0 0</pose></link>'
                      '<link name="c"><pose>1 0 0 0 0 0</pose></link>'
                      '<joint name="j" type="revolute"><pose>0 0 0.3 0 0 0</pose><parent>a'
                      '</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>'
                      '<joint name="k" type="fixed"><parent>a</parent><child>c</child></joint>'
                      '</model></sdf>')
    bones = skeleton(robot, link_poses(robot))
    assert bones.joints == pytest.approx(np.array([(1, 0, 0.3), (1, 0, 0)]))
    assert bones.segments[0] == pytest.approx(np.array([(0, 0, 0), (1, 0, 0.3)]))
    assert [names for names, _ in bones.labels] == ['b', 'c', 'a']
    # Links at one place are named together.
    robot = parse_urdf(ARM.replace('<origin xyz="0 0 0.5"/>', ''))
    assert [names for names, _ in skeleton(robot, link_poses(robot)).labels] == [
        'arm, tip', 'cart', 'base']


def test_links_without_a_pose_leave_their_joints_out():
    robot = parse_urdf(ARM)
    poses = link_poses(robot)
    del poses['arm']
    bones = skeleton(robot, poses)
    assert len(bones.segments) == 1 and bones.roots.shape == (2, 3)  # base; tip has no parent


def _brute_force(first, second, tolerance):
    close = np.abs(first[:, None, :] - second[None, :, :]).max(axis=2) <= tolerance
    return close.any(axis=1), close.any(axis=0)


@pytest.mark.parametrize('crowded', [False, True])
def test_matching_rows_finds_the_rows_within_the_tolerance_both_ways(crowded):
    rng = np.random.default_rng(3)
    first = rng.uniform(-1, 1, (300, 9))
    if crowded:  # all in one place: compared row by row
        first = np.repeat(first[:1], 300, axis=0)
    second = np.concatenate([first[::2] + rng.uniform(-4e-7, 4e-7, first[::2].shape),
                             first[1::4] + 3e-6, rng.uniform(-1, 1, (50, 9))])
    got = matching_rows(first, second, 1e-6)
    expected = _brute_force(first, second, 1e-6)
    assert all((g == e).all() for g, e in zip(got, expected))
    assert got[0][::2].all() and got[1][:len(first[::2])].all()
    assert matching_rows(first, second[:0], 1e-6)[0].shape == (len(first),)
