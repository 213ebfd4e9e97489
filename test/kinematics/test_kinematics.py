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
Tests of sdf_tools.kinematics.

Every expected pose comes from an independent construction: numpy 4x4 matrices built here
from the same numbers the model is built from (Rodrigues rotations, rpy as Rz Ry Rx), or
from pinocchio and yourdfpy on the corpus robots. Nothing is compared with values this
module produced earlier.
"""

import array
from dataclasses import dataclass
from io import BytesIO
import math
import warnings

from chain_fk import rot  # Rodrigues, (4, 4); the axis is normalised
import numpy as np
import pytest
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.kinematics import frame_poses
from sdf_tools.model import Frame
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Mimic
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from support import CORPUS_DIR
from support import corpus_files

TOL = 1e-9
ALL_KINDS = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar', 'ball',
             'universal', 'revolute2', 'screw', 'gearbox')
# The documented coordinate suffixes (module docstring), written out independently.
SUFFIXES = {'floating': ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw'), 'planar': ('x', 'y', 'theta'),
            'ball': ('qx', 'qy', 'qz', 'qw'), 'universal': ('1', '2'), 'revolute2': ('1', '2')}


# --- an independent reference: numpy 4x4 matrices ------------------------------------------

def trans(v):
    """Return the (4, 4) translation by the 3-vector ``v``."""
    t = np.eye(4)
    t[:3, 3] = v
    return t


def origin(xyz, rpy):
    """Return URDF ``<origin>`` as a (4, 4) matrix: ``Trans(xyz) Rz(yaw) Ry(pitch) Rx(roll)``."""
    return (trans(xyz) @ rot((0, 0, 1), rpy[2]) @ rot((0, 1, 0), rpy[1])
            @ rot((1, 0, 0), rpy[0]))


def quat_rot(quat):
    """Return the (4, 4) rotation of a (not necessarily unit) ``(x, y, z, w)`` quaternion."""
    v = np.asarray(quat[:3], dtype=float)
    s = np.linalg.norm(v)
    if s == 0.0:
        return np.eye(4)
    return rot(v / s, 2.0 * math.atan2(s, quat[3]))


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


@dataclass
class J:
    """A test-side joint description; both the model and the reference are built from it."""

    name: str
    kind: str
    parent: str
    child: str
    xyz: tuple = (0.0, 0.0, 0.0)
    rpy: tuple = (0.0, 0.0, 0.0)
    axis: tuple = (1.0, 0.0, 0.0)
    axis2: tuple | None = None
    child_xyz: tuple = (0.0, 0.0, 0.0)
    child_rpy: tuple = (0.0, 0.0, 0.0)
    pitch: float | None = None
    ratio: float | None = None
    mimic: tuple | None = None

    def joint(self) -> Joint:
        return Joint(
            name=self.name, kind=JointType(self.kind), parent=self.parent, child=self.child,
            origin=Pose.from_rpy(self.xyz, self.rpy), axis=self.axis, axis2=self.axis2,
            joint_in_child=Pose.from_rpy(self.child_xyz, self.child_rpy),
            screw_thread_pitch=self.pitch, gearbox_ratio=self.ratio,
            mimic=None if self.mimic is None else Mimic(*self.mimic),
            location=SourceLocation('inline.sdf', 7))


def ref_motion(j: J, v):
    """Return ``M(q)`` of the module docstring's table, from closed forms."""
    kind = j.kind
    if kind in ('revolute', 'continuous'):
        return rot(j.axis, v[0])
    if kind == 'prismatic':
        return trans(unit(j.axis) * v[0])
    if kind == 'fixed':
        return np.eye(4)
    if kind == 'screw':
        pitch = 1.0 if j.pitch is None else j.pitch
        return trans(unit(j.axis) * v[0] * pitch / (2 * math.pi)) @ rot(j.axis, v[0])
    if kind == 'gearbox':
        ratio = 1.0 if j.ratio is None else j.ratio
        return rot(j.axis, -v[0]) @ rot(j.axis2, -ratio * v[0])
    if kind in ('universal', 'revolute2'):
        return rot(j.axis, v[0]) @ rot(j.axis2 if j.axis2 is not None else (0, 0, 1), v[1])
    if kind == 'ball':
        return quat_rot(v)
    if kind == 'floating':
        return trans(v[:3]) @ quat_rot(v[3:])
    assert kind == 'planar'
    n = unit(j.axis)
    u = np.array([1.0, 0.0, 0.0]) - n[0] * n
    if np.linalg.norm(u) < 1e-6:
        u = np.array([0.0, 1.0, 0.0]) - n[1] * n
    u /= np.linalg.norm(u)
    return trans(v[0] * u + v[1] * np.cross(n, u)) @ rot(n, v[2])


