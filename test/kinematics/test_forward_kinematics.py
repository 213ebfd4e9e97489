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
Tests of forward_kinematics and frame_poses: single and batch evaluators, shapes, errors.

Expected poses come from the independent reference in kinematics_reference.py.
"""

import math
import warnings

from diagnostics import mimic_urdf
from kinematics_reference import build
from kinematics_reference import J
from kinematics_reference import origin
from kinematics_reference import random_q
from kinematics_reference import random_tree
from kinematics_reference import ref_fk
from kinematics_reference import TOL
import numpy as np
import pytest
from sdf_tools.errors import KinematicsError
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.kinematics import frame_poses
from sdf_tools.model import Frame
from sdf_tools.model import Pose


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


# --- moved from the cross-reader tests of invalid descriptions ---------------------------

def test_mimic_values_that_overflow_are_kinematics_errors():
    # Finite multipliers, finite joint values, an infinite product: math.sin(inf) used to
    # escape as "ValueError: math domain error".
    robot = parse_urdf(mimic_urdf('', '<mimic joint="j1" multiplier="1e300"/>'))
    tree = compile_tree(robot)
    plan = tree.joint_state_plan(['j1'])
    q = [1e10]
    plan.update(q, [1e10])
    for call in (lambda: forward_kinematics(tree, q), lambda: tree.joint_transforms(q),
                 lambda: plan.transforms(q),
                 lambda: forward_kinematics(tree, np.full((20, 1), 1e10))):
        with pytest.raises(KinematicsError, match=r"joint 'j2': mimic value 1e\+300 \* 1e\+10 "
                           r"\+ 0 \(following 'j1'\) overflows to infinity"):
            call()
    assert np.isfinite(forward_kinematics(tree, [1.0])).all()
    with pytest.raises(KinematicsError, match="joint 'j1': joint value must be finite"):
        forward_kinematics(tree, np.full((20, 1), math.inf))


@pytest.mark.parametrize('value', [10 ** 400, -10 ** 400, math.inf, math.nan, 'x', None])
def test_joint_values_that_are_not_finite_floats_are_kinematics_errors(value):
    tree = compile_tree(parse_urdf(mimic_urdf('')))
    with pytest.raises(KinematicsError, match="joint 'j1': joint value must be"):
        tree.joint_vector({'j1': value})
    plan = tree.joint_state_plan(['j1', 'j2'])
    q = tree.default_q().tolist()
    with pytest.raises(KinematicsError, match="joint 'j1': joint value must be"):
        plan.update(q, [value, 0.5])
    assert q == [0.0, 0.0]
    assert tree.joint_vector({'j1': 1e308, 'j2': 1e308}).q.tolist() == [1e308, 1e308]
