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

"""Tests of the RobCoGen Kinematics-DSL reader (sdf_tools.formats.kindsl.reader)."""

import math
import re

from chain_fk import chain_fk
from chain_fk import FK_FUNCTIONS
from chain_fk import rot
from diagnostics import dsl
from diagnostics import dsl_joint
from diagnostics import dsl_link
from diagnostics import single_error
import numpy as np
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.kindsl.reader import inertial_from_kindsl
from sdf_tools.formats.kindsl.reader import MAX_EXPRESSION_DEPTH
from sdf_tools.formats.kindsl.reader import parse_kindsl
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from support import DATA_DIR

KINDSL_DIR = DATA_DIR / 'kindsl'
FANCY_JOINTS = ('jA', 'jB', 'jC', 'jD', 'jE')
PI = math.pi
X, Y, Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)


def read(name, **kwargs):
    path = KINDSL_DIR / name
    return parse_kindsl(path.read_text(), name, **kwargs)


def fancy():
    return read('fancy.kindsl')


def robot_text(link_body='', joint_body=None, extra=''):
    """Return a two-link document with ``link_body`` inside link ``arm``."""
    if joint_body is None:
        joint_body = 'ref_frame { translation = (0, 0, 0) rotation = (0, 0, 0) }'
    return ('Robot R {\n'
            'RobotBase base { children { arm via j } }\n'
            'link arm {\n'
            'id = 1\n'
            'inertia_properties { mass = 1 CoM = (0, 0, 0) Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }\n'
            'children {}\n'
            f'{link_body}\n'
            '}\n'
            f'r_joint j {{ {joint_body} }}\n'
            f'{extra}'
            '}\n')


def x_value(expression, **kwargs):
    """Return the x translation the reader computes for ``expression``."""
    text = robot_text(joint_body=f'ref_frame {{ translation = ({expression}, 0, 0) '
                      'rotation = (0, 0, 0) }')
    return parse_kindsl(text, **kwargs).joint('j').origin.xyz[0]


def raises(text, match, line, **kwargs):
    """Assert that reading ``text`` fails with ``match`` at ``line``; return the error."""
    with pytest.raises(DescriptionError, match=match) as info:
        parse_kindsl(text, 'robot.kindsl', **kwargs)
    matching = [d for d in info.value.diagnostics if d.location.line == line]
    assert matching, f'no diagnostic on line {line}: {info.value}'
    return info.value


# --- the acceptance test: Fancy, forward kinematics derived by hand ------------------------
#
# The joints of Fancy, from their ref_frame blocks (translation first, then intrinsic
# X-Y-Z rotations; the joint moves about / along its frame's z axis):
#
#   jA: X = I                       link1 = base0 @ Rz(q1)
#   jB: X = T(1, 0, 0) @ Rx(-pi/2)  link2 = link1 @ X @ Tz(q2)
#   jC: X = T(0, 0, 1)              link3 = link2 @ X @ Rz(q3)
#   jD: X = T(1, 0, 0) @ Rx(pi/2)   link4 = link3 @ X @ Tz(q4)
#   jE: X = T(0, 0, 1)              link5 = link4 @ X @ Rz(q5)
#   frame ee = link5 @ T(1, 0, 0)
#
# With ci = cos(qi), si = sin(qi) and Rx(-pi/2) (x, y, z) = (x, z, -y),
# Rx(pi/2) (x, y, z) = (x, -z, y):
#
#   R1 = Rz(q1)                                   p1 = 0
#   R2 = Rz(q1) Rx(-pi/2)                         p2 = Rz(q1) (1, 0, 0) + R2 (0, 0, q2)
#                                                    = (c1 - s1 q2, s1 + c1 q2, 0)
#   R3 = R2 Rz(q3)                                p3 = p2 + R2 (0, 0, 1) = p2 + Rz(q1) (0, 1, 0)
#                                                    = (c1 - s1 (1 + q2), s1 + c1 (1 + q2), 0)
#   R4 = R3 Rx(pi/2) = Rz(q1) Ry(q3)              p4 = p3 + R3 (1, 0, 0) + R4 (0, 0, q4)
#        (Rx(-pi/2) Rz(q3) Rx(pi/2) is the rotation by q3 about Rx(-pi/2) z = y)
#                                                    = p3 + (c1 c3, s1 c3, -s3)
#                                                         + q4 (c1 s3, s1 s3, c3)
#   R5 = R4 Rz(q5)                                p5 = p4 + R4 (0, 0, 1) = p4 + (c1 s3, s1 s3, c3)
#   Ree = R5                                      pee = p5 + R5 (1, 0, 0)
#                                                     = p5 + (c1 c3 c5 - s1 s5,
#                                                             s1 c3 c5 + c1 s5, -s3 c5)


