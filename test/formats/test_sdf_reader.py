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
Tests of the SDFormat reader (:mod:`sdf_tools.formats.sdf.reader`).

The fixtures in ``test/data/sdf`` are hand-written, except ``gz_sdf_converted.sdf``, which is
what libsdformat 12.3 (``oracle convert``, i.e. ``gz sdf -p``) writes for
``gz_sdf_converted.urdf``. Each ``NAME.poses.txt`` is the output of ``oracle poses NAME.sdf``
(libsdformat 12.3, see shared/tools/sdformat_oracle/README.md), generated once and checked in,
so these tests run without libsdformat; ``test_goldens_match_live_oracle`` re-checks them when
the oracle is built.
"""

import math

import diagnostics
import numpy as np
import pytest

from sdf_tools import batch_transforms
from sdf_tools import transforms
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import XmlSyntaxError
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.reader import parse_sdf_document
from sdf_tools.kinematics import compile_tree
from sdf_tools.model import IDENTITY
from sdf_tools.model import JointType
from sdf_tools.model import Pose
from sdf_tools.xmlio.element import parse_element
from support import DATA_DIR
from support import NO_ORACLE
from support import oracle_path
from support import run_oracle

SDF_DIR = DATA_DIR / 'sdf'
FIXTURES = sorted(p.stem for p in SDF_DIR.glob('*.sdf'))
TOL = 1e-9
HALF_PI = 0.5 * math.pi


# --- helpers (also used by test_sdf_writer) --------------------------------------------------

def read_fixture(name, **kwargs):
    """Read ``test/data/sdf/NAME.sdf``."""
    path = SDF_DIR / f'{name}.sdf'
    return parse_sdf(path.read_bytes(), path.name, **kwargs)


def model_frame_poses(robot):
    """
    Return the zero-configuration poses the oracle prints, computed from the model alone.

    Keys are ``(kind, name)`` as in ``oracle poses``; poses are :class:`Pose` (model frame),
    axes unit 3-vectors in the model frame. Each link pose is composed along its chain of
    joints: ``X_MC = X_MP @ X_PJ @ inv(X_CJ)`` (``world`` is the model frame).
    """
    index = robot.index
    memo = {'world': IDENTITY}

    def link_pose(name):
        if name not in memo:
            joint = index.parent_joint.get(name)
            if joint is None:
                pose = index.links[name].pose or IDENTITY
            else:
                pose = link_pose(joint.parent).compose(joint.origin).compose(
                    joint.joint_in_child.inverse())
            memo[name] = pose
        return memo[name]

    out = {}
    for link in robot.links:
        out[('link', link.name)] = link_pose(link.name)
    for joint in robot.joints:
        x_mj = link_pose(joint.parent).compose(joint.origin)
        out[('joint', joint.name)] = x_mj
        if joint.kind not in (JointType.FIXED, JointType.BALL):
            out[('axis', joint.name)] = transforms.quat_rotate(x_mj.quat, joint.axis)
        if joint.axis2 is not None:
            out[('axis2', joint.name)] = transforms.quat_rotate(x_mj.quat, joint.axis2)
    for frame in robot.frames:
        out[('frame', frame.name)] = link_pose(frame.attached_to).compose(frame.pose)
    return out


def parse_poses(text):
    """Parse ``oracle poses`` output into ``{(kind, name): numbers}`` and the model name."""
    poses = {}
    model = None
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == 'model':
            model = parts[1]
            continue
        poses[(parts[0], parts[1])] = tuple(float(x) for x in parts[2:])
    return model, poses


def golden(name):
    """Return the checked-in oracle output for fixture ``name``."""
    return parse_poses((SDF_DIR / f'{name}.poses.txt').read_text())


def pose_error(ours, numbers):
    """Return the largest component difference between a Pose and ``x y z qw qx qy qz``."""
    if not isinstance(ours, Pose):
        return max(abs(a - b) for a, b in zip(ours, numbers))
    x, y, z, w = ours.quat
    q = (w, x, y, z)
    theirs = numbers[3:]
    dq = min(max(abs(a - b) for a, b in zip(q, theirs)),
             max(abs(a + b) for a, b in zip(q, theirs)))
    return max(dq, *(abs(a - b) for a, b in zip(ours.xyz, numbers[:3])))


def max_error(robot, expected):
    """Compare a robot with oracle numbers; return the largest error (missing entries fail)."""
    ours = model_frame_poses(robot)
    missing = sorted(set(expected) - set(ours))
    assert not missing, f'not in our model: {missing}'
    return max((pose_error(ours[key], value) for key, value in expected.items()), default=0.0)


def sdf(body, version='1.9'):
    """Wrap a model body in an ``<sdf>`` document (line 2 holds the first body line)."""
    return f'<sdf version="{version}">\n{body}\n</sdf>\n'


def oracle_reads(text, tmp_path, robot=None):
    """
    Check that libsdformat 12.3 loads ``text`` (when the oracle is built).

    With ``robot`` (what sdf_tools read from ``text``), its poses must be the oracle's.
    """
    if oracle_path() is None:
        return
    path = tmp_path / 'oracle_input.sdf'
    path.write_text(text)
    result = run_oracle('check', path)
    assert result.returncode == 0, result.stdout + result.stderr
    if robot is not None:
        result = run_oracle('poses', path)
        assert result.returncode == 0, result.stderr
        _, poses = parse_poses(result.stdout)
        assert max_error(robot, poses) <= TOL


def oracle_refuses(text, tmp_path, message):
    """Check that libsdformat 12.3 refuses ``text`` saying ``message`` (when it is built)."""
    if oracle_path() is None:
        return
    path = tmp_path / 'oracle_input.sdf'
    path.write_text(text)
    result = run_oracle('check', path)
    assert result.returncode != 0 and message in result.stdout, result.stdout + result.stderr


def refused_alike(text, tmp_path, expected: str, oracle_says: str = 'Error', *,
                  parse=parse_sdf_document, source: str = 'r.sdf'):
    """Assert that ``parse`` refuses ``text`` with the one error ``expected``, as libsdformat."""
    with pytest.raises(DescriptionError) as info:
        parse(text, source)
    (error,) = info.value.diagnostics
    assert str(error) == expected
    oracle_refuses(text, tmp_path, oracle_says)


def assert_pose(pose, xyz, quat=None, tol=1e-12):
    """Assert a pose's position and (sign-insensitively) its quaternion."""
    np.testing.assert_allclose(pose.xyz, xyz, atol=tol)
    if quat is not None:
        q = np.array(pose.quat)
        if np.dot(q, quat) < 0.0:
            q = -q
        np.testing.assert_allclose(q, quat, atol=tol)


