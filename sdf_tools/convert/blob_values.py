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
The numbers of the SDFormat content in ``<gazebo>`` blobs, read as strictly as the URDF's own.

A blob is copied into the SDFormat document as written, where libsdformat reads it against
its schema: a ``<pose>`` that is not 6 numbers (7 with ``rotation_format='quat_xyzw'``) or
not finite, or a number it cannot read (``abc``, ``1e999``), makes it refuse the whole
document, and Gazebo with it. :func:`check_blob` reports each such value as an error with its
line before anything is converted, by the rules of
:class:`~sdf_tools.xmlio.parse.ValueReader` (a non-finite number is an error too, although
libsdformat 12 reads ``nan`` in a double: the URDF's numbers follow the same rule). Checked:

* every ``<pose>`` of an element whose schema has one (:data:`POSE_PARENTS`), and a blob that
  is a ``<pose>`` (:func:`~sdf_tools.formats.sdf.values.pose_value`: ``degrees``,
  ``rotation_format``);
* the numbers of the elements whose poses fixed-joint lumping re-expresses (``<sensor>``,
  ``<light>``, ``<projector>``) and of a sensor's ``<camera>``, ``<ray>`` and ``<lidar>``, as
  libsdformat's SDFormat 1.9 schema types them (:data:`NUMBERS`); an integer may be written
  in base 16 (``<width>0x280</width>``), as libsdformat reads it;
* nothing inside a ``<plugin>`` (its content is the plugin's to read) or an element of
  another namespace.
"""

import math
import re

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.formats.sdf.values import pose_value
from sdf_tools.xmlio.parse import parse_number
from sdf_tools.xmlio.parse import ValueReader

#: Elements whose SDFormat 1.9 schema has a ``<pose>`` child.
POSE_PARENTS = frozenset((
    'actor', 'audio_source', 'camera', 'collision', 'frame', 'include', 'inertial', 'joint',
    'light', 'link', 'model', 'particle_emitter', 'population', 'projector', 'sensor',
    'visual', 'waypoint'))

_SCAN: dict[tuple, str] = {
    (axis, leaf): kind for axis in ('horizontal', 'vertical')
    for leaf, kind in (('samples', 'uint'), ('resolution', 'double'), ('min_angle', 'double'),
                       ('max_angle', 'double'))}
_RAY: dict[tuple, str] = {
    **{('scan',) + key: kind for key, kind in _SCAN.items()},
    ('range', 'min'): 'double', ('range', 'max'): 'double', ('range', 'resolution'): 'double',
    ('noise', 'mean'): 'double', ('noise', 'stddev'): 'double'}
_DISTORTION = ('k1', 'k2', 'k3', 'p1', 'p2')
_INTRINSICS = ('fx', 'fy', 'cx', 'cy', 's')
#: Element -> {path below it: kind} of the numbers checked (SDFormat 1.9 schema types:
#: ``double``, ``int``, ``uint`` (unsigned int), ``vector2``, ``vector3``, ``color``).
NUMBERS: dict[str, dict[tuple, str]] = {
    'sensor': {('update_rate',): 'double'},
    'camera': {
        ('horizontal_fov',): 'double', ('image', 'width'): 'int', ('image', 'height'): 'int',
        ('clip', 'near'): 'double', ('clip', 'far'): 'double',
        ('depth_camera', 'clip', 'near'): 'double', ('depth_camera', 'clip', 'far'): 'double',
        ('noise', 'mean'): 'double', ('noise', 'stddev'): 'double',
        **{('distortion', k): 'double' for k in _DISTORTION},
        ('distortion', 'center'): 'vector2',
        **{('lens', 'custom_function', k): 'double' for k in ('c1', 'c2', 'c3', 'f')},
        ('lens', 'cutoff_angle'): 'double', ('lens', 'env_texture_size'): 'int',
        **{('lens', 'intrinsics', k): 'double' for k in _INTRINSICS},
        ('visibility_mask',): 'uint'},
    'ray': _RAY,
    'lidar': _RAY,
    'light': {
        ('intensity',): 'double', ('diffuse',): 'color', ('specular',): 'color',
        **{('attenuation', k): 'double' for k in ('range', 'linear', 'constant', 'quadratic')},
        ('direction',): 'vector3',
        **{('spot', k): 'double' for k in ('inner_angle', 'outer_angle', 'falloff')}},
    'projector': {('fov',): 'double', ('near_clip',): 'double', ('far_clip',): 'double'},
}
#: Counts of the vector kinds (a colour is RGB or RGBA).
_COUNTS = {'vector2': (2,), 'vector3': (3,), 'color': (4, 3)}
#: Ranges of the integer kinds, as libsdformat stores them (32 bits).
_RANGES = {'int': (-2 ** 31, 2 ** 31), 'uint': (0, 2 ** 32)}
#: An integer libsdformat reads in base 16 (Param.cc's ``isHex``: ``0x`` and hex digits).
_HEX = re.compile(r'\s*0x([0-9a-fA-F]+)\s*')


#: Elements searched for poses and :data:`NUMBERS` (the waypoints of an actor are in its
#: ``<script><trajectory>``); inside others (``<plugin>``, unknown ones) nothing is read.
_CONTAINERS = POSE_PARENTS | {'script', 'trajectory'}


def _walk_tables() -> dict:
    """
    Return the tables of :func:`_suspects`: state -> {child tag: (kind, child's table)}.

    A state is ``(root, path)``: inside the :data:`NUMBERS` element ``root`` (``None``: in
    none), ``path`` below it. A child is a value (``kind``, no table), or a container to
    search with its table (no kind); other tags are not in the table.
    """
    states = {(None, (tag,)) for tag in _CONTAINERS} | {(root, ()) for root in NUMBERS}
    states |= {(root, path[:i]) for root, paths in NUMBERS.items() for path in paths
               for i in range(1, len(path))}
    tables: dict = {state: {} for state in states}
    for (root, path), table in tables.items():
        table.update((tag, (None, tables[None, (tag,)])) for tag in _CONTAINERS)
        table.update((tag, (None, tables[tag, ()])) for tag in NUMBERS)
        for full, kind in NUMBERS.get(root, {}).items():
            if full[:len(path)] == path and len(full) > len(path):
                below = full[:len(path) + 1]
                table[below[-1]] = (kind, None) if below == full else (None, tables[root, below])
        if (path[-1] if path else root) in POSE_PARENTS:
            table['pose'] = ('pose', None)
    return tables


_TABLES = _walk_tables()


def _suspects(blob) -> list:
    """
    Return ``(element, kind)`` of the values of ``blob`` that may be malformed, in order.

    Only the containers of the tables are searched, one dict lookup per child. A value the
    quick test passes is valid; the others go through the reporting readers.
    """
    tag = blob.tag
    state = (tag, ()) if tag in NUMBERS else (None, (tag,))
    if state not in _TABLES:
        return []
    suspects = []
    stack = [(blob, _TABLES[state])]
    while stack:
        element, table = stack.pop()
        for child in element:
            entry = table.get(child.tag)
            if entry is None:
                continue
            kind, below = entry
            if below is not None:
                stack.append((child, below))
            elif not (_plain_pose(child) if kind == 'pose' else _valid(child.text or '', kind)):
                suspects.append((child, kind))
    suspects.sort(key=lambda suspect: suspect[0].sourceline or 0)
    return suspects


def check_blob(blob, values: ValueReader, where: str) -> None:
    """
    Report the malformed numbers of one blob (module docstring) as errors with their lines.

    Parameters
    ----------
    blob : lxml element
        A blob as written (not modified).
    values : ValueReader
        Where the errors go.
    where : str
        Names the block in messages, e.g. ``<gazebo reference='base'>`` (the blob's tag and
        name follow it).

    """
    tag = blob.tag
    if tag == 'pose':  # a pose of the link, joint or model (or a visual's, a collision's)
        if not _plain_pose(blob):
            _check_pose(blob, values, where)
        return
    suspects = _suspects(blob)
    if not suspects:
        return
    name = blob.get('name')
    entity = f"{where} <{tag}{'' if name is None else f' name={name!r}'}>"
    for element, kind in suspects:
        if kind == 'pose':
            _check_pose(element, values, entity)
        else:
            _check_number(element, kind, values, entity)


def _finite(text: str) -> bool:
    """Return whether ``text`` is one finite number (the strict reader's rules)."""
    value = parse_number(text)
    return value is not None and math.isfinite(value)


def _plain_pose(pose) -> bool:
    """Return whether a ``<pose>`` is 6 finite numbers (or empty) with no rotation attributes."""
    for attribute in pose.keys():
        if attribute != 'relative_to':
            return False
    parts = (pose.text or '').split(None, 6)
    return not parts or len(parts) == 6 and all(map(_finite, parts))


def _valid(text: str, kind: str) -> bool:
    """Return whether ``text`` is a valid value of an SDFormat ``kind`` (:data:`NUMBERS`)."""
    counts = _COUNTS.get(kind)
    if counts is not None:
        parts = text.split(None, max(counts))
        return len(parts) in counts and all(map(_finite, parts))
    limits = _RANGES.get(kind)
    if limits is not None:
        hexadecimal = _hexadecimal(text)
        if hexadecimal is not None:
            return limits[0] <= hexadecimal < limits[1]
    value = parse_number(text)
    if value is None or not math.isfinite(value):
        return False
    return limits is None or value == int(value) and limits[0] <= value < limits[1]


def _hexadecimal(text: str) -> int | None:
    """Return the value of an integer written in base 16 (``0x280``), or ``None``."""
    match = _HEX.fullmatch(text)
    return None if match is None else int(match.group(1), 16)  # linear in base 16


def _check_pose(pose, values: ValueReader, entity: str) -> None:
    """Report what makes a ``<pose>`` unreadable (its errors; the warnings are lumping's)."""
    scratch = ValueReader(values.source, Reporter())
    pose_value(scratch, pose, entity)
    values.reporter.errors.extend(scratch.reporter.errors)


def _check_number(element, kind: str, values: ValueReader, entity: str) -> None:
    """Report a value of an SDFormat ``kind`` that is not one."""
    text = element.text or ''
    what = f'<{element.tag}>'
    counts = _COUNTS.get(kind)
    if counts is not None:
        found = len(text.split(None, max(counts)))
        if found not in counts and len(counts) > 1:
            values.error(element, entity, f'{what} must be 3 or 4 numbers (RGB or RGBA), got '
                         f'{_shown(text)}', Code.BAD_ARITY)
        else:
            values.vector(element, entity, what, text, found if found in counts else counts[0])
        return
    limits = _RANGES.get(kind)
    value = _hexadecimal(text) if limits is not None else None
    if value is None:
        value = values.number(element, entity, what, text)
    if value is None or limits is None:
        return
    if value != int(value) or not limits[0] <= value < limits[1]:
        sign = 'a non-negative' if kind == 'uint' else 'an'
        values.error(element, entity, f'{what} must be {sign} integer that fits 32 bits, got '
                     f'{_shown(text)}', Code.BAD_NUMBER)


def _shown(text: str) -> str:
    """Quote a value for a message, shortened (a text can be megabytes)."""
    text = text.strip()
    return repr(text if len(text) <= 40 else text[:40] + '...')
