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

:data:`JOINT_DEFAULTS` is the one table of what each version's schema gives a joint's
children that a file leaves out: the reader reads missing values as the file's version says,
and both writers write what the schema fills in as the output's version says (from 1.10 on,
an unlimited joint has ``-inf``/``inf`` limits, and effort and velocity are unlimited by
default; before, ``-1e16``/``1e16`` and ``-1``).
"""

import re
from types import MappingProxyType

from sdf_tools.errors import Code

#: Versions :func:`~sdf_tools.formats.sdf.reader.parse_sdf` reads (a newer one is read with
#: the newest rules and a warning).
READABLE_VERSIONS = ('1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11')
#: Older versions the reader reads with the rules of a newer one, as libsdformat converts
#: them to it first: 1.3 to 1.4 (libsdformat's ``1_3.convert`` changes only a world's
#: ``<physics>``, which sdf_tools does not read).
CONVERTED_VERSIONS = MappingProxyType({'1.3': '1.4'})
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


# Major and minor of at most 9 digits past leading zeros (int() refuses 4300 and more).
_VERSION = re.compile(r'\s*0*(\d{1,9})\.0*(\d{1,9})(?:\.\d+)?\s*')


def read_version(v, root) -> tuple | None:
    """
    Return the version rules to read an ``<sdf>`` document with; ``None`` if it has none.

    ``v`` (a :class:`~sdf_tools.xmlio.parse.ValueReader`) records what is wrong with its
    ``version``: missing, malformed or not read (an error), newer than the newest read (a
    warning: it is read with the newest rules).
    """
    text = root.get('version')
    if text is None:
        v.missing_attr(root, None, 'version')
        return None
    m = _VERSION.fullmatch(text)
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

# Paths are below <joint>; texts as libsdformat writes them (gz sdf -p), each the number
# of the schema's default. The second axis (<axis2>) has the same defaults as <axis>.
_JOINT = {
    'gearbox_ratio': '1', 'thread_pitch': '1',
    'axis/xyz': '0 0 1',
    'axis/dynamics/damping': '0', 'axis/dynamics/friction': '0',
    # (SDFormat 1.4 has no spring: no spring is a spring of stiffness 0)
    'axis/dynamics/spring_reference': '0', 'axis/dynamics/spring_stiffness': '0',
    'physics/ode/limit/cfm': '0', 'physics/ode/limit/erp': '0.2',
}
_LIMITS_UP_TO_1_9 = {
    'axis/limit/lower': '-1e16', 'axis/limit/upper': '1e16',
    'axis/limit/effort': '-1', 'axis/limit/velocity': '-1',
}
_FROM_1_10 = {
    'axis/limit/lower': '-inf', 'axis/limit/upper': 'inf',
    'axis/limit/effort': 'inf', 'axis/limit/velocity': 'inf',
    'screw_thread_pitch': '1',
}
_MIMIC_FROM_1_11 = {
    'axis/mimic/multiplier': '1', 'axis/mimic/offset': '0', 'axis/mimic/reference': '0',
}
#: Version -> (path below ``<joint>`` -> default text): what each version's schema
#: (libsdformat's ``sdf/1.N/joint.sdf``, ``mimic.sdf``) gives a child a joint leaves out.
JOINT_DEFAULTS = MappingProxyType({
    version: MappingProxyType({
        **_JOINT,
        **(_LIMITS_UP_TO_1_9 if version_tuple(version) < (1, 10) else _FROM_1_10),
        **(_MIMIC_FROM_1_11 if version_tuple(version) >= (1, 11) else {}),
    }) for version in READABLE_VERSIONS})
#: The children each element of a joint must have, which SDFormat's schema adds when a file
#: leaves them out (``gz sdf -p`` prints them), in the order it adds them: element path ->
#: tags. (``axis2/limit`` needs none.)
JOINT_REQUIRED = MappingProxyType({
    'axis': ('xyz',),
    'axis/limit': ('lower', 'upper'),
    'axis/dynamics': ('spring_reference', 'spring_stiffness'),
    'axis/mimic': ('multiplier', 'offset', 'reference'),
    'physics/ode/limit': ('cfm', 'erp'),
})


def joint_defaults(version) -> MappingProxyType:
    """
    Return :data:`JOINT_DEFAULTS` of a version (``'1.10'`` or ``(1, 10)``).

    A version newer than the newest known has the newest one's defaults.
    """
    text = version if isinstance(version, str) else f'{version[0]}.{version[1]}'
    found = JOINT_DEFAULTS.get(text)
    return found if found is not None else JOINT_DEFAULTS[READABLE_VERSIONS[-1]]


def required_leaves(version, element: str) -> tuple[tuple[str, str], ...]:
    """
    Return the ``(tag, default text)`` the schema adds to a joint's ``element`` (a path).

    E.g. ``required_leaves('1.11', 'axis/limit')`` is ``(('lower', '-inf'), ('upper',
    'inf'))``.
    """
    defaults = joint_defaults(version)
    return tuple((tag, defaults[f'{element}/{tag}']) for tag in JOINT_REQUIRED[element]
                 if f'{element}/{tag}' in defaults)
