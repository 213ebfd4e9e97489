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
XML content held as a value: :class:`Element`, made once from lxml where it is read.

The content sdf_tools keeps without modelling it (``<gazebo>`` blocks, SDFormat elements it
does not read, a ``<transmission>``) is a tree of frozen :class:`Element` records: a tag and
attribute names as written (``gz::x``, ``ignition:expressed_in``, ``a:b`` with its
``xmlns:a`` declaration where libxml2 writes one), the text, the children and, for mixed
content only, the text after an element (its ``tail``). Two are equal when they hold the
same; the source line is kept beside (not compared). Whitespace that only lays the tree out
(the text of an element with children, a tail, when blank) is not content: it is left out,
and the writer indents (:meth:`~sdf_tools.xmlio.text.XmlText.element`).

:func:`from_lxml` makes one (:func:`parse_element` from text); an :class:`Element` reads as
an lxml element is read (``tag``, ``text``, ``get``, ``items``, iteration, ``iter``,
``find`` with a plain path, ``sourceline``), so that code reading both needs no second
path. Changes make new values: :func:`with_key` (a ``<gazebo>`` setting, libsdformat's
overwrite rule), :func:`ensure`, :func:`at_path`, :func:`replace_child`, :func:`appended`,
:func:`with_attribute`, :func:`stripped`. :func:`to_lxml` gives a writer that builds lxml
(the URDF writer) a tree.
"""

from collections.abc import Callable
from collections.abc import Iterator
from sys import modules
from typing import Any
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml import etree
else:
    try:  # namedtuple's field getters: in C, a third of a property's time (CPython's own)
        from collections import _tuplegetter
    except ImportError:  # (a Python without them; not itemgetter: [i] is a child)
        def _tuplegetter(index: int, doc: str) -> property:
            return property(lambda element: tuple.__getitem__(element, index), doc=doc)

#: The characters libxml2 counts as blank (``xmlIsBlankNode``): text made of them is layout.
BLANK = ' \t\n\r'
_XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace'
#: The attributes of an element: ``(name, value)`` pairs, in document order.
Attributes = tuple[tuple[str, str], ...]
# _convert's namespaces: around an element (nsmap), its own, those its names use from outside.
_Scope = dict[str | None, str]
_Own = tuple[tuple[str | None, str], ...]
_Uses = list[tuple[str | None, str]]
# lxml-stubs 0.5.1 types attributes str or bytes, sourceline ... (_LXML_STUBS: str, int)
_FIELDS = ('tag', 'attributes', 'text', 'children', 'tail', 'line')


class Element(tuple):
    """
    One XML element and what it holds, as written (module docstring).

    A frozen record: made as ``Element(tag, attributes, text, children, tail, line)`` (all
    but ``tag`` optional), its fields read by name. It is held in a tuple, made in C
    (``tuple.__new__``) where this module makes values in bulk, in about a quarter of the
    time of a record class's ``__init__``; but it reads as an lxml element: iterating,
    ``len``, ``in`` and indexing are over its children.

    Attributes
    ----------
    tag : str
        The name as written (``sensor``, ``gz::x``, ``a:b``).
    attributes : tuple of (str, str)
        Names as written and values, in document order (namespace declarations first).
    text : str or None
        The text before the first child (``None``: none, or only layout).
    children : tuple of Element
        The child elements.
    tail : str or None
        Text after the element inside its parent, when not only layout (mixed content).
    line : int or None
        Where it starts in its source; not part of the value.

    """

    __slots__ = ()

    if TYPE_CHECKING:
        tag: str
        attributes: tuple[tuple[str, str], ...]
        text: str | None
        children: tuple['Element', ...]
        tail: str | None
        line: int | None
    else:
        tag = _tuplegetter(0, 'The name as written.')
        attributes = _tuplegetter(1, 'The (name, value) of the attributes, in order.')
        text = _tuplegetter(2, 'The text before the first child, or None.')
        children = _tuplegetter(3, 'The child elements.')
        tail = _tuplegetter(4, 'Text after the element (mixed content), or None.')
        line = _tuplegetter(5, 'Where it starts in its source (not compared).')

    def __new__(cls, tag: str, attributes: Attributes = (),
                text: str | None = None, children: tuple['Element', ...] = (),
                tail: str | None = None, line: int | None = None) -> 'Element':
        return _new(cls, (tag, attributes, text, children, tail, line))

    def __getnewargs__(self) -> tuple[Any, ...]:  # copy, pickle (tuple's: the children)
        return _fields(self)

    def __repr__(self) -> str:
        shown = ', '.join(f'{name}={value!r}' for name, value in zip(_FIELDS, _fields(self)))
        return f'Element({shown})'

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Element:
            return NotImplemented
        return (self.tag == other.tag and self.attributes == other.attributes
                and self.text == other.text and self.tail == other.tail
                and self.children == other.children)

    def __ne__(self, other: object) -> bool:  # (tuple's own compares the lines too)
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __lt__(self, other: object) -> bool:  # not ordered (tuple's order would be its fields')
        return NotImplemented

    __le__ = __gt__ = __ge__ = __lt__

    def __hash__(self) -> int:
        return hash((self.tag, self.attributes, self.text, self.children, self.tail))

    def __bool__(self) -> bool:
        return True  # (lxml's elements are false without children; this one never is)

    def __contains__(self, element: object) -> bool:
        return element in self.children

    # --- read as an lxml element is read ----------------------------------------------------

    @property
    def sourceline(self) -> int | None:
        """Return :attr:`line` (lxml's name for it)."""
        return self.line

    @property
    def attrib(self) -> dict[str, str]:
        """Return the attributes as a dict (a copy)."""
        return dict(self.attributes)

    def get(self, key: str, default: str | None = None) -> str | None:
        """Return the value of attribute ``key``, or ``default``."""
        for name, value in self.attributes:
            if name == key:
                return value
        return default

    def keys(self) -> list[str]:
        """Return the attribute names in order."""
        return [name for name, _ in self.attributes]

    def items(self) -> list[tuple[str, str]]:
        """Return the ``(name, value)`` of the attributes in order."""
        return list(self.attributes)

    def __iter__(self) -> Iterator['Element']:
        return iter(self.children)

    def __len__(self) -> int:
        return len(self.children)

    def __getitem__(self, index: Any) -> Any:  # an Element, or a tuple of them
        return self.children[index]

    def iter(self, *tags: str) -> Iterator['Element']:  # noqa: A003 (lxml's name)
        """Yield this element and every one below it, depth first (those of ``tags`` if given)."""
        stack = [self]
        while stack:
            element = stack.pop()
            if not tags or element.tag in tags:
                yield element
            stack.extend(reversed(element.children))

    def iterchildren(self, tag: str | None = None) -> Iterator['Element']:
        """Yield the children (those called ``tag`` if given)."""
        return iter(self.children) if tag is None else \
            (child for child in self.children if child.tag == tag)

    def iterfind(self, path: str) -> Iterator['Element']:
        """Yield the elements at a plain path of tags (``'contact/collision'``), in order."""
        found = [self]
        for tag in path.split('/'):
            found = [child for element in found for child in element.children
                     if child.tag == tag]
        return iter(found)

    def find(self, path: str) -> 'Element | None':
        """Return the first element at a plain path of tags, or ``None``."""
        return next(self.iterfind(path), None)

    def findall(self, path: str) -> list['Element']:
        """Return the elements at a plain path of tags, in order."""
        return list(self.iterfind(path))

    def findtext(self, path: str, default: str | None = None) -> str | None:
        """Return the text of the first element at ``path`` (``''`` without), or ``default``."""
        found = self.find(path)
        return default if found is None else found.text or ''


_new = tuple.__new__  # _new(Element, (tag, attributes, text, children, tail, line))
_getitem = tuple.__getitem__
_ALL = slice(None)


def _fields(element: Element) -> tuple[Any, ...]:
    """Return ``(tag, attributes, text, children, tail, line)`` of ``element``, as a tuple."""
    return _getitem(element, _ALL)


# --- from and to lxml -------------------------------------------------------------------------

def from_lxml(element: 'etree._Element', *, tail: bool = False) -> Element:
    """
    Return an lxml element (and what it holds) as an :class:`Element`.

    Names are those written: ``::`` and prefixes the document did not declare as
    :func:`~sdf_tools.xmlio.parse.parse_xml` read them. A namespace declaration stays on
    the element that makes it, and one made outside the element for a name it uses is
    added to the element's own (as libxml2 writes a copy of the element). Comments and
    processing instructions are left out, as the parser drops them. With ``tail``, the
    element's own tail is kept (when not blank).
    """
    value = None
    if not _declares(element):
        try:  # most content: no namespace declared in it or used by it
            value = _plain(element)
        except _Namespaced:
            pass
    if value is None:
        parent = element.getparent()
        uses: list = []
        value = _convert(element, {} if parent is None else parent.nsmap, uses)
        if uses:  # what the element's ancestors declared: on the element, after its own
            value = _declare(value, uses)
    if tail and element.tail is not None and element.tail.strip(BLANK):
        value = _new(Element, (value.tag, value.attributes, value.text, value.children,
                               element.tail, value.line))
    return value


class _Namespaced(Exception):
    """A name in a namespace: :func:`_plain` cannot make the value."""


def _declares(element: 'etree._Element') -> bool:
    """Return whether ``element`` or one below it declares a namespace (lxml walks, in C)."""
    # (lxml is loaded, element is its: an import statement here cost more than the walk)
    for _ in modules['lxml.etree'].iterwalk(element, events=('start-ns',)):
        return True
    return False


def _plain(element: 'etree._Element', tail: str | None = None) -> Element:
    """
    Return ``element`` (with ``tail``) as a value where no namespace is declared.

    Leaves are made here (the fewest reads of lxml); raises :class:`_Namespaced` at the
    first name in a namespace (``{uri}name``).
    """
    children: list = []
    add = children.append
    for child in element:
        tag = child.tag
        if tag.__class__ is not str:
            continue  # a comment or processing instruction
        after = child.tail
        # Layout: only BLANK (no XML character is other ASCII white space), told in C in a
        # tenth of strip(BLANK)'s instructions (a test of each character against each).
        if after is not None and (after.isspace() and after.isascii() or not after):
            after = None
        if len(child):
            add(_plain(child, after))
            continue
        pairs = child.items()
        if pairs or not tag.isidentifier():  # (no '{uri}' nor _DCOLON, which holds '-')
            tag, pairs = _plain_names(tag, pairs)  # type: ignore[arg-type]  # _LXML_STUBS
        add(_new(Element, (tag, pairs or (), child.text, (), after, child.sourceline)))
    tag, pairs = _plain_names(element.tag, element.items())  # type: ignore[arg-type]
    text = element.text
    if text is not None and children and (text.isspace() and text.isascii() or not text):
        text = None  # layout, as a tail above
    return _new(Element, (tag, pairs, text, tuple(children), tail, element.sourceline))


def _plain_names(tag: str, pairs: list[tuple[str, str]]) -> tuple[str, Attributes]:
    """Return an element's name as written and its attributes as a tuple (:func:`_plain`)."""
    if tag[0] == '{':
        raise _Namespaced
    for key, _ in pairs:
        if key[0] == '{':
            raise _Namespaced
    return tag.replace(_DCOLON, '::'), tuple(pairs)


def parse_element(text: str, source: str = '<string>') -> Element:
    """Return the root of an XML text as an :class:`Element` (as ``parse_xml`` reads it)."""
    from sdf_tools.xmlio.parse import parse_xml  # lxml: only where text is read
    return from_lxml(parse_xml(text, source))


def _convert(element: 'etree._Element', scope: _Scope, uses: _Uses) -> Element:
    """
    Return ``element`` as a value (``scope``: the namespaces declared around it).

    Appends to ``uses`` the ``(prefix, uri)`` of the names of ``element`` and those below it
    whose namespace is declared outside it.
    """
    nsmap = element.nsmap
    own: tuple = ()
    if nsmap and nsmap != scope:
        own = tuple((p, u) for p, u in nsmap.items()
                    if scope.get(p) != u and not u.startswith(_UNDECLARED_NS))
    tag = element.tag
    if tag[0] == '{' or _DCOLON in tag:
        tag = _name(element, tag, nsmap, own, uses)
    attributes: Attributes = tuple(element.items())  # type: ignore[arg-type]  # _LXML_STUBS
    if attributes and any(key[0] == '{' for key, _ in attributes):
        attributes = tuple((_attribute_name(key, nsmap, own, uses) if key[0] == '{' else key,
                            value) for key, value in attributes)
    if own:
        attributes = tuple(('xmlns' if p is None else f'xmlns:{p}', u)
                           for p, u in own) + attributes
    children = []
    text = element.text
    for child in element:
        child_tag = child.tag
        if child_tag.__class__ is not str:
            continue
        if not len(child) and child_tag[0] != '{' and _DCOLON not in child_tag \
                and child.nsmap == nsmap:  # a leaf of plain names (most): here
            pairs = child.items()
            if not pairs or all(key[0] != '{' for key, _ in pairs):
                child_tail = child.tail
                children.append(Element(
                    child_tag, tuple(pairs), child.text, (),  # type: ignore[arg-type]
                    child_tail if child_tail is not None and child_tail.strip(BLANK) else None,
                    child.sourceline))  # type: ignore[arg-type]  # _LXML_STUBS
                continue
        below: list = [] if own else uses
        value = _convert(child, nsmap, below)
        child_tail = child.tail
        if child_tail is not None and child_tail.strip(BLANK):
            value = Element(value.tag, value.attributes, value.text, value.children,
                            child_tail, value.line)
        if own and below:  # declared here: not outside
            uses += [use for use in below if (use[0], use[1]) not in own]
        children.append(value)
    if children and text is not None and not text.strip(BLANK):
        text = None
    return Element(tag, attributes, text, tuple(children), None,
                   element.sourceline)  # type: ignore[arg-type]  # _LXML_STUBS


def _name(element: 'etree._Element', tag: str, nsmap: _Scope, own: _Own, uses: _Uses) -> str:
    """Return an element's name as written, noting the namespace it uses."""
    if tag[0] == '{':
        uri, _, local = tag[1:].partition('}')
        prefix = element.prefix
        if not uri.startswith(_UNDECLARED_NS) and (prefix, uri) not in own:
            uses.append((prefix, uri))
        tag = local if prefix is None else f'{prefix}:{local}'
    return tag.replace(_DCOLON, '::')


def _attribute_name(key: str, nsmap: _Scope, own: _Own, uses: _Uses) -> str:
    """Return a namespaced attribute's name as written (``a:b``, ``xml:lang``)."""
    uri, _, local = key[1:].partition('}')
    if uri == _XML_NAMESPACE:
        return f'xml:{local}'
    if uri.startswith(_UNDECLARED_NS):
        return f'{uri[len(_UNDECLARED_NS):]}:{local}'
    prefix = next((p for p, u in nsmap.items() if u == uri and p is not None), None)
    if (prefix, uri) not in own:
        uses.append((prefix, uri))
    return f'{prefix}:{local}'


def _declare(value: Element, uses: _Uses) -> Element:
    """Return ``value`` declaring the namespaces ``uses`` names, after its own declarations."""
    attributes = value.attributes
    count = 0
    while count < len(attributes) and _is_declaration(attributes[count][0]):
        count += 1
    declared = dict(attributes[:count])
    for prefix, uri in uses:
        declared.setdefault('xmlns' if prefix is None else f'xmlns:{prefix}', uri)
    return Element(value.tag, tuple(declared.items()) + attributes[count:], value.text,
                   value.children, value.tail, value.line)


def _is_declaration(name: str) -> bool:
    return name == 'xmlns' or name.startswith('xmlns:')


def to_lxml(element: Element, parent: 'etree._Element | None' = None,
            scope: dict[str | None, str] | None = None) -> 'etree._Element':
    """
    Return an lxml element holding ``element`` (appended to ``parent`` when given).

    Names get the forms :func:`~sdf_tools.xmlio.parse.parse_xml` gives them, which
    :func:`~sdf_tools.xmlio.parse.to_string` writes back as they were; ``scope`` holds the
    prefixes declared around it.
    """
    from lxml import etree
    scope = scope or {}
    nsmap: dict = {}
    attributes = []
    for key, value in element.attributes:
        if _is_declaration(key):
            nsmap[key[6:] or None] = value
        else:
            attributes.append((key, value))
    for name in (element.tag, *(key for key, _ in attributes)):
        prefix, colon, _ = name.partition(':')
        if colon and '::' not in name and prefix != 'xml' and prefix not in scope \
                and prefix not in nsmap:  # undeclared: as parse_xml reads it
            nsmap[prefix] = _UNDECLARED_NS + prefix
    if nsmap:
        scope = {**scope, **nsmap}
    made = etree.Element(_lxml_name(element.tag, scope, False), nsmap=nsmap or None) \
        if parent is None else \
        etree.SubElement(parent, _lxml_name(element.tag, scope, False), nsmap=nsmap or None)
    for key, value in attributes:
        made.set(_lxml_name(key, scope, True), value)
    made.text = element.text
    made.tail = element.tail
    for child in element.children:
        to_lxml(child, made, scope)
    return made


def _lxml_name(name: str, scope: dict[str | None, str], attribute: bool) -> str:
    """Return the lxml name of a name as written (its prefixes declared in ``scope``)."""
    if '::' in name:
        return name.replace('::', _DCOLON)
    prefix, colon, local = name.partition(':')
    if not colon:
        uri = None if attribute else scope.get(None)
        return name if uri is None else f'{{{uri}}}{name}'
    if prefix == 'xml':
        return f'{{{_XML_NAMESPACE}}}{local}'
    return f'{{{scope[prefix]}}}{local}'


# --- new values -------------------------------------------------------------------------------

def first_index(parent: Element, tag: str) -> int | None:
    """Return the index of the first child called ``tag``, or ``None``."""
    for index, child in enumerate(parent.children):
        if child.tag == tag:
            return index
    return None


def replace_child(parent: Element, index: int, child: Element) -> Element:
    """Return ``parent`` with its ``index``-th child replaced by ``child``."""
    children = parent.children
    return _with_children(parent, children[:index] + (child,) + children[index + 1:])


def appended(parent: Element, *children: Element) -> Element:
    """Return ``parent`` with ``children`` added after its own."""
    return _with_children(parent, parent.children + children)


def _with_children(parent: Element, children: tuple[Element, ...]) -> Element:
    return _new(Element, (parent.tag, parent.attributes, parent.text, children, parent.tail,
                          parent.line))


def with_attribute(element: Element, name: str, value: str) -> Element:
    """Return ``element`` with attribute ``name`` set (in its place, or last when new)."""
    pairs = element.attributes
    if any(key == name for key, _ in pairs):
        pairs = tuple((key, value if key == name else old) for key, old in pairs)
    else:
        pairs += ((name, value),)
    return Element(element.tag, pairs, element.text, element.children, element.tail,
                   element.line)


def with_text(element: Element, text: str | None) -> Element:
    """Return ``element`` holding ``text``."""
    return Element(element.tag, element.attributes, text, element.children, element.tail,
                   element.line)


def key_value(element: Element) -> str:
    """Return a setting's value: its ``value`` attribute if present, else its text, trimmed."""
    value = element.get('value')
    if value is None:
        value = element.text or ''
    return value.strip()


def with_key(parent: Element, key: str, value: str,
             on_overwrite: Callable[[str, str, str], object] | None = None) -> Element:
    """
    Return ``parent`` with ``<key>value</key>`` set the libsdformat way.

    An existing ``<key>`` is removed and the new one goes last; ``on_overwrite(key, old,
    new)`` is called when the old value differs.
    """
    children = parent.children
    index = first_index(parent, key)
    if index is not None:
        old = key_value(children[index])
        if old != value and on_overwrite is not None:
            on_overwrite(key, old, value)
        children = children[:index] + children[index + 1:]
    return _with_children(parent, children + (_new(Element, (key, (), value, (), None, None)),))


def ensure(parent: Element, tag: str) -> Element:
    """Return ``parent`` with a ``<tag>`` child: it is, or it gets an empty one last."""
    return parent if first_index(parent, tag) is not None else appended(parent, Element(tag))


def at_path(element: Element, path: tuple[str, ...], change: Callable[..., Element]) -> Element:
    """
    Return ``element`` with ``change(e)`` in the stead of the element ``e`` at ``path``.

    ``path`` is a tuple of tags, each the first child of that name; ``()`` is ``element``.
    """
    if not path:
        return change(element)
    index = first_index(element, path[0])
    if index is None:
        raise KeyError(f'<{element.tag}> has no <{path[0]}>')
    return replace_child(element, index, at_path(element.children[index], path[1:], change))


def ensure_path(element: Element, path: tuple[str, ...]) -> Element:
    """
    Return ``element`` with every element of ``path`` (first children of those tags).

    What is missing is added empty, last among its siblings (:func:`ensure` at each level);
    ``element`` itself when nothing is.
    """
    if not path:
        return element
    index = first_index(element, path[0])
    if index is None:
        missing = Element(path[-1])
        for tag in reversed(path[:-1]):
            missing = Element(tag, children=(missing,))
        return appended(element, missing)
    child = element.children[index]
    made = ensure_path(child, path[1:])
    return element if made is child else replace_child(element, index, made)


def stripped(element: Element) -> Element:
    """Return a copy whose texts are stripped of blanks (``None`` when empty), no tails."""
    text = element.text.strip() or None if element.text is not None else None
    return _new(Element, (element.tag, element.attributes, text,
                          tuple(map(stripped, element.children)), None, element.line))


# The stand-ins parse_xml uses while lxml holds a tree (xmlio.parse's, spelled here so that
# this module imports no lxml).
_DCOLON = '_-dcolon-_'
_UNDECLARED_NS = 'urn:sdf-tools:undeclared:'


def children_from_lxml(element: 'etree._Element') -> tuple[Element, ...]:
    """
    Return the child elements of an lxml element as values, each with its tail (not layout).

    As :func:`from_lxml` of each child with ``tail``: one conversion of ``element`` when it
    needs no namespace declaration (its children then need none either), else child by child.
    """
    whole = from_lxml(element)
    attributes = whole.attributes  # (namespace declarations first)
    if not attributes or not _is_declaration(attributes[0][0]):
        return whole.children
    return tuple(from_lxml(child, tail=True) for child in element
                 if child.tag.__class__ is str)