def ref_local(j: J, v):
    """Return ``X_PC(q) = X_PJ @ M(q) @ inv(X_CJ)``."""
    return (origin(j.xyz, j.rpy) @ ref_motion(j, v)
            @ np.linalg.inv(origin(j.child_xyz, j.child_rpy)))


def ref_values(joints, tree, q):
    """Return joint name -> list of values, mimic chains followed by hand."""
    by_name = {j.name: j for j in joints}
    index = tree.coordinate_index

    def value(j):
        if j.mimic is not None and j.mimic[0] in by_name:
            source, multiplier, offset = j.mimic
            return [multiplier * value(by_name[source])[0] + offset]
        if j.kind == 'fixed':
            return []
        if j.kind in SUFFIXES:
            return [q[index[f'{j.name}/{s}']] for s in SUFFIXES[j.kind]]
        return [q[index[j.name]]]

    return {j.name: value(j) for j in joints}


def ref_fk(links, joints, tree, q):
    """Return link name -> (4, 4) pose in the model frame, by a naive recursive walk."""
    values = ref_values(joints, tree, q)
    by_child = {j.child: j for j in joints}
    poses = {}

    def pose(name):
        if name not in poses:
            j = by_child.get(name)
            if j is None:
                root = links[name]
                poses[name] = np.eye(4) if root is None else origin(*root)
            else:
                parent = np.eye(4) if j.parent == 'world' else pose(j.parent)
                poses[name] = parent @ ref_local(j, values[j.name])
        return poses[name]

    return {name: pose(name) for name in links}


def build(links, joints, frames=()) -> Robot:
    """
    Return a Robot.

    ``links`` maps link name -> ``None`` or ``(xyz, rpy)`` (the pose of a root link).
    """
    return Robot(
        name='inline',
        links=tuple(Link(n, pose=None if p is None else Pose.from_rpy(*p))
                    for n, p in links.items()),
        joints=tuple(j.joint() for j in joints), frames=tuple(frames),
        source='inline.sdf', source_format='sdf')


def random_pose(rng, scale=0.5):
    return (tuple(rng.uniform(-scale, scale, 3)), tuple(rng.uniform(-math.pi, math.pi, 3)))


def random_joint(rng, name, kind, parent, child, *, child_offset=True) -> J:
    axis = tuple(rng.normal(size=3) * rng.uniform(0.5, 3.0))  # deliberately not unit
    xyz, rpy = random_pose(rng)
    j = J(name, kind, parent, child, xyz=xyz, rpy=rpy, axis=axis)
    if child_offset:
        j.child_xyz, j.child_rpy = random_pose(rng)
    if kind in ('universal', 'revolute2', 'gearbox'):
        j.axis2 = tuple(rng.normal(size=3))
    if kind == 'screw':
        j.pitch = float(rng.uniform(-0.3, 0.3))
    if kind == 'gearbox':
        j.ratio = float(rng.uniform(-3, 3))
    return j


def random_tree(rng, n_links, kinds=ALL_KINDS, roots=1):
    """Return ``(links, joints)``: a random forest with SDFormat-style root poses."""
    links = {}
    for r in range(roots):
        links[f'root{r}'] = random_pose(rng) if roots > 1 else None
    joints = []
    for i in range(n_links):
        parent = rng.choice(list(links))
        kind = kinds[i % len(kinds)]
        joints.append(random_joint(rng, f'j{i}', kind, str(parent), f'l{i}'))
        links[f'l{i}'] = None
    return links, joints


def random_q(rng, tree, n=None):
    shape = (tree.n_q,) if n is None else (n, tree.n_q)
    return rng.uniform(-2.0, 2.0, shape)


def assert_poses_close(ours, expected, names, tol=TOL):
    """Compare (4, 4) poses; report the worst link."""
    for name, a in zip(names, ours):
        b = expected[name]
        err = np.abs(a - b).max()
        assert err <= tol, f'link {name!r}: max abs error {err:.3g}\nours\n{a}\nexpected\n{b}'


def matrix_from_tf(xyz, quat):
    t = quat_rot(quat)
    t[:3, 3] = xyz
    return t


# --- compiled structure ---------------------------------------------------------------------

def test_topological_order_and_coordinate_names():
    rng = np.random.default_rng(1)
    links, joints = random_tree(rng, 22)
    tree = compile_tree(build(links, joints))
    assert sorted(tree.link_names) == sorted(links)
    for i, p in enumerate(tree.link_parent):
        assert p < i
    expected = []
    for name in tree.link_names:
        j = next((j for j in joints if j.child == name), None)
        if j is None or j.kind == 'fixed':
            continue
        expected.extend([j.name] if j.kind not in SUFFIXES
                        else [f'{j.name}/{s}' for s in SUFFIXES[j.kind]])
    assert tree.coordinate_names == tuple(expected)
    q0 = tree.default_q()
    for name, value in zip(tree.coordinate_names, q0):
        assert value == (1.0 if name.endswith('/qw') else 0.0)
    assert {j.name for j in tree.moving_joints} == {j.name for j in joints
                                                    if j.kind != 'fixed'}
    assert {j.name for j in tree.fixed_joints} == {j.name for j in joints if j.kind == 'fixed'}


