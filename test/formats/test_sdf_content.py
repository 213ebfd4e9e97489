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

"""Tests of the checks of kept SDFormat content (:mod:`sdf_tools.formats.sdf.content`)."""

import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Severity
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.reader import parse_sdf_document
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.xmlio.text import element_text
from test_sdf_reader import oracle_reads
from test_sdf_reader import oracle_refuses
from test_sdf_reader import refused_alike
from test_sdf_reader import sdf


def _model(link='', visual='', collision='', joint='', model=''):
    return sdf(f"""<model name="m">{model}<link name="a">{link}
<visual name="v"><geometry><box/></geometry>{visual}</visual>
<collision name="c"><geometry><box/></geometry>{collision}</collision></link><link name="b"/>
<joint name="j" type="revolute"><parent>a</parent><child>b</child>{joint}</joint></model>""")


BAD = [
    ({'link': '<velocity_decay><linear>bad</linear></velocity_decay>'}, 2,
     "link 'a': <velocity_decay><linear> must be a number, got 'bad'"),
    ({'visual': '<material><diffuse>1 0 0 0 0</diffuse></material>'}, 3,
     "link 'a': <material><diffuse> must be 3 or 4 numbers from 0 to 1, got '1 0 0 0 0'"),
    ({'collision': '<surface><friction><ode><mu>high</mu></ode></friction></surface>'}, 4,
     "link 'a': <surface><friction><ode><mu> must be a number, got 'high'"),
    ({'collision': '<max_contacts>many</max_contacts>'}, 4,
     "link 'a': <max_contacts> must be an integer of 32 bits, got 'many'"),
    # std::stoi and std::stoul throw out_of_range, std::stod too on overflow and underflow.
    ({'collision': '<max_contacts>2147483648</max_contacts>'}, 4,
     "link 'a': <max_contacts> must be an integer of 32 bits, got '2147483648'"),
    ({'collision': '<max_contacts>0x80000000</max_contacts>'}, 4,
     "link 'a': <max_contacts> must be an integer of 32 bits, got '0x80000000'"),
    ({'collision': '<surface><contact><collide_bitmask>0x10000000000000000</collide_bitmask>'
                   '</contact></surface>'}, 4,
     "link 'a': <surface><contact><collide_bitmask> must be an integer of 64 bits, "
     "got '0x10000000000000000'"),
    ({'visual': '<visibility_flags>18446744073709551616</visibility_flags>'}, 3,
     "link 'a': <visibility_flags> must be an integer of 64 bits, "
     "got '18446744073709551616'"),
    ({'link': '<velocity_decay><linear>1e999</linear></velocity_decay>'}, 2,
     "link 'a': <velocity_decay><linear> must be a number, got '1e999'"),
    ({'link': '<velocity_decay><angular>-1e-400</angular></velocity_decay>'}, 2,
     "link 'a': <velocity_decay><angular> must be a number, got '-1e-400'"),
    ({'visual': '<material><diffuse>1 1e-310 0</diffuse></material>'}, 3,
     "link 'a': <material><diffuse> must be 3 or 4 numbers from 0 to 1, got '1 1e-310 0'"),
    # A colour is floats from 0 to 1 (libsdformat's Color): 1.5, -0.5 and 1e-39 are refused.
    ({'visual': '<material><ambient>0 0 0 1.5</ambient></material>'}, 3,
     "link 'a': <material><ambient> must be 3 or 4 numbers from 0 to 1, got '0 0 0 1.5'"),
    ({'visual': '<material><specular>-0.5 0 0</specular></material>'}, 3,
     "link 'a': <material><specular> must be 3 or 4 numbers from 0 to 1, got '-0.5 0 0'"),
    ({'visual': '<material><emissive>1e-39 0 0</emissive></material>'}, 3,
     "link 'a': <material><emissive> must be 3 or 4 numbers from 0 to 1, got '1e-39 0 0'"),
    ({'joint': '<physics><provide_feedback>yes</provide_feedback></physics>'}, 5,
     "joint 'j': <physics><provide_feedback> must be true or false, got 'yes'"),
    ({'model': '<self_collide>maybe</self_collide>'}, 2,
     "model 'm': <self_collide> must be true or false, got 'maybe'"),
]


@pytest.mark.parametrize('parts, line, message', BAD)
def test_values_libsdformat_refuses_in_kept_content_are_errors(parts, line, message, tmp_path):
    refused_alike(_model(**parts), tmp_path,
                  f'r.sdf:{line}: {message} (libsdformat refuses the file)', parse=parse_sdf)


