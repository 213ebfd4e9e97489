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
Tests of sdf_tools.drawing.render: pictures read back, pixel by pixel.

The robots' geometry is placed by hand (rotations about one axis) and compared with what the
picture shows: where it is drawn, what hides what, how faces are shaded.
"""

import math
import sys

import numpy as np
from pictures import drawn
from pictures import drawn_extent
from pictures import pixel_size
from pictures import pixels
import pytest
from sdf_tools.drawing import view
from sdf_tools.drawing import ViewOptions
from sdf_tools.errors import Code
from sdf_tools.errors import SdfToolsError
from sdf_tools.formats.urdf.reader import parse_urdf

pytest.importorskip('matplotlib', reason="needs matplotlib: pip install 'sdf_tools[view]'")

#: A base box and an arm box on a hinge about x (in the front view, a turn in the picture).
TWO_BOXES = """<robot name="two_boxes">
  <material name="blue"><color rgba="0.1 0.2 0.7 1"/></material>
  <link name="base"><visual><origin xyz="0 0 0.1"/><geometry><box size="0.3 0.4 0.2"/>
    </geometry><material name="blue"/></visual></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0.1 0.2"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <link name="arm"><visual><origin xyz="0 0 0.3" rpy="0.3 0 0"/>
    <geometry><box size="0.1 0.1 0.6"/></geometry><material name="blue"/></visual></link>
