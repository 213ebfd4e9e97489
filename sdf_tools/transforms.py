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
Rotations and rigid transforms: the conventions used everywhere in sdf_tools.

Conventions
-----------
* A quaternion is a tuple ``(x, y, z, w)`` (the ROS / tf2 order), unit length.
* ``rpy`` is roll, pitch, yaw in radians about the *fixed* axes X, then Y, then Z, as in URDF
  and SDFormat: ``R = Rz(yaw) @ Ry(pitch) @ Rx(roll)``.
* ``T_a_b`` is the pose of frame ``b`` expressed in frame ``a``: a (4, 4) homogeneous matrix
  mapping coordinates in ``b`` to coordinates in ``a``; ``T_a_c = T_a_b @ T_b_c``.
  Batches carry leading dimensions: ``(..., 4, 4)``.
* Angles are radians, lengths metres.
* In the pure-Python functions a 3-vector is a tuple ``(x, y, z)`` and a 3x3 matrix is a
  row-major 9-tuple ``(r00, r01, r02, r10, r11, r12, r20, r21, r22)`` (the ``mat3_*``
  functions).

These functions work on plain tuples with :mod:`math`: for the handful of poses the readers
and the converter handle, and for forward kinematics of one configuration, that is several
times faster than numpy, and a conversion never imports numpy. The same maths on numpy
arrays with leading dimensions is :mod:`sdf_tools.batch_transforms`.
"""

import math
from typing import Any
from typing import Sequence

#: A 3-vector ``(x, y, z)``, a quaternion ``(x, y, z, w)``, a row-major 3x3 matrix. The
#: functions take any sequence of floats of that length and return these tuples.
Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
Mat3 = tuple[float, float, float, float, float, float, float, float, float]

IDENTITY_QUAT: Quat = (0.0, 0.0, 0.0, 1.0)
IDENTITY_MAT3: Mat3 = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
ZERO3: Vec3 = (0.0, 0.0, 0.0)


def quat_normalize(q: Sequence[float]) -> Quat:
    """
    Return ``q`` scaled to unit length; a zero quaternion becomes the identity.

    The length is :func:`math.hypot`, which neither overflows (1e200) nor underflows
    (1e-200) where a sum of squares would.
    """
    x, y, z, w = q
    n = math.hypot(x, y, z, w)
    if n == 0.0:
        return IDENTITY_QUAT
    return (x / n, y / n, z / n, w / n)


def quat_from_rpy(roll: float, pitch: float, yaw: float) -> Quat:
    """
    Return the unit quaternion of fixed-axis roll, pitch, yaw (URDF ``rpy``).

    Same arithmetic as urdfdom's ``Rotation::setFromRPY``, so converted numbers agree with
    libsdformat's to the last digit in the common case.
    """
    phi = roll / 2.0
    the = pitch / 2.0
    psi = yaw / 2.0
    sp, cp = math.sin(phi), math.cos(phi)
    st, ct = math.sin(the), math.cos(the)
    ss, cs = math.sin(psi), math.cos(psi)
    return quat_normalize((
        sp * ct * cs - cp * st * ss,
        cp * st * cs + sp * ct * ss,
        cp * ct * ss - sp * st * cs,
        cp * ct * cs + sp * st * ss,
    ))


def rpy_from_quat(q: Sequence[float]) -> Vec3:
    """
    Return fixed-axis ``(roll, pitch, yaw)`` whose rotation equals ``q`` to about 1e-15.

    Yaw comes from ``atan2(r10, r00)``, then pitch and roll from ``atan2`` of combinations
    that are exact for that yaw (M. Day, "Extracting Euler angles from a rotation
    matrix"), so every rotation, pitch near +-pi/2 included, round-trips to rounding error.
    (ignition-math's ``Quaternion::Euler`` takes pitch from ``asin``, which loses up to 1e-7
    rad there; urdfdom's ``getRPY``, used by libsdformat for visual, collision and sensor
    poses, even snaps pitch to +-pi/2 once ``|sin(pitch)| >= 0.99999``, moving the rotation
    by up to 4.5e-3 rad.) At gimbal lock only roll - yaw (or roll + yaw) is defined and yaw
    is set to 0, as ignition-math does.
    """
    r00, r01, r02, r10, r11, r12, r20, _, _ = mat3_from_quat(quat_normalize(q))
    yaw = 0.0 if math.hypot(r00, r10) < 1e-15 else math.atan2(r10, r00)
    s, c = math.sin(yaw), math.cos(yaw)
    pitch = math.atan2(-r20, c * r00 + s * r10)
    roll = math.atan2(s * r02 - c * r12, c * r11 - s * r01)
    return (roll, pitch, yaw)


def quat_multiply(a: Sequence[float], b: Sequence[float]) -> Quat:
    """Return the Hamilton product ``a * b`` (rotation ``b`` first, then ``a``)."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def quat_conjugate(q: Sequence[float]) -> Quat:
    """Return the inverse of a unit quaternion."""
    return (-q[0], -q[1], -q[2], q[3])


def quat_rotate(q: Sequence[float], v: Sequence[float]) -> Vec3:
    """Rotate the 3-vector ``v`` by the unit quaternion ``q``."""
    x, y, z, w = q
    vx, vy, vz = v
    # t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (
        vx + w * tx + (y * tz - z * ty),
        vy + w * ty + (z * tx - x * tz),
        vz + w * tz + (x * ty - y * tx),
    )