# --- agreement with libsdformat --------------------------------------------------------------

@pytest.mark.parametrize('name', FIXTURES)
def test_fixture_poses_match_golden(name):
    model, expected = golden(name)
    robot = read_fixture(name, model=model)
    assert robot.name == model
    assert robot.source_format == 'sdf'
    # The oracle lists the links of the top model only (nested ones are checked through
    # frames attached to them).
    assert {k[1] for k in expected if k[0] == 'link'} == {
        link.name for link in robot.links if '::' not in link.name}
    assert max_error(robot, expected) <= TOL


@pytest.mark.oracle
@pytest.mark.parametrize('name', FIXTURES)
def test_goldens_match_live_oracle(name):
    if oracle_path() is None:
        pytest.skip(NO_ORACLE)
    result = run_oracle('poses', SDF_DIR / f'{name}.sdf')
    assert result.returncode == 0, result.stderr
    live_model, live = parse_poses(result.stdout)
    gold_model, gold = golden(name)
    assert live_model == gold_model
    assert live.keys() == gold.keys()
    for key, value in live.items():
        assert max(abs(a - b) for a, b in zip(value, gold[key])) <= 1e-15, key
    assert max_error(read_fixture(name, model=live_model), live) <= TOL


def test_seed_orthogonal_models_agree_at_zero():
    # The tutorial: linkB and link2 have the same initial pose; the joints differ.
    one = model_frame_poses(read_fixture('two_links_orthogonal_1'))
    two = model_frame_poses(read_fixture('two_links_orthogonal_2'))
    assert_pose(one[('link', 'linkB')], (0.1, 0.0, 0.1), (0, 0, 0, 1))
    assert_pose(two[('link', 'link2')], (0.1, 0.0, 0.1), (0, 0, 0, 1))
    # "the position of the joint in the world frame is 0.1 0 0" and "0 0 0.1".
    assert_pose(one[('joint', 'jointAB')], (0.1, 0.0, 0.0))
    assert_pose(two[('joint', 'joint12')], (0.0, 0.0, 0.1))
    joint = read_fixture('two_links_orthogonal_1').joint('jointAB')
    assert joint.origin == Pose((0.1, 0.0, 0.0))
    assert joint.joint_in_child == Pose((0.0, 0.0, -0.1))


