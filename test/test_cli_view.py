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


"""Tests of ``sdf_tools view`` (sdf_tools/cli/view.py): the picture command."""

import sys

from pictures import drawn
from pictures import pixels
import pytest
from sdf_tools import cli
import support

EXAMPLE = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
BOX = ('<robot name="r">\n<link name="a">\n<visual><geometry><box size="1 1 1"/></geometry>'
       '</visual>\n<visual><geometry><mesh filename="package://gone/m.stl"/></geometry>'
       '</visual>\n</link>\n</robot>\n')


def run(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def matplotlib():
    return pytest.importorskip('matplotlib', reason="pip install 'sdf_tools[view]'")


def test_view_draws_the_demo_at_joint_values_with_xacro_arguments(matplotlib, capsys,
                                                                  tmp_path):
    out = tmp_path / 'arm.png'
    code, stdout, err = run(['view', str(EXAMPLE), 'prefix:=left_', 'left_elbow=0.5', '-o',
                             str(out), '--view', 'side', '--size', '320x240'], capsys)
    assert (code, stdout, err) == (0, '', '')
    rgb = pixels(out.read_bytes())
    assert rgb.shape == (240, 320, 3) and drawn(rgb).sum() > 5000
    bent = tmp_path / 'bent.png'
    assert run(['view', str(EXAMPLE), 'prefix:=left_', 'left_elbow=1.5', '-o', str(bent),
                '--view', 'side', '--size', '320x240'], capsys)[0] == 0
    assert bent.read_bytes() != out.read_bytes()


def test_view_writes_svg_by_the_extension_and_refuses_others(matplotlib, capsys, tmp_path):
    out = tmp_path / 'arm.svg'
    assert run(['view', str(EXAMPLE), '-o', str(out), '--view', '30,20'], capsys)[0] == 0
    assert out.read_text().startswith('<?xml')
    code, _, err = run(['view', str(EXAMPLE), '-o', str(tmp_path / 'arm.jpg')], capsys)
    assert code == 2 and "cannot tell the picture format of '" in err
    assert not (tmp_path / 'arm.jpg').exists()


@pytest.mark.parametrize('argv, message', [
    (['--view', 'back'], 'argument --view: expected one of front, side, top, iso or '
                         "AZIMUTH,ELEVATION in degrees, got 'back'"),
    (['--size', '10x10'], 'argument --size: expected WIDTHxHEIGHT in pixels (16 to 8192'),
    (['wrist=1'], "sdf_tools view: error: not a joint coordinate of 'demo_arm': wrist; use: "),
    (['left_wheel_joint=x'], 'joint value left_wheel_joint=x must be a finite number'),
])
def test_view_usage_errors_exit_2(matplotlib, capsys, tmp_path, argv, message):
    code, _, err = run(['view', str(EXAMPLE), '-o', str(tmp_path / 'x.png'), *argv], capsys)
    assert code == 2 and message in err, err
    assert not (tmp_path / 'x.png').exists()


def test_view_of_a_model_too_large_to_draw_is_an_error(matplotlib, capsys, tmp_path):
    robot = tmp_path / 'p.urdf'
    robot.write_text('<robot name="r"><link name="a"><visual><geometry><box size="1 1 1"/>'
                     '</geometry></visual></link><link name="b"/><joint name="j" '
                     'type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    code, stdout, err = run(['view', str(robot), 'j=1e308', '--size', '64x64', '-o',
                             str(tmp_path / 'p.png')], capsys)
    assert (code, stdout) == (1, '')
    assert err == ('Error: the model is too large to draw: it reaches 1e+308 m from its '
                   'origin (at most 1e+100 m)\n')
    assert sorted(p.name for p in tmp_path.iterdir()) == ['p.urdf']


def test_view_needs_an_output_that_is_not_its_input(capsys, tmp_path):
    code, _, err = run(['view', str(EXAMPLE)], capsys)
    assert code == 2 and 'the following arguments are required: -o/--output' in err
    robot = tmp_path / 'robot.png'  # a description named like a picture
    robot.write_text(BOX)
    code, _, err = run(['view', str(robot), '-o', str(robot)], capsys)
    assert code == 2 and f'refusing to write {robot}: it is the input; nothing was written' in err
    assert robot.read_text() == BOX


def test_view_warns_about_what_it_does_not_draw_at_its_line(matplotlib, capsys, tmp_path):
    robot = tmp_path / 'robot.urdf'
    robot.write_text(BOX)
    code, _, err = run(['view', str(robot), '-o', str(tmp_path / 'r.png'), '--package-path',
                        str(tmp_path)], capsys)
    assert code == 0
    assert err.startswith(f"{robot}:4: warning: link 'a': package://gone/m.stl: package "
                          "'gone' not found")
    assert err.rstrip().endswith('its meshes are not drawn')
    assert run(['view', str(robot), '-q', '-o', str(tmp_path / 'r.png')], capsys)[2] == ''


def test_view_without_matplotlib_exits_1_naming_the_extra(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, 'matplotlib', None)  # import matplotlib raises
    code, _, err = run(['view', str(EXAMPLE), '-o', str(tmp_path / 'x.png')], capsys)
    assert code == 1 and "pip install 'sdf_tools[view]'" in err and 'Traceback' not in err
    assert not (tmp_path / 'x.png').exists()


def test_view_draws_an_exported_folders_meshes_found_on_the_resource_path(matplotlib, capsys,
                                                                          tmp_path,
                                                                          monkeypatch):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import make_mesh_robot
    tree = make_mesh_robot(tmp_path)
    (tmp_path / 'models').mkdir()
    folder = tmp_path / 'models' / 'arm_model'
    assert cli.main(['export', str(tree['urdf']), '-o', str(folder), '-q',
                     '--package-path', str(tree['src'])]) == 0
    for name in ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                 'GAZEBO_MODEL_PATH'):
        monkeypatch.delenv(name, raising=False)
    capsys.readouterr()
    picture = tmp_path / 'arm.png'
    argv = ['view', str(folder / 'model.sdf'), '-o', str(picture), '--collision']
    code, _, err = run(argv, capsys)
    assert code == 0 and "no model folder 'arm_model' in GZ_SIM_RESOURCE_PATH (not set)" in err
    without = drawn(pixels(picture.read_bytes())).sum()
    code, _, err = run(argv + ['--resource-path', str(tmp_path / 'models')], capsys)
    assert (code, err) == (0, '')
    assert drawn(pixels(picture.read_bytes())).sum() > without + 5000  # the arm's meshes
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(tmp_path / 'models'))
    assert run(argv, capsys)[:3:2] == (0, '')


def test_view_warns_about_joint_values_outside_the_limits(matplotlib, capsys, tmp_path):
    robot = tmp_path / 'r.urdf'
    robot.write_text('<robot name="r">\n<link name="a"/><link name="b"/>\n<joint name="j" '
                     'type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
                     '<limit lower="0" upper="0.2" effort="1" velocity="1"/></joint>\n</robot>')
    code, _, err = run(['view', str(robot), 'j=-0.5', '-o', str(tmp_path / 'r.png')], capsys)
    assert code == 0 and f"{robot}:3: warning: joint 'j': j=-0.5 is outside its limits (0 to " \
        '0.2 m); used as given\n' in err
