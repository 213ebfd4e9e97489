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
Tests of sdf_tools.convert.urdf_to_sdf, the URDF to SDFormat converter.

Goldens: the seed document's worked examples (documented output), the oracle's rule examples
(libsdformat 12.3 output, read from ../shared) and our own fixtures (12.3 output generated
once by the oracle). Every difference from 12.3 must be explained by a rule of
conversion_rules; the seed examples must match exactly (by meaning). Unit tests cover each
behaviour, each fix of a documented libsdformat bug asserting the libsdformat result too.
"""

import math
from pathlib import Path

import conversion_rules
import numpy as np
import pytest
from sdf_tools import transforms
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import ConversionError
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.model import Pose
import support
from xml_compare import compare
from xml_compare import parse
from xml_compare import values_equal

SEED_DIR = support.DATA_DIR / 'conversion' / 'seed'
FIXTURE_DIR = support.DATA_DIR / 'conversion'
INERTIAL = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
            'izz="1"/></inertial>')


def convert(urdf, **options):
    robot = parse_urdf(urdf, 'test.urdf')
    return urdf_to_sdf(robot, ConversionOptions(**options))


def model_of(result):
    return parse(result.sdf).find('model')


def link(name, body=''):
    return f'<link name="{name}">{INERTIAL}{body}</link>'


def joint(name, parent, child, kind='revolute', extra=''):
    limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>' \
        if kind in ('revolute', 'prismatic') else ''
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/>{limit}{extra}</joint>')


def robot(*parts, name='r'):
    return f'<robot name="{name}">' + ''.join(parts) + '</robot>'


def pose_is(element, expected):
    """Whether a <pose> element's value is the pose ``expected`` (text), by meaning."""
    return values_equal('pose', expected, element.text, rtol=1e-12, atol=1e-12)


def codes(result):
    return [w.code for w in result.warnings]


# --- goldens --------------------------------------------------------------------------------

SEED_CASES = sorted(p.stem for p in SEED_DIR.glob('*.urdf')
                    if p.with_suffix('.expected.sdf').exists())


@pytest.mark.parametrize('name', SEED_CASES)
def test_seed_examples_match_the_documented_output(name):
    result = urdf_to_sdf(parse_urdf((SEED_DIR / f'{name}.urdf').read_bytes(), name))
    diffs = compare((SEED_DIR / f'{name}.expected.sdf').read_text(), result.sdf)
    assert not diffs, '\n'.join(map(str, diffs))


def test_seed_examples_are_all_there():
    assert len(SEED_CASES) == 9


def test_seed_fragment_without_robot_name_is_a_clear_error():
    path = SEED_DIR / '02_unnamed_robot_camera.urdf'
    with pytest.raises(DescriptionError, match="<robot> is missing required attribute 'name'"):
        parse_urdf(path.read_bytes(), path.name)


def _explained(urdf_path, expected_sdf):
    robot = parse_urdf(Path(urdf_path).read_bytes(), Path(urdf_path).name)
    result = urdf_to_sdf(robot)
    diffs = compare(expected_sdf, result.sdf)
    context = conversion_rules.Context(robot, result)
    counts, unexplained = conversion_rules.explain(diffs, context)
    return counts, unexplained, result


FIXTURES = sorted(p.stem for p in FIXTURE_DIR.glob('*.urdf'))


@pytest.mark.parametrize('name', FIXTURES)
def test_own_fixtures_against_libsdformat_12_3(name):
    golden = FIXTURE_DIR / f'{name}.sdformat12.3.0.sdf'
    if not golden.exists():
        failure = (FIXTURE_DIR / f'{name}.sdformat12.3.0.txt').read_text()
        assert '# oracle convert exit code: 1' in failure
        return  # libsdformat failed: see test_massless_lump_... below
    counts, unexplained, _ = _explained(FIXTURE_DIR / f'{name}.urdf', golden.read_text())
    assert not unexplained, '\n'.join(map(str, unexplained))


@pytest.mark.oracle
@pytest.mark.parametrize('name', FIXTURES)
def test_fixture_goldens_match_live_oracle(name):
    # The committed goldens are what libsdformat 12.3 writes (test/regen_goldens.py).
    if support.oracle_path() is None:
        pytest.skip('the libsdformat oracle is not built (shared/tools/sdformat_oracle)')
    result = support.run_oracle('convert', FIXTURE_DIR / f'{name}.urdf')
    golden = FIXTURE_DIR / f'{name}.sdformat12.3.0.sdf'
    if not golden.exists():
        assert result.returncode == 1
        return
    assert result.returncode == 0, result.stderr
    assert compare(golden.read_text(), result.stdout) == []


