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
Invalid descriptions that compile_tree, forward kinematics and the converter refuse.

The other tests of invalid descriptions moved beside their modules (the readers' to
``test/formats``, the shared checks' to ``test_validate.py``, the output files' to
``files/test_atomic.py``). These belong in ``test/kinematics`` and ``test/convert``, which
are being reorganised, and wait here until then.
"""

import math

from diagnostics import INERTIA
from diagnostics import mimic_urdf
from diagnostics import sdf
from diagnostics import urdf
import numpy as np
import pytest
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import ConversionError
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import KinematicsError
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics


# --- kinematics: compile_tree refuses the mimic joints the readers warn about ---------------

def test_compile_tree_refuses_a_mimic_of_a_missing_joint():
    robot = parse_urdf(mimic_urdf('<mimic joint="ghost"/>'))
    with pytest.raises(KinematicsError, match="<mimic> names joint 'ghost', which does not "
                       'exist') as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5
    assert info.value.diagnostic.entity == "joint 'j1'"
    tree = compile_tree(robot, missing_mimic='ignore')
    assert tree.coordinate_names == ('j1', 'j2')


def test_compile_tree_refuses_mimic_cycles():
    robot = parse_urdf(mimic_urdf('<mimic joint="j2"/>', '<mimic joint="j1"/>'))
    with pytest.raises(KinematicsError, match="mimic joints form a loop: 'j1' -> 'j2' -> "
                       "'j1'") as info:
        compile_tree(robot, missing_mimic='ignore')
    assert (info.value.diagnostic.location.line, info.value.diagnostic.code) == (5, 'cycle')
    robot = parse_urdf(mimic_urdf('<mimic joint="j1"/>'))
    with pytest.raises(KinematicsError, match='mimic joints form a loop') as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5


def test_compile_tree_refuses_an_sdf_mimic_of_a_missing_joint():
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
              '<parent>a</parent><child>b</child>',
              '<axis><xyz>0 0 1</xyz><mimic joint="ghost"/></axis>', '</joint>',
              version='1.11')
    robot = parse_sdf(doc)
    with pytest.raises(KinematicsError, match="names joint 'ghost'") as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5


def test_mimic_values_that_overflow_are_kinematics_errors():
    # Finite multipliers, finite joint values, an infinite product: math.sin(inf) used to
    # escape as "ValueError: math domain error".
    robot = parse_urdf(mimic_urdf('', '<mimic joint="j1" multiplier="1e300"/>'))
    tree = compile_tree(robot)
    plan = tree.joint_state_plan(['j1'])
    q = [1e10]
    plan.update(q, [1e10])
    for call in (lambda: forward_kinematics(tree, q), lambda: tree.joint_transforms(q),
                 lambda: plan.transforms(q),
                 lambda: forward_kinematics(tree, np.full((20, 1), 1e10))):
        with pytest.raises(KinematicsError, match=r"joint 'j2': mimic value 1e\+300 \* 1e\+10 "
                           r"\+ 0 \(following 'j1'\) overflows to infinity"):
            call()
    assert np.isfinite(forward_kinematics(tree, [1.0])).all()
    with pytest.raises(KinematicsError, match="joint 'j1': joint value must be finite"):
        forward_kinematics(tree, np.full((20, 1), math.inf))


def test_mimic_chains_whose_factors_overflow_are_refused_by_compile_tree():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>', '<link name="d"/>',
               '<joint name="j1" type="continuous"><parent link="a"/><child link="b"/></joint>',
               '<joint name="j2" type="continuous"><parent link="b"/><child link="c"/>',
               '<mimic joint="j1" multiplier="1e200"/></joint>',
               '<joint name="j3" type="continuous"><parent link="c"/><child link="d"/>',
               '<mimic joint="j2" multiplier="1e200"/></joint>')
    with pytest.raises(KinematicsError, match=r"the mimic chain to 'j1' multiplies to value \* "
                       r'inf \+ 0, which is not finite') as info:
        compile_tree(parse_urdf(doc))
    assert (info.value.diagnostic.entity, info.value.diagnostic.location.line) == (
        "joint 'j3'", 9)


@pytest.mark.parametrize('value', [10 ** 400, -10 ** 400, math.inf, math.nan, 'x', None])
def test_joint_values_that_are_not_finite_floats_are_kinematics_errors(value):
    tree = compile_tree(parse_urdf(mimic_urdf('')))
    with pytest.raises(KinematicsError, match="joint 'j1': joint value must be"):
        tree.joint_vector({'j1': value})
    plan = tree.joint_state_plan(['j1', 'j2'])
    q = tree.default_q().tolist()
    with pytest.raises(KinematicsError, match="joint 'j1': joint value must be"):
        plan.update(q, [value, 0.5])
    assert q == [0.0, 0.0]
    assert tree.joint_vector({'j1': 1e308, 'j2': 1e308}).q.tolist() == [1e308, 1e308]


# --- kinematics: axes and quaternions at the ends of the float range ------------------------

@pytest.mark.parametrize('xyz', ['1e200 1e200 0', '1e-200 0 0', '1e154 1e154 1e154'])
def test_tiny_and_huge_axes_are_not_zero_and_do_not_overflow(xyz):
    urdf_doc = urdf('<link name="a"/>', '<link name="b"/>',
                    '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>',
                    f'<axis xyz="{xyz}"/></joint>')
    sdf_doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
                  f'<parent>a</parent><child>b</child><axis><xyz>{xyz}</xyz></axis>',
                  '</joint>')
    expected = np.array([float(v) for v in xyz.split()])
    expected = expected / np.abs(expected).max()
    expected = expected / np.linalg.norm(expected)
    for robot in (parse_urdf(urdf_doc), parse_sdf(sdf_doc)):
        tree = compile_tree(robot)
        pose = forward_kinematics(tree, [0.5])[tree.link_index['b']]
        rotation = pose[:3, :3]
        np.testing.assert_allclose(rotation @ expected, expected, atol=1e-12)
        assert abs(np.trace(rotation) - (1 + 2 * math.cos(0.5))) < 1e-12


def test_huge_and_tiny_joint_quaternions_rotate_like_unit_ones():
    # The squares of 1e200 overflow: the rotation used to collapse to the identity.
    doc = urdf('<link name="a"/>', '<link name="b"/>',
               '<joint name="j" type="floating"><parent link="a"/><child link="b"/></joint>')
    tree = compile_tree(parse_urdf(doc))
    expected = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], dtype=float)  # 90 deg about x
    for scale in (1e200, 1.0, 1e-200):
        q = [0.0, 0.0, 0.0, scale, 0.0, 0.0, scale]
        single = forward_kinematics(tree, q)[1, :3, :3]
        batch = forward_kinematics(tree, np.array([q] * 12))[:, 1, :3, :3]
        np.testing.assert_allclose(single, expected, atol=1e-15)
        np.testing.assert_allclose(batch, np.broadcast_to(expected, (12, 3, 3)), atol=1e-15)
        (_, quat), = tree.joint_transforms(q)
        np.testing.assert_allclose(quat, (math.sqrt(0.5), 0, 0, math.sqrt(0.5)), atol=1e-15)


# --- the converter --------------------------------------------------------------------------

def test_gazebo_reference_naming_nothing_is_a_converter_warning():
    doc = urdf('<link name="a">', f'<inertial><mass value="1"/>{INERTIA}</inertial>',
               '</link>', '<gazebo reference="ghost">', '<mu1>0.5</mu1>', '</gazebo>')
    robot = parse_urdf(doc, 'robot.urdf')
    assert robot.warnings == ()
    result = urdf_to_sdf(robot)
    assert [(w.code, str(w.location), w.message) for w in result.warnings] == [
        ('unknown-reference', 'robot.urdf:5',
         "reference 'ghost' names no link or joint; the block is ignored")]
    assert '0.5' not in result.sdf


def test_lumping_far_away_masses_is_a_diagnostic_not_a_crash():
    inertial = f'<inertial><mass value="1"/>{INERTIA}</inertial>'
    doc = urdf(f'<link name="a">{inertial}</link>', f'<link name="b">{inertial}</link>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="b"/>',
               '<origin xyz="0 0 1e308"/></joint>')
    with pytest.raises(DescriptionError, match=r"<string>:2: link 'a': its mass properties, "
                       'with the links merged into it by fixed-joint lumping, are not finite'):
        urdf_to_sdf(parse_urdf(doc))


def test_fixing_the_inertia_of_a_tiny_mass_does_not_crash_the_converter():
    doc = urdf('<link name="a">', '<inertial><mass value="1e-100"/><inertia ixx="-1" '
               'ixy="-1e-7" ixz="0" iyy="-1" iyz="0" izz="0"/></inertial>', '</link>')
    result = urdf_to_sdf(parse_urdf(doc))
    assert 'bad-inertia' in [w.code for w in result.warnings]


def test_converting_a_urdf_with_only_the_world_link_does_not_write_an_empty_model():
    robot = parse_urdf(urdf('<link name="world"/>'))
    with pytest.raises(ConversionError, match="<string>:1: robot 'r': the robot has no link "
                       "besides 'world': an SDFormat model needs at least one link"):
        urdf_to_sdf(robot)


@pytest.mark.parametrize('robot, link, joint, match', [
    ('r', '__model__', 'j', "<string>:3: link '__model__': the link name '__model__' is "
     'reserved in SDFormat'),
    ('r', 'b', '__j__', "<string>:4: joint '__j__': the joint name '__j__' is reserved"),
    ('r', 'x::b', 'j', "<string>:3: link 'x::b': link names must not contain '::' in "
     'SDFormat 1.8 and later'),
    ('world', 'b', 'j', "<string>:1: robot 'world': the model name 'world' is reserved"),
    ('r', 'b', 'j', None)])
def test_names_sdformat_cannot_read_back_are_refused(robot, link, joint, match):
    inertial = f'<inertial><mass value="1"/>{INERTIA}</inertial>'
    doc = urdf(f'<link name="a">{inertial}</link>', f'<link name="{link}">{inertial}</link>',
               f'<joint name="{joint}" type="continuous"><parent link="a"/>'
               f'<child link="{link}"/></joint>').replace('"r"', f'"{robot}"', 1)
    if match is None:  # the control: valid names convert and read back
        assert [j.name for j in parse_sdf(urdf_to_sdf(parse_urdf(doc)).sdf).joints] == [joint]
        return
    with pytest.raises(ConversionError, match=match):
        urdf_to_sdf(parse_urdf(doc))
