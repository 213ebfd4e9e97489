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


"""Visuals and collisions compared: pairing, mesh files, materials."""

from diff_support import ARM
from diff_support import compare
from diff_support import edited
from diff_support import read
from sdf_tools.comparing import diff
from sdf_tools.comparing.parts import MeshFiles
from sdf_tools.loading import load

MESH = '<visual><geometry><mesh filename="{}"/></geometry></visual>'
ONE_MESH = '<robot name="r"><link name="a">{}</link></robot>'


def test_model_and_package_uris_name_the_same_mesh():
    meshes = MeshFiles(read(ARM, 'a.urdf'), read(ARM, 'b.urdf'))
    assert meshes.same('package://arm/meshes/base.stl', 'model://arm/meshes/base.stl') == \
        (True, '')
    assert meshes.same('package://arm/a.stl', 'package://arm/b.stl') == \
        (False, 'not found: package://arm/a.stl, package://arm/b.stl')


def test_two_uris_of_one_file_name_the_same_mesh(tmp_path):
    (tmp_path / 'meshes').mkdir()
    (tmp_path / 'meshes' / 'base.stl').write_bytes(b'solid base\nendsolid base\n')
    a = tmp_path / 'a.urdf'
    a.write_text(ONE_MESH.format(MESH.format('meshes/base.stl')))
    other = tmp_path / 'other'
    other.mkdir()
    b = other / 'b.urdf'
    b.write_text(ONE_MESH.format(MESH.format(f'file://{tmp_path}/meshes/base.stl')))
    assert diff(load(str(a)), load(str(b))).equal
    b.write_text(ONE_MESH.format(MESH.format('../meshes/base.stl')))  # relative to b.urdf
    assert diff(load(str(a)), load(str(b))).equal


def test_copies_with_the_same_bytes_are_the_same_mesh(tmp_path):
    for name, content in (('a.stl', b'solid x\n'), ('b.stl', b'solid x\n'),
                          ('c.stl', b'solid y\n')):
        (tmp_path / name).write_bytes(content)
    a = read(ONE_MESH.format(MESH.format(f'{tmp_path}/a.stl')), 'a.urdf')
    assert diff(a, read(ONE_MESH.format(MESH.format(f'{tmp_path}/b.stl')), 'b.urdf')).equal
    d, = diff(a, read(ONE_MESH.format(MESH.format(f'{tmp_path}/c.stl')), 'c.urdf')).differences
    assert (d.kind, d.part, d.a, d.b, d.detail) == ('mesh', 'visual 1', f'{tmp_path}/a.stl',
                                                    f'{tmp_path}/c.stl', 'different files')


def test_an_inserted_visual_is_one_difference_and_shifts_nothing():
    box = '<visual><geometry><box size="1 1 1"/></geometry></visual>'
    inserted = edited('<link name="upper">', '<link name="upper">' + box)
    d, = compare(ARM, inserted).differences
    assert (d.name, d.kind, d.part, d.b) == ('upper', 'only-in-b', 'visual 1',
                                             {'shape': 'box', 'size': [1.0, 1.0, 1.0]})


def test_a_mesh_scale_is_part_of_the_geometry():
    scaled = edited('base.stl"/>', 'base.stl" scale="2 2 2"/>')
    d, = compare(ARM, scaled).differences
    assert (d.kind, d.field, d.a, d.b) == ('geometry', 'scale', [1.0, 1.0, 1.0],
                                           [2.0, 2.0, 2.0])


def test_an_sdformat_material_is_compared_as_content_not_as_a_colour():
    sdf = ('<sdf version="1.9"><model name="m"><link name="a"><visual name="v"><geometry>'
           '<box><size>1 1 1</size></box></geometry><material><diffuse>{}</diffuse>'
           '<script><uri>file://media/materials/scripts/gazebo.material</uri><name>{}</name>'
           '</script></material></visual></link></model></sdf>')
    comparison = compare(sdf.format('1 0 0 1', 'Gazebo/Red'), sdf.format('1 0 0 1',
                                                                         'Gazebo/Blue'),
                         names=('a.sdf', 'b.sdf'))
    d, = comparison.differences
    assert (d.kind, d.part, d.field, d.a, d.b) == (
        'content', "visual 'v'", 'material/script/name', 'Gazebo/Red', 'Gazebo/Blue')


def test_a_collision_deleted_from_a_lumped_link_is_one_difference():
    """
    Against SDFormat, a URDF's lumped parts have names made up from their position.

    Deleting the tool's first collision renames the two after it on the URDF side: they
    pair by what they are, and the deleted one is the only difference.
    """
    from sdf_tools.loading import to_sdf
    three = edited('<collision><geometry><sphere radius="0.05"/></geometry></collision>',
                   '<collision><geometry><sphere radius="0.05"/></geometry></collision>'
                   '<collision><origin xyz="0.1 0 0"/><geometry><mesh filename="package://arm/'
                   'b.stl"/></geometry></collision><collision><origin xyz="0.2 0 0"/>'
                   '<geometry><box size="0.1 0.2 0.3"/></geometry></collision>')
    sdf = read(to_sdf(read(three, 'arm.urdf')).sdf, 'arm.sdf')
    assert diff(read(three, 'arm.urdf'), sdf).equal
    two = edited('<collision><geometry><sphere radius="0.05"/></geometry></collision>', '',
                 three)
    (d,) = diff(read(two, 'arm.urdf'), sdf).differences
    assert (d.entity, d.name, d.kind, d.part) == (
        'link', 'fore', 'only-in-b', "collision 'fore_fixed_joint_lump__tool_collision'")
    assert d.b == {'shape': 'sphere', 'radius': 0.05}


def test_a_geometry_of_several_polylines_is_compared_shape_by_shape():
    polyline = '<polyline><point>0 0</point><point>1 0</point><height>{}</height></polyline>'
    sdf = ('<sdf version="1.9"><model name="m"><link name="a"><collision name="c"><geometry>'
           f'{polyline.format(1)}{{}}</geometry></collision></link></model></sdf>')
    comparison = compare(sdf.format(polyline.format(2)), sdf.format(polyline.format(3)),
                         names=('a.sdf', 'b.sdf'))
    d, = comparison.differences
    assert (d.kind, d.part, d.field, d.a, d.b) == (
        'geometry', "collision 'c'", 'polyline #2/height', '2', '3')
