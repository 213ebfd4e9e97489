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
The compiled tree and the records it hands out.

:class:`KinematicTree` is what :func:`~sdf_tools.kinematics.compile.compile_tree` returns:
links in topological order, the independent coordinates, the joints as a TF broadcaster
sees them (:class:`TreeJoint`), the resolved mimic joints (:class:`MimicJoint`), and the
evaluators' compiled records. It is immutable; every evaluation takes ``q`` as an argument.
"""

from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
import math
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.kinematics.batch import BatchProgram
from sdf_tools.kinematics.joint_states import joint_transforms
from sdf_tools.kinematics.joint_states import JointStatePlan
from sdf_tools.kinematics.motion import Drive
from sdf_tools.kinematics.motion import Motion
from sdf_tools.kinematics.values import as_float
from sdf_tools.kinematics.values import infinite_angle_error
from sdf_tools.kinematics.values import raise_infinite_angle
from sdf_tools.model import JointType
from sdf_tools.records import record
from sdf_tools.transforms import Quat
from sdf_tools.transforms import Vec3

Transform = tuple[Vec3, Quat]

_INF = math.inf


# --- public result types --------------------------------------------------------------------

@record(frozen=True, slots=True)
class TreeJoint:
    """
    One joint of a compiled tree, as a TF broadcaster sees it.

    Attributes
    ----------
    name : str
        Joint name.
    kind : JointType
        Joint type.
    parent : str
        Parent link name; ``'world'`` for a joint attached to the model frame.
    child : str
        Child link name (the TF child frame).
    coordinates : tuple of int
        Indices into ``q`` this joint's value depends on: its own coordinates, or for a
        mimic joint the coordinate of its independent source.
    mimic : bool
        Whether the value is derived from another joint (never in ``q``).
    multi_dof : bool
        Whether the joint has several coordinates (floating, planar, ball, universal,
        revolute2). robot_state_publisher does not publish floating or planar joints.

    """

    name: str
    kind: JointType
    parent: str
    child: str
    coordinates: tuple[int, ...] = ()
    mimic: bool = False
    multi_dof: bool = False


@record(frozen=True, slots=True)
class MimicJoint:
    """
    A resolved mimic joint: ``value = multiplier * q[coordinate] + offset``.

    ``source`` is the independent joint at the end of the mimic chain (chains are composed
    into one affine map).
    """

    joint: str
    source: str
    coordinate: int
    multiplier: float
    offset: float


class JointVector(NamedTuple):
    """
    Result of :meth:`KinematicTree.joint_vector`.

    Attributes
    ----------
    q : ndarray, shape (n_q,)
        The configuration; coordinates not given keep their default.
    unknown : tuple of str
        Names that are neither a coordinate nor a joint of the tree (ignored).
    mimic : tuple of str
        Names of mimic joints, which are not in ``q``: pass their values to
        :func:`~sdf_tools.kinematics.forward_kinematics` as ``mimic_values`` to use them
        instead of the formula (:meth:`KinematicTree.mimic_drives`).

    """

    q: npt.NDArray[np.float64]
    unknown: tuple[str, ...]
    mimic: tuple[str, ...]


# --- the compiled tree ----------------------------------------------------------------------

@record(frozen=True, eq=False, repr=False)
class KinematicTree:
    """
    A robot compiled for kinematics; build it with :func:`compile_tree`, never by hand.

    Attributes
    ----------
    name : str
        Robot name.
    link_names : tuple of str
        Links in topological order: a link comes after its parent. Index ``i`` of every
        per-link array (e.g. the output of :func:`forward_kinematics`) is this link.
    link_parent : tuple of int
        Index of each link's parent link; ``-1`` for links placed in the model frame
        (root links and children of ``world``). ``link_parent[i] < i``.
    link_index : Mapping
        Link name -> index.
    coordinate_names : tuple of str
        Names of the entries of ``q`` (see :mod:`~sdf_tools.kinematics.compile`).
    coordinate_index : Mapping
        Coordinate name -> index into ``q``.
    frame_names : tuple of str
        The robot's named frames (``Robot.frames``), the rows of :func:`frame_poses`.
    frame_links : tuple of int
        Index of the link each frame is attached to; ``-1`` for a frame fixed in the model
        frame (attached to ``world``).
    moving_joints : tuple of TreeJoint
        Every non-fixed joint, mimic joints included, in tree order: the entries of
        :meth:`joint_transforms`.
    fixed_joints : tuple of TreeJoint
        Every fixed joint, in tree order.
    fixed_joint_transforms : tuple
        ``(xyz, quat)`` of each fixed joint (parent link -> child link), computed once: what
        robot_state_publisher sends on ``/tf_static``.
    root_links : tuple of str
        Links no joint attaches.
    root_link_poses : tuple
        ``(xyz, quat)`` of each root link in the model frame (``Link.pose``).
    mimic_joints : tuple of MimicJoint
        The resolved mimic joints.
    loop_joints : tuple of str
        Joints that close kinematic loops (SDFormat parallel linkages,
        :attr:`~sdf_tools.model.RobotIndex.loop_joints`): forward kinematics follows the
        tree and does not enforce them; they have no coordinates.
    warnings : tuple of Diagnostic
        Mimic joints compiled as independent (``missing_mimic='ignore'``), with file:line.

    """

    name: str
    link_names: tuple[str, ...]
    link_parent: tuple[int, ...]
    link_index: Mapping
    coordinate_names: tuple[str, ...]
    coordinate_index: Mapping
    frame_names: tuple[str, ...]
    frame_links: tuple[int, ...]
    moving_joints: tuple[TreeJoint, ...]
    fixed_joints: tuple[TreeJoint, ...]
    fixed_joint_transforms: tuple[Transform, ...]
    root_links: tuple[str, ...]
    root_link_poses: tuple[Transform, ...]
    mimic_joints: tuple[MimicJoint, ...]
    loop_joints: tuple[str, ...]
    warnings: tuple[Diagnostic, ...]
    # The evaluators' compiled forms and the lookups of the hot paths.
    _default_q: tuple[float, ...]
    _mimic_names: frozenset
    _direct_mimics: Mapping                   # mimic joint -> (source, multiplier, offset)
    _dependents: tuple[tuple[int, ...], ...]  # per coordinate: moving joints it moves
    _motions: tuple[Motion, ...]              # per moving joint
    _single_records: tuple                    # per link: single.compile_records
    _batch: BatchProgram
    _tf_records: tuple                        # per moving joint: joint_states.tf_record
    _frame_constants: npt.NDArray[np.float64]  # (n_frames, 4, 4): T_link_frame

    def __repr__(self) -> str:
        return (f'<KinematicTree {self.name!r}: {self.n_links} links, {self.n_q} coordinates, '
                f'{len(self.moving_joints)} moving joints>')

    @property
    def n_links(self) -> int:
        """Return the number of links."""
        return len(self.link_names)

    @property
    def n_q(self) -> int:
        """Return the number of independent coordinates (the length of ``q``)."""
        return len(self.coordinate_names)

    def default_q(self) -> npt.NDArray[np.float64]:
        """
        Return the zero configuration.

        Returns
        -------
        ndarray, shape (n_q,)
            Zeros, except 1 for the ``qw`` coordinate of ball and floating joints.

        """
        return np.array(self._default_q, dtype=float)

    def joint_vector(self, mapping: Mapping[str, float] | Iterable[tuple[str, float]], *,
                     strict: bool = False) -> JointVector:
        """
        Build ``q`` from named values.

        Parameters
        ----------
        mapping : Mapping or iterable of (str, float)
            Coordinate name -> value (rad or m). Coordinates not named keep their default.
        strict : bool
            Raise on names that are not coordinates (mimic joints included) instead of
            reporting them.

        Returns
        -------
        JointVector
            ``(q, unknown, mimic)``: the configuration, the unknown names and the names of
            mimic joints (not in ``q``; see :attr:`JointVector.mimic`).

        Raises
        ------
        KinematicsError
            A value is not a finite real number (the message names the coordinate), or
            ``strict`` and a name is not a coordinate.

        """
        q = list(self._default_q)
        index = self.coordinate_index
        unknown = []
        mimic = []
        items = mapping.items() if isinstance(mapping, Mapping) else mapping
        for name, value in items:
            i = index.get(name)
            if i is not None:
                q[i] = value if type(value) is float else as_float(value, name)
            elif name in self._mimic_names:
                mimic.append(name)
            else:
                unknown.append(name)
        total = sum(q)  # not fsum, which raises OverflowError for 1e308 + 1e308
        if total - total != 0.0:  # NaN, infinite or overflowing: check each for the message
            for name, value in zip(self.coordinate_names, q):
                as_float(value, name)
        if strict and (unknown or mimic):
            names = ', '.join(repr(n) for n in unknown + mimic)
            raise KinematicsError(Diagnostic(
                f'not independent coordinates of the tree: {names}', None,
                f"robot '{self.name}'", code=Code.UNKNOWN_JOINT))
        return JointVector(np.array(q, dtype=float), tuple(unknown), tuple(mimic))

    def joint_transforms(self, q: Sequence[float] | npt.NDArray[np.float64] | Mapping[str, float],
                         ) -> list[Transform]:
        """
        Return the parent link -> child link transform of every moving joint.

        This is robot_state_publisher's ``/tf`` content: entry ``k`` belongs to
        ``moving_joints[k]`` (mimic joints included); fixed joints are in
        ``fixed_joint_transforms``.

        Parameters
        ----------
        q : sequence of float, shape (n_q,), or Mapping
            The configuration (a list is fastest; an ndarray is converted with ``tolist``);
            a mapping goes through :meth:`joint_vector`.

        Returns
        -------
        list of tuple
            ``((x, y, z), (qx, qy, qz, qw))`` Python floats per moving joint: ``T_parent_child``
            (m, unit quaternion).

        Raises
        ------
        ValueError
            ``q`` does not have ``n_q`` entries.
        KinematicsError
            A joint value is infinite: an entry of ``q``, a mimic joint whose
            ``multiplier * value + offset`` overflows, or a gearbox's ``ratio * value``.

        """
        if isinstance(q, Mapping):
            values: Sequence[float] = self.joint_vector(q).q.tolist()
        elif isinstance(q, np.ndarray):
            values = q.tolist()
        else:
            values = q
        if len(values) != len(self.coordinate_names):
            raise ValueError(f'q has {len(values)} entries, the tree has {self.n_q} coordinates')
        if _INF in values or -_INF in values:  # also translations, which would not raise below
            error = infinite_angle_error(self, [values])
            if error is not None:  # always: an infinite coordinate is one
                raise error
        try:
            return joint_transforms(self._tf_records, values)
        except (ValueError, OverflowError):  # math.sin(inf): only on this error path
            raise_infinite_angle(self, [values])

    def mimic_drives(self, reported: Sequence[str]) -> dict[int, Drive]:
        """
        Return how mimic joints move when some mimic joints are given values of their own.

        The rule of ``joint_states`` (and of robot_state_publisher): a value reported for a
        mimic joint is what the simulator or the hardware says, and wins over the formula,
        for that configuration only. A mimic joint that is not reported follows the joint
        its ``<mimic>`` names: ``multiplier * value + offset``, where that value is the
        reported one if the source is reported, else the source's own rule (down to an
        independent coordinate, as without reported values).

        Parameters
        ----------
        reported : sequence of str
            Names of mimic joints given values; value ``r`` is read from slot ``n_q + r``
            of the extended configuration ``q + values``.

        Returns
        -------
        dict
            Index into :attr:`moving_joints` -> :class:`~sdf_tools.kinematics.motion.Drive`
            into the extended configuration, for every joint whose value the reported ones
            decide (themselves included); the other joints keep their compiled drive.

        Raises
        ------
        KeyError
            A name is not a mimic joint of the tree.

        """
        slots: dict[str, int] = {}
        for r, name in enumerate(reported):
            if name not in self._mimic_names:
                raise KeyError(f'{name!r} is not a mimic joint of {self.name!r}')
            slots.setdefault(name, self.n_q + r)
        if not slots:
            return {}
        # Each joint's (slot, multiplier, offset), or None when no reported joint decides it,
        # resolved once: a walk stops at the first joint already resolved (linear in the
        # number of mimic joints, however long the chains).
        resolved: dict[str, tuple[int, float, float] | None] = {
            name: (slot, 1.0, 0.0) for name, slot in slots.items()}
        direct = self._direct_mimics
        for mimic in self.mimic_joints:
            path = []
            current = mimic.joint
            while current not in resolved and current in direct:
                path.append(current)
                current = direct[current][0]
            base = resolved.get(current)
            for name in reversed(path):
                if base is not None:
                    slot, multiplier, offset = base
                    _, m, o = direct[name]
                    base = (slot, m * multiplier, m * offset + o)
                resolved[name] = base
        moving = {joint.name: k for k, joint in enumerate(self.moving_joints)}
        drives = {}
        for mimic in self.mimic_joints:
            drive = resolved[mimic.joint]
            if drive is not None and mimic.joint in moving:
                drives[moving[mimic.joint]] = Drive(*drive)
        return drives

    def joint_state_plan(self, names: Iterable[str]) -> JointStatePlan:
        """
        Prepare the hot path for ``sensor_msgs/JointState`` messages with these names.

        Build it once per distinct ``name`` list (cache it on the node, keyed by the tuple
        of names) and call :meth:`JointStatePlan.update` and
        :meth:`JointStatePlan.transforms` per message.

        Parameters
        ----------
        names : sequence of str
            The message's joint names, in message order. Mimic joints are given their
            reported value (:meth:`mimic_drives`); other names that are not coordinates are
            ignored and listed in the plan, and so are repeated names (the first counts).

        Returns
        -------
        JointStatePlan

        """
        index = self.coordinate_index
        names = tuple(names)
        return JointStatePlan(self, names, tuple(index.get(n, -1) for n in names))

    def coordinate_plan(self, coordinates: Iterable[int]) -> JointStatePlan:
        """
        Prepare the hot path for values given by coordinate index rather than by name.

        Parameters
        ----------
        coordinates : sequence of int
            Indices into ``q``, in the order the values will be passed to
            :meth:`JointStatePlan.update`.

        Returns
        -------
        JointStatePlan
            Its ``names`` are the coordinate names.

        Raises
        ------
        IndexError
            An index is outside ``0 .. n_q - 1``.

        """
        coordinates = tuple(int(c) for c in coordinates)
        for c in coordinates:
            if not 0 <= c < self.n_q:
                raise IndexError(f'coordinate index {c} is outside 0..{self.n_q - 1}')
        return JointStatePlan(self, tuple(self.coordinate_names[c] for c in coordinates),
                              coordinates)