def test_zero_configuration_is_the_composed_origins():
    rng = np.random.default_rng(2)
    for trial in range(5):
        links, joints = random_tree(rng, 15, roots=2)
        tree = compile_tree(build(links, joints))
        ours = forward_kinematics(tree, tree.default_q())
        by_child = {j.child: j for j in joints}
        for name, pose in zip(tree.link_names, ours):
            expected = np.eye(4)
            while name in by_child:  # walk up, composing origin @ inv(joint_in_child)
                j = by_child[name]
                expected = (origin(j.xyz, j.rpy) @ np.linalg.inv(origin(j.child_xyz, j.child_rpy))
                            @ expected)
                name = j.parent
            expected = origin(*links[name]) @ expected
            np.testing.assert_allclose(pose, expected, rtol=0, atol=TOL)


@pytest.mark.parametrize('kind', ALL_KINDS)
@pytest.mark.parametrize('child_offset', [False, True], ids=['urdf', 'sdf'])
def test_each_joint_kind_against_closed_form(kind, child_offset):
    rng = np.random.default_rng(2 * ALL_KINDS.index(kind) + child_offset)
    links = {'base': None, 'a': None, 'b': None, 'c': None}
    joints = [random_joint(rng, 'fix', 'fixed', 'base', 'a'),
              random_joint(rng, 'j', kind, 'a', 'b', child_offset=child_offset),
              random_joint(rng, 'tip', 'revolute', 'b', 'c', child_offset=child_offset)]
    tree = compile_tree(build(links, joints))
    batch = random_q(rng, tree, 200)
    ours_batch = forward_kinematics(tree, batch)
    for n, q in enumerate(batch):
        expected = ref_fk(links, joints, tree, q)
        assert_poses_close(forward_kinematics(tree, q), expected, tree.link_names)
        assert_poses_close(ours_batch[n], expected, tree.link_names)
        tf = dict(zip((j.name for j in tree.moving_joints), tree.joint_transforms(q)))
        tf.update(zip((j.name for j in tree.fixed_joints), tree.fixed_joint_transforms))
        values = ref_values(joints, tree, q)
        for j in joints:
            np.testing.assert_allclose(matrix_from_tf(*tf[j.name]),
                                       ref_local(j, values[j.name]), rtol=0, atol=TOL)


@pytest.mark.parametrize('axis', [(1, 0, 0), (0, 1, 0), (0, 0, 1), (-1, 0, 0), (0, -2, 0),
                                  (0, 0, -0.5), (0.3, -0.5, 0.8)])
@pytest.mark.parametrize('rotated', [False, True])
def test_revolute_axis_cases(axis, rotated):
    # Exercises each axis-aligned fast path, the sign folding and the general axis.
    rng = np.random.default_rng(7)
    rpy = (0.3, -1.1, 2.0) if rotated else (0.0, 0.0, 0.0)
    links = {'base': None, 'a': None, 'b': None}
    joints = [J('j1', 'revolute', 'base', 'a', xyz=(0.1, 0.2, 0.3), rpy=rpy, axis=axis),
              J('j2', 'continuous', 'a', 'b', xyz=(0.0, 0.0, 0.4), axis=axis)]
    tree = compile_tree(build(links, joints))
    batch = random_q(rng, tree, 50)
    ours = forward_kinematics(tree, batch)
    for n, q in enumerate(batch):
        expected = ref_fk(links, joints, tree, q)
        assert_poses_close(ours[n], expected, tree.link_names)
        assert_poses_close(forward_kinematics(tree, list(q)), expected, tree.link_names)


@pytest.mark.parametrize('normal', [(1, 0, 0), (0, 0, 1), (0.2, 0.3, -0.9), (1, 1e-9, 0)])
def test_planar_basis(normal):
    rng = np.random.default_rng(3)
    links = {'base': None, 'a': None}
    joints = [J('p', 'planar', 'base', 'a', axis=normal)]
    tree = compile_tree(build(links, joints))
    for q in random_q(rng, tree, 20):
        expected = ref_fk(links, joints, tree, q)
        assert_poses_close(forward_kinematics(tree, q), expected, tree.link_names)


