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

"""Tests of sdf_tools.resources.uris (mesh and texture URIs) and sdf_tools.resources.meshes."""

import sys

import pytest
from sdf_tools import inertia
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.model import Link
from sdf_tools.model import Mesh
from sdf_tools.model import Robot
from sdf_tools.model import Visual
from sdf_tools.resources import meshes
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.uris import check_uris
from sdf_tools.resources.uris import locate
from workspaces import make_tree
from workspaces import PACKAGE


@pytest.fixture
def found(tmp_path):
    tree = make_tree(tmp_path)
    return tree, PackageResolver(PackagePath.from_environment([str(tree['src'])], environ={}))


def test_locate_follows_each_kind_of_uri(found, tmp_path):
    tree, packages = found
    mesh = tree['package'] / 'meshes' / 'base.stl'
    assert locate(f'package://{PACKAGE}/meshes/base.stl', packages) == mesh
    assert locate(f'model://{PACKAGE}/meshes/base.stl', packages,
                  model_as_package=True) == mesh
    assert locate('file:///a%20b/c.stl', None) == locate('/a b/c.stl', None)
    assert str(locate('/a b/c.stl', None)) == '/a b/c.stl'
    assert locate('meshes/x.stl', None, str(tmp_path)) == tmp_path / 'meshes' / 'x.stl'
    assert locate('../x.stl', None, str(tmp_path / 'a')) == tmp_path / 'x.stl'
    for uri, kwargs, reason in (
            (f'model://{PACKAGE}/meshes/base.stl', {}, 'not a local file'),
            ('https://fuel.example/m.dae', {}, 'not a local file'),
            ('file://relative/x.stl', {}, 'not an absolute path'),
            ('meshes/x.stl', {}, 'a relative path, and the description was not read from'),
            ('package://p/x.stl', {'packages': None}, 'no package resolver'),
            (f'package://{PACKAGE}/../x.stl', {}, 'leaves the package folder')):
        with pytest.raises(ValueError, match=reason):
            locate(uri, kwargs.get('packages', packages))
    with pytest.raises(PackageNotFoundError, match="package 'other' not found"):
        locate('model://other/x.stl', packages, model_as_package=True)


def test_a_model_uri_leaving_its_package_is_named_as_written(found):
    _, packages = found
    with pytest.raises(ValueError) as caught:
        locate(f'model://{PACKAGE}/../x.stl', packages, model_as_package=True)
    assert str(caught.value) == f'model://{PACKAGE}/../x.stl: the path leaves the package folder'


def test_check_uris_looks_up_what_gazebo_cannot_and_every_mesh_when_asked(found, tmp_path):
    tree, packages = found
    urdf = tmp_path / 'robot.urdf'

    def collision(uri):
        return f'<collision><geometry><mesh filename="{uri}"/></geometry></collision>\n'

    base = tree['package'] / 'meshes' / 'base.stl'
    text = ('<robot name="r">\n<link name="a">\n'
            + collision(f'package://{PACKAGE}/meshes/base.stl')
            + collision(f'file://{base}') + collision(f'{tmp_path}/gone.stl')
            + collision('meshes/local.stl') + collision(f'model://{PACKAGE}/meshes/no.stl')
            + collision('https://fuel.example/m.dae') + collision(f'file://{base}')
            + '</link>\n</robot>\n')
    robot = parse_urdf(text, str(urdf))
    located, warnings = check_uris(robot, packages, str(tmp_path))
    assert located == {f'package://{PACKAGE}/meshes/base.stl': base, f'file://{base}': base,
                       f'{tmp_path}/gone.stl': tmp_path / 'gone.stl'}
    assert [(str(w), w.code) for w in warnings] == [
        (f"{urdf}:5: warning: link 'a': {tmp_path}/gone.stl: no such file: "
         f'{tmp_path}/gone.stl', Code.MISSING_FILE)]
    located, warnings = check_uris(robot, packages, str(tmp_path), every_mesh=True)
    assert located[f'model://{PACKAGE}/meshes/no.stl'] == tree['package'] / 'meshes' / 'no.stl'
    assert located['meshes/local.stl'] == tmp_path / 'meshes' / 'local.stl'
    assert [(w.location.line, w.code) for w in warnings] == [
        (5, Code.MISSING_FILE), (6, Code.MISSING_FILE), (7, Code.MISSING_FILE),
        (8, Code.WARNING)]
    assert 'https://fuel.example/m.dae: not a local file' in str(warnings[-1])


