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

"""Tests of ``sdf_tools export`` (sdf_tools/cli/export.py): arguments, output, exit codes."""

from lxml import etree
from mesh_robot import make_mesh_robot
from model_folders import make_model
import pytest
from sdf_tools import cli
import support
from workspaces import stl

EXAMPLE = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'


def run(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_export_writes_the_folder_and_prints_its_model_name(tmp_path, capsys):
    out = tmp_path / 'left_arm'
    code, stdout, stderr = run(['export', str(EXAMPLE), '-o', str(out), 'prefix:=left_',
                                '--preserve-fixed-joints', '--sdf-version', '1.11'], capsys)
    assert code == 0, stderr
    assert stdout == f'{out}: model://left_arm (model.config, model.sdf and 0 files copied)\n'
    assert sorted(p.name for p in out.iterdir()) == ['model.config', 'model.sdf']
    sdf = etree.parse(str(out / 'model.sdf')).getroot()
    assert sdf.get('version') == '1.11'
    assert sdf.find("model/link[@name='left_base_link']") is not None  # not lumped
    assert etree.parse(str(out / 'model.config')).find('sdf').get('version') == '1.11'


def test_export_refuses_an_occupied_folder_and_force_replaces_it(tmp_path, capsys):
    out = tmp_path / 'arm'
    out.mkdir()
    (out / 'mine.txt').write_text('mine')
    code, stdout, stderr = run(['export', str(EXAMPLE), '-o', str(out)], capsys)
    assert (code, stdout) == (1, '')
    assert stderr == (f'Error: {out}: the folder is not empty; export replaces it only when '
                      'forced (--force)\n')
    code, stdout, stderr = run(['export', '-q', '--force', str(EXAMPLE), '-o', str(out)],
                               capsys)
    assert (code, stdout) == (1, '')
    assert stderr == (f'Error: {out}: not replaced, because it holds no model.config, so it '
                      'is no model folder; --force replaces only a model folder (one holding '
                      'model.config) holding no ROS package, never the current folder, the home '
                      'folder or one above them\n')
    assert sorted(p.name for p in out.iterdir()) == ['mine.txt']
    (out / 'model.config').write_text('<model/>')
    code, stdout, stderr = run(['export', '-q', '--force', str(EXAMPLE), '-o', str(out)],
                               capsys)
    assert code == 0 and stderr == ''
    assert sorted(p.name for p in out.iterdir()) == ['model.config', 'model.sdf']


def test_export_refuses_to_replace_a_folder_holding_an_include(tmp_path, capsys):
    ns = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    parts = tmp_path / 'parts'
    parts.mkdir()
    (parts / 'model.config').write_text('<model/>')
    (parts / 'inc.xacro').write_text(f'<robot {ns}><link name="b"/></robot>')
    main = tmp_path / 'main.urdf.xacro'
    main.write_text(f'<robot name="r" {ns}><xacro:include filename="parts/inc.xacro"/>'
                    '</robot>')
    code, stdout, stderr = run(['export', '-q', str(main), '-o', str(parts), '--force'],
                               capsys)
    assert (code, stdout) == (2, '')
    assert stderr == (f'sdf_tools export: error: refusing to write {parts}: it holds '
                      f'{parts}/inc.xacro, which was read to make the output; nothing was '
                      'written\n')
    assert sorted(p.name for p in parts.iterdir()) == ['inc.xacro', 'model.config']


def test_export_usage_errors_exit_2(tmp_path, capsys):
    for argv in (['export', str(EXAMPLE)], ['export', str(EXAMPLE), '-o', str(tmp_path / 'a'),
                                            '--auto-inertials', '-1']):
        code, stdout, stderr = run(argv, capsys)
        assert code == 2 and stdout == '' and 'sdf_tools export: error:' in stderr, argv
    code, _, stderr = run(['export', str(EXAMPLE), '-o', str(tmp_path / 'no' / 'arm')],
                          capsys)
    assert code == 1
    assert stderr == f'Error: {tmp_path}/no/arm: the folder that would hold it does not exist\n'
    assert list(tmp_path.iterdir()) == []


def test_export_copies_the_meshes_and_takes_auto_inertials(tmp_path, capsys):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    files = make_mesh_robot(tmp_path)
    out = tmp_path / 'mesh_robot'
    code, stdout, stderr = run(['export', str(files['urdf']), '-o', str(out),
                                '--auto-inertials', '1000', '--package-path',
                                str(files['src'])], capsys)
    assert code == 0, stderr
    assert stdout.endswith('(model.config, model.sdf and 3 files copied)\n')
    assert sorted(str(p.relative_to(out)) for p in out.rglob('*.stl')) == \
        ['meshes/cube.stl', 'meshes/open.stl', 'urdf/local.stl']
    model = etree.parse(str(out / 'model.sdf')).find('model')
    # The arm's mass is its collision cube's (0.1 x 0.1 x 0.5 m at 1000 kg/m^3).
    assert float(model.findtext("link[@name='arm']/inertial/mass")) == pytest.approx(5.0)
    assert "link 'arm': has no <inertial>; it is given the mass properties" in stderr


RESOURCE_PATH = ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                 'GAZEBO_MODEL_PATH')


@pytest.mark.parametrize('where', ['--resource-path', 'GZ_SIM_RESOURCE_PATH'])
def test_export_copies_a_models_own_files_found_on_the_resource_path(where, tmp_path, capsys,
                                                                     monkeypatch):
    for name in RESOURCE_PATH:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    arm = make_model(tmp_path / 'models', 'arm', '<model name="arm"><link name="base">'
                     '<visual name="v"><geometry><mesh><uri>model://arm/meshes/a.stl</uri>'
                     '</mesh></geometry></visual></link></model>')
    (arm / 'meshes').mkdir()
    (arm / 'meshes' / 'a.stl').write_text(stl('s'))
    if where == 'GZ_SIM_RESOURCE_PATH':
        monkeypatch.setenv(where, f'{tmp_path}/elsewhere:{tmp_path}/models')
        given = []
    else:
        given = ['--resource-path', 'models']
    code, stdout, stderr = run(['export', 'models/arm/model.sdf', *given, '-o', 'out'], capsys)
    assert (code, stderr) == (0, '')
    assert stdout == 'out: model://out (model.config, model.sdf and 1 file copied)\n'
    assert (tmp_path / 'out' / 'meshes' / 'a.stl').read_text() == stl('s')
    assert [e.text for e in etree.parse(str(tmp_path / 'out' / 'model.sdf')).iter('uri')] == \
        ['model://out/meshes/a.stl']
