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

"""Tests of the model to URDF writer (sdf_tools.formats.urdf.writer)."""

import math

from lxml import etree
import numpy as np
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.model import Box
from sdf_tools.model import Calibration
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Dynamics
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Material
from sdf_tools.model import Mesh
from sdf_tools.model import Mimic
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import SafetyController
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.records import replace
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import to_lxml
from sdf_tools.xmlio.parse import parse_xml
import support
from support import corpus_files
from support import corpus_ids
from support import NO_CORPUS

TOL = 1e-12


def assert_pose_close(a: Pose, b: Pose, what):
    np.testing.assert_allclose(a.xyz, b.xyz, atol=TOL, rtol=0, err_msg=what)
    np.testing.assert_allclose(a.matrix()[:3, :3], b.matrix()[:3, :3], atol=TOL, rtol=0,
                               err_msg=what)


def assert_equivalent(a: Robot, b: Robot):
    """Assert that two models have the same links, joints, materials and extensions."""
    assert b.name == a.name
    assert [link.name for link in b.links] == [link.name for link in a.links]
    for la, lb in zip(a.links, b.links):
        what = f'link {la.name!r}'
        assert (la.inertial is None) == (lb.inertial is None), what
        if la.inertial is not None:
            ia, ib = la.inertial, lb.inertial
            assert (ia.mass, ia.ixx, ia.ixy, ia.ixz, ia.iyy, ia.iyz, ia.izz) == (
                ib.mass, ib.ixx, ib.ixy, ib.ixz, ib.iyy, ib.iyz, ib.izz), what
            assert_pose_close(ia.origin, ib.origin, what + ' inertial')
        assert len(lb.visuals) == len(la.visuals), what
        for va, vb in zip(la.visuals, lb.visuals):
            assert (vb.name, vb.geometry, vb.material) == (va.name, va.geometry, va.material)
            assert_pose_close(va.origin, vb.origin, what + ' visual')
        assert len(lb.collisions) == len(la.collisions), what
        for ca, cb in zip(la.collisions, lb.collisions):
            assert (cb.name, cb.geometry) == (ca.name, ca.geometry), what
            assert_pose_close(ca.origin, cb.origin, what + ' collision')
    assert [j.name for j in b.joints] == [j.name for j in a.joints]
    for ja, jb in zip(a.joints, b.joints):
        fields = ('kind', 'parent', 'child', 'axis', 'limit', 'dynamics', 'mimic',
                  'calibration', 'safety_controller')
        assert [getattr(jb, f) for f in fields] == [getattr(ja, f) for f in fields], ja.name
        assert_pose_close(ja.origin, jb.origin, f'joint {ja.name!r}')
    assert b.materials == a.materials
    assert [g.reference for g in b.gazebo] == [g.reference for g in a.gazebo]
    for ga, gb in zip(a.gazebo, b.gazebo):
        assert [canonical(e) for e in gb.elements] == [canonical(e) for e in ga.elements]
    assert [(k.tag, k.name, k.gazebo_before, canonical(k.element))
            for k in b.urdf_extras] == [(k.tag, k.name, k.gazebo_before,
                                         canonical(k.element)) for k in a.urdf_extras]
    assert (b.origin is None) == (a.origin is None)


def canonical(element) -> bytes:
    """Return an element's (a value's) C14N text, whitespace-only text and tails removed."""
    if isinstance(element, Element):
        element = to_lxml(element)
    element = etree.fromstring(etree.tostring(element))
    for e in element.iter():
        if e.text is not None and not e.text.strip():
            e.text = None
        if e.tail is not None and not e.tail.strip():
            e.tail = None
    element.tail = None
    return etree.tostring(element, method='c14n', exclusive=True)


def rewrite(robot, **kwargs):
    text, _ = write_urdf(robot, **kwargs)
    return text, parse_urdf(text, 'written.urdf')


