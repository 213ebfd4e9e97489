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

"""Tests of what the format readers share (:mod:`sdf_tools.formats.reading`)."""

from lxml import etree
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.reading import checked
from sdf_tools.formats.reading import shape_element
from sdf_tools.formats.reading import with_warnings
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Robot
from sdf_tools.xmlio.parse import ValueReader


@pytest.mark.parametrize('xml, found, tag', [
    ('<geometry><box/></geometry>', None, 'box'),
    ('<geometry><!-- none --></geometry>', 0, None),
    ('<geometry><box/><sphere/></geometry>', 2, 'box'),
])
def test_shape_element(xml, found, tag):
    reporter = Reporter()
    shape = shape_element(ValueReader('g', reporter), etree.fromstring(xml), "link 'a'")
    assert (shape.tag if shape is not None else None) == tag
    if found is None:
        assert reporter.errors == []
    else:
        [error] = reporter.errors
        assert (error.code, error.entity, error.message) == (
            'bad-geometry', "link 'a'", f'<geometry> must hold exactly one shape, found {found}')


def test_a_urdf_geometry_reads_its_first_shape_and_an_sdformat_one_must_hold_one():
    # urdfdom (and libsdformat's URDF parser) read the first; SDFormat keeps both.
    urdf = ('<robot name="r"><link name="a"><visual>\n<geometry><box size="1 1 1"/><sphere '
            'radius="1"/></geometry></visual></link></robot>')
    sdf = ('<sdf version="1.9"><model name="m"><link name="a"><visual name="v">\n<geometry>'
           '<box/><sphere/></geometry></visual></link></model></sdf>')
    robot = parse_urdf(urdf, 'g.xml')
    assert robot.links[0].visuals[0].geometry.size == (1.0, 1.0, 1.0)
    assert [str(w) for w in robot.warnings] == [
        "g.xml:2: warning: link 'a': <geometry> holds a second shape and this <sphere> is "
        'ignored: urdfdom, and so robot_state_publisher, RViz, MoveIt and libsdformat, read '
        'only the first, <box> (see line 2)']
    with pytest.raises(DescriptionError) as info:
        parse_sdf(sdf, 'g.xml')
    assert str(info.value.diagnostic) == \
        "g.xml:2: link 'a': <geometry> must hold exactly one shape, found 2"


def loop_robot():
    """Return a robot whose two joints form a loop (an error of check_robot)."""
    joints = (Joint('j1', JointType.FIXED, 'a', 'b'), Joint('j2', JointType.FIXED, 'b', 'a'))
    return Robot('r', links=(Link('a'), Link('b')), joints=joints)


def test_checked_raises_the_reading_errors_before_checking_the_structure():
    reporter = Reporter()
    reporter.error('bad number', SourceLocation('r.urdf', 3), "link 'a'")
    with pytest.raises(DescriptionError) as info:
        checked(loop_robot(), reporter)
    assert [d.message for d in info.value.diagnostics] == ['bad number']
    with pytest.raises(DescriptionError, match='kinematic loop'):
        checked(loop_robot(), Reporter())


def test_with_warnings_adds_the_warnings_to_the_model():
    robot = Robot('r', links=(Link('a'),))
    reporter = Reporter()
    assert with_warnings(robot, reporter) is robot
    reporter.warn('odd', SourceLocation('r.urdf', 1), "robot 'r'")
    assert [w.message for w in with_warnings(robot, reporter).warnings] == ['odd']
