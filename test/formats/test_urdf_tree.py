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
Tests of the links and joints the URDF writer adds (:mod:`sdf_tools.formats.urdf.tree`).

Frames, joint frames, the implicit world and a posed root become links with fixed joints;
a model that is not one tree, and added names already taken, are conversion errors.
"""

from chain_fk import FK_FUNCTIONS
import numpy as np
import pytest
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.formats.urdf.report import UrdfReport
from sdf_tools.formats.urdf.tree import nearest_tree
from sdf_tools.formats.urdf.tree import tree_additions
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.model import Box
from sdf_tools.model import Frame
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Visual
from sdf_tools.records import replace
from test_urdf_writer import arm
from test_urdf_writer import assert_pose_close
from test_urdf_writer import error_of
from test_urdf_writer import rewrite
from test_urdf_writer import TOL


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
def test_frames_become_links_with_fixed_joints(fk):
    robot = replace(arm(), frames=(Frame('tool', 'tip', Pose.from_rpy((0.0, 0.0, 0.1),
                                                                      (0.0, 0.0, 1.0))),
                                   Frame('marker', 'base', Pose((1.0, 0.0, 0.0)))))
    text, again = rewrite(robot)
    assert [link.name for link in again.links] == ['base', 'tip', 'tool', 'marker']
    fixed = again.joint('tool__fixed')
    assert (fixed.kind, fixed.parent, fixed.child) == (JointType.FIXED, 'tip', 'tool')
    assert again.joint('marker__fixed').parent == 'base'
    before, after = fk(robot, {'j': 0.4}), fk(again, {'j': 0.4})
    for name in ('tool', 'marker'):
        np.testing.assert_allclose(after[name], before[name], atol=TOL)


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
def test_joint_in_child_adds_a_link_at_the_joint_frame(fk):
    # SDFormat: the child link frame C is not at the joint frame J.
    x_cj = Pose.from_rpy((0.1, -0.2, 0.3), (0.4, 0.0, -0.6))
    inertial = Inertial(1.0, 0.1, 0.0, 0.0, 0.1, 0.0, 0.1, Pose((0.0, 0.0, 0.2)))
    tip = Link('tip', inertial=inertial,
               visuals=(Visual(geometry=Box((0.1, 0.1, 0.1))),))
    robot = Robot('sdf', links=(Link('base'), tip, Link('end')), joints=(
        Joint('j', JointType.REVOLUTE, 'base', 'tip', Pose((0.0, 0.0, 0.5)), (0.0, 1.0, 0.0),
              Limit(-1.0, 1.0, 1.0, 1.0), joint_in_child=x_cj),
        Joint('k', JointType.PRISMATIC, 'tip', 'end', Pose((0.3, 0.0, 0.0)), (1.0, 0.0, 0.0),
              Limit(0.0, 1.0, 1.0, 1.0))))
    _, again = rewrite(robot)
    middle = again.link('tip__joint_frame')
    assert middle.inertial is None and middle.visuals == ()
    assert again.joint('j').child == 'tip__joint_frame'
    fixed = again.joint('tip__fixed')
    assert (fixed.parent, fixed.child) == ('tip__joint_frame', 'tip')
    assert_pose_close(fixed.origin, x_cj.inverse(), 'fixed joint')
    assert again.link('tip').inertial == tip.inertial  # the child link is untouched
    assert again.link('tip').visuals[0].geometry == Box((0.1, 0.1, 0.1))
    for q in ({}, {'j': 0.7, 'k': 0.3}, {'j': -1.0, 'k': 0.9}):
        before, after = fk(robot, q), fk(again, q)
        for name in ('base', 'tip', 'end'):
            np.testing.assert_allclose(after[name], before[name], atol=TOL, err_msg=name)


def test_implicit_world_gets_a_link():
    robot = Robot('sdf', links=(Link('base'),), joints=(
        Joint('weld', JointType.FIXED, 'world', 'base', Pose((0.0, 0.0, 1.0))),))
    text, again = rewrite(robot)
    assert [link.name for link in again.links] == ['world', 'base']
    assert again.joint('weld').parent == 'world'


@pytest.mark.parametrize('fk', FK_FUNCTIONS)
def test_posed_root_gets_a_model_frame_link(fk):
    pose = Pose.from_rpy((1.0, 2.0, 3.0), (0.0, 0.0, 0.5))
    robot = replace(arm(), links=(Link('base', pose=pose), Link('tip')))
    text, again = rewrite(robot)
    assert again.index.roots == ['model_frame']
    fixed = again.joint('base__fixed')
    assert (fixed.kind, fixed.parent, fixed.child) == (JointType.FIXED, 'model_frame', 'base')
    before, after = fk(robot, {'j': 0.3}), fk(again, {'j': 0.3})
    for name in ('base', 'tip'):
        np.testing.assert_allclose(after[name], before[name], atol=TOL)
    _, plain = rewrite(replace(arm(), links=(Link('base', pose=Pose()), Link('tip'))))
    assert plain.index.roots == ['base']


def test_several_roots():
    robot = Robot('sdf', links=(Link('a'), Link('b'), Link('c')))
    error = error_of(robot, "robot 'sdf': has 3 root links \\('a', 'b', 'c'\\); a URDF is a "
                     'tree with exactly one root')
    assert error.diagnostic.code == 'several-roots'
    robot = Robot('sdf', links=(Link('a'),), joints=(
        Joint('j', JointType.FIXED, 'world', 'a'),
        Joint('k', JointType.FIXED, 'a', 'b')))
    robot = replace(robot, links=(Link('a'), Link('b'), Link('c')))
    error_of(robot, "has 2 root links \\('world', 'c'\\)")


def test_lossy_keeps_the_largest_tree():
    # The parallel links of pr2's grippers, in SDFormat: roots whose only joint closes a loop.
    robot = Robot('sdf', links=(Link('bar'), Link('base'), Link('arm'), Link('tip'),
                                Link('c', location=SourceLocation('m.sdf', 4))),
                  joints=(Joint('j1', JointType.FIXED, 'base', 'arm'),
                          Joint('j2', JointType.FIXED, 'arm', 'tip'),
                          Joint('j3', JointType.FIXED, 'bar', 'tip'),
                          Joint('j4', JointType.FIXED, 'c', 'bar')),
                  frames=(Frame('f', 'bar'), Frame('g', 'arm')))
    assert error_of(robot, 'closes a kinematic loop').diagnostics[0].message.endswith(
        "has 2 root links ('base', 'c'); a URDF is a tree with exactly one root; --lossy "
        'writes the nearest URDF without it')
    report = UrdfReport(lossy=True)
    tree = nearest_tree(robot, report)
    assert [link.name for link in tree.links] == ['base', 'arm', 'tip']
    assert [j.name for j in tree.joints] == ['j1', 'j2']
    assert [f.name for f in tree.frames] == ['g']
    assert [str(w) for w in report.warnings] == [
        "warning: joint 'j3': is left out: it closes a kinematic loop (link 'tip' is already "
        "the child of joint 'j2'); a URDF is a tree",
        "m.sdf:4: warning: link 'c': is left out with the 1 link(s) below it: a URDF has one "
        "root, and 'base' has the most links below it"]
    assert nearest_tree(arm(), UrdfReport(lossy=True)).links == arm().links


def test_generated_names_must_be_free():
    robot = replace(arm(), frames=(Frame('tip', 'base'),))
    error_of(robot, "frame 'tip': needs a link named 'tip' for the frame, but the model "
             'already has one')
    robot = replace(arm(), frames=(Frame('f', 'base'),),
                    joints=arm().joints + (Joint('f__fixed', JointType.FIXED, 'tip', 'x'),))
    robot = replace(robot, links=robot.links + (Link('x'),))
    error_of(robot, "frame 'f': needs a fixed joint named 'f__fixed'")
    robot = replace(arm(joint_in_child=Pose((0.0, 0.0, 1.0))),
                    links=(Link('base'), Link('tip'), Link('tip__joint_frame')),
                    frames=())
    error_of(robot, "joint 'j': needs a link named 'tip__joint_frame'")


def test_frame_attached_to_nothing():
    robot = replace(arm(), frames=(Frame('f', 'ghost'),))
    error_of(robot, "frame 'f': is attached to 'ghost', which is not a link")


def test_a_frame_attached_to_world_is_left_out_with_a_warning_in_a_lossy_write():
    # The frames of a static model without links are attached to 'world' (fixed in the model
    # frame); a URDF holds frames only on links.
    here = SourceLocation('m.sdf', 4)
    robot = replace(arm(), frames=(Frame('n::f', 'world', Pose((1.0, 0.0, 0.0)), here),
                                   Frame('tool', 'tip')))
    error = error_of(robot, "frame 'n::f': is attached to 'world'")
    assert [(str(d.location), d.code) for d in error.diagnostics] == [
        ('m.sdf:4', 'no-urdf-equivalent')]
    assert error.diagnostics[0].message.endswith('--lossy writes the nearest URDF without it')
    text, dropped = write_urdf(robot, lossy=True)
    assert [str(d) for d in dropped] == [
        "m.sdf:4: warning: frame 'n::f': is left out: it is attached to 'world' (a frame of a "
        'static model without links); a URDF holds frames only on its links']
    assert [link.name for link in parse_urdf(text).links] == ['base', 'tip', 'tool']


def test_empty_model():
    error_of(Robot('empty'), "robot 'empty': has no links; a URDF needs at least one <link>")


def test_tree_additions_of_an_sdformat_model():
    # Joints to the implicit world, a joint frame away from the child link, and a frame.
    x_cj = Pose((0.0, 0.0, -0.1))
    robot = Robot('sdf', links=(Link('base'), Link('tip')),
                  joints=(Joint('weld', JointType.FIXED, 'world', 'base'),
                          Joint('j', JointType.REVOLUTE, 'base', 'tip', joint_in_child=x_cj)),
                  frames=(Frame('tool', 'tip', Pose((0.2, 0.0, 0.0))),))
    report = UrdfReport()
    links, joints = tree_additions(robot, report)
    report.raise_if_errors()
    assert links == ['world', 'tip__joint_frame', 'tool']
    assert joints == [('tip__joint_frame', 'tip', x_cj.inverse()),
                      ('tip', 'tool', Pose((0.2, 0.0, 0.0)))]
