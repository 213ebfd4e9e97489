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
Forward kinematics: a :class:`~sdf_tools.model.Robot` compiled once, then evaluated fast.

:func:`compile_tree` turns a robot (from any reader) into a :class:`KinematicTree`: links in
topological order (``link_parent[i] < i``), unit axes, mimic joints resolved to their
independent source, and per-joint constants precomposed so that each evaluation does the
minimum. Three evaluators share that compiled form:

* :func:`forward_kinematics`: ``T_model_link`` of every link, for one configuration
  (pure Python with :mod:`math`, which beats numpy on one chain of 4x4 products) or for a
  batch (numpy, vectorised over configurations, in chunks so that memory stays linear in the
  batch size and time linear in the number of links).
* :meth:`KinematicTree.joint_transforms` and :class:`JointStatePlan`: the parent link to
  child link transform of each moving joint as plain ``(xyz, quat)`` float tuples, the way
  robot_state_publisher publishes ``/tf``; no numpy on that path.
* :func:`frame_poses`: ``T_model_frame`` of the robot's named frames.

Frames and units
----------------
Poses follow :mod:`sdf_tools.transforms`: ``T_a_b`` maps ``b`` coordinates into ``a``,
quaternions are ``(x, y, z, w)``, angles are radians and lengths metres. "Model frame" is
the frame of the robot: URDF's single root link sits at its origin; SDFormat root links sit
at their ``Link.pose`` (``None``: the origin), and a joint whose parent is ``world`` (and no
link has that name) attaches its child to the model frame.

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

Coordinates
-----------
``q`` holds the independent coordinates only, in tree order (``coordinate_names``). A 1-dof
joint's coordinate is named like the joint; multi-dof coordinates are ``joint/suffix`` as in
the table. Mimic joints (any 1-dof kind) are never in ``q``: their value is
``multiplier * value(source) + offset``, chains resolved at compile time to an affine map of
one independent coordinate. The zero configuration (:meth:`KinematicTree.default_q`) has
every coordinate 0 except the ``qw`` of ball and floating joints, which is 1.
"""

import array
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain
import math
import numbers
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import Reporter
from sdf_tools.model import IDENTITY
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Robot
from sdf_tools.topology import mimic_loop_message
from sdf_tools.topology import WORLD

Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]
Transform = tuple[Vec3, Quat]

MISSING_MIMIC_MODES = ('error', 'ignore')
DEFAULT_CHUNK_SIZE = 2048
"""Configurations per vectorised chunk (working memory: about 100 bytes per configuration
for each link whose children are not done yet)."""

_ONE_DOF = frozenset({JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC,
                      JointType.SCREW, JointType.GEARBOX})
_REVOLUTE_LIKE = frozenset({JointType.REVOLUTE, JointType.CONTINUOUS})
_MULTI_DOF_SUFFIXES = MappingProxyType({
    JointType.FLOATING: ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw'),
    JointType.PLANAR: ('x', 'y', 'theta'),
    JointType.BALL: ('qx', 'qy', 'qz', 'qw'),
    JointType.UNIVERSAL: ('1', '2'),
    JointType.REVOLUTE2: ('1', '2'),
})
_FLOAT_ONLY = frozenset({float})  # element types of joint_states positions on the fast path
_SCALAR_BATCH_MAX = 8  # batches up to this size run the pure-Python evaluator per config
_INF = math.inf
_DEFAULT_AXIS2 = (0.0, 0.0, 1.0)
_PLANAR_PARALLEL_TOL = 1e-6

# Row-major 3x3 rotation matrices are 9-tuples; world poses in the single-configuration
# evaluator are row-major 4x4 16-tuples (the output layout, so no reshuffle at the end).
_I3 = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
_I16 = (1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0)
_ZERO3 = (0.0, 0.0, 0.0)

# Record kinds of the evaluators (first element of each record tuple).
_FIXED = 0      # constant transform from the parent
_REV_X = 1      # revolute about x of the pre-rotated parent frame (see _revolute_constants)
_REV_Y = 2
_REV_Z = 3
_PRISMATIC = 4
_GENERAL = 5    # any motion, through _motion_scalar / _motion_batch
_TF_REV = 10    # revolute without child offset: constant translation
_TF_REV_OFFSET = 11
_TF_PRISMATIC = 12
_TF_GENERAL = 13


# --- public result types --------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
        Names of mimic joints (ignored: their value always follows the source).

    """

    q: np.ndarray
    unknown: tuple[str, ...]
    mimic: tuple[str, ...]


# --- the compiled tree ----------------------------------------------------------------------

@dataclass(frozen=True, eq=False, repr=False)
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
        Names of the entries of ``q`` (module docstring).
    coordinate_index : Mapping
        Coordinate name -> index into ``q``.
    frame_names : tuple of str
        The robot's named frames (``Robot.frames``), the rows of :func:`frame_poses`.
    frame_links : tuple of int
        Index of the link each frame is attached to.
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
    _default_q: tuple[float, ...]
    _mimic_names: frozenset
    _dependents: tuple[tuple[int, ...], ...]
    _fk_records: tuple
    _tf_records: tuple
    _frame_constants: np.ndarray
    _batch: '_BatchProgram'
    _gearboxes: tuple  # (name, (coordinate, multiplier, offset), ratio) per gearbox joint

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

    def default_q(self) -> np.ndarray:
        """
        Return the zero configuration.

        Returns
        -------
        ndarray, shape (n_q,)
            Zeros, except 1 for the ``qw`` coordinate of ball and floating joints.

        """
        return np.array(self._default_q, dtype=float)

    def joint_vector(self, mapping, *, strict: bool = False) -> JointVector:
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
            mimic joints, whose values are ignored.

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
                q[i] = value if type(value) is float else _as_float(value, name)
            elif name in self._mimic_names:
                mimic.append(name)
            else:
                unknown.append(name)
        total = sum(q)  # not fsum, which raises OverflowError for 1e308 + 1e308
        if total - total != 0.0:  # NaN, infinite or overflowing: check each for the message
            for name, value in zip(self.coordinate_names, q):
                _as_float(value, name)
        if strict and (unknown or mimic):
            names = ', '.join(repr(n) for n in unknown + mimic)
            raise KinematicsError(Diagnostic(
                f'not independent coordinates of the tree: {names}', None,
                f"robot '{self.name}'", code=Code.UNKNOWN_JOINT))
        return JointVector(np.array(q, dtype=float), tuple(unknown), tuple(mimic))

    def joint_transforms(self, q) -> list[Transform]:
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
            q = self.joint_vector(q).q.tolist()
        elif isinstance(q, np.ndarray):
            q = q.tolist()
        if len(q) != len(self.coordinate_names):
            raise ValueError(f'q has {len(q)} entries, the tree has {self.n_q} coordinates')
        if _INF in q or -_INF in q:  # also translations, which would not raise below
            raise _infinite_angle_error(self, [q])
        try:
            return _eval_tf(self._tf_records, q)
        except (ValueError, OverflowError):  # math.sin(inf): only on this error path
            error = _infinite_angle_error(self, [q])
            if error is None:
                raise
            raise error from None

    def joint_state_plan(self, names) -> 'JointStatePlan':
        """
        Prepare the hot path for ``sensor_msgs/JointState`` messages with these names.

        Build it once per distinct ``name`` list (cache it on the node, keyed by the tuple
        of names) and call :meth:`JointStatePlan.update` and
        :meth:`JointStatePlan.transforms` per message.

        Parameters
        ----------
        names : sequence of str
            The message's joint names, in message order. Names that are not coordinates
            (unknown joints, mimic joints) are ignored and listed in the plan.

        Returns
        -------
        JointStatePlan

        """
        index = self.coordinate_index
        names = tuple(names)
        return JointStatePlan(self, names, tuple(index.get(n, -1) for n in names))

    def coordinate_plan(self, coordinates) -> 'JointStatePlan':
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


