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

import numpy as np

from sdf_tools.kinematics.motion import PrismaticStep
from sdf_tools.kinematics.motion import RevoluteStep
from sdf_tools.kinematics.values import InfiniteAngle
from sdf_tools.transforms import mat3_from_quat

# The two columns a rotation about x, y or z mixes: R @ Rot(e_k, t) turns column a towards b.
_MIXED_COLUMNS = ((1, 2), (2, 0), (0, 1))


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

    def __init__(self, motions, steps, link_parent):
        slot_of, self.n_slots = _allocate_slots(link_parent)
        # Rows of the per-chunk array of joint values: revolute joints first (their cos and
        # sin are computed in one call each), then the other 1-dof joints.
        revolute = [i for i, step in enumerate(steps) if type(step) is RevoluteStep]
        others = [i for i, (motion, step) in enumerate(zip(motions, steps))
                  if motion.kind.dof == 1 and type(step) is not RevoluteStep]
        rows = revolute + others
        # A revolute step folds the sign of its axis into its own multiplier and offset.
        drives = [steps[i] if type(steps[i]) is RevoluteStep else motions[i].drive
                  for i in rows]
        self.value_coordinate = np.array([d.coordinate for d in drives], dtype=np.intp)
        self.value_multiplier = np.array([d.multiplier for d in drives], dtype=float)[:, None]
        self.value_offset = np.array([d.offset for d in drives], dtype=float)[:, None]
        self.n_trig = len(revolute)
        row_of = {i: row for row, i in enumerate(rows)}
        self.ops = tuple(
            _make_op(i, motion, step, 0 if p < 0 else slot_of[p], slot_of[i],
                     row_of.get(i, -1))
            for i, (motion, step, p) in enumerate(zip(motions, steps, link_parent)))

    def poses(self, q, chunk: int) -> np.ndarray:
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

    def run(self, q, out) -> bool:
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
        rot, trans = work.rot, work.trans
        for op in self.ops:
            op.apply(work)
            target = out[:, op.link]
            target[:, :3, :3] = rot[op.slot].transpose(2, 0, 1)
            target[:, :3, 3] = trans[op.slot].T
        return True


class _Chunk:
    """The working arrays of one chunk of B configurations."""

    __slots__ = ('q', 'values', 'cos', 'sin', 'rot', 'trans', 'tmp', 'tmp9')

    def __init__(self, q, values, n_trig: int, n_slots: int):
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


def _allocate_slots(link_parent):
    """Return each link's slot and the number of slots (module docstring)."""
    remaining = [0] * len(link_parent)
    for p in link_parent:
        if p >= 0:
            remaining[p] += 1
    slot_of, free, n_slots = [], [], 2
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


def _make_op(link: int, motion, step, parent: int, slot: int, row: int):
    """Return the op of one link (``row``: its row of the value array, or -1)."""
    if step is None:
        return _GeneralOp(link, parent, slot, row, motion)
    if type(step) is RevoluteStep:
        return _RevoluteOp(link, parent, slot, row, step)
    if type(step) is PrismaticStep:
        return _PrismaticOp(link, parent, slot, row, step)
    return _ConstantOp(link, parent, slot, step.rotation, (step.x, step.y, step.z))


def _transposed(m9) -> np.ndarray | None:
    """Return the transpose of a 9-tuple matrix as a (3, 3) array (for left matmuls)."""
    return None if m9 is None else np.array(m9, dtype=float).reshape(3, 3).T.copy()


class _ConstantOp:
    """A constant transform from the parent: ``t = t_p + R_p @ t_o``, ``R = R_p @ G``."""

    __slots__ = ('link', 'parent', 'slot', 'rotation_t', 'translation')

    def __init__(self, link, parent, slot, rotation, translation):
        self.link = link
        self.parent = parent
        self.slot = slot
        self.rotation_t = _transposed(rotation)
        self.translation = np.array(translation, dtype=float)

    def apply(self, work: _Chunk) -> None:
        r_p, r_c, t_c = work.rot[self.parent], work.rot[self.slot], work.trans[self.slot]
        # matmul of (3,) by the stack (3, 3, B) gives R_p @ v for each configuration.
        np.matmul(self.translation, r_p, out=t_c)
        t_c += work.trans[self.parent]
        if self.rotation_t is None:
            r_c[...] = r_p
        else:
            np.matmul(self.rotation_t, r_p, out=r_c)


