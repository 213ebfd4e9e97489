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
Tests of the values of SDFormat link elements (:mod:`sdf_tools.formats.sdf.elements`).

Inertials, visuals, collisions, geometries, materials and the content kept as ``extras``.
"""

from lxml import etree
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Reporter
from sdf_tools.formats.sdf.elements import ElementReader
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import IDENTITY
from sdf_tools.model import Material
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Pose
from sdf_tools.model import Sphere
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import parse_element
from sdf_tools.xmlio.parse import ValueReader
from sdf_tools.xmlio.text import element_text
from test_sdf_reader import oracle_reads
from test_sdf_reader import oracle_refuses
from test_sdf_reader import read_fixture
from test_sdf_reader import refused_alike
from test_sdf_reader import sdf


def test_geometry_materials_inertials_and_extras():
    robot = read_fixture('joint_types')
    base = robot.link('base')
    inertial = base.inertial
    assert (inertial.mass, inertial.ixx, inertial.ixy, inertial.izz) == (2.5, 0.1, 0.01, 0.25)
    assert inertial.origin == Pose((0.0, 0.0, 0.05))
    (visual,) = base.visuals
    assert visual.name == 'body' and visual.geometry == Box((0.4, 0.3, 0.1))
    assert visual.material.rgba == (0.8, 0.2, 0.1, 1.0)
    assert {'material', 'cast_shadows'} <= {e.tag for e in visual.extras}
    (collision,) = base.collisions
    assert collision.origin == IDENTITY and '<mu>0.9</mu>' in element_text(collision.extras[0])
    assert element_text(base.extras[0]).startswith('<sensor name="imu" type="imu">')
    assert robot.link('l_rev').visuals[0].geometry == Cylinder(0.05, 0.2)
    assert robot.link('l_cont').visuals[0].geometry == Sphere(0.04)
    assert robot.link('l_pri').collisions[0].geometry == Capsule(0.02, 0.1)
    assert robot.link('l_fix').visuals[0].geometry == Mesh(
        'model://example/meshes/part.dae', (0.001, 0.001, 0.001))
    other = robot.link('l_ball').visuals[0].geometry
    assert isinstance(other, OtherGeometry) and other.kind == 'ellipsoid'
    assert [(e.tag, e.findtext('radii')) for e in other.elements] == \
        [('ellipsoid', '0.1 0.2 0.3')]
    assert [element_text(e).split('>')[0] for e in robot.extras] == [
        '<self_collide', '<plugin filename="libexample.so" name="example::Plugin"']
    assert robot.extras[1].findtext('ignition::corrected_offsets') == '1'
    assert robot.link('l_gear').inertial is None


def test_material_colour_from_ambient_and_script_name():
    body = """<model name="m"><link name="a">
  <visual name="v"><geometry><box/></geometry>
    <material><ambient>0.1 0.2 0.3</ambient></material></visual>
  <visual name="w"><geometry><box/></geometry>
    <material><script><uri>file://media/materials/scripts/gazebo.material</uri>
      <name>Gazebo/Red</name></script></material></visual>
</link></model>"""
    v, w = parse_sdf(sdf(body)).link('a').visuals
    assert v.material == Material(None, (0.1, 0.2, 0.3, 1.0))   # three numbers: opaque
    assert w.material == Material('Gazebo/Red', None)
    assert v.geometry == Box((1.0, 1.0, 1.0))                    # the SDFormat default size


def test_element_reader_reads_one_link_without_resolving_its_poses():
    reporter = Reporter()
    reader = ElementReader(ValueReader('e.sdf', reporter), (1, 9))
    link = etree.fromstring(
        '<link name="a"><inertial><pose relative_to="f">1 0 0 0 0 0</pose><mass>2</mass>'
        '<inertia><ixx>3</ixx></inertia></inertial><sensor name="s"/></link>')
    spec = reader.link(link, "link 'a'")
    inertial, placed = spec.inertial
    assert (inertial.mass, inertial.ixx, inertial.iyy, inertial.origin) == (2.0, 3.0, 1.0,
                                                                            IDENTITY)
    assert (placed.pose, placed.rel_text) == (Pose((1.0, 0.0, 0.0)), 'f')
    assert spec.extras == (Element('sensor', (('name', 's'),)),)
    assert reporter.errors == [] and reporter.warnings == []


def test_visuals_and_collisions_without_geometry_have_none(tmp_path):
    # libsdformat 12 reads them as empty geometries, without a word.
    text = sdf("""<model name="m"><link name="a">
