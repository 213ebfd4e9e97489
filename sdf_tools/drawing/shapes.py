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
The primitive shapes as triangles: box, cylinder, sphere and capsule, in their own frame.

Each returns ``(vertices, faces)``: vertices ``(n, 3)`` (m) and faces ``(k, 3)`` of vertex
indices, wound counter-clockwise seen from outside (the right-hand normal points out), so
that a picture can leave out the faces turned away from the camera. Round shapes are
surfaces of revolution about z (:func:`revolved`): fine enough that their outline is within
half a percent of their radius (:data:`SEGMENTS` sides).
"""

import numpy as np
import numpy.typing as npt
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import Geometry
from sdf_tools.model import Sphere
from sdf_tools.transforms import Vec3

#: Sides of round shapes: the polygon's outline is within 1 - cos(pi / 32) = 0.5 % of r.
SEGMENTS = 32
#: Rings of a sphere from pole to pole (half as many per capsule cap).
RINGS = 16

# The corners of the unit cube and its 12 triangles, wound outward.
_CUBE_CORNERS = np.array([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5)
                          for z in (-0.5, 0.5)])
_CUBE_FACES = np.array([[0, 1, 3], [0, 3, 2],    # -x
                        [4, 6, 7], [4, 7, 5],    # +x
                        [0, 4, 5], [0, 5, 1],    # -y
                        [2, 3, 7], [2, 7, 6],    # +y
                        [0, 2, 6], [0, 6, 4],    # -z
                        [1, 5, 7], [1, 7, 3]])   # +z


def box(size: Vec3) -> tuple[np.ndarray, np.ndarray]:
    """Return the 8 corners and 12 triangles of a box of ``size`` (x, y, z) centred at 0."""
    return _CUBE_CORNERS * np.asarray(size, dtype=float), _CUBE_FACES


def revolved(profile: npt.ArrayLike, segments: int = SEGMENTS) -> tuple[np.ndarray, np.ndarray]:
    """
    Return the surface swept by a profile turning about z.

    Parameters
    ----------
    profile : array-like, shape (m, 2)
        ``(r, z)`` points from the bottom to the top; a point with ``r = 0`` closes the
        surface there (a pole or the centre of a cap).
    segments : int
        Sides of each ring.

    Returns
    -------
    vertices : ndarray, shape (m * segments, 3)
    faces : ndarray of int, shape (k, 3)
        Outward wound, closed where the profile starts and ends on the axis (each ring
        there is one vertex, the others unused).

    """
    profile = np.array(profile, dtype=float)
    on_axis = profile[:, 0] <= 1e-12 * profile[:, 0].max()  # sin(pi) is not quite 0
    profile[on_axis, 0] = 0.0
    angle = np.arange(segments) * (2.0 * np.pi / segments)
    r, z = profile[:, :1], profile[:, 1:]
    vertices = np.stack([r * np.cos(angle), r * np.sin(angle),
                         np.broadcast_to(z, (len(profile), segments))], axis=-1).reshape(-1, 3)
    ring = np.arange(len(profile) - 1)[:, None] * segments
    j = np.arange(segments)[None, :]
    a, b = ring + j, ring + (j + 1) % segments  # one ring
    c, d = b + segments, a + segments          # the next, above it
    faces = np.concatenate([np.stack([a, b, c], axis=-1).reshape(-1, 3),
                            np.stack([a, c, d], axis=-1).reshape(-1, 3)])
    # A ring on the axis is one point: its first vertex stands for all of them.
    index = np.arange(len(vertices))
    pole = np.repeat(on_axis, segments)
    index[pole] -= index[pole] % segments
    faces = index[faces]
    return vertices, faces[(faces[:, 0] != faces[:, 1]) & (faces[:, 1] != faces[:, 2]) &
                           (faces[:, 2] != faces[:, 0])]


def _arc(radius: float, z: float, start: float, stop: float, rings: int) -> list:
    """Return ``(r, z)`` points of a circular arc about ``(0, z)`` from ``start`` to ``stop``."""
    return [(radius * np.sin(t), z - radius * np.cos(t))
            for t in np.linspace(start, stop, rings + 1)]


def cylinder(radius: float, length: float) -> tuple[np.ndarray, np.ndarray]:
    """Return a closed cylinder about z, centred at 0 (m)."""
    h = length / 2.0
    return revolved([(0.0, -h), (radius, -h), (radius, h), (0.0, h)])


def sphere(radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Return a sphere centred at 0 (m)."""
    return revolved(_arc(radius, 0.0, 0.0, np.pi, RINGS))


def capsule(radius: float, length: float) -> tuple[np.ndarray, np.ndarray]:
    """Return a capsule about z: a cylinder of ``length`` between two half spheres (m)."""
    h = length / 2.0
    half = RINGS // 2
    return revolved(_arc(radius, -h, 0.0, np.pi / 2, half) +
                    _arc(radius, h, np.pi / 2, np.pi, half))


def primitive(geometry: Geometry | None) -> tuple[np.ndarray, np.ndarray] | None:
    """Return the triangles of a box, cylinder, sphere or capsule; ``None`` for others."""
    if isinstance(geometry, Box):
        return box(geometry.size)
    if isinstance(geometry, Cylinder):
        return cylinder(geometry.radius, geometry.length)
    if isinstance(geometry, Sphere):
        return sphere(geometry.radius)
    if isinstance(geometry, Capsule):
        return capsule(geometry.radius, geometry.length)
    return None
