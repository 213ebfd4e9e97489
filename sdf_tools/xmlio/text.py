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
Indented XML text written element by element: what lxml writes for a tree, without the tree.

A writer that builds lxml elements pays about a microsecond for each (more than everything
else it does), then again to indent and serialise them. :class:`XmlText` writes the same text
directly: two spaces a level as :func:`~sdf_tools.xmlio.parse.to_string` indents, ``<tag/>``
for an element without content, ``<tag></tag>`` for empty text, and libxml2's escaping
(:func:`escape_text`, :func:`escape_attribute`). Content held as a tree of
:class:`~sdf_tools.xmlio.element.Element` values is written by :meth:`XmlText.element`
(:func:`element_text`), as lxml indents and writes the same tree. A piece whose elements
are always the same, with only their text changing, is a :class:`Block`, written in one step.
"""

from collections.abc import Iterable

from sdf_tools.xmlio.element import BLANK
from sdf_tools.xmlio.element import Element


def escape_text(text: str) -> str:
    """Return element text as libxml2 writes it (``&``, ``<``, ``>`` and CR escaped)."""
    if '&' in text or '<' in text or '>' in text or '\r' in text:
        text = text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')
        text = text.replace('\r', '&#13;')
    return text


def escape_attribute(value: str) -> str:
    """Return an attribute value as libxml2 writes it between double quotes."""
    if '&' in value or '<' in value or '>' in value or '"' in value or \
            '\n' in value or '\r' in value or '\t' in value:
        value = value.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')
        value = value.replace('"', '&quot;').replace('\n', '&#10;').replace('\r', '&#13;')
        value = value.replace('\t', '&#9;')
    return value


def nested(text: str) -> str:
    """Return block text one level deeper: two spaces before each line, blank lines left out."""
    return ''.join(f'  {line}\n' for line in text.splitlines() if line)


#: The depths a :class:`Block` has a template for (documents are seldom deeper).
_BLOCK_DEPTHS = 8
_STR = frozenset((str,))  # (texts all of it: told in C, without a generator)


class Block:
    """
    A fixed piece of XML with ``{}`` slots, written whole at any depth (:meth:`XmlText.block`).

    ``text`` is the piece as it reads at depth 0: one or more sibling elements, one element
    a line, two spaces a level, as :class:`XmlText` writes them. Each ``{}`` is filled with a
    text written as given: user text must be escaped (:func:`escape_text`,
    :func:`escape_attribute`); numbers need not be. Writing one costs one ``%`` of a
    template already indented for its depth (up to :data:`_BLOCK_DEPTHS` levels; deeper, one
    ``str.format``), not a call for each element.
    """

    __slots__ = ('_format', '_indented')

    def __init__(self, text: str):
        lines = text.strip('\n').split('\n')
        if '{' in text.replace('{}', '') or '}' in text.replace('{}', ''):
            raise ValueError(f'a block has only {{}} slots, got {text!r}')
        pieces = ''.join(f'\0{line}\n' for line in lines).split('{}')
        numbered = pieces[0] + ''.join(f'{{{n}}}{piece}' for n, piece in enumerate(pieces[1:], 1))
        self._format = numbered.replace('\0', '{0}')  # slot 0: the indentation
        template = '%s'.join(piece.replace('%', '%%') for piece in pieces)
        self._indented = tuple(template.replace('\0', '  ' * depth)
                               for depth in range(_BLOCK_DEPTHS))

    def __repr__(self) -> str:
        return f'Block({self._format!r})'


class XmlText:
    """
    An XML document or fragment written in order, one element at a time.

    ``start``/``end`` open and close an element, ``leaf`` writes one with text only,
    ``group`` one holding only such leaves, ``block`` a :class:`Block`, ``element`` an
    :class:`~sdf_tools.xmlio.element.Element`. Attributes are given as a dict (written in its
    order). ``depth`` is the indentation level of the first element written.
    """

    __slots__ = ('_parts', '_open', '_indent')

    def __init__(self, depth: int = 0):
        self._parts: list[str] = []
        # Per open element: (tag, its start tag without '>', index in _parts).
        self._open: list[tuple[str, str, int]] = []
        self._indent = '  ' * depth  # of the next element written

    @property
    def depth(self) -> int:
        """Return the level of the next element written."""
        return len(self._indent) // 2

    def start(self, tag: str, attributes: dict | None = None) -> None:
        """Open ``<tag ...>``; its children follow until :meth:`end`."""
        indent = self._indent
        head = f'{indent}<{tag}{_attributes(attributes)}' if attributes else f'{indent}<{tag}'
        parts = self._parts
        self._open.append((tag, head, len(parts)))
        parts.append(head + '>\n')
        self._indent = indent + '  '

    def end(self) -> None:
        """Close the element opened last (``<tag .../>`` if nothing was written in it)."""
        tag, head, index = self._open.pop()
        self._indent = indent = self._indent[2:]
        parts = self._parts
        if index == len(parts) - 1:
            parts[index] = head + '/>\n'
        else:
            parts.append(f'{indent}</{tag}>\n')

    def leaf(self, tag: str, text: str, attributes: dict | None = None) -> None:
        """Write ``<tag ...>text</tag>`` (``text`` is escaped)."""
        text = escape_text(text)
        if attributes:
            self._parts.append(f'{self._indent}<{tag}{_attributes(attributes)}>{text}</{tag}>\n')
        else:
            self._parts.append(f'{self._indent}<{tag}>{text}</{tag}>\n')

    def group(self, tag: str, leaves: Iterable[tuple[str, str]],
              attributes: dict | None = None) -> None:
        """Write ``<tag ...>`` holding a leaf for each ``(tag, text)`` of ``leaves``."""
        indent = self._indent
        inner = indent + '  '
        head = f'{indent}<{tag}{_attributes(attributes)}' if attributes else f'{indent}<{tag}'
        body = ''.join([f'{inner}<{child}>{escape_text(text)}</{child}>\n'
                        for child, text in leaves])
        self._parts.append(f'{head}>\n{body}{indent}</{tag}>\n' if body else f'{head}/>\n')

    def block(self, block: Block, *texts: str) -> None:
        """Write ``block`` here with its slots filled with ``texts`` (written as given)."""
        indent = self._indent
        depth = len(indent) >> 1
        if depth < _BLOCK_DEPTHS and _STR.issuperset(map(type, texts)):
            # (str only: of anything else % writes str(x), str.format format(x))
            try:
                self._parts.append(block._indented[depth] % texts)
                return
            except TypeError:  # not as many texts as slots: as str.format does
                pass
        self._parts.append(block._format.format(indent, *texts))

    def element(self, element: Element) -> None:
        """Write an :class:`~sdf_tools.xmlio.element.Element` and its content, indented here."""
        indent = self._indent
        parts = self._parts
        parts.append(indent)
        _write_element(parts, element, indent)
        parts.append('\n')

    def text(self) -> str:
        """Return the text written so far."""
        return ''.join(self._parts)


def _attributes(attributes: dict) -> str:
    text = ''
    for name, value in attributes.items():
        text += f' {name}="{escape_attribute(value)}"'
    return text


def element_text(element: Element, depth: int = 0) -> str:
    """
    Return an :class:`~sdf_tools.xmlio.element.Element` as XML text, indented for ``depth``.

    What lxml writes for the same tree indented by ``etree.indent(level=depth)``: the
    start tag first (no indentation before it, no newline after the end tag), children two
    spaces a level deeper, except where text that is not blank stands between them (mixed
    content is written as it is).
    """
    parts: list[str] = []
    _write_element(parts, element, '  ' * depth)
    return ''.join(parts)


def _write_element(parts: list[str], element: Element, indent: str) -> None:
    """Append ``element``'s text to ``parts``, its start tag at the current place."""
    tag = element.tag
    head = f'<{tag}'
    for name, written in element.attributes:
        head += f' {name}="{escape_attribute(written)}"'
    children = element.children
    text = element.text
    if not children:
        parts.append(f'{head}/>' if text is None else f'{head}>{escape_text(text)}</{tag}>')
        return
    inner = indent + '  '
    between = '\n' + inner
    add = parts.append
    add(f'{head}>{escape_text(text)}' if text is not None and text.strip(BLANK)
        else f'{head}>{between}')
    for child in children:
        tail = child.tail
        after = between if tail is None or not tail.strip(BLANK) else escape_text(tail)
        if child.children or child.attributes:
            _write_element(parts, child, inner)
            add(after)
        else:  # a leaf (most are): written here
            leaf, value = child.tag, child.text
            if value is None:
                add(f'<{leaf}/>{after}')
            else:
                if '&' in value or '<' in value or '>' in value or '\r' in value:
                    value = escape_text(value)
                add(f'<{leaf}>{value}</{leaf}>{after}')
    if after is between:  # the last child's: the end tag goes one level out
        parts[-1] = f'{parts[-1][:-2]}</{tag}>'
    else:
        add(f'</{tag}>')
