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
The rules of the nodes' parameter values, in one place for the nodes and the launch files.

Each ``*_problem`` function returns why a value is not valid, or ``None``: the nodes refuse
such a value (at startup, or in ``ros2 param set``), and the launch files refuse it before any
node starts (:mod:`sdf_tools.ros.bringup.helpers`). No rclpy and no message packages here.
"""

import math

from sdf_tools.convert.mesh_uris import MODES
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.ros.bringup.gazebo import gz_topic_problem

#: Highest ``publish_frequency`` (Hz): robot_state_publisher's throttle works in whole ms.
MAX_PUBLISH_FREQUENCY = 1000.0


def publish_frequency_problem(value: object) -> str | None:
    """Return why ``value`` is not a valid ``publish_frequency``, or ``None``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f'publish_frequency must be a number, got {value!r}'
    if not 0.0 < value <= MAX_PUBLISH_FREQUENCY:
        return f'publish_frequency must be between 0.0 (exclusive) and 1000.0, got {value!r}'
    return None


def option_problem(name: str, value: object) -> str | None:
    """Return why ``value`` is not valid for conversion parameter ``name``, or ``None``."""
    if name == 'sdf_version' and value not in CONVERTIBLE_VERSIONS:
        return f"sdf_version must be one of {', '.join(CONVERTIBLE_VERSIONS)}, got {value!r}"
    if name in ('massless_mass', 'massless_inertia') and not (
            isinstance(value, float) and math.isfinite(value) and value > 0.0):
        return f'{name} must be a finite number greater than 0, got {value!r}'
    if name == 'mesh_uris' and value not in MODES:
        return f"mesh_uris must be one of {', '.join(MODES)}, got {value!r}"
    if name == 'auto_inertials' and not (
            isinstance(value, float) and math.isfinite(value) and value >= 0.0):
        return f'auto_inertials must be a finite density >= 0 (0: off), got {value!r}'
    if name == 'gz_joint_state_topic' and value:
        if not isinstance(value, str):
            return f'gz_joint_state_topic must be a string, got {value!r}'
        return gz_topic_problem(value)
    return None
