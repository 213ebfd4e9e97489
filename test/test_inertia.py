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

"""Tests of sdf_tools.inertia against independent numpy computations."""

import numpy as np
import pytest
from sdf_tools import batch_transforms
from sdf_tools import inertia
from sdf_tools import transforms


def values_of(m):
    return (m[0, 0], m[0, 1], m[0, 2], m[1, 1], m[1, 2], m[2, 2])


def tensor_of(v):
    return np.array([[v[0], v[1], v[2]], [v[1], v[3], v[4]], [v[2], v[4], v[5]]])


def random_rotation(rng):
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    return q * np.sign(np.diag(r))


def test_principal_moments_match_lapack_including_near_the_boundary():
    rng = np.random.default_rng(11)
    for i in range(5000):
        if i % 4 == 0:  # rod-like: a + b = c exactly, in random axes
            a, b = np.sort(rng.uniform(0, 1, 2))
            moments = np.array([a, b, a + b])
        elif i % 4 == 1:  # a zero moment
            moments = np.array([0.0, *np.sort(rng.uniform(0, 1, 2))])
        else:
            moments = np.sort(rng.uniform(0, 1, 3)) * 10.0 ** rng.uniform(-8, 3)
        r = random_rotation(rng)
        m = r @ np.diag(moments) @ r.T
        got = inertia.principal_moments(values_of(m))
        # At the validity boundary (rods, zero moments) LAPACK decides; elsewhere the closed
        # form may lose ~1e-13 when two moments nearly coincide.
        tolerance = 5e-15 if i % 4 < 2 else 1e-13
        np.testing.assert_allclose(got, np.linalg.eigvalsh(m), rtol=0,
                                   atol=tolerance * abs(moments).max())


@pytest.mark.parametrize('values, expected', [
    ((0.01, 4.9e-324, 0.0, 0.01, 0.0, 0.01), (0.01, 0.01, 0.01)),  # denormal product
    ((1.0, 1e-160, 0.0, 1.0, 0.0, 1.0), (1.0, 1.0, 1.0)),  # p**3 underflows
    ((1.0, 1e-120, 1e-120, 2.0, 0.0, 3.0), (1.0, 2.0, 3.0)),
    ((0.0, 1e-120, 0.0, 0.0, 0.0, 0.0), (-1e-120, 0.0, 1e-120)),  # tiny products only
    ((1e300, 1e300, 0.0, 1e300, 0.0, 1e300), (0.0, 1e300, 2e300)),  # no overflow
])
def test_principal_moments_at_the_ends_of_the_float_range(values, expected):
    assert inertia.principal_moments(values) == pytest.approx(expected, rel=1e-12,
                                                              abs=1e-300)


def test_is_physical_follows_the_triangle_inequality_and_signs():
    assert inertia.is_physical((1, 0, 0, 1, 0, 1))
    assert inertia.is_physical((0, 0, 0, 1, 0, 1))  # thin rod: 0 + 1 = 1
    assert inertia.is_physical((0, 0, 0, 0, 0, 0))  # a point mass (libsdformat accepts it)
    assert not inertia.is_physical((1e-9, 0, 0, 2, 0, 1))  # 1e-9 + 1 < 2
    assert not inertia.is_physical((-1e-3, 0, 0, 1, 0, 1))
    assert inertia.is_degenerate(1.0, (0, 0, 0, 0, 0, 0))
    assert not inertia.is_degenerate(0.0, (0, 0, 0, 0, 0, 0))
    assert not inertia.is_degenerate(1.0, (1, 0, 0, 1, 0, 1))


def test_nearest_physical_keeps_axes_and_moves_the_least():
    rng = np.random.default_rng(3)
    for _ in range(200):
        r = random_rotation(rng)
        bad = np.array([1e-6, 0.3, 1.0])  # violates a + b >= c
        m = r @ np.diag(bad) @ r.T
        fixed = tensor_of(inertia.nearest_physical(values_of(m)))
        w, v = np.linalg.eigh(fixed)
        assert inertia.is_physical(values_of(fixed))
        assert w[0] + w[1] == pytest.approx(w[2], rel=1e-6)
        # Principal axes kept: the fixed tensor is diagonal in the original axes.
        in_axes = r.T @ fixed @ r
        assert np.abs(in_axes - np.diag(np.diag(in_axes))).max() < 1e-12
        d = (1.0 - 0.3 - 1e-6) / 3.0  # the moments move by d along (1, 1, -1)
        np.testing.assert_allclose(np.diag(in_axes), bad + [d, d, -d], atol=2e-9)
    floored = inertia.nearest_physical((0, 0, 0, 0, 0, 0), floor=2e-6)
    assert floored == pytest.approx((2e-6, 0, 0, 2e-6, 0, 2e-6))


