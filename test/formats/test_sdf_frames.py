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
Tests of the frames of an SDFormat model (:mod:`sdf_tools.formats.sdf.frames`).

Through :func:`~sdf_tools.formats.sdf.reader.parse_sdf`: names resolved in their scope,
``relative_to`` chains, ``attached_to`` chains, canonical links, placement frames, and the
cycles of both graphs.
"""

from lxml import etree
import numpy as np
import pytest
from sdf_tools import transforms
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Reporter
from sdf_tools.formats.sdf.frames import FrameGraph
from sdf_tools.formats.sdf.frames import MODEL_FRAME
from sdf_tools.formats.sdf.frames import Scope
from sdf_tools.formats.sdf.frames import Vertex
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.model import Limit
from sdf_tools.model import Pose
from sdf_tools.xmlio.parse import ValueReader
from test_sdf_reader import assert_pose
from test_sdf_reader import model_frame_poses
from test_sdf_reader import oracle_reads
from test_sdf_reader import read_fixture
from test_sdf_reader import sdf


def test_relative_to_chains_and_frames_attached_to_frames_and_joints():
    robot = read_fixture('frames')
    poses = model_frame_poses(robot)
    # arm is relative to mount (0.5 0 0.25, yaw 90 deg): 0 0.3 0 in mount is -0.3 0 0.
    assert_pose(poses[('link', 'arm')], (0.2, 0.0, 0.25))
    frames = {f.name: f for f in robot.frames}
    assert frames['tool'].attached_to == 'arm'        # via arm_tip
    assert frames['at_shoulder'].attached_to == 'arm'  # a joint leads to its child
    assert frames['in_model'].attached_to == 'base'    # the model to its canonical link
    assert frames['mount'].attached_to == 'base'
    assert_pose(frames['in_model'].pose, (0.0, 0.0, 1.9), (0, 0, 0, 1))
    # tool is written relative to base: its model-frame position is base's plus 1 1 1.
    assert_pose(poses[('frame', 'tool')], (1.0, 1.0, 1.1))
    # The joint whose <child> is a frame moves the link that frame is attached to, and its
    # pose is relative to that frame.
    wrist = robot.joint('wrist')
    assert (wrist.parent, wrist.child) == ('arm', 'hand')
    assert_pose(wrist.joint_in_child, frames['hand_mount'].pose.xyz,
                frames['hand_mount'].pose.quat)
    shoulder = robot.joint('shoulder')
    assert shoulder.limit == Limit(-1.5, 1.5, 10.0, 2.0)
    # Expressed in the model frame, the shoulder axis (z) is z in the mount frame too.
    np.testing.assert_allclose(shoulder.axis, (0.0, 0.0, 1.0), atol=1e-15)
    assert [link.name for link in robot.links if link.pose is not None] == ['base']


def test_nested_models_are_flattened_with_scoped_names():
    robot = read_fixture('nested')
    assert [link.name for link in robot.links] == ['base', 'inner::l1', 'inner::deep::x']
    assert [j.name for j in robot.joints] == ['inner::jd', 'j1']
    jd = robot.joint('inner::jd')
    assert (jd.parent, jd.child) == ('inner::l1', 'inner::deep::x')
    j1 = robot.joint('j1')
    assert (j1.parent, j1.child) == ('base', 'inner::l1')   # a model's canonical link
    assert [f.name for f in robot.frames] == ['ref', 'inner::pf', 'inner::deep::fd', 'f_l1',
                                              'f_x', 'f_jd', 'f_inner', 'f_fd']
    # The visual is relative to the inner model frame; l1 is at 1 0 0 in it.
    assert_pose(robot.link('inner::l1').visuals[0].origin, (-1.0, 0.0, 0.0), (0, 0, 0, 1))
    # placement_frame: pf of inner ends up at "0 0 1" relative to ref.
    poses = model_frame_poses(robot)
    ref = poses[('frame', 'ref')]
    pf = poses[('frame', 'inner::pf')]
    assert_pose(ref.inverse().compose(pf), (0.0, 0.0, 1.0), (0, 0, 0, 1))


def test_sdformat_1_7_frames_of_flattened_models_are_frames_of_that_name(tmp_path):
    # SDFormat 1.7 allowed '::' in names: a model flattened into its parent (as old tools
    # wrote them) keeps its frame as X::__model__, and its links refer to it.
    text = sdf("""<model name="m"><link name="base"/>
<frame name="X::__model__" attached_to="base"><pose>1 0 0 0 0 0</pose></frame>
<link name="X::link"><pose relative_to="X::__model__">0 1 0 0 0 0</pose></link>
<joint name="j" type="fixed"><parent>base</parent><child>X::link</child></joint>
</model>""", '1.7')
    robot = parse_sdf(text)
    assert_pose(model_frame_poses(robot)[('link', 'X::link')], (1.0, 1.0, 0.0))
    assert [(f.name, f.attached_to) for f in robot.frames] == [('X::__model__', 'base')]
    oracle_reads(text, tmp_path, robot)


def test_placement_frame_applies_without_a_model_pose():
    # The model pose defaults to identity; placement_frame still puts frame l at the origin.
    body = """<model name="m" placement_frame="l">
  <link name="b"/>
  <link name="l"><pose>1 0 0 0 0 0</pose></link>