class JointStatePlan:
    """
    The ``joint_states`` -> ``/tf`` hot path for one list of joint names.

    Make it with :meth:`KinematicTree.joint_state_plan` (by name) or
    :meth:`KinematicTree.coordinate_plan` (by index).

    Attributes
    ----------
    names : tuple of str
        The names of the values passed to :meth:`update`, in that order.
    coordinates : tuple of int
        Per name, its index into ``q``, or -1 when the value is ignored.
    unknown : tuple of str
        Names that are not coordinates of the tree (ignored).
    mimic : tuple of str
        Names of mimic joints (ignored: their value always follows the source).
    joints : tuple of int
        Indices into ``tree.moving_joints`` of the joints the values move: those owning a
        named coordinate plus every mimic joint depending on one, in tree order.
        :meth:`transforms` returns one transform per entry.
    tree_joints : tuple of TreeJoint
        ``tree.moving_joints[k]`` for each ``k`` of :attr:`joints` (TF frame names).

    """

    __slots__ = ('names', 'coordinates', 'unknown', 'mimic', 'joints', 'tree_joints',
                 '_pairs', '_records', '_tree')

    def __init__(self, tree: KinematicTree, names: tuple, coordinates: tuple):
        unknown, mimic, pairs = [], [], []
        touched = set()
        for position, (name, i) in enumerate(zip(names, coordinates)):
            if i >= 0:
                pairs.append((position, i))
                touched.update(tree._dependents[i])
            elif name in tree._mimic_names:
                mimic.append(name)
            else:
                unknown.append(name)
        self.names = names
        self.coordinates = coordinates
        self.unknown = tuple(unknown)
        self.mimic = tuple(mimic)
        self.joints = tuple(sorted(touched))
        self.tree_joints = tuple(tree.moving_joints[k] for k in self.joints)
        self._pairs = tuple(pairs)
        self._records = tuple(tree._tf_records[k] for k in self.joints)
        self._tree = tree

    def update(self, q: list, positions) -> None:
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
            ``positions`` does not have one entry per name, or a used value is not a
            finite number (the message names the joint); ``q`` is then left unchanged.

        """
        if len(positions) != len(self.names):
            raise KinematicsError(Diagnostic(
                f'{len(positions)} positions for {len(self.names)} joint names', None,
                'joint_states', code=Code.BAD_NUMBER))
        # Fast path: Python floats only (rclpy's array.array('d'), or a list of floats),
        # checked finite by one sum. Anything else (numpy scalars, ints, bools, strings) is
        # converted or refused value by value, without numpy arithmetic warnings.
        kind = type(positions)
        if kind is array.array:
            fast = positions.typecode in 'fd'
        elif kind is list or kind is tuple:
            fast = set(map(type, positions)) <= _FLOAT_ONLY
        else:
            fast = False
        if fast:
            total = sum(positions)
            fast = total - total == 0.0
        if fast:
            for position, i in self._pairs:
                q[i] = positions[position]
            return
        values = [(i, _as_float(positions[position], self.names[position]))
                  for position, i in self._pairs]
        for i, value in values:
            q[i] = value

    def transforms(self, q) -> list[Transform]:
        """
        Return the transforms of :attr:`joints` (``T_parent_child`` as ``(xyz, quat)``).

        Parameters
        ----------
        q : list of float, length n_q
            The configuration, typically just passed to :meth:`update`.

        Returns
        -------
        list of tuple
            ``((x, y, z), (qx, qy, qz, qw))`` per entry of :attr:`joints`.

        Raises
        ------
        KinematicsError
            A joint angle is infinite: a mimic multiplier or offset, or a gearbox ratio,
            overflows the value (:meth:`update` refuses values that are not finite).

        """
        try:
            return _eval_tf(self._records, q)
        except (ValueError, OverflowError):  # math.sin(inf): only on this error path
            error = _infinite_angle_error(self._tree, [q])
            if error is None:
                raise
            raise error from None


def _as_float(value, name: str) -> float:
    """Return ``value`` as a finite float, or raise a KinematicsError naming ``name``."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            value = float(value)
        except OverflowError:  # an int (or Fraction) beyond the float range
            value = math.inf if value > 0 else -math.inf
        if math.isfinite(value):
            return value
        problem = f'must be finite, got {value!r}'
    else:
        shown = repr(value)
        if len(shown) > 40:
            shown = shown[:40] + '...'
        problem = f'must be a real number, got {type(value).__name__} {shown}'
    raise KinematicsError(Diagnostic(f'joint value {problem}', None, f"joint '{name}'",
                                     code=Code.BAD_NUMBER))


def _infinite_angle_error(tree, rows) -> KinematicsError | None:
    """
    Return the error for configurations in which some joint value is infinite.

    ``math.sin`` refuses infinity, so the evaluators fail there; this slow path finds the
    joint for the message: an infinite coordinate, or a mimic joint whose
    ``multiplier * value + offset`` overflows. ``None`` if there is none (another error).
    """
    for q in rows:
        q = [float(v) for v in q]
        for name, value in zip(tree.coordinate_names, q):
            if math.isinf(value):
                return KinematicsError(Diagnostic(
                    f'joint value must be finite, got {value!r}', None, f"joint '{name}'",
                    code=Code.BAD_NUMBER))
        for m in tree.mimic_joints:
            if math.isinf(m.multiplier * q[m.coordinate] + m.offset):
                return KinematicsError(Diagnostic(
                    f'mimic value {m.multiplier:g} * {q[m.coordinate]:g} + {m.offset:g} '
                    f'(following {m.source!r}) overflows to infinity', None,
                    f"joint '{m.joint}'", code=Code.BAD_NUMBER))
        for name, (c, multiplier, offset), ratio in tree._gearboxes:
            value = multiplier * q[c] + offset
            if math.isinf(ratio * value):
                return KinematicsError(Diagnostic(
                    f'gearbox angle {ratio:g} * {value:g} (gearbox_ratio times the joint '
                    'value) overflows to infinity', None, f"joint '{name}'", code=Code.BAD_NUMBER))
    return None


# --- compilation ----------------------------------------------------------------------------

