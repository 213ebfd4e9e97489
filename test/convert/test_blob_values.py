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

"""Tests of sdf_tools.convert.blob_values: ``<gazebo>`` blobs checked, by converting."""

from diagnostics import urdf
import pytest
from sdf_tools.convert.gazebo_ext import parse_extensions
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Reporter
from sdf_tools.errors import Severity
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.xmlio.parse import quote_value
from sdf_tools.xmlio.parse import ValueReader
import support
from urdf_snippets import convert
from urdf_snippets import INERTIAL
from urdf_snippets import model_of

BASE = f'<link name="base">{INERTIAL}</link>'
# A camera link merged into base by fixed-joint lumping, which re-expresses its sensor poses.
LUMPED = ('<link name="cam"/><joint name="to_cam" type="fixed"><parent link="base"/>'
          '<child link="cam"/><origin xyz="0 0 1"/></joint>')


@pytest.mark.parametrize('lumped', [False, True], ids=['kept', 'lumped'])
@pytest.mark.parametrize('pose, problem', [
    ('nan 0 0 0 0 0', 'must be 6 numbers'),
    ('1e999 0 0 0 0 0', 'must be finite'),
    ('1 2 3 4 5 6 7 8', 'must be 6 numbers')])
def test_a_sensor_pose_libsdformat_refuses_is_an_error_at_its_line(pose, problem, lumped,
                                                                   tmp_path):
    ref = 'cam' if lumped else 'base'
    text = urdf(BASE, LUMPED if lumped else '', f'<gazebo reference="{ref}">',
                '<sensor name="s" type="camera">', f'<pose>{pose}</pose>', '</sensor>',
                '</gazebo>')
    with pytest.raises(DescriptionError) as caught:
        convert(text)
    (error,) = caught.value.diagnostics
    assert str(error) == (f"test.urdf:6: <gazebo reference='{ref}'> <sensor name='s'>: "
                          f"<pose> {problem}, got '{pose}'")
    assert error.code in (Code.BAD_NUMBER, Code.BAD_ARITY)
    if support.oracle_path() is not None and not lumped:  # the reference refuses it too
        (tmp_path / 'r.urdf').write_text(text)
        assert support.run_oracle('convert', tmp_path / 'r.urdf').returncode != 0


def test_values_libsdformat_refuses_are_errors_and_those_it_reads_otherwise_warnings(tmp_path):
    text = urdf(BASE, '<gazebo reference="base">',
                '<sensor name="cam" type="camera"><update_rate>abc</update_rate>',
                '<camera><horizontal_fov>1.2</horizontal_fov><image><width>1.5</width>',
                '<height>-240</height></image><clip><near>nan</near></clip></camera>',
                '</sensor><sensor name="laser" type="gpu_lidar"><lidar><scan><horizontal>',
                '<samples>-1</samples><min_angle>1e999</min_angle></horizontal></scan>',
                '</lidar></sensor><light name="l" type="spot"><diffuse>1 1</diffuse>',
                '<specular>1 1 1</specular><direction>0 0 -1 0</direction>',
                '<attenuation><range>x</range></attenuation></light>',
                '<projector name="p"><fov>0.5 0.5</fov></projector></gazebo>')
    robot = parse_urdf(text, 'test.urdf')
    reporter = Reporter()
    with pytest.raises(DescriptionError) as caught:
        parse_extensions(robot, ValueReader('test.urdf', reporter))
    cam, laser, light = (f"<gazebo reference='base'> <{what}>" for what in (
        "sensor name='cam'", "sensor name='laser'", "light name='l'"))
    refused = ' (libsdformat refuses the file)'
    assert [(e.location.line, e.entity, e.message) for e in caught.value.diagnostics] == [
        (4, cam, f"<update_rate> must be a number, got 'abc'{refused}"),
        (8, laser, f"<min_angle> must be a number, got '1e999'{refused}"),
        (9, light, f"<diffuse> must be 3 or 4 numbers from 0 to 1, got '1 1'{refused}"),
        (11, light, f"<range> must be a number, got 'x'{refused}")]
    # What libsdformat reads as something else than what is written is said.
    assert [(w.location.line, w.message) for w in reporter.warnings] == [
        (5, "<width> '1.5' is read as 1 by libsdformat"),
        (6, "<near> 'nan' is read as nan by libsdformat (not a number)"),
        (8, "<samples> '-1' is read as 4294967295 by libsdformat"),
        (10, "<direction> '0 0 -1 0' is read as 0 0 -1 by libsdformat"),
        (12, "<fov> '0.5 0.5' is read as 0.5 by libsdformat")]
    assert {w.code for w in reporter.warnings} == {Code.READ_AS}
    if support.oracle_path() is not None:   # libsdformat refuses the robot too
        (tmp_path / 'r.urdf').write_text(text)
        assert support.run_oracle('convert', tmp_path / 'r.urdf').returncode != 0


