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
Where the elements of a xacro expansion come from, so that diagnostics name lines users see.

xacro builds its output with ``minidom``, which keeps no line numbers, and drops the
whitespace between elements: a reader's ``file (expanded by xacro):1`` names a line of a
document nobody has. The readers know nothing of xacro (they read text under a source
name); the mapping happens around them, in three steps:

1. :func:`map_expansion` lays the expansion out one element per line, so that a line of it
   names one element, and works out which element of the xacro files (the document and
   every file it includes, read with the line-aware parser) produced each element;
2. the reader reads that text under the expansion's label, so what it reports is located in
   the expansion;
3. :class:`SourceMap` rewrites every such location (the :class:`~sdf_tools.errors.Diagnostic`
   s of readers, converters and compilers, an error's diagnostics, the model's elements with
   :meth:`~sdf_tools.model.Robot.relocated`) to the xacro file and line of the element, or,
   when that cannot be known, to the expansion written with ``--keep-expanded`` and its
   line, or else to the document with the element's path
   (``robot.urdf.xacro: /robot/joint[@name='elbow']/limit``). A line of the hidden expansion
   is never shown.

How an element is identified (it must be right when it answers, and silent otherwise):

* every element xacro can copy into the output is a *candidate*: each element of the files
  but the ``xacro:`` ones (``xacro:element`` is a candidate with a computed name), matched
  by name, attribute names and values, and, for a leaf, its text. A value with ``${...}`` or
  ``$(...)`` matches any text in their place; ``xacro:`` attributes are ignored (xacro drops
  them) and an element with ``xacro:attribute`` children may have more attributes;
* an element of the expansion whose only candidate is one element of the files comes from
  it, written there or in a macro: every output element is a copy of some candidate, and
  the matching never rejects the real one;
* among several candidates, those whose parent in their file cannot be the source of the
  expanded element's parent are set aside, unless they can be moved (the top elements of a
  macro body, of a block given to a macro or of an included file, which land wherever they
  are inserted); one left is the answer, several are no answer;