def test_own_fixtures_exercise_the_rules():
    seen = {}
    for name in FIXTURES:
        golden = FIXTURE_DIR / f'{name}.sdformat12.3.0.sdf'
        if golden.exists():
            counts, _, _ = _explained(FIXTURE_DIR / f'{name}.urdf', golden.read_text())
            for rule, n in counts.items():
                seen[rule] = seen.get(rule, 0) + n
    for rule in ('extension-target', 'floating-planar', 'massless-kept', 'name-clash',
                 'plugin-offsets', 'contact-collision', 'lumped-references', 'surface-blob',
                 'static-false', 'lumped-frames'):
        assert seen.get(rule), f'no fixture difference exercises {rule}'


RULE_EXAMPLES = sorted(p.stem for p in support.RULE_EXAMPLES_DIR.glob('*.urdf')) \
    if support.RULE_EXAMPLES_DIR.is_dir() else []


@pytest.mark.skipif(not RULE_EXAMPLES, reason=f'no rule examples at '
                    f'{support.RULE_EXAMPLES_DIR} (the shared tools are not on this machine)')
@pytest.mark.parametrize('name', RULE_EXAMPLES or ['none'])
def test_oracle_rule_examples(name):
    urdf = support.RULE_EXAMPLES_DIR / f'{name}.urdf'
    golden = support.RULE_EXAMPLES_DIR / f'{name}.sdformat12.3.0.sdf'
    if not golden.exists():
        # libsdformat fails (or crashes) on these; we refuse them with a clear message.
        expected = {
            '18_bad_number_exception': (7, "<gazebo> <mu1> must be a number, got 'abc'"),
            '20_two_roots': (None, "2 root links ('a', 'b')"),
            '21_revolute_without_limit': (None, 'a revolute joint needs <limit>'),
            '28_limit_without_effort': (None, "<limit> is missing required attribute 'effort'"),
        }[name]
        with pytest.raises(DescriptionError) as info:
            urdf_to_sdf(parse_urdf(urdf.read_bytes(), urdf.name))
        assert expected[1] in str(info.value)
        if expected[0] is not None:
            assert info.value.diagnostic.location.line == expected[0]
        return
    if name == '22_axis_without_xyz':
        # libsdformat writes axis 0 0 0, which it then refuses to load; the URDF spec
        # requires xyz.
        with pytest.raises(DescriptionError, match='<axis> is missing required attribute'):
            parse_urdf(urdf.read_bytes(), urdf.name)
        return
    if name == '27_urdfdom_partial_link':
        # urdfdom keeps half a link after a bad number; we report it with its line.
        with pytest.raises(DescriptionError, match='<mass> value must be a number') as info:
            parse_urdf(urdf.read_bytes(), urdf.name)
        assert info.value.diagnostic.location.line == 11
        return
    counts, unexplained, _ = _explained(urdf, golden.read_text())
    assert not unexplained, '\n'.join(map(str, unexplained))


def test_massless_lump_converts_where_libsdformat_fails_on_a_nan_centre_of_mass():
    failure = (FIXTURE_DIR / 'massless_lump.sdformat12.3.0.txt').read_text()
    assert 'Pose values must be finite' in failure
    result = urdf_to_sdf(parse_urdf((FIXTURE_DIR / 'massless_lump.urdf').read_bytes()))
    head = model_of(result).find("link[@name='head']")
    assert [float(v) for v in head.findtext('inertial/pose').split()] == [0.0] * 6
    assert float(head.findtext('inertial/mass')) == 0.5
    assert 'nan' not in result.sdf.lower() and 'inf' not in result.sdf.lower()


# --- joints ---------------------------------------------------------------------------------