def _pose_at(robot, link, q):
    """Return ``link``'s model-frame pose with every 1-dof joint at ``q``."""
    index = robot.index
    joint = index.parent_joint.get(link)
    if joint is None:
        return robot.link(link).pose or IDENTITY
    parent = IDENTITY if joint.parent == 'world' else _pose_at(robot, joint.parent, q)
    angle = q if joint.kind is JointType.REVOLUTE else 0.0
    motion = Pose(quat=transforms.quat_from_axis_angle(joint.axis, angle))
    return parent.compose(joint.origin).compose(motion).compose(joint.joint_in_child.inverse())


def test_seed_orthogonal_models_differ_after_motion():
    # Hand derivation, q = 0.78 rad about y (the joint frames are parallel to the model
    # frame; R_y(q) maps (x, 0, z) to (x cos q + z sin q, 0, -x sin q + z cos q)):
    # * two_links_orthogonal_1: the joint is at (0.1, 0, 0); linkB's origin is (0, 0, 0.1)
    #   from it, which turns into (0.1 sin q, 0, 0.1 cos q): linkB at
    #   (0.1 + 0.1 sin q, 0, 0.1 cos q).
    # * two_links_orthogonal_2: the joint is at (0, 0, 0.1); link2's origin is (0.1, 0, 0)
    #   from it, which turns into (0.1 cos q, 0, -0.1 sin q): link2 at
    #   (0.1 cos q, 0, 0.1 - 0.1 sin q).
    # Both links are rotated by R_y(q): quaternion (0, sin(q/2), 0, cos(q/2)).
    q = 0.78
    s, c = math.sin(q), math.cos(q)
    rot = (0.0, math.sin(q / 2), 0.0, math.cos(q / 2))
    one = _pose_at(read_fixture('two_links_orthogonal_1'), 'linkB', q)
    two = _pose_at(read_fixture('two_links_orthogonal_2'), 'link2', q)
    assert_pose(one, (0.1 + 0.1 * s, 0.0, 0.1 * c), rot)
    assert_pose(two, (0.1 * c, 0.0, 0.1 - 0.1 * s), rot)
    assert np.linalg.norm(np.subtract(one.xyz, two.xyz)) > 0.05   # "very different poses"


def test_seed_orthogonal_models_with_kinematics_module():
    kinematics = pytest.importorskip('sdf_tools.kinematics')
    q = 0.78
    s, c = math.sin(q), math.cos(q)
    for name, link, joint, xyz in (
            ('two_links_orthogonal_1', 'linkB', 'jointAB', (0.1 + 0.1 * s, 0.0, 0.1 * c)),
            ('two_links_orthogonal_2', 'link2', 'joint12', (0.1 * c, 0.0, 0.1 - 0.1 * s))):
        tree = kinematics.compile_tree(read_fixture(name))
        config = tree.default_q()
        config[tree.coordinate_index[joint]] = q
        t_model_link = kinematics.forward_kinematics(tree, config)[tree.link_index[link]]
        np.testing.assert_allclose(t_model_link[:3, 3], xyz, atol=1e-12)
        np.testing.assert_allclose(t_model_link[:3, :3], batch_transforms.matrix_from_quat(
            transforms.quat_from_axis_angle((0.0, 1.0, 0.0), q)), atol=1e-12)


# --- version rules ---------------------------------------------------------------------------

def test_name_clash_is_renamed_before_1_7_and_an_error_after():
    body = """<model name="m">
  <link name="base"/>
  <link name="attachment"><pose>1 0 0 0 0 0</pose></link>
  <joint name="attachment" type="fixed"><parent>base</parent><child>attachment</child></joint>
  <frame name="base"><pose>0 0 5 0 0 0</pose></frame>
</model>"""
    robot = parse_sdf(sdf(body, '1.6'), 'old.sdf')
    assert [j.name for j in robot.joints] == ['attachment_joint']
    assert [f.name for f in robot.frames] == ['base_frame']
    assert {w.code for w in robot.warnings} == {'renamed'}
    with pytest.raises(DescriptionError, match="joint 'attachment': has the same name as a "
                       'link') as info:
        parse_sdf(sdf(body, '1.7'), 'new.sdf')
    assert info.value.diagnostic.location.line == 5
    assert len(info.value.diagnostics) == 2


def test_names_are_trimmed_as_libsdformat_reads_them():
    # libsdformat trims every attribute value: name="j " is frame 'j' (oracle poses print it
    # so), and references to it resolve whether or not they carry the blank.
    body = """<model name=" m ">
  <link name="a "/>
  <frame name="j " attached_to="a"><pose>0 0 1 0 0 0</pose></frame>
  <frame name="e" attached_to="j "/>
</model>"""
    robot = parse_sdf(sdf(body))
    assert robot.name == 'm' and [link.name for link in robot.links] == ['a']
    assert [(f.name, f.attached_to) for f in robot.frames] == [('j', 'a'), ('e', 'a')]
    assert_pose(robot.frames[1].pose, (0.0, 0.0, 1.0), (0, 0, 0, 1))