def test_batch_equals_loop_of_singles_and_keeps_leading_dims():
    rng = np.random.default_rng(4)
    links, joints = random_tree(rng, 30, roots=2)
    tree = compile_tree(build(links, joints))
    batch = random_q(rng, tree, 37)
    singles = np.array([forward_kinematics(tree, q) for q in batch])
    for chunk in (None, 1, 8, 36, 100):  # ragged and exact chunks
        np.testing.assert_allclose(forward_kinematics(tree, batch, chunk_size=chunk), singles,
                                   rtol=0, atol=1e-12)
    shaped = forward_kinematics(tree, batch[:36].reshape(3, 12, tree.n_q))
    assert shaped.shape == (3, 12, tree.n_links, 4, 4)
    np.testing.assert_allclose(shaped.reshape(36, tree.n_links, 4, 4), singles[:36],
                               rtol=0, atol=1e-12)
    small = forward_kinematics(tree, batch[:3])  # the per-configuration path
    np.testing.assert_allclose(small, singles[:3], rtol=0, atol=1e-12)
    assert forward_kinematics(tree, batch[:0]).shape == (0, tree.n_links, 4, 4)
    with pytest.raises(ValueError, match='shape'):
        forward_kinematics(tree, np.zeros(tree.n_q + 1))


@pytest.mark.parametrize('rows', [None, 3, 20])  # one configuration, small and large batch
def test_infinite_values_are_refused_by_every_evaluator(rows):
    links = {'a': None, 'b': None, 'c': None}
    joints = [J('g', 'gearbox', 'a', 'b', axis=(0.0, 0.0, 1.0), axis2=(0.0, 0.0, 1.0),
                ratio=1e300),
              J('f', 'floating', 'a', 'c')]
    tree = compile_tree(build(links, joints))

    def q_with(index, value):
        q = tree.default_q()
        q[index] = value
        return q if rows is None else np.tile(q, (rows, 1))

    # A finite value that the gearbox ratio makes infinite, and an infinite translation.
    for q, match in ((q_with(0, 1e10), "joint 'g': gearbox angle 1e\\+300 \\* 1e\\+10"),
                     (q_with(tree.coordinate_index['f/x'], math.inf),
                      "joint 'f/x': joint value must be finite, got inf")):
        with warnings.catch_warnings():
            warnings.simplefilter('error')  # no NaN poses behind a RuntimeWarning either
            with pytest.raises(KinematicsError, match=match):
                forward_kinematics(tree, q)
            if rows is None:
                with pytest.raises(KinematicsError, match=match):
                    tree.joint_transforms(q.tolist())


def test_joint_transforms_compose_to_world_poses():
    rng = np.random.default_rng(5)
    links, joints = random_tree(rng, 25, roots=3)
    joints.append(random_joint(rng, 'to_world', 'revolute', 'world', 'floating_body'))
    links['floating_body'] = None
    tree = compile_tree(build(links, joints))
    assert tree.moving_joints[[j.name for j in tree.moving_joints].index('to_world')].parent \
        == 'world'
    for q in random_q(rng, tree, 20):
        world = {'world': np.eye(4)}
        for name, (xyz, quat) in zip(tree.root_links, tree.root_link_poses):
            world[name] = matrix_from_tf(xyz, quat)
        local = {}
        for j, tf in zip(tree.moving_joints, tree.joint_transforms(q.tolist())):
            local[j.child] = (j.parent, matrix_from_tf(*tf))
        for j, tf in zip(tree.fixed_joints, tree.fixed_joint_transforms):
            local[j.child] = (j.parent, matrix_from_tf(*tf))
        for name in tree.link_names:  # parents first
            if name not in world:
                parent, t = local[name]
                world[name] = world[parent] @ t
        ours = forward_kinematics(tree, q)
        for i, name in enumerate(tree.link_names):
            np.testing.assert_allclose(world[name], ours[i], rtol=0, atol=TOL)
        expected = ref_fk(links, joints, tree, q)
        assert_poses_close(ours, expected, tree.link_names)


def test_frames():
    rng = np.random.default_rng(6)
    links, joints = random_tree(rng, 6)
    frames = [Frame('tool', 'l3', Pose.from_rpy((0.1, 0.0, 0.2), (0.0, 0.5, 0.0))),
              Frame('cam', 'root0', Pose.from_rpy((0.0, 0.3, 0.0), (1.0, 0.0, 0.0)))]
    tree = compile_tree(build(links, joints, frames))
    assert tree.frame_names == ('tool', 'cam')
    batch = random_q(rng, tree, 12)
    ours = frame_poses(tree, batch)
    assert ours.shape == (12, 2, 4, 4)
    for n, q in enumerate(batch):
        expected = ref_fk(links, joints, tree, q)
        np.testing.assert_allclose(
            ours[n, 0], expected['l3'] @ origin((0.1, 0.0, 0.2), (0.0, 0.5, 0.0)), atol=TOL)
        np.testing.assert_allclose(
            ours[n, 1], expected['root0'] @ origin((0.0, 0.3, 0.0), (1.0, 0.0, 0.0)),
            atol=TOL)
        np.testing.assert_allclose(frame_poses(tree, q), ours[n], atol=1e-12)


