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
Tests of the description model (:mod:`sdf_tools.model`): poses, joint kinds, the index.

Poses against the homogeneous matrices of :mod:`sdf_tools.transforms` (seeded random
poses); joint kinds against what the URDF and SDFormat specifications (``seeds/``) say each
joint type moves; :class:`~sdf_tools.model.RobotIndex` on models built by hand.
"""

import math
import re

import numpy as np
import pytest
from sdf_tools import transforms
from sdf_tools.errors import Diagnostic
from sdf_tools.model import Frame
from sdf_tools.model import IDENTITY
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import RobotIndex
from support import SEEDS_DIR
from test_transforms import rx
from test_transforms import ry
from test_transforms import rz


def random_pose(rng) -> Pose:
    q = rng.normal(size=4)
    return Pose(tuple(rng.uniform(-2.0, 2.0, 3)), tuple(q / np.linalg.norm(q)))


# --- poses ----------------------------------------------------------------------------------

def test_compose_and_inverse_are_the_product_and_inverse_of_the_matrices():
    rng = np.random.default_rng(11)
    for _ in range(500):
        a, b = random_pose(rng), random_pose(rng)
        np.testing.assert_allclose(a.compose(b).matrix(), a.matrix() @ b.matrix(), atol=1e-14)
        np.testing.assert_allclose(a.inverse().matrix(), np.linalg.inv(a.matrix()), atol=1e-13)
        assert a.compose(a.inverse()).is_identity(1e-14)
        assert a.inverse().compose(a).is_identity(1e-14)
        np.testing.assert_allclose(a.inverse().inverse().matrix(), a.matrix(), atol=1e-14)
        assert np.linalg.norm(a.compose(b).quat) == pytest.approx(1.0, abs=1e-15)


def test_a_pose_maps_the_coordinates_of_its_frame_into_its_parent_frame():
    # Frame B sits 1 m along x of A, turned 90 degrees about z: B's x axis is A's y axis.
    a_from_b = Pose.from_rpy((1, 0, 0), (0, 0, math.pi / 2))
    point_in_b = np.array([2.0, 0.0, 0.0, 1.0])
    np.testing.assert_allclose(a_from_b.matrix() @ point_in_b, (1, 2, 0, 1), atol=1e-15)
    np.testing.assert_allclose(a_from_b.inverse().matrix() @ (1, 2, 0, 1), point_in_b,
                               atol=1e-15)


def test_from_rpy_is_fixed_axis_roll_then_pitch_then_yaw():
    # URDF <origin rpy>: "first roll around x, then pitch around y and finally yaw around
    # z", about the fixed axes: R = Rz(yaw) Ry(pitch) Rx(roll).
    rng = np.random.default_rng(12)
    for _ in range(500):
        xyz = tuple(rng.uniform(-5, 5, 3))
        roll, pitch, yaw = rng.uniform(-math.pi, math.pi), rng.uniform(-1.5, 1.5), \
            rng.uniform(-math.pi, math.pi)
        pose = Pose.from_rpy(xyz, (roll, pitch, yaw))
        expected = np.eye(4)
        expected[:3, :3] = rz(yaw) @ ry(pitch) @ rx(roll)
        expected[:3, 3] = xyz
        np.testing.assert_allclose(pose.matrix(), expected, atol=1e-14)
        np.testing.assert_allclose(pose.rpy, (roll, pitch, yaw), atol=1e-13)
    assert Pose.from_rpy((1, 2, 3)) == Pose((1.0, 2.0, 3.0))
    assert all(type(v) is float for v in Pose.from_rpy((1, 2, 3)).xyz)


def test_is_identity_within_a_tolerance():
    assert IDENTITY.is_identity() and Pose().is_identity()
    assert Pose(quat=(0.0, 0.0, 0.0, -1.0)).is_identity()  # the same rotation
    nearly = Pose((1e-13, 0.0, 0.0), transforms.quat_from_rpy(0.0, 0.0, 1e-13))
    assert not nearly.is_identity() and nearly.is_identity(1e-12)
    assert not Pose.from_rpy(rpy=(0.0, 0.0, math.pi)).is_identity(1e-12)
    assert not Pose((0.0, 0.0, -1.0)).is_identity(0.5)


# --- joint kinds ----------------------------------------------------------------------------

#: Per joint type: the axes it uses, its degrees of freedom, and whether it turns freely in 3D
#: (then its orientation is a unit quaternion, four numbers for three freedoms). From
#: seeds/urdf-joint.txt ("Fixed and floating joints do not use the axis field"; planar "allows
#: motion in a plane perpendicular to the axis", so x, y and a turn about the axis; floating
#: "all 6 degrees of freedom") and seeds/sdformat-joint-spec.txt (revolute2 "two revolute
#: joints connected in series"; the second axis is for "revolute2 joints and universal
#: joints"; gearbox: "theta_2 = -gearbox_ratio * theta_1" about axis and axis2) and the
#: counts of seeds/sdformat-kinematics.txt (checked below).
KINDS = {
    JointType.REVOLUTE: (1, 1, False),
    JointType.CONTINUOUS: (1, 1, False),
    JointType.PRISMATIC: (1, 1, False),
    JointType.SCREW: (1, 1, False),
    JointType.GEARBOX: (2, 1, False),
    JointType.FIXED: (0, 0, False),
    JointType.FLOATING: (0, 6, True),
    JointType.PLANAR: (1, 3, False),
    JointType.BALL: (0, 3, True),
    JointType.UNIVERSAL: (2, 2, False),
    JointType.REVOLUTE2: (2, 2, False),
}


def seed(name):
    path = SEEDS_DIR / name
    if not path.is_file():
        pytest.skip(f'{path} is not on this machine')
    return path.read_text()


def test_the_joint_types_are_those_of_the_specifications():
    urdf_types = re.findall(r'•\s+(\w+) — ', seed('urdf-joint.txt'))
    sdformat_types = re.findall(r'^\((\w+)\) ', seed('sdformat-joint-spec.txt'), re.M)
    assert urdf_types == ['revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar']
    assert len(sdformat_types) == 8
    assert {kind.value for kind in JointType} == set(urdf_types) | set(sdformat_types)
    assert set(KINDS) == set(JointType)


def test_degrees_of_freedom_agree_with_the_sdformat_documentation():
    # The list lost its line breaks: "ball\n: 3 rotational degrees of freedomcontinuous\n: 1
    # rotational degree of freedom with no joint limitsfixed\n: 0 degrees of freedom...".
    kinds = '|'.join(sorted((kind.value for kind in JointType), key=len, reverse=True))
    counts = re.findall(rf'({kinds})\n: (\d) ', seed('sdformat-kinematics.txt'))
    assert [kind for kind, _ in counts] == ['ball', 'continuous', 'fixed', 'prismatic',
                                            'revolute', 'screw', 'universal']
    for kind, freedoms in counts:
        assert KINDS[JointType(kind)][1] == int(freedoms), kind


@pytest.mark.parametrize('kind', list(JointType), ids=lambda kind: kind.value)
def test_axes_and_coordinates_of_every_joint_type(kind):
    axes, freedoms, free_rotation = KINDS[kind]
    assert kind.axes == axes
    assert kind.dof == freedoms + free_rotation  # a quaternion: 4 numbers, 3 freedoms
    names = kind.coordinate_names('arm')
    assert len(names) == kind.dof
    if kind.coordinate_suffixes is None:
        assert names == ('arm',)  # one coordinate, named like the joint
    else:
        assert names == tuple(f'arm/{s}' for s in kind.coordinate_suffixes)
        assert len(set(names)) == len(names)
    # README: floating and planar coordinates are J/x, J/y, J/theta, J/qx...
    expected = {JointType.FLOATING: ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw'),
                JointType.BALL: ('qx', 'qy', 'qz', 'qw'),
                JointType.PLANAR: ('x', 'y', 'theta'),
                JointType.FIXED: ()}
    if kind in expected:
        assert kind.coordinate_suffixes == expected[kind]


# --- the index ------------------------------------------------------------------------------

def joint(name, parent, child):
    return Joint(name, JointType.REVOLUTE, parent, child)


def test_look_ups_by_name_and_the_last_of_a_repeated_name_wins():
    robot = Robot('r', links=(Link('a', Inertial(1.0)), Link('b'), Link('a', Inertial(2.0))),
                  joints=(joint('j', 'a', 'b'), Joint('j', JointType.FIXED, 'a', 'b')),
                  frames=(Frame('f', 'a'), Frame('f', 'b')))
    assert robot.link('a').inertial.mass == 2.0
    assert robot.joint('j').kind is JointType.FIXED
    assert robot.index.frames['f'].attached_to == 'b'
    assert list(robot.index.links) == ['a', 'b']
    with pytest.raises(KeyError):
        robot.link('ghost')
    with pytest.raises(KeyError):
        robot.joint('a')
    assert robot.index is robot.index  # computed once


def test_warnings_added_to_a_robot_keep_its_index(monkeypatch):
    robot = Robot('r', links=(Link('a'), Link('b')), joints=(joint('j', 'a', 'b'),))
    index = robot.index
    built = []
    monkeypatch.setattr(RobotIndex, '__init__', lambda *args: built.append(args))
    warned = robot.with_warnings([Diagnostic('a warning')])
    assert [str(w) for w in warned.warnings] == ['a warning'] and robot.warnings == ()
    assert warned.index is index and warned.link('b') is robot.link('b') and built == []
    fresh = Robot('r', links=(Link('a'),)).with_warnings([Diagnostic('x')])
    assert fresh.index is not index and len(built) == 1  # an index not yet computed is not


def test_child_joints_are_sorted_by_name_in_byte_order():
    # Document order: b, é, _x, a, B. Byte order (std::map<std::string>, as urdfdom and
    # libsdformat visit children): B (0x42) < _x (0x5f) < a (0x61) < b (0x62) < é (0xc3 0xa9).
    children = ('b', 'é', '_x', 'a', 'B')
    robot = Robot('r', links=tuple(Link(n) for n in ('base', *(f'l{i}' for i in range(5)))),
                  joints=tuple(joint(name, 'base', f'l{i}') for i, name in enumerate(children)))
    assert [j.name for j in robot.index.child_joints['base']] == ['B', '_x', 'a', 'b', 'é']
    assert [j.name for j in robot.index.topology.child_joints['base']] == list(children)


def test_parent_joints_loop_joints_and_roots():
    # A four-bar linkage (coupler: child of cc, then of rc) and a link no joint attaches.
    robot = Robot('r', links=tuple(Link(n) for n in ('ground', 'crank', 'rocker', 'coupler',
                                                     'loose')),
                  joints=(joint('gc', 'ground', 'crank'), joint('gr', 'ground', 'rocker'),
                          joint('cc', 'crank', 'coupler'), joint('rc', 'rocker', 'coupler')))
    index = robot.index
    assert {child: j.name for child, j in index.parent_joint.items()} == {
        'crank': 'gc', 'rocker': 'gr', 'coupler': 'cc'}
    assert [j.name for j in index.loop_joints] == ['rc']
    assert index.roots == ['ground', 'loose']
    assert sorted(index.child_joints) == ['crank', 'ground']
