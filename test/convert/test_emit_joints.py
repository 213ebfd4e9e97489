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

A joint is written whole as one block: with the schema's defaults when no extension configures
it, otherwise without them, parsed, configured and completed by ``complete_defaults``. Either
way it must be the text of the same joint written element by element and completed by
``complete_defaults``. What joints become is tested against libsdformat in test_urdf_to_sdf
and test_corpus_conversion.
"""

from lxml import etree
import pytest
from sdf_tools.convert import emit_joints
from sdf_tools.xmlio.text import Block
from sdf_tools.xmlio.text import XmlText

LIMITS = [(), ('effort', 'velocity'), ('lower', 'upper', 'effort', 'velocity')]
DYNAMICS = [(), ('damping', 'friction')]
SHAPES = ([(limit, dynamics, False) for limit in LIMITS for dynamics in DYNAMICS]
          + [(('lower', 'upper'), ('damping', 'friction'), True)])


@pytest.mark.parametrize('version', ['1.9', '1.11'])
@pytest.mark.parametrize('depth', [1, 3])
@pytest.mark.parametrize('mimic', [None, ('multiplier', 'offset')])
@pytest.mark.parametrize('limit, dynamics, locked', SHAPES)
def test_a_whole_joint_block_is_the_joint_completed_element_by_element(limit, dynamics,
                                                                       locked, mimic, depth,
                                                                       version):
    placement = ('base', '1 2 3 0 0 0', 'base', 'arm')
    mimic_tags = () if mimic is None else mimic
    texts = {tag: str(i) for i, tag in enumerate((*mimic_tags, *limit, *dynamics), start=10)}
    by_element = XmlText(depth)
    by_element.start('joint', {'name': 'j', 'type': 'revolute'})
    by_element.block(Block(emit_joints._PLACEMENT_TEXT), *placement)
    by_element.start('axis')
    if not locked:
        by_element.leaf('xyz', '0 1 0')
    if mimic is not None:
        by_element.group('mimic', [(tag, texts[tag]) for tag in mimic], {'joint': 'k'})
    by_element.group('limit', [(tag, texts[tag]) for tag in limit])
    by_element.group('dynamics', [(tag, texts[tag]) for tag in dynamics])
    by_element.end()
    by_element.end()
    joint = etree.fromstring(by_element.text())
    emit_joints.complete_defaults(joint, version)
    expected = XmlText(depth)
    expected.element(joint)

    slots = ('j', 'revolute', *placement, *(() if locked else ('0 1 0',)),
             *(() if mimic is None else ('k',)), *texts.values())
    at_once = XmlText(depth)
    at_once.block(emit_joints._moving_joint(limit, dynamics, locked, mimic, version), *slots)
    assert at_once.text() == expected.text()
    # Without the defaults (a joint extensions configure), completed afterwards.
    bare = XmlText()
    bare.block(emit_joints._moving_joint(limit, dynamics, locked, mimic, None), *slots)
    completed = etree.fromstring(bare.text())
    emit_joints.complete_defaults(completed, version)
    later = XmlText(depth)
    later.element(completed)
    assert later.text() == expected.text()