def test_1_7_allows_scoped_names_and_1_8_forbids_them():
    body = """<model name="m">
  <link name="a::b"/>
  <link name="c"><pose relative_to="a::b">1 0 0 0 0 0</pose></link>
</model>"""
    robot = parse_sdf(sdf(body, '1.7'))
    assert robot.link('c').pose == Pose((1.0, 0.0, 0.0))
    with pytest.raises(DescriptionError, match="names must not contain '::'") as info:
        parse_sdf(sdf(body, '1.8'))
    assert info.value.diagnostic.location.line == 3


def test_quaternion_and_degree_poses():
    robot = read_fixture('quat_degrees')
    poses = model_frame_poses(robot)
    assert_pose(poses[('link', 'a')], (1, 0, 0), (0, 0, 0.5 ** 0.5, 0.5 ** 0.5))
    assert_pose(poses[('link', 'b')], (0, 1, 0),
                transforms.quat_from_rpy(*map(math.radians, (10, 20, 90))))
    assert_pose(poses[('link', 'd')], (0, 0, 0), (0, 0, 0, 1))     # <pose/>
    frame = robot.frames[0]
    assert_pose(frame.pose, (0, 0, 0), (0, 0, 1, 0))


def test_non_unit_quaternion_is_normalised_with_a_warning():
    body = '<model name="m"><link name="a">\n<pose rotation_format="quat_xyzw">' \
        '0 0 0 0 0 1 1</pose></link></model>'
    robot = parse_sdf(sdf(body), 'q.sdf')
    assert_pose(robot.link('a').pose, (0, 0, 0), (0, 0, 0.5 ** 0.5, 0.5 ** 0.5))
    (warning,) = robot.warnings
    assert warning.code == 'unnormalised' and warning.location.line == 3


@pytest.mark.parametrize('attrs, text, message', [
    ('rotation_format="quat_xyzw" degrees="true"', '0 0 0 0 0 0 1',
     "degrees='true' does not apply"),
    ('rotation_format="euler"', '0 0 0 0 0 0', "rotation_format must be 'euler_rpy' or"),
    ('rotation_format="quat_xyzw"', '0 0 0 0 0 0', r'<pose> must be 7 numbers, got'),
    ('', '0 0 0 0 0', r'<pose> must be 6 numbers'),
    ('', '0 0 0 0 0 nan', r'<pose> must be 6 numbers'),
    ('degrees="yes"', '0 0 0 0 0 0', 'degrees must be true or false'),
    ('rotation_format="quat_xyzw"', '0 0 0 0 0 0 0', 'quaternion must not be zero'),
])
def test_bad_poses(attrs, text, message):
    body = f'<model name="m">\n<link name="a"><pose {attrs}>{text}</pose></link>\n</model>'
    with pytest.raises(DescriptionError, match=message) as info:
        parse_sdf(sdf(body), 'p.sdf')
    assert info.value.diagnostic.location.line == 3
    assert info.value.diagnostic.entity == "link 'a'"


# --- worlds ----------------------------------------------------------------------------------

def test_world_model_chosen_by_name():
    robot = read_fixture('world', model='pendulum')
    assert robot.name == 'pendulum'
    assert robot.origin == Pose((0.0, 0.0, 2.0))
    swing = robot.joint('swing')
    assert swing.kind is JointType.CONTINUOUS and swing.limit is None
    fix = robot.joint('fix')
    assert fix.parent == 'world'
    assert read_fixture('world', model='ground').static


def test_world_with_several_models_needs_a_name():
    with pytest.raises(DescriptionError, match=r"holds 2 models \('ground', 'pendulum'\); "
                       'choose one by name') as info:
        read_fixture('world')
    assert info.value.diagnostic.location.line == 3
    with pytest.raises(DescriptionError, match="no model named 'cart'; it holds 'ground', "
                       "'pendulum'"):
        read_fixture('world', model='cart')


# --- files libsdformat writes ----------------------------------------------------------------

