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
Tests of the generic SDFormat writer (:mod:`sdf_tools.formats.sdf.writer`).

Round trips go model -> SDFormat -> model through :mod:`sdf_tools.formats.sdf.reader`; when
the libsdformat oracle is built, the written files must load there (``oracle check``) and
resolve to the poses of the checked-in goldens of the fixtures (``oracle poses``).
"""

import math

from diagnostics import sdf
from diagnostics import urdf
import numpy as np
import pytest

from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Reporter
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.writer import write_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.formatting import fmt
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Dynamics
from sdf_tools.model import Frame
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Material
from sdf_tools.model import Mimic
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Visual
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import parse_element
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.text import escape_attribute
import support
from support import NO_ORACLE
from support import oracle_path
from support import run_oracle
from test_sdf_reader import FIXTURES
from test_sdf_reader import golden
from test_sdf_reader import max_error
from test_sdf_reader import model_frame_poses
from test_sdf_reader import parse_poses
from test_sdf_reader import pose_error
from test_sdf_reader import read_fixture

TOL = 1e-9


def _structure(robot):
    """Return what a round trip must keep: links, joints (continuous -> revolute), frames."""
    joints = []
    for j in robot.joints:
        kind = JointType.REVOLUTE if j.kind is JointType.CONTINUOUS else j.kind
        joints.append((j.name, kind, j.parent, j.child))
    return (sorted(link.name for link in robot.links), sorted(joints),
            sorted((f.name, f.attached_to) for f in robot.frames))


def _round_trip(robot, **kwargs):
    text = write_sdf(robot, **kwargs)
    return text, parse_sdf(text, 'written.sdf')


def _assert_same_poses(a, b):
    poses_a, poses_b = model_frame_poses(a), model_frame_poses(b)
    assert poses_a.keys() == poses_b.keys()
    for key, pose in poses_a.items():
        other = poses_b[key]
        if isinstance(pose, Pose):
            x, y, z, w = other.quat
            other = (*other.xyz, w, x, y, z)
        assert pose_error(pose, other) <= TOL, key


def _tree(text):
    return parse_xml(text)


@pytest.mark.parametrize('name', FIXTURES)
def test_round_trip_keeps_structure_and_poses(name):
    model, _ = golden(name)
    robot = read_fixture(name, model=model)
    _, back = _round_trip(robot)
    assert _structure(back) == _structure(robot)
    _assert_same_poses(robot, back)
    for link, other in zip(robot.links, back.links):
        assert len(link.visuals) == len(other.visuals)
        assert len(link.collisions) == len(other.collisions)
        assert link.extras == other.extras
    assert back.static == robot.static


@pytest.mark.oracle
@pytest.mark.parametrize('name', FIXTURES)
def test_written_fixtures_load_in_libsdformat_with_the_same_poses(name, tmp_path):
    if oracle_path() is None:
        pytest.skip(NO_ORACLE)
    model, expected = golden(name)
    path = tmp_path / f'{name}.sdf'
    path.write_text(write_sdf(read_fixture(name, model=model)))
    check = run_oracle('check', path)
    assert check.stdout.strip().splitlines()[-1] == 'oracle: OK', check.stdout
    result = run_oracle('poses', path)
    assert result.returncode == 0, result.stderr
    _, written = parse_poses(result.stdout)
    # Everything the original resolves to is there, at the same place (a frame attached to
    # a joint is now attached to the joint's child link; joints keep their names).
    for key, value in expected.items():
        assert key in written, key
        assert max(abs(a - b) for a, b in zip(value, written[key])) <= TOL, key
    assert max_error(parse_sdf(path.read_text(), path.name), written) <= TOL


def test_every_joint_type_is_written():
    text = write_sdf(read_fixture('joint_types'))
    joints = {j.get('name'): j for j in _tree(text).iter('joint')}
    assert {name: j.get('type') for name, j in joints.items()} == {
        'rev': 'revolute', 'cont': 'revolute', 'pri': 'prismatic', 'fix': 'fixed',
        'ball': 'ball', 'uni': 'universal', 'rev2': 'revolute2', 'screw': 'screw',
        'gear': 'gearbox'}
    # Continuous joints become revolute joints with libsdformat's "unlimited" limits.
    assert joints['cont'].findtext('axis/limit/lower') == '-1e+16'
    assert joints['cont'].findtext('axis/limit/upper') == '1e+16'
    assert joints['rev'].findtext('axis/dynamics/spring_stiffness') == '3'
    assert joints['rev'].findtext('axis/limit/effort') == '30'
    assert joints['rev'].find('physics/ode/cfm').text == '0.01'
    assert joints['uni'].findtext('axis2/limit/upper') == '0.25'
    assert joints['uni'].findtext('axis2/dynamics/damping') == '0.2'
    assert joints['ball'].find('axis') is None
    # -2 m/rev right-handed is pi rad/m left-handed before SDFormat 1.10.
    assert float(joints['screw'].findtext('thread_pitch')) == pytest.approx(math.pi)
    assert joints['gear'].findtext('gearbox_ratio') == '-2.5'
    assert joints['gear'].findtext('gearbox_reference_body') == 'base'
    assert joints['gear'].findtext('axis2/xyz') == '0 0 1'
    text_1_10 = write_sdf(read_fixture('joint_types'), version='1.10')
    screw = [j for j in _tree(text_1_10).iter('joint') if j.get('name') == 'screw'][0]
    assert screw.findtext('screw_thread_pitch') == '-2' and screw.find('thread_pitch') is None
    back = parse_sdf(text_1_10)
    assert back.joint('screw').screw_thread_pitch == -2.0


def test_joint_fields_round_trip():
    robot = read_fixture('joint_types')
    _, back = _round_trip(robot)
    for joint in robot.joints:
        other = back.joint(joint.name)
        assert other.axis == pytest.approx(joint.axis, abs=1e-15)
        assert other.dynamics == joint.dynamics and other.dynamics2 == joint.dynamics2
        assert other.limit2 == joint.limit2
        assert other.gearbox_ratio == joint.gearbox_ratio
        assert other.gearbox_reference_body == joint.gearbox_reference_body
        if joint.kind is JointType.CONTINUOUS and joint.limit is None:
            # SDFormat has no unlimited joint: the schema's defaults stand in.
            assert other.limit == Limit(-1e16, 1e16, -1.0, -1.0)
        else:
            assert other.limit == joint.limit
        if joint.screw_thread_pitch is not None:
            assert other.screw_thread_pitch == pytest.approx(joint.screw_thread_pitch, 1e-15)


def test_links_and_extras_round_trip():
    robot = read_fixture('joint_types')
    text, back = _round_trip(robot)
    for link in robot.links:
        other = back.link(link.name)
        assert other.inertial == link.inertial
        for mine, theirs in zip(link.visuals + link.collisions,
                                other.visuals + other.collisions):
            assert (theirs.name, theirs.geometry, theirs.origin) == (
                mine.name, mine.geometry, mine.origin)
    assert back.link('base').visuals[0].material == robot.link('base').visuals[0].material
    assert '<ignition::corrected_offsets>1</ignition::corrected_offsets>' in text
    assert '<sensor name="imu" type="imu">' in text
    assert text.count('<material>') == 1    # kept from extras, not written twice
    assert back.extras[0] == Element('self_collide', text='true')


def test_format_of_the_output():
    text = write_sdf(read_fixture('two_links_orthogonal_2'))
    assert text.startswith('<?xml version="1.0" ?>\n<sdf version="1.9">\n'
                           '  <model name="two_links_orthogonal_2">\n')
    assert '<pose>-0.1 0 0 0 0 0</pose>' in text
    assert '-0 ' not in text and '1.0 ' not in text
    assert [fmt(v) for v in (1.0, -0.0, 0.1, 1e-9, 1e16, -2.5, 0.1 + 0.2)] == [
        '1', '0', '0.1', '1e-09', '1e+16', '-2.5', '0.30000000000000004']


def _urdf_robot():
    return parse_urdf("""<robot name="u">
  <link name="world"/>
  <link name="base"><visual><geometry><box size="1 1 1"/></geometry>
    <material name="red"><color rgba="1 0 0 1"/></material></visual>
    <visual><geometry><sphere radius="0.1"/></geometry></visual></link>
  <link name="arm"/>
  <joint name="fix" type="fixed"><origin xyz="0 0 1"/><parent link="world"/>
    <child link="base"/></joint>
  <joint name="j" type="continuous"><origin xyz="0 0 0.5" rpy="0.1 0.2 0.3"/>
    <parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
    <mimic joint="fix"/></joint>
