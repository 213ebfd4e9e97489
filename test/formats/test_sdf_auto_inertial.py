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
Tests of ``<inertial auto="true">`` (:mod:`sdf_tools.formats.sdf.auto_inertial`).

The goldens are the documented formulas, written out here: the closed forms gz-math uses
(``MassMatrix3::SetFromBox``, ``SetFromCylinderZ``, ``SetFromSphere``, ``SetFromConeZ``,
``Capsule::MassMatrix``, ``Ellipsoid::MassMatrix``), the parallel axis theorem as
``Inertial::operator+`` adds collisions, and libsdformat 14's rules (``Link::
ResolveAutoInertials``: densities, the default 1000 kg/m^3, a ``<mass>`` that scales).
The two compound cases are libsdformat's own ``DOMLink`` tests, with their numbers.
libsdformat 12.3 (the oracle) predates auto inertials: it checks that what the writer
writes below SDFormat 1.11 loads.
"""

import math

from lxml import etree
import numpy as np
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import Severity
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.reader import parse_sdf_document
from sdf_tools.formats.sdf.writer import write_sdf
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.records import replace
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ResourcePath
from test_sdf_reader import oracle_reads
from xml_compare import compare

PI = math.pi


def model(inertial, *collisions, version='1.11'):
    """Return a model of one link ``l``: ``inertial`` (line 3), then each collision."""
    parts = ''.join(f'<collision name="c{i}">{c}</collision>\n' for i, c in enumerate(collisions))
    return (f'<sdf version="{version}">\n<model name="m"><link name="l">\n{inertial}\n{parts}'
            '</link></model>\n</sdf>\n')


def collision(shape, pose='', density=None):
    """Return a collision's content: ``<pose>``, ``<density>`` and ``<geometry>``."""
    return (f'<pose>{pose}</pose>' if pose else '') + (
        '' if density is None else f'<density>{density}</density>') + \
        f'<geometry>{shape}</geometry>'


def inertial_of(text, **kwargs):
    """Return the link's inertial as (mass, com, 3x3 tensor) and the document's warnings."""
    document = parse_sdf_document(text, 'r.sdf', **kwargs)
    inertial = document.robot.link('l').inertial
    return (inertial.mass, inertial.origin.xyz, np.array(inertial.inertia),
            document.warnings)


def assert_inertial(found, mass, com, diagonal, off=(0.0, 0.0, 0.0)):
    m, c, tensor, _ = found
    assert m == pytest.approx(mass, rel=1e-14)
    np.testing.assert_allclose(c, com, atol=1e-15)
    (ixy, ixz, iyz) = off
    expected = np.array([[diagonal[0], ixy, ixz], [ixy, diagonal[1], iyz],
                         [ixz, iyz, diagonal[2]]])
    np.testing.assert_allclose(tensor, expected, rtol=1e-13, atol=1e-15)


# --- each shape: gz-math's closed forms -------------------------------------------------------

@pytest.mark.parametrize('shape, mass, diagonal, com', [
    # box 1 x 2 x 3: m = rho x y z; I_xx = m (y^2 + z^2) / 12, cyclically
    ('<box><size>1 2 3</size></box>', 6 * 2.0, (12 / 12 * 13, 12 / 12 * 10, 12 / 12 * 5),
     0.0),
    # cylinder r 0.5, l 2: m = rho pi r^2 l; I_xx = I_yy = m (3 r^2 + l^2) / 12, I_zz = m r^2/2
    ('<cylinder><radius>0.5</radius><length>2</length></cylinder>', 2 * PI * 0.25 * 2,
     (PI * (0.75 + 4) / 12, PI * (0.75 + 4) / 12, PI * 0.25 / 2), 0.0),
    # sphere r 0.5: m = rho 4/3 pi r^3; I = 2/5 m r^2
    ('<sphere><radius>0.5</radius></sphere>', 2 * 4 / 3 * PI / 8,
     (0.4 * PI / 3 * 0.25,) * 3, 0.0),
    # ellipsoid a, b, c = 1, 2, 3: m = rho 4/3 pi a b c; I_xx = m (b^2 + c^2) / 5, cyclically
    ('<ellipsoid><radii>1 2 3</radii></ellipsoid>', 2 * 4 / 3 * PI * 6,
     (16 * PI / 5 * 13, 16 * PI / 5 * 10, 16 * PI / 5 * 5), 0.0),
    # cone r 0.5, l 2: m = rho pi r^2 l / 3, centre of mass l / 4 above the base (z = -l/4),
    # I_xx = I_yy = 3 m (4 r^2 + l^2) / 80, I_zz = 3 m r^2 / 10
    ('<cone><radius>0.5</radius><length>2</length></cone>', 2 * PI * 0.25 * 2 / 3,
     (3 * PI / 3 * (1 + 4) / 80, 3 * PI / 3 * (1 + 4) / 80, 3 * PI / 3 * 0.25 / 10), -0.5),
])
def test_each_shape_is_weighed_by_its_closed_form(shape, mass, diagonal, com):
    found = inertial_of(model('<inertial auto="true"/>', collision(shape, density=2)))
    assert_inertial(found, mass, (0.0, 0.0, com), diagonal)
    assert found[3] == ()   # as libsdformat: silent


