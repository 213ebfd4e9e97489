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
``sdf_tools diff`` (sdf_tools/cli/diff.py): the report, --json and the exit codes of a CI gate.

0: equal, 1: different, 2: a usage error or an input that cannot be read.
"""

import json

from diff_support import ARM
from diff_support import edited
from diff_support import line_of
from sdf_tools import cli

XACRO = ARM.replace('<robot name="arm">', '<robot name="arm" xmlns:xacro="http://www.ros.org/'
                    'wiki/xacro">\n  <xacro:arg name="reach" default="0.4"/>').replace(
    '<origin xyz="0 0 0.4"/>', '<origin xyz="0 0 $(arg reach)"/>')


def run(capsys, *argv):
    code = cli.main(['diff', *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def files(tmp_path, **texts):
    paths = []
    for name, text in texts.items():
        path = tmp_path / name.replace('_', '.')
        path.write_text(text)
        paths.append(path)
    return paths


def test_equal_descriptions_exit_0(tmp_path, capsys):
    a, b = files(tmp_path, a_urdf=ARM, b_urdf=ARM.replace('0.4', '0.40'))
    code, out, err = run(capsys, a, b)
    assert code == 0 and out.endswith('equal (tolerance 1e-06)\n') and err == ''


def test_different_descriptions_exit_1_with_the_report(tmp_path, capsys):
    a, b = files(tmp_path, a_urdf=ARM, b_urdf=edited('<mass value="0.5"/>',
                                                     '<mass value="0.6"/>'))
    code, out, err = run(capsys, a, b)
    line = line_of(ARM, '<link name="fore"')
    assert code == 1
    assert f'  mass: 0.5 | 0.6  [{a}:{line} | {b}:{line}]' in out.splitlines()
    assert run(capsys, a, b, '--tol', '0.5')[0] == 0  # within a coarse tolerance


def test_json_is_the_report_for_programs(tmp_path, capsys):
    a, b = files(tmp_path, a_urdf=ARM, b_urdf=edited('damping="0.1"', 'damping="0.2"'))
    code, out, err = run(capsys, a, b, '--json', '--configurations', '2', '--seed', '7')
    data = json.loads(out)
    assert code == 1 and data['equal'] is False
    assert [(d['name'], d['kind'], d['field'], d['a'], d['b']) for d in data['differences']] == [
        ('elbow', 'dynamics', 'damping', 0.1, 0.2)]
    assert len(data['poses']['configurations']) == 3


def test_xacro_arguments_apply_to_both_or_one_side(tmp_path, capsys):
    a, = files(tmp_path, arm_xacro=XACRO)
    assert run(capsys, a, a)[0] == 0
    code, out, _ = run(capsys, a, a, '--b-arg', 'reach:=0.5')
    assert code == 1 and "joint 'elbow'" in out and f'{a}:' in out
    assert run(capsys, a, a, 'reach:=0.5')[0] == 0


def test_an_unreadable_input_exits_2_naming_its_file_and_line(tmp_path, capsys):
    a, b = files(tmp_path, a_urdf=ARM, b_urdf=edited('<mass value="0.5"/>',
                                                     '<mass value="x"/>'))
    code, out, err = run(capsys, a, b)
    assert code == 2 and out == ''
    assert f'{b}:{line_of(ARM, "<mass value=")}:' not in err  # the first <mass> is fine
    assert f'{b}:{line_of(ARM, "0.5")}:' in err
    code, out, err = run(capsys, a, tmp_path / 'missing.urdf')
    assert code == 2 and 'missing.urdf' in err and 'Traceback' not in err


def test_usage_errors_exit_2(tmp_path, capsys):
    a, = files(tmp_path, a_urdf=ARM)
    assert run(capsys, a)[0] == 2
    assert run(capsys, a, a, '--tol', '-1')[0] == 2
    code, _, err = run(capsys, '-', '-')
    assert code == 2 and 'only one of A and B' in err


def test_picture_overlays_both_sides_where_they_differ(tmp_path, capsys):
    import pytest
    pytest.importorskip('matplotlib', reason='matplotlib is not installed')
    from pictures import drawn
    from pictures import pixels
    from sdf_tools.drawing import OVERLAY_COLORS
    moved = ARM.replace('<origin xyz="0 0 0.4"/>', '<origin xyz="0 0.3 0.4"/>')
    a, b = files(tmp_path, a_urdf=ARM, b_urdf=moved)
    picture = tmp_path / 'both.png'
    code, out, _ = run(capsys, a, b, '--picture', picture)
    assert code == 1 and "joint 'elbow'" in out
    rgb = pixels(picture.read_bytes())
    assert drawn(rgb).any()
    colours = {tuple(round(255 * c) for c in color[:3]) for color in OVERLAY_COLORS}
    # Shaded faces vary in brightness: a side's colour shows as pixels whose hue is its
    # colour's (the moved forearm on both sides, the shared base and upper arm in grey).
    found = set()
    for r, g, b_ in rgb.reshape(-1, 3)[drawn(rgb).reshape(-1)]:
        for colour in colours:
            if _same_hue((int(r), int(g), int(b_)), colour):
                found.add(colour)
    assert found == colours
    # Equal sides: only the shared colour.
    same = tmp_path / 'same.png'
    assert run(capsys, a, a, '--picture', same)[0] == 0
    rgb = pixels(same.read_bytes())
    blue, orange = (tuple(round(255 * c) for c in color[:3]) for color in OVERLAY_COLORS[:2])
    shown = rgb.reshape(-1, 3)[drawn(rgb).reshape(-1)]
    assert not any(_same_hue(tuple(map(int, p)), colour)
                   for p in shown for colour in (blue, orange))


def test_picture_draws_each_sides_meshes_from_its_own_folder(tmp_path, capsys):
    import pytest
    pytest.importorskip('matplotlib', reason='matplotlib is not installed')
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import cube_stl
    paths = []
    for side in ('a', 'b'):
        (tmp_path / side / 'meshes').mkdir(parents=True)
        (tmp_path / side / 'meshes' / f'{side}.stl').write_text(cube_stl())
        path = tmp_path / side / 'r.urdf'
        path.write_text(f'<robot name="r"><link name="l"><visual><geometry><mesh '
                        f'filename="meshes/{side}.stl"/></geometry></visual></link></robot>')
        paths.append(path)
    code, _, err = run(capsys, *paths, '--picture', tmp_path / 'both.png')
    assert (code, err) == (0, '')  # B's mesh used to be looked for beside A, and not found


def test_picture_format_is_checked_before_loading(tmp_path, capsys):
    a, b = files(tmp_path, a_urdf=ARM, b_urdf=ARM)
    code, _, err = run(capsys, a, b, '--picture', tmp_path / 'both.jpg')
    assert code == 2 and 'name a .png or .svg file' in err
    svg = tmp_path / 'arm.svg'  # a URDF, whatever its name says
    svg.write_text(ARM)
    code, _, err = run(capsys, a, svg, '--picture', svg)
    assert code == 2 and f'refusing to write {svg}: it is the input; nothing was written' in err


def test_a_picture_that_cannot_be_named_is_a_usage_error_before_comparing(tmp_path, capsys,
                                                                          monkeypatch):
    a, = files(tmp_path, a_urdf=ARM)
    (tmp_path / 'folder.png').mkdir()
    for picture, why in ((tmp_path / 'no' / 'x.png', 'the folder that would hold it does not '
                          'exist'), (tmp_path / 'folder.png', 'it is a folder')):
        code, out, err = run(capsys, a, a, '--picture', picture)
        assert (code, out) == (2, '')
        assert err == f'sdf_tools diff: error: --picture {picture}: {why}\n'
    import sdf_tools.drawing
    from sdf_tools.errors import Diagnostic
    from sdf_tools.errors import SdfToolsError

    def missing():
        raise SdfToolsError(Diagnostic('matplotlib is not installed'))

    monkeypatch.setattr(sdf_tools.drawing, 'require_matplotlib', missing)
    code, out, err = run(capsys, a, a, '--picture', tmp_path / 'x.png')
    assert (code, out) == (1, '')  # a missing optional tool: 1, as for view
    assert err == 'Error: matplotlib is not installed\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['a.urdf', 'folder.png']


def test_a_picture_that_cannot_be_made_leaves_the_exit_code_the_comparisons(tmp_path, capsys,
                                                                            monkeypatch):
    import pytest
    pytest.importorskip('matplotlib', reason='matplotlib is not installed')
    import sdf_tools.drawing
    a, b = files(tmp_path, a_urdf=ARM, b_urdf=edited('<mass value="0.5"/>',
                                                     '<mass value="0.6"/>'))
    picture = tmp_path / 'x.png'

    def full(self, path):
        raise OSError(28, 'No space left on device', path)

    monkeypatch.setattr(sdf_tools.drawing.Picture, 'save', full)
    for other, expected in ((a, 0), (b, 1)):
        code, out, err = run(capsys, a, other, '--picture', picture, '-q')
        assert code == expected and out.endswith('equal (tolerance 1e-06)\n' if expected == 0
                                                 else '1 difference (tolerance 1e-06)\n')
        assert err == f'Error: {picture}: No space left on device\n'
    monkeypatch.undo()

    def no_tree(robot):
        from sdf_tools.errors import Diagnostic
        from sdf_tools.errors import KinematicsError
        raise KinematicsError(Diagnostic('no kinematic tree'))

    monkeypatch.setattr('sdf_tools.cli.diff._zero_poses', no_tree)
    dangling = tmp_path / 'dangling.urdf'
    dangling.write_text(ARM.replace('</joint>', '<mimic joint="nope"/></joint>', 1))
    code, out, err = run(capsys, dangling, dangling, '--picture', picture, '-q')
    assert code == 0 and out.endswith('equal (tolerance 1e-06)\n')
    assert err == f'Error: no kinematic tree\nsdf_tools diff: the picture {picture} is not ' \
        'written\n'
    assert not picture.exists()


def test_a_side_whose_mimic_names_a_missing_joint_is_drawn(tmp_path, capsys):
    import pytest
    pytest.importorskip('matplotlib', reason='matplotlib is not installed')
    from pictures import drawn
    from pictures import pixels
    dangling = tmp_path / 'dangling.urdf'
    dangling.write_text(ARM.replace('</joint>', '<mimic joint="nope"/></joint>', 1))
    picture = tmp_path / 'x.png'
    code, out, err = run(capsys, dangling, dangling, '--picture', picture, '-q')
    assert code == 0 and 'poses not compared: a side has no kinematic tree' in out, err
    assert err == '' and drawn(pixels(picture.read_bytes())).any()


def _same_hue(pixel, colour) -> bool:
    """Return whether a shaded pixel has ``colour``'s hue (its channels in the same ratios)."""
    import colorsys
    h1, s1, v1 = colorsys.rgb_to_hsv(*(c / 255 for c in pixel))
    h2, s2, _ = colorsys.rgb_to_hsv(*(c / 255 for c in colour))
    if s2 < 0.1:  # grey: any brightness without colour
        return s1 < 0.1 and v1 < 0.99
    return s1 > 0.3 and min(abs(h1 - h2), 1 - abs(h1 - h2)) < 0.03


