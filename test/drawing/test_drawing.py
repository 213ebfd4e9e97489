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


"""Tests of sdf_tools.drawing: view, overlay and link_poses, the pictures' Python API."""

import numpy as np
from pictures import drawn
from pictures import pixels
import pytest
import sdf_tools
from sdf_tools.drawing import link_poses
from sdf_tools.drawing import overlay
from sdf_tools.drawing import view
from sdf_tools.drawing import ViewOptions
from sdf_tools.errors import Code
from sdf_tools.errors import KinematicsError
from sdf_tools.formats.urdf.reader import parse_urdf

pytest.importorskip('matplotlib', reason="needs matplotlib: pip install 'sdf_tools[view]'")

#: A grey base and an arm on a hinge about x, drawn from the front (y right, z up).
HINGED = """<robot name="hinged">
  <link name="base"><visual><geometry><box size="0.4 0.4 0.2"/></geometry></visual></link>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.1"/><axis xyz="1 0 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <link name="arm"><visual><origin xyz="0 0 0.25"/><geometry><box size="0.1 0.1 0.5"/>
    </geometry></visual></link>
  <joint name="finger" type="prismatic"><parent link="arm"/><child link="tip"/>
    <origin xyz="0 0 0.5"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="1" effort="1" velocity="1"/>
    <mimic joint="hinge" multiplier="0.1"/></joint>
  <link name="tip"/>
</robot>"""
FRONT = ViewOptions(view='front', size=(400, 300), window=(-0.8, 0.8, -0.4, 0.8),
                    caption=False)


def test_the_api_draws_what_forward_kinematics_places():
    robot = parse_urdf(HINGED)
    assert sdf_tools.view is view and sdf_tools.ViewOptions is ViewOptions
    poses = link_poses(robot, {'hinge': 0.5, 'finger': 0.3})  # a mimic's value wins
    assert poses['arm'][:3, :3] == pytest.approx(np.array(
        [[1, 0, 0], [0, np.cos(0.5), -np.sin(0.5)], [0, np.sin(0.5), np.cos(0.5)]]))
    assert poses['tip'][:3, 3] == pytest.approx(poses['arm'][:3, :3] @ (0, 0, 0.8) +
                                                (0, 0, 0.1))
    by_values = view(robot, joints={'hinge': 0.5}, options=FRONT)
    assert by_values.data == view(robot, link_poses(robot, {'hinge': 0.5}), FRONT).data
    assert by_values.data != view(robot, options=FRONT).data  # the zero configuration


def test_unknown_joint_names_are_refused_naming_the_coordinates():
    with pytest.raises(KinematicsError) as caught:
        link_poses(parse_urdf(HINGED), {'elbow': 1.0})
    assert caught.value.diagnostic.code == Code.UNKNOWN_JOINT
    assert caught.value.diagnostic.message == "not a joint coordinate of 'hinged': elbow; " \
        'use: hinge'


@pytest.mark.parametrize('kwargs, match', [
    ({'options': ViewOptions(fmt='jpg')}, "unknown picture format 'jpg'"),
    ({'options': ViewOptions(size=(0, 10))}, 'out of range'),
    ({'joints': {'hinge': 1.0}, 'poses': {}}, 'not both')])
def test_what_cannot_be_drawn_is_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        view(parse_urdf(HINGED), **kwargs)


def test_a_model_too_large_to_draw_is_refused():
    from sdf_tools.errors import SdfToolsError
    huge = parse_urdf(HINGED.replace('0.4 0.4 0.2', '1e308 1e308 1e308'))
    for draw in (lambda: view(huge), lambda: overlay((huge, None), (huge, None)),
                 lambda: view(parse_urdf(HINGED), joints={'finger': 1e308})):
        with pytest.raises(SdfToolsError, match=r'the model is too large to draw: it reaches '
                           r'\S+ m from its origin \(at most 1e\+100 m\)') as caught:
            draw()
        assert caught.value.diagnostic.code is Code.TOO_LARGE


def _colours(picture):
    """Return the masks of grey, blue and orange pixels (the overlay's three colours)."""
    rgb = pixels(picture.data).astype(int)
    r, b = rgb[..., 0], rgb[..., 2]
    shown = drawn(pixels(picture.data))
    grey = shown & (np.ptp(rgb, axis=2) < 8)
    return grey, shown & (b > r + 40), shown & (r > b + 40)