def error_of(robot, match, **kwargs) -> ConversionError:
    with pytest.raises(ConversionError, match=match) as info:
        write_urdf(robot, **kwargs)
    return info.value


def arm(**joint_fields) -> Robot:
    """Return a two-link robot whose joint ``j`` gets ``joint_fields``."""
    fields = {'name': 'j', 'kind': JointType.REVOLUTE, 'parent': 'base', 'child': 'tip',
              'origin': Pose((0.0, 0.0, 0.5)), 'axis': (0.0, 0.0, 1.0),
              'limit': Limit(-1.0, 1.0, 10.0, 2.0)}
    fields.update(joint_fields)
    return Robot('arm', links=(Link('base'), Link('tip')), joints=(Joint(**fields),))


# --- round trips --------------------------------------------------------------------------

@pytest.mark.skipif(not corpus_files(), reason=NO_CORPUS)
@pytest.mark.parametrize('path', corpus_files(), ids=corpus_ids())
def test_corpus_round_trip(path):
    robot = parse_urdf(path.read_bytes(), path.name)
    _, again = rewrite(robot)
    assert_equivalent(robot, again)


def test_round_trip_of_every_urdf_element():
    red = Material('red', (1.0, 0.0, 0.0, 1.0))
    robot = Robot(
        'every',
        materials=(red, Material('wood', texture='package://p/wood.png')),
        origin=Pose.from_rpy((0.0, 0.0, 0.25), (0.0, 0.0, 0.5)),
        links=(
            Link('base', inertial=Inertial(2.5, 0.2, -0.01, 0.02, 0.25, -0.03, 0.3,
                                           Pose.from_rpy((0.1, 0.0, -0.2), (0.3, 0.2, 0.1)))),
            Link('a', visuals=(
                Visual(Pose.from_rpy((0.1, 0.2, 0.3), (math.pi, 0.0, 0.0)), Box((1.0, 2.0, 3.0)),
                       'v1', red),
                Visual(geometry=Mesh('package://p/m.dae', (0.001, 0.001, 0.001)),
                       material=Material('blue', (0.0, 0.0, 1.0, 0.5))),
                Visual(geometry=Mesh('file:///a b/m.stl')),
                Visual(geometry=Capsule(0.1, 0.4), material=Material('wood',
                                                                     texture='package://p/'
                                                                     'wood.png')),
            ), collisions=(
                Collision(Pose((0.0, 0.0, -1e-05)), Cylinder(0.05, 1.0), 'c<&>"1'),
                Collision(geometry=Sphere(0.3)),
            )),
            Link('b'), Link('c'), Link('d'), Link('e'),
        ),
        joints=(
            Joint('j_rev', JointType.REVOLUTE, 'base', 'a', Pose.from_rpy((1.0, 0.0, 0.0),
                                                                          (0.0, math.pi / 2,
                                                                           0.0)),
                  (0.0, 1.0, 0.0), Limit(-1.5, 1.5, 30.0, 1.0), Dynamics(0.5, 0.25),
                  calibration=Calibration(0.1, None),
                  safety_controller=SafetyController(10.0, 15.0, -1.4, 1.4)),
            Joint('j_cont', JointType.CONTINUOUS, 'a', 'b', axis=(0.0, 0.0, -1.0),
                  limit=Limit(effort=5.0, velocity=3.0),
                  calibration=Calibration(falling=-0.2)),
            Joint('j_pri', JointType.PRISMATIC, 'b', 'c', axis=(0.6, 0.8, 0.0),
                  limit=Limit(0.0, 0.2, 100.0, 0.1),
                  mimic=Mimic('j_rev', -0.5, 0.01)),
            Joint('j_fixed', JointType.FIXED, 'c', 'd', Pose((0.0, 0.0, 1e16))),
            Joint('j_planar', JointType.PLANAR, 'd', 'e', axis=(0.0, 0.0, 1.0)),
        ))
    text, again = rewrite(robot)
    assert_equivalent(robot, again)
    assert again.warnings == ()
    assert_pose_close(again.origin, robot.origin, 'robot origin')
    assert '<material name="red"/>' in text  # a reference to the top-level material
    assert 'name="c&lt;&amp;&gt;&quot;1"' in text
    assert 'xyz="0 0 1e+16"' in text and 'xyz="0 0 -1e-05"' in text


