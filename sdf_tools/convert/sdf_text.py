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

It also tells whether a number it wrote may be infinite or NaN (:attr:`SdfText.non_finite`):
every number of the document is formatted here or comes in an lxml element, so the
converter need not search the whole text for ``inf`` and ``nan``. Likewise only lxml elements
hold names :func:`~sdf_tools.xmlio.parse.parse_xml` escaped
(:attr:`SdfText.escaped_names`).
"""

import math

from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec
from sdf_tools.xmlio.parse import DCOLON
from sdf_tools.xmlio.parse import UNDECLARED_NS
from sdf_tools.xmlio.text import XmlText


_ONES = (1.0, 1.0, 1.0, 1.0)


def writes_non_finite(text: str) -> bool:
    """
    Return whether ``text`` may hold a number written as ``inf``, ``-inf`` or ``nan``.

    A whole word (``camera_info`` is not one); ``str.find`` rather than a regular expression,
    which costs more than the rest of the check on a large model (2.8 ms against 0.08).
    """
    for word in ('inf', 'nan'):
        i = text.find(word)
        while i >= 0:
            if (i == 0 or text[i - 1] in _BEFORE_NUMBER) and text[i + 3:i + 4] in _AFTER_NUMBER:
                return True
            i = text.find(word, i + 3)
    return False


_BEFORE_NUMBER = ' \t\n>+-'
_AFTER_NUMBER = ('', ' ', '\t', '\n', '<')


class _Memory:
    """What the writers of one document share: texts written, a non-finite one, names."""

    __slots__ = ('numbers', 'vectors', 'positions', 'poses', 'non_finite', 'escaped_names')

    def __init__(self):
        self.numbers, self.vectors, self.positions, self.poses = {}, {}, {}, {}
        self.non_finite = self.escaped_names = False

    def remember(self, store: dict, key, text: str) -> str:
        """Keep ``text`` under ``key``; a finite number's text never holds an ``n``."""
        store[key] = text
        if 'n' in text:
            self.non_finite = True
        return text


class SdfText(XmlText):
    """:class:`~sdf_tools.xmlio.text.XmlText` with remembered number texts (module doc)."""

    __slots__ = ('_memory',)

    def __init__(self, depth: int = 0, memory: _Memory | None = None):
        super().__init__(depth)
        self._memory = memory or _Memory()

    @property
    def non_finite(self) -> bool:
        """Return whether this document (all its fragments) may hold ``inf`` or ``nan``."""
        return self._memory.non_finite

    @property
    def escaped_names(self) -> bool:
        """Return whether a spliced element holds escaped names (``restore_names`` them)."""
        return self._memory.escaped_names

    def fragment(self) -> 'SdfText':
        """Return a writer for a part written later here, remembering the same texts."""
        return SdfText(self.depth, self._memory)

    def element(self, element) -> None:
        """Splice in an lxml element as XmlText does, noting non-finite numbers and names."""
        super().element(element)
        memory, text = self._memory, self._parts[-1]
        if not memory.non_finite and writes_non_finite(text):
            memory.non_finite = True
        if DCOLON in text or UNDECLARED_NS in text:
            memory.escaped_names = True

    def number(self, value: float) -> str:
        """Return :func:`~sdf_tools.formatting.fmt` of ``value``."""
        memory = self._memory
        text = memory.numbers.get(value)
        return memory.remember(memory.numbers, value, fmt(value)) if text is None else text

    def vector(self, values: tuple) -> str:
        """Return :func:`~sdf_tools.formatting.fmt_vec` of a tuple of numbers."""
        memory = self._memory
        text = memory.vectors.get(values)
        return memory.remember(memory.vectors, values, fmt_vec(values)) if text is None else text

    def pose(self, xyz: tuple, quat: tuple) -> str:
        """Return :func:`~sdf_tools.formatting.fmt_pose` of a position and a quaternion."""
        memory = self._memory
        if quat[0] == 0.0 and quat[1] == 0.0 and quat[2] == 0.0:
            # No rotation (most poses): roll, pitch and yaw are 0 whatever the zeros' signs.
            store, key = memory.positions, xyz
        else:
            store, key = memory.poses, (xyz, quat)
            if 0.0 in quat:  # -0.0 == 0.0, but atan2 tells them apart (pi or -pi)
                key = (xyz, quat, tuple(map(math.copysign, _ONES, quat)))
        text = store.get(key)
        return memory.remember(store, key, fmt_pose(xyz, quat)) if text is None else text