def fancy_by_hand(q1, q2, q3, q4, q5):
    """Return ``{name: (R, p)}`` from the closed form above."""
    c1, s1, c3, s3, c5, s5 = (math.cos(q1), math.sin(q1), math.cos(q3), math.sin(q3),
                              math.cos(q5), math.sin(q5))
    r1 = rot(Z, q1)[:3, :3]
    r2 = r1 @ rot(X, -PI / 2)[:3, :3]
    r3 = r2 @ rot(Z, q3)[:3, :3]
    r4 = r1 @ rot(Y, q3)[:3, :3]
    r5 = r4 @ rot(Z, q5)[:3, :3]
    p2 = np.array([c1 - s1 * q2, s1 + c1 * q2, 0.0])
    p3 = np.array([c1 - s1 * (1 + q2), s1 + c1 * (1 + q2), 0.0])
    p4 = p3 + np.array([c1 * c3, s1 * c3, -s3]) + q4 * np.array([c1 * s3, s1 * s3, c3])
    p5 = p4 + np.array([c1 * s3, s1 * s3, c3])
    pee = p5 + np.array([c1 * c3 * c5 - s1 * s5, s1 * c3 * c5 + c1 * s5, -s3 * c5])
    return {'base0': (np.eye(3), np.zeros(3)), 'link1': (r1, np.zeros(3)), 'link2': (r2, p2),
            'link3': (r3, p3), 'link4': (r4, p4), 'link5': (r5, p5), 'ee': (r5, pee)}


def assert_fk(poses, expected):
    for name, (r, p) in expected.items():
        np.testing.assert_allclose(poses[name][:3, 3], p, atol=1e-12, err_msg=name)
        np.testing.assert_allclose(poses[name][:3, :3], r, atol=1e-12, err_msg=name)