def test_numbers_are_short_and_exact():
    robot = arm(origin=Pose((0.1 + 0.2, -0.0, 3.0)), limit=Limit(-0.0, 1e-300, 1.0, 2.5))
    text, again = rewrite(robot)
    assert '<origin xyz="0.30000000000000004 0 3"/>' in text
    assert 'lower="0" upper="1e-300" effort="1" velocity="2.5"' in text
    assert '-0' not in text and '.0"' not in text
    assert again.joint('j').limit == Limit(0.0, 1e-300, 1.0, 2.5)


@pytest.mark.parametrize('pitch', [math.pi / 2, -math.pi / 2, math.pi / 2 - 1e-9,
                                   -math.pi / 2 + 3e-13, math.pi / 2 - 1e-16, 0.3])
def test_rotations_near_gimbal_lock_round_trip(pitch):
    # rpy from asin(pitch) would lose up to 1e-7 here; the writer's decomposition does not.
    for roll, yaw in [(0.0, 0.0), (0.7, -2.9), (-3.1, 1.2)]:
        origin = Pose.from_rpy((0.0, 0.0, 0.0), (roll, pitch, yaw))
        _, again = rewrite(arm(origin=origin))
        np.testing.assert_allclose(again.joint('j').origin.matrix(), origin.matrix(),
                                   atol=2e-15, rtol=0)


def test_identity_origins_are_omitted():
    text, _ = rewrite(arm(origin=Pose()))
    assert '<origin' not in text


# --- documented mappings ------------------------------------------------------------------

def test_revolute_without_limit_is_continuous():
    text, again = rewrite(arm(limit=None))
    assert 'type="continuous"' in text and '<limit' not in text
    assert again.joint('j').kind is JointType.CONTINUOUS


def test_revolute_with_infinite_limits_is_continuous():
    text, again = rewrite(arm(limit=Limit(-math.inf, math.inf, 7.0, 3.0)))
    assert again.joint('j').kind is JointType.CONTINUOUS
    assert again.joint('j').limit == Limit(0.0, 0.0, 7.0, 3.0)
    assert '<limit effort="7" velocity="3"/>' in text


def test_prismatic_without_limit_needs_a_chosen_limit():
    robot = arm(kind=JointType.PRISMATIC, limit=None)
    error = error_of(robot, "joint 'j': is a prismatic joint without limits")
    assert '--unlimited-prismatic LOWER UPPER EFFORT VELOCITY' in str(error)
    assert error.diagnostic.code == 'missing-limit'
    _, again = rewrite(robot, unlimited_prismatic=Limit(-3.0, 3.0, 50.0, 0.5))
    assert again.joint('j').limit == Limit(-3.0, 3.0, 50.0, 0.5)


SDF_JOINTS = """<sdf version="{version}"><model name="m">
  <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="bounded" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>
  <joint name="slide" type="prismatic"><parent>a</parent><child>c</child>
    <axis><xyz>1 0 0</xyz><limit><lower>0</lower><upper>0.5</upper><effort>10</effort>
    </limit></axis></joint>
  <joint name="wheel" type="revolute"><parent>a</parent><child>d</child>
    <axis><xyz>0 1 0</xyz></axis></joint>
</model></sdf>"""


