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
Tests of sdf_tools.loading.xacro_map: diagnostics on xacro input name lines users see.

A small robot file and a macro file it includes (``ROBOT`` and ``MACROS``, numbered by their
lines) are expanded; every problem must be reported at the line of the xacro file that holds
the element, in the main file or the included one, or, where that cannot be known, with the
element's path in the expansion, or at a line of the expansion written with
``--keep-expanded``. A line of the hidden expansion is never shown.
"""

import re

from lxml import etree
import pytest
from sdf_tools import cli
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import SourceLocation
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import to_sdf
from sdf_tools.loading.xacro_map import map_expansion
from sdf_tools.source_map import SourceMap
from sdf_tools.xmlio.parse import parse_xml
import support
from workspaces import XACRO_NS

EXAMPLE = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
INERTIAL = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
            'izz="1"/></inertial>')
MACROS = f"""<robot {XACRO_NS}>
  <xacro:macro name="arm" params="prefix parent lower">
    <link name="${{prefix}}arm">
      {INERTIAL}
    </link>
    <joint name="${{prefix}}shoulder" type="revolute">
      <parent link="${{parent}}"/>
      <child link="${{prefix}}arm"/>
      <limit lower="${{lower}}" upper="1" effort="1" velocity="1"/>
    </joint>
    <gazebo reference="${{prefix}}nothing"><mu1>1</mu1></gazebo>
  </xacro:macro>
  <xacro:macro name="tip" params="name"><link name="${{name}}"/></xacro:macro>
  <xacro:macro name="tool" params="name"><link name="${{name}}"/></xacro:macro>
</robot>
"""
ROBOT = f"""<?xml version="1.0"?>
<robot name="r" {XACRO_NS}>
  <xacro:include filename="macros.xacro"/>
  <link name="base">
    {INERTIAL}
  </link>
  <xacro:arm prefix="left_" parent="base" lower="-1"/>
  <xacro:arm prefix="right_" parent="base" lower="-2"/>
  <xacro:tip name="tip"/>
  <joint name="wrist" type="revolute">
    <parent link="left_arm"/>
    <child link="tip"/>
    <limit lower="-1" upper="{{upper}}" effort="1" velocity="1"/>
  </joint>
