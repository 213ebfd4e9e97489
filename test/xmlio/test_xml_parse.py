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

"""Tests of sdf_tools.xmlio.parse: parsing with lines, '::' names, strict value readers."""

import math

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.errors import XmlSyntaxError
from sdf_tools.xmlio.markup import readable_comments
from sdf_tools.xmlio.parse import DCOLON
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_number
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import to_string
from sdf_tools.xmlio.parse import ValueReader
from support import oracle_path
from support import run_oracle


def test_elements_keep_their_source_lines():
    root = parse_xml('<robot name="r">\n  <link name="a"/>\n\n  <link name="b"/>\n</robot>')
    assert [e.sourceline for e in root] == [2, 4]


def test_malformed_xml_reports_its_line_and_is_never_recovered():
    with pytest.raises(XmlSyntaxError) as info:
        parse_xml('<robot name="r">\n<link name="a">\n<joint name="j"/>\n</robot>', 'r.urdf')
    assert info.value.diagnostic.location.line == 4
    assert str(info.value).startswith('r.urdf:4: not well-formed XML: Opening and ending tag')


def test_processing_instructions_are_dropped_with_a_warning_when_asked():
    text = '<?xml version="1.0"?>\n<robot>\n<a>x<?ros-args -p a:=1 ?>y<b/>z<?pi?></a>\n</robot>'
    assert to_string(parse_xml(text), pretty=False) == '<robot>\n<a>xy<b/>z</a>\n</robot>'
    found = []
    root = parse_xml(text, 'r.urdf', instructions=found)
    assert to_string(root, pretty=False) == '<robot>\n<a>xy<b/>z</a>\n</robot>'
    assert [(str(d), d.code) for d in found] == [
        (f'r.urdf:3: warning: the processing instruction <?{target} ...?> inside <a> is left '
         'out (libsdformat and urdfdom, which read XML with tinyxml2, refuse a document '
         'holding one)', Code.DROPPED) for target in ('ros-args', 'pi')]
    parse_xml('<?xml version="1.0"?><robot/>', instructions=found)
    assert len(found) == 2  # the XML declaration is none


def test_processing_instruction_found_after_any_number_of_question_marks():
    """'?' in text and attributes (query strings) before an instruction: it is still found."""
    for count in range(0, 40):
        found = []
        parse_xml(f'<robot name="{"a?" * count}">{"?" * count}<?pi x?></robot>', 'r.urdf',
                  instructions=found)
        assert [d.code for d in found] == [Code.DROPPED], count


def test_double_colon_element_names_round_trip():
    text = ('<sdf version="1.9"><model name="m"><plugin name="p" filename="f">'
            '<ignition::corrected_offsets>1</ignition::corrected_offsets>'
            '<!-- <a::b> in a comment --></plugin></model></sdf>')
    root = parse_xml(text)
    element = root.find(f'model/plugin/ignition{DCOLON}corrected_offsets')
    assert element.text == '1'
    assert '<ignition::corrected_offsets>1</ignition::corrected_offsets>' in to_string(root)


def test_to_string_indents_around_whitespace_text_and_keeps_other_text():
    # An indented blob copied into a generated tree: lxml's pretty_print alone would leave
    # <model> and everything above the blob on one line.
    blob = parse_xml('<plugin name="p">\n      <a>  x  </a>\n   <b><c/></b>\n      mixed\n'
                     '    </plugin>')
    root = parse_xml('<sdf><model name="m"><link name="l"/></model></sdf>')
    root[0].append(blob)
    assert to_string(root).splitlines() == [
        '<sdf>',
        '  <model name="m">',
        '    <link name="l"/>',
        '    <plugin name="p">',
        '      <a>  x  </a>',
        '      <b>',
        '        <c/>',
        '      </b>',
        '      mixed',  # text that is not layout is kept as written
        '    </plugin>',
        '  </model>',
        '</sdf>']