def compile_tree(robot: Robot, *, missing_mimic: str = 'error') -> KinematicTree:
    """
    Compile a robot for forward kinematics.

    Parameters
    ----------
    robot : Robot
        Any reader's model (URDF, SDFormat, Kinematics DSL).
    missing_mimic : {'error', 'ignore'}
        What to do with a mimic joint whose source does not exist or has no single value
        (fixed or multi-dof source, a loop joint, or a multi-dof mimic joint): raise, or
        treat the joint as an ordinary independent one and say so in
        :attr:`KinematicTree.warnings`. Mimic cycles always raise.

    Returns
    -------
    KinematicTree

    Raises
    ------
    KinematicsError
        Holding every problem found: links in a loop of parent joints (no root reached),
        references to undefined links, zero axes, mimic cycles and (``'error'``) unusable
        mimic sources, frames attached to unknown links, coordinate name clashes.

    """
    if missing_mimic not in MISSING_MIMIC_MODES:
        raise ValueError(f"missing_mimic must be 'error' or 'ignore', got {missing_mimic!r}")
    reporter = Reporter(KinematicsError)
    topology = robot.index.topology
    topology.report(reporter, implicit_world=True, loops='quiet')
    topology.report_cycles(reporter)
    order = topology.order
    link_joint = [topology.parent_joint.get(name) for name in order]
    loop_joints = [joint.name for joint in topology.loop_joints]
    joints = {j.name: j for j in robot.joints}
    axes = {}
    for joint in (j for j in link_joint if j is not None):
        axes[joint.name] = _joint_axes(joint, reporter)
    mimics = _resolve_mimics([j for j in link_joint if j is not None], joints,
                             frozenset(loop_joints), missing_mimic, reporter)
    reporter.raise_if_errors()

    link_index = {name: i for i, name in enumerate(order)}
    link_parent = tuple(
        -1 if j is None or j.parent not in link_index else link_index[j.parent]
        for j in link_joint)

    coordinate_names, default_q, drives = _assign_coordinates(link_joint, mimics)
    coordinate_index = {}
    for i, name in enumerate(coordinate_names):
        if name in coordinate_index:
            reporter.error(f'coordinate name {name!r} is used twice (a joint is named like '
                           "another joint's coordinate)", robot.location,
                           f"robot '{robot.name}'", Code.DUPLICATE_NAME)
        coordinate_index[name] = i
    mimic_joints = [  # in tree order
        MimicJoint(j.name, mimics[j.name][0], *drives[j.name])
        for j in link_joint if j is not None and j.name in mimics]

    frame_names, frame_links, frame_poses_ = [], [], []
    for frame in robot.frames:
        if frame.attached_to not in link_index:
            reporter.error(f'attached to {frame.attached_to!r}, which is not a link',
                           frame.location, f"frame '{frame.name}'", Code.MISSING_LINK)
            continue
        frame_names.append(frame.name)
        frame_links.append(link_index[frame.attached_to])
        frame_poses_.append(frame.pose)
    reporter.raise_if_errors()

    fk_records, tf_records, batch_ops, gearboxes = [], [], [], []
    moving, fixed, fixed_tf, roots, root_poses = [], [], [], [], []
    dependents = [[] for _ in coordinate_names]
    for i, (name, joint) in enumerate(zip(order, link_joint)):
        parent_slot = link_parent[i] + 1  # slot 0 of the evaluators is the model frame
        if joint is None:
            pose = robot.index.links[name].pose or IDENTITY
            roots.append(name)
            root_poses.append((pose.xyz, pose.quat))
            motion = _Motion(JointType.FIXED, pose.xyz, pose.quat)
        else:
            motion = _make_motion(joint, axes[joint.name], drives.get(joint.name))
            parent = joint.parent if link_parent[i] >= 0 else WORLD
            if joint.kind is JointType.FIXED:
                fixed.append(TreeJoint(joint.name, joint.kind, parent, name))
                fixed_tf.append(_fixed_transform(motion))
            else:
                start = drives[joint.name][0]
                coords = ((start,) if joint.kind in _ONE_DOF
                          else tuple(range(start, start + joint.kind.dof)))
                k = len(moving)
                for c in coords:
                    dependents[c].append(k)
                moving.append(TreeJoint(joint.name, joint.kind, parent, name, coords,
                                        joint.name in mimics, joint.kind not in _ONE_DOF))
                tf_records.append(_tf_record(motion))
        fk_records.append(_fk_record(motion, parent_slot))
        batch_ops.append((motion, link_parent[i]))
        if motion.kind is JointType.GEARBOX:
            gearboxes.append((joint.name, motion.drive, motion.ratio))

    frame_constants = np.array([p.matrix() for p in frame_poses_]).reshape(-1, 4, 4)
    return KinematicTree(
        name=robot.name,
        link_names=tuple(order),
        link_parent=link_parent,
        link_index=MappingProxyType(link_index),
        coordinate_names=tuple(coordinate_names),
        coordinate_index=MappingProxyType(coordinate_index),
        frame_names=tuple(frame_names),
        frame_links=tuple(frame_links),
        moving_joints=tuple(moving),
        fixed_joints=tuple(fixed),
        fixed_joint_transforms=tuple(fixed_tf),
        root_links=tuple(roots),
        root_link_poses=tuple(root_poses),
        mimic_joints=tuple(mimic_joints),
        loop_joints=tuple(loop_joints),
        warnings=tuple(reporter.warnings),
        _default_q=tuple(default_q),
        _mimic_names=frozenset(mimics),
        _dependents=tuple(tuple(d) for d in dependents),
        _fk_records=tuple(fk_records),
        _tf_records=tuple(tf_records),
        _frame_constants=frame_constants,
        _batch=_BatchProgram(batch_ops, link_parent),
        _gearboxes=tuple(gearboxes),
    )


def _assign_coordinates(link_joint, mimics):
    """
    Assign indices to the independent coordinates, in tree order.

    Returns
    -------
    names : list of str
        Coordinate names.
    default_q : list of float
        The zero configuration.
    drives : dict
        Moving joint name -> ``(coordinate, multiplier, offset)``: for a 1-dof joint the
        coordinate its value is affine in (its own, or its mimic source's), for a multi-dof
        joint its first coordinate (with 1, 0).

    """
    names, default_q, drives = [], [], {}
    for joint in link_joint:
        if joint is None or joint.kind is JointType.FIXED or joint.name in mimics:
            continue
        drives[joint.name] = (len(names), 1.0, 0.0)
        suffixes = _MULTI_DOF_SUFFIXES.get(joint.kind)
        if suffixes is None:
            names.append(joint.name)
            default_q.append(0.0)
        else:
            names.extend(f'{joint.name}/{s}' for s in suffixes)
            default_q.extend(1.0 if s == 'qw' else 0.0 for s in suffixes)
    for name, (source, multiplier, offset) in mimics.items():
        drives[name] = (drives[source][0], multiplier, offset)
    return names, default_q, drives


def _entity(joint: Joint) -> str:
    return f"joint '{joint.name}'"


def _unit(vector, joint: Joint, what: str, reporter: Reporter):
    x, y, z = (float(v) for v in vector)
    norm = math.hypot(x, y, z)  # no overflow for 1e200, no underflow for 1e-200
    if norm == 0.0 or not math.isfinite(norm):
        reporter.error(f'{what} must be a finite non-zero vector, got {tuple(vector)}',
                       joint.location, _entity(joint), Code.ZERO_AXIS)
        return (1.0, 0.0, 0.0)
    return (x / norm, y / norm, z / norm)


