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
What XML text holds before it is parsed: its encoding, its comments, what xacro would evaluate.

xacro runs the ``${...}`` expressions and ``$(...)`` substitutions of a document and its
``<xacro:...>`` elements; sdf_tools refuses them where they were not asked for (a ``.urdf``,
standard input) and never writes them into a URDF. This is the one place that says what
they look like, and where comments are as tinyxml2 reads them:

* :func:`xml_text` returns a document as the text its XML parser reads, in UTF-8: libxml2
  decodes UTF-16 and UTF-32 (by their byte order mark or first characters) and the encoding
  an XML declaration names (UTF-7, Latin-1, ...), so scanning the raw bytes would miss
  markup written in them;
* :func:`xacro_markup_at` finds the first markup outside comments in such text;
* :func:`has_xacro_markup` says whether a document holds any, in any encoding;
* :func:`evaluated_by_xacro` says whether a value (a name, an attribute) holds a ``${`` or
  ``$(`` xacro would evaluate;
* :func:`markup_spans` finds the comments and CDATA sections of a document in one pass, and
  :func:`readable_comments` makes the ``--`` XML forbids in comments (which tinyxml2,
  libsdformat and urdfdom read) spaces, for libxml2 and expat (:mod:`.parse`, xacro);
* :func:`has_instruction` says whether a processing instruction may follow a point.
"""

import codecs
from collections.abc import Iterator
import re

# Unexpanded xacro: its elements or substitutions. The xmlns:xacro declaration alone is
# not enough: xacro leaves it in its output (17 of the 50 corpus robots carry it).
_XACRO_MARKUP = re.compile(rb'<\s*xacro:|\$\{|\$\(')
_SUBSTITUTION = re.compile(r'\$[{(]')
# Byte order marks, UTF-32 first (FF FE 00 00 starts as UTF-16's FF FE does), then the first
# characters of a document without one (XML 1.0, appendix F: '<' or '<?').
_BYTE_ORDER = ((b'\xef\xbb\xbf', 'utf-8'), (b'\xff\xfe\x00\x00', 'utf-32-le'),
               (b'\x00\x00\xfe\xff', 'utf-32-be'), (b'\xff\xfe', 'utf-16-le'),
               (b'\xfe\xff', 'utf-16-be'), (b'<\x00\x00\x00', 'utf-32-le'),
               (b'\x00\x00\x00<', 'utf-32-be'), (b'<\x00?\x00', 'utf-16-le'),
               (b'\x00<\x00?', 'utf-16-be'))
_DECLARED = re.compile(rb'<\?xml[^>]*?\sencoding\s*=\s*["\']([A-Za-z][A-Za-z0-9._-]*)["\']')
# (compiled when first used: only unusual documents are walked for these, and the hyphens)
_MARKUP_START = rb'<!--|<!\[CDATA\['
_MARKUP_END = {b'<!--': b'-->', b'<![CDATA[': b']]>'}
# A hyphen of a comment's text that another follows, or that ends the text.
_COMMENT_HYPHENS = rb'-(?=-|\Z)'


def xml_text(data: bytes) -> bytes:
    """
    Return XML ``data`` as UTF-8, decoded as its byte order mark, start or declaration says.

    UTF-8 (and text in an encoding Python does not know) is returned as it is, the same
    object; bytes the encoding cannot decode become U+FFFD. Line breaks stay where they
    were, so a line of the result is the line of ``data``.
    """
    encoding = next((name for mark, name in _BYTE_ORDER if data.startswith(mark)), None)
    if encoding is None:
        declared = _DECLARED.match(data)
        if declared is None:
            return data
        try:
            encoding = codecs.lookup(declared.group(1).decode('ascii')).name
        except LookupError:
            return data
        if encoding.startswith(('utf-16', 'utf-32')):  # its bytes would start otherwise
            return data
    if encoding == 'utf-8':
        return data
    return data.decode(encoding, 'replace').encode('utf-8')


def xacro_markup_at(text: bytes) -> int | None:
    """Return the offset of the first xacro element or substitution outside comments."""
    pos = 0
    while True:
        comment = text.find(b'<!--', pos)
        match = _XACRO_MARKUP.search(text, pos, len(text) if comment < 0 else comment)
        if match:
            return match.start()
        if comment < 0:
            return None
        end = text.find(b'-->', comment + 4)
        if end < 0:
            return None
        pos = end + 3


def has_xacro_markup(data: bytes) -> bool:
    """Return whether an XML document holds xacro elements or substitutions outside comments."""
    return xacro_markup_at(xml_text(data)) is not None


def evaluated_by_xacro(value: str) -> bool:
    """Return whether ``value`` holds a ``${`` or ``$(`` that xacro would evaluate."""
    return _SUBSTITUTION.search(value) is not None


def markup_spans(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """
    Yield ``(start, end, opener)`` of each comment and CDATA section of ``data``, in order.

    One pass: each is skipped by finding its end; the first that is never closed ends the
    walk (the parser reports it).
    """
    pos = 0
    markup_start = re.compile(_MARKUP_START)
    while True:
        m = markup_start.search(data, pos)
        if m is None:
            return
        closer = _MARKUP_END[m.group()]
        end = data.find(closer, m.end())
        if end < 0:
            return
        pos = end + len(closer)
        yield m.start(), pos, m.group()


def readable_comments(data: bytes) -> bytes:
    """
    Return ``data`` with the ``--`` XML forbids inside comments made spaces.

    A comment ends at the first ``-->``, as tinyxml2 (libsdformat, urdfdom) reads it; each
    ``-`` of its text that another ``-`` follows, or that ends it (``--->``), becomes a
    space, so that libxml2 and expat (xacro) read the document too. Nothing else changes:
    lines and columns stay where they were. ``data`` itself is returned when no comment
    needs it.
    """
    out: list = []
    pos = 0
    for start, end, opener in markup_spans(data):
        if opener != b'<!--':
            continue
        body = data[start + 4:end - 3]
        if b'--' in body or body.endswith(b'-'):
            out += (data[pos:start + 4], re.sub(_COMMENT_HYPHENS, b' ', body))
            pos = end - 3
    if not out:
        return data
    out.append(data[pos:])
    return b''.join(out)


def has_instruction(data: bytes, start: int) -> bool:
    """Tell whether ``<?`` is in ``data`` from ``start`` (found by its rarer ``?``)."""
    at = data.find(b'?', start)
    for _ in range(16):  # a memchr per '?': the search for the pair reads every byte, 30x slower
        if at <= 0 or data[at - 1] == 0x3C:
            return at > 0
        at = data.find(b'?', at + 1)
    return at > 0 and data.find(b'<?', at - 1) >= 0  # many '?' (query strings in URIs)
