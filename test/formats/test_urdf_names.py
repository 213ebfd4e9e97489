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
Tests of :mod:`sdf_tools.formats.urdf.names`: unknown URDF names are reported, extensions not.

Each case reads a short URDF and looks at the ``unknown-name`` warnings (message, line,
entity); the corpus test holds the claim that real robots get none but their two real
mistakes.
"""

from diagnostics import INERTIA
from diagnostics import urdf
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import Severity
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.model import IDENTITY
import support

JOINT = ('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
         '<parent link="a"/>', '<child link="b"/>')


def unknown(text):
    """Return ``(line, entity, message)`` of each unknown-name warning of a URDF text."""
    robot = parse_urdf(text, 'robot.urdf')
    return [(d.location.line, d.entity, d.message) for d in robot.warnings
            if d.code is Code.UNKNOWN_NAME]


def test_a_misspelt_element_is_ignored_and_named_with_the_nearest_one():
    text = urdf(*JOINT, '<orgin xyz="0 0 0.16"/>',
                '<limit lower="-1" upper="1" effort="1" velocity="1"/>', '</joint>')
    assert unknown(text) == [(7, "joint 'j'", 'unknown element <orgin> in <joint> is ignored; '
                              'did you mean <origin>?')]
    assert parse_urdf(text).joint('j').origin == IDENTITY  # as urdfdom: the pose is lost


def test_a_misspelt_attribute_is_named_with_the_nearest_one():
    text = urdf(*JOINT, '<limit lowr="-1" upper="1" effort="1" velocity="1"/>', '</joint>')
    assert unknown(text) == [(7, "joint 'j'", "unknown attribute 'lowr' of <limit> is "
                              "ignored; did you mean 'lower'?")]


def test_every_urdf_element_is_checked():
    text = urdf('<robot_name x="1"/>',
                '<material name="m" colour="red"><color rgba="1 0 0 1" alpha="1"/></material>',
                '<link name="a" mass="1">',
                '<inertial frame="x"><mass value="1" unit="kg"/>', INERTIA, '</inertial>',
                '<visual><geometry><box size="1 1 1" centre="1"/></geometry>',
                '<material name="m"><shine/></material></visual>',
                '<collision><geometry><sphere radius="1"/></geometry><nme/></collision>',
                '</link>', '<link name="b"/>',
                '<joint name="j" type="fixed" axis="1 0 0"><parent link="a"/>',
                '<child link="b"/><origin xyz="0 0 1" rpy="0 0 0" xyx="1 1 1"/></joint>')
    assert [(line, message.split(' is ignored')[0]) for line, _, message in unknown(text)] == [
        (2, 'unknown element <robot_name> in <robot>'),
        (3, "unknown attribute 'colour' of <material>"),
        (3, "unknown attribute 'alpha' of <color>"),
        (4, "unknown attribute 'mass' of <link>"),
        (5, "unknown attribute 'frame' of <inertial>"),
        (5, "unknown attribute 'unit' of <mass>"),
        (8, "unknown attribute 'centre' of <box>"),
        (9, 'unknown element <shine> in <material>'),
        (10, 'unknown element <nme> in <collision>'),
        (13, "unknown attribute 'axis' of <joint>"),
        (14, "unknown attribute 'xyx' of <origin>"),
    ]


def test_what_a_leaf_element_holds_is_reported_with_the_attribute_it_should_be():
    text = urdf('<link name="a">', '<inertial>', '<mass value="1"/>',
                '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1">', '<ixx>2</ixx>',
                '</inertia>', '<pose>0 0 1 0 0 0</pose>', '</inertial>', '</link>')
    assert unknown(text) == [
        (6, "link 'a'", 'unknown element <ixx> in <inertia> is ignored (URDF gives ixx as '
         'an attribute: <inertia ixx="..."/>)'),
        (8, "link 'a'", 'unknown element <pose> in <inertial> is ignored (URDF gives poses '
         'as <origin xyz="..." rpy="..."/>)')]


def test_an_element_out_of_place_is_told_where_it_belongs():
    text = urdf('<link name="a"/>', '<inertial>', '<mass value="1"/>', INERTIA, '</inertial>')
    assert unknown(text) == [(3, "robot 'r'", 'unknown element <inertial> in <robot> is '
                              'ignored (URDF puts it in <link>)')]


def test_tool_extensions_and_namespaced_names_are_not_reported():
    text = '\n'.join([
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro" xmlns:d="urn:d" '
        'd:note="x">',
        '<link name="a" type="laser"><contact><lateral_friction value="1"/></contact>',
        '<collision><geometry><sphere radius="1"/></geometry><material name="m"/>',
        '</collision><d:extra/></link>', '<link name="b"/>',
        '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>',
        '<axis xyz="0 1 0" rpy="0 0 0"/>',
        '<limit lower="-1" upper="1" effort="1" velocity="1" current="10"/>',
        '<dynamics damping="1" mu_coulomb="0" K="7000"/></joint>',
        '<transmission name="t"><joint name="j"><unknown/></joint></transmission>',
        '<gazebo reference="a"><mu1>0.2</mu1></gazebo>', '<ros2_control name="c"/>',
        '<mujoco><compiler meshdir="m"/></mujoco>', '</robot>'])
    assert unknown(text) == []


def test_a_rotation_on_an_axis_is_reported_unless_it_is_zero():
    text = urdf(*JOINT, '<axis xyz="0 1 0" rpy="0 0 1.57"/>',
                '<limit lower="-1" upper="1" effort="1" velocity="1"/>', '</joint>')
    assert unknown(text) == [(7, "joint 'j'", "unknown attribute 'rpy' of <axis> is ignored")]


def test_check_reports_unknown_names_as_warnings():
    text = urdf(*JOINT, '<limit lower="-1" uper="1" effort="1" velocity="1"/>', '</joint>')
    problems = check(load(text=text, options=LoadOptions(source='robot.urdf')))
    found = [d for d in problems if d.code is Code.UNKNOWN_NAME]
    assert [str(d) for d in found] == [
        "robot.urdf:7: warning: joint 'j': unknown attribute 'uper' of <limit> is ignored; did "
        "you mean 'upper'?"]
    assert found[0].severity is Severity.WARNING


# The corpus robots' only unknown names, both real mistakes: robotiq's palm <inertial> was
# written after </link>, so the palm has no mass; Stretch's caster friction (0, to roll
# freely) is an SDFormat <surface> in the URDF <collision>, where nothing reads it.
CORPUS_MISTAKES = {
    ('robotiq_3f_articulated.urdf', 371, 'unknown element <inertial> in <robot> is ignored '
     '(URDF puts it in <link>)'),
    ('stretch_gazebo.urdf', 93, 'unknown element <surface> in <collision> is ignored '
     '(SDFormat content for a collision goes in <gazebo reference="LINK"><collision>...'
     '</collision></gazebo>)'),
}


@pytest.mark.skipif(not support.corpus_files(), reason=support.NO_CORPUS)
def test_the_corpus_robots_have_no_unknown_names_but_two_real_mistakes():
    found = set()
    for path in support.corpus_files():
        robot = parse_urdf(path.read_bytes(), path.name)
        found |= {(d.location.source, d.location.line, d.message) for d in robot.warnings
                  if d.code is Code.UNKNOWN_NAME}
    assert found == CORPUS_MISTAKES
