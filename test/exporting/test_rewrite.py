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

"""Tests of sdf_tools.exporting.rewrite: the URIs a model uses, rewritten, and what is left."""

from lxml import etree
from sdf_tools.errors import Code
from sdf_tools.exporting.rewrite import leftovers
from sdf_tools.exporting.rewrite import uses
from sdf_tools.exporting.rewrite import with_uris
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.writer import write_sdf
from sdf_tools.formats.urdf.reader import parse_urdf

URDF = """<robot name="r">
  <link name="a">
    <visual><geometry><mesh filename="package://p/a.stl"/></geometry>
      <material name="m"><texture filename="package://p/skin.png"/></material></visual>
  </link>
  <gazebo reference="a"><visual><material><script>
    <uri>model://p/materials/scripts</uri><name>P/Skin</name></script></material></visual>
  </gazebo>
  <gazebo><plugin name="x" filename="libx.so"><uri> package://p/param.yaml </uri></plugin>
  </gazebo>
</robot>
"""
SDF = """<sdf version="1.9"><model name="m"><link name="a">
  <visual name="v"><geometry><mesh><uri>package://p/a.stl</uri></mesh></geometry>
    <material><script><uri>model://p/materials/scripts</uri><name>P/Skin</name></script>
    </material></visual>
</link></model></sdf>
"""


def test_uses_are_meshes_textures_then_the_uris_of_content_copied_as_written():
    robot = parse_urdf(URDF, 'r.urdf')
    assert [(u.uri, u.kind, u.entity, u.location.line) for u in uses(robot)] == [
        ('package://p/a.stl', 'mesh', "link 'a'", 3),
        ('package://p/skin.png', 'texture', "link 'a'", 3),
        ('model://p/materials/scripts', 'resource', "<gazebo reference='a'>", 6),
        ('package://p/param.yaml', 'resource', '<gazebo>', 9)]


def test_with_uris_rewrites_copies_of_gazebo_content_and_leaves_urdf_meshes(tmp_path):
    robot = parse_urdf(URDF, 'r.urdf')
    new = {'package://p/a.stl': 'model://m/a.stl',
           'model://p/materials/scripts': 'model://m/materials/scripts',
           'package://p/param.yaml': 'model://m/param.yaml'}
    rewritten = with_uris(robot, new)
    assert [e.findtext('material/script/uri') for e in rewritten.gazebo[0].elements] == \
        ['model://m/materials/scripts']
    assert rewritten.gazebo[1].elements[0].findtext('uri') == 'model://m/param.yaml'
    # The original model is unchanged, and URDF meshes are the converter's to write.
    assert [e.findtext('material/script/uri') for e in robot.gazebo[0].elements] == \
        ['model://p/materials/scripts']
    assert rewritten.links[0].visuals[0].geometry.filename == 'package://p/a.stl'
    assert with_uris(robot, {}) is robot


def test_with_uris_rewrites_sdformat_meshes_and_kept_content():
    robot = parse_sdf(SDF, 'm.sdf')
    assert [u.uri for u in uses(robot)] == ['package://p/a.stl', 'model://p/materials/scripts']
    rewritten = with_uris(robot, {'package://p/a.stl': 'model://m/a.stl',
                                  'model://p/materials/scripts': 'model://m/scripts'})
    written = etree.fromstring(write_sdf(rewritten).encode())
    assert [e.text for e in written.iter('uri')] == ['model://m/a.stl', 'model://m/scripts']


def test_leftovers_name_each_uri_outside_the_folder_once_with_its_line():
    sdf = ('<sdf>\n<uri>model://m/a.stl</uri>\n<uri>package://p/b.stl</uri>\n'
           '<param>model://other/x.dae package://p/b.stl</param>\n'
           '<uri>file://media/materials/scripts/gazebo.material</uri>\n'
           '<uri>file:///home/me/c.stl</uri>\n<uri>model://gone/d.stl</uri>\n</sdf>\n')
    warnings = leftovers(sdf, 'm', reported={'model://gone/d.stl'})
    assert [(w.message.split()[0], w.location.line, w.code) for w in warnings] == [
        ('package://p/b.stl', 3, Code.NOT_SELF_CONTAINED),
        ('model://other/x.dae', 4, Code.NOT_SELF_CONTAINED),
        ('file:///home/me/c.stl', 6, Code.NOT_SELF_CONTAINED)]
    assert str(warnings[0]) == (
        'model.sdf:3: warning: package://p/b.stl names something outside the exported '
        'folder: Gazebo finds it only where its resource path (GZ_SIM_RESOURCE_PATH) or ROS '
        'workspace holds it')