# --- mimic joints ---------------------------------------------------------------------------

def mimic_chain():
    links = dict.fromkeys(('base', 'a', 'b', 'c', 'd'))
    joints = [  # the mimics come before their sources in the document
        J('jd', 'revolute', 'c', 'd', xyz=(0, 0, 0.1), axis=(0, 1, 0), mimic=('jc', 3.0, -0.2)),
        J('jc', 'prismatic', 'b', 'c', xyz=(0.2, 0, 0), axis=(1, 0, 0), mimic=('jb', -0.5, 0.3)),
        J('jb', 'revolute', 'a', 'b', xyz=(0, 0.1, 0), axis=(0, 0, 1), mimic=('ja', 2.0, 0.1)),
        J('ja', 'revolute', 'base', 'a', xyz=(0, 0, 0.3), axis=(1, 0, 0)),
    ]
    return links, joints


def test_mimic_chain_resolved():
    links, joints = mimic_chain()
    tree = compile_tree(build(links, joints))
    assert tree.coordinate_names == ('ja',)
    assert {j.name for j in tree.moving_joints} == {'ja', 'jb', 'jc', 'jd'}
    resolved = {m.joint: (m.source, m.multiplier, m.offset) for m in tree.mimic_joints}
    # jb = 2 ja + 0.1; jc = -0.5 jb + 0.3 = -ja + 0.25; jd = 3 jc - 0.2 = -3 ja + 0.55
    assert resolved['jb'] == pytest.approx(('ja', 2.0, 0.1))
    assert resolved['jc'] == pytest.approx(('ja', -1.0, 0.25))
    assert resolved['jd'] == pytest.approx(('ja', -3.0, 0.55))
    rng = np.random.default_rng(8)
    batch = random_q(rng, tree, 30)
    ours = forward_kinematics(tree, batch)
    for n, q in enumerate(batch):
        expected = ref_fk(links, joints, tree, q)
        assert_poses_close(ours[n], expected, tree.link_names)
        tf = dict(zip((j.name for j in tree.moving_joints), tree.joint_transforms(q)))
        values = ref_values(joints, tree, q)
        for j in joints:
            np.testing.assert_allclose(matrix_from_tf(*tf[j.name]),
                                       ref_local(j, values[j.name]), atol=TOL)


def test_mimic_cycle_raises_in_both_modes():
    links = dict.fromkeys(('base', 'a', 'b', 'c'))
    joints = [J('ja', 'revolute', 'base', 'a', mimic=('jb', 1.0, 0.0)),
              J('jb', 'revolute', 'a', 'b', mimic=('ja', 1.0, 0.0)),
              J('jc', 'revolute', 'b', 'c', mimic=('jc', 1.0, 0.0))]
    for mode in ('error', 'ignore'):
        with pytest.raises(KinematicsError, match='mimic joints form a loop') as info:
            compile_tree(build(links, joints), missing_mimic=mode)
        codes = [d.code for d in info.value.diagnostics]
        assert codes == ['cycle', 'cycle']  # the two-joint loop and the self-mimic
        assert info.value.diagnostic.location.line == 7
        assert "joint 'j" in str(info.value)


MISSING_SOURCE_URDF = """<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="ja" type="revolute">
    <parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="jb" type="revolute">
    <parent link="a"/><child link="b"/><axis xyz="0 1 0"/><origin xyz="0.1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="nope" multiplier="2"/>
  </joint>
</robot>"""


def test_missing_mimic_source_error_or_ignore():
    robot = parse_urdf(MISSING_SOURCE_URDF, 'hand.urdf')
    with pytest.raises(KinematicsError, match="names joint 'nope', which does not exist") as info:
        compile_tree(robot)
    d = info.value.diagnostic
    assert (d.code, d.entity, str(d.location)) == ('missing-joint', "joint 'jb'", 'hand.urdf:7')
    tree = compile_tree(robot, missing_mimic='ignore')
    assert tree.coordinate_names == ('ja', 'jb')
    assert tree.mimic_joints == ()
    [w] = tree.warnings
    assert (w.code, w.entity, str(w.location)) == ('missing-joint', "joint 'jb'", 'hand.urdf:7')
    assert w.message.endswith('the <mimic> is ignored and the joint moves independently')
    assert compile_tree(parse_urdf(MISSING_SOURCE_URDF.replace('nope', 'ja'))).warnings == ()
    q = [0.4, -0.7]
    expected = rot((0, 0, 1), 0.4) @ trans((0.1, 0, 0)) @ rot((0, 1, 0), -0.7)
    np.testing.assert_allclose(forward_kinematics(tree, q)[tree.link_index['b']], expected,
                               atol=TOL)
    with pytest.raises(ValueError, match='missing_mimic'):
        compile_tree(robot, missing_mimic='warn')


