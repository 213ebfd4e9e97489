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
The ``joint_states`` -> ``/tf`` hot path: robot_state_publisher's publishing rules.

:class:`JointStateTf` is what the state publisher's ``joint_states`` callback calls: one
``sensor_msgs/JointState`` in, the transforms to broadcast out (or ``None``), either as the
list of ``geometry_msgs/TransformStamped`` for tf2_ros's ``sendTransform`` or, with
``serialized=True``, as the serialised ``tf2_msgs/TFMessage`` for ``Publisher.publish``. It
implements robot_state_publisher's publishing rules and the ways this node goes beyond them:

* **Throttle** (as robot_state_publisher): a message is published when ``ignore_timestamp``
  is set or its header stamp is at least ``last + 1000 // publish_frequency`` ms, where
  ``last`` is the minimum of the node clock's ``now`` and the stamps last published for the
  coordinates and mimic joints the message names (never published: 0). So a zero stamp is
  never published (a throttled warning says why), out-of-order messages are dropped, and
  each publisher of a subset of the joints is throttled on its own. When the node clock
  goes backwards, every stored stamp is cleared with robot_state_publisher's warning.
* **Stamps from the future** (beyond robot_state_publisher): a message stamped more than
  :data:`FUTURE_STAMP_SEC` after the node clock's now is dropped, neither published nor
  remembered, with a throttled warning. robot_state_publisher publishes it and then drops
  every message of those joints until its clock reaches that stamp (for good, for a stamp
  in 2038), and tf2 listeners, which discard transforms older than their newest one minus
  their cache length (10 s by default), would lose these frames alike. Not checked while
  the node clock reads 0 (``use_sim_time`` before the first ``/clock``).
* **Stamps from the past**: a message stamped more than :data:`STAMP_JUMP_SEC` before the
  last published stamp of its joints (the sender's clock jumped back, or a bag replays
  without ``/clock``) is dropped as robot_state_publisher drops it, until its stamps pass
  that one; a throttled warning says so and how to recover (``use_sim_time`` with
  ``/clock``, so that the node clock jumps back too and the stamps are cleared; or
  ``ignore_timestamp`` set to true, and back to false once the stamps are consistent).
* **Merging**: each message writes its values into one configuration shared by all
  publishers and produces transforms only for the joints it moves: those owning a named
  coordinate, the mimic joints named, and every mimic joint following one of those (chains
  included). A multi-dof joint (floating ``J/x .. J/qw``, planar ``J/x, J/y, J/theta``,
  ball, universal) is published when any of its coordinates arrives, the others keeping
  their last value (default: zero position, identity orientation). A floating or planar
  joint whose coordinates never arrive is never published, on ``/tf`` or ``/tf_static``.
* **Mimic joints**, as robot_state_publisher: a value the message gives for a mimic joint
  is what the simulator or hardware says, and wins over the formula; a mimic joint the
  message does not name follows the joint its ``<mimic>`` names whenever that joint moves in
  the message (``multiplier * value + offset``, from the reported value if that joint is a
  reported mimic joint, chains included). Reported mimic values are not remembered: the next
  message that gives only the source uses the formula again
  (:meth:`~sdf_tools.kinematics.KinematicTree.mimic_drives`). A reported mimic joint is
  throttled like a coordinate.
* **A joint named twice** in one message: the first value is used (as robot_state_publisher
  does), with one warning per distinct name list.
* **Rejected** (nothing published, configuration unchanged, a warning throttled to one per
  :data:`THROTTLE_SEC` per kind with the number suppressed): position and name arrays of
  different lengths, a non-finite value of a used joint.
* **Unknown names** are ignored with one warning per name (a multi-dof or fixed joint's name
  gets a hint), at most :data:`MAX_REPORTED_NAMES` names.

