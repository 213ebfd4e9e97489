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


"""The model as a whole, frames, and two URDFs' <gazebo> blocks as what they configure."""

from diff_support import ARM
from diff_support import compare
from diff_support import edited
from diff_support import line_of

SENSOR = '<sensor name="camera" type="camera"><update_rate>30</update_rate></sensor>'


def test_gazebo_blocks_compare_as_what_they_configure_however_split():
    one = edited(SENSOR, SENSOR + '<mu1>0.5</mu1>')
    two = edited(SENSOR, '<mu1>0.5</mu1></gazebo><gazebo reference="tool">' +
                 SENSOR.replace('<update_rate>30', '<update_rate>30.0'))
    assert compare(one, two).equal
    d, = compare(one, two.replace('<mu1>0.5', '<mu1>0.6')).differences
    assert (d.entity, d.name, d.field, d.a, d.b) == ('gazebo', 'tool', 'mu1', '0.5', '0.6')
    assert d.b_location.line == line_of(two, '<mu1>0.5')  # its own line


def test_a_gazebo_reference_follows_a_renamed_link():
    assert [d.kind for d in compare(ARM, ARM.replace('"tool"', '"hand"')).differences] == [
        'renamed']


def test_a_model_level_gazebo_block_is_compared():
    plugin = '<gazebo><plugin name="p" filename="a.so"><rate>10</rate></plugin></gazebo>'
    a = edited('</robot>', plugin + '</robot>')
    d, = compare(a, a.replace('a.so', 'b.so')).differences
    assert (d.entity, d.name, d.field, d.a, d.b) == ('gazebo', '', "plugin 'p'/@filename",
                                                     'a.so', 'b.so')


SDF = ('<sdf version="1.9"><model name="m"><static>{}</static><link name="a"/>'
       '<frame name="f" attached_to="a"><pose>{}</pose></frame></model></sdf>')


def test_the_model_name_and_static_are_compared():
    a = SDF.format('false', '0 0 1 0 0 0')
    b = a.replace('<static>false', '<static>true').replace('name="m"', 'name="n"')
    assert [(d.kind, d.a, d.b) for d in compare(a, b, names=('a.sdf', 'b.sdf')).differences] \
        == [('name', 'm', 'n'), ('static', False, True)]


def test_a_frame_is_compared_by_its_pose_in_its_link():
    d, = compare(SDF.format('false', '0 0 1 0 0 0'), SDF.format('false', '0 0 1 0 0 0.5'),
                 names=('a.sdf', 'b.sdf')).differences
    assert (d.entity, d.name, d.kind, d.b['rpy']) == ('frame', 'f', 'pose', [0.0, 0.0, 0.5])
    assert d.detail == 'moved 0 m, turned 0.5 rad'


def test_an_added_sensor_is_placed_at_its_own_line_lumped_or_not():
    """The tool has two blocks; a sensor added to the second is there, not at the first."""
    from diff_support import read
    from sdf_tools.comparing import diff
    from sdf_tools.loading import to_sdf
    two = edited('</gazebo>', '</gazebo>\n  <gazebo reference="tool">\n    <mu1>0.5</mu1>\n'
                 '  </gazebo>')
    added = edited('<mu1>0.5</mu1>\n', '<mu1>0.5</mu1>\n    <sensor name="imu" type="imu">'
                   '<update_rate>9</update_rate></sensor>\n', two)
    line = line_of(added, '<sensor name="imu"')
    assert line > line_of(added, '<gazebo reference="tool">') + 1
    (d,) = compare(added, two).differences
    assert (d.field, d.a_location.line) == ("sensor 'imu'", line)
    sdf = read(to_sdf(read(two, 'arm.urdf')).sdf, 'arm.sdf')
    (d,) = diff(read(added, 'arm.urdf'), sdf).differences
    assert (d.entity, d.name, d.field, d.a_location.line) == ('link', 'fore', "sensor 'imu'",
                                                              line)
