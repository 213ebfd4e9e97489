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
SDFormat values as libsdformat's ``sdf::Param`` reads them (``Param.cc``, libsdformat 12 to 14).

:func:`read` returns what libsdformat holds after reading the text of a value of an
SDFormat type (a :class:`Reading`): the value, or why it refuses the text (and with it the
whole file), and what it reads when that is not what the text says (``666.5`` in an
``unsigned int`` is 666: the note ``'666'``). Each rule is checked against libsdformat 12.3
by ``test/formats/test_sdf_params.py``:

* the text is trimmed of spaces, tabs and newlines; an empty text is the default, and is
  refused for a required element ("Empty string used when setting a required parameter");
* ``true`` and ``false`` (any case) are 1 and 0 to every type but ``string``;
* ``bool``: ``true``, ``false``, ``1`` or ``0``, any case, and nothing else;
* ``int``: ``std::stoi``: a sign and decimal digits (hexadecimal after ``0x``, as Param.cc
  reads a text starting ``0x``), the rest ignored (``666.5`` is 666, ``2x`` is 2); no
  digit, or outside 32 bits, is refused;
* ``unsigned int``: ``std::stoul`` likewise, a minus sign wrapping around, then its low 32
  bits kept (``-1`` is 4294967295, ``4294967296`` is 0); beyond 64 bits refused;
* ``double``, ``float``: ``std::stod``/``std::stof``: the longest leading number (decimal,
  hexadecimal ``0x1p3``, ``inf``, ``nan``), the rest ignored; out of range (too large, or
  smaller than the smallest normal number but not zero) refused;
* ``vector3``, ``vector2d``, ``time`` (two integers): read from a C++ stream, as many numbers
  as the type holds, each the longest run of sign, digits, ``.`` and exponent that must be a
  whole number (``1e`` is not); no ``nan``, ``inf``, hexadecimal or overflow; the rest of the
  text is ignored (``1 2 3 4`` is 1 2 3);
* ``color``: 3 or 4 words, each ``std::stof`` (the rest of a word ignored), each from 0 to 1
  as a float (``nan`` passes and is read as 0);
