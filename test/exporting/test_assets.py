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

"""Tests of sdf_tools.exporting.assets: which files a model uses, and where each goes."""

from model_folders import make_package
from model_folders import PNG
from model_folders import textured_dae
from model_folders import textured_obj
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import SourceLocation
from sdf_tools.exporting.assets import ACCEPTS
from sdf_tools.exporting.assets import plan
from sdf_tools.exporting.assets import Use
from sdf_tools.resources.lookup import find_resources
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from workspaces import stl

STL = stl('s')


def resolver(*folders):
    return PackageResolver(PackagePath.from_environment([str(f) for f in folders], environ={}))


def mesh(uri, line=None):
    return Use(uri, 'mesh', "link 'a'", SourceLocation('robot.urdf', line))


def sources(result):
    """Return path in the folder -> the copied file's path (str)."""
    return {path: str(source) for path, source in result.files.items()}


def test_a_package_file_keeps_its_path_in_the_package(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/v/base.stl': STL})
    result = plan([mesh('package://arm/meshes/v/base.stl')], 'robot', resolver(tmp_path / 'src'),
                  None)
    assert result.uris == {'package://arm/meshes/v/base.stl': 'model://robot/meshes/v/base.stl'}
    assert sources(result) == {'meshes/v/base.stl': str(package / 'meshes' / 'v' / 'base.stl')}
    assert result.warnings == ()


def test_only_files_of_a_package_or_a_model_folder_are_copied(tmp_path):
    (tmp_path / 'robot' / 'parts').mkdir(parents=True)
    (tmp_path / 'robot' / 'parts' / 'a.stl').write_text(STL)
    (tmp_path / 'secret.png').write_bytes(PNG)
    uses = [mesh('parts/a.stl', 3), mesh(f'file://{tmp_path}/robot/parts/a.stl', 4),
            Use(str(tmp_path / 'secret.png'), 'texture'), Use('../secret.png', 'texture')]
    result = plan(uses, 'm', None, str(tmp_path / 'robot'))
    assert (result.uris, result.files, result.warnings) == ({}, {}, ())
    assert [(left.use.uri, left.why, left.name) for left in result.left] == [
        (use.uri, 'outside', use.uri) for use in uses]
    assert result.used == {('mesh', 'left'): 1, ('other', 'left'): 1}  # each file once
    (tmp_path / 'robot' / 'model.config').write_text('<model/>')  # now a model folder
    result = plan(uses, 'm', None, str(tmp_path / 'robot'))
    assert result.uris == {'parts/a.stl': 'model://m/parts/a.stl',
                           f'file://{tmp_path}/robot/parts/a.stl': 'model://m/parts/a.stl'}
    assert sources(result) == {'parts/a.stl': str(tmp_path / 'robot' / 'parts' / 'a.stl')}
    assert [left.use.uri for left in result.left] == [str(tmp_path / 'secret.png'),
                                                      '../secret.png']


def test_a_file_named_by_several_uris_is_copied_once(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/base.stl': STL,
                                                             'urdf/robot.urdf': '<robot/>'})
    uses = [mesh('package://arm/meshes/base.stl'), mesh('../meshes/base.stl'),
            mesh(f'file://{package}/meshes/base.stl'), mesh('model://arm/meshes/base.stl')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), str(package / 'urdf'))
    assert set(result.uris.values()) == {'model://m/meshes/base.stl'} and len(result.uris) == 4
    assert list(result.files) == ['meshes/base.stl']


