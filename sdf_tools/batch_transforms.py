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
The maths of :mod:`sdf_tools.transforms` on numpy arrays, vectorised over leading dimensions.

Conventions (quaternions ``(x, y, z, w)``, ``T_a_b`` maps ``b`` coordinates into ``a``,
radians, metres) are those of :mod:`sdf_tools.transforms`. Arrays carry leading dimensions:
a batch of rotations is ``(..., 3, 3)``, of transforms ``(..., 4, 4)``, of quaternions
``(..., 4)``. Only forward kinematics on batches, and the matrices users ask for, need this
module, so numpy is imported only where arrays are used.
"""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from sdf_tools.transforms import IDENTITY_QUAT
from sdf_tools.transforms import KDL_TRACE_EPSILON
from sdf_tools.transforms import Quat
from sdf_tools.transforms import rows_from_quat
from sdf_tools.transforms import Vec3


def matrix_from_quat(q: Quat) -> npt.NDArray[np.float64]:
    """Return the (3, 3) rotation matrix of a unit quaternion as a numpy array."""
    return np.array(rows_from_quat(q))


def transform_from_pose(xyz: Vec3, q: Quat) -> npt.NDArray[np.float64]:
    """Return the (4, 4) homogeneous matrix of a pose ``(xyz, quat)``."""
    t = np.eye(4)
    t[:3, :3] = matrix_from_quat(q)
    t[:3, 3] = xyz
    return t


def matrices_from_quats_batch(q: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """
    Return rotation matrices for a batch of quaternions.

    Parameters
    ----------
    q : array-like, shape (..., 4)
        Unit quaternions ``(x, y, z, w)``.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    """
    q = np.asarray(q, dtype=float)
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    out = np.empty(q.shape[:-1] + (3, 3))
    out[..., 0, 0] = 1.0 - 2.0 * (y * y + z * z)
    out[..., 0, 1] = 2.0 * (x * y - z * w)
    out[..., 0, 2] = 2.0 * (x * z + y * w)
    out[..., 1, 0] = 2.0 * (x * y + z * w)
    out[..., 1, 1] = 1.0 - 2.0 * (x * x + z * z)
    out[..., 1, 2] = 2.0 * (y * z - x * w)
    out[..., 2, 0] = 2.0 * (x * z - y * w)
    out[..., 2, 1] = 2.0 * (y * z + x * w)
    out[..., 2, 2] = 1.0 - 2.0 * (x * x + y * y)
    return out


def quat_normalize_batch(q: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """
    Return quaternions scaled to unit length; zero quaternions become the identity.

    Each is divided by its largest absolute component first, so that the squares of 1e200
    do not overflow (and those of 1e-200 do not underflow), as
    :func:`~sdf_tools.transforms.quat_normalize`.

    Parameters
    ----------
    q : array-like, shape (..., 4)
        Quaternions ``(x, y, z, w)``, any length.

    Returns
    -------
    ndarray, shape (..., 4)

    """
    q = np.array(q, dtype=float)
    scale = np.abs(q).max(axis=-1, initial=0.0)
    zero = scale == 0.0
    q[zero] = IDENTITY_QUAT
    scale[zero] = 1.0
    q /= scale[..., None]
    q /= np.linalg.norm(q, axis=-1)[..., None]
    return q


def matrices_from_axis_angle_batch(axis: Sequence[float],
                                   angle: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """
    Return the rotations by angles about one axis (Rodrigues' formula).

    Parameters
    ----------
    axis : array-like, shape (3,)
        Unit axis.
    angle : array-like, shape (...)
        Angles (rad).

    Returns
    -------
    ndarray, shape (..., 3, 3)

    """
    x, y, z = (float(v) for v in axis)
    k = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    angle = np.asarray(angle, dtype=float)
    out = np.multiply.outer(np.sin(angle), k)  # I + sin(angle) K + (1 - cos(angle)) K^2
    out += np.multiply.outer(1.0 - np.cos(angle), k @ k)
    out += np.eye(3)
    return out


def kdl_positive_components_batch(m: npt.NDArray[np.float64]) -> npt.NDArray[np.int_]:
    """
    Return, per rotation, the quaternion component KDL makes positive.

    :func:`~sdf_tools.transforms.kdl_positive_component` on arrays.

    Parameters
    ----------
    m : ndarray, shape (..., 3, 3)
        Rotation matrices.

    Returns
    -------
    ndarray of int, shape (...)
        3 (``w``), 0 (``x``), 1 (``y``) or 2 (``z``).

    """
    m00, m11, m22 = m[..., 0, 0], m[..., 1, 1], m[..., 2, 2]
    return np.where(m00 + m11 + m22 > KDL_TRACE_EPSILON, 3,
                    np.where((m00 > m11) & (m00 > m22), 0, np.where(m11 > m22, 1, 2)))


def quats_from_matrices_batch(m: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """
    Return the quaternions ``(x, y, z, w)`` of rotations, as KDL computes them.

    :func:`~sdf_tools.transforms.quat_from_matrix` on arrays: the same floats.

    Parameters
    ----------
    m : array-like, shape (..., 3, 3)
        Rotation matrices.

    Returns
    -------
    ndarray, shape (..., 4)

    """
    m = np.asarray(m, dtype=float)
    m00, m01, m02 = m[..., 0, 0], m[..., 0, 1], m[..., 0, 2]
    m10, m11, m12 = m[..., 1, 0], m[..., 1, 1], m[..., 1, 2]
    m20, m21, m22 = m[..., 2, 0], m[..., 2, 1], m[..., 2, 2]
    branch = kdl_positive_components_batch(m)
    with np.errstate(invalid='ignore', divide='ignore'):  # the branches not taken
        s = 0.5 / np.sqrt(m00 + m11 + m22 + 1.0)
        sx = 2.0 * np.sqrt(1.0 + m00 - m11 - m22)
        sy = 2.0 * np.sqrt(1.0 + m11 - m00 - m22)
        sz = 2.0 * np.sqrt(1.0 + m22 - m00 - m11)
        choices = [
            np.stack(((m02 + m20) / sz, (m12 + m21) / sz, 0.25 * sz, (m10 - m01) / sz), -1),
            np.stack((0.25 * sx, (m01 + m10) / sx, (m02 + m20) / sx, (m21 - m12) / sx), -1),
            np.stack(((m01 + m10) / sy, 0.25 * sy, (m12 + m21) / sy, (m02 - m20) / sy), -1),
            np.stack(((m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s), -1),
        ]
    return np.select([(branch == k)[..., None] for k in (2, 0, 1, 3)], choices)


def quats_kdl_sign_batch(q: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """
    Return the quaternions with KDL's sign (:func:`~sdf_tools.transforms.quat_kdl_sign`).

    Parameters
    ----------
    q : array-like, shape (..., 4)
        Unit quaternions ``(x, y, z, w)``.

    Returns
    -------
    ndarray, shape (..., 4)
        ``q`` or ``-q`` per quaternion (a new array).

    """
    q = np.array(q, dtype=float)
    branch = kdl_positive_components_batch(matrices_from_quats_batch(q))
    chosen = np.take_along_axis(q, branch[..., None], -1)
    q *= np.where(chosen < 0.0, -1.0, 1.0)
    return q


def invert_transform_batch(t: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """
    Return the inverse of rigid transforms.

    Parameters
    ----------
    t : ndarray, shape (..., 4, 4)
        Rigid transforms.

    Returns
    -------
    ndarray, shape (..., 4, 4)

    """
    t = np.asarray(t, dtype=float)
    out = np.zeros_like(t)
    r_t = np.swapaxes(t[..., :3, :3], -1, -2)
    out[..., :3, :3] = r_t
    out[..., :3, 3] = -np.einsum('...ij,...j->...i', r_t, t[..., :3, 3])
    out[..., 3, 3] = 1.0
    return out