def test_joint_types_map_to_sdformat():
    result = convert(robot(
        link('base'), link('a'), link('b'), link('c'),
        joint('rev', 'base', 'a', extra='<axis xyz="0 1 0"/>'),
        joint('cont', 'base', 'b', 'continuous', '<limit effort="5" velocity="6"/>'),
        joint('pri', 'base', 'c', 'prismatic')))
    m = model_of(result)
    assert m.find("joint[@name='rev']").get('type') == 'revolute'
    assert m.findtext("joint[@name='rev']/axis/xyz") == '0 1 0'
    cont = m.find("joint[@name='cont']")
    assert cont.get('type') == 'revolute'  # Fortress's dartsim makes 'continuous' fixed
    assert cont.findtext('axis/xyz') == '1 0 0'
    assert [cont.findtext(f'axis/limit/{k}') for k in ('effort', 'velocity', 'lower', 'upper')] \
        == ['5', '6', '-1e16', '1e16']
    assert m.find("joint[@name='pri']").get('type') == 'prismatic'


def test_joint_pose_limits_dynamics_and_swapped_limits():
    result = convert(robot(link('base'), link('a'), joint(
        'j', 'base', 'a', extra='<origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/>'
        '<dynamics damping="0.7" friction="0.3"/>').replace(
        'lower="-1" upper="1"', 'lower="1.5" upper="-1.5"')))
    j = model_of(result).find("joint[@name='j']")
    pose = j.find('pose')
    assert pose.get('relative_to') == 'base'
    assert pose_is(pose, '0.1 0.2 0.3 0.1 0.2 0.3')
    assert j.findtext('axis/limit/lower') == '-1.5'
    assert j.findtext('axis/limit/upper') == '1.5'
    assert j.findtext('axis/dynamics/damping') == '0.7'
    assert j.findtext('axis/dynamics/friction') == '0.3'
    assert j.findtext('axis/dynamics/spring_reference') == '0'
    assert 'swapped-limits' in codes(result)


def test_children_are_written_depth_first_in_joint_name_byte_order():
    result = convert(robot(link('base'), link('y'), link('z'), link('zz'),
                           joint('b', 'base', 'y'), joint('a', 'base', 'z'),
                           joint('B', 'z', 'zz')))
    order = [(e.tag, e.get('name')) for e in model_of(result)]
    assert order == [('link', 'base'), ('joint', 'a'), ('link', 'z'), ('joint', 'B'),
                     ('link', 'zz'), ('joint', 'b'), ('link', 'y')]


def test_world_root_keeps_fixed_joints_posed_in_the_model_frame():
    result = convert(robot('<link name="world"/>', link('base'), joint(
        'to_world', 'world', 'base', 'fixed', '<origin xyz="0 0 1"/>')))
    m = model_of(result)
    assert m.find("link[@name='world']") is None
    j = m.find("joint[@name='to_world']")
    assert j.get('type') == 'fixed' and j.findtext('parent') == 'world'
    assert j.find('pose').get('relative_to') == '__model__'
    assert m.find('frame') is None


def test_robot_origin_becomes_the_model_pose():
    result = convert(robot('<origin xyz="1 2 3" rpy="0 0 0.1"/>', link('base')))
    assert pose_is(model_of(result).find('pose'), '1 2 3 0 0 0.1')


# --- links, geometry, materials -------------------------------------------------------------

def test_visual_and_collision_naming_follows_libsdformat():
    result = convert(robot(
        '<link name="base">' + INERTIAL
        + '<visual><geometry><box size="1 1 1"/></geometry></visual>'
        + '<visual name="named_vis"><geometry><box size="1 1 1"/></geometry></visual>'
        + '<visual name="base_prefixed"><geometry><box size="1 1 1"/></geometry></visual>'
        + '<visual><geometry><box size="1 1 1"/></geometry></visual></link>'))
    names = [v.get('name') for v in model_of(result).iter('visual')]
    assert names == ['base_visual', 'base_fixed_joint_lump__named_vis_visual_1',
                     'base_prefixed_visual_2', 'base_visual_3']


