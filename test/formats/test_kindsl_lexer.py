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

"""Tests of the Kinematics-DSL tokenizer (:mod:`sdf_tools.formats.kindsl.lexer`)."""

import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.kindsl.lexer import tokenize
from sdf_tools.formats.kindsl.reader import parse_kindsl


def test_comments():
    text = ('// leading comment\n'
            'Robot /* inline */ R // trailing\n'
            '{ /* a block\n comment over\n lines // with a line comment inside */\n'
            'RobotBase base { children { arm /* between */ via j } }\n'
            'link arm { id = 1 // the id\n'
            'inertia_properties { mass = 1 CoM = (0, 0, 0) Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 '
            'Iyz=0 }\n'
            'children {} }\n'
            'r_joint j { ref_frame { translation = (0, 0, /* z */ 1) rotation = (0, 0, 0) } }\n'
            '} // the end, without a newline')
    robot = parse_kindsl(text)
    assert robot.joint('j').origin.xyz == (0.0, 0.0, 1.0)
    assert robot.link('base').location.line == 6  # lines inside block comments count
    assert robot.joint('j').location.line == 10


def test_tokens_with_their_lines_and_columns():
    text = 'Robot R {\n  x = -1.5e3 /* a comment\n over lines */ (PI)// end\n}'
    assert [(t.kind, t.text, t.line, t.column) for t in tokenize(text, 's')] == [
        ('ident', 'Robot', 1, 1), ('ident', 'R', 1, 7), ('punct', '{', 1, 9),
        ('ident', 'x', 2, 3), ('punct', '=', 2, 5), ('punct', '-', 2, 7),
        ('number', '1.5e3', 2, 8), ('punct', '(', 3, 16), ('ident', 'PI', 3, 17),
        ('punct', ')', 3, 19), ('punct', '}', 4, 1), ('end', '', 4, 2)]


def test_tokenize_reads_no_further_than_it_is_asked():
    # A generator: the tokens before a bad character come out, the error only when reached.
    tokens = tokenize('a b @ c', 'bad.kindsl')
    assert [next(tokens).text, next(tokens).text] == ['a', 'b']
    with pytest.raises(DescriptionError) as info:
        next(tokens)
    assert str(info.value.diagnostic) == (
        "bad.kindsl:1: syntax error at column 5: unexpected character '@'")
