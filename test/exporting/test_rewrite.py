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
  <gazebo reference="a"><visual><geometry><mesh><uri>package://p/b.dae</uri></mesh>
    </geometry><material><pbr><metal><albedo_map>package://p/b.png</albedo_map></metal>
    </pbr></material></visual></gazebo>
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
        ('model://p/materials/scripts', 'script', "<gazebo reference='a'>", 6),
        ('package://p/param.yaml', 'resource', '<gazebo>', 9),
        ('package://p/b.dae', 'mesh', "<gazebo reference='a'>", 11),
        ('package://p/b.png', 'texture', "<gazebo reference='a'>", 11)]


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
           '<uri>file:///home/me/c.stl</uri>\n<uri>model://gone/d.stl</uri>\n'
           '<plugin filename="/opt/lib/libx.so">\n<parameters>/home/me/ws/c.yaml</parameters>\n'
           '<topic>/scan</topic><remap>/tf:=tf</remap>\n'
           '<uri>file://media/materials/scripts/gazebo.material</uri></plugin>\n</sdf>\n')
    warnings = leftovers(sdf, 'm', reported={'model://gone/d.stl'}, file='out/m/model.sdf')
    assert [(w.message.split()[0], w.location.line, w.entity, w.code) for w in warnings] == [
        ('package://p/b.stl', 3, '<uri>', Code.NOT_SELF_CONTAINED),
        ('model://other/x.dae', 4, '<param>', Code.NOT_SELF_CONTAINED),
        ('file://media/materials/scripts/gazebo.material', 5, '<uri>', Code.SIMULATOR_MEDIA),
        ('file:///home/me/c.stl', 6, '<uri>', Code.NOT_SELF_CONTAINED),
        ('/opt/lib/libx.so', 8, '<plugin>', Code.NOT_SELF_CONTAINED),
        ('/home/me/ws/c.yaml', 9, '<parameters>', Code.NOT_SELF_CONTAINED)]
    assert str(warnings[0]) == (
        'out/m/model.sdf:3: warning: <uri>: package://p/b.stl names something outside the '
        'exported folder: Gazebo finds it only where its resource path (GZ_SIM_RESOURCE_PATH) '
        'or ROS workspace holds it')
    assert warnings[2].message.endswith("is not in the folder: it is one of Gazebo's own media "
                                        "files, which come with the simulator's install")
    assert warnings[5].message == (
        '/home/me/ws/c.yaml is an absolute path outside the exported folder: it names a file of '
        'this machine, which the folder does not hold')
