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
Tests of sdf_tools.kinematics.joint_motions: every joint kind's motion, in every evaluator.

Expected poses come from closed forms in kinematics_reference.py (numpy 4x4 matrices).
"""

import math

from diagnostics import urdf
from kinematics_reference import ALL_KINDS
from kinematics_reference import assert_poses_close
from kinematics_reference import build
from kinematics_reference import J
from kinematics_reference import matrix_from_tf
from kinematics_reference import random_joint
from kinematics_reference import random_q
from kinematics_reference import ref_fk
from kinematics_reference import ref_local
from kinematics_reference import ref_motion
from kinematics_reference import ref_values
from kinematics_reference import TOL
from kinematics_reference import unit
import numpy as np
import pytest
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.kinematics.joint_motions import joint_motion
from sdf_tools.kinematics.joint_motions import MOTIONS
from sdf_tools.kinematics.motion import Drive
from sdf_tools.model import JointType


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


@pytest.mark.parametrize('kind', ALL_KINDS)
def test_each_motion_alone_against_closed_form(kind):
    # The motion itself, without a tree: M(q) for one configuration and for a chunk, X_PC(q),
    # a mimic-style drive, and the neutral configuration.
    rng = np.random.default_rng(100 + ALL_KINDS.index(kind))
    j = random_joint(rng, 'j', kind, 'a', 'b')
    joint_type = JointType(kind)
    axis = tuple(unit(j.axis)) if joint_type.axes >= 1 else None
    axis2 = tuple(unit(j.axis2 if j.axis2 is not None else (0, 0, 1))) \
        if joint_type.axes == 2 else None
    one_dof = joint_type.dof == 1
    drive = Drive(1, -1.5, 0.25) if one_dof else Drive(1)  # coordinate 0 is someone else's
    motion = joint_motion(j.joint(), axis, axis2, drive)
    assert type(motion) is MOTIONS[joint_type]
    assert len(motion.neutral) == joint_type.dof
    plain = joint_motion(j.joint(), axis, axis2, Drive(0))
    np.testing.assert_allclose(matrix_from_tf(*plain.transform(list(plain.neutral))), np.eye(4),
                               rtol=0, atol=1e-15)  # the zero configuration does not move
    neutral = [9.0, *motion.neutral]
    np.testing.assert_allclose(matrix_from_tf(*motion.transform(neutral)),
                               ref_motion(j, [0.25] if one_dof else motion.neutral),
                               rtol=0, atol=TOL)
    batch = rng.uniform(-2.0, 2.0, (30, 1 + max(joint_type.dof, 1)))
    values = batch[:, 1] * -1.5 + 0.25 if one_dof else None
    r, t = motion.transform_batch(batch, values)
    assert r.shape == (3, 3, 30) and t.shape == (3, 30)
    for n, q in enumerate(batch):
        v = [values[n]] if one_dof else q[1:1 + joint_type.dof]
        expected = ref_motion(j, v)
        np.testing.assert_allclose(matrix_from_tf(*motion.transform(q.tolist())), expected,
                                   rtol=0, atol=TOL)
        np.testing.assert_allclose(r[:, :, n], expected[:3, :3], rtol=0, atol=TOL)
        np.testing.assert_allclose(t[:, n], expected[:3, 3], rtol=0, atol=TOL)
        np.testing.assert_allclose(matrix_from_tf(*motion.local(q.tolist())),
                                   ref_local(j, v), rtol=0, atol=TOL)


# --- moved from the cross-reader tests of invalid descriptions ---------------------------

def test_huge_and_tiny_joint_quaternions_rotate_like_unit_ones():
    # The squares of 1e200 overflow: the rotation used to collapse to the identity.
    doc = urdf('<link name="a"/>', '<link name="b"/>',
               '<joint name="j" type="floating"><parent link="a"/><child link="b"/></joint>')
    tree = compile_tree(parse_urdf(doc))
    expected = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], dtype=float)  # 90 deg about x
    for scale in (1e200, 1.0, 1e-200):
        q = [0.0, 0.0, 0.0, scale, 0.0, 0.0, scale]
        single = forward_kinematics(tree, q)[1, :3, :3]
        batch = forward_kinematics(tree, np.array([q] * 12))[:, 1, :3, :3]
        np.testing.assert_allclose(single, expected, atol=1e-15)
        np.testing.assert_allclose(batch, np.broadcast_to(expected, (12, 3, 3)), atol=1e-15)
        (_, quat), = tree.joint_transforms(q)
        np.testing.assert_allclose(quat, (math.sqrt(0.5), 0, 0, math.sqrt(0.5)), atol=1e-15)
