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
Tests of the SDFormat model assembly (:mod:`sdf_tools.formats.sdf.assembly`).

Axes turned into the joint frame by version rule, poses inside links in the link frame,
joint frames exact at a quarter turn.
"""

import math

import numpy as np
import pytest
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.kinematics import frame_poses
from sdf_tools.model import Pose
from test_sdf_reader import assert_pose
from test_sdf_reader import HALF_PI
from test_sdf_reader import model_frame_poses
from test_sdf_reader import oracle_reads
from test_sdf_reader import read_fixture
from test_sdf_reader import sdf


AXIS_MODEL = """<model name="m">
  <link name="A"><pose>0 0 0 0 0 0.5</pose></link>
  <link name="B"/>
  <joint name="J" type="revolute">
    <pose>0 0 0 0 0 1.5707963267948966</pose>
    <parent>A</parent><child>B</child>
    <axis><xyz{attr}>1 0 0</xyz>{extra}</axis>
  </joint>
</model>"""


def _axis_in_model(text, **kwargs):
    robot = parse_sdf(text, 'axis.sdf', **kwargs)
    return model_frame_poses(robot)[('axis', 'J')], robot


def test_1_4_axis_is_in_the_model_frame_whatever_else_is_written():
    for attr in ('', ' expressed_in="A"'):
        axis, _ = _axis_in_model(sdf(AXIS_MODEL.format(attr=attr, extra=''), '1.4'))
        np.testing.assert_allclose(axis, (1.0, 0.0, 0.0), atol=1e-15)
    robot = parse_sdf(sdf(AXIS_MODEL.format(attr='', extra=''), '1.4'))
    # Expressed in the joint frame (rotated by 90 deg about z), x of the model is -y.
    np.testing.assert_allclose(robot.joint('J').axis, (0.0, -1.0, 0.0), atol=1e-15)


@pytest.mark.parametrize('version', ['1.5', '1.6'])
def test_use_parent_model_frame_in_1_5_and_1_6(version):
    joint_frame, _ = _axis_in_model(sdf(AXIS_MODEL.format(attr='', extra=''), version))
    np.testing.assert_allclose(joint_frame, (0.0, 1.0, 0.0), atol=1e-15)
    upmf = '<use_parent_model_frame>true</use_parent_model_frame>'
    model_frame, _ = _axis_in_model(sdf(AXIS_MODEL.format(attr=' expressed_in="A"',
                                                          extra=upmf), version))
    np.testing.assert_allclose(model_frame, (1.0, 0.0, 0.0), atol=1e-15)
    # Without the flag, expressed_in is honoured (libsdformat converts old files to 1.9).
    in_a, _ = _axis_in_model(sdf(AXIS_MODEL.format(attr=' expressed_in="A"', extra=''),
                                 version))
    np.testing.assert_allclose(in_a, (math.cos(0.5), math.sin(0.5), 0.0), atol=1e-15)


def test_1_7_expressed_in_and_ignored_use_parent_model_frame():
    upmf = '<use_parent_model_frame>true</use_parent_model_frame>'
    axis, robot = _axis_in_model(sdf(AXIS_MODEL.format(attr=' expressed_in="__model__"',
                                                       extra=''), '1.7'))
    np.testing.assert_allclose(axis, (1.0, 0.0, 0.0), atol=1e-15)
    axis, robot = _axis_in_model(sdf(AXIS_MODEL.format(attr='', extra=upmf), '1.7'))
    np.testing.assert_allclose(axis, (0.0, 1.0, 0.0), atol=1e-15)
    (warning,) = robot.warnings
    assert 'use_parent_model_frame> is ignored in SDFormat 1.7' in warning.message
    assert warning.location.line == 8


def test_axis_is_normalised_and_in_the_joint_frame():
    text = sdf(AXIS_MODEL.format(attr='', extra='').replace('1 0 0</xyz>', '0 0 3</xyz>'))
    assert parse_sdf(text).joint('J').axis == (0.0, 0.0, 1.0)


def test_version_rules_fixtures_differ_as_documented():
    # J's axis: model frame in 1.4 (always) and 1.5/1.6 (use_parent_model_frame),
    # frame A (yaw 0.5) in 1.8. K's axis: model frame in 1.4 only.
    axes = {v: model_frame_poses(read_fixture(f'version_rules_{v}'))
            for v in ('1_4', '1_5', '1_6', '1_8')}
    for v in ('1_4', '1_5', '1_6'):
        np.testing.assert_allclose(axes[v][('axis', 'J')], (1, 0, 0), atol=1e-15)
    np.testing.assert_allclose(axes['1_8'][('axis', 'J')], (math.cos(0.5), math.sin(0.5), 0),
                               atol=1e-15)
    np.testing.assert_allclose(axes['1_4'][('axis', 'K')], (0, 0.5 ** 0.5, 0.5 ** 0.5),
                               atol=1e-15)
    assert np.abs(np.subtract(axes['1_5'][('axis', 'K')], axes['1_4'][('axis', 'K')])).max() \
        > 0.1
    # <pose frame="A"> is relative_to before 1.7 and ignored (with a warning) after.
    assert_pose(axes['1_6'][('link', 'B')], (1 - math.sin(0.5), math.cos(0.5), 0.0))
    assert_pose(axes['1_8'][('link', 'B')], (0.0, 1.0, 0.0))
    warnings = read_fixture('version_rules_1_8').warnings
    assert any("attribute 'frame' is ignored" in w.message and w.location.line == 11
               for w in warnings)


def test_inertial_and_visual_poses_relative_to_other_frames():
    body = """<model name="m">