def test_mimic_of_fixed_or_multi_dof_source():
    links = dict.fromkeys(('base', 'a', 'b'))
    joints = [J('ball', 'ball', 'base', 'a'), J('jb', 'revolute', 'a', 'b', mimic=('ball', 1, 0))]
    with pytest.raises(KinematicsError, match='no single value') as info:
        compile_tree(build(links, joints))
    assert info.value.diagnostic.code == 'bad-mimic'
    tree = compile_tree(build(links, joints), missing_mimic='ignore')
    assert 'jb' in tree.coordinate_names


# --- structural errors ----------------------------------------------------------------------

def test_zero_axis_raises():
    links = dict.fromkeys(('base', 'a', 'b', 'c'))
    joints = [J('ok_fixed', 'fixed', 'base', 'a', axis=(0, 0, 0)),  # fixed: axis unused
              J('bad', 'revolute', 'a', 'b', axis=(0, 0, 0)),
              J('bad2', 'universal', 'b', 'c', axis=(1, 0, 0), axis2=(0, 0, 0))]
    with pytest.raises(KinematicsError) as info:
        compile_tree(build(links, joints))
    found = [(d.code, d.entity) for d in info.value.diagnostics]
    assert found == [('zero-axis', "joint 'bad'"), ('zero-axis', "joint 'bad2'")]
    assert '<axis2>' in str(info.value)


def test_loop_raises_and_a_second_parent_joint_is_left_out_as_a_loop_joint():
    links = dict.fromkeys(('base', 'a', 'b', 'c'))
    loop = [J('j1', 'revolute', 'base', 'a'), J('j2', 'revolute', 'b', 'c'),
            J('j3', 'revolute', 'c', 'b')]
    with pytest.raises(KinematicsError, match='kinematic loop') as info:
        compile_tree(build(links, loop))
    assert info.value.diagnostic.code == 'cycle'
    # A four-bar style closure: b is the child of j2 (its tree joint) and of j3.
    two_parents = [J('j1', 'revolute', 'base', 'a'), J('j2', 'revolute', 'base', 'b'),
                   J('j3', 'revolute', 'a', 'b'), J('j4', 'revolute', 'base', 'c')]
    tree = compile_tree(build(links, two_parents))
    assert tree.loop_joints == ('j3',)
    assert tree.coordinate_names == ('j1', 'j2', 'j4')
    assert tree.link_parent[tree.link_index['b']] == tree.link_index['base']
    mimic_of_loop = [*two_parents[:3], J('j4', 'revolute', 'base', 'c', mimic=('j3', 2.0, 0.0))]
    with pytest.raises(KinematicsError, match="'j3', which closes a kinematic loop"):
        compile_tree(build(links, mimic_of_loop))
    assert 'j4' in compile_tree(build(links, mimic_of_loop),
                                missing_mimic='ignore').coordinate_names
    with pytest.raises(KinematicsError, match="'nowhere' is not defined"):
        compile_tree(build(links, [J('j1', 'revolute', 'nowhere', 'a')]))


# --- named values and the joint_states hot path ---------------------------------------------

def small_tree():
    links = dict.fromkeys(('base', 'a', 'b', 'c', 'd'))
    joints = [J('ja', 'revolute', 'base', 'a', xyz=(0, 0, 0.2), axis=(0, 0, 1)),
              J('jb', 'prismatic', 'a', 'b', xyz=(0.1, 0, 0), axis=(1, 0, 0)),
              J('jc', 'revolute', 'b', 'c', axis=(0, 1, 0), mimic=('ja', -1.0, 0.2)),
              J('jd', 'floating', 'base', 'd')]
    return links, joints, compile_tree(build(links, joints))


def test_joint_vector():
    _, _, tree = small_tree()
    result = tree.joint_vector({'jb': 0.25, 'jc': 9.0, 'nope': 1.0, 'jd/z': 2, 'jd/qw': 0.5})
    expected = dict(zip(tree.coordinate_names, tree.default_q()))
    expected.update({'jb': 0.25, 'jd/z': 2.0, 'jd/qw': 0.5})
    assert result.q.tolist() == [expected[n] for n in tree.coordinate_names]
    assert (result.unknown, result.mimic) == (('nope',), ('jc',))
    assert tree.joint_vector([('ja', np.float32(0.5))]).q[0] == 0.5
    for bad, match in ((float('nan'), 'finite'), (float('-inf'), 'finite'),
                       ('0.3', 'real number'), (None, 'real number'), (1j, 'real number')):
        with pytest.raises(KinematicsError, match=f"joint 'jb'.*{match}"):
            tree.joint_vector({'ja': 0.1, 'jb': bad})
    with pytest.raises(KinematicsError, match="'nope'"):
        tree.joint_vector({'nope': 1.0}, strict=True)
    with pytest.raises(KinematicsError, match="'jc'"):
        tree.joint_vector({'jc': 1.0}, strict=True)


