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
Tests of sdf_tools.exporting.report: what export says about a folder as a whole.

What is not copied is said once and counted; ``--strict`` writes nothing unless the folder
holds everything; loops closed by ``<gazebo>`` joints, which Gazebo's DART engine does not
build (the physics probe shows it), are one warning; Gazebo's own media files get a note.
"""

import shutil

from model_folders import make_package
import pytest
from sdf_tools import cli
from sdf_tools.errors import Code
from sdf_tools.errors import Severity
from sdf_tools.exporting import export
from sdf_tools.exporting import ExportOptions
from sdf_tools.exporting.report import NotSelfContained
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.resources.lookup import find_resources
import support
from workspaces import stl

needs_corpus = pytest.mark.skipif(not support.corpus_files(), reason=support.NO_CORPUS)


def options(*folders, **kwargs) -> dict:
    """Return export's options and resources: packages in ``folders``, the environment's."""
    return {'options': ExportOptions(**kwargs),
            'resources': find_resources([str(f) for f in folders], environ={})}


def run(argv, capsys):
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@needs_corpus
def test_a_robot_without_its_meshes_says_once_what_is_missing(tmp_path, capsys):
    urdf = tmp_path / 'ur5e.urdf'
    (tmp_path / 'nowhere').mkdir()
    shutil.copy(support.CORPUS_DIR / 'ur5e.urdf', urdf)
    result = export(str(urdf), str(tmp_path / 'ur5e'), **options(tmp_path / 'nowhere'))
    lacking = [w for w in result.warnings
               if w.code in (Code.NOT_COPIED, Code.NOT_SELF_CONTAINED)]
    assert len(lacking) == 1 and lacking[0].location.source == str(urdf)
    message = lacking[0].message
    assert message.startswith('copied 0 of 14 meshes; missing: 14 files of package '
                              "'ur_description', which was not found (searched: ")
    assert message.endswith('give its folder with --package-path): '
                            'meshes/ur5e/visual/base.dae, meshes/ur5e/collision/base.stl, '
                            'meshes/ur5e/visual/shoulder.dae and 11 more')
    code, stdout, stderr = run(['export', str(urdf), '-o', str(tmp_path / 'cli'),
                                '--package-path', str(tmp_path / 'nowhere')], capsys)
    assert code == 0
    assert stdout == (f'{tmp_path}/cli: model://cli (model.config, model.sdf and 0 files '
                      'copied; not copied: 14 of 14 meshes)\n')
    assert stderr.count('copied 0 of 14 meshes') == 1 and 'model.sdf' not in stderr


def test_names_in_the_summary_are_shortened_and_grouped(tmp_path):
    long = 'x' * 300
    urdf = tmp_path / 'robot.urdf'
    make_package(tmp_path / 'src' / 'arm', 'arm', {'meshes/a.stl': stl('a')})
    visuals = ''.join(f'<visual><geometry><mesh filename="{uri}"/></geometry></visual>'
                      for uri in ('package://arm/meshes/a.stl', f'package://gone/{long}.stl',
                                  'package://arm/meshes/b.stl', 'meshes/c.stl'))
    urdf.write_text(f'<robot name="r"><link name="a">{visuals}</link></robot>')
    result = export(str(urdf), str(tmp_path / 'out'), **options(tmp_path / 'src'))
    summary, = [w for w in result.warnings if w.code is Code.NOT_COPIED]
    parts = summary.message.split('; ')
    assert parts[0] == 'copied 1 of 4 meshes'
    assert parts[1].startswith("missing: 1 file of package 'gone', which was not found")
    assert parts[2].endswith(f'): {"x" * 35} ...(234 characters)... {"x" * 31}.stl')
    assert parts[3:] == ['missing (no such file): package://arm/meshes/b.stl',
                         'not copied, in no ROS package or model folder (one holding '
                         'package.xml or model.config: export copies only their files): '
                         'meshes/c.stl']


def make_arm(root, missing: bool):
    files = {'meshes/a.stl': stl('a'), 'urdf/arm.urdf': (
        '<robot name="arm"><link name="a"><visual><geometry><mesh filename="'
        'package://arm/meshes/a.stl"/></geometry></visual>'
        + ('<visual><geometry><mesh filename="package://arm/meshes/gone.stl"/></geometry>'
           '</visual>' if missing else '')
        + '</link><gazebo reference="a"><material>Gazebo/Grey</material></gazebo></robot>')}
    return make_package(root / 'src' / 'arm', 'arm', files) / 'urdf' / 'arm.urdf'


def test_strict_writes_nothing_unless_the_folder_holds_every_file_used(tmp_path, capsys):
    urdf = make_arm(tmp_path, missing=True)
    out = tmp_path / 'arm_model'
    with pytest.raises(NotSelfContained) as info:
        export(str(urdf), str(out), **options(tmp_path / 'src', strict=True))
    assert not out.exists()
    errors = [(d.code, d.message) for d in info.value.diagnostics
              if d.severity is Severity.ERROR]
    assert errors == [
        (Code.NOT_COPIED, 'copied 1 of 2 meshes; missing (no such file): '
         'package://arm/meshes/gone.stl'),
        (Code.NOT_SELF_CONTAINED, f'{out}: not written, because it would not hold everything '
         'the model uses (--strict)')]
    # An old folder replaced with --force is left as it was.
    out.mkdir()
    (out / 'model.config').write_text('old')
    argv = ['export', str(urdf), '-o', str(out), '--package-path', str(tmp_path / 'src'),
            '--strict', '--force']
    code, stdout, stderr = run(argv, capsys)
    assert (code, stdout) == (1, '')
    lines = stderr.splitlines()  # in file order: the file's errors, then the conclusion
    assert f'Error: {urdf}: copied 1 of 2 meshes; missing (no such file): ' \
        'package://arm/meshes/gone.stl' in lines
    assert lines[-1] == (f'Error: {out}: not written, because it would not hold everything '
                         'the model uses (--strict)')
    assert [p.name for p in out.iterdir()] == ['model.config']
    assert (out / 'model.config').read_text() == 'old'
    # Self-contained (Gazebo's own media files are the simulator's): written.
    urdf.write_text(urdf.read_text().replace('<visual><geometry><mesh filename="package://arm/'
                                             'meshes/gone.stl"/></geometry></visual>', ''))
    code, stdout, stderr = run(argv, capsys)
    assert code == 0, stderr
    assert stdout == (f'{out}: model://arm_model (model.config, model.sdf and 1 file '
                      'copied)\n')
    assert sorted(p.name for p in out.iterdir()) == ['meshes', 'model.config', 'model.sdf']


def test_gazebos_own_media_files_get_one_note(tmp_path):
    urdf = make_arm(tmp_path, missing=False)
    urdf.write_text(urdf.read_text().replace(
        '</robot>', '<gazebo reference="a"><visual><material><script><uri>'
        'file://media/materials/scripts/gazebo.material</uri><name>Gazebo/Red</name>'
        '</script></material></visual></gazebo></robot>'))
    result = export(str(urdf), str(tmp_path / 'out'), **options(tmp_path / 'src'))
    notes = [w for w in result.warnings if w.code is Code.SIMULATOR_MEDIA]
    assert [(str(w.location), w.entity, w.message) for w in notes] == [
        (f'{tmp_path}/out/model.sdf:{notes[0].location.line}', '<uri>',
         'file://media/materials/scripts/gazebo.material is not in the folder: it is one of '
         "Gazebo's own media files, which come with the simulator's install")]


LOOP = """<robot name="loop">
  <link name="a"/>
  <joint name="ab" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0"
    izz="1"/></inertial></link>
  <joint name="ac" type="revolute"><parent link="a"/><child link="c"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <link name="c"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0"
    izz="1"/></inertial></link>
  <gazebo>
    <joint name="close" type="revolute"><parent>b</parent><child>c</child>
      <axis><xyz>0 0 1</xyz></axis></joint>
  </gazebo>
