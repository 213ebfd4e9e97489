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
Element values: written as lxml writes the tree they were made from, equal by what they hold.

The reference is lxml itself: a copy of the element indented and serialised (what the
converter wrote before it held content as values), and ``to_string`` of the element (what
the URDF writer writes).
"""

import copy
import pickle

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
from lxml import etree
import pytest
from sdf_tools.xmlio.element import at_path
from sdf_tools.xmlio.element import children_from_lxml
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import ensure_path
from sdf_tools.xmlio.element import from_lxml
from sdf_tools.xmlio.element import parse_element
from sdf_tools.xmlio.element import stripped
from sdf_tools.xmlio.element import to_lxml
from sdf_tools.xmlio.element import with_key
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import restore_names
from sdf_tools.xmlio.parse import to_string
from sdf_tools.xmlio.text import element_text
from sdf_tools.xmlio.text import escape_attribute
from sdf_tools.xmlio.text import escape_text

# Names as SDFormat content writes them: plain, with '::' (libsdformat 12), a prefix the
# document declares (n, and m declared again inside), a prefix nobody declares (ign).
_TAGS = st.sampled_from(('a', 'pose', 'sensor', 'gz::x', 'n:q', 'm:r', 'ign:t'))
_TEXTS = st.sampled_from((None, '', ' ', '\n    ', '1 2 3', ' x ', 'a&b<c>"', 'tab\there',
                          'cr\rx', 'ü'))
_ATTRIBUTES = st.lists(st.sampled_from((
    ('name', 'n1'), ('v', 'a"b&<>\n\t'), ('n:k', '1'), ('ign:e', 'x'), ('xml:lang', 'en'),
    ('m:z', '2'))), max_size=2, unique_by=lambda pair: pair[0])


@st.composite
def _content(draw, depth=0, declared=False):
    """Return the XML text of one element, mixed content and all (``m`` declared once)."""
    tag = draw(_TAGS)
    declaration = ''
    if tag.startswith('m:') and not declared and draw(st.booleans()):
        declaration, declared = ' xmlns:m="http://m2"', True
    text = f'<{tag}{declaration}' + ''.join(f' {name}="{escape_attribute(value)}"'
                                            for name, value in draw(_ATTRIBUTES))
    children = draw(st.integers(0, 0 if depth >= 3 else 3))
    inside = draw(_TEXTS)
    if not children and inside is None:
        return text + '/>'
    text += '>' + escape_text(inside or '')
    for _ in range(children):
        text += draw(_content(depth + 1, declared)) + escape_text(draw(_TEXTS) or '')
    return text + f'</{tag}>'


def _parsed(body: str):
    """Return the children of a <gazebo> block in a document declaring n, m and xacro."""
    return list(parse_xml('<robot xmlns:n="http://n" xmlns:m="http://m" xmlns:xacro="x:x">'
                          f'<gazebo>{body}</gazebo></robot>')[0])


@settings(max_examples=300, deadline=None)
@given(st.lists(_content(), min_size=1, max_size=3), st.integers(0, 3))
def test_an_element_is_written_as_lxml_writes_a_copy_of_it_indented(content, depth):
    for element in _parsed(''.join(content)):
        copied = copy.deepcopy(element)
        copied.tail = None
        etree.indent(copied, space='  ', level=depth)
        expected = restore_names(etree.tostring(copied, encoding='unicode', with_tail=False))
        assert element_text(from_lxml(element), depth) == expected
        # Back to lxml, it is what it was (the URDF writer's path).
        assert to_string(to_lxml(from_lxml(element, tail=True))) == \
            to_string(copy.deepcopy(element))


@settings(max_examples=100, deadline=None)
@given(st.lists(_content(), min_size=1, max_size=3))
def test_stripped_is_every_text_stripped_and_no_tail(content):
    for element in _parsed(''.join(content)):
        copied = copy.deepcopy(element)
        for item in copied.iter():
            item.text = item.text.strip() or None if item.text is not None else None
            item.tail = None
        assert stripped(from_lxml(element)) == from_lxml(copied)


def test_equal_by_what_they_hold_not_by_lines_or_layout():
    one = parse_element('<sensor name="s" type="imu">\n  <topic>t</topic>\n</sensor>')
    other = parse_element('\n\n<sensor name="s" type="imu"><topic>t</topic></sensor>')
    assert one.line == 1 and other.line == 3
    assert one == other and hash(one) == hash(other) and one is not other
    assert one != parse_element('<sensor name="s" type="imu"><topic>u</topic></sensor>')
    assert one != parse_element('<sensor type="imu" name="s"><topic>t</topic></sensor>')
    assert parse_element('<a>x<b/>y</a>') != parse_element('<a>x<b/></a>')  # mixed content
    assert parse_element('<a> 1 </a>') != parse_element('<a>1</a>')  # a leaf's text as written


def test_a_frozen_record_that_reads_as_its_children():
    element = parse_element('<sensor name="s"><topic>t</topic><pose>0 0 0 0 0 0</pose></sensor>')
    topic = Element('topic', text='t')
    assert topic in element and Element('topic', text='u') not in element
    assert 'sensor' not in element and 's' not in element  # its fields are not its content
    assert list(element) == [topic, Element('pose', text='0 0 0 0 0 0')]
    assert len(element) == 2 and element[0] == topic and element[-1].tag == 'pose'
    assert element != Element('sensor', element.attributes, None, element.children[:1])
    assert not element != parse_element('\n<sensor name="s"><topic>t</topic>'
                                        '<pose>0 0 0 0 0 0</pose></sensor>')  # line 2
    for made in (copy.copy(element), copy.deepcopy(element),
                 pickle.loads(pickle.dumps(element))):
        assert made == element and made.line == element.line and made.children[0] == topic
    assert repr(topic) == ("Element(tag='topic', attributes=(), text='t', children=(), "
                           'tail=None, line=None)')
    with pytest.raises(AttributeError):
        element.tag = 'x'  # type: ignore[misc]


def test_content_below_a_declaration_keeps_its_names():
    # (no namespace in the block: the quick path; a prefix declared around it or in it: not)
    plain, used, declared = _parsed('<a><gz::b c="1"/></a><n:a/><a xmlns:p="http://p"/>')
    assert from_lxml(plain) == parse_element('<a><gz::b c="1"/></a>')
    assert from_lxml(used).attributes == (('xmlns:n', 'http://n'),)
    assert from_lxml(declared).attributes == (('xmlns:p', 'http://p'),)


def test_names_are_as_written():
    element = from_lxml(parse_xml('<sdf xmlns:n="http://n"><plugin><ign:t ign:e="1" '
                                  'xml:lang="en"><gz::x n:k="2"/></ign:t></plugin></sdf>')[0])
    assert element.find('ign:t').items() == [('ign:e', '1'), ('xml:lang', 'en')]
    assert element.find('ign:t/gz::x').attributes == (('n:k', '2'),)
    # declared around it, for a name it holds: declared on it, as libxml2 copies it
    assert element.attributes == (('xmlns:n', 'http://n'),)


def test_it_reads_as_an_lxml_element_reads():
    text = ('<sensor name="c" type="contact"><contact><collision>a</collision>'
            '<collision value="b"/></contact><contact><collision>c</collision></contact>'
            '<pose>1 0 0 0 0 0</pose></sensor>')
    element, reference = parse_element(text), parse_xml(text)
    assert element.get('name') == reference.get('name') and element.get('x', 1) == 1
    assert element.keys() == reference.keys() and element.attrib == dict(reference.attrib)
    assert [e.tag for e in element] == [e.tag for e in reference] and len(element) == 3
    for path in ('contact/collision', 'pose', 'nothing', 'contact'):
        assert [from_lxml(e) for e in reference.iterfind(path)] == \
            list(element.iterfind(path)) == element.findall(path)
        assert element.findtext(path) == reference.findtext(path)
    assert [e.text for e in element.iter('collision')] == \
        [e.text for e in reference.iter('collision')]
    assert element.sourceline == 1 and bool(Element('empty'))


def test_with_key_is_libsdformats_overwrite_rule():
    told = []
    link = parse_element('<link><gravity>1</gravity><a/><self_collide>0</self_collide></link>')
    changed = with_key(link, 'gravity', 'false', lambda *said: told.append(said))
    assert [(e.tag, e.text) for e in changed] == [('a', None), ('self_collide', '0'),
                                                  ('gravity', 'false')]
    assert told == [('gravity', '1', 'false')]
    assert [e.tag for e in with_key(changed, 'gravity', 'false', told.append)][-1] == 'gravity'
    assert len(told) == 1  # the same value again: moved, not reported
    assert link == parse_element('<link><gravity>1</gravity><a/><self_collide>0</self_collide>'
                                 '</link>')  # unchanged: a value


@pytest.mark.parametrize('start', ['<joint/>', '<joint><axis><xyz>1</xyz></axis></joint>',
                                   '<joint><axis/><axis><dynamics/></axis></joint>'])
def test_ensure_path_adds_what_is_missing_last_and_at_path_changes_the_first(start):
    joint = ensure_path(parse_element(start), ('axis', 'dynamics'))
    assert joint.find('axis/dynamics') is not None
    assert joint.find('axis').find('dynamics') is not None  # in the first <axis>
    joint = at_path(joint, ('axis', 'dynamics'), lambda e: with_key(e, 'damping', '2'))
    assert joint.findtext('axis/dynamics/damping') == '2'


@pytest.mark.parametrize('text', [
    '<robot><gazebo><x/><b>1</b> tail <gz::c><y>2</y></gz::c>\n</gazebo></robot>',
    '<robot xmlns:a="u"><gazebo><a:x/>t<b>1</b> tail<c a:k="1"><d/></c></gazebo></robot>',
    '<robot><gazebo xmlns:q="v"><q:x/><b>1</b></gazebo></robot>'])
def test_children_from_lxml_are_each_child_from_lxml_with_its_tail(text):
    block = parse_xml(text)[0]
    children = children_from_lxml(block)
    assert children == tuple(from_lxml(child, tail=True) for child in block)
    assert [e.tail for e in children] == [(child.tail or '').strip() and child.tail
                                          or None for child in block]
    assert [Element(e.tag, e.attributes, e.text, e.children) for e in children] == [
        parse_element(to_string(child, pretty=False, with_tail=False)) for child in block]


def test_fields_are_read_without_cpythons_private_getters(monkeypatch):
    import collections
    import importlib.util
    import sdf_tools.xmlio.element as module
    monkeypatch.delattr(collections, '_tuplegetter')
    spec = importlib.util.spec_from_file_location('element_copy', module.__file__)
    copy_of_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy_of_module)
    element = copy_of_module.Element('a', (('k', 'v'),), 't', (), None, 3)
    assert (element.tag, element.attributes, element.text, element.line) == \
        ('a', (('k', 'v'),), 't', 3)
    assert element.get('k') == 'v' and copy_of_module.Element.tag.__doc__