def test_two_packages_with_the_same_paths_get_distinct_places(tmp_path):
    make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/base.stl': STL,
                                                   'meshes/arm.stl': STL})
    make_package(tmp_path / 'src' / 'gripper', 'gripper', {'meshes/base.stl': 'solid g\n',
                                                           'meshes/finger.stl': STL})
    uses = [mesh(f'package://{p}/meshes/{m}.stl') for p, m in
            (('arm', 'base'), ('gripper', 'base'), ('gripper', 'finger'), ('arm', 'arm'))]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    # The first package keeps the top; every file of the second goes below its name, so
    # that its files stay beside each other.
    assert result.uris == {
        'package://arm/meshes/base.stl': 'model://m/meshes/base.stl',
        'package://gripper/meshes/base.stl': 'model://m/gripper/meshes/base.stl',
        'package://gripper/meshes/finger.stl': 'model://m/gripper/meshes/finger.stl',
        'package://arm/meshes/arm.stl': 'model://m/meshes/arm.stl'}
    assert sources(result)['gripper/meshes/base.stl'].endswith('gripper/meshes/base.stl')


def test_a_package_file_never_takes_the_place_of_model_sdf_or_model_config(tmp_path):
    make_package(tmp_path / 'src' / 'arm', 'arm', {'model.sdf/a.stl': STL, 'meshes/a.stl': STL,
                                                   'model.config': '<model/>'})
    result = plan([mesh('package://arm/model.sdf/a.stl'), mesh('package://arm/meshes/a.stl'),
                   Use('package://arm/model.config', 'resource')],
                  'm', resolver(tmp_path / 'src'), None)
    assert set(result.files) == {'arm/model.sdf/a.stl', 'arm/meshes/a.stl'}
    assert [w.message for w in result.warnings] == [
        "package://arm/model.config is not copied: 'model.config' is not a mesh, an image or a "
        'material script by its suffix, and export copies only what a simulator loads as one']


def test_what_is_not_found_is_left_for_the_summary_and_the_rest_are_warnings(tmp_path):
    make_package(tmp_path / 'src' / 'arm', 'arm', {})
    uses = [mesh('package://arm/meshes/gone.stl', 3), mesh('package://nowhere/a.stl', 4),
            mesh('package://nowhere/b%20c.stl', 5), mesh('relative.stl', 6),
            mesh('package://arm/../escape.stl', 7)]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert result.uris == {} and result.files == {}
    gone, a, b = result.left
    assert (gone.use, gone.why, gone.name) == (uses[0], 'missing', uses[0].uri)
    assert (a.use, a.why.package, a.name) == (uses[1], 'nowhere', 'a.stl')
    assert (b.use, b.why.package, b.name) == (uses[2], 'nowhere', 'b c.stl')
    assert str(a.why).startswith("package 'nowhere' not found; searched: ")
    assert {w.code for w in result.warnings} == {Code.NOT_COPIED}
    assert [(w.location.line, w.entity) for w in result.warnings] == \
        [(6, "link 'a'"), (7, "link 'a'")]
    relative, escape = (w.message for w in result.warnings)
    assert 'relative.stl is not copied: relative.stl: a relative path' in relative
    assert 'leaves the package folder' in escape
    assert result.not_copied == {u.uri for u in uses}
    assert result.used == {('mesh', 'left'): 3, ('mesh', 'refused'): 2}


def test_uris_gazebo_resolves_itself_are_left_alone(tmp_path):
    uses = [Use('file://media/materials/scripts/gazebo.material', 'resource'),
            mesh('https://fuel.gazebosim.org/1.0/o/models/m/1/files/meshes/a.dae')]
    result = plan(uses, 'm', resolver(), None)
    assert (result.uris, result.files, result.warnings) == ({}, {}, ())


