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
World poses for many configurations at once, with numpy, in chunks.

:class:`BatchProgram` is compiled once per tree: one op per link, built from the link's
:class:`~sdf_tools.kinematics.motion.Motion` (its
:meth:`~sdf_tools.kinematics.motion.Motion.world_step` where it has one, else
:meth:`~sdf_tools.kinematics.motion.Motion.transform_batch`). Each op composes its link's
pose for a whole chunk of configurations from its parent's, so the Python loop runs once per
link and chunk, never per configuration.

A slot holds one link pose for a chunk as ``R`` (3, 3, B) and ``t`` (3, B), the
configuration index last so every numpy call streams over contiguous memory. Slot 0 is the
model frame, slot 1 is scratch for leaf links; a link with children keeps a slot until its
last child is done, so the slot count stays small (2 for a chain) and memory does not grow
with the number of links.
"""

from typing import Callable
from typing import NamedTuple
from typing import Sequence

import numpy as np
import numpy.typing as npt

from sdf_tools.kinematics.motion import Drive
from sdf_tools.kinematics.motion import FixedStep
from sdf_tools.kinematics.motion import Motion
from sdf_tools.kinematics.motion import PrismaticStep
from sdf_tools.kinematics.motion import RevoluteStep
from sdf_tools.kinematics.values import InfiniteAngle
from sdf_tools.transforms import mat3_from_quat

# The two columns a rotation about x, y or z mixes: R @ Rot(e_k, t) turns column a towards b.
_MIXED_COLUMNS = ((1, 2), (2, 0), (0, 1))

_Array = npt.NDArray[np.float64]  # shapes in the docstrings and comments


class BatchProgram:
    """
    The vectorised world-pose evaluator of one tree.

    Parameters
    ----------
    motions, steps, link_parent : sequence
        Per link, in tree order: its motion, the motion's world step and its parent's
        index, as for :func:`~sdf_tools.kinematics.single.compile_records`.

    """

    __slots__ = ('ops', 'n_slots', 'value_coordinate', 'value_multiplier', 'value_offset',
                 'n_trig')

    def __init__(self, motions: Sequence[Motion],
                 steps: Sequence[FixedStep | RevoluteStep | PrismaticStep | None],
                 link_parent: Sequence[int]) -> None:
        slot_of, self.n_slots = _allocate_slots(link_parent)
        # Rows of the per-chunk array of joint values: revolute joints first (their cos and
        # sin are computed in one call each), then the other 1-dof joints.
        revolute = [i for i, step in enumerate(steps) if type(step) is RevoluteStep]
        others = [i for i, (motion, step) in enumerate(zip(motions, steps))
                  if motion.kind.dof == 1 and type(step) is not RevoluteStep]
        rows = revolute + others
        # A revolute step folds the sign of its axis into its own multiplier and offset.
        drives = [_drive(motions[i], steps[i]) for i in rows]
        self.value_coordinate = np.array([d.coordinate for d in drives], dtype=np.intp)
        self.value_multiplier = np.array([d.multiplier for d in drives], dtype=float)[:, None]
        self.value_offset = np.array([d.offset for d in drives], dtype=float)[:, None]
        self.n_trig = len(revolute)
        row_of = {i: row for row, i in enumerate(rows)}
        # op[:]: the op as a plain tuple, which unpacks faster than the named one.
        self.ops: tuple[_OpTuple, ...] = tuple(
            _op(i, motion, step, 0 if p < 0 else slot_of[p], slot_of[i], row_of.get(i, -1))[:]
            for i, (motion, step, p) in enumerate(zip(motions, steps, link_parent)))

    def poses(self, q: _Array, chunk: int) -> _Array:
        """
        Return ``T_model_link`` (B, n_links, 4, 4) for configurations ``q`` (B, n_q).

        At most ``chunk`` configurations are evaluated at once.

        Raises
        ------
        InfiniteAngle
            A joint angle is infinite, with the chunk that holds it.

        """
        count = q.shape[0]
        out = np.empty((count, len(self.ops), 4, 4))
        out[:, :, 3, :3] = 0.0
        out[:, :, 3, 3] = 1.0
        for start in range(0, count, chunk):
            part = q[start:start + chunk]
            if not self.run(part, out[start:start + chunk]):
                raise InfiniteAngle(part.tolist())
        return out

    def run(self, q: _Array, out: _Array) -> bool:
        """
        Fill ``out`` (B, n_links, 4, 4) with ``T_model_link`` for ``q`` (B, n_q).

        The bottom rows of ``out`` must already be ``(0, 0, 0, 1)``. Return ``False``
        (leaving ``out`` unfilled) when a joint angle is infinite, as the single evaluator
        refuses it too.
        """
        values = np.ascontiguousarray(q.T)[self.value_coordinate]
        with np.errstate(over='ignore', invalid='ignore'):
            values *= self.value_multiplier
            values += self.value_offset
        if np.isinf(values).any() or np.isinf(q).any():
            return False
        work = _Chunk(q, values, self.n_trig, self.n_slots)
        rot, trans, tmp, tmp9, cos, sin = (work.rot, work.trans, work.tmp, work.tmp9,
                                           work.cos, work.sin)
        matmul = np.matmul
        for link, parent, slot, rotation_t, translation, turn, tail in self.ops:
            r_p, r_c, t_c = rot[parent], rot[slot], trans[slot]
            # The constant part: t = t_p + R_p @ translation (matmul of (3,) by the stack
            # (3, 3, B) gives R_p @ v per configuration), R = R_p @ rotation.
            matmul(translation, r_p, out=t_c)
            t_c += trans[parent]
            if rotation_t is None:
                r_c[...] = r_p
            else:
                matmul(rotation_t, r_p, out=r_c)
            if turn is not None:  # R = R @ Rot(e_k, angle): turns column a towards b
                row, a, b = turn
                c, s = cos[row], sin[row]
                col_a, col_b = r_c[:, a], r_c[:, b]
                tmp[...] = col_a
                col_a *= c
                np.multiply(col_b, s, out=tmp9[0])
                col_a += tmp9[0]
                col_b *= c
                tmp *= s
                col_b -= tmp
            if tail is not None:
                tail(work, r_p, r_c, t_c)
            target = out[:, link]
            target[:, :3, :3] = r_c.transpose(2, 0, 1)
            target[:, :3, 3] = t_c.T
        return True


class _Op(NamedTuple):
    """
    One link of the program (stored as a plain tuple, unpacked once per link and chunk).

    ``R = R_parent @ rotation``, ``t = t_parent + R_parent @ translation``; then, for a
    revolute step, the turn ``(row, a, b)`` mixes columns ``a`` and ``b`` by the angle of
    value row ``row``; then ``tail(work, r_parent, r, t)`` adds what else the motion does.
    """

    link: int
    parent: int                      # the parent's slot
    slot: int                        # this link's slot
    rotation: _Array | None      # transposed, for left matmuls; None: identity
    translation: _Array          # (3,)
    turn: tuple[int, int, int] | None
    tail: '_Tail | None'


# What an op adds after the turn: tail(work, r_parent, r, t), in place on r (3, 3, B) and t (3, B).
_Tail = Callable[['_Chunk', _Array, _Array, _Array], None]
_OpTuple = tuple[int, int, int, _Array | None, _Array, tuple[int, int, int] | None,
                 _Tail | None]


class _Chunk:
    """The working arrays of one chunk of B configurations."""

    __slots__ = ('q', 'values', 'cos', 'sin', 'rot', 'trans', 'tmp', 'tmp9')

    def __init__(self, q: _Array, values: _Array, n_trig: int, n_slots: int) -> None:
        n = q.shape[0]
        self.q = q
        self.values = values                      # (n_values, B): 1-dof joint values
        self.cos = np.cos(values[:n_trig])        # (n_trig, B)
        self.sin = np.sin(values[:n_trig])
        self.rot = np.empty((n_slots, 3, 3, n))   # slot -> R (3, 3, B)
        self.trans = np.empty((n_slots, 3, n))    # slot -> t (3, B)
        self.rot[0] = np.eye(3)[:, :, None]
        self.trans[0] = 0.0
        self.tmp = np.empty((3, n))
        self.tmp9 = np.empty((3, 3, n))


def _allocate_slots(link_parent: Sequence[int]) -> tuple[list[int], int]:
    """Return each link's slot and the number of slots (module docstring)."""
    remaining = [0] * len(link_parent)
    for p in link_parent:
        if p >= 0:
            remaining[p] += 1
    slot_of: list[int] = []
    free: list[int] = []
    n_slots = 2
    for i, p in enumerate(link_parent):
        if remaining[i]:
            slot = free.pop() if free else n_slots
            n_slots = max(n_slots, slot + 1)
        else:
            slot = 1
        slot_of.append(slot)
        if p >= 0:
            remaining[p] -= 1
            if remaining[p] == 0:
                free.append(slot_of[p])
    return slot_of, n_slots