</robot>
"""


@pytest.fixture
def robot_file(tmp_path):
    """Write the robot (``upper``: the wrist's upper limit) and its macros."""
    (tmp_path / 'macros.xacro').write_text(MACROS)

    def write(upper='1', **replacements):
        text = ROBOT.format(upper=upper)
        for old, new in replacements.items():
            text = text.replace(old, new)
        path = tmp_path / 'robot.urdf.xacro'
        path.write_text(text)
        return path

    return write


def line_of(text: str, needle: str) -> int:
    """Return the line of ``text`` holding ``needle`` (once)."""
    (number,) = [n for n, line in enumerate(text.splitlines(), 1) if needle in line]
    return number


def test_an_error_names_the_line_of_the_xacro_file_that_holds_the_element(robot_file):
    path = robot_file(upper='abc')
    with pytest.raises(DescriptionError) as info:
        load(str(path))
    (error,) = info.value.diagnostics
    assert str(error) == (f"{path}:13: joint 'wrist': <limit> upper must be a number, got "
                          "'abc'")


def test_an_error_in_a_macro_names_the_macro_line_in_the_included_file_and_the_call(
        robot_file):
    path = robot_file(**{'lower="-2"': 'lower="low"'})
    macros = path.parent / 'macros.xacro'
    with pytest.raises(DescriptionError) as info:
        load(str(path))
    (error,) = info.value.diagnostics
    assert str(error) == (f"{macros}:9: joint 'right_shoulder': <limit> lower must be a "
                          f"number, got 'low' (expanded from <xacro:arm> at {path}:8)")


def test_converter_warnings_name_the_xacro_lines(robot_file):
    path = robot_file()
    loaded = load(str(path))
    robot = loaded.robot
    assert robot.link('left_arm').location == SourceLocation(str(path.parent / 'macros.xacro'),
                                                             3)
    assert robot.joint('wrist').location == SourceLocation(str(path), 10)
    warnings = to_sdf(loaded).warnings
    unknown = [str(w) for w in warnings if w.code == 'unknown-reference']
    assert unknown == [
        f"{path.parent / 'macros.xacro'}:11: warning: <gazebo reference='{side}_nothing'>: "
        f"reference '{side}_nothing' names no link or joint; the block is ignored"
        for side in ('left', 'right')]
    assert not any('expanded by xacro' in str(w) for w in warnings + robot.warnings)
    assert not any('expanded by xacro' in str(d.location) for d in warnings)


def test_an_element_that_cannot_be_told_apart_is_named_by_its_path(robot_file, tmp_path):
    # <link name="${name}"/> is in two macros: the tip could come from either.
    path = robot_file()
    warnings = to_sdf(load(str(path))).warnings
    (massless,) = [str(w) for w in warnings if "link 'tip'" in str(w)]
    assert massless.startswith(f"{path}: /robot/link[@name='tip']: warning: link 'tip': has "
                               'no <inertial>')
    # With the expansion written, its lines are real and are named instead.
    kept = tmp_path / 'expanded.urdf'
    code = cli.main(['convert', str(path), '--keep-expanded', str(kept), '-o',
                     str(tmp_path / 'r.sdf')])
    assert code == 0
    line = line_of(kept.read_text(), '<link name="tip"/>')
    loaded = load(str(path))
    located = loaded.origins.kept_as(str(kept)).locate(SourceLocation(loaded.origins.label, line))
    assert located == SourceLocation(str(kept), line)


def test_the_keep_expanded_file_holds_the_expansion_and_messages_name_it(robot_file, tmp_path,
                                                                         capsys):
    path = robot_file()
    kept = tmp_path / 'expanded.urdf'
    code = cli.main(['check', str(path), '--keep-expanded', str(kept)])
    out = capsys.readouterr().out
    assert code == 0
    line = line_of(kept.read_text(), '<link name="tip"/>')
    assert f"{kept}:{line}: warning: link 'tip': has no <inertial>" in out
    assert parse_xml(kept.read_bytes()).get('name') == 'r'
    plain = tmp_path / 'plain.urdf'
    plain.write_text('<robot name="p"><link name="a"/></robot>')
    assert cli.main(['check', str(plain), '--keep-expanded', str(kept)]) == 2
    assert '--keep-expanded is for xacro input' in capsys.readouterr().err


def test_no_message_names_the_hidden_expansion(robot_file, capsys):
    path = robot_file(upper='abc')
    assert cli.urdf2sdf_main([str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"Error: {path}:13: joint 'wrist': <limit> upper must be a number, got 'abc'\n"
    assert cli.main(['check', str(robot_file())]) == 0
    out = capsys.readouterr().out
    assert not re.search(r'expanded by xacro\):\d', out)
    assert re.search(r'macros\.xacro:11: warning', out)


def expanded_names(path, **kwargs):
    """Return ``(expanded element name, xacro text up to its line)`` per element mapped."""
    description = load(str(path), LoadOptions(**kwargs))
    lines = description.text.decode().splitlines()
    sources = {}
    pairs = []
    for line, origin in description.origins.lines.items():
        if origin.source not in sources:
            sources[origin.source] = open(origin.source).read().splitlines()
        tag = re.match(r'\s*<([^\s/>]+)', lines[line - 1]).group(1)
        pairs.append((tag, sources[origin.source][:origin.line]))
    return description, pairs


def test_each_answer_names_a_line_that_writes_such_an_element(robot_file):
    # An element's line is where its start tag ends (as lxml counts, for every reader): the
    # line writes the element, or its start tag began on an earlier line.
    for path, kwargs, unknown in ((robot_file(), {}, 1),  # the tip
                                  (EXAMPLE, {'mappings': {'prefix': 'l_'}}, 0)):
        description, pairs = expanded_names(path, **kwargs)
        assert len(pairs) == len(description.origins.paths) - unknown
        for tag, above in pairs:
            if '<' in above[-1]:
                assert re.search(rf'<{tag}[\s/>]|<{tag}$', above[-1]), (tag, above[-1])
            else:
                text = '\n'.join(above)
                assert re.match(rf'<{tag}\s', text[text.rindex('<'):]), (tag, above[-3:])


def test_the_expansion_is_laid_out_one_element_per_line():
    text, origins = map_expansion('<robot name="r"><link name="a"/><link name="b">'
                                  '<visual><geometry><box size="1 1 1"/></geometry></visual>'
                                  '</link></robot>', [('r.xacro', b'<robot name="r"/>')],
                                  'r.xacro (expanded by xacro)')
    assert text.splitlines()[1:4] == ['<robot name="r">', '  <link name="a"/>',
                                      '  <link name="b">']
    assert origins.lines == {2: SourceLocation('r.xacro', 1)}  # only the root was written
    assert origins.paths[7] == "/robot/link[@name='b']/visual/geometry/box"


@pytest.mark.parametrize('written, expanded, answer', [
    # A literal element, and one with substitutions: one candidate each.
    ('<link name="a"/><link name="${n}b"/>', '<link name="xb"/>', 3),
    # Two macros that write the same thing: no answer.
    ('<xacro:macro name="m"><link name="${n}"/></xacro:macro>'
     '<xacro:macro name="k"><link name="${n}"/></xacro:macro>', '<link name="x"/>', None),
    # Children always copied decide: only the second can give a link with a visual.
    ('<xacro:macro name="m"><link name="${n}"/></xacro:macro>'
     '<xacro:macro name="k"><link name="${n}"><visual/></link></xacro:macro>',
     '<link name="x"><visual/></link>', 6),
    # Under a condition, a child may be missing: both stay possible.
    ('<xacro:macro name="m"><link name="${n}"/></xacro:macro>'
     '<xacro:macro name="k"><link name="${n}"><xacro:if value="1"><visual/></xacro:if>'
     '</link></xacro:macro>', '<link name="x"/>', None),
    # xacro:attribute may add attributes; xacro:element computes the name.
    ('<link name="a"><xacro:attribute name="type" value="x"/></link>',
     '<link name="a" type="x"/>', 2),
    ('<xacro:element xacro:name="${t}" name="a"/>', '<joint name="a"/>', 2),
    # Leaves compare their text.
    ('<gazebo><mu1>1</mu1></gazebo><gazebo><mu1>${m}</mu1></gazebo>',
     '<gazebo><mu1>2</mu1></gazebo>', 5),
])
def test_answers_are_right_or_absent(written, expanded, answer):
    source = f'<robot name="r" {XACRO_NS}>\n' + written.replace('><', '>\n<') + '\n</robot>'
    text, origins = map_expansion(f'<robot name="r">{expanded}</robot>',
                                  [('r.xacro', source.encode())], 'label')
    first = etree.fromstring(expanded)
    line = line_of(text, f'<{first.tag}')
    found = origins.lines.get(line)
    assert (found.line if found else None) == answer, source


def test_the_map_changes_only_locations_in_the_expansion():
    origins = SourceMap('r.xacro (expanded by xacro)', 'r.xacro',
                        {3: SourceLocation('m.xacro', 9)}, {3: '/robot/link', 4: '/robot/joint'})
    assert origins.locate(SourceLocation('other.urdf', 3)) == SourceLocation('other.urdf', 3)
    assert origins.locate(SourceLocation('r.xacro (expanded by xacro)', 3)) == \
        SourceLocation('m.xacro', 9)
    assert str(origins.locate(SourceLocation('r.xacro (expanded by xacro)', 4))) == \
        'r.xacro: /robot/joint'
    assert origins.locate(SourceLocation('r.xacro (expanded by xacro)')) == \
        SourceLocation('r.xacro')
    assert SourceMap().locate(SourceLocation('x', 1)) == SourceLocation('x', 1)
