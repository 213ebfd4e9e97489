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
The values of an SDFormat ``<joint>``: its type, links, axes, limits, dynamics and mimic.

Like :mod:`.elements`, :func:`read_joint` resolves no frame name: the ``<parent>`` and
``<child>`` names and an axis's ``expressed_in`` are kept as written, for
:mod:`.frames` and :mod:`.assembly`. Version rules applied here: ``<thread_pitch>`` p
(rad/m, left-handed, before 1.10) becomes the screw pitch ``-2 pi / p`` (m/rev,
right-handed, as ``<screw_thread_pitch>``), and a screw joint with neither gets the
default of its version; ``<use_parent_model_frame>`` is ignored from 1.7 on. Whatever a joint
leaves out has the default of the file's version
(:func:`~sdf_tools.formats.sdf.versions.joint_defaults`: a ``<limit>`` without ``<lower>``
is ``-1e16`` before 1.10, ``-inf`` from 1.10 on).

Limits may be infinite (``inf``, ``-inf``, ``infinity``, any case: libsdformat reads them, and
libsdformat 14 writes them); every other number must be finite.
"""

import functools
import math
from typing import Any

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.formats.sdf.content import check_values
from sdf_tools.formats.sdf.content import misspelt
from sdf_tools.formats.sdf.elements import ElementReader
from sdf_tools.formats.sdf.values import read_bool
from sdf_tools.formats.sdf.versions import joint_defaults
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS
from sdf_tools.model import Dynamics
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Mimic
from sdf_tools.records import record
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.element import from_lxml
from sdf_tools.xmlio.parse import local_name

#: The SDFormat joint types and the model's kinds.
JOINT_TYPES = {
    'revolute': JointType.REVOLUTE,
    'continuous': JointType.CONTINUOUS,
    'prismatic': JointType.PRISMATIC,
    'fixed': JointType.FIXED,
    'ball': JointType.BALL,
    'universal': JointType.UNIVERSAL,
    'revolute2': JointType.REVOLUTE2,
    'screw': JointType.SCREW,
    'gearbox': JointType.GEARBOX,
}
#: The axis of a joint without ``<axis>`` (or ``<xyz>``): the SDFormat default.
Z_AXIS = (0.0, 0.0, 1.0)


@record(slots=True, eq=False)
class AxisSpec:
    """An ``<axis>`` or ``<axis2>``, its direction still in the frame it is written in."""

    xyz: tuple
    expressed_in: str | None
    use_parent_model_frame: bool
    elem: Any                  # the <axis> (lxml)
    limit: Limit | None = None
    dynamics: Dynamics | None = None
    mimic: Mimic | None = None


@record(slots=True, eq=False)
class JointSpec:
    """What a ``<joint>`` says, its link names and axis frames not yet resolved."""

    kind: JointType
    parent: str | None = None
    child: str | None = None
    parent_elem: Any = None
    child_elem: Any = None
    axis: AxisSpec | None = None
    axis2: AxisSpec | None = None
    pitch: float | None = None
    gearbox_ratio: float | None = None
    gearbox_reference: str | None = None
    gearbox_elem: Any = None
    extras: tuple = ()


def read_joint(r: ElementReader, elem: etree._Element, entity: str | None) -> JointSpec | None:
    """Read a ``<joint>`` (not its pose); ``None`` when its type is missing or unknown."""
    v = r.v
    type_text = elem.get('type')
    if type_text is None:
        v.missing_attr(elem, entity, 'type')
        return None
    kind = JOINT_TYPES.get(type_text.strip().lower())
    if kind is None:
        v.error(elem, entity, f'unknown joint type {type_text!r} (SDFormat has '
                + ', '.join(JOINT_TYPES) + ')', Code.BAD_JOINT_TYPE)
        return None
    spec = JointSpec(kind)
    extras = []
    thread_pitch = screw_pitch = None
    for child in elem:
        tag = child.tag
        if tag in ('parent', 'child'):
            text: str | None = (child.text or '').strip()
            if not text:
                v.error(child, entity, f'<{tag}> is empty', Code.MISSING_ELEMENT)
                text = None
            setattr(spec, tag, text)
            setattr(spec, f'{tag}_elem', child)
        elif tag == 'axis':
            spec.axis = _axis(r, child, entity)
        elif tag == 'axis2':
            spec.axis2 = _axis(r, child, entity)
        elif tag == 'thread_pitch':
            thread_pitch = _thread_pitch(r, child, entity)
        elif tag == 'screw_thread_pitch':
            screw_pitch = v.number(child, entity, '<screw_thread_pitch>', child.text)
        elif tag == 'gearbox_ratio':
            spec.gearbox_ratio = v.number(child, entity, '<gearbox_ratio>', child.text)
        elif tag == 'gearbox_reference_body':
            text = (child.text or '').strip()
            spec.gearbox_reference = text or None
            spec.gearbox_elem = child
        elif tag != 'pose':
            check_values(v, 'joint', child, entity, r.version)
            extras.append(from_lxml(child))
    spec.extras = tuple(extras)
    _complete(r, spec, elem, entity, thread_pitch, screw_pitch)
    return spec


def _thread_pitch(r: ElementReader, elem: etree._Element, entity: str | None) -> float | None:
    """Read a ``<thread_pitch>`` that can be inverted into a screw pitch."""
    v = r.v
    pitch = v.number(elem, entity, '<thread_pitch>', elem.text)
    if pitch == 0.0:
        v.error(elem, entity, '<thread_pitch> must not be zero', Code.BAD_NUMBER)
        return None
    if pitch is not None and not math.isfinite(2.0 * math.pi / pitch):
        v.error(elem, entity, f'<thread_pitch> {pitch:g} is too small: the pitch in metres, '
                '-2 pi / thread_pitch, overflows', Code.BAD_NUMBER)
        return None
    return pitch


def _complete(r: ElementReader, spec: JointSpec, elem: etree._Element, entity: str | None,
              thread_pitch: float | None, screw_pitch: float | None) -> None:
    """Check what the joint's type needs and apply the SDFormat defaults."""
    v = r.v
    kind = spec.kind
    for tag in ('parent', 'child'):
        if getattr(spec, f'{tag}_elem') is None:
            v.error(elem, entity, f'<joint> is missing <{tag}>', Code.MISSING_ELEMENT)
    if spec.child == WORLD:
        v.error(spec.child_elem, entity, "<child> must not be 'world'", Code.BAD_CHILD)
        spec.child = None
    defaults = joint_defaults(r.version)
    if kind is JointType.SCREW:
        if screw_pitch is not None:
            spec.pitch = screw_pitch
        elif thread_pitch is not None:
            spec.pitch = -2.0 * math.pi / thread_pitch
        elif 'screw_thread_pitch' in defaults:
            spec.pitch = float(defaults['screw_thread_pitch'])
        else:  # the default <thread_pitch>, in m/rev
            spec.pitch = -2.0 * math.pi / float(defaults['thread_pitch'])
    if kind is JointType.GEARBOX and spec.gearbox_ratio is None:
        spec.gearbox_ratio = float(defaults['gearbox_ratio'])
    if kind.axes and spec.axis is None:
        v.warn(elem, entity, f'a {kind.value} joint without <axis> moves about 0 0 1 '
               '(the SDFormat default)', Code.MISSING_AXIS)
    if kind.axes == 2 and spec.axis2 is None:
        v.warn(elem, entity, f'a {kind.value} joint without <axis2> uses 0 0 1 for its '
               'second axis (the SDFormat default)', Code.MISSING_AXIS)
    if spec.axis2 is not None and kind.axes != 2:
        v.warn(spec.axis2.elem, entity, f'<axis2> is ignored for a {kind.value} joint',
               Code.NO_EFFECT)
        spec.axis2 = None
    if spec.axis is not None and not kind.axes:
        spec.axis = None      # fixed and ball joints have no axis to keep