def _exported_mesh_robot(tmp_path):
    """Write the mesh robot and export it to tmp_path/models/arm_model; return both files."""
    from mesh_robot import make_mesh_robot
    tree = make_mesh_robot(tmp_path)
    (tmp_path / 'models').mkdir()
    folder = tmp_path / 'models' / 'arm_model'
    assert cli.main(['export', str(tree['urdf']), '-o', str(folder), '-q',
                     '--package-path', str(tree['src'])]) == 0
    assert 'model://arm_model/meshes/cube.stl' in (folder / 'model.sdf').read_text()
    return tree, folder / 'model.sdf'


def test_an_exported_folders_model_uris_are_found_on_the_resource_path(tmp_path, capsys,
                                                                       monkeypatch):
    tree, exported = _exported_mesh_robot(tmp_path)
    capsys.readouterr()
    for name in ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                 'GAZEBO_MODEL_PATH'):
        monkeypatch.delenv(name, raising=False)
    urdf = ('--package-path', tree['src'], tree['urdf'], exported)
    code, out, _ = run(capsys, *urdf)  # the model folder is nowhere to be found
    assert code == 1 and out.count(' mesh: ') == 4
    code, out, _ = run(capsys, *urdf, '--resource-path', tmp_path / 'models')
    assert code == 0 and out.endswith('equal (tolerance 1e-06)\n'), out
    monkeypatch.setenv('SDF_PATH', str(tmp_path / 'models'))
    assert run(capsys, *urdf)[0] == 0


def test_a_file_compared_with_itself_warns_once(tmp_path, capsys):
    a, = files(tmp_path, a_urdf=ARM.replace('<link name="base">', '<link name="base"><orgin/>'))
    code, _, err = run(capsys, a, a)
    assert code == 0 and err == f"{a}:2: warning: link 'base': unknown element <orgin> in " \
        '<link> is ignored\n'