def _op(link: int, motion: Motion, step: FixedStep | RevoluteStep | PrismaticStep | None,
        parent: int, slot: int, row: int) -> _Op:
    """Return the op of one link (``row``: its row of the value array, or -1)."""
    if step is None:  # X_PJ first, then the motion's own M(q) and inv(X_CJ)
        return _Op(link, parent, slot, _transposed(mat3_from_quat(motion.quat)),
                   np.array(motion.xyz), None, _MotionTail(motion, row).apply)
    translation = np.array((step.x, step.y, step.z))
    rotation = _transposed(step.rotation)
    if type(step) is RevoluteStep:
        tail = None
        if step.post is not None or step.d is not None:
            tail = _RevoluteTail(step).apply
        return _Op(link, parent, slot, rotation, translation,
                   (row, *_MIXED_COLUMNS[step.axis]), tail)
    if type(step) is PrismaticStep:
        return _Op(link, parent, slot, rotation, translation, None,
                   _Slide(row, step).apply)
    return _Op(link, parent, slot, rotation, translation, None, None)


def _drive(motion: Motion,
           step: FixedStep | RevoluteStep | PrismaticStep | None) -> Drive | RevoluteStep:
    """Return what drives a 1-dof link's value row (its coordinate, multiplier and offset)."""
    return step if type(step) is RevoluteStep else motion.drive