def test_geometry_and_mesh_uris():
    result = convert(robot(
        '<link name="base">' + INERTIAL
        + '<visual><geometry><cylinder radius="0.5" length="2"/></geometry></visual>'
        + '<visual><geometry><mesh filename="package://pkg/m.dae"/></geometry></visual>'
        + '<collision><geometry><mesh filename="file:///m.stl" scale="2 2 2"/></geometry>'
        '</collision><collision><geometry><capsule radius="0.1" length="0.3"/></geometry>'
        '</collision></link>'))
    m = model_of(result)
    v = m.findall('link/visual')
    assert [c.tag for c in v[0].find('geometry/cylinder')] == ['length', 'radius']
    assert v[1].findtext('geometry/mesh/uri') == 'model://pkg/m.dae'
    assert v[1].findtext('geometry/mesh/scale') == '1 1 1'
    c = m.findall('link/collision')
    assert c[0].findtext('geometry/mesh/uri') == 'file:///m.stl'
    assert c[0].findtext('geometry/mesh/scale') == '2 2 2'
    assert c[1].findtext('geometry/capsule/length') == '0.3'


def test_urdf_colour_unless_an_extension_sets_one():
    base = ('<link name="base">' + INERTIAL + '<visual><geometry><box size="1 1 1"/>'
            '</geometry><material name="m"><color rgba="0.2 0.4 1.6 0.5"/></material>'
            '</visual></link>')
    plain = model_of(convert(robot(base)))
    assert plain.findtext('link/visual/material/diffuse') == '0.25 0.5 1 0.5'
    assert plain.findtext('link/visual/material/ambient') == '0.25 0.5 1 0.5'
    ext = model_of(convert(robot(base, '<gazebo reference="base"><visual><material>'
                                 '<ambient>1 0 0 1</ambient></material></visual></gazebo>')))
    assert ext.findtext('link/visual/material/ambient') == '1 0 0 1'
    assert ext.find('link/visual/material/diffuse') is None


# --- lumping --------------------------------------------------------------------------------

def _random_inertial(rng):
    a = rng.normal(size=(3, 3))
    moments = np.linalg.eigvalsh(a @ a.T) + 0.1
    while moments[0] + moments[1] < moments[2]:
        moments = np.linalg.eigvalsh((a := rng.normal(size=(3, 3))) @ a.T) + 0.1
    return (float(rng.uniform(0.1, 3)), rng.uniform(-0.5, 0.5, 3), rng.uniform(-3, 3, 3),
            moments)


def _tensor(rpy, moments):
    r = transforms.matrix_from_quat(transforms.quat_from_rpy(*rpy))
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
        r_out = transforms.matrix_from_quat(transforms.quat_from_rpy(*pose[3:]))
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


# --- extensions -----------------------------------------------------------------------------

def test_link_joint_and_model_extensions():
    result = convert(robot(
        link('base', '<collision><geometry><box size="1 1 1"/></geometry></collision>'
             '<visual><geometry><box size="1 1 1"/></geometry></visual>'),
        link('a'), joint('j', 'base', 'a'),
        '<gazebo reference="base"><turnGravityOff>true</turnGravityOff>'
        '<dampingFactor>0.05</dampingFactor><selfCollide>true</selfCollide>'
        '<mu1>0.9</mu1><kp>1e6</kp><fdir1>1 0 0</fdir1><maxContacts>3.7</maxContacts>'
        '<material>Gazebo/Grey</material><visual><transparency>0.5</transparency></visual>'
        '<enable_wind>true</enable_wind></gazebo>'
        '<gazebo reference="j"><stopCfm>0.1</stopCfm><provideFeedback>true</provideFeedback>'
        '<springStiffness>10</springStiffness></gazebo>'
        '<gazebo><static>yes</static><plugin name="p" filename="libp.so"/></gazebo>'))
    m = model_of(result)
    base = m.find("link[@name='base']")
    assert base.findtext('gravity') == 'false'
    assert base.findtext('velocity_decay/linear') == '0.05'
    assert base.findtext('self_collide') == '1'
    assert base.findtext('enable_wind') == 'true'
    c = base.find('collision')
    assert c.findtext('surface/friction/ode/mu') == '0.9'
    assert c.findtext('surface/friction/ode/fdir1') == '1 0 0'
    assert c.findtext('surface/contact/ode/kp') == '1000000'
    assert c.findtext('max_contacts') == '3'  # libsdformat's stoi truncation, with a warning
    v = base.find('visual')
    assert v.findtext('transparency') == '0.5'
    assert v.findtext('material/script/name') == 'Gazebo/Grey'
    j = m.find("joint[@name='j']")
    assert j.findtext('physics/ode/limit/cfm') == '0.1'
    assert j.findtext('physics/ode/limit/erp') == '0.2'  # schema default, as gz sdf prints
    assert j.findtext('physics/provide_feedback') == 'true'
    assert j.findtext('physics/ode/provide_feedback') == 'true'
    assert j.findtext('axis/dynamics/spring_stiffness') == '10'
    assert m.findtext('static') == 'true'
    assert m.find("plugin[@name='p']") is not None
    assert 'bad-number' in codes(result)