def _joint_axes(joint: Joint, reporter: Reporter):
    """Return the unit ``(axis, axis2)`` a joint uses (``None`` where it uses none)."""
    kind = joint.kind
    if kind in (JointType.FIXED, JointType.FLOATING, JointType.BALL):
        return None, None
    axis = _unit(joint.axis, joint, '<axis> xyz', reporter)
    if kind in (JointType.UNIVERSAL, JointType.REVOLUTE2, JointType.GEARBOX):
        axis2 = joint.axis2 if joint.axis2 is not None else _DEFAULT_AXIS2
        return axis, _unit(axis2, joint, '<axis2> xyz', reporter)
    return axis, None


def _resolve_mimics(joint_list, joints, loop_joints, missing_mimic, reporter):
    """
    Resolve mimic chains.

    Returns
    -------
    dict
        Mimic joint name -> ``(independent source name, multiplier, offset)``.

    """
    direct = {}
    for joint in joint_list:
        mimic = joint.mimic
        if mimic is None or joint.kind is JointType.FIXED:
            continue
        source = joints.get(mimic.joint)
        if joint.kind not in _ONE_DOF:
            problem = (f'a {joint.kind.value} joint cannot mimic: only 1-dof joints have '
                       'a single value', Code.BAD_MIMIC)
        elif source is None:
            problem = (f'<mimic> names joint {mimic.joint!r}, which does not exist',
                       Code.MISSING_JOINT)
        elif source.kind not in _ONE_DOF:
            problem = (f'<mimic> names {source.kind.value} joint {source.name!r}, which has '
                       'no single value to follow', Code.BAD_MIMIC)
        elif source.name in loop_joints:
            problem = (f'<mimic> names joint {source.name!r}, which closes a kinematic loop '
                       'and has no value in the tree', Code.BAD_MIMIC)
        else:
            direct[joint.name] = (source.name, float(mimic.multiplier), float(mimic.offset))
            continue
        if missing_mimic == 'error':
            reporter.error(problem[0] + " (compile with missing_mimic='ignore' to treat the "
                           'joint as independent)', joint.location, _entity(joint),
                           problem[1])
        else:
            reporter.warn(problem[0] + '; the <mimic> is ignored and the joint moves '
                          'independently', joint.location, _entity(joint), problem[1])
    resolved, failed = {}, set()
    for name in direct:
        path, on_path = [], set()
        current = name
        while current in direct and current not in resolved and current not in failed:
            if current in on_path:
                loop = path[path.index(current):]
                joint = joints[current]
                reporter.error(mimic_loop_message(loop), joint.location, _entity(joint),
                               Code.CYCLE)
                failed.update(path)
                break
            path.append(current)
            on_path.add(current)
            current = direct[current][0]
        if failed.intersection(path) or current in failed:
            failed.update(path)
            continue
        base = resolved.get(current, (current, 1.0, 0.0))
        for joint_name in reversed(path):
            _, multiplier, offset = direct[joint_name]
            base = (base[0], multiplier * base[1], multiplier * base[2] + offset)
            if not (math.isfinite(base[1]) and math.isfinite(base[2])):
                joint = joints[joint_name]
                reporter.error(f'the mimic chain to {base[0]!r} multiplies to '
                               f'value * {base[1]:g} + {base[2]:g}, which is not finite',
                               joint.location, _entity(joint), Code.BAD_MIMIC)
                base = (base[0], 1.0, 0.0)
            resolved[joint_name] = base
    return resolved


# --- per-joint constants --------------------------------------------------------------------

class _Motion:
    """
    Everything an evaluator needs about one joint, with the fixed parts precomposed.

    ``xyz``/``quat`` is ``X_PJ`` (for a root link: its pose in the model frame);
    ``inv_xyz``/``inv_quat`` is ``inv(X_CJ)``; ``drive`` is ``(coordinate, multiplier,
    offset)`` (1-dof) or ``(first coordinate, 1, 0)`` (multi-dof).
    """

    __slots__ = ('kind', 'xyz', 'quat', 'inv_xyz', 'inv_quat', 'axis', 'axis2', 'drive',
                 'pitch', 'ratio', 'plane_u', 'plane_v')

    def __init__(self, kind, xyz, quat, inv_xyz=_ZERO3, inv_quat=(0.0, 0.0, 0.0, 1.0),
                 axis=None, axis2=None, drive=(0, 1.0, 0.0)):
        self.kind = kind
        self.xyz = tuple(float(v) for v in xyz)
        self.quat = _quat_normalize(quat)
        self.inv_xyz = inv_xyz
        self.inv_quat = inv_quat
        self.axis = axis
        self.axis2 = axis2
        self.drive = drive
        self.pitch = 0.0
        self.ratio = 1.0
        self.plane_u = self.plane_v = None


def _make_motion(joint: Joint, axes, drive) -> _Motion:
    inverse = joint.joint_in_child.inverse()
    axis, axis2 = axes
    motion = _Motion(joint.kind, joint.origin.xyz, joint.origin.quat,
                     tuple(float(v) for v in inverse.xyz), _quat_normalize(inverse.quat),
                     axis, axis2, drive if drive is not None else (0, 1.0, 0.0))
    if joint.kind is JointType.SCREW:
        pitch = 1.0 if joint.screw_thread_pitch is None else float(joint.screw_thread_pitch)
        motion.pitch = pitch / (2.0 * math.pi)
    elif joint.kind is JointType.GEARBOX:
        motion.ratio = 1.0 if joint.gearbox_ratio is None else float(joint.gearbox_ratio)
    elif joint.kind is JointType.PLANAR:
        motion.plane_u, motion.plane_v = _plane_basis(axis)
    return motion


def _plane_basis(normal: Vec3):
    """Return ``(u, v)``: the joint x axis projected on the plane (y if x is normal), n x u."""
    for e in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)):
        d = _dot(e, normal)
        u = (e[0] - d * normal[0], e[1] - d * normal[1], e[2] - d * normal[2])
        norm = math.sqrt(_dot(u, u))
        if norm > _PLANAR_PARALLEL_TOL:
            u = (u[0] / norm, u[1] / norm, u[2] / norm)
            return u, _cross(normal, u)
    raise AssertionError('unreachable: a unit normal is parallel to at most one of x, y')


def _fixed_transform(motion: _Motion) -> Transform:
    """Return ``X_PJ @ inv(X_CJ)`` as ``(xyz, quat)``."""
    return _compose(motion.xyz, motion.quat, motion.inv_xyz, motion.inv_quat)


def _axis_aligned(b: Vec3):
    """Return ``(k, sign)`` if ``b`` is exactly +-e_k, else ``None``."""
    for k in range(3):
        others = [b[j] for j in range(3) if j != k]
        if others[0] == 0.0 and others[1] == 0.0 and abs(b[k]) == 1.0:
            return k, (1.0 if b[k] > 0.0 else -1.0)
    return None