def _axis(r: ElementReader, elem: etree._Element, entity: str | None) -> AxisSpec:
    v = r.v
    what = f'<{elem.tag}>'
    spec = AxisSpec(Z_AXIS, None, False, elem)
    for child in elem:
        tag = child.tag
        if tag == 'xyz':
            xyz = v.vector(child, entity, f'{what} <xyz>', child.text or '0 0 1', 3,
                           spec.xyz)
            if math.hypot(*xyz) == 0.0:
                v.error(child, entity, f'{what} <xyz> must not be the zero vector',
                        Code.ZERO_AXIS)
                xyz = Z_AXIS
            spec.xyz = xyz
            text = child.get('expressed_in')
            spec.expressed_in = text.strip() if text and text.strip() else None
        elif tag == 'use_parent_model_frame':
            upmf = read_bool(v, child, entity, f'{what} <use_parent_model_frame>', child.text,
                             False)
            if r.version >= (1, 7):
                v.warn(child, entity, '<use_parent_model_frame> is ignored in SDFormat '
                       "1.7 and later (use <xyz expressed_in='__model__'>)", Code.NO_EFFECT)
                upmf = False
            spec.use_parent_model_frame = upmf
        elif tag == 'dynamics':
            spec.dynamics = Dynamics(*(
                r.number(child, entity, key, _default(r, f'axis/dynamics/{key}'))
                for key in ('damping', 'friction', 'spring_reference', 'spring_stiffness')))
        elif tag == 'limit':
            spec.limit = _limit(r, child, entity, what)
        elif tag == 'mimic':
            spec.mimic = _mimic(r, child, entity)
        elif not misspelt('model/joint/axis', child.tag):   # (else a misspelling: .content)
            v.warn(child, entity, f'{what} <{local_name(child)}> is not kept', Code.DROPPED)
    return spec


