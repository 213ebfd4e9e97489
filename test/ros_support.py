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

import hashlib
import itertools
import math
import os
from pathlib import Path
import shutil
import subprocess
import sys
import sysconfig
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


# --- robots ---------------------------------------------------------------------------------

#: A small arm: revolute and prismatic joints, a fixed tool mount and a mimic chain
#: (fb follows fa, fc follows fb).
ARM = """<robot name="arm">
  <link name="base"/><link name="l1"/><link name="l2"/><link name="tool"/>
  <link name="finger_a"/><link name="finger_b"/><link name="finger_c"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.3" rpy="0 0 0.2"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j2" type="prismatic"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.1 0 0" rpy="0.3 0 0"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="1" effort="1" velocity="1"/></joint>
  <joint name="tool_mount" type="fixed"><parent link="l2"/><child link="tool"/>
    <origin xyz="0 0 0.05"/></joint>
  <joint name="fa" type="revolute"><parent link="tool"/><child link="finger_a"/>
    <origin xyz="0 0.02 0"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="fb" type="revolute"><parent link="tool"/><child link="finger_b"/>
    <origin xyz="0 -0.02 0"/><axis xyz="1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="fa" multiplier="-1.5" offset="0.1"/></joint>
  <joint name="fc" type="revolute"><parent link="finger_b"/><child link="finger_c"/>
    <origin xyz="0 0 0.03"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="fb" multiplier="2" offset="-0.2"/></joint>
</robot>"""


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


def decode_tf(data: bytes, message_type) -> list:
    """Return the transforms of a serialised ``TFMessage`` as :class:`Tf` snapshots."""
    from rclpy.serialization import deserialize_message
    return [snapshot(t) for t in deserialize_message(data, message_type).transforms]


class SerializedCaptureBroadcaster:
    """Stands in for the serialised ``/tf`` broadcaster: decodes and records each message."""

    serialized = True

    def __init__(self, sink: list, message_type):
        self.sink = sink
        self.message_type = message_type

    def publish(self, data: bytes) -> None:
        """Record one serialised ``TFMessage``."""
        assert type(data) is bytes
        self.sink.append(decode_tf(data, self.message_type))


class TfCapture:
    """
    The broadcaster factory of the tests.

    Parameters
    ----------
    tf_message_type : type, optional
        ``tf2_msgs.msg.TFMessage``: ``/tf`` is then captured as serialised messages (the
        node's default path), decoded with it.

    Attributes
    ----------
    tf : list of list of Tf
        One entry per ``/tf`` send.
    static : list of list of Tf
        One entry per ``/tf_static`` send.
    static_broadcasters : int
        Static broadcasters created (one per description or frame_prefix change).

    """

    def __init__(self, tf_message_type=None):
        self.tf = []
        self.static = []
        self.static_broadcasters = 0
        self.tf_message_type = tf_message_type

    def factory(self, node, static: bool):
        """Return a capture broadcaster (the node's ``broadcaster_factory``)."""
        if static:
            self.static_broadcasters += 1
            return CaptureBroadcaster(self.static)
        if self.tf_message_type is not None:
            return SerializedCaptureBroadcaster(self.tf, self.tf_message_type)
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


# --- tf2_msgs, generated from a line of our own IDL -----------------------------------------

#: tf2_msgs/TFMessage, written out: the one message the state publisher sends.
TF_MESSAGE_MSG = 'geometry_msgs/TransformStamped[] transforms\n'
_TF2_MSGS_PACKAGE_XML = """<?xml version="1.0"?>
<package format="3">
  <name>tf2_msgs</name>
  <version>0.0.0</version>
  <description>tf2_msgs/TFMessage only, generated for the sdf_tools tests.</description>
  <maintainer email="maintainers@example.com">sdf_tools tests</maintainer>
  <license>Apache-2.0</license>
  <buildtool_depend>ament_cmake</buildtool_depend>
  <buildtool_depend>rosidl_default_generators</buildtool_depend>
  <depend>geometry_msgs</depend>
  <member_of_group>rosidl_interface_packages</member_of_group>
  <export><build_type>ament_cmake</build_type></export>
</package>
"""
# The PyPI wheels' CMake export files name the Python and numpy include directories of the
# machine that built them (/opt/python/...): point the imported *__rosidl_generator_py
# targets at this interpreter's before generating (the installed files stay untouched).
_TF2_MSGS_CMAKE = """cmake_minimum_required(VERSION 3.21)
project(tf2_msgs C CXX)
find_package(ament_cmake REQUIRED)
find_package(rosidl_default_generators REQUIRED)
find_package(geometry_msgs REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter Development.Module NumPy)
get_directory_property(imported_targets IMPORTED_TARGETS)
foreach(target IN LISTS imported_targets)
  if(target MATCHES "__rosidl_generator_py$")
    set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
      "${Python3_INCLUDE_DIRS};${Python3_NumPy_INCLUDE_DIRS}")
  endif()
endforeach()
rosidl_generate_interfaces(${PROJECT_NAME} "msg/TFMessage.msg" DEPENDENCIES geometry_msgs)
ament_package()
"""


