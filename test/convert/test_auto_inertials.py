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
Tests of ``auto_inertials`` (``--auto-inertials DENSITY``) on :mod:`mesh_robot`.

The expected mass properties come from the closed forms of the primitives, trimesh's own mass
properties for the meshes, and the parallel-axis theorem in numpy; the physics probe keeps
the converted robots finite with their root fixed.
"""

import subprocess
import sys

from lxml import etree
from mesh_robot import make_mesh_robot
from mesh_robot import PACKAGE
import numpy as np
import pytest
from sdf_tools import batch_transforms
from sdf_tools import cli
from sdf_tools import transforms
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
import support

trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed (pip install '
                              "'.[test]')")
DENSITY = 1000.0


@pytest.fixture
def robot_files(tmp_path):
    return make_mesh_robot(tmp_path)


def convert(robot_files, text=None, **options):
    urdf = robot_files['urdf']
    robot = parse_urdf(text if text is not None else urdf.read_text(), str(urdf))
    packages = PackageResolver(PackagePath.from_environment([str(robot_files['src'])],
                                                            environ={}))
    options = {'auto_inertials': DENSITY, 'packages': packages,
               'input_folder': str(urdf.parent), **options}
    return urdf_to_sdf(robot, ConversionOptions(**options))


def inertials(sdf):
    """Return link name -> (mass, com, (3, 3) inertia in link axes) of an SDFormat model."""
    result = {}
    for link in etree.fromstring(sdf.encode()).iter('link'):
        inertial = link.find('inertial')
        x, y, z, roll, pitch, yaw = map(float, inertial.findtext('pose').split())
        v = [float(inertial.findtext(f'inertia/{k}')) for k in
             ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')]
        tensor = np.array([[v[0], v[1], v[2]], [v[1], v[3], v[4]], [v[2], v[4], v[5]]])
        r = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(roll, pitch, yaw))
        result[link.get('name')] = (float(inertial.findtext('mass')), np.array((x, y, z)),
                                    r @ tensor @ r.T)
    return result


def trimesh_solid(robot_files, name, scale, offset, hull=False):
    """Return trimesh's (mass, com, inertia) of a package mesh, scaled then moved (m)."""
    mesh = trimesh.load(str(robot_files['package'] / 'meshes' / name), force='mesh')
    mesh.apply_scale(scale)
    mesh = mesh.convex_hull if hull else mesh
    mesh.apply_translation(offset)
    mesh.density = DENSITY
    return mesh.mass, np.array(mesh.center_mass), np.array(mesh.moment_inertia)


def welded(parts):
    """Return (mass, com, inertia about com) of (mass, com, inertia about own com) parts."""
    mass = sum(m for m, _, _ in parts)
    com = sum(m * c for m, c, _ in parts) / mass
    tensor = sum(i + m * ((c - com) @ (c - com) * np.eye(3) - np.outer(c - com, c - com))
                 for m, c, i in parts)
    return mass, com, tensor


def assert_body(got, expected):
    assert got[0] == pytest.approx(expected[0], rel=1e-12)
    np.testing.assert_allclose(got[1], expected[1], atol=1e-12)
    np.testing.assert_allclose(got[2], expected[2], rtol=1e-9, atol=1e-12)


def test_links_get_the_mass_properties_of_their_collisions(robot_files):
    result = convert(robot_files)
    got = inertials(result.sdf)
    # base: a 0.4 x 0.4 x 0.2 box: m = 32 kg, I = m (b^2 + c^2) / 12 ...
    assert_body(got['base'], (32.0, np.zeros(3), np.diag((32 * 0.2 / 12, 32 * 0.2 / 12,
                                                          32 * 0.32 / 12))))
    # arm: the closed cube mesh, scaled, at its collision origin: trimesh's mass properties.
    assert_body(got['arm'], trimesh_solid(robot_files, 'cube.stl', (0.1, 0.1, 0.5),
                                          (-0.05, -0.05, 0.0)))
    # hand: the open mesh's convex hull, a cylinder turned about x and a sphere.
    r, length = 0.02, 0.1
    m = np.pi * r * r * length * DENSITY
    turn = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(np.pi / 2, 0.0, 0.0))
    cylinder = (m, np.array((0, 0, 0.15)), turn @ np.diag(
        (m * (3 * r * r + length ** 2) / 12, m * (3 * r * r + length ** 2) / 12,
         m * r * r / 2)) @ turn.T)
    ms = 4 / 3 * np.pi * 0.03 ** 3 * DENSITY
    sphere = (ms, np.array((0, 0, 0.2)), np.eye(3) * 0.4 * ms * 0.03 ** 2)
    hull = trimesh_solid(robot_files, 'open.stl', 0.1, (-0.05, -0.05, 0.0), hull=True)
    assert hull[0] == pytest.approx(1.0)  # the whole cube
    assert_body(got['hand'], welded([hull, cylinder, sphere]))
    assert set(got) == {'base', 'arm', 'hand'}  # tool: lumped into hand, massless
    assert [(w.code, w.entity) for w in result.warnings] == [
        (Code.AUTO_INERTIAL, "link 'base'"), (Code.AUTO_INERTIAL, "link 'arm'"),
        (Code.AUTO_INERTIAL, "link 'hand'"), (Code.AUTO_INERTIAL, "link 'hand'")]
    base, arm, open_mesh, hand = map(str, result.warnings)
    assert base == (f"{robot_files['urdf']}:5: warning: link 'base': has no <inertial>; it is "
                    'given the mass properties of its 1 collision shape(s) at 1000 kg/m^3: '
                    'mass 32 kg, centre of mass 0 0 0 m')
    assert open_mesh.endswith(f"link 'hand': package://{PACKAGE}/meshes/open.stl: the mesh is "
                              'not closed, so its convex hull stands for the solid in the mass '
                              'properties (--auto-inertials)')
    assert 'its 3 collision shape(s)' in hand


