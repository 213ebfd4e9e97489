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
The ``joint_states`` -> ``/tf`` hot path and the ``/tf_static`` set, as message lists.

:class:`JointStateTf` is what the state publisher's ``joint_states`` callback calls: one
``sensor_msgs/JointState`` in, the list of ``geometry_msgs/TransformStamped`` to broadcast
out (or ``None``). It implements robot_state_publisher's publishing rules and the ways this
node goes beyond them:

* **Throttle** (as robot_state_publisher): a message is published when ``ignore_timestamp``
  is set or its header stamp is at least ``last + 1000 // publish_frequency`` ms, where
  ``last`` is the minimum of the node clock's ``now`` and the stamps last published for the
  coordinates the message names (never published: 0). So a zero stamp is never published
  (a throttled warning says why), out-of-order messages are dropped, and each publisher of a
  subset of the joints is throttled on its own. When the node clock goes backwards, every
  stored stamp is cleared with robot_state_publisher's warning.
* **Merging**: each message writes its values into one configuration shared by all
  publishers and produces transforms only for the joints it moves: those owning a named
  coordinate plus every mimic joint following one (chains included). A multi-dof joint
  (floating ``J/x .. J/qw``, planar ``J/x, J/y, J/theta``, ball, universal) is published
  when any of its coordinates arrives, the others keeping their last value (default: zero
  position, identity orientation). A floating or planar joint whose coordinates never
  arrive is never published, on ``/tf`` or ``/tf_static``.
* **Mimic joints** follow their source joint whenever it is in the message; a value given
  for a mimic joint itself is ignored (debug log once per name).
* **Rejected** (nothing published, configuration unchanged, a warning throttled to one per
  :data:`THROTTLE_SEC` per kind with the number suppressed): position and name arrays of
  different lengths, a joint named twice, a non-finite value of a used joint.
* **Unknown names** are ignored with one warning per name (a multi-dof or fixed joint's name
  gets a hint), at most :data:`MAX_REPORTED_NAMES` names.

The hot path does no allocation of messages: one ``TransformStamped`` per moving joint is
built with the frame names once and updated in place (translation, rotation and one header
stamp object shared by all of them), and the per-name-list work
(:meth:`~sdf_tools.kinematics.KinematicTree.joint_state_plan`) is cached, at most
``plan_cache_size`` name lists. The returned list is reused: broadcast it before the next
call (``sendTransform`` serialises at once).
"""

import math
import time
from typing import NamedTuple

from geometry_msgs.msg import TransformStamped

from sdf_tools.errors import KinematicsError
from sdf_tools.kinematics import JointStatePlan
from sdf_tools.kinematics import KinematicTree

#: Minimum seconds between two warnings of one kind about rejected messages.
THROTTLE_SEC = 5.0
#: Distinct joint_states name lists whose plans are kept (oldest dropped first).
PLAN_CACHE_SIZE = 64
#: Unknown or mimic joint names reported individually before going quiet.
MAX_REPORTED_NAMES = 256
#: robot_state_publisher's message when the node clock goes backwards.
BACKWARDS_MESSAGE = 'Moved backwards in time, re-publishing joint transforms!'
MAX_PUBLISH_FREQUENCY = 1000.0


def publish_frequency_problem(value) -> str | None:
    """Return why ``value`` is not a valid ``publish_frequency``, or ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f'publish_frequency must be a number, got {value!r}'
    if not 0.0 < value <= MAX_PUBLISH_FREQUENCY:
        return 'publish_frequency must be between 0.0 (exclusive) and 1000.0'
    return None


def publish_interval_ns(publish_frequency: float) -> int:
    """Return robot_state_publisher's throttle interval: whole milliseconds, in ns."""
    return int(1000.0 / publish_frequency) * 1_000_000


def make_transform(parent: str, child: str, xyz, quat, stamp=None) -> TransformStamped:
    """
    Build one ``TransformStamped`` (``T_parent_child``).

    Parameters
    ----------
    parent, child : str
        ``header.frame_id`` and ``child_frame_id``.
    xyz : sequence of 3 float
        Translation (m).
    quat : sequence of 4 float
        Rotation ``(x, y, z, w)``.
    stamp : builtin_interfaces.msg.Time, optional
        ``header.stamp`` (default zero).

    """
    t = TransformStamped()
    t.header.frame_id = parent
    t.child_frame_id = child
    if stamp is not None:
        t.header.stamp = stamp
    translation = t.transform.translation
    translation.x, translation.y, translation.z = (float(v) for v in xyz)
    rotation = t.transform.rotation
    rotation.x, rotation.y, rotation.z, rotation.w = (float(v) for v in quat)
    return t


