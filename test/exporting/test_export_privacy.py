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
``sdf_tools export`` of a hostile description copies nothing private into the shared folder.

A description downloaded into a home folder (a fake one, ``HOME`` set to it) names private
files in every way a description can: a mesh, a ``file://`` URI, a document, a material
``<script><uri>`` naming a whole folder, a file of another workspace's package. Each is not
copied and is named in a warning; the folder holds model.config and model.sdf only, and no
byte of any secret. The files of a real package beside them are still copied.
"""

from pathlib import Path

from model_folders import make_package
from model_folders import PNG
import pytest
from sdf_tools import cli
from sdf_tools.exporting.report import listing
from workspaces import stl

SECRETS = {'.ssh/id_rsa': 'SECRET-KEY-1f0a', '.netrc': 'SECRET-NETRC-77c2',
           'Documents/passwords.txt': 'SECRET-PASSWORD-9e1d',
           'Downloads/bank.pdf': 'SECRET-STATEMENT-3b5e', 'Downloads/photo.png': 'SECRET-PNG',
           'other_ws/src/pkg/config/credentials.yaml': 'SECRET-TOKEN-c4d8'}
ROBOT = """<robot name="r">
  <link name="base">{visuals}</link>
  {gazebo}
</robot>
"""


@pytest.fixture
def home(tmp_path, monkeypatch):
    """Return a fake home folder holding :data:`SECRETS` (``HOME`` is set to it)."""
    folder = tmp_path / 'home'
    for relative, secret in SECRETS.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(secret)
    make_package(folder / 'other_ws' / 'src' / 'pkg', 'pkg')
    monkeypatch.setenv('HOME', str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


def mesh(uri: str) -> str:
    return f'<visual><geometry><mesh filename="{uri}"/></geometry></visual>'


def script(uri: str) -> str:
    return (f'<gazebo reference="base"><visual><material><script><uri>{uri}</uri>'
            '<name>X/Y</name></script></material></visual></gazebo>')


def export(robot: Path, out: Path, capsys, *options):
    code = cli.main(['export', str(robot), '-o', str(out), *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_holds_no_secret(out: Path):
    files = sorted(str(p.relative_to(out)) for p in out.rglob('*') if p.is_file())
    assert files == ['model.config', 'model.sdf']
    for file in out.rglob('*'):
        if file.is_file():
            assert not any(secret in file.read_text() for secret in SECRETS.values()), file


PROBES = {  # where the description is, what it names, the warning's words
    'a hidden file as a mesh': ('robot.urdf', mesh('.ssh/id_rsa'), ['.ssh/id_rsa']),
    'file:// of the home folder': ('robot.urdf', mesh('file://{home}/.netrc'),
                                   ['file://{home}/.netrc']),
    'a document': ('robot.urdf', mesh('Documents/passwords.txt'),
                   ['Documents/passwords.txt']),
    'a material script naming the folder': ('Downloads/robot.urdf', script('.'), ['.']),
    "another workspace's package file": (
        'robot.urdf', mesh('other_ws/src/pkg/config/credentials.yaml'),
        ["'credentials.yaml' is not a mesh, an image or a material script"]),
}


@pytest.mark.parametrize('probe', list(PROBES))
def test_export_copies_no_private_file_a_description_names(probe, home, capsys):
    where, element, words = PROBES[probe]
    robot = home / where
    visuals, gazebo = (element, '') if element.startswith('<visual') else ('', element)
    if probe == "another workspace's package file":  # as the issue wrote it, from a workspace
        robot = home / 'ws' / 'robot.urdf'
        robot.parent.mkdir()
        visuals = visuals.replace('other_ws', '../other_ws')
        words = [words[0].replace('mesh, an image or a material script', 'mesh')]
    robot.write_text(ROBOT.format(visuals=visuals.format(home=home), gazebo=gazebo))
    out = home.parent / 'shared_model'
    code, stdout, stderr = export(robot, out, capsys)
    assert code == 0, stderr
    assert_holds_no_secret(out)
    for word in words:  # as the summary lists a name (errors.short_name)
        assert listing([word.format(home=home)]) in stderr
    assert 'not copied' in stderr and stdout.endswith('not copied: 1 of 1 mesh)\n') \
        if visuals else stdout.endswith('not copied: 1 of 1 file)\n')
    # --strict writes nothing at all, and says why.
    code, stdout, stderr = export(robot, home.parent / 'strict_model', capsys, '--strict')
    assert (code, stdout) == (1, '') and not (home.parent / 'strict_model').exists()
    assert stderr.splitlines()[-1] == (f'Error: {home.parent}/strict_model: not written, '
                                       'because it would not hold everything the model uses '
                                       '(--strict)')


def test_a_real_packages_meshes_textures_and_scripts_are_still_copied(home, capsys):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    package = make_package(home / 'ws' / 'src' / 'arm', 'arm', {
        'meshes/base.stl': stl('base'), 'meshes/.old.stl': stl('old'),
        'textures/skin.png': PNG, 'materials/scripts/arm.material': 'material Arm/Skin {}',
        'materials/scripts/notes.txt': 'SECRET-NOTES', 'config/controllers.yaml': 'x: 1',
        'urdf/arm.urdf': ROBOT.format(
            visuals=mesh('package://arm/meshes/base.stl') + mesh('../meshes/.old.stl')
            + '<visual><geometry><box size="1 1 1"/></geometry><material name="s">'
            '<texture filename="package://arm/textures/skin.png"/></material></visual>',
            gazebo=script('model://arm/materials/scripts') + script(f'{home}/.ssh')
            + '<gazebo><plugin name="c" filename="libc.so"><parameters>'
            f'{home}/ws/src/arm/config/controllers.yaml</parameters></plugin></gazebo>')})
    out = home.parent / 'arm_model'
    code, stdout, stderr = export(package / 'urdf' / 'arm.urdf', out, capsys,
                                  '--package-path', str(home / 'ws' / 'src'))
    assert code == 0, stderr
    assert sorted(str(p.relative_to(out)) for p in out.rglob('*') if p.is_file()) == [
        'materials/scripts/arm.material', 'meshes/base.stl', 'model.config', 'model.sdf',
        'textures/skin.png']
    assert stdout == (f'{out}: model://arm_model (model.config, model.sdf and 3 files copied; '
                      'not copied: 1 of 2 meshes and 1 of 3 other files)\n')
    lines = stderr.splitlines()
    assert any(f'../meshes/.old.stl is not copied: {package}/meshes/.old.stl is hidden' in line
               for line in lines)
    assert any(line.endswith('warning: copied 1 of 2 meshes and 2 of 3 other files; not '
                             'copied, in no ROS package or model folder (one holding '
                             'package.xml or model.config: export copies only their files): '
                             f'{home}/.ssh; 1 more not copied, each said above')
               for line in lines)
    assert any(f'<parameters>: {home}/ws/src/arm/config/controllers.yaml is an absolute path '
               'outside the exported folder' in line for line in lines)
    assert 'SECRET-NOTES' not in ''.join(p.read_text() for p in out.rglob('*.material'))