_LIMIT_KEYS = ('lower', 'upper', 'effort', 'velocity')
# What libsdformat (std::stod) reads as infinite, as limits are read: lower case, spaces
# around stripped.
_INFINITE = {'inf': math.inf, '+inf': math.inf, 'infinity': math.inf, '+infinity': math.inf,
             '-inf': -math.inf, '-infinity': -math.inf}


def _default(r: ElementReader, path: str) -> float:
    """
    Return the default of a joint's child (a path below ``<joint>``) in the file's version.

    An element newer than the file's version (``<mimic>`` before 1.11) has the defaults of
    the newest version.
    """
    value = _numbers(r.version).get(path)
    return value if value is not None else _numbers(None)[path]


@functools.cache
def _numbers(version: tuple | None) -> dict:
    """Return :func:`~.versions.joint_defaults` of a version (``None``: the newest), as numbers."""
    table = joint_defaults(version if version is not None else READABLE_VERSIONS[-1])
    return {path: float(text) for path, text in table.items() if ' ' not in text}


def _limit(r: ElementReader, elem: etree._Element, entity: str | None, what: str) -> Limit:
    values = []
    for key in _LIMIT_KEYS:
        child = elem.find(key)
        default = _default(r, f'axis/limit/{key}')
        infinite = None if child is None or child.text is None else \
            _INFINITE.get(child.text.strip().lower())
        values.append(infinite if infinite is not None else
                      r.number(elem, entity, key, default))
    for item in elem:
        if item.tag not in _LIMIT_KEYS and not misspelt('model/joint/axis/limit', item.tag):
            r.v.warn(item, entity, f'{what} <limit><{local_name(item)}> is not kept',
                     Code.DROPPED)
    return Limit(*values)


def _mimic(r: ElementReader, elem: etree._Element, entity: str | None) -> Mimic | None:
    v = r.v
    leader = v.required_attr(elem, entity, 'joint')
    if leader is None:
        return None
    if (elem.get('axis') or 'axis').strip() != 'axis':
        v.warn(elem, entity, "<mimic> of a leader's axis2 is kept as a mimic of its first "
               'axis', Code.MIMIC_AXIS)
    multiplier, offset, reference = (
        r.number(elem, entity, key, _default(r, f'axis/mimic/{key}'))
        for key in ('multiplier', 'offset', 'reference'))
    return Mimic(leader.strip(), multiplier, offset - multiplier * reference)
