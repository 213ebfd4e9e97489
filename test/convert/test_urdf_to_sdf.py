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
Lumping is tested in test_lumping, ``<gazebo>`` extensions in test_gazebo_ext.
"""

import math
from pathlib import Path

import conversion_rules
from diagnostics import INERTIA
from diagnostics import urdf
from lxml import etree
import numpy as np
import pytest
from sdf_tools import batch_transforms
from sdf_tools import transforms
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import ConversionError
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.xmlio.parse import DCOLON
from sdf_tools.xmlio.parse import UNDECLARED_NS
import support
from urdf_snippets import codes
from urdf_snippets import convert
from urdf_snippets import FIXTURE_DIR
from urdf_snippets import INERTIAL
from urdf_snippets import joint
from urdf_snippets import link
from urdf_snippets import model_of
from urdf_snippets import pose_is
from urdf_snippets import robot
from xml_compare import compare
from xml_compare import parse

SEED_DIR = FIXTURE_DIR / 'seed'


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
    source = Path(urdf_path).read_bytes()
    robot = parse_urdf(source, Path(urdf_path).name)
    result = urdf_to_sdf(robot)
    diffs = compare(expected_sdf, result.sdf)
    context = conversion_rules.Context(robot, result, source)
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
        pytest.skip(support.NO_ORACLE)
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
                 'static-false', 'lumped-frames', 'degenerate-collision', 'sensor-names',
                 'nameless-material'):
        assert seen.get(rule), f'no fixture difference exercises {rule}'


RULE_EXAMPLES = sorted(p.stem for p in support.RULE_EXAMPLES_DIR.glob('*.urdf')) \
    if support.RULE_EXAMPLES_DIR.is_dir() else []


@pytest.mark.skipif(not RULE_EXAMPLES, reason=f'needs the rule examples at '
                    f'{support.RULE_EXAMPLES_DIR}, in the ../shared folder beside this '
                    'repository (or set SDF_TOOLS_SHARED)')
@pytest.mark.parametrize('name', RULE_EXAMPLES or ['none'])
def test_oracle_rule_examples(name):
    urdf = support.RULE_EXAMPLES_DIR / f'{name}.urdf'
    golden = support.RULE_EXAMPLES_DIR / f'{name}.sdformat12.3.0.sdf'
    if not golden.exists():
        # libsdformat fails (or crashes) on these; we refuse them with a clear message.
        expected = {
            '18_bad_number_exception': (7, '<mu1> (SDFormat <mu>) must be a number, got '
                                        "'abc'"),
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
            '</geometry><material name="m"><color rgba="0.2 0.4 0.96 0.5"/></material>'
            '</visual></link>')
    plain = model_of(convert(robot(base)))
    assert plain.findtext('link/visual/material/diffuse') == '0.25 0.5 1 0.5'
    assert plain.findtext('link/visual/material/ambient') == '0.25 0.5 1 0.5'
    ext = model_of(convert(robot(base, '<gazebo reference="base"><visual><material>'
                                 '<ambient>1 0 0 1</ambient></material></visual></gazebo>')))
    assert ext.findtext('link/visual/material/ambient') == '1 0 0 1'
    assert ext.find('link/visual/material/diffuse') is None


# --- where libsdformat is documented to be wrong ------------------------------------------


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
    assert "link 'neg': has mass -1 kg, which no body can have" in warnings[1]


@pytest.mark.parametrize('field, value', [('massless_mass', 0.0), ('massless_mass', -1.0),
                                          ('massless_inertia', math.nan),
                                          ('massless_inertia', math.inf)])
def test_invalid_placeholder_options_are_refused(field, value):
    with pytest.raises(ConversionError, match=f'{field} must be a finite number greater '
                       'than 0'):
        convert(robot(link('base')), **{field: value})


def test_massless_root_does_not_leave_an_empty_model():
    result = convert(robot('<link name="base"/>', link('arm'), joint('j', 'base', 'arm')))
    assert [e.get('name') for e in model_of(result).iterchildren('link')] == ['base', 'arm']


def test_a_joint_named_like_a_link_is_renamed():
    result = convert(robot(link('base'), link('arm'), joint('arm', 'base', 'arm')))
    m = model_of(result)
    assert m.find("joint[@name='arm_joint']").findtext('child') == 'arm'
    assert m.find("link[@name='arm']/pose").get('relative_to') == 'arm_joint'
    assert result.renamed_joints == {'arm': 'arm_joint'} and result.renamed_frames == {}
    assert codes(result) == ['name-clash']  # in the place of the reader's warning


def test_names_declared_by_gazebo_blocks_win():
    result = convert(robot(link('base'), link('a'), joint('grip', 'base', 'a'),
                           '<gazebo><joint name="grip" type="fixed"><parent>base</parent>'
                           '<child>a</child></joint></gazebo>'))
    assert {j.get('name') for j in model_of(result).iter('joint')} == {'grip', 'grip_joint'}


def test_orientations_near_gimbal_lock_are_exact():
    # urdfdom getRPY would print 0 1.570796326794897 -0.1001582674796562 (3e-4 rad off).
    result = convert(robot('<link name="base">' + INERTIAL + '<visual><origin rpy="0.2 1.57 '
                           '0.1"/><geometry><box size="1 1 1"/></geometry></visual></link>'))
    values = [float(v) for v in model_of(result).findtext('link/visual/pose').split()]
    got = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*values[3:]))
    want = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(0.2, 1.57, 0.1))
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


def test_a_mimic_of_a_missing_or_lumped_joint_is_left_out_of_sdformat_1_11():
    # Rule dangling-mimic. There is no libsdformat 14 here: what it writes for these joints
    # is taken from its URDF parser (parser_urdf.cc, sdf14 branch: every URDF <mimic> becomes
    # <axis><mimic joint="..."><multiplier/><offset/></mimic>, whatever it names), and
    # libsdformat 14 then refuses that file (the mimic's joint does not exist).
    urdf_robot = parse_urdf(robot(
        link('base'), link('a'), link('b'), link('c'), joint('fix', 'base', 'a', 'fixed'),
        joint('m', 'base', 'b', extra='<mimic joint="fix" multiplier="2"/>'),
        joint('n', 'base', 'c', extra='<mimic joint="nope"/>')), 'test.urdf')
    result = urdf_to_sdf(urdf_robot, ConversionOptions(sdf_version='1.11'))
    ours = parse(result.sdf)
    assert ours.find('.//mimic') is None
    assert [str(w) for w in result.warnings if w.code == 'mimic-dropped'] == [
        f"test.urdf:1: warning: joint '{name}': <mimic> joint {target!r} is not in the "
        'SDFormat model; the mimic constraint is left out' for name, target in
        (('m', 'fix'), ('n', 'nope'))]
    libsdformat_14 = parse(result.sdf)
    for name, target, multiplier in (('m', 'fix', '2'), ('n', 'nope', '1')):
        mimic = etree.SubElement(libsdformat_14.find(f"model/joint[@name='{name}']/axis"),
                                 'mimic', joint=target)
        etree.SubElement(mimic, 'multiplier').text = multiplier
        etree.SubElement(mimic, 'offset').text = '0'
    diffs = compare(libsdformat_14, ours)
    counts, unexplained = conversion_rules.explain(
        diffs, conversion_rules.Context(urdf_robot, result))
    assert counts == {'dangling-mimic': 2} and not unexplained


def test_unsupported_sdf_version_is_refused():
    with pytest.raises(ConversionError, match="SDFormat version '2.0' is not supported"):
        convert(robot(link('base')), sdf_version='2.0')


def test_escaped_names_are_written_as_they_were_wherever_an_extension_puts_them():
    # parse_xml escapes '::' in element names and declares undeclared prefixes while lxml
    # holds the tree; every place extension content is written gets them back as written.
    result = convert(robot(
        link('base', '<visual><geometry><box size="1 1 1"/></geometry></visual>'),
        link('arm'), joint('j', 'base', 'arm'),
        '<gazebo><plugin name="p" filename="x"><ignition::flag>1</ignition::flag>'
        '<a:b>2</a:b></plugin></gazebo>',
        '<gazebo reference="arm"><sensor name="s" type="imu"><gz::x>3</gz::x></sensor>'
        '</gazebo>',
        '<gazebo reference="base"><visual><c::d>4</c::d></visual></gazebo>',
        '<gazebo reference="j"><provideFeedback>1</provideFeedback><p:q>5</p:q></gazebo>'))
    for text in ('<ignition::flag>1</ignition::flag>', '<a:b>2</a:b>', '<gz::x>3</gz::x>',
                 '<c::d>4</c::d>', '<p:q>5</p:q>'):
        assert result.sdf.count(text) == 1, text
    assert DCOLON not in result.sdf and UNDECLARED_NS not in result.sdf
    # A name that happens to spell the stand-in is the user's: it stays as written.
    spelled = f'a{DCOLON}b'
    assert f'<link name="{spelled}">' in convert(robot(link(spelled))).sdf


# --- moved from the cross-reader tests of invalid descriptions ---------------------------

def test_converting_a_urdf_with_only_the_world_link_does_not_write_an_empty_model():
    robot = parse_urdf(urdf('<link name="world"/>'))
    with pytest.raises(ConversionError, match="<string>:1: robot 'r': the robot has no link "
                       "besides 'world': an SDFormat model needs at least one link"):
        urdf_to_sdf(robot)


@pytest.mark.parametrize('robot, link, joint, match', [
    ('r', '__model__', 'j', "<string>:3: link '__model__': the link name '__model__' is "
     'reserved in SDFormat'),
    ('r', 'b', '__j__', "<string>:4: joint '__j__': the joint name '__j__' is reserved"),
    ('r', 'x::b', 'j', "<string>:3: link 'x::b': link names must not contain '::' in "
     'SDFormat 1.8 and later'),
    ('world', 'b', 'j', "<string>:1: robot 'world': the model name 'world' is reserved"),
    ('r', '  world ', 'j', "<string>:3: link '  world ': the link name '  world ' \\(read as "
     "'world': SDFormat trims names\\) is reserved"),
    ('r', 'a ', 'j', "<string>:3: link 'a ': the link name 'a ' and the name 'a' are one name "
     'to SDFormat, which trims names'),
    ('r', 'b', ' j', None), (' r', ' r ', 'j', None),
    ('r', 'b', 'j', None)])
def test_names_sdformat_cannot_read_back_are_refused(robot, link, joint, match):
    inertial = f'<inertial><mass value="1"/>{INERTIA}</inertial>'
    doc = urdf(f'<link name="a">{inertial}</link>', f'<link name="{link}">{inertial}</link>',
               f'<joint name="{joint}" type="continuous"><parent link="a"/>'
               f'<child link="{link}"/></joint>').replace('"r"', f'"{robot}"', 1)
    if match is None:  # the control: valid names convert and read back (trimmed)
        sdf = parse_sdf(urdf_to_sdf(parse_urdf(doc)).sdf)
        assert [j.name for j in sdf.joints] == [joint.strip()]
        return
    with pytest.raises(ConversionError, match=match):
        urdf_to_sdf(parse_urdf(doc))