def test_undeclared_prefixes_are_read_and_written_back_as_written():
    # libsdformat writes ignition:expressed_in without declaring the prefix; tinyxml2 and
    # gz sdf -k accept it. Lines do not move; the prefix is a name, never a declaration.
    text = ('<sdf version="1.9">\n<model name="m">\n'
            '<xyz ignition:expressed_in="__model__">0 0 1</xyz>\n'
            '<ignition:foo gz:bar="1" xmlns:own="u"><own:a/></ignition:foo>\n'
            '<ignition::corrected_offsets>1</ignition::corrected_offsets>\n</model></sdf>')
    root = parse_xml(text)
    xyz, foo, offsets = root[0]
    assert [e.sourceline for e in (xyz, foo, offsets)] == [3, 4, 5]
    assert xyz.get('expressed_in') is None  # another attribute than SDFormat's expressed_in
    assert [local_name(e) for e in (xyz, foo, offsets)] == [
        'xyz', 'ignition:foo', 'ignition::corrected_offsets']
    assert foo[0].tag == '{u}a'  # declared namespaces are read as namespaces
    written = to_string(root)
    for part in ('<xyz ignition:expressed_in="__model__">0 0 1</xyz>',
                 '<ignition:foo xmlns:own="u" gz:bar="1">', '<own:a/>',
                 '<ignition::corrected_offsets>1</ignition::corrected_offsets>'):
        assert part in written
    assert 'xmlns:ignition' not in written and 'xmlns:gz' not in written
    assert to_string(parse_xml(written)) == written


def test_undeclared_prefixes_do_not_hide_other_errors():
    with pytest.raises(XmlSyntaxError) as info:
        parse_xml('<robot name="r">\n<a:link name="a">\n</robot>', 'r.urdf')
    assert str(info.value).startswith('r.urdf:3: not well-formed XML: Opening and ending tag')
    with pytest.raises(XmlSyntaxError, match='Namespace prefix p0 on x is not defined'):
        parse_xml('<r>' + ''.join(f'<p{i}:x/>' for i in range(200)) + '</r>')


# As ROS users write them: tinyxml2 (libsdformat, urdfdom) reads them, XML and lxml do not.
HYPHEN_COMMENTS = {
    'sdf': ('<?xml version="1.0"?>\n<!-- spawn with spawn_entity.py --entity r -->\n'
            '<sdf version="1.9">\n<!-- a -- b --->\n<model name="m">\n'
            '<link name="a"/>\n</model>\n</sdf>\n'),
    'urdf': ('<?xml version="1.0"?>\n<!-- spawn with spawn_entity.py --entity r -->\n'
             '<robot name="r">\n<!-- a -- b --->\n<!-- c -->\n'
             '<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" '
             'ixy="0" ixz="0" iyz="0"/></inertial></link>\n</robot>\n'),
}


@pytest.mark.parametrize('kind', sorted(HYPHEN_COMMENTS))
def test_double_hyphens_in_comments_are_read_as_tinyxml2_reads_them(kind, tmp_path):
    text = HYPHEN_COMMENTS[kind]
    root = parse_xml(text)
    assert [(e.tag, e.sourceline) for e in root.iter('link')] == [('link', 6)]
    if oracle_path() is not None:  # libsdformat 12 reads both
        path = tmp_path / f'robot.{kind}'
        path.write_text(text)
        result = run_oracle('check', path)
        assert result.returncode == 0, result.stdout + result.stderr


def test_readable_comments_keeps_every_line_and_column_and_only_touches_comments():
    data = (b'<a x="--">\n<!-- one -- two\n --- three ---><![CDATA[ -- <!-- ]]>'
            b'<!-- ok -->\n<b>--</b></a>')
    fixed = readable_comments(data)
    assert len(fixed) == len(data)
    assert fixed == data.replace(b'one -- two\n --- three -', b'one  - two\n   - three  ')
    assert readable_comments(b'<a><!-- fine --></a>') == b'<a><!-- fine --></a>'


def test_the_entity_message_is_only_for_entities():
    # The comment quoted in libxml2's message says "entity": the problem is the unclosed
    # comment.
    with pytest.raises(XmlSyntaxError) as info:
        parse_xml('<robot name="r">\n<!-- spawn_entity.py \n</robot>', 'r.urdf')
    assert str(info.value) == 'r.urdf:3: not well-formed XML: Comment not terminated'
    with pytest.raises(XmlSyntaxError, match=r'^r.urdf:2: entities are not allowed .*'
                       r"Entity 'x' not defined"):
        parse_xml('<robot name="r">\n<link name="&x;"/></robot>', 'r.urdf')


def test_str_input_with_a_foreign_encoding_declaration():
    root = parse_xml('<?xml version="1.0" encoding="ISO-8859-1"?><robot name="é"/>')
    assert root.get('name') == 'é'