def test_joint_state_plan():
    links, joints, tree = small_tree()
    names = ['jb', 'extra', 'jc', 'ja']
    plan = tree.joint_state_plan(names)
    assert plan.unknown == ('extra',) and plan.mimic == ('jc',)
    moving = [j.name for j in tree.moving_joints]
    # ja moves ja and its mimic jc; jb moves jb; the floating jd is not touched.
    assert sorted(moving[k] for k in plan.joints) == ['ja', 'jb', 'jc']
    assert [j.name for j in plan.tree_joints] == [moving[k] for k in plan.joints]
    q = tree.default_q().tolist()
    plan.update(q, [0.3, float('nan'), 5.0, -0.4])  # NaN and mimic values are ignored
    assert q[tree.coordinate_index['ja']] == -0.4
    assert q[tree.coordinate_index['jb']] == 0.3
    full = dict(zip(moving, tree.joint_transforms(q)))
    for j, tf in zip(plan.tree_joints, plan.transforms(q)):
        assert tf == full[j.name]
    values = ref_values(joints, tree, q)
    for j in joints:
        np.testing.assert_allclose(matrix_from_tf(*full[j.name]), ref_local(j, values[j.name]),
                                   atol=TOL)
    before = list(q)
    with pytest.raises(KinematicsError, match="joint 'ja'.*finite"):
        plan.update(q, [0.1, 0.0, 0.0, float('inf')])
    with pytest.raises(KinematicsError, match="joint 'jb'.*real number"):
        plan.update(q, ['x', 0.0, 0.0, 0.0])
    with pytest.raises(KinematicsError, match='3 positions for 4 joint names'):
        plan.update(q, [0.1, 0.2, 0.3])
    with pytest.raises(KinematicsError, match="joint 'jb'.*got bool True"):
        plan.update(q, [True, 0.0, 0.0, 0.5])  # a bool among floats is still refused
    assert q == before
    by_index = tree.coordinate_plan([tree.coordinate_index['jb']])
    assert by_index.names == ('jb',) and [moving[k] for k in by_index.joints] == ['jb']
    with pytest.raises(IndexError):
        tree.coordinate_plan([tree.n_q])
    assert tree.joint_transforms({'ja': -0.4, 'jb': 0.3}) == tree.joint_transforms(q)
    # rclpy's array.array('d'), numpy arrays and numpy scalars all give q plain floats.
    for positions in (array.array('d', [0.25, 9.0, 9.0, -0.5]),
                      np.array([0.25, 9.0, 9.0, -0.5], dtype=np.float32),
                      [np.float32(0.25), 1e300, 9.0, np.int64(-1)]):
        plan.update(q, positions)
        assert type(q[tree.coordinate_index['jb']]) is float
        assert q[tree.coordinate_index['jb']] == 0.25


# --- corpus: pinocchio and yourdfpy ---------------------------------------------------------

CORPUS = [pytest.param(p, id=p.stem) for p in corpus_files()] or [
    pytest.param(None, id='no-corpus',
                 marks=pytest.mark.skip(reason=f'no corpus at {CORPUS_DIR}'))]


def sample_configurations(robot, tree, rng, n):
    """Return (n, n_q) configurations within limits (unit quaternions for floating joints)."""
    q = np.empty((n, tree.n_q))
    for i, name in enumerate(tree.coordinate_names):
        joint_name, _, suffix = name.partition('/')
        limit = robot.joint(joint_name).limit
        if suffix:
            q[:, i] = rng.uniform(-1.0, 1.0, n)
        elif limit is not None and limit.upper > limit.lower:
            q[:, i] = rng.uniform(limit.lower, limit.upper, n)
        else:
            q[:, i] = rng.uniform(-math.pi, math.pi, n)
    for j in tree.moving_joints:
        if j.kind is JointType.FLOATING:
            quat = rng.normal(size=(n, 4))
            q[:, j.coordinates[3]:j.coordinates[3] + 4] = quat / np.linalg.norm(
                quat, axis=1, keepdims=True)
    return q


def named_values(tree, q):
    """Return joint (or coordinate) name -> value, mimic joints included."""
    values = dict(zip(tree.coordinate_names, q))
    for m in tree.mimic_joints:
        values[m.joint] = m.multiplier * q[m.coordinate] + m.offset
    return values


