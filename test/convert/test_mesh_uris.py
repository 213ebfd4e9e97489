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
Tests of ``mesh_uris`` (``--mesh-uris``): how the converter writes ``<mesh><uri>``.

On :mod:`mesh_robot` (meshes present): ``model`` is libsdformat's output whatever else is
given; ``file`` writes absolute paths that exist, which libsdformat 12.3 and the physics probe
load; missing files are warned about in every mode; what cannot be located under ``file`` is
kept as written, with the warning that says why; ``<gazebo>`` blobs are never rewritten, and
the files they name are checked with a resolver.
"""

import os
from pathlib import Path

from lxml import etree
from mesh_robot import make_mesh_robot
from mesh_robot import PACKAGE
import pytest
from sdf_tools import cli
from sdf_tools.cli import arguments
from sdf_tools.convert.mesh_uris import MODES
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.resources.lookup import find_resources
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.ros.descriptions import convert as convert_text
import support


@pytest.fixture
def robot_files(tmp_path):
    return make_mesh_robot(tmp_path)


def resolver(*folders):
    return PackageResolver(PackagePath.from_environment([str(f) for f in folders], environ={}))


def convert(path, text=None, **options):
    robot = parse_urdf(text if text is not None else Path(path).read_text(), str(path))
    return urdf_to_sdf(robot, ConversionOptions(**options))


def uris(sdf):
    return [e.text for e in etree.fromstring(sdf.encode()).iter('uri')]


def test_model_is_libsdformats_output_with_or_without_a_resolver(robot_files):
    urdf = robot_files['urdf']
    plain = convert(urdf)
    assert uris(plain.sdf) == [f'model://{PACKAGE}/meshes/cube.stl', 'local.stl',
                               f'model://{PACKAGE}/meshes/open.stl',
                               f'model://{PACKAGE}/meshes/open.stl']
    checked = convert(urdf, packages=resolver(robot_files['src']),
                      input_folder=str(urdf.parent))
    assert checked.sdf == plain.sdf and checked.warnings == plain.warnings
    package = convert(urdf, mesh_uris='package', packages=resolver(robot_files['src']))
    assert uris(package.sdf) == [u.replace('model://', 'package://') for u in uris(plain.sdf)]


def test_file_writes_absolute_paths_that_exist(robot_files):
    urdf = robot_files['urdf']
    result = convert(urdf, mesh_uris='file', packages=resolver(robot_files['src']),
                     input_folder=str(urdf.parent))
    meshes = robot_files['package'] / 'meshes'
    assert uris(result.sdf) == [f'file://{meshes}/cube.stl', f'file://{urdf.parent}/local.stl',
                                f'file://{meshes}/open.stl', f'file://{meshes}/open.stl']
    for uri in uris(result.sdf):
        assert os.path.isabs(uri[len('file://'):]) and os.path.isfile(uri[len('file://'):])
    assert not [w for w in result.warnings if w.code in (Code.MISSING_FILE, Code.WARNING)]


def test_missing_meshes_are_warned_about_in_every_mode_with_file_and_line(robot_files):
    urdf = robot_files['urdf']
    text = urdf.read_text().replace('meshes/cube.stl', 'meshes/gone.stl')
    gone = robot_files['package'] / 'meshes' / 'gone.stl'
    for mode in MODES:
        result = convert(urdf, text, mesh_uris=mode, packages=resolver(robot_files['src']),
                         input_folder=str(urdf.parent))
        missing = [str(w) for w in result.warnings if w.code == Code.MISSING_FILE]
        assert missing == [f"{urdf}:14: warning: link 'arm': package://{PACKAGE}/meshes/"
                           f'gone.stl: no such file: {gone}'], mode
        if mode == 'file':  # the path is still written: it is where the file should be
            assert f'file://{gone}' in uris(result.sdf)


def test_what_file_cannot_locate_is_kept_as_written_with_the_reason(robot_files, tmp_path):
    urdf = robot_files['urdf']
    text = (urdf.read_text().replace(f'package://{PACKAGE}/meshes/cube.stl',
                                     'https://fuel.example/cube.stl')
            .replace(f'package://{PACKAGE}/meshes/open.stl', 'package://elsewhere/open.stl'))
    result = convert(urdf, text, mesh_uris='file', packages=resolver(robot_files['src']))
    assert uris(result.sdf) == ['https://fuel.example/cube.stl', 'local.stl',
                                'package://elsewhere/open.stl', 'package://elsewhere/open.stl']
    assert [(w.location.line, w.code) for w in result.warnings[:3]] == [
        (12, Code.WARNING), (14, Code.WARNING), (22, Code.PACKAGE_NOT_FOUND)]
    first, second, third = map(str, result.warnings[:3])
    assert 'local.stl: a relative path, and the description was not read from a file' in first
    assert second.endswith("link 'arm': https://fuel.example/cube.stl: not a local file")
    assert "package://elsewhere/open.stl: package 'elsewhere' not found; searched: " in third


def test_gazebo_blobs_are_copied_as_written_in_every_mode(robot_files):
    urdf = robot_files['urdf']
    blob = (f'<gazebo><plugin name="p" filename="libp.so"><uri>package://{PACKAGE}/meshes/'
            'cube.stl</uri></plugin></gazebo>\n</robot>')
    text = urdf.read_text().replace('</robot>', blob)
    for mode in MODES:
        sdf = convert(urdf, text, mesh_uris=mode, packages=resolver(robot_files['src']),
                      input_folder=str(urdf.parent)).sdf
        plugin = etree.fromstring(sdf.encode()).find('model/plugin')
        assert plugin.findtext('uri') == f'package://{PACKAGE}/meshes/cube.stl', mode


def test_a_missing_file_in_a_gazebo_blob_is_warned_about_with_a_resolver(robot_files):
    urdf = robot_files['urdf']
    blob = (f'<gazebo><plugin name="control" filename="gz_ros2_control-system">\n<parameters>'
            f'package://{PACKAGE}/config/controllers.yaml</parameters></plugin></gazebo>\n'
            '</robot>')
    text = urdf.read_text().replace('</robot>', blob)
    line = text.count('\n', 0, text.index('<parameters>')) + 1
    assert not any('<parameters>' in w.message for w in convert(urdf, text).warnings)
    for mode in MODES:
        result = convert(urdf, text, mesh_uris=mode, packages=resolver(robot_files['src']),
                         input_folder=str(urdf.parent))
        (warning,) = [w for w in result.warnings if '<parameters>' in w.message]
        assert str(warning) == (
            f'{urdf}:{line}: warning: <gazebo>: <parameters>: package://{PACKAGE}/config/'
            f"controllers.yaml: no such file or folder: {robot_files['package']}/config/"
            'controllers.yaml'), mode
        assert f'<parameters>package://{PACKAGE}/config/controllers.yaml</parameters>' in \
            result.sdf


def test_a_uri_map_gives_the_uris_it_holds_and_the_converter_checks_none(robot_files):
    urdf = robot_files['urdf']
    text = urdf.read_text().replace('meshes/open.stl', 'meshes/gone.stl')
    given = {f'package://{PACKAGE}/meshes/cube.stl': 'model://copy/meshes/cube.stl'}
    for mode in MODES:
        result = convert(urdf, text, mesh_uris=mode, packages=resolver(robot_files['src']),
                         input_folder=str(urdf.parent), uri_map=given)
        expected = convert(urdf, text, mesh_uris=mode, packages=resolver(robot_files['src']),
                           input_folder=str(urdf.parent))
        # The mapped mesh has its URI; the others are written as the mode says.
        assert uris(result.sdf) == ['model://copy/meshes/cube.stl'] + uris(expected.sdf)[1:]
        assert not [w for w in result.warnings if w.code == Code.MISSING_FILE], mode
        assert [w for w in expected.warnings if w.code == Code.MISSING_FILE], mode


TEXTURED = """<robot name="r">
  <material name="skin"><texture filename="package://pkg/skin.png"/></material>
  <link name="a"><inertial><mass value="1"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual><geometry><box size="1 1 1"/></geometry><material name="skin"/></visual>
    <visual><geometry><box size="1 1 1"/></geometry>
      <material name="red"><color rgba="0.4 0 0 1"/><texture filename="tint.png"/></material>
    </visual>
  </link>