@pytest.mark.parametrize('text, value', [
    ('1', 1.0), (' -2.5 ', -2.5), ('.5', 0.5), ('1e-3', 1e-3), ('1E+3', 1e3), ('3.', 3.0),
    ('nan', None), ('inf', None), ('-Infinity', None), ('1_0', None), ('0x10', None),
    ('', None), ('.', None), ('1e', None), ('+-1', None), ('1 2', None), ('1.2.3', None),
    ('\u0661', None), ('1e400', float('inf')),
])
def test_numbers_are_read_like_stod_without_trailing_junk(text, value):
    assert parse_number(text) == value


@settings(max_examples=400, deadline=None)
@given(st.text(st.sampled_from('0123456789.eE+- \t\n\r_xnaif\u0661\u00a0'), max_size=12),
       st.integers(1, 3))
def test_the_value_readers_quick_path_reads_what_the_strict_one_reads(text, n):
    # attr_number/attr_vector skip the strict expression for plain texts; any text must
    # still give the strict reader's value, or its error.
    from lxml import etree
    element = etree.Element('e', v=text)
    quick, strict = ValueReader('r.urdf', Reporter()), ValueReader('r.urdf', Reporter())
    number = parse_number(text)
    expected = number if number is not None and math.isfinite(number) else None
    assert quick.attr_number(element, None, 'v') == expected
    assert quick.attr_number(element, None, 'v') == expected  # remembered
    expected_vector = strict.vector(element, None, '<e> v', text, n)
    assert quick.attr_vector(element, None, 'v', n) == expected_vector
    assert [str(d) for d in quick.reporter.errors] == (
        [] if expected is not None else [str(d) for d in quick.reporter.errors[:1]] * 2
    ) + [str(d) for d in strict.reporter.errors]


def test_value_reader_reports_entity_element_and_value():
    from lxml import etree
    reporter = Reporter()
    reader = ValueReader('robot.urdf', reporter)
    limit = etree.fromstring('<limit upper="abc" lower="1 2" effort="1e400"/>')
    assert reader.attr_number(limit, "joint 'elbow'", 'upper', 0.0) == 0.0
    assert reader.attr_vector(limit, "joint 'elbow'", 'lower', 3) is None
    assert reader.attr_number(limit, "joint 'elbow'", 'effort') is None
    assert reader.attr_number(limit, "joint 'elbow'", 'velocity', required=True) is None
    messages = [str(d) for d in reporter.errors]
    assert messages == [
        "robot.urdf:1: joint 'elbow': <limit> upper must be a number, got 'abc'",
        "robot.urdf:1: joint 'elbow': <limit> lower must be 3 numbers, got '1 2'",
        "robot.urdf:1: joint 'elbow': <limit> effort must be finite, got '1e400'",
        "robot.urdf:1: joint 'elbow': <limit> is missing required attribute 'velocity'",
    ]


def test_repeated_texts_are_judged_afresh_where_they_are_used():
    # Valid texts are remembered per reader; a remembered value must still meet each
    # caller's constraint, and a bad text is reported at every element that holds it.
    from lxml import etree
    reporter = Reporter()
    reader = ValueReader('robot.urdf', reporter)
    root = etree.fromstring('<r>\n<a v="0" xyz="1 2 3"/>\n<b v="0" xyz="1 2 3"/>\n'
                            '<c v="x" xyz="1 2"/>\n<d v="x" xyz="1 2"/>\n</r>')
    a, b, c, d = root
    assert reader.attr_number(a, 'a', 'v') == 0.0
    assert reader.attr_number(b, 'b', 'v', 5.0, positive=True) == 5.0
    assert reader.attr_vector(a, 'a', 'xyz', 3) == (1.0, 2.0, 3.0)
    assert reader.attr_vector(b, 'b', 'xyz', 2) is None  # same text, other arity
    assert reader.attr_vector(b, 'b', 'xyz', 3) == (1.0, 2.0, 3.0)
    for element in (c, d):
        assert reader.attr_number(element, element.tag, 'v') is None
        assert reader.attr_vector(element, element.tag, 'xyz', 2) == (1.0, 2.0)
    assert [str(e) for e in reporter.errors] == [
        "robot.urdf:3: b: <b> v must be positive, got '0'",
        "robot.urdf:3: b: <b> xyz must be 2 numbers, got '1 2 3'",
        "robot.urdf:4: c: <c> v must be a number, got 'x'",
        "robot.urdf:5: d: <d> v must be a number, got 'x'",
    ]


def test_long_values_are_not_echoed_whole():
    from lxml import etree
    reporter = Reporter()
    element = etree.fromstring(f'<mass value="{"x" * 10000}"/>')
    ValueReader('r.urdf', reporter).attr_number(element, None, 'value')
    assert len(str(reporter.errors[0])) < 200
