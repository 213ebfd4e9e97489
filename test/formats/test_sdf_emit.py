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
The emitter: number texts and the poses of a decided document that are not finite.

Number texts are remembered without ever writing one differently from formatting; the
poses that are not finite are found before the document is written.
"""

import math

from hypothesis import given
from hypothesis import strategies as st
import pytest
from sdf_tools.formats.sdf.document import FrameOut
from sdf_tools.formats.sdf.document import InertialOut
from sdf_tools.formats.sdf.document import JointOut
from sdf_tools.formats.sdf.document import LinkOut
from sdf_tools.formats.sdf.document import ModelOut
from sdf_tools.formats.sdf.document import PartOut
from sdf_tools.formats.sdf.document import SdfDocument
from sdf_tools.formats.sdf.emit import non_finite_poses
from sdf_tools.formats.sdf.emit import NumberTexts
from sdf_tools.formats.sdf.emit import SdfText
from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import IDENTITY
from sdf_tools.model import Pose
from sdf_tools.model import Sphere
from sdf_tools.xmlio.element import parse_element

# Few distinct values, so that draws repeat them (as descriptions do), signed zeros included.
_NUMBER = st.sampled_from((0.0, -0.0, 1.0, -1.0, 0.5, 1e-9, 3.141592653589793, 1e16)) | \
    st.floats(allow_nan=False, allow_infinity=False)
_XYZ = st.tuples(_NUMBER, _NUMBER, _NUMBER)
_QUAT = st.tuples(_NUMBER, _NUMBER, _NUMBER, _NUMBER).filter(
    lambda q: 1e-6 < sum(c * c for c in q) < 1e300)


@given(st.lists(st.tuples(_NUMBER, _XYZ, _XYZ, _QUAT), max_size=20))
def test_every_text_is_formattings(draws):
    texts = NumberTexts()
    out = SdfText(0, texts)
    for value, vector, xyz, quat in draws:
        for writer in (out, texts):
            assert writer.number(value) == fmt(value)
            assert writer.vector(vector) == fmt_vec(vector)
            assert writer.pose(xyz, quat) == fmt_pose(xyz, quat)


def test_a_signed_zero_in_a_quaternion_is_not_taken_for_the_other():
    # 180 degrees about z, written twice: -0.0 components make yaw -pi instead of pi.
    plus, minus = (0.0, 0.0, 1.0, 0.0), (-0.0, 0.0, 1.0, -0.0)
    assert fmt_pose((0.0, 0.0, 0.0), plus) != fmt_pose((0.0, 0.0, 0.0), minus)
    texts = NumberTexts()
    assert texts.pose((0.0, 0.0, 0.0), plus) == fmt_pose((0.0, 0.0, 0.0), plus)
    assert texts.pose((0.0, 0.0, 0.0), minus) == fmt_pose((0.0, 0.0, 0.0), minus)


def test_a_writer_shares_the_number_texts_of_the_decisions():
    texts = NumberTexts()
    out = SdfText(1, texts)
    out.leaf('mass', out.number(0.1 + 0.2))
    assert out.text() == '  <mass>0.30000000000000004</mass>\n'
    assert texts.number(0.1 + 0.2) is out.number(0.1 + 0.2)


_INERTIAL = InertialOut((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), 1.0, (1.0, 0, 0, 1.0, 0, 1.0))


def _posed(bad: float) -> Pose:
    return Pose((0.0, bad, 0.0), (0.0, 0.0, 0.0, 1.0))


@pytest.mark.parametrize('bad', [math.inf, -math.inf, math.nan])
def test_the_poses_that_are_not_finite_are_found_in_document_order(bad):
    content = parse_element('<sensor name="cam"><pose>0 0 0 0 0 0</pose><camera><pose>'
                            'NaN 0 0 0 0 0</pose></camera><topic>camera_info</topic></sensor>')
    plugin = parse_element('<plugin name="info"><uri>nanometre.dae</uri><x><pose>0 -Inf 0 0 '
                           '0 0</pose></x></plugin>')
    model = ModelOut('m', (
        JointOut('j', 'fixed', '__model__', _posed(bad), 'world', 'a'),
        LinkOut('a', _posed(bad), 'j', _INERTIAL, (
            PartOut('visual', 'v', _posed(bad), Sphere(1.0)),
            PartOut('collision', 'c', IDENTITY, Sphere(1.0), content=(plugin,))), (content,)),
        LinkOut('b', IDENTITY, None, _INERTIAL)),
        frames=(FrameOut('f', 'a', _posed(bad)), FrameOut('g', 'a')), pose=_posed(bad))
    texts = NumberTexts()
    text = texts.pose((0.0, bad, 0.0), (0.0, 0.0, 0.0, 1.0))
    assert non_finite_poses(SdfDocument('1.9', model), texts) == [
        (text, 'joint', 'joint', 'j'), (text, 'link', 'link', 'a'),
        (text, 'visual', 'visual', 'v'), ('0 -Inf 0 0 0 0', 'x', 'plugin', 'info'),
        ('NaN 0 0 0 0 0', 'camera', 'sensor', 'cam'), (text, 'frame', 'frame', 'f'),
        (text, 'model', 'model', 'm')]
    assert non_finite_poses(SdfDocument('1.9', ModelOut('m', model.items[2:])), texts) == []