def test_fancy_structure():
    robot = fancy()
    assert robot.name == 'Fancy'
    assert robot.source_format == 'kindsl'
    names = ['base0', 'link1', 'link2', 'link3', 'link4', 'link5']
    assert [link.name for link in robot.links] == names
    assert [(j.name, j.kind, j.parent, j.child) for j in robot.joints] == [
        ('jA', JointType.REVOLUTE, 'base0', 'link1'),
        ('jB', JointType.PRISMATIC, 'link1', 'link2'),
        ('jC', JointType.REVOLUTE, 'link2', 'link3'),
        ('jD', JointType.PRISMATIC, 'link3', 'link4'),
        ('jE', JointType.REVOLUTE, 'link4', 'link5')]
    for joint in robot.joints:
        assert joint.axis == Z
        assert joint.limit is None
        assert joint.joint_in_child.is_identity()
    assert [(f.name, f.attached_to, f.pose.xyz) for f in robot.frames] == [
        ('ee', 'link5', (1.0, 0.0, 0.0))]
    assert robot.joint('jB').location.line == 86
    assert robot.link('link3').location.line == 43
    assert robot.warnings == ()


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
def test_fancy_fk_zero_configuration(fk):
    # q = 0: link2 = T(1,0,0) Rx(-pi/2): its z axis is world +y, so link3 is 1 m along +y
    # from link2; jD's Rx(pi/2) undoes the rotation, link4 is 1 m along x from link3 and
    # link5 1 m above link4; ee is 1 m along link5's x.
    rx_m90 = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, -1.0, 0.0]])
    expected = {
        'link1': (np.eye(3), [0.0, 0.0, 0.0]),
        'link2': (rx_m90, [1.0, 0.0, 0.0]),
        'link3': (rx_m90, [1.0, 1.0, 0.0]),
        'link4': (np.eye(3), [2.0, 1.0, 0.0]),
        'link5': (np.eye(3), [2.0, 1.0, 1.0]),
        'ee': (np.eye(3), [3.0, 1.0, 1.0]),
    }
    assert_fk(fk(fancy()), expected)
    assert_fk(fk(fancy()), fancy_by_hand(0, 0, 0, 0, 0))


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
def test_fancy_fk_hand_computed_numbers(fk):
    # q = (pi/2, 0.5, -pi/4, 0.2, pi/3): c1 = 0, s1 = 1, c3 = -s3 = sqrt(2)/2 = h,
    # c5 = 1/2, s5 = sqrt(3)/2.
    # p2 = (-q2, 1, 0) = (-0.5, 1, 0);  p3 = (-(1 + q2), 1, 0) = (-1.5, 1, 0)
    # p4 = p3 + (0, c3, -s3) + q4 (0, s3, c3) = (-1.5, 1 + 0.8 h, 1.2 h)
    # p5 = p4 + (0, s3, c3) = (-1.5, 1 - 0.2 h, 2.2 h)
    # pee = p5 + (-s5, c3 c5, -s3 c5) = (-1.5 - sqrt(3)/2, 1 + 0.3 h, 2.7 h)
    q = dict(zip(FANCY_JOINTS, (PI / 2, 0.5, -PI / 4, 0.2, PI / 3)))
    h = math.sqrt(0.5)
    poses = fk(fancy(), q)
    np.testing.assert_allclose(poses['link2'][:3, 3], [-0.5, 1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(poses['link3'][:3, 3], [-1.5, 1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(poses['link4'][:3, 3], [-1.5, 1.0 + 0.8 * h, 1.2 * h],
                               atol=1e-12)
    np.testing.assert_allclose(poses['link5'][:3, 3], [-1.5, 1.0 - 0.2 * h, 2.2 * h],
                               atol=1e-12)
    np.testing.assert_allclose(poses['ee'][:3, 3],
                               [-1.5 - math.sqrt(3) / 2, 1.0 + 0.3 * h, 2.7 * h], atol=1e-12)
    np.testing.assert_allclose(poses['ee'][:3, 3], [-2.3660254037844384, 1.2121320343559643,
                                                    1.9091883092036785], atol=1e-12)
    # R4 = Rz(pi/2) Ry(-pi/4): link4's z axis is Rz(pi/2) (s3, 0, c3) = (0, -h, h).
    np.testing.assert_allclose(poses['link4'][:3, 2], [0.0, -h, h], atol=1e-12)
    assert_fk(poses, fancy_by_hand(*q.values()))


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
@pytest.mark.parametrize('values', [(-0.3, -0.25, 1.1, 0.4, -2.0), (3.0, 1.5, -2.5, -0.7, 0.1)])
def test_fancy_fk_closed_form(values, fk):
    assert_fk(fk(fancy(), dict(zip(FANCY_JOINTS, values))), fancy_by_hand(*values))


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
def test_fancy_through_urdf_has_the_same_fk(fk):
    robot = fancy()
    text, _ = write_urdf(robot, unlimited_prismatic=Limit(-2.0, 2.0, 100.0, 1.0))
    again = parse_urdf(text, 'fancy.urdf')
    # Revolute joints without limits are URDF continuous joints; frames are links.
    assert again.joint('jA').kind is JointType.CONTINUOUS
    assert again.joint('jB').limit == Limit(-2.0, 2.0, 100.0, 1.0)
    for values in [(0, 0, 0, 0, 0), (PI / 2, 0.5, -PI / 4, 0.2, PI / 3),
                   (-0.3, -0.25, 1.1, 0.4, -2.0)]:
        q = dict(zip(FANCY_JOINTS, values))
        before, after = fk(robot, q), chain_fk(again, q)
        assert set(before) == set(after)
        for name in before:
            np.testing.assert_allclose(after[name], before[name], atol=1e-12, err_msg=name)
    for link in robot.links:
        a, b = link.inertial, again.link(link.name).inertial
        assert (a.mass, a.ixx, a.iyy, a.izz, a.origin.xyz) == (
            b.mass, b.ixx, b.iyy, b.izz, b.origin.xyz)


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
def test_floating_tree_through_urdf_has_the_same_fk(fk):
    params = {'shin_length': 0.4, 'hip_offset': 0.1}
    robot = read('floating_tree.kindsl', parameters=params)
    again = parse_urdf(write_urdf(robot, unlimited_prismatic=Limit(0.0, 0.1, 1.0, 1.0))[0])
    assert again.joint('world_to_trunk').kind is JointType.FLOATING
    q = {'j_hip_l': 0.7, 'j_knee_l': -1.2, 'j_hip_r': 0.05}
    before, after = fk(robot, q), fk(again, q)
    for name in before:
        np.testing.assert_allclose(after[name], before[name], atol=1e-12, err_msg=name)


# --- parameters and text: what parse_kindsl takes ------------------------------------------

def test_unused_parameters_warn():
    robot = parse_kindsl(robot_text(), parameters={'typo': 1.0})
    assert [w.code for w in robot.warnings] == ['unused-parameter']
    assert "'typo'" in robot.warnings[0].message


def test_parameter_values_must_be_numbers():
    with pytest.raises(TypeError, match="parameter 'a' must be a finite number"):
        parse_kindsl(robot_text(), parameters={'a': 'one'})
    with pytest.raises(TypeError, match="parameter 'a'"):
        parse_kindsl(robot_text(), parameters={'a': math.inf})
    with pytest.raises(TypeError, match="parameter 'a'"):
        parse_kindsl(robot_text(), parameters={'a': True})


def test_bytes_and_bom():
    robot = parse_kindsl(('\ufeff' + robot_text()).encode('utf-8'), 'r.kindsl')
    assert robot.name == 'R'
    with pytest.raises(DescriptionError, match='not UTF-8'):
        parse_kindsl(b'Robot \xff {}')
    with pytest.raises(DescriptionError, match='more than the limit'):
        parse_kindsl(robot_text(), max_bytes=10)
    with pytest.raises(TypeError):
        parse_kindsl(None)


# --- semantic errors: all collected, each with its line ------------------------------------

TWO_LINKS = """Robot R {
RobotBase base { children { a via ja } }
link a {
  id = 1
  inertia_properties { mass = 1 CoM = (0, 0, 0) Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }
  children { b via jb }
}
link b {
  id = 2
  inertia_properties { mass = 1 CoM = (0, 0, 0) Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }
  children { }
}
r_joint ja { ref_frame { translation = (0, 0, 0) rotation = (0, 0, 0) } }
p_joint jb { ref_frame { translation = (0, 0, 0) rotation = (0, 0, 0) } }
}
"""


def test_two_links_template_is_valid():
    robot = parse_kindsl(TWO_LINKS)
    assert [(j.name, j.parent, j.child) for j in robot.joints] == [('ja', 'base', 'a'),
                                                                   ('jb', 'a', 'b')]


@pytest.mark.parametrize('old, new, match, line, code', [
    ('id = 2', 'id = 1', "link 'b': id 1 is already used by link 'a' \\(line 4\\)", 9,
     'duplicate-name'),
    ('id = 2', 'id = 0', "link 'b': id must be a positive integer, got 0", 9, 'bad-id'),
    ('RobotBase base {', 'RobotBase base { id = 3', "link 'base': the RobotBase id must be 0",
     2, 'bad-id'),
    ('b via jb', 'b via jx', "link 'a': children: 'b via jx' names joint 'jx', which is not "
     'defined', 6, 'missing-joint'),
    ('b via jb', 'c via jb', "link 'a': children: 'c via jb' names link 'c', which is not "
     'defined', 6, 'missing-link'),
    ('b via jb', 'b via ja', "link 'a': children: joint 'ja' already connects link 'base' to "
     "link 'a'", 6, 'joint-reused'),
    ('children { b via jb }', 'children { }', "joint 'jb': is not used by any link", 14,
     'unused-joint'),
    ('children { b via jb }', 'children { }', "link 'b': is not the child of any link", 8,
     'no-parent'),
    ('{ a via ja } }', '{ a via ja b via jc } }\nr_joint jc { ref_frame { translation = '
     '(0, 0, 0) rotation = (0, 0, 0) } }', "link 'a': children: link 'b' is already the "
     "child of link 'base' \\(via 'jc'\\)", 7, 'several-parents'),
    ('children { b via jb }', 'children { b via jb base via ja }',
     "children: the RobotBase 'base' cannot be the child of a link", 6, 'cycle'),
    ('children { b via jb }', 'children { a via jb }', "link 'a' cannot be its own child", 6,
     'cycle'),
    ('link b {', 'link a {', "link 'a': link name 'a' is used more than once \\(first on "
     'line 3\\)', 8, 'duplicate-name'),
    ('p_joint jb', 'p_joint ja', "joint 'ja': joint name 'ja' is used more than once", 14,
     'duplicate-name'),
    ('  id = 2\n', '  id = 2 id = 3\n', "link 'b': 'id' is given twice \\(first on line 9\\)",
     9, 'repeated-element'),
    ('  id = 2\n', '', "link 'b': is missing 'id'", 8, 'missing-element'),
    ('  children { }\n', '', "link 'b': is missing 'children' \\(write 'children {}'", 8,
     'missing-element'),
    ('Ixy=0 Ixz=0 Iyz=0 }\n  children { }', 'Ixz=0 }\n  children { }',
     "link 'b': 'inertia_properties' is missing Ixy, Iyz", 10, 'missing-element'),
    ('  inertia_properties { mass = 1 CoM = (0, 0, 0) Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }\n'
     '  children { }', '  children { }', "link 'b': is missing 'inertia_properties'", 8,
     'missing-element'),
    ('p_joint jb { ref_frame { translation = (0, 0, 0) rotation = (0, 0, 0) } }',
     'p_joint jb { }', "joint 'jb': is missing 'ref_frame'", 14, 'missing-element'),
    ('p_joint jb { ref_frame { translation = (0, 0, 0) rotation = (0, 0, 0) } }',
     'p_joint jb { ref_frame { translation = (0, 0, 0) } }',
     "joint 'jb': 'ref_frame' is missing rotation", 14, 'missing-element'),
    ('p_joint jb { ref_frame {', 'p_joint jb { ref_frame { translation = (1, 1, 1) ref_frame {',
     "joint 'jb': syntax error at column", 14, 'syntax'),
    ('translation = (0, 0, 0) rotation = (0, 0, 0) } }\n}',
     'translation = (0, 0, 0) rotation = (0, 0, 0) } ref_frame { translation = (0, 0, 0) '
     'rotation = (0, 0, 0) } }\n}', "joint 'jb': 'ref_frame' is given twice", 14,
     'repeated-element'),
    ('RobotBase base { children { a via ja } }', '',
     "robot 'R': has no 'RobotBase'", 1, 'no-root'),
    ('link b {', 'RobotBase b2 { children { } }\nlink b {',
     "robot 'R': a robot has one RobotBase; 'base' is already the base", 8, 'repeated-element'),
    ('Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }\n  children { }',
     'Ix=1/0 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }\n  children { }', 'division by zero', 10,
     'bad-number'),
    ('Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }\n  children { }',
     'Ix=1e308*10 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 }\n  children { }',
     'does not evaluate to a finite number', 10, 'bad-number'),
    ('children { }\n}', 'children { }\nframes { a { translation = (0, 0, 0) rotation = '
     '(0, 0, 0) } }\n}', "frame 'a': has the name of a link", 12, 'duplicate-name'),
    ('children { }\n}', 'children { }\nframes { f { translation = (0, 0, 0) rotation = '
     '(0, 0, 0) }\nf { translation = (0, 0, 0) rotation = (0, 0, 0) } }\n}',
     "frame 'f': frame name 'f' is used more than once", 13, 'duplicate-name'),
])
def test_semantic_errors(old, new, match, line, code):
    assert old in TWO_LINKS
    error = raises(TWO_LINKS.replace(old, new, 1), match, line)
    assert code in [d.code for d in error.diagnostics if d.location.line == line]


def test_error_message_format():
    text = TWO_LINKS.replace('b via jb', 'b via jx')
    with pytest.raises(DescriptionError) as info:
        parse_kindsl(text, 'fancy.kindsl')
    assert str(info.value.diagnostics[0]) == (
        "fancy.kindsl:6: link 'a': children: 'b via jx' names joint 'jx', which is not "
        'defined (r_joint or p_joint)')


def test_all_semantic_errors_are_reported_together():
    text = TWO_LINKS.replace('id = 2', 'id = 1').replace('b via jb', 'b via jx')
    error = raises(text, 'id 1 is already used', 9)
    assert [(d.location.line, d.code) for d in error.diagnostics] == [
        (9, 'duplicate-name'), (6, 'missing-joint'), (8, 'no-parent'), (14, 'unused-joint')]


def test_loops_are_found_by_check_robot():
    text = (TWO_LINKS.replace('children { a via ja }', 'children { }')
            .replace('children { }\n}\nr_joint', 'children { a via ja }\n}\nr_joint'))
    error = raises(text, 'kinematic loop', 13)
    assert error.diagnostic.code == 'cycle'


# --- invalid descriptions: line, entity and code of each ('Robot' is line 1) ---------------

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


def test_dsl_parameters_must_be_finite_real_numbers():
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1, mass='p'),
              dsl_joint('j'))
    for value in (math.nan, math.inf, True, '1', 10 ** 400):
        with pytest.raises(TypeError, match="parameter 'p' must be a finite number"):
            parse_kindsl(doc, parameters={'p': value})
    assert parse_kindsl(doc, parameters={'p': 2}).links[1].inertial.mass == 2.0


def test_duplicate_names_in_dsl():
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1), dsl_link('a', 2),
              dsl_joint('j'))
    error = single_error(DescriptionError, parse_kindsl, doc, "link name 'a' is used more than "
                         r'once \(first on line 3\)', 4, "link 'a'", 'duplicate-name')
    assert len(error.diagnostics) == 1


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