def test_what_is_given_or_cannot_be_computed(robot_files):
    text = robot_files['urdf'].read_text()
    given = text.replace('<link name="base">', '<link name="base"><inertial><mass value="2"/>'
                         '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
                         '</inertial>')
    result = convert(robot_files, given)
    assert inertials(result.sdf)['base'][0] == 2.0
    assert "link 'base'" not in ' '.join(map(str, result.warnings))
    # A kept link without collision keeps the placeholder, and its warning says why.
    kept = text.replace('name="tool_joint" type="fixed"', 'name="tool_joint" type="revolute"'
                        ).replace('<origin xyz="0 0 0.25"/></joint>', '<origin xyz="0 0 0.25"/>'
                                  '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
    result = convert(robot_files, kept)
    assert inertials(result.sdf)['tool'][0] == 1e-3
    (tool,) = [w for w in result.warnings if w.entity == "link 'tool'"]
    assert tool.code == Code.MASSLESS_LINK
    assert tool.message.startswith('has no <inertial> and no <collision> to compute one from; '
                                   'it is written with a placeholder inertial')
    # A mesh that is not there, or shapes without volume: no mass, the placeholder.
    for broken, reason in ((text.replace('meshes/cube.stl', 'meshes/gone.stl'),
                            f'package://{PACKAGE}/meshes/gone.stl: no such file: '
                            f"{robot_files['package']}/meshes/gone.stl"),
                           (text.replace('size="0.4 0.4 0.2"', 'size="0.4 0.4 0"'),
                            'they enclose no volume')):
        result = convert(robot_files, broken)
        (problem,) = [w for w in result.warnings if w.code == Code.AUTO_INERTIAL
                      and 'cannot be computed' in w.message]
        assert problem.message == ('has no <inertial>, and its mass properties cannot be '
                                   f'computed from its collision geometry: {reason}; it stays '
                                   'without mass')
        link = problem.entity.split("'")[1]
        assert inertials(result.sdf)[link][0] == 1e-3
        assert any(w.code == Code.MASSLESS_LINK and w.entity == problem.entity
                   for w in result.warnings)


def test_computed_masses_are_lumped(robot_files):
    text = robot_files['urdf'].read_text().replace('name="shoulder" type="revolute"',
                                                   'name="shoulder" type="fixed"')
    got = inertials(convert(robot_files, text).sdf)
    assert 'arm' not in got
    box = (32.0, np.zeros(3), np.diag((32 * 0.2 / 12, 32 * 0.2 / 12, 32 * 0.32 / 12)))
    # the arm, through the shoulder's origin (0 0 0.1, pitch 0.4), in base coordinates
    m, c, i = trimesh_solid(robot_files, 'cube.stl', (0.1, 0.1, 0.5), (-0.05, -0.05, 0.0))
    r = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(0.0, 0.4, 0.0))
    arm = (m, np.array((0, 0, 0.1)) + r @ c, r @ i @ r.T)
    assert_body(got['base'], welded([box, arm]))


def test_the_density_is_checked_and_trimesh_required(robot_files, monkeypatch):
    for density in (0.0, -1.0, float('nan'), float('inf'), '1000'):
        with pytest.raises(ConversionError, match='auto_inertials .* must be a finite number '
                           'greater than 0') as caught:
            convert(robot_files, auto_inertials=density)
        assert caught.value.diagnostics[0].code == Code.BAD_OPTION
    monkeypatch.setitem(sys.modules, 'trimesh', None)
    with pytest.raises(ConversionError, match='trimesh') as caught:
        convert(robot_files)
    assert caught.value.diagnostics[0].code == Code.NO_TRIMESH


