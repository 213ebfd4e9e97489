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

"""Tests of the URDF writer's problems and numbers (:mod:`sdf_tools.formats.urdf.report`)."""

import math

import pytest
from sdf_tools.errors import ConversionError
from sdf_tools.formats.urdf.report import UrdfReport
from sdf_tools.model import Limit
from sdf_tools.model import Pose
from test_urdf_writer import arm
from test_urdf_writer import error_of


def test_non_finite_numbers():
    robot = arm(origin=Pose((math.nan, 0.0, 0.0)), limit=Limit(-1.0, math.inf, 1.0, 1.0))
    error = error_of(robot, "joint 'j': <origin> xyz is nan; URDF needs finite numbers")
    assert [d.message for d in error.diagnostics] == [
        '<origin> xyz is nan; URDF needs finite numbers',
        '<limit> upper is inf; URDF needs finite numbers']


def test_numbers_are_short_and_problems_are_collected():
    report = UrdfReport()
    assert report.nums((1.0, -0.0, 0.1), "link 'a'", '<origin> xyz') == '1 0 0.1'
    assert report.num(math.inf, "link 'a'", '<mass>') == '0'
    report.error("joint 'j'", 'is a ball joint')
    with pytest.raises(ConversionError) as info:
        report.raise_if_errors()
    assert [(d.entity, d.code, d.message) for d in info.value.diagnostics] == [
        ("link 'a'", 'bad-number', '<mass> is inf; URDF needs finite numbers'),
        ("joint 'j'", 'no-urdf-equivalent', 'is a ball joint')]
    UrdfReport().raise_if_errors()  # nothing to report


def test_content_urdf_cannot_hold_is_refused_once_or_left_out_with_a_warning():
    report = UrdfReport()
    for _ in range(2):
        assert not report.drop("link 'a'", 'carries <x>', '<x> is left out')
    with pytest.raises(ConversionError) as info:
        report.raise_if_errors()
    assert [d.message for d in info.value.diagnostics] == [
        'carries <x>; --lossy writes the nearest URDF without it']
    lossy = UrdfReport(lossy=True)
    assert lossy.drop("link 'a'", 'carries <x>', '<x> is left out')
    assert lossy.drop("link 'a'", 'carries <x>', '<x> is left out')
    lossy.raise_if_errors()
    assert [(d.entity, d.severity.value, d.message) for d in lossy.warnings] == 2 * [
        ("link 'a'", 'warning', '<x> is left out')]
