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

import math

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


@pytest.mark.parametrize('scale', [1e-300, 1e-200, 1e-150, 1.0, 1e150, 1e200, 1e300])
def test_the_eigensolver_works_at_every_scale_like_lapack(scale):
    # Squares of 1e155 overflow and of 1e-170 underflow: the solver scales first (a fuzzed
    # corpus robot with inertia ~1e200 raised OverflowError in the conversion).
    values = tuple(scale * v for v in (2.0, -0.5, 0.25, 3.0, 0.75, 1.0))
    got, vectors = inertia._eigh3(values)
    m = np.array([[values[0], values[1], values[2]], [values[1], values[3], values[4]],
                  [values[2], values[4], values[5]]])
    np.testing.assert_allclose(got, np.linalg.eigvalsh(m), rtol=1e-13, atol=0)
    for w, vector in zip(got, vectors):
        np.testing.assert_allclose(m @ vector, w * np.array(vector), rtol=0,
                                   atol=1e-13 * abs(w))
    assert all(math.isfinite(x) for x in inertia.nearest_physical(values, 0.0))
    # Beyond the largest float, infinity, as LAPACK gives.
    assert inertia._eigh3((1.7e308, 1e308, 0.0, 1.7e308, 0.0, 1.7e308))[0][2] == math.inf


def test_is_physical_follows_the_triangle_inequality_and_signs():
    assert inertia.is_physical((1, 0, 0, 1, 0, 1))
    assert inertia.is_physical((0, 0, 0, 1, 0, 1))  # thin rod: 0 + 1 = 1
    assert inertia.is_physical((0, 0, 0, 0, 0, 0))  # a point mass (libsdformat accepts it)
    assert not inertia.is_physical((1e-9, 0, 0, 2, 0, 1))  # 1e-9 + 1 < 2
    assert not inertia.is_physical((-1e-3, 0, 0, 1, 0, 1))
    assert inertia.is_degenerate(1.0, (0, 0, 0, 0, 0, 0))
    assert not inertia.is_degenerate(0.0, (0, 0, 0, 0, 0, 0))
    assert not inertia.is_degenerate(1.0, (1, 0, 0, 1, 0, 1))


def test_clearly_physical_never_vouches_for_a_tensor_that_is_not():
    # Random tensors at every scale, near the boundary too (flat plates a + b = c, moments
    # near 0 or negative) and with raw random entries: whenever the cheap test says yes, the
    # eigen-solver's test agrees and the tensor is not degenerate.
    rng = np.random.default_rng(5)
    vouched = 0
    for i in range(20000):
        scale = 10.0 ** rng.uniform(-12, 6)
        if i % 5 == 0:
            values = tuple(rng.normal(size=6) * scale)
        else:
            moments = np.sort(rng.uniform(0, 1, 3))
            if i % 5 == 1:
                moments[2] = moments[0] + moments[1] + rng.normal() * 1e-9
            elif i % 5 == 2:
                moments[0] = rng.normal() * 1e-9
            rotation = random_rotation(rng) if i % 2 else np.eye(3) + rng.normal(
                size=(3, 3)) * 1e-3
            values = values_of(rotation @ np.diag(moments * scale) @ rotation.T)
        if inertia.clearly_physical(values):
            vouched += 1
            assert inertia.is_physical(values), values
            assert not inertia.is_degenerate(1.0, values), values
    assert vouched > 3000  # and it does vouch for ordinary tensors


@pytest.mark.parametrize('values', [
    (1.0, 0.0, 0.0, 1.0, 0.0, 2.0),  # a flat plate: valid, but on the boundary
    (0.0, 0.0, 0.0, 1.0, 0.0, 1.0),  # a thin rod
    (1.0, 0.6, 0.0, 1.0, 0.0, 1.0),  # moments 0.4, 1, 1.6: no triangle
    (math.nan, 0.0, 0.0, 1.0, 0.0, 1.0), (math.inf, 0.0, 0.0, math.inf, 0.0, math.inf),
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.0), (-1.0, 0.0, 0.0, -1.0, 0.0, -1.0)])
def test_clearly_physical_leaves_boundary_and_broken_tensors_to_the_eigen_solver(values):
    assert not inertia.clearly_physical(values)