<link name="a"><pose>1 0 0 0 0 0</pose>
  <inertial><pose relative_to="__model__">1 0 2 0 0 0</pose><mass>2</mass></inertial>
  <collision name="c"><pose relative_to="f">0 0 0 0 0 0</pose>
    <geometry><sphere><radius>1</radius></sphere></geometry></collision>
</link>
<frame name="f" attached_to="a"><pose>0 3 0 0 0 0</pose></frame>
</model>"""
    link = parse_sdf(sdf(body)).link('a')
    assert link.inertial.origin == Pose((0.0, 0.0, 2.0))
    assert (link.inertial.ixx, link.inertial.iyy, link.inertial.izz) == (1.0, 1.0, 1.0)
    assert link.collisions[0].origin == Pose((0.0, 3.0, 0.0))


def test_half_pi_rotation_is_exact_enough():
    body = f"""<model name="m"><link name="a"/><link name="b"/>
<joint name="j" type="revolute"><pose>0 0 0 {HALF_PI} 0 0</pose>
<parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint></model>"""
    joint = parse_sdf(sdf(body)).joint('j')
    half = math.sqrt(0.5)  # (sin(pi/4), 0, 0, cos(pi/4)), written independently
    assert_pose(joint.origin, (0, 0, 0), (half, 0.0, 0.0, half), tol=2e-16)


STATIC_FRAMES = {
    'static': """<model name="m"><static>true</static>
<frame name="f"><pose>0 0 1 0 0 0</pose></frame>
<frame name="g" attached_to="f"><pose>1 0 0 0 0 1.5707963267948966</pose></frame></model>""",
    # Not static, but holding a static model: libsdformat needs no link then.
    'nested': """<model name="m"><pose>5 0 0 0 0 0</pose>
<model name="inner"><static>true</static><pose>0 2 0 0 0 0</pose>
<frame name="f"><pose>0 0 1 0 0 0</pose></frame></model></model>""",
}


@pytest.mark.parametrize('case', sorted(STATIC_FRAMES))
def test_frames_of_a_model_without_links_are_fixed_in_the_model_frame(case, tmp_path):
    text = sdf(STATIC_FRAMES[case])
    robot = parse_sdf(text, 's.sdf')
    assert robot.links == () and all(f.attached_to == 'world' for f in robot.frames)
    assert robot.frames[0].location.line == {'static': 3, 'nested': 4}[case]
    tree = compile_tree(robot)  # what sdf_tools fk prints
    poses = frame_poses(tree, link_poses=forward_kinematics(tree, []))
    expected = {'static': [(0.0, 0.0, 1.0), (1.0, 0.0, 1.0)], 'nested': [(0.0, 2.0, 1.0)]}
    np.testing.assert_allclose(poses[:, :3, 3], expected[case], atol=1e-15)
    oracle_reads(text, tmp_path, robot)