</robot>""", 'u.urdf')


def test_urdf_model_with_world_link_and_unnamed_visuals():
    robot = _urdf_robot()
    text, back = _round_trip(robot)
    assert [link.name for link in back.links] == ['base', 'arm']
    assert back.joint('fix').parent == 'world'
    assert back.joint('fix').origin == Pose((0.0, 0.0, 1.0))
    assert [v.name for v in back.link('base').visuals] == ['base_visual', 'base_visual_1']
    assert back.link('base').visuals[0].material == Material(None, (1.0, 0.0, 0.0, 1.0))
    assert back.joint('j').kind is JointType.REVOLUTE and back.joint('j').mimic is None
    poses = model_frame_poses(robot)
    back_poses = model_frame_poses(back)
    for name in ('base', 'arm'):
        assert np.allclose(poses[('link', name)].matrix(), back_poses[('link', name)].matrix(),
                           atol=1e-12)


def test_mimic_is_written_in_1_11():
    robot = _urdf_robot()
    _, back = _round_trip(robot, version='1.11')
    assert back.joint('j').mimic == Mimic('fix', 1.0, 0.0)


def _robot(**kwargs):
    base = {'name': 'r', 'links': (Link('a'), Link('b')),
            'joints': (Joint('j', JointType.REVOLUTE, 'a', 'b', axis=(0.0, 0.0, 1.0)),)}
    base.update(kwargs)
    return Robot(**base)


@pytest.mark.parametrize('robot, message', [
    (_robot(joints=(Joint('j', JointType.FLOATING, 'a', 'b'),)), 'SDFormat has no floating'),
    (_robot(joints=(Joint('j', JointType.PLANAR, 'a', 'b'),)), 'SDFormat has no planar'),
    (_robot(joints=(Joint('b', JointType.FIXED, 'a', 'b'),)),
     r"joint 'b': its name 'b' is also used by a link"),
    (_robot(frames=(Frame('a', 'b'),)), r"frame 'a': its name 'a' is also used by a link"),
    (_robot(name=''), 'the robot has no name'),
    (_robot(links=(Link('a'), Link('b'), Link('__x__'))), "the name '__x__' is reserved"),
    (_robot(links=(Link('a'), Link('b'), Link(' world'))), "the name ' world' is reserved"),
    (_robot(links=(Link('a'), Link('b'), Link('  '))), "the name '  ' is reserved or empty"),
    (_robot(links=(Link('a'), Link('b'), Link('a '))),
     r"link 'a ': its name 'a ' \(read as 'a': SDFormat trims names\) is also used by a link"),
    (_robot(links=(Link('a'), Link('b'), Link('world', inertial=Inertial(1.0)))),
     "the link name 'world' is reserved"),
])
def test_conversion_errors(robot, message):
    with pytest.raises(ConversionError, match=message):
        write_sdf(robot)


def test_capsule_needs_1_8():
    robot = _robot(links=(Link('a', visuals=(Visual(geometry=Capsule(1.0, 2.0)),)),
                          Link('b')))
    assert '<capsule>' in write_sdf(robot, version='1.8')
    with pytest.raises(ConversionError, match='capsules need SDFormat 1.8'):
        write_sdf(robot, version='1.7')


def test_unknown_version_is_a_value_error():
    with pytest.raises(ValueError, match="cannot write SDFormat '1.6'"):
        write_sdf(_robot(), version='1.6')


def test_model_built_in_code_round_trips():
    # Poses on both sides of the joint and a root link away from the origin.
    robot = _robot(
        links=(Link('a', pose=Pose.from_rpy((1, 2, 3), (0.3, -0.2, 0.1)),
                    visuals=(Visual(Pose((0, 0, 1)), Box((1, 2, 3)), 'v'),)),
               Link('b', inertial=Inertial(2.0, 1, 0, 0, 2, 0, 3, Pose((0, 0, 0.5))))),
        joints=(Joint('j', JointType.PRISMATIC, 'a', 'b',
                      origin=Pose.from_rpy((0.1, 0, 0), (0, 0, 1.0)), axis=(0.0, 0.6, 0.8),
                      joint_in_child=Pose.from_rpy((0, 0.2, 0), (0.5, 0, 0)),
                      limit=Limit(-1, 1, 5, 6), dynamics=Dynamics(0.1, 0.2, 0.3, 0.4)),),
        frames=(Frame('tip', 'b', Pose((0, 0, 2))),),
        origin=Pose((0, 0, 5)), static=True)
    _, back = _round_trip(robot)
    assert _structure(back) == _structure(robot)
    _assert_same_poses(robot, back)
    joint = back.joint('j')
    assert np.allclose(joint.origin.matrix(), robot.joint('j').origin.matrix(), atol=1e-12)
    assert np.allclose(joint.joint_in_child.matrix(),
                       robot.joint('j').joint_in_child.matrix(), atol=1e-12)
    assert joint.axis == pytest.approx((0.0, 0.6, 0.8))
    assert (joint.limit, joint.dynamics) == (Limit(-1, 1, 5, 6), Dynamics(0.1, 0.2, 0.3, 0.4))
    assert back.origin == Pose((0, 0, 5)) and back.static
    assert back.link('b').inertial == robot.link('b').inertial


def test_extras_are_escaped_and_reindented():
    extra = parse_element('<plugin name="a&apos;b &amp; c" filename="x">\n   <v>1 &lt; 2</v>'
                          '<w a="q"/></plugin>')
    robot = _robot(links=(Link('a', extras=(extra,)), Link('b')))
    text = write_sdf(robot)
    assert '<plugin name="a\'b &amp; c" filename="x">' in text
    assert '        <v>1 &lt; 2</v>\n        <w a="q"/>\n' in text
    element = parse_sdf(text).link('a').extras[0]
    assert element.get('name') == "a'b & c" and element.findtext('v') == '1 < 2'


# --- what SDFormat cannot hold is an error, never unreadable output --------------------------

def test_write_sdf_refuses_poses_that_overflow_and_pitches_it_cannot_invert():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
               '<joint name="ab" type="fixed"><parent link="a"/><child link="b"/>',
               '<origin xyz="1e308 0 0"/></joint>',
               '<joint name="bc" type="fixed"><parent link="b"/><child link="c"/>',
               '<origin xyz="1e308 0 0"/></joint>')
    with pytest.raises(ConversionError, match='its pose in the model frame is not finite') \
            as info:
        write_sdf(parse_urdf(doc, 'robot.urdf'))
    assert (info.value.diagnostic.entity, str(info.value.diagnostic.location)) == (
        "link 'c'", 'robot.urdf:4')
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="screw">',
              '<parent>a</parent><child>b</child>',
              '<screw_thread_pitch>1e-320</screw_thread_pitch>', '</joint>', version='1.10')
    robot = parse_sdf(doc)
    assert 'screw_thread_pitch' in write_sdf(robot, version='1.10')
    with pytest.raises(ConversionError, match=r'a screw pitch of 9.99989e-321 cannot be written '
                       r'as <thread_pitch> \(before SDFormat 1.10\)'):
        write_sdf(robot, version='1.9')


@pytest.mark.parametrize('doc, match', [
    (urdf('<link name="world"/>'), 'the model would hold no link'),
    ('<robot name="world"><link name="a"/></robot>', "the model name 'world' is reserved"),
    ('<robot name="__model__"><link name="a"/></robot>', "the model name '__model__' is "
     'reserved'),
    ('<robot name="a::b"><link name="a"/></robot>', "must not contain '::'"),
])
def test_write_sdf_refuses_models_sdformat_cannot_read_back(doc, match):
    robot = parse_urdf(doc)
    with pytest.raises(ConversionError, match=match):
        write_sdf(robot)


def test_both_writers_quote_and_escape_by_one_rule():
    """The model writer and the URDF converter write a name the same way (xmlio.text)."""
    name = 'a"b<c>&d\tz'
    urdf_text = urdf(f'<link name="{escape_attribute(name)}"><inertial><mass value="1"/>'
                     '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
                     '</link>')
    robot = parse_urdf(urdf_text, 'r.urdf')
    written = f'<link name="{escape_attribute(name)}">'
    assert written in write_sdf(robot) and written in urdf_to_sdf(robot).sdf
    assert written == '<link name="a&quot;b&lt;c&gt;&amp;d&#9;z">'


# --- what libsdformat would refuse is written so that it loads -------------------------------

def _written_loads(text, tmp_path):
    if oracle_path() is not None:
        path = tmp_path / 'written.sdf'
        path.write_text(text)
        result = run_oracle('check', path)
        assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize('inertial, code', [
    (Inertial(-1.0, 1, 0, 0, 1, 0, 1, Pose((0, 0, 0.5))), 'massless-link'),
    (Inertial(2.0, 1, 0, 0, 1, 0, 3), 'bad-inertia')])
def test_inertials_libsdformat_refuses_are_repaired_with_a_warning(inertial, code, tmp_path):
    # libsdformat refuses both ("A link named a has invalid inertia"); the URDF converter's
    # rule (sdf_tools.formats.sdf.inertials) writes what it loads.
    robot = _robot(links=(Link('a', inertial=inertial), Link('b')))
    reporter = Reporter()
    text = write_sdf(robot, reporter=reporter)
    (warning,) = reporter.warnings
    assert (warning.code, warning.entity) == (code, "link 'a'")
    back = parse_sdf(text).link('a').inertial
    if code == 'massless-link':
        assert (back.mass, back.ixx, back.origin) == (1e-3, 1e-6, Pose((0, 0, 0.5)))
    else:
        assert back.mass == 2.0 and back.izz < 3.0
    _written_loads(text, tmp_path)
    with pytest.raises(ConversionError, match='no reporter was given'):
        write_sdf(robot)


def test_a_second_visual_of_one_name_is_renamed_with_a_warning(tmp_path):
    # URDF allows it, SDFormat does not (libsdformat: "visual with name[v] already exists").
    box = Box((1.0, 1.0, 1.0))
    robot = _robot(links=(Link('a', visuals=(Visual(geometry=box, name='v'),
                                             Visual(geometry=box, name='v'),
                                             Visual(geometry=box))), Link('b')))
    reporter = Reporter()
    text = write_sdf(robot, reporter=reporter)
    assert [v.name for v in parse_sdf(text).link('a').visuals] == ['v', 'v_2', 'a_visual']
    (warning,) = reporter.warnings
    assert warning.message == ("<visual> 'v' is not the first of that name in the link; "
                               "libsdformat and Gazebo refuse two, so it is written as 'v_2'")
    _written_loads(text, tmp_path)


def test_renaming_many_visuals_of_one_name_takes_linear_time():
    # Each rename probed v_2, v_3, ... from the start: 8000 visuals named 'v' took 11 s. The
    # names are the same (the unnamed ones: a_visual, a_visual_1, ...); four times the
    # visuals cost about four times the CPU time (quadratic: sixteen).
    box = Box((1.0, 1.0, 1.0))

    def robot(n):
        return _robot(links=(Link('a', visuals=(
            *(Visual(geometry=box, name='v') for _ in range(n)),
            Visual(geometry=box, name='a_visual_2'), *(Visual(geometry=box) for _ in range(n)),
            Visual(geometry=box, name='v'))), Link('b')))

    reporter = Reporter()
    names = [v.name for v in parse_sdf(write_sdf(robot(3), reporter=reporter)).link('a').visuals]
    assert names == ['v', 'v_2', 'v_3', 'a_visual_2', 'a_visual', 'a_visual_1', 'a_visual_3',
                     'v_4']
    assert [d.message.split()[-1] for d in reporter.warnings] == ["'v_2'", "'v_3'", "'v_4'"]

    def cpu_seconds(n):
        model = robot(n)
        return support.least_cpu_seconds(lambda: write_sdf(model, reporter=Reporter()))

    small, large = cpu_seconds(1000), cpu_seconds(4000)
    assert large < 8.0 * small, (f'4x the visuals took {large / small:.1f}x the CPU time '
                                 f'({small:.3f} s -> {large:.3f} s): not linear')


def test_geometries_the_reader_keeps_are_written_back(tmp_path):
    polyline = ('<polyline><point>0 0</point><point>1 0</point><point>0 1</point>'
                '<height>1</height></polyline>')
    text = sdf('<link name="a"><visual name="v"/>',
               f'<collision name="c"><geometry>{polyline}{polyline}</geometry></collision></link>')
    robot = parse_sdf(text)
    written = write_sdf(robot)
    back = parse_sdf(written).link('a')
    assert back.visuals[0].geometry is None
    shapes = back.collisions[0].geometry.elements
    assert [[' '.join(e.text.split()) for e in shape] for shape in shapes] == \
        [['0 0', '1 0', '0 1', '1']] * 2
    _written_loads(written, tmp_path)


def test_frames_of_models_without_links_are_written_fixed_in_the_model_frame(tmp_path):
    text = sdf('<model name="inner"><static>true</static>',
               '<frame name="f"><pose>0 0 1 0 0 0</pose></frame></model>')
    robot = parse_sdf(text)
    written = write_sdf(robot)
    assert [(f.name, f.attached_to, f.pose) for f in parse_sdf(written).frames] == [
        ('inner::f', 'world', Pose((0, 0, 1)))]
    assert '<static>true</static>' in written   # the nested model: SDFormat needs it
    _written_loads(written, tmp_path)
