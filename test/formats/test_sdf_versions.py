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
Each SDFormat version's defaults (sdf_tools.formats.sdf.versions), held to its schema.

The facts below are copied from libsdformat's schema files (``sdf/1.N/joint.sdf``, and
``sdf/1.11/mimic.sdf`` which 1.11's joint includes; gazebosim/sdformat, the same on the
sdf12 to sdf14 branches): the ``default`` of each element, as a number, and which children
are ``required="1"`` (the ones the schema pass adds and ``gz sdf -p`` prints). Then the
reader, the model writer and the URDF converter are checked to use them.
"""

import math

from lxml import etree
import pytest
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.versions import joint_defaults
from sdf_tools.formats.sdf.versions import joint_required
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS
from sdf_tools.formats.sdf.writer import write_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.loading import load
from sdf_tools.model import Limit
import support
from test_sdf_reader import max_error
from test_sdf_reader import parse_poses

INF = math.inf
# sdf/1.4/joint.sdf
SCHEMA_1_4 = {
    'gearbox_ratio': 1.0, 'thread_pitch': 1.0, 'axis/xyz': (0.0, 0.0, 1.0),
    'axis/dynamics/damping': 0.0, 'axis/dynamics/friction': 0.0,
    'axis/limit/lower': -1e16, 'axis/limit/upper': 1e16,
    'axis/limit/effort': -1.0, 'axis/limit/velocity': -1.0,
    'physics/ode/limit/cfm': 0.0, 'physics/ode/limit/erp': 0.2,
}
# sdf/1.5/joint.sdf to sdf/1.9/joint.sdf: 1.4's and the spring.
SCHEMA_1_5 = {**SCHEMA_1_4,
              'axis/dynamics/spring_reference': 0.0, 'axis/dynamics/spring_stiffness': 0.0}
# sdf/1.10/joint.sdf: unlimited limits are infinite; <screw_thread_pitch> is new.
SCHEMA_1_10 = {**SCHEMA_1_5,
               'axis/limit/lower': -INF, 'axis/limit/upper': INF,
               'axis/limit/effort': INF, 'axis/limit/velocity': INF,
               'screw_thread_pitch': 1.0}
# sdf/1.11/joint.sdf and sdf/1.11/mimic.sdf
SCHEMA_1_11 = {**SCHEMA_1_10,
               'axis/mimic/multiplier': 1.0, 'axis/mimic/offset': 0.0,
               'axis/mimic/reference': 0.0}
SCHEMA = {'1.4': SCHEMA_1_4, '1.5': SCHEMA_1_5, '1.6': SCHEMA_1_5, '1.7': SCHEMA_1_5,
          '1.8': SCHEMA_1_5, '1.9': SCHEMA_1_5, '1.10': SCHEMA_1_10, '1.11': SCHEMA_1_11}
# required="1" children of <axis>, <axis><limit>, <axis><dynamics>, <axis><mimic> and
# <physics><ode><limit> (the same in 1.5 to 1.11; 1.4's <dynamics> has no spring).
SCHEMA_REQUIRED = {
    'axis': ('xyz',), 'axis/limit': ('lower', 'upper'),
    'axis/dynamics': ('spring_reference', 'spring_stiffness'),
    'axis/mimic': ('multiplier', 'offset', 'reference'),
    'physics/ode/limit': ('cfm', 'erp'),
}


def _value(text):
    numbers = tuple(float(t) for t in text.split())
    return numbers if len(numbers) > 1 else numbers[0]


@pytest.mark.parametrize('version', READABLE_VERSIONS)
def test_each_versions_defaults_are_its_schemas(version):
    table = {path: _value(text) for path, text in joint_defaults(version).items()}
    facts = SCHEMA[version]
    assert {path: table[path] for path in facts} == facts
    extra = set(table) - set(facts)
    # 1.4 has no spring: sdf_tools reads "no spring" as a spring of stiffness 0.
    assert extra == ({'axis/dynamics/spring_reference', 'axis/dynamics/spring_stiffness'}
                     if version == '1.4' else set())
    assert dict(joint_required()) == SCHEMA_REQUIRED


def _joint_document(version, axis):
    return (f'<sdf version="{version}"><model name="m"><link name="a"/><link name="b"/>'
            '<joint name="j" type="revolute"><parent>a</parent><child>b</child>'
            f'<axis><xyz>0 0 1</xyz>{axis}</axis></joint></model></sdf>')


@pytest.mark.parametrize('version', READABLE_VERSIONS)
def test_the_reader_fills_in_the_files_versions_defaults(version):
    facts = SCHEMA[version]
    joint = parse_sdf(_joint_document(version, '<limit/><dynamics/>')).joint('j')
    assert joint.limit == Limit(*(facts[f'axis/limit/{k}']
                                  for k in ('lower', 'upper', 'effort', 'velocity')))
    assert (joint.dynamics.damping, joint.dynamics.friction) == (0.0, 0.0)


CONTINUOUS = ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
              'type="continuous"><parent link="a"/><child link="b"/></joint></robot>')


@pytest.mark.parametrize('version', ['1.9', '1.10', '1.11'])
def test_both_writers_write_the_versions_unlimited_limits(version):
    robot = parse_urdf(CONTINUOUS)
    converted = etree.fromstring(urdf_to_sdf(robot, ConversionOptions(
        sdf_version=version)).sdf.encode())
    written = etree.fromstring(write_sdf(robot, version=version).encode())
    for document in (converted, written):
        limit = document.find('model/joint/axis/limit')
        assert [float(limit.findtext(k)) for k in ('lower', 'upper')] == [
            SCHEMA[version]['axis/limit/lower'], SCHEMA[version]['axis/limit/upper']]
    # The converter writes the schema's text, as gz sdf -p prints it.
    assert converted.findtext('model/joint/axis/limit/lower') == \
        ('-1e16' if version == '1.9' else '-inf')


# A model of the classic model library's SDFormat 1.3 files: the axis is in the model frame.
CLASSIC_1_3 = """<sdf version="1.3">
  <model name="cart">
    <link name="chassis"><pose>0 0 0.16 0 0 0</pose></link>
    <link name="wheel"><pose>0.1 -0.17 0.11 0 1.5707 1.5707</pose></link>
    <joint type="revolute" name="hinge">
      <pose>0 0 0.03 0 0 0</pose><child>wheel</child><parent>chassis</parent>
      <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>
    </joint>
  </model>