def test_paths_in_gazebo_content_are_looked_up_like_meshes(found, tmp_path):
    tree, packages = found
    (tree['package'] / 'config').mkdir()
    (tree['package'] / 'config' / 'controllers.yaml').write_text('')
    (tree['package'] / 'materials').mkdir()
    urdf = tmp_path / 'robot.urdf'
    text = ('<robot name="r">\n<link name="base"/>\n<gazebo>\n'
            '<plugin filename="gz_ros2_control-system" name="control">\n'
            f'<parameters>package://{PACKAGE}/config/controllers.yaml</parameters>\n'
            f'<parameters> package://{PACKAGE}/config/missing.yaml </parameters>\n'
            f'<parameters>{tmp_path}/gone.yaml</parameters>\n'
            '<ros><namespace>/robot</namespace><remapping>/tf:=tf</remapping></ros>\n'
            '<topic>/scan</topic><robot_param>robot_description</robot_param>\n'
            '</plugin>\n</gazebo>\n<gazebo reference="base">\n'
            f'<visual><material><script><uri>package://{PACKAGE}/materials</uri>\n'
            '<uri>file://media/materials/scripts/gazebo.material</uri>\n'
            '<name>Gazebo/Red</name></script></material></visual>\n'
            f'<sensor name="s" type="camera"><plugin filename="file://{tmp_path}/libcam.so" '
            'name="c"/></sensor>\n'
            '<plugin filename="libp.so" name="p"><config>package://other/p.yaml</config>'
            '</plugin>\n</gazebo>\n</robot>\n')
    robot = parse_urdf(text, str(urdf))
    located, warnings = check_uris(robot, packages)
    assert located[f'package://{PACKAGE}/config/controllers.yaml'] == \
        tree['package'] / 'config' / 'controllers.yaml'
    *missing, other = warnings
    assert [(str(w), w.code) for w in missing] == [
        (f'{urdf}:6: warning: <gazebo>: <parameters>: package://{PACKAGE}/config/missing.yaml: '
         f"no such file or folder: {tree['package']}/config/missing.yaml", Code.MISSING_FILE),
        (f'{urdf}:7: warning: <gazebo>: <parameters>: {tmp_path}/gone.yaml: no such file or '
         f'folder: {tmp_path}/gone.yaml', Code.MISSING_FILE),
        (f"{urdf}:16: warning: <gazebo reference='base'>: <plugin> filename: "
         f'file://{tmp_path}/libcam.so: no such file or folder: {tmp_path}/libcam.so',
         Code.MISSING_FILE)]
    assert str(other).startswith(f"{urdf}:17: warning: <gazebo reference='base'>: <config>: "
                                 "package://other/p.yaml: package 'other' not found; searched")
    assert other.code == Code.PACKAGE_NOT_FOUND


# --- meshes (trimesh) ---------------------------------------------------------------------------

def test_a_file_that_cannot_be_looked_up_is_a_warning_naming_why(capsys, tmp_path):
    from diagnostics import run_cli
    long = f'{tmp_path}/{"a" * 300}.stl'   # over NAME_MAX: stat fails with ENAMETOOLONG
    (tmp_path / 'plain').write_text('')
    urdf = tmp_path / 'r.urdf'
    urdf.write_text(f"""<robot name="r">
<link name="a"><visual><geometry><mesh filename="file://{long}"/></geometry></visual>
<collision><geometry><mesh filename="{tmp_path}/plain/x.stl"/></geometry></collision>
<collision><geometry><mesh filename="file://{tmp_path}/x%00.stl"/></geometry></collision>
</link>
<gazebo><plugin filename="p" name="p"><parameters>{long}</parameters></plugin></gazebo>
</robot>
""")
    robot = parse_urdf(urdf.read_text(), str(urdf))
    located, warnings = check_uris(robot, None)
    assert len(located) == 4   # located, though not found
    assert [(str(w), w.code) for w in warnings] == [
        (f"{urdf}:2: warning: link 'a': file://{long}: cannot look up {long}: File name too "
         'long', Code.IO),
        (f"{urdf}:3: warning: link 'a': {tmp_path}/plain/x.stl: no such file: "
         f'{tmp_path}/plain/x.stl', Code.MISSING_FILE),
        (f"{urdf}:4: warning: link 'a': file://{tmp_path}/x%00.stl: no such file: "
         f'{tmp_path}/x\\x00.stl', Code.MISSING_FILE),  # shown escaped
        (f'{urdf}:6: warning: <gazebo>: <parameters>: {long}: cannot look up {long}: File '
         'name too long', Code.IO)]
    code, out, err = run_cli([str(urdf)], capsys)   # urdf2sdf: a warning, not an error
    assert code == 0 and '<mesh>' in out
    assert f"{urdf}:2: warning: link 'a': file://{long}: cannot look up" in err