def _revolute_constants(motion: _Motion):
    """
    Precompose a revolute joint for the world-pose evaluators.

    ``R_child = R_parent @ R_o @ Rot(a, t) @ R_i = R_parent @ G @ Rot(b, t)`` with
    ``G = R_o @ R_i`` and ``b = R_i^T a`` (the axis in the child frame). If ``b`` is
    ``+-e_k`` exactly, ``Rot(b, t)`` just mixes two columns; otherwise
    ``Rot(b, t) = U @ Rot(e_z, t) @ U^T`` with ``U e_z = b``.

    Returns
    -------
    k : int
        Axis index of the column mix.
    sign : float
        +-1, folded into the multiplier and offset.
    pre : 9-tuple or None
        ``G @ U`` (``None`` if the identity).
    post : 9-tuple or None
        ``U^T`` (``None`` if ``U`` is the identity).
    d : 3-tuple or None
        ``R_i^T t_i`` (= minus the joint position in the child), added as ``R_child @ d``.

    """
    r_o = _mat_from_quat(motion.quat)
    r_i = _mat_from_quat(motion.inv_quat)
    b = _mat_vec(_mat_t(r_i), motion.axis)
    g = _mat_mul(r_o, r_i)
    aligned = _axis_aligned(b)
    if aligned is not None:
        k, sign = aligned
        pre, post = g, None
    else:
        k, sign = 2, 1.0
        u = _frame_with_z(b)
        pre, post = _mat_mul(g, u), _mat_t(u)
    d = _mat_vec(_mat_t(r_i), motion.inv_xyz)
    return (k, sign, None if pre == _I3 else pre, post,
            None if d == _ZERO3 else d)


def _frame_with_z(b: Vec3):
    """Return a rotation matrix (9-tuple) whose third column is the unit vector ``b``."""
    helper = (1.0, 0.0, 0.0) if abs(b[0]) < 0.9 else (0.0, 1.0, 0.0)
    x = _cross(helper, b)
    norm = math.sqrt(_dot(x, x))
    x = (x[0] / norm, x[1] / norm, x[2] / norm)
    y = _cross(b, x)
    return (x[0], y[0], b[0], x[1], y[1], b[1], x[2], y[2], b[2])


def _fk_record(motion: _Motion, parent_slot: int):
    """Return the single-configuration evaluator's record for one link."""
    kind = motion.kind
    if kind is JointType.FIXED:
        xyz, quat = _fixed_transform(motion)
        g = _mat_from_quat(quat)
        return (_FIXED, parent_slot, None if g == _I3 else g, *xyz)
    coordinate, multiplier, offset = motion.drive
    if kind in _REVOLUTE_LIKE:
        k, sign, pre, post, d = _revolute_constants(motion)
        return ((_REV_X, _REV_Y, _REV_Z)[k], parent_slot, coordinate, sign * multiplier,
                sign * offset, pre, post, *motion.xyz, d)
    if kind is JointType.PRISMATIC:
        r_o = _mat_from_quat(motion.quat)
        g = _mat_mul(r_o, _mat_from_quat(motion.inv_quat))
        # t_child = t_parent + R_parent (t_o + R_o t_i + v R_o a)
        t1 = _add(motion.xyz, _mat_vec(r_o, motion.inv_xyz))
        return (_PRISMATIC, parent_slot, coordinate, multiplier, offset,
                None if g == _I3 else g, *t1, *_mat_vec(r_o, motion.axis))
    return (_GENERAL, parent_slot, motion, _mat_from_quat(motion.quat), motion.xyz,
            _mat_from_quat(motion.inv_quat), motion.inv_xyz)


def _tf_record(motion: _Motion):
    """Return the per-joint TF evaluator's record for one moving joint."""
    kind = motion.kind
    coordinate, multiplier, offset = motion.drive
    if kind in _REVOLUTE_LIKE:
        # quat(t) = q_o * (a sin(t/2), cos(t/2)) * q_i = cos(t/2) P + sin(t/2) Q.
        p = _quat_mul(motion.quat, motion.inv_quat)
        q = _quat_mul(_quat_mul(motion.quat, (*motion.axis, 0.0)), motion.inv_quat)
        half = (coordinate, 0.5 * multiplier, 0.5 * offset)
        if motion.inv_xyz == _ZERO3:
            return (_TF_REV, *half, motion.xyz, *p, *q)
        # xyz(t) = t_o + R_o Rot(a, t) t_i = b0 + cos(t) b1 + sin(t) b2.
        r_o = _mat_from_quat(motion.quat)
        a, t_i = motion.axis, motion.inv_xyz
        along = _scale(a, _dot(a, t_i))
        b0 = _add(motion.xyz, _mat_vec(r_o, along))
        b1 = _mat_vec(r_o, _sub(t_i, along))
        b2 = _mat_vec(r_o, _cross(a, t_i))
        return (_TF_REV_OFFSET, *half, *p, *q, *b0, *b1, *b2)
    if kind is JointType.PRISMATIC:
        r_o = _mat_from_quat(motion.quat)
        base = _add(motion.xyz, _mat_vec(r_o, motion.inv_xyz))
        return (_TF_PRISMATIC, coordinate, multiplier, offset,
                _quat_mul(motion.quat, motion.inv_quat), *base, *_mat_vec(r_o, motion.axis))
    return (_TF_GENERAL, motion)


# --- the per-joint TF evaluator (hot path: pure Python, no numpy) ---------------------------

def _eval_tf(records, q) -> list:
    out = []
    append = out.append
    sin = math.sin
    cos = math.cos
    for record in records:
        kind = record[0]
        if kind == _TF_REV:
            _, i, m, o, xyz, px, py, pz, pw, ax, ay, az, aw = record
            h = q[i] * m + o
            s = sin(h)
            c = cos(h)
            append((xyz, (c * px + s * ax, c * py + s * ay, c * pz + s * az, c * pw + s * aw)))
        elif kind == _TF_PRISMATIC:
            _, i, m, o, quat, bx, by, bz, ex, ey, ez = record
            v = q[i] * m + o
            append(((bx + v * ex, by + v * ey, bz + v * ez), quat))
        elif kind == _TF_REV_OFFSET:
            (_, i, m, o, px, py, pz, pw, ax, ay, az, aw,
             x0, y0, z0, x1, y1, z1, x2, y2, z2) = record
            h = q[i] * m + o
            s = sin(h)
            c = cos(h)
            c2 = c * c - s * s  # cos and sin of the full angle
            s2 = 2.0 * s * c
            append(((x0 + c2 * x1 + s2 * x2, y0 + c2 * y1 + s2 * y2, z0 + c2 * z1 + s2 * z2),
                    (c * px + s * ax, c * py + s * ay, c * pz + s * az, c * pw + s * aw)))
        else:
            motion = record[1]
            m_xyz, m_quat = _motion_scalar(motion, q)
            xyz, quat = _compose(motion.xyz, motion.quat, m_xyz, m_quat)
            append(_compose(xyz, quat, motion.inv_xyz, motion.inv_quat))
    return out


# --- the single-configuration world-pose evaluator ------------------------------------------