def test_a_decimal_integer_is_read_as_libsdformat_reads_it_and_the_robot_loads(tmp_path):
    # A laser of a real mobile base (xacro arithmetic upstream): libsdformat reads 666.
    text = urdf(BASE, '<gazebo reference="base">',
                '<sensor name="laser" type="ray"><ray><scan><horizontal>',
                '<samples>666.5185185185185</samples><resolution>1</resolution>',
                '<min_angle>-2.0</min_angle><max_angle>2.0</max_angle></horizontal></scan>',
                '<range><min>0.1</min><max>10</max></range></ray></sensor></gazebo>')
    result = convert(text)
    (warning,) = result.warnings
    assert str(warning) == ("test.urdf:5: warning: <gazebo reference='base'> <sensor "
                            "name='laser'>: <samples> '666.5185185185185' is read as 666 by "
                            'libsdformat')
    assert warning.code == Code.READ_AS
    assert model_of(result).findtext('link/sensor/ray/scan/horizontal/samples') == \
        '666.5185185185185'   # copied as written: libsdformat reads it alike
    parse_sdf(result.sdf)   # and so does sdf_tools
    if support.oracle_path() is not None:
        (tmp_path / 'r.urdf').write_text(text)
        (tmp_path / 'ours.sdf').write_text(result.sdf)
        assert support.run_oracle('convert', tmp_path / 'r.urdf').returncode == 0
        assert support.run_oracle('check', tmp_path / 'ours.sdf').returncode == 0


def test_integers_in_base_16_are_read_as_libsdformat_reads_them(tmp_path):
    # Param.cc reads a text starting '0x' (any case) in base 16 (std::stoi, std::stoul).
    text = urdf(BASE, '<gazebo reference="base">', '<sensor name="cam" type="camera"><camera>',
                '<image><width>0x280</width><height> 0X1E0 </height></image></camera>',
                '<lidar><scan><horizontal><samples>0xFFFFFFFF</samples></horizontal></scan>',
                '</lidar></sensor></gazebo>')
    result = convert(text)
    camera = model_of(result).find("link[@name='base']/sensor/camera")
    assert camera.findtext('image/width') == '0x280' and result.warnings == ()
    if support.oracle_path() is not None:
        (tmp_path / 'r.urdf').write_text(text)
        assert support.run_oracle('convert', tmp_path / 'r.urdf').returncode == 0


@pytest.mark.parametrize('width, read_as', [
    ('0x80000000', None), ('0x' + 'F' * 400, None),   # std::stoi: out of range
    # '-0x1' is not base 16 to libsdformat: std::stoi reads its '-0'; '0x' is 0.
    ('-0x1', '0'), ('0x', '0')])
def test_integers_libsdformat_refuses_are_errors_and_the_others_read_as_it_reads_them(
        width, read_as, tmp_path):
    text = urdf(BASE, '<gazebo reference="base">', '<sensor name="cam" type="camera"><camera>',
                f'<image><width>{width}</width></image></camera></sensor></gazebo>')
    if read_as is not None:
        (warning,) = convert(text).warnings
        assert warning.location.line == 5
        assert warning.message == f'<width> {width!r} is read as {read_as} by libsdformat'
    else:
        with pytest.raises(DescriptionError) as caught:
            convert(text)
        (error,) = caught.value.diagnostics
        assert error.location.line == 5
        assert error.message.startswith('<width> must be an integer of 32 bits, got '
                                        f'{quote_value(width)}')
    if support.oracle_path() is not None:
        (tmp_path / 'r.urdf').write_text(text)
        result = support.run_oracle('convert', tmp_path / 'r.urdf')
        assert (result.returncode == 0) == (read_as is not None)


def test_plugin_content_and_unknown_elements_are_copied_unread():
    text = urdf(BASE, '<gazebo reference="base">',
                '<sensor name="s" type="camera"><pose rotation_format="quat_xyzw">'
                '0 0 1 0 0 0 1</pose><plugin name="p" filename="libp.so"><pose>junk</pose>'
                '<update_rate>often</update_rate></plugin></sensor>',
                '<custom><pose>junk</pose></custom><visual><pose degrees="true">0 0 0 0 0 90'
                '</pose></visual></gazebo>')
    base = model_of(convert(text)).find("link[@name='base']")
    assert base.findtext('sensor/pose') == '0 0 1 0 0 0 1'
    assert base.findtext('sensor/plugin/pose') == 'junk'
    assert base.findtext('sensor/plugin/update_rate') == 'often'
    assert base.findtext('custom/pose') == 'junk'