def test_malformed_extension_number_is_an_error_with_its_line():
    urdf = robot(link('base'), '\n<gazebo reference="base">\n<mu1>abc</mu1></gazebo>')
    message = "test.urdf:3: <gazebo> <mu1> must be a number, got 'abc'"
    with pytest.raises(DescriptionError, match=message):
        convert(urdf)


def test_extension_warnings_name_what_has_no_effect():
    result = convert(robot(
        link('base'), link('a'), joint('jf', 'base', 'a', 'fixed'),
        '<gazebo reference="nothing"><mu1>1</mu1></gazebo>',
        '<gazebo><selfCollide>true</selfCollide></gazebo>',
        '<gazebo reference="base"><stopCfm>1</stopCfm></gazebo>',
        '<gazebo reference="jf"><provideFeedback>true</provideFeedback></gazebo>'))
    messages = [str(w) for w in result.warnings]
    assert any("reference 'nothing' names no link or joint" in m for m in messages)
    assert any('<selfCollide> has no effect in a model-level block' in m for m in messages)
    assert any('<stopCfm> has no effect in a link-level block' in m for m in messages)
    assert any("joint 'jf' is fixed and is merged into its parent" in m for m in messages)


# --- where libsdformat is documented to be wrong ------------------------------------------

def test_named_visuals_and_collisions_get_their_links_extensions():
    # libsdformat: only elements whose generated name has no lump prefix get them.
    result = convert(robot(
        link('base', '<collision name="bumper"><geometry><box size="1 1 1"/></geometry>'
             '</collision><visual name="shell"><geometry><box size="1 1 1"/></geometry>'
             '</visual>'),
        link('child', '<collision name="pad"><geometry><box size="1 1 1"/></geometry>'
             '</collision>'),
        joint('jf', 'base', 'child', 'fixed'),
        '<gazebo reference="base"><mu1>0.6</mu1><material>Gazebo/Green</material></gazebo>'
        '<gazebo reference="child"><mu1>1.5</mu1></gazebo>'))
    base = model_of(result).find("link[@name='base']")
    bumper = base.find("collision[@name='base_fixed_joint_lump__bumper_collision']")
    assert bumper.findtext('surface/friction/ode/mu') == '0.6'
    assert base.findtext('visual/material/script/name') == 'Gazebo/Green'
    pad = base.find("collision[@name='base_fixed_joint_lump__pad_collision_1']")
    assert pad.findtext('surface/friction/ode/mu') == '1.5'


def test_extension_of_a_parent_does_not_leak_into_a_lumped_childs_collision():
    # libsdformat applies it when the child's name starts with the parent's: we warn.
    result = convert(robot(
        link('finger', '<collision><geometry><box size="1 1 1"/></geometry></collision>'),
        link('finger_tip', '<collision><geometry><box size="1 1 1"/></geometry></collision>'),
        joint('jt', 'finger', 'finger_tip', 'fixed'),
        '<gazebo reference="finger"><mu1>1000</mu1></gazebo>'))
    f = model_of(result).find("link[@name='finger']")
    assert f.findtext("collision[@name='finger_collision']/surface/friction/ode/mu") == '1000'
    assert f.find("collision[@name='finger_tip_collision_1']/surface") is None
    assert 'extension-target' in codes(result)


def test_floating_and_planar_children_are_free_links_posed_at_the_joint():
    result = convert(robot(
        '<link name="world"/>', link('base'), link('puck'),
        '<joint name="f" type="floating"><parent link="world"/><child link="base"/>'
        '<origin xyz="0 0 0.5"/></joint>',
        '<joint name="p" type="planar"><parent link="base"/><child link="puck"/>'
        '<origin xyz="1 0 0"/><axis xyz="0 0 1"/></joint>'))
    m = model_of(result)
    assert m.find('joint') is None
    base_pose = m.find("link[@name='base']/pose")
    assert base_pose.get('relative_to') is None and base_pose.text == '0 0 0.5 0 0 0'
    puck_pose = m.find("link[@name='puck']/pose")
    assert puck_pose.get('relative_to') == 'base' and puck_pose.text == '1 0 0 0 0 0'
    assert codes(result).count('no-sdf-equivalent') == 2


