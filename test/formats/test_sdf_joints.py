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
Tests of the values of SDFormat joints (:mod:`sdf_tools.formats.sdf.joints`).

Every joint type with its fields, screw pitches by version, 1.11 mimic, the default axis.
"""

import math

import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Pose
from sdf_tools.xmlio.text import element_text
from test_sdf_reader import oracle_reads
from test_sdf_reader import read_fixture
from test_sdf_reader import sdf


def test_every_joint_type_and_its_fields():
    robot = read_fixture('joint_types')
    kinds = {j.name: j.kind for j in robot.joints}
    assert kinds == {
        'rev': JointType.REVOLUTE, 'cont': JointType.CONTINUOUS, 'pri': JointType.PRISMATIC,
        'fix': JointType.FIXED, 'ball': JointType.BALL, 'uni': JointType.UNIVERSAL,
        'rev2': JointType.REVOLUTE2, 'screw': JointType.SCREW, 'gear': JointType.GEARBOX}
    rev = robot.joint('rev')
    assert rev.limit == Limit(-1.0, 2.0, 30.0, 4.0)
    assert (rev.dynamics.damping, rev.dynamics.friction, rev.dynamics.spring_reference,
            rev.dynamics.spring_stiffness) == (0.5, 0.1, 0.2, 3.0)
    assert rev.origin == Pose((0.2, 0.0, 0.05)) and rev.joint_in_child == Pose((0, 0, -0.05))
    assert any('<cfm>0.01</cfm>' in element_text(extra) for extra in rev.extras)
    assert robot.joint('cont').limit is None
    pri = robot.joint('pri')
    assert pri.axis == (0.0, 0.0, 1.0)
    assert pri.limit == Limit(0.0, 0.3, -1.0, -1.0)   # SDFormat defaults: -1 is unlimited
    uni = robot.joint('uni')
    assert (uni.axis, uni.axis2) == ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    assert uni.limit2 == Limit(-0.25, 0.25, -1.0, -1.0)
    assert uni.dynamics2.damping == 0.2 and uni.dynamics is None
    assert robot.joint('rev2').axis2 == (1.0, 0.0, 0.0)
    # <thread_pitch> pi rad/m, left-handed, is -2 m/rev right-handed.
    assert robot.joint('screw').screw_thread_pitch == pytest.approx(-2.0, abs=1e-15)
    gear = robot.joint('gear')
    assert (gear.gearbox_ratio, gear.gearbox_reference_body) == (-2.5, 'base')
    assert gear.axis2 == (0.0, 0.0, 1.0)
    assert robot.joint('ball').axis2 is None and robot.joint('fix').limit is None


@pytest.mark.parametrize('version, fields, expected', [
    ('1.9', '', -2.0 * math.pi),
    ('1.10', '', 1.0),
    ('1.9', '<thread_pitch>-6.283185307179586</thread_pitch>', 1.0),
    ('1.10', '<screw_thread_pitch>0.002</screw_thread_pitch>', 0.002),
    ('1.10', '<thread_pitch>1</thread_pitch><screw_thread_pitch>0.5</screw_thread_pitch>',
     0.5),
])
def test_screw_pitch(version, fields, expected):
    body = f"""<model name="m"><link name="a"/><link name="b"/>
<joint name="s" type="screw"><parent>a</parent><child>b</child>{fields}
<axis><xyz>0 0 1</xyz></axis></joint></model>"""
    pitch = parse_sdf(sdf(body, version)).joint('s').screw_thread_pitch
    assert pitch == pytest.approx(expected, rel=1e-15)


def test_mimic_in_1_11():
    body = """<model name="m"><link name="a"/><link name="b"/><link name="c"/>
<joint name="lead" type="revolute"><parent>a</parent><child>b</child>
  <axis><xyz>0 0 1</xyz></axis></joint>
<joint name="follow" type="revolute"><parent>b</parent><child>c</child>
  <axis><xyz>0 0 1</xyz>
    <mimic joint="lead"><multiplier>2</multiplier><offset>0.5</offset>
      <reference>0.1</reference></mimic>
  </axis></joint></model>"""
    mimic = parse_sdf(sdf(body, '1.11')).joint('follow').mimic
    assert (mimic.joint, mimic.multiplier) == ('lead', 2.0)
    assert mimic.offset == pytest.approx(0.3)     # offset - multiplier * reference


def test_missing_axis_defaults_to_z_with_a_warning():
    body = """<model name="m"><link name="a"/><link name="b"/>
<joint name="j" type="revolute"><parent>a</parent><child>b</child></joint></model>"""
    robot = parse_sdf(sdf(body), 'j.sdf')
    assert robot.joint('j').axis == (0.0, 0.0, 1.0)
    assert [w.code for w in robot.warnings] == ['missing-axis']


def test_axis2_of_a_single_axis_joint_is_ignored_with_a_warning():
    body = """<model name="m"><link name="a"/><link name="b"/>
<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>1 0 0</xyz></axis>
<axis2><xyz>0 1 0</xyz></axis2></joint></model>"""
    robot = parse_sdf(sdf(body), 'j.sdf')
    assert robot.joint('j').axis2 is None
    [warning] = robot.warnings
    assert (warning.code, warning.location.line) == ('no-effect', 4)
    assert warning.message == '<axis2> is ignored for a revolute joint'


def test_infinite_limits_are_read_as_libsdformat_reads_them(tmp_path):
    # libsdformat's own tests load such limits (std::stod reads inf in any case).
    text = sdf("""<model name="m"><link name="a"/><link name="b"/>
<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz>
<limit><lower>-inf</lower><upper>Infinity</upper><effort>+INF</effort></limit></axis></joint>
</model>""")
    robot = parse_sdf(text)
    assert robot.joint('j').limit == Limit(-math.inf, math.inf, math.inf, -1.0)
    oracle_reads(text, tmp_path, robot)
    with pytest.raises(DescriptionError, match=r"<lower> must be a number, got 'nan'"):
        parse_sdf(text.replace('-inf', 'nan'))  # what a NaN limit means is anyone's guess