</model>"""
    assert_pose(parse_sdf(sdf(body, '1.8')).origin, (-1.0, 0.0, 0.0), (0, 0, 0, 1))
    with pytest.raises(DescriptionError, match='placement_frame') as info:
        parse_sdf(sdf(body.replace('placement_frame="l"', 'placement_frame="nope"'), '1.8'))
    assert info.value.diagnostic.location.line == 2


@pytest.mark.parametrize('n', [3, 40, 2000])
def test_long_relative_to_chains_resolve_exactly(n):
    # Each frame is 1 cm along x and 0.01 rad about z from the previous one: frame k sits at
    # sum_{i<=k} R_z(i * 0.01) (0.01, 0, 0) with yaw (k + 1) * 0.01 relative to link L. Short
    # chains compose along the path, long ones through the model frame: both are exact.
    frames = ''.join(
        f'<frame name="f{i}" attached_to="L"><pose relative_to="{f"f{i - 1}" if i else "L"}">'
        '0.01 0 0 0 0 0.01</pose></frame>\n' for i in range(n))
    body = f'<model name="m"><link name="L"><pose>0 0 1 0 0 0.5</pose></link>\n{frames}</model>'
    robot = parse_sdf(sdf(body))
    yaw = 0.01 * np.arange(n)
    xyz = np.cumsum(0.01 * np.stack([np.cos(yaw), np.sin(yaw)], axis=1), axis=0)
    for k in {0, n // 2, n - 1}:
        frame = robot.frames[k]
        assert frame.attached_to == 'L'
        assert_pose(frame.pose, (*xyz[k], 0.0),
                    transforms.quat_from_rpy(0.0, 0.0, 0.01 * (k + 1)), tol=1e-11)


def test_pose_cycle_is_an_error():
    body = """<model name="m"><link name="a"/>
  <frame name="f1"><pose relative_to="f2"/></frame>
  <frame name="f2"><pose relative_to="f1"/></frame>
</model>"""
    with pytest.raises(DescriptionError, match=r"the poses form a cycle: 'f1' -> 'f2' -> "
                       "'f1'") as info:
        parse_sdf(sdf(body), 'c.sdf')
    assert info.value.diagnostic.location.line == 3


def test_attached_to_cycle_is_an_error():
    body = """<model name="m"><link name="a"/>
  <frame name="f1" attached_to="f2"><pose relative_to="a"/></frame>
  <frame name="f2" attached_to="f1"><pose relative_to="a"/></frame>
</model>"""
    with pytest.raises(DescriptionError, match=r"the attached_to chain forms a cycle: 'f1' "
                       "-> 'f2' -> 'f1'") as info:
        parse_sdf(sdf(body), 'c.sdf')
    assert info.value.diagnostic.location.line == 3


def test_frames_behind_a_pose_cycle_are_not_reported_again():
    # f3 leads into the cycle and f4 is attached to f3: one error, where the walk from f3
    # (first in document order) enters the cycle.
    body = """<model name="m"><link name="a"/>
  <frame name="f3"><pose relative_to="f1"/></frame>
  <frame name="f1"><pose relative_to="f2"/></frame>
  <frame name="f2"><pose relative_to="f1"/></frame>
  <frame name="f4" attached_to="f3"/>
</model>"""
    with pytest.raises(DescriptionError) as info:
        parse_sdf(sdf(body), 'c.sdf')
    assert [(d.location.line, d.entity, d.message) for d in info.value.diagnostics] == [
        (4, "frame 'f1'", "the poses form a cycle: 'f1' -> 'f2' -> 'f1'")]


def chain_graph(n):
    """Return a resolved graph: link L, then frames f0 ... f(n-1), each relative to the last."""
    graph = FrameGraph(ValueReader('chain', Reporter()))
    top = Scope(MODEL_FRAME, '', 'm', etree.Element('model'), 0)
    graph.add_scope(top)
    top.links.append('L')
    graph.add(Vertex('L', 'link', 'L', etree.Element('link'), top,
                     pose=Pose.from_rpy((0.0, 0.0, 1.0), (0.0, 0.0, 0.5))))
    step = Pose.from_rpy((0.01, 0.0, 0.0), (0.1, 0.0, 0.01))
    for i in range(n):
        graph.add(Vertex(f'f{i}', 'frame', f'f{i}', etree.Element('frame'), top, pose=step,
                         rel_text=f'f{i - 1}' if i else 'L', attach_text='L'))
    graph.resolve()
    return graph


def test_frame_graph_composes_short_and_long_paths_alike():
    # Frames far apart (more than 32 edges) are composed through the model frame, near ones
    # along the path between them: both give the same pose.
    graph = chain_graph(100)
    assert graph.v.reporter.errors == []
    for a, b in (('f99', 'f10'), ('f40', 'f39'), ('f5', 'L'), ('L', 'f70'), ('f3', 'f3')):
        via_model = graph.in_model(b).inverse().compose(graph.in_model(a))
        direct = graph.relative(a, b)
        np.testing.assert_allclose(direct.matrix(), via_model.matrix(), atol=1e-12)
    np.testing.assert_allclose(graph.relative('f1', 'f0').matrix(),
                               Pose.from_rpy((0.01, 0.0, 0.0), (0.1, 0.0, 0.01)).matrix(),
                               atol=1e-15)
    assert {graph.body(f'f{i}') for i in range(100)} == {'L'}
    assert graph.has_pose('f99') and not graph.has_pose('nowhere')
