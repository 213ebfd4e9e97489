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
Tests of sdf_tools.convert.emit_joints: a joint written in one block.

A joint no extension configures is written whole, with the schema's defaults, as one block;
it must be the text of the same joint written element by element and completed by
``complete_defaults`` (the path joints with extensions take). What joints become is tested
against libsdformat in test_urdf_to_sdf and test_corpus_conversion.
"""

from lxml import etree
import pytest
from sdf_tools.convert import emit_joints
from sdf_tools.xmlio.text import XmlText

LIMITS = [(), ('effort', 'velocity'), ('lower', 'upper', 'effort', 'velocity')]
DYNAMICS = [(), ('damping', 'friction')]
SHAPES = ([(limit, dynamics, False) for limit in LIMITS for dynamics in DYNAMICS]
          + [(('lower', 'upper'), ('damping', 'friction'), True)])


@pytest.mark.parametrize('depth', [1, 3])
@pytest.mark.parametrize('limit, dynamics, locked', SHAPES)
def test_a_whole_joint_block_is_the_joint_completed_element_by_element(limit, dynamics,
                                                                       locked, depth):
    placement = ('base', '1 2 3 0 0 0', 'base', 'arm')
    texts = {tag: str(i) for i, tag in enumerate((*limit, *dynamics), start=10)}
    by_element = XmlText(depth)
    by_element.start('joint', {'name': 'j', 'type': 'revolute'})
    by_element.block(emit_joints._PLACEMENT, *placement)
    by_element.start('axis')
    if not locked:
        by_element.leaf('xyz', '0 1 0')
    by_element.group('limit', [(tag, texts[tag]) for tag in limit])
    by_element.group('dynamics', [(tag, texts[tag]) for tag in dynamics])
    by_element.end()
    by_element.end()
    joint = etree.fromstring(by_element.text())
    emit_joints.complete_defaults(joint)
    expected = XmlText(depth)
    expected.element(joint)

    at_once = XmlText(depth)
    at_once.block(emit_joints._moving_joint(limit, dynamics, locked), 'j', 'revolute',
                  *placement, *(() if locked else ('0 1 0',)), *texts.values())
    assert at_once.text() == expected.text()
