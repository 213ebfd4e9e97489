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
from model_folders import textured_dae
from model_folders import textured_obj
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import SourceLocation
from sdf_tools.exporting.assets import plan
from sdf_tools.exporting.assets import Use
from sdf_tools.loading import model_finder
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver

STL = 'solid s\nendsolid s\n'


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


def test_files_outside_packages_are_copied_only_from_below_the_description(tmp_path):
    (tmp_path / 'robot' / 'parts').mkdir(parents=True)
    (tmp_path / 'robot' / 'parts' / 'a.stl').write_text(STL)
    (tmp_path / 'secret').write_text('password')
    uses = [mesh('parts/a.stl', 3), mesh(f'file://{tmp_path}/robot/parts/a.stl', 4),
            mesh(str(tmp_path / 'secret'), 5), Use('../secret', 'texture')]
    result = plan(uses, 'm', None, str(tmp_path / 'robot'))
    assert result.uris == {'parts/a.stl': 'model://m/parts/a.stl',
                           f'file://{tmp_path}/robot/parts/a.stl': 'model://m/parts/a.stl'}
    assert sources(result) == {'parts/a.stl': str(tmp_path / 'robot' / 'parts' / 'a.stl')}
    assert [w.message for w in result.warnings] == [
        f'{uri} is not copied: {tmp_path}/secret is in no package and not below the '
        "description's folder (export copies only those)" for uri in (str(tmp_path / 'secret'),
                                                                      '../secret')]


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
    make_package(tmp_path / 'src' / 'arm', 'arm', {'model.sdf': 'x', 'meshes/a.stl': STL})
    result = plan([Use('package://arm/model.sdf', 'resource'), mesh('package://arm/meshes/a.stl')],
                  'm', resolver(tmp_path / 'src'), None)
    assert set(result.files) == {'arm/model.sdf', 'arm/meshes/a.stl'}


def test_what_cannot_be_found_is_a_warning_naming_it_at_its_use(tmp_path):
    make_package(tmp_path / 'src' / 'arm', 'arm', {})
    uses = [mesh('package://arm/meshes/gone.stl', 3), mesh('package://nowhere/a.stl', 4),
            mesh('package://nowhere/b.stl', 5), mesh('relative.stl', 6),
            mesh('package://arm/../escape.stl', 7)]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert result.uris == {} and result.files == {}
    assert {w.code for w in result.warnings} == {Code.NOT_COPIED}
    assert [(w.location.line, w.entity) for w in result.warnings] == \
        [(3, "link 'a'"), (4, "link 'a'"), (6, "link 'a'"), (7, "link 'a'")]  # a package once
    gone, nowhere, relative, escape = (w.message for w in result.warnings)
    assert gone == (f'package://arm/meshes/gone.stl is not copied: no such file: '
                    f'{tmp_path}/src/arm/meshes/gone.stl')
    assert nowhere.startswith("package://nowhere/a.stl is not copied: package 'nowhere' not "
                              'found; searched: ')
    assert 'relative.stl is not copied: relative.stl: a relative path' in relative
    assert 'leaves the package folder' in escape
    assert result.not_copied == {u.uri for u in uses} - {'package://nowhere/b.stl'}


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
    assert d.startswith('package://arm/meshes/d.dae: the files it refers to (textures, '
                        'materials) cannot be told: trimesh cannot read')


def test_a_uri_naming_a_folder_brings_its_files(tmp_path):
    make_package(tmp_path / 'src' / 'arm', 'arm', {
        'materials/scripts/arm.material': 'material Arm {}',
        'materials/scripts/.hidden': 'x', 'materials/textures/arm.png': b'png'})
    uses = [Use('model://arm/materials/scripts', 'resource'),
            Use('model://arm/materials/textures', 'resource')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert result.uris == {'model://arm/materials/scripts': 'model://m/materials/scripts',
                           'model://arm/materials/textures': 'model://m/materials/textures'}
    assert sorted(result.files) == ['materials/scripts/arm.material',
                                    'materials/textures/arm.png']


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
    uses = [mesh('package://arm/meshes/a.stl', 3), mesh('package://arm/meshes/b.stl', 4),
            Use('model://arm/materials/scripts', 'resource'),
            Use('model://arm/textures', 'resource')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert sorted(result.files) == ['materials/scripts/arm.material', 'meshes/b.stl']
    assert all(str(outside) not in str(source) for source in result.files.values())
    scripts = package / 'materials' / 'scripts'
    assert [(w.code, w.message) for w in result.warnings] == [
        (Code.NOT_COPIED, f'package://arm/meshes/a.stl is not copied: {package}/meshes/a.stl '
         f'leads outside {package} (a symbolic link), and export copies only what is inside '
         'it'),
        (Code.NOT_COPIED, f'{scripts}/keys (in model://arm/materials/scripts) is not copied: '
         f'it leads outside {package} (a symbolic link)'),
        (Code.NOT_COPIED, f'{scripts}/leak.material (in model://arm/materials/scripts) is not '
         f'copied: it leads outside {package} (a symbolic link)'),
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
        f"package://arm/meshes/arm.obj refers to 'arm.png', which leads outside {package} (a "
        'symbolic link): it is not copied']


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
    return model_finder([str(f) for f in folders], environ={})


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
            Use('model://arm/scripts', 'resource'), mesh('model://arm/meshes/a%00.stl', 8)]
    result = plan(uses, 'out', None, None, finder(models))
    assert (result.uris, result.files) == ({}, {})
    assert [w.message for w in result.warnings] == [
        f'model://arm/../secret.stl is not copied: model://arm/../secret.stl: the path leaves '
        f'the model folder {arm}',
        f'model://arm//etc/passwd is not copied: model://arm//etc/passwd: the path leaves the '
        f'model folder {arm}',
        f'model://arm/meshes/link.stl is not copied: {arm}/meshes/link.stl leads outside {arm} '
        '(a symbolic link), and export copies only what is inside it',
        f'model://arm/meshes/gone.stl is not copied: no such file: {arm}/meshes/gone.stl',
        f'{arm}/scripts/leak.material (in model://arm/scripts) is not copied: it leads outside '
        f'{arm} (a symbolic link)',
        f'model://arm/scripts is not copied: the folder {arm}/scripts holds no file to copy',
        'model://arm/meshes/a%00.stl is not copied: its path holds a NUL character (%00)']
    assert result.not_copied == {use.uri for use in uses}


def test_a_package_folder_of_which_nothing_is_copied_is_a_warning_not_a_failure(tmp_path):
    package = make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/a.stl': STL})
    (package / 'empty').mkdir()
    uses = [Use('package://arm/empty', 'resource'), mesh('package://arm/meshes/a%00.stl')]
    result = plan(uses, 'm', resolver(tmp_path / 'src'), None)
    assert (result.uris, result.files) == ({}, {})
    assert [w.message for w in result.warnings] == [
        f'package://arm/empty is not copied: the folder {package}/empty holds no file to copy',
        'package://arm/meshes/a%00.stl is not copied: its path holds a NUL character (%00)']
