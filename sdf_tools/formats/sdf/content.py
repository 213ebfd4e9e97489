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
SDFormat content sdf_tools keeps without modelling it, checked as libsdformat checks it.

The reader keeps the children of a model, link, visual, collision or joint it does not model
(``<velocity_decay>``, ``<surface>``, ``<physics>``, ...) as ``extras``, written back as they
were. libsdformat reads them against its schema and refuses the whole file when one of its
numbers or booleans is not one (``<velocity_decay><linear>bad</linear>``): so does
:func:`check_values`, with the element's line. :data:`VALUE_TYPES` holds the typed leaves
of that content, by owner and path (from the schema of SDFormat 1.9, the same in 1.10 and
1.11 for these leaves); content it does not name (plugins, sensors, unknown elements) is not
looked at.

A number is a decimal number, or ``inf``/``nan`` in any case (as ``std::stod`` reads them);
a decimal number ``std::stod`` cannot hold (``1e999``, ``1e-400``: out of range) is not one.
An integer is digits with an optional sign, or ``0x`` and hexadecimal digits (libsdformat
reads ``0x01`` in base 16), in the range of its type: 32 bits for an ``int``, what
``std::stoul`` reads for an ``unsigned int`` (64 bits, a minus sign wrapping around). A
boolean is ``true``, ``false``, ``1`` or ``0`` (any case); vectors and colours are that many
numbers. That is as strict as sdf_tools reads the numbers it models (``<mass>``): libsdformat
12 also reads a number followed by junk (``2x`` as 2, ``2.5`` as the integer 2, ``1 2`` as the
number 1, ``0X10`` as 0), which is refused here too.
"""

import math
import re
import sys
from types import MappingProxyType

from sdf_tools.errors import Code
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_number
from sdf_tools.xmlio.parse import quote_value

_NUMBER, _INTEGER, _BOOL, _VECTOR3, _COLOUR = 'number', 'integer', 'bool', 'vector3', 'colour'
_UNSIGNED = 'unsigned'


def _typed(kind: str, owner: str, *leaves: str) -> dict:
    """Return ``{owner/leaf: kind}`` for each leaf (a table row of :data:`_SURFACE`)."""
    return {f'{owner}/{leaf}': kind for leaf in leaves}


_SURFACE = {
    **_typed(_NUMBER, 'surface/bounce', 'restitution_coefficient', 'threshold'),
    **_typed(_NUMBER, 'surface/friction/torsional', 'coefficient', 'patch_radius',
             'surface_radius', 'ode/slip'),
    **_typed(_BOOL, 'surface/friction/torsional', 'use_patch_radius'),
    **_typed(_NUMBER, 'surface/friction/ode', 'mu', 'mu2', 'slip1', 'slip2'),
    **_typed(_NUMBER, 'surface/friction/bullet', 'friction', 'friction2', 'rolling_friction'),
    **_typed(_VECTOR3, 'surface/friction', 'ode/fdir1', 'bullet/fdir1'),
    **_typed(_BOOL, 'surface/contact', 'collide_without_contact', 'bullet/split_impulse'),
    **_typed(_UNSIGNED, 'surface/contact', 'collide_without_contact_bitmask',
             'collide_bitmask', 'category_bitmask'),
    **_typed(_NUMBER, 'surface/contact', 'poissons_ratio', 'elastic_modulus', 'ode/soft_cfm',
             'ode/soft_erp', 'ode/kp', 'ode/kd', 'ode/max_vel', 'ode/min_depth',
             'bullet/soft_cfm', 'bullet/soft_erp', 'bullet/kp', 'bullet/kd',
             'bullet/split_impulse_penetration_threshold'),
    **_typed(_NUMBER, 'surface/soft_contact/dart', 'bone_attachment', 'stiffness', 'damping',
             'flesh_mass_fraction'),
}
#: Owner element -> (path of a leaf below it -> its type): the typed leaves libsdformat
#: checks in content kept as extras (SDFormat 1.9's ``model.sdf``, ``link.sdf``,
#: ``visual.sdf``, ``material.sdf``, ``collision.sdf``, ``surface.sdf``, ``joint.sdf``), and in
#: a world's lights (``light.sdf``).
VALUE_TYPES = MappingProxyType({
    'model': MappingProxyType({'self_collide': _BOOL, 'allow_auto_disable': _BOOL,
                               'enable_wind': _BOOL}),
    'link': MappingProxyType({
        'gravity': _BOOL, 'enable_wind': _BOOL, 'self_collide': _BOOL, 'kinematic': _BOOL,
        'must_be_base_link': _BOOL, 'velocity_decay/linear': _NUMBER,
        'velocity_decay/angular': _NUMBER}),
    'visual': MappingProxyType({
        'cast_shadows': _BOOL, 'laser_retro': _NUMBER, 'transparency': _NUMBER,
        'visibility_flags': _UNSIGNED, 'meta/layer': _INTEGER,
        'material/render_order': _NUMBER, 'material/lighting': _BOOL,
        'material/ambient': _COLOUR, 'material/diffuse': _COLOUR,
        'material/specular': _COLOUR, 'material/emissive': _COLOUR,
        'material/shininess': _NUMBER, 'material/double_sided': _BOOL}),
    'light': MappingProxyType({
        'cast_shadows': _BOOL, 'intensity': _NUMBER, 'diffuse': _COLOUR, 'specular': _COLOUR,
        'direction': _VECTOR3, **_typed(_NUMBER, 'attenuation', 'range', 'linear', 'constant',
                                        'quadratic'),
        **_typed(_NUMBER, 'spot', 'inner_angle', 'outer_angle', 'falloff')}),
    'collision': MappingProxyType({'laser_retro': _NUMBER, 'max_contacts': _INTEGER,
                                   **_SURFACE}),
    'joint': MappingProxyType({
        'physics/simbody/must_be_loop_joint': _BOOL, 'physics/ode/cfm_damping': _BOOL,
        'physics/ode/implicit_spring_damper': _BOOL, 'physics/ode/fudge_factor': _NUMBER,
        'physics/ode/cfm': _NUMBER, 'physics/ode/erp': _NUMBER,
        'physics/ode/bounce': _NUMBER, 'physics/ode/max_force': _NUMBER,
        'physics/ode/velocity': _NUMBER, 'physics/ode/limit/cfm': _NUMBER,
        'physics/ode/limit/erp': _NUMBER, 'physics/ode/suspension/cfm': _NUMBER,
        'physics/ode/suspension/erp': _NUMBER, 'physics/provide_feedback': _BOOL}),
})
# Owner -> the paths that lead to a typed leaf (the walk goes no deeper elsewhere).
_ROUTES = {owner: frozenset('/'.join(path.split('/')[:i]) for path in table
                            for i in range(1, path.count('/') + 1))
           for owner, table in VALUE_TYPES.items()}
_NON_FINITE = frozenset(('inf', '+inf', '-inf', 'infinity', '+infinity', '-infinity', 'nan',
                         '+nan', '-nan'))
# Param.cc reads an integer in base 16 when its text is '0x' and hex digits (isHex), else in
# base 10 (std::stoi for an int, std::stoul for an unsigned int).
_INTEGER_TEXT = re.compile(r'0x([0-9a-fA-F]+)|[+-]?([0-9]+)')
# Integer kind -> the bound of its magnitude (-2 ** 31 is an int too).
_INTEGER_LIMITS = {_INTEGER: 2 ** 31, _UNSIGNED: 2 ** 64}
_SMALLEST = sys.float_info.min  # the smallest normal double
_SMALLEST_FLOAT = 2.0 ** -126  # the smallest normal float (a colour component is a float)
_NOT_ZERO = re.compile(r'[^eE]*[1-9]')
_WHAT = {_NUMBER: 'a number', _INTEGER: 'an integer of 32 bits',
         _UNSIGNED: 'an integer of 64 bits', _BOOL: 'true or false',
         _VECTOR3: '3 numbers', _COLOUR: '3 or 4 numbers from 0 to 1'}


def check_values(v, owner: str, elem, entity) -> None:
    """
    Report each typed leaf of ``elem`` (a child of an ``owner`` element) that is not its type.

    ``v`` is the :class:`~sdf_tools.xmlio.parse.ValueReader` that records the errors; a
    dictionary lookup per element of the content, and none below elements that lead to no
    typed leaf.
    """
    types = VALUE_TYPES.get(owner)
    if types is None:
        return
    routes = _ROUTES[owner]
    stack = [(elem, local_name(elem))]
    while stack:
        item, path = stack.pop()
        kind = types.get(path)
        if kind is not None:
            if not _valid(kind, item.text or ''):
                v.error(item, entity, f'<{path.replace("/", "><")}> must be {_WHAT[kind]}, '
                        f'got {quote_value(item.text or "")} (libsdformat refuses the file)',
                        Code.BAD_NUMBER if kind != _BOOL else Code.BAD_BOOL)
        elif path in routes:
            stack.extend((child, f'{path}/{local_name(child)}') for child in item
                         if isinstance(child.tag, str))


def _valid(kind: str, text: str) -> bool:
    words = text.split(None, 4)  # at most 4 are needed: megabytes of numbers are not split
    if kind == _BOOL:
        return len(words) == 1 and words[0].lower() in ('true', 'false', '1', '0')
    if kind in _INTEGER_LIMITS:
        return len(words) == 1 and _integer(kind, words[0])
    count = {_NUMBER: (1,), _VECTOR3: (3,), _COLOUR: (3, 4)}[kind]
    if kind == _COLOUR:  # read as floats, each from 0 to 1 (libsdformat's Color)
        return len(words) in count and all(map(_component, words))
    return len(words) in count and all(_number(word) for word in words)


def _component(word: str) -> bool:
    """Return whether libsdformat reads ``word`` as a colour component: a float from 0 to 1."""
    value = parse_number(word)
    return value is not None and (value == 0.0 and _NOT_ZERO.match(word) is None
                                  or _SMALLEST_FLOAT <= value <= 1.0)


def _integer(kind: str, word: str) -> bool:
    """Return whether ``std::stoi`` (``std::stoul``) reads all of ``word``, in range."""
    match = _INTEGER_TEXT.fullmatch(word)
    if match is None:
        return False
    hexadecimal, decimal = match.groups()
    limit = _INTEGER_LIMITS[kind]
    if hexadecimal is not None:  # never negative; int() has no digit limit in base 16
        return int(hexadecimal, 16) < limit
    decimal = decimal.lstrip('0')
    if len(decimal) > 20:  # above 2 ** 64 (and int() refuses more than 4300 digits)
        return False
    value = int(decimal or '0')
    return value < limit or kind == _INTEGER and value == limit and word[0] == '-'


def _number(word: str) -> bool:
    """Return whether ``std::stod`` reads all of ``word``: out of range is not read."""
    value = parse_number(word)
    if value is None:
        return word.lower() in _NON_FINITE
    if value == 0.0:  # '1e-400' underflows to 0 (out of range); '0e-400' is 0
        return _NOT_ZERO.match(word) is None
    return _SMALLEST <= abs(value) < math.inf  # a subnormal is out of range too
