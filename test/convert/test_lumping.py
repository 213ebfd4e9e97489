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
Tests of sdf_tools.convert.lumping: fixed-joint lumping, through the whole converter.

Mass properties, moved visuals, collisions, joints and blobs, references to lumped links and
the frames kept for lumped joints and links.
"""

import math

from diagnostics import INERTIA
from diagnostics import urdf
import numpy as np
import pytest
from sdf_tools import batch_transforms
from sdf_tools import transforms
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.model import Pose
from urdf_snippets import convert
from urdf_snippets import FIXTURE_DIR
from urdf_snippets import joint
from urdf_snippets import link
from urdf_snippets import model_of
from urdf_snippets import pose_is
from urdf_snippets import robot


def _random_inertial(rng):
    a = rng.normal(size=(3, 3))
    moments = np.linalg.eigvalsh(a @ a.T) + 0.1
    while moments[0] + moments[1] < moments[2]:
        moments = np.linalg.eigvalsh((a := rng.normal(size=(3, 3))) @ a.T) + 0.1
    return (float(rng.uniform(0.1, 3)), rng.uniform(-0.5, 0.5, 3), rng.uniform(-3, 3, 3),
            moments)


def _tensor(rpy, moments):
    r = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*rpy))
    return r @ np.diag(moments) @ r.T


def test_lumped_inertia_equals_an_independent_rigid_body_computation():
    rng = np.random.default_rng(7)
    for _ in range(20):
        parent, child = _random_inertial(rng), _random_inertial(rng)
        j_xyz, j_rpy = rng.uniform(-1, 1, 3), rng.uniform(-3, 3, 3)

        def v(*values):
            return ' '.join(repr(float(x)) for x in values)

        def inertial_xml(m, c, rpy, moments):
            return (f'<inertial><origin xyz="{v(*c)}" rpy="{v(*rpy)}"/><mass value="{v(m)}"/>'
                    f'<inertia ixx="{v(moments[0])}" ixy="0" ixz="0" iyy="{v(moments[1])}" '
                    f'iyz="0" izz="{v(moments[2])}"/></inertial>')

        urdf = robot(
            f'<link name="p">{inertial_xml(*parent)}</link>',
            f'<link name="c">{inertial_xml(*child)}</link>',
            '<joint name="j" type="fixed"><parent link="p"/><child link="c"/>'
            f'<origin xyz="{v(*j_xyz)}" rpy="{v(*j_rpy)}"/></joint>')
        inertial = model_of(convert(urdf)).find("link[@name='p']/inertial")
        # Independent: both bodies about the parent link origin, parallel axis to the COM.
        x_pj = Pose.from_rpy(j_xyz, j_rpy).matrix()
        m1, c1, r1, i1 = parent
        m2, c2, r2, i2 = child
        c2p = x_pj[:3, :3] @ c2 + x_pj[:3, 3]
        i2p = x_pj[:3, :3] @ _tensor(r2, i2) @ x_pj[:3, :3].T
        total = m1 + m2
        com = (m1 * c1 + m2 * c2p) / total

        def shift(m, c):
            return m * (c @ c * np.eye(3) - np.outer(c, c))

        about_com = (_tensor(r1, i1) + shift(m1, c1 - com) + i2p + shift(m2, c2p - com))
        pose = [float(v) for v in inertial.findtext('pose').split()]
        r_out = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*pose[3:]))
        i = {k: float(inertial.findtext(f'inertia/{k}'))
             for k in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')}
        tensor = np.array([[i['ixx'], i['ixy'], i['ixz']], [i['ixy'], i['iyy'], i['iyz']],
                           [i['ixz'], i['iyz'], i['izz']]])
        assert float(inertial.findtext('mass')) == pytest.approx(total, rel=1e-12)
        np.testing.assert_allclose(pose[:3], com, atol=1e-12)
        np.testing.assert_allclose(r_out @ tensor @ r_out.T, about_com, atol=1e-12)


def test_lumping_moves_elements_reparents_joints_and_records_frames():
    result = convert(robot(
        link('base', '<visual><geometry><box size="1 1 1"/></geometry></visual>'),
        link('mid', '<visual><origin xyz="0 1 0"/><geometry><sphere radius="0.1"/>'
             '</geometry></visual>'),
        link('arm'),
        joint('j_fix', 'base', 'mid', 'fixed',
              '<origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/>'),
        joint('j_rev', 'mid', 'arm', extra='<origin xyz="0 0 0.3"/>')))
    m = model_of(result)
    assert [e.get('name') for e in m.iterchildren('link')] == ['base', 'arm']
    visual = m.find("link[@name='base']/visual[@name='base_fixed_joint_lump__mid_visual_1']")
    assert pose_is(visual.find('pose'), '0 0 0 0 0 1.5707963267948966')
    rev = m.find("joint[@name='j_rev']")
    assert rev.findtext('parent') == 'base'
    assert pose_is(rev.find('pose'), '1 0 0.3 0 0 1.5707963267948966')
    frames = [(f.get('name'), f.get('attached_to'), f.findtext('pose'))
              for f in m.iterchildren('frame')]
    assert frames[0][:2] == ('j_fix', 'base') and frames[1] == ('mid', 'j_fix', None)


def test_preserve_fixed_joint_disable_lumping_and_the_global_option():
    urdf = robot(link('base'), link('a'), link('b'), link('c'),
                 joint('ja', 'base', 'a', 'fixed'), joint('jb', 'base', 'b', 'fixed'),
                 joint('jc', 'base', 'c', 'fixed'),
                 '<gazebo reference="ja"><preserveFixedJoint>true</preserveFixedJoint></gazebo>'
                 '<gazebo reference="jb"><disableFixedJointLumping>1</disableFixedJointLumping>'
                 '</gazebo>')
    m = model_of(convert(urdf))
    assert m.find("joint[@name='ja']").get('type') == 'fixed'
    jb = m.find("joint[@name='jb']")
    assert jb.get('type') == 'revolute'
    assert (jb.findtext('axis/limit/lower'), jb.findtext('axis/limit/upper')) == ('0', '0')
    assert m.find("joint[@name='jc']") is None
    kept = model_of(convert(urdf, preserve_fixed_joints=True))
    assert kept.find("joint[@name='jc']").get('type') == 'fixed'
    assert kept.find('frame') is None


def test_massless_lump_converts_where_libsdformat_fails_on_a_nan_centre_of_mass():
    failure = (FIXTURE_DIR / 'massless_lump.sdformat12.3.0.txt').read_text()
    assert 'Pose values must be finite' in failure
    result = urdf_to_sdf(parse_urdf((FIXTURE_DIR / 'massless_lump.urdf').read_bytes()))
    head = model_of(result).find("link[@name='head']")
    assert [float(v) for v in head.findtext('inertial/pose').split()] == [0.0] * 6
    assert float(head.findtext('inertial/mass')) == 0.5
    assert 'nan' not in result.sdf.lower() and 'inf' not in result.sdf.lower()


def test_poses_that_lumping_makes_infinite_are_an_error():
    # Each origin is finite; composed through two lumped links they overflow. libsdformat
    # writes 'inf' and then refuses its own file ("Pose values must be finite").
    far = '<origin xyz="1e308 0 0"/>'
    urdf = robot(link('base'), '<link name="a"/>', '<link name="b"/>', link('c'),
                 joint('ja', 'base', 'a', 'fixed', far), joint('jb', 'a', 'b', 'fixed', far),
                 joint('jc', 'b', 'c'))
    with pytest.raises(DescriptionError, match="test.urdf:1: joint 'jc': a <pose> of its "
                       r'<joint> is not finite \(inf 0 0 0 0 0\)'):
        convert(urdf)


def test_a_lumped_sensor_pose_that_composing_makes_infinite_is_an_error_naming_it():
    far = '<origin xyz="1e308 0 0"/>'
    urdf = robot(link('base'), '<link name="a"/>', '<link name="cam"/>',
                 joint('ja', 'base', 'a', 'fixed', far), joint('jc', 'a', 'cam', 'fixed', far),
                 '<gazebo reference="cam"><sensor name="s" type="camera">'
                 '<pose>0 0 1 0 0 0</pose></sensor></gazebo>')
    with pytest.raises(DescriptionError, match=r"sensor 's': a <pose> of its <sensor> is not "
                       r'finite \(inf 0 1 0 0 0\)'):
        convert(urdf)


@pytest.mark.parametrize('pose', [
    '<pose degrees="true">0 0 0.05 0 0 90</pose>',
    '<pose rotation_format="quat_xyzw">0 0 0.05 0 0 0.7071067811865476 0.7071067811865476'
    '</pose>'])
def test_lumped_sensor_poses_honour_degrees_and_quaternions(pose):
    # libsdformat 12.3 drops the attributes and reads 90 as radians (or refuses 7 numbers).
    result = convert(robot(link('base'), link('cam'),
                           joint('j', 'base', 'cam', 'fixed', '<origin xyz="1 0 0"/>'),
                           f'<gazebo reference="cam"><sensor name="s" type="camera">{pose}'
                           '</sensor></gazebo>'))
    sensor = model_of(result).find("link[@name='base']/sensor")
    assert pose_is(sensor.find('pose'), f'1 0 0.05 0 0 {math.pi / 2!r}')


def test_frames_of_a_joint_and_link_with_the_same_name_get_distinct_names():
    result = convert(robot(link('base'), link('hand'), joint('hand', 'base', 'hand', 'fixed')))
    frames = {f.get('name'): f.get('attached_to') for f in model_of(result).iter('frame')}
    assert frames == {'hand': 'base', 'hand_frame': 'hand'}


def test_plugin_offsets_of_a_lumped_link_are_composed_once():
    result = convert(robot(
        link('base'), link('imu'),
        joint('jf', 'base', 'imu', 'fixed', '<origin xyz="-0.032 0 0.078"/>'),
        '<gazebo><plugin name="imu_plugin" filename="libimu.so"><bodyName>imu</bodyName>'
        '<frameName>imu</frameName></plugin></gazebo>'))
    plugin = model_of(result).find("plugin[@name='imu_plugin']")
    assert plugin.findtext('bodyName') == 'base' and plugin.findtext('frameName') == 'base'
    # libsdformat: -0.064 0 0.156 (the joint pose applied twice).
    assert plugin.findtext('xyzOffset') == '-0.032 0 0.078'
    assert plugin.findtext('rpyOffset') == '0 0 0'
    assert '<gz::corrected_offsets>1</gz::corrected_offsets>' in result.sdf


def test_every_plugin_reference_to_a_lumped_link_follows_it():
    # libsdformat renames only the first <bodyName> (moving it last): Gazebo then reads the
    # second, which still names the lumped link.
    result = convert(robot(
        link('base'), link('imu'), joint('jf', 'base', 'imu', 'fixed', '<origin xyz="0 0 1"/>'),
        '<gazebo><plugin name="p" filename="libp.so"><bodyName>imu</bodyName><rate>5</rate>'
        '<bodyName>imu</bodyName><frameName>imu</frameName></plugin></gazebo>'))
    plugin = model_of(result).find("plugin[@name='p']")
    assert [(e.tag, e.text) for e in plugin][:5] == [
        ('rate', '5'), ('bodyName', 'base'), ('bodyName', 'base'), ('frameName', 'base'),
        ('xyzOffset', '0 0 1')]
    assert result.warnings == ()


def test_references_to_lumped_links_follow_the_lumping():
    result = urdf_to_sdf(parse_urdf((FIXTURE_DIR / 'lumping_tree.urdf').read_bytes()))
    m = model_of(result)
    tether = m.find("joint[@name='head_tether']")
    assert tether.findtext('child') == 'torso'
    assert tether.find('pose').get('relative_to') == 'neck'  # the <frame> of the lumped link
    gripper = m.find("gripper[@name='grasp']")
    assert (gripper.findtext('gripper_link'), gripper.findtext('palm_link')) == \
        ('torso', 'torso')
    contact = m.find("link[@name='torso']/sensor[@name='palm_contact']/contact/collision")
    assert contact.text == 'torso_fixed_joint_lump__gripper_palm_collision_2'
    assert m.find(f"link[@name='torso']/collision[@name='{contact.text}']") is not None


def test_a_joint_blob_on_a_lumped_link_follows_its_renamed_frame():
    # Link 'hand' is lumped, and a kept joint is also called 'hand': the <frame> kept for
    # the link is 'hand_frame', and the blob joint's pose must resolve against it.
    result = convert(robot(
        link('base'), link('hand'), link('finger'),
        joint('mount', 'base', 'hand', 'fixed', '<origin xyz="0 0 1"/>'),
        joint('hand', 'base', 'finger'),
        '<gazebo><joint name="tether" type="fixed"><parent>world</parent><child>hand</child>'
        '</joint></gazebo>'))
    m = model_of(result)
    assert result.renamed_frames == {'hand': 'hand_frame'}
    tether = m.find("joint[@name='tether']")
    assert tether.findtext('child') == 'base'
    assert tether.find('pose').get('relative_to') == 'hand_frame'
    assert m.find("frame[@name='hand_frame']").get('attached_to') == 'mount'


def test_lumped_sensor_and_light_poses_are_reexpressed_in_full_precision():
    result = convert(robot(
        link('base'), link('cam'),
        joint('jf', 'base', 'cam', 'fixed', '<origin xyz="0.1 0 0.2" rpy="0 0 3.14159"/>'),
        '<gazebo reference="cam"><sensor name="c" type="camera"><pose>0 0 0.05 0 0 0</pose>'
        '</sensor><light name="l" type="point"><pose>0 0 1 0 0 0</pose></light></gazebo>'))
    base = model_of(result).find("link[@name='base']")
    assert pose_is(base.find('sensor/pose'), '0.1 0 0.25 0 0 3.14159')
    assert pose_is(base.find('light/pose'), '0.1 0 1.2 0 0 3.14159')


def test_deep_chains_convert_without_recursion_limits():
    n = 3000
    parts = [link(f'l{i}') for i in range(n)]
    parts += [joint(f'j{i}', f'l{i - 1}', f'l{i}', 'fixed' if i % 2 else 'revolute')
              for i in range(1, n)]
    m = model_of(convert(robot(*parts)))
    assert len(m.findall('link')) == n // 2
    assert math.isclose(float(m.findtext("link[@name='l0']/inertial/mass")), 2.0)


# --- moved from the cross-reader tests of invalid descriptions ---------------------------

def test_lumping_far_away_masses_is_a_diagnostic_not_a_crash():
    inertial = f'<inertial><mass value="1"/>{INERTIA}</inertial>'
    doc = urdf(f'<link name="a">{inertial}</link>', f'<link name="b">{inertial}</link>',
               '<joint name="j" type="fixed"><parent link="a"/><child link="b"/>',
               '<origin xyz="0 0 1e308"/></joint>')
    with pytest.raises(DescriptionError, match=r"<string>:2: link 'a': its mass properties, "
                       'with the links merged into it by fixed-joint lumping, are not finite'):
        urdf_to_sdf(parse_urdf(doc))


def test_fixing_the_inertia_of_a_tiny_mass_does_not_crash_the_converter():
    doc = urdf('<link name="a">', '<inertial><mass value="1e-100"/><inertia ixx="-1" '
               'ixy="-1e-7" ixz="0" iyy="-1" iyz="0" izz="0"/></inertial>', '</link>')
    result = urdf_to_sdf(parse_urdf(doc))
    assert 'bad-inertia' in [w.code for w in result.warnings]
