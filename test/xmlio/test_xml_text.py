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

"""XmlText writes what lxml writes for the same tree, indented as to_string indents it."""

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from lxml import etree
import pytest
from sdf_tools.xmlio.element import from_lxml
from sdf_tools.xmlio.parse import to_string
from sdf_tools.xmlio.text import Block
from sdf_tools.xmlio.text import escape_attribute
from sdf_tools.xmlio.text import escape_text
from sdf_tools.xmlio.text import nested
from sdf_tools.xmlio.text import XmlText

# Characters XML 1.0 allows, weighted towards the ones that need escaping.
_XML_CHARS = st.one_of(
    st.sampled_from('&<>"\'\n\r\t ]'),
    st.characters(blacklist_categories=('Cs', 'Cc'), blacklist_characters='\ufffe\uffff'))
_TEXT = st.text(_XML_CHARS, max_size=12)
_TAGS = st.sampled_from(('link', 'pose', 'geometry', 'uri', 'a-b', 'x.y'))
_ATTRIBUTES = st.dictionaries(st.sampled_from(('name', 'type', 'relative_to')), _TEXT,
                              max_size=3)


@st.composite
def _trees(draw, depth=0):
    """Return ``(tag, attributes, text or None, children)``: a leaf has no children."""
    tag, attributes = draw(_TAGS), draw(_ATTRIBUTES)
    if depth >= 3 or draw(st.booleans()):
        return tag, attributes, draw(st.none() | _TEXT), []
    children = draw(st.lists(_trees(depth=depth + 1), max_size=3))
    return tag, attributes, None, children


def _lxml(tree, parent=None):
    tag, attributes, text, children = tree
    element = etree.Element(tag) if parent is None else etree.SubElement(parent, tag)
    for name, value in attributes.items():
        element.set(name, value)
    element.text = text
    for child in children:
        _lxml(child, element)
    return element


def _write(out, tree, spliced):
    """Write ``tree`` through ``out``; subtrees ``spliced`` picks go in as Element values."""
    tag, attributes, text, children = tree
    if spliced(tree):
        out.element(from_lxml(_lxml(tree)))
    elif text is not None:
        out.leaf(tag, text, attributes)
    else:
        out.start(tag, attributes)
        for child in children:
            _write(out, child, spliced)
        out.end()


@settings(max_examples=300, deadline=None)
@given(_trees(), st.integers(0, 3), st.randoms(use_true_random=False))
def test_the_text_is_lxmls_indented_serialisation(tree, depth, random):
    out = XmlText(depth)
    _write(out, tree, lambda _: random.random() < 0.2)
    element = _lxml(tree)
    etree.indent(element, space='  ', level=depth)
    assert out.text() == '  ' * depth + etree.tostring(element, encoding='unicode') + '\n'


def test_at_depth_0_it_is_to_string():
    tree = ('sdf', {'version': '1.9'}, None, [('model', {'name': 'a&b'}, None, [
        ('link', {'name': 'l'}, None, [('pose', {}, '0 0 1 0 0 0', []), ('x', {}, None, [])]),
        ('static', {}, 'true', [])])])
    out = XmlText()
    _write(out, tree, lambda _: False)
    assert out.text() == to_string(_lxml(tree))


@given(_TEXT)
def test_escaped_text_reads_back_as_written(text):
    element = etree.fromstring(f'<a b="{escape_attribute(text)}">{escape_text(text)}</a>')
    assert element.get('b') == text
    assert (element.text or '') == text


def test_an_element_without_content_is_self_closing_and_empty_text_is_not():
    out = XmlText()
    out.start('model', {'name': 'r'})
    out.start('link')
    out.end()
    out.leaf('static', '')
    out.end()
    assert out.text() == '<model name="r">\n  <link/>\n  <static></static>\n</model>\n'


@pytest.mark.parametrize('value, attribute, text', [
    ('a&b', 'a&amp;b', 'a&amp;b'),
    ('<x>', '&lt;x&gt;', '&lt;x&gt;'),
    ('say "hi"', 'say &quot;hi&quot;', 'say "hi"'),
    ('l1\nl2\tx\r', 'l1&#10;l2&#9;x&#13;', 'l1\nl2\tx&#13;'),
    ("it's é", "it's é", "it's é"),
])
def test_escaping_is_libxml2s(value, attribute, text):
    assert escape_attribute(value) == attribute
    assert escape_text(value) == text
    element = etree.Element('a', b=value)
    element.text = value
    assert etree.tostring(element, encoding='unicode') == f'<a b="{attribute}">{text}</a>'


@given(_trees(), st.integers(0, 3))
def test_a_group_is_what_start_leaf_and_end_write(tree, depth):
    tag, attributes, _, children = tree
    leaves = [(child[0], child[2] or '') for child in children]
    by_element, at_once = XmlText(depth), XmlText(depth)
    by_element.start(tag, attributes)
    for child, text in leaves:
        by_element.leaf(child, text)
    by_element.end()
    at_once.group(tag, leaves, attributes)
    assert at_once.text() == by_element.text()


@pytest.mark.parametrize('depth', [0, 1, 3, 9])  # (9: deeper than a block's templates)
def test_a_block_is_written_as_the_same_elements_would_be(depth):
    block = Block("""
<inertial>
  <pose>{}</pose>
  <inertia>
    <ixx>{}</ixx>
  </inertia>
</inertial>
<mass>{}</mass>
""")
    out, expected = XmlText(depth), XmlText(depth)
    out.block(block, '1 2 3 0 0 0', '0.5', '2')
    expected.start('inertial')
    expected.leaf('pose', '1 2 3 0 0 0')
    expected.start('inertia')
    expected.leaf('ixx', '0.5')
    expected.end()
    expected.end()
    expected.leaf('mass', '2')
    assert out.text() == expected.text()


@pytest.mark.parametrize('depth', [0, 2, 9])
def test_a_blocks_percent_signs_and_its_texts_are_written_as_given(depth):
    out, expected = XmlText(depth), XmlText(depth)
    out.block(Block('<a b="50%">{}</a>\n<c>%s{}</c>\n'), '%s %d %%', '%(x)s')
    expected.leaf('a', '%s %d %%', {'b': '50%'})
    expected.leaf('c', '%s%(x)s')
    assert out.text() == expected.text()


def test_nested_text_is_one_level_deeper_without_blank_lines():
    assert nested('\n<a>\n  <b>{}</b>\n</a>\n') == '  <a>\n    <b>{}</b>\n  </a>\n'
    assert nested('') == ''


def test_a_block_has_no_braces_but_its_slots():
    with pytest.raises(ValueError, match='only {} slots'):
        Block('<a>{0}</a>')
