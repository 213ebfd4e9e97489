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


"""Tests of sdf_tools.drawing.scene: a robot's triangles, and what is not drawn."""

import sys

import numpy as np
import pytest
from sdf_tools.drawing.scene import build_scene
from sdf_tools.drawing.scene import COLLISION_COLOR
from sdf_tools.drawing.scene import SceneOptions
from sdf_tools.drawing.scene import shared
from sdf_tools.drawing.scene import VISUAL_COLOR
from sdf_tools.errors import Code
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.model import Link
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Robot
from sdf_tools.model import Visual
from sdf_tools.resources.lookup import find_resources
from sdf_tools.xmlio.element import Element


def _robot(link_body: str, name: str = 'a') -> str:
    return f'<robot name="r"><link name="{name}">{link_body}</link></robot>'


def _turn_z(angle: float, xyz=(0.0, 0.0, 0.0)) -> np.ndarray:
    t = np.eye(4)
    t[:2, :2] = [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]
    t[:3, 3] = xyz
    return t


def test_visuals_are_placed_by_their_link_pose_and_origin():
    robot = parse_urdf(_robot(
        '<visual><origin xyz="1 0 0"/><geometry><box size="0.2 0.4 0.6"/></geometry>'
        '<material name="m"><color rgba="0.1 0.2 0.3 1"/></material></visual>'
        '<visual><geometry><box size="1 1 1"/></geometry></visual>'))
    scene = build_scene(robot, {'a': _turn_z(np.pi / 2, (0, 0, 5))})
    assert scene.triangles.shape == (24, 3, 3) and scene.closed.all()
    first = np.unique(scene.triangles[:12].reshape(-1, 3).round(12), axis=0)
    # The box's centre at (0, 1, 5); its x size (0.2) along the model's y.
    assert first.min(axis=0) == pytest.approx([-0.2, 0.9, 4.7])
    assert first.max(axis=0) == pytest.approx([0.2, 1.1, 5.3])
    assert (scene.colors[:12] == (0.1, 0.2, 0.3, 1.0)).all()
    assert (scene.colors[12:] == VISUAL_COLOR).all()
    assert scene.frames == pytest.approx(_turn_z(np.pi / 2, (0, 0, 5))[None])


def test_collisions_are_drawn_instead_on_request():
    robot = parse_urdf(_robot('<visual><geometry><box size="1 1 1"/></geometry></visual>'
                              '<collision><geometry><sphere radius="2"/></geometry></collision>'))
    scene = build_scene(robot, {'a': np.eye(4)}, SceneOptions(collision=True))
    assert np.linalg.norm(scene.triangles, axis=2).max() == pytest.approx(2.0)
    assert (scene.colors == COLLISION_COLOR).all()


def test_links_without_a_pose_are_not_drawn():
    robot = parse_urdf(_robot('<visual><geometry><box size="1 1 1"/></geometry></visual>'))
    scene = build_scene(robot, {})
    assert len(scene.triangles) == 0 and len(scene.frames) == 0 and scene.warnings == ()


def test_what_cannot_be_drawn_is_left_out_with_a_warning_naming_it(tmp_path):
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    (tmp_path / 'junk.stl').write_text('solid x\nthis is not STL\n')
    mesh = '<visual><geometry><mesh filename="{}"/></geometry></visual>'
    robot = parse_urdf(_robot(''.join(mesh.format(uri) for uri in (
        'missing.stl', 'junk.stl', 'package://nowhere/a.stl', 'package://nowhere/b.stl',
        'https://example.com/c.stl', 'missing.stl')) +
        '<visual><geometry><box size="1 1 1"/></geometry></visual>'), 'robot.urdf')
    plane = Visual(geometry=OtherGeometry('plane', (Element('plane'),)))
    robot = Robot('r', (robot.links[0], Link('b', visuals=(plane,))))
    nowhere = find_resources(environ={})
    scene = build_scene(robot, {'a': np.eye(4), 'b': np.eye(4)},
                        SceneOptions(folder=str(tmp_path), resources=nowhere))
    assert len(scene.triangles) == 12  # the box
    found = [(w.code, w.entity, w.message) for w in scene.warnings]
    assert [code for code, *_ in found] == [
        Code.MISSING_FILE, Code.NOT_DRAWN, Code.PACKAGE_NOT_FOUND, Code.NOT_DRAWN,
        Code.NOT_DRAWN]
    assert found[0][2] == f'missing.stl: no such file: {tmp_path / "missing.stl"}; not drawn'
    assert found[1][2].startswith(f'junk.stl: {tmp_path / "junk.stl"} holds no triangles')
    assert "package 'nowhere' not found" in found[2][2]  # once for its two meshes
    assert found[3][2] == 'https://example.com/c.stl: not a local file; not drawn'
    assert found[4][1:] == ("link 'b'", '<plane> is not drawn (no shape for it in a picture)')
    assert all(w.location.source == 'robot.urdf' for w in scene.warnings[:4])