def _fk_single(records, q) -> list:
    """Return the row-major 16-tuples ``T_model_link``, model frame first (slot 0)."""
    poses = [_I16]
    append = poses.append
    sin = math.sin
    cos = math.cos
    for record in records:
        kind = record[0]
        (r00, r01, r02, x, r10, r11, r12, y, r20, r21, r22, z,
         _, _, _, _) = poses[record[1]]
        if kind == _FIXED:
            _, _, g, tx, ty, tz = record
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
        elif kind <= _REV_Z:
            _, _, i, m, o, g, u, tx, ty, tz, d = record
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
            t = q[i] * m + o
            c = cos(t)
            s = sin(t)
            # Right-multiply by the rotation about axis k: mixes the two other columns.
            if kind == _REV_Z:
                r00, r01 = r00 * c + r01 * s, r01 * c - r00 * s
                r10, r11 = r10 * c + r11 * s, r11 * c - r10 * s
                r20, r21 = r20 * c + r21 * s, r21 * c - r20 * s
            elif kind == _REV_X:
                r01, r02 = r01 * c + r02 * s, r02 * c - r01 * s
                r11, r12 = r11 * c + r12 * s, r12 * c - r11 * s
                r21, r22 = r21 * c + r22 * s, r22 * c - r21 * s
            else:
                r02, r00 = r02 * c + r00 * s, r00 * c - r02 * s
                r12, r10 = r12 * c + r10 * s, r10 * c - r12 * s
                r22, r20 = r22 * c + r20 * s, r20 * c - r22 * s
            if u is not None:
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
        elif kind == _PRISMATIC:
            _, _, i, m, o, g, tx, ty, tz, ex, ey, ez = record
            v = q[i] * m + o
            tx += v * ex
            ty += v * ey
            tz += v * ez
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
        else:
            _, _, motion, r_o, t_o, r_i, t_i = record
            m_xyz, m_quat = _motion_scalar(motion, q)
            r_m = _mat_from_quat(m_quat)
            # T_local = T_o @ M @ T_i
            local_r = _mat_mul(_mat_mul(r_o, r_m), r_i)
            local_t = _add(t_o, _mat_vec(r_o, _add(m_xyz, _mat_vec(r_m, t_i))))
            r_p = (r00, r01, r02, r10, r11, r12, r20, r21, r22)
            r00, r01, r02, r10, r11, r12, r20, r21, r22 = _mat_mul(r_p, local_r)
            dx, dy, dz = _mat_vec(r_p, local_t)
            x += dx
            y += dy
            z += dz
        append((r00, r01, r02, x, r10, r11, r12, y, r20, r21, r22, z, 0.0, 0.0, 0.0, 1.0))
    return poses


def _motion_scalar(motion: _Motion, q) -> Transform:
    """Return ``M(q)`` of any joint as ``(xyz, quat)`` in the joint frame (pure Python)."""
    kind = motion.kind
    i, multiplier, offset = motion.drive
    if kind in _ONE_DOF:
        v = q[i] * multiplier + offset
        a = motion.axis
        if kind is JointType.PRISMATIC:
            return _scale(a, v), (0.0, 0.0, 0.0, 1.0)
        if kind is JointType.GEARBOX:
            quat = _quat_mul(_axis_angle_quat(a, -v),
                             _axis_angle_quat(motion.axis2, -motion.ratio * v))
            return _ZERO3, quat
        return _scale(a, v * motion.pitch), _axis_angle_quat(a, v)
    if kind is JointType.FLOATING:
        return (q[i], q[i + 1], q[i + 2]), _quat_normalize(q[i + 3:i + 7])
    if kind is JointType.BALL:
        return _ZERO3, _quat_normalize(q[i:i + 4])
    if kind is JointType.PLANAR:
        x, y, theta = q[i], q[i + 1], q[i + 2]
        return (_add(_scale(motion.plane_u, x), _scale(motion.plane_v, y)),
                _axis_angle_quat(motion.axis, theta))
    # universal, revolute2
    return _ZERO3, _quat_mul(_axis_angle_quat(motion.axis, q[i]),
                             _axis_angle_quat(motion.axis2, q[i + 1]))


# --- the vectorised evaluator ---------------------------------------------------------------

