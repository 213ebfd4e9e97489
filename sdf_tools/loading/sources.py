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
Where descriptions come from: files, standard input, xacro, format detection.

The readers (:mod:`sdf_tools.formats`) take text; this module turns a path or standard input
into that text (expanding xacro safely, :mod:`sdf_tools.loading.xacro`, with
``$(find)`` answered by :mod:`sdf_tools.resources.packages`, laid out one element per line with
a map back to the xacro files, :mod:`sdf_tools.loading.xacro_map`) and says which format
it is. :mod:`sdf_tools.loading` then reads it into a :class:`~sdf_tools.model.Robot`.
"""

import re
import sys
from typing import TYPE_CHECKING

from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SourceLocation
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import XML_PREAMBLE

if TYPE_CHECKING:
    from sdf_tools.source_map import SourceMap

FORMATS = ('urdf', 'sdf', 'kindsl')
# Unexpanded xacro: its elements or substitutions. The xmlns:xacro declaration alone is
# not enough: xacro leaves it in its output (17 of the 50 corpus robots carry it).
_XACRO_MARKUP = re.compile(rb'<\s*xacro:|\$\{|\$\(')
_ROOT_TAG = re.compile(rb'<\s*([A-Za-z_][-\w.:]*)')
# RobCoGen Kinematics-DSL: the keyword Robot, after a byte order mark, spaces and comments.
_DSL_START = re.compile(rb'(\xef\xbb\xbf)?(\s|//[^\n]*+|/\*.*?\*/)*Robot\b', re.DOTALL)


def detect_format(data: bytes, name: str = '') -> str:
    """
    Return ``'urdf'``, ``'sdf'``, ``'kindsl'`` or ``'xacro'`` for a description.

    The file extension decides when it is one of ``.urdf``, ``.sdf``, ``.world``,
    ``.kindsl``, ``.xacro``; otherwise the content does (root element ``<robot>`` or
    ``<sdf>``, DSL text starting with ``Robot`` after spaces and comments). Either way, a
    ``.urdf`` file or XML content with xacro markup outside comments (``<xacro:...>``
    elements, ``${...}`` or ``$(...)``) is ``'xacro'``; a ``xmlns:xacro`` declaration alone,
    as xacro leaves it in its output, is not.

    Raises
    ------
    DescriptionError
        No extension decides and the text is empty, or neither XML nor the DSL (``name``,
        or ``<string>``, is its source in the message).

    """
    lower = name.lower()
    if lower.endswith('.xacro'):
        return 'xacro'
    for ext, fmt in (('.urdf', 'urdf'), ('.sdf', 'sdf'), ('.world', 'sdf'),
                     ('.kindsl', 'kindsl')):
        if lower.endswith(ext):
            return 'xacro' if fmt == 'urdf' and has_xacro_markup(data) else fmt
    head = data[:65536]
    start = XML_PREAMBLE.match(head).end()
    if head[start:start + 1] != b'<':
        if _DSL_START.match(head):
            return 'kindsl'
        raise _unknown_format(data, name or '<string>')
    if has_xacro_markup(data):
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


def has_xacro_markup(data: bytes) -> bool:
    """Return whether XML text holds xacro elements or substitutions outside comments."""
    pos = 0
    while True:
        comment = data.find(b'<!--', pos)
        if _XACRO_MARKUP.search(data, pos, len(data) if comment < 0 else comment):
            return True
        if comment < 0:
            return False
        end = data.find(b'-->', comment + 4)
        if end < 0:
            return False
        pos = end + 3


def read_input(path: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[bytes, str]:
    """
    Read a file (or standard input for ``-``) and return ``(data, source_name)``.

    Raises
    ------
    DescriptionError
        The file cannot be read or is larger than ``max_bytes``.

    """
    if path == '-':
        data = sys.stdin.buffer.read(max_bytes + 1)
        source = '<stdin>'
    else:
        source = path
        try:
            with open(path, 'rb') as f:
                data = f.read(max_bytes + 1)
        except OSError as e:
            raise DescriptionError(Diagnostic(f'cannot read: {e.strerror}',
                                              SourceLocation(path), code=Code.IO)) from None
    if len(data) > max_bytes:
        raise DescriptionError(Diagnostic(f'more than the limit of {max_bytes} bytes',
                                          SourceLocation(source), code=Code.TOO_LARGE))
    return data, source


@record(frozen=True, slots=True)
class Description:
    """
    A description as read from a file or standard input, ready for a reader.

    Attributes
    ----------
    data : bytes
        The text (for xacro input: xacro's expansion, one element per line).
    source : str
        The file name, or ``<stdin>``.
    fmt : str
        ``'urdf'``, ``'sdf'`` or ``'kindsl'`` (:func:`detect_format`; expanded xacro is
        ``'urdf'``).
    xacro : bool
        Whether ``data`` is xacro's expansion of the file rather than its text.
    origins : SourceMap or None
        For xacro input, where the lines of ``data`` come from: what is reported about the
        expansion (under :attr:`label`) goes through it to name the xacro files' lines.

    """

    data: bytes
    source: str
    fmt: str
    xacro: bool = False
    origins: 'SourceMap | None' = None

    @property
    def label(self) -> str:
        """Return the name diagnostics about ``data`` give as its source."""
        return _expansion_label(self.source) if self.xacro else self.source

    def relocated(self, robot):
        """Return a robot read from ``data`` with its locations mapped, and the map."""
        if not self.xacro:
            return robot
        return replace(robot.relocated(self.origins.locate), origins=self.origins)


def _expansion_label(source: str) -> str:
    return f'{source} (expanded by xacro)'


def read_description(path: str, mappings: dict | None = None,
                     packages: PackageResolver | None = None) -> Description:
    """
    Read a description file (or ``-``), expanding xacro.

    Parameters
    ----------
    path : str
        The file, or ``-`` for standard input.
    mappings : dict, optional
        xacro arguments (``name -> value``), ignored for other formats.
    packages : PackageResolver, optional
        Where xacro's ``$(find pkg)`` looks (default: the environment, then the folders
        around ``path``: :meth:`PackagePath.from_environment` with ``near=path``).

    Raises
    ------
    SdfToolsError
        The file cannot be read, is too large, or xacro fails (a package not found is
        ``file:line: $(find pkg): package 'pkg' not found; searched: ...``).

    """
    data, source = read_input(path)
    fmt = detect_format(data, source)
    if fmt == 'xacro':  # the xacro machinery is imported for xacro input only
        from sdf_tools.loading.xacro import run_xacro
        from sdf_tools.loading.xacro_map import map_expansion
        file = None if path == '-' else path
        packages = packages or PackageResolver(PackagePath.from_environment(near=file))
        expansion = run_xacro(data, source, mappings, file, packages)
        text, origins = map_expansion(expansion.text, expansion.files,
                                      _expansion_label(source))
        return Description(text.encode('utf-8'), source, 'urdf', True, origins)
    return Description(data, source, fmt)