def test_values_libsdformat_reads_in_kept_content_are_kept(tmp_path):
    text = _model(link='<velocity_decay><linear>inf</linear><angular> 1e-3 </angular>'
                  '</velocity_decay><gravity>0</gravity>',
                  visual='<material><diffuse>1 0 0</diffuse><ambient>1 0 0 1</ambient>'
                  '</material><cast_shadows>TRUE</cast_shadows>',
                  collision='<surface><friction><ode><fdir1>0 0 1</fdir1></ode></friction>'
                  '</surface><max_contacts>+3</max_contacts>',
                  # Content the table does not name (a plugin) is not looked at.
                  joint='<plugin name="p" filename="f"><linear>bad</linear></plugin>')
    robot = parse_sdf(text)
    assert '<linear>inf</linear>' in element_text(robot.link('a').extras[0])
    oracle_reads(text, tmp_path)


@pytest.mark.parametrize('light, message', [
    ('<diffuse>2 1 1 1</diffuse>', "<diffuse> must be 3 or 4 numbers from 0 to 1, got '2 1 1 1'"),
    ('<attenuation><range>far</range></attenuation>',
     "<attenuation><range> must be a number, got 'far'"),
    (None, None)])
def test_a_worlds_lights_are_checked_as_libsdformat_reads_them(light, message, tmp_path):
    body = light or '<diffuse>0.5 0.5 0.5 1</diffuse><attenuation><range>20</range></attenuation>'
    text = sdf(f'<world name="w">\n<light name="l" type="point">{body}</light></world>')
    if message is None:
        assert parse_sdf_document(text, 'w.sdf').worlds[0].lights == ('l',)
        oracle_reads(text, tmp_path)
        return
    refused_alike(text, tmp_path, f"w.sdf:3: light 'l': {message} (libsdformat refuses the "
                  'file)', source='w.sdf')


def test_hexadecimal_and_extreme_integers_libsdformat_reads_are_kept(tmp_path):
    # Param.cc reads '0x' and hex digits in base 16: the usual Gazebo bitmask.
    text = _model(link='<velocity_decay><linear>0e-999</linear>'
                  '<angular>2.2250738585072014e-308</angular></velocity_decay>',
                  visual='<visibility_flags>0xFFFFFFFFFFFFFFFF</visibility_flags>'
                  '<meta><layer>-2147483648</layer></meta>',
                  collision='<max_contacts>0x7FFFFFFF</max_contacts><surface><contact>'
                  '<collide_bitmask>0x01</collide_bitmask>'
                  '<category_bitmask>-18446744073709551615</category_bitmask>'
                  '<collide_without_contact_bitmask>00000000000000000000000000001'
                  '</collide_without_contact_bitmask></contact></surface>')
    robot = parse_sdf(text)
    assert robot.link('a').collisions[0].extras[1].findtext('contact/collide_bitmask') == \
        '0x01'
    oracle_reads(text, tmp_path)


def test_integers_of_many_digits_are_read_in_linear_time():
    digits = '1' * 100_000  # int() would refuse more than 4300 digits
    for value in (digits, '0x' + digits):
        with pytest.raises(DescriptionError) as info:
            parse_sdf(_model(collision=f'<max_contacts>{value}</max_contacts>'), 'r.sdf')
        assert 'must be an integer of 32 bits' in str(info.value.diagnostics[0])
    # std::stoi reads the zeros and stops at the x
    robot = parse_sdf(_model(collision=f"<max_contacts>{'0' * 100_000}x</max_contacts>"))
    assert robot.warnings[0].message.endswith("...' is read as 0 by libsdformat")


def _one_link(content, model=''):
    """Return a model of one link holding ``content`` (line 2)."""
    return sdf(f'<model name="m">{model}<link name="a">{content}</link></model>')