def test_massless_links_are_kept_with_their_subtree_and_a_warning():
    result = convert(robot(
        link('base'), '<link name="mid"/>', link('leaf'),
        '<link name="neg"><inertial><mass value="-1"/><inertia ixx="1" ixy="0" ixz="0" '
        'iyy="1" iyz="0" izz="1"/></inertial></link>',
        joint('j1', 'base', 'mid'), joint('j2', 'mid', 'leaf'), joint('j3', 'base', 'neg')),
        massless_mass=0.002, massless_inertia=3e-6)
    m = model_of(result)
    assert [e.get('name') for e in m.iterchildren('link')] == ['base', 'mid', 'leaf', 'neg']
    assert m.findtext("link[@name='mid']/inertial/mass") == '0.002'
    assert m.findtext("link[@name='mid']/inertial/inertia/ixx") == '3e-06'
    assert m.findtext("link[@name='neg']/inertial/mass") == '0.002'
    warnings = [str(w) for w in result.warnings if w.code == 'massless-link']
    assert len(warnings) == 2
    assert "link 'mid': has no <inertial>" in warnings[0]
    assert "link 'neg': has mass -1, which is not positive" in warnings[1]


@pytest.mark.parametrize('field, value', [('massless_mass', 0.0), ('massless_mass', -1.0),
                                          ('massless_inertia', math.nan),
                                          ('massless_inertia', math.inf)])
def test_invalid_placeholder_options_are_refused(field, value):
    with pytest.raises(ConversionError, match=f'{field} must be a finite number greater '
                       'than 0'):
        convert(robot(link('base')), **{field: value})


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


def test_max_contacts_must_fit_an_int():
    urdf = robot(link('base', '<collision><geometry><box size="1 1 1"/></geometry>'
                      '</collision>'),
                 '<gazebo reference="base"><maxContacts>1e30</maxContacts></gazebo>')
    with pytest.raises(DescriptionError, match=r'<maxContacts> must fit a 32-bit integer'):
        convert(urdf)


def test_extensions_of_a_fixed_joint_to_world_apply_without_a_warning():
    # A fixed joint to world is not lumped: its <provideFeedback> is written, not dropped.
    result = convert(robot('<link name="world"/>', link('base'),
                           joint('fix', 'world', 'base', 'fixed'),
                           '<gazebo reference="fix"><provideFeedback>true</provideFeedback>'
                           '</gazebo>'))
    assert model_of(result).findtext("joint[@name='fix']/physics/provide_feedback") == 'true'
    assert 'no-effect' not in codes(result)


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


def test_massless_root_does_not_leave_an_empty_model():
    result = convert(robot('<link name="base"/>', link('arm'), joint('j', 'base', 'arm')))
    assert [e.get('name') for e in model_of(result).iterchildren('link')] == ['base', 'arm']


def test_surface_blob_after_an_earlier_extension_keeps_every_value_in_place():
    result = urdf_to_sdf(parse_urdf((FIXTURE_DIR / 'surface_blob.urdf').read_bytes()))
    surface = model_of(result).find('link/collision/surface')
    assert surface.findtext('bounce/restitution_coefficient') == '0.4'
    assert surface.findtext('friction/ode/mu') is None  # the blob replaced that surface
    assert surface.findtext('friction/ode/mu2') == '0.3'
    assert surface.findtext('contact/ode/kd') == '20'
    # libsdformat 12.3 nests <kd> in <mu2> in <restitution_coefficient>:
    golden = (FIXTURE_DIR / 'surface_blob.sdformat12.3.0.sdf').read_text()
    assert '<mu2>' in golden.split('<restitution_coefficient>')[1].split(
        '</restitution_coefficient>')[0]


def test_static_is_written_only_when_given():
    no_static = model_of(convert(robot(link('base'), '<gazebo><plugin name="p" '
                                       'filename="p.so"/></gazebo><gazebo/>')))
    assert no_static.find('static') is None
    kept = model_of(convert(robot(link('base'), '<gazebo><static>true</static></gazebo>'
                                  '<gazebo><plugin name="p" filename="p.so"/></gazebo>')))
    assert kept.findtext('static') == 'true'