def test_file_written_by_libsdformat_loads():
    # gz_sdf_converted.sdf holds <ignition::corrected_offsets>, which lxml refuses as is.
    robot = read_fixture('gz_sdf_converted')
    assert robot.name == 'gz_arm'
    assert [j.name for j in robot.joints] == ['shoulder', 'elbow']
    (plugin,) = [e for e in robot.extras if e.tag == 'plugin']
    assert plugin.findtext('ignition::corrected_offsets') == '1'
    assert robot.joint('shoulder').origin.xyz == (0.0, 0.0, 0.1)
    assert robot.joint('shoulder').joint_in_child == IDENTITY


def test_undeclared_prefixes_libsdformat_writes_are_read(tmp_path):
    # libsdformat writes ignition:expressed_in without declaring 'ignition' (rosbot); it and
    # gz sdf -k read such a file, and so does parse_sdf. The attribute is not SDFormat's
    # expressed_in (libsdformat does not honour it either): the axis stays in the joint frame.
    text = ('<sdf version="1.9"><model name="m"><link name="a"/><link name="b"/>'
            '<joint name="j" type="revolute"><pose>0 0 0 0 0 1.5</pose><parent>a</parent>'
            '<child>b</child><axis><xyz ignition:expressed_in="__model__">1 0 0</xyz>'
            '</axis></joint><plugin name="p" filename="f"><ignition:x>1</ignition:x></plugin>'
            '</model></sdf>')
    robot = parse_sdf(text)
    assert robot.joint('j').axis == (1.0, 0.0, 0.0) and robot.warnings == ()
    assert robot.extras == (parse_element('<plugin name="p" filename="f"><ignition:x>1'
                                          '</ignition:x></plugin>'),)
    if oracle_path() is not None:
        path = tmp_path / 'm.sdf'
        path.write_text(text)
        result = run_oracle('check', path)
        assert result.returncode == 0, result.stderr


# --- errors ----------------------------------------------------------------------------------

BAD_MODELS = [
    ('<joint name="j1" type="revolute"><parent>x</parent><child>b</child></joint>',
     r"joint 'j1': <parent> names 'x', which does not exist in model 'm'"),
    ('<joint name="j1" type="revolute"><parent>a</parent><child>world</child></joint>',
     r"<child> must not be 'world'"),
    ('<joint name="j1" type="hinge"><parent>a</parent><child>b</child></joint>',
     r"unknown joint type 'hinge' \(SDFormat has revolute, continuous"),
    ('<joint name="j1" type="revolute"><parent>a</parent><child>b</child>'
     '<axis><xyz>0 0 0</xyz></axis></joint>', r'<axis> <xyz> must not be the zero vector'),
    ('<joint name="j1" type="revolute"><parent>a</parent></joint>',
     r'<joint> is missing <child>'),
    ('<frame name="f"><pose relative_to="nowhere"/></frame>',
     r"frame 'f': <pose> relative_to names 'nowhere', which does not exist"),
    ('<frame name="f" attached_to="g"/>', r"attached_to names 'g', which does not exist"),
    ('<joint name="j1" type="revolute"><parent>a</parent><child>b</child>'
     '<axis><xyz expressed_in="q">1 0 0</xyz></axis></joint>',
     r"<axis> <xyz> expressed_in names 'q'"),
    ('<link name="a"/>', r"link name 'a' is used more than once in model 'm'"),
    ('<link name="__model__"/>', r"the name '__model__' is reserved"),
    ('<link name="c"><inertial><mass>heavy</mass></inertial></link>',
     r"link 'c': <mass> must be a number, got 'heavy'"),
    ('<link name="c"><visual name="v"><geometry><mesh/></geometry></visual></link>',
     r'<mesh> is missing <uri>'),
    ('<static>maybe</static>', r'<static> must be true or false'),
]


@pytest.mark.parametrize('element, message', BAD_MODELS)
def test_errors_name_the_line_and_element(element, message):
    text = sdf(f'<model name="m">\n<link name="a"/><link name="b"/>\n{element}\n</model>')
    with pytest.raises(DescriptionError, match=message) as info:
        parse_sdf(text, 'model.sdf')
    diagnostic = info.value.diagnostic
    assert diagnostic.location.source == 'model.sdf'
    assert diagnostic.location.line == 4
    assert str(diagnostic).startswith('model.sdf:4: ')


def test_every_error_is_reported():
    body = """<model name="m"><link name="a"/><link name="b"/>
  <joint name="j1" type="revolute"><parent>x</parent><child>b</child></joint>
  <joint name="j2" type="revolute"><parent>a</parent><child>y</child></joint>
</model>"""
    with pytest.raises(DescriptionError) as info:
        parse_sdf(sdf(body), 'two.sdf')
    assert [(d.location.line, d.entity) for d in info.value.diagnostics] == [
        (3, "joint 'j1'"), (4, "joint 'j2'")]


