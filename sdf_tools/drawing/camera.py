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
The camera of a picture: an orthographic view from a direction, and the window it shows.

A view is an azimuth and an elevation (degrees), as matplotlib's ``view_init``: the camera
looks at the robot from the direction ``(cos el cos az, cos el sin az, sin el)`` in the model
frame, with the model's z up on the picture (seen from straight above, as if from the
horizontal direction ``az``). The standard views (:data:`VIEWS`) of a robot facing +x:

========= ========== =========== =================================================
``front`` az 0       el 0        from +x: y to the right, z up
``side``  az -90     el 0        from -y (its right side): x to the right, z up
``top``   az -90     el 90       from +z: x to the right, y up
``iso``   az -45     el 35.26    isometric, from the front right, above
========= ========== =========== =================================================

Picture coordinates are metres in the plane of the picture: ``u = p . right`` to the right,
``v = p . up`` upwards, and the depth ``p . toward`` grows towards the camera.
"""

from collections.abc import Sequence
import math

import numpy as np
import numpy.typing as npt

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.records import record

#: The standard views: name -> (azimuth, elevation) in degrees (module docstring).
VIEWS = {
    'front': (0.0, 0.0),
    'side': (-90.0, 0.0),
    'top': (-90.0, 90.0),
    'iso': (-45.0, math.degrees(math.atan(1.0 / math.sqrt(2.0)))),
}

#: A window of the picture plane: ``(u0, u1, v0, v1)`` (m), left, right, bottom and top.
Window = tuple[float, float, float, float]


@record(frozen=True)
class Camera:
    """
    An orthographic camera: the directions of the picture in the model frame.

    Attributes
    ----------
    azimuth, elevation : float
        The view (degrees).
    right, up, toward : tuple of float
        Unit vectors in the model frame: the picture's right and up, and towards the camera
        (right-handed: ``right x up = toward``).

    """

    azimuth: float
    elevation: float
    right: tuple[float, float, float]
    up: tuple[float, float, float]
    toward: tuple[float, float, float]

    @property
    def rotation(self) -> np.ndarray:
        """Return R_camera_model, (3, 3): its rows are ``right``, ``up`` and ``toward``."""
        return np.array([self.right, self.up, self.toward])


def camera(view: str | Sequence[float]) -> Camera:
    """
    Return the camera of a view.

    Parameters
    ----------
    view : str or tuple of float
        A name of :data:`VIEWS`, or ``(azimuth, elevation)`` in degrees.

    Raises
    ------
    ValueError
        An unknown name, or angles that are not finite numbers.

    """
    if isinstance(view, str):
        if view not in VIEWS:
            raise ValueError(f'unknown view {view!r}; use one of {", ".join(VIEWS)} or '
                             'azimuth,elevation in degrees')
        view = VIEWS[view]
    azimuth, elevation = (float(a) for a in view)
    if not (math.isfinite(azimuth) and math.isfinite(elevation)):
        raise ValueError(f'the view angles must be finite, got {azimuth}, {elevation}')
    az, el = math.radians(azimuth), math.radians(elevation)
    toward = (math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el))
    right = (-math.sin(az), math.cos(az), 0.0)
    up = (toward[1] * right[2] - toward[2] * right[1],   # toward x right
          toward[2] * right[0] - toward[0] * right[2],
          toward[0] * right[1] - toward[1] * right[0])
    return Camera(azimuth, elevation, right, up, toward)


def fit_window(points: npt.ArrayLike, size: tuple[int, int], margin: float = 0.04,
               reserve: tuple[int, int] = (0, 0)) -> Window:
    """
    Return the window ``(u0, u1, v0, v1)`` (m) that shows ``points`` in a picture of ``size``.

    Parameters
    ----------
    points : array-like, shape (n, 2)
        Picture coordinates ``(u, v)`` (m) to show, centred; none (or all at one point):
        a window 1 m wide.
    size : tuple of int
        ``(width, height)`` in pixels; the window has their aspect ratio (square pixels).
    margin : float
        Room left on each side of the points along the direction they fill, as a fraction
        of their extent there.
    reserve : tuple of int
        Pixels at the top and at the bottom of the picture left free of the points (for
        text), when they leave at least a third of its height.

    Raises
    ------
    SdfToolsError
        The window is not finite (points too far apart, or not numbers): code
        ``too-large``.

    """
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    width, height = size
    top, bottom = reserve if sum(reserve) * 3 <= height * 2 else (0, 0)
    height -= top + bottom
    if len(points) == 0:
        points = np.zeros((1, 2))
    with np.errstate(over='ignore', invalid='ignore'):  # checked below
        low, high = points.min(axis=0), points.max(axis=0)
        centre = low / 2.0 + high / 2.0
        extent_u, extent_v = (high - low) * (1.0 + 2.0 * margin)
        half_u = max(extent_u, extent_v * width / height) / 2.0
        if not half_u > 0.0:
            half_u = 0.5
        half_v = half_u * height / width
        pixel = 2.0 * half_u / width
        window = (float(centre[0] - half_u), float(centre[0] + half_u),
                  float(centre[1] - half_v - bottom * pixel),
                  float(centre[1] + half_v + top * pixel))
    if not all(math.isfinite(edge) for edge in window):
        raise SdfToolsError(Diagnostic('the model is too large to draw: the picture would '
                                       'span more than the largest number', code=Code.TOO_LARGE))
    return window
