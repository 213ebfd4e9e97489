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

The URDF converter (:mod:`sdf_tools.convert`) hands over a decided document
(:mod:`.document`), which :func:`write_document` writes from the first character to the
last; the model writer (:mod:`sdf_tools.formats.sdf.writer`) writes through
:class:`SdfText` element by element. Quoting and escaping are :mod:`sdf_tools.xmlio.text`'s
one rule, content held as :class:`~sdf_tools.xmlio.element.Element` values is written as
lxml writes it, and each element's layout is known once, here: the order of an
``<inertial>``'s children (:func:`inertial_block`), of each shape's leaves (:data:`SHAPES`),
of a visual's or collision's (:func:`part_block`), of a colour (:data:`COLOURS`), of a joint
and its axis (:func:`joint_block`, :data:`AXIS`, :data:`LIMIT`, :data:`DYNAMICS`,
:data:`MIMIC`): the order libsdformat writes them in.

Descriptions repeat most of their numbers (``0``, ``1 1 1``, the same poses, limits,
inertias and colours, and the same numbers inside different ones), and an orientation's roll,
pitch and yaw cost microseconds to compute, so a :class:`NumberTexts` remembers the text of
every number, vector, pose and colour of one document, as :mod:`sdf_tools.formatting` writes
them, and makes a vector's or pose's text of its numbers' texts. Memory stays linear in the
document.
"""

import functools
import math
from typing import TYPE_CHECKING

from sdf_tools.formats.sdf.document import FrameOut
from sdf_tools.formats.sdf.document import JointOut
from sdf_tools.formats.sdf.document import LinkOut
from sdf_tools.formats.sdf.document import ModelOut
from sdf_tools.formats.sdf.document import PartOut
from sdf_tools.formats.sdf.document import SdfDocument
from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_colour
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import Mesh
from sdf_tools.model import Sphere
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.text import Block
from sdf_tools.xmlio.text import escape_attribute
from sdf_tools.xmlio.text import escape_text
from sdf_tools.xmlio.text import nested
from sdf_tools.xmlio.text import XmlText

if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterator
    from typing import TypeGuard

    from sdf_tools.formats.sdf.document import Leaves
    from sdf_tools.model import Geometry
    from sdf_tools.model import Pose
    from sdf_tools.transforms import Quat
    from sdf_tools.transforms import Vec3

#: What :func:`non_finite_poses` finds: ``(pose text, parent tag, named tag, name)``.
NonFinite = tuple[str, str, str, str]


_ONES = (1.0, 1.0, 1.0, 1.0)
#: What :class:`NumberTexts` knows a pose's text by: its position (no rotation), or its
#: position and quaternion (and the signs of the quaternion's zeros).
_PoseKey = tuple[float, ...] | tuple[tuple[float, ...], ...]


class NumberTexts:
    """The texts of the numbers, vectors, poses and colours of one document, each made once."""

    __slots__ = ('_numbers', '_vectors', '_positions', '_poses', '_colours')

    def __init__(self) -> None:
        self._numbers: dict[float, str] = {}
        self._vectors: dict[tuple[float, ...], str] = {}
        self._positions: dict[_PoseKey, str] = {}  # by position: no rotation
        self._poses: dict[_PoseKey, str] = {}
        self._colours: dict[tuple[float, ...], str] = {}

    def number(self, value: float) -> str:
        """Return :func:`~sdf_tools.formatting.fmt` of ``value``."""
        text = self._numbers.get(value)
        if text is None:
            text = self._numbers[value] = fmt(value)
        return text

    def vector(self, values: tuple[float, ...]) -> str:
        """Return :func:`~sdf_tools.formatting.fmt_vec` of a tuple of numbers."""
        text = self._vectors.get(values)
        if text is None:
            text = self._vectors[values] = fmt_vec(values, self.number)
        return text

    def pose(self, xyz: 'Vec3', quat: 'Quat') -> str:
        """Return :func:`~sdf_tools.formatting.fmt_pose` of a position and a quaternion."""
        key: _PoseKey
        if quat[0] == 0.0 and quat[1] == 0.0 and quat[2] == 0.0:
            # No rotation (most poses): roll, pitch and yaw are 0 whatever the zeros' signs.
            store, key = self._positions, xyz
        else:
            store, key = self._poses, (xyz, quat)
            if 0.0 in quat:  # -0.0 == 0.0, but atan2 tells them apart (pi or -pi)
                key = (xyz, quat, tuple(map(math.copysign, _ONES, quat)))
        text = store.get(key)
        if text is None:
            text = store[key] = fmt_pose(xyz, quat, self.number)
        return text

    def colour(self, rgba: tuple[float, ...]) -> str:
        """Return :func:`~sdf_tools.formatting.fmt_colour` of a colour's components."""
        text = self._colours.get(rgba)
        if text is None:
            text = self._colours[rgba] = fmt_colour(rgba)
        return text


