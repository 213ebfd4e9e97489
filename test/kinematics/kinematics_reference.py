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
An independent reference for the kinematics tests: numpy 4x4 matrices built from the numbers.

Every expected pose the tests in this folder use comes from here (Rodrigues rotations, rpy as
Rz Ry Rx, a naive recursive walk of the joints), or from pinocchio and yourdfpy on the corpus
robots. Nothing is compared with values sdf_tools.kinematics produced earlier. :class:`J`
describes a joint once; both the model (:meth:`J.joint`, :func:`build`) and the reference
(:func:`ref_local`, :func:`ref_fk`) are built from it.
"""

from dataclasses import dataclass
import math

from chain_fk import rot  # Rodrigues, (4, 4); the axis is normalised
import numpy as np
from sdf_tools.errors import SourceLocation
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Mimic
from sdf_tools.model import Pose
from sdf_tools.model import Robot

TOL = 1e-9
ALL_KINDS = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar', 'ball',
             'universal', 'revolute2', 'screw', 'gearbox')
# The documented coordinate suffixes (table in sdf_tools.kinematics.joint_motions), written
# out independently.
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
    """Return ``M(q)`` of the table in sdf_tools.kinematics.joint_motions, from closed forms."""
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