def test_a_capsule_is_a_cylinder_and_two_hemispheres():
    # gz-math's Capsule::MassMatrix: each hemisphere (mass h = 2/3 pi r^3 rho) has
    # 83/320 h r^2 about its own centroid, 3r/8 from its face, placed l/2 + 3r/8 away.
    r, length, rho = 0.5, 2.0, 3.0
    mc, h = rho * PI * r * r * length, rho * 2 / 3 * PI * r ** 3
    d = length / 2 + 3 * r / 8
    side = mc * (3 * r * r + length ** 2) / 12 + 2 * (83 / 320 * h * r * r + h * d * d)
    found = inertial_of(model('<inertial auto="true"/>', collision(
        f'<capsule><radius>{r}</radius><length>{length}</length></capsule>', density=rho)))
    assert_inertial(found, mc + 2 * h, (0.0, 0.0, 0.0),
                    (side, side, mc * r * r / 2 + 2 * 0.4 * h * r * r))


def test_a_collision_is_weighed_at_its_pose_in_the_link():
    # A 1 x 2 x 3 box (rho 1, m 6) turned 90 degrees about z at (1, 0, 0), and one relative
    # to a frame 2 m up: in the link frame the first swaps I_xx and I_yy; about the combined
    # centre (0.5, 0, 1) each is 0.5 m along x and 1 m along z away (parallel axis theorem).
    text = model('<inertial auto="true"/>',
                 collision('<box><size>1 2 3</size></box>', '1 0 0 0 0 1.5707963267948966', 1),
                 '<pose relative_to="f">0 0 0 0 0 0</pose><density>1</density><geometry>'
                 '<box><size>1 2 3</size></box></geometry>')
    text = text.replace('</link>', '</link><frame name="f" attached_to="l"><pose>0 0 2 0 0 0'
                        '</pose></frame>')
    box = (6 / 12 * 13, 6 / 12 * 10, 6 / 12 * 5)   # m (y^2 + z^2) / 12, cyclically
    # Each 6 kg at d = (+-0.5, 0, -+1): m (dy^2 + dz^2), m (dx^2 + dz^2), m (dx^2 + dy^2);
    # the product I_xz gains -m dx dz = 3 from each.
    diagonal = (box[1] + box[0] + 2 * 6 * 1.0, box[0] + box[1] + 2 * 6 * (0.25 + 1.0),
                2 * box[2] + 2 * 6 * 0.25)
    assert_inertial(inertial_of(text), 12.0, (0.5, 0.0, 1.0), diagonal, (0.0, 6.0, 0.0))


# --- libsdformat's rules ----------------------------------------------------------------------

def test_collisions_add_up_as_libsdformat_adds_them():
    # libsdformat's DOMLink.ResolveAutoInertialsWithMultipleCollisions: a unit box of density
    # 2 at z = -0.5 and a cylinder (r 0.5, l 1) of density 4 at z = 0.5; mass 2 + pi, and
    # diagonal moments (2.013513, 2.013513, 0.72603) as it checks them.
    text = model('<inertial auto="true"/>',
                 collision('<box><size>1 1 1</size></box>', '0 0 -0.5 0 0 0', 2.0),
                 collision('<cylinder><radius>0.5</radius><length>1</length></cylinder>',
                           '0 0 0.5 0 0 0', 4))
    m1, m2 = 2.0, PI
    zc = (m1 * -0.5 + m2 * 0.5) / (m1 + m2)
    side = 1 / 3 + m1 * (-0.5 - zc) ** 2 + m2 * (3 * 0.25 + 1) / 12 + m2 * (0.5 - zc) ** 2
    found = inertial_of(text)
    assert_inertial(found, 2 + PI, (0.0, 0.0, zc), (side, side, 1 / 3 + m2 * 0.25 / 2))
    np.testing.assert_allclose(np.diag(found[2]), (2.013513, 2.013513, 0.72603), atol=1e-5)