def pose_errors(ours, ref):
    """Return (max position error in m, max rotation error in rad) between pose arrays."""
    position = np.abs(ours[..., :3, 3] - ref[..., :3, 3]).max(initial=0.0)
    # ||R1 - R2||_F = 2 sqrt(2) sin(angle / 2): exact for small angles, unlike acos.
    frob = np.linalg.norm(ours[..., :3, :3] - ref[..., :3, :3], axis=(-2, -1))
    rotation = (2.0 * np.arcsin(np.minimum(frob / (2.0 * math.sqrt(2.0)), 1.0))).max(initial=0.0)
    return float(position), float(rotation)


@pytest.mark.parametrize('path', CORPUS)
def test_corpus_against_pinocchio(path):
    pin = pytest.importorskip('pinocchio')
    text = path.read_text()
    try:
        model = pin.buildModelFromXML(text, mimic=False)
    except Exception as exc:  # noqa: B902 - any failure means pinocchio cannot serve here
        pytest.skip(f'pinocchio cannot load {path.name}: {exc}')
    data = model.createData()
    robot = parse_urdf(text, path.name)
    tree = compile_tree(robot, missing_mimic='ignore')  # pinocchio: independent as well
    bodies = {f.name: i for i, f in enumerate(model.frames) if f.type == pin.FrameType.BODY}
    frame_ids = [bodies[name] for name in tree.link_names]
    rng = np.random.default_rng(20260101)
    batch = sample_configurations(robot, tree, rng, 1000)
    ours = forward_kinematics(tree, batch)
    ref = np.empty_like(ours)
    q_pin = pin.neutral(model)
    for n, q in enumerate(batch):
        values = named_values(tree, q)
        for j in range(1, model.njoints):
            name, joint = model.names[j], model.joints[j]
            if joint.nq == 7:
                q_pin[joint.idx_q:joint.idx_q + 7] = [
                    values[f'{name}/{s}'] for s in SUFFIXES['floating']]
            elif joint.nq == 2:  # continuous: (cos, sin)
                q_pin[joint.idx_q:joint.idx_q + 2] = (math.cos(values[name]),
                                                      math.sin(values[name]))
            else:
                q_pin[joint.idx_q] = values[name]
        pin.framesForwardKinematics(model, data, q_pin)
        for i, f in enumerate(frame_ids):
            ref[n, i] = data.oMf[f].homogeneous
    position, rotation = pose_errors(ours, ref)
    assert position <= TOL and rotation <= TOL, (position, rotation)

    # The single-configuration path, and the per-joint transforms, on a subset.
    for n in range(0, 1000, 40):
        position, rotation = pose_errors(forward_kinematics(tree, batch[n].tolist()), ref[n])
        assert position <= TOL and rotation <= TOL, (n, position, rotation)
        index = tree.link_index
        for j, tf in zip(tree.moving_joints, tree.joint_transforms(batch[n])):
            expected = np.linalg.inv(ref[n, index[j.parent]]) @ ref[n, index[j.child]]
            position, rotation = pose_errors(matrix_from_tf(*tf), expected)
            assert position <= TOL and rotation <= TOL, (j.name, position, rotation)
        for j, tf in zip(tree.fixed_joints, tree.fixed_joint_transforms):
            expected = np.linalg.inv(ref[n, index[j.parent]]) @ ref[n, index[j.child]]
            position, rotation = pose_errors(matrix_from_tf(*tf), expected)
            assert position <= TOL and rotation <= TOL, (j.name, position, rotation)


@pytest.mark.parametrize('path', CORPUS)
def test_corpus_against_yourdfpy(path):
    yourdfpy = pytest.importorskip('yourdfpy')
    data = path.read_bytes()
    robot = parse_urdf(data, path.name)
    try:
        tree = compile_tree(robot)
    except KinematicsError as exc:
        pytest.skip(f'yourdfpy gives a missing mimic source the offset only: {exc}')
    if any(j.multi_dof for j in tree.moving_joints):
        pytest.skip('yourdfpy treats floating and planar joints as fixed')
    joints = {j.name: j for j in robot.joints}
    if any(j.mimic is not None and joints[j.mimic.joint].mimic is not None
           for j in robot.joints if j.kind is not JointType.FIXED):
        pytest.skip('yourdfpy follows one mimic level only')
    urdf = yourdfpy.URDF.load(BytesIO(data), load_meshes=False, build_scene_graph=True,
                              build_collision_scene_graph=False, load_collision_meshes=False)
    rng = np.random.default_rng(20260102)
    batch = sample_configurations(robot, tree, rng, 25)  # yourdfpy takes ~1-10 ms each
    ours = forward_kinematics(tree, batch)
    ref = np.empty_like(ours)
    root = tree.link_names[0]
    for n, q in enumerate(batch):
        urdf.update_cfg(dict(zip(tree.coordinate_names, q.tolist())))
        for i, name in enumerate(tree.link_names):
            ref[n, i] = urdf.get_transform(name, root)
    position, rotation = pose_errors(ours, ref)
    assert position <= TOL and rotation <= TOL, (position, rotation)