def test_values_libsdformat_reads_otherwise_than_written_are_warnings(tmp_path):
    text = _one_link('<sensor name="s" type="ray"><ray><scan><horizontal><samples>666.5'
                     '</samples></horizontal></scan></ray></sensor>\n<collision name="c">'
                     '<max_contacts>2.5</max_contacts><surface><friction><ode><fdir1>0 0 1 0'
                     '</fdir1></ode></friction></surface></collision>')
    robot = parse_sdf(text, 'r.sdf')
    assert [str(w) for w in robot.warnings] == [
        "r.sdf:2: warning: link 'a': <sensor><ray><scan><horizontal><samples> '666.5' is "
        'read as 666 by libsdformat',
        "r.sdf:3: warning: link 'a': <max_contacts> '2.5' is read as 2 by libsdformat",
        "r.sdf:3: warning: link 'a': <surface><friction><ode><fdir1> '0 0 1 0' is read as "
        '0 0 1 by libsdformat']
    assert {w.code for w in robot.warnings} == {Code.READ_AS}
    oracle_reads(text, tmp_path)


def test_a_value_outside_the_specifications_range_is_what_the_loader_refuses(tmp_path):
    text = _one_link('<collision name="c"><surface><friction><ode><mu>-1</mu></ode>'
                     '</friction></surface></collision>')
    (warning,) = parse_sdf(text, 'r.sdf').warnings   # Gazebo classic reads it
    assert str(warning) == ("r.sdf:2: warning: link 'a': <surface><friction><ode><mu> -1 is "
                            'less than the minimum allowed value of 0: libsdformat 10 and later '
                            'refuse the file (Gazebo Sim loads nothing); Gazebo classic reads '
                            'it')
    assert warning.code == Code.LOADER_REFUSES
    problems = check(load(text=text))   # as the loader says
    assert [(d.code, d.severity) for d in problems] == [(Code.LOADER_REFUSES, Severity.ERROR)]
    oracle_refuses(text, tmp_path, 'Error reading element <mu>')


MISSPELT = [
    ('<colision name="c"/>', 2, '<link> has no element <colision> in SDFormat 1.9; Gazebo '
     'ignores it; did you mean <collision>?'),
    ('<visaul name="w"/>', 2, 'did you mean <visual>?'),
    ('<inertal/>', 2, 'did you mean <inertial>?'),
    ('<self_colide>true</self_colide>', 2, 'did you mean <self_collide>?'),
    ('<sensor name="s" type="ray"><update_rte>5</update_rte></sensor>', 2,
     'did you mean <update_rate>?'),
    ('<sensor name="s" type="ray"><ray><scan><horizontal><sample>5</sample></horizontal>'
     '</scan></ray></sensor>', 2, 'did you mean <samples>?'),
    ('<inertial><mas>2</mas></inertial>', 2, '<inertial> has no element <mas> in SDFormat 1.9; '
     'Gazebo ignores it; did you mean <mass>?'),
    ('<visual name="w"><pose relative_too="a">1 0 0 0 0 0</pose></visual>', 2,
     "<pose> has no attribute 'relative_too' in SDFormat 1.9; Gazebo ignores it; did you "
     "mean 'relative_to'?"),
]


@pytest.mark.parametrize('content, line, message', MISSPELT)
def test_a_misspelt_sdformat_name_is_named_with_the_nearest_known_one(content, line, message,
                                                                      tmp_path):
    # Namespaced names and what a plugin holds are the user's: never reported.
    text = _one_link(content + '<my:thing xmlns:my="urn:x"><anything/></my:thing><visual '
                     'name="v" my:note="x" xmlns:my="urn:x"/>', model='<plugin name="p" '
                     'filename="p.so"><colision/><mas>1</mas></plugin>')
    (warning,) = parse_sdf(text, 'r.sdf').warnings
    assert warning.location.line == line and warning.code == Code.UNKNOWN_NAME
    assert warning.message.endswith(message)
    oracle_reads(text, tmp_path)   # libsdformat copies it where nothing reads it


def test_a_misspelt_axis_child_is_named_instead_of_not_kept():
    text = _model(joint='<axis><xyz>0 0 1</xyz><xzy>1 0 0</xzy></axis>')
    assert [w.message for w in parse_sdf(text).warnings] == [   # not '<xzy> is not kept'
        '<axis> has no element <xzy> in SDFormat 1.9; Gazebo ignores it; did you mean <xyz>?']


def test_names_of_other_versions_say_which_have_them():
    # An IMU's <noise> is SDFormat 1.4's and 1.5's: a 1.9 file's is ignored. 1.11's <mimic>
    # in a 1.9 file is read by libsdformat 14, which converts the file to 1.11.
    text = sdf('<model name="m"><link name="a"><sensor name="i" type="imu"><imu><noise><type>'
               'gaussian</type></noise></imu></sensor></link><link name="b"/><link name="c"/>'
               '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>'
               '0 0 1</xyz></axis></joint><joint name="k" type="revolute"><parent>a</parent>'
               '<child>c</child><axis><xyz>0 0 1</xyz><mimic joint="j"/></axis></joint>'
               '</model>')
    assert [w.message for w in parse_sdf(text).warnings] == [IMU_NOISE + 'without noise'
                                                             + PER_AXIS]