def test_a_joint_named_like_a_link_is_renamed():
    result = convert(robot(link('base'), link('arm'), joint('arm', 'base', 'arm')))
    m = model_of(result)
    assert m.find("joint[@name='arm_joint']").findtext('child') == 'arm'
    assert m.find("link[@name='arm']/pose").get('relative_to') == 'arm_joint'
    assert result.renamed_joints == {'arm': 'arm_joint'} and result.renamed_frames == {}
    assert 'renamed' in codes(result)


def test_names_declared_by_gazebo_blocks_win():
    result = convert(robot(link('base'), link('a'), joint('grip', 'base', 'a'),
                           '<gazebo><joint name="grip" type="fixed"><parent>base</parent>'
                           '<child>a</child></joint></gazebo>'))
    assert {j.get('name') for j in model_of(result).iter('joint')} == {'grip', 'grip_joint'}


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


def test_orientations_near_gimbal_lock_are_exact():
    # urdfdom getRPY would print 0 1.570796326794897 -0.1001582674796562 (3e-4 rad off).
    result = convert(robot('<link name="base">' + INERTIAL + '<visual><origin rpy="0.2 1.57 '
                           '0.1"/><geometry><box size="1 1 1"/></geometry></visual></link>'))
    values = [float(v) for v in model_of(result).findtext('link/visual/pose').split()]
    got = transforms.matrix_from_quat(transforms.quat_from_rpy(*values[3:]))
    want = transforms.matrix_from_quat(transforms.quat_from_rpy(0.2, 1.57, 0.1))
    assert np.abs(got - want).max() < 1e-14


def test_invalid_inertia_is_replaced_by_the_nearest_valid_one():
    result = convert(robot('<link name="base"><inertial><mass value="1"/><inertia ixx="1e-9" '
                           'ixy="0" ixz="0" iyy="2" iyz="0" izz="1"/></inertial></link>'))
    values = [float(model_of(result).findtext(f'link/inertial/inertia/{k}'))
              for k in ('ixx', 'iyy', 'izz')]
    a, b, c = sorted(values)
    assert a + b >= c and min(values) > 0
    assert a + b == pytest.approx(c, rel=1e-6)  # moved just onto the triangle inequality
    assert 'bad-inertia' in codes(result)


# --- options --------------------------------------------------------------------------------

def test_sdf_1_11_writes_mimic():
    result = convert(robot(link('base'), link('a'), link('b'), joint('j', 'base', 'a'),
                           joint('m', 'base', 'b', extra='<mimic joint="j" multiplier="2" '
                                 'offset="0.5"/>')), sdf_version='1.11')
    sdf = parse(result.sdf)
    assert sdf.get('version') == '1.11'
    mimic = sdf.find("model/joint[@name='m']/axis/mimic")
    assert mimic.get('joint') == 'j'
    assert (mimic.findtext('multiplier'), mimic.findtext('offset'),
            mimic.findtext('reference')) == ('2', '0.5', '0')
    default = convert(robot(link('base'), link('a'), link('b'), joint('j', 'base', 'a'),
                            joint('m', 'base', 'b', extra='<mimic joint="j"/>')))
    assert parse(default.sdf).find('.//mimic') is None
    assert 'mimic-dropped' not in codes(result)
    dropped = [str(w) for w in default.warnings if w.code == 'mimic-dropped']
    assert dropped == ["test.urdf:1: warning: joint 'm': <mimic> is left out: SDFormat 1.9 "
                       'has no mimic joints (1.11 has; libsdformat 12 drops it too), so the '
                       'simulator moves this joint on its own']


def test_unsupported_sdf_version_is_refused():
    with pytest.raises(ConversionError, match="SDFormat version '2.0' is not supported"):
        convert(robot(link('base')), sdf_version='2.0')


def test_deep_chains_convert_without_recursion_limits():
    n = 3000
    parts = [link(f'l{i}') for i in range(n)]
    parts += [joint(f'j{i}', f'l{i - 1}', f'l{i}', 'fixed' if i % 2 else 'revolute')
              for i in range(1, n)]
    m = model_of(convert(robot(*parts)))
    assert len(m.findall('link')) == n // 2
    assert math.isclose(float(m.findtext("link[@name='l0']/inertial/mass")), 2.0)