* a line of the layout holding two element starts (mixed content) is no answer either.
"""

from collections import Counter
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
import re

from lxml import etree

from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import SourceLocation
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.source_map import SourceMap
from sdf_tools.xmlio.parse import attribute_items
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import to_string

# A substitution, as xacro's lexer reads the simple ones (no braces or parentheses inside).
_SUBSTITUTION = re.compile(r'\$\{[^{}]*\}|\$\([^()]*\)')
# xacro elements that only keep or drop their content where it is.
_CONDITIONS = ('if', 'unless')
# xacro elements that insert nothing where they are (the others, calls, blocks and includes,
# insert the content of a macro, a block or a file).
_DEFINITIONS = ('macro', 'property', 'arg')
#: xacro's own elements (a macro cannot be named like one of them and called).
XACRO_ELEMENTS = ('arg', 'attribute', 'call', 'element', 'if', 'include', 'insert_block',
                  'macro', 'property', 'unless')
# Those that are not macro calls.
_NOT_CALLS = frozenset(XACRO_ELEMENTS) - {'call'}

#: The files xacro read: ``(name, bytes)``, the document first.
Files = Sequence[tuple[str, bytes]]
#: A macro call as xacro sees it: its name (``xacro:wheel``) and its attributes as written.
Call = tuple[str, Iterable[tuple[str, str]]]
#: Where calls are written: ``(name, frozenset of (attribute, value))`` -> their locations.
Sites = dict[tuple[str, frozenset[tuple[str, str]]], list[SourceLocation]]
# A name, attribute value or text as written, or a pattern of what its substitutions make.
_Pattern = str | re.Pattern[str]


def map_expansion(text: str, files: Files, label: str,
                  calls: Sequence[Sequence[Call]] = ()) -> tuple[str, SourceMap]:
    """
    Lay a xacro expansion out one element per line, and map its lines to the xacro files.

    Parameters
    ----------
    text : str
        xacro's output.
    files : sequence of (str, bytes)
        The files xacro read, the document first (:class:`~.xacro_expansion.Expansion`).
    label : str
        The name the expansion will be read under.
    calls : tuple
        For each element of ``text``, the macro calls that made it
        (:attr:`~.xacro.Expansion.calls`): the map names where each is written.

    Returns
    -------
    text : str
        The expansion, indented by two spaces, comments dropped (xacro's output itself when
        it is not acceptable XML: the reader then reports why).
    SourceMap
        Where its lines come from.

    """
    document = files[0][0]
    try:
        root = parse_xml(text, label)
    except SdfToolsError:
        return text, SourceMap(label, document)
    etree.indent(root, space='  ')
    laid_out = to_string(root, declaration=True)
    root = parse_xml(laid_out, label)
    starts = Counter(e.sourceline for e in root.iter(etree.Element))
    index = _Candidates(files)
    lines, paths, made = {}, {}, {}
    sites = call_sites(files) if calls else {}
    for number, (element, path, found) in enumerate(index.match(root)):
        line = element.sourceline
        if starts[line] == 1:
            paths[line] = path
            if found is not None:
                lines[line] = found
            chain = located(calls[number], sites) if number < len(calls) else ()
            if chain:
                made[line] = chain
    if len(calls) != sum(starts.values()):
        made = {}  # not one element of xacro's output each: no call is named
    return laid_out, SourceMap(label, document, lines, paths, calls=made)


def call_sites(files: Files) -> Sites:
    """
    Return where the macro calls of the xacro files are written.

    ``files``: ``(name, bytes)`` of each file xacro read. The result maps ``(name,
    attributes)`` as xacro sees a call (``xacro:wheel``, a frozenset of ``(attribute,
    value)``) to the :class:`SourceLocation` of each element written so.
    """
    sites: Sites = {}
    for name, data in files:
        try:
            root = parse_xml(data, name)
        except SdfToolsError:
            continue  # xacro read it: only a file changed since can fail here
        for element in root.iter(etree.Element):
            if element.prefix != 'xacro' or etree.QName(element).localname in _NOT_CALLS:
                continue
            attributes = frozenset((_attribute_name(element, key), value)
                                   for key, value in attribute_items(element))
            key = (f'xacro:{etree.QName(element).localname}', attributes)
            sites.setdefault(key, []).append(SourceLocation(name, _line(element)))
    return sites


def located(chain: Iterable[Call], sites: Sites) -> tuple[tuple[str, SourceLocation], ...]:
    """Return ``(name, location)`` of each call of ``chain`` while its site is known."""
    found = []
    for name, attributes in chain:
        where = sites.get((name, frozenset(attributes)), ())
        if len(where) != 1:
            break
        found.append((name, where[0]))
    return tuple(found)


@record(slots=True, eq=False)
class _Candidate:
    """An element of a xacro file that xacro may copy into the output."""

    location: SourceLocation
    name: _Pattern             # str, or a compiled pattern (xacro:element)
    attributes: dict[str, _Pattern]
    text: _Pattern | None      # leaves: str or compiled pattern; None: not compared
    parent: '_Candidate | None' = None  # the candidate above it in its file, or None
    movable: bool = False      # lands wherever it is inserted (module docstring)
    more_attributes: bool = False
    children: list['_Candidate'] = field(default_factory=list)  # always copied with it
    inserts: bool = False      # holds markup that inserts movable elements in it

    def matches(self, name: str, attributes: dict[str, str], text: str | None) -> bool:
        """Return whether xacro can have made an element (``text``: a leaf's, or None)."""
        if not _fits(self.name, name):
            return False
        if self.more_attributes:
            if not self.attributes.keys() <= attributes.keys():
                return False
        elif self.attributes.keys() != attributes.keys():
            return False
        if not all(_fits(p, attributes[k]) for k, p in self.attributes.items()):
            return False
        return self.text is None or (text is not None and _fits(self.text, text))


class _Candidates:
    """Every candidate of the xacro files, by name (module docstring)."""

    __slots__ = ('made', 'by_key', 'by_name', 'computed', 'root', 'any_attributes', 'seen')

    def __init__(self, files: Files) -> None:
        self.made: list[_Candidate] = []  # every candidate
        self.any_attributes = False     # a xacro:attribute that may land anywhere
        self.root: _Candidate | None = None
        for number, (name, data) in enumerate(files):
            try:
                root = parse_xml(data, name)
            except SdfToolsError:
                continue  # xacro read it: only a file changed since can fail here
            if number == 0:
                self.root = self._add(root, name, None, False)
                self._walk(root, name, self.root, False)
            else:  # an included file's content lands where it is included
                self._walk(root, name, None, True)
        # an element's name, attributes, text -> matches
        self.seen: dict[tuple[str, tuple[tuple[str, str], ...], str | None],
                        list[_Candidate]] = {}
        # Looked up by name and attribute names, or by name only (more attributes allowed).
        self.by_key: dict[tuple[str, frozenset[str]], list[_Candidate]] = {}
        self.by_name: dict[str, list[_Candidate]] = {}
        self.computed: list[_Candidate] = []  # xacro:element with a computed name
        for candidate in self.made:
            if not isinstance(candidate.name, str):
                self.computed.append(candidate)
            elif candidate.more_attributes or self.any_attributes:
                candidate.more_attributes = True
                self.by_name.setdefault(candidate.name, []).append(candidate)
            else:
                key = (candidate.name, frozenset(candidate.attributes))
                self.by_key.setdefault(key, []).append(candidate)

    def candidates(self, element: etree._Element, name: str) -> list[_Candidate]:
        """Return the candidates that can have made ``element`` (descriptions repeat)."""
        attributes = {_attribute_name(element, k): v for k, v in attribute_items(element)}
        text = (element.text or '').strip() if len(element) == 0 else None
        key = (name, tuple(attributes.items()), text)
        found = self.seen.get(key)
        if found is None:
            found = self.seen[key] = [
                c for c in (*self.by_key.get((name, frozenset(attributes)), ()),
                            *self.by_name.get(name, ()), *self.computed)
                if c.matches(name, attributes, text)]
        return found

    def _walk(self, parent: etree._Element, file: str, above: _Candidate | None, movable: bool,
              always: bool = True) -> None:
        """Add the candidates under ``parent``; ``always``: copied whenever ``above`` is."""
        for child in parent.iterchildren(etree.Element):
            kind = etree.QName(child).localname if child.prefix == 'xacro' else None
            if kind is None or kind == 'element':
                candidate = self._add(child, file, above, movable)
                if always and not movable and above is not None:
                    above.children.append(candidate)
                self._walk(child, file, candidate, False)
            elif kind in _CONDITIONS:
                self._walk(child, file, above, movable, False)
            elif kind == 'attribute':
                if above is None or movable:
                    self.any_attributes = True
                else:
                    above.more_attributes = True
            else:  # a macro, a call, a block, an include, ...: its content moves
                if above is not None and kind not in _DEFINITIONS:
                    above.inserts = True
                self._walk(child, file, above, True, False)

    def _add(self, element: etree._Element, file: str, above: _Candidate | None,
             movable: bool) -> _Candidate:
        attributes = {}
        for key, value in attribute_items(element):
            attribute = _attribute_name(element, key)
            if not attribute.startswith('xacro:'):
                attributes[attribute] = _pattern(value)
        name: _Pattern
        if element.prefix == 'xacro':  # xacro:element: its name is xacro:name
            name = _pattern(element.get(_xacro_name(element), ''))
        else:
            name = _qualified(element)
        text = _pattern((element.text or '').strip()) if len(element) == 0 else None
        candidate = _Candidate(SourceLocation(file, _line(element)), name, attributes,
                               text, above, movable)
        self.made.append(candidate)
        return candidate

    def match(self, root: etree._Element
              ) -> Iterator[tuple[etree._Element, str, SourceLocation | None]]:
        """Yield ``(element, path, location or None)`` for each element of the expansion."""
        elements = list(root.iter(etree.Element))
        found = {root: [self.root] if self.root is not None else []}
        for element in elements[1:]:
            found[element] = self.candidates(element, _qualified(element))
        self._by_parents(elements, found)
        # A candidate whose children, always copied with it, are not all there did not
        # produce the element.
        for element in reversed(elements):
            below = set()
            for child in element.iterchildren(etree.Element):
                below.update(found[child])
            found[element] = [c for c in found[element]
                              if all(d in below for d in c.children)]
        self._by_parents(elements, found)
        paths = {root: f'/{_qualified(root)}'}
        for element in elements:
            for child, step in _steps(element).items():
                paths[child] = f'{paths[element]}/{step}'
            candidates = found[element]
            yield (element, paths.pop(element),
                   candidates[0].location if len(candidates) == 1 else None)

    @staticmethod
    def _by_parents(elements: list[etree._Element],
                    found: dict[etree._Element, list[_Candidate]]) -> None:
        """
        Set aside candidates whose parent cannot be the element's (module docstring).

        A candidate that is not movable comes with its parent; a movable one lands in an
        element whose markup inserts something (a call, a block, an include).
        """
        for element in elements[1:]:
            parent = element.getparent()
            assert parent is not None  # (not the root)
            above = set(found[parent])
            if len(found[element]) > 1 and above:
                inserted = any(p.inserts for p in above)
                found[element] = [c for c in found[element]
                                  if c.parent in above or (c.movable and inserted)]


def _pattern(text: str) -> _Pattern:
    """Return ``text`` (no substitution), or a pattern its substitutions can produce."""
    if '$' not in text:
        return text
    parts = _SUBSTITUTION.split(text)
    if any('$' in part for part in parts):  # nested, escaped ($$): keep what is sure
        first = text.index('$')
        last = max(text.rfind('}'), text.rfind(')')) + 1
        parts = [text[:first], text[max(last, first):]]
    return re.compile('.*?'.join(map(re.escape, parts)), re.DOTALL)


def _fits(pattern: _Pattern, text: str) -> bool:
    if isinstance(pattern, str):
        return pattern == text
    return pattern.fullmatch(text) is not None


def _qualified(element: etree._Element) -> str:
    """Return an element's name as written: ``prefix:name`` for any namespace."""
    if element.prefix is None or element.prefix == 'xacro':
        return local_name(element)
    return f'{element.prefix}:{etree.QName(element).localname}'


def _attribute_name(element: etree._Element, key: str) -> str:
    """Return an attribute's name as written (``prefix:name``)."""
    if not key.startswith('{'):
        return key
    uri, _, name = key[1:].partition('}')
    prefix = next((p for p, u in element.nsmap.items() if u == uri and p), None)
    return name if prefix is None else f'{prefix}:{name}'


def _xacro_name(element: etree._Element) -> str:
    """Return the key of an element's ``xacro:name`` attribute."""
    return next((k for k, _ in attribute_items(element)
                 if _attribute_name(element, k) == 'xacro:name'),
                'xacro:name')


def _line(element: etree._Element) -> int | None:
    """Return an element's line (lxml-stubs 0.5.1 types it as ``...``; lxml: int or None)."""
    return element.sourceline  # type: ignore[return-value]


def _steps(parent: etree._Element) -> dict[etree._Element, str]:
    """Return each child's step in a path: its name, and ``[@name=...]`` or its number."""
    children = list(parent.iterchildren(etree.Element))
    counts = Counter(child.tag for child in children)
    numbers: Counter[str] = Counter()
    steps = {}
    for child in children:
        name = _qualified(child)
        numbers[child.tag] += 1
        if child.get('name') is not None:
            steps[child] = f"{name}[@name='{child.get('name')}']"
        elif counts[child.tag] > 1:
            steps[child] = f'{name}[{numbers[child.tag]}]'
        else:
            steps[child] = name
    return steps