</robot>
"""
OWN_PBR = ('<gazebo reference="a"><visual><material><pbr><metal><albedo_map>mine.png'
           '</albedo_map></metal></pbr></material></visual></gazebo>\n</robot>')


def materials(sdf):
    return [v.find('material') for v in etree.fromstring(sdf.encode()).iter('visual')]


def test_urdf_textures_in_the_uri_map_become_albedo_maps(tmp_path):
    robot = parse_urdf(TEXTURED, 'textured.urdf')
    plain = materials(urdf_to_sdf(robot).sdf)  # libsdformat: no texture, black
    assert plain[0].findtext('diffuse') == '0 0 0 1'
    assert [m.find('pbr') for m in plain] == [None, None]
    given = {'package://pkg/skin.png': 'model://m/skin.png', 'tint.png': 'model://m/tint.png'}
    result = urdf_to_sdf(robot, ConversionOptions(uri_map=given))
    skin, tinted = materials(result.sdf)
    # A texture without a colour shows as it is (white), one with a colour is tinted by it.
    assert skin.findtext('diffuse') == skin.findtext('ambient') == '1 1 1 1'
    assert skin.findtext('pbr/metal/albedo_map') == 'model://m/skin.png'
    assert tinted.findtext('diffuse') == '0.5 0 0 1'
    assert tinted.findtext('pbr/metal/albedo_map') == 'model://m/tint.png'
    if support.oracle_path() is not None:  # libsdformat takes the material
        (tmp_path / 'm.sdf').write_text(result.sdf)
        check = support.run_oracle('check', tmp_path / 'm.sdf')
        assert check.returncode == 0, check.stdout
    # A <pbr> an extension gives is kept.
    own = parse_urdf(TEXTURED.replace('</robot>', OWN_PBR), 'textured.urdf')
    assert [m.findtext('pbr/metal/albedo_map') for m in materials(
        urdf_to_sdf(own, ConversionOptions(uri_map=given)).sdf)] == ['mine.png', 'mine.png']


def test_mesh_options_are_checked(robot_files):
    urdf = robot_files['urdf']
    for options, message in (({'mesh_uris': 'absolute'}, 'mesh_uris must be one of model, '
                              "file, package, got 'absolute'"),
                             ({'mesh_uris': 'file'}, "mesh_uris 'file' needs a package "
                              'resolver')):
        with pytest.raises(ConversionError, match=message) as caught:
            convert(urdf, **options)
        assert caught.value.diagnostics[0].code == Code.BAD_OPTION
    assert arguments._MESH_URIS == MODES  # the CLI's copy (it does not import the converter)


def test_the_node_conversion_checks_uris_once(robot_files):
    text = robot_files['urdf'].read_text().replace('meshes/cube.stl', 'meshes/gone.stl')
    found = find_resources([str(robot_files['src'])], environ={})
    converted = convert_text(text, resources=found)
    assert sum('gone.stl: no such file' in w for w in converted.warnings) == 1
    converted = convert_text(text, ConversionOptions(mesh_uris='file'), resources=found)
    assert f"file://{robot_files['package']}/meshes/open.stl" in converted.sdf


def write_file_output(robot_files, folder):
    """Write the robot converted with ``mesh_uris='file'`` to ``folder``; return the path."""
    urdf = robot_files['urdf']
    out = folder / 'robot.sdf'
    out.write_text(convert(urdf, mesh_uris='file', packages=resolver(robot_files['src']),
                           input_folder=str(urdf.parent)).sdf)
    return out


@pytest.mark.skipif(support.oracle_path() is None, reason=support.NO_ORACLE)
def test_libsdformat_checks_file_output(robot_files, tmp_path):
    out = write_file_output(robot_files, tmp_path)
    check = support.run_oracle('check', out)
    assert check.returncode == 0 and check.stdout.strip() == 'oracle: OK', check.stderr


@pytest.mark.skipif(not support.probe_built(), reason=support.NO_PROBE)
def test_the_physics_probe_loads_file_output(robot_files, tmp_path):
    out = write_file_output(robot_files, tmp_path)
    poses = support.run_probe('poses', out)
    assert '# sdf_errors 0' in poses.stdout, poses.stderr[-2000:]
    assert '# collisions 5 (2 meshes' in poses.stdout


def test_cli_mesh_uris(robot_files, capsys, monkeypatch):
    urdf = str(robot_files['urdf'])
    expected = f"file://{robot_files['package']}/meshes/cube.stl"
    for main, argv in ((cli.urdf2sdf_main, [urdf]), (cli.main, ['convert', urdf])):
        # The input's own package is found without --package-path.
        assert main(argv + ['--mesh-uris', 'file']) == 0
        out, err = capsys.readouterr()
        assert uris(out)[:2] == [expected, f'file://{Path(urdf).parent}/local.stl'], err
        assert main(argv) == 0
        assert uris(capsys.readouterr()[0])[0] == f'model://{PACKAGE}/meshes/cube.stl'
        assert main(argv + ['--mesh-uris=package']) == 0
        assert uris(capsys.readouterr()[0])[0] == f'package://{PACKAGE}/meshes/cube.stl'
        assert main(argv + ['--mesh-uris', 'absolute']) == 2
        assert "argument --mesh-uris: invalid choice: 'absolute'" in capsys.readouterr()[1]
    # Standard input has no folder: the relative path is kept, with the reason.
    monkeypatch.setattr('sys.stdin', open(urdf))
    assert cli.urdf2sdf_main(['-', '--mesh-uris', 'file', '--package-path',
                              str(robot_files['src'])]) == 0
    out, err = capsys.readouterr()
    assert uris(out)[:2] == [expected, 'local.stl']
    assert "<stdin>:12: warning: link 'arm': local.stl: a relative path" in err
