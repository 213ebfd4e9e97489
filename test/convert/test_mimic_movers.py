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
Tests of sdf_tools.convert.mimic_movers: what the note about a ``<mimic>`` left out says.

The plugins' elements are those their documentation gives (roboticsgroup's README, the
Care-O-bot plugin's XML reference, ign_ros2_control's MimicJointSystem header, gz_ros2_control's
"Using mimic joints in simulation").
"""

from diagnostics import urdf
import pytest
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.formats.urdf.reader import parse_urdf

DROPPED = ('<mimic> is left out: SDFormat 1.9 has no mimic joints (1.11 has; libsdformat 12 '
           'drops it too), ')


def gripper(*extra):
    """Return a URDF whose joint 'f' (line 6) mimics 'j' (line 5); ``extra`` from line 7."""
    limit = '<limit lower="0" upper="1" effort="1" velocity="1"/>'
    return urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
                f'<joint name="j" type="revolute"><parent link="a"/><child link="b"/>{limit}'
                '</joint>',
                f'<joint name="f" type="revolute"><parent link="a"/><child link="c"/>{limit}'
                '<mimic joint="j" multiplier="-1"/></joint>', *extra)


def mimic_note(text):
    [warning] = [w for w in urdf_to_sdf(parse_urdf(text, 'g.urdf')).warnings
                 if w.code == 'mimic-dropped']
    assert warning.location.line == 6
    return str(warning).split(DROPPED, 1)[1]


def test_without_a_mover_the_simulator_moves_the_joint_on_its_own():
    assert mimic_note(gripper()) == 'so the simulator moves this joint on its own'


@pytest.mark.parametrize('filename, moved, followed', [
    ('libroboticsgroup_gazebo_mimic_joint_plugin.so', 'mimicJoint', 'joint'),
    ('libroboticsgroup_upatras_gazebo_mimic_joint_plugin.so', 'mimicJoint', 'joint'),
    ('libgazebo_ros_mimic_joint.so', 'mimicJoint', 'jointName'),
    ('mimic-joint-system', 'joint_name', 'mimic_joint_name'),
])
def test_a_mimic_plugin_is_named_with_its_line(filename, moved, followed):
    plugin = (f'<plugin name="mimic_f" filename="{filename}"><{followed}>j</{followed}>'
              f'<{moved}>f</{moved}><multiplier>-1</multiplier></plugin>')
    note = mimic_note(gripper('<gazebo>', plugin, '</gazebo>'))
    assert note == f"and the <plugin> 'mimic_f' ({filename}) moves this joint instead (see line 8)"
    other = plugin.replace(f'<{followed}>j<', f'<{followed}>b<')
    assert mimic_note(gripper('<gazebo>', other, '</gazebo>')) == (
        f"and the <plugin> 'mimic_f' ({filename}) moves this joint after 'b' instead (its "
        "<mimic> names 'j') (see line 8)")


def test_a_plugin_that_is_no_mimic_plugin_or_moves_another_joint_is_not_named():
    for plugin in ('<plugin name="p" filename="libother.so"><mimicJoint>f</mimicJoint>'
                   '<joint>j</joint></plugin>',
                   '<plugin name="m" filename="libmimic.so"><mimicJoint>g</mimicJoint>'
                   '<joint>j</joint></plugin>'):
        assert mimic_note(gripper('<gazebo>', plugin, '</gazebo>')) == \
            'so the simulator moves this joint on its own'


@pytest.mark.parametrize('system, named', [('gz_ros2_control/GazeboSimSystem', True),
                                           ('gazebo_ros2_control/GazeboSystem', True),
                                           ('mock_components/GenericSystem', False)])
def test_a_ros2_control_simulator_listing_the_joint_moves_it(system, named):
    control = ('<ros2_control name="sim" type="system">',
               f'<hardware><plugin>{system}</plugin></hardware>',
               '<joint name="j"><command_interface name="position"/></joint>',
               '<joint name="f"><state_interface name="position"/></joint>',
               '</ros2_control>')
    note = mimic_note(gripper(*control))
    tool = system.partition('/')[0]
    assert note == (f"and {tool} (its <ros2_control> 'sim' lists it) moves this joint instead "
                    '(see line 7)' if named else 'so the simulator moves this joint on its own')


def test_a_mimic_of_a_joint_that_does_not_exist_is_the_readers_one_warning():
    robot = parse_urdf(gripper().replace('<mimic joint="j"', '<mimic joint="nope"'), 'g.urdf')
    assert [w.code for w in robot.warnings] == ['missing-joint']
    assert [w for w in urdf_to_sdf(robot).warnings if w.code == 'mimic-dropped'] == []
