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
SDFormat values that the reader and the URDF converter both read: booleans and ``<pose>``.

The converter meets ``<pose>`` inside ``<gazebo>`` blobs (with ``degrees`` and
``quat_xyzw``), so the rules live here rather than in the reader it must not import.
"""

import math
from typing import cast
from typing import TypeVar

from lxml import etree

from sdf_tools import transforms
from sdf_tools.errors import Code
from sdf_tools.formats.sdf.params import read_pose
from sdf_tools.model import IDENTITY
from sdf_tools.model import Pose
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.parse import quote_value
from sdf_tools.xmlio.parse import ValueReader

_Default = TypeVar('_Default', bool, None)


def read_bool(v: ValueReader, elem: etree._Element | Element, entity: str | None, what: str,
              text: str | None, default: _Default) -> bool | _Default:
    """Read an SDFormat boolean (``true``/``false``/``1``/``0``); report anything else."""
    if text is None:
        return default
    word = text.strip().lower()
    if word in ('true', '1'):
        return True
    if word in ('false', '0'):
        return False
    v.error(elem, entity, f'{what} must be true or false, got {text.strip()!r}', Code.BAD_BOOL)
    return default


def pose_value(v: ValueReader, elem: etree._Element | Element, entity: str | None,
               notes: bool = True) -> Pose:
    """
    Return the value of an SDFormat ``<pose>`` element (its ``relative_to`` aside).

    ``rotation_format`` ``euler_rpy`` (radians, or degrees with ``degrees='true'``) or
    ``quat_xyzw``; ``v`` is the :class:`~sdf_tools.xmlio.parse.ValueReader` that records
    problems, after which the identity is returned. The numbers are read as libsdformat
    reads them (:func:`~.params.read_pose`: ``1x`` is 1, with a ``read-as`` warning unless
    ``notes`` is false); what it refuses is an error.
    """
    rotation_format = (elem.get('rotation_format') or 'euler_rpy').strip()
    degrees = read_bool(v, elem, entity, '<pose> degrees', elem.get('degrees'), False)
    euler = rotation_format == 'euler_rpy'
    if not euler and rotation_format != 'quat_xyzw':
        v.error(elem, entity, f"<pose> rotation_format must be 'euler_rpy' or "
                f"'quat_xyzw', got {rotation_format!r}", Code.BAD_POSE)
        return IDENTITY
    if degrees and not euler:
        v.error(elem, entity, "<pose> degrees='true' does not apply to "
                "rotation_format='quat_xyzw'", Code.BAD_POSE)
        return IDENTITY
    text = elem.text
    if text is None or not text.strip():
        return IDENTITY
    count = 6 if euler else 7
    reading = read_pose(text, count)
    if reading.refusal is not None:
        if v.vector(elem, entity, '<pose>', text, count) is not None:   # else it said why
            v.error(elem, entity, f'<pose> must be {count} finite numbers, got '
                    f'{quote_value(text)}: {reading.refusal} (libsdformat refuses the file)',
                    Code.BAD_NUMBER)
        return IDENTITY
    values = cast(tuple, reading.value)
    if reading.note is not None and notes:
        v.warn(elem, entity, f'<pose> {quote_value(text)} is read as {reading.note} by '
               'libsdformat', Code.READ_AS)
    if euler:
        rpy = values[3:]
        if degrees:
            rpy = tuple(math.radians(a) for a in rpy)
        return Pose.from_rpy(values[:3], rpy)
    quat = values[3:]
    norm = math.hypot(*quat)  # no overflow for 1e200, no underflow for 1e-200
    if norm == 0.0:
        v.error(elem, entity, '<pose> quaternion must not be zero', Code.BAD_POSE)
        return IDENTITY
    if abs(norm - 1.0) > 1e-6:
        v.warn(elem, entity, f'<pose> quaternion has norm {norm:.6g}; it is normalised '
               '(libsdformat 12 would use it as written)', Code.UNNORMALISED)
    return Pose(values[:3], transforms.quat_normalize(quat))