def test_the_files_a_mesh_refers_to_are_copied_beside_it(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    pytest.importorskip('collada', reason='pycollada (for DAE) is not installed')
    obj = textured_obj('arm.mtl', '../textures/arm.png')
    make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/arm.obj': obj['obj'], 'meshes/arm.mtl': obj['mtl'],
        'textures/arm.png': obj['png'], 'meshes/hand.dae': textured_dae('../textures/hand.png'),
        'textures/hand.png': obj['png']})
    uses = [mesh('package://arm/meshes/arm.obj'), mesh('package://arm/meshes/hand.dae')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert set(result.files) == {'meshes/arm.obj', 'meshes/arm.mtl', 'textures/arm.png',
                                 'meshes/hand.dae', 'textures/hand.png'}
    assert result.warnings == ()


def test_references_that_cannot_be_copied_are_warnings(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    pytest.importorskip('collada', reason='pycollada (for DAE) is not installed')
    make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/a.dae': textured_dae('../../outside.png'),
        'meshes/b.dae': textured_dae('/abs/skin.png'),
        'meshes/c.dae': textured_dae('missing.png'),
        'meshes/d.dae': 'not COLLADA'})
    (tmp_path / 'src' / 'outside.png').write_bytes(b'png')
    uses = [mesh(f'package://arm/meshes/{n}.dae', i) for i, n in enumerate('abcd')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert sorted(result.files) == ['meshes/a.dae', 'meshes/b.dae', 'meshes/c.dae',
                                    'meshes/d.dae']
    assert [w.location.line for w in result.warnings] == [0, 1, 2, 3]
    a, b, c, d = (w.message for w in result.warnings)
    assert a == (f"package://arm/meshes/a.dae refers to '../../outside.png', outside "
                 f'{tmp_path}/src/arm: it is not copied')
    assert b.startswith("package://arm/meshes/b.dae refers to '/abs/skin.png', not by a "
                        'relative path')
    assert c == (f"package://arm/meshes/c.dae refers to 'missing.png', which does not exist "
                 f'({tmp_path}/src/arm/meshes/missing.png)')
    assert d.startswith('package://arm/meshes/d.dae is copied, but trimesh cannot read ')
    assert d.endswith(': a simulator may not read it either, and the files it may refer to '
                      'are not copied')
    assert [w.code for w in result.warnings] == [Code.NOT_COPIED] * 3 + [Code.BAD_MESH]


def test_a_material_script_uri_naming_a_folder_brings_what_gazebo_reads_of_it(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {
        'materials/scripts/arm.material': 'material Arm {}', 'materials/scripts/arm.glsl': 'x',
        'materials/scripts/.hidden': 'x', 'materials/scripts/.old.material': 'x',
        'materials/scripts/notes.txt': 'x', 'materials/scripts/deeper/more.material': 'x',
        'materials/textures/arm.png': PNG})
    uses = [Use('model://arm/materials/scripts', 'script'),
            Use('model://arm/materials/textures', 'script'),
            Use('package://arm/materials', 'resource')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert result.uris == {'model://arm/materials/scripts': 'model://m/materials/scripts',
                           'model://arm/materials/textures': 'model://m/materials/textures'}
    # What Gazebo reads: the scripts, programs and images directly in the folder.
    assert sorted(result.files) == ['materials/scripts/arm.glsl',
                                    'materials/scripts/arm.material',
                                    'materials/textures/arm.png']
    scripts = package / 'materials' / 'scripts'
    assert [w.message for w in result.warnings] == [
        f'.old.material (in model://arm/materials/scripts) is not copied: {scripts}/.old.material '
        f"is hidden (a name in its path in {package} starts with '.'), and export copies no "
        'hidden file and nothing in a hidden folder',
        f'package://arm/materials is not copied: {package}/materials is a folder, and export '
        'copies a folder only for the <uri> of a material <script>']
    assert result.used == {('other', 'copied'): 2, ('other', 'refused'): 1}


def test_a_symbolic_link_out_of_the_package_is_not_followed(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/real.stl': STL, 'materials/scripts/arm.material': 'material Arm {}'})
    outside = tmp_path / 'home'
    (outside / 'keys').mkdir(parents=True)
    (outside / 'secret.txt').write_text('password')
    (outside / 'keys' / 'id_rsa').write_text('key')
    (package / 'meshes' / 'a.stl').symlink_to(outside / 'secret.txt')
    (package / 'meshes' / 'b.stl').symlink_to('real.stl')  # inside: copied
    (package / 'materials' / 'scripts' / 'keys').symlink_to(outside / 'keys')
    (package / 'materials' / 'scripts' / 'leak.material').symlink_to(outside / 'secret.txt')
    (package / 'materials' / 'scripts' / 'again').symlink_to(package / 'materials')  # a loop
    (package / 'textures').symlink_to(outside / 'keys')
    (outside / 'keys' / 'key.material').write_text('key')
    uses = [mesh('package://arm/meshes/a.stl', 3), mesh('package://arm/meshes/b.stl', 4),
            Use('model://arm/materials/scripts', 'script'),
            Use('model://arm/textures', 'script')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert sorted(result.files) == ['materials/scripts/arm.material', 'meshes/b.stl']
    assert all(str(outside) not in str(source) for source in result.files.values())
    scripts = package / 'materials' / 'scripts'
    assert [(w.code, w.message) for w in result.warnings] == [
        (Code.NOT_COPIED, f'package://arm/meshes/a.stl is not copied: {package}/meshes/a.stl '
         f'leads outside {package} (a symbolic link), and export copies only what is inside '
         'it'),
        (Code.NOT_COPIED, f'leak.material (in model://arm/materials/scripts) is not copied: '
         f'{scripts}/leak.material leads outside {package} (a symbolic link), and export '
         'copies only what is inside it'),
        (Code.NOT_COPIED, f'model://arm/textures is not copied: {package}/textures leads '
         f'outside {package} (a symbolic link), and export copies only what is inside it')]
    assert result.not_copied == {'package://arm/meshes/a.stl', 'model://arm/materials/scripts',
                                 'model://arm/textures'}


def test_a_file_a_mesh_refers_to_through_a_link_out_of_the_package_is_not_copied(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    obj = textured_obj('arm.mtl', 'arm.png')
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/arm.obj': obj['obj'], 'meshes/arm.mtl': obj['mtl']})
    (tmp_path / 'secret.png').write_bytes(obj['png'])
    (package / 'meshes' / 'arm.png').symlink_to(tmp_path / 'secret.png')
    result = plan([mesh('package://arm/meshes/arm.obj')], 'm', resolver(tmp_path / 'src'), None)
    assert sorted(result.files) == ['meshes/arm.mtl', 'meshes/arm.obj']
    assert [w.message for w in result.warnings] == [
        f"package://arm/meshes/arm.obj refers to 'arm.png', which is not copied: "
        f'{package}/meshes/arm.png leads outside {package} (a symbolic link), and export copies '
        'only what is inside it']


@pytest.mark.parametrize('name, folder', [('..', 'files'), ('.', 'files'), ('../x', '_x'),
                                          ('.hidden', 'hidden')])
def test_a_package_named_oddly_gets_a_folder_name_that_stays_inside(tmp_path, name, folder):
    make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/base.stl': STL})
    other = make_package(tmp_path / 'other', 'x', {'meshes/base.stl': 'solid o\n'},
                         package_xml=f'<package format="3"><name>{name}</name>'
                                     '<version>1.0.0</version></package>')
    uses = [mesh('package://arm/meshes/base.stl'), mesh(f'file://{other}/meshes/base.stl')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert sorted(result.files) == [f'{folder}/meshes/base.stl', 'meshes/base.stl']


def finder(*folders):
    return find_resources(resource_path=[str(f) for f in folders], environ={}).models


def test_a_model_uri_is_first_a_file_of_the_model_folder_on_the_resource_path(tmp_path):
    models = tmp_path / 'models'
    (models / 'arm' / 'meshes').mkdir(parents=True)
    (models / 'arm' / 'meshes' / 'a.stl').write_text(STL)
    make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/a.stl': 'solid package\n'})
    make_package(tmp_path / 'src' / 'tool', 'tool', {'meshes/a.stl': STL})
    uses = [mesh('model://arm/meshes/a.stl'), mesh('model://tool/meshes/a.stl')]
    result = plan(uses, 'out', resolver(tmp_path / 'src'), None, finder(models))
    assert result.warnings == ()
    assert result.uris == {'model://arm/meshes/a.stl': 'model://out/meshes/a.stl',
                           'model://tool/meshes/a.stl': 'model://out/tool/meshes/a.stl'}
    assert sources(result) == {'meshes/a.stl': f'{models}/arm/meshes/a.stl',  # not package arm
                               'tool/meshes/a.stl': f'{tmp_path}/src/tool/meshes/a.stl'}


def test_a_model_folder_keeps_its_files_inside_it(tmp_path):
    models = tmp_path / 'models'
    arm = models / 'arm'
    (arm / 'meshes').mkdir(parents=True)
    (arm / 'meshes' / 'a.stl').write_text(STL)
    (models / 'secret.stl').write_text('password')
    (arm / 'meshes' / 'link.stl').symlink_to(models / 'secret.stl')
    (arm / 'scripts').mkdir()
    (arm / 'scripts' / 'leak.material').symlink_to(models / 'secret.stl')
    uses = [mesh('model://arm/../secret.stl', 3), mesh('model://arm//etc/passwd', 4),
            mesh('model://arm/meshes/link.stl', 5), mesh('model://arm/meshes/gone.stl', 6),
            Use('model://arm/scripts', 'script'), mesh('model://arm/meshes/a%00.stl', 8)]
    result = plan(uses, 'out', None, None, finder(models))
    assert (result.uris, result.files) == ({}, {})
    assert [(left.use, left.why) for left in result.left] == [(uses[3], 'missing')]
    assert [w.message for w in result.warnings] == [
        f'model://arm/../secret.stl is not copied: model://arm/../secret.stl: the path leaves '
        f'the model folder {arm}',
        f'model://arm//etc/passwd is not copied: model://arm//etc/passwd: the path leaves the '
        f'model folder {arm}',
        f'model://arm/meshes/link.stl is not copied: {arm}/meshes/link.stl leads outside {arm} '
        '(a symbolic link), and export copies only what is inside it',
        f'leak.material (in model://arm/scripts) is not copied: {arm}/scripts/leak.material '
        f'leads outside {arm} (a symbolic link), and export copies only what is inside it',
        f'model://arm/scripts is not copied: the folder {arm}/scripts holds no material script, '
        'shader program or image to copy',
        'model://arm/meshes/a%00.stl is not copied: its path holds a NUL character (%00)']
    assert result.not_copied == {use.uri for use in uses}


def test_a_package_folder_of_which_nothing_is_copied_is_a_warning_not_a_failure(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/a.stl': STL,
                                                             'urdf/arm.urdf': '<robot/>'})
    (package / 'empty').mkdir()
    uses = [Use('package://arm/empty', 'script'), mesh('package://arm/meshes/a%00.stl'),
            Use('package://arm/urdf', 'script')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert (result.uris, result.files) == ({}, {})
    assert [w.message for w in result.warnings] == [
        f'package://arm/empty is not copied: the folder {package}/empty holds no material '
        'script, shader program or image to copy',
        'package://arm/meshes/a%00.stl is not copied: its path holds a NUL character (%00)',
        f'package://arm/urdf is not copied: the folder {package}/urdf holds no material '
        'script, shader program or image to copy (1 other entry)']


def test_no_hidden_file_and_nothing_in_a_hidden_folder_is_copied(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/.hidden.stl': STL, '.private/a.stl': STL, 'meshes/a.stl': STL})
    (package / 'meshes' / 'b.stl').symlink_to('../.private/a.stl')  # hidden once followed
    uses = [mesh('package://arm/meshes/.hidden.stl', 3), mesh('package://arm/.private/a.stl', 4),
            mesh('package://arm/meshes/b.stl', 5), mesh('package://arm/meshes/a.stl', 6)]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert list(result.files) == ['meshes/a.stl']
    assert [(w.location.line, w.message.partition(' is not copied: ')[2].split()[:3])
            for w in result.warnings] == [
        (3, [f'{package}/meshes/.hidden.stl', 'is', 'hidden']),
        (4, [f'{package}/.private/a.stl', 'is', 'hidden']),
        (5, [f'{package}/meshes/b.stl', 'is', 'hidden'])]
    assert result.used == {('mesh', 'refused'): 2, ('mesh', 'copied'): 1}  # b is .private/a


@pytest.mark.parametrize('use, copied', [
    (mesh('package://arm/meshes/a.STL'), True),
    (mesh('package://arm/config/credentials.yaml'), False),
    (mesh('package://arm/textures/a.png'), False),
    (Use('package://arm/textures/a.png', 'texture'), True),
    (Use('package://arm/meshes/a.STL', 'texture'), False),
    (Use('package://arm/materials/arm.material', 'script'), True),
    (Use('package://arm/config/credentials.yaml', 'script'), False),
    (Use('package://arm/textures/a.png', 'resource'), True),  # a heightmap
    (Use('package://arm/meshes/a.mtl', 'resource'), False),
    (Use('package://arm/package.xml', 'resource'), False),
])
def test_a_file_is_copied_only_as_what_a_simulator_loads_it_as(tmp_path, use, copied):
    make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/a.STL': STL, 'meshes/a.mtl': 'newmtl a\n', 'config/credentials.yaml': 'x',
        'textures/a.png': PNG, 'materials/arm.material': 'material A {}'})
    result = plan([use], 'm', resolver(tmp_path / 'src'), None)
    assert bool(result.files) is copied
    if not copied:
        name = use.uri.rpartition('/')[2]
        noun = ACCEPTS[use.kind][1]
        assert [w.message for w in result.warnings] == [
            f"{use.uri} is not copied: '{name}' is not {noun} by its suffix, and export "
            'copies only what a simulator loads as one']


def test_what_a_mesh_names_is_copied_only_if_a_simulator_loads_it(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    obj = textured_obj('../config/credentials.yaml', 'arm.png')
    make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/arm.obj': obj['obj'], 'config/credentials.yaml': obj['mtl']})
    result = plan([mesh('package://arm/meshes/arm.obj')], 'm', resolver(tmp_path / 'src'), None)
    assert list(result.files) == ['meshes/arm.obj']
    assert result.warnings[0].message == (
        "package://arm/meshes/arm.obj refers to '../config/credentials.yaml', which is not "
        "copied: 'credentials.yaml' is not a mesh's material library, buffer or image by its "
        'suffix, and export copies only what a simulator loads as one')


@pytest.mark.parametrize('content', [b'\x00' * 80 + b'\x10\x00\x00\x00' + b'\x01' * 20,
                                     b'solid s\nendsolid s\n'])
def test_a_mesh_trimesh_cannot_read_is_copied_with_a_warning(tmp_path, content):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/bad.stl': content})
    result = plan([mesh('package://arm/meshes/bad.stl', 3)], 'm', resolver(tmp_path / 'src'),
                  None)
    assert list(result.files) == ['meshes/bad.stl']
    assert [(w.code, w.location.line, w.message) for w in result.warnings] == [
        (Code.BAD_MESH, 3, f'package://arm/meshes/bad.stl is copied, but trimesh finds no '
         f'geometry in {package}/meshes/bad.stl: a simulator may not read it either, and the '
         'files it may refer to are not copied')]


def test_the_plan_names_every_file_it_read_or_that_a_use_names(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {
        'meshes/a.stl': STL, 'config/c.yaml': 'x', 'materials/s/a.material': 'material A {}'})
    uses = [mesh('package://arm/meshes/a.stl'), mesh('package://arm/config/c.yaml'),
            Use('package://arm/materials/s', 'script'), mesh('package://arm/gone.stl')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert result.inputs == {str(package / name) for name in (
        'package.xml', 'meshes/a.stl', 'config/c.yaml', 'materials/s/a.material')}
