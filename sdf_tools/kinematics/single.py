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
World poses for one configuration, in pure Python.

For one configuration a chain of 3x3 products in :mod:`math` floats beats numpy, whose
per-call overhead dominates such small arrays. :func:`compile_records` turns each link's
:class:`~sdf_tools.kinematics.motion.Motion` into a record once; :func:`world_poses` runs them
in tree order, each record composing its link's pose from its parent's.

A record is a plain tuple ``(op, parent slot, *step)``: the op code, the slot of the parent
link's pose (slot 0 is the model frame, link ``i`` is slot ``i + 1``), then the fields of
the motion's :meth:`~sdf_tools.kinematics.motion.Motion.world_step` in their order
(:class:`~sdf_tools.kinematics.motion.FixedStep`, ``RevoluteStep``, ``PrismaticStep``), or
the motion itself when it has no step. Plain tuples, not the step NamedTuples: CPython
unpacks an exact tuple about twice as fast, and the loop unpacks one per link.
"""

from collections.abc import Sequence
import math
from typing import Any

from sdf_tools.kinematics.motion import FixedStep
from sdf_tools.kinematics.motion import Motion
from sdf_tools.kinematics.motion import PrismaticStep
from sdf_tools.kinematics.motion import RevoluteStep
from sdf_tools.transforms import mat3_from_quat

_FIXED = 0
_REVOLUTE = 1
_PRISMATIC = 2
_GENERAL = 3
_OPS = {FixedStep: _FIXED, RevoluteStep: _REVOLUTE, PrismaticStep: _PRISMATIC}

Record = tuple[Any, ...]
"""``(op, parent slot, *step)``, or ``(op, parent slot, motion)`` (see above)."""
Pose16 = tuple[float, ...]
"""A row-major 4x4 transform, 16 floats."""

# World poses are row-major 4x4 16-tuples (the output layout, so no reshuffle at the end).
MODEL_FRAME: Pose16 = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
                       0.0, 0.0, 0.0, 1.0)


def compile_records(motions: Sequence[Motion],
                    steps: Sequence[FixedStep | RevoluteStep | PrismaticStep | None],
                    link_parent: Sequence[int]) -> tuple[Record, ...]:
    """
    Return the records of :func:`world_poses`.

    Parameters
    ----------
    motions : sequence of Motion
        Per link, in tree order, the motion from its parent (root links: their pose).
    steps : sequence
        Per link, ``motion.world_step()``.
    link_parent : sequence of int
        Per link, its parent's index (-1: the model frame).

    """
    records: list[Record] = []
    for motion, step, parent in zip(motions, steps, link_parent):
        if step is None:
            records.append((_GENERAL, parent + 1, motion))
        else:
            records.append((_OPS[type(step)], parent + 1, *step))
    return tuple(records)


def world_poses(records: Sequence[Record], q: Sequence[float]) -> list[Pose16]:
    """
    Return ``T_model_link`` of every link as row-major 16-tuples, the model frame first.

    ``records`` come from :func:`compile_records`; ``q`` is a list of floats (n_q,) that the
    caller checked finite. ``math.sin`` raises ValueError or OverflowError for an infinite
    angle that a mimic or gearbox factor produced.
    """
    poses: list[Pose16] = [MODEL_FRAME]
    append = poses.append
    sin = math.sin
    cos = math.cos
    for record in records:
        op = record[0]
        (r00, r01, r02, x, r10, r11, r12, y, r20, r21, r22, z,
         _, _, _, _) = poses[record[1]]
        # The constant part first: t += R @ (tx, ty, tz), then R = R @ g.
        if op == _REVOLUTE:
            _, _, g, tx, ty, tz, k, i, m, o, u, d = record
        elif op == _FIXED:
            _, _, g, tx, ty, tz = record
        elif op == _PRISMATIC:
            _, _, g, tx, ty, tz, i, m, o, ex, ey, ez = record
            v = q[i] * m + o
            tx += v * ex
            ty += v * ey
            tz += v * ez
        else:
            (tx, ty, tz), quat = record[2].local(q)
            g = mat3_from_quat(quat)
        x += r00 * tx + r01 * ty + r02 * tz
        y += r10 * tx + r11 * ty + r12 * tz
        z += r20 * tx + r21 * ty + r22 * tz
        if g is not None:
            g00, g01, g02, g10, g11, g12, g20, g21, g22 = g
            r00, r01, r02 = (r00 * g00 + r01 * g10 + r02 * g20,
                             r00 * g01 + r01 * g11 + r02 * g21,
                             r00 * g02 + r01 * g12 + r02 * g22)
            r10, r11, r12 = (r10 * g00 + r11 * g10 + r12 * g20,
                             r10 * g01 + r11 * g11 + r12 * g21,
                             r10 * g02 + r11 * g12 + r12 * g22)
            r20, r21, r22 = (r20 * g00 + r21 * g10 + r22 * g20,
                             r20 * g01 + r21 * g11 + r22 * g21,
                             r20 * g02 + r21 * g12 + r22 * g22)
        if op == _REVOLUTE:
            t = q[i] * m + o
            c = cos(t)
            s = sin(t)
            # Right-multiply by the rotation about axis k: mixes the two other columns.
            if k == 2:
                r00, r01 = r00 * c + r01 * s, r01 * c - r00 * s
                r10, r11 = r10 * c + r11 * s, r11 * c - r10 * s
                r20, r21 = r20 * c + r21 * s, r21 * c - r20 * s
            elif k == 0:
                r01, r02 = r01 * c + r02 * s, r02 * c - r01 * s
                r11, r12 = r11 * c + r12 * s, r12 * c - r11 * s
                r21, r22 = r21 * c + r22 * s, r22 * c - r21 * s
            else:
                r02, r00 = r02 * c + r00 * s, r00 * c - r02 * s
                r12, r10 = r12 * c + r10 * s, r10 * c - r12 * s
                r22, r20 = r22 * c + r20 * s, r20 * c - r22 * s
            if u is not None:  # R = R @ u, inlined as R @ g above (a call would cost more)
                u00, u01, u02, u10, u11, u12, u20, u21, u22 = u
                r00, r01, r02 = (r00 * u00 + r01 * u10 + r02 * u20,
                                 r00 * u01 + r01 * u11 + r02 * u21,
                                 r00 * u02 + r01 * u12 + r02 * u22)
                r10, r11, r12 = (r10 * u00 + r11 * u10 + r12 * u20,
                                 r10 * u01 + r11 * u11 + r12 * u21,
                                 r10 * u02 + r11 * u12 + r12 * u22)
                r20, r21, r22 = (r20 * u00 + r21 * u10 + r22 * u20,
                                 r20 * u01 + r21 * u11 + r22 * u21,
                                 r20 * u02 + r21 * u12 + r22 * u22)
            if d is not None:
                dx, dy, dz = d
                x += r00 * dx + r01 * dy + r02 * dz
                y += r10 * dx + r11 * dy + r12 * dz
                z += r20 * dx + r21 * dy + r22 * dz
        append((r00, r01, r02, x, r10, r11, r12, y, r20, r21, r22, z, 0.0, 0.0, 0.0, 1.0))
    return poses