def test_load_solid_reads_closed_and_open_meshes(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import cube_stl
    (tmp_path / 'cube.stl').write_text(cube_stl())
    (tmp_path / 'open.stl').write_text(cube_stl(open_top=True))
    solid = meshes.load_solid(str(tmp_path / 'cube.stl'), (2.0, 3.0, 0.5))
    assert solid.closed and len(solid.faces) == 12
    assert solid.vertices.min(axis=0).tolist() == [0.0, 0.0, 0.0]
    assert solid.vertices.max(axis=0).tolist() == [2.0, 3.0, 0.5]
    hull = meshes.load_solid(str(tmp_path / 'open.stl'))
    assert not hull.closed and len(hull.faces) == 12  # the convex hull: the whole cube
    (tmp_path / 'flat.stl').write_text(cube_stl(open_top=True).replace('vertex 1 ', 'vertex 0 '))
    (tmp_path / 'junk.stl').write_text('solid x\nthis is not STL\n')
    flat = meshes.load_solid(str(tmp_path / 'flat.stl'))  # its hull encloses nothing
    assert not flat.closed and inertia.solid_mesh(flat.vertices, flat.faces, 1.0)[0] == 0.0
    for name, reason in (('junk.stl', 'holds no triangles'), ('none.stl', 'trimesh cannot read')):
        with pytest.raises(ValueError, match=reason):
            meshes.load_solid(str(tmp_path / name))


def test_load_solid_reads_obj_and_dae_in_metres(tmp_path):
    trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
    pytest.importorskip('collada', reason='pycollada (for DAE) is not installed')
    from mesh_robot import cube_stl
    (tmp_path / 'cube.stl').write_text(cube_stl())
    cube = trimesh.load(str(tmp_path / 'cube.stl'))
    (tmp_path / 'cube.obj').write_text(trimesh.exchange.obj.export_obj(cube))
    dae = trimesh.exchange.dae.export_collada(cube).decode()
    (tmp_path / 'cube.dae').write_text(dae)
    assert '<unit' not in dae
    (tmp_path / 'cube_mm.dae').write_text(dae.replace('<asset>', '<asset><unit meter="0.001" '
                                                      'name="millimetre"/>'))
    for name, size in (('cube.obj', 1.0), ('cube.dae', 1.0), ('cube_mm.dae', 0.001)):
        solid = meshes.load_solid(str(tmp_path / name))
        assert solid.closed and len(solid.faces) == 12, name
        assert inertia.solid_mesh(solid.vertices, solid.faces, 1.0)[0] == \
            pytest.approx(size ** 3, rel=1e-12), name


def test_a_dae_with_a_doctype_is_never_given_to_its_reader(tmp_path):
    trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
    pytest.importorskip('collada', reason='pycollada (for DAE) is not installed')
    from mesh_robot import cube_stl
    (tmp_path / 'cube.stl').write_text(cube_stl())
    dae = trimesh.exchange.dae.export_collada(trimesh.load(str(tmp_path / 'cube.stl'))).decode()
    laughs = ('<!DOCTYPE COLLADA [<!ENTITY a "aaaaaaaaaa">'
              + ''.join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">'
                        for a, b in zip('abcdef', 'bcdefg')) + ']>\n')
    head, rest = dae.split('\n', 1) if dae.startswith('<?xml') else ('', dae)
    (tmp_path / 'laughs.dae').write_text(head + '\n' + laughs
                                         + rest.replace('<asset>', '<asset><title>&g;</title>', 1))
    (tmp_path / 'cube.dae').write_text(dae)
    calls = (meshes.load_solid, meshes.load_triangles,
             lambda path: meshes.referenced_files(path, str(tmp_path)))
    for call in calls:
        with pytest.raises(ValueError, match=r'laughs\.dae: a mesh with a DOCTYPE is not read'):
            call(str(tmp_path / 'laughs.dae'))
        call(str(tmp_path / 'cube.dae'))  # without one, read as before


