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
One :class:`~sdf_tools.kinematics.motion.Motion` per joint kind: ``M(q)`` and its shortcuts.

Each joint moves its child by ``X_PC(q) = X_PJ @ M(q) @ inv(X_CJ)`` (see
:mod:`sdf_tools.model`). With ``a`` the unit ``Joint.axis`` and ``a2`` the unit
``Joint.axis2`` (both expressed in the joint frame J), the motion ``M(q)`` is:

=================== ======================== ==================================================
kind                coordinates              ``M(q)``
=================== ======================== ==================================================
revolute,           ``q`` (rad)              rotation about ``a`` by ``q``
continuous
prismatic           ``q`` (m)                translation ``q * a``
fixed               none                     identity
screw               ``q`` (rad)              rotation about ``a`` by ``q`` and translation
                                             ``q * p / (2 pi) * a``; ``p`` is
                                             ``Joint.screw_thread_pitch`` (m/rev,
                                             right-handed; ``None``: 1.0, the SDFormat default)
gearbox             ``q`` = input angle      ``Rot(a, -q) @ Rot(a2, -r q)``: the parent turns
                    (rad)                    ``q`` about ``a`` relative to the reference body
                                             and the child turns ``-r q`` about ``a2``, with
                                             ``r`` = ``Joint.gearbox_ratio`` (``None``: 1.0)
universal,          ``j/1``, ``j/2`` (rad)   ``Rot(a, q1) @ Rot(a2, q2)``; ``a2`` ``None`` is
revolute2                                    ``(0, 0, 1)``, the SDFormat default
ball                ``j/qx .. j/qw``         rotation by the normalised quaternion
floating            ``j/x, j/y, j/z``,       translation ``(x, y, z)`` then rotation by the
                    ``j/qx .. j/qw``         normalised quaternion (zero quaternion: identity)
planar              ``j/x, j/y, j/theta``    ``Trans(x u + y v) @ Rot(n, theta)`` with ``n =
                                             a`` the plane normal, ``u`` the joint frame's x
                                             axis projected on the plane (its y axis when x is
                                             within 1e-6 of ``n``) and ``v = n x u``
=================== ======================== ==================================================