def test_combine_equals_the_parallel_axis_theorem():
    rng = np.random.default_rng(5)
    for _ in range(100):
        bodies = []
        for _ in range(2):
            q = transforms.quat_normalize(tuple(rng.normal(size=4)))
            moments = np.sort(rng.uniform(0.1, 1, 3))
            moments[2] = min(moments[2], moments[0] + moments[1])
            bodies.append((float(rng.uniform(0.1, 5)), tuple(rng.uniform(-1, 1, 3)), q,
                           values_of(np.diag(moments))))
        mass, com, quat, values = inertia.combine(*bodies)
        total = sum(b[0] for b in bodies)
        g = sum(b[0] * np.array(b[1]) for b in bodies) / total
        about_g = np.zeros((3, 3))
        for m, c, q, v in bodies:
            r = batch_transforms.matrix_from_quat(q)
            d = np.array(c) - g
            about_g += r @ tensor_of(v) @ r.T + m * (d @ d * np.eye(3) - np.outer(d, d))
        r1 = batch_transforms.matrix_from_quat(bodies[0][2])
        assert mass == pytest.approx(total)
        np.testing.assert_allclose(com, g, atol=1e-12)
        assert quat == bodies[0][2]
        np.testing.assert_allclose(r1 @ tensor_of(values) @ r1.T, about_g, atol=1e-12)


def test_combining_massless_bodies_gives_no_nan():
    zero = (0.0, (1.0, 2.0, 3.0), transforms.IDENTITY_QUAT, (0.0,) * 6)
    mass, com, _, values = inertia.combine(zero, (0.0, (5.0, 5.0, 5.0),
                                                  transforms.IDENTITY_QUAT, (0.0,) * 6))
    assert mass == 0.0 and com == (1.0, 2.0, 3.0) and values == pytest.approx((0.0,) * 6)


def test_the_pure_python_eigensolver_agrees_with_lapack():
    """
    Jacobi's method (no numpy at run time) against LAPACK's eigh on hard tensors.

    Random rotations of principal moments spanning twelve decades, repeated moments, one
    zero or negative moment and the triangle-inequality boundary: eigenvalues to 1e-13 of the
    largest (principal_moments' closed form, which hands near-boundary tensors to Jacobi:
    1e-12, as it can lose ~1e-13 where moments nearly coincide), eigenvectors orthonormal
    and reproducing the tensor.
    """
    rng = np.random.default_rng(20261123)
    cases = []
    for _ in range(400):
        kind = rng.integers(5)
        if kind == 0:
            moments = 10.0 ** rng.uniform(-12, 0, size=3)
        elif kind == 1:
            moments = np.repeat(rng.uniform(0.1, 1.0), 3) + [0.0, 0.0, rng.uniform(0, 1e-9)]
        elif kind == 2:
            moments = np.array([0.0, rng.uniform(0.1, 1.0), rng.uniform(0.1, 1.0)])
        elif kind == 3:
            moments = np.array([-rng.uniform(0, 1e-3), 1.0, 2.0])
        else:
            a, b = rng.uniform(0.1, 1.0, size=2)
            moments = np.array([a, b, a + b])  # on the triangle boundary
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        m = q @ np.diag(moments) @ q.T * 10.0 ** rng.uniform(-6, 6)
        cases.append((m[0, 0], m[0, 1], m[0, 2], m[1, 1], m[1, 2], m[2, 2]))
    for values in cases:
        m = np.array([[values[0], values[1], values[2]], [values[1], values[3], values[4]],
                      [values[2], values[4], values[5]]])
        scale = np.abs(m).max()
        expected = np.linalg.eigvalsh(m)
        np.testing.assert_allclose(inertia.principal_moments(values), expected, rtol=0,
                                   atol=1e-12 * scale)
        w, vectors = inertia._eigh3(values)
        np.testing.assert_allclose(w, expected, rtol=0, atol=1e-13 * scale)
        v = np.array(vectors).T
        np.testing.assert_allclose(v.T @ v, np.eye(3), atol=1e-14)
        np.testing.assert_allclose(v @ np.diag(w) @ v.T, m, rtol=0, atol=1e-13 * scale)
        fixed = inertia.nearest_physical(values)
        assert inertia.is_physical(fixed)
