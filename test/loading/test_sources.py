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

"""Tests of sdf_tools.loading.sources: format detection and reading files."""

import os
import sys

import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import sources
import support

EXAMPLE = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'


@pytest.mark.parametrize('data, name, fmt', [
    (b'<robot name="r"/>', 'x.urdf', 'urdf'),
    (b'<?xml version="1.0"?>\n<!-- c -->\n<robot name="r"/>', '', 'urdf'),
    # xacro leaves the namespace declaration in its output: that alone is not xacro.
    (b'<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="r"/>', '', 'urdf'),
    (b'<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="r"/>', 'r.urdf', 'urdf'),
    (b'<robot xmlns:xacro="x" name="r"><xacro:property name="a" value="1"/></robot>', '',
     'xacro'),
    (b'<robot name="r"><link name="${prefix}base"/></robot>', 'r.urdf', 'xacro'),
    (b'<robot name="r"><link name="$(arg p)base"/></robot>', '', 'xacro'),
    (b'<robot name="r"><!-- <xacro:macro> ${x} --><link name="a"/></robot>', '', 'urdf'),
    (b'<robot name="r"><!-- unclosed ${x}', '', 'urdf'),
    (b'<robot name="r"><!-- a --><!-- b --><link name="${x}"/></robot>', '', 'xacro'),
    (b'<robot name="r"/>', 'r.urdf.xacro', 'xacro'),
    (b'<robot name="r"/>', 'R.URDF.XACRO', 'xacro'),  # the rule: named .xacro, in any case
    (b'<robot name="r"/>', 'r.Xacro', 'xacro'),
    (b'<sdf version="1.9"/>', '', 'sdf'),
    (b'<sdf version="1.9"/>', 'w.world', 'sdf'),
    (b'\xef\xbb\xbf<robot name="r"/>', '', 'urdf'),  # a UTF-8 byte order mark
    (b'\xef\xbb\xbf<?xml version="1.0"?><sdf version="1.9"/>', 'm.xml', 'sdf'),
    (b'Robot Fancy { }', '', 'kindsl'),
    (b'// comment\nRobot Fancy { }', 'fancy.kindsl', 'kindsl'),
    (b'\xef\xbb\xbf /* a\n b */ // c\n\nRobot Fancy { }', '', 'kindsl'),
    (b'hello', 'r.kindsl', 'kindsl'),  # the extension decides: the DSL reader says why not
])
def test_detect_format(data, name, fmt):
    assert sources.detect_format(data, name) == fmt


# A .urdf holding xacro markup, as the XML parser reads it in any of these encodings.
MARKUP = ('<?xml version="1.0" encoding="{}"?>\n<robot name="r" xmlns:xacro="x">\n'
          '<link name="${{prefix}}base"/>\n</robot>\n')


@pytest.mark.parametrize('encoding, declared', [
    ('utf-16', 'UTF-16'), ('utf-16-le', 'UTF-16'), ('utf-16-be', 'UTF-16'),
    ('utf-32', 'UTF-32'), ('utf-7', 'UTF-7'), ('latin-1', 'ISO-8859-1')])
def test_xacro_markup_is_found_in_every_encoding_the_parser_reads(encoding, declared):
    from lxml import etree
    from sdf_tools.loading import load
    data = MARKUP.format(declared).encode(encoding)
    if encoding == 'utf-7':  # its encoder writes '$' and '{' as they are; UTF-7 need not
        data = data.replace(b'${', b'+ACQAew-')
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    assert etree.fromstring(data, parser)[0].get('name') == '${prefix}base'  # lxml reads it
    assert sources.detect_format(data, 'r.urdf') == 'xacro'
    assert sources.detect_format(data) == 'xacro'
    with pytest.raises(DescriptionError) as caught:
        load(text=data, options=LoadOptions(source='r.urdf', fmt=None))
    assert str(caught.value).startswith("r.urdf:3: xacro markup '${prefix}' in r.urdf: not "
                                        'expanded')
    plain = MARKUP.replace('${{prefix}}', '').format(declared).encode(encoding)
    assert sources.detect_format(plain, 'r.urdf') == 'urdf'  # decoding finds nothing else
    assert load(text=plain, options=LoadOptions(source='r.urdf')).robot.links[0].name == 'base'


@pytest.mark.parametrize('data, name, message, line', [
    (b'hello', '', '<string>:1: not a robot description: not XML (URDF, xacro or SDFormat), '
     "and not RobCoGen Kinematics-DSL, which starts with 'Robot'", 1),
    (b'\n\n  Robots R { }', 'r.txt', 'r.txt:3: not a robot description', 3),
    (b'// Robot R\n', '', '<string>:1: not a robot description', 1),
    (b' \n\t', '-', '-: the description is empty', None),
])
def test_text_in_no_format_is_not_read_as_a_kinematics_dsl(data, name, message, line):
    with pytest.raises(DescriptionError) as info:
        sources.detect_format(data, name)
    assert str(info.value).startswith(message)
    assert info.value.diagnostic.location.line == line


def test_expanded_corpus_robots_are_urdf_by_content():
    files = support.corpus_files()
    if not files:
        pytest.skip(support.NO_CORPUS)
    declared = [f for f in files if b'xmlns:xacro' in f.read_bytes()]
    assert declared  # xacro output keeps the declaration: the case this guards
    assert {f.name: sources.detect_format(f.read_bytes()) for f in files} == {
        f.name: 'urdf' for f in files}


def test_read_input_refuses_oversized_and_unreadable_files(tmp_path):
    big = tmp_path / 'big.urdf'
    big.write_bytes(b' ' * 2048)
    with pytest.raises(DescriptionError, match='more than the limit of 1024 bytes'):
        sources.read_input(str(big), max_bytes=1024)
    with pytest.raises(DescriptionError, match='cannot read'):
        sources.read_input(str(tmp_path / 'missing.urdf'))


def test_read_input_names_standard_input_it_cannot_read(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, 'stdin', None)  # what Python makes of a closed one (``<&-``)
    with pytest.raises(DescriptionError) as caught:
        sources.read_input('-')
    assert str(caught.value) == '<stdin>: standard input is closed'
    with open(os.open(tmp_path / 'w', os.O_WRONLY | os.O_CREAT), 'r') as write_only:
        monkeypatch.setattr(sys, 'stdin', write_only)
        with pytest.raises(DescriptionError) as caught:
            sources.read_input('-')
    assert str(caught.value) == '<stdin>: cannot read: Bad file descriptor'