Each class below is that row of the table, for one configuration, for a chunk, and (for
fixed, revolute and prismatic joints) as precomposed steps; :data:`MOTIONS` maps each
:class:`~sdf_tools.model.JointType` to its class.
"""

from collections.abc import Sequence
import math
from types import MappingProxyType

import numpy as np
import numpy.typing as npt
from sdf_tools.batch_transforms import matrices_from_axis_angle_batch
from sdf_tools.batch_transforms import matrices_from_quats_batch
from sdf_tools.batch_transforms import quat_normalize_batch
from sdf_tools.kinematics.motion import Drive
from sdf_tools.kinematics.motion import FixedStep
from sdf_tools.kinematics.motion import Motion
from sdf_tools.kinematics.motion import NO_DRIVE
from sdf_tools.kinematics.motion import PrismaticStep
from sdf_tools.kinematics.motion import RevoluteStep
from sdf_tools.kinematics.motion import TfPrismatic
from sdf_tools.kinematics.motion import TfRevolute
from sdf_tools.kinematics.motion import TfRevoluteOffset
from sdf_tools.kinematics.values import InfiniteAngle
from sdf_tools.model import IDENTITY
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Pose
from sdf_tools.topology import WORLD
from sdf_tools.transforms import compose
from sdf_tools.transforms import IDENTITY_MAT3
from sdf_tools.transforms import IDENTITY_QUAT
from sdf_tools.transforms import Mat3
from sdf_tools.transforms import mat3_from_quat
from sdf_tools.transforms import mat3_multiply
from sdf_tools.transforms import mat3_transpose
from sdf_tools.transforms import Quat
from sdf_tools.transforms import quat_conjugate
from sdf_tools.transforms import quat_from_axis_angle
from sdf_tools.transforms import quat_multiply
from sdf_tools.transforms import quat_normalize
from sdf_tools.transforms import quat_rotate
from sdf_tools.transforms import Vec3
from sdf_tools.transforms import vec_add
from sdf_tools.transforms import vec_cross
from sdf_tools.transforms import vec_dot
from sdf_tools.transforms import vec_scale
from sdf_tools.transforms import vec_sub
from sdf_tools.transforms import vec_unit
from sdf_tools.transforms import ZERO3

DEFAULT_AXIS2: Vec3 = (0.0, 0.0, 1.0)
_PLANAR_PARALLEL_TOL = 1e-6

_Array = npt.NDArray[np.float64]  # shapes in the docstrings
_Transform = tuple[Vec3, Quat]  # (xyz (m), unit quaternion)
_Batch = tuple[_Array, _Array]  # rotations (3, 3, B), translations (3, B) (m)


class FixedMotion(Motion):
    """Fixed joints, and root links placed in the model frame: ``M = I``."""

    __slots__ = ()

    def transform(self, q: Sequence[float]) -> _Transform:
        return ZERO3, IDENTITY_QUAT

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        n = q.shape[0]
        return np.broadcast_to(np.eye(3)[:, :, None], (3, 3, n)), np.zeros((3, n))

    def local(self, q: Sequence[float]) -> _Transform:
        return compose(self.xyz, self.quat, self.inv_xyz, self.inv_quat)

    def world_step(self) -> FixedStep:
        xyz, quat = self.local(())
        rotation = mat3_from_quat(quat)
        return FixedStep(None if rotation == IDENTITY_MAT3 else rotation, *xyz)


class RevoluteMotion(Motion):
    """Revolute and continuous joints: rotation about ``axis`` by the value."""

    axis: Vec3  # the kinds with an axis get one (compile._joint_axes)
    __slots__ = ()
    neutral = (0.0,)

    def transform(self, q: Sequence[float]) -> _Transform:
        return ZERO3, quat_from_axis_angle(self.axis, self.value(q))

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        assert value is not None  # a 1-dof joint's values: batch.py gives it a row
        return _rotations(self.axis, value), np.zeros((3, q.shape[0]))

    def world_step(self) -> RevoluteStep:
        """
        Precompose the fixed parts for the world-pose evaluators.

        ``R_child = R_parent @ R_o @ Rot(a, t) @ R_i = R_parent @ G @ Rot(b, t)`` with
        ``G = R_o @ R_i`` and ``b = R_i^T a`` (the axis in the child frame). If ``b`` is
        ``+-e_k`` exactly, ``Rot(b, t)`` just mixes two columns (the sign is folded into the
        multiplier and offset); otherwise ``Rot(b, t) = U @ Rot(e_z, t) @ U^T`` with
        ``U e_z = b``. The child's offset from the joint is ``d = R_i^T t_i``, added as
        ``R_child @ d``.
        """
        to_child = quat_conjugate(self.inv_quat)
        b = quat_rotate(to_child, self.axis)
        g = mat3_from_quat(quat_multiply(self.quat, self.inv_quat))
        aligned = _axis_aligned(b)
        if aligned is not None:
            k, sign = aligned
            pre, post = g, None
        else:
            k, sign = 2, 1.0
            u = _frame_with_z(b)
            pre, post = mat3_multiply(g, u), mat3_transpose(u)
        d = quat_rotate(to_child, self.inv_xyz)
        coordinate, multiplier, offset = self.drive
        x, y, z = self.xyz
        return RevoluteStep(None if pre == IDENTITY_MAT3 else pre, x, y, z, k, coordinate,
                            sign * multiplier, sign * offset, post, None if d == ZERO3 else d)

    def tf_step(self) -> TfRevolute | TfRevoluteOffset:
        """
        Precompose ``X_PC`` as functions of the half angle ``h``.

        ``quat = q_o * (a sin h, cos h) * q_i = cos(h) p + sin(h) s``; with a child offset
        ``t_i``, ``xyz = t_o + R_o Rot(a, 2h) t_i = b0 + cos(2h) b1 + sin(2h) b2``.
        """
        p = quat_multiply(self.quat, self.inv_quat)
        s = quat_multiply(quat_multiply(self.quat, (*self.axis, 0.0)), self.inv_quat)
        coordinate, multiplier, offset = self.drive
        half = (coordinate, 0.5 * multiplier, 0.5 * offset)
        if self.inv_xyz == ZERO3:
            return TfRevolute(*half, self.xyz, *p, *s)
        a, t_i = self.axis, self.inv_xyz
        along = vec_scale(a, vec_dot(a, t_i))
        b0 = vec_add(self.xyz, quat_rotate(self.quat, along))
        b1 = quat_rotate(self.quat, vec_sub(t_i, along))
        b2 = quat_rotate(self.quat, vec_cross(a, t_i))
        return TfRevoluteOffset(*half, *p, *s, *b0, *b1, *b2)


class PrismaticMotion(Motion):
    """Prismatic joints: translation by the value along ``axis``."""

    axis: Vec3  # the kinds with an axis get one (compile._joint_axes)
    __slots__ = ()
    neutral = (0.0,)

    def transform(self, q: Sequence[float]) -> _Transform:
        return vec_scale(self.axis, self.value(q)), IDENTITY_QUAT

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        assert value is not None  # a 1-dof joint's values: batch.py gives it a row
        n = q.shape[0]
        return (np.broadcast_to(np.eye(3)[:, :, None], (3, 3, n)),
                np.multiply.outer(np.array(self.axis), value))

    def _constants(self) -> tuple[Quat, Vec3, Vec3]:
        """Return ``q_o q_i``, ``t_o + R_o t_i`` and ``R_o a``: ``X_PC = (base + v dir, quat)``."""
        base = vec_add(self.xyz, quat_rotate(self.quat, self.inv_xyz))
        return (quat_multiply(self.quat, self.inv_quat), base,
                quat_rotate(self.quat, self.axis))

    def world_step(self) -> PrismaticStep:
        quat, base, direction = self._constants()
        rotation = mat3_from_quat(quat)
        (bx, by, bz), (dx, dy, dz) = base, direction
        coordinate, multiplier, offset = self.drive
        return PrismaticStep(None if rotation == IDENTITY_MAT3 else rotation, bx, by, bz,
                             coordinate, multiplier, offset, dx, dy, dz)

    def tf_step(self) -> TfPrismatic:
        quat, base, direction = self._constants()
        return TfPrismatic(*self.drive, quat, *base, *direction)


class ScrewMotion(Motion):
    """Screw joints: rotation by the value about ``axis`` and translation along it."""

    axis: Vec3  # the kinds with an axis get one (compile._joint_axes)
    __slots__ = ('pitch',)
    neutral = (0.0,)

    def __init__(self, joint: Joint, axis: Vec3 | None = None, axis2: Vec3 | None = None,
                 drive: Drive = NO_DRIVE) -> None:
        super().__init__(joint, axis, axis2, drive)
        pitch = 1.0 if joint.screw_thread_pitch is None else float(joint.screw_thread_pitch)
        self.pitch = pitch / (2.0 * math.pi)  # m per rad

    def transform(self, q: Sequence[float]) -> _Transform:
        v = self.value(q)
        return vec_scale(self.axis, v * self.pitch), quat_from_axis_angle(self.axis, v)

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        assert value is not None  # a 1-dof joint's values: batch.py gives it a row
        return (_rotations(self.axis, value),
                np.multiply.outer(np.array(self.axis) * self.pitch, value))


class GearboxMotion(Motion):
    """Gearbox joints: ``Rot(axis, -v) @ Rot(axis2, -ratio v)``."""

    axis: Vec3  # the kinds with axes get them (compile._joint_axes)
    axis2: Vec3
    __slots__ = ('ratio',)
    neutral = (0.0,)

    def __init__(self, joint: Joint, axis: Vec3 | None = None, axis2: Vec3 | None = None,
                 drive: Drive = NO_DRIVE) -> None:
        super().__init__(joint, axis, axis2, drive)
        self.ratio = 1.0 if joint.gearbox_ratio is None else float(joint.gearbox_ratio)

    def transform(self, q: Sequence[float]) -> _Transform:
        v = self.value(q)
        return ZERO3, quat_multiply(quat_from_axis_angle(self.axis, -v),
                                    quat_from_axis_angle(self.axis2, -self.ratio * v))

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        assert value is not None  # a 1-dof joint's values: batch.py gives it a row
        with np.errstate(over='ignore'):
            angle2 = -self.ratio * value
        if np.isinf(angle2).any():
            raise InfiniteAngle(q.tolist())
        r = _rotations(self.axis, -value)
        r2 = _rotations(self.axis2, angle2)
        return np.einsum('ikb,kjb->ijb', r, r2), np.zeros((3, q.shape[0]))

    def overflow(self, q: Sequence[float]) -> str | None:
        value = self.value(q)
        if math.isinf(self.ratio * value):
            return (f'gearbox angle {self.ratio:g} * {value:g} (gearbox_ratio times the joint '
                    'value) overflows to infinity')
        return None


class FloatingMotion(Motion):
    """Floating joints: translation ``(x, y, z)``, then rotation by the quaternion."""

    __slots__ = ()
    neutral = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)

    def transform(self, q: Sequence[float]) -> _Transform:
        i = self.drive.coordinate
        return (q[i], q[i + 1], q[i + 2]), quat_normalize(q[i + 3:i + 7])

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        i = self.drive.coordinate
        return _quat_rotations(q[:, i + 3:i + 7]), q[:, i:i + 3].T.copy()


class BallMotion(Motion):
    """Ball joints: rotation by the quaternion."""

    __slots__ = ()
    neutral = (0.0, 0.0, 0.0, 1.0)

    def transform(self, q: Sequence[float]) -> _Transform:
        i = self.drive.coordinate
        return ZERO3, quat_normalize(q[i:i + 4])

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        i = self.drive.coordinate
        return _quat_rotations(q[:, i:i + 4]), np.zeros((3, q.shape[0]))


class PlanarMotion(Motion):
    """Planar joints: ``Trans(x u + y v) @ Rot(n, theta)``, ``n = axis`` the plane normal."""

    axis: Vec3  # the kinds with an axis get one (compile._joint_axes)
    __slots__ = ('plane_u', 'plane_v')
    neutral = (0.0, 0.0, 0.0)

    def __init__(self, joint: Joint, axis: Vec3 | None = None, axis2: Vec3 | None = None,
                 drive: Drive = NO_DRIVE) -> None:
        super().__init__(joint, axis, axis2, drive)
        self.plane_u, self.plane_v = _plane_basis(self.axis)

    def transform(self, q: Sequence[float]) -> _Transform:
        i = self.drive.coordinate
        x, y, theta = q[i], q[i + 1], q[i + 2]
        return (vec_add(vec_scale(self.plane_u, x), vec_scale(self.plane_v, y)),
                quat_from_axis_angle(self.axis, theta))

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        i = self.drive.coordinate
        t = (np.multiply.outer(np.array(self.plane_u), q[:, i])
             + np.multiply.outer(np.array(self.plane_v), q[:, i + 1]))
        return _rotations(self.axis, q[:, i + 2]), t


class UniversalMotion(Motion):
    """Universal and revolute2 joints: ``Rot(axis, q1) @ Rot(axis2, q2)``."""

    axis: Vec3  # the kinds with axes get them (compile._joint_axes)
    axis2: Vec3
    __slots__ = ()
    neutral = (0.0, 0.0)

    def transform(self, q: Sequence[float]) -> _Transform:
        i = self.drive.coordinate
        return ZERO3, quat_multiply(quat_from_axis_angle(self.axis, q[i]),
                                    quat_from_axis_angle(self.axis2, q[i + 1]))

    def transform_batch(self, q: _Array, value: _Array | None) -> _Batch:
        i = self.drive.coordinate
        r1 = _rotations(self.axis, q[:, i])
        r2 = _rotations(self.axis2, q[:, i + 1])
        return np.einsum('ikb,kjb->ijb', r1, r2), np.zeros((3, q.shape[0]))


MOTIONS = MappingProxyType({
    JointType.FIXED: FixedMotion,
    JointType.REVOLUTE: RevoluteMotion,
    JointType.CONTINUOUS: RevoluteMotion,
    JointType.PRISMATIC: PrismaticMotion,
    JointType.SCREW: ScrewMotion,
    JointType.GEARBOX: GearboxMotion,
    JointType.FLOATING: FloatingMotion,
    JointType.BALL: BallMotion,
    JointType.PLANAR: PlanarMotion,
    JointType.UNIVERSAL: UniversalMotion,
    JointType.REVOLUTE2: UniversalMotion,
})
"""The motion of each joint kind."""


def joint_motion(joint: Joint, axis: Vec3 | None = None, axis2: Vec3 | None = None,
                 drive: Drive = NO_DRIVE) -> Motion:
    """
    Return the motion of a joint.

    Parameters
    ----------
    joint : Joint
        The joint.
    axis, axis2 : tuple or None
        Its unit axes in the joint frame (``None`` where unused).
    drive : Drive
        Where its value comes from in ``q``.

    """
    return MOTIONS[joint.kind](joint, axis, axis2, drive)


def root_motion(link: str, pose: Pose | None) -> FixedMotion:
    """Return the fixed motion placing a root link at ``pose`` (``None``: the origin)."""
    return FixedMotion(Joint('', JointType.FIXED, WORLD, link, origin=pose or IDENTITY))


# --- helpers ----------------------------------------------------------------------------------

def _axis_aligned(b: Vec3) -> tuple[int, float] | None:
    """Return ``(k, sign)`` if ``b`` is exactly +-e_k, else ``None``."""
    for k in range(3):
        others = [b[j] for j in range(3) if j != k]
        if others[0] == 0.0 and others[1] == 0.0 and abs(b[k]) == 1.0:
            return k, (1.0 if b[k] > 0.0 else -1.0)
    return None


def _frame_with_z(b: Vec3) -> Mat3:
    """Return a rotation matrix (9-tuple) whose third column is the unit vector ``b``."""
    helper = (1.0, 0.0, 0.0) if abs(b[0]) < 0.9 else (0.0, 1.0, 0.0)
    x = vec_unit(vec_cross(helper, b))
    y = vec_cross(b, x)
    return (x[0], y[0], b[0], x[1], y[1], b[1], x[2], y[2], b[2])


def _plane_basis(normal: Vec3) -> tuple[Vec3, Vec3]:
    """Return ``(u, v)``: the joint x axis projected on the plane (y if x is normal), n x u."""
    for e in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)):
        u = vec_sub(e, vec_scale(normal, vec_dot(e, normal)))
        if math.hypot(*u) > _PLANAR_PARALLEL_TOL:
            u = vec_unit(u)
            return u, vec_cross(normal, u)
    raise AssertionError('unreachable: a unit normal is parallel to at most one of x, y')


def _rotations(axis: Vec3, angle: _Array) -> _Array:
    """Return ``Rot(axis, angle)`` (3, 3, B) for angles (B,)."""
    return _configurations_last(matrices_from_axis_angle_batch(axis, angle))


def _quat_rotations(quats: _Array) -> _Array:
    """Return the rotations (3, 3, B) of quaternions (B, 4), normalised (0 -> identity)."""
    return _configurations_last(matrices_from_quats_batch(quat_normalize_batch(quats)))


def _configurations_last(matrices: _Array) -> _Array:
    """Return (B, 3, 3) matrices as a contiguous (3, 3, B) array: einsum is slow on views."""
    return np.ascontiguousarray(matrices.transpose(1, 2, 0))