def quat_from_axis_angle(axis: Sequence[float], angle: float) -> Quat:
    """Return the quaternion rotating ``angle`` radians about the unit 3-vector ``axis``."""
    s = math.sin(0.5 * angle)
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(0.5 * angle))


def vec_add(a: Sequence[float], b: Sequence[float]) -> Vec3:
    """Return the sum ``a + b`` of two 3-vectors."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def vec_sub(a: Sequence[float], b: Sequence[float]) -> Vec3:
    """Return the difference ``a - b`` of two 3-vectors."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def vec_scale(a: Sequence[float], s: float) -> Vec3:
    """Return the 3-vector ``a`` times the number ``s``."""
    return (a[0] * s, a[1] * s, a[2] * s)


def vec_dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the dot product of two 3-vectors."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def vec_cross(a: Sequence[float], b: Sequence[float]) -> Vec3:
    """Return the cross product ``a x b`` of two 3-vectors."""
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def vec_unit(a: Sequence[float]) -> Vec3:
    """
    Return the 3-vector ``a`` divided by its length.

    The length is :func:`math.hypot` (no overflow for 1e200, no underflow for 1e-200); the
    caller makes sure it is finite and not zero.
    """
    norm = math.hypot(a[0], a[1], a[2])
    return (a[0] / norm, a[1] / norm, a[2] / norm)


def mat3_from_quat(q: Sequence[float]) -> Mat3:
    """Return the rotation matrix of a unit quaternion as a row-major 9-tuple."""
    x, y, z, w = q
    return (1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w),
            2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
            2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y))


def mat3_multiply(a: Sequence[float], b: Sequence[float]) -> Mat3:
    """Return the product ``a @ b`` of two row-major 9-tuple matrices."""
    a00, a01, a02, a10, a11, a12, a20, a21, a22 = a
    b00, b01, b02, b10, b11, b12, b20, b21, b22 = b
    return (a00 * b00 + a01 * b10 + a02 * b20, a00 * b01 + a01 * b11 + a02 * b21,
            a00 * b02 + a01 * b12 + a02 * b22,
            a10 * b00 + a11 * b10 + a12 * b20, a10 * b01 + a11 * b11 + a12 * b21,
            a10 * b02 + a11 * b12 + a12 * b22,
            a20 * b00 + a21 * b10 + a22 * b20, a20 * b01 + a21 * b11 + a22 * b21,
            a20 * b02 + a21 * b12 + a22 * b22)


def mat3_transpose(a: Sequence[float]) -> Mat3:
    """Return the transpose of a row-major 9-tuple matrix."""
    return (a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8])


def quat_from_intrinsic_xyz(rx: float, ry: float, rz: float) -> Quat:
    """
    Return the quaternion of intrinsic rotations about X, then the new Y, then the new Z.

    This is ``R = Rx(rx) @ Ry(ry) @ Rz(rz)``: the RobCoGen Kinematics-DSL ``rotation``.
    """
    return quat_multiply(quat_multiply(quat_from_axis_angle((1.0, 0.0, 0.0), rx),
                                       quat_from_axis_angle((0.0, 1.0, 0.0), ry)),
                         quat_from_axis_angle((0.0, 0.0, 1.0), rz))


def rows_from_quat(q: Sequence[float]) -> tuple[Vec3, Vec3, Vec3]:
    """Return the rotation matrix of a unit quaternion as three row tuples (pure Python)."""
    m = mat3_from_quat(q)
    return (m[0:3], m[3:6], m[6:9])


