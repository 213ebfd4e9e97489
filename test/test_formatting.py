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

"""Tests of sdf_tools.formatting: exact, shortest number text."""

import numpy as np
from sdf_tools import batch_transforms
from sdf_tools import transforms
from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_colour
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec


def test_numbers_are_shortest_exact_and_clean():
    assert [fmt(v) for v in (1.0, -0.0, 0.0, 0.1, 1e-9, 1e16, -2.5, 3)] == \
        ['1', '0', '0', '0.1', '1e-09', '1e+16', '-2.5', '3']
    rng = np.random.default_rng(0)
    for v in rng.normal(size=1000) * 10.0 ** rng.uniform(-20, 20, 1000):
        assert float(fmt(float(v))) == float(v)
    assert fmt(np.float64(0.25)) == '0.25'
    assert fmt_vec((1.0, 0.0, -3.5)) == '1 0 -3.5'


def test_subnormals_are_written_as_zero_and_the_smallest_normal_as_it_is(tmp_path):
    import sys
    smallest = sys.float_info.min
    assert [fmt(v) for v in (5e-324, -2.225073858507203e-309, smallest, -smallest)] == \
        ['0', '0', repr(smallest), repr(-smallest)]
    # libsdformat refuses a subnormal's text (out of range), and reads the smallest normal.
    import support
    if support.oracle_path() is not None:
        for value, loads in ((2.225073858507203e-309, False), (smallest, True)):
            model = tmp_path / f'{loads}.sdf'
            model.write_text('<sdf version="1.9"><model name="m"><link name="l"><visual '
                             f'name="v"><pose>0 0 {value!r} 0 0 0</pose><geometry><box><size>'
                             '1 1 1</size></box></geometry></visual></link></model></sdf>')
            assert (support.run_oracle('check', model).returncode == 0) is loads, value


def test_colours_are_written_as_a_float_holds_them(tmp_path):
    # A URDF rgba of 1.4e-45 (a subnormal float): libsdformat 12.3 writes
    # 1.751623080406021e-45, then refuses its own output (std::stof: out of range).
    from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
    from sdf_tools.formats.sdf.reader import parse_sdf
    from sdf_tools.formats.sdf.writer import write_sdf
    from sdf_tools.formats.urdf.reader import parse_urdf
    import support
    assert fmt_colour((1.4e-45, -1e-40, 2.0 ** -126, 0.5)) == f'0 0 {2.0 ** -126!r} 0.5'
    robot = parse_urdf('<robot name="r"><link name="a"><visual><geometry><box size="1 1 1"/>'
                       '</geometry><material name="m"><color rgba="1.4e-45 8.7e-238 0.5 1"/>'
                       '</material></visual></link></robot>')
    for text in (urdf_to_sdf(robot).sdf, write_sdf(robot)):
        assert '<diffuse>0 0 0.' in text
        parse_sdf(text)   # read back, as libsdformat reads it
        if support.oracle_path() is not None:
            (tmp_path / 'c.sdf').write_text(text)
            assert support.run_oracle('check', tmp_path / 'c.sdf').returncode == 0


def test_pose_text_round_trips_the_rotation():
    q = transforms.quat_from_rpy(0.1, 1.5707963, -2.0)
    values = [float(v) for v in fmt_pose((1.0, 2.0, 3.0), q).split()]
    assert values[:3] == [1.0, 2.0, 3.0]
    back = transforms.quat_from_rpy(*values[3:])
    np.testing.assert_allclose(batch_transforms.matrix_from_quat(back),
                               batch_transforms.matrix_from_quat(q), atol=1e-15)
    assert fmt_pose((0.0, 0.0, 0.0), transforms.IDENTITY_QUAT) == '0 0 0 0 0 0'
