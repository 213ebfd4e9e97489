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
Where descriptions come from: a file, standard input or text, which format it is, xacro.

:func:`prepare` is the first half of :func:`sdf_tools.loading.load`: it reads the bytes
(bounded, :func:`read_input`), tells which reader takes them (:func:`detect_format`), and
expands xacro when asked (:mod:`sdf_tools.loading.xacro`), into a :class:`Prepared`
description; :func:`sdf_tools.loading.readers.read` does the rest. Nothing is written: a
caller that also writes (``--keep-expanded``, ``-o``) checks its outputs against the files
read so far (:func:`sdf_tools.loading.readers.files_read`) between the two halves.
"""

import re
import sys

from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.loading.options import LoadOptions
from sdf_tools.loading.options import WrongFormat
from sdf_tools.records import record
from sdf_tools.resources.lookup import Resources
from sdf_tools.source_map import SourceMap
from sdf_tools.xmlio.markup import xacro_markup_at
from sdf_tools.xmlio.markup import xml_text
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import preamble_end

FORMATS = ('urdf', 'sdf', 'kindsl')
# The patterns, compiled (and kept by re) when first used: a file named .urdf uses none.
_ROOT_TAG = rb'<\s*([A-Za-z_][-\w.:]*)'
# RobCoGen Kinematics-DSL: the keyword Robot, after a byte order mark, spaces and comments.
# Each step of the skip consumes a whole blank run or comment (no backtracking into one).
_DSL_SKIP = rb'(?s)\s+|//[^\n]*|/\*.*?\*/'
_DSL_ROBOT = rb'Robot\b'


def detect_format(data: bytes, name: str = '') -> str:
    """
    Return ``'urdf'``, ``'sdf'``, ``'kindsl'`` or ``'xacro'`` for a description.

    The file extension, in any case, decides when it is one of ``.urdf``, ``.sdf``,
    ``.world``, ``.kindsl``, ``.xacro``; otherwise the content does (root element ``<robot>``
    or ``<sdf>``, DSL text starting with ``Robot`` after spaces and comments). Either way, a
    ``.urdf`` file or XML content with xacro markup outside comments (``<xacro:...>``
    elements, ``${...}`` or ``$(...)``) is ``'xacro'``; a ``xmlns:xacro`` declaration alone,
    as xacro leaves it in its output, is not. The content is read as its XML parser reads
    it: UTF-16, UTF-32 or a declared encoding decoded first
    (:func:`~sdf_tools.xmlio.markup.xml_text`).

    Raises
    ------
    DescriptionError
        No extension decides and the text is empty, or neither XML nor the DSL (``name``,
        or ``<string>``, is its source in the message).

    """
    lower = name.lower()
    if lower.endswith('.xacro'):
        return 'xacro'
    text = xml_text(data)
    for ext, fmt in (('.urdf', 'urdf'), ('.sdf', 'sdf'), ('.world', 'sdf'),
                     ('.kindsl', 'kindsl')):
        if lower.endswith(ext):
            return 'xacro' if fmt == 'urdf' and xacro_markup_at(text) is not None else fmt
    head = text[:65536]
    start = preamble_end(head)
    if head[start:start + 1] != b'<':
        if _starts_as_dsl(head):
            return 'kindsl'
        raise _unknown_format(data, name or '<string>')
    if xacro_markup_at(text) is not None:
        return 'xacro'
    match = re.compile(_ROOT_TAG).match(head, start)
    if match and match.group(1) == b'sdf':
        return 'sdf'
    return 'urdf'


def _unknown_format(data: bytes, source: str) -> DescriptionError:
    """Return the error for text that is in no format sdf_tools reads (or is empty)."""
    text = data.lstrip()
    if not text:
        return DescriptionError(Diagnostic('the description is empty', SourceLocation(source),
                                           code=Code.EMPTY))
    line = data.count(b'\n', 0, len(data) - len(text)) + 1
    return DescriptionError(Diagnostic(
        'not a robot description: not XML (URDF, xacro or SDFormat), and not RobCoGen '
        "Kinematics-DSL, which starts with 'Robot'", SourceLocation(source, line),
        code=Code.UNKNOWN_FORMAT))


def _starts_as_dsl(head: bytes) -> bool:
    """Return whether ``head`` starts with ``Robot`` after a BOM, blanks and comments."""
    pos = 3 if head.startswith(b'\xef\xbb\xbf') else 0
    skip = re.compile(_DSL_SKIP)
    while (skipped := skip.match(head, pos)) is not None:
        pos = skipped.end()
    return re.compile(_DSL_ROBOT).match(head, pos) is not None


def read_input(path: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[bytes, str]:
    """
    Read a file (or standard input for ``-``) and return ``(data, source_name)``.

    Raises
    ------
    DescriptionError
        The file cannot be read (standard input: is closed) or is larger than ``max_bytes``.

    """
    source = '<stdin>' if path == '-' else path
    try:
        if path != '-':
            with open(path, 'rb') as f:
                data = f.read(max_bytes + 1)
        elif sys.stdin is None:  # the process was started with it closed (``<&-``)
            raise DescriptionError(Diagnostic('standard input is closed',
                                              SourceLocation(source), code=Code.IO))
        else:
            data = sys.stdin.buffer.read(max_bytes + 1)
    except OSError as e:
        raise DescriptionError(Diagnostic(f'cannot read: {e.strerror}',
                                          SourceLocation(source), code=Code.IO)) from None
    if len(data) > max_bytes:
        raise DescriptionError(Diagnostic(f'more than the limit of {max_bytes} bytes',
                                          SourceLocation(source), code=Code.TOO_LARGE))
    return data, source


@record(frozen=True, eq=False)
class Prepared:
    """
    A description read and ready for its reader (:func:`prepare`).

    Attributes
    ----------
    data : bytes
        What the reader reads: the input, or for xacro its expansion, one element a line.
    source : str
        The file name, ``<stdin>`` or the name of the text.
    fmt : str
        The reader that takes it: ``'urdf'`` (expanded xacro too), ``'sdf'`` or ``'kindsl'``.
    file : str or None
        The file it was read from (``None``: standard input or text).
    resources : Resources
        Where packages and models are looked for (xacro's ``$(find)`` looked there).
    inputs : tuple of str
        The files read: ``file``, then for xacro the files xacro read (includes and YAML
        files, absolute paths).
    unused : tuple of str
        The names of ``LoadOptions.mappings`` that change nothing: for xacro, arguments no
        file declares or reads; for URDF and SDFormat, all of them.
    warnings : tuple of Diagnostic
        One for the arguments that change nothing, then xacro's package lookups' (a
        duplicate package, at its ``$(find)``).
    origins : SourceMap or None
        For xacro input, where the lines of the expansion come from; ``None`` otherwise.

    """

    data: bytes
    source: str
    fmt: str
    file: str | None
    resources: Resources
    inputs: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()
    warnings: tuple[Diagnostic, ...] = ()
    origins: SourceMap | None = None


def prepare(path: str | None, options: LoadOptions, resources: Resources, *,
            text: str | bytes | None = None) -> Prepared:
    """
    Read a description (``path``, ``-`` or ``text``), tell its format, expand xacro if asked.

    Parameters and exceptions are :func:`sdf_tools.loading.load`'s (but for a reader's:
    nothing is parsed here but xacro); ``resources`` is where ``$(find pkg)`` looks.
    """
    if path is not None and text is None:
        data, source = read_input(path, max_bytes=options.max_bytes or DEFAULT_MAX_BYTES)
    elif text is not None and path is None:
        data = text.encode('utf-8') if isinstance(text, str) else bytes(text)
        source = options.source or '<string>'
        if not data.strip():
            raise DescriptionError(Diagnostic('the description is empty', SourceLocation(source),
                                              code=Code.EMPTY))
    else:
        raise ValueError('give a path or a text')
    fmt = options.fmt or detect_format(data, source)
    if ('urdf' if fmt == 'xacro' else fmt) not in options.formats:
        raise WrongFormat(source, fmt)
    file = path if path not in (None, '-') else None
    inputs: tuple[str, ...] = () if file is None else (file,)
    if fmt != 'xacro':
        return Prepared(data, source, fmt, file, resources, inputs,
                        *_ignored_mappings(options.mappings, source, fmt))
    from sdf_tools.loading.xacro import expand  # xacro: for xacro input only
    from sdf_tools.loading.xacro import refuse_unasked
    refuse_unasked(data, source, file, options.xacro, options.fmt, options.xacro_remedy)
    packages = resources.packages
    data, origins, read, unused, warnings = expand(data, source, file, options.mappings,
                                                   packages)
    return Prepared(data, source, 'urdf', file, resources, inputs + read, unused,
                    warnings + packages.take_warnings(), origins)


def _ignored_mappings(mappings: dict, source: str, fmt: str) -> tuple[tuple, tuple]:
    """Return the names of ``mappings`` a URDF or SDFormat input ignores, and a warning."""
    if fmt not in ('urdf', 'sdf') or not mappings:
        return (), ()
    given = ' '.join(f'{name}:={value}' for name, value in mappings.items())
    return tuple(mappings), (Diagnostic(
        f'{given} changes nothing: name:=value arguments are for xacro (and RobCoGen) input, '
        f'and this is {fmt.upper() if fmt == "urdf" else "SDFormat"}', SourceLocation(source),
        None, Severity.WARNING, Code.UNUSED_PARAMETER),)