def test_each_misspelt_tag_of_a_gazebo_block_is_named_with_the_tag_it_stands_for():
    result = convert(urdf(
        BASE, f'<link name="wheel_left_link">{INERTIAL}</link><joint name="j" '
        'type="continuous"><parent link="base"/><child link="wheel_left_link"/></joint>',
        '<gazebo reference="base"><mu11>0.5</mu11><selfColide>true</selfColide>',
        '<matrial>Gazebo/Grey</matrial><min_depth>0.001</min_depth><kpp>1e6</kpp>',
        '<sensor name="s" type="gpu_rey"><update_rte>10</update_rte><ray><scan><horizontal>',
        '<sample>100</sample></horizontal></scan></ray></sensor></gazebo>',
        '<gazebo reference="j"><provideFeedBack>true</provideFeedBack></gazebo>',
        '<gazebo reference="wheel_left_lnk"><mu1>1</mu1></gazebo>'))
    said = [(w.location.line, w.code, w.message.rpartition('; ')[2]) for w in result.warnings]
    assert said == [
        (4, Code.UNKNOWN_NAME, 'did you mean <mu1>?'),
        (4, Code.UNKNOWN_NAME, 'did you mean <selfCollide>?'),
        (5, Code.UNKNOWN_NAME, 'did you mean <material>?'),
        (5, Code.UNKNOWN_NAME, 'did you mean <minDepth>?'),
        (5, Code.UNKNOWN_NAME, 'did you mean <kp>?'),
        (6, Code.LOADER_REFUSES, "<sensor> type 'gpu_rey' is not a sensor type libsdformat "
         "knows (did you mean 'gpu_ray'?): libsdformat 10 and later refuse the file (Gazebo "
         'Sim loads nothing)'),
        (6, Code.UNKNOWN_NAME, 'did you mean <update_rate>?'),
        (7, Code.UNKNOWN_NAME, 'did you mean <samples>?'),
        (8, Code.UNKNOWN_NAME, 'did you mean <provideFeedback>?'),
        (9, Code.UNKNOWN_REFERENCE, "the block is ignored (did you mean 'wheel_left_link'?)")]
    assert result.warnings[0].message.startswith(
        '<mu11> is neither a <gazebo> extension nor an SDFormat 1.9 element of a <link>: it '
        'is copied there, and Gazebo ignores it')
    assert result.warnings[6].message.startswith('<sensor> has no element <update_rte> in '
                                                 'SDFormat 1.9; Gazebo ignores it')


def test_the_sdformat_version_written_decides_what_a_gazebo_block_may_hold():
    # <mimic> is SDFormat 1.11's: in a 1.9 joint nothing reads it. A namespaced element,
    # and what a plugin holds, are never judged.
    text = urdf(BASE, f'<link name="a">{INERTIAL}</link><joint name="j" type="continuous">'
                '<parent link="base"/><child link="a"/></joint>',
                '<gazebo reference="j"><axis><mimic joint="j"><multiplier>1</multiplier>'
                '</mimic></axis></gazebo>',
                '<gazebo><my:thing xmlns:my="urn:x"><anything/></my:thing><plugin name="p" '
                'filename="p.so"><mimc/><update_rte>1</update_rte></plugin></gazebo>')
    (warning,) = convert(text).warnings
    assert warning.message == ('<axis> has no element <mimic> in SDFormat 1.9 (SDFormat 1.11 '
                               'has it); Gazebo ignores it')
    assert convert(text, sdf_version='1.11').warnings == ()


def test_a_sensor_type_libsdformat_does_not_know_is_an_error_in_check(tmp_path):
    text = urdf(BASE, '<gazebo reference="base"><sensor name="s" type="rey"/></gazebo>')
    (warning,) = convert(text).warnings   # the converter writes it, with a warning
    assert warning.code == Code.LOADER_REFUSES and "(did you mean 'ray'?)" in warning.message
    (problem,) = check(load(text=text))
    assert (problem.code, problem.severity) == (Code.LOADER_REFUSES, Severity.ERROR)
    if support.oracle_path() is not None:
        (tmp_path / 'r.urdf').write_text(text)
        result = support.run_oracle('check', tmp_path / 'r.urdf')
        assert 'the provided sensor type is missing or invalid' in result.stdout


@pytest.mark.parametrize('block, what', [
    ('<mu1>-1</mu1>', '<mu1> (SDFormat <mu>) -1'),
    ('<collision><surface><friction><ode><mu2>-0.5</mu2></ode></friction></surface>'
     '</collision>', '<mu2> -0.5')])
