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


"""Numbers and poses equal within a tolerance."""

import math

from sdf_tools.comparing.values import close
from sdf_tools.comparing.values import pose_error
from sdf_tools.comparing.values import poses_close
from sdf_tools.model import Pose


def test_numbers_compare_absolutely_below_1_and_relatively_above():
    assert close(0.1, 0.1 + 9e-7, 1e-6) and not close(0.1, 0.1 + 2e-6, 1e-6)
    assert close(1e16, 1e16 * (1 + 9e-7), 1e-6) and not close(1e16, 1.1e16, 1e-6)


def test_infinities_equal_only_themselves():
    assert close(math.inf, math.inf, 1e-6) and not close(math.inf, 1e300, 1e-6)
    assert close(math.nan, math.nan, 1e-6) and not close(math.nan, 0.0, 1e-6)


def test_a_small_rotation_is_measured_exactly():
    turned = Pose.from_rpy((0, 0, 0), (0, 0, 1e-9))
    assert math.isclose(pose_error(None, turned)[1], 1e-9, rel_tol=1e-6)
    assert poses_close(None, turned, 1e-6) and not poses_close(None, turned, 1e-10)
