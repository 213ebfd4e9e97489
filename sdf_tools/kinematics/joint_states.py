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
The ``joint_states`` -> ``/tf`` hot path: per-joint transforms as plain tuples or as arrays.

robot_state_publisher publishes, per moving joint, the transform from the parent link to the
child link. :func:`tf_record` turns a joint's
:class:`~sdf_tools.kinematics.motion.Motion` into a record once, and :func:`joint_transforms`
evaluates records for one configuration. :class:`JointStatePlan` prepares, for one list of
joint names, which coordinates a message sets and which joints it moves. :class:`TfArrays`
evaluates a plan's records with numpy, one operation per step for all its revolute (and all
its prismatic) joints: a numpy call costs what a dozen Python float operations do, so it
pays for plans moving many joints (:data:`ARRAY_JOINTS`), and the loop of plain tuples for
the others.

A record is a plain tuple ``(op, *step)``: the op code and the fields of the motion's
:meth:`~sdf_tools.kinematics.motion.Motion.tf_step` in their order
(:class:`~sdf_tools.kinematics.motion.TfRevolute`, ``TfRevoluteOffset``, ``TfPrismatic``),
or ``(op, motion)`` when it has no step. Plain tuples, not the NamedTuples: CPython unpacks
an exact tuple about twice as fast, and the loop unpacks one per joint.
"""

import array
from collections.abc import Mapping
from collections.abc import Sequence
import math
from typing import Any
from typing import Protocol

import numpy as np
import numpy.typing as npt
from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.kinematics.motion import Drive
from sdf_tools.kinematics.motion import Motion
from sdf_tools.kinematics.motion import TfPrismatic
from sdf_tools.kinematics.motion import TfRevolute
from sdf_tools.kinematics.motion import TfRevoluteOffset
from sdf_tools.kinematics.values import as_float
from sdf_tools.kinematics.values import CompiledTree
from sdf_tools.kinematics.values import raise_infinite_angle
from sdf_tools.transforms import KDL_SIGN_W
from sdf_tools.transforms import Quat
from sdf_tools.transforms import quat_kdl_sign
from sdf_tools.transforms import Vec3

_REVOLUTE = 0         # revolute without child offset: constant translation
_REVOLUTE_OFFSET = 1  # revolute whose child frame is away from the joint
_PRISMATIC = 2
_GENERAL = 3          # any motion, through Motion.local
_OPS = {TfRevolute: _REVOLUTE, TfRevoluteOffset: _REVOLUTE_OFFSET, TfPrismatic: _PRISMATIC}
_FLOAT_ONLY = frozenset({float})  # element types of joint_states positions on the fast path
#: Plans moving at least this many joints are evaluated with :class:`TfArrays` by the state
#: publisher (measured: the same cost at about 12 revolute joints; 44: 3x faster).
ARRAY_JOINTS = 16

#: A record: ``(op, *step)`` or ``(op, motion)`` (module docstring), unpacked by position.
_Record = tuple[Any, ...]
_Transform = tuple[Vec3, Quat]  # T_parent_child: (xyz (m), unit quaternion (x, y, z, w))
_Array = npt.NDArray[np.float64]  # shapes in the docstrings
# Columns of one kind of TfArrays: their columns (None: all), the indices of their values in
# the message, multipliers, offsets (each (n,)) and their records.
_Group = tuple[npt.NDArray[np.intp] | None, npt.NDArray[np.intp], _Array, _Array,
               list[_Record]]


class _Tree(CompiledTree, Protocol):
    """What a plan reads of a :class:`~sdf_tools.kinematics.KinematicTree`."""

    @property
    def _mimic_names(self) -> frozenset[str]: ...  # noqa: D102

    @property
    def _dependents(self) -> tuple[tuple[int, ...], ...]: ...  # noqa: D102

    @property
    def _tf_records(self) -> tuple[_Record, ...]: ...  # noqa: D102

    def mimic_drives(self, reported: Sequence[str]) -> Mapping[int, Drive]: ...  # noqa: D102


def tf_record(motion: Motion) -> _Record:
    """Return the record of one moving joint (module docstring)."""
    step = motion.tf_step()
    if step is None:
        return (_GENERAL, motion)
    if type(step) is TfPrismatic:
        step = step._replace(quat=quat_kdl_sign(step.quat))
    return (_OPS[type(step)], *step)


def joint_transforms(records: Sequence[_Record], q: Sequence[float]) -> list[_Transform]:
    """
    Return ``T_parent_child`` of each record's joint as ``((x, y, z), (qx, qy, qz, qw))``.

    ``q`` is a list of floats (n_q,). ``math.sin`` raises ValueError or OverflowError for an
    infinite angle. Each quaternion has the sign KDL gives it (robot_state_publisher's,
    :func:`~sdf_tools.transforms.quat_kdl_sign`), looked at only when ``qw`` is below
    :data:`~sdf_tools.transforms.KDL_SIGN_W`.
    """
    out: list[_Transform] = []
    append = out.append
    sin = math.sin
    cos = math.cos
    sign_w = KDL_SIGN_W
    for record in records:
        op = record[0]
        if op == _REVOLUTE:
            _, i, m, o, xyz, px, py, pz, pw, sx, sy, sz, sw = record
            h = q[i] * m + o
            s = sin(h)
            c = cos(h)
            quat = (c * px + s * sx, c * py + s * sy, c * pz + s * sz, c * pw + s * sw)
            append((xyz, quat if quat[3] > sign_w else quat_kdl_sign(quat)))
        elif op == _PRISMATIC:
            _, i, m, o, quat, bx, by, bz, ex, ey, ez = record
            v = q[i] * m + o
            append(((bx + v * ex, by + v * ey, bz + v * ez), quat))
        elif op == _REVOLUTE_OFFSET:
            (_, i, m, o, px, py, pz, pw, sx, sy, sz, sw,
             x0, y0, z0, x1, y1, z1, x2, y2, z2) = record
            h = q[i] * m + o
            s = sin(h)
            c = cos(h)
            c2 = c * c - s * s  # cos and sin of the full angle
            s2 = 2.0 * s * c
            quat = (c * px + s * sx, c * py + s * sy, c * pz + s * sz, c * pw + s * sw)
            append(((x0 + c2 * x1 + s2 * x2, y0 + c2 * y1 + s2 * y2, z0 + c2 * z1 + s2 * z2),
                    quat if quat[3] > sign_w else quat_kdl_sign(quat)))
        else:
            xyz, quat = record[1].local(q)
            append((xyz, quat_kdl_sign(quat)))
    return out


class JointStatePlan:
    """
    The ``joint_states`` -> ``/tf`` hot path for one list of joint names.

    Make it with :meth:`KinematicTree.joint_state_plan` (by name) or
    :meth:`KinematicTree.coordinate_plan` (by index). A value given for a mimic joint is
    used for it, and for the mimic joints following it, instead of the formula
    (:meth:`KinematicTree.mimic_drives`); it is not stored in ``q``, so the formula applies
    again to the next message that gives only the source. A name given twice counts once,
    with its first value (robot_state_publisher keeps the first too).

    Attributes
    ----------
    names : tuple of str
        The names of the values passed to :meth:`update`, in that order.
    coordinates : tuple of int
        Per name, its index into ``q``, or -1 when the value is not a coordinate.
    unknown : tuple of str
        Names that are neither coordinates nor mimic joints of the tree (ignored).
    mimic : tuple of str
        Names of mimic joints, whose values are used (see above).
    duplicates : tuple of str
        Names given more than once (the later values are ignored).
    joints : tuple of int
        Indices into ``tree.moving_joints`` of the joints the values move: those owning a
        named coordinate, the mimic joints named, and every mimic joint depending on one of
        those, in tree order. :meth:`transforms` returns one transform per entry.
    tree_joints : tuple of TreeJoint
        ``tree.moving_joints[k]`` for each ``k`` of :attr:`joints` (TF frame names).

    """

    __slots__ = ('names', 'coordinates', 'unknown', 'mimic', 'duplicates', 'joints',
                 'tree_joints', '_pairs', '_mimic_positions', '_records', '_tree')

    def __init__(self, tree: _Tree, names: tuple[str, ...],
                 coordinates: tuple[int, ...]) -> None:
        unknown, mimic, mimic_positions, duplicates, pairs = [], [], [], [], []
        touched: set[int] = set()
        seen: set[str] = set()
        for position, (name, i) in enumerate(zip(names, coordinates)):
            if name in seen:
                if name not in duplicates:
                    duplicates.append(name)
                continue
            seen.add(name)
            if i >= 0:
                pairs.append((position, i))
                touched.update(tree._dependents[i])
            elif name in tree._mimic_names:
                mimic.append(name)
                mimic_positions.append(position)
            else:
                unknown.append(name)
        drives = tree.mimic_drives(mimic)
        touched.update(drives)
        self.names = names
        self.coordinates = coordinates
        self.unknown = tuple(unknown)
        self.mimic = tuple(mimic)
        self.duplicates = tuple(duplicates)
        self.joints = tuple(sorted(touched))
        self.tree_joints = tuple(tree.moving_joints[k] for k in self.joints)
        self._pairs = tuple(pairs)
        self._mimic_positions = tuple(mimic_positions)
        self._records = tuple(tf_record(tree._motions[k].with_drive(drives[k])) if k in drives
                              else tree._tf_records[k] for k in self.joints)
        self._tree = tree

    def update(self, q: list[float], positions: Sequence[float]) -> None:
        """
        Write a message's positions into ``q``.

        Parameters
        ----------
        q : list of float, length n_q
            The node's current configuration (e.g. ``tree.default_q().tolist()``), updated
            in place.
        positions : sequence of float
            ``JointState.position``, in the order of :attr:`names` (rad or m).

        Raises
        ------
        KinematicsError
            As :meth:`check`; ``q`` is then left unchanged.

        """
        if self.check(positions):
            for position, i in self._pairs:
                q[i] = positions[position]
            return
        for position, i in self._pairs:  # checked: converts without raising
            q[i] = as_float(positions[position], self.names[position])

    def check(self, positions: Sequence[float]) -> bool:
        """
        Refuse what :meth:`update` refuses, without writing anything.

        Parameters
        ----------
        positions : sequence of float
            ``JointState.position``, in the order of :attr:`names` (rad or m).

        Returns
        -------
        bool
            Whether the values are finite Python floats (rclpy's ``array.array('d')``, or a
            list of floats), taken as they are; otherwise each used value is converted
            (numpy scalars, ints).

        Raises
        ------
        KinematicsError
            ``positions`` does not have one entry per name, or a used value (a mimic
            joint's included) is not a finite number (the message names the joint).

        """
        if len(positions) != len(self.names):
            raise KinematicsError(Diagnostic(
                f'{len(positions)} positions for {len(self.names)} joint names', None,
                'joint_states', code=Code.BAD_NUMBER))
        # Fast path: Python floats only, checked finite by one sum. Anything else (numpy
        # scalars, ints, bools, strings) is converted or refused value by value, without
        # numpy arithmetic warnings.
        kind = type(positions)
        if type(positions) is array.array:  # (not kind: mypy narrows positions only so)
            fast = positions.typecode in 'fd'
        elif kind is list or kind is tuple:
            fast = set(map(type, positions)) <= _FLOAT_ONLY
        else:
            fast = False
        if fast:
            total = sum(positions)
            if total - total == 0.0:
                return True
        for position, _ in self._pairs:
            as_float(positions[position], self.names[position])
        for position in self._mimic_positions:
            as_float(positions[position], self.names[position])
        return False

    def transforms(self, q: Sequence[float],
                   positions: Sequence[float] | None = None) -> list[_Transform]:
        """
        Return the transforms of :attr:`joints` (``T_parent_child`` as ``(xyz, quat)``).

        Parameters
        ----------
        q : list of float, length n_q
            The configuration, typically just passed to :meth:`update`.
        positions : sequence of float, optional
            The values just passed to :meth:`update`: the mimic joints' are read from it.
            Required when :attr:`mimic` is not empty.

        Returns
        -------
        list of tuple
            ``((x, y, z), (qx, qy, qz, qw))`` per entry of :attr:`joints`.

        Raises
        ------
        KinematicsError
            A joint angle is infinite: a mimic multiplier or offset, or a gearbox ratio,
            overflows the value (:meth:`update` refuses values that are not finite).
        ValueError
            :attr:`mimic` is not empty and ``positions`` is not given (a programming error).

        """
        return self._transforms(self._records, q, positions)

    def _transforms(self, records: Sequence[_Record], q: Sequence[float],
                    positions: Sequence[float] | None) -> list[_Transform]:
        """Return :func:`joint_transforms` of some of the plan's records (:meth:`transforms`)."""
        values = q
        if self._mimic_positions:
            if positions is None:
                raise ValueError(f'the values of mimic joint(s) {", ".join(self.mimic)} are '
                                 'needed: pass positions')
            values = list(q) + [float(positions[p]) for p in self._mimic_positions]
        try:
            return joint_transforms(records, values)
        except (ValueError, OverflowError):  # math.sin(inf): only on this error path
            raise_infinite_angle(self._tree, [q])


class TfArrays:
    """
    :meth:`JointStatePlan.transforms` with numpy: all revolute joints in one step each.

    Element by element the arithmetic of :func:`joint_transforms`, so the same floats where
    numpy's ``sin`` and ``cos`` are the C library's (x86-64 without AVX-512, aarch64;
    elsewhere within an ulp), and KDL's sign (:func:`~sdf_tools.transforms.quat_kdl_sign`,
    looked at for the columns whose ``qw`` is below
    :data:`~sdf_tools.transforms.KDL_SIGN_W`). Revolute and prismatic joints read their
    values straight from the message's positions; other joints (multi-dof) go through
    :func:`joint_transforms` one by one.

    A plan whose values could overflow (a mimic multiplier beyond 1, an offset beyond
    1e307, a prismatic offset) is checked at each message, and goes through
    :meth:`JointStatePlan.transforms` when one does (which raises for an infinite angle).

    Parameters
    ----------
    plan : JointStatePlan

    Attributes
    ----------
    poses : ndarray, shape (7, n)
        After :meth:`evaluate`: rows ``x, y, z`` (m) and ``qx, qy, qz, qw`` of
        ``T_parent_child``, one column per entry of ``plan.joints``.
    reads_q : bool
        Whether :meth:`evaluate` reads ``q`` (multi-dof joints, or values that could
        overflow); otherwise only the message's positions, and ``q`` may be updated later.

    """

    __slots__ = ('poses', 'reads_q', '_plan', '_revolute', '_offset', '_prismatic',
                 '_general', '_check')

    def __init__(self, plan: JointStatePlan) -> None:
        records = plan._records
        n_q = len(plan._tree.coordinate_names)
        source = {i: position for position, i in plan._pairs}

        def column_group(columns: list[int]) -> _Group:
            rows = [records[k] for k in columns]
            index = [source[r[1]] if r[1] < n_q else plan._mimic_positions[r[1] - n_q]
                     for r in rows]
            return (None if columns == list(range(len(records))) else np.array(columns),
                    np.array(index, dtype=np.intp), np.array([r[2] for r in rows]),
                    np.array([r[3] for r in rows]), rows)

        self._plan = plan
        self.poses = poses = np.zeros((7, len(records)))
        revolute = [k for k, r in enumerate(records) if r[0] in (_REVOLUTE, _REVOLUTE_OFFSET)]
        self._revolute = self._offset = self._prismatic = None
        if revolute:
            columns, index, m, o, rows = column_group(revolute)
            pairs = [r[4:12] if r[0] == _REVOLUTE_OFFSET else r[5:13] for r in rows]
            # quats = cos(h) p + sin(h) s as (p, s) * (cos, sin) summed over the pair
            ps = np.array([[v[:4] for v in pairs], [v[4:] for v in pairs]]).transpose(0, 2, 1)
            cos_sin = np.empty((2, len(rows)))
            products = np.empty_like(ps)
            quats = poses[3:7] if columns is None else np.empty((4, len(rows)))
            self._revolute = (columns, index, m, o, cos_sin[0], cos_sin[1], ps,
                              cos_sin[:, None, :], products, products[0], products[1], quats)
            for k, r in zip(revolute, rows):
                if r[0] == _REVOLUTE:
                    poses[0:3, k] = r[4]
            offset = [j for j, r in enumerate(rows) if r[0] == _REVOLUTE_OFFSET]
            if offset:
                self._offset = (np.array(offset), np.array(revolute)[offset],
                                *(np.array([rows[j][12 + 3 * b:15 + 3 * b] for j in offset]).T
                                  for b in range(3)))
        prismatic = [k for k, r in enumerate(records) if r[0] == _PRISMATIC]
        if prismatic:
            columns, index, m, o, rows = column_group(prismatic)
            self._prismatic = (np.array(prismatic), index, m, o,
                               np.array([r[5:8] for r in rows]).T,
                               np.array([r[8:11] for r in rows]).T)
            for k, r in zip(prismatic, rows):
                poses[3:7, k] = r[4]
        self._general = [(k, r) for k, r in enumerate(records) if r[0] == _GENERAL]
        # Finite values give finite half angles (|m| <= 0.5, |o| <= 1e307, or |m| <= 1 and
        # no offset) and prismatic displacements (|m| <= 1, no offset): nothing to check.
        self._check = not all(
            r[0] == _GENERAL or (abs(r[2]) <= 1.0 and r[3] == 0.0)
            or (r[0] != _PRISMATIC and abs(r[2]) <= 0.5 and abs(r[3]) <= 1e307)
            for r in records)
        self.reads_q = bool(self._general) or self._check

    def evaluate(self, q: Sequence[float], positions: Sequence[float]) -> _Array:
        """
        Compute :attr:`poses` for one message; return it.

        Parameters
        ----------
        q : list of float
            The configuration :meth:`JointStatePlan.update` just updated (read only when
            :attr:`reads_q`).
        positions : sequence of float
            The message's positions, as passed to :meth:`JointStatePlan.update` or
            :meth:`JointStatePlan.check`.

        Returns
        -------
        ndarray, shape (7, n)
            :attr:`poses` (the same array at every call).

        """
        if type(positions) is array.array and positions.typecode == 'd':
            values = np.frombuffer(positions)
        else:
            values = np.asarray(positions, dtype=float)
        poses = self.poses
        if self._check and not np.isfinite(self._values(values)).all():
            for k, (xyz, quat) in enumerate(self._plan.transforms(q, positions)):
                poses[:, k] = (*xyz, *quat)  # (raised for an infinite angle)
            return poses
        if self._revolute is not None:
            columns, index, m, o, cos, sin, ps, cos_sin, products, pc, ss, quats = \
                self._revolute
            h = values[index]
            h *= m
            h += o
            np.cos(h, out=cos)
            np.sin(h, out=sin)
            np.multiply(ps, cos_sin, out=products)
            np.add(pc, ss, out=quats)
            if self._offset is not None:
                rows, where, b0, b1, b2 = self._offset
                c, s2 = cos[rows], 2.0 * sin[rows]
                c2 = c * c - sin[rows] * sin[rows]
                s2 *= c
                poses[0:3, where] = b0 + c2 * b1 + s2 * b2
            # As joint_transforms: KDL's sign where qw does not settle it, one column at a
            # time as plain floats (fewer numpy calls than selecting the columns at once).
            for k, qw in enumerate(quats[3].tolist()):
                if qw <= KDL_SIGN_W:
                    quat = quats[:, k].tolist()
                    kdl = quat_kdl_sign(quat)
                    if kdl is not quat:
                        quats[:, k] = kdl
            if columns is not None:
                poses[3:7, columns] = quats
        if self._prismatic is not None:
            columns, index, m, o, base, direction = self._prismatic
            v = values[index]
            v *= m
            v += o
            poses[0:3, columns] = base + v * direction
        if self._general:
            records = [r for _, r in self._general]
            for (k, _), (xyz, quat) in zip(self._general,
                                           self._plan._transforms(records, q, positions)):
                poses[:, k] = (*xyz, *quat)
        return poses

    def _values(self, values: _Array) -> _Array:
        """Return the half angles and displacements of ``values`` (the overflow check)."""
        groups = [g for g in (self._revolute, self._prismatic) if g is not None]
        with np.errstate(over='ignore'):
            return np.concatenate([values[g[1]] * g[2] + g[3] for g in groups]
                                  + [np.zeros(0)])