class _BatchProgram:
    """
    The vectorised world-pose evaluator: one op per link, working on reusable slots.

    A slot holds one link pose for a whole chunk as ``R`` (3, 3, B) and ``t`` (3, B), the
    configuration index last so every numpy call streams over contiguous memory. Slot 0 is
    the model frame, slot 1 is scratch for leaf links; a link with children keeps a slot
    until its last child is done, so the slot count stays small (2 for a chain) and memory
    does not grow with the number of links.
    """

    __slots__ = ('ops', 'n_slots', 'value_coordinate', 'value_multiplier', 'value_offset',
                 'n_trig')

    def __init__(self, ops, link_parent):
        remaining = [0] * len(ops)
        for p in link_parent:
            if p >= 0:
                remaining[p] += 1
        slot_of, free, n_slots = {}, [], 2
        # Rows of the per-chunk value array: revolute joints first (their cos/sin are
        # computed in one call each), then the other 1-dof joints.
        revolute = [i for i, (motion, _) in enumerate(ops) if motion.kind in _REVOLUTE_LIKE]
        others = [i for i, (motion, _) in enumerate(ops)
                  if motion.kind in _ONE_DOF and motion.kind not in _REVOLUTE_LIKE]
        value_row = {i: row for row, i in enumerate(revolute + others)}
        coordinate = np.zeros(len(value_row), dtype=np.intp)
        multiplier = np.ones(len(value_row))
        offset = np.zeros(len(value_row))
        self.ops = []
        for i, (motion, p) in enumerate(ops):
            if remaining[i]:
                slot = free.pop() if free else n_slots
                n_slots = max(n_slots, slot + 1)
                slot_of[i] = slot
            else:
                slot = 1
            parent_slot = 0 if p < 0 else slot_of[p]
            row = value_row.get(i, -1)
            sign = 1.0
            if motion.kind is JointType.FIXED:
                xyz, quat = _fixed_transform(motion)
                g = _mat_from_quat(quat)
                op = (_FIXED, i, parent_slot, slot, None if g == _I3 else _np_t(g),
                      np.array(xyz))
            elif motion.kind in _REVOLUTE_LIKE:
                k, sign, pre, post, d = _revolute_constants(motion)
                op = ((_REV_X, _REV_Y, _REV_Z)[k], i, parent_slot, slot, row,
                      None if pre is None else _np_t(pre),
                      None if post is None else _np_t(post), np.array(motion.xyz),
                      None if d is None else np.array(d))
            elif motion.kind is JointType.PRISMATIC:
                record = _fk_record(motion, 0)
                g = record[5]
                op = (_PRISMATIC, i, parent_slot, slot, row, None if g is None else _np_t(g),
                      np.array(record[6:9]), np.array(record[9:12]))
            else:
                op = (_GENERAL, i, parent_slot, slot, row, motion,
                      _np_t(_mat_from_quat(motion.quat)), np.array(motion.xyz),
                      _np_t(_mat_from_quat(motion.inv_quat)), np.array(motion.inv_xyz))
            if row >= 0:
                coordinate[row], m, o = motion.drive
                multiplier[row] = sign * m
                offset[row] = sign * o
            self.ops.append(op)
            if p >= 0:
                remaining[p] -= 1
                if remaining[p] == 0:
                    free.append(slot_of[p])
        self.value_coordinate = coordinate
        self.value_multiplier = multiplier[:, None]
        self.value_offset = offset[:, None]
        self.n_trig = len(revolute)
        self.n_slots = n_slots

    def run(self, q, out) -> bool:
        """
        Fill ``out`` (B, n_links, 4, 4) with ``T_model_link`` for ``q`` (B, n_q).

        The bottom rows of ``out`` must already be ``(0, 0, 0, 1)``. Return ``False``
        (leaving ``out`` unfilled) when a joint angle is infinite, as the single evaluator
        refuses it too.
        """
        n = q.shape[0]
        values = np.ascontiguousarray(q.T)[self.value_coordinate]
        with np.errstate(over='ignore', invalid='ignore'):
            values *= self.value_multiplier
            values += self.value_offset
        if np.isinf(values).any() or np.isinf(q).any():
            return False
        cos = np.cos(values[:self.n_trig])
        sin = np.sin(values[:self.n_trig])
        rot = np.empty((self.n_slots, 3, 3, n))
        trans = np.empty((self.n_slots, 3, n))
        rot[0] = np.eye(3)[:, :, None]
        trans[0] = 0.0
        tmp = np.empty((3, n))
        tmp9 = np.empty((3, 3, n))
        matmul = np.matmul
        multiply = np.multiply
        for op in self.ops:
            kind, i, p, s = op[0], op[1], op[2], op[3]
            r_p, r_c, t_c = rot[p], rot[s], trans[s]
            if kind == _FIXED:
                g_t, t_o = op[4], op[5]
                matmul(t_o, r_p, out=t_c)
                t_c += trans[p]
                if g_t is None:
                    r_c[...] = r_p
                else:
                    matmul(g_t, r_p, out=r_c)
            elif kind <= _REV_Z:
                _, _, _, _, row, pre_t, post_t, t_o, d = op
                matmul(t_o, r_p, out=t_c)
                t_c += trans[p]
                if pre_t is None:
                    r_c[...] = r_p
                else:
                    matmul(pre_t, r_p, out=r_c)
                c, sn = cos[row], sin[row]
                if kind == _REV_Z:
                    a, b = 0, 1
                elif kind == _REV_X:
                    a, b = 1, 2
                else:
                    a, b = 2, 0
                col_a, col_b = r_c[:, a], r_c[:, b]
                tmp[...] = col_a
                col_a *= c
                multiply(col_b, sn, out=tmp9[0])
                col_a += tmp9[0]
                col_b *= c
                tmp *= sn
                col_b -= tmp
                if post_t is not None:
                    matmul(post_t, r_c, out=tmp9)
                    r_c[...] = tmp9
                if d is not None:
                    matmul(d, r_c, out=tmp)
                    t_c += tmp
            elif kind == _PRISMATIC:
                _, _, _, _, row, g_t, t1, e = op
                v = values[row]
                w = np.multiply.outer(e, v)
                w += t1[:, None]
                np.einsum('ikb,kb->ib', r_p, w, out=t_c)
                t_c += trans[p]
                if g_t is None:
                    r_c[...] = r_p
                else:
                    matmul(g_t, r_p, out=r_c)
            else:
                _, _, _, _, row, motion, r_o_t, t_o, r_i_t, t_i = op
                r_m, t_m = _motion_batch(motion, q, values[row] if row >= 0 else None)
                w = matmul(r_o_t, r_p)                       # R_p R_o
                x = np.einsum('ikb,kjb->ijb', w, r_m)        # R_p R_o R_m
                matmul(t_o, r_p, out=t_c)
                t_c += trans[p]
                t_c += np.einsum('ikb,kb->ib', w, t_m)
                t_c += matmul(t_i, x)
                matmul(r_i_t, x, out=r_c)
            target = out[:, i]
            target[:, :3, :3] = r_c.transpose(2, 0, 1)
            target[:, :3, 3] = t_c.T
        return True


def _motion_batch(motion: _Motion, q, value):
    """
    Return ``M(q)`` of any joint for a chunk, in the slot layout.

    Parameters
    ----------
    motion : _Motion
        The joint.
    q : ndarray, shape (B, n_q)
        The chunk's configurations.
    value : ndarray, shape (B,), or None
        The 1-dof joint value (mimic applied).

    Returns
    -------
    r : ndarray, shape (3, 3, B)
    t : ndarray, shape (3, B)

    """
    kind = motion.kind
    n = q.shape[0]
    t = np.zeros((3, n))
    if kind in _ONE_DOF:
        a = np.array(motion.axis)
        if kind is JointType.GEARBOX:
            with np.errstate(over='ignore'):
                angle2 = -motion.ratio * value
            if np.isinf(angle2).any():
                raise _InfiniteAngle(q.tolist())
            r = _rodrigues_batch(a, -value)
            r2 = _rodrigues_batch(np.array(motion.axis2), angle2)
            return np.einsum('ikb,kjb->ijb', r, r2), t
        if kind is JointType.PRISMATIC:
            return np.broadcast_to(np.eye(3)[:, :, None], (3, 3, n)), np.multiply.outer(a, value)
        # screw (revolute-like joints never come here)
        return _rodrigues_batch(a, value), np.multiply.outer(a * motion.pitch, value)
    i = motion.drive[0]
    if kind is JointType.FLOATING:
        t[...] = q[:, i:i + 3].T
        return _quat_matrices_batch(q[:, i + 3:i + 7]), t
    if kind is JointType.BALL:
        return _quat_matrices_batch(q[:, i:i + 4]), t
    if kind is JointType.PLANAR:
        t = (np.multiply.outer(np.array(motion.plane_u), q[:, i])
             + np.multiply.outer(np.array(motion.plane_v), q[:, i + 1]))
        return _rodrigues_batch(np.array(motion.axis), q[:, i + 2]), t
    r1 = _rodrigues_batch(np.array(motion.axis), q[:, i])
    r2 = _rodrigues_batch(np.array(motion.axis2), q[:, i + 1])
    return np.einsum('ikb,kjb->ijb', r1, r2), t


def _rodrigues_batch(axis, angle):
    """Return ``Rot(axis, angle)`` (3, 3, B) for a unit ``axis`` and angles (B,)."""
    k = np.array([[0.0, -axis[2], axis[1]], [axis[2], 0.0, -axis[0]],
                  [-axis[1], axis[0], 0.0]])
    k2 = k @ k
    return (np.eye(3)[:, :, None] + np.multiply.outer(k, np.sin(angle))
            + np.multiply.outer(k2, 1.0 - np.cos(angle)))


def _quat_matrices_batch(quats):
    """Return rotation matrices (3, 3, B) of quaternions (B, 4), normalised (0 -> identity)."""
    quats = np.array(quats, dtype=float)
    scale = np.abs(quats).max(axis=1)  # scaled first: the squares of 1e200 would overflow
    zero = scale == 0.0
    quats[zero] = (0.0, 0.0, 0.0, 1.0)
    scale[zero] = 1.0
    quats /= scale[:, None]
    quats /= np.linalg.norm(quats, axis=1)[:, None]
    x, y, z, w = quats.T
    return np.array([
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)],
    ])