def test_a_given_mass_scales_the_sum_and_pose_and_inertia_are_ignored():
    # libsdformat's DOMLink.ResolveAutoInertialsWithMassAndMultipleCollisions: a unit cube of
    # density 4 at z = 0.5 and a 1 x 1 x 2 box of density 1 at z = -1 (6 kg about z = 0:
    # I_xx = 2/3 + 1 + 5/6 + 2 = 4.5, I_zz = 1) scaled to <mass> 12: (9, 9, 2).
    text = model('<inertial auto="true"><mass>12</mass><pose>1 1 1 2 2 2</pose><inertia>'
                 '<ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial>',
                 collision('<box><size>1 1 1</size></box>', '0 0 0.5 0 0 0', 4.0),
                 collision('<box><size>1 1 2</size></box>', '0 0 -1 0 0 0', 1.0))
    found = inertial_of(text)
    assert_inertial(found, 12.0, (0.0, 0.0, 0.0), (9.0, 9.0, 2.0))
    assert [(w.code, w.message) for w in found[3]] == [
        (Code.NO_EFFECT, f'<inertial auto="true"> ignores its <{tag}>: Gazebo computes the '
         'inertial from the collisions') for tag in ('pose', 'inertia')]


def test_densities_come_from_the_collision_the_inertial_then_1000():
    box = '<box><size>1 1 1</size></box>'
    # The inertial's <density> where a collision has none; the collision's own first.
    text = model('<inertial auto="true"><density>5</density></inertial>',
                 collision(box, '0 0 0 0 0 0', 3), collision(box))
    assert inertial_of(text)[0] == 3 + 5
    # Neither, and no <mass>: water's 1000 kg/m^3, with libsdformat's warning.
    text = model('<inertial auto="true"/>', collision(box, density=3), collision(box))
    mass, _, _, (warning,) = inertial_of(text)
    assert mass == 3 + 1000
    assert (warning.code, warning.location.line, warning.message) == (
        Code.AUTO_INERTIAL, 3, "<inertial auto=\"true\">: collision 'c1' and the <inertial> "
        'give no <density>; 1000 kg/m^3 is used, as libsdformat does')
    # With a <mass>, the densities only weigh the collisions against each other: silent.
    assert inertial_of(text.replace('"true"/>', '"true"><mass>2</mass></inertial>'))[3] == ()


def test_what_libsdformat_14_refuses_is_read_as_written_and_refused_by_check():
    # No collision, a plane, a non-positive size or density: libsdformat 14's loader
    # refuses the link; 13 and older ignore auto and read the inertial as written.
    plane = collision('<plane><normal>0 0 1</normal><size>1 1</size></plane>')
    cases = [(model('<inertial auto="true"><mass>3</mass></inertial>'),
              '<inertial auto="true"> has no <collision> to compute the inertial from'),
             (model('<inertial auto="true"><mass>3</mass></inertial>', plane),
              "<inertial auto=\"true\">: collision 'c0' has a <plane>, which libsdformat does "
              'not weigh'),
             (model('<inertial auto="true"><mass>3</mass></inertial>',
                    collision('<sphere><radius>1</radius></sphere>', density=-1)),
              "<inertial auto=\"true\">: collision 'c0' has a size or <density> (-1) that is "
              'not positive')]
    for text, said in cases:
        mass, com, tensor, (warning,) = inertial_of(text)
        assert (mass, com) == (3.0, (0.0, 0.0, 0.0)) and (tensor == np.eye(3)).all()
        assert warning.code == Code.LOADER_REFUSES
        assert warning.message == (f'{said}: libsdformat 14 and later refuse the link (Gazebo '
                                   'Harmonic loads nothing); the inertial is read as written')
        assert [d.severity for d in check(load(text=text))] == [Severity.ERROR]


def test_density_without_auto_has_no_effect():
    text = model('<inertial><mass>2</mass><density>5</density></inertial>',
                 collision('<box><size>1 1 1</size></box>'))
    mass, _, _, (warning,) = inertial_of(text)
    assert mass == 2.0 and (warning.code, warning.message) == (
        Code.NO_EFFECT, '<inertial><density> has no effect without auto="true"; Gazebo '
        'ignores it')


def test_a_file_before_1_11_is_read_as_libsdformat_14_reads_it():
    # libsdformat 14 converts a 1.9 file to 1.11 and computes it (13 and older do not).
    text = model('<inertial auto="true"/>', collision('<sphere><radius>0.5</radius></sphere>',
                                                      density=2), version='1.9')
    assert inertial_of(text)[0] == pytest.approx(2 * 4 / 3 * PI / 8, rel=1e-15)


# --- meshes ---------------------------------------------------------------------------------