@pytest.mark.parametrize('version', ['1.9', '1.11'])
def test_limits_not_enforced_are_written_as_a_stated_value(version):
    # SDFormat 1.9's effort and velocity default to -1 and 1.10's to inf: "not enforced".
    robot = parse_sdf(SDF_JOINTS.format(version=version), 'm.sdf')
    text, warnings = write_urdf(robot)
    root = etree.fromstring(text.encode())
    limits = {joint.get('name'): dict(joint.find('limit').attrib)
              for joint in root.iter('joint') if joint.find('limit') is not None}
    assert limits == {'bounded': {'lower': '-1', 'upper': '1', 'effort': '1e+16',
                                  'velocity': '1e+16'},
                      'slide': {'lower': '0', 'upper': '0.5', 'effort': '10',
                                'velocity': '1e+16'}}
    # A wheel (1.9: limits +-1e16, its "unlimited") is continuous; nothing to say in <limit>.
    assert root.xpath("joint[@name='wheel']/@type") == ['continuous']
    (warning,) = warnings
    assert warning.code is Code.NO_URDF_EQUIVALENT and warning.entity == "robot 'm'"
    assert warning.message == (
        "2 joint(s) ('bounded', 'slide') with an effort or velocity limit that is not "
        "enforced (SDFormat's -1 or inf): URDF requires both and cannot say \"unlimited\" "
        '(pinocchio refuses -1), so effort 1e+16 and velocity 1e+16 are written for them '
        '(--unlimited-effort EFFORT VELOCITY chooses the values)')
    text, warnings = write_urdf(robot, unlimited_effort=(100.0, 2.0))
    assert warnings == ()
    assert parse_urdf(text).joint('bounded').limit == Limit(-1.0, 1.0, 100.0, 2.0)
    assert parse_urdf(text).joint('slide').limit == Limit(0.0, 0.5, 10.0, 2.0)


def test_pinocchio_and_yourdfpy_load_limits_not_enforced(tmp_path):
    pinocchio = pytest.importorskip('pinocchio')
    yourdfpy = pytest.importorskip('yourdfpy')
    path = tmp_path / 'm.urdf'
    path.write_text(write_urdf(parse_sdf(SDF_JOINTS.format(version='1.9'), 'm.sdf'))[0])
    model = pinocchio.buildModelFromUrdf(str(path))
    # The wheel is continuous, without <limit>: pinocchio's infinity.
    assert list(model.effortLimit) == [1e16, 10.0, math.inf]
    urdf = yourdfpy.URDF.load(str(path), load_meshes=False, build_collision_scene_graph=False,
                              load_collision_meshes=False)
    assert urdf.joint_map['slide'].limit.velocity == 1e16


def test_a_visual_material_without_name_is_written_as_urdfdom_reads_it():
    # SDFormat colours have no name; urdfdom refuses a <material> without the attribute.
    red = Material(None, (1.0, 0.0, 0.0, 1.0))
    robot = Robot('r', links=(Link('a', inertial=Inertial(1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0),
                                   visuals=(Visual(geometry=Sphere(1.0), material=red),),
                                   collisions=(Collision(geometry=Sphere(1.0)),)),))
    text, again = rewrite(robot)
    assert '<material name="">' in text
    assert again.links[0].visuals[0].material == red and again.warnings == ()


SCRIPT = ('<script><uri>file://media/materials/scripts/gazebo.material</uri>'
          '<name>Gazebo/Blue</name></script>')
SDF_MATERIALS = f"""<sdf version="1.9"><model name="m">
  <link name="a"><visual name="v"><geometry><sphere><radius>1</radius></sphere></geometry>
    <material>{SCRIPT}</material></visual></link>
  <link name="b"><visual name="v"><geometry><sphere><radius>1</radius></sphere></geometry>
    <material>{SCRIPT}<diffuse>0 0 1 1</diffuse></material></visual></link>
  <link name="c"><visual name="v"><geometry><sphere><radius>1</radius></sphere></geometry>
    <material>{SCRIPT}<diffuse>0 1 1 1</diffuse></material></visual></link>
  <joint name="ab" type="fixed"><parent>a</parent><child>b</child></joint>
  <joint name="ac" type="fixed"><parent>a</parent><child>c</child></joint>
</model></sdf>"""


