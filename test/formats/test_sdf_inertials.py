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
Tests of the inertials libsdformat refuses (sdf_tools.formats.sdf.inertials).

``sdf_tools check``'s error says what ``convert`` writes instead, to either format: each
promise is checked against what the writers do.
"""

import pytest
from sdf_tools.errors import Code
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.inertia import is_physical
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import to_sdf

MOMENTS = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')


def model(inertial: str):
    """Load a one-link SDFormat model whose link has ``inertial`` (its line is 3)."""
    text = (f'<sdf version="1.9">\n<model name="m">\n<link name="a"><inertial>{inertial}'
            '</inertial></link>\n</model>\n</sdf>\n')
    return load(text=text, options=LoadOptions(fmt='sdf', source='m.sdf'))


def loadable(sdf: str) -> bool:
    """Return whether the inertial of the one link of an SDFormat text is one libsdformat loads."""
    inertial = load(text=sdf, options=LoadOptions(fmt='sdf')).robot.links[0].inertial
    return inertial.mass > 0.0 and is_physical(tuple(getattr(inertial, k) for k in MOMENTS))


@pytest.mark.parametrize('inertial, code, fix, repair', [
    ('<mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>5</izz></inertia>',
     Code.BAD_INERTIA, 'the nearest valid inertia', Code.BAD_INERTIA),
    ('<mass>-1</mass>', Code.NEGATIVE_MASS, 'a placeholder inertial', Code.MASSLESS_LINK),
])
def test_check_says_what_convert_writes_for_an_inertial_libsdformat_refuses(inertial, code,
                                                                            fix, repair):
    loaded = model(inertial)
    (error,) = check(loaded)
    assert (error.code, error.location.line) == (code, 3)
    assert error.message.endswith(
        f'(sdf_tools convert writes {fix} to SDFormat, with a warning; to URDF it writes the '
        f'link unchanged, and urdf2sdf then writes {fix})')
    given = loaded.robot.links[0].inertial
    # To SDFormat: repaired, with a warning.
    converted = to_sdf(loaded)
    assert repair in [d.code for d in converted.warnings] and loadable(converted.sdf)
    # To URDF: unchanged.
    text, _ = write_urdf(loaded.robot)
    written = parse_urdf(text, 'm.urdf').links[0].inertial
    assert [getattr(written, k) for k in ('mass',) + MOMENTS] == \
        [getattr(given, k) for k in ('mass',) + MOMENTS]
    # urdf2sdf of that URDF: repaired, with a warning.
    again = to_sdf(load(text=text, options=LoadOptions(fmt='urdf', source='m.urdf')))
    assert repair in [d.code for d in again.warnings] and loadable(again.sdf)
