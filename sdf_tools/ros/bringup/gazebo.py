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
calls :func:`add_joint_state_publisher` on each SDFormat it publishes, so that Gazebo
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
from sdf_tools.xmlio.text import escape_text

#: ``(filename, name)`` of the JointStatePublisher system: Fortress, then Garden and later.
FORTRESS_JOINT_STATE_PUBLISHER = ('ignition-gazebo-joint-state-publisher-system',
                                  'ignition::gazebo::systems::JointStatePublisher')
GZ_JOINT_STATE_PUBLISHER = ('gz-sim-joint-state-publisher-system',
                            'gz::sim::systems::JointStatePublisher')
#: The first SDFormat version Fortress cannot read (Garden's libsdformat 13 writes 1.10).
FIRST_GZ_SIM_VERSION = '1.10'

_VERSION = re.compile(r'<sdf\b[^>]*\bversion\s*=\s*["\']([0-9.]+)["\']')


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


def add_joint_state_publisher(sdf: str, topic: str) -> str:
    """
    Return ``sdf`` with Gazebo's JointStatePublisher system added to its model.

    Parameters
    ----------
    sdf : str
        An SDFormat document holding one top-level ``<model>`` (what the converter writes).
    topic : str
        The Gazebo topic the system publishes on.

    Returns
    -------
    str
        The same text with ``<plugin filename=... name=...><topic>topic</topic></plugin>``
        as the model's last element, indented like the writer's output (names from
        :func:`joint_state_publisher_names`). One the model already has (from a
        ``<gazebo>`` block) is kept: it may publish elsewhere, and two publish side by side.

    Raises
    ------
    ValueError
        ``topic`` is not a valid Gazebo topic, or ``sdf`` has no ``<sdf version=...>`` and
        ``</model>``.

    """
    problem = gz_topic_problem(topic)
    if problem:
        raise ValueError(problem)
    version = _VERSION.search(sdf)
    end = sdf.rfind('</model>')
    if version is None or end < 0:
        raise ValueError('not an SDFormat model: no <sdf version=...> or no </model>')
    filename, name = joint_state_publisher_names(version.group(1))
    start = sdf.rfind('\n', 0, end) + 1
    indent = sdf[start:end]
    if indent.strip():  # </model> does not start its line: write the plugin on one line
        start, indent, step, newline = end, '', '', ''
    else:  # indented like the writer's output: two spaces a level
        step, newline = '  ', '\n'
    plugin = (f'{indent}{step}<plugin filename="{filename}" name="{name}">{newline}'
              f'{indent}{step * 2}<topic>{escape_text(topic)}</topic>{newline}'
              f'{indent}{step}</plugin>{newline}')
    return sdf[:start] + plugin + sdf[start:]
