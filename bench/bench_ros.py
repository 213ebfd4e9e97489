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
Benchmark the state publisher's ``joint_states`` callback with real ROS message types.

What is timed is the node's callback as it runs (``StatePublisher._on_joint_states``): a
serialised ``sensor_msgs/JointState`` in (the node's subscription is raw), the transforms
handed to the broadcaster out. The broadcaster is a stand-in that only counts (no DDS), so
the figure is the callback's own work: reading the message, clock read, name-list lookup,
throttle, FK, output. Three modes: ``ignore_timestamp`` and ``throttled`` fill the
``geometry_msgs/TransformStamped`` list for tf2_ros's ``sendTransform`` (rclpy then still
converts it, about 190 us for talos, not counted here), with every message published or
with the default throttle and stamps 50 ms apart (every message due, so the throttle
arithmetic is included); ``serialized`` (every message published) writes the serialised
``tf2_msgs/TFMessage`` bytes that the node publishes by default (nothing left to convert).

The reference is the naive pipeline a Python node would write with pinocchio: q from the
message (mimic joints filled in), ``forwardKinematics``, and a fresh ``TransformStamped``
per joint from ``data.liMi`` (translation, quaternion via ``pin.Quaternion``). It is handed
the message object (rclpy's conversion of the bytes, about 15 us for talos, not counted).
The end-to-end figures over DDS are bench_ros_node.py's.

Targets (issue acceptance), talos_full_v2 (44 moving joints, 12 of them mimic):

1. at least 10,000 messages/s on one core;
2. at least 5x the naive pipeline's rate, measured in the same run.

Both sides are timed in alternating blocks of messages (``time.perf_counter``, GC off);
medians are compared. Run ``python3 bench/bench_ros.py [--quick] [--json OUT]``.
"""

import argparse
import gc
import json
import math
import os
from pathlib import Path
import statistics
import sys
import time

REPO_DIR = Path(__file__).resolve().parent.parent
for _path in (REPO_DIR, REPO_DIR / 'bench'):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))
os.environ.setdefault('ROS_AUTOMATIC_DISCOVERY_RANGE', 'LOCALHOST')

from bench_fk import environment  # noqa: E402 - after the path set-up
from bench_fk import PinocchioSide  # noqa: E402
from bench_fk import random_configurations  # noqa: E402
import numpy as np  # noqa: E402

SHARED_DIR = Path(os.environ.get('SDF_TOOLS_SHARED', REPO_DIR.parent / 'shared'))
CORPUS_DIR = SHARED_DIR / 'corpus' / 'urdf'
ROBOTS = (('talos', 'talos_full_v2.urdf'), ('ur5e', 'ur5e.urdf'),
          ('panda', 'panda_hand_gazebo.urdf'))
ACCEPTANCE_ROBOT = 'talos'
TARGET_RATE = 10_000.0
TARGET_RATIO = 5.0
BLOCK = 500  # messages per timed block (distinct positions, consecutive stamps)
STAMP_STEP_NS = 50_000_000
#: The node's modes: ignore_timestamp, and whether /tf goes out serialised.
MODES = {'ignore_timestamp': (True, False), 'throttled': (False, False),
         'serialized': (True, True)}


class CountingBroadcaster:
    """Stands in for tf2_ros's broadcasters: counts transforms, keeps the last list."""

    def __init__(self):
        self.sends = 0
        self.transforms = 0
        self.last = None

    def sendTransform(self, transforms):  # noqa: N802 - tf2_ros's name
        """Count a send."""
        self.sends += 1
        self.transforms += len(transforms)
        self.last = transforms


class CountingBytesBroadcaster(CountingBroadcaster):
    """Stands in for the serialised ``/tf`` broadcaster: counts messages, keeps the last."""

    serialized = True

    def publish(self, data):
        """Count a message."""
        self.sends += 1
        self.last = data


class NaivePipeline:
    """pinocchio FK and a fresh ``TransformStamped`` per joint (the reference)."""

    def __init__(self, pin, text, tree, names, broadcaster):
        from geometry_msgs.msg import TransformStamped
        self.pin = pin
        self.side = PinocchioSide(pin, text, tree)
        self.model, self.data = self.side.model, self.side.data
        self.transform_type = TransformStamped
        self.order = np.array([names.index(n) for n in tree.coordinate_names], dtype=np.intp)
        child_of = {j.name: (j.parent, j.child) for j in tree.moving_joints}
        self.frames = [child_of[self.model.names[j]] for j in range(1, self.model.njoints)]
        self.broadcaster = broadcaster

    def callback(self, msg):
        """Handle one message the naive way."""
        pin = self.pin
        q = np.asarray(msg.position)[self.order]
        pin.forwardKinematics(self.model, self.data, self.side.q_from(q))
        out = []
        stamp = msg.header.stamp
        for j, (parent, child) in enumerate(self.frames, start=1):
            m = self.data.liMi[j]
            t = self.transform_type()
            t.header.stamp = stamp
            t.header.frame_id = parent
            t.child_frame_id = child
            p = m.translation
            t.transform.translation.x = float(p[0])
            t.transform.translation.y = float(p[1])
            t.transform.translation.z = float(p[2])
            quat = pin.Quaternion(m.rotation)
            t.transform.rotation.x = quat.x
            t.transform.rotation.y = quat.y
            t.transform.rotation.z = quat.z
            t.transform.rotation.w = quat.w
            out.append(t)
        self.broadcaster.sendTransform(out)


def _messages(robot, tree, names, rng):
    """Return BLOCK JointState messages with random in-limit positions."""
    from sensor_msgs.msg import JointState
    configurations = random_configurations(robot, tree, rng, BLOCK)
    index = [tree.coordinate_index[n] for n in names]
    messages = []
    for row in configurations:
        msg = JointState()
        msg.name = list(names)
        msg.position = [float(row[i]) for i in index]
        messages.append(msg)
    return messages


class _Stamps:
    """Give each block consecutive stamps, later than every earlier block's (untimed)."""

    def __init__(self):
        self.next_ns = 1_000_000_000

    def assign(self, messages):
        for msg in messages:
            msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(self.next_ns,
                                                                    1_000_000_000)
            self.next_ns += STAMP_STEP_NS


def _time_blocks(callbacks, messages, repeats):
    """
    Time each callback over the message block, alternating; return medians per message.

    ``callbacks`` holds ``(callback, raw)`` pairs: a raw callback gets the messages
    serialised (untimed), as a raw subscription delivers them.
    """
    from rclpy.serialization import serialize_message
    stamps = _Stamps()
    samples = [[] for _ in callbacks]
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            for k, (callback, raw) in enumerate(callbacks):
                stamps.assign(messages)
                block = [serialize_message(m) for m in messages] if raw else messages
                start = time.perf_counter()
                for msg in block:
                    callback(msg)
                samples[k].append((time.perf_counter() - start) / len(messages))
    finally:
        if gc_was_enabled:
            gc.enable()
    return [statistics.median(s) for s in samples]


def _check_agreement(ours, naive, tree):
    """Return the max difference of the two pipelines' transforms and how many compared."""
    pin = naive.pin
    mine = {t.child_frame_id: t for t in ours}
    # liMi is relative to the parent *joint* frame: comparable where the parent link's body
    # frame coincides with it (no fixed joint merged in between).
    body = {f.name: f for f in naive.model.frames if f.type == pin.FrameType.BODY}
    worst, compared = 0.0, 0
    for t in naive.broadcaster.last:
        parent = body.get(t.header.frame_id)
        if parent is None or not parent.placement.isIdentity(1e-12):
            continue
        m = mine[t.child_frame_id]
        a, b = t.transform, m.transform
        dq = min(sum((x - y) ** 2 for x, y in zip(q1, q2)) for q1, q2 in (
            ((a.rotation.x, a.rotation.y, a.rotation.z, a.rotation.w),
             (b.rotation.x, b.rotation.y, b.rotation.z, b.rotation.w)),
            ((a.rotation.x, a.rotation.y, a.rotation.z, a.rotation.w),
             (-b.rotation.x, -b.rotation.y, -b.rotation.z, -b.rotation.w))))
        dt = math.dist((a.translation.x, a.translation.y, a.translation.z),
                       (b.translation.x, b.translation.y, b.translation.z))
        worst = max(worst, math.sqrt(dq), dt)
        compared += 1
    return worst, compared


def bench_robot(label, path, pin, context, cfg):
    """Time both modes and the naive pipeline for one robot; return the result dict."""
    from rclpy.parameter import Parameter
    from rclpy.serialization import serialize_message
    from sdf_tools.ros.state_publisher import StatePublisher
    text = path.read_text()
    rng = np.random.default_rng(20261122)
    results = {'robot': label, 'file': path.name}
    nodes = []
    try:
        modes = {}
        for mode, (ignore, serialized) in MODES.items():
            broadcaster = CountingBytesBroadcaster() if serialized else CountingBroadcaster()
            node = StatePublisher(
                f'bench_{label}_{mode}', context=context,
                broadcaster_factory=lambda n, static, b=broadcaster: b,
                parameter_overrides=[Parameter('robot_description', value=text),
                                     Parameter('ignore_timestamp', value=ignore)])
            nodes.append(node)
            modes[mode] = (node, broadcaster)
        node = nodes[0]
        tree, robot = node.model.tree, node.model.robot
        # joint_state_publisher's message: the independent joints, in document order.
        names = [j.name for j in robot.joints if j.name in tree.coordinate_index]
        messages = _messages(robot, tree, names, rng)
        results.update(links=tree.n_links, moving_joints=len(tree.moving_joints),
                       mimic_joints=len(tree.mimic_joints), names_per_message=len(names))
        callbacks = [(modes[mode][0]._on_joint_states, True) for mode in MODES]
        naive = None
        if pin is not None:
            naive = NaivePipeline(pin, text, tree, names, CountingBroadcaster())
            callbacks.append((naive.callback, False))
            _Stamps().assign(messages[:1])
            for callback, raw in callbacks:
                callback(serialize_message(messages[0]) if raw else messages[0])
            worst, compared = _check_agreement(modes['ignore_timestamp'][1].last, naive, tree)
            results['agreement'] = {'max_abs_difference': worst, 'joints_compared': compared}
        medians = _time_blocks(callbacks, messages, cfg['repeats'])
        for mode, broadcaster in ((m, modes[m][1]) for m in modes):
            assert broadcaster.sends >= cfg['repeats'] * BLOCK, f'{mode}: messages not published'
        for mode, seconds in zip(MODES, medians):
            results[mode] = {'seconds': seconds, 'rate': 1.0 / seconds}
        if naive is not None:
            results['naive'] = {'seconds': medians[-1], 'rate': 1.0 / medians[-1]}
            for mode in MODES:
                results[mode]['speedup'] = medians[-1] / results[mode]['seconds']
    finally:
        for node in nodes:
            node.destroy_node()
    slowest = max(results[mode]['seconds'] for mode in MODES)
    results['rate_pass'] = 1.0 / slowest >= TARGET_RATE
    if 'naive' in results:
        results['ratio_pass'] = min(results[mode]['speedup'] for mode in MODES) >= TARGET_RATIO
    else:
        results['ratio_pass'] = None
    return results


def print_report(results, skipped):
    """Print the table."""
    for message in skipped:
        print(f'NOTE: {message}')
    print('\njoint_states callback: serialised JointState in, TransformStamped list or '
          'serialised TFMessage out (median per message)')
    header = (f"{'robot':<8}{'joints':>7} {'pipeline':<29}{'us/msg':>10}{'msgs/s':>11}"
              f"{'vs naive':>10}")
    print(header)
    print('-' * len(header))
    for r in results:
        joints = f"{r['moving_joints']:>7}"
        for key, name in (('ignore_timestamp', ' ours, ignore_timestamp'),
                          ('throttled', ' ours, throttle (all due)'),
                          ('serialized', ' ours, serialised /tf'),
                          ('naive', ' naive pinocchio + new msgs')):
            if key not in r:
                continue
            t = r[key]
            speedup = f"{t['speedup']:9.1f}x" if 'speedup' in t else f"{'':>10}"
            print(f"{r['robot']:<8}{joints}{name:<30}{t['seconds'] * 1e6:10.2f}"
                  f"{t['rate']:11,.0f}{speedup}")
            joints = f"{'':>7}"
        if 'agreement' in r:
            a = r['agreement']
            print(f"{'':<15} ours vs naive: max |difference| {a['max_abs_difference']:.1e} "
                  f"over {a['joints_compared']} comparable joints")
    talos = next((r for r in results if r['robot'] == ACCEPTANCE_ROBOT), None)
    if talos is not None:
        rate = min(talos[mode]['rate'] for mode in MODES)
        verdict = 'yes' if talos['rate_pass'] else 'NO'
        print(f'\nacceptance ({ACCEPTANCE_ROBOT}): {rate:,.0f} msgs/s (target >= '
              f'{TARGET_RATE:,.0f}): {verdict}; ', end='')
        if talos['ratio_pass'] is None:
            print('speed-up vs naive: n/a (pinocchio missing)')
        else:
            speedup = min(talos[mode]['speedup'] for mode in MODES)
            verdict = 'yes' if talos['ratio_pass'] else 'NO'
            print(f'{speedup:.1f}x the naive pipeline (target >= {TARGET_RATIO:.0f}x): '
                  f'{verdict}')


def main(argv=None) -> int:
    """Run the benchmark; return the exit code (1 if a measured target is missed)."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--quick', action='store_true', help='fewer repeats (a few seconds)')
    parser.add_argument('--json', type=Path, help='write the results to this file')
    args = parser.parse_args(argv)
    cfg = {'repeats': 5} if args.quick else {'repeats': 21}
    skipped = []
    try:
        import rclpy
        from rclpy.context import Context
    except ImportError:
        print('rclpy is not installed (pip install "ros-rclpy[fastrtps]" '
              'ros-kilted-sensor-msgs ros-kilted-geometry-msgs ros-kilted-std-msgs)',
              file=sys.stderr)
        return 2
    try:
        import pinocchio as pin
    except ImportError:
        pin = None
        skipped.append('pinocchio is not installed (pip install pin): no naive reference')
    context = Context()
    rclpy.init(context=context)
    results = []
    try:
        for label, file_name in ROBOTS:
            path = CORPUS_DIR / file_name
            if not path.is_file():
                skipped.append(f'{path} not found: {label} skipped (set SDF_TOOLS_SHARED)')
                continue
            results.append(bench_robot(label, path, pin, context, cfg))
    finally:
        rclpy.try_shutdown(context=context)
    print_report(results, skipped)
    if args.json is not None:
        args.json.write_text(json.dumps(
            {'environment': environment(pin), 'quick': args.quick, 'robots': results,
             'targets': {'robot': ACCEPTANCE_ROBOT, 'rate': TARGET_RATE,
                         'speedup': TARGET_RATIO}, 'notes': skipped}, indent=2) + '\n')
        print(f'\nwrote {args.json}')
    missed = [f"{r['robot']} {k}" for r in results if r['robot'] == ACCEPTANCE_ROBOT
              for k in ('rate_pass', 'ratio_pass') if r[k] is False]
    if missed:
        print('targets missed: ' + ', '.join(missed))
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main())
