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
Tests of sdf_tools.convert.naming: sensors and lights of one name in one link.

libsdformat writes both and then refuses the file (``sensor with name[camera] already
exists``), as Gazebo does; the converter renames the later one, with a warning naming both
places. Joint and frame renames are tested in test_urdf_to_sdf and test_lumping.
"""

from diagnostics import urdf
import pytest
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
import support
from urdf_snippets import INERTIAL
from xml_compare import parse


def sensor(name, rate=10):
    return f'<sensor name="{name}" type="camera"><update_rate>{rate}</update_rate></sensor>'


def names(result, tag='sensor'):
    """Return {link: [names of its <tag> children]} of the output."""
    return {link.get('name'): [e.get('name') for e in link.iterchildren(tag)]
            for link in parse(result.sdf).find('model').iterchildren('link')}


def test_a_second_sensor_of_one_name_in_a_link_is_renamed_with_both_places():
    doc = urdf(f'<link name="base">{INERTIAL}</link>',
               '<gazebo reference="base">', sensor('camera'), sensor('camera_2'),
               sensor('camera', 30), '</gazebo>')
    result = urdf_to_sdf(parse_urdf(doc, 'robot.urdf'))
    assert names(result) == {'base': ['camera', 'camera_2', 'camera_3']}
    rates = parse(result.sdf).findall('model/link/sensor/update_rate')
    assert [r.text for r in rates] == ['10', '10', '30']  # the later one renamed
    assert [(w.code, str(w.location), w.entity, w.message) for w in result.warnings] == [
        ('renamed', 'robot.urdf:6', "link 'base'",
         "<sensor> 'camera' is the second of that name in link 'base' (the first is at "
         "robot.urdf:4; SDFormat and Gazebo refuse two), so it is written as 'camera_3'")]


def test_lumping_two_links_with_a_sensor_of_one_name_renames_one():
    doc = urdf(f'<link name="base">{INERTIAL}</link>',
               f'<link name="left">{INERTIAL}</link>', f'<link name="right">{INERTIAL}</link>',
               '<joint name="l" type="fixed"><parent link="base"/><child link="left"/></joint>',
               '<joint name="r" type="fixed"><parent link="base"/><child link="right"/></joint>',
               '<gazebo reference="left">', sensor('eye'), '</gazebo>',
               '<gazebo reference="right">', sensor('eye'), '</gazebo>')
    result = urdf_to_sdf(parse_urdf(doc, 'robot.urdf'))
    assert names(result) == {'base': ['eye', 'eye_2']}
    assert [(str(w.location), w.message.partition('(')[2].partition(';')[0])
            for w in result.warnings] == [('robot.urdf:11', 'the first is at robot.urdf:8')]
    # Kept apart, each link is its own scope: nothing to rename.
    kept = urdf_to_sdf(parse_urdf(doc, 'robot.urdf'),
                       ConversionOptions(preserve_fixed_joints=True))
    assert names(kept) == {'base': [], 'left': ['eye'], 'right': ['eye']}
    assert kept.warnings == ()


def test_sensors_of_one_name_in_different_links_and_lights_are_scoped_per_link():
    doc = urdf(f'<link name="base">{INERTIAL}</link>', f'<link name="arm">{INERTIAL}</link>',
               '<joint name="j" type="revolute"><parent link="base"/><child link="arm"/>'
               '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>',
               '<gazebo reference="base">', sensor('camera'), '<light name="lamp"/>',
               '<light name="lamp"/>', '</gazebo>',
               '<gazebo reference="arm">', sensor('camera'), '<light name="camera"/>',
               '</gazebo>')
    result = urdf_to_sdf(parse_urdf(doc, 'robot.urdf'))
    assert names(result) == {'base': ['camera'], 'arm': ['camera']}
    assert names(result, 'light') == {'base': ['lamp', 'lamp_2'], 'arm': ['camera']}
    assert [str(w.location) for w in result.warnings] == ['robot.urdf:8']


@pytest.mark.oracle
def test_libsdformat_loads_our_output_and_refuses_its_own(tmp_path):
    if support.oracle_path() is None:
        pytest.skip(support.NO_ORACLE)
    source = tmp_path / 'twice.urdf'
    source.write_text(urdf(f'<link name="base">{INERTIAL}</link>', '<gazebo reference="base">',
                           sensor('camera'), sensor('camera'), '</gazebo>'))
    theirs = support.run_oracle('convert', source)
    assert theirs.returncode == 0, theirs.stderr
    (tmp_path / 'theirs.sdf').write_text(theirs.stdout)
    check = support.run_oracle('check', tmp_path / 'theirs.sdf')
    assert check.returncode != 0 and 'sensor with name[camera] already exists' in check.stdout
    (tmp_path / 'ours.sdf').write_text(urdf_to_sdf(parse_urdf(source.read_bytes(),
                                                              source.name)).sdf)
    check = support.run_oracle('check', tmp_path / 'ours.sdf')
    assert check.returncode == 0, check.stdout
