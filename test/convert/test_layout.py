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
Tests of the converter's output layout: indented as libsdformat's, blob content included.

A ``<gazebo>`` blob keeps the line breaks the user wrote; the output used to keep them too,
which put everything from ``<model>`` on one line and every SDF diagnostic on line 2.
"""

import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.sdf.reader import parse_sdf
import support
from urdf_snippets import convert
from urdf_snippets import link
from urdf_snippets import robot

# A link-level plugin whose lines are indented (and one of them badly), as most real robots
# write them: the whole document used to come out on one line from <model> on.
INDENTED_BLOB = '\n'.join((
    '<gazebo reference="base">', '    <plugin name="p" filename="libp.so">',
    '      <param>a</param>', '          <nested>', '        <deep>  keep  me  </deep>',
    '      </nested>', '    </plugin>', '  </gazebo>'))


def test_output_is_indented_blob_content_included_leaf_text_kept():
    lines = convert(robot(link('base'), INDENTED_BLOB)).sdf.splitlines()
    assert lines[:3] == ['<sdf version="1.9">', '  <model name="r">', '    <link name="base">']
    start = lines.index('      <plugin name="p" filename="libp.so">')
    assert lines[start:start + 6] == [
        '      <plugin name="p" filename="libp.so">', '        <param>a</param>',
        '        <nested>', '          <deep>  keep  me  </deep>', '        </nested>',
        '      </plugin>']
    assert lines[-2:] == ['  </model>', '</sdf>']


@pytest.mark.oracle
def test_output_layout_is_libsdformats_line_for_line(tmp_path):
    if support.oracle_path() is None:
        pytest.skip(support.NO_ORACLE)
    source = tmp_path / 'blob.urdf'
    source.write_text(robot(link('base'), INDENTED_BLOB))
    reference = support.run_oracle('convert', source)
    assert reference.returncode == 0, reference.stderr
    ours = convert(source.read_text()).sdf
    assert ours.splitlines() == reference.stdout.replace("'", '"').splitlines()


def test_the_sdf_readers_diagnostics_on_our_output_point_at_their_lines():
    model_blob = INDENTED_BLOB.replace(' reference="base"', '').replace(
        '</gazebo>', '<frame name="f" attached_to="ghost"/></gazebo>')
    result = convert(robot(link('base'), model_blob))
    with pytest.raises(DescriptionError) as info:
        parse_sdf(result.sdf, 'out.sdf')
    line = info.value.diagnostic.location.line
    assert result.sdf.splitlines()[line - 1] == '    <frame name="f" attached_to="ghost"/>'
