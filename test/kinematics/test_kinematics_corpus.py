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
Forward kinematics of every corpus robot against pinocchio and yourdfpy.

Both references load the URDF themselves; nothing is compared with values sdf_tools produced
earlier.
"""

from io import BytesIO
import math

from kinematics_reference import matrix_from_tf
from kinematics_reference import SUFFIXES
from kinematics_reference import TOL
import numpy as np
import pytest
from sdf_tools.errors import KinematicsError
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.model import JointType
from support import CORPUS_DIR
from support import corpus_files


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


def assert_kdl_sign(pin, quat, expected, name):
    """
    Assert ``quat`` has the sign robot_state_publisher (KDL) gives the rotation ``expected``.

    Eigen's conversion (``pin.Quaternion``) chooses the sign as KDL's
    ``Rotation::GetQuaternion`` does (``w > 0`` above a trace of 0, else the component of the
    largest diagonal entry) except at a trace in (0, 1e-12] and at ties: those are skipped.
    """
    rotation = expected[:3, :3]
    diagonal = np.sort(np.diag(rotation))
    if abs(np.trace(rotation)) < 1e-9 or diagonal[2] - diagonal[1] < 1e-9:
        return
    reference = pin.Quaternion(rotation).coeffs()  # x, y, z, w
    assert np.abs(np.subtract(quat, reference)).max() <= 1e-9, (name, quat, reference)


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
            assert_kdl_sign(pin, tf[1], expected, j.name)
        for j, tf in zip(tree.fixed_joints, tree.fixed_joint_transforms):
            expected = np.linalg.inv(ref[n, index[j.parent]]) @ ref[n, index[j.child]]
            position, rotation = pose_errors(matrix_from_tf(*tf), expected)
            assert position <= TOL and rotation <= TOL, (j.name, position, rotation)
            assert_kdl_sign(pin, tf[1], expected, j.name)


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
