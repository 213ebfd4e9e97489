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
What moves a mimic joint in the simulator when the SDFormat written cannot hold its ``<mimic>``.

SDFormat before 1.11 has no mimic joints: a joint whose URDF ``<mimic>`` is left out moves
on its own, unless the description loads something that moves it:

* a mimic plugin in a ``<gazebo>`` block (its ``filename`` or ``name`` says ``mimic``),
  naming the joint it moves and the joint it follows, as the known ones do
  (:data:`PLUGIN_ELEMENTS`): roboticsgroup's ``libroboticsgroup_gazebo_mimic_joint_plugin``
  (and its upatras fork) and Care-O-bot's ``gazebo_ros_mimic_joint`` (``<mimicJoint>``
  follows ``<joint>`` or ``<jointName>``), the ``MimicJointSystem`` of ign_ros2_control and
  its gz forks (``<joint_name>`` follows ``<mimic_joint_name>``);
* a ros2_control simulator system (:data:`ROS2_CONTROL_SYSTEMS`: gz_ros2_control and its
  Gazebo Classic and Ignition siblings), which moves each joint its ``<ros2_control>`` lists
  as the joint's URDF ``<mimic>`` says.

:func:`mimic_movers` finds them; the converter's warning about a ``<mimic>`` left out names
the one that moves the joint (:func:`mover_text`).
"""

from typing import TYPE_CHECKING

from sdf_tools.errors import SourceLocation
from sdf_tools.xmlio.parse import local_name

if TYPE_CHECKING:
    from sdf_tools.model import KeptElement
    from sdf_tools.model import Mimic
    from sdf_tools.model import Robot
    from sdf_tools.xmlio.element import Element

#: The mimic plugins' elements: (the joint it moves, the joint it follows), first match wins.
PLUGIN_ELEMENTS = (('mimicJoint', 'joint'), ('mimicJoint', 'jointName'),
                   ('joint_name', 'mimic_joint_name'))
#: ros2_control hardware plugins that move the mimic joints their ``<ros2_control>`` lists.
ROS2_CONTROL_SYSTEMS = {'gz_ros2_control/GazeboSimSystem': 'gz_ros2_control',
                        'ign_ros2_control/IgnitionSystem': 'ign_ros2_control',
                        'gazebo_ros2_control/GazeboSystem': 'gazebo_ros2_control'}

#: What moves a mimic joint: (what, the joint it follows or ``None``, where it is written).
Mover = tuple[str, str | None, SourceLocation | None]


def mimic_movers(robot: 'Robot') -> dict[str, Mover]:
    """
    Return what moves each joint a mimic plugin or a ros2_control simulator moves.

    ``joint name -> (what, followed, location)``: ``what`` names the plugin or the system,
    ``followed`` the joint it follows (``None``: as the URDF ``<mimic>`` says), ``location``
    where it is written. The first one found for a joint, in document order.
    """
    movers: dict[str, Mover] = {}
    for block in robot.gazebo:
        for element in block.elements:
            if isinstance(element.tag, str) and local_name(element) == 'plugin':
                _plugin(element, robot.source, movers)
    for kept in robot.urdf_extras:
        if kept.tag == 'ros2_control':
            _ros2_control(kept, movers)
    return movers


def mover_text(mover: Mover, mimic: 'Mimic') -> str:
    """Return what the warning says moves the joint (``mover`` of :func:`mimic_movers`)."""
    what, followed, _ = mover
    if followed is None or followed == mimic.joint:
        return f'{what} moves this joint instead'
    return f'{what} moves this joint after {followed!r} instead (its <mimic> names ' \
        f'{mimic.joint!r})'


def _plugin(element: 'Element', source: str, movers: dict[str, Mover]) -> None:
    filename, name = element.get('filename') or '', element.get('name') or ''
    if 'mimic' not in (filename + name).lower():
        return
    texts = {local_name(child): (child.text or '').strip() for child in element
             if isinstance(child.tag, str)}
    for moved, followed in PLUGIN_ELEMENTS:
        if texts.get(moved) and texts.get(followed):
            shown = f'{name!r} ({filename})' if name and filename else repr(name or filename)
            movers.setdefault(texts[moved], (f'the <plugin> {shown}', texts[followed],
                                             SourceLocation(source, element.sourceline)))
            return


def _ros2_control(kept: 'KeptElement', movers: dict[str, Mover]) -> None:
    element = kept.element
    plugin = element.find('hardware/plugin')
    system = ROS2_CONTROL_SYSTEMS.get((plugin.text or '').strip()) if plugin is not None \
        else None
    if system is None:
        return
    what = f'{system} (its <ros2_control> {kept.name!r} lists it)' if kept.name else system
    for joint in element.iterfind('joint'):
        if (name := joint.get('name')):
            movers.setdefault(name, (what, None, kept.location))
