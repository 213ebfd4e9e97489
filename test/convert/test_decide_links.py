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
Tests of sdf_tools.convert.decide_links: collisions without volume, massless links, inertias.

Gazebo's DART engine aborts on them (test_physics_probe loads the result), so the converter
leaves them out with a warning, keeps the visuals, and writes a capsule of length 0 as the
sphere it is. The rest of the link output is tested in test_urdf_to_sdf.
"""

import math

import numpy as np
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.sdf.reader import parse_sdf
from urdf_snippets import codes
from urdf_snippets import convert
from urdf_snippets import INERTIAL
from urdf_snippets import joint
from urdf_snippets import link
from urdf_snippets import model_of
from urdf_snippets import robot

# UR's Gazebo description, in our words: a massless, flat ground plane fixed to the world.
GROUND_PLANE = robot(
    '<link name="world"/>',
    '<link name="ground_plane"><visual><geometry><box size="5 5 0"/></geometry></visual>'
    '<collision><geometry><box size="5 5 0"/></geometry></collision></link>',
    '<joint name="ground_joint" type="fixed"><parent link="world"/>'
    '<child link="ground_plane"/></joint>',
    f'<link name="base">{INERTIAL}<collision><geometry><box size="1 1 1"/></geometry>'
    '</collision></link>',
    '<joint name="base_joint" type="fixed"><parent link="world"/><child link="base"/>'
    '</joint>')


def test_a_flat_ground_plane_keeps_its_visual_and_loses_its_collision():
    result = convert(GROUND_PLANE)
    plane = model_of(result).find("link[@name='ground_plane']")
    assert plane.find('collision') is None
    assert plane.findtext('visual/geometry/box/size') == '5 5 0'
    assert plane.findtext('inertial/mass') == '0.001'  # massless-kept, as any massless link
    dropped = [w for w in result.warnings if w.code == 'bad-geometry']
    assert [(w.entity, w.location.line) for w in dropped] == [("link 'ground_plane'", 1)]
    assert dropped[0].message == (
        "collision 'ground_plane_collision' is left out: <box> size 5 5 0 has a side that is "
        "not above 0, and DART (Gazebo's physics engine) aborts on a collision without volume "
        '(libsdformat writes it)')


@pytest.mark.parametrize('shape', [
    '<box size="1 1 -1"/>', '<cylinder radius="0" length="1"/>',
    '<cylinder radius="1" length="0"/>', '<sphere radius="0"/>',
    '<capsule radius="0" length="1"/>', '<mesh filename="m.stl" scale="0 0 0"/>',
])
def test_collisions_without_volume_are_left_out_and_the_others_keep_their_names(shape):
    result = convert(robot(
        f'<link name="base">{INERTIAL}<collision><geometry>{shape}</geometry></collision>'
        '<collision><geometry><sphere radius="1"/></geometry></collision></link>'))
    collisions = model_of(result).findall('link/collision')
    assert [c.get('name') for c in collisions] == ['base_collision_1']  # libsdformat's name
    assert codes(result) == ['bad-geometry']  # the reader's code: a flat geometry


def test_a_capsule_of_length_0_is_written_as_a_sphere_in_collisions():
    result = convert(robot(
        f'<link name="base">{INERTIAL}'
        '<collision><geometry><capsule radius="0.2" length="0"/></geometry></collision>'
        '<visual><geometry><capsule radius="0.2" length="0"/></geometry></visual></link>'))
    link = model_of(result).find('link')
    assert [e.tag for e in link.find('collision/geometry')] == ['sphere']
    assert link.findtext('collision/geometry/sphere/radius') == '0.2'
    assert link.findtext('visual/geometry/capsule/length') == '0'
    assert result.warnings == ()


@pytest.mark.parametrize('children, kept', [
    (0, 'so that it stays in the model (libsdformat drops it)'),
    (1, 'so that it and the joint below it stay in the model (libsdformat drops them, with '
        'everything below)'),
    (2, 'so that it and the 2 joints below it stay in the model (libsdformat drops them, with '
        'everything below)')])
def test_a_massless_link_is_kept_with_a_placeholder_and_the_warning_counts_in_words(
        children, kept):
    parts = [f'<link name="root">{INERTIAL}</link>',
             '<link name="hub"/>',
             '<joint name="to_hub" type="revolute"><parent link="root"/><child link="hub"/>'
             '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>']
    for i in range(children):
        parts += [link(f'c{i}'), joint(f'j{i}', 'hub', f'c{i}')]
    (warning,) = [w for w in convert(robot(*parts)).warnings if w.code == 'massless-link']
    assert warning.entity == "link 'hub'"
    assert warning.message == (
        'has no <inertial>; it is written with a placeholder inertial (mass 0.001 kg, '
        f'inertia 1e-06 kg m^2) {kept}')


def test_a_negative_mass_warning_says_what_is_written_instead_and_why():
    result = convert(robot(link('root'), '<link name="neg"><inertial><origin xyz="0 0 2"/>'
                           '<mass value="-2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                           'izz="1"/></inertial></link>', joint('j', 'root', 'neg')))
    (warning,) = [w for w in result.warnings if w.code == 'massless-link']
    assert (warning.entity, warning.message) == ("link 'neg'", (
        'has mass -2 kg, which no body can have (libsdformat writes it as given, and its own '
        "check then refuses the link: 'invalid inertia'); it is written with a placeholder "
        'inertial (mass 0.001 kg, inertia 1e-06 kg m^2) instead, at its centre of mass'))
    inertial = model_of(result).find("link[@name='neg']/inertial")
    assert (inertial.findtext('mass'), inertial.findtext('pose'),
            inertial.findtext('inertia/ixx')) == ('0.001', '0 0 2 0 0 0', '1e-06')


def _heavy(ixx, ixy, ixz, iyy, iyz, izz):
    return robot(f'<link name="a"><inertial><mass value="0.15"/><inertia ixx="{ixx}" '
                 f'ixy="{ixy}" ixz="{ixz}" iyy="{iyy}" iyz="{iyz}" izz="{izz}"/></inertial>'
                 '</link>')


def test_an_invalid_inertia_at_the_edge_of_the_float_range_is_repaired_to_finite_numbers():
    # A fuzzed solo12: one product of inertia -1.8e308. Its largest moment is within rounding
    # of the largest float, and the repair used to compute it as inf and write 'nan'.
    result = convert(_heavy(3.024e-05, 4.671e-05, 0, 0.00041193, -1.7976931348623157e308,
                            0.00041107))
    assert 'bad-inertia' in codes(result)
    inertia = model_of(result).find('link/inertial/inertia')
    values = [float(inertia.findtext(k)) for k in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')]
    assert all(math.isfinite(v) for v in values), values
    moments = np.linalg.eigvalsh(np.array([values[0:3], [values[1], *values[3:5]],
                                           [values[2], values[4], values[5]]]) / 1e308)
    assert moments[0] >= 0 and moments[0] + moments[1] >= moments[2] * (1 - 1e-12)
    parse_sdf(result.sdf, 'converted.sdf')  # libsdformat-valid numbers: our reader takes them


def test_an_inertia_whose_nearest_valid_one_is_beyond_the_float_range_is_an_error():
    with pytest.raises(DescriptionError) as caught:
        convert(_heavy(1.7e308, 1e308, 0, 1.7e308, 0, 1.7e308))
    (error,) = caught.value.diagnostics
    assert (error.entity, error.code, error.location.line) == ("link 'a'", 'bad-number', 1)
    assert 'beyond the largest floating-point number' in error.message