class ToolchainMissing(Exception):
    """The rosidl toolchain or a compiler is missing; the text says what to install."""


def tf2_msgs_toolchain_problem() -> str | None:
    """Return why tf2_msgs cannot be generated here, or ``None``."""
    prefix = Path(sysconfig.get_paths()['data'])
    missing = [tool for tool in ('cmake', 'cc', 'c++') if shutil.which(tool) is None]
    missing += [module for module in ('catkin_pkg', 'ament_package', 'rosidl_generator_py')
                if _find_spec(module) is None]
    missing += [package for package in ('ament_cmake', 'rosidl_default_generators',
                                        'rosidl_core_generators', 'geometry_msgs')
                if not (prefix / 'share' / package / 'cmake').is_dir()]
    if missing:
        return (f"cannot generate tf2_msgs: {', '.join(missing)} not found (the rosidl "
                "generators and ament_cmake come with pip install -e '.[test]'; cmake and the "
                'compilers with apt-get install cmake g++)')
    return None


def _find_spec(module: str):
    import importlib.util
    try:
        return importlib.util.find_spec(module)
    except ImportError:
        return None


def build_tf2_msgs(directory: Path) -> Path:
    """
    Generate and build ``tf2_msgs`` (``TFMessage`` only) from :data:`TF_MESSAGE_MSG`.

    Uses the rosidl generators and ament_cmake installed from PyPI (the same CMake
    ``rosidl_generate_interfaces`` a ROS package uses). A finished build of the same sources
    in ``directory`` is reused.

    Parameters
    ----------
    directory : Path
        Where the sources and the build go (created).

    Returns
    -------
    Path
        The directory to put on ``sys.path`` (``import tf2_msgs.msg``); its libraries are
        found through their run path, with no ``LD_LIBRARY_PATH``.

    Raises
    ------
    ToolchainMissing
        The toolchain is not installed (:func:`tf2_msgs_toolchain_problem`).
    RuntimeError
        The build failed; the text ends with the build log's last lines.

    """
    problem = tf2_msgs_toolchain_problem()
    if problem:
        raise ToolchainMissing(problem)
    directory = Path(directory)
    source, build = directory / 'src' / 'tf2_msgs', directory / 'build'
    python_dir = build / 'rosidl_generator_py'
    sources = {'package.xml': _TF2_MSGS_PACKAGE_XML, 'CMakeLists.txt': _TF2_MSGS_CMAKE,
               'msg/TFMessage.msg': TF_MESSAGE_MSG}
    digest = hashlib.sha256(repr((sorted(sources.items()), sys.executable)).encode())
    done = build / 'sdf_tools_build.done'
    if done.is_file() and done.read_text() == digest.hexdigest():
        return python_dir
    shutil.rmtree(build, ignore_errors=True)
    for name, text in sources.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text)
    build.mkdir(parents=True)
    prefix = sysconfig.get_paths()['data']
    env = dict(os.environ)
    env['AMENT_PREFIX_PATH'] = os.pathsep.join(
        p for p in (prefix, env.get('AMENT_PREFIX_PATH', '')) if p)
    # One C type support: rosidl_typesupport_c then links it instead of dlopen()ing it by
    # name at run time (which would need LD_LIBRARY_PATH set before the process started).
    env['STATIC_ROSIDL_TYPESUPPORT_C'] = 'rosidl_typesupport_fastrtps_c'
    generator = ['-G', 'Ninja'] if shutil.which('ninja') else []
    log = build / 'build.log'
    with open(log, 'w') as out:
        for command in (['cmake', *generator, str(source), f'-DCMAKE_PREFIX_PATH={prefix}',
                         f'-DPython3_EXECUTABLE={sys.executable}', '-DBUILD_TESTING=OFF'],
                        ['cmake', '--build', '.', '--parallel', str(os.cpu_count() or 1)]):
            result = subprocess.run(command, cwd=build, env=env, stdout=out,
                                    stderr=subprocess.STDOUT, timeout=1800)
            if result.returncode != 0:
                tail = ''.join(log.read_text().splitlines(keepends=True)[-40:])
                raise RuntimeError(f'building tf2_msgs failed ({" ".join(command[:2])}, exit '
                                   f'{result.returncode}); {log}:\n{tail}')
    done.write_text(digest.hexdigest())
    return python_dir
