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

"""Tests of scoped names written as nested models (:mod:`sdf_tools.formats.sdf.scopes`)."""

import pytest
from sdf_tools.errors import ConversionError
from sdf_tools.formats.sdf.scopes import group_by_scope
from sdf_tools.formats.sdf.scopes import holds_links
from sdf_tools.formats.sdf.scopes import world_link
from sdf_tools.formats.sdf.writer import write_sdf
from sdf_tools.model import Frame
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Robot
from test_sdf_reader import read_fixture
from test_sdf_writer import _tree


def test_nested_scopes_become_nested_models():
    text = write_sdf(read_fixture('nested'))
    root = _tree(text)
    inner = root.find('model/model')
    assert inner.get('name') == 'inner'
    assert [e.get('name') for e in inner.findall('link')] == ['l1']
    assert inner.find('joint').findtext('child') == 'deep::x'
    assert inner.find('model').get('name') == 'deep'
    assert root.find('model/joint').findtext('child') == 'inner::l1'
    with pytest.raises(ConversionError, match=r"scoped names \(with '::'\) need nested "
                       'models'):
        write_sdf(read_fixture('nested'), version='1.7')


def test_group_by_scope_reports_what_sdformat_cannot_refer_to():
    problems = []

    def fail(message, entity=None, location=None):
        problems.append((entity, message))

    robot = Robot('r', links=(Link('world'), Link('a'), Link('inner::b')),
                  joints=(Joint('w', JointType.FIXED, 'world', 'a'),
                          Joint('inner::j', JointType.FIXED, 'a', 'inner::b')),
                  frames=(Frame('outer::f', 'a'),))
    world = world_link(robot, fail)
    scopes = group_by_scope(robot, world, (1, 9), fail)
    assert world == 'world'   # URDF's empty root link: no link of the model
    assert {prefix: {kind: [x.name for x in items[kind]] for kind in items}
            for prefix, items in scopes.items()} == {
        '': {'link': ['a'], 'joint': ['w'], 'frame': []},
        'inner::': {'link': ['inner::b'], 'joint': ['inner::j'], 'frame': []},
        'outer::': {'link': [], 'joint': [], 'frame': ['outer::f']}}
    assert problems == [
        ("joint 'inner::j'", "its parent link 'a' is outside the scope of its name 'inner'; "
         'SDFormat cannot refer to it'),
        ("frame 'outer::f'", "it is attached to 'a', outside the scope of its name 'outer'; "
         'SDFormat cannot refer to it')]
    # A nested model without links is no problem: it is written static (holds_links).
    assert [holds_links(p, scopes) for p in ('', 'inner::', 'outer::')] == [True, True, False]