def test_materials_read_back_as_the_sdformat_gives_them():
    # An SDFormat <material> is named by its script; URDF names define colours.
    text, warnings = write_urdf(parse_sdf(SDF_MATERIALS, 'm.sdf'))
    assert warnings == ()
    root = etree.fromstring(text.encode())
    # A name without a colour says nothing in URDF (readers warn: "undefined"), the script
    # is in the <gazebo> extension; a name given a second colour would read as the first.
    assert [[(m.get('name'), m.find('color').get('rgba')) for m in link.iter('material')]
            for link in root.iter('link')] == [[], [('Gazebo/Blue', '0 0 1 1')],
                                               [('', '0 1 1 1')]]
    again = parse_urdf(text, 'm.urdf')
    assert again.warnings == ()
    assert [[v.material and v.material.rgba for v in link.visuals] for link in again.links] \
        == [[None], [(0.0, 0.0, 1.0, 1.0)], [(0.0, 1.0, 1.0, 1.0)]]
    assert [b.reference for b in again.gazebo] == ['a', 'b', 'c']
    assert all(b.elements[0].find('material/script/name').text == 'Gazebo/Blue'
               for b in again.gazebo)


@pytest.mark.oracle
def test_libsdformat_keeps_the_visual_whose_material_has_no_name(tmp_path):
    if support.oracle_path() is None:
        pytest.skip(support.NO_ORACLE)
    robot = Robot('r', links=(Link('a', inertial=Inertial(1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0),
                                   visuals=(Visual(geometry=Sphere(1.0),
                                                   material=Material(None, (1.0, 0.0, 0.0,
                                                                            1.0))),),
                                   collisions=(Collision(geometry=Sphere(1.0)),)),))
    path = tmp_path / 'r.urdf'
    path.write_text(write_urdf(robot)[0])
    converted = support.run_oracle('convert', path)
    assert 'material must contain a name' not in converted.stderr
    sdf = etree.fromstring(converted.stdout.encode())
    assert len(sdf.findall('model/link/visual')) == len(sdf.findall('model/link/collision')) == 1
    assert sdf.findtext('model/link/visual/material/diffuse').split() == ['1', '0', '0', '1']


def test_gazebo_blocks_are_kept():
    text = ('<robot name="r"><link name="a"/>'
            '<gazebo reference="a"><material>Gazebo/Red</material>'
            '<sensor name="s" type="camera"><update_rate>30</update_rate></sensor></gazebo>'
            '<gazebo><plugin name="p" filename="libp.so"><x a="1">t</x></plugin></gazebo>'
            '<gazebo><ignition::corrected_offsets>1</ignition::corrected_offsets></gazebo>'
            '</robot>')
    robot = parse_urdf(text)
    written, again = rewrite(robot)
    assert_equivalent(robot, again)
    assert '<ignition::corrected_offsets>1</ignition::corrected_offsets>' in written


def test_elements_the_model_does_not_hold_are_written_back_as_they_were():
    # URDF to URDF loses nothing: <transmission>, <ros2_control> and unknown elements come
    # back as written, in their order among the <gazebo> blocks, after the joints.
    text = ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
            '<transmission name="t1"><type>SimpleTransmission</type>'
            '<joint name="j"><hardwareInterface>Effort</hardwareInterface></joint>'
            '</transmission>\n<link name="a"/><link name="b"/>\n'
            '<gazebo reference="a"><mu1>0.5</mu1></gazebo>\n'
            '<ros2_control name="sys" type="system"><hardware><plugin>mock</plugin>'
            '</hardware><joint name="j"><command_interface name="position"/></joint>'
            '</ros2_control>\n<joint name="j" type="continuous"><parent link="a"/>'
            '<child link="b"/></joint>\n<gazebo><plugin name="p" filename="f"><ignition:x/>'
            '</plugin></gazebo>\n<webots><ignition:y a="1"/></webots>\n</robot>')
    robot = parse_urdf(text, 'r.urdf')
    assert [(k.tag, k.name, k.location.line, k.gazebo_before) for k in robot.urdf_extras] == [
        ('transmission', 't1', 2, 0), ('ros2_control', 'sys', 5, 1), ('webots', None, 8, 2)]
    written, again = rewrite(robot)
    assert_equivalent(robot, again)
    order = [(e.tag, e.get('name')) for e in parse_xml(written) if e.tag not in ('link',)]
    assert order == [('joint', 'j'), ('transmission', 't1'), ('gazebo', None),
                     ('ros2_control', 'sys'), ('gazebo', None), ('webots', None)]
    assert '<webots>\n    <ignition:y a="1"/>\n  </webots>' in written
    assert 'xmlns' not in written