#: KDL's ``Rotation::GetQuaternion`` returns ``w > 0`` when the trace exceeds this.
KDL_TRACE_EPSILON = 1e-12
#: A unit quaternion whose ``w`` exceeds this already has KDL's sign (the trace of its
#: rotation, ``4 w**2 - 1``, is well above :data:`KDL_TRACE_EPSILON`): a hot path calls
#: :func:`quat_kdl_sign` only below it.
KDL_SIGN_W = 0.5 + 1e-9


def kdl_positive_component(r00: float, r11: float, r22: float) -> int:
    """
    Return the quaternion component KDL makes positive, from a rotation's diagonal.

    KDL's ``Rotation::GetQuaternion`` (orocos_kdl 1.5, which robot_state_publisher and
    tf2_kdl publish through) branches on the diagonal, and the component its branch
    computes as ``0.25 * s`` or ``0.25 / s`` is positive: 3 (``w``) when the trace
    ``r00 + r11 + r22`` exceeds 1e-12; otherwise 0 (``x``) when ``r00`` exceeds both
    ``r11`` and ``r22``, else 1 (``y``) when ``r11`` exceeds ``r22``, else 2 (``z``).
    """
    if r00 + r11 + r22 > KDL_TRACE_EPSILON:
        return 3
    if r00 > r11 and r00 > r22:
        return 0
    if r11 > r22:
        return 1
    return 2


def quat_from_matrix(m: Any) -> Quat:
    """
    Return the quaternion ``(x, y, z, w)`` of a rotation matrix, as KDL computes it.

    ``m`` is any (3, 3) indexable of floats. KDL's ``Rotation::GetQuaternion``, operation
    for operation (the same floats for the same matrix): the branch and the sign are those
    of :func:`kdl_positive_component` (``w > 0`` for rotations by less than about 120
    degrees). The result is not normalised again (KDL does not).
    """
    m00, m01, m02 = float(m[0][0]), float(m[0][1]), float(m[0][2])
    m10, m11, m12 = float(m[1][0]), float(m[1][1]), float(m[1][2])
    m20, m21, m22 = float(m[2][0]), float(m[2][1]), float(m[2][2])
    k = kdl_positive_component(m00, m11, m22)
    if k == 3:
        s = 0.5 / math.sqrt(m00 + m11 + m22 + 1.0)
        return ((m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s)
    if k == 0:
        s = 2.0 * math.sqrt(1.0 + m00 - m11 - m22)
        return (0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s)
    if k == 1:
        s = 2.0 * math.sqrt(1.0 + m11 - m00 - m22)
        return ((m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s)
    s = 2.0 * math.sqrt(1.0 + m22 - m00 - m11)
    return ((m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s)


def quat_kdl_sign(q: Quat) -> Quat:
    """
    Return ``q`` or ``-q``: the sign :func:`quat_from_matrix` (KDL) gives its rotation.

    Both stand for the same rotation; robot_state_publisher publishes KDL's. The branch is
    decided on the diagonal of :func:`mat3_from_quat`, which can differ from the diagonal
    of another computation of the same rotation in the last bit: at a trace of 1e-12 or a
    tie of two diagonal entries (to rounding) the two may choose differently.
    """
    m = mat3_from_quat(q)
    if q[kdl_positive_component(m[0], m[4], m[8])] < 0.0:
        return (-q[0], -q[1], -q[2], -q[3])
    return q


def compose(xyz_a: Sequence[float], q_a: Sequence[float], xyz_b: Sequence[float],
            q_b: Sequence[float]) -> tuple[Vec3, Quat]:
    """
    Compose two poses given as (position, quaternion) pairs: ``T_a @ T_b``.

    Returns
    -------
    tuple
        ``(xyz, quat)`` of the composed pose.

    """
    r = quat_rotate(q_a, xyz_b)
    return ((xyz_a[0] + r[0], xyz_a[1] + r[1], xyz_a[2] + r[2]),
            quat_normalize(quat_multiply(q_a, q_b)))


def invert(xyz: Sequence[float], q: Sequence[float]) -> tuple[Vec3, Quat]:
    """Return the inverse ``(xyz, quat)`` of a pose."""
    qi = quat_conjugate(q)
    p = quat_rotate(qi, xyz)
    return ((-p[0], -p[1], -p[2]), qi)
