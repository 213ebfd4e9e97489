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


def rot(axis, angle):
    """Return the rotation matrix about a unit axis (Rodrigues, numpy; the test's own)."""
    x, y, z = axis
    k = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    return np.eye(3) + math.sin(angle) * k + (1.0 - math.cos(angle)) * (k @ k)


def test_quaternion_from_matrix_is_kdls_get_quaternion():
    """
    Hand-derived from orocos_kdl's ``Rotation::GetQuaternion`` (frames.cpp, 1.5).

    Its branches: ``w = 0.25 / s`` when the trace exceeds 1e-12; otherwise ``x``, ``y`` or
    ``z = 0.25 * s`` for the largest diagonal entry (``x`` only when r00 exceeds both others,
    then ``y`` when r11 exceeds r22, else ``z``): that component is the positive one.
    """
    r2 = math.sqrt(0.5)
    # 3 rad about -z: trace 1 + 2 cos 3 < 0, r22 = 1 is the largest: z > 0, so w < 0.
    q = transforms.quat_from_matrix(rot((0.0, 0.0, -1.0), 3.0))
    assert q == pytest.approx((0.0, 0.0, math.sin(1.5), -math.cos(1.5)), abs=1e-15)
    # pi about (1, -1, 0)/sqrt 2: diagonal (0, 0, -1), r00 = r11: KDL takes y (Eigen, x).
    q = transforms.quat_from_matrix([[0.0, -1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, -1.0]])
    assert q == pytest.approx((-r2, r2, 0.0, 0.0), abs=1e-15)
    # -120 degrees about x: trace 0 (to rounding). A trace of 1e-13 is not above KDL's
    # epsilon: the branch of r00, x > 0, w = -0.5; a trace of 1e-11 is: w = 0.5.
    for bump, expected in ((1e-13, (math.sqrt(0.75), 0.0, 0.0, -0.5)),
                           (1e-11, (-math.sqrt(0.75), 0.0, 0.0, 0.5))):
        m = rot((1.0, 0.0, 0.0), -2.0 * math.pi / 3.0)
        m[0, 0] += bump
        assert transforms.quat_from_matrix(m) == pytest.approx(expected, abs=1e-11)
    # The identity and small rotations: w > 0, the branch of the trace.
    assert transforms.quat_from_matrix(np.eye(3)) == (0.0, 0.0, 0.0, 1.0)
    q = transforms.quat_from_matrix(rot((0.0, 1.0, 0.0), -0.5))
    assert q == pytest.approx((0.0, -math.sin(0.25), 0.0, math.cos(0.25)), abs=1e-15)


def test_quaternion_from_matrix_agrees_with_pinocchio_outside_the_rules_edges():
    """Eigen's conversion differs from KDL's only at a trace in (0, 1e-12] and at ties."""
    pin = pytest.importorskip('pinocchio')
    rng = np.random.default_rng(4)
    compared = 0
    for _ in range(3000):
        axis = rng.normal(size=3)
        m = pin.exp3(axis / np.linalg.norm(axis) * rng.uniform(0.0, math.pi))
        diagonal = np.sort(np.diag(m))
        if abs(np.trace(m)) < 1e-9 or diagonal[2] - diagonal[1] < 1e-9:
            continue
        expected = pin.Quaternion(m).coeffs()  # x, y, z, w
        np.testing.assert_allclose(transforms.quat_from_matrix(m), expected, rtol=0,
                                   atol=1e-15)
        compared += 1
    assert compared > 2900


def test_kdl_sign_scalar_and_batch_agree_bit_for_bit():
    rng = np.random.default_rng(4)
    qs = np.array([transforms.quat_normalize(tuple(rng.normal(size=4))) for _ in range(2000)])
    qs[::7] = [0.0, 0.0, 1.0, 0.0]  # 180 degrees: trace = -1
    ms = batch_transforms.matrices_from_quats_batch(qs)
    back = batch_transforms.quats_from_matrices_batch(ms)
    assert back.tolist() == [list(transforms.quat_from_matrix(m)) for m in ms]
    np.testing.assert_allclose(batch_transforms.matrices_from_quats_batch(back), ms, atol=1e-14)
    signed = batch_transforms.quats_kdl_sign_batch(qs)
    assert signed.tolist() == [list(transforms.quat_kdl_sign(tuple(q))) for q in qs]
    # The same quaternion as KDL's from the matrix (up to rounding), and the same sign.
    np.testing.assert_allclose(signed, back, rtol=0, atol=1e-15)
    assert (np.abs(signed) == np.abs(qs)).all()


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
