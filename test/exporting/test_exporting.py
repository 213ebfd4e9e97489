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
Tests of sdf_tools.export: a description as a Gazebo model folder, written whole or not at all.

The last tests load the folders as Gazebo does (libsdformat with the folder's parent on its
resource path, and the physics probe), moved elsewhere too; they skip without those tools.
"""

import os
from pathlib import Path
import shutil

from lxml import etree
from model_folders import gazebo_view
from model_folders import make_package
from model_folders import mesh_bytes
from model_folders import packages_for
from model_folders import probe_world
from model_folders import textured_obj
import pytest
import sdf_tools
from sdf_tools import outputs
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import SourceLocation
from sdf_tools.exporting import export
from sdf_tools.exporting import ExportOptions
from sdf_tools.resources.lookup import find_resources
import support
from workspaces import make_tree

INERTIAL = ('<inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" '
            'iyz="0" izz="0.01"/></inertial>')
ARM = f"""<?xml version="1.0"?>
<robot name="arm">
  <link name="base">{INERTIAL}
    <visual><geometry><mesh filename="package://arm_description/meshes/base.stl"/></geometry>
      <material name="skin">
        <texture filename="package://arm_description/materials/textures/skin.png"/>
      </material></visual>
    <collision><geometry><mesh filename="package://arm_description/meshes/base.stl"/>
      </geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="tool"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="tool">{INERTIAL}
    <visual><geometry><mesh filename="../meshes/tool.obj"/></geometry></visual>
  </link>
  <gazebo reference="tool"><visual><material><script>
    <uri>model://arm_description/materials/scripts</uri><name>Arm/Tool</name>
  </script></material></visual></gazebo>
</robot>
"""
PACKAGE_XML = """<?xml version="1.0"?>
<package format="3">
  <name>arm_description</name><version>1.2.3</version>
  <description>The arm's description.</description>
  <maintainer email="mia@example.com">Mia</maintainer>
  <author>Ann</author>
  <license>Apache-2.0</license>
