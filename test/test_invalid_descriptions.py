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
Invalid descriptions: each problem is reported with its message, entity and line.

Well-formed XML (or DSL) that is not a valid robot: bad numbers, wrong arity, duplicate
names, kinematic loops, several roots, dangling references, bad mimic joints, unknown joint
types, ``<gazebo>`` blocks naming nothing and invalid inertias, in URDF and, where the format
has the concept, SDFormat and the Kinematics DSL. Then the output file of ``urdf2sdf -o`` and
``sdf_tools convert -o``: never partial, never clobbered, no temporary file left, whatever
fails (the input, the write, the rename, the directory).
"""

import math
import os
from pathlib import Path
import re
import tempfile

import numpy as np
import pytest
from sdf_tools import cli
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import ConversionError
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.files import atomic
from sdf_tools.formats.kindsl.reader import parse_kindsl
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.writer import write_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.model import Inertial
from sdf_tools.model import Link
from sdf_tools.validate import check_inertial

INERTIA = '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'


def urdf(*lines: str) -> str:
    """Return a URDF whose ``<robot>`` is line 1 and ``lines`` are lines 2, 3, ..."""
    return '\n'.join(['<robot name="r">', *lines, '</robot>'])


def sdf(*lines: str, version: str = '1.9') -> str:
    """Return an SDFormat model whose ``<model>`` is line 2 and ``lines`` are lines 3, ..."""
    return '\n'.join([f'<sdf version="{version}">', '<model name="m">', *lines, '</model>',
                      '</sdf>'])


def dsl(*lines: str) -> str:
    """Return a DSL document whose ``Robot`` is line 1 and ``lines`` are lines 2, 3, ..."""
    return '\n'.join(['Robot R {', *lines, '}'])


def dsl_link(name: str, link_id: int, children: str = '', mass: str = '1',
             com: str = '(0, 0, 0)', moments: str = 'Ix=1 Iy=1 Iz=1') -> str:
    return (f'link {name} {{ id = {link_id} inertia_properties {{ mass = {mass} CoM = {com} '
            f'{moments} Ixy=0 Ixz=0 Iyz=0 }} children {{ {children} }} }}')


def dsl_joint(name: str, translation: str = '(0, 0, 1)') -> str:
    return (f'r_joint {name} {{ ref_frame {{ translation = {translation} '
            'rotation = (0, 0, 0) } }')


def single_error(error_type, func, text, match, line, entity=None, code=None, **kwargs):
    """Call ``func(text)``; assert it raises one diagnostic with this message and line."""
    with pytest.raises(error_type, match=match) as info:
        func(text, 'robot.src', **kwargs)
    d = info.value.diagnostic
    assert d.location.line == line, str(info.value)
    assert d.location.source == 'robot.src'
    if entity is not None:
        assert d.entity == entity
    if code is not None:
        assert d.code == code
    return info.value


def only_warning(robot, match, line, code):
    """Assert the model carries exactly one warning like this."""
    assert [(w.code, w.location.line) for w in robot.warnings] == [(code, line)], \
        [str(w) for w in robot.warnings]
    assert re.search(match, robot.warnings[0].message), robot.warnings[0].message


# --- numbers --------------------------------------------------------------------------------

@pytest.mark.parametrize('text, match', [
    ('nan', "<mass> value must be a number, got 'nan'"),
    ('NaN', "<mass> value must be a number, got 'NaN'"),
    ('inf', "<mass> value must be a number, got 'inf'"),
    ('-inf', "<mass> value must be a number, got '-inf'"),
    ('1e400', "<mass> value must be finite, got '1e400'"),
    ('-1e400', "<mass> value must be finite, got '-1e400'"),
    ('0x10', "<mass> value must be a number, got '0x10'"),
    ('1,5', "<mass> value must be a number, got '1,5'"),
    ('', "<mass> value must be a number, got ''"),
])
def test_urdf_refuses_numbers_that_are_not_finite_decimals(text, match):
    doc = urdf('<link name="a">', '<inertial>', f'<mass value="{text}"/>', INERTIA,
               '</inertial>', '</link>')
    single_error(DescriptionError, parse_urdf, doc, match, 4, "link 'a'", 'bad-number')


@pytest.mark.parametrize('xyz, match, code', [
    ('1 nan 0', "<origin> xyz must be 3 numbers, got '1 nan 0'", 'bad-number'),
    ('1 1e400 0', "<origin> xyz must be finite, got '1 1e400 0'", 'bad-number'),
    ('1 2', "<origin> xyz must be 3 numbers, got '1 2'", 'bad-arity'),
    ('1 2 3 4', "<origin> xyz must be 3 numbers, got '1 2 3 4'", 'bad-arity'),
])
def test_urdf_vectors_need_their_arity_and_finite_numbers(xyz, match, code):
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="fixed">',
               '<parent link="a"/>', '<child link="b"/>', f'<origin xyz="{xyz}"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, match, 7, "joint 'j'", code)


def test_urdf_colour_arity():
    doc = urdf('<material name="red">', '<color rgba="1 0 0"/>', '</material>',
               '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "<color> rgba must be 4 numbers, got '1 0 "
                 "0'", 3, code='bad-arity')


@pytest.mark.parametrize('text, match, code', [
    ('1e400', "<mass> must be finite, got '1e400'", 'bad-number'),
    ('nan', "<mass> must be a number, got 'nan'", 'bad-number'),
    ('1 2', "<mass> must be a number, got '1 2'", 'bad-number'),
])
def test_sdf_refuses_numbers_that_are_not_finite_decimals(text, match, code):
    doc = sdf('<link name="a">', '<inertial>', f'<mass>{text}</mass>', '</inertial>',
              '</link>')
    single_error(DescriptionError, parse_sdf, doc, match, 5, "link 'a'", code)


@pytest.mark.parametrize('pose, match, code', [
    ('1 2 3 4 5', "<pose> must be 6 numbers, got '1 2 3 4 5'", 'bad-arity'),
    ('0 0 inf 0 0 0', "<pose> must be 6 numbers, got '0 0 inf 0 0 0'", 'bad-number'),
    ('0 0 1e400 0 0 0', "<pose> must be finite, got '0 0 1e400 0 0 0'", 'bad-number'),
])
def test_sdf_poses_need_six_finite_numbers(pose, match, code):
    doc = sdf('<link name="a">', f'<pose>{pose}</pose>', '</link>')
    single_error(DescriptionError, parse_sdf, doc, match, 4, "link 'a'", code)


@pytest.mark.parametrize('mass, match', [
    ('1e400', 'the expression starting at column 45 does not evaluate to a finite number'),
    ('1e200 * 1e200', 'the expression starting at column 45 does not evaluate to a finite'),
    ('1 / 0', 'division by zero at column 47'),
])
def test_dsl_refuses_expressions_that_are_not_finite(mass, match):
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1, mass=mass),
              dsl_joint('j'))
    single_error(DescriptionError, parse_kindsl, doc, match, 3, "link 'a'", 'bad-number')


@pytest.mark.parametrize('com, match', [
    ('(0, 0)', r"expected ',' \(a 3-vector has three numbers\), got '\)'"),
    ('(0, 0, 0, 0)', r"expected '\)' to close the 3-vector \(it has three numbers\)"),
])
def test_dsl_vectors_have_three_numbers(com, match):
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1, com=com),
              dsl_joint('j'))
    single_error(DescriptionError, parse_kindsl, doc, match, 3, "link 'a'", 'syntax')


def test_dsl_inertia_that_overflows_at_the_centre_of_mass_is_an_error():
    # Finite inputs whose parallel-axis shift overflows (it used to reach numpy's eigvalsh
    # as -inf and raise LinAlgError).
    doc = dsl('RobotBase base { children { a via j } }',
              dsl_link('a', 1, mass='2', com='(1e308, 0, 0)'), dsl_joint('j'))
    single_error(DescriptionError, parse_kindsl, doc, 'moving the moments of inertia to the '
                 'centre of mass overflows', 3, "link 'a'", 'bad-number')


def test_dsl_parameters_must_be_finite_real_numbers():
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1, mass='p'),
              dsl_joint('j'))
    for value in (math.nan, math.inf, True, '1', 10 ** 400):
        with pytest.raises(TypeError, match="parameter 'p' must be a finite number"):
            parse_kindsl(doc, parameters={'p': value})
    assert parse_kindsl(doc, parameters={'p': 2}).links[1].inertial.mass == 2.0


# --- names and structure --------------------------------------------------------------------

def test_duplicate_names_in_urdf():
    doc = urdf('<link name="a"/>', '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "link name 'a' is used more than once", 3,
                 "link 'a'", 'duplicate-name')
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="c"/></joint>')
    single_error(DescriptionError, parse_urdf, doc, "joint name 'j' is used more than once", 6,
                 "joint 'j'", 'duplicate-name')
    doc = urdf('<material name="red"><color rgba="1 0 0 1"/></material>',
               '<material name="red"><color rgba="0 1 0 1"/></material>', '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "material 'red' is defined more than once",
                 3, code='duplicate-name')


def test_duplicate_names_in_sdf_and_dsl():
    doc = sdf('<link name="a"/>', '<link name="a"/>')
    single_error(DescriptionError, parse_sdf, doc, "link name 'a' is used more than once in "
                 "model 'm'", 4, "link 'a'", 'duplicate-name')
    doc = sdf('<link name="a"/>', '<frame name="a"/>')
    single_error(DescriptionError, parse_sdf, doc, "has the same name as a link of model 'm'",
                 4, "frame 'a'", 'duplicate-name')
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1), dsl_link('a', 2),
              dsl_joint('j'))
    error = single_error(DescriptionError, parse_kindsl, doc, "link name 'a' is used more than "
                         r'once \(first on line 3\)', 4, "link 'a'", 'duplicate-name')
    assert len(error.diagnostics) == 1


@pytest.mark.parametrize('canonical', ['__model__', 'f', 'n', 'n::__model__'])
def test_sdf_canonical_link_that_is_not_a_link(canonical):
    # '__model__' named the model frame itself, which is no vertex: KeyError.
    doc = sdf('<link name="a"/>', '<frame name="f"/>',
              '<model name="n"><link name="b"/></model>').replace(
        '<model name="m">', f'<model name="m" canonical_link="{canonical}">')
    single_error(DescriptionError, parse_sdf, doc, f"canonical_link names '{canonical}', "
                 'which is not a link', 2, "model 'm'", 'bad-canonical-link')


def test_kinematic_loops():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>',
               '<joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>',
               '<joint name="cb" type="fixed"><parent link="c"/><child link="b"/></joint>')
    error = single_error(DescriptionError, parse_urdf, doc, "link 'b' is already the child of "
                         "joint 'ab'", 7, "joint 'cb'", 'several-parents')
    doc = urdf('<link name="a"/>', '<link name="b"/>',
               '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>',
               '<joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>')
    error = single_error(DescriptionError, parse_urdf, doc, 'no root link: every link is the '
                         r'child of a joint \(the joints form a loop\)', 1, "robot 'r'", 'no-root')
    codes = [(d.code, d.location.line) for d in error.diagnostics]
    assert codes == [('no-root', 1), ('cycle', 5)]
    assert "the joints form a kinematic loop through links 'a' -> 'b' -> 'a'" in str(error)
    doc = sdf('<link name="a"/>', '<link name="b"/>',
              '<joint name="ab" type="fixed"><parent>a</parent><child>b</child></joint>',
              '<joint name="ba" type="fixed"><parent>b</parent><child>a</child></joint>')
    single_error(DescriptionError, parse_sdf, doc, 'the joints form a kinematic loop through '
                 "links 'a' -> 'b' -> 'a'", 6, "joint 'ba'", 'cycle')
    doc = urdf('<link name="a"/>',
               '<joint name="aa" type="fixed"><parent link="a"/><child link="a"/></joint>')
    single_error(DescriptionError, parse_urdf, doc, "parent and child are the same link 'a'",
                 3, "joint 'aa'", 'cycle')


def test_kinematic_loops_in_dsl():
    # base - a, and a loop b -> c -> b hanging off nothing.
    doc = dsl('RobotBase base { children { a via ja } }', dsl_link('a', 1),
              dsl_link('b', 2, 'c via jc'), dsl_link('c', 3, 'b via jb'),
              dsl_joint('ja'), dsl_joint('jb'), dsl_joint('jc'))
    single_error(DescriptionError, parse_kindsl, doc, 'the joints form a kinematic loop through '
                 "links 'b' -> 'c' -> 'b'", 7, "joint 'jb'", 'cycle')
    doc = dsl('RobotBase base { children { a via ja } }', dsl_link('a', 1, 'a via jb'),
              dsl_joint('ja'), dsl_joint('jb'))
    single_error(DescriptionError, parse_kindsl, doc, "children: link 'a' cannot be its own "
                 'child', 3, "link 'a'", 'cycle')


def test_several_roots():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>')
    single_error(DescriptionError, parse_urdf, doc, r"2 root links \('a', 'c'\): a description "
                 'needs exactly one link that is not the child of a joint', 1, "robot 'r'",
                 'several-roots')
    doc = dsl('RobotBase base { children { a via ja } }', dsl_link('a', 1), dsl_link('b', 2),
              dsl_joint('ja'))
    single_error(DescriptionError, parse_kindsl, doc, 'is not the child of any link', 4,
                 "link 'b'", 'no-parent')
    # SDFormat models may have several root links.
    robot = parse_sdf(sdf('<link name="a"/>', '<link name="b"/>'))
    assert [link.name for link in robot.links] == ['a', 'b']


def test_joints_naming_missing_links():
    doc = urdf('<link name="a"/>', '<joint name="j" type="fixed">', '<parent link="a"/>',
               '<child link="ghost"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, "child link 'ghost' is not defined", 3,
                 "joint 'j'", 'missing-link')
    doc = urdf('<link name="b"/>', '<joint name="j" type="fixed">', '<parent link="ghost"/>',
               '<child link="b"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, "parent link 'ghost' is not defined", 3,
                 "joint 'j'", 'missing-link')
    doc = sdf('<link name="a"/>', '<joint name="j" type="fixed">', '<parent>a</parent>',
              '<child>ghost</child>', '</joint>')
    single_error(DescriptionError, parse_sdf, doc, "<child> names 'ghost', which does not exist "
                 "in model 'm'", 6, "joint 'j'", 'missing-frame')
    doc = dsl('RobotBase base { children { ghost via j } }', dsl_joint('j'))
    error = single_error(DescriptionError, parse_kindsl, doc, "children: 'ghost via j' names "
                         "link 'ghost', which is not defined", 2, "link 'base'", 'missing-link')
    assert [d.code for d in error.diagnostics] == ['missing-link', 'unused-joint']


@pytest.mark.parametrize('kind, allowed', [('bogus', 'URDF'), ('ball', 'URDF'),
                                           ('', 'URDF')])
def test_unknown_joint_types_in_urdf(kind, allowed):
    doc = urdf('<link name="a"/>', '<link name="b"/>', f'<joint name="j" type="{kind}">',
               '<parent link="a"/><child link="b"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, f"unknown joint type '{kind}' \\({allowed} "
                 'has revolute, continuous, prismatic, fixed, floating, planar\\)', 4,
                 "joint 'j'", 'bad-joint-type')


def test_unknown_joint_types_in_sdf_and_dsl():
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="planar">',
              '<parent>a</parent><child>b</child>', '</joint>')
    single_error(DescriptionError, parse_sdf, doc, r"unknown joint type 'planar' \(SDFormat "
                 'has revolute, continuous', 5, "joint 'j'", 'bad-joint-type')
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1),
              dsl_joint('j').replace('r_joint', 'x_joint'))
    single_error(DescriptionError, parse_kindsl, doc, "expected 'RobotBase', 'link', 'r_joint', "
                 "'p_joint' or '}', got 'x_joint'", 4, "robot 'R'", 'syntax')


# --- mimic joints: the reader warns, compile_tree refuses -----------------------------------

def mimic_urdf(first_mimic: str, second_mimic: str = '') -> str:
    return urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
                '<joint name="j1" type="continuous">',
                '<parent link="a"/><child link="b"/>', first_mimic, '</joint>',
                '<joint name="j2" type="continuous">',
                '<parent link="b"/><child link="c"/>', second_mimic, '</joint>')


def test_mimic_of_a_missing_joint_warns_then_compile_tree_refuses():
    robot = parse_urdf(mimic_urdf('<mimic joint="ghost"/>'))
    only_warning(robot, "<mimic> names joint 'ghost', which does not exist", 5, 'missing-joint')
    with pytest.raises(KinematicsError, match="<mimic> names joint 'ghost', which does not "
                       'exist') as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5
    assert info.value.diagnostic.entity == "joint 'j1'"
    tree = compile_tree(robot, missing_mimic='ignore')
    assert tree.coordinate_names == ('j1', 'j2')


def test_mimic_cycle_warns_then_compile_tree_refuses():
    robot = parse_urdf(mimic_urdf('<mimic joint="j2"/>', '<mimic joint="j1"/>'))
    only_warning(robot, "mimic joints form a loop: 'j1' -> 'j2' -> 'j1'", 5, 'cycle')
    with pytest.raises(KinematicsError, match="mimic joints form a loop: 'j1' -> 'j2' -> "
                       "'j1'") as info:
        compile_tree(robot, missing_mimic='ignore')
    assert (info.value.diagnostic.location.line, info.value.diagnostic.code) == (5, 'cycle')
    robot = parse_urdf(mimic_urdf('<mimic joint="j1"/>'))
    only_warning(robot, '<mimic> names the joint itself', 5, 'cycle')
    with pytest.raises(KinematicsError, match='mimic joints form a loop') as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5


def test_sdf_mimic_of_a_missing_joint_warns_then_compile_tree_refuses():
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
              '<parent>a</parent><child>b</child>',
              '<axis><xyz>0 0 1</xyz><mimic joint="ghost"/></axis>', '</joint>',
              version='1.11')
    robot = parse_sdf(doc)
    only_warning(robot, "<mimic> names joint 'ghost', which does not exist", 5, 'missing-joint')
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


# --- axes and inertias ----------------------------------------------------------------------

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


def test_huge_and_tiny_quaternions_in_sdf_are_normalised():
    for scale in ('1e200', '1e-200'):
        doc = sdf('<link name="a">', f'<pose rotation_format="quat_xyzw">0 0 0 {scale} 0 0 '
                  f'{scale}</pose>', '</link>')
        quat = parse_sdf(doc).links[0].pose.quat
        np.testing.assert_allclose(quat, (math.sqrt(0.5), 0, 0, math.sqrt(0.5)), atol=1e-15)


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


@pytest.mark.parametrize('moments, match', [
    ('ixx="-1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"',
     r'<inertia> is not positive semi-definite \(principal moments -1, 1, 1\)'),
    ('ixx="1" ixy="2" ixz="0" iyy="1" iyz="0" izz="1"',
     r'<inertia> is not positive semi-definite \(principal moments -1, 1, 3\)'),
    ('ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"',
     r'<inertia> violates the triangle inequality \(principal moments 1, 1, 3\)'),
])
def test_invalid_inertias_warn_with_their_line(moments, match):
    doc = urdf('<link name="a">', f'<inertial><mass value="1"/><inertia {moments}/>'
               '</inertial>', '</link>')
    only_warning(parse_urdf(doc), match, 2, 'bad-inertia')
    pairs = (p.replace('"', '').split('=') for p in moments.split())
    tensor = ''.join(f'<{k}>{v}</{k}>' for k, v in pairs)
    doc = sdf('<link name="a">', f'<inertial><mass>1</mass><inertia>{tensor}</inertia>'
              '</inertial>', '</link>')
    only_warning(parse_sdf(doc), match, 3, 'bad-inertia')


def test_non_finite_inertials_are_errors_for_every_reader():
    # Readers refuse non-finite numbers; a model built otherwise is still checked (numpy's
    # eigvalsh raised LinAlgError on it).
    reporter = Reporter()
    for inertial in (Inertial(math.inf), Inertial(1.0, ixx=math.nan, iyy=1.0, izz=1.0),
                     Inertial(1.0, ixy=-math.inf)):
        check_inertial(Link('a', inertial, location=SourceLocation('m', 7)), reporter)
    assert [(d.code, d.location.line, d.message) for d in reporter.errors] == [
        ('bad-number', 7, '<inertial> mass and inertia must be finite')] * 3
    assert reporter.warnings == []


def test_negative_mass_warns():
    doc = urdf('<link name="a">', f'<inertial><mass value="-2"/>{INERTIA}</inertial>', '</link>')
    only_warning(parse_urdf(doc), r'<mass> is negative \(-2 kg\)', 2, 'negative-mass')


def test_dsl_inertia_that_is_negative_at_the_centre_of_mass_warns():
    doc = dsl('RobotBase base { children { a via j } }',
              dsl_link('a', 1, com='(1, 0, 0)', moments='Ix=0.1 Iy=0.1 Iz=0.1'),
              dsl_joint('j'))
    robot = parse_kindsl(doc)
    assert [(w.code, w.location.line) for w in robot.warnings] == [('bad-inertia', 3)] * 2
    assert re.match('moving the moments of inertia to the centre of mass makes one negative '
                    r'\(ixx 0.1, iyy -0.9, izz -0.9\)', robot.warnings[0].message)
    assert re.match(r'<inertia> is not positive semi-definite \(principal moments -0.9, -0.9, '
                    r'0.1\)', robot.warnings[1].message)


def test_tiny_products_of_inertia_do_not_crash_the_reader():
    doc = urdf('<link name="a">', '<inertial><mass value="1"/><inertia ixx="0" ixy="1e-120" '
               'ixz="0" iyy="0" iyz="0" izz="0"/></inertial>', '</link>')
    robot = parse_urdf(doc)
    assert [w.code for w in robot.warnings] == ['bad-inertia']


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


# --- writers: what cannot be written is an error, never unreadable output -------------------

def test_sdf_thread_pitch_too_small_to_invert_is_an_error():
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="screw">',
              '<parent>a</parent><child>b</child>', '<thread_pitch>4.9e-324</thread_pitch>',
              '</joint>', version='1.9')
    single_error(DescriptionError, parse_sdf, doc, r'<thread_pitch> 4.94066e-324 is too small: '
                 r'the pitch in metres, -2 pi / thread_pitch, overflows', 7, "joint 'j'",
                 'bad-number')


def test_write_sdf_refuses_poses_that_overflow_and_pitches_it_cannot_invert():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/>',
               '<origin xyz="1e308 0 0"/></joint>',
               '<joint name="bc" type="fixed"><parent link="b"/><child link="c"/>',
               '<origin xyz="1e308 0 0"/></joint>')
    with pytest.raises(ConversionError, match='its pose in the model frame is not finite') \
            as info:
        write_sdf(parse_urdf(doc, 'robot.urdf'))
    assert (info.value.diagnostic.entity, str(info.value.diagnostic.location)) == (
        "link 'c'", 'robot.urdf:4')
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="screw">',
              '<parent>a</parent><child>b</child>',
              '<screw_thread_pitch>1e-320</screw_thread_pitch>', '</joint>', version='1.10')
    robot = parse_sdf(doc)
    assert 'screw_thread_pitch' in write_sdf(robot, version='1.10')
    with pytest.raises(ConversionError, match=r'a screw pitch of 9.99989e-321 cannot be written '
                       r'as <thread_pitch> \(before SDFormat 1.10\)'):
        write_sdf(robot, version='1.9')


@pytest.mark.parametrize('doc, match', [
    (urdf('<link name="world"/>'), 'the model would hold no link'),
    ('<robot name="world"><link name="a"/></robot>', "the model name 'world' is reserved"),
    ('<robot name="__model__"><link name="a"/></robot>', "the model name '__model__' is "
     'reserved'),
    ('<robot name="a::b"><link name="a"/></robot>', "must not contain '::'"),
])
def test_write_sdf_refuses_models_sdformat_cannot_read_back(doc, match):
    robot = parse_urdf(doc)
    with pytest.raises(ConversionError, match=match):
        write_sdf(robot)


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


# --- output files: never partial, never clobbered -------------------------------------------

GOOD = urdf('<link name="a">', f'<inertial><mass value="1"/>{INERTIA}</inertial>', '</link>')
BAD = urdf('<link name="a">', '<inertial><mass value="nan"/></inertial>', '</link>')


def leftovers(directory: Path) -> list:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith('.tmp'))


def run_cli(argv, capsys):
    code = cli.main(argv) if argv[0] == 'convert' else cli.urdf2sdf_main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def commands(source: Path, output: Path):
    return ([str(source), '-o', str(output)],
            ['convert', str(source), '--to', 'sdf', '-o', str(output)])


def test_an_invalid_input_leaves_an_existing_output_untouched(tmp_path, capsys):
    source = tmp_path / 'bad.urdf'
    source.write_text(BAD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')
    for argv in commands(source, output):
        code, out, err = run_cli(argv, capsys)
        assert code == 1 and out == ''
        assert "bad.urdf:3: link 'a': <mass> value must be a number, got 'nan'" in err
        assert 'Traceback' not in err
        assert output.read_text() == 'previous content'
        assert leftovers(tmp_path) == []


@pytest.mark.parametrize('fail_in', ['write', 'fsync', 'replace'])
def test_a_failure_while_writing_leaves_no_partial_file(tmp_path, capsys, monkeypatch, fail_in):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')

    def no_space(*args, **kwargs):
        raise OSError(28, 'No space left on device')

    if fail_in == 'write':
        real_fdopen = os.fdopen

        class Failing:
            """A file whose write fails half way, as a full disk does."""

            def __init__(self, *args, **kwargs):
                self.file = real_fdopen(*args, **kwargs)

            def write(self, text):
                self.file.write(text[:len(text) // 2])
                self.file.flush()
                no_space()

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.file.close()
                return False

            def __getattr__(self, name):
                return getattr(self.file, name)

        monkeypatch.setattr(atomic.os, 'fdopen', Failing)
    else:
        monkeypatch.setattr(atomic.os, fail_in, no_space)
    for argv in commands(source, output):
        code, out, err = run_cli(argv, capsys)
        assert code == 1, err
        assert 'No space left on device' in err and 'Traceback' not in err
        assert output.read_text() == 'previous content'
        assert leftovers(tmp_path) == []
    monkeypatch.undo()
    code, _, err = run_cli(commands(source, output)[0], capsys)
    assert code == 0, err
    assert '<sdf version="1.9">' in output.read_text() and leftovers(tmp_path) == []


def test_an_interrupted_write_leaves_no_partial_file(tmp_path, capsys, monkeypatch):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, 'fsync', interrupt)
    code, _, _ = run_cli(commands(source, output)[0], capsys)
    assert code == 130
    assert output.read_text() == 'previous content' and leftovers(tmp_path) == []


@pytest.mark.skipif(os.geteuid() == 0, reason='root writes into read-only directories; the '
                    'next test simulates it')
def test_a_read_only_directory_is_reported_and_left_alone(tmp_path, capsys):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    locked = tmp_path / 'locked'
    locked.mkdir()
    output = locked / 'out.sdf'
    output.write_text('previous content')
    locked.chmod(0o555)
    try:
        for argv in commands(source, output):
            code, _, err = run_cli(argv, capsys)
            assert code == 1 and 'Permission denied' in err and 'Traceback' not in err
            assert output.read_text() == 'previous content' and leftovers(locked) == []
    finally:
        locked.chmod(0o755)


def test_an_unwritable_directory_is_reported_and_left_alone(tmp_path, capsys, monkeypatch):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')

    def denied(*args, **kwargs):
        raise PermissionError(13, 'Permission denied', str(tmp_path))

    monkeypatch.setattr(tempfile, 'mkstemp', denied)
    for argv in commands(source, output):
        code, _, err = run_cli(argv, capsys)
        assert code == 1 and 'Permission denied' in err and 'Traceback' not in err
        assert output.read_text() == 'previous content' and leftovers(tmp_path) == []


def test_output_in_a_read_only_file_system_or_missing_directory(tmp_path, capsys):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    for output in ('/proc/sdf_tools_out.sdf', str(tmp_path / 'missing' / 'out.sdf'),
                   str(tmp_path)):
        for argv in commands(source, Path(output)):
            code, out, err = run_cli(argv, capsys)
            assert code == 1 and out == '', err
            assert err.startswith('Error: ') and 'Traceback' not in err, err
    assert not (tmp_path / 'missing').exists() and leftovers(tmp_path) == []