def test_structure_is_checked_after_reading():
    body = """<model name="m"><link name="a"/><link name="b"/>
  <joint name="j1" type="fixed"><parent>a</parent><child>b</child></joint>
  <joint name="j2" type="fixed"><parent>b</parent><child>a</child></joint>
</model>"""
    with pytest.raises(DescriptionError, match='kinematic loop'):
        parse_sdf(sdf(body))


FOUR_BAR = """<model name="four_bar">
  <link name="ground"/>
  <link name="crank"><pose>0 0 0.1 0 0 0</pose></link>
  <link name="rocker"><pose>0.3 0 0.1 0 0 0</pose></link>
  <link name="coupler"><pose>0 0 0.3 0 0 0</pose></link>
  <joint name="ground_crank" type="revolute"><parent>ground</parent><child>crank</child>
    <axis><xyz>0 1 0</xyz></axis></joint>
  <joint name="ground_rocker" type="revolute"><parent>ground</parent><child>rocker</child>
    <axis><xyz>0 1 0</xyz></axis></joint>
  <joint name="crank_coupler" type="revolute"><parent>crank</parent><child>coupler</child>
    <axis><xyz>0 1 0</xyz></axis></joint>
  <joint name="rocker_coupler" type="revolute"><parent>rocker</parent><child>coupler</child>
    <pose>0.3 0 0 0 0 0</pose><axis><xyz>0 1 0</xyz></axis></joint>
</model>"""


def test_a_joint_closing_a_kinematic_loop_is_kept_as_a_loop_joint():
    robot = parse_sdf(sdf(FOUR_BAR), 'four_bar.sdf')
    assert [j.name for j in robot.index.loop_joints] == ['rocker_coupler']
    assert robot.index.parent_joint['coupler'].name == 'crank_coupler'
    [warning] = robot.warnings
    assert (warning.code, warning.entity, warning.location.line) == (
        'kinematic-loop', "joint 'rocker_coupler'", 13)
    assert "forward kinematics follows 'crank_coupler'" in warning.message
    tree = compile_tree(robot)
    assert tree.loop_joints == ('rocker_coupler',)
    assert tree.coordinate_names == ('ground_crank', 'crank_coupler', 'ground_rocker')
    # The loop joint keeps its own frame: 0.3 m along x from the coupler.
    joint = robot.joint('rocker_coupler')
    assert joint.joint_in_child.xyz == pytest.approx((0.3, 0.0, 0.0))


@pytest.mark.parametrize('text, message', [
    ('<robot name="r"/>', r'the root element is <robot>, an SDFormat file needs <sdf> '
     r'\(this looks like URDF\)'),
    ('<sdf><model name="m"><link name="a"/></model></sdf>',
     r"<sdf> is missing required attribute 'version'"),
    ('<sdf version="1.2"><model name="m"><link name="a"/></model></sdf>',
     r'SDFormat version 1.2 is not supported \(sdf_tools reads 1.3 to 1.11\)'),
    ('<sdf version="one"/>', r"<sdf> version must look like 1.9, got 'one'"),
    ('<sdf version="1.9"><world name="w"/></sdf>', r'the document holds no <model>'),
    ('<sdf version="1.9"><model name="m"/></sdf>',
     r"model 'm': has no <link> \(only static models, and models holding nested "
     r'models, may have none\)'),
    ('<sdf version="1.9"><model name="m"><link name="a"/><frame name="f" attached_to="f"/>'
     '</model></sdf>', r"frame 'f': the attached_to chain forms a cycle: 'f' -> 'f'"),
])
def test_document_errors(text, message):
    with pytest.raises(DescriptionError, match=message):
        parse_sdf(text)


@pytest.mark.parametrize('other', ['<light name="l" type="point"/>', '<actor name="a"/>'])
def test_a_light_or_actor_beside_a_model_outside_a_world_is_refused(other, tmp_path):
    text = f'<sdf version="1.9">\n<model name="m"><link name="a"/></model>\n{other}\n</sdf>\n'
    with pytest.raises(DescriptionError) as info:
        parse_sdf(text, 'r.sdf')
    (error,) = info.value.diagnostics
    assert str(error).startswith('r.sdf:3: the <sdf> element holds both <model> and <')
    oracle_refuses(text, tmp_path, 'Root object can only contain one of model, light or actor')


@pytest.mark.parametrize('version', ['1.' + '9' * 5000, '1' * 5000 + '.9'],
                         ids=['minor', 'major'])
