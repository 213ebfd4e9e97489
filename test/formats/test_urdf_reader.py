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
Tests of the URDF reader (:mod:`sdf_tools.formats.urdf.reader`): what it refuses, and where.

Numbers that are not finite decimals, vectors of the wrong arity, materials defined twice
and unknown joint types, each with its message, line, entity and code. The checks every
reader shares (names, the tree, mimic joints, inertias) are in ``test/test_validate.py``.
"""

import re

from diagnostics import INERTIA
from diagnostics import only_warning
from diagnostics import single_error
from diagnostics import urdf
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.urdf.reader import parse_urdf
import support


@pytest.mark.parametrize('text, match', [
    ('nan', "<mass> value must be a number, got 'nan'"),
    ('NaN', "<mass> value must be a number, got 'NaN'"),
    ('inf', "<mass> value must be a number, got 'inf'"),
    ('-inf', "<mass> value must be a number, got '-inf'"),
    ('1e400', "<mass> value must be finite, got '1e400'"),
    ('-1e400', "<mass> value must be finite, got '-1e400'"),
    ('0x10', "<mass> value must be a number, got '0x10'"),
    ('1,5', "<mass> value must be a number, got '1,5'"),
    ('', "<mass> value must be a number, got ''"),
])
def test_urdf_refuses_numbers_that_are_not_finite_decimals(text, match):
    doc = urdf('<link name="a">', '<inertial>', f'<mass value="{text}"/>', INERTIA,
               '</inertial>', '</link>')
    single_error(DescriptionError, parse_urdf, doc, match, 4, "link 'a'", 'bad-number')


@pytest.mark.parametrize('xyz, match, code', [
    ('1 nan 0', "<origin> xyz must be 3 numbers, got '1 nan 0'", 'bad-number'),
    ('1 1e400 0', "<origin> xyz must be finite, got '1 1e400 0'", 'bad-number'),
    ('1 2', "<origin> xyz must be 3 numbers, got '1 2'", 'bad-arity'),
    ('1 2 3 4', "<origin> xyz must be 3 numbers, got '1 2 3 4'", 'bad-arity'),
])
def test_urdf_vectors_need_their_arity_and_finite_numbers(xyz, match, code):
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="fixed">',
               '<parent link="a"/>', '<child link="b"/>', f'<origin xyz="{xyz}"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, match, 7, "joint 'j'", code)


def test_an_origin_written_the_same_way_twice_reads_the_same_and_is_reported_twice():
    visual = '<visual><origin xyz="0 0 {}" rpy="0 1.5 0"/><geometry><sphere radius="1"/>' \
        '</geometry></visual>'
    robot = parse_urdf(urdf('<link name="a">', visual.format(1), visual.format(1), '</link>'))
    first, second = (v.origin for v in robot.links[0].visuals)
    assert first == second and first.xyz == (0.0, 0.0, 1.0) and first.quat[1] > 0.68
    doc = urdf('<link name="a">', visual.format('x'), visual.format('x'), '</link>')
    with pytest.raises(DescriptionError) as caught:
        parse_urdf(doc)
    assert [(d.location.line, d.code.value) for d in caught.value.diagnostics] == [
        (3, 'bad-number'), (4, 'bad-number')]


def test_urdf_colour_arity():
    doc = urdf('<material name="red">', '<color rgba="1 0 0"/>', '</material>',
               '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "<color> rgba must be 4 numbers, got '1 0 "
                 "0'", 3, code='bad-arity')


@pytest.mark.parametrize('rgba', ['1 0 0 2', '-0.1 0 0 1'])
@pytest.mark.parametrize('where', ['robot', 'visual'])
def test_a_colour_outside_0_to_1_is_refused_as_urdfdom_refuses_it(rgba, where, tmp_path):
    material = f'<material name="m"><color rgba="{rgba}"/></material>'
    reference = material if where == 'visual' else '<material name="m"/>'
    visual = f'<visual><geometry><box size="1 1 1"/></geometry>{reference}</visual>'
    doc = urdf(material if where == 'robot' else '',
               f'<link name="a"><inertial><mass value="1"/>{INERTIA}</inertial>{visual}</link>')
    robot = parse_urdf(doc)
    warning = robot.warnings[0]
    assert (warning.location.line, warning.code.value) == (2 if where == 'robot' else 3,
                                                           'bad-number')
    assert warning.message == (
        f"<color> rgba '{rgba}' is outside 0 to 1: urdfdom refuses it, and "
        + ('the material keeps its default colour, black (0 0 0 1)' if where == 'robot'
           else 'the visual gets no material from it'))
    from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
    written = urdf_to_sdf(robot).sdf
    if support.oracle_path() is not None:  # libsdformat writes the same colour, or none
        path = tmp_path / 'r.urdf'
        path.write_text(doc)
        done = support.run_oracle('convert', path)
        assert 'malformed color rgba' in done.stdout + done.stderr
        theirs = re.findall(r'<diffuse>([^<]*)</diffuse>', done.stdout)
        assert re.findall(r'<diffuse>([^<]*)</diffuse>', written) == theirs
        assert theirs == (['0 0 0 1'] if where == 'robot' else [])


def test_a_material_defined_twice_is_an_error():
    doc = urdf('<material name="red"><color rgba="1 0 0 1"/></material>',
               '<material name="red"><color rgba="0 1 0 1"/></material>', '<link name="a"/>')
    single_error(DescriptionError, parse_urdf, doc, "material 'red' is defined more than once",
                 3, code='duplicate-name')


@pytest.mark.parametrize('kind, allowed', [('bogus', 'URDF'), ('ball', 'URDF'),
                                           ('', 'URDF')])
def test_unknown_joint_types_in_urdf(kind, allowed):
    doc = urdf('<link name="a"/>', '<link name="b"/>', f'<joint name="j" type="{kind}">',
               '<parent link="a"/><child link="b"/>', '</joint>')
    single_error(DescriptionError, parse_urdf, doc, f"unknown joint type '{kind}' \\({allowed} "
                 'has revolute, continuous, prismatic, fixed, floating, planar\\)', 4,
                 "joint 'j'", 'bad-joint-type')


# --- <robot version> and nameless materials, as urdfdom reads them ---------------------------

VERSIONS_READ = [None, '1.0', ' 1.0', '+1.00', '1.0.', '01.0']
FORM, WHOLE, OTHER = ("must be 'major.minor'", 'must be two whole numbers separated by a dot',
                      'is not supported')
VERSIONS_REFUSED = [('2', FORM), ('abc', FORM), ('1', FORM), ('1.0.0', FORM), ('1.', FORM),
                    ('1.c', WHOLE), ('.1', WHOLE), ('1.-1', WHOLE), ('1.0~pre6', WHOLE),
                    ('1.1', OTHER), ('2.0', OTHER)]


def versioned(version):
    attribute = '' if version is None else f' version="{version}"'
    return f'<robot name="r"{attribute}>\n<link name="a"/>\n</robot>'


@pytest.mark.parametrize('version', VERSIONS_READ)
def test_urdf_version_1_0_or_none_is_read(version):
    assert parse_urdf(versioned(version)).links[0].name == 'a'


@pytest.mark.parametrize('version, problem', VERSIONS_REFUSED)
def test_any_other_urdf_version_is_refused(version, problem):
    message = (f'<robot> version {problem}, got {version!r}: urdfdom and libsdformat read only '
               'URDF version 1.0 (or no version)')
    single_error(DescriptionError, parse_urdf, versioned(version), re.escape(message), 1,
                 "robot 'r'", 'bad-version')


def test_urdf_versions_of_thousands_of_digits_are_read_as_numbers():
    # int() refuses 4300 digits and more: compared as digits, as strtol reads them.
    assert parse_urdf(versioned('1.' + '0' * 5000)).links[0].name == 'a'
    for version in ('1.' + '0' * 5000 + '1', '1' * 5000 + '.0'):
        message = (f"<robot> version is not supported, got {version[:40] + '...'!r}: urdfdom "
                   'and libsdformat read only URDF version 1.0 (or no version)')
        single_error(DescriptionError, parse_urdf, versioned(version), re.escape(message), 1,
                     "robot 'r'", 'bad-version')


@pytest.mark.oracle
@pytest.mark.parametrize('version', VERSIONS_READ + [v for v, _ in VERSIONS_REFUSED])
def test_urdf_versions_are_read_as_libsdformat_reads_them(version, tmp_path):
    if support.oracle_path() is None:
        pytest.skip(support.NO_ORACLE)
    path = tmp_path / 'robot.urdf'
    path.write_text(versioned(version).replace('<link name="a"/>', f'<link name="a">'
                                               f'<inertial><mass value="1"/>{INERTIA}'
                                               '</inertial></link>'))
    libsdformat = support.run_oracle('check', path)
    try:
        parse_urdf(path.read_bytes())
        ours = True
    except DescriptionError:
        ours = False
    assert ours == (libsdformat.returncode == 0), libsdformat.stdout + libsdformat.stderr


def test_a_visual_material_without_name_is_kept_with_a_warning_saying_what_gazebo_loses():
    doc = urdf('<link name="a">',
               '<visual><geometry><sphere radius="1"/></geometry></visual>',
               '<visual><geometry><sphere radius="2"/></geometry>',
               '<material><color rgba="1 0 0 1"/></material></visual>',
               '<visual><geometry><sphere radius="3"/></geometry>',
               '<material><color rgba="0 1 0 1"/></material></visual>',
               '<collision><geometry><sphere radius="1"/></geometry></collision>',
               '<collision><geometry><sphere radius="2"/></geometry></collision>',
               '</link>')
    robot = parse_urdf(doc)
    only_warning(robot, r'^<material> has no name attribute: libsdformat and urdfdom refuse it '
                 r"and drop this visual and the next one and the link's 2 collisions \(Gazebo "
                 r'loads the link without them\); sdf_tools keeps them\. Name it', 5,
                 'nameless-material')
    link = robot.links[0]
    assert [v.material and v.material.rgba for v in link.visuals] == [
        None, (1.0, 0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 1.0)]
    assert len(link.collisions) == 2


def test_a_visual_material_named_empty_is_read_as_urdfdom_reads_it():
    doc = urdf('<link name="a">', '<visual><geometry><sphere radius="1"/></geometry>',
               '<material name=""><color rgba="1 0 0 1"/></material></visual>', '</link>')
    robot = parse_urdf(doc)
    assert robot.warnings == ()
    assert robot.links[0].visuals[0].material.rgba == (1.0, 0.0, 0.0, 1.0)


# --- an element given twice: the first, as urdfdom reads it ----------------------------------

LIMIT = '<limit lower="-{0}" upper="{0}" effort="{0}" velocity="{0}"/>'
# case -> (the slot of repeated_urdf holding it, the element ({0}: 2 then 3; {1}: a then c;
# {2}: k then j; {3}: b then c), the value read)
REPEATED = {
    'origin': ('joint', '<origin xyz="{0} 0 0"/>', lambda r: r.joints[1].origin.xyz[0]),
    'parent': ('parent', '<parent link="{1}"/>', lambda r: r.joints[1].parent),
    'child': ('child', '<child link="{3}"/>', lambda r: r.joints[1].child),
    'axis': ('joint', '<axis xyz="0 {0} 1"/>', lambda r: r.joints[1].axis[1]),
    'limit': ('limit', LIMIT, lambda r: r.joints[1].limit.upper),
    'dynamics': ('joint', '<dynamics damping="{0}"/>', lambda r: r.joints[1].dynamics.damping),
    'mimic': ('joint', '<mimic joint="{2}"/>', lambda r: r.joints[1].mimic.joint),
    'calibration': ('joint', '<calibration rising="{0}"/>',
                    lambda r: r.joints[1].calibration.rising),
    'safety_controller': ('joint', '<safety_controller k_velocity="{0}"/>',
                          lambda r: r.joints[1].safety_controller.k_velocity),
    'inertial': ('link', '<inertial><mass value="{0}"/>' + INERTIA + '</inertial>',
                 lambda r: r.links[0].inertial.mass),
    'mass': ('mass', '<mass value="{0}"/>', lambda r: r.links[0].inertial.mass),
    'inertia': ('inertia', INERTIA.replace('ixx="1"', 'ixx="{0}"'),
                lambda r: r.links[0].inertial.ixx),
    'inertial origin': ('inertial', '<origin xyz="{0} 0 0"/>',
                        lambda r: r.links[0].inertial.origin.xyz[0]),
    'visual origin': ('visual', '<origin xyz="{0} 0 0"/>',
                      lambda r: r.links[0].visuals[0].origin.xyz[0]),
    'geometry': ('geometry', '<geometry><sphere radius="{0}"/></geometry>',
                 lambda r: r.links[0].visuals[0].geometry.radius),
    'shape': ('shape', '<sphere radius="{0}"/>',
              lambda r: r.links[0].visuals[0].geometry.radius),
    'material': ('material', '<material name="m{0}"><color rgba="0 0 0 1"/></material>',
                 lambda r: r.links[0].visuals[0].material.name),
    'color': ('color', '<color rgba="0 0 0 0.{0}"/>',
              lambda r: r.links[0].visuals[0].material.rgba[3]),
    'robot origin': ('robot', '<origin xyz="{0} 0 0"/>', lambda r: r.origin.xyz[0]),
}
FIRST = {'parent': 'a', 'child': 'b', 'mimic': 'k', 'material': 'm2', 'color': 0.2}


def repeated_urdf(where, first, second):
    """
    Return a URDF a -k-> c, a -j-> b whose ``where`` holds ``first`` then ``second``.

    Then the lines of the two (``<robot>`` is line 1, one element a line).
    """
    def slot(name, default=None):
        return [first, second] if where == name else [default] if default else []

    lines = [*slot('robot'), '<link name="a">', *slot('link'),
             *([] if where == 'link' else [
                 '<inertial>', *slot('inertial'), *slot('mass', '<mass value="1"/>'),
                 *slot('inertia', INERTIA), '</inertial>']),
             '<visual>', *slot('visual'),
             *slot('geometry', '<geometry>'),
             *([] if where == 'geometry' else [*slot('shape', '<sphere radius="1"/>'),
                                               '</geometry>']),
             *slot('material', '<material name="m">'),
             *([] if where == 'material' else [*slot('color', '<color rgba="0 0 0 1"/>'),
                                               '</material>']),
             '</visual>', '</link>', '<link name="b"/>', '<link name="c"/>',
             '<joint name="k" type="continuous"><parent link="a"/><child link="c"/></joint>',
             '<joint name="j" type="revolute">', *slot('joint'),
             *slot('parent', '<parent link="a"/>'), *slot('child', '<child link="b"/>'),
             *slot('limit', LIMIT.format(1)), '</joint>']
    return urdf(*lines), lines.index(first) + 2, lines.index(second) + 2


@pytest.mark.parametrize('case', REPEATED)
def test_an_element_given_twice_is_read_first_with_a_warning_naming_both_lines(case):
    where, element, read = REPEATED[case]
    first, second = (element.format(*values) for values in ((2, 'a', 'k', 'b'),
                                                            (3, 'c', 'j', 'c')))
    doc, line1, line2 = repeated_urdf(where, first, second)
    robot = parse_urdf(doc, 'r.urdf')
    assert read(robot) == FIRST.get(case, 2)
    [warning] = robot.warnings
    assert (warning.code, warning.location.line, warning.places) == (
        'repeated-element', line2, (SourceLocation('r.urdf', line1),))
    tag = 'sphere' if case == 'shape' else case.split()[-1]
    assert f'<{tag}>' in warning.message and 'read only the first' in warning.message
    assert str(warning).endswith(f'(see line {line1})')


TWICE = urdf(*(f'<link name="{n}"><inertial><mass value="1"/>{INERTIA}</inertial></link>'
               for n in 'abc'),
             '<joint name="j" type="revolute">', '<origin xyz="1 2 3" rpy="0 0 1"/>',
             '<origin xyz="4 5 6" rpy="1 0 0"/>', '<parent link="a"/>', '<parent link="c"/>',
             '<child link="b"/>', '<child link="c"/>', '<axis xyz="0 0 1"/>',
             '<axis xyz="1 0 0"/>', LIMIT.format(1), LIMIT.format(2), '</joint>',
             '<joint name="k" type="prismatic">', '<origin xyz="0 0 1" rpy="0.3 0 0"/>',
             '<origin xyz="0 0 2"/>', '<parent link="a"/>', '<child link="c"/>',
             '<axis xyz="0 1 0"/>', '<axis xyz="1 1 0"/>', LIMIT.format(1), '</joint>')


def oracle_links(text):
    """Return ``oracle poses`` link lines as name -> (4, 4) matrix in the model frame."""
    import numpy as np
    poses = {}
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == 'link':
            x, y, z, w, i, j, k = map(float, parts[2:])
            poses[parts[1]] = np.array([
                [1 - 2 * (j * j + k * k), 2 * (i * j - k * w), 2 * (i * k + j * w), x],
                [2 * (i * j + k * w), 1 - 2 * (i * i + k * k), 2 * (j * k - i * w), y],
                [2 * (i * k - j * w), 2 * (j * k + i * w), 1 - 2 * (i * i + j * j), z],
                [0, 0, 0, 1]])
    return poses


@pytest.mark.oracle
def test_elements_given_twice_convert_and_move_as_libsdformat_and_urdfdom_read_them(tmp_path):
    import numpy as np
    from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
    from sdf_tools.kinematics import compile_tree
    from sdf_tools.kinematics import forward_kinematics
    robot = parse_urdf(TWICE, 'r.urdf')
    assert len(robot.warnings) == 7
    tree = compile_tree(robot)
    if support.oracle_path() is not None:  # libsdformat's model, and ours, at zero
        (tmp_path / 'r.urdf').write_text(TWICE)
        (tmp_path / 'r.sdf').write_text(urdf_to_sdf(robot).sdf)
        theirs = oracle_links(support.run_oracle('poses', tmp_path / 'r.urdf').stdout)
        ours = oracle_links(support.run_oracle('poses', tmp_path / 'r.sdf').stdout)
        assert theirs.keys() == ours.keys() == {'a', 'b', 'c'}
        at_zero = dict(zip(tree.link_names, forward_kinematics(tree, np.zeros(tree.n_q))))
        for name, pose in theirs.items():
            assert np.allclose(ours[name], pose, atol=1e-12)
            assert np.allclose(at_zero[name], pose, atol=1e-12)
    # robot_state_publisher's FK (urdfdom's reading, here through pinocchio's) at random q
    pin = pytest.importorskip('pinocchio')
    model = pin.buildModelFromXML(TWICE)
    data = model.createData()
    frames = [model.getFrameId(name) for name in tree.link_names]
    q = np.random.default_rng(29).uniform(-1, 1, (20, tree.n_q))
    order = [model.getJointId(name) - 1 for name in tree.coordinate_names]
    for row, ours in zip(q, forward_kinematics(tree, q)):
        configuration = np.empty(model.nq)
        configuration[order] = row
        pin.framesForwardKinematics(model, data, configuration)
        for frame, pose in zip(frames, ours):
            assert np.allclose(data.oMf[frame].homogeneous, pose, atol=1e-12)


def test_gazebo_content_is_held_as_values_read_once():
    doc = urdf('<link name="a"/>',
               '<gazebo reference="a">',
               '  <mu1>0.5</mu1> slippery',
               '  <sensor name="cam" type="camera"><update_rate>30</update_rate></sensor>',
               '</gazebo>')
    first, again = parse_urdf(doc).gazebo[0], parse_urdf(doc).gazebo[0]
    assert first.elements == again.elements  # equal by what they hold
    mu1, sensor = first.elements
    assert (mu1.tag, mu1.text, mu1.tail, mu1.sourceline) == ('mu1', '0.5', ' slippery\n  ', 4)
    assert sensor.findtext('update_rate') == '30' and sensor.sourceline == 5
    assert hash(first.elements) == hash(again.elements)
