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
End-to-end benchmark of the state publisher node over real DDS, against a relay floor.

Three processes per trial, on one machine (Fast DDS, a private domain, localhost only):

* a **feeder** publishes ``sensor_msgs/JointState`` (the robot's independent joints, random
  positions) at a fixed rate, each stamped with the wall clock just before ``publish``;
* the **subject**: either the ``state_publisher`` node (``ignore_timestamp:=true``: every
  message published, on the node's default ``/tf`` path: serialised ``TFMessage`` bytes,
  ``SerializedTfBroadcaster``), or a minimal **relay** node that publishes one prebuilt
  ``tf2_msgs/TFMessage`` object (one transform per moving joint) per ``joint_states``
  message with the message's stamp: no kinematics, nothing but what any rclpy node pays to
  publish that TF message. Both subscribe with the node's QoS (SensorDataQoS) and spin with
  the same loop and executor (:func:`sdf_tools.ros.node_support.run`);
* optionally (``--subjects node relay bytes_relay``) a **bytes relay**: a raw
  ``joint_states`` subscription and a constant ``TFMessage`` template of the same frames
  (:class:`~sdf_tools.ros.tf_cdr.TfMessageCdr`) filled with the message's stamp and fixed
  poses, published the node's way
  (:class:`~sdf_tools.ros.tf_broadcasters.SerializedTfBroadcaster`): the node without
  reading positions and without kinematics, i.e. the floor of the node's own design (with
  ``--rsp``, also as a ratio of robot_state_publisher's CPU);
