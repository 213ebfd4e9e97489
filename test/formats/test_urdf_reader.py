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
Tests of the URDF reader (:mod:`sdf_tools.formats.urdf.reader`): what it refuses, and where.

Numbers that are not finite decimals, vectors of the wrong arity, materials defined twice
and unknown joint types, each with its message, line, entity and code. The checks every
reader shares (names, the tree, mimic joints, inertias) are in ``test/test_validate.py``.
"""

from diagnostics import INERTIA
from diagnostics import single_error
from diagnostics import urdf
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.urdf.reader import parse_urdf


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


def test_an_origin_written_the_same_way_twice_reads_the_same_and_is_reported_twice():
    visual = '<visual><origin xyz="0 0 {}" rpy="0 1.5 0"/><geometry><sphere radius="1"/>' \
        '</geometry></visual>'
    robot = parse_urdf(urdf('<link name="a">', visual.format(1), visual.format(1), '</link>'))
    first, second = (v.origin for v in robot.links[0].visuals)
    assert first == second and first.xyz == (0.0, 0.0, 1.0) and first.quat[1] > 0.68
    doc = urdf('<link name="a">', visual.format('x'), visual.format('x'), '</link>')
    with pytest.raises(DescriptionError) as caught:
        parse_urdf(doc)
    assert [(d.location.line, d.code.value) for d in caught.value.diagnostics] == [
        (3, 'bad-number'), (4, 'bad-number')]


def test_urdf_colour_arity():
    doc = urdf('<material name="red">', '<color rgba="1 0 0"/>', '</material>',
               '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "<color> rgba must be 4 numbers, got '1 0 "
                 "0'", 3, code='bad-arity')


def test_a_material_defined_twice_is_an_error():
    doc = urdf('<material name="red"><color rgba="1 0 0 1"/></material>',
               '<material name="red"><color rgba="0 1 0 1"/></material>', '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "material 'red' is defined more than once",
                 3, code='duplicate-name')


@pytest.mark.parametrize('kind, allowed', [('bogus', 'URDF'), ('ball', 'URDF'),
                                           ('', 'URDF')])
def test_unknown_joint_types_in_urdf(kind, allowed):
    doc = urdf('<link name="a"/>', '<link name="b"/>', f'<joint name="j" type="{kind}">',
               '<parent link="a"/><child link="b"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, f"unknown joint type '{kind}' \\({allowed} "
                 'has revolute, continuous, prismatic, fixed, floating, planar\\)', 4,
                 "joint 'j'", 'bad-joint-type')