The hot path allocates no message: the per-name-list work is done once and cached (at most
``plan_cache_size`` name lists): the kinematics plan
(:meth:`~sdf_tools.kinematics.KinematicTree.joint_state_plan`) and a frame set for the joints
the names move, built with their frame names and filled in place per message
(:class:`~sdf_tools.ros.tf_messages.TransformSet` or
:class:`~sdf_tools.ros.tf_cdr.TfMessageCdr`). A returned list is reused: broadcast it before
the next call (``sendTransform`` serialises at once).
"""

import math
import time
from typing import Any
from typing import Callable
from typing import Mapping
from typing import NamedTuple
from typing import Sequence

from rclpy.impl.rcutils_logger import RcutilsLogger
from sdf_tools.errors import KinematicsError
from sdf_tools.kinematics import JointStatePlan
from sdf_tools.kinematics import KinematicTree
from sdf_tools.kinematics.joint_states import ARRAY_JOINTS
from sdf_tools.kinematics.joint_states import TfArrays
from sdf_tools.ros.parameter_rules import publish_frequency_problem
from sdf_tools.ros.tf_cdr import TfMessageCdr
from sdf_tools.ros.tf_messages import TransformSet
from sensor_msgs.msg import JointState

#: Minimum seconds between two warnings of one kind about rejected messages.
THROTTLE_SEC = 5.0
#: Distinct joint_states name lists whose plans are kept (oldest dropped first).
PLAN_CACHE_SIZE = 64
#: Unknown joint names reported individually before going quiet.
MAX_REPORTED_NAMES = 256
#: robot_state_publisher's message when the node clock goes backwards.
BACKWARDS_MESSAGE = 'Moved backwards in time, re-publishing joint transforms!'
#: Stamps more than this many seconds after the node clock are dropped (tf2's cache length).
FUTURE_STAMP_SEC = 10.0
#: Stamps more than this many seconds before the last published are warned about.
STAMP_JUMP_SEC = 1.0
_FUTURE_NS = int(FUTURE_STAMP_SEC * 1e9)
_JUMP_NS = int(STAMP_JUMP_SEC * 1e9)


#: What :meth:`JointStateTf.process` returns: the ``TransformStamped`` list, the serialised
#: ``TFMessage``, or ``None`` (nothing to publish).
Output = list | bytes | None


def publish_interval_ns(publish_frequency: float) -> int:
    """Return robot_state_publisher's throttle interval: whole milliseconds, in ns."""
    return int(1000.0 / publish_frequency) * 1_000_000


class NullLogger:
    """A logger that drops everything (benchmarks); same methods as rclpy's logger."""

    def debug(self, *args: object, **kwargs: object) -> None:
        """Drop a message."""

    info = warning = error = fatal = debug


class _Throttle:
    """Cheap per-kind rate limit in front of the logger (rclpy's own costs ~250 us a call)."""

    __slots__ = ('period', '_next', '_suppressed')

    def __init__(self, period: float):
        self.period = period
        self._next: dict[str, float] = {}
        self._suppressed: dict[str, int] = {}

    def allow(self, kind: str) -> int | None:
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
    stamps: tuple | slice          # indices into the stamps of the values the names set
    #                                (coordinates, then n_q + k for mimic joint k), as a
    #                                slice where they follow each other (read and written
    #                                at once: about 2 us less per message for 32 joints)
    fill: Callable | None          # fill(sec, nanosec, transforms) of their frame set, or
    #                                None when the names move no joint
    transforms: Callable           # transforms(q, positions) for that fill: the plan's
    #                                tuples, or TfArrays.evaluate for many joints
    deferred: bool                 # the values go into q only when something reads it


def _suffix(suppressed: int) -> str:
    return f' ({suppressed} similar message(s) suppressed)' if suppressed else ''


def _seconds(t: int) -> str:
    """Return a stamp (ns) as seconds with nanoseconds, e.g. ``'12.000000500 s'``."""
    sec, nanosec = divmod(t, 1_000_000_000)
    return f'{sec}.{nanosec:09d} s'