def test_a_version_of_thousands_of_digits_is_an_error_at_the_root(version):
    # int() refuses 4300 digits and more: the version's parts are bounded in length.
    text = f'<sdf version="{version}"><model name="m"><link name="l"/></model></sdf>'
    with pytest.raises(DescriptionError) as info:
        parse_sdf_document(text, 'r.sdf')
    (error,) = info.value.diagnostics
    shown = repr(version[:40] + '...')
    assert str(error) == f'r.sdf:1: <sdf> version must look like 1.9, got {shown}'
    assert error.code == 'bad-version'


@pytest.mark.parametrize('kind, first, second', [
    ('model', '<model name="a"><link name="l"/></model>',
     '<model name="b"><link name="l"/></model>'),
    ('light', '<light name="a" type="point"/>', '<light name="b" type="point"/>'),
    ('actor', '<actor name="a"/>', '<actor name="b"/>')], ids=['model', 'light', 'actor'])
def test_a_second_model_light_or_actor_outside_a_world_is_refused(kind, first, second,
                                                                  tmp_path):
    # libsdformat's DOMRoot.LoadMultipleModels: "Root object can only contain one model".
    third = second.replace('"b"', '"c"')
    text = f'<sdf version="1.9">\n{first}\n{second}\n{third}\n</sdf>\n'
    with pytest.raises(DescriptionError) as info:
        parse_sdf_document(text, 'r.sdf')
    (error,) = info.value.diagnostics   # one error, at the second
    assert str(error) == (f'r.sdf:3: the <sdf> element holds more than one <{kind}>: '
                          'outside a <world>, SDFormat allows one model, light or actor '
                          '(libsdformat refuses the file)')
    oracle_refuses(text, tmp_path, f'Root object can only contain one {kind}')


def test_a_second_model_of_the_same_name_outside_a_world_is_a_name_error(tmp_path):
    text = sdf('<model name="a"><link name="l"/></model>\n'
               '<model name="a"><link name="l"/></model>')
    with pytest.raises(DescriptionError) as info:
        parse_sdf_document(text, 'r.sdf')
    (error,) = info.value.diagnostics   # as libsdformat: "model with name[a] already exists"
    assert 'used more than once' in str(error)
    oracle_refuses(text, tmp_path, 'model with name[a] already exists')


@pytest.mark.parametrize('where', ['<sdf>', '<world>', '<model>'])
def test_a_processing_instruction_in_the_document_is_an_error(where, tmp_path):
    # tinyxml2 reads it as a malformed XML declaration: libsdformat refuses the file.
    parts = {'<sdf>': '', '<world>': '', '<model>': ''}
    parts[where] = '\n<?foo bar?>'
    text = (f'<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<sdf version="1.9">'
            f'{parts["<sdf>"]}<world name="w">{parts["<world>"]}<model name="m">'
            f'{parts["<model>"]}<link name="l"/></model></world></sdf>\n')
    refused_alike(text, tmp_path, f'r.sdf:4: the processing instruction <?foo ...?> inside '
                  f'{where}: libsdformat refuses the file (tinyxml2 reads none there)',
                  'Unable to read file')


def test_a_processing_instruction_before_the_root_element_is_read(tmp_path):
    text = '<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n' + sdf(
        '<model name="m"><link name="l"/></model>')
    assert parse_sdf_document(text, 'r.sdf').robot.name == 'm'
    oracle_reads(text, tmp_path)


def test_the_pose_of_a_model_outside_a_world_is_relative_to_nothing(tmp_path):
    text = sdf('<model name="m">\n<pose relative_to="world">1 0 0 0 0 0</pose>\n'
               '<link name="a"/></model>')
    with pytest.raises(DescriptionError) as info:
        parse_sdf(text, 'r.sdf')
    (error,) = info.value.diagnostics
    assert str(error).startswith("r.sdf:3: model 'm': the <pose> of a model outside a world "
                                 "must not have relative_to (it has 'world'")
    oracle_refuses(text, tmp_path, 'of top level model must be left empty')


def test_static_model_may_have_no_links():
    robot = parse_sdf('<sdf version="1.9"><model name="m"><static>1</static></model></sdf>')
    assert robot.static and robot.links == ()


def test_newer_version_is_read_with_a_warning():
    robot = parse_sdf('<sdf version="1.12"><model name="m"><link name="a"/></model></sdf>')
    assert robot.warnings[0].code == 'new-version'


def test_entity_declarations_are_refused():
    text = """<?xml version="1.0"?>
<!DOCTYPE sdf [<!ENTITY boom "boom">]>
<sdf version="1.9"><model name="&boom;"><link name="a"/></model></sdf>"""
    with pytest.raises(XmlSyntaxError, match='entit'):
        parse_sdf(text)