def test_load_triangles_reads_a_mesh_as_it_is(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import cube_stl
    (tmp_path / 'open.stl').write_text(cube_stl(open_top=True))
    (tmp_path / 'cube.stl').write_text(cube_stl())
    mesh = meshes.load_triangles(str(tmp_path / 'open.stl'), (2.0, 1.0, 1.0))
    assert len(mesh.faces) == 10 and not mesh.is_watertight  # no hull: the faces as they are
    assert mesh.vertices.max(axis=0).tolist() == [2.0, 1.0, 1.0]
    # A mirroring scale turns the faces over, so that they still face out.
    mirrored = meshes.load_triangles(str(tmp_path / 'cube.stl'), (-1.0, 1.0, 1.0))
    assert mirrored.vertices.min(axis=0).tolist() == [-1.0, 0.0, 0.0]
    assert mirrored.volume == pytest.approx(1.0)


def test_without_trimesh_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, 'trimesh', None)  # import trimesh raises ImportError
    with pytest.raises(ConversionError) as caught:
        meshes.require_trimesh()
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == Code.NO_TRIMESH
    assert "pip install 'sdf_tools[meshes]'" in diagnostic.message


def test_referenced_files_are_what_obj_and_dae_files_name_as_written(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    pytest.importorskip('collada', reason='pycollada (for DAE) is not installed')
    from model_folders import textured_dae
    from model_folders import textured_obj
    obj = textured_obj('sub/arm.mtl', '../tex/arm.png')
    (tmp_path / 'pkg' / 'meshes' / 'sub').mkdir(parents=True)
    (tmp_path / 'pkg' / 'meshes' / 'arm.obj').write_text(obj['obj'])
    (tmp_path / 'pkg' / 'meshes' / 'sub' / 'arm.mtl').write_text(obj['mtl'])
    (tmp_path / 'pkg' / 'meshes' / 'arm.dae').write_text(textured_dae('../tex/skin.png'))
    (tmp_path / 'pkg' / 'meshes' / 'plain.stl').write_text('solid s\nendsolid s\n')
    assert meshes.referenced_files(str(tmp_path / 'pkg' / 'meshes' / 'arm.obj'),
                                   str(tmp_path / 'pkg')) == ('sub/arm.mtl', '../tex/arm.png')
    assert meshes.referenced_files(str(tmp_path / 'pkg' / 'meshes' / 'arm.dae'),
                                   str(tmp_path / 'pkg')) == ('../tex/skin.png',)
    # A material library outside the folder it may read is named, not read (so neither is
    # the texture it names).
    assert meshes.referenced_files(str(tmp_path / 'pkg' / 'meshes' / 'arm.obj'),
                                   str(tmp_path / 'pkg' / 'meshes' / 'none')) == \
        ('sub/arm.mtl',)
    with pytest.raises(ValueError, match='trimesh cannot read'):
        meshes.referenced_files(str(tmp_path / 'missing.dae'), str(tmp_path))


def test_referenced_files_needs_trimesh(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, 'trimesh', None)
    with pytest.raises(ConversionError, match='sdf_tools export .*pip install') as info:
        meshes.referenced_files(str(tmp_path / 'a.obj'), str(tmp_path))
    assert info.value.diagnostic.code is Code.NO_TRIMESH


def test_a_duplicate_package_is_warned_about_at_the_uri_that_looked_it_up(tmp_path):
    from workspaces import make_package
    first = make_package(tmp_path / 'a' / PACKAGE)
    make_package(tmp_path / 'b' / PACKAGE)
    packages = PackageResolver(PackagePath.from_environment([str(tmp_path)], environ={}))
    uri = f'package://{PACKAGE}/meshes/base.stl'
    robot = parse_urdf(f'<robot name="r">\n<link name="a">\n<visual><geometry><mesh '
                       f'filename="{uri}"/></geometry></visual>\n<collision><geometry><mesh '
                       f'filename="{uri}"/></geometry></collision></link>\n</robot>\n',
                       'robot.urdf')
    located, warnings = check_uris(robot, packages)
    assert located == {uri: first / 'meshes' / 'base.stl'}
    (warning,) = warnings  # once, at the first use
    assert (str(warning.location), warning.entity, warning.code) == (
        'robot.urdf:3', "link 'a'", Code.DUPLICATE_PACKAGE)


def test_a_model_uri_is_found_in_its_model_folder_on_the_resource_path(found, tmp_path):
    """model://NAME/rest: rest in the folder NAME of the resource path, as includes look."""
    from sdf_tools.resources.models import ModelFinder
    from sdf_tools.resources.models import ResourcePath
    from sdf_tools.resources.uris import ModelFolderNotFoundError
    _, packages = found
    models = tmp_path / 'models'
    (models / 'arm_model' / 'meshes').mkdir(parents=True)
    finder = ModelFinder(ResourcePath.from_environment(
        environ={'SDF_PATH': str(models)}), packages)
    uri = 'model://arm_model/meshes/a%20b.stl'
    assert locate(uri, packages, model_as_package=True, models=finder) == \
        models / 'arm_model' / 'meshes' / 'a b.stl'
    # A model folder wins over the package of its name (export copies from it too).
    (models / PACKAGE).mkdir()
    assert locate(f'model://{PACKAGE}/x.stl', packages, model_as_package=True,
                  models=finder) == models / PACKAGE / 'x.stl'
    with pytest.raises(ValueError, match='leaves the model folder'):
        locate('model://arm_model/../../etc/passwd', packages, models=finder)
    with pytest.raises(ModelFolderNotFoundError) as caught:
        locate('model://gone/x.stl', packages, model_as_package=True, models=finder)
    message = str(caught.value)
    assert message.startswith(f"no model folder 'gone' in {models} (SDF_PATH), "
                              'GZ_SIM_RESOURCE_PATH (not set)')
    assert "package 'gone' not found" in message and message.endswith(
        'add the folder holding gone/ with --resource-path or GZ_SIM_RESOURCE_PATH')
    assert caught.value.package == 'gone'


def test_the_uris_of_one_package_with_one_problem_are_one_warning_with_their_count(found):
    _, packages = found
    uris = ([f'package://{PACKAGE}/meshes/no{n}.stl' for n in range(5)]  # not built
            + [f'package:///{PACKAGE}/meshes/base.stl'] * 2  # one URI: looked up once
            + ['package:///x/y.stl',  # no package either: with the one above
               'package://missing/a.stl', 'package://missing/b.stl',  # not found
               '/gone/a.stl', '/gone/b.stl'])  # no package: one warning each
    text = '<robot name="r">\n<link name="a">\n' + ''.join(
        f'<collision><geometry><mesh filename="{uri}"/></geometry></collision>\n'
        for uri in uris) + '</link>\n</robot>\n'
    _, warnings = check_uris(parse_urdf(text, 'r.urdf'), packages)
    assert [(w.location.line, w.code, w.count, [p.line for p in w.places])
            for w in warnings] == [
        (3, Code.MISSING_FILE, 5, [4, 5, 6]), (8, Code.WARNING, 2, [10]),
        (11, Code.PACKAGE_NOT_FOUND, 2, [12]), (13, Code.MISSING_FILE, 0, []),
        (14, Code.MISSING_FILE, 0, [])]
    assert str(warnings[0]).endswith('(5 in all; also lines 4, 5, 6, ...)')
    assert str(warnings[2]).count('searched: ') == 1  # the search path once, for two URIs


def test_uris_of_a_robot_made_in_code_without_places_are_grouped_all_the_same(found):
    # A model made in code has no locations: the group counts its URIs and names no places.
    _, packages = found
    robot = Robot(name='r', links=(Link('a', visuals=tuple(
        Visual(geometry=Mesh(f'package://missing/{n}.stl')) for n in range(3))),))
    _, warnings = check_uris(robot, packages)
    assert [(w.location, w.code, w.count, w.places) for w in warnings] == [
        (None, Code.PACKAGE_NOT_FOUND, 3, ())]