def stl_box(path, size, closed=True):
    """Write an STL box (trimesh), or the same box without its top (not closed)."""
    trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
    mesh = trimesh.creation.box(extents=size)
    if not closed:
        mesh.update_faces(mesh.face_normals[:, 2] < 0.5)
    mesh.export(str(path))


def test_a_mesh_is_weighed_as_the_solid_it_bounds(tmp_path):
    stl_box(tmp_path / 'box.stl', (1.0, 2.0, 3.0))
    text = model('<inertial auto="true"/>', collision(
        '<mesh><uri>box.stl</uri><scale>2 1 1</scale></mesh>', '0 0 1 0 0 0', 0.5))
    path = tmp_path / 'm.sdf'
    path.write_text(text)
    found = inertial_of(text, path=str(path))
    m = 0.5 * 2 * 2 * 3   # the box scaled to 2 x 2 x 3
    assert_inertial(found, m, (0.0, 0.0, 1.0), (m / 12 * 13, m / 12 * 13, m / 12 * 8))
    assert found[3] == ()
    # The mesh is an input of the run (no output may replace it).
    files = parse_sdf_document(text, 'r.sdf', path=str(path)).files
    assert files == (str(tmp_path / 'box.stl'),)
    # model:// found as includes are, on the resource path.
    (tmp_path / 'models' / 'b' / 'meshes').mkdir(parents=True)
    (tmp_path / 'box.stl').rename(tmp_path / 'models' / 'b' / 'meshes' / 'box.stl')
    finder = ModelFinder(ResourcePath(((str(tmp_path / 'models'), '--resource-path'),)))
    text = text.replace('<uri>box.stl', '<uri>model://b/meshes/box.stl')
    assert inertial_of(text, includes=finder)[:2] == found[:2]


def test_a_mesh_that_cannot_be_weighed_counts_as_libsdformat_counts_it(tmp_path):
    # Without a calculator libsdformat counts a mesh as 1 kg with unit moments at its origin.
    text = model('<inertial auto="true"/>', collision('<mesh><uri>gone.stl</uri></mesh>',
                                                      '0 0 1 0 0 0', 1))
    path = tmp_path / 'm.sdf'
    path.write_text(text)
    mass, com, tensor, (warning,) = inertial_of(text, path=str(path))
    assert (mass, com) == (1.0, (0.0, 0.0, 1.0)) and (tensor == np.eye(3)).all()
    assert warning.code == Code.AUTO_INERTIAL and warning.message == (
        f"<inertial auto=\"true\">: collision 'c0': the mesh gone.stl cannot be weighed (no "
        f"such file: {tmp_path / 'gone.stl'}); it counts as libsdformat counts a mesh "
        "without a calculator: 1 kg, unit moments at the collision's origin")


def test_an_open_mesh_is_weighed_as_its_convex_hull(tmp_path):
    stl_box(tmp_path / 'open.stl', (1.0, 1.0, 1.0), closed=False)
    text = model('<inertial auto="true"/>', collision('<mesh><uri>open.stl</uri></mesh>',
                                                      density=6))
    path = tmp_path / 'm.sdf'
    path.write_text(text)
    found = inertial_of(text, path=str(path))
    assert_inertial(found, 6.0, (0.0, 0.0, 0.0), (1.0, 1.0, 1.0))   # m (1 + 1) / 12
    (warning,) = found[3]
    assert warning.message.endswith('open.stl is not closed: its convex hull stands for it '
                                    '(Gazebo Sim weighs its open surface as it is)')


# --- writing back -----------------------------------------------------------------------------

def test_written_as_given_to_1_11_and_as_computed_values_below(tmp_path):
    given = '<inertial auto="true"><mass>12</mass><density>3</density></inertial>'
    text = model(given, collision('<box><size>1 1 2</size></box>', '0 0 -1 0 0 0', 1.0))
    robot = parse_sdf(text)
    written = etree.fromstring(write_sdf(robot, version='1.11').encode())
    assert compare(given, written.find('model/link/inertial')) == []
    again = parse_sdf(write_sdf(robot, version='1.11')).link('l').inertial
    assert replace(again, auto=None) == replace(robot.link('l').inertial, auto=None)
    # Below 1.11: the values computed (12 kg, I_xx = m (1 + 4) / 12 at z = -1), which
    # libsdformat 12.3 loads and which read back alike.
    older = write_sdf(robot, version='1.9')
    inertial = parse_sdf(older).link('l').inertial
    assert inertial.auto is None and (inertial.mass, inertial.origin.xyz) == (
        12.0, (0.0, 0.0, -1.0))
    assert (inertial.ixx, inertial.iyy, inertial.izz) == pytest.approx((5.0, 5.0, 2.0))
    oracle_reads(older, tmp_path)
