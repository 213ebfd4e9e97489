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
SDFormat input checked against the specification's vocabulary (:mod:`.spec`), as libsdformat does.

* :func:`check_document` walks a whole document (and each file an ``<include>`` reads): an
  element or attribute its version does not define where it is is a warning, as
  libsdformat copies it where nothing reads it: naming the nearest known name when no
  version has it (``<colision>``: did you mean ``<collision>``?), else the versions that
  do (an IMU ``<noise>`` is 1.4's and 1.5's). A name of a newer version is not reported
  (libsdformat 14 converts a 1.9 file to 1.11 and reads 1.11's elements). Names in a
  namespace (``<my:thing>``) are the user's and stay silent, and so is what a
  ``<plugin>`` holds (its own parameters). A ``<sensor>`` of a type libsdformat's loader
  does not know is a ``loader-refuses`` warning (``check``: an error).
* :func:`check_values` reads each value of the content the reader keeps without modelling
  it (extras: ``<surface>``, ``<sensor>``, ...) as ``sdf::Param`` reads it (:mod:`.params`):
  a text libsdformat refuses is an error (the whole file is refused); one it reads as
  another value is a warning saying which (``<max_contacts> '2.5' is read as 2``); a value
  outside the element's ``min``/``max`` (``<mu>-1</mu>``) is a ``loader-refuses`` warning:
  libsdformat 10 and later refuse the file, Gazebo classic reads it.
"""

from collections.abc import Callable
from collections.abc import Iterator
import functools
from typing import overload
from typing import TypeVar

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.formats.sdf import params
from sdf_tools.formats.sdf.spec import ElementSpec
from sdf_tools.formats.sdf.spec import nearest
from sdf_tools.formats.sdf.spec import SENSOR_TYPES
from sdf_tools.formats.sdf.spec import vocabulary
from sdf_tools.formats.sdf.values import pose_value
from sdf_tools.formats.sdf.versions import CONVERTED_NAMES
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.node import Node
from sdf_tools.xmlio.parse import quote_value
from sdf_tools.xmlio.parse import ValueReader

#: A tree walked: a document's (lxml) or a kept value's (the content of a ``<gazebo>`` blob).
_Tree = TypeVar('_Tree', etree._Element, Element)

#: Where the reader keeps extras: owner -> its path in the vocabulary.
OWNERS = {'model': 'model', 'link': 'model/link', 'visual': 'model/link/visual',
          'collision': 'model/link/collision', 'joint': 'model/joint', 'light': 'world/light',
          'world': 'world'}
#: What a value of each type must be, for messages.
WHAT = {'double': 'a number', 'float': 'a number (a float)', 'int': 'an integer of 32 bits',
        'unsigned int': 'an integer of 64 bits', 'bool': 'true or false',
        'vector3': '3 numbers', 'vector2d': '2 numbers', 'vector2i': '2 integers',
        'time': '2 integers', 'color': '3 or 4 numbers from 0 to 1'}


def version_text(version: tuple[int, ...]) -> str:
    """Return ``'1.9'`` of ``(1, 9)`` (a version newer than sdf_tools knows: the newest)."""
    text = f'{version[0]}.{version[1]}'
    return text if text in READABLE_VERSIONS else READABLE_VERSIONS[-1]


def element_path(elem: etree._Element) -> str:
    """Return the path of an element below ``<sdf>`` (``'model/link/collision'``)."""
    tags = [e.tag for e in reversed(list(elem.iterancestors()))] + [elem.tag]
    return '/'.join(tags[tags.index('sdf') + 1:] if 'sdf' in tags else tags)


def versions_with(path: str, attribute: str | None = None) -> tuple[str, ...]:
    """Return the versions whose vocabulary has the element at ``path`` (with ``attribute``)."""
    found = []
    for version in READABLE_VERSIONS:
        spec = vocabulary(version).at(path)
        if spec is not None and (attribute is None or attribute in spec.attributes):
            found.append(version)
    return tuple(found)


def described(elem: _Tree, spec: ElementSpec,
              unknown: Callable[[_Tree, ElementSpec], ElementSpec | None],
              ) -> Iterator[tuple[_Tree, ElementSpec]]:
    """
    Yield ``(element, its spec)`` of ``elem`` and of each element below it, in document order.

    ``spec`` is ``elem``'s :class:`~.spec.ElementSpec`. ``unknown(child, spec)`` is called
    for each child ``spec`` does not describe, and returns the spec to walk it with (or
    ``None``: it is not walked). Nothing below a ``<plugin>`` (its own parameters) and no
    element of a namespace is walked.
    """
    stack: list[tuple[_Tree, ElementSpec]] = [(elem, spec)]
    while stack:
        elem, spec = stack.pop()
        yield elem, spec
        if spec.copy_data:
            continue
        children = spec.children
        below: list[tuple[_Tree, ElementSpec]] = []
        for child in elem:
            tag = child.tag
            if tag.__class__ is not str or ':' in tag or tag[0] == '{':
                continue
            known = children.get(tag) or unknown(child, spec)
            if known is not None:
                below.append((child, known))
        below.reverse()   # walked in document order
        stack += below


def tags_below(elem: _Tree, top: _Tree) -> list[str]:
    """Return the tags from ``top`` down to ``elem`` (``['surface', 'friction', 'ode']``)."""
    return [item.tag for item in chain_to(elem, top)]


def chain_to(elem: _Tree, top: _Tree) -> list[_Tree]:
    """
    Return the elements from ``top`` down to ``elem``, one of its descendants (or itself).

    Found from ``top`` down, by identity: it needs no parent, so it reads a value
    (:class:`~sdf_tools.xmlio.element.Element`) as it reads lxml.
    """
    stack: list[list[_Tree]] = [[top]]
    while stack:
        chain = stack.pop()
        last = chain[-1]
        if last is elem:
            return chain
        stack += [chain + [child] for child in reversed(last) if child.tag.__class__ is str]
    raise ValueError(f'<{elem.tag}> is not below <{top.tag}>')


def check_document(v: ValueReader, root: etree._Element, version: tuple[int, ...]) -> None:
    """
    Check the names of a whole ``<sdf>`` document of SDFormat ``version`` (module docstring).

    ``v`` is the :class:`~sdf_tools.xmlio.parse.ValueReader` that records the problems, in
    document order; one dictionary lookup per element and attribute.
    """
    text = version_text(version)
    written = (root.get('version') or '').strip()
    quiet = _QUIET | CONVERTED_NAMES.get(written, frozenset())
    for elem, spec in described(root, vocabulary(text).root,
                                lambda child, spec: _unknown(v, child, spec, str(child.tag),
                                                             text, False, quiet)):
        if elem.attrib:
            for name in elem.keys():
                if name not in spec.attributes and ':' not in name and name[0] != '{':
                    _unknown(v, elem, spec, str(name), text, True, quiet)
        if spec.name == 'sensor':
            check_sensor_type(v, elem, _entity(elem))


# Names of older versions not reported: those the reader reports itself (<pose frame>,
# <use_parent_model_frame>), and a joint's <ode><provide_feedback>, which libsdformat's URDF
# conversion writes beside <physics><provide_feedback> (sdf_tools too, as it does).
_QUIET = frozenset(('pose@frame', 'axis/use_parent_model_frame',
                    'axis2/use_parent_model_frame', 'ode/provide_feedback'))


def _unknown(v: ValueReader, elem: etree._Element, spec: ElementSpec, name: str, text: str,
             attribute: bool, quiet: frozenset[str] = _QUIET) -> ElementSpec | None:
    """
    Report a name ``spec`` lacks in version ``text``; return the spec a newer version has.

    A name of the version read or a newer one is not reported (a newer libsdformat reads
    it); one only older versions have is, but for ``quiet`` (:data:`_QUIET`, and in a file
    of a version libsdformat converts, the names its conversion moves).
    """
    path = element_path(elem)
    found = versions_with(path, name if attribute else None)
    newer = [other for other in found if version_tuple(other) > version_tuple(text)]
    if newer:
        return None if attribute else vocabulary(newer[0]).at(path)
    key = f'{spec.name}@{name}' if attribute else f'{spec.name}/{name}'
    element = None
    if not attribute:
        parent = elem.getparent()
        assert parent is not None   # a child of an element walked
        element = (elem, parent)
    message = unknown_name(spec, name, text, found, elem.get(name) if attribute else None,
                           element)
    if key not in quiet and message is not None:
        v.warn(elem, _entity(elem), message, Code.UNKNOWN_NAME)
    return None


@overload
def unknown_name(spec: ElementSpec, name: str, text: str, found: tuple[str, ...],
                 value: None = None, element: tuple[_Tree, _Tree] | None = None) -> str: ...


@overload
def unknown_name(spec: ElementSpec, name: str, text: str, found: tuple[str, ...],
                 value: str | None = None,
                 element: tuple[_Tree, _Tree] | None = None) -> str | None: ...


def unknown_name(spec: ElementSpec, name: str, text: str, found: tuple[str, ...],
                 value: str | None = None,
                 element: tuple[_Tree, _Tree] | None = None) -> str | None:
    """
    Return what to say of a name that ``spec`` (an element of version ``text``) lacks.

    ``found`` are the versions that have it there (:func:`versions_with`); without any, the
    nearest known name is suggested (``<colision>``: did you mean ``<collision>``?).
    ``value`` is an attribute's (``None``: the name is an element's); an empty attribute
    of another version (``<pose frame="">``) loses nothing and is not reported (``None``).
    ``element`` is ``(the element of that name, its parent)``, if it is one: a sensor's
    content in an old layout then says what Gazebo does instead (:func:`old_layout`).
    """
    attribute = value is not None
    if found and value is not None and not value.strip():
        return None
    shown = repr(name) if attribute else f'<{name}>'
    message = (f'<{spec.name}> has no {"attribute" if attribute else "element"} {shown} in '
               f'SDFormat {text}')
    instead = None if element is None else old_layout(spec, element[0], element[1], text)
    if instead is not None:
        return f'{message}{instead}'
    if found:
        return (f'{message} (SDFormat {", ".join(found)} '
                f'{"has" if len(found) == 1 else "have"} it); Gazebo ignores it')
    hint = nearest(name, spec.attributes if attribute else spec.children)
    return f'{message}; Gazebo ignores it' + (
        '' if hint is None else f"; did you mean {repr(hint) if attribute else f'<{hint}>'}?")


# The element of a <sensor> that holds the settings of its type, where not named as the type.
_SENSOR_HOLDER = {
    **dict.fromkeys(('depth', 'depth_camera', 'rgbd', 'rgbd_camera', 'thermal',
                     'thermal_camera', 'segmentation', 'segmentation_camera', 'boundingbox',
                     'boundingbox_camera', 'wideanglecamera', 'wide_angle_camera',
                     'multicamera'), 'camera'),
    'gpu_ray': 'ray', 'gpu_lidar': 'lidar', 'wireless_receiver': 'transceiver',
    'wireless_transmitter': 'transceiver'}
_IMU_AXES = ('<angular_velocity><x><noise>, ..., <linear_acceleration><z><noise>')


def old_layout(spec: ElementSpec, elem: _Tree, parent: _Tree, text: str) -> str | None:
    """
    Return the end of the warning about a sensor's content written in an old layout.

    libsdformat 14 copies such an element where nothing reads it ("not defined in SDF"), so
    Gazebo simulates the sensor without it: an IMU's ``<noise>`` directly in ``<imu>``
    (SDFormat 1.4's and 1.5's, which libsdformat converts only in files of those versions:
    the IMU has no noise but per axis), a setting of the sensor's type directly in
    ``<sensor>`` (``<image>``, ``<clip>``: the camera has its ``<camera>``'s, else the
    default). ``None``: ``elem`` (a child of ``parent``) is no such content.
    """
    if spec.name == 'imu' and elem.tag == 'noise':
        axes = any(item is not axis and item.tag == 'noise'
                   for tag in ('angular_velocity', 'linear_acceleration')
                   for axis in parent.iterchildren(tag) for item in axis.iter())
        return (' (SDFormat 1.4 and 1.5 have it, and libsdformat converts it in their files '
                'only); Gazebo ignores it, so the IMU is simulated '
                + ('with the noise of its axes alone' if axes else 'without noise')
                + f'; since SDFormat 1.6 each axis has its own: {_IMU_AXES}')
    if spec.name != 'sensor':
        return None
    kind = (parent.get('type') or '').strip()
    holder = _SENSOR_HOLDER.get(kind, kind)
    inner = spec.children.get(holder)
    if inner is None or elem.tag not in inner.children:
        return None
    held = parent.find(f'{holder}/{elem.tag}')
    where = f'<{holder}><{elem.tag}>'
    instead = f'reads the {where} of line {held.sourceline}' if held is not None else \
        f'the sensor has the default {where}{_defaults(inner.children[elem.tag])}'
    return f"; it belongs in the sensor's <{holder}>: Gazebo ignores it here, and {instead}"


def _defaults(spec: ElementSpec) -> str:
    """Return `` (width 320, height 240)``: an element's default value, or its leaves'."""
    def shown(value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return f'{float(value):g}'
        except ValueError:
            return value
    if spec.type is not None:
        return f' ({shown(spec.default)})'
    leaves = spec.leaves('1') or spec.leaves()
    return ' (' + ', '.join(f'{leaf.name} {shown(leaf.default)}' for leaf in leaves) + ')' \
        if leaves else ''


def _entity(elem: etree._Element) -> str | None:
    """Return the named link, joint, model, ... an element is in, for messages."""
    for item in elem.iterancestors():
        if item.tag in _NAMED and item.get('name') is not None:
            return f"{item.tag} '{item.get('name')}'"
    return None


_NAMED = frozenset(('link', 'joint', 'model', 'world', 'actor', 'light'))


def check_sensor_type(v: ValueReader, sensor: Node, entity: str | None) -> None:
    """
    Report a ``<sensor>`` type libsdformat's loader does not know (``loader-refuses``).

    A sensor without one is an error: libsdformat's parser refuses the file.
    """
    kind = sensor.get('type')
    if kind is None:
        v.error(sensor, entity, "<sensor> is missing required attribute 'type' (libsdformat "
                'refuses the file)', Code.MISSING_ATTRIBUTE)
        return
    kind = kind.strip()
    if kind in SENSOR_TYPES:
        return
    hint = nearest(kind, SENSOR_TYPES)
    v.warn(sensor, entity, f'<sensor> type {quote_value(kind)} is not a sensor type '
           f'libsdformat knows' + (f' (did you mean {hint!r}?)' if hint else '')
           + ': libsdformat 10 and later refuse the file (Gazebo Sim loads nothing)',
           Code.LOADER_REFUSES)


def check_values(v: ValueReader, owner: str, elem: etree._Element, entity: str | None,
                 version: tuple[int, ...]) -> None:
    """
    Check each value of ``elem``, a child of an ``owner`` element, as libsdformat reads it.

    ``owner`` is a key of :data:`OWNERS`; content the vocabulary does not describe
    (unknown elements, a plugin's) is not looked at.
    """
    spec = _owner(version_text(version), owner).children.get(elem.tag)
    if spec is None:
        return
    for item, spec in described(elem, spec, lambda child, spec: None):
        if spec.type is not None:
            check_value(v, item, spec, entity, elem)


@functools.cache
def _owner(version: str, owner: str) -> ElementSpec:
    spec = vocabulary(version).at(OWNERS[owner])
    assert spec is not None   # each version has each owner of OWNERS
    return spec


def check_value(v: ValueReader, elem: _Tree, spec: ElementSpec, entity: str | None, top: _Tree,
                *, text: str | None = None, required: bool = False) -> object:
    """
    Report how libsdformat reads the value of ``elem`` (of :class:`~.spec.ElementSpec` ``spec``).

    Messages name it by its tags from ``top`` (an ancestor, or itself) down
    (``<surface><friction><ode><mu>``; a ``<gazebo>`` tag that sets another element is
    followed by that one's name). ``text`` is read instead of ``elem``'s, and an empty one is
    refused if ``required``. Returns the value libsdformat holds (``None``: refused, or
    empty).
    """
    if spec.type == 'pose':
        return pose_value(v, elem, entity)
    assert spec.type is not None   # the element of a value
    text = elem.text or '' if text is None else text
    reading = params.read(spec.type, text, required=required, minimum=spec.min,
                          maximum=spec.max)
    if reading.refusal is None and reading.note is None and reading.bounds is None:
        return reading.value
    what = f'<{"><".join(tags_below(elem, top))}>'
    if elem.tag != spec.name:
        what = f'{what} (SDFormat <{spec.name}>)'
    if reading.refusal is not None:
        v.error(elem, entity, f'{what} must be {WHAT.get(spec.type, spec.type)}, got '
                f'{quote_value(text)} (libsdformat refuses the file)',
                Code.BAD_BOOL if spec.type == 'bool' else Code.BAD_NUMBER)
        return None
    if reading.note is not None:
        v.warn(elem, entity, f'{what} {quote_value(text)} is read as {reading.note} '
               f'by libsdformat{" (not a number)" if reading.note == "nan" else ""}',
               Code.READ_AS)
    if reading.bounds is not None:
        v.warn(elem, entity, f'{what} {reading.bounds}: libsdformat 10 and later refuse the '
               'file (Gazebo Sim loads nothing); Gazebo classic reads it', Code.LOADER_REFUSES)
    return reading.value


#: The ``<shader>`` types libsdformat's ``Material::Load`` accepts (and its normal-map ones).
SHADER_TYPES = frozenset(('pixel', 'vertex', 'normal_map_objectspace', 'normal_map_object_space',
                          'normal_map_tangentspace', 'normal_map_tangent_space'))
_NORMAL_MAPS = SHADER_TYPES - {'pixel', 'vertex'}


def _material_text(elem: _Tree, tag: str) -> str | None:
    """Return a child's text, stripped (``None``: none, or ``__default__``, read as none)."""
    text = (elem.findtext(tag) or '').strip()
    return None if text in ('', '__default__') else text


def material_problems(material: _Tree, scripts: bool = True,
                      ) -> list[tuple[_Tree, str, Code]]:
    """
    Return what libsdformat's ``Material::Load`` refuses in a ``<material>``.

    A ``<script>`` without ``<uri>`` or ``<name>`` (or one of them empty or
    ``__default__``, which libsdformat reads as none: its own URDF conversion writes an
    unset one so), a ``<shader>`` type it does not know, a normal-map shader without
    ``<normal_map>``. Each is ``(element, message, code)``; ``scripts``: look at the
    ``<script>`` too.
    """
    problems: list[tuple[_Tree, str, Code]] = []
    script = material.find('script')
    if scripts and script is not None:
        missing = [tag for tag in ('uri', 'name') if _material_text(script, tag) is None]
        if missing:
            needs = ' and '.join(f'<{tag}>' for tag in missing)
            unset = [f'<{tag}>__default__</{tag}>' for tag in missing
                     if (script.findtext(tag) or '').strip()]
            problems.append((script, f'<material><script> needs {needs}' + (
                f" (libsdformat reads {' and '.join(unset)} as none)" if unset else ''),
                Code.MISSING_ELEMENT))
    shader = material.find('shader')
    if shader is not None:
        kind = (shader.get('type') or 'pixel').strip()
        if kind not in SHADER_TYPES:
            problems.append((shader, f'<material><shader> type {quote_value(kind)} is not '
                             f"one libsdformat knows ({', '.join(sorted(SHADER_TYPES))})",
                             Code.INVALID))
        elif kind in _NORMAL_MAPS and _material_text(shader, 'normal_map') is None:
            problems.append((shader, f'<material><shader> type {quote_value(kind)} needs '
                             '<normal_map> (the normal map image)', Code.MISSING_ELEMENT))
    return problems


def misspelt(path: str, tag: object) -> bool:
    """
    Return whether :func:`check_document` reports ``<tag>`` in the element at ``path``.

    No SDFormat version has it there, and it is in no namespace: then the reader says
    nothing more about it (that it is not kept, say).
    """
    return isinstance(tag, str) and ':' not in tag and tag[:1] != '{' and \
        not versions_with(f'{path}/{tag}')