def test_overlay_draws_what_is_the_same_once_and_what_moved_in_each_colour():
    robot = parse_urdf(HINGED)
    same = overlay((robot, None), (robot, link_poses(robot)), FRONT)
    grey, blue, orange = _colours(same)
    assert grey.sum() > 1000 and not blue.any() and not orange.any()
    # Labels: a legend in the upper left corner, a patch of each colour drawn (none for a
    # side with nothing of its own).
    _, blue, orange = _colours(overlay((robot, None), (robot, None), FRONT,
                                       labels=('a.urdf', 'b.urdf')))
    assert not blue.any() and not orange.any()
    _, blue, orange = _colours(overlay((robot, None), (robot, link_poses(robot, {'hinge': 1.0})),
                                       FRONT, labels=('a.urdf', 'b.urdf')))
    assert blue[:80, :80].sum() > 20 and orange[:80, :80].sum() > 20
    moved = overlay((robot, None), (robot, link_poses(robot, {'hinge': 1.0})), FRONT)
    grey, blue, orange = _colours(moved)
    # The base is shared (grey); the arm upright at 0 (blue, at y = 0) and turned (orange,
    # towards -y: to the left).
    columns = np.nonzero(blue.any(axis=0))[0]
    assert grey.sum() > 1000 and blue.sum() > 500 and orange.sum() > 500
    assert abs((columns.min() + columns.max() + 1) / 2 - 200) <= 1  # centred on y = 0
    assert np.nonzero(orange.any(axis=0))[0].mean() < 200 - 40


def test_surfaces_equal_within_the_tolerance_are_drawn_once_in_the_shared_colour():
    """
    An arm turned by 9e-7 rad (0.2 um at its ends): one surface, no stripes of two.

    Its sides at y = +-50.0004 mm are where a grid of 1 um would round them apart.
    """
    arm = HINGED.replace('<box size="0.1 0.1 0.5"/>', '<box size="0.1 0.1000008 0.5"/>')
    robot = parse_urdf(arm)
    turned = parse_urdf(arm.replace('<origin xyz="0 0 0.25"/>',
                                    '<origin xyz="0 0 0.25" rpy="9e-7 0 0"/>'))
    grey, blue, orange = _colours(overlay((robot, None), (turned, None), FRONT))
    assert grey.sum() > 1000 and not blue.any() and not orange.any()
    _, blue, orange = _colours(overlay((robot, None), (turned, None), FRONT, tolerance=1e-9))
    assert (blue | orange).sum() > 100 and blue.any() and orange.any()  # a finer one: two


def test_an_overlay_without_geometry_draws_both_skeletons_and_names_the_sides():
    bare = parse_urdf(HINGED.replace('<visual>', '<collision>').replace('</visual>',
                                                                        '</collision>'))
    moved = link_poses(bare, {'hinge': 1.0})
    picture = overlay((bare, None), (bare, moved), FRONT, labels=('A (a.urdf)', 'B (b.urdf)'))
    grey, blue, orange = _colours(picture)
    # The base to the hinge is shared; the arm's segment is blue upright, orange turned.
    assert grey.sum() > 50 and blue.sum() > 50 and orange.sum() > 50
    assert picture.text[:3] == ('in both: A (a.urdf), B (b.urdf)', 'only in A (a.urdf)',
                                'only in B (b.urdf)')
    same = overlay((bare, None), (bare, None), FRONT)
    grey, blue, orange = _colours(same)
    assert grey.sum() > 50 and not blue.any() and not orange.any()


def test_labels_name_the_links_of_a_robot_drawn_whole():
    """The names are dark text; the robot, lit from the front, has no dark pixel of its own."""
    robot = parse_urdf(HINGED)
    plain, named = (pixels(view(robot, options=ViewOptions(
        view='front', size=(400, 300), window=FRONT.window, caption=False,
        labels=labels)).data).max(axis=2) < 80 for labels in (False, True))
    assert not plain.any() and named.sum() > 30  # no skeleton: the robot is whole
