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
Tests of the checks every reader shares (:mod:`sdf_tools.validate`).

Duplicate names, loops, roots, dangling joints, mimic joints, zero axes, name clashes and
inertias, through the readers (each diagnostic with its line, entity and code) and through
:func:`~sdf_tools.validate.check_robot` on models built by hand.
"""

import math
import re

from diagnostics import INERTIA
from diagnostics import mimic_urdf
from diagnostics import only_warning
from diagnostics import sdf
from diagnostics import single_error
from diagnostics import urdf
from hypothesis import assume
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st
import numpy as np
import pytest
from scipy.spatial.transform import Rotation
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.model import Frame
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Robot
from sdf_tools.validate import check_inertial
from sdf_tools.validate import check_robot


def check(links, joints=(), frames=(), **options):
    """Return the (code, entity) of each error and warning ``check_robot`` finds."""
    robot = Robot('r', tuple(Link(name) for name in links), tuple(joints), tuple(frames))
    reporter = Reporter()
    check_robot(robot, reporter, **options)
    return ([(d.code, d.entity) for d in reporter.errors],
            [(d.code, d.entity) for d in reporter.warnings])


def joint(name, parent, child, kind=JointType.REVOLUTE, **fields):
    return Joint(name, kind, parent, child, **fields)


# --- names and structure --------------------------------------------------------------------

def test_duplicate_link_and_joint_names():
    doc = urdf('<link name="a"/>', '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "link name 'a' is used more than once", 3,
                 "link 'a'", 'duplicate-name')
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="c"/></joint>')
    single_error(DescriptionError, parse_urdf, doc, "joint name 'j' is used more than once", 6,
                 "joint 'j'", 'duplicate-name')


def test_kinematic_loops():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>',
               '<joint name="bc" type="fixed"><parent link="b"/><child link="c"/></joint>',
               '<joint name="cb" type="fixed"><parent link="c"/><child link="b"/></joint>')
    error = single_error(DescriptionError, parse_urdf, doc, "link 'b' is already the child of "
                         "joint 'ab'", 7, "joint 'cb'", 'several-parents')
    doc = urdf('<link name="a"/>', '<link name="b"/>',
               '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>',
               '<joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>')
    error = single_error(DescriptionError, parse_urdf, doc, 'no root link: every link is the '
                         r'child of a joint \(the joints form a loop\)', 1, "robot 'r'", 'no-root')
    codes = [(d.code, d.location.line) for d in error.diagnostics]
    assert codes == [('no-root', 1), ('cycle', 5)]
    assert "the joints form a kinematic loop through links 'a' -> 'b' -> 'a'" in str(error)
    doc = sdf('<link name="a"/>', '<link name="b"/>',
              '<joint name="ab" type="fixed"><parent>a</parent><child>b</child></joint>',
              '<joint name="ba" type="fixed"><parent>b</parent><child>a</child></joint>')
    single_error(DescriptionError, parse_sdf, doc, 'the joints form a kinematic loop through '
                 "links 'a' -> 'b' -> 'a'", 6, "joint 'ba'", 'cycle')
    doc = urdf('<link name="a"/>',
               '<joint name="aa" type="fixed"><parent link="a"/><child link="a"/></joint>')
    single_error(DescriptionError, parse_urdf, doc, "parent and child are the same link 'a'",
                 3, "joint 'aa'", 'cycle')


def test_several_roots():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>')
    single_error(DescriptionError, parse_urdf, doc, r"2 root links \('a', 'c'\): a description "
                 'needs exactly one link that is not the child of a joint', 1, "robot 'r'",
                 'several-roots')
    # SDFormat models may have several root links.
    robot = parse_sdf(sdf('<link name="a"/>', '<link name="b"/>'))
    assert [link.name for link in robot.links] == ['a', 'b']


def test_many_roots_are_counted_and_the_first_six_named():
    robot = Robot('r', tuple(Link(f'l{i}') for i in range(8)))
    reporter = Reporter()
    check_robot(robot, reporter)
    [error] = reporter.errors
    assert error.message == ("8 root links ('l0', 'l1', 'l2', 'l3', 'l4', 'l5', ...): a "
                             'description needs exactly one link that is not the child of a '
                             'joint')
    assert check([]) == ([], [])  # no link, no root to ask for


def test_joints_naming_missing_links():
    doc = urdf('<link name="a"/>', '<joint name="j" type="fixed">', '<parent link="a"/>',
               '<child link="ghost"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, "child link 'ghost' is not defined", 3,
                 "joint 'j'", 'missing-link')
    doc = urdf('<link name="b"/>', '<joint name="j" type="fixed">', '<parent link="ghost"/>',
               '<child link="b"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, "parent link 'ghost' is not defined", 3,
                 "joint 'j'", 'missing-link')


def test_the_options_separate_urdf_from_sdformat():
    # world -> a, a -> c, b -> c: a joint from world and a second parent joint for c.
    joints = (joint('w', 'world', 'a'), joint('j1', 'a', 'c'), joint('j2', 'b', 'c'))
    assert check('abc', joints) == ([('missing-link', "joint 'w'"),
                                     ('several-parents', "joint 'j2'")], [])
    sdformat = {'single_root': False, 'implicit_world': True, 'allow_loops': True}
    assert check('abc', joints, **sdformat) == ([], [('kinematic-loop', "joint 'j2'")])
    assert check('ab', (), **sdformat) == ([], [])
    assert check('ab')[0] == [('several-roots', "robot 'r'")]


def test_frames_must_be_attached_to_links():
    frames = (Frame('f', 'a'), Frame('g', 'ghost', location=SourceLocation('m.sdf', 9)))
    robot = Robot('r', (Link('a'),), frames=frames)
    reporter = Reporter()
    check_robot(robot, reporter)
    [error] = reporter.errors
    assert (str(error), error.code) == (
        "m.sdf:9: frame 'g': attached to 'ghost', which is not a link", 'missing-link')


# --- joints ---------------------------------------------------------------------------------

def test_a_joint_named_like_a_link_warns():
    doc = urdf('<link name="a"/>', '<link name="b"/>',
               '<joint name="b" type="continuous"><parent link="a"/><child link="b"/></joint>')
    only_warning(parse_urdf(doc), 'has the same name as a link; SDFormat needs distinct names, '
                 'so conversion to SDFormat renames the joint', 4, 'name-clash')


def test_zero_axes_are_errors_for_the_joints_that_use_them():
    doc = urdf('<link name="a"/>', '<link name="b"/>',
               '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>',
               '<axis xyz="0 0 0"/></joint>')
    single_error(DescriptionError, parse_urdf, doc, '<axis> xyz must not be the zero vector', 4,
                 "joint 'j'", 'zero-axis')
    zero, tiny = (0.0, 0.0, 0.0), (1e-200, 0.0, 0.0)
    for kind in JointType:
        expected = [('zero-axis', "joint 'j'")] if kind.axes else []
        for null in (zero, (0.0, 0.0, 1.1125369292536007e-308)):  # a subnormal is written 0
            assert check('ab', (joint('j', 'a', 'b', kind, axis=null),)) == (expected, []), kind
        assert check('ab', (joint('j', 'a', 'b', kind, axis=tiny),)) == ([], []), kind
    universal = (joint('j', 'a', 'b', JointType.UNIVERSAL, axis2=zero),)
    reporter = Reporter()
    check_robot(Robot('r', (Link('a'), Link('b')), universal), reporter)
    assert [d.message for d in reporter.errors] == ['<axis2> xyz must not be the zero vector']


# --- mimic joints: the readers warn (compile_tree refuses them: the kinematics tests) -------

def test_mimic_of_a_missing_joint_warns():
    robot = parse_urdf(mimic_urdf('<mimic joint="ghost"/>'))
    only_warning(robot, "<mimic> names joint 'ghost', which does not exist", 5, 'missing-joint')
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
              '<parent>a</parent><child>b</child>',
              '<axis><xyz>0 0 1</xyz><mimic joint="ghost"/></axis>', '</joint>',
              version='1.11')
    robot = parse_sdf(doc)
    only_warning(robot, "<mimic> names joint 'ghost', which does not exist", 5, 'missing-joint')


def test_mimic_cycle_warns():
    robot = parse_urdf(mimic_urdf('<mimic joint="j2"/>', '<mimic joint="j1"/>'))
    only_warning(robot, "mimic joints form a loop: 'j1' -> 'j2' -> 'j1'", 5, 'cycle')
    robot = parse_urdf(mimic_urdf('<mimic joint="j1"/>'))
    only_warning(robot, '<mimic> names the joint itself', 5, 'cycle')


# --- inertias -------------------------------------------------------------------------------

@pytest.mark.parametrize('moments, match', [
    ('ixx="-1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"',
     r'<inertia> is not positive semi-definite \(principal moments -1, 1, 1\)'),
    ('ixx="1" ixy="2" ixz="0" iyy="1" iyz="0" izz="1"',
     r'<inertia> is not positive semi-definite \(principal moments -1, 1, 3\)'),
    ('ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="3"',
     r'<inertia> violates the triangle inequality \(principal moments 1, 1, 3\)'),
])
def test_invalid_inertias_warn_with_their_line(moments, match):
    doc = urdf('<link name="a">', f'<inertial><mass value="1"/><inertia {moments}/>'
               '</inertial>', '</link>')
    only_warning(parse_urdf(doc), match, 2, 'bad-inertia')
    pairs = (p.replace('"', '').split('=') for p in moments.split())
    tensor = ''.join(f'<{k}>{v}</{k}>' for k, v in pairs)
    doc = sdf('<link name="a">', f'<inertial><mass>1</mass><inertia>{tensor}</inertia>'
              '</inertial>', '</link>')
    only_warning(parse_sdf(doc), match, 3, 'bad-inertia')


def test_non_finite_inertials_are_errors_for_every_reader():
    # Readers refuse non-finite numbers; a model built otherwise is still checked (numpy's
    # eigvalsh raised LinAlgError on it).
    reporter = Reporter()
    for inertial in (Inertial(math.inf), Inertial(1.0, ixx=math.nan, iyy=1.0, izz=1.0),
                     Inertial(1.0, ixy=-math.inf)):
        check_inertial(Link('a', inertial, location=SourceLocation('m', 7)), reporter)
    assert [(d.code, d.location.line, d.message) for d in reporter.errors] == [
        ('bad-number', 7, '<inertial> mass and inertia must be finite')] * 3
    assert reporter.warnings == []


def test_negative_mass_warns():
    doc = urdf('<link name="a">', f'<inertial><mass value="-2"/>{INERTIA}</inertial>', '</link>')
    only_warning(parse_urdf(doc), r'<mass> is negative \(-2 kg\)', 2, 'negative-mass')


def test_tiny_products_of_inertia_do_not_crash_the_reader():
    doc = urdf('<link name="a">', '<inertial><mass value="1"/><inertia ixx="0" ixy="1e-120" '
               'ixz="0" iyy="0" iyz="0" izz="0"/></inertial>', '</link>')
    robot = parse_urdf(doc)
    assert [w.code for w in robot.warnings] == ['bad-inertia']


@pytest.mark.parametrize('body, inertial', [
    # A point mass; the bodies on the edge of the triangle inequality: a thin rod along x
    # (3 kg, 2 m: Iyy = Izz = m L^2 / 12), a flat plate in the xy plane (12 kg, 3 m along x,
    # 4 m along y: Ixx = m 4^2 / 12, Iyy = m 3^2 / 12, Izz = Ixx + Iyy); a solid box (12 kg,
    # 1 x 2 x 3 m: Ixx = m (2^2 + 3^2) / 12...); a body whose principal axes are turned about
    # z (principal moments 1.5, 2.5, 3).
    ('point mass', Inertial(2.0)),
    ('rod', Inertial(3.0, iyy=1.0, izz=1.0)),
    ('plate', Inertial(12.0, ixx=16.0, iyy=9.0, izz=25.0)),
    ('box', Inertial(12.0, ixx=13.0, iyy=10.0, izz=5.0)),
    ('products', Inertial(1.0, ixx=2.0, ixy=-0.5, iyy=2.0, izz=3.0)),
])
def test_inertias_of_real_bodies_pass_silently(body, inertial):
    reporter = Reporter()
    check_inertial(Link('a', inertial), reporter)
    assert (reporter.errors, reporter.warnings) == ([], []), body


def test_inertia_warnings_name_the_link_and_no_warning_follows_a_negative_mass():
    reporter = Reporter()
    check_inertial(Link('arm', Inertial(-1.0, ixx=-1.0, iyy=1.0, izz=1.0)), reporter)
    check_inertial(Link('leg', Inertial(1.0, ixx=1.0, iyy=1.0, izz=3.0)), reporter)
    check_inertial(Link('bare'), reporter)
    assert [(d.code, d.entity) for d in reporter.warnings] == [
        ('negative-mass', "link 'arm'"), ('bad-inertia', "link 'leg'")]
    assert re.search('no rigid body has it$', reporter.warnings[1].message)


# --- shapes ---------------------------------------------------------------------------------

@pytest.mark.parametrize('urdf_shape, sdf_shape, problem', [
    ('<box size="5 5 0"/>', '<box><size>5 5 0</size></box>',
     '<box> size 5 5 0 has a side that is not above 0'),
    ('<box size="1 -1 1"/>', '<box><size>1 -1 1</size></box>',
     '<box> size 1 -1 1 has a side that is not above 0'),
    ('<cylinder radius="0" length="1"/>',
     '<cylinder><radius>0</radius><length>1</length></cylinder>',
     '<cylinder> radius 0 is not above 0'),
    ('<cylinder radius="1" length="-2"/>',
     '<cylinder><radius>1</radius><length>-2</length></cylinder>',
     '<cylinder> length -2 is not above 0'),
    ('<sphere radius="-0.1"/>', '<sphere><radius>-0.1</radius></sphere>',
     '<sphere> radius -0.1 is not above 0'),
    ('<capsule radius="0" length="1"/>',
     '<capsule><radius>0</radius><length>1</length></capsule>',
     '<capsule> radius 0 is not above 0'),
    ('<capsule radius="1" length="-1"/>',
     '<capsule><radius>1</radius><length>-1</length></capsule>',
     '<capsule> length -1 is negative'),
    ('<mesh filename="m.stl" scale="1 0 1"/>',
     '<mesh><uri>m.stl</uri><scale>1 0 1</scale></mesh>',
     '<mesh> scale 1 0 1 flattens it'),
    ('<cylinder radius="1" length="0"/>',
     '<cylinder><radius>1</radius><length>0</length></cylinder>',
     '<cylinder> length 0 is not above 0'),
])
def test_shapes_without_volume_warn_with_their_line_for_every_reader(urdf_shape, sdf_shape,
                                                                     problem):
    # DART aborts on such a collision (tested in test_physics_probe); a visual that still
    # has an area (a ground plane <box size="5 5 0"/>, a disc) is drawn as meant.
    doc = urdf('<link name="a">', f'<inertial><mass value="1"/>{INERTIA}</inertial>',
               f'<collision name="c"><geometry>{urdf_shape}</geometry></collision>',
               f'<visual><geometry>{urdf_shape}</geometry></visual>', '</link>')
    robot = parse_urdf(doc, 'r.urdf')
    drawn = urdf_shape in ('<box size="5 5 0"/>', '<mesh filename="m.stl" scale="1 0 1"/>',
                           '<cylinder radius="1" length="0"/>')
    assert [(w.code, w.entity, w.location.line) for w in robot.warnings] == [
        ('bad-geometry', "link 'a'", 5)] * (not drawn) + [('bad-geometry', "link 'a'", 4)]
    assert [w.message for w in robot.warnings] == [
        f'a <visual>: {problem}, so the shape has no volume (it is not drawn)'] * (not drawn) + [
        f"<collision> 'c': {problem}, so the shape has no volume: physics engines cannot "
        'collide it (DART aborts)']
    doc = sdf('<link name="a">', f'<collision name="c"><geometry>{sdf_shape}</geometry>'
              '</collision>', '</link>')
    only_warning(parse_sdf(doc), re.escape(problem), 4, 'bad-geometry')


@pytest.mark.parametrize('shape', [
    '<capsule radius="0.1" length="0"/>',  # a sphere
    '<mesh filename="m.stl" scale="-1 1 1"/>',  # a mirror image
    '<box size="1e-9 1 1"/>',
])
def test_shapes_with_a_volume_pass_silently(shape):
    doc = urdf('<link name="a">', f'<collision><geometry>{shape}</geometry></collision>',
               '</link>')
    assert parse_urdf(doc).warnings == ()


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(['psd', 'triangle']), st.floats(-3.0, 3.0), st.floats(0.05, 1.0),
       st.lists(st.floats(-math.pi, math.pi), min_size=3, max_size=3),
       st.sampled_from([1e-9, 1.0, 1e4]))
def test_the_inertia_check_decides_as_numpys_eigenvalues_near_its_tolerances(
        edge, k, ratio, angles, unit):
    # Moments k parts per million of the largest past each edge the check tolerates (a
    # moment below 0; a + b below c), in turned axes: the check takes the closed form's
    # moments unless they are near an edge, and must warn exactly when numpy's do.
    c = unit
    if edge == 'psd':
        a, b = k * 1e-6 * c, ratio * c
    else:
        a = ratio * c / 2
        b = c - a + k * 1e-6 * c
    rotation = Rotation.from_euler('xyz', angles).as_matrix()
    tensor = rotation @ np.diag([a, b, c]) @ rotation.T
    values = (tensor[0, 0], tensor[0, 1], tensor[0, 2], tensor[1, 1], tensor[1, 2],
              tensor[2, 2])
    x, y, z = np.linalg.eigvalsh(tensor)
    tol = 1e-6 * max(abs(x), abs(y), abs(z))
    assume(min(abs(x + tol), abs(x + y - z + tol)) > 1e-12 * z)  # not on an edge itself
    reporter = Reporter()
    check_inertial(Link('a', Inertial(1.0, *values)), reporter)
    assert bool(reporter.warnings) == (x < -tol or x + y < z - tol)
