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
The SDFormat versions sdf_tools reads, writes and converts to, side by side, and their defaults.

The three lists differ for a reason: the reader takes every version Gazebo has shipped
models in; the writer writes model-level ``relative_to`` poses, which need 1.7; the URDF
converter starts at libsdformat 12's 1.9, the version ``gz sdf -p`` writes, and 1.11 is the
first with ``<mimic>``.

:func:`joint_defaults` is what each version's schema (the vocabulary, :mod:`.spec`) gives
a joint's children that a file leaves out: the reader reads missing values as the file's
version says, and both writers write what the schema fills in as the output's version says
(:func:`joint_required`, :func:`required_leaves`; from 1.10 on,
an unlimited joint has ``-inf``/``inf`` limits, and effort and velocity are unlimited by
default; before, ``-1e16``/``1e16`` and ``-1``).
"""

import functools
import re
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # codes, vocabulary, lxml imported where used: --help reads the lists
    from sdf_tools.formats.sdf.spec import ElementSpec
    from sdf_tools.xmlio.node import Node
    from sdf_tools.xmlio.parse import ValueReader

#: Versions :func:`~sdf_tools.formats.sdf.reader.parse_sdf` reads (a newer one is read with
#: the newest rules and a warning).
READABLE_VERSIONS = ('1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11')
#: Older versions the reader reads with the rules of a newer one, as libsdformat converts
#: them to it first: 1.3 to 1.4 (libsdformat's ``1_3.convert`` changes only a world's
#: ``<physics>``, which sdf_tools does not read).
CONVERTED_VERSIONS = MappingProxyType({'1.3': '1.4'})
#: The names libsdformat's conversion of an older version moves (``1_3.convert``: a world's
#: ``<physics><update_rate>``, ``<ode><solver><dt>`` and ``<bullet><dt>``), as the content
#: check keys them (``parent/name``): known names in a file of that version.
CONVERTED_NAMES = MappingProxyType({
    '1.3': frozenset({'physics/update_rate', 'solver/dt', 'bullet/dt'})})
#: Versions :func:`~sdf_tools.formats.sdf.writer.write_sdf` writes.
WRITABLE_VERSIONS = ('1.7', '1.8', '1.9', '1.10', '1.11')
#: Versions :func:`~sdf_tools.convert.urdf_to_sdf.urdf_to_sdf` writes (and the tools offer).
CONVERTIBLE_VERSIONS = ('1.9', '1.10', '1.11')
#: The first version with joint ``<mimic>``.
MIMIC_VERSION = '1.11'


def version_tuple(text: str) -> tuple[int, int]:
    """Return ``(major, minor)`` of a version text such as ``'1.10'`` (for comparisons)."""
    major, _, minor = text.partition('.')
    return (int(major), int(minor))


# Major and minor of at most 9 digits past leading zeros (int() refuses 4300 and more); a
# pattern compiled when first used (converting URDF reads no SDFormat version).
_VERSION = r'\s*0*(\d{1,9})\.0*(\d{1,9})(?:\.\d+)?\s*'


def read_version(v: 'ValueReader', root: 'Node') -> tuple[int, int] | None:
    """
    Return the version rules to read an ``<sdf>`` document with; ``None`` if it has none.

    ``v`` (a :class:`~sdf_tools.xmlio.parse.ValueReader`) records what is wrong with its
    ``version``: missing, malformed or not read (an error), newer than the newest read (a
    warning: it is read with the newest rules).
    """
    from sdf_tools.errors import Code
    text = root.get('version')
    if text is None:
        v.missing_attr(root, None, 'version')
        return None
    m = re.fullmatch(_VERSION, text)
    if m is None:
        from sdf_tools.xmlio.parse import quote_value   # lxml: not for the CLI's --help
        shown = repr(text) if len(text) <= 40 else quote_value(text)
        v.error(root, None, f'<sdf> version must look like 1.9, got {shown}',
                Code.BAD_VERSION)
        return None
    version = (int(m.group(1)), int(m.group(2)))
    oldest, newest = min(CONVERTED_VERSIONS, key=version_tuple), READABLE_VERSIONS[-1]
    converted = CONVERTED_VERSIONS.get(f'{version[0]}.{version[1]}')
    if converted is not None:
        return version_tuple(converted)
    if version < version_tuple(READABLE_VERSIONS[0]) or version[0] != 1:
        v.error(root, None, f'SDFormat version {text.strip()} is not supported (sdf_tools '
                f'reads {oldest} to {newest})', Code.BAD_VERSION)
        return None
    if version > version_tuple(newest):
        v.warn(root, None, f'SDFormat version {text.strip()} is newer than {newest}; it is '
               f'read with the {newest} rules', Code.NEW_VERSION)
        version = version_tuple(newest)
    return version


# --- schema defaults ---------------------------------------------------------------------

# The children of a joint whose defaults the readers and writers use (paths below <joint>;
# <axis2> has <axis>'s defaults).
_DEFAULTED = (
    'gearbox_ratio', 'thread_pitch', 'axis/xyz', 'axis/dynamics/damping',
    'axis/dynamics/friction', 'axis/dynamics/spring_reference',
    'axis/dynamics/spring_stiffness', 'physics/ode/limit/cfm', 'physics/ode/limit/erp',
    'axis/limit/lower', 'axis/limit/upper', 'axis/limit/effort', 'axis/limit/velocity',
    'screw_thread_pitch', 'axis/mimic/multiplier', 'axis/mimic/offset',
    'axis/mimic/reference')
# What 1.4 lacks and sdf_tools reads alike: no spring is a spring of stiffness 0.
_SPRING = {'axis/dynamics/spring_reference': '0', 'axis/dynamics/spring_stiffness': '0'}
# The elements of a joint whose required children the schema adds (joint_required).
_COMPLETED = ('axis', 'axis/limit', 'axis/dynamics', 'axis/mimic', 'physics/ode/limit')


def _as_written(text: str) -> str:
    """Return a default as sdf_tools writes it: ``1.0`` as ``1``, ``-1e16`` as it is."""
    return ' '.join(re.sub(r'^([+-]?[0-9]+)\.0*$', r'\1', word) for word in text.split())


def _at(spec: 'ElementSpec | None', path: str) -> 'ElementSpec | None':
    """Return the spec of the element at ``path`` (``a/b``) under ``spec``, or ``None``."""
    for tag in path.split('/'):
        spec = spec.children.get(tag) if spec is not None else None
    return spec


@functools.cache
def _defaults(version: str) -> MappingProxyType[str, str]:
    from sdf_tools.formats.sdf.spec import vocabulary
    joint = vocabulary(version).at('model/joint')
    written = {}
    for path in _DEFAULTED:
        spec = _at(joint, path)
        if spec is not None:
            assert spec.default is not None  # the schema gives each of these leaves one
            written[path] = _as_written(spec.default)
    return MappingProxyType({**_SPRING, **written})


@functools.cache
def joint_required() -> MappingProxyType:
    """
    Return the children each element of a joint must have, as the schema adds them.

    The ``required="1"`` leaves of the newest version, which SDFormat's schema adds when a
    file leaves them out (``gz sdf -p`` prints them), in the order it adds them: element
    path (:data:`_COMPLETED`) -> tags. (``axis2/limit`` needs none.)
    """
    from sdf_tools.formats.sdf.spec import vocabulary
    joint = vocabulary(READABLE_VERSIONS[-1]).at('model/joint')
    required = {}
    for path in _COMPLETED:
        spec = _at(joint, path)
        assert spec is not None  # every version's joint has these elements
        required[path] = tuple(leaf.name for leaf in spec.leaves('1'))
    return MappingProxyType(required)


def joint_defaults(version: str | tuple[int, int]) -> MappingProxyType[str, str]:
    """
    Return what a version's schema gives a joint's children that a file leaves out.

    ``version`` is ``'1.10'`` or ``(1, 10)``; one newer than the newest known has the
    newest one's defaults. Path below ``<joint>`` -> default text, as libsdformat writes it
    (``gz sdf -p``) but for a ``.0``: from libsdformat's ``sdf/1.N/joint.sdf`` and
    ``mimic.sdf`` (:mod:`.spec`).
    """
    text = version if isinstance(version, str) else f'{version[0]}.{version[1]}'
    return _defaults(text if text in READABLE_VERSIONS else READABLE_VERSIONS[-1])


def required_leaves(version: str | tuple[int, int],
                    element: str) -> tuple[tuple[str, str], ...]:
    """
    Return the ``(tag, default text)`` the schema adds to a joint's ``element`` (a path).

    E.g. ``required_leaves('1.11', 'axis/limit')`` is ``(('lower', '-inf'), ('upper',
    'inf'))``.
    """
    defaults = joint_defaults(version)
    return tuple((tag, defaults[f'{element}/{tag}']) for tag in joint_required()[element]
                 if f'{element}/{tag}' in defaults)
