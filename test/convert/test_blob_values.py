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

"""Tests of sdf_tools.convert.blob_values: the numbers in ``<gazebo>`` blobs, by converting."""

from diagnostics import urdf
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
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


def test_numbers_of_sensors_lights_and_projectors_are_read_as_their_schema_types():
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
    with pytest.raises(DescriptionError) as caught:
        convert(text)
    assert [(e.location.line, e.entity, e.message) for e in caught.value.diagnostics] == [
        (4, "<gazebo reference='base'> <sensor name='cam'>",
         "<update_rate> must be a number, got 'abc'"),
        (5, "<gazebo reference='base'> <sensor name='cam'>",
         "<width> must be an integer that fits 32 bits, got '1.5'"),
        (6, "<gazebo reference='base'> <sensor name='cam'>",
         "<near> must be a number, got 'nan'"),
        (8, "<gazebo reference='base'> <sensor name='laser'>",
         "<samples> must be a non-negative integer that fits 32 bits, got '-1'"),
        (8, "<gazebo reference='base'> <sensor name='laser'>",
         "<min_angle> must be finite, got '1e999'"),
        (9, "<gazebo reference='base'> <light name='l'>",
         "<diffuse> must be 3 or 4 numbers (RGB or RGBA), got '1 1'"),
        (10, "<gazebo reference='base'> <light name='l'>",
         "<direction> must be 3 numbers, got '0 0 -1 0'"),
        (11, "<gazebo reference='base'> <light name='l'>", "<range> must be a number, got 'x'"),
        (12, "<gazebo reference='base'> <projector name='p'>",
         "<fov> must be a number, got '0.5 0.5'")]


def test_integers_in_base_16_are_read_as_libsdformat_reads_them(tmp_path):
    # Param.cc reads '0x' and hex digits in base 16 (std::stoi, std::stoul).
    text = urdf(BASE, '<gazebo reference="base">', '<sensor name="cam" type="camera"><camera>',
                '<image><width>0x280</width><height> 0x1E0 </height></image></camera>',
                '<lidar><scan><horizontal><samples>0xFFFFFFFF</samples></horizontal></scan>',
                '</lidar></sensor></gazebo>')
    camera = model_of(convert(text)).find("link[@name='base']/sensor/camera")
    assert camera.findtext('image/width') == '0x280'
    if support.oracle_path() is not None:
        (tmp_path / 'r.urdf').write_text(text)
        assert support.run_oracle('convert', tmp_path / 'r.urdf').returncode == 0


@pytest.mark.parametrize('width, shown', [
    ('0x80000000', "'0x80000000'"),  # std::stoi: out of range
    ('0x' + 'F' * 400, repr('0x' + 'F' * 38 + '...')),  # beyond a float: still a message
    # Not base 16 for libsdformat, which reads the 0 and ignores the rest (refused here).
    ('0X10', "'0X10'"), ('-0x1', "'-0x1'"), ('0x', "'0x'")])
def test_integers_in_base_16_out_of_range_or_malformed_are_errors(width, shown, tmp_path):
    text = urdf(BASE, '<gazebo reference="base">', '<sensor name="cam" type="camera"><camera>',
                f'<image><width>{width}</width></image></camera></sensor></gazebo>')
    with pytest.raises(DescriptionError) as caught:
        convert(text)
    (error,) = caught.value.diagnostics
    assert error.location.line == 5
    assert error.message.startswith('<width> must be ')
    assert error.message.endswith(f', got {shown}')
    if support.oracle_path() is not None and width == '0x80000000':
        (tmp_path / 'r.urdf').write_text(text)
        assert support.run_oracle('convert', tmp_path / 'r.urdf').returncode != 0


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
