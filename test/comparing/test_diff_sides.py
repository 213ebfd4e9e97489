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


"""A URDF compared with SDFormat: converted, lumped, its places mapped back to the URDF."""

from diff_support import ARM
from diff_support import line_of
from diff_support import read
from sdf_tools.comparing import diff
from sdf_tools.comparing.sides import lumped
from sdf_tools.comparing.sides import sdf_version
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.loading import load
from sdf_tools.loading import to_sdf


def test_every_place_of_the_lumped_model_is_in_the_urdf():
    view = lumped(read(ARM, 'arm.urdf'))
    robot = view.robot
    fore = robot.link('fore')
    assert (fore.location.source, fore.location.line) == ('arm.urdf',
                                                          line_of(ARM, '<link name="fore"'))
    collision, = fore.collisions  # the tool's, merged into the forearm
    assert collision.name == 'fore_fixed_joint_lump__tool_collision'
    assert collision.location.line == line_of(ARM, 'sphere')
    assert {f.name: f.location.line for f in robot.frames} == {
        'tool_joint': line_of(ARM, 'name="tool_joint"'), 'tool': line_of(ARM, 'name="tool"')}
    assert robot.joint('finger_joint').parent == 'fore'
    assert view.blocks[('link', 'fore')][0][0].line == line_of(ARM, '<gazebo reference="tool">')


def test_conversion_warnings_and_left_out_elements_are_notes():
    massless = ARM.replace('<inertial><mass value="0.01"/><inertia ixx="1e-5" iyy="1e-5" '
                           'izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial>', '')
    notes = {note.kind: note for note in lumped(read(massless, 'arm.urdf')).notes}
    assert 'finger' in notes['converted'].text and 'mass' in notes['converted'].text
    assert notes['left-out'].text.startswith("robot 'arm': <transmission> 'elbow_transmission'")
    assert notes['left-out'].location.line == line_of(ARM, '<transmission')


def test_a_xacro_urdf_is_placed_in_the_xacro_file(tmp_path):
    xacro = tmp_path / 'arm.urdf.xacro'
    xacro.write_text(ARM.replace('<robot name="arm">', '<robot name="arm" '
                                 'xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                                 '  <xacro:property name="r" value="0.05"/>', 1).replace(
        '<sphere radius="0.05"/>', '<sphere radius="${r}"/>'))
    collision, = lumped(load(str(xacro))).robot.link('fore').collisions
    assert collision.location.source == str(xacro)
    assert collision.location.line == line_of(xacro.read_text(), '${r}')


def test_the_urdf_is_converted_to_the_version_of_the_other_side():
    mimic = ARM.replace('<axis xyz="1 0 0"/>', '<axis xyz="1 0 0"/><mimic joint="elbow"/>')
    urdf = read(mimic, 'arm.urdf')
    for version in ('1.9', '1.11'):
        sdf = read(to_sdf(urdf, ConversionOptions(sdf_version=version)).sdf, 'arm.sdf')
        assert sdf_version(sdf) == version
        assert diff(urdf, sdf).equal  # with the mimic joint (1.11) or without (1.9) on both
    assert sdf_version(read('<sdf version="1.6"><model name="m"><link name="a"/></model></sdf>',
                            'old.sdf')) == '1.9'