def _joints(names: Sequence[str]) -> str:
    """Return the first joint name of a message, as robot_state_publisher's warnings do."""
    return f'{names[0]!r}(,...)' if len(names) > 1 else repr(names[0])


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
    serialized : bool
        Return each message's transforms as the serialised ``tf2_msgs/TFMessage``
        (:class:`~sdf_tools.ros.tf_cdr.TfMessageCdr`, for ``Publisher.publish(bytes)``)
        instead of a list of ``TransformStamped``
        (:class:`~sdf_tools.ros.tf_messages.TransformSet`, for ``sendTransform``).

    Attributes
    ----------
    received, published, throttled, rejected : int
        Messages handled, that produced transforms, that the throttle or the stamp rules
        dropped, that were invalid.

    """

    def __init__(self, tree: KinematicTree, *, frame_prefix: str = '',
                 publish_frequency: float = 20.0, ignore_timestamp: bool = False,
                 logger: RcutilsLogger | NullLogger | None = None,
                 positions: Mapping[str, float] | None = None,
                 plan_cache_size: int = PLAN_CACHE_SIZE, throttle_sec: float = THROTTLE_SEC,
                 serialized: bool = False) -> None:
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
        self._n_stamps = tree.n_q + len(tree.mimic_joints)
        self._mimic_stamp = {m.joint: tree.n_q + k for k, m in enumerate(tree.mimic_joints)}
        self._last_stamp = [0] * self._n_stamps
        self._last_now: int | None = None
        self._frame_set = TfMessageCdr if serialized else TransformSet
        self._frame_prefix = str(frame_prefix)
        self._plans: dict[tuple, _NameListPlan] = {}
        # the last name tuple and its entry; (plan, positions) not yet written into _q
        self._last_names: tuple | None = None
        self._last_entry: _NameListPlan | None = None
        self._pending: tuple | None = None
        self._reported: set = set()
        self._throttle = _Throttle(throttle_sec)
        self._multi_dof = {j.name: [tree.coordinate_names[c] for c in j.coordinates]
                           for j in tree.moving_joints if j.multi_dof}
        self._fixed = {j.name for j in tree.fixed_joints}
        self._loops = frozenset(tree.loop_joints)
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
        self._frame_prefix = prefix
        self._plans = {key: entry._replace(**self._fill(entry.plan))
                       for key, entry in self._plans.items()}
        self._last_names = self._last_entry = None

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
        self._write_pending()
        return dict(zip(self.tree.coordinate_names, self._q))

    def _write_pending(self) -> None:
        """Write the last values of a plan that defers them into the configuration."""
        if self._pending is not None:
            plan, positions = self._pending
            self._pending = None
            plan.update(self._q, positions)

    # --- the hot path -----------------------------------------------------------------------

    def process(self, msg: JointState, now_ns: int) -> Output:
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
        list of TransformStamped, bytes or None
            The transforms to broadcast (a list reused between calls; ``serialized``: the
            ``TFMessage`` bytes), or ``None`` when nothing is to be published.

        """
        stamp = msg.header.stamp
        return self.process_values(stamp.sec, stamp.nanosec, msg.name, msg.position, now_ns)

    def process_values(self, sec: int, nanosec: int, names: Sequence[str],
                       positions: Sequence[float], now_ns: int) -> Output:
        """
        Handle one ``sensor_msgs/JointState`` given as its values (:meth:`process`).

        Parameters
        ----------
        sec, nanosec : int
            ``header.stamp`` (s, ns).
        names : sequence of str
            ``name``.
        positions : sequence of float
            ``position`` (rad or m).
        now_ns : int
            The node clock's now (ns).

        Returns
        -------
        list of TransformStamped, bytes or None
            As :meth:`process`.

        """
        self.received += 1
        if len(positions) != len(names):
            self._reject_lengths(names, positions)
            return None
        last_now = self._last_now
        if last_now is not None and now_ns < last_now:
            self.logger.warning(BACKWARDS_MESSAGE)
            self._last_stamp = [0] * self._n_stamps
        self._last_now = now_ns
        entry = self._last_entry
        if entry is None or names is not self._last_names:  # not the reader's last tuple
            key = tuple(names)
            entry = self._plans.get(key)
            if entry is None:
                entry = self._new_entry(key)
            if type(names) is tuple:
                self._last_names, self._last_entry = names, entry
        plan, stamps, fill, transforms, deferred = entry
        if fill is None:
            return None
        t = sec * 1_000_000_000 + nanosec
        last_stamp = self._last_stamp
        if not self.ignore_timestamp:
            oldest = min(last_stamp[stamps] if type(stamps) is slice
                         else map(last_stamp.__getitem__, stamps))
            last = oldest if oldest < now_ns else now_ns
            if t < last + self._interval:
                self.throttled += 1
                if t <= 0 or t < oldest - _JUMP_NS:
                    self._warn_old_stamp(t, oldest, names)
                return None
            if t > now_ns + _FUTURE_NS and now_ns > 0:
                self._drop_future_stamp(t, now_ns, names)
                return None
        pending = self._pending
        if pending is not None and pending[0] is not plan:
            self._write_pending()
        try:
            if deferred and plan.check(positions):  # plain floats: a copy is kept until
                self._pending = (plan, positions[:])  # something reads q (_write_pending)
            else:
                plan.update(self._q, positions)
        except KinematicsError as e:
            self.rejected += 1
            suppressed = self._throttle.allow('value')
            if suppressed is not None:
                self.logger.warning(f'Ignored a JointState message: {e}{_suffix(suppressed)}',
                                    throttle_duration_sec=self._throttle.period)
            return None
        if type(stamps) is slice:
            last_stamp[stamps] = [t] * (stamps.stop - stamps.start)
        else:
            for c in stamps:
                last_stamp[c] = t
        out = fill(sec, nanosec, transforms(self._q, positions))
        self.published += 1
        return out

    # --- the cold paths ---------------------------------------------------------------------

    def _reject_lengths(self, names: Sequence[str], positions: Sequence[float]) -> None:
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

    def _warn_old_stamp(self, t: int, oldest: int, names: Sequence[str]) -> None:
        """Say why a message stamped 0, or well before the last published one, is dropped."""
        kind = 'zero' if t <= 0 else 'past'
        suppressed = self._throttle.allow(kind)
        if suppressed is None:
            return
        if kind == 'zero':
            text = ('joint_states messages stamped 0 (or before 1970) are never published (the '
                    'stamp is never newer than the last one published): stamp them, or set '
                    'ignore_timestamp to true')
        else:
            text = (f'Dropped joint_states about {_joints(names)} stamped {_seconds(t)}, '
                    f'{(oldest - t) / 1e9:.3f} s before the last stamp published for these '
                    f'joints ({_seconds(oldest)}): their messages are dropped until their '
                    "stamps pass it, or the node's clock where that is earlier "
                    "(robot_state_publisher's rule). If the sender's clock "
                    'jumped back (a restart, a replayed bag): use_sim_time with /clock makes '
                    'the node clock jump too, which clears the stamps; or set ignore_timestamp '
                    'to true, and back to false')
        self.logger.warning(text + _suffix(suppressed),
                            throttle_duration_sec=self._throttle.period)

    def _drop_future_stamp(self, t: int, now_ns: int, names: Sequence[str]) -> None:
        """Drop a message stamped more than FUTURE_STAMP_SEC after the node clock; say so."""
        self.throttled += 1
        suppressed = self._throttle.allow('future')
        if suppressed is not None:
            self.logger.warning(
                f'Dropped joint_states about {_joints(names)} stamped {_seconds(t)}, '
                f'{(t - now_ns) / 1e9:.3f} s after the node clock ({_seconds(now_ns)}): '
                f'messages stamped more than {FUTURE_STAMP_SEC:g} s ahead are neither published '
                "(tf2 listeners would then discard these frames' transforms until their clock "
                "reaches that stamp) nor remembered. Check the sender's clock and use_sim_time, "
                f'or set ignore_timestamp to true to publish them{_suffix(suppressed)}',
                throttle_duration_sec=self._throttle.period)

    def _new_entry(self, key: tuple) -> _NameListPlan:
        plan = self.tree.joint_state_plan(key)
        stamps = {c for c in plan.coordinates if c >= 0}
        stamps.update(self._mimic_stamp[name] for name in plan.mimic)
        self._report_names(plan)
        if plan.duplicates:
            names = ', '.join(repr(n) for n in plan.duplicates)
            self.logger.warning(f'joint_states messages name {names} more than once; the first '
                                'value is used (this warning is given once for these names)')
        order = sorted(stamps)
        if order and order == list(range(order[0], order[-1] + 1)):
            entry = _NameListPlan(plan, slice(order[0], order[-1] + 1), **self._fill(plan))
        else:
            entry = _NameListPlan(plan, tuple(order), **self._fill(plan))
        if len(self._plans) >= self._cache_size:
            del self._plans[next(iter(self._plans))]
        self._plans[key] = entry
        return entry

    def _fill(self, plan: JointStatePlan) -> dict[str, Any]:
        """
        Return ``fill`` and ``transforms`` of a new frame set for the joints ``plan`` moves.

        Plans moving :data:`~sdf_tools.kinematics.joint_states.ARRAY_JOINTS` joints or more
        are evaluated as arrays (:class:`~sdf_tools.kinematics.joint_states.TfArrays`); no
        joint: ``fill`` is None.
        """
        if not plan.joints:
            return {'fill': None, 'transforms': None, 'deferred': False}
        prefix = self._frame_prefix
        frames = self._frame_set([(prefix + joint.parent, prefix + joint.child)
                                  for joint in plan.tree_joints])
        if len(plan.joints) >= ARRAY_JOINTS:
            arrays = TfArrays(plan)
            return {'fill': frames.fill_poses, 'transforms': arrays.evaluate,
                    'deferred': not arrays.reads_q}
        return {'fill': frames.fill, 'transforms': plan.transforms, 'deferred': False}

    def _report_names(self, plan: JointStatePlan) -> None:
        reported = self._reported
        robot = self.tree.name
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