def test_size_limit():
    with pytest.raises(XmlSyntaxError, match='more than the limit'):
        parse_sdf(sdf('<model name="m"><link name="a"/></model>'), max_bytes=20)


# --- invalid descriptions: line, entity and code of each (<model> is line 2) -----------------

@pytest.mark.parametrize('text, match, code', [
    ('1e400', "<mass> must be finite, got '1e400'", 'bad-number'),
    ('nan', "<mass> must be a number, got 'nan'", 'bad-number'),
    ('1 2', "<mass> must be a number, got '1 2'", 'bad-number'),
])
def test_sdf_refuses_numbers_that_are_not_finite_decimals(text, match, code):
    doc = diagnostics.sdf('<link name="a">', '<inertial>', f'<mass>{text}</mass>', '</inertial>',
                          '</link>')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, match, 5, "link 'a'", code)


@pytest.mark.parametrize('pose, match, code', [
    ('1 2 3 4 5', "<pose> must be 6 numbers, got '1 2 3 4 5'", 'bad-arity'),
    ('0 0 inf 0 0 0', "<pose> must be 6 numbers, got '0 0 inf 0 0 0'", 'bad-number'),
    ('0 0 1e400 0 0 0', "<pose> must be finite, got '0 0 1e400 0 0 0'", 'bad-number'),
])
def test_sdf_poses_need_six_finite_numbers(pose, match, code):
    doc = diagnostics.sdf('<link name="a">', f'<pose>{pose}</pose>', '</link>')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, match, 4, "link 'a'", code)


def test_duplicate_names_in_sdf():
    doc = diagnostics.sdf('<link name="a"/>', '<link name="a"/>')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, "link name 'a' is used more than "
                             "once in model 'm'", 4, "link 'a'", 'duplicate-name')
    doc = diagnostics.sdf('<link name="a"/>', '<frame name="a"/>')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, 'has the same name as a link of '
                             "model 'm'", 4, "frame 'a'", 'duplicate-name')


@pytest.mark.parametrize('canonical', ['__model__', 'f', 'n', 'n::__model__'])
def test_sdf_canonical_link_that_is_not_a_link(canonical):
    # '__model__' named the model frame itself, which is no vertex: KeyError.
    doc = diagnostics.sdf('<link name="a"/>', '<frame name="f"/>',
                          '<model name="n"><link name="b"/></model>').replace(
        '<model name="m">', f'<model name="m" canonical_link="{canonical}">')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, 'canonical_link names '
                             f"'{canonical}', which is not a link", 2, "model 'm'",
                             'bad-canonical-link')


def test_sdf_joints_naming_missing_links():
    doc = diagnostics.sdf('<link name="a"/>', '<joint name="j" type="fixed">',
                          '<parent>a</parent>', '<child>ghost</child>', '</joint>')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, "<child> names 'ghost', which "
                             "does not exist in model 'm'", 6, "joint 'j'", 'missing-frame')


def test_unknown_joint_types_in_sdf():
    doc = diagnostics.sdf('<link name="a"/>', '<link name="b"/>',
                          '<joint name="j" type="planar">', '<parent>a</parent><child>b</child>',
                          '</joint>')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, r"unknown joint type 'planar' "
                             r'\(SDFormat has revolute, continuous', 5, "joint 'j'",
                             'bad-joint-type')


def test_huge_and_tiny_quaternions_in_sdf_are_normalised():
    for scale in ('1e200', '1e-200'):
        doc = diagnostics.sdf('<link name="a">', '<pose rotation_format="quat_xyzw">0 0 0 '
                              f'{scale} 0 0 {scale}</pose>', '</link>')
        quat = parse_sdf(doc).links[0].pose.quat
        np.testing.assert_allclose(quat, (math.sqrt(0.5), 0, 0, math.sqrt(0.5)), atol=1e-15)


def test_sdf_thread_pitch_too_small_to_invert_is_an_error():
    doc = diagnostics.sdf('<link name="a"/>', '<link name="b"/>',
                          '<joint name="j" type="screw">', '<parent>a</parent><child>b</child>',
                          '<thread_pitch>4.9e-324</thread_pitch>', '</joint>', version='1.9')
    diagnostics.single_error(DescriptionError, parse_sdf, doc, r'<thread_pitch> 4.94066e-324 is '
                             r'too small: the pitch in metres, -2 pi / thread_pitch, overflows',
                             7, "joint 'j'", 'bad-number')