</robot>"""


def _rotation(axis: str, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    i, j = {'x': (1, 2), 'y': (2, 0), 'z': (0, 1)}[axis]
    r = np.eye(3)
    r[i, i], r[i, j], r[j, i], r[j, j] = c, -s, s, c
    return r


def _corners(size, centre=(0.0, 0.0, 0.0)) -> np.ndarray:
    """Return the 8 corners of a box of ``size`` centred at ``centre`` (its frame's axes)."""
    half = np.array(size) / 2.0
    return np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * half + \
        np.array(centre)


def _two_boxes_corners(hinge: float) -> np.ndarray:
    """Return the corners of both boxes in the model frame, by hand."""
    base = _corners((0.3, 0.4, 0.2), (0, 0, 0.1))
    arm = _corners((0.1, 0.1, 0.6)) @ _rotation('x', 0.3).T + (0, 0, 0.3)  # in its link
    arm = arm @ _rotation('x', hinge).T + (0, 0.1, 0.2)
    return np.concatenate([base, arm])


def _assert_extent(picture, size, expected):
    """Check that the drawn pixels span ``expected`` (u_min, u_max, v_min, v_max), to 1.5 px."""
    du, dv = pixel_size(picture.window, size)
    got = drawn_extent(drawn(pixels(picture.data)), picture.window)
    assert got[0] == pytest.approx(expected[0], abs=1.5 * du)
    assert got[1] == pytest.approx(expected[1], abs=1.5 * du)
    assert got[2] == pytest.approx(expected[2], abs=1.5 * dv)
    assert got[3] == pytest.approx(expected[3], abs=1.5 * dv)


def test_the_drawn_extent_is_the_geometry_at_its_configuration():
    """Front view (y right, z up) of a fixed window: the pixels map back to the boxes."""
    size, window = (800, 600), (-0.6, 0.6, -0.2, 0.7)
    picture = view(parse_urdf(TWO_BOXES), joints={'hinge': 0.8},
                   options=ViewOptions(view='front', size=size, window=window,
                                       caption=False))
    assert picture.window == window
    assert pixels(picture.data).shape == (600, 800, 3)
    corners = _two_boxes_corners(0.8)
    _assert_extent(picture, size, (corners[:, 1].min(), corners[:, 1].max(),
                                   corners[:, 2].min(), corners[:, 2].max()))
    assert corners[:, 1].min() < -0.3  # the arm, turned past the base, sets the left edge


def test_a_fitted_window_shows_the_whole_robot_with_a_margin():
    size = (640, 400)
    picture = view(parse_urdf(TWO_BOXES), joints={'hinge': -1.2},
                   options=ViewOptions(view='side', size=size, caption=False))  # x right, z up
    u0, u1, v0, v1 = picture.window
    assert (u1 - u0) / (v1 - v0) == pytest.approx(640 / 400)
    corners = _two_boxes_corners(-1.2)
    expected = (corners[:, 0].min(), corners[:, 0].max(), corners[:, 2].min(),
                corners[:, 2].max())
    _assert_extent(picture, size, expected)
    # The robot is taller than the picture's aspect: its height fills all but the margins.
    assert (expected[3] - expected[2]) / (v1 - v0) == pytest.approx(1 / 1.08)


def test_meshes_are_drawn_where_forward_kinematics_puts_them(tmp_path):
    """The mesh robot's arm (a relative path) and hand (package://, open) from its files."""
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import make_mesh_robot
    from sdf_tools.loading import load
    from sdf_tools.resources.lookup import find_resources
    tree = make_mesh_robot(tmp_path)
    loaded = load(str(tree['urdf']), resources=find_resources([str(tree['src'])]))
    size, shoulder, wrist = (600, 600), 0.5, 0.9
    picture = view(loaded.robot, joints={'shoulder': shoulder, 'wrist': wrist},
                   options=ViewOptions(view='side', size=size, resources=loaded.resources,
                                       folder=str(tree['urdf'].parent), caption=False))
    assert picture.warnings == ()
    cube = _corners((1, 1, 1), (0.5, 0.5, 0.5))
    arm_rotation = _rotation('y', 0.4 + shoulder)
    arm = (cube * (0.1, 0.1, 0.5) + (-0.05, -0.05, 0)) @ arm_rotation.T + (0, 0, 0.1)
    hand = (cube * 0.1) @ (arm_rotation @ _rotation('x', wrist)).T + \
        arm_rotation @ (0, 0, 0.5) + (0, 0, 0.1)
    corners = np.concatenate([arm, hand])
    _assert_extent(picture, size, (corners[:, 0].min(), corners[:, 0].max(),
                                   corners[:, 2].min(), corners[:, 2].max()))


@pytest.mark.parametrize('closed, kept', [(True, 2), (False, 12)])
def test_faces_of_closed_solids_turned_away_are_left_out(closed, kept):
    """Seen from +z (camera coordinates), a closed cube shows its top; an open one all."""
    from sdf_tools.drawing.render import visible_faces
    from sdf_tools.drawing.shapes import box
    vertices, faces = box((1, 1, 1))
    triangles, shades = visible_faces(vertices[faces], np.ones((12, 4)), np.full(12, closed),
                                      longest=10.0)
    assert len(triangles) == len(shades) == kept


def test_open_meshes_are_drawn_from_both_sides(tmp_path):
    """A lone triangle facing away from the camera is drawn all the same (no outside)."""
    pytest.importorskip('trimesh', reason='trimesh is not installed')
    from mesh_robot import ascii_stl
    (tmp_path / 'sheet.stl').write_text(ascii_stl([((0, 0, 0), (0, 0, 1), (0, 1, 0))]))
    robot = parse_urdf('<robot name="r"><link name="a"><visual><geometry>'
                       '<mesh filename="sheet.stl"/></geometry></visual></link></robot>')
    for view_name in ('front', (180.0, 0.0)):  # from +x (its back), from -x (its front)
        picture = view(robot, options=ViewOptions(view=view_name, size=(100, 100),
                                                  folder=str(tmp_path)))
        assert picture.warnings == () and drawn(pixels(picture.data)).sum() > 1000


def _box_robot(*boxes) -> str:
    """Return a URDF of fixed boxes: (name, size, xyz, rgba) each."""
    links = ''.join(f'<link name="{name}"><visual><origin xyz="{" ".join(map(str, xyz))}"/>'
                    f'<geometry><box size="{" ".join(map(str, size))}"/></geometry>'
                    f'<material name="{name}"><color rgba="{rgba}"/></material></visual></link>'
                    for name, size, xyz, rgba in boxes)
    joints = ''.join(f'<joint name="to_{name}" type="fixed"><parent link="{boxes[0][0]}"/>'
                     f'<child link="{name}"/></joint>' for name, *_ in boxes[1:])
    return f'<robot name="boxes">{links}{joints}</robot>'


def _at(picture, size, point) -> np.ndarray:
    """Return the RGB of the pixel showing the model-frame ``point``."""
    cam, (u0, u1, v0, v1) = picture.camera, picture.window
    u, v = np.dot(cam.right, point), np.dot(cam.up, point)
    column = int((u - u0) / (u1 - u0) * size[0])
    row = int((v1 - v) / (v1 - v0) * size[1])
    return pixels(picture.data)[row, column].astype(int)


@pytest.mark.parametrize('near_first', [True, False])
def test_nearer_faces_hide_farther_ones(near_first):
    """Seen from +x, a small red box at x = 0.5 hides the middle of a large blue one."""
    red = ('red', (0.1, 0.1, 0.1), (0.5, 0, 0), '1 0 0 1')
    blue = ('blue', (0.2, 0.6, 0.6), (0, 0, 0), '0 0 1 1')
    size = (300, 300)
    picture = view(parse_urdf(_box_robot(*((red, blue) if near_first else (blue, red)))),
                   options=ViewOptions(view='front', size=size))
    r, _, b = _at(picture, size, (0, 0, 0))
    assert r > 100 and b == 0
    r, _, b = _at(picture, size, (0, 0.2, 0.2))
    assert r == 0 and b > 100


def test_faces_are_shaded_by_their_normal_against_the_light():
    """In the iso view, the top (facing the light from above) is lighter than the sides."""
    size = (300, 300)
    picture = view(parse_urdf(_box_robot(('grey', (1, 1, 1), (0, 0, 0), '0.8 0.8 0.8 1'))),
                   options=ViewOptions(view='iso', size=size))
    top, front, right = (_at(picture, size, p)
                         for p in ((0, 0, 0.5), (0.5, 0, 0), (0, -0.5, 0)))
    assert all(len(set(rgb)) == 1 for rgb in (top, front, right))  # grey stays grey
    assert top[0] > right[0] > front[0] > 0


def _axes_colours(data: bytes):
    """Return how many pixels are strongly red, green and blue: the frames' axes."""
    rgb = pixels(data).astype(int)
    return [int(((rgb[..., i] - rgb.min(axis=2) > 100) & (rgb.max(axis=2) == rgb[..., i])).sum())
            for i in range(3)]


def test_link_frames_are_drawn_on_request():
    robot = parse_urdf(_box_robot(('grey', (1, 1, 1), (0, 0, 0), '0.8 0.8 0.8 1')))
    options = ViewOptions(view='iso', size=(200, 200))
    assert _axes_colours(view(robot, options=options).data) == [0, 0, 0]
    with_frames = view(robot, options=ViewOptions(view='iso', size=(200, 200), frames=True))
    assert min(_axes_colours(with_frames.data)) > 10


def test_a_robot_without_geometry_shows_its_skeleton_and_says_so():
    robot = parse_urdf('<robot name="r">\n<link name="a"/></robot>', 'r.urdf')
    picture = view(robot, options=ViewOptions(view='iso', size=(200, 200), caption=False))
    assert drawn(pixels(picture.data)).sum() > 10  # the root link, a square
    (warning,) = picture.warnings
    assert warning.code == Code.NOT_DRAWN
    assert str(warning) == ("r.urdf:1: warning: robot 'r': no visual geometry drawn: the "
                            'kinematic skeleton is drawn instead (try the collisions)')


def test_svg_pictures_are_vector_drawings_and_repeatable():
    robot = parse_urdf(TWO_BOXES)
    options = ViewOptions(view='iso', fmt='svg')
    first, second = view(robot, options=options), view(robot, options=options)
    assert first.data == second.data
    text = first.data.decode()
    assert text.startswith('<?xml') and '<svg' in text and text.count('<path') > 20


def test_without_matplotlib_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, 'matplotlib', None)  # import matplotlib raises
    with pytest.raises(SdfToolsError) as caught:
        view(parse_urdf(TWO_BOXES))
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == Code.NO_MATPLOTLIB
    assert "pip install 'sdf_tools[view]'" in diagnostic.message