# --- conversion errors --------------------------------------------------------------------

@pytest.mark.parametrize('kind', [JointType.BALL, JointType.UNIVERSAL, JointType.REVOLUTE2,
                                  JointType.SCREW, JointType.GEARBOX])
def test_joints_without_urdf_equivalent(kind):
    error = error_of(arm(kind=kind), f"joint 'j': is a {kind.value} joint; URDF has no "
                     f'{kind.value} joint')
    assert error.diagnostic.code == 'no-urdf-equivalent'


def test_other_geometry():
    robot = replace(arm(), links=(Link('base', visuals=(
        Visual(geometry=OtherGeometry('plane', (Element('plane'),))),)), Link('tip')))
    error_of(robot, "link 'base': a <visual> has a <plane> geometry; URDF has only box")
    robot = replace(arm(), links=(Link('base', collisions=(Collision(),)), Link('tip')))
    error_of(robot, "link 'base': a <collision> has no geometry; URDF requires one")


def test_lossy_writes_the_nearest_urdf_and_names_what_it_leaves_out():
    here = SourceLocation('m.sdf', 3)
    robot = Robot('sdf', links=(
        Link('a', visuals=(Visual(geometry=OtherGeometry('plane', (Element('plane'),)),
                                  name='floor', location=here), Visual(geometry=Sphere(1.0)))),
        Link('b', collisions=(Collision(location=here),)), Link('c')), joints=(
        Joint('ball', JointType.BALL, 'a', 'b', location=here),
        Joint('hinge', JointType.CONTINUOUS, 'a', 'c'),
        Joint('loop', JointType.CONTINUOUS, 'b', 'c', location=here)))
    error = error_of(robot, 'plane')
    assert [d.code for d in error.diagnostics] == ['kinematic-loop'] + 3 * [
        'no-urdf-equivalent']
    assert all(d.message.endswith('--lossy writes the nearest URDF without it')
               for d in error.diagnostics)
    text, dropped = write_urdf(robot, lossy=True)
    assert [str(d) for d in dropped] == [
        "m.sdf:3: warning: joint 'loop': is left out: it closes a kinematic loop (link 'c' is "
        "already the child of joint 'hinge'); a URDF is a tree",
        "m.sdf:3: warning: link 'a': <visual> 'floor' is left out: it has a <plane> "
        'geometry; URDF has only box, cylinder, sphere, capsule and mesh',
        "m.sdf:3: warning: link 'b': <collision> #1 is left out: it has no geometry; URDF "
        'requires one',
        "m.sdf:3: warning: joint 'ball': its motion is left out: it is written as a fixed "
        'joint (URDF has no ball joint)']
    again = parse_urdf(text)
    assert [len(link.visuals) + len(link.collisions) for link in again.links] == [1, 0, 0]
    assert [(j.name, j.kind) for j in again.joints] == [('ball', JointType.FIXED),
                                                        ('hinge', JointType.CONTINUOUS)]
    assert write_urdf(arm(), lossy=True)[1] == ()  # nothing to leave out


