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

"""SdfText remembers number texts without ever writing one differently from formatting."""

import math

from hypothesis import given
from hypothesis import strategies as st
from lxml import etree
import pytest
from sdf_tools.formats.sdf.emit import SdfText
from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec

# Few distinct values, so that draws repeat them (as descriptions do), signed zeros included.
_NUMBER = st.sampled_from((0.0, -0.0, 1.0, -1.0, 0.5, 1e-9, 3.141592653589793, 1e16)) | \
    st.floats(allow_nan=False, allow_infinity=False)
_XYZ = st.tuples(_NUMBER, _NUMBER, _NUMBER)
_QUAT = st.tuples(_NUMBER, _NUMBER, _NUMBER, _NUMBER).filter(
    lambda q: 1e-6 < sum(c * c for c in q) < 1e300)


@given(st.lists(st.tuples(_NUMBER, _XYZ, _XYZ, _QUAT), max_size=20))
def test_every_text_is_formattings(draws):
    out = SdfText()
    part = out.fragment()
    for value, vector, xyz, quat in draws:
        for writer in (out, part):
            assert writer.number(value) == fmt(value)
            assert writer.vector(vector) == fmt_vec(vector)
            assert writer.pose(xyz, quat) == fmt_pose(xyz, quat)


def test_a_signed_zero_in_a_quaternion_is_not_taken_for_the_other():
    # 180 degrees about z, written twice: -0.0 components make yaw -pi instead of pi.
    plus, minus = (0.0, 0.0, 1.0, 0.0), (-0.0, 0.0, 1.0, -0.0)
    assert fmt_pose((0.0, 0.0, 0.0), plus) != fmt_pose((0.0, 0.0, 0.0), minus)
    out = SdfText()
    assert out.pose((0.0, 0.0, 0.0), plus) == fmt_pose((0.0, 0.0, 0.0), plus)
    assert out.pose((0.0, 0.0, 0.0), minus) == fmt_pose((0.0, 0.0, 0.0), minus)


def test_a_fragment_is_written_at_its_depth_and_shares_the_remembered_numbers():
    out = SdfText()
    out.start('model', {'name': 'm'})
    link = out.fragment()
    link.leaf('mass', link.number(0.1 + 0.2))
    assert link.text() == '  <mass>0.30000000000000004</mass>\n'
    assert out.number(0.1 + 0.2) is link.number(0.1 + 0.2)


@given(st.lists(st.tuples(_NUMBER, _XYZ, _QUAT), max_size=8),
       st.sampled_from(('number', 'vector', 'pose')),
       st.sampled_from((math.inf, -math.inf, math.nan)))
def test_a_non_finite_number_is_noticed_in_whichever_fragment_writes_it(draws, how, bad):
    out = SdfText()
    part = out.fragment()
    for value, xyz, quat in draws:
        out.number(value), out.vector(xyz), part.pose(xyz, quat)
    assert not out.non_finite
    if how == 'number':
        part.number(bad)
    elif how == 'vector':
        part.vector((0.0, bad, 1.0))
    else:
        part.pose((bad, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    assert out.non_finite and part.non_finite


@pytest.mark.parametrize('xml, found', [
    ('<sensor><topic>camera_info</topic><pose>0 0 1 0 0 0</pose></sensor>', False),
    ('<plugin name="nan"><pose>0 0 1 0 0 0</pose></plugin>', False),
    ('<light><pose>0 -inf 0 0 0 0</pose></light>', True),
    ('<light><pose>nan 0 0 0 0 0</pose></light>', True)])
def test_a_non_finite_number_in_a_spliced_element_is_noticed(xml, found):
    out = SdfText()
    out.element(etree.fromstring(xml))
    assert out.non_finite is found