</robot>
"""


def test_a_loop_closed_by_a_gazebo_joint_is_a_warning_dart_confirms(tmp_path):
    urdf = tmp_path / 'loop.urdf'
    urdf.write_text(LOOP)
    out = tmp_path / 'loop_model'
    result = export(str(urdf), str(out))
    loops = [w for w in result.warnings if w.code is Code.KINEMATIC_LOOP]
    assert [str(w) for w in loops] == [
        f'{urdf}:11: warning: 1 joint of <gazebo> blocks closes a kinematic loop (close): each '
        "joins a link that already has a parent joint, and Gazebo's DART physics engine does "
        f'not build such a joint, so the loop stays open in simulation (sdf_tools check '
        f'{out}/model.sdf lists them)']
    if support.probe_built():  # what the warning says of DART
        probe = support.run_probe('poses', out / 'model.sdf')
        assert 'joint close (revolute) has no DOF in the engine' in probe.stderr, probe


@needs_corpus
def test_pr2s_fifteen_loop_joints_are_those_check_reports(tmp_path):
    out = tmp_path / 'pr2'
    result = export(str(support.CORPUS_DIR / 'pr2.urdf'), str(out), **options(tmp_path))
    loops, = [w for w in result.warnings if w.code is Code.KINEMATIC_LOOP]
    assert loops.message.startswith(
        '15 joints of <gazebo> blocks close kinematic loops (torso_lift_screw_torso_lift_joint, '
        'r_gripper_r_screw_screw_joint, r_gripper_l_screw_screw_joint and 12 more): ')
    assert loops.location.line == 826  # the first one's <gazebo> block
    checked = check(load(str(out / 'model.sdf')))
    assert len([d for d in checked if d.code is Code.KINEMATIC_LOOP]) == 15