def test_all_problems_are_reported_together():
    robot = Robot('sdf', links=(Link('a'), Link('b'), Link('c')), joints=(
        Joint('ball', JointType.BALL, 'a', 'b'),
        Joint('slide', JointType.PRISMATIC, 'a', 'c')))
    robot = replace(robot, links=robot.links + (Link('d'),))
    error = error_of(robot, 'root links')
    assert [d.code for d in error.diagnostics] == ['several-roots', 'no-urdf-equivalent',
                                                   'missing-limit']


# What xacro would evaluate is never written into a URDF (a launch file may run xacro on it).
MARKUP_SDF = ('<sdf version="1.9"><model name="m">\n'
              "<link name=\"${__import__('os').getcwd()}\"/>\n"
              '<link name="b"><visual name="v"><geometry><mesh><uri>$(find pkg)/m.stl</uri>'
              '</mesh></geometry></visual></link>\n'
              "<joint name=\"j\" type=\"fixed\"><parent>${__import__('os').getcwd()}</parent>"
              '<child>b</child></joint>\n</model></sdf>\n')


@pytest.mark.parametrize('lossy', [False, True])
def test_text_xacro_would_evaluate_is_refused_never_written(lossy):
    from sdf_tools.formats.sdf.reader import parse_sdf
    robot = parse_sdf(MARKUP_SDF, 'm.sdf')
    with pytest.raises(ConversionError) as caught:
        write_urdf(robot, lossy=lossy)
    tail = ('is xacro markup, which xacro would evaluate as code if given this URDF '
            '(sdf_tools refuses a .urdf holding it); a URDF cannot hold it')
    assert [str(d) for d in caught.value.diagnostics] == [
        f"m.sdf:2: link '${{__import__('os').getcwd()}}': <link> name "
        f"'${{__import__('os').getcwd()}}' {tail}",
        f"m.sdf:3: link 'b': <mesh> filename '$(find pkg)/m.stl' {tail}",
        f"m.sdf:4: joint 'j': <parent> link '${{__import__('os').getcwd()}}' {tail}"]
    plain = parse_sdf(MARKUP_SDF.replace("${__import__('os').getcwd()}", 'a').replace(
        '$(find pkg)', '/pkg'), 'm.sdf')
    text, _ = write_urdf(plain, lossy=lossy)
    assert '<link name="a"' in text  # the rest is written


def test_a_long_name_xacro_would_evaluate_is_quoted_short():
    robot = Robot(name='r', links=(Link(name='${' + 'x' * 1_000_000 + '}'),))
    with pytest.raises(ConversionError) as caught:
        write_urdf(robot)
    assert len(str(caught.value)) < 600


def test_an_auto_inertial_is_written_as_its_values_without_the_densities():
    # <inertial auto="true">: a unit box of density 2 and a sphere (r 0.5) of density 3,
    # 1 m apart. The collisions' <density> only weighed them: the URDF holds the values.
    robot = parse_sdf('<sdf version="1.11"><model name="m"><link name="l"><inertial '
                      'auto="true"/><collision name="a"><density>2</density><geometry><box>'
                      '<size>1 1 1</size></box></geometry></collision><collision name="b">'
                      '<pose>1 0 0 0 0 0</pose><density>3</density><geometry><sphere><radius>'
                      '0.5</radius></sphere></geometry></collision></link></model></sdf>')
    text, warnings = write_urdf(robot)
    assert warnings == () and 'gazebo' not in text and 'density' not in text
    inertial = parse_urdf(text).link('l').inertial
    m2 = 3 * 4 / 3 * math.pi / 8
    assert inertial.mass == pytest.approx(2 + m2, rel=1e-15)
    assert inertial.origin.xyz == pytest.approx((m2 / (2 + m2), 0, 0), abs=1e-15)
    # I_yy: the box's 2 (1 + 1) / 12 and the sphere's 2/5 m r^2, each moved to the centre.
    x = m2 / (2 + m2)
    assert inertial.iyy == pytest.approx(1 / 3 + 2 * x * x + 0.4 * m2 * 0.25
                                         + m2 * (1 - x) ** 2, rel=1e-14)