# --- public evaluation ----------------------------------------------------------------------

def forward_kinematics(tree: KinematicTree, q, *, chunk_size: int | None = None) -> np.ndarray:
    """
    Return the pose of every link in the model frame.

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    q : array-like, shape (n_q,) or (..., n_q)
        Configurations (rad, m; quaternion coordinates need not be normalised).
    chunk_size : int, optional
        Configurations per vectorised chunk (default :data:`DEFAULT_CHUNK_SIZE`); memory
        beyond the result is proportional to it, never to the batch size.

    Returns
    -------
    ndarray, shape (n_links, 4, 4) or (..., n_links, 4, 4)
        ``T_model_link`` for each link of ``tree.link_names``.

    Raises
    ------
    ValueError
        The last dimension of ``q`` is not ``tree.n_q``.
    KinematicsError
        A joint value is infinite: an entry of ``q``, the ``multiplier * value +
        offset`` of a mimic joint, or a gearbox's ``ratio * value``, which overflows.
        ``NaN`` is not checked: it gives ``NaN`` poses.

    """
    n_q = tree.n_q
    if not (type(q) is list and len(q) == n_q and (n_q == 0 or type(q[0]) is float)):
        q = np.asarray(q, dtype=float)
        if q.ndim == 0 or q.shape[-1] != n_q:
            raise ValueError(f'q must have shape (..., {n_q}), got {q.shape}')
    chunk = DEFAULT_CHUNK_SIZE if chunk_size is None else int(chunk_size)
    if chunk < 1:
        raise ValueError(f'chunk_size must be positive, got {chunk_size}')
    try:
        return _evaluate(tree, q, chunk)
    except _InfiniteAngle as e:
        raise _infinite_angle_error(tree, e.args[0]) from None
    except (ValueError, OverflowError):  # math.sin(inf) of the single evaluator
        error = _infinite_angle_error(tree, np.asarray(q, dtype=float).reshape(-1, n_q))
        if error is None:
            raise
        raise error from None


class _InfiniteAngle(Exception):
    """A batch chunk holds an infinite joint angle; ``args[0]`` is the chunk (rows)."""


def _evaluate(tree: KinematicTree, q, chunk: int) -> np.ndarray:
    """Run :func:`forward_kinematics` on a checked ``q`` (a list of floats or an array)."""
    if type(q) is not list and q.ndim == 1:
        q = q.tolist()
    if type(q) is list:
        if _INF in q or -_INF in q:  # a C-level scan: cheap next to the evaluation
            raise _InfiniteAngle([q])
        return _poses_array(_fk_single(tree._fk_records, q), tree.n_links)
    n_q = tree.n_q
    lead = q.shape[:-1]
    count = math.prod(lead)
    flat = q.reshape(count, n_q)
    n_links = tree.n_links
    out = np.empty((count, n_links, 4, 4))
    if count <= _SCALAR_BATCH_MAX:
        if np.isinf(flat).any():
            raise _InfiniteAngle(flat.tolist())
        records = tree._fk_records
        for k, row in enumerate(flat.tolist()):
            out[k] = _poses_array(_fk_single(records, row), n_links)
        return out.reshape(lead + (n_links, 4, 4))
    out[:, :, 3, :3] = 0.0
    out[:, :, 3, 3] = 1.0
    program = tree._batch
    for start in range(0, count, chunk):
        part = flat[start:start + chunk]
        if not program.run(part, out[start:start + chunk]):
            raise _InfiniteAngle(part.tolist())
    return out.reshape(lead + (n_links, 4, 4))


def _poses_array(poses, n_links: int) -> np.ndarray:
    """Return the 16-tuples after the model frame slot as a (n_links, 4, 4) array."""
    flat = np.fromiter(chain.from_iterable(poses), float, 16 * (n_links + 1))
    return flat[16:].reshape(n_links, 4, 4)


def frame_poses(tree: KinematicTree, q=None, *, link_poses=None) -> np.ndarray:
    """
    Return the pose of every named frame (``tree.frame_names``) in the model frame.

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    q : array-like, shape (n_q,) or (..., n_q), optional
        Configurations; ignored when ``link_poses`` is given.
    link_poses : ndarray, shape (..., n_links, 4, 4), optional
        The result of :func:`forward_kinematics`, to avoid computing it twice.

    Returns
    -------
    ndarray, shape (..., n_frames, 4, 4)
        ``T_model_frame = T_model_link @ T_link_frame``.

    """
    if link_poses is None:
        if q is None:
            raise ValueError('give q or link_poses')
        link_poses = forward_kinematics(tree, q)
    link_poses = np.asarray(link_poses, dtype=float)
    return np.matmul(link_poses[..., list(tree.frame_links), :, :], tree._frame_constants)


# --- small pure-Python helpers (9-tuples are row-major 3x3 matrices) -------------------------

def _np_t(m9) -> np.ndarray:
    """Return the transpose of a 9-tuple matrix as a (3, 3) array (for left matmuls)."""
    return np.array(m9, dtype=float).reshape(3, 3).T.copy()


def _dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a, b) -> Vec3:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _add(a, b) -> Vec3:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _sub(a, b) -> Vec3:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _scale(a, s: float) -> Vec3:
    return (a[0] * s, a[1] * s, a[2] * s)


def _mat_from_quat(quat):
    x, y, z, w = quat
    return (1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w),
            2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
            2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y))


def _mat_mul(a, b):
    return tuple(a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c]
                 for r in range(3) for c in range(3))


def _mat_vec(a, v) -> Vec3:
    return (a[0] * v[0] + a[1] * v[1] + a[2] * v[2],
            a[3] * v[0] + a[4] * v[1] + a[5] * v[2],
            a[6] * v[0] + a[7] * v[1] + a[8] * v[2])


def _mat_t(a):
    return (a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8])


def _quat_normalize(q) -> Quat:
    x, y, z, w = (float(v) for v in q)
    n = math.hypot(x, y, z, w)  # no overflow for 1e200, no underflow for 1e-200
    if n == 0.0:
        return (0.0, 0.0, 0.0, 1.0)
    return (x / n, y / n, z / n, w / n)


def _quat_mul(a, b) -> Quat:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz)


def _quat_rotate(q, v) -> Vec3:
    x, y, z, w = q
    vx, vy, vz = v
    tx = 2.0 * (y * vz - z * vy)
    ty = 2.0 * (z * vx - x * vz)
    tz = 2.0 * (x * vy - y * vx)
    return (vx + w * tx + (y * tz - z * ty),
            vy + w * ty + (z * tx - x * tz),
            vz + w * tz + (x * ty - y * tx))


def _axis_angle_quat(axis, angle: float) -> Quat:
    s = math.sin(0.5 * angle)
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(0.5 * angle))


def _compose(xyz_a, q_a, xyz_b, q_b) -> Transform:
    r = _quat_rotate(q_a, xyz_b)
    return ((xyz_a[0] + r[0], xyz_a[1] + r[1], xyz_a[2] + r[2]), _quat_mul(q_a, q_b))