def test_clearly_physical_vouches_for_an_ordinary_link():
    assert inertia.clearly_physical((0.03, -1e-4, 2e-5, 0.025, 3e-4, 0.012))


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
    # A tensor 1e313 times below the floor (its scaled floor would overflow) is the floor.
    assert inertia.nearest_physical((1e-320, 0, 0, -1e-320, 0, 0), floor=1e-7) == \
        (1e-7, 0, 0, 1e-7, 0, 1e-7)
    # Moments within rounding of the largest float: computed in scaled units, finite.
    edge = inertia.nearest_physical((1e-5, 0, 0, 4e-4, -1.7976931348623157e308, 4e-4))
    assert all(math.isfinite(v) for v in edge)
    assert inertia.is_physical([v / 1e308 for v in edge])  # its minors overflow unscaled


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


# --- solids of uniform density (--auto-inertials) -------------------------------------------
# Textbook closed forms (e.g. Meriam & Kraige, Engineering Mechanics: Dynamics, appendix D;
# the hemisphere's 2/5 m r^2 and 3r/8 centroid are in the same table), written out here with
# numbers, then checked against trimesh's mass properties of fine tessellations.

def test_primitives_match_the_textbook_closed_forms():
    mass, com, quat, values = inertia.box((1.0, 2.0, 3.0), 1000.0)
    assert (mass, com, quat) == (6000.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    assert values == pytest.approx((6000 * 13 / 12, 0, 0, 6000 * 10 / 12, 0, 6000 * 5 / 12))
    # cylinder r = 0.1, l = 0.3: m = pi r^2 l rho; I_xx = m (3 r^2 + l^2) / 12; I_zz = m r^2 / 2
    mass, _, _, values = inertia.cylinder(0.1, 0.3, 2.0)
    m = np.pi * 0.01 * 0.3 * 2.0
    assert mass == pytest.approx(m, rel=1e-15)
    assert values == pytest.approx((m * 0.12 / 12, 0, 0, m * 0.12 / 12, 0, m * 0.005))
    # sphere: m = 4/3 pi r^3 rho, I = 2/5 m r^2
    mass, _, _, values = inertia.sphere(0.5, 3.0)
    m = 4 / 3 * np.pi * 0.125 * 3.0
    assert mass == pytest.approx(m, rel=1e-15)
    assert values == pytest.approx((0.1 * m, 0, 0, 0.1 * m, 0, 0.1 * m))
    # capsule r, l: a cylinder and two hemispheres of mass h = 2/3 pi r^3 rho
    r, length, rho = 0.1, 0.3, 1.0
    mc, h = np.pi * r * r * length * rho, 2 / 3 * np.pi * r ** 3 * rho
    side = mc * (3 * r * r + length ** 2) / 12 + 2 * h * (2 * r * r / 5 + length ** 2 / 4
                                                          + 3 * length * r / 8)
    mass, com, _, values = inertia.capsule(r, length, rho)
    assert mass == pytest.approx(mc + 2 * h, rel=1e-15) and com == (0.0, 0.0, 0.0)
    assert values == pytest.approx((side, 0, 0, side, 0, mc * r * r / 2 + 2 * h * 0.4 * r * r))


def test_ellipsoid_cone_and_a_mass_follow_their_closed_forms():
    # ellipsoid a, b, c: m = 4/3 pi a b c rho, I_xx = m (b^2 + c^2) / 5 (cyclically)
    mass, com, _, values = inertia.ellipsoid((1.0, 2.0, 3.0), 2.0)
    m = 4 / 3 * np.pi * 6 * 2.0
    assert mass == pytest.approx(m, rel=1e-15) and com == (0.0, 0.0, 0.0)
    assert values == pytest.approx((m * 13 / 5, 0, 0, m * 10 / 5, 0, m * 5 / 5))
    # cone r, l about z, centred: m = pi r^2 l rho / 3, centre of mass at z = -l / 4,
    # I_xx = I_yy = 3 m (4 r^2 + l^2) / 80, I_zz = 3 m r^2 / 10
    mass, com, _, values = inertia.cone(0.5, 2.0, 3.0)
    m = np.pi * 0.25 * 2.0
    assert mass == pytest.approx(m, rel=1e-15) and com == (0.0, 0.0, -0.5)
    assert values == pytest.approx((3 * m * 5 / 80, 0, 0, 3 * m * 5 / 80, 0, 3 * m * 0.25 / 10))
    # with_mass keeps the centre and scales the tensor by the mass ratio
    body = inertia.placed(inertia.box((1.0, 2.0, 3.0), 1.0), (1.0, 0.0, 0.0),
                          (0.0, 0.0, 0.0, 1.0))
    assert inertia.with_mass(body, 12.0) == (12.0, (1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
                                             tuple(2.0 * v for v in body[3]))


def test_primitives_agree_with_trimesh_tessellations():
    trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
    cases = [(inertia.cylinder(0.1, 0.3, 1.0),
              trimesh.creation.cylinder(radius=0.1, height=0.3, sections=512)),
             (inertia.sphere(0.1, 1.0), trimesh.creation.icosphere(6, radius=0.1)),
             (inertia.capsule(0.1, 0.3, 1.0),
              trimesh.creation.capsule(height=0.3, radius=0.1, count=[256, 256])),
             (inertia.ellipsoid((0.1, 0.2, 0.3), 1.0), trimesh.creation.icosphere(6).apply_scale(
                 (0.1, 0.2, 0.3))),
             # trimesh's cone stands on z = 0; SDFormat's is centred (its base at -l/2)
             (inertia.cone(0.1, 0.3, 1.0), trimesh.creation.cone(0.1, 0.3, sections=512)
              .apply_translation((0.0, 0.0, -0.15)))]
    for (mass, com, _, values), mesh in cases:
        mesh.density = 1.0
        assert mass == pytest.approx(mesh.mass, rel=2e-4)
        assert np.allclose(com, mesh.center_mass, atol=1e-12)
        assert np.allclose(tensor_of(values), mesh.moment_inertia, rtol=5e-4, atol=1e-12)


def test_solid_mesh_equals_trimesh_mass_properties():
    trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
    rng = np.random.default_rng(3)
    meshes = [trimesh.creation.box(extents=(0.1, 0.2, 0.7)),
              trimesh.creation.annulus(r_min=0.05, r_max=0.2, height=0.1),
              trimesh.convex.convex_hull(rng.normal(size=(60, 3)))]
    for mesh in meshes:  # far from the origin, turned: no symmetry helps
        t = np.eye(4)
        t[:3, :3] = random_rotation(rng)
        if np.linalg.det(t[:3, :3]) < 0:  # a rotation, not a reflection
            t[:3, 0] *= -1
        t[:3, 3] = rng.uniform(-50, 50, 3)
        mesh.apply_transform(t)
        mesh.density = 1250.0
        mass, com, quat, values = inertia.solid_mesh(mesh.vertices, mesh.faces, 1250.0)
        assert quat == (0.0, 0.0, 0.0, 1.0)
        assert mass == pytest.approx(mesh.mass, rel=1e-10)
        assert np.allclose(com, mesh.center_mass, rtol=0, atol=1e-10)
        assert np.allclose(tensor_of(values), mesh.moment_inertia, rtol=1e-8,
                           atol=1e-10 * np.abs(mesh.moment_inertia).max())
        # The same solid wound inside out.
        inside_out = inertia.solid_mesh(mesh.vertices, mesh.faces[:, ::-1], 1250.0)
        assert inside_out[0] == pytest.approx(mass, rel=1e-12)
        assert np.allclose(inside_out[3], values, rtol=1e-10)
    # A flat mesh encloses nothing.
    flat = inertia.solid_mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 2), (0, 2, 1)], 1.0)
    assert flat[0] == 0.0 and flat[3] == (0.0,) * 6


