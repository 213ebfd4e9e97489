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
Tests of the Kinematics-DSL parser (:mod:`sdf_tools.formats.kindsl.parser`).

Expressions and parameters, keys in any order, poses, and syntax errors (the first one
stops the reader, with line and column).
"""

from chain_fk import rot
from chain_fk import trans
import numpy as np
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Reporter
from sdf_tools.formats.kindsl.parser import MAX_EXPRESSION_DEPTH
from sdf_tools.formats.kindsl.parser import parse_document
from sdf_tools.formats.kindsl.reader import parse_kindsl
from sdf_tools.model import JointType
from test_kindsl import PI
from test_kindsl import raises
from test_kindsl import robot_text
from test_kindsl import X
from test_kindsl import x_value
from test_kindsl import Y
from test_kindsl import Z


@pytest.mark.parametrize('expression, expected', [
    ('1', 1.0), ('.5', 0.5), ('2.', 2.0), ('1e-3', 0.001), ('1.5E+2', 150.0),
    ('PI', PI), ('PI/2.0', PI / 2), ('-PI/2.0', -PI / 2), ('2*PI', 2 * PI),
    ('PI*0.5', PI / 2), ('-(PI/4)', -PI / 4), ('(1 + 2) * 3', 9.0), ('1 + 2 * 3', 7.0),
    ('8 / 2 / 2', 2.0), ('2 - 1 - 1', 0.0), ('- -1', 1.0), ('+1', 1.0), ('2*-PI', -2 * PI),
    ('-(-(0.25))', 0.25), ('PI/2*2', PI),
])
def test_expressions(expression, expected):
    assert x_value(expression) == pytest.approx(expected, abs=1e-15)


def test_expression_nesting_is_bounded():
    deep = '(' * (MAX_EXPRESSION_DEPTH + 1) + '1' + ')' * (MAX_EXPRESSION_DEPTH + 1)
    with pytest.raises(DescriptionError, match='nested more than'):
        x_value(deep)
    shallow = '(' * 10 + '1' + ')' * 10
    assert x_value(shallow) == 1.0
    with pytest.raises(DescriptionError, match='nested more than'):
        x_value('-' * (MAX_EXPRESSION_DEPTH + 1) + '1')


def test_keys_in_any_order_give_the_same_model():
    canonical = robot_text()
    shuffled = ('Robot R {\n'
                'r_joint j { ref_frame { rotation = (0, 0, 0) translation = (0, 0, 0) } }\n'
                'link arm {\n'
                'children {}\n'
                'inertia_properties { Iyz=0 Ixz=0 Ixy=0 Iz=1 Iy=1 Ix=1 CoM = (0, 0, 0) '
                'mass = 1 }\n'
                'id = 1\n'
                '}\n'
                'RobotBase base { children { arm via j } }\n'
                '}\n')
    a, b = parse_kindsl(canonical), parse_kindsl(shuffled)
    assert [link.name for link in b.links] == ['base', 'arm']
    assert [(link.name, link.inertial) for link in a.links] == [
        (link.name, link.inertial) for link in b.links]
    assert [(j.name, j.parent, j.child, j.origin) for j in a.joints] == [
        (j.name, j.parent, j.child, j.origin) for j in b.joints]


def test_ref_frame_rotation_is_intrinsic_xyz_after_the_translation():
    robot = parse_kindsl(robot_text(joint_body='ref_frame { translation = (1, 2, 3) '
                                    'rotation = (0.3, -0.4, 0.5) }'))
    pose = robot.joint('j').origin
    expected = trans(1, 2, 3) @ rot(X, 0.3) @ rot(Y, -0.4) @ rot(Z, 0.5)
    np.testing.assert_allclose(pose.matrix(), expected, atol=1e-15)


def test_parameters():
    text = robot_text(joint_body='ref_frame { translation = (a, -b, 2*c) '
                      'rotation = (0, angle/2, 0) }')
    robot = parse_kindsl(text, parameters={'a': 1.5, 'b': 2, 'c': 0.25, 'angle': PI})
    pose = robot.joint('j').origin
    assert pose.xyz == (1.5, -2.0, 0.5)
    np.testing.assert_allclose(pose.matrix(), trans(1.5, -2, 0.5) @ rot(Y, PI / 2),
                               atol=1e-15)
    assert robot.warnings == ()


def test_parameter_default_and_override():
    assert x_value('len[0.3]') == 0.3
    assert x_value('len[0.3]', parameters={'len': 0.7}) == 0.7
    assert x_value('-len[PI/2]') == -PI / 2


def test_missing_parameters_are_all_reported_with_their_lines():
    text = robot_text(joint_body='ref_frame {\ntranslation = (a, 0, 0)\n'
                      'rotation = (0, 0, b) }')
    error = raises(text, "parameter 'a' .* has no value", 10, parameters={'b': 1.0})
    assert len(error.diagnostics) == 1
    error = raises(text, "parameter 'b' .* has no value", 11)
    assert [(d.location.line, d.code) for d in error.diagnostics] == [
        (10, 'missing-parameter'), (11, 'missing-parameter')]
    assert "robot.kindsl:10: joint 'j': parameter 'a' (column 16)" in str(error)


@pytest.mark.parametrize('text, match, line', [
    ('', r"expected 'Robot <name> \{', got the end of the text", 1),
    ('Robot {', 'expected the robot name', 1),
    ('Robot R\n{\nlink a @', "unexpected character '@'", 3),
    ('Robot R {\n/* never closed\n', r"never closed with '\*/'", 2),
    ('Robot R {\nfoo bar }', "expected 'RobotBase', 'link', 'r_joint', 'p_joint'", 2),
    ('Robot R { }\n}', r"unexpected '\}' after the end of 'Robot R'", 2),
    ('Robot R {\nlink a {\n  mass = 1 } }', 'expected id, inertia_properties, children or '
     'frames', 3),
    ('Robot R {\nlink a {\nid = 1.5 } }', "id must be an integer, got '1.5'", 3),
    ('Robot R {\nlink a {\nid = x } }', "id must be an integer, got 'x'", 3),
    ('Robot R {\nr_joint j {\nref_frame { translation = (1, 2) rotation = (0, 0, 0) } } }',
     r"expected ',' \(a 3-vector has three numbers\), got '\)'", 3),
    ('Robot R {\nr_joint j {\nref_frame { translation = (1, 2, 3, 4) } } }',
     r"expected '\)' to close the 3-vector", 3),
    ('Robot R {\nr_joint j {\nref_frame { translation = (1, *, 3) } } }',
     "expected a number, PI, a parameter name or an expression, got '[*]'", 3),
    ('Robot R {\nr_joint j {\nlimits { } } }', "expected 'ref_frame'", 3),
    ('Robot R {\nr_joint j {\nref_frame { origin = (0, 0, 0) } } }',
     "expected 'translation' or 'rotation'", 3),
    ('Robot R {\nRobotBase b { children { a j } } }', "expected 'via'", 2),
    ('Robot R {\nlink a floating { } }', r"expected '\{', got 'floating'", 2),
    ('Robot R {\nlink a {\ninertia_properties { mass = 1 Ixx = 0 } } }',
     'expected mass, CoM, Ix, Iy, Iz, Ixy, Ixz or Iyz', 3),
    ('Robot R {\nr_joint j {\nref_frame { translation = (len[1, 0, 0) } } }',
     r"expected '\]' to close the parameter's default", 3),
    # Digits are ASCII, as in C: an Arabic-Indic three is not 3.
    ('Robot R {\nr_joint j {\nref_frame { translation = (\u0663, 0, 0) } } }',
     "unexpected character '\u0663'", 3),
])
def test_syntax_errors(text, match, line):
    error = raises(text, match, line)
    assert error.diagnostic.code == 'syntax'
    assert 'syntax error at column' in error.diagnostic.message


def test_syntax_error_names_the_element_and_column():
    text = 'Robot R {\nlink arm {\n    id = 1\n    mass = 1\n} }'
    error = raises(text, 'expected id', 4)
    assert str(error).startswith("robot.kindsl:4: link 'arm': syntax error at column 5: ")


def test_syntax_error_keeps_earlier_semantic_errors():
    text = robot_text('id = 2').replace('r_joint j {', 'r_joint j { foo')
    error = raises(text, "'id' is given twice", 7)
    assert [d.code for d in error.diagnostics] == ['repeated-element', 'syntax']


def test_parse_document_keeps_names_unresolved_and_lists_the_parameters_used():
    reporter = Reporter()
    text = ('Robot R {\nRobotBase b { children { ghost via nowhere } }\n'
            'r_joint j { ref_frame { translation = (a, len[2], 0) rotation = (0, 0, 0) } }\n}')
    document, used = parse_document(text, 'doc.kindsl', reporter, {'a': 1.0, 'unused': 0.0})
    assert document.base.children == [('ghost', 'nowhere', 2)]
    assert [(j.name, j.kind, j.pose.xyz) for j in document.joints] == [
        ('j', JointType.REVOLUTE, (1.0, 2.0, 0.0))]
    assert used == {'a', 'len'}
    assert reporter.errors == []
