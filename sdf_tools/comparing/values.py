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
Numbers and poses compared within a tolerance, and shown as JSON values.

One tolerance ``tol`` serves every quantity: two numbers are equal when they differ by at
most ``tol`` times the larger of 1 and their magnitudes (absolute below 1, relative above),
so that metres, radians, kilograms and limits of ``1e16`` all compare sensibly. Two poses are
equal when their positions are within ``tol`` (times the larger of 1 and the distance from
the origin) and the rotation between them is at most ``tol`` rad.
"""

from collections.abc import Iterable
from collections.abc import Sequence
import math

from sdf_tools import transforms
from sdf_tools.model import IDENTITY
from sdf_tools.model import Pose
from sdf_tools.transforms import Vec3

#: A pose as JSON: ``{'xyz': [x, y, z], 'rpy': [roll, pitch, yaw]}``.
PoseValue = dict[str, list[float]]


def close(a: float, b: float, tol: float) -> bool:
    """Return whether two numbers are equal within ``tol`` (module docstring)."""
    if a == b:
        return True
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def all_close(a: Sequence[float], b: Sequence[float], tol: float) -> bool:
    """Return whether two sequences of numbers have one length and equal members."""
    return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))


def rotation_angle(qa: Sequence[float], qb: Sequence[float]) -> float:
    """Return the angle (rad, 0 to pi) of the rotation from quaternion ``qa`` to ``qb``."""
    x, y, z, w = transforms.quat_multiply(transforms.quat_conjugate(qa), qb)
    return 2.0 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))


def pose_error(a: Pose | None, b: Pose | None) -> tuple[float, float]:
    """Return the distance (m) between two poses' positions and the angle (rad) between them."""
    a = a or IDENTITY
    b = b or IDENTITY
    return math.dist(a.xyz, b.xyz), rotation_angle(a.quat, b.quat)


def poses_close(a: Pose | None, b: Pose | None, tol: float) -> bool:
    """Return whether two poses are equal within ``tol`` (module docstring)."""
    distance, angle = pose_error(a, b)
    scale = max(1.0, math.hypot(*(a or IDENTITY).xyz))
    return distance <= tol * scale and angle <= tol


def unit(vector: Sequence[float]) -> Vec3:
    """Return the 3-vector ``vector`` scaled to length 1 (a zero vector as it is)."""
    x, y, z = vector
    norm = math.hypot(x, y, z)
    return (x / norm, y / norm, z / norm) if norm > 0.0 else (x, y, z)


def pose_value(pose: Pose | None, tol: float = 0.0,
               rpy: Sequence[float] | None = None) -> PoseValue:
    """
    Return a pose as JSON: ``{'xyz': [x, y, z], 'rpy': [roll, pitch, yaw]}`` (m, rad).

    Numbers equal to 0 within ``tol`` are 0 (``-2.2e-16``: rounding, not a position);
    ``rpy``, when given, is shown instead of the pose's own.
    """
    pose = pose or IDENTITY

    def clean(values: Iterable[float]) -> list[float]:
        return [0.0 if close(float(v), 0.0, tol) else float(v) + 0.0 for v in values]
    return {'xyz': clean(pose.xyz), 'rpy': clean(pose.rpy if rpy is None else rpy)}


def pose_values(a: Pose | None, b: Pose | None, tol: float) -> tuple[PoseValue, PoseValue]:
    """
    Return two poses that differ as JSON (:func:`pose_value`), for a report.

    A rotation that is the same on both sides (within ``tol``) is shown once as side A's,
    so that one rotation never reads as two (``rpy 3.14159 0 0 | -3.14159 0 0``).
    """
    same = pose_error(a, b)[1] <= tol
    return pose_value(a, tol), pose_value(b, tol, (a or IDENTITY).rpy if same else None)


def shown(value: object) -> str:
    """Return a JSON value of a difference as text (numbers with 10 significant digits)."""
    if value is None:
        return '(none)'
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, float):
        return f'{value:.10g}'
    if isinstance(value, (list, tuple)):
        return ' '.join(shown(v) for v in value)
    if isinstance(value, dict):
        return ', '.join(f'{key} {shown(v)}' for key, v in value.items())
    return str(value)
