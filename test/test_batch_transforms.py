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

"""Tests of sdf_tools.batch_transforms: the batch maths agree with the scalar functions."""

import numpy as np
from sdf_tools import batch_transforms
from sdf_tools import transforms


def test_quat_normalize_batch_matches_the_scalar_version():
    rng = np.random.default_rng(6)
    quats = rng.normal(size=(50, 4)) * 10.0 ** rng.uniform(-200, 200, size=(50, 1))
    quats[::9] = 0.0  # the identity, as quat_normalize
    out = batch_transforms.quat_normalize_batch(quats)
    assert out.shape == (50, 4)
    for q, unit in zip(quats, out):
        np.testing.assert_allclose(unit, transforms.quat_normalize(tuple(q)), rtol=0,
                                   atol=1e-15)
    shaped = batch_transforms.quat_normalize_batch(quats.reshape(5, 10, 4))
    np.testing.assert_array_equal(shaped.reshape(50, 4), out)
    assert batch_transforms.quat_normalize_batch(np.zeros((0, 4))).shape == (0, 4)


def test_axis_angle_batch_is_rodrigues():
    rng = np.random.default_rng(7)
    for _ in range(20):
        axis = tuple(transforms.vec_unit(tuple(rng.normal(size=3))))
        angles = rng.uniform(-4.0, 4.0, size=(3, 4))
        out = batch_transforms.matrices_from_axis_angle_batch(axis, angles)
        assert out.shape == (3, 4, 3, 3)
        for angle, m in zip(angles.ravel(), out.reshape(-1, 3, 3)):
            expected = batch_transforms.matrix_from_quat(
                transforms.quat_from_axis_angle(axis, angle))
            np.testing.assert_allclose(m, expected, rtol=0, atol=1e-14)