</sdf>"""


def test_sdformat_1_3_is_read_as_libsdformat_converts_it(tmp_path):
    # libsdformat converts 1.3 to 1.4 before reading (sdf/1.4/1_3.convert moves only world
    # <physics> elements), so a 1.3 model reads as the same model written as 1.4.
    robot = parse_sdf(CLASSIC_1_3)
    as_1_4 = parse_sdf(CLASSIC_1_3.replace('"1.3"', '"1.4"'))
    assert (robot.joint('hinge').axis, robot.joint('hinge').origin) == \
        (as_1_4.joint('hinge').axis, as_1_4.joint('hinge').origin)
    assert robot.joint('hinge').limit == Limit(-1.0, 1.0, -1.0, -1.0)  # 1.3's (1.4's) defaults
    if support.oracle_path() is None:
        pytest.skip(support.NO_ORACLE)
    path = tmp_path / 'cart.sdf'
    path.write_text(CLASSIC_1_3)
    done = support.run_oracle('poses', path)
    assert done.returncode == 0, done.stderr
    name, expected = parse_poses(done.stdout)
    assert name == 'cart'
    assert max_error(robot, expected) <= 1e-12


@pytest.mark.parametrize('version', ['1.2', '1.0', '0.9', '2.0'])
def test_versions_before_1_3_or_past_1_x_are_refused(version):
    # libsdformat 12 converts 1.2 and 1.0 too, through rules of their own (1.2's root is
    # <gazebo>, its meshes have <filename>): sdf_tools does not read them.
    with pytest.raises(DescriptionError, match=rf'SDFormat version {version} is not supported '
                       r'\(sdf_tools reads 1.3 to 1.11\)'):
        parse_sdf(CLASSIC_1_3.replace('"1.3"', f'"{version}"'))


@pytest.mark.parametrize('version, warned', [('1.3', False), ('1.4', True)])
def test_the_names_libsdformat_moves_from_1_3_are_known_in_a_1_3_file(version, warned):
    """1_3.convert moves <physics><update_rate> and <ode><solver><dt>: no unknown names."""
    text = (f'<sdf version="{version}"><world name="w"><physics type="ode">'
            '<update_rate>1000</update_rate><ode><solver><dt>0.001</dt></solver></ode>'
            '</physics><model name="m"><link name="l"/></model></world></sdf>')
    warnings = [w for w in load(text=text).warnings if w.code is Code.UNKNOWN_NAME]
    assert [w.message.split(';')[0] for w in warnings] == ([
        '<physics> has no element <update_rate> in SDFormat 1.4',
        '<solver> has no element <dt> in SDFormat 1.4'] if warned else [])