class _RevoluteOp(_ConstantOp):
    """A :class:`~sdf_tools.kinematics.motion.RevoluteStep`: the constant part, then the turn."""

    __slots__ = ('row', 'columns', 'post_t', 'd')

    def __init__(self, link, parent, slot, row, step: RevoluteStep):
        super().__init__(link, parent, slot, step.rotation, (step.x, step.y, step.z))
        self.row = row
        self.columns = _MIXED_COLUMNS[step.axis]
        self.post_t = _transposed(step.post)
        self.d = None if step.d is None else np.array(step.d)

    def apply(self, work: _Chunk) -> None:
        _ConstantOp.apply(self, work)
        r_c, tmp, tmp9 = work.rot[self.slot], work.tmp, work.tmp9
        c, s = work.cos[self.row], work.sin[self.row]
        a, b = self.columns
        col_a, col_b = r_c[:, a], r_c[:, b]
        tmp[...] = col_a
        col_a *= c
        np.multiply(col_b, s, out=tmp9[0])
        col_a += tmp9[0]
        col_b *= c
        tmp *= s
        col_b -= tmp
        if self.post_t is not None:
            np.matmul(self.post_t, r_c, out=tmp9)
            r_c[...] = tmp9
        if self.d is not None:
            np.matmul(self.d, r_c, out=tmp)
            work.trans[self.slot] += tmp


class _PrismaticOp(_ConstantOp):
    """A :class:`~sdf_tools.kinematics.motion.PrismaticStep`: the constant part, then the slide."""

    __slots__ = ('row', 'direction')

    def __init__(self, link, parent, slot, row, step):
        super().__init__(link, parent, slot, step.rotation, (step.x, step.y, step.z))
        self.row = row
        self.direction = np.array((step.ex, step.ey, step.ez))

    def apply(self, work: _Chunk) -> None:
        _ConstantOp.apply(self, work)
        tmp = work.tmp
        np.matmul(self.direction, work.rot[self.parent], out=tmp)
        tmp *= work.values[self.row]
        work.trans[self.slot] += tmp


class _GeneralOp:
    """Any motion, through its ``transform_batch``: ``X_PJ @ M(q) @ inv(X_CJ)``."""

    __slots__ = ('link', 'parent', 'slot', 'row', 'motion', 'r_o_t', 't_o', 'r_i_t', 't_i')

    def __init__(self, link, parent, slot, row, motion):
        self.link = link
        self.parent = parent
        self.slot = slot
        self.row = row
        self.motion = motion
        self.r_o_t = _quat_matrix_t(motion.quat)
        self.t_o = np.array(motion.xyz)
        self.r_i_t = _quat_matrix_t(motion.inv_quat)
        self.t_i = np.array(motion.inv_xyz)

    def apply(self, work: _Chunk) -> None:
        value = work.values[self.row] if self.row >= 0 else None
        r_m, t_m = self.motion.transform_batch(work.q, value)
        r_p, t_c = work.rot[self.parent], work.trans[self.slot]
        w = np.matmul(self.r_o_t, r_p)                  # R_p R_o
        x = np.einsum('ikb,kjb->ijb', w, r_m)          # R_p R_o R_m
        np.matmul(self.t_o, r_p, out=t_c)
        t_c += work.trans[self.parent]
        t_c += np.einsum('ikb,kb->ib', w, t_m)
        t_c += np.matmul(self.t_i, x)
        np.matmul(self.r_i_t, x, out=work.rot[self.slot])


def _quat_matrix_t(quat) -> np.ndarray:
    return _transposed(mat3_from_quat(quat))