def test_cli_auto_inertials(robot_files, capsys, monkeypatch):
    urdf = str(robot_files['urdf'])
    for main, argv in ((cli.urdf2sdf_main, [urdf]), (cli.main, ['convert', urdf])):
        assert main(argv + ['--auto-inertials', '1000']) == 0
        out, err = capsys.readouterr()
        assert inertials(out)['base'][0] == 32.0
        assert "warning: link 'arm': has no <inertial>; it is given" in err
        for bad in ('0', '-5', 'nan', 'heavy'):
            assert main(argv + ['--auto-inertials', bad]) == 2
            assert ('argument --auto-inertials: the density (kg/m^3) must be a finite number '
                    f"greater than 0, got '{bad}'") in capsys.readouterr()[1]
    monkeypatch.setitem(sys.modules, 'trimesh', None)
    assert cli.urdf2sdf_main([urdf, '--auto-inertials', '1000']) == 1
    assert f"Error: {urdf}:14: link 'arm': package://mesh_robot/meshes/cube.stl: " \
        'auto_inertials (--auto-inertials) reads meshes with the trimesh package, which is not ' \
        'installed' in capsys.readouterr()[1]


def test_primitive_shapes_need_no_trimesh(monkeypatch):
    monkeypatch.setitem(sys.modules, 'trimesh', None)
    text = ('<robot name="r"><link name="a"><collision><geometry><box size="0.1 0.2 0.5"/>'
            '</geometry></collision><collision><origin xyz="0 0 1"/><geometry>'
            '<cylinder radius="0.1" length="0.2"/></geometry></collision></link></robot>')
    sdf = urdf_to_sdf(parse_urdf(text), ConversionOptions(auto_inertials=DENSITY)).sdf
    box, cylinder = 10.0, DENSITY * np.pi * 0.1 ** 2 * 0.2
    mass, com, _ = inertials(sdf)['a']
    assert mass == pytest.approx(box + cylinder, rel=1e-12)
    np.testing.assert_allclose(com, (0.0, 0.0, cylinder / (box + cylinder)), rtol=1e-12)


def test_a_conversion_without_the_option_never_imports_trimesh(robot_files):
    code = ('import sys\nfrom sdf_tools.cli import urdf2sdf_main\n'
            'assert urdf2sdf_main(sys.argv[1:]) == 0\n'
            "assert 'trimesh' not in sys.modules, 'trimesh imported'\n"
            "assert 'sdf_tools.convert.auto_inertials' not in sys.modules\n")
    done = subprocess.run([sys.executable, '-c', code, str(robot_files['urdf']), '-q',
                           '--mesh-uris', 'file'], capture_output=True, text=True, timeout=120,
                          cwd=support.REPO_DIR)
    assert done.returncode == 0, done.stderr


# --- in a physics engine --------------------------------------------------------------------

probe_needed = pytest.mark.skipif(not support.probe_built(), reason=support.NO_PROBE)


def assert_stands(sdf, tmp_path):
    """Step ``sdf`` 500 times with its root fixed: finite, every mass valid, root in place."""
    path = tmp_path / 'robot.sdf'
    path.write_text(sdf)
    step = support.run_probe('step', path, 500, '--fix-root')
    report = support.probe_report(step.stdout)
    assert report.get('finite', '').startswith('yes'), step.stdout[-1500:] + step.stderr[-1500:]
    assert report['inertia_invalid'].split()[0] == '0', report['inertia_invalid']
    assert float(report['mass_engine']) == pytest.approx(float(report['mass_sdf']), rel=1e-9)
    assert float(report['root_displacement'].split()[0]) == 0.0
    return report


@probe_needed
def test_the_mesh_robot_stands_in_the_engine(robot_files, tmp_path):
    report = assert_stands(convert(robot_files, mesh_uris='file').sdf, tmp_path)
    assert float(report['mass_sdf']) == pytest.approx(32 + 5 + 1 + np.pi * 4e-5 * 1e3
                                                      + 4 / 3 * np.pi * 2.7e-5 * 1e3)
    speed = float(report['max_rel_speed'].split()[0])
    assert 0.1 < speed < 10.0  # the tilted arm swings under gravity, and nothing blows up


@probe_needed
@pytest.mark.skipif(not (support.CORPUS_DIR / 'dual_panda.urdf').is_file(),
                    reason=support.NO_CORPUS)
def test_a_corpus_robot_without_inertials_stands_in_the_engine(tmp_path):
    path = support.CORPUS_DIR / 'dual_panda.urdf'
    robot = parse_urdf(path.read_bytes(), path.name)
    assert all(link.inertial is None for link in robot.links)
    result = urdf_to_sdf(robot, ConversionOptions(auto_inertials=DENSITY))
    computed = [w for w in result.warnings if w.code == Code.AUTO_INERTIAL
                and 'is given the mass properties' in w.message]
    assert len(computed) >= 20  # the links with primitive collisions (the meshes are absent)
    report = assert_stands(result.sdf, tmp_path)
    assert float(report['mass_sdf']) > 100.0
