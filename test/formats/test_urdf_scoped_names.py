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
Tests of nested models' names in URDF (sdf_tools.formats.urdf.scoped_names).

The poses are libsdformat 12.3's on both sides: ``oracle poses`` of the SDFormat model (the
nested links probed through top-level ``<frame>`` s attached to them, as the oracle lists
only the top model's own links) against ``oracle poses`` of the URDF written, which
libsdformat converts itself.
"""

from lxml import etree
import numpy as np
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.loading import check
from sdf_tools.loading import errors_in
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import to_sdf
import support

INERTIAL = ('<inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz>'
            '</inertia></inertial>')
NESTED = f"""<sdf version="1.9">
  <model name="outer">
    <link name="base">{INERTIAL}</link>
    <model name="inner">
      <pose>1 0 0.5 0 0 0.3</pose>
      <link name="l1"><pose>0.2 0 0 0 0 0</pose>{INERTIAL}</link>
      <model name="deep">
        <pose>0 0 1 0.2 0 0</pose>
        <link name="x"><pose>0 1 0 0 0 0</pose>{INERTIAL}</link>
      </model>
      <joint name="jd" type="revolute">
        <parent>l1</parent><child>deep::x</child>
        <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper><effort>3</effort>
          <velocity>1</velocity></limit></axis>
      </joint>
    </model>
    <joint name="j1" type="revolute">
      <parent>base</parent><child>inner::l1</child>
      <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper><effort>5</effort>
        <velocity>2</velocity></limit></axis>
    </joint>
    <frame name="probe_l1" attached_to="inner::l1"/>
    <frame name="probe_x" attached_to="inner::deep::x"/>
    <plugin name="p" filename="libp.so"><joint_name>inner::jd</joint_name>
      <link link="inner::deep::x"/></plugin>
  </model>
</sdf>
"""
RENAMED = {'inner::l1': 'inner/l1', 'inner::deep::x': 'inner/deep/x', 'inner::jd': 'inner/jd'}


def written(sdf=NESTED):
    """Return the URDF written for an SDFormat model, and the warnings."""
    return write_urdf(parse_sdf(sdf, 'nested.sdf'))


def oracle_poses(path):
    """Return ``{name: (x y z qw qx qy qz)}`` of the links and frames ``oracle poses`` lists."""
    result = support.run_oracle('poses', path)
    assert result.returncode == 0, result.stderr
    return {fields[1]: np.array([float(v) for v in fields[2:]])
            for fields in map(str.split, result.stdout.splitlines())
            if fields and fields[0] in ('link', 'frame')}


def test_nested_names_are_written_with_a_slash_and_said_once():
    text, warnings = written()
    root = etree.fromstring(text.encode())
    links = root.xpath('link/@name')
    assert [name for name in links if name in RENAMED.values()] == \
        ['inner/l1', 'inner/deep/x']
    assert root.xpath("joint[@name='inner/jd']/parent/@link") == ['inner/l1']
    assert root.xpath("joint[@name='inner/jd']/child/@link") == ['inner/deep/x']
    assert root.xpath("joint[@name='j1']/child/@link") == ['inner/l1']
    assert root.xpath("joint[@name='probe_x__fixed']/parent/@link") == ['inner/deep/x']
    assert '::' not in text
    (renames,) = [w for w in warnings if w.code is Code.RENAMED]
    for old, new in RENAMED.items():
        assert f'{old!r} as {new!r}' in renames.message
    assert renames.entity == "robot 'outer'" and renames.location.line == 2


def test_sdformat_content_naming_a_renamed_entity_follows_it():
    root = etree.fromstring(written()[0].encode())
    (plugin,) = root.xpath('gazebo[not(@reference)]/plugin')
    assert plugin.findtext('joint_name') == 'inner/jd'
    assert plugin.find('link').get('link') == 'inner/deep/x'


def test_the_urdf_written_is_accepted_by_check_and_urdf2sdf():
    text, _ = written()
    loaded = load(text=text, options=LoadOptions(fmt='urdf', source='nested.urdf'))
    assert errors_in(check(loaded)) == 0
    sdf = to_sdf(loaded).sdf
    assert '<link name="inner/deep/x">' in sdf


@pytest.mark.oracle
def test_libsdformat_reads_the_urdf_written_with_the_poses_of_the_sdformat(tmp_path):
    if support.oracle_path() is None:
        pytest.skip(support.NO_ORACLE)
    sdf, urdf = tmp_path / 'nested.sdf', tmp_path / 'nested.urdf'
    sdf.write_text(NESTED)
    urdf.write_text(written()[0])
    assert support.run_oracle('check', urdf).stdout.strip().endswith('oracle: OK')
    expected = oracle_poses(sdf)
    got = oracle_poses(urdf)
    for probe, name in (('probe_l1', 'inner/l1'), ('probe_x', 'inner/deep/x')):
        np.testing.assert_allclose(got[name], expected[probe], atol=1e-12, err_msg=name)
    np.testing.assert_allclose(got['base'], expected['base'], atol=1e-12)


def test_a_new_name_another_link_has_is_an_error():
    clash = NESTED.replace('<link name="base">', '<link name="inner/l1">').replace(
        '<parent>base</parent>', '<parent>inner/l1</parent>')
    with pytest.raises(ConversionError) as info:
        written(clash)
    (error,) = info.value.diagnostics
    assert error.code is Code.NAME_CLASH
    assert error.entity == "link 'inner::l1'"
    assert error.message == ("is written as 'inner/l1' (a URDF name cannot hold '::'), but "
                             'the model already has a link of that name')
    assert error.location.line == 6