IMU_NOISE = ('<imu> has no element <noise> in SDFormat 1.9 (SDFormat 1.4 and 1.5 have it, '
             'and libsdformat converts it in their files only); Gazebo ignores it, so the IMU '
             'is simulated ')
PER_AXIS = ('; since SDFormat 1.6 each axis has its own: <angular_velocity><x><noise>, ..., '
            '<linear_acceleration><z><noise>')
NOISE = '<noise type="gaussian"><stddev>0.01</stddev></noise>'


@pytest.mark.parametrize('sensor, message', [
    ('<sensor name="i" type="imu"><imu><noise><type>gaussian</type></noise></imu></sensor>',
     IMU_NOISE + 'without noise' + PER_AXIS),
    (f'<sensor name="i" type="imu"><imu><noise><type>gaussian</type></noise><angular_velocity>'
     f'<x>{NOISE}</x></angular_velocity></imu></sensor>',
     IMU_NOISE + 'with the noise of its axes alone' + PER_AXIS),
    ('<sensor name="c" type="camera"><image><width>640</width></image></sensor>',
     "<sensor> has no element <image> in SDFormat 1.9; it belongs in the sensor's <camera>: "
     'Gazebo ignores it here, and the sensor has the default <camera><image> (width 320, '
     'height 240)'),
    ('<sensor name="c" type="depth_camera"><clip><far>50</far></clip><camera><clip><near>0.2'
     '</near><far>9</far></clip></camera></sensor>',
     "<sensor> has no element <clip> in SDFormat 1.9; it belongs in the sensor's <camera>: "
     'Gazebo ignores it here, and reads the <camera><clip> of line 2'),
    ('<sensor name="c" type="camera"><horizontal_fov>2</horizontal_fov></sensor>',
     "<sensor> has no element <horizontal_fov> in SDFormat 1.9; it belongs in the sensor's "
     '<camera>: Gazebo ignores it here, and the sensor has the default '
     '<camera><horizontal_fov> (1.047)'),
    ('<sensor name="r" type="gpu_ray"><scan><horizontal><samples>9</samples></horizontal>'
     '</scan></sensor>',
     "<sensor> has no element <scan> in SDFormat 1.9; it belongs in the sensor's <ray>: "
     'Gazebo ignores it here, and the sensor has the default <ray><scan>'),
])
def test_sensor_content_in_an_old_layout_says_what_gazebo_does(sensor, message, tmp_path):
    # libsdformat 14 copies it where nothing reads it ("XML Element[image], child of
    # element[sensor], not defined in SDF"); so does 12.3, which loads the file.
    text = _one_link(sensor)
    (warning,) = parse_sdf(text).warnings
    assert (warning.code, warning.message) == (Code.UNKNOWN_NAME, message)
    oracle_reads(text, tmp_path)
    # In SDFormat 1.5 an IMU's <noise> is where it belongs (libsdformat converts it).
    if 'imu' in sensor:
        assert parse_sdf(text.replace('version="1.9"', 'version="1.5"')).warnings == ()


def test_a_sensor_type_libsdformat_does_not_know_is_an_error_in_check(tmp_path):
    text = _one_link('<sensor name="s" type="rey"/>')
    (warning,) = parse_sdf(text, 'r.sdf').warnings
    assert warning.message == ("<sensor> type 'rey' is not a sensor type libsdformat knows "
                               "(did you mean 'ray'?): libsdformat 10 and later refuse the "
                               'file (Gazebo Sim loads nothing)')
    assert [d.severity for d in check(load(text=text))] == [Severity.ERROR]
    oracle_refuses(text, tmp_path, 'the provided sensor type is missing or invalid')


def test_a_sensor_without_a_type_is_refused_as_libsdformat_refuses_it(tmp_path):
    refused_alike(_one_link('<sensor name="s"/>'), tmp_path, "r.sdf:2: link 'a': <sensor> is "
                  "missing required attribute 'type' (libsdformat refuses the file)",
                  'Required attribute[type] in element[sensor] is not specified',
                  parse=parse_sdf)
