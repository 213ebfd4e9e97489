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
Helpers of the ROS node tests: a private DDS domain, TF capture, spinning, expectations.

Importing this module sets ``ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST`` (unless set) so that
the tests stay on the loopback interface; :func:`ros_context` gives each test module its own
rclpy context in a domain derived from the process id (``SDF_TOOLS_TEST_DOMAIN_ID``
overrides it), so parallel sessions on one machine do not see each other.
"""

import itertools
import math
import os
import time
from typing import NamedTuple

import numpy as np

os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')

DOMAIN_ID = int(os.environ.get('SDF_TOOLS_TEST_DOMAIN_ID', 120 + os.getpid() % 100))
_names = itertools.count(1)


def unique_namespace(prefix: str = 't') -> str:
    """Return a namespace no other test of this process uses (topics stay private)."""
    return f'/{prefix}{os.getpid()}_{next(_names)}'


def ros_context():
    """Initialise and return a private rclpy context (shut it down with ``try_shutdown``)."""
    from rclpy.context import Context
    import rclpy
    context = Context()
    rclpy.init(context=context, domain_id=DOMAIN_ID)
    return context


def subprocess_env() -> dict:
    """Return the environment for a node started as a subprocess (same private domain)."""
    env = dict(os.environ)
    env['ROS_DOMAIN_ID'] = str(DOMAIN_ID)
    env['ROS_AUTOMATIC_DISCOVERY_RANGE'] = 'LOCALHOST'
    env['RCUTILS_LOGGING_BUFFERED_STREAM'] = '0'
    return env


def spin_until(executor, predicate, timeout: float = 5.0) -> bool:
    """Spin ``executor`` until ``predicate()`` is true; return whether it became true."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        executor.spin_once(timeout_sec=0.01)
    return True


def spin_for(executor, seconds: float) -> None:
    """Spin ``executor`` for ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        executor.spin_once(timeout_sec=0.01)


# --- TF capture -----------------------------------------------------------------------------

class Tf(NamedTuple):
    """A captured ``TransformStamped``, as plain values."""

    stamp_ns: int
    parent: str
    child: str
    xyz: tuple
    quat: tuple


def snapshot(t) -> Tf:
    """Return the values of a ``TransformStamped`` now (the node updates them in place)."""
    tr, rot = t.transform.translation, t.transform.rotation
    stamp = t.header.stamp
    return Tf(stamp.sec * 1_000_000_000 + stamp.nanosec, t.header.frame_id, t.child_frame_id,
              (tr.x, tr.y, tr.z), (rot.x, rot.y, rot.z, rot.w))


class CaptureBroadcaster:
    """Stands in for a tf2_ros broadcaster: records each ``sendTransform`` as a snapshot."""

    def __init__(self, sink: list):
        self.sink = sink

    def sendTransform(self, transform):  # noqa: N802 - tf2_ros's name
        """Record a transform or a list of them."""
        transforms = transform if isinstance(transform, list) else [transform]
        self.sink.append([snapshot(t) for t in transforms])


class TfCapture:
    """
    The broadcaster factory of the tests.

    Attributes
    ----------
    tf : list of list of Tf
        One entry per ``/tf`` send.
    static : list of list of Tf
        One entry per ``/tf_static`` send.
    static_broadcasters : int
        Static broadcasters created (one per description or frame_prefix change).

    """

    def __init__(self):
        self.tf = []
        self.static = []
        self.static_broadcasters = 0

    def factory(self, node, static: bool) -> CaptureBroadcaster:
        """Return a capture broadcaster (the node's ``broadcaster_factory``)."""
        if static:
            self.static_broadcasters += 1
            return CaptureBroadcaster(self.static)
        return CaptureBroadcaster(self.tf)

    def latest_static(self) -> dict:
        """Return the last static set as child frame -> Tf."""
        return {t.child: t for t in self.static[-1]} if self.static else {}


class RecordingLogger:
    """A logger that records ``(level, text, kwargs)``; same methods as rclpy's."""

    def __init__(self):
        self.records = []

    def _log(self, level, text, **kwargs):
        self.records.append((level, text, kwargs))
        return True

    def debug(self, text, **kwargs):
        """Record a debug message."""
        return self._log('debug', text, **kwargs)

    def info(self, text, **kwargs):
        """Record an info message."""
        return self._log('info', text, **kwargs)

    def warning(self, text, **kwargs):
        """Record a warning."""
        return self._log('warning', text, **kwargs)

    def error(self, text, **kwargs):
        """Record an error."""
        return self._log('error', text, **kwargs)

    def fatal(self, text, **kwargs):
        """Record a fatal message."""
        return self._log('fatal', text, **kwargs)

    def texts(self, level=None, contains=''):
        """Return the recorded texts of ``level`` (any when None) containing ``contains``."""
        return [t for lvl, t, _ in self.records
                if (level is None or lvl == level) and contains in t]


# --- messages and expectations --------------------------------------------------------------

def joint_state(names, positions, stamp_ns: int = 0):
    """Return a ``sensor_msgs/JointState``."""
    from sensor_msgs.msg import JointState
    msg = JointState()
    msg.header.stamp.sec = stamp_ns // 1_000_000_000
    msg.header.stamp.nanosec = stamp_ns % 1_000_000_000
    msg.name = list(names)
    msg.position = [float(p) for p in positions]
    return msg


def random_positions(robot, tree, names, rng) -> list:
    """Return random values for coordinate ``names``: within limits, unit quaternions."""
    values = {}
    for name in names:
        joint_name, _, suffix = name.partition('/')
        limit = robot.joint(joint_name).limit if joint_name in robot.index.joints else None
        if suffix in ('qx', 'qy', 'qz', 'qw'):
            values[name] = float(rng.normal())
        elif suffix in ('x', 'y', 'z'):
            values[name] = float(rng.uniform(-2.0, 2.0))
        elif limit is not None and limit.upper > limit.lower and math.isfinite(
                limit.upper - limit.lower):
            values[name] = float(rng.uniform(limit.lower, limit.upper))
        else:
            values[name] = float(rng.uniform(-math.pi, math.pi))
    return [values[n] for n in names]


def quat_matrix(quat) -> np.ndarray:
    """Return the rotation matrix of a unit quaternion ``(x, y, z, w)``."""
    x, y, z, w = quat
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def tf_matrix(t: Tf) -> np.ndarray:
    """Return the 4x4 matrix of a captured transform."""
    m = np.eye(4)
    m[:3, :3] = quat_matrix(t.quat)
    m[:3, 3] = t.xyz
    return m


def expected_joint_matrices(tree, q) -> dict:
    """
    Return child link -> ``T_parent_child`` (4x4) of every joint, from world link poses.

    Uses :func:`~sdf_tools.kinematics.forward_kinematics` (the model-frame evaluator, not
    the per-joint TF code the node runs): ``inv(T_model_parent) @ T_model_child``.
    """
    from sdf_tools.kinematics import forward_kinematics
    world = forward_kinematics(tree, np.asarray(q, dtype=float))
    index = tree.link_index
    out = {}
    for joint in tree.moving_joints + tree.fixed_joints:
        child = world[index[joint.child]]
        parent = world[index[joint.parent]] if joint.parent in index else np.eye(4)
        out[joint.child] = np.linalg.inv(parent) @ child
    return out