<visual name="v"><pose>0 0 1 0 0 0</pose></visual>
<visual name="w"><geometry/></visual><collision name="c"/>
</link></model>""")
    link = parse_sdf(text).link('a')
    assert [part.geometry for part in link.visuals + link.collisions] == [None, None, None]
    assert link.visuals[0].origin == Pose((0.0, 0.0, 1.0))
    oracle_reads(text, tmp_path)


POLYLINE = '<polyline><point>0 0</point><point>1 0</point><point>0 1</point>' \
    '<height>{}</height></polyline>'


def test_several_polylines_are_one_geometry(tmp_path):
    text = sdf(f"""<model name="m"><link name="a"><collision name="c"><geometry>
{POLYLINE.format(1)}{POLYLINE.format(2)}</geometry></collision></link></model>""")
    geometry = parse_sdf(text).link('a').collisions[0].geometry
    assert geometry == OtherGeometry('polyline', (parse_element(POLYLINE.format(1)),
                                                  parse_element(POLYLINE.format(2))))
    oracle_reads(text, tmp_path)
    # Two different shapes mean nothing certain (libsdformat takes one, silently).
    with pytest.raises(DescriptionError, match=r'<geometry> must hold exactly one shape, '
                       r'found 2'):
        parse_sdf(text.replace(POLYLINE.format(2), '<box/>'))


@pytest.mark.parametrize('tag', ['visual', 'collision'])
def test_two_visuals_or_collisions_of_one_name_are_refused_naming_both(tag, tmp_path):
    text = sdf(f"""<model name="m"><link name="a">
<{tag} name="v"><geometry><box/></geometry></{tag}>
<{tag} name="w"><geometry><box/></geometry></{tag}><{tag} name="v"><geometry><box/>
</geometry></{tag}>
</link></model>""")
    with pytest.raises(DescriptionError) as info:
        parse_sdf(text, 'r.sdf')
    (error,) = info.value.diagnostics
    assert str(error) == (f"r.sdf:4: link 'a': <{tag}> name 'v' is used twice in the link "
                          f'(first at line 3): libsdformat and Gazebo refuse two {tag}s of '
                          'one name in a link')
    oracle_refuses(text, tmp_path, f'{tag} with name[v] already exists')
    # A visual and a collision may share a name.
    other = 'collision' if tag == 'visual' else 'visual'
    parse_sdf(text.replace(f'<{tag} name="w">', f'<{other} name="v">').replace(
        f'</{tag}><{tag} name="v">', f'</{other}><{tag} name="x">'))


def material_model(material: str) -> str:
    """Return a model whose one visual holds ``<material>`` (on line 3)."""
    return sdf(f"""<model name="m"><link name="a"><visual name="v"><geometry><box/></geometry>
<material>{material}</material></visual></link></model>""")


@pytest.mark.parametrize('script, missing', [
    ('<name>Gazebo/Red</name>', '<uri>'), ('<uri>file://a.material</uri>', '<name>'),
    ('', '<uri> and <name>'),
    # libsdformat's own URDF conversion writes an unset uri as __default__ (its
    # fixed_joint_reduction_collision_visual_extension.sdf), which its loader refuses.
    ('<uri>__default__</uri><name>Gazebo/Red</name>',
     '<uri> (libsdformat reads <uri>__default__</uri> as none)'),
    ('<uri> __default__ </uri><name>__default__</name>', '<uri> and <name> (libsdformat reads '
     '<uri>__default__</uri> and <name>__default__</name> as none)')])
def test_a_material_script_needs_its_uri_and_name(script, missing, tmp_path):
    refused_alike(material_model(f'<script>{script}</script>'), tmp_path,
                  f"r.sdf:3: link 'a': <material><script> needs {missing} (libsdformat "
                  'refuses the file)', 'A <script> element is missing a child',
                  parse=parse_sdf)


@pytest.mark.parametrize('shader, message, oracle_says', [
    ('<shader type="normal_map_tangent_space"/>', '<material><shader> type '
     "'normal_map_tangent_space' needs <normal_map> (the normal map image)",
     'a normal_map has not'),
    ('<shader type="normal_map_objectspace"><normal_map>__default__</normal_map></shader>',
     "<material><shader> type 'normal_map_objectspace' needs <normal_map> (the normal map "
     'image)', 'a normal_map has not'),
    ('<shader type="bump"/>', "<material><shader> type 'bump' is not one libsdformat knows "
     '(normal_map_object_space, normal_map_objectspace, normal_map_tangent_space, '
     'normal_map_tangentspace, pixel, vertex)', 'is not supported')])
def test_a_shader_libsdformat_refuses_is_refused(shader, message, oracle_says, tmp_path):
    # As libsdformat's material_normal_map_missing.sdf: its loader refuses it.
    refused_alike(material_model(shader), tmp_path, f"r.sdf:3: link 'a': {message} "
                  '(libsdformat refuses the file)', oracle_says, parse=parse_sdf)
    for shader in ('<shader type=" normal_map_tangentspace "><normal_map>n.png</normal_map>'
                   '</shader>', '<shader type="vertex"/>'):
        parse_sdf(material_model(shader))
        oracle_reads(material_model(shader), tmp_path)