def test_several_roots_in_dsl():
    doc = dsl('RobotBase base { children { a via ja } }', dsl_link('a', 1), dsl_link('b', 2),
              dsl_joint('ja'))
    single_error(DescriptionError, parse_kindsl, doc, 'is not the child of any link', 4,
                 "link 'b'", 'no-parent')


def test_dsl_children_naming_missing_links():
    doc = dsl('RobotBase base { children { ghost via j } }', dsl_joint('j'))
    error = single_error(DescriptionError, parse_kindsl, doc, "children: 'ghost via j' names "
                         "link 'ghost', which is not defined", 2, "link 'base'", 'missing-link')
    assert [d.code for d in error.diagnostics] == ['missing-link', 'unused-joint']


def test_unknown_joint_types_in_dsl():
    doc = dsl('RobotBase base { children { a via j } }', dsl_link('a', 1),
              dsl_joint('j').replace('r_joint', 'x_joint'))
    single_error(DescriptionError, parse_kindsl, doc, "expected 'RobotBase', 'link', 'r_joint', "
                 "'p_joint' or '}', got 'x_joint'", 4, "robot 'R'", 'syntax')


def test_public_names_stay_importable_from_the_reader():
    from sdf_tools.formats.kindsl import builder
    from sdf_tools.formats.kindsl import parser
    assert inertial_from_kindsl is builder.inertial_from_kindsl
    assert MAX_EXPRESSION_DEPTH == parser.MAX_EXPRESSION_DEPTH == 64
