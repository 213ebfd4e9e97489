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
The text of one SDFormat document: XML text whose numbers are formatted once each.

Descriptions repeat most of their numbers (``0``, ``1 1 1``, the same poses, limits and
inertias), and an orientation's roll, pitch and yaw cost microseconds to compute, so
:class:`SdfText` remembers the text of every number, vector and pose it wrote, as
:mod:`sdf_tools.formatting` writes them. Memory stays linear in the document.
"""

import math

from sdf_tools.files.xml_text import XmlText
from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec


_ONES = (1.0, 1.0, 1.0, 1.0)


class SdfText(XmlText):
    """:class:`~sdf_tools.files.xml_text.XmlText` with remembered number texts."""

    __slots__ = ('_numbers', '_vectors', '_poses')

    def __init__(self, depth: int = 0, remembered=None):
        super().__init__(depth)
        self._numbers, self._vectors, self._poses = remembered or ({}, {}, {})

    def fragment(self) -> 'SdfText':
        """Return a writer for a part written later here, remembering the same texts."""
        return SdfText(self.depth, (self._numbers, self._vectors, self._poses))

    def number(self, value: float) -> str:
        """Return :func:`~sdf_tools.formatting.fmt` of ``value``."""
        text = self._numbers.get(value)
        if text is None:
            text = self._numbers[value] = fmt(value)
        return text

    def vector(self, values: tuple) -> str:
        """Return :func:`~sdf_tools.formatting.fmt_vec` of a tuple of numbers."""
        text = self._vectors.get(values)
        if text is None:
            text = self._vectors[values] = fmt_vec(values)
        return text

    def pose(self, xyz: tuple, quat: tuple) -> str:
        """Return :func:`~sdf_tools.formatting.fmt_pose` of a position and a quaternion."""
        key = (xyz, quat)
        if 0.0 in quat:  # -0.0 == 0.0, but atan2 tells them apart (pi or -pi)
            key = (xyz, quat, tuple(map(math.copysign, _ONES, quat)))
        text = self._poses.get(key)
        if text is None:
            text = self._poses[key] = fmt_pose(xyz, quat)
        return text