def static_transforms(tree: KinematicTree, frame_prefix: str, stamp, frames=()) -> list:
    """
    Return the ``/tf_static`` set: fixed joints (parent link -> child link) and named frames.

    Named frames (SDFormat ``<frame>``, RobCoGen ``frames {}``) are rigidly attached to a
    link, so they are published as static transforms link -> frame (robot_state_publisher,
    which reads only URDF, has none).

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    frame_prefix : str
        Prepended to both frame names (plain concatenation).
    stamp : builtin_interfaces.msg.Time
        The stamp of every transform (the node clock's now).
    frames : iterable of Frame
        The model's named frames (``Robot.frames``).

    Returns
    -------
    list of TransformStamped

    """
    transforms = [make_transform(frame_prefix + joint.parent, frame_prefix + joint.child, xyz,
                                 quat, stamp)
                  for joint, (xyz, quat) in zip(tree.fixed_joints, tree.fixed_joint_transforms)]
    transforms += [make_transform(frame_prefix + frame.attached_to, frame_prefix + frame.name,
                                  frame.pose.xyz, frame.pose.quat, stamp) for frame in frames]
    return transforms


class NullLogger:
    """A logger that drops everything (benchmarks); same methods as rclpy's logger."""

    def debug(self, *args, **kwargs):
        """Drop a message."""

    info = warning = error = fatal = debug


class _Throttle:
    """Cheap per-kind rate limit in front of the logger (rclpy's own costs ~250 us a call)."""

    __slots__ = ('period', '_next', '_suppressed')

    def __init__(self, period: float):
        self.period = period
        self._next = {}
        self._suppressed = {}

    def allow(self, kind: str):
        """Return ``None`` to stay quiet, else the number of messages suppressed since."""
        now = time.monotonic()
        if now < self._next.get(kind, 0.0):
            self._suppressed[kind] = self._suppressed.get(kind, 0) + 1
            return None
        self._next[kind] = now + self.period
        return self._suppressed.pop(kind, 0)


class _NameListPlan(NamedTuple):
    """What :meth:`JointStateTf.process` needs for one ``joint_states`` name list."""

    plan: JointStatePlan           # the kinematics' hot path for these names
    coordinates: tuple             # indices into q the names set (their stamps throttle)
    parts: list                    # (translation, rotation) message parts to fill, per joint
    out: list                      # the TransformStamped to return, per joint
    problem: str | None            # why every message with these names is refused


def _suffix(suppressed: int) -> str:
    return f' ({suppressed} similar message(s) suppressed)' if suppressed else ''