class SdfText(XmlText):
    """:class:`~sdf_tools.xmlio.text.XmlText` with a document's :class:`NumberTexts`."""

    __slots__ = ('texts', 'number', 'vector', 'pose')

    def __init__(self, depth: int = 0, texts: NumberTexts | None = None):
        super().__init__(depth)
        self.texts = texts = texts if texts is not None else NumberTexts()
        self.number, self.vector, self.pose = texts.number, texts.vector, texts.pose


# --- layouts: each element's children in the order libsdformat writes them ----------------

#: Tags in order.
Tags = tuple[str, ...]
#: ``(tag, text)`` leaves of an element in order, a ``None`` text a slot (:func:`leaves_text`).
Slotted = tuple[tuple[str, str | None], ...]
#: The moments of ``<inertia>``.
MOMENTS = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')
#: The geometry :data:`SHAPES` lays out.
Shape = Box | Cylinder | Sphere | Mesh | Capsule
#: Each shape's element and its leaves.
SHAPES: dict[type[Shape], tuple[str, tuple[str, ...]]] = {
    Box: ('box', ('size',)), Cylinder: ('cylinder', ('length', 'radius')),
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


def geometry_text(shape: type[Shape], leaves: tuple[str, ...] | None = None) -> str:
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
def geometry_block(shape: type[Shape], leaves: tuple[str, ...] | None = None) -> Block:
    """Return :func:`geometry_text` as a :class:`~sdf_tools.xmlio.text.Block`."""
    return Block(geometry_text(shape, leaves))


@functools.cache
def part_block(tag: str, shape: type[Shape] | None, *, pose: bool = True,
               colour: bool = False, leaves: tuple[str, ...] | None = None) -> Block:
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


def shape_texts(out: SdfText, geometry: 'Geometry | None', uri: str = '', *,
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


def shape_leaves(geometry: 'Geometry | None', texts: tuple[str, ...]) -> tuple[str, ...] | None:
    """Return the leaves :func:`shape_texts` gave ``texts`` for (``None``: all of them)."""
    if isinstance(geometry, Mesh) and len(texts) == 1:
        return ('uri',)
    return None


def leaves_text(leaves: Slotted) -> str:
    """Return ``<tag>text</tag>`` lines for ``(tag, text)`` leaves; a ``None`` text is a slot."""
    return ''.join(f'<{tag}>{{}}</{tag}>\n' if text is None else f'<{tag}>{text}</{tag}>\n'
                   for tag, text in leaves)


def element_text(tag: str, leaves: Slotted, head: str = '') -> str:
    """Return ``<tag>`` holding :func:`leaves_text` (``<tag/>`` without leaves) at depth 0."""
    inner = leaves_text(leaves)
    if not inner:
        return f'<{tag}{head}/>\n'
    return f'<{tag}{head}>\n{nested(inner)}</{tag}>\n'


def axis_text(tag: str = 'axis', *, xyz: bool = True, mimic: Slotted | None = None,
              limit: Slotted | None = None, dynamics: Slotted | None = None,
              after: Slotted = ()) -> str:
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


# --- joints -------------------------------------------------------------------------------

#: A joint's pose, parent and child.
_PLACEMENT_TEXT = """
<pose relative_to="{}">{}</pose>
<parent>{}</parent>
<child>{}</child>
"""
_FIXED = Block('<joint name="{}" type="fixed">\n' + nested(_PLACEMENT_TEXT) + '</joint>\n')


@functools.cache
def joint_block(xyz: bool, mimic: Tags | None, limit: Tags | None, dynamics: Tags | None,
                after: Tags = ()) -> Block:
    """
    Return the block of a whole joint with an axis (:func:`axis_text`'s layout).

    Its slots: name, type, the pose's ``relative_to``, the pose, parent, child, the axis
    direction (when ``xyz``), the mimic's joint and a slot for each tag of ``mimic`` (unless
    ``None``), then one for each tag of ``limit``, ``dynamics`` and ``after``.
    """
    def slots(tags: Tags | None) -> Slotted | None:
        return None if tags is None else tuple((tag, None) for tag in tags)

    axis = axis_text(xyz=xyz, mimic=slots(mimic), limit=slots(limit),
                     dynamics=slots(dynamics), after=slots(after) or ())
    return Block('<joint name="{}" type="{}">\n' + nested(_PLACEMENT_TEXT) + nested(axis)
                 + '</joint>\n')


def _split(leaves: 'Leaves | None') -> tuple[Tags | None, tuple[str, ...]]:
    """Return the tags (``None`` for no element) and the texts of leaves."""
    if leaves is None:
        return None, ()
    if not leaves:
        return (), ()
    tags, texts = zip(*leaves)
    return tags, texts


def _write_joint(out: SdfText, joint: JointOut) -> None:
    """Write a decided joint: one block."""
    placement = (escape_attribute(joint.relative_to),
                 out.pose(joint.origin.xyz, joint.origin.quat), escape_text(joint.parent),
                 escape_text(joint.child))
    name = escape_attribute(joint.name)
    axis = joint.axis
    if axis is None:
        out.block(_FIXED, name, *placement)
        return
    mimic_tags: Tags | None = None
    mimic_texts: tuple[str, ...] = ()
    if axis.mimic_joint is not None:
        mimic_tags, mimic_texts = _split(axis.mimic)
        mimic_texts = (escape_attribute(axis.mimic_joint), *mimic_texts)
    limit_tags, limit_texts = _split(axis.limit)
    dynamics_tags, dynamics_texts = _split(axis.dynamics)
    after_tags, after_texts = _split(axis.after)
    block = joint_block(axis.xyz is not None, mimic_tags, limit_tags, dynamics_tags,
                        after_tags)
    out.block(block, name, joint.type, *placement,
              *(() if axis.xyz is None else (out.vector(axis.xyz),)), *mimic_texts,
              *limit_texts, *dynamics_texts, *after_texts)


def joint_element(joint: JointOut, texts: NumberTexts) -> Element:
    """Return a decided joint as an :class:`~sdf_tools.xmlio.element.Element` (same layout)."""
    def leaves(pairs: 'Leaves') -> tuple[Element, ...]:
        return tuple(Element(tag, text=text) for tag, text in pairs)

    children = [Element('pose', (('relative_to', joint.relative_to),),
                        texts.pose(joint.origin.xyz, joint.origin.quat)),
                Element('parent', text=joint.parent), Element('child', text=joint.child)]
    axis = joint.axis
    if axis is not None:
        inside: list[Element] = []
        if axis.xyz is not None:
            inside.append(Element('xyz', text=texts.vector(axis.xyz)))
        if axis.mimic_joint is not None:
            inside.append(Element('mimic', (('joint', axis.mimic_joint),),
                                  children=leaves(axis.mimic)))
        for tag, pairs in (('limit', axis.limit), ('dynamics', axis.dynamics)):
            if pairs is not None:
                inside.append(Element(tag, children=leaves(pairs)))
        children.append(Element('axis', children=tuple(inside) + leaves(axis.after)))
    return Element('joint', (('name', joint.name), ('type', joint.type)),
                   children=tuple(children))


# --- the document -------------------------------------------------------------------------

def write_document(document: SdfDocument, texts: NumberTexts | None = None) -> str:
    """
    Return the text of a decided document (without XML declaration).

    ``texts`` are the number texts the decisions already formatted (a new one if ``None``).
    """
    out = SdfText(0, texts)
    model = document.model
    out.start('sdf', {'version': document.version})
    out.start('model', {'name': model.name})
    for item in model.items:
        if isinstance(item, LinkOut):
            _write_link(out, item)
        elif isinstance(item, JointOut):
            _write_joint(out, item)
        else:
            out.element(item)
    for element in model.content:
        out.element(element)
    for frame in model.frames:
        _write_frame(out, frame)
    if model.pose is not None:
        out.leaf('pose', out.pose(model.pose.xyz, model.pose.quat))
    for element in model.plugins:
        out.element(element)
    out.end()
    out.end()
    return out.text()


#: A ``<frame>``: name, ``attached_to``, pose; and one without pose.
_FRAME = Block('<frame name="{}" attached_to="{}">\n  <pose>{}</pose>\n</frame>\n')
_UNPOSED_FRAME = Block('<frame name="{}" attached_to="{}"/>\n')


def _write_frame(out: SdfText, frame: FrameOut) -> None:
    """Write a frame: one block."""
    names = (escape_attribute(frame.name), escape_attribute(frame.attached_to))
    if frame.pose is None:
        out.block(_UNPOSED_FRAME, *names)
    else:
        out.block(_FRAME, *names, out.pose(frame.pose.xyz, frame.pose.quat))


def _write_link(out: SdfText, link: LinkOut) -> None:
    out.start('link', {'name': link.name})
    pose = link.pose
    if pose is not None:
        out.leaf('pose', out.pose(pose.xyz, pose.quat),
                 None if link.relative_to is None else {'relative_to': link.relative_to})
    inertial = link.inertial
    number = out.number
    out.block(inertial_block(), out.pose(inertial.com, inertial.quat), number(inertial.mass),
              *map(number, inertial.moments))
    for part in link.parts:
        _write_part(out, part)
    for element in link.content:
        out.element(element)
    out.end()


def _write_part(out: SdfText, part: PartOut) -> None:
    """Write a visual or collision: one block, or its pose and geometry, then its content."""
    geometry = part.geometry
    uri = escape_text(part.uri) if isinstance(geometry, Mesh) else ''
    shape = shape_texts(out, geometry, uri)
    pose = out.pose(part.origin.xyz, part.origin.quat)
    kind: type | None = geometry.__class__ if shape else None
    if not part.content:
        block = part_block(part.tag, kind, colour=part.colour is not None)
        colour = () if part.colour is None else (out.texts.colour(part.colour),) * 2
        out.block(block, escape_attribute(part.name), pose, *shape, *colour)
        return
    out.start(part.tag, {'name': part.name})
    out.leaf('pose', pose)
    if shape:
        out.block(geometry_block(kind), *shape)
    for element in part.content:
        out.element(element)
    out.end()


def non_finite_poses(document: SdfDocument, texts: NumberTexts) -> list[NonFinite]:
    """
    Return the poses of a document that are not finite, in document order.

    Each as ``(text, parent tag, tag of the nearest named element, its name)``; the pose
    texts of extension content are read for ``inf`` and ``nan``. One pass over
    :func:`_placed`: a decided pose is looked at number by number only when the sum of its
    seven is not finite.
    """
    found: list[NonFinite] = []
    for owner, pose, content in _placed(document.model):
        if pose is not None:
            x, y, z = pose.xyz
            a, b, c, d = pose.quat
            total = x + y + z + a + b + c + d
            if total - total != 0.0 and not all(map(math.isfinite, (x, y, z, a, b, c, d))):
                tag, name = _named(owner)
                found.append((texts.pose(pose.xyz, pose.quat), tag, tag, name))
        if content:
            held = _content_poses(content)
            if held is not None:
                found.extend(_located(owner, held))
    return found


def _placed(model: ModelOut) -> 'Iterator[tuple[_Owner, Pose | None, tuple[Element, ...]]]':
    """
    Yield the decided poses and the extension content of a model, in document order.

    Each as ``(the decided element, its pose or None, content written after it)``.
    """
    for item in model.items:
        if isinstance(item, LinkOut):
            yield item, item.pose, ()
            for part in item.parts:
                yield part, part.origin, part.content
            if item.content:
                yield item, None, item.content
        elif isinstance(item, JointOut):
            yield item, item.origin, ()
        else:
            yield model, None, (item,)
    yield model, None, model.content
    for frame in model.frames:
        yield frame, frame.pose, ()
    yield model, model.pose, model.plugins


#: The decided elements a pose or content is of.
_Owner = LinkOut | PartOut | JointOut | FrameOut | ModelOut
_TAGS = {LinkOut: 'link', JointOut: 'joint', FrameOut: 'frame', ModelOut: 'model'}


def _named(owner: _Owner) -> tuple[str, str]:
    """Return the tag and name of a decided element."""
    return (owner.tag if isinstance(owner, PartOut) else _TAGS[owner.__class__]), owner.name


def _content_poses(elements: tuple[Element, ...]) -> 'list[tuple[str, list[Element]]] | None':
    """
    Return the texts of the poses in elements or below that are not finite (``None``: none).

    Each with the elements holding it, innermost first.
    """
    found = None
    for element in elements:
        children = element.children
        if children:
            inner = _content_poses(children)
            if inner is not None:
                for _, holders in inner:
                    holders.append(element)
                found = inner if found is None else found + inner
        elif element.tag == 'pose' and _not_finite(element.text):
            if found is None:
                found = []
            found.append((element.text, []))
    return found


def _located(owner: _Owner, held: 'list[tuple[str, list[Element]]]') -> 'Iterator[NonFinite]':
    """Yield :func:`non_finite_poses`' entries for what :func:`_content_poses` found."""
    for text, holders in held:
        where = holders[0].tag if holders else _named(owner)[0]
        for element in holders:
            name = element.get('name')
            if name:
                yield text, where, element.tag, name
                break
        else:
            yield (text, where, *_named(owner))


_NOT_FINITE = frozenset(('inf', 'infinity', 'nan'))


def _not_finite(text: str | None) -> 'TypeGuard[str]':
    """Return whether a pose's text holds ``inf``, ``infinity`` or ``nan`` (any case)."""
    return text is not None and ('n' in text or 'N' in text) and any(
        word.lower().lstrip('+-') in _NOT_FINITE for word in text.split())
