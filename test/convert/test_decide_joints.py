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
Tests of sdf_tools.convert.decide_joints: a joint decided with the schema's defaults.

A joint no extension configures is decided with the schema's defaults and written as one
block; one extensions configure is an element, completed by ``complete_defaults``. Either
way it must be the text of the same joint built element by element and completed by
``complete_defaults``. What joints become is tested against libsdformat in test_urdf_to_sdf
and test_corpus_conversion.
"""

import pytest
from sdf_tools.convert import decide_joints
from sdf_tools.formats.sdf.document import AxisOut
from sdf_tools.formats.sdf.document import JointOut
from sdf_tools.formats.sdf.document import ModelOut
from sdf_tools.formats.sdf.document import SdfDocument
from sdf_tools.formats.sdf.emit import joint_element
from sdf_tools.formats.sdf.emit import NumberTexts
from sdf_tools.formats.sdf.emit import write_document
from sdf_tools.model import Pose
from sdf_tools.records import replace
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.text import XmlText

LIMITS = [(), ('effort', 'velocity'), ('lower', 'upper', 'effort', 'velocity')]
DYNAMICS = [(), ('damping', 'friction')]
SHAPES = ([(limit, dynamics, False) for limit in LIMITS for dynamics in DYNAMICS]
          + [(('lower', 'upper'), ('damping', 'friction'), True)])


def _by_element(limit, dynamics, locked, mimic, texts) -> Element:
    """Return the joint built element by element, as the block lays it out."""
    def leaves(tags):
        return tuple(Element(tag, text=texts[tag]) for tag in tags)

    axis = () if locked else (Element('xyz', text='0 1 0'),)
    if mimic is not None:
        axis += (Element('mimic', (('joint', 'k'),), children=leaves(mimic)),)
    axis += (Element('limit', children=leaves(limit)),
             Element('dynamics', children=leaves(dynamics)))
    return Element('joint', (('name', 'j'), ('type', 'revolute')), children=(
        Element('pose', (('relative_to', 'base'),), '1 2 3 0 0 0'),
        Element('parent', text='base'), Element('child', text='arm'),
        Element('axis', children=axis)))


@pytest.mark.parametrize('version', ['1.9', '1.11'])
@pytest.mark.parametrize('mimic', [None, ('multiplier', 'offset')])
@pytest.mark.parametrize('limit, dynamics, locked', SHAPES)
def test_a_whole_joint_block_is_the_joint_completed_element_by_element(limit, dynamics,
                                                                       locked, mimic, version):
    texts = {tag: str(i) for i, tag in enumerate((*(mimic or ()), *limit, *dynamics),
                                                 start=10)}
    expected = XmlText(2)
    expected.element(decide_joints.complete_defaults(
        _by_element(limit, dynamics, locked, mimic, texts), version))

    def pairs(tags):
        return tuple((tag, texts[tag]) for tag in tags)

    decided = JointOut('j', 'revolute', 'base', Pose((1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0)),
                       'base', 'arm', AxisOut(None if locked else (0.0, 1.0, 0.0),
                                              None if mimic is None else 'k',
                                              pairs(mimic or ()), pairs(limit),
                                              pairs(dynamics)))
    # The decided joint is the same element (the layout a configured joint starts from).
    assert joint_element(decided, NumberTexts()) == \
        _by_element(limit, dynamics, locked, mimic, texts)
    # With the defaults, written at once: one block.
    document = SdfDocument(version, ModelOut('m', (decided_with_defaults(decided, version),)))
    lines = write_document(document).splitlines(keepends=True)
    assert ''.join(lines[2:-2]) == expected.text()


def decided_with_defaults(joint, version):
    return replace(joint, axis=decide_joints._with_defaults(joint.axis, version))