class JointStateTf:
    """
    Turn ``sensor_msgs/JointState`` messages into ``/tf`` transforms for one robot.

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    frame_prefix : str
        Prepended to every frame name.
    publish_frequency : float
        Maximum rate per set of joints (Hz, in (0, 1000]).
    ignore_timestamp : bool
        Publish every valid message, whatever its stamp.
    logger : object, optional
        rclpy logger (or anything with ``debug/info/warning/error`` accepting rclpy's
        ``throttle_duration_sec`` and ``once`` keywords); default: drop messages.
    positions : Mapping, optional
        Coordinate name -> value to start from (e.g. the previous model's
        :meth:`positions`, so that a description swap keeps known joints in place).
    plan_cache_size : int
        Distinct name lists whose plans are kept.
    throttle_sec : float
        Minimum seconds between two warnings of one kind about rejected messages.

    Attributes
    ----------
    received, published, throttled, rejected : int
        Messages handled, that produced transforms, that the throttle dropped, that were
        invalid.

    """

    def __init__(self, tree: KinematicTree, *, frame_prefix: str = '',
                 publish_frequency: float = 20.0, ignore_timestamp: bool = False,
                 logger=None, positions=None, plan_cache_size: int = PLAN_CACHE_SIZE,
                 throttle_sec: float = THROTTLE_SEC):
        problem = publish_frequency_problem(publish_frequency)
        if problem:
            raise ValueError(problem)
        self.tree = tree
        self.logger = logger if logger is not None else NullLogger()
        self.ignore_timestamp = bool(ignore_timestamp)
        self._publish_frequency = float(publish_frequency)
        self._interval = publish_interval_ns(publish_frequency)
        self._cache_size = max(1, int(plan_cache_size))
        self._q = tree.default_q().tolist()
        index = tree.coordinate_index
        for name, value in (positions or {}).items():
            i = index.get(name)
            if i is not None and isinstance(value, float) and math.isfinite(value):
                self._q[i] = value
        self._last_stamp = [0] * tree.n_q
        self._last_now = None
        self._messages = [TransformStamped() for _ in tree.moving_joints]
        self._stamp = self._messages[0].header.stamp if self._messages else None
        for t in self._messages:
            t.header.stamp = self._stamp  # one stamp object: set once per message
            t.transform.rotation.w = 1.0
        self._parts = [(t.transform.translation, t.transform.rotation) for t in self._messages]
        self._frame_prefix = None
        self.frame_prefix = frame_prefix
        self._plans = {}
        self._reported = set()
        self._throttle = _Throttle(throttle_sec)
        self._multi_dof = {j.name: [tree.coordinate_names[c] for c in j.coordinates]
                           for j in tree.moving_joints if j.multi_dof}
        self._fixed = {j.name for j in tree.fixed_joints}
        self._loops = frozenset(tree.loop_joints)
        self._mimic_source = {m.joint: m.source for m in tree.mimic_joints}
        self.received = self.published = self.throttled = self.rejected = 0

    # --- settings ---------------------------------------------------------------------------

    @property
    def frame_prefix(self) -> str:
        """Get or set the frame prefix (setting it renames every transform's frames)."""
        return self._frame_prefix

    @frame_prefix.setter
    def frame_prefix(self, prefix: str) -> None:
        prefix = str(prefix)
        if prefix == self._frame_prefix:
            return
        for t, joint in zip(self._messages, self.tree.moving_joints):
            t.header.frame_id = prefix + joint.parent
            t.child_frame_id = prefix + joint.child
        self._frame_prefix = prefix

    @property
    def publish_frequency(self) -> float:
        """Get or set the maximum publishing rate per set of joints (Hz)."""
        return self._publish_frequency

    @publish_frequency.setter
    def publish_frequency(self, value: float) -> None:
        problem = publish_frequency_problem(value)
        if problem:
            raise ValueError(problem)
        self._publish_frequency = float(value)
        self._interval = publish_interval_ns(value)

    def positions(self) -> dict:
        """Return the current configuration as coordinate name -> value."""
        return dict(zip(self.tree.coordinate_names, self._q))

    # --- the hot path -----------------------------------------------------------------------

    def process(self, msg, now_ns: int):
        """
        Handle one ``sensor_msgs/JointState``.

        Parameters
        ----------
        msg : sensor_msgs.msg.JointState
            The message (only ``header.stamp``, ``name`` and ``position`` are read).
        now_ns : int
            The node clock's now (ns): detects time going backwards and caps the throttle's
            reference, as robot_state_publisher does.

        Returns
        -------
        list of TransformStamped or None
            The transforms to broadcast (reused between calls), or ``None`` when nothing is
            to be published.

        """
        self.received += 1
        names = msg.name
        positions = msg.position
        if len(positions) != len(names):
            return self._reject_lengths(names, positions)
        last_now = self._last_now
        if last_now is not None and now_ns < last_now:
            self.logger.warning(BACKWARDS_MESSAGE)
            self._last_stamp = [0] * self.tree.n_q
        self._last_now = now_ns
        key = tuple(names)
        entry = self._plans.get(key)
        if entry is None:
            entry = self._new_entry(key)
        plan, coordinates, parts, out, problem = entry
        if problem is not None:
            self.rejected += 1
            suppressed = self._throttle.allow('duplicate')
            if suppressed is not None:
                self.logger.warning(problem + _suffix(suppressed),
                                    throttle_duration_sec=self._throttle.period)
            return None
        if not out:
            return None
        stamp = msg.header.stamp
        sec = stamp.sec
        nanosec = stamp.nanosec
        t = sec * 1_000_000_000 + nanosec
        last_stamp = self._last_stamp
        if not self.ignore_timestamp:
            last = min(now_ns, min(map(last_stamp.__getitem__, coordinates)))
            if t < last + self._interval:
                self.throttled += 1
                if t == 0:
                    self._warn_zero_stamp()
                return None
        try:
            plan.update(self._q, positions)
        except KinematicsError as e:
            self.rejected += 1
            suppressed = self._throttle.allow('value')
            if suppressed is not None:
                self.logger.warning(f'Ignored a JointState message: {e}{_suffix(suppressed)}',
                                    throttle_duration_sec=self._throttle.period)
            return None
        for c in coordinates:
            last_stamp[c] = t
        shared = self._stamp
        shared.sec = sec
        shared.nanosec = nanosec
        for (translation, rotation), (xyz, quat) in zip(parts, plan.transforms(self._q)):
            translation.x, translation.y, translation.z = xyz
            rotation.x, rotation.y, rotation.z, rotation.w = quat
        self.published += 1
        return out

    # --- the cold paths ---------------------------------------------------------------------

    def _reject_lengths(self, names, positions):
        self.rejected += 1
        if not len(positions) and len(names):
            suppressed = self._throttle.allow('empty')
            if suppressed is not None:
                self.logger.warning(
                    f'Ignored a JointState message about joint(s) "{names[0]}"(,...) whose '
                    f'position member was empty{_suffix(suppressed)}',
                    throttle_duration_sec=self._throttle.period)
        else:
            suppressed = self._throttle.allow('length')
            if suppressed is not None:
                self.logger.warning(
                    f'Ignored an invalid JointState message: {len(names)} name(s) but '
                    f'{len(positions)} position(s){_suffix(suppressed)}',
                    throttle_duration_sec=self._throttle.period)
        return None

    def _warn_zero_stamp(self):
        suppressed = self._throttle.allow('zero')
        if suppressed is not None:
            self.logger.warning(
                'joint_states messages stamped 0 are never published (the stamp is never '
                'newer than the last one published): stamp them, or set ignore_timestamp to '
                f'true{_suffix(suppressed)}', throttle_duration_sec=self._throttle.period)

    def _new_entry(self, key: tuple):
        plan = self.tree.joint_state_plan(key)
        problem = None
        if len(set(key)) != len(key):
            seen = set()
            twice = next(n for n in key if n in seen or seen.add(n))
            problem = f'Ignored a JointState message that names joint {twice!r} more than once'
        coordinates = tuple(sorted({c for c in plan.coordinates if c >= 0}))
        out = [self._messages[k] for k in plan.joints]
        parts = [self._parts[k] for k in plan.joints]
        self._report_names(plan)
        entry = _NameListPlan(plan, coordinates, parts, out, problem)
        if len(self._plans) >= self._cache_size:
            del self._plans[next(iter(self._plans))]
        self._plans[key] = entry
        return entry

    def _report_names(self, plan) -> None:
        reported = self._reported
        robot = self.tree.name
        for name in plan.mimic:
            if name not in reported and self._remember(name):
                self.logger.debug(f"joint_states gives a value for mimic joint '{name}': "
                                  'ignored, the joint follows '
                                  f"'{self._mimic_source.get(name, '?')}'")
        for name in plan.unknown:
            if name in reported or not self._remember(name):
                continue
            if name in self._multi_dof:
                hint = (f': it has several coordinates, name them '
                        f"{', '.join(self._multi_dof[name])}")
            elif name in self._fixed:
                hint = ': it is a fixed joint (published on /tf_static)'
            elif name in self._loops:
                hint = (': it closes a kinematic loop, and the tree the transforms follow '
                        'leaves it out')
            else:
                hint = ''
            self.logger.warning(f'joint_states names {name!r}, which is not a joint coordinate '
                                f"of robot '{robot}'{hint}; ignoring it")

    def _remember(self, name: str) -> bool:
        reported = self._reported
        if len(reported) < MAX_REPORTED_NAMES:
            reported.add(name)
            return True
        if len(reported) == MAX_REPORTED_NAMES:
            reported.add(None)  # sentinel: say it once
            self.logger.warning(f'{MAX_REPORTED_NAMES} unknown joint names reported; not '
                                'reporting more')
        return False
