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


"""Tests of sdf_tools.drawing.camera: the views and the window a picture shows."""

import math

import numpy as np
import pytest
from sdf_tools.drawing.camera import camera
from sdf_tools.drawing.camera import fit_window
from sdf_tools.errors import Code
from sdf_tools.errors import SdfToolsError


@pytest.mark.parametrize('view, right, up', [
    ('front', (0, 1, 0), (0, 0, 1)),   # from +x: y to the right, z up
    ('side', (1, 0, 0), (0, 0, 1)),    # from -y: x to the right, z up
    ('top', (1, 0, 0), (0, 1, 0)),     # from +z: x to the right, y up
    ((90.0, 0.0), (-1, 0, 0), (0, 0, 1)),  # from +y
])
def test_views_look_along_the_documented_axes(view, right, up):
    cam = camera(view)
    assert cam.right == pytest.approx(right, abs=1e-12)
    assert cam.up == pytest.approx(up, abs=1e-12)
    assert np.cross(cam.right, cam.up) == pytest.approx(cam.toward, abs=1e-12)


def test_the_iso_view_is_isometric():
    cam = camera('iso')
    assert cam.toward == pytest.approx(np.array([1, -1, 1]) / math.sqrt(3.0))
    # The model's axes are drawn equally long.
    lengths = np.linalg.norm(cam.rotation[:2], axis=0)
    assert lengths == pytest.approx([math.sqrt(2.0 / 3.0)] * 3)


@pytest.mark.parametrize('view, match', [('back', "unknown view 'back'"),
                                         ((float('nan'), 0.0), 'must be finite')])
def test_a_view_is_a_name_or_two_finite_angles(view, match):
    with pytest.raises(ValueError, match=match):
        camera(view)


@pytest.mark.parametrize('points, size', [([(0, 0), (2, 1)], (800, 600)),   # wide points
                                          ([(0, 0), (1, 2)], (800, 600)),   # tall points
                                          ([(1, 1), (1, 1)], (400, 400))])  # one point
def test_the_window_holds_the_points_centred_at_the_picture_aspect(points, size):
    u0, u1, v0, v1 = fit_window(points, size, margin=0.05)
    points = np.array(points, dtype=float)
    low, high = points.min(axis=0), points.max(axis=0)
    assert (u1 - u0) / (v1 - v0) == pytest.approx(size[0] / size[1])
    assert ((u0 + u1) / 2, (v0 + v1) / 2) == pytest.approx(tuple((low + high) / 2))
    extent = high - low
    if extent.any():  # the direction the points fill gets the margin, the other more
        room = np.array([u1 - u0, v1 - v0]) / extent.clip(1e-300)
        assert room.min() == pytest.approx(1.1)
    else:
        assert u1 - u0 == pytest.approx(1.0)


@pytest.mark.parametrize('points', [[(-1e308, 0.0), (1e308, 0.0)], [(0.0, 0.0), (np.inf, 1.0)],
                                    [(0.0, np.nan)]])
def test_a_window_that_is_not_finite_is_too_large_to_draw(points):
    with pytest.raises(SdfToolsError, match='the model is too large to draw') as caught:
        fit_window(points, (64, 64))
    assert caught.value.diagnostic.code is Code.TOO_LARGE