def test_a_value_below_the_specifications_minimum_is_what_gazebo_refuses(block, what,
                                                                         tmp_path):
    text = urdf('<link name="base">' + INERTIAL + '<collision><geometry><box size="1 1 1"/>'
                '</geometry></collision></link>', f'<gazebo reference="base">{block}</gazebo>')
    result = convert(text)
    (warning,) = result.warnings
    assert warning.code == Code.LOADER_REFUSES
    assert warning.message == (f'{what} is less than the minimum allowed value of 0: '
                               'libsdformat 10 and later refuse the file (Gazebo Sim loads '
                               'nothing); Gazebo classic reads it')
    assert [d.severity for d in check(load(text=text))] == [Severity.ERROR]
    if support.oracle_path() is not None:   # libsdformat 12.3 refuses it
        (tmp_path / 'r.urdf').write_text(text)
        result = support.run_oracle('check', tmp_path / 'r.urdf')
        assert 'less than the minimum allowed value of [0]' in result.stderr


def test_an_attribute_of_an_older_version_is_reported_unless_it_is_empty():
    # <pose frame> is SDFormat 1.5's and 1.6's; an empty one (as published camera macros
    # write it) loses nothing.
    for frame, said in (('', []), ('cam', ["<pose> has no attribute 'frame' in SDFormat 1.9 "
                                           '(SDFormat 1.5, 1.6 have it); Gazebo ignores it'])):
        text = urdf(BASE, f'<gazebo reference="base"><sensor name="s" type="camera"><pose '
                    f'frame="{frame}">0 0 0 0 0 0</pose></sensor></gazebo>')
        assert [w.message for w in convert(text).warnings] == said


@pytest.mark.parametrize('material, message', [
    ('<script><name>Gazebo/Blue</name></script>', '<material><script> needs <uri>'),
    ('<shader type="normal_map_tangent_space"/>', '<material><shader> type '
     "'normal_map_tangent_space' needs <normal_map> (the normal map image)")])
def test_a_material_libsdformat_loads_then_refuses_is_an_error_in_check(material, message,
                                                                        tmp_path):
    # libsdformat converts such a <visual> extension (a script's uri as '__default__') and
    # its loader refuses the result.
    visual = '<link name="base">' + INERTIAL + '<visual><geometry><box size="1 1 1"/>' \
        '</geometry></visual></link>'
    text = urdf(visual, f'<gazebo reference="base"><visual><material>{material}</material>'
                '</visual></gazebo>')
    (warning,) = convert(text).warnings
    assert (warning.code, warning.location.line) == (Code.LOADER_REFUSES, 3)
    assert warning.message == (f'{message}: libsdformat converts it, and its loader then '
                               'refuses the file (Gazebo Sim loads nothing)')
    assert [d.severity for d in check(load(text=text))] == [Severity.ERROR]
    if support.oracle_path() is not None:
        (tmp_path / 'r.urdf').write_text(text)
        assert support.run_oracle('check', tmp_path / 'r.urdf').returncode != 0
    # A <material> tag of the link's blocks names the script whole: libsdformat loads it.
    text = text.replace('<gazebo reference="base">', '<gazebo reference="base"><material>'
                        'Gazebo/Red</material>')
    if 'script' in material:   # (it replaces the script's name, with a warning)
        assert [d.code for d in check(load(text=text))] == [Code.OVERWRITE]
        if support.oracle_path() is not None:
            (tmp_path / 'r.urdf').write_text(text)
            assert 'oracle: OK' in support.run_oracle('check', tmp_path / 'r.urdf').stdout


def test_sensor_content_in_an_old_layout_says_what_gazebo_does():
    # As in SDFormat input (test_sdf_content): the blob is copied, and Gazebo ignores it.
    text = urdf(BASE, '<gazebo reference="base"><sensor name="c" type="camera"><image><width>'
                '640</width></image><camera><image><width>64</width></image></camera></sensor>'
                '<sensor name="i" type="imu"><imu><noise><type>gaussian</type></noise></imu>'
                '</sensor></gazebo>')
    image, noise = convert(text).warnings
    assert image.message == ('<sensor> has no element <image> in SDFormat 1.9; it belongs in '
                             "the sensor's <camera>: Gazebo ignores it here, and reads the "
                             '<camera><image> of line 3')
    assert noise.message.endswith('so the IMU is simulated without noise; since SDFormat 1.6 '
                                  'each axis has its own: <angular_velocity><x><noise>, ..., '
                                  '<linear_acceleration><z><noise>')
    assert convert(text, sdf_version='1.11').warnings[0].message == image.message.replace(
        '1.9', '1.11')