</package>
"""


def make_arm(root: Path, text: str = ARM) -> Path:
    """Write the arm_description package under ``root/ws/src``; return the URDF."""
    obj = textured_obj('tool.mtl', '../materials/textures/tool.png')
    package = make_package(root / 'ws' / 'src' / 'arm_description', 'arm_description', {
        'urdf/arm.urdf': text, 'meshes/base.stl': mesh_bytes('base.stl'),
        'meshes/tool.obj': obj['obj'], 'meshes/tool.mtl': obj['mtl'],
        'materials/textures/tool.png': obj['png'], 'materials/textures/skin.png': obj['png'],
        'materials/scripts/arm.material': 'material Arm/Tool {}\n'},
        package_xml=PACKAGE_XML)
    return package / 'urdf' / 'arm.urdf'


def options(root: Path, **kwargs) -> dict:
    """Return export's options and resources: packages in ``root/ws/src``, the environment's."""
    return {'options': ExportOptions(**kwargs),
            'resources': find_resources([str(root / 'ws' / 'src')], environ={})}


def tree(folder: Path) -> list:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob('*') if p.is_file())


def uris(sdf_file: Path) -> list:
    return [e.text for e in etree.parse(str(sdf_file)).iter('uri', 'albedo_map')]


def test_the_folder_holds_model_config_model_sdf_and_each_file_used_once(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    urdf = make_arm(tmp_path)
    out = tmp_path / 'models' / 'arm'
    out.parent.mkdir()
    result = export(str(urdf), str(out), **options(tmp_path))
    assert tree(out) == ['materials/scripts/arm.material', 'materials/textures/skin.png',
                         'materials/textures/tool.png', 'meshes/base.stl', 'meshes/tool.mtl',
                         'meshes/tool.obj', 'model.config', 'model.sdf']
    assert list(result.files) == tree(out) and result.name == 'arm'
    assert result.folder == str(out) and result.warnings == ()
    # Every URI is the copy's; the converter wrote the mesh and texture ones.
    assert uris(out / 'model.sdf') == [
        'model://arm/meshes/base.stl', 'model://arm/meshes/base.stl',
        'model://arm/materials/textures/skin.png', 'model://arm/meshes/tool.obj',
        'model://arm/materials/scripts']
    for uri in uris(out / 'model.sdf'):
        assert (out.parent / uri[len('model://'):]).exists(), uri
    assert (out / 'meshes' / 'base.stl').read_bytes() == \
        (urdf.parent.parent / 'meshes' / 'base.stl').read_bytes()


def test_xacro_find_and_package_uris_of_one_mesh_copy_it_once(tmp_path):
    layout = make_tree(tmp_path)
    out = tmp_path / 'robot_model'
    result = sdf_tools.export(str(layout['robot']), str(out), resources=sdf_tools.find_resources(
        [str(layout['src'])], environ={}))
    assert tree(out) == ['meshes/base.stl', 'model.config', 'model.sdf']
    assert (out / 'meshes' / 'base.stl').read_text() == \
        (layout['package'] / 'meshes' / 'base.stl').read_text()  # the source package's
    assert uris(out / 'model.sdf') == ['model://robot_model/meshes/base.stl'] * 2
    assert result.uris == {
        f"{layout['package']}/meshes/base.stl": 'model://robot_model/meshes/base.stl',
        'package://arm_description/meshes/base.stl': 'model://robot_model/meshes/base.stl'}
    # The robot file is in no package: the model.config says where the model comes from.
    config = etree.parse(str(out / 'model.config')).getroot()
    assert config.findtext('description') == 'robot, exported by sdf_tools from robot.urdf.xacro'
    assert config.findtext('version') == '1.0' and config.find('author') is None


def test_model_config_comes_from_the_package_holding_the_description(tmp_path):
    urdf = make_arm(tmp_path, ARM.replace('tool.obj', 'tool.stl'))
    make_package(urdf.parent.parent, 'arm_description', {'meshes/tool.stl': mesh_bytes('a.stl')},
                 package_xml=PACKAGE_XML)
    out = tmp_path / 'exported_arm'
    export(str(urdf), str(out), **options(tmp_path, conversion=ConversionOptions(
        sdf_version='1.11')))
    config = etree.parse(str(out / 'model.config')).getroot()
    assert [(e.tag, (e.text or '').strip()) for e in config] == [
        ('name', 'arm'), ('version', '1.2.3'), ('sdf', 'model.sdf'), ('author', ''),
        ('author', ''), ('description', "The arm's description.")]
    assert config.find('sdf').get('version') == '1.11'
    assert [(a.findtext('name'), a.findtext('email')) for a in config.iter('author')] == \
        [('Ann', None), ('Mia', 'mia@example.com')]
    # The model is named after the robot, its URIs after the folder.
    assert etree.parse(str(out / 'model.sdf')).find('model').get('name') == 'arm'
    assert uris(out / 'model.sdf')[0] == 'model://exported_arm/meshes/base.stl'


def test_what_cannot_be_copied_is_a_warning_and_keeps_libsdformats_uri(tmp_path):
    texture = '<texture filename="package://arm_description/materials/textures/skin.png"/>'
    text = ARM.replace('tool.obj', 'gone.stl').replace(texture, '<color rgba="1 0 0 1"/>')
    urdf = make_arm(tmp_path, text)
    result = export(str(urdf), str(tmp_path / 'arm'), **options(tmp_path))
    assert [(w.code, w.location, w.entity) for w in result.warnings] == \
        [(Code.NOT_COPIED, SourceLocation(str(urdf)), None)]
    assert result.warnings[0].message == (
        'copied 1 of 2 meshes and 1 of 1 other file; missing (no such file): '
        '../meshes/gone.stl')
    assert '../meshes/gone.stl' in uris(tmp_path / 'arm' / 'model.sdf')


def test_a_package_uri_left_in_the_output_is_a_warning(tmp_path):
    text = ARM.replace('</robot>', '<gazebo><plugin name="p" filename="libp.so"><config>'
                       'package://arm_description/config/p.yaml</config></plugin></gazebo>'
                       '\n</robot>')
    urdf = make_arm(tmp_path, text.replace('tool.obj', 'base.stl'))
    result = export(str(urdf), str(tmp_path / 'arm'), **options(tmp_path))
    assert [(w.code, w.location.source) for w in result.warnings] == \
        [(Code.NOT_SELF_CONTAINED, str(tmp_path / 'arm' / 'model.sdf'))]
    assert result.warnings[0].message.startswith('package://arm_description/config/p.yaml ')


def test_a_folder_holding_something_is_refused_unless_forced(tmp_path):
    urdf = make_arm(tmp_path, ARM.replace('tool.obj', 'base.stl'))
    out = tmp_path / 'arm'
    out.mkdir()
    (out / 'mine.txt').write_text('mine')
    with pytest.raises(SdfToolsError, match='the folder is not empty; export replaces it only '
                       r'when forced \(--force\)') as info:
        export(str(urdf), str(out), **options(tmp_path))
    assert info.value.diagnostic.code is Code.NOT_EMPTY
    assert tree(out) == ['mine.txt']
    (out / 'model.config').write_text('<model/>')  # a model folder: replaced when forced
    export(str(urdf), str(out), **options(tmp_path, force=True))
    assert 'mine.txt' not in tree(out) and 'model.sdf' in tree(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ['arm', 'ws']


def test_force_replaces_only_a_model_folder_and_never_the_current_or_home_folder(
        tmp_path, monkeypatch):
    urdf = make_arm(tmp_path, ARM.replace('tool.obj', 'base.stl'))
    thesis = tmp_path / 'thesis'
    (thesis / 'arm').mkdir(parents=True)
    (thesis / 'thesis.tex').write_text('mine')
    (thesis / 'model.config').write_text('<model/>')  # even one holding a model.config
    (thesis / 'arm' / 'model.config').write_text('<model/>')
    monkeypatch.chdir(thesis / 'arm')
    for target, why in ((thesis / 'arm', 'it is the current folder'),
                        ('.', 'it is the current folder'),
                        (thesis, 'it holds the current folder')):
        with pytest.raises(SdfToolsError, match=f'{target}: not replaced, because {why}; '
                           r'--force replaces only a model folder \(one holding model.config'
                           r'\) holding no ROS package, never the current folder, the home '
                           'folder or one above them$') as info:
            export(str(urdf), str(target), **options(tmp_path, force=True))
        assert info.value.diagnostic.code is Code.NOT_EMPTY
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv('HOME', str(thesis))
    with pytest.raises(SdfToolsError, match='not replaced, because it is the home folder'):
        export(str(urdf), str(thesis), **options(tmp_path, force=True))
    (thesis / 'model.config').unlink()
    monkeypatch.delenv('HOME')
    with pytest.raises(SdfToolsError, match='not replaced, because it holds no model.config, '
                       'so it is no model folder'):
        export(str(urdf), str(thesis), **options(tmp_path, force=True))
    assert tree(thesis) == ['arm/model.config', 'thesis.tex']


def test_force_never_replaces_a_folder_holding_what_the_export_reads(tmp_path):
    urdf = make_arm(tmp_path, ARM.replace('tool.obj', 'base.stl'))
    (urdf.parent / 'model.config').write_text('<model/>')  # as if exported there before
    with pytest.raises(outputs.OverwriteError, match=f'refusing to write {urdf.parent}: it '
                       f'holds the input {urdf}; nothing was written$'):
        export(str(urdf), str(urdf.parent), **options(tmp_path, force=True))
    meshes = urdf.parent.parent / 'meshes'
    (meshes / 'model.config').write_text('<model/>')
    with pytest.raises(outputs.OverwriteError, match=f'it holds {meshes}/base.stl, which was '
                       'read to make the output; nothing was written$'):
        export(str(urdf), str(meshes), **options(tmp_path, force=True))
    assert sorted(p.name for p in urdf.parent.iterdir()) == ['arm.urdf', 'model.config']
    assert sorted(p.name for p in meshes.iterdir()) == ['base.stl', 'model.config',
                                                        'tool.mtl', 'tool.obj']


def test_force_never_replaces_a_folder_holding_a_mesh_read_but_not_copied(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    out = tmp_path / 'out'
    out.mkdir()
    (out / 'model.config').write_text('<model/>')
    (out / 'cube.stl').write_bytes(mesh_bytes('cube.stl'))
    urdf = tmp_path / 'robot' / 'robot.urdf'  # in no package: the mesh is not copied, but
    urdf.parent.mkdir()                          # --auto-inertials reads it
    urdf.write_text(f'<robot name="r"><link name="a"><collision><geometry><mesh filename="'
                    f'{out}/cube.stl"/></geometry></collision></link></robot>')
    with pytest.raises(outputs.OverwriteError, match=f'it holds {out}/cube.stl, which was '
                       'read to make the output; nothing was written$'):
        export(str(urdf), str(out), ExportOptions(force=True, conversion=ConversionOptions(
            auto_inertials=1000.0)))
    assert sorted(p.name for p in out.iterdir()) == ['cube.stl', 'model.config']


def test_force_never_replaces_a_folder_holding_a_ros_package(tmp_path):
    urdf = make_arm(tmp_path, ARM.replace('tool.obj', 'base.stl'))
    other = make_package(tmp_path / 'ws' / 'src' / 'other', 'other', {'model.config': 'x'})
    nested = tmp_path / 'models' / 'old'
    make_package(nested / 'inner' / 'pkg', 'pkg')
    (nested / 'model.config').write_text('<model/>')
    for target, package in ((other, other / 'package.xml'),
                            (nested, nested / 'inner' / 'pkg' / 'package.xml')):
        with pytest.raises(SdfToolsError, match=f'not replaced, because it holds a ROS package '
                           f'\\({package}\\)') as info:
            export(str(urdf), str(target), **options(tmp_path, force=True))
        assert info.value.diagnostic.code is Code.NOT_EMPTY
        assert package.is_file()


def test_force_never_replaces_a_folder_holding_an_include(tmp_path):
    ns = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    parts = tmp_path / 'parts'
    parts.mkdir()
    (parts / 'model.config').write_text('<model/>')
    (parts / 'inc.xacro').write_text(f'<robot {ns}><link name="b"/></robot>')
    (parts / 'inc.sdf').write_text('<sdf version="1.9"><model name="b"><link name="l"/>'
                                   '</model></sdf>')
    xacro = tmp_path / 'main.urdf.xacro'
    xacro.write_text(f'<robot name="r" {ns}><xacro:include filename="parts/inc.xacro"/>'
                     '</robot>')
    sdf = tmp_path / 'main.sdf'
    sdf.write_text('<sdf version="1.9"><model name="r"><link name="a"/><include>'
                   '<uri>parts/inc.sdf</uri></include></model></sdf>')
    for main, include in ((xacro, 'inc.xacro'), (sdf, 'inc.sdf')):
        with pytest.raises(outputs.OverwriteError, match=f'refusing to write {parts}: it holds '
                           f'{parts / include}, which was read to make the output'):
            export(str(main), str(parts), ExportOptions(force=True))
        assert sorted(p.name for p in parts.iterdir()) == ['inc.sdf', 'inc.xacro',
                                                           'model.config']


def test_a_failure_leaves_nothing_written(tmp_path, monkeypatch):
    urdf = make_arm(tmp_path, ARM.replace('tool.obj', 'base.stl'))
    out = tmp_path / 'arm'
    real = outputs._write_file

    def fail_on_the_mesh(destination, content):
        if destination.endswith('base.stl'):
            raise OSError(28, 'No space left on device')
        real(destination, content)

    monkeypatch.setattr(outputs, '_write_file', fail_on_the_mesh)
    with pytest.raises(OSError, match='No space left'):
        export(str(urdf), str(out), **options(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ['ws']
    out.mkdir()
    (out / 'model.config').write_text('old')
    with pytest.raises(OSError, match='No space left'):
        export(str(urdf), str(out), **options(tmp_path, force=True))
    assert tree(out) == ['model.config'] and sorted(p.name for p in tmp_path.iterdir()) == \
        ['arm', 'ws']
    monkeypatch.undo()
    with pytest.raises(ConversionError, match='not supported'):  # before anything is written
        export(str(urdf), str(out), **options(tmp_path, force=True, conversion=ConversionOptions(
            sdf_version='2.0')))
    assert tree(out) == ['model.config']


def test_the_folder_name_must_be_a_model_name(tmp_path):
    urdf = make_arm(tmp_path, ARM.replace('tool.obj', 'base.stl'))
    with pytest.raises(SdfToolsError, match="the folder's name is the model's name") as info:
        export(str(urdf), str(tmp_path / 'my arm'), **options(tmp_path))
    assert info.value.diagnostic.code is Code.BAD_NAME
    assert sorted(p.name for p in tmp_path.iterdir()) == ['ws']


def test_sdformat_input_gets_its_meshes_and_kept_content_copied(tmp_path):
    make_arm(tmp_path)
    sdf = tmp_path / 'arm.sdf'
    sdf.write_text(
        '<sdf version="1.9"><model name="arm"><link name="a"><visual name="v"><geometry><mesh>'
        '<uri>package://arm_description/meshes/base.stl</uri></mesh></geometry><material>'
        '<script><uri>model://arm_description/materials/scripts</uri><name>Arm/Tool</name>'
        '</script></material></visual></link></model></sdf>')
    result = export(str(sdf), str(tmp_path / 'arm'), **options(tmp_path))
    assert uris(tmp_path / 'arm' / 'model.sdf') == ['model://arm/meshes/base.stl',
                                                    'model://arm/materials/scripts']
    assert 'meshes/base.stl' in result.files and result.warnings == ()


# --- as Gazebo loads it -------------------------------------------------------------------

needs_oracle = pytest.mark.skipif(support.oracle_path() is None, reason=support.NO_ORACLE)


def assert_gazebo_loads(folder: Path, scratch: Path, meshes: int):
    """Assert libsdformat and the probe load model://<folder>, each mesh a file in it."""
    view = gazebo_view(folder, scratch)
    assert 'oracle: OK' in view['check'], view['check']
    assert len(view['meshes']) == meshes
    assert set(view['files']) == set(view['meshes'])  # every mesh URI is model://<folder>/
    for uri, file in view['files'].items():
        assert file.is_file() and file.resolve().is_relative_to(folder.resolve()), uri
    if support.probe_built():
        probe = probe_world(view['world'], view['env'])
        assert '# sdf_errors 0' in probe, probe[-2000:]