* ``pose``: 6 words (7 for ``quat_xyzw``), each ``std::stod``, finite (:func:`read_pose`);
* an element's ``min`` and ``max`` bound a scalar value (not a vector): outside is refused
  ("less than the minimum allowed value") since libsdformat 10, read by 9 (Gazebo classic's)
  (:attr:`Reading.bounds`); ``nan`` passes.
"""

from collections.abc import Callable
import functools
import math
import re
import struct
import sys

from sdf_tools.formatting import fmt
from sdf_tools.records import record

_TRIM = ' \t\n'          # sdf::trim
_SPACE = ' \t\n\v\f\r'   # isspace in the C locale
_WORDS = re.compile(r'[^ \t\n\v\f\r]+')
# (each unambiguous: a failed match of megabytes of digits must not backtrack)
_HEX_FLOAT = re.compile(r'[+-]?0[xX](?:[0-9a-fA-F]+(?:\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)'
                        r'(?:[pP][+-]?[0-9]+)?')
_DECIMAL = re.compile(r'[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?')
_SPECIAL = re.compile(r'([+-]?)(inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)', re.IGNORECASE)
_INTEGER = {10: re.compile(r'([+-]?)([0-9]+)'),
            16: re.compile(r'([+-]?)(?:0[xX](?=[0-9a-fA-F]))?([0-9a-fA-F]+)')}
_SMALLEST = {'double': sys.float_info.min, 'float': 2.0 ** -126}
_STREAM_NUMBER = re.compile(r'[+-]?[0-9]*(?:\.[0-9]*)?')
# Decimal numbers and spaces only (the quick paths: float() reads them as stod does).
_PLAIN = re.compile(r'[0-9eE.+\- \t\n]*')
_ZERO = re.compile(r'[+-]?[0.]*(?:[eE].*)?')   # the text of a zero (not of an underflow)
_SIZES = {'vector3': 3, 'vector2d': 2, 'vector2i': 2, 'time': 2}
_SCALARS = frozenset(('int', 'unsigned int', 'double', 'float'))


@record(frozen=True, slots=True)
class Reading:
    """
    What libsdformat holds after reading a value's text.

    Attributes
    ----------
    value : object
        The value (a number, a tuple of numbers, a bool, the text of a string); ``None``
        when refused or empty.
    refusal : str or None
        Why libsdformat refuses the text (the whole file with it), e.g. ``"'x' is not a
        number"``.
    note : str or None
        What libsdformat reads when it is not what the text says (``'666'``).
    bounds : str or None
        How the value is outside the element's ``min`` or ``max`` (libsdformat 10 and later
        refuse the file; 9, Gazebo classic's, reads it).

    """

    value: object = None
    refusal: str | None = None
    note: str | None = None
    bounds: str | None = None


def read(kind: str, text: str | None, *, required: bool = False, minimum: str | None = None,
         maximum: str | None = None) -> Reading:
    """
    Read ``text`` as libsdformat reads a value of the SDFormat type ``kind``.

    ``kind`` is a type of the specification (``'double'``, ``'unsigned int'``, ``'color'``,
    ...; an unknown one is read as a string); ``required``, ``minimum`` and ``maximum`` are
    the element's (:class:`~sdf_tools.formats.sdf.spec.ElementSpec`). Short texts are
    remembered (descriptions repeat ``0``, ``1 1 1``, ``true``).
    """
    text = text or ''
    if len(text) <= 40:
        return _remembered(kind, text, required, minimum, maximum)
    return _read(kind, text, required, minimum, maximum)


def _read(kind: str, text: str, required: bool, minimum: str | None,
          maximum: str | None) -> Reading:
    trimmed = text.strip(_TRIM)
    if not trimmed:
        return Reading(refusal='it is empty, and the element is required') if required \
            else Reading()
    if kind == 'bool':
        word = trimmed.lower()
        if word in ('true', '1', 'false', '0'):
            return Reading(word in ('true', '1'))
        return Reading(refusal=f'{_shown(trimmed)} is not true, false, 1 or 0')
    if kind in ('string', 'pose') or kind not in _READERS:
        return Reading(trimmed)
    word = trimmed.lower()
    if word in ('true', 'false'):   # Param.cc: for every type
        trimmed = '1' if word == 'true' else '0'
    reading = _READERS[kind](trimmed)
    if reading.refusal is None and word in ('true', 'false'):
        reading = Reading(reading.value, note=_text(reading.value))
    if reading.refusal is None and kind in _SCALARS and (minimum or maximum):
        return _bounded(kind, reading, minimum, maximum)
    return reading


_remembered = functools.lru_cache(maxsize=1024)(_read)


def read_pose(text: str, count: int) -> Reading:
    """Read a ``<pose>`` text: ``count`` words, each ``std::stod`` and finite (no attributes)."""
    plain = _plain(text, count, 'double')
    if plain is not None:
        return Reading(plain)
    values: list = []
    junk = False
    for match in _WORDS.finditer(text or ''):   # (it stops at the first word too many)
        word = match.group()
        value, used, problem = _strtod(word, 'double')
        if problem is not None or not math.isfinite(value):
            return Reading(refusal=problem or f'{_shown(word)} is not finite')
        if len(values) == count:
            return Reading(refusal=f'it has more than {count} numbers')
        values.append(value)
        junk = junk or used < len(word)
    if values and len(values) != count:
        return Reading(refusal=f'it has {len(values)} numbers, not {count}')
    return Reading(tuple(values), note=_text(tuple(values)) if junk else None)


def _plain(text: str, count: int, kind: str) -> tuple | None:
    """
    Return the ``count`` numbers of a text of plain decimal numbers, or ``None``.

    The quick path of the usual texts: ``float`` reads them as ``std::stod`` does, none out
    of range (non-negative for a ``float``); any other text takes the exact path.
    """
    words = (text or '').split(None, count)
    if len(words) != count or _PLAIN.fullmatch(text) is None:
        return None
    try:
        values = tuple(map(float, words))
    except ValueError:   # '1e', '+1+'
        return None
    low = _SMALLEST[kind]
    if kind == 'float' and any(v < 0.0 for v in values):
        return None
    if all(low <= abs(v) < math.inf or v == 0.0 and _ZERO.fullmatch(w)
           for v, w in zip(values, words)):
        return values
    return None


def _bounded(kind: str, reading: Reading, minimum: str | None,
             maximum: str | None) -> Reading:
    """Refuse a value outside the element's ``min`` and ``max`` (ValidateValue)."""
    for bound, text, below in ((minimum, 'minimum', True), (maximum, 'maximum', False)):
        if bound is None:
            continue
        limit = _READERS[kind](bound.strip(_TRIM)).value
        value = reading.value
        assert isinstance(value, (int, float))  # a scalar, read (not empty, not refused)
        assert limit is None or isinstance(limit, (int, float))
        if limit is not None and (value < limit if below else value > limit):
            return Reading(value, note=reading.note, bounds=f'{_text(value)} is '
                           f'{"less" if below else "greater"} than the {text} allowed value '
                           f'of {_text(limit)}')
    return reading


def _integer(text: str, unsigned: bool) -> Reading:
    """``std::stoi`` (``std::stoul``, low 32 bits kept) of a trimmed text."""
    if len(text) < 10 and text.isascii() and text.isdigit():   # the usual text
        return Reading(int(text))
    base = 16 if text[:2].lower() == '0x' else 10
    text = text.lstrip(_SPACE)
    match = _INTEGER[base].match(text)
    if match is None:
        return Reading(refusal=f'{_shown(text)} is not an integer')
    sign, digits = match.groups()
    digits = digits.lstrip('0') or '0'
    negative = sign == '-'
    # strtol holds a long (64 bits), strtoul an unsigned long: beyond is out of range
    if len(digits) > (16 if base == 16 else 20) or \
            int(digits, base) >= (2 ** 64 if unsigned else 2 ** 63 + negative):
        return Reading(refusal=f'{_shown(text)} is out of range')
    written = -int(digits, base) if negative else int(digits, base)
    value = written % 2 ** 32 if unsigned else written
    if not -2 ** 31 <= value < 2 ** 31 and not unsigned:
        return Reading(refusal=f'{_shown(text)} is out of the range of a 32-bit integer')
    exact = match.end() == len(text) or _number_of(text) == written   # '1.0' is 1
    return Reading(value, note=None if exact and value == written else _text(value))


def _number_of(text: str) -> float | None:
    """Return the number a whole decimal text says (``'1.0'``, ``'1e3'``), else ``None``."""
    return float(text) if len(text) < 400 and _DECIMAL.fullmatch(text) else None


def _real(kind: str) -> Callable[[str], Reading]:
    """Return the reader of a ``double`` or a ``float`` (``std::stod``, ``std::stof``)."""
    def read_real(text: str) -> Reading:
        plain = _plain(text, 1, kind) if kind == 'double' else None   # the usual text
        if plain is not None:
            return Reading(plain[0])
        value, used, problem = _strtod(text, kind)
        if problem is not None:
            return Reading(refusal=problem)
        exact = used == len(text) and not math.isnan(value)
        return Reading(value, note=None if exact else _text(value))
    return read_real


def _strtod(text: str, kind: str) -> tuple:
    """
    Return ``(value, characters read, refusal)`` of ``std::stod`` (``std::stof``) on ``text``.

    glibc's strtod: leading spaces, then the longest hexadecimal, special or decimal number;
    out of range is overflow, or a non-zero number below the smallest normal one.
    """
    start = len(text) - len(text.lstrip(_SPACE))
    head = text[start:start + 3].lower()   # which pattern can match: a cheap test first
    for pattern in (_HEX_FLOAT if 'x' in head else None,
                    _SPECIAL if 'n' in head or 'i' in head else None, _DECIMAL):
        match = pattern.match(text, start) if pattern is not None else None
        if match is not None:
            break
    else:
        return None, 0, f'{_shown(text)} is not a number'
    number = match.group()
    try:
        if pattern is _HEX_FLOAT:
            value = float.fromhex(number)
        elif pattern is _SPECIAL:
            value = float(match.group(1) + match.group(2)[:3])
        else:
            value = float(number)
        if kind == 'float' and math.isfinite(value):
            value = struct.unpack('f', struct.pack('f', value))[0]
    except OverflowError:
        value = math.inf
    if pattern is not _SPECIAL and (
            math.isinf(value) or value == 0.0 and _nonzero(number, pattern is _HEX_FLOAT)
            or 0.0 < abs(value) < _SMALLEST[kind] and not _exact(number, value)):
        return None, 0, f'{_shown(number)} is out of the range of a {kind}'
    return value, match.end(), None


def _nonzero(number: str, hexadecimal: bool) -> bool:
    """Return whether the mantissa of a number's text has a digit that is not 0."""
    if hexadecimal:
        return any(c not in '0.' for c in number.lstrip('+-')[2:].lower().partition('p')[0])
    return any(c in '123456789' for c in number.lower().partition('e')[0])


def _exact(number: str, value: float) -> bool:
    """Return whether a number's text is exactly ``value`` (glibc: no underflow when exact)."""
    from fractions import Fraction   # here: only a subnormal's text needs it
    if len(number) > 800:   # a text of a subnormal that long is not worth the arithmetic
        return False
    if number.lstrip('+-')[:2].lower() != '0x':
        return Fraction(number) == Fraction(value)
    mantissa, _, exponent = number.lstrip('+-')[2:].lower().partition('p')
    whole, _, fraction = mantissa.partition('.')
    exact = Fraction(int(whole + fraction or '0', 16), 16 ** len(fraction)) * \
        Fraction(2) ** int(exponent or '0')
    return exact == abs(Fraction(value))


def _stream(count: int, integers: bool = False) -> Callable[[str], Reading]:
    """Return the reader of ``count`` numbers from a C++ stream (``operator>>``)."""
    def read_stream(text: str) -> Reading:
        values = []
        position = 0
        for _ in range(count):
            while position < len(text) and text[position] in _SPACE:
                position += 1
            number, position = _stream_number(text, position, integers)
            if number is None:
                return Reading(refusal=f'{_shown(text)} is not {count} numbers')
            values.append(number)
        junk = text[position:].strip(_SPACE)
        return Reading(tuple(values), note=_text(tuple(values)) if junk else None)
    return read_stream


def _stream_number(text: str, position: int, integer: bool) -> tuple:
    """Return ``(number or None, position after it)`` as libstdc++'s ``num_get`` reads it."""
    if integer:
        match = _INTEGER[10].match(text, position)
        if match is None or len(match.group(2).lstrip('0')) > 10 or \
                not -2 ** 31 <= int(match.group()) < 2 ** 31:
            return None, position
        return int(match.group()), match.end()
    match = _STREAM_NUMBER.match(text, position)   # (it matches, the empty text at least)
    end = position if match is None else match.end()
    mantissa = any(c.isdigit() for c in text[position:end])
    if mantissa and end < len(text) and text[end] in 'eE':   # an exponent, its sign, digits
        end += 1 + (end + 1 < len(text) and text[end + 1] in '+-')
        while end < len(text) and text[end].isdigit():
            end += 1
    number = text[position:end]
    if _DECIMAL.fullmatch(number) is None or math.isinf(float(number)):
        return None, end
    return float(number), end


def _colour(text: str) -> Reading:
    """3 or 4 words, each ``std::stof`` and from 0 to 1 (``nan`` passes; Color reads it 0)."""
    plain = _plain(text, 4, 'float') or _plain(text, 3, 'float')
    if plain is not None and all(v <= 1.0 for v in plain):
        return Reading(struct.unpack('4f', struct.pack('4f', *plain, *(1.0,) * (
            4 - len(plain)))))
    values: list = []
    junk = False
    for match in _WORDS.finditer(text):
        word = match.group()
        if len(values) == 4:
            return Reading(refusal='it has more than 4 numbers')
        value, used, problem = _strtod(word, 'float')
        if problem is not None:
            return Reading(refusal=problem)
        if value < 0.0 or value > 1.0:
            return Reading(refusal=f'{_shown(word)} is not from 0 to 1')
        junk = junk or used < len(word) or math.isnan(value)
        values.append(0.0 if math.isnan(value) else value)
    if len(values) not in (3, 4):
        return Reading(refusal=f'it has {len(values)} numbers, not 3 or 4')
    values += [1.0] * (4 - len(values))
    return Reading(tuple(values), note=_text(tuple(values)) if junk else None)


_READERS = {
    'int': lambda text: _integer(text, False),
    'unsigned int': lambda text: _integer(text, True),
    'double': _real('double'), 'float': _real('float'),
    'color': _colour,
    **{kind: _stream(n, kind in ('vector2i', 'time')) for kind, n in _SIZES.items()},
}


def _text(value: object) -> str:
    """Return a value as a message shows it."""
    if isinstance(value, tuple):
        return ' '.join(map(_text, value))
    if isinstance(value, float):
        return 'nan' if math.isnan(value) else fmt(value) if math.isfinite(value) else \
            ('inf' if value > 0 else '-inf')
    return str(value)


def _shown(text: str) -> str:
    """Quote a word of a value for a message, shortened."""
    return repr(text if len(text) <= 40 else text[:40] + '...')