def _transposed(m9: Sequence[float] | None) -> _Array | None:
    """Return the transpose of a 9-tuple matrix as a (3, 3) array, or ``None`` for ``None``."""
    return None if m9 is None else _transpose(m9)


def _transpose(m9: Sequence[float]) -> _Array:
    """Return the transpose of a 9-tuple matrix as a (3, 3) array (for left matmuls)."""
    return np.array(m9, dtype=float).reshape(3, 3).T.copy()


class _RevoluteTail:
    """The rest of a revolute step after the turn: ``R = R @ post``, ``t += R @ d``."""

    __slots__ = ('post_t', 'd')

    def __init__(self, step: RevoluteStep) -> None:
        self.post_t = _transposed(step.post)
        self.d = None if step.d is None else np.array(step.d)

    def apply(self, work: _Chunk, r_p: _Array, r_c: _Array,
              t_c: _Array) -> None:
        if self.post_t is not None:
            np.matmul(self.post_t, r_c, out=work.tmp9)
            r_c[...] = work.tmp9
        if self.d is not None:
            np.matmul(self.d, r_c, out=work.tmp)
            t_c += work.tmp


class _Slide:
    """The motion of a prismatic step: ``t += R_p @ (v * direction)``."""

    __slots__ = ('row', 'direction')

    def __init__(self, row: int, step: PrismaticStep) -> None:
        self.row = row
        self.direction = np.array((step.ex, step.ey, step.ez))

    def apply(self, work: _Chunk, r_p: _Array, r_c: _Array,
              t_c: _Array) -> None:
        np.matmul(self.direction, r_p, out=work.tmp)
        work.tmp *= work.values[self.row]
        t_c += work.tmp


class _MotionTail:
    """Any motion after ``X_PJ``: ``@ M(q) @ inv(X_CJ)``, ``M`` from ``transform_batch``."""

    __slots__ = ('motion', 'row', 'r_i_t', 't_i')

    def __init__(self, motion: Motion, row: int) -> None:
        self.motion = motion
        self.row = row
        self.r_i_t = _transpose(mat3_from_quat(motion.inv_quat))
        self.t_i = np.array(motion.inv_xyz)

    def apply(self, work: _Chunk, r_p: _Array, r_c: _Array,
              t_c: _Array) -> None:
        value = work.values[self.row] if self.row >= 0 else None
        r_m, t_m = self.motion.transform_batch(work.q, value)
        t_c += np.einsum('ikb,kb->ib', r_c, t_m)         # + R_p R_o t_m
        x = np.einsum('ikb,kjb->ijb', r_c, r_m)          # R_p R_o R_m
        t_c += np.matmul(self.t_i, x)
        np.matmul(self.r_i_t, x, out=r_c)
