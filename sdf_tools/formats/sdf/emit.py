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
SDFormat text: the one emitter both SDFormat writers use, and how each element is laid out.

The URDF converter (:mod:`sdf_tools.convert`) and the model writer
(:mod:`sdf_tools.formats.sdf.writer`) write through :class:`SdfText`, so quoting and escaping
are :mod:`sdf_tools.xmlio.text`'s one rule, and take each element's layout from here: the
order of an ``<inertial>``'s children (:func:`inertial_block`), of each shape's leaves
(:data:`SHAPES`), of a visual's or collision's (:func:`part_block`), of a colour
(:data:`COLOURS`), of a joint's axis (:data:`AXIS`, :data:`LIMIT`, :data:`DYNAMICS`,
:data:`MIMIC`): the order libsdformat writes them in.

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

import functools
import math

from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import Mesh
from sdf_tools.model import Sphere
from sdf_tools.xmlio.parse import DCOLON
from sdf_tools.xmlio.parse import UNDECLARED_NS
from sdf_tools.xmlio.text import Block
from sdf_tools.xmlio.text import nested
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


# --- layouts: each element's children in the order libsdformat writes them ----------------

#: The moments of ``<inertia>``.
MOMENTS = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
#: Each shape's element and its leaves.
SHAPES = {Box: ('box', ('size',)), Cylinder: ('cylinder', ('length', 'radius')),
          Sphere: ('sphere', ('radius',)), Mesh: ('mesh', ('scale', 'uri')),
          Capsule: ('capsule', ('radius', 'length'))}
#: A visual's colour (``<material>``).
COLOURS = ('diffuse', 'ambient')
#: A joint axis's children, and the leaves of each.
AXIS = ('xyz', 'mimic', 'limit', 'dynamics')
LIMIT = ('lower', 'upper', 'effort', 'velocity')
DYNAMICS = ('damping', 'friction', 'spring_reference', 'spring_stiffness')
MIMIC = ('multiplier', 'offset', 'reference')


@functools.cache
def inertial_block(pose: bool = True) -> Block:
    """Return ``<inertial>``: slots for its pose (when ``pose``), mass and :data:`MOMENTS`."""
    moments = ''.join(f'    <{m}>{{}}</{m}>\n' for m in MOMENTS)
    return Block('<inertial>\n' + ('  <pose>{}</pose>\n' if pose else '')
                 + f'  <mass>{{}}</mass>\n  <inertia>\n{moments}  </inertia>\n</inertial>\n')


def geometry_text(shape, leaves: tuple | None = None) -> str:
    """
    Return ``<geometry>`` holding a shape with a slot for each leaf, at depth 0.

    ``shape`` is a class of :data:`SHAPES`; ``leaves`` the ones written, in that order
    (default: all).
    """
    tag, known = SHAPES[shape]
    slots = ''.join(f'    <{leaf}>{{}}</{leaf}>\n' for leaf in known
                    if leaves is None or leaf in leaves)
    return f'<geometry>\n  <{tag}>\n{slots}  </{tag}>\n</geometry>\n'


@functools.cache
def geometry_block(shape, leaves: tuple | None = None) -> Block:
    """Return :func:`geometry_text` as a :class:`~sdf_tools.xmlio.text.Block`."""
    return Block(geometry_text(shape, leaves))


@functools.cache
def part_block(tag: str, shape, *, pose: bool = True, colour: bool = False,
               leaves: tuple | None = None) -> Block:
    """
    Return a whole ``<visual>`` or ``<collision>``: name, pose, geometry, colour.

    Its slots: the name (an escaped attribute), the pose (when ``pose``), the shape's
    ``leaves`` (:func:`geometry_text`; no ``<geometry>`` when ``shape`` is ``None``), then
    each of :data:`COLOURS` (when ``colour``).
    """
    body = geometry_text(shape, leaves) if shape is not None else ''
    if colour:
        body += '<material>\n' + ''.join(f'  <{c}>{{}}</{c}>\n' for c in COLOURS) + \
            '</material>\n'
    head = f'<{tag} name="{{}}">\n' + ('  <pose>{}</pose>\n' if pose else '')
    return Block(head + nested(body) + f'</{tag}>\n')


def shape_texts(out: SdfText, geometry, uri: str = '', *,
                default_scale: bool = True) -> tuple[str, ...]:
    """
    Return a shape's leaf texts in :data:`SHAPES`' order (none for other geometry).

    ``uri`` is a mesh's ``<uri>``, escaped; a mesh without a scale has ``1 1 1`` when
    ``default_scale`` (libsdformat writes it), else no ``<scale>``.
    """
    if isinstance(geometry, Box):
        return (out.vector(geometry.size),)
    if isinstance(geometry, Cylinder):
        return out.number(geometry.length), out.number(geometry.radius)
    if isinstance(geometry, Sphere):
        return (out.number(geometry.radius),)
    if isinstance(geometry, Mesh):
        if geometry.scale is None and not default_scale:
            return (uri,)
        return out.vector(geometry.scale or (1.0, 1.0, 1.0)), uri
    if isinstance(geometry, Capsule):
        return out.number(geometry.radius), out.number(geometry.length)
    return ()


def shape_leaves(geometry, texts: tuple) -> tuple | None:
    """Return the leaves :func:`shape_texts` gave ``texts`` for (``None``: all of them)."""
    if isinstance(geometry, Mesh) and len(texts) == 1:
        return ('uri',)
    return None


def leaves_text(leaves) -> str:
    """Return ``<tag>text</tag>`` lines for ``(tag, text)`` leaves; a ``None`` text is a slot."""
    return ''.join(f'<{tag}>{{}}</{tag}>\n' if text is None else f'<{tag}>{text}</{tag}>\n'
                   for tag, text in leaves)


def element_text(tag: str, leaves, head: str = '') -> str:
    """Return ``<tag>`` holding :func:`leaves_text` (``<tag/>`` without leaves) at depth 0."""
    inner = leaves_text(leaves)
    if not inner:
        return f'<{tag}{head}/>\n'
    return f'<{tag}{head}>\n{nested(inner)}</{tag}>\n'


def axis_text(tag: str = 'axis', *, xyz: bool = True, mimic=None, limit=None, dynamics=None,
              after=()) -> str:
    """
    Return a joint's ``<axis>`` (or ``<axis2>``) at depth 0, children in :data:`AXIS` order.

    ``xyz`` gives it a ``<xyz>`` slot; ``mimic``, ``limit`` and ``dynamics`` are ``None``
    (left out) or their ``(tag, text)`` leaves (:func:`leaves_text`: a ``None`` text is a
    slot), ``<mimic>`` with a slot for its ``joint`` attribute first; ``after`` are leaves
    written last (what SDFormat's schema adds).
    """
    body = '<xyz>{}</xyz>\n' if xyz else ''
    if mimic is not None:
        body += element_text('mimic', mimic, ' joint="{}"')
    if limit is not None:
        body += element_text('limit', limit)
    if dynamics is not None:
        body += element_text('dynamics', dynamics)
    return element_text(tag, ()) if not body and not after else \
        f'<{tag}>\n{nested(body + leaves_text(after))}</{tag}>\n'
