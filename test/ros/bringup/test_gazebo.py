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
Tests of sdf_tools.ros.bringup.gazebo: the JointStatePublisher system added for a Gazebo spawn.

The names were read in gazebosim/gz-sim: ``src/systems/joint_state_publisher/
JointStatePublisher.cc`` (``Configure`` reads ``<topic>`` on branches ign-gazebo6, gz-sim8
and gz-sim9; the class is registered as ``ignition::gazebo::systems::JointStatePublisher``
in Fortress and ``gz::sim::systems::JointStatePublisher`` later) and ``src/SystemLoader.cc``
(gz-sim8 and later map the ``ignition-gazebo``/``ignition::gazebo`` names to ``gz-sim``/
``gz::sim`` with a deprecation warning; Fortress maps ``gz-sim`` file names but not class
names).
"""

import pytest
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.ros.bringup.gazebo import gz_topic_problem
from sdf_tools.ros.bringup.gazebo import joint_state_publisher
from sdf_tools.ros.bringup.gazebo import joint_state_publisher_names
from sdf_tools.ros.descriptions import convert
from sdf_tools.xmlio.parse import parse_xml
from support import DATA_DIR

DEMO = (DATA_DIR / 'conversion' / 'demo_arm.urdf').read_text()


def _with_system(text: str, version: str, topic: str) -> tuple[str, str]:
    """Return a description converted without and with the system (``plugins``)."""
    plain = convert(text, ConversionOptions(sdf_version=version)).sdf
    added = convert(text, ConversionOptions(sdf_version=version, plugins=(
        joint_state_publisher(version, topic),))).sdf
    return plain, added


def _last_three_lines_added(plain: str, added: str) -> None:
    """Assert ``added`` is ``plain`` with three lines before ``</model>``, indented."""
    lines = added.splitlines()
    end = lines.index('  </model>')
    assert lines[:end - 3] + lines[end:] == plain.splitlines()
    assert [len(line) - len(line.lstrip()) for line in lines[end - 3:end]] == [4, 6, 4]


@pytest.mark.parametrize('version, names', [
    ('1.9', ('ignition-gazebo-joint-state-publisher-system',
             'ignition::gazebo::systems::JointStatePublisher')),
    ('1.10', ('gz-sim-joint-state-publisher-system', 'gz::sim::systems::JointStatePublisher')),
    ('1.11', ('gz-sim-joint-state-publisher-system', 'gz::sim::systems::JointStatePublisher')),
])
def test_the_system_is_written_as_the_models_last_element(version, names):
    plain, added = _with_system(DEMO, version, '/model/demo/joint_state')
    model = parse_xml(added).find('model')
    last = model[-1]
    assert (last.tag, last.get('filename'), last.get('name')) == ('plugin', *names)
    assert last.findtext('topic') == '/model/demo/joint_state'
    _last_three_lines_added(plain, added)  # nothing else changes
    assert joint_state_publisher_names(version) == names


def test_sdformat_input_and_topic_checks():
    plain, added = _with_system((DATA_DIR / 'sdf' / 'joint_types.sdf').read_text(), '1.9',
                                'a&b')
    assert added.count('JointStatePublisher') == 1
    assert parse_xml(added).find('model')[-1].findtext('topic') == 'a&b'
    _last_three_lines_added(plain, added)
    for topic in ('', '/', 'a b', '/x@y', 'a:=b', '/a//b', 'tab\there'):
        assert gz_topic_problem(topic), topic
        with pytest.raises(ValueError, match='Gazebo topic'):
            joint_state_publisher('1.9', topic)
    assert gz_topic_problem('/model/r2_d2/joint_state') is None
