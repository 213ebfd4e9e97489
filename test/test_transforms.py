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

"""Tests of sdf_tools.transforms: conventions, round trips (numpy matrices as the reference)."""

import math

import numpy as np
import pytest
from sdf_tools import batch_transforms
from sdf_tools import transforms


def rx(a):
    return np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])


def ry(a):
    return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])


def rz(a):
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


def test_rpy_is_fixed_axis_roll_pitch_yaw():
    rng = np.random.default_rng(1)
    for _ in range(1000):
        r, p, y = rng.uniform(-3, 3, 3)
        m = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(r, p, y))
        np.testing.assert_allclose(m, rz(y) @ ry(p) @ rx(r), atol=1e-14)


def test_rpy_round_trip_is_exact_everywhere_including_gimbal_lock():
    rng = np.random.default_rng(2)
    worst = 0.0
    for i in range(20000):
        if i % 2:
            jitter = rng.normal() * 10.0 ** rng.uniform(-12, -3)
            pitch = math.copysign(math.pi / 2, rng.uniform(-1, 1)) + jitter
            q = transforms.quat_from_rpy(rng.uniform(-3, 3), pitch, rng.uniform(-3, 3))
        else:
            q = transforms.quat_normalize(tuple(rng.normal(size=4)))
        back = transforms.quat_from_rpy(*transforms.rpy_from_quat(q))
        worst = max(worst, np.abs(batch_transforms.matrix_from_quat(q)
                                  - batch_transforms.matrix_from_quat(back)).max())
    assert worst < 5e-15


def test_intrinsic_xyz_is_rx_ry_rz():
    a, b, c = 0.3, -1.2, 2.0
    m = batch_transforms.matrix_from_quat(transforms.quat_from_intrinsic_xyz(a, b, c))
    np.testing.assert_allclose(m, rx(a) @ ry(b) @ rz(c), atol=1e-14)


def test_compose_invert_and_matrix_agree():
    rng = np.random.default_rng(3)
    for _ in range(200):
        qa = transforms.quat_normalize(tuple(rng.normal(size=4)))
        qb = transforms.quat_normalize(tuple(rng.normal(size=4)))
        pa, pb = tuple(rng.normal(size=3)), tuple(rng.normal(size=3))
        ta = batch_transforms.transform_from_pose(pa, qa)
        tb = batch_transforms.transform_from_pose(pb, qb)
        p, q = transforms.compose(pa, qa, pb, qb)
        np.testing.assert_allclose(batch_transforms.transform_from_pose(p, q), ta @ tb, atol=1e-13)
        pi, qi = transforms.invert(pa, qa)
        np.testing.assert_allclose(batch_transforms.transform_from_pose(pi, qi),
                                   np.linalg.inv(ta), atol=1e-13)
        np.testing.assert_allclose(batch_transforms.invert_transform_batch(ta), np.linalg.inv(ta),
                                   atol=1e-13)


def test_quaternion_from_matrix_scalar_and_batch():
    rng = np.random.default_rng(4)
    qs = np.array([transforms.quat_normalize(tuple(rng.normal(size=4))) for _ in range(500)])
    qs[::7] = [0.0, 0.0, 1.0, 0.0]  # 180 degrees: trace = -1
    ms = batch_transforms.matrices_from_quats_batch(qs)
    back = batch_transforms.quats_from_matrices_batch(ms)
    assert (back[:, 3] >= 0).all()
    np.testing.assert_allclose(batch_transforms.matrices_from_quats_batch(back), ms, atol=1e-14)
    for m in ms[:50]:
        np.testing.assert_allclose(
            batch_transforms.matrix_from_quat(transforms.quat_from_matrix(m)), m, atol=1e-14)


def test_vectors_and_row_major_matrices_agree_with_numpy():
    rng = np.random.default_rng(5)
    for _ in range(200):
        a, b = tuple(rng.normal(size=3)), tuple(rng.normal(size=3))
        s = float(rng.normal())
        np.testing.assert_allclose(transforms.vec_add(a, b), np.add(a, b), rtol=0, atol=1e-15)
        np.testing.assert_allclose(transforms.vec_sub(a, b), np.subtract(a, b), rtol=0,
                                   atol=1e-15)
        np.testing.assert_allclose(transforms.vec_scale(a, s), np.multiply(a, s), rtol=0,
                                   atol=1e-15)
        assert transforms.vec_dot(a, b) == pytest.approx(np.dot(a, b), abs=1e-14)
        np.testing.assert_allclose(transforms.vec_cross(a, b), np.cross(a, b), rtol=0,
                                   atol=1e-14)
        np.testing.assert_allclose(transforms.vec_unit(a), a / np.linalg.norm(a), rtol=0,
                                   atol=1e-15)
        qa = transforms.quat_normalize(tuple(rng.normal(size=4)))
        qb = transforms.quat_normalize(tuple(rng.normal(size=4)))
        ma, mb = batch_transforms.matrix_from_quat(qa), batch_transforms.matrix_from_quat(qb)
        a9, b9 = transforms.mat3_from_quat(qa), transforms.mat3_from_quat(qb)
        assert len(a9) == 9 and a9 == tuple(ma.ravel())  # row-major, same numbers
        assert transforms.rows_from_quat(qa) == (a9[0:3], a9[3:6], a9[6:9])
        np.testing.assert_allclose(np.reshape(transforms.mat3_multiply(a9, b9), (3, 3)),
                                   ma @ mb, rtol=0, atol=1e-15)
        assert np.reshape(transforms.mat3_transpose(a9), (3, 3)).tolist() == ma.T.tolist()
    assert transforms.mat3_from_quat(transforms.IDENTITY_QUAT) == transforms.IDENTITY_MAT3
    assert transforms.vec_unit((1e200, 0.0, 1e200))[0] == pytest.approx(math.sqrt(0.5))
