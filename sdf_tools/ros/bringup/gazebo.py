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
What a Gazebo spawn adds to a converted model: Gazebo's JointStatePublisher system.

``sdf_converter``'s ``gz_joint_state_topic`` parameter (set by ``gazebo_spawn.launch.py``)
has each SDFormat it publishes written with :func:`joint_state_publisher`, so that Gazebo
publishes the model's joint states (``gz.msgs.Model``) on a topic ``ros_gz_bridge`` turns
into ``sensor_msgs/JointState`` on ``joint_states``. The system's names depend on the Gazebo:
Fortress (libsdformat 12, which reads SDFormat up to 1.9) knows only the
``ignition-gazebo-...`` library and the ``ignition::gazebo`` class; Garden and later
(SDFormat 1.10 and up) use ``gz-sim-...`` and ``gz::sim``, and still load the Fortress names
with a deprecation warning (gz-sim ``SystemLoader``). So the names follow the document's
SDFormat version: whatever Gazebo can read the document can load the system.

The ``<topic>`` element is read by the system in Fortress and later (gz-sim
``JointStatePublisher::Configure``); without it Gazebo publishes on
``/world/<world>/model/<model>/joint_state``.
"""

import re

from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.xmlio.element import Element

#: ``(filename, name)`` of the JointStatePublisher system: Fortress, then Garden and later.
FORTRESS_JOINT_STATE_PUBLISHER = ('ignition-gazebo-joint-state-publisher-system',
                                  'ignition::gazebo::systems::JointStatePublisher')
GZ_JOINT_STATE_PUBLISHER = ('gz-sim-joint-state-publisher-system',
                            'gz::sim::systems::JointStatePublisher')
#: The first SDFormat version Fortress cannot read (Garden's libsdformat 13 writes 1.10).
FIRST_GZ_SIM_VERSION = '1.10'


def joint_state_publisher_names(sdf_version: str) -> tuple[str, str]:
    """Return ``(filename, name)`` of the JointStatePublisher system for an SDFormat version."""
    if version_tuple(sdf_version) < version_tuple(FIRST_GZ_SIM_VERSION):
        return FORTRESS_JOINT_STATE_PUBLISHER
    return GZ_JOINT_STATE_PUBLISHER


def gz_topic_problem(topic: str) -> str | None:
    """
    Return why ``topic`` is not a valid Gazebo topic name, or ``None``.

    The rules of gz-transport's ``TopicUtils::IsValidTopic``: not empty, no whitespace, no
    ``@``, no ``:=``, no ``//``, and not only ``/``.
    """
    if not topic or topic == '/':
        return f'a Gazebo topic must name something, got {topic!r}'
    if re.search(r'\s', topic) or '@' in topic or ':=' in topic or '//' in topic:
        return (f"a Gazebo topic cannot hold whitespace, '@', ':=' or '//', got {topic!r}")
    return None


def joint_state_publisher(sdf_version: str, topic: str) -> Element:
    """
    Return Gazebo's JointStatePublisher system for a model, as a ``<plugin>`` element.

    Parameters
    ----------
    sdf_version : str
        The SDFormat version of the document it goes in (the system's names,
        :func:`joint_state_publisher_names`).
    topic : str
        The Gazebo topic the system publishes on.

    Returns
    -------
    Element
        ``<plugin filename=... name=...><topic>topic</topic></plugin>``, for
        :class:`~sdf_tools.convert.urdf_to_sdf.ConversionOptions` ``plugins``: the writers
        put it last in the model. One the model already has (from a ``<gazebo>`` block) is
        kept: it may publish elsewhere, and two publish side by side.

    Raises
    ------
    ValueError
        ``topic`` is not a valid Gazebo topic.

    """
    problem = gz_topic_problem(topic)
    if problem:
        raise ValueError(problem)
    filename, name = joint_state_publisher_names(sdf_version)
    return Element('plugin', (('filename', filename), ('name', name)),
                   children=(Element('topic', text=topic),))