* optionally (``wait_set_relay``) the same bytes relay spun with no executor at all: one
  rcl wait set holding the subscription, waited on, then one message taken and relayed,
  in a plain loop (rclpy's lowest layer): whether rclpy's executor sets the floor;
* with ``--rsp PATH``, the C++ **robot_state_publisher** (``PATH`` its executable, built
  beside the rclpy wheels or from a ROS install; :mod:`rsp_reference`), with the node's
  parameters: the node's CPU is then also given as a ratio of its CPU in the same round
  (``0.93x rsp``), and the ``/tf`` both publish for the same configurations is compared
  (frame pairs, quaternion signs, the largest difference, the numbers equal bit for bit);
* a **receiver** subscribes to ``/tf`` (depth 100, reliable, like tf2_ros's listener), raw,
  and reads each message's first stamp: latency = receive wall clock - feeder stamp. The
  feeder cycles through 200 configurations and writes the index of each in the last three
  digits of its stamp's nanoseconds (the stamp moves by less than 1 us); the receiver keeps
  the first ``/tf`` of each index.

Measured per trial: the longest silence on ``/tf`` (when, how many messages came right
after it and their latency: a late burst is the subject's stall, a fresh one the feeder's);
the subject's CPU (``/proc/<pid>/stat`` user + system time over the
feeder's publishing window, % of one core), messages dropped (``joint_states`` sent vs TF
messages received; and of those, the ones the subject never got: the best-effort
``joint_states`` subscription, depth 5 by default, loses messages while the subject is not
scheduled; ``--joint-states-depth`` raises it) and latency p50/p90/p99. The subjects'
trials alternate, ``--rounds`` times, for talos_full_v2 (44 moving joints) and ur5e at
100 Hz and 1 kHz; the tables give medians over rounds. The node's ``/tf_static`` goes to
a stand-in (sent once; tf2_ros is not needed).

Acceptance, talos at 1 kHz: node CPU <= 0.6 x the relay's in the same run, latency p90 <=
1 ms, drops <= 0.5 %; with ``--rsp``, for every robot and rate: node CPU <= rsp's, p90 and
drops no worse, the same ``/tf`` (frames and quaternion signs).

Needs rclpy, sensor_msgs and geometry_msgs (PyPI: ``ros-rclpy[fastrtps]``,
``ros-kilted-sensor-msgs``, ``ros-kilted-geometry-msgs``) and ``tf2_msgs``, which is not on
PyPI: a ROS install's is used when importable; otherwise the benchmark generates it, as the
tests do, from our one-line ``TFMessage.msg`` with the rosidl toolchain from PyPI
(``pip install -e '.[test]'``, cmake, a C/C++ compiler; about a minute, kept in
``--tf2-msgs-dir``). Without them it exits with status 2 and says what is missing. Run
``python3 bench/bench_ros_node.py [--quick] [--json OUT]``.
"""

import argparse
import itertools
import json
import os
from pathlib import Path
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time

REPO_DIR = Path(__file__).resolve().parent.parent
for _path in (REPO_DIR, REPO_DIR / 'test'):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

SHARED_DIR = Path(os.environ.get('SDF_TOOLS_SHARED', REPO_DIR.parent / 'shared'))
CORPUS_DIR = SHARED_DIR / 'corpus' / 'urdf'
ROBOTS = (('talos', 'talos_full_v2.urdf'), ('ur5e', 'ur5e.urdf'))
RATES = (100, 1000)
SUBJECTS = ('node', 'relay')
OPTIONAL_SUBJECTS = ('bytes_relay', 'wait_set_relay')
NAMESPACE = '/bench'
STAMP = struct.Struct('<iI')  # header.stamp, right after the encapsulation header
ACCEPTANCE = {'robot': 'talos', 'rate': 1000, 'cpu_ratio': 0.6, 'p90_ms': 1.0,
              'drops_percent': 0.5}
DOMAIN_IDS = range(221, 231)  # away from the tests' 120..219
CONFIGURATIONS = 200  # distinct joint_states messages the feeder cycles through (< 1000)
STARTUP_TIMEOUT = 60.0


# --- the processes --------------------------------------------------------------------------

def _read_config(path):
    return json.loads(Path(path).read_text())


def role_subject(config) -> int:
    """Run the state publisher or a relay until SIGINT; print 'handled N' at the end."""
    from sdf_tools.ros.node_support import run
    args = ['bench', '--ros-args', '-r', f'__ns:={NAMESPACE}', '--params-file',
            config['params']]
    nodes = []

    def keep(node):
        nodes.append(node)
        return node

    if config['subject'] == 'wait_set_relay':
        return _run_wait_set_relay(config, args)
    if config['subject'] in ('relay', 'bytes_relay'):
        code = run('relay', 'relay', (), lambda: keep(_Relay(config)), args)
        print(f'handled {nodes[0].handled}', file=sys.stderr, flush=True)
        return code
    from sdf_tools.ros.state_publisher import PARAMETERS
    from sdf_tools.ros.state_publisher import StatePublisher
    from sdf_tools.ros.tf_broadcasters import default_broadcaster

    def factory(node, static):
        if static:
            return _NullBroadcaster()
        broadcaster = default_broadcaster(node, False)
        print(f'tf path: {type(broadcaster).__name__}', file=sys.stderr, flush=True)
        return broadcaster

    code = run('state_publisher', 'bench', PARAMETERS,
               lambda: keep(StatePublisher(broadcaster_factory=factory)), args)
    print(f'handled {nodes[0].tf_state.received}', file=sys.stderr, flush=True)
    return code


class _NullBroadcaster:
    """``/tf_static`` stand-in: the static set is sent once and is not what is measured."""

    def sendTransform(self, transforms):  # noqa: N802 - tf2_ros's name
        """Drop the static set."""


def _Relay(config):  # noqa: N802 - a node factory, named like the node
    """Return the relay node (module docstring)."""
    import copy
    from rclpy.qos import qos_profile_sensor_data
    from sdf_tools.ros.descriptions import load_model
    from sdf_tools.ros.node_support import FailingNode
    from sdf_tools.ros.tf_broadcasters import SerializedTfBroadcaster
    from sdf_tools.ros.tf_broadcasters import TF_QOS
    from sdf_tools.ros.tf_cdr import TfMessageCdr
    from sdf_tools.ros.tf_messages import make_transform
    from sensor_msgs.msg import JointState
    from tf2_msgs.msg import TFMessage
    qos = copy.copy(qos_profile_sensor_data)
    if config['depth']:
        qos.depth = config['depth']

    class Relay(FailingNode):
        def __init__(self):
            super().__init__('relay')
            tree = load_model(Path(config['robot']).read_text()).tree
            self.message = TFMessage(transforms=[
                make_transform(j.parent, j.child, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
                for j in tree.moving_joints])
            self.stamp = self.message.transforms[0].header.stamp
            for t in self.message.transforms:
                t.header.stamp = self.stamp  # one object: set once per message
            self.template = TfMessageCdr((j.parent, j.child) for j in tree.moving_joints)
            self.poses = [((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))] * len(tree.moving_joints)
            raw = config['subject'] in ('bytes_relay', 'wait_set_relay')
            if raw:  # the node's own /tf path (publish_raw where rclpy has it)
                self.publish = SerializedTfBroadcaster(self).publish
            else:
                self.publish = self.create_publisher(TFMessage, '/tf', TF_QOS).publish
            self.subscription = self.create_subscription(
                JointState, 'joint_states', self.on_raw if raw else self.on_joint_states, qos,
                raw=raw)
            self.handled = 0
            print('relay ready', file=sys.stderr, flush=True)

        def on_joint_states(self, msg):
            self.handled += 1
            self.stamp.sec = msg.header.stamp.sec
            self.stamp.nanosec = msg.header.stamp.nanosec
            self.publish(self.message)

        def on_raw(self, data):
            self.handled += 1
            sec, nanosec = STAMP.unpack_from(data, 4)
            self.publish(self.template.fill(sec, nanosec, self.poses))

    return Relay()


def _run_wait_set_relay(config, args) -> int:
    """Run the bytes relay on a bare rcl wait set, no executor (module docstring)."""
    import rclpy
    from rclpy.impl.implementation_singleton import rclpy_implementation as _rclpy
    from rclpy.signals import SignalHandlerOptions
    from sensor_msgs.msg import JointState
    rclpy.init(args=args, signal_handler_options=SignalHandlerOptions.NO)
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    relay = _Relay(config)
    wait_set = _rclpy.WaitSet(1, 0, 0, 0, 0, 0, relay.context.handle)
    handle = relay.subscription.handle
    take, on_raw = handle.take_message, relay.on_raw
    while not stop:
        wait_set.clear_entities()
        wait_set.add_subscription(handle)
        wait_set.wait(200_000_000)  # ns: SIGINT is seen within 0.2 s
        taken = take(JointState, True)
        if taken is not None:
            on_raw(taken[0])
    print(f'handled {relay.handled}', file=sys.stderr, flush=True)
    relay.destroy_node()
    rclpy.try_shutdown()
    return 0


def role_receiver(config) -> int:
    """Count ``/tf`` messages and their latencies until SIGINT; print them as JSON."""
    import rclpy
    from rclpy.qos import QoSProfile
    from rclpy.signals import SignalHandlerOptions
    from sdf_tools.ros.node_support import make_executor
    from tf2_msgs.msg import TFMessage
    stop = []
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    from rclpy.serialization import deserialize_message
    node = rclpy.create_node('bench_receiver')
    latencies = []
    arrivals = []  # receive wall clock (ns) of each /tf
    configurations = {}  # the feeder's configuration index -> the first /tf of it

    def on_tf(data):
        now = time.time_ns()
        sec, nanosec = STAMP.unpack_from(data, 8)  # the first transform's, after the count
        latencies.append(now - sec * 1_000_000_000 - nanosec)
        arrivals.append(now)
        index = nanosec % 1000
        if index < CONFIGURATIONS and index not in configurations:
            configurations[index] = [
                [t.header.frame_id, t.child_frame_id, t.transform.translation.x,
                 t.transform.translation.y, t.transform.translation.z, t.transform.rotation.x,
                 t.transform.rotation.y, t.transform.rotation.z, t.transform.rotation.w]
                for t in deserialize_message(data, TFMessage).transforms]

    sub = node.create_subscription(TFMessage, '/tf', on_tf, QoSProfile(depth=100), raw=True)
    executor = make_executor()
    executor.add_node(node)
    ready = False
    while not stop:
        executor.spin_once(timeout_sec=0.1)
        if not ready and sub.get_publisher_count() > 0:
            ready = True
            print('ready', flush=True)
    executor.shutdown()
    node.destroy_node()
    rclpy.try_shutdown()
    print(json.dumps({'received': len(latencies), 'latencies_ns': latencies,
                      'arrivals_ns': arrivals, 'tf': configurations}), flush=True)
    return 0


def role_feeder(config) -> int:
    """Publish ``joint_states`` at ``rate`` for ``duration`` s; print 'start' and 'done N'."""
    import numpy as np
    import rclpy
    from rclpy.qos import QoSProfile
    from sdf_tools.ros.descriptions import load_model
    from sensor_msgs.msg import JointState
    model = load_model(Path(config['robot']).read_text())
    tree, robot = model.tree, model.robot
    names = [j.name for j in robot.joints if j.name in tree.coordinate_index]
    rng = np.random.default_rng(20261123)
    messages = []
    for _ in range(CONFIGURATIONS):
        msg = JointState(name=names)
        msg.position = [float(v) for v in rng.uniform(-1.0, 1.0, len(names))]
        messages.append(msg)
    rclpy.init()
    node = rclpy.create_node('bench_feeder')
    pub = node.create_publisher(JointState, f'{NAMESPACE}/joint_states', QoSProfile(depth=10))
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while pub.get_subscription_count() == 0:
        if time.monotonic() > deadline:
            print('no subscriber', flush=True)
            return 1
        time.sleep(0.05)
    time.sleep(0.5)
    period = 1.0 / config['rate']
    total = int(config['rate'] * config['duration'])
    print('start', flush=True)
    start = time.perf_counter()
    for i in range(total):
        delay = start + i * period - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        msg = messages[i % CONFIGURATIONS]
        now = time.time_ns()  # its last three digits carry the configuration's index
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(
            now - now % 1000 + i % CONFIGURATIONS, 1_000_000_000)
        pub.publish(msg)
    print(f'done {total} {time.perf_counter() - start:.6f}', flush=True)
    time.sleep(0.5)
    node.destroy_node()
    rclpy.try_shutdown()
    return 0


# --- one trial --------------------------------------------------------------------------------

def _cpu_seconds(pid: int) -> float:
    """Return user + system CPU seconds of process ``pid``."""
    fields = Path(f'/proc/{pid}/stat').read_text().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def _thread_counts(pid: int) -> dict:
    """Return ``{thread name: [CPU seconds, voluntary context switches (sleeps)]}``."""
    counts: dict = {}
    for task in Path(f'/proc/{pid}/task').iterdir():
        try:
            fields = (task / 'stat').read_text().rsplit(')', 1)[1].split()
            name = (task / 'comm').read_text().strip()
            status = (task / 'status').read_text()
        except OSError:  # the thread ended
            continue
        switches = sum(int(line.split()[1]) for line in status.splitlines()
                       if line.startswith('voluntary_ctxt_switches:'))
        entry = counts.setdefault(name, [0.0, 0])
        entry[0] += (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
        entry[1] += switches
    return counts


def _thread_text(before: dict, after: dict, seconds: float) -> str:
    """Return each thread's CPU (%) and sleeps per second between two counts."""
    rows = []
    for name, (cpu, switches) in after.items():
        cpu0, switches0 = before.get(name, (0.0, 0))
        rows.append((cpu - cpu0, name, (switches - switches0) / seconds))
    rows.sort(reverse=True)
    return ', '.join(f'{name} {100 * cpu / seconds:.1f} % {rate:.0f}/s'
                     for cpu, name, rate in rows if cpu > 0 or rate >= 1)


def _wait_line(stream, prefix: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            break
        if line.startswith(prefix):
            return line
    raise RuntimeError(f'no {prefix!r} line')


def _wait_file(path: Path, marker: str, process, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker in path.read_text(errors='replace'):
            return
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise RuntimeError(f'the subject did not start:\n{path.read_text(errors="replace")}')


def run_trial(subject, robot_path, rate, duration, depth, domain, env, workdir,
              rsp=None) -> dict:
    """Run one feeder -> subject -> receiver trial; return its measurements."""
    from rsp_reference import rsp_environment
    import yaml
    params = workdir / 'params.yaml'
    values = {'robot_description': robot_path.read_text(), 'ignore_timestamp': True}
    if depth:
        values['qos_overrides'] = {f'{NAMESPACE}/joint_states': {'subscription': {
            'depth': depth}}}
    params.write_text(yaml.safe_dump({'/**': {'ros__parameters': values}}))
    config = workdir / f'{subject}.json'
    config.write_text(json.dumps({'subject': subject, 'robot': str(robot_path),
                                  'params': str(params), 'rate': rate,
                                  'duration': duration, 'depth': depth}))
    env = dict(env, ROS_DOMAIN_ID=str(domain))

    def start(role, **kwargs):
        return subprocess.Popen([sys.executable, __file__, '--role', role, '--config',
                                 str(config)], env=env, text=True, **kwargs)

    log = workdir / f'{subject}.log'
    processes = []
    try:
        receiver = start('receiver', stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        processes.append(receiver)
        with open(log, 'w') as err:
            if subject == 'rsp':  # the C++ node itself
                subject_process = subprocess.Popen(
                    [str(rsp), '--ros-args', '-r', f'__ns:={NAMESPACE}', '--params-file',
                     str(params)], env=rsp_environment(rsp, env), stdout=err, stderr=err)
            else:
                subject_process = start('subject', stdout=subprocess.DEVNULL, stderr=err)
        processes.append(subject_process)
        _wait_file(log, 'relay ready' if 'relay' in subject else 'Robot initialized',
                   subject_process, STARTUP_TIMEOUT)
        _wait_line(receiver.stdout, 'ready', STARTUP_TIMEOUT)
        feeder = start('feeder', stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        processes.append(feeder)
        _wait_line(feeder.stdout, 'start', STARTUP_TIMEOUT)
        threads0 = _thread_counts(subject_process.pid)
        cpu0, wall0 = _cpu_seconds(subject_process.pid), time.monotonic()
        done = _wait_line(feeder.stdout, 'done', duration * 3 + STARTUP_TIMEOUT)
        cpu1, wall1 = _cpu_seconds(subject_process.pid), time.monotonic()
        threads = _thread_text(threads0, _thread_counts(subject_process.pid), wall1 - wall0)
        sent = int(done.split()[1])
        time.sleep(0.5)  # the last messages in flight
        receiver.send_signal(signal.SIGINT)
        out, _ = receiver.communicate(timeout=30)
        result = json.loads(out.strip().splitlines()[-1])
    finally:
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    lines = log.read_text().splitlines()
    tf_path = next((line.split(': ', 1)[1] for line in lines if line.startswith('tf path: ')),
                   None)
    handled = next((int(line.split()[1]) for line in lines if line.startswith('handled ')),
                   None)
    gap = longest_gap(result['arrivals_ns'], result['latencies_ns'])
    latencies = sorted(result['latencies_ns'])
    received = result['received']

    def percentile(p):
        return latencies[min(len(latencies) - 1, int(p / 100 * len(latencies)))] / 1e6

    return {'subject': subject, 'rate': rate, 'sent': sent, 'handled': handled,
            'received': received, 'drops_percent': 100.0 * max(0, sent - received) / sent,
            'drops_in_percent': (100.0 * max(0, sent - handled) / sent
                                 if handled is not None else None),
            'cpu_percent': 100.0 * (cpu1 - cpu0) / (wall1 - wall0),
            'p50_ms': percentile(50) if latencies else None,
            'p90_ms': percentile(90) if latencies else None,
            'p99_ms': percentile(99) if latencies else None, 'tf_path': tf_path,
            'threads': threads, **gap, 'tf': result.get('tf', {})}


def longest_gap(arrivals, latencies) -> dict:
    """
    Return the longest silence on ``/tf`` and what came after it.

    ``gap_ms``: the longest time between two ``/tf`` messages received; ``gap_at_s``: when
    it began (s after the first); ``gap_burst``: the messages received within 2 ms after it;
    ``gap_latency_ms``: the latency of the first of them. A subject that stalled delivers the
    burst late (its latency about the gap); a feeder that stalled sends it with fresh stamps.
    """
    if len(arrivals) < 2:
        return {'gap_ms': None, 'gap_at_s': None, 'gap_burst': 0, 'gap_latency_ms': None}
    k = max(range(1, len(arrivals)), key=lambda i: arrivals[i] - arrivals[i - 1])
    burst = sum(1 for t in arrivals[k:] if t - arrivals[k] <= 2_000_000)
    return {'gap_ms': (arrivals[k] - arrivals[k - 1]) / 1e6,
            'gap_at_s': (arrivals[k - 1] - arrivals[0]) / 1e9, 'gap_burst': burst,
            'gap_latency_ms': latencies[k] / 1e6}


# --- the run ----------------------------------------------------------------------------------

def tf2_msgs_path(directory: Path):
    """Return a path to add to PYTHONPATH for ``tf2_msgs`` ('' when importable as it is)."""
    try:
        import tf2_msgs.msg  # noqa: F401 - a ROS install's
        return ''
    except ImportError:
        pass
    from ros_support import build_tf2_msgs
    return str(build_tf2_msgs(directory))


def summarize(trials) -> dict:
    """Return the medians over rounds of each measurement (None-free ones)."""
    keys = ('cpu_percent', 'drops_percent', 'drops_in_percent', 'p50_ms', 'p90_ms', 'p99_ms')
    return {k: statistics.median(t[k] for t in trials) for k in keys
            if all(t[k] is not None for t in trials)}


def print_report(results) -> None:
    """Print one table per robot and rate, and the acceptance verdicts."""
    print('\nend-to-end over Fast DDS (medians over rounds): subject CPU in % of one core, '
          'drops (all; "in": joint_states the subject never got), latency feeder stamp -> '
          "receiver; the node's CPU over the relay's and robot_state_publisher's")
    header = (f"{'robot':<7}{'rate':>6} {'subject':<15}{'CPU %':>8}{'drops %':>9}{'in %':>7}"
              f"{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'node/relay':>12}{'node/rsp':>10}")
    print(header)
    print('-' * len(header))
    nan = float('nan')
    for r in results:
        for subject in r['subjects']:
            s = r[subject]
            ratios = (f"{r.get('cpu_ratio', nan):12.2f}{r.get('rsp_ratio', nan):10.2f}"
                      if subject == 'node' else '')
            print(f"{r['robot']:<7}{r['rate']:>6} {subject:<15}{s['cpu_percent']:8.1f}"
                  f"{s['drops_percent']:9.2f}{s.get('drops_in_percent', nan):7.2f}"
                  f"{s.get('p50_ms', nan):9.3f}{s.get('p90_ms', nan):9.3f}"
                  f"{s.get('p99_ms', nan):9.3f}{ratios}")
    for r in results:
        if 'rsp' in r:
            node, rsp = r['node'], r['rsp']
            checks = {'CPU <= rsp': r['rsp_ratio'] <= 1.0,
                      'p90 <= rsp': node.get('p90_ms', 1e9) <= rsp.get('p90_ms', 0.0),
                      'drops <= rsp': node['drops_percent'] <= rsp['drops_percent'],
                      'same /tf': not (r['tf_vs_rsp']['opposite_signs']
                                       or r['tf_vs_rsp']['frame_sets_differ'])}
            print(f"{r['robot']} {r['rate']} Hz: {r['rsp_ratio']:.2f}x rsp: "
                  + ', '.join(f"{k}: {'yes' if v else 'NO'}" for k, v in checks.items()))
            r['acceptance_rsp'] = checks
    target = next((r for r in results if r['robot'] == ACCEPTANCE['robot']
                   and r['rate'] == ACCEPTANCE['rate'] and 'cpu_ratio' in r), None)
    if target is not None:
        node = target['node']
        checks = {'CPU <= 0.6 x relay': target['cpu_ratio'] <= ACCEPTANCE['cpu_ratio'],
                  'p90 <= 1 ms': node.get('p90_ms', 1e9) <= ACCEPTANCE['p90_ms'],
                  'drops <= 0.5 %': node['drops_percent'] <= ACCEPTANCE['drops_percent']}
        print(f"\nacceptance (talos, 1 kHz): cpu ratio {target['cpu_ratio']:.2f}, p90 "
              f"{node.get('p90_ms', nan):.3f} ms, drops {node['drops_percent']:.2f} %: "
              + ', '.join(f"{k}: {'yes' if v else 'NO'}" for k, v in checks.items()))
        target['acceptance'] = checks


def run_case(label, path, rate, subjects, args, env, workdir, counter) -> dict:
    """Run ``args.rounds`` rounds of the subjects, alternating; return the medians, ratios."""
    trials = {subject: [] for subject in subjects}
    for _ in range(args.rounds):
        for subject in subjects:  # alternating
            domain = DOMAIN_IDS[next(counter) % len(DOMAIN_IDS)]
            t = run_trial(subject, path, rate, args.duration, args.joint_states_depth, domain,
                          env, workdir, args.rsp)
            print(f'{label} {rate} Hz {subject}: CPU {t["cpu_percent"]:.1f} %, '
                  f'drops {t["drops_percent"]:.2f} % (joint_states leg '
                  f'{t["drops_in_percent"]} %), p50/p90/p99 '
                  f'{t["p50_ms"]}/{t["p90_ms"]}/{t["p99_ms"]} ms, longest gap '
                  f'{t["gap_ms"]} ms at {t["gap_at_s"]} s ({t["gap_burst"]} then, latency '
                  f'{t["gap_latency_ms"]} ms)'
                  + (f' ({t["tf_path"]})' if t['tf_path'] else '')
                  + f'; threads: {t["threads"]}', flush=True)
            trials[subject].append(t)
    result = {'robot': label, 'rate': rate, 'trials': trials, 'subjects': subjects,
              **{s: summarize(trials[s]) for s in subjects}}
    for mine, other, key in (('node', 'relay', 'cpu_ratio'), ('node', 'rsp', 'rsp_ratio'),
                             ('bytes_relay', 'rsp', 'floor_rsp_ratio'),
                             ('wait_set_relay', 'rsp', 'wait_set_rsp_ratio')):
        if mine in trials and other in trials:
            result[key] = statistics.median(n['cpu_percent'] / o['cpu_percent']
                                            for n, o in zip(trials[mine], trials[other]))
    if 'rsp' in trials:
        from rsp_reference import compare_tf
        from rsp_reference import tf_comparison_text
        merged = [{}, {}]
        for n, o in zip(trials['node'], trials['rsp']):
            for side, trial in zip(merged, (n, o)):
                for index, transforms in trial['tf'].items():
                    side.setdefault(index, transforms)
        result['tf_vs_rsp'] = compare_tf(*merged)
        floors = ', '.join(f'{name} {result[key]:.2f}x rsp' for name, key in (
            ('bytes relay', 'floor_rsp_ratio'), ('wait-set relay', 'wait_set_rsp_ratio'))
            if key in result)
        print(f"{label} {rate} Hz: node CPU {result['rsp_ratio']:.2f}x rsp"
              + (f' ({floors})' if floors else '') + '; '
              + tf_comparison_text(result['tf_vs_rsp']), flush=True)
    for side in trials.values():
        for trial in side:
            trial.pop('tf')  # compared; too long for the JSON
    return result


def main(argv=None) -> int:
    """Run the benchmark (or one of its processes); return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--quick', action='store_true', help='1 round of 4 s per trial')
    parser.add_argument('--rounds', type=int, default=3,
                        help='rounds of the subjects (one trial each) per case')
    parser.add_argument('--duration', type=float, default=10.0, help='seconds per trial')
    parser.add_argument('--robots', nargs='*', default=[label for label, _ in ROBOTS])
    parser.add_argument('--rates', nargs='*', type=int, default=list(RATES))
    parser.add_argument('--subjects', nargs='*', default=list(SUBJECTS),
                        choices=SUBJECTS + OPTIONAL_SUBJECTS)
    parser.add_argument('--joint-states-depth', type=int, default=0,
                        help="the subjects' joint_states subscription depth (default: "
                        "SensorDataQoS's 5; the node through its qos_overrides parameter)")
    parser.add_argument('--tf2-msgs-dir', type=Path,
                        default=Path(tempfile.gettempdir()) / 'sdf_tools_tf2_msgs',
                        help='where tf2_msgs is generated when no ROS install has it')
    parser.add_argument('--rsp', type=Path,
                        help="the C++ robot_state_publisher's executable: one more subject, "
                        "with the node's CPU as a ratio of its own and /tf compared")
    parser.add_argument('--json', type=Path, help='write the results to this file')
    parser.add_argument('--role', choices=('subject', 'receiver', 'feeder'),
                        help=argparse.SUPPRESS)
    parser.add_argument('--config', help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.role is not None:
        return {'subject': role_subject, 'receiver': role_receiver,
                'feeder': role_feeder}[args.role](_read_config(args.config))
    if args.quick:
        args.rounds, args.duration = 1, 4.0
    try:
        import rclpy  # noqa: F401
        import sensor_msgs.msg  # noqa: F401
        import geometry_msgs.msg  # noqa: F401
    except ImportError as e:
        print(f'{e}: pip install "ros-rclpy[fastrtps]" ros-kilted-sensor-msgs '
              'ros-kilted-geometry-msgs', file=sys.stderr)
        return 2
    from ros_support import ToolchainMissing
    try:
        extra_path = tf2_msgs_path(args.tf2_msgs_dir)
    except ToolchainMissing as e:
        print(f'tf2_msgs is not installed and {e}', file=sys.stderr)
        return 2
    env = dict(os.environ, ROS_AUTOMATIC_DISCOVERY_RANGE='LOCALHOST',
               RCUTILS_LOGGING_BUFFERED_STREAM='0', PYTHONPATH=os.pathsep.join(
                   p for p in (str(REPO_DIR), extra_path, os.environ.get('PYTHONPATH', ''))
                   if p))
    env.pop('SDF_TOOLS_TF', None)
    subjects = list(dict.fromkeys(list(SUBJECTS) + args.subjects
                                  + (['rsp'] if args.rsp else [])))
    results = []
    counter = itertools.count()
    with tempfile.TemporaryDirectory() as tmp:
        for label, file_name in ROBOTS:
            path = CORPUS_DIR / file_name
            if label not in args.robots:
                continue
            if not path.is_file():
                print(f'NOTE: {path} not found: {label} skipped (set SDF_TOOLS_SHARED)')
                continue
            for rate in args.rates:
                results.append(run_case(label, path, rate, subjects, args, env, Path(tmp),
                                        counter))
    print_report(results)
    if args.json is not None:
        from bench_fk import environment
        args.json.write_text(json.dumps({'environment': environment(None), 'rounds':
                                         args.rounds, 'duration': args.duration,
                                         'results': results}, indent=2) + '\n')
        print(f'\nwrote {args.json}')
    missed = [k for r in results for key in ('acceptance', 'acceptance_rsp')
              for k, ok in r.get(key, {}).items() if not ok]
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main())