@needs_oracle
def test_gazebo_loads_the_demo(tmp_path):
    out = tmp_path / 'models' / 'demo_arm'
    out.parent.mkdir()
    example = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
    result = export(str(example), str(out))
    assert result.files == ('model.config', 'model.sdf')
    assert_gazebo_loads(out, tmp_path / 'scratch', 0)


@needs_oracle
def test_gazebo_loads_the_mesh_package_robot_from_anywhere(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    urdf = make_arm(tmp_path)
    out = tmp_path / 'models' / 'arm'
    out.parent.mkdir()
    export(str(urdf), str(out), **options(tmp_path))
    assert_gazebo_loads(out, tmp_path / 'scratch', 3)
    moved = tmp_path / 'elsewhere' / 'arm'
    moved.parent.mkdir()
    shutil.move(str(out), str(moved))
    shutil.rmtree(tmp_path / 'ws')  # without the workspace
    assert_gazebo_loads(moved, tmp_path / 'scratch2', 3)


CORPUS = ['iiwa14_gazebo', 'ur5e', 'stretch_gazebo']


@needs_oracle
@pytest.mark.skipif(not support.corpus_files(), reason=support.NO_CORPUS)
@pytest.mark.parametrize('robot', CORPUS)
def test_gazebo_loads_a_corpus_robot_exported_with_its_packages(robot, tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    text = (support.CORPUS_DIR / f'{robot}.urdf').read_text()
    packages = packages_for(text, tmp_path / 'ws' / 'src')
    urdf = tmp_path / f'{robot}.urdf'
    urdf.write_text(text)
    out = tmp_path / 'models' / robot
    out.parent.mkdir()
    result = export(str(urdf), str(out), **options(tmp_path))
    assert not [w for w in result.warnings if w.code in (Code.NOT_COPIED,
                                                         Code.NOT_SELF_CONTAINED)]
    copied = sum(len(files) for files in packages.values())
    assert len(result.files) == copied + 2
    moved = tmp_path / 'elsewhere' / robot
    moved.parent.mkdir()
    shutil.move(str(out), str(moved))
    shutil.rmtree(tmp_path / 'ws')
    view = gazebo_view(moved, tmp_path / 'scratch')
    assert 'oracle: OK' in view['check'], view['check']
    assert view['meshes'] and set(view['files']) == set(view['meshes'])
    assert all(os.path.isfile(file) for file in view['files'].values())
    if support.probe_built():
        probe = probe_world(view['world'], view['env'])
        assert '# sdf_errors 0' in probe, probe[-2000:]