def test_placed_and_welded_solids_obey_the_parallel_axis_theorem():
    # Two 1 x 1 x 1 boxes side by side along x are one 2 x 1 x 1 box centred between them.
    q = transforms.quat_from_rpy(0.3, -0.2, 1.1)
    halves = [inertia.placed(inertia.box((1.0, 1.0, 1.0), 5.0), transforms.quat_rotate(
        q, (dx, 0.0, 0.0)), q) for dx in (-0.5, 0.5)]
    mass, com, quat, values = inertia.weld(halves)
    whole = inertia.placed(inertia.box((2.0, 1.0, 1.0), 5.0), (0.0, 0.0, 0.0), q)
    expected = inertia.weld([whole])
    assert mass == pytest.approx(10.0) and np.allclose(com, 0.0, atol=1e-15)
    assert quat == (0.0, 0.0, 0.0, 1.0)  # welded in link axes
    assert np.allclose(values, expected[3], rtol=1e-12, atol=1e-12)
    r = batch_transforms.matrix_from_quat(q)
    assert np.allclose(tensor_of(values), r @ np.diag((10 * 2 / 12, 10 * 5 / 12, 10 * 5 / 12))
                       @ r.T, atol=1e-12)
    # A sphere off the origin: I about the welded centre is its own; no bodies: no mass.
    moved = inertia.weld([inertia.placed(inertia.sphere(1.0, 1.0), (3.0, 0.0, 0.0), q)])
    assert np.allclose(moved[1], (3.0, 0.0, 0.0)) and np.allclose(
        moved[3], inertia.sphere(1.0, 1.0)[3], atol=1e-12)
    assert inertia.weld([])[0] == 0.0
