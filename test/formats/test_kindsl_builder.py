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
Tests of the Kinematics-DSL builder (:mod:`sdf_tools.formats.kindsl.builder`).

The inertia conversion, frames and the floating base.
"""

from chain_fk import rot
from chain_fk import trans
import numpy as np
import pytest
from sdf_tools import transforms
from sdf_tools.errors import Reporter
from sdf_tools.formats.kindsl.builder import build_robot
from sdf_tools.formats.kindsl.builder import inertial_from_kindsl
from sdf_tools.formats.kindsl.document import Document
from sdf_tools.formats.kindsl.document import JointSpec
from sdf_tools.formats.kindsl.document import LinkSpec
from sdf_tools.formats.kindsl.reader import parse_kindsl
from sdf_tools.model import IDENTITY
from sdf_tools.model import JointType
from test_kindsl import fancy
from test_kindsl import PI
from test_kindsl import raises
from test_kindsl import read
from test_kindsl import robot_text
from test_kindsl import Z


def test_inertia_hollow_cylinder_example():
    # The document's link1: a thin hollow cylinder, unit mass and length, radius 0.05, along
    # x, link frame at the centre of one base. Iy = m L^2 / 3 + m r^2 / 2 = 0.334583 about
    # the link-frame origin; about the centre of mass (0.5, 0, 0) it is
    # m L^2 / 12 + m r^2 / 2 = 0.0845833 = Iy - m 0.5^2. Ix (about the axis) = m r^2 stays.
    link1 = fancy().link('link1').inertial
    assert link1.mass == 1.0
    assert link1.origin.xyz == (0.5, 0.0, 0.0)
    assert link1.origin.quat == transforms.IDENTITY_QUAT
    assert link1.ixx == pytest.approx(0.0025, abs=1e-15)
    assert link1.iyy == pytest.approx(0.33458 - 0.25, abs=1e-15)
    assert link1.izz == pytest.approx(0.33458 - 0.25, abs=1e-15)
    assert link1.iyy == pytest.approx(1.0 / 12.0 + 0.05 ** 2 / 2.0, abs=1e-5)
    assert (link1.ixy, link1.ixz, link1.iyz) == (0.0, 0.0, 0.0)
    link2 = fancy().link('link2').inertial  # the same cylinder along z
    assert link2.origin.xyz == (0.0, 0.0, 0.5)
    assert (link2.ixx, link2.iyy, link2.izz) == pytest.approx((0.08458, 0.08458, 0.0025))


def test_inertia_matches_point_masses():
    # Build the DSL numbers from their definitions for a cloud of point masses (about the
    # link-frame origin, products without the minus sign) and check the conversion against
    # the tensor computed directly about the centre of mass.
    rng = np.random.default_rng(20260)
    points = rng.normal(size=(7, 3)) + (0.3, -0.2, 0.5)
    masses = rng.uniform(0.1, 2.0, size=7)
    x, y, z = points.T
    mass = masses.sum()
    com = masses @ points / mass
    moments = [masses @ (y * y + z * z), masses @ (x * x + z * z), masses @ (x * x + y * y),
               masses @ (x * y), masses @ (x * z), masses @ (y * z)]
    inertial = inertial_from_kindsl(mass, com, moments)
    d = points - com
    expected = sum(m * (v @ v * np.eye(3) - np.outer(v, v)) for m, v in zip(masses, d))
    np.testing.assert_allclose(np.array(inertial.inertia), expected, atol=1e-12)
    np.testing.assert_allclose(inertial.origin.xyz, com, atol=1e-15)


def test_inertia_products_change_sign():
    inertial = inertial_from_kindsl(2.0, (0.0, 0.0, 0.0), (1.0, 2.0, 3.0, 0.1, 0.2, 0.3))
    assert (inertial.ixy, inertial.ixz, inertial.iyz) == (-0.1, -0.2, -0.3)
    assert (inertial.ixx, inertial.iyy, inertial.izz) == (1.0, 2.0, 3.0)
    assert inertial.origin.is_identity()


def test_moments_about_the_com_by_mistake_warn():
    text = robot_text().replace('mass = 1 CoM = (0, 0, 0)', 'mass = 1 CoM = (2, 0, 0)')
    robot = parse_kindsl(text, 'robot.kindsl')
    codes = [(w.code, w.location.line) for w in robot.warnings]
    assert ('bad-inertia', 5) in codes
    assert 'must be about the link-frame origin' in str(robot.warnings[0])


def test_fixed_base_inertia_is_optional():
    robot = read('minimal.kindsl')
    assert robot.link('base').inertial is None
    assert robot.link('arm').inertial.iyy == pytest.approx(0.2 - 2.0 * 0.25 ** 2)


def test_frames():
    robot = read('floating_tree.kindsl', parameters={'shin_length': 0.4, 'hip_offset': 0.1})
    frames = {f.name: f for f in robot.frames}
    assert frames['imu'].attached_to == 'trunk'
    np.testing.assert_allclose(frames['imu'].pose.matrix(),
                               trans(0.1, 0.0, 0.05) @ rot(Z, PI), atol=1e-15)
    assert frames['foot_l'].attached_to == 'shin_l'
    assert frames['foot_l'].pose.xyz == (0.0, 0.0, -0.4)
    assert frames['foot_l'].location.line == 32


def test_floating_base():
    robot = read('floating_tree.kindsl', parameters={'shin_length': 0.4, 'hip_offset': 0.1})
    assert robot.links[0].name == 'world' and robot.links[0].inertial is None
    joint = robot.joints[0]
    assert (joint.name, joint.kind, joint.parent, joint.child) == (
        'world_to_trunk', JointType.FLOATING, 'world', 'trunk')
    assert robot.index.roots == ['world']
    assert robot.link('trunk').inertial.mass == 10.0  # the parameter's default
    # The trunk: Ixz = 0.01 (tensor element -0.01), CoM 0.1 above the origin.
    trunk = robot.link('trunk').inertial
    assert (trunk.ixx, trunk.iyy, trunk.izz, trunk.ixz) == pytest.approx(
        (0.5 - 10 * 0.01, 0.6 - 10 * 0.01, 0.3, -0.01))
    assert [j.kind for j in robot.joints[1:]] == [JointType.REVOLUTE, JointType.REVOLUTE,
                                                  JointType.PRISMATIC]


def test_floating_base_needs_inertia():
    text = robot_text().replace('RobotBase base {', 'RobotBase base floating {')
    raises(text, "link 'base': is missing 'inertia_properties'", 2)


def test_floating_base_world_name_clash():
    text = (robot_text().replace('RobotBase base {', 'RobotBase base floating { '
                                 'inertia_properties { mass = 1 CoM = (0, 0, 0) Ix=1 Iy=1 '
                                 'Iz=1 Ixy=0 Ixz=0 Iyz=0 }')
            .replace('link arm', 'link world').replace('arm via', 'world via'))
    raises(text, "link 'world': a floating base adds a link named 'world'", 3)


def test_build_robot_from_a_document_made_by_hand():
    base = LinkSpec('base', 2, is_base=True, children=[('arm', 'slide', 2)])
    arm = LinkSpec('arm', 3, link_id=1, id_line=3, children=[])
    slide = JointSpec('slide', 4, JointType.PRISMATIC, IDENTITY)
    document = Document('R', 1, base, [arm], [slide])
    reporter = Reporter()
    robot = build_robot(document, 'hand.kindsl', reporter)
    assert reporter.errors == []
    assert [(j.name, j.kind, j.parent, j.child, j.axis) for j in robot.joints] == [
        ('slide', JointType.PRISMATIC, 'base', 'arm', (0.0, 0.0, 1.0))]
    assert [(link.name, link.location.line) for link in robot.links] == [('base', 2),
                                                                         ('arm', 3)]
