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
Tests of :mod:`sdf_tools.formats.sdf.params`: values read as ``sdf::Param`` reads them.

Each case is a text in an element of one type, and what libsdformat 12.3 does with it: reads
it (and as what), refuses the file, or refuses the value as outside the element's ``min``
or ``max``. The verdicts and the values are libsdformat's: the oracle (tools/sdformat_oracle)
prints the value it read when it is out of bounds (``The value [3] is less than the minimum
allowed value of [4]``) and a link's pose; the others were read with libsdformat 12.3 itself
(``Param::Get``). With the oracle built, every verdict and every value it prints is checked
against it again.
"""

import math
import re

import pytest
from sdf_tools.formats.sdf.params import read
from sdf_tools.formats.sdf.params import read_pose
from support import oracle_path
from support import run_oracle

# Where each kind of element is put, with its type and bounds (sdf/1.9): a link's child.
PLACES = {
    'int': ('<collision name="c"><geometry><box/></geometry><max_contacts>{}</max_contacts>'
            '</collision>', 'int', None, None),
    'int 4..2048': ('<sensor name="s" type="camera"><camera><lens><env_texture_size>{}'
                    '</env_texture_size></lens></camera></sensor>', 'int', '4', '2048'),
    'unsigned': ('<sensor name="s" type="ray"><ray><scan><horizontal><samples>{}</samples>'
                 '</horizontal></scan></ray></sensor>', 'unsigned int', None, None),
    'double': ('<velocity_decay><linear>{}</linear></velocity_decay>', 'double', None, None),
    'double 0..': ('<collision name="c"><geometry><box/></geometry><surface><friction><ode>'
                   '<mu>{}</mu></ode></friction></surface></collision>', 'double', '0.0', None),
    'float': ('<visual name="v"><geometry><box/></geometry><material><render_order>{}'
              '</render_order></material></visual>', 'float', None, None),
    'bool': ('<gravity>{}</gravity>', 'bool', None, None),
    'color': ('<visual name="v"><geometry><box/></geometry><material><diffuse>{}</diffuse>'
              '</material></visual>', 'color', None, None),
    'vector3': ('<collision name="c"><geometry><box/></geometry><surface><friction><ode>'
                '<fdir1>{}</fdir1></ode></friction></surface></collision>', 'vector3', None,
                None),
    'vector2d': ('<sensor name="s" type="camera"><camera><distortion><center>{}</center>'
                 '</distortion></camera></sensor>', 'vector2d', None, None),
    'pose': ('<pose>{}</pose>', 'pose', None, None),
}
READS, REFUSES, BOUNDS = 'reads', 'refuses', 'out of bounds'
NAN = math.nan
# (place, text, verdict, the value libsdformat holds, whether that is not what the text says)
CASES = [
    # std::stoi: the leading integer, the rest ignored; base 16 after 0x (any case)
    ('int', '666.5185185185185', READS, 666, True), ('int', '2x', READS, 2, True),
    ('int', ' 12 ', READS, 12, False), ('int', '0x7FFFFFFF', READS, 2 ** 31 - 1, False),
    ('int', 'TRUE', READS, 1, True),   # true and false are 1 and 0 to every type
    ('int', '0x80000000', REFUSES, None, None), ('int', '2147483648', REFUSES, None, None),
    ('int', 'x', REFUSES, None, None),
    ('int 4..2048', '3.9', BOUNDS, 3, True), ('int 4..2048', '2049.5', BOUNDS, 2049, True),
    ('int 4..2048', '0X10', READS, 16, False), ('int 4..2048', '-0x10', BOUNDS, 0, True),
    ('int 4..2048', '1e3', BOUNDS, 1, True), ('int 4..2048', 'true', BOUNDS, 1, True),
    ('int 4..2048', '0x', BOUNDS, 0, True),
    # std::stoul, then the low 32 bits
    ('unsigned', '666.5185185185185', READS, 666, True), ('unsigned', '1.0', READS, 1, False),
    ('unsigned', '-1', READS, 2 ** 32 - 1, True), ('unsigned', '4294967296', READS, 0, True),
    ('unsigned', '0xFFFFFFFF', READS, 2 ** 32 - 1, False),
    ('unsigned', '18446744073709551616', REFUSES, None, None),
    ('unsigned', 'abc', REFUSES, None, None),
    # std::stod: the leading number (hexadecimal, inf, nan too); out of range is refused
    ('double', '2x', READS, 2.0, True), ('double', '1,5', READS, 1.0, True),
    ('double', '0x1p3', READS, 8.0, False), ('double', 'inf', READS, math.inf, False),
    ('double', 'nan', READS, NAN, True), ('double', 'true', READS, 1.0, True),
    ('double', '', READS, None, False),   # empty: the default
    ('double', '1e999', REFUSES, None, None), ('double', '1e-400', REFUSES, None, None),
    ('double', '1e-310', REFUSES, None, None),   # a subnormal is out of range too
    ('double 0..', '-1', BOUNDS, -1.0, False), ('double 0..', '-0.5x', BOUNDS, -0.5, True),
    ('double 0..', '-inf', BOUNDS, -math.inf, False), ('double 0..', '-0', READS, 0.0, False),
    ('double 0..', 'nan', READS, NAN, True), ('double 0..', 'false', READS, 0.0, True),
    # std::stof
    ('float', '1.2e-38', READS, 1.199999978106707e-38, False),
    ('float', '3.5e38', REFUSES, None, None), ('float', '1e-38', REFUSES, None, None),
    ('bool', 'TRUE', READS, True, False), ('bool', ' 0 ', READS, False, False),
    ('bool', 'yes', REFUSES, None, None), ('bool', '2', REFUSES, None, None),
    # 3 or 4 words, each std::stof, from 0 to 1 as a float; nan passes as 0
    ('color', '1 0 0', READS, (1.0, 0.0, 0.0, 1.0), False),
    ('color', '0.5x 1 1', READS, (0.5, 1.0, 1.0, 1.0), True),
    ('color', 'nan 1 1', READS, (0.0, 1.0, 1.0, 1.0), True),
    ('color', '1.00000001 1 1', READS, (1.0, 1.0, 1.0, 1.0), False),
    ('color', '0x1 0 0', READS, (1.0, 0.0, 0.0, 1.0), False),
    ('color', '1 0 0 1 1', REFUSES, None, None), ('color', '1.4e-45 1 1', REFUSES, None, None),
    ('color', '1.0000001 1 1', REFUSES, None, None), ('color', 'true', REFUSES, None, None),
    # a C++ stream: that many numbers, the rest ignored; no nan, inf or hexadecimal
    ('vector3', '1 2 3 4', READS, (1.0, 2.0, 3.0), True),
    ('vector3', '1 2 3x', READS, (1.0, 2.0, 3.0), True),
    ('vector3', '1e-400 0 0', READS, (0.0, 0.0, 0.0), False),
    ('vector3', '1-2 3', READS, (1.0, -2.0, 3.0), False),
    ('vector3', '1.5.5 2', READS, (1.5, 0.5, 2.0), False),
    ('vector3', '1 2', REFUSES, None, None), ('vector3', '1,2,3', REFUSES, None, None),
    ('vector3', 'nan 0 0', REFUSES, None, None), ('vector3', 'inf 0 0', REFUSES, None, None),
    ('vector3', '0x1 0 0', REFUSES, None, None), ('vector3', '1e 2 3', REFUSES, None, None),
    ('vector2d', '1 2 3', READS, (1.0, 2.0), True), ('vector2d', '1', REFUSES, None, None),
    # 6 words, each std::stod, finite
    ('pose', '1x 2 3 0 0 0', READS, (1.0, 2.0, 3.0, 0.0, 0.0, 0.0), True),
    ('pose', '0x10 0 0 0 0 0', READS, (16.0, 0.0, 0.0, 0.0, 0.0, 0.0), False),
    ('pose', '1,5 2 3 0 0 0', READS, (1.0, 2.0, 3.0, 0.0, 0.0, 0.0), True),
    ('pose', '1 2 3 0 0', REFUSES, None, None), ('pose', '1 2 3 0 0 0 0', REFUSES, None, None),
    ('pose', 'nan 0 0 0 0 0', REFUSES, None, None),
    ('pose', '1e-310 0 0 0 0 0', REFUSES, None, None),
]


def _ours(place, text):
    _, kind, low, high = PLACES[place]
    return read_pose(text, 6) if kind == 'pose' else read(kind, text, minimum=low, maximum=high)


def _same(a, b) -> bool:
    if isinstance(a, tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    return a is b or a == b or isinstance(a, float) and math.isnan(a) and math.isnan(b)


@pytest.mark.parametrize('place, text, verdict, value, noted', CASES)
def test_each_type_is_read_as_libsdformat_reads_it(place, text, verdict, value, noted,
                                                   tmp_path):
    reading = _ours(place, text)
    found = REFUSES if reading.refusal else BOUNDS if reading.bounds else READS
    assert found == verdict, reading
    if verdict != REFUSES:
        assert _same(reading.value, value)
        assert (reading.note is not None) == noted, reading.note
    if oracle_path() is None:
        return
    path = tmp_path / 'value.sdf'
    path.write_text(f'<sdf version="1.9"><model name="m"><link name="l">'
                    f'{PLACES[place][0].format(text)}</link></model></sdf>')
    result = run_oracle('poses' if place == 'pose' else 'check', path)
    printed = re.search(r'The value \[([^\]]*)\] is (less|greater)', result.stderr)
    said = READS if result.returncode == 0 else BOUNDS if printed else REFUSES
    assert said == verdict, result.stdout + result.stderr
    if printed:   # what libsdformat read, as it prints it
        assert float(printed.group(1)) == value
    if place == 'pose' and verdict == READS:
        link = next(line.split() for line in result.stdout.splitlines() if line[:4] == 'link')
        assert tuple(map(float, link[2:5])) == value[:3]


def test_a_required_value_that_is_empty_is_refused():
    assert read('double', ' \n', required=True).refusal is not None
    assert read('double', ' \n').refusal is None


def test_long_texts_are_read_in_linear_time():
    digits = '7' * 200_000   # int() refuses more than 4300 digits; float() is linear
    assert read('int', digits).refusal is not None
    assert read('unsigned int', '0' * 200_000 + '1x').value == 1
    assert read('double', '0.' + digits).value == pytest.approx(7 / 9)
    assert read('vector3', ' '.join(['0.' + digits] * 4)).note is not None   # a 4th number
