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
Mass properties of rigid bodies welded together (fixed-joint lumping).

A body is ``(mass, com, quat, inertia)``: mass (kg), the centre of mass ``com`` and the
orientation ``quat`` of its inertial frame, both in some link frame L, and the inertia tensor
``inertia`` (kg m^2) about the centre of mass, expressed in the inertial frame, as the six
values ``(ixx, ixy, ixz, iyy, iyz, izz)``.

:func:`combine` welds two bodies given in the same frame. The result keeps the first body's
inertial orientation (as libsdformat does, so converted files keep their axes) and puts its
origin at the combined centre of mass. Unlike libsdformat, two massless bodies combine to a
massless body at the first body's centre of mass instead of a 0/0 centre of mass.
"""

from sdf_tools import transforms


def _rotate(q, inertia):
    """Return ``R I R^T`` for the rotation of ``q``, as six values."""
    ixx, ixy, ixz, iyy, iyz, izz = inertia
    m = ((ixx, ixy, ixz), (ixy, iyy, iyz), (ixz, iyz, izz))
    r = transforms.rows_from_quat(q)
    rm = [[sum(r[i][k] * m[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    out = [[sum(rm[i][k] * r[j][k] for k in range(3)) for j in range(3)] for i in range(3)]
    return (out[0][0], out[0][1], out[0][2], out[1][1], out[1][2], out[2][2])


def _point_mass(mass, c):
    """Return the inertia of a point mass at ``c`` about the origin, ``m (|c|^2 E - c c^T)``."""
    x, y, z = c
    return (mass * (y * y + z * z), -mass * x * y, -mass * x * z,
            mass * (x * x + z * z), -mass * y * z, mass * (x * x + y * y))


def combine(first, second):
    """
    Weld two bodies expressed in the same link frame.

    Parameters
    ----------
    first, second : tuple
        ``(mass, com, quat, inertia)`` as in the module docstring.

    Returns
    -------
    tuple
        ``(mass, com, quat, inertia)`` of the welded body: ``quat`` is ``first``'s, the
        inertia is about the combined centre of mass in that orientation.

    """
    m1, c1, q1, i1 = first
    m2, c2, q2, i2 = second
    total = m1 + m2
    if total > 0.0:
        g = tuple((m1 * a + m2 * b) / total for a, b in zip(c1, c2))
    else:
        g = c1  # no mass to place: keep the first body's centre (libsdformat gives 0/0)
    # Inertia about the link origin, in link axes, of each body; sum; shift to g.
    about_origin = [a + b + c + d for a, b, c, d in zip(
        _rotate(q1, i1), _point_mass(m1, c1), _rotate(q2, i2), _point_mass(m2, c2))]
    at_g = [a - b for a, b in zip(about_origin, _point_mass(total, g))]
    return (total, g, q1, _rotate(transforms.quat_conjugate(q1), at_g))
