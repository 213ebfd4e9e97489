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
The motion of a joint: how it moves its child, written once per joint kind for every evaluator.

Each joint moves its child by ``X_PC(q) = X_PJ @ M(q) @ inv(X_CJ)`` (see
:mod:`sdf_tools.model`; ``M(q)`` of each kind: :mod:`.joint_motions`). Like a pinocchio joint
model with its ``calc``, a :class:`Motion` writes its kind's maths once:
:meth:`Motion.transform` gives ``M(q)`` for one configuration (tuples and :mod:`math`),
:meth:`Motion.transform_batch` for a chunk of configurations (numpy), and
:meth:`Motion.local` the whole ``X_PC(q)``. The evaluators never ask which kind a joint is.

Where a kind allows a faster evaluation, its motion describes it as a *step* of precomposed
constants, and each evaluator turns steps into its own records:

* :meth:`Motion.world_step` (:class:`FixedStep`, :class:`RevoluteStep`,
  :class:`PrismaticStep`) for the world-pose evaluators (:mod:`.single`, :mod:`.batch`);
* :meth:`Motion.tf_step` (:class:`TfRevolute`, :class:`TfRevoluteOffset`,
  :class:`TfPrismatic`) for the per-joint transforms (:mod:`.joint_states`).

``None`` means "no shortcut": the evaluator calls :meth:`Motion.local` or
:meth:`Motion.transform_batch`. Rotations in steps are row-major 9-tuples (``None`` for the
identity), as in :mod:`sdf_tools.transforms`.
"""

from collections.abc import Sequence
import copy
from typing import NamedTuple

import numpy as np
import numpy.typing as npt
from sdf_tools.model import Joint
from sdf_tools.transforms import Mat3
from sdf_tools.transforms import Quat
from sdf_tools.transforms import quat_multiply
from sdf_tools.transforms import quat_normalize
from sdf_tools.transforms import quat_rotate
from sdf_tools.transforms import Vec3
from sdf_tools.transforms import vec_add

_Array = npt.NDArray[np.float64]  # shapes in the docstrings


class Drive(NamedTuple):
    """
    What a joint's value is: ``multiplier * q[coordinate] + offset``.

    For a mimic joint, ``coordinate`` is that of its independent source; for a multi-dof
    joint it is its first coordinate (with 1 and 0).
    """

    coordinate: int
    multiplier: float = 1.0
    offset: float = 0.0


NO_DRIVE = Drive(0)


# --- steps: the shortcuts the evaluators may take --------------------------------------------

class FixedStep(NamedTuple):
    """
    A constant ``X_PC``.

    ``R_child = R_parent @ rotation`` and ``t_child = t_parent + R_parent @ (x, y, z)``.
    """

    rotation: Mat3 | None
    x: float
    y: float
    z: float


class RevoluteStep(NamedTuple):
    """
    A rotation about a child-frame axis, precomposed (see :meth:`RevoluteMotion.world_step`).

    ``R_child = R_parent @ rotation @ Rot(e_axis, angle) @ post`` and ``t_child = t_parent +
    R_parent @ (x, y, z) + R_child @ d``, with ``angle = multiplier * q[coordinate] + offset``
    and ``e_axis`` the unit vector along x, y or z (``axis`` 0, 1, 2). ``post`` and ``d``
    are ``None`` when they are the identity and zero.
    """

    rotation: Mat3 | None
    x: float
    y: float
    z: float
    axis: int
    coordinate: int
    multiplier: float
    offset: float
    post: Mat3 | None
    d: Vec3 | None


class PrismaticStep(NamedTuple):
    """
    A translation along a parent-frame direction.

    ``R_child = R_parent @ rotation`` and ``t_child = t_parent + R_parent @ ((x, y, z) + v *
    (ex, ey, ez))``, with ``v = multiplier * q[coordinate] + offset``.
    """

    rotation: Mat3 | None
    x: float
    y: float
    z: float
    coordinate: int
    multiplier: float
    offset: float
    ex: float
    ey: float
    ez: float


class TfRevolute(NamedTuple):
    """
    A revolute joint whose child frame is at the joint (URDF), as a function of half the angle.

    ``X_PC = (xyz, cos(h) p + sin(h) s)`` with ``h = half_multiplier * q[coordinate] +
    half_offset``.
    """

    coordinate: int
    half_multiplier: float
    half_offset: float
    xyz: Vec3
    px: float
    py: float
    pz: float
    pw: float
    sx: float
    sy: float
    sz: float
    sw: float


class TfRevoluteOffset(NamedTuple):
    """As :class:`TfRevolute`, with a translation that turns: ``b0 + cos(2h) b1 + sin(2h) b2``."""

    coordinate: int
    half_multiplier: float
    half_offset: float
    px: float
    py: float
    pz: float
    pw: float
    sx: float
    sy: float
    sz: float
    sw: float
    x0: float
    y0: float
    z0: float
    x1: float
    y1: float
    z1: float
    x2: float
    y2: float
    z2: float


class TfPrismatic(NamedTuple):
    """
    A prismatic joint.

    ``X_PC = ((x, y, z) + v (ex, ey, ez), quat)`` with ``v = multiplier * q[coordinate] +
    offset``.
    """

    coordinate: int
    multiplier: float
    offset: float
    quat: Quat
    x: float
    y: float
    z: float
    ex: float
    ey: float
    ez: float


# --- motions ----------------------------------------------------------------------------------

class Motion:
    """
    How one joint moves its child; the base of the per-kind motions (module docstring).

    Attributes
    ----------
    kind : JointType
        The joint kind.
    xyz, quat : tuple
        ``X_PJ``, the joint frame in the parent link frame (m, unit quaternion).
    inv_xyz, inv_quat : tuple
        ``inv(X_CJ)``, the child link frame in the joint frame.
    axis, axis2 : tuple or None
        Unit axes in the joint frame; ``None`` where the kind uses none
        (:attr:`~sdf_tools.model.JointType.axes`).
    drive : Drive
        Where the joint's value comes from in ``q``.

    """

    __slots__ = ('kind', 'xyz', 'quat', 'inv_xyz', 'inv_quat', 'axis', 'axis2', 'drive')

    #: The zero configuration of the joint's coordinates.
    neutral: tuple[float, ...] = ()

    def __init__(self, joint: Joint, axis: Vec3 | None = None, axis2: Vec3 | None = None,
                 drive: Drive = NO_DRIVE) -> None:
        inverse = joint.joint_in_child.inverse()
        self.kind = joint.kind
        x, y, z = joint.origin.xyz
        self.xyz: Vec3 = (float(x), float(y), float(z))
        self.quat = quat_normalize(tuple(float(v) for v in joint.origin.quat))
        x, y, z = inverse.xyz
        self.inv_xyz: Vec3 = (float(x), float(y), float(z))
        self.inv_quat = quat_normalize(tuple(float(v) for v in inverse.quat))
        self.axis = axis
        self.axis2 = axis2
        self.drive = drive

    def with_drive(self, drive: Drive) -> 'Motion':
        """Return a copy of this motion whose value comes from ``drive`` instead."""
        other = copy.copy(self)
        other.drive = drive
        return other

    def value(self, q: Sequence[float]) -> float:
        """Return the joint value ``multiplier * q[coordinate] + offset`` (rad or m)."""
        i, multiplier, offset = self.drive
        return q[i] * multiplier + offset

    def transform(self, q: Sequence[float]) -> tuple[Vec3, Quat]:
        """
        Return ``M(q)`` for one configuration.

        Parameters
        ----------
        q : sequence of float, shape (n_q,)
            The configuration.

        Returns
        -------
        tuple
            ``(xyz, quat)`` in the joint frame (m, unit quaternion).

        """
        raise NotImplementedError

    def transform_batch(self, q: _Array, value: _Array | None) -> tuple[_Array, _Array]:
        """
        Return ``M(q)`` for a chunk of configurations, configuration index last.

        Parameters
        ----------
        q : ndarray, shape (B, n_q)
            The configurations.
        value : ndarray, shape (B,), or None
            The joint value (mimic applied) of a 1-dof joint.

        Returns
        -------
        r : ndarray, shape (3, 3, B)
            Rotations.
        t : ndarray, shape (3, B)
            Translations (m).

        """
        raise NotImplementedError

    def local(self, q: Sequence[float]) -> tuple[Vec3, Quat]:
        """
        Return ``X_PC(q) = X_PJ @ M(q) @ inv(X_CJ)`` as ``(xyz, quat)``.

        The product of the unit quaternions is not normalised again: on this hot path that
        would cost more than the 1e-16 it corrects.
        """
        m_xyz, m_quat = self.transform(q)
        xyz = vec_add(self.xyz, quat_rotate(self.quat,
                                            vec_add(m_xyz, quat_rotate(m_quat, self.inv_xyz))))
        return xyz, quat_multiply(quat_multiply(self.quat, m_quat), self.inv_quat)

    def world_step(self) -> FixedStep | RevoluteStep | PrismaticStep | None:
        """Return the shortcut for the world-pose evaluators, or ``None`` (module docstring)."""
        return None

    def tf_step(self) -> TfRevolute | TfRevoluteOffset | TfPrismatic | None:
        """Return the shortcut for the per-joint transforms, or ``None`` (module docstring)."""
        return None

    def overflow(self, q: Sequence[float]) -> str | None:
        """Return why an angle of ``M(q)`` is infinite for finite joint values, if it is."""
        return None