def test_sdformat_model_uris_are_found_as_packages(tmp_path):
    """Gazebo finds model://pkg/... through its resource path; a picture, as package://."""
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import make_mesh_robot
    from sdf_tools.formats.sdf.reader import parse_sdf
    tree = make_mesh_robot(tmp_path)
    robot = parse_sdf('<sdf version="1.9"><model name="m"><link name="a"><visual name="v">'
                      '<geometry><mesh><uri>model://mesh_robot/meshes/cube.stl</uri>'
                      '<scale>2 2 2</scale></mesh></geometry></visual></link></model></sdf>')
    resources = find_resources([str(tree['src'])], environ={})
    scene = build_scene(robot, {'a': np.eye(4)}, SceneOptions(resources=resources))
    assert scene.warnings == () and len(scene.triangles) == 12 and scene.closed.all()
    assert scene.triangles.reshape(-1, 3).max(axis=0) == pytest.approx([2, 2, 2])


def test_without_trimesh_meshes_are_left_out_with_one_warning(tmp_path, monkeypatch):
    from mesh_robot import cube_stl
    (tmp_path / 'cube.stl').write_text(cube_stl())
    robot = parse_urdf(_robot(
        '<visual><geometry><mesh filename="cube.stl"/></geometry></visual>'
        '<visual><geometry><mesh filename="cube.stl" scale="2 2 2"/></geometry></visual>'
        '<visual><geometry><cylinder radius="1" length="1"/></geometry></visual>'))
    monkeypatch.setitem(sys.modules, 'trimesh', None)  # import trimesh raises ImportError
    scene = build_scene(robot, {'a': np.eye(4)}, SceneOptions(folder=str(tmp_path)))
    assert len(scene.triangles) > 0 and scene.closed.all()  # the cylinder
    (warning,) = scene.warnings
    assert warning.code == Code.NO_TRIMESH
    assert "pip install 'sdf_tools[view]'" in warning.message


def test_meshes_are_read_with_their_scale_and_decimated_when_large(tmp_path):
    trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
    pytest.importorskip('fast_simplification', reason='fast-simplification is not installed')
    sphere = trimesh.creation.icosphere(subdivisions=5, radius=1.0)  # 20480 faces
    sphere.export(str(tmp_path / 'ball.stl'))
    robot = parse_urdf(_robot(
        '<visual><geometry><mesh filename="ball.stl" scale="0.5 0.5 2"/></geometry></visual>'))
    options = SceneOptions(folder=str(tmp_path), max_faces=1000)
    scene = build_scene(robot, {'a': np.eye(4)}, options)
    assert 500 <= len(scene.triangles) <= 1000
    corners = scene.triangles.reshape(-1, 3)
    assert np.abs(corners).max(axis=0) == pytest.approx([0.5, 0.5, 2.0], rel=0.02)
    whole = build_scene(robot, {'a': np.eye(4)}, SceneOptions(folder=str(tmp_path),
                                                              max_faces=20480))
    assert len(whole.triangles) == 20480 and whole.closed.all()


def test_shared_triangles_are_those_both_scenes_have_at_the_same_place():
    robot = parse_urdf(_robot('<visual><geometry><box size="1 1 1"/></geometry></visual>'))
    here = build_scene(robot, {'a': np.eye(4)})
    nudged = build_scene(robot, {'a': _turn_z(0.0, (1e-9, 0, 0))})
    moved = build_scene(robot, {'a': _turn_z(0.0, (0.5, 0, 0))})
    assert all(mask.all() for mask in shared(here, nudged, 1e-6))
    in_moved, in_here = shared(here, moved, 1e-6)
    # Moved by half its size along x: no triangle is at the same place any more.
    assert not in_moved.any() and not in_here.any()
