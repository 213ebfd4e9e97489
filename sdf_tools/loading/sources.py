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
Where descriptions come from: a file or standard input, and which format it is.

:func:`read_input` reads the bytes (bounded); :func:`detect_format` says which reader takes
them, or that they are xacro. :func:`sdf_tools.loading.load` does the rest.
"""

import re
import sys

from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SourceLocation
from sdf_tools.xmlio.markup import xacro_markup_at
from sdf_tools.xmlio.markup import xml_text
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import preamble_end

FORMATS = ('urdf', 'sdf', 'kindsl')
_ROOT_TAG = re.compile(rb'<\s*([A-Za-z_][-\w.:]*)')
# RobCoGen Kinematics-DSL: the keyword Robot, after a byte order mark, spaces and comments.
# Each step of the skip consumes a whole blank run or comment (no backtracking into one).
_DSL_SKIP = re.compile(rb'\s+|//[^\n]*|/\*.*?\*/', re.DOTALL)
_DSL_ROBOT = re.compile(rb'Robot\b')


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
    match = _ROOT_TAG.match(head, start)
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
    while (skipped := _DSL_SKIP.match(head, pos)) is not None:
        pos = skipped.end()
    return _DSL_ROBOT.match(head, pos) is not None


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
