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
Compare two SDFormat documents by meaning.

* whitespace around text is ignored, attribute order is ignored;
* numbers (and lists of numbers) are equal within a relative tolerance (1e-9 by default);
* ``<pose>`` values are compared as rigid transforms (position, and the rotation angle
  between the two orientations), so equivalent roll-pitch-yaw spellings are equal;
* booleans compare by value (``1`` equals ``true``);
* children are matched by (tag, ``name`` attribute), in order among equals, so the order of
  differently named or differently tagged siblings does not matter.

:func:`compare` returns a list of :class:`Difference`; tests then explain each one by a named
rule or fail.
"""

from dataclasses import dataclass
import math

import numpy as np

from sdf_tools import batch_transforms
from sdf_tools import transforms
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_number
from sdf_tools.xmlio.parse import parse_xml

_BOOLS = {'true': True, '1': True, 'false': False, '0': False}


@dataclass
class Difference:
    """One difference between the expected and the actual document."""

    kind: str  # 'missing' (only in expected), 'extra' (only in actual), 'text', 'attribute'
    path: str
    expected: object = None
    actual: object = None
    expected_element: object = None
    actual_element: object = None

    def __str__(self) -> str:
        if self.kind == 'missing':
            return f'{self.path}: only in expected'
        if self.kind == 'extra':
            return f'{self.path}: only in actual'
        return f'{self.path}: expected {self.expected!r}, got {self.actual!r}'


def parse(text):
    """Parse SDFormat text (``::`` element names allowed)."""
    return parse_xml(text.encode() if isinstance(text, str) else text, '<compare>')


def _numbers(text):
    parts = text.split()
    if not parts:
        return None
    values = [parse_number(p) for p in parts]
    if any(v is None for v in values):
        return None
    return values


def _close(a, b, rtol, atol):
    return abs(a - b) <= atol + rtol * max(abs(a), abs(b))


def _pose_equal(a, b, rtol, atol):
    if len(a) != 6 or len(b) != 6:
        return False
    if not all(_close(x, y, rtol, atol) for x, y in zip(a[:3], b[:3])):
        return False
    ra = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*a[3:]))
    rb = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*b[3:]))
    cos = (np.trace(ra.T @ rb) - 1.0) / 2.0
    angle = math.acos(max(-1.0, min(1.0, cos)))
    # acos loses precision near 0: fall back on the matrix difference there.
    return angle <= max(atol, rtol) or float(np.abs(ra - rb).max()) <= max(atol, rtol)


def values_equal(tag, expected, actual, rtol=1e-9, atol=1e-12):
    """Return whether two texts mean the same value for an element called ``tag``."""
    e = (expected or '').strip()
    a = (actual or '').strip()
    if e == a:
        return True
    if e.lower() in _BOOLS and a.lower() in _BOOLS:
        return _BOOLS[e.lower()] == _BOOLS[a.lower()]
    ne, na = _numbers(e), _numbers(a)
    if ne is None or na is None or len(ne) != len(na):
        return False
    if tag == 'pose':
        return _pose_equal(ne, na, rtol, atol)
    return all(_close(x, y, rtol, atol) for x, y in zip(ne, na))


def _key(element):
    return (local_name(element), element.get('name'))


def _label(element):
    name = element.get('name')
    tag = local_name(element)
    return f"{tag}[@name='{name}']" if name is not None else tag


def compare(expected, actual, *, rtol=1e-9, atol=1e-12, path=''):
    """
    Return the differences between two elements (or SDFormat texts).

    Parameters
    ----------
    expected, actual : str or lxml element
        The two documents.
    rtol, atol : float
        Tolerances for numbers.
    path : str
        Path of the parent element (for the messages of recursive calls).

    """
    if isinstance(expected, (str, bytes)):
        expected = parse(expected)
    if isinstance(actual, (str, bytes)):
        actual = parse(actual)
    diffs = []
    here = f'{path}/{_label(expected)}'
    tag = local_name(expected)
    for attr in sorted(set(expected.attrib) | set(actual.attrib)):
        ev, av = expected.get(attr), actual.get(attr)
        if ev is None or av is None or not values_equal(attr, ev, av, rtol, atol):
            diffs.append(Difference('attribute', f'{here}/@{attr}', ev, av, expected, actual))
    e_children = [c for c in expected if isinstance(c.tag, str)]
    a_children = [c for c in actual if isinstance(c.tag, str)]
    if not e_children and not a_children:
        if not values_equal(tag, expected.text, actual.text, rtol, atol):
            diffs.append(Difference('text', here, (expected.text or '').strip(),
                                    (actual.text or '').strip(), expected, actual))
        return diffs
    pending = {}
    for child in a_children:
        pending.setdefault(_key(child), []).append(child)
    for child in e_children:
        candidates = pending.get(_key(child))
        if candidates:
            diffs.extend(compare(child, candidates.pop(0), rtol=rtol, atol=atol, path=here))
        else:
            diffs.append(Difference('missing', f'{here}/{_label(child)}', expected_element=child,
                                    actual_element=actual))
    for remaining in pending.values():
        for child in remaining:
            diffs.append(Difference('extra', f'{here}/{_label(child)}', expected_element=expected,
                                    actual_element=child))
    return diffs
