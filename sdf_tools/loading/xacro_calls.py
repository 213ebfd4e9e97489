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
The macro calls of a xacro expansion: what each made, where it is written, why one failed.

While xacro runs, :mod:`.xacro` records each macro call (:class:`Calls`): the call element
as written (its name and attributes: xacro has not evaluated them yet), and the elements its
expansion put where it was. Afterwards:

* :meth:`Calls.of_elements` gives, for each element of the output, the calls whose
  expansion made it, innermost first;
* :func:`~.xacro_map.call_sites` finds where a call is written: the one element of the xacro
  files with that name and those attributes (several such elements: no answer);
* :func:`call_failure` explains a call xacro refused, at its line, with the nearest name:
  an unknown macro (``<xacro:wheell>``: did you mean ``<xacro:wheel>``?) or a parameter
  the macro does not have (``colour``: did you mean ``color``?).
"""

from collections.abc import Iterable
from xml.dom import minidom

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SourceLocation
from sdf_tools.loading.xacro_map import Call
from sdf_tools.loading.xacro_map import call_sites
from sdf_tools.loading.xacro_map import Files
from sdf_tools.loading.xacro_map import located
from sdf_tools.loading.xacro_map import XACRO_ELEMENTS
from sdf_tools.source_map import call_note

#: How xacro's refusals of a call begin (the others carry the macro: ``XacroException.macros``).
_UNKNOWN_MACRO = 'unknown macro name: '
_INVALID_PARAMETER = 'Invalid parameter "'

#: A call being expanded: its element, name, attributes as written and the macros it can
#: name (xacro's table of them).
Active = tuple[minidom.Element, str, tuple[tuple[str, str], ...], object]


class Calls:
    """
    The macro calls of one expansion: those running, and the elements each inserted.

    ``active`` holds ``(element, name, attributes as written, macros)`` of each call being
    expanded, innermost last (left as it is when a call fails); ``inserted`` maps the ``id``
    of each element a call's expansion inserted to ``(element, calls)``: the
    ``(name, attributes)`` of that call and of each call whose expansion then moved it,
    innermost first.
    """

    __slots__ = ('active', 'inserted')

    def __init__(self) -> None:
        self.active: list[Active] = []
        self.inserted: dict[int, tuple[minidom.Node, tuple[Call, ...]]] = {}

    def insert(self, nodes: Iterable[minidom.Node]) -> None:
        """Record that the innermost active call put ``nodes`` where it was."""
        call = self.active[-1][1:3]
        for node in nodes:
            entry = self.inserted.get(id(node))
            made = entry[1] if entry is not None and entry[0] is node else ()
            self.inserted[id(node)] = (node, made + (call,))

    def of_elements(self, doc: minidom.Document) -> tuple[tuple[Call, ...], ...]:
        """
        Return, for each element of xacro's output ``doc``, the calls that made it.

        In document order (as lxml iterates the text xacro writes of ``doc``), each a tuple
        of ``(name, attributes)``, innermost first; ``()`` when no macro was called.
        """
        if not self.inserted:
            return ()
        root = doc.documentElement
        assert root is not None  # xacro parsed a document: it has one
        made: list[tuple[Call, ...]] = []
        stack: list[tuple[minidom.Node, tuple[Call, ...]]] = [(root, ())]
        while stack:  # an element, then its children
            node, chain = stack.pop()
            entry = self.inserted.get(id(node))
            if entry is not None and entry[0] is node:
                chain = entry[1] + chain
            made.append(chain)
            stack.extend((child, chain) for child in reversed(node.childNodes)
                         if child.nodeType == child.ELEMENT_NODE)
        return tuple(made)


def call_failure(e: Exception, active: list[Active], files: Files) -> Diagnostic | None:
    """
    Return the error for a macro call xacro refused, or ``None`` when ``e`` is not one.

    ``active`` is :attr:`Calls.active` when xacro failed (the refused call last), ``files``
    the ``(name, bytes)`` of the files it read. The error is at the call's line, names the
    nearest macro or parameter, and the calls it was expanded from.
    """
    message = str(e.args[0]) if e.args and e.args[0] else ''
    macros = getattr(e, 'macros', None)
    if not active or not (macros or message.startswith(_UNKNOWN_MACRO)):
        return None
    sites = call_sites(files)
    _, name, attributes, known = active[-1]
    where = located([(name, attributes)], sites)
    hint = ''
    if message.startswith(_UNKNOWN_MACRO):
        match = _nearest(name[len('xacro:'):], _macro_names(known) + XACRO_ELEMENTS)
        hint = f'; did you mean <xacro:{match}>?' if match else ''
    elif message.startswith(_INVALID_PARAMETER) and macros:
        given = message[len(_INVALID_PARAMETER):].rstrip('"')
        params = [p.lstrip('*') for p in macros[0].params]
        match = _nearest(given, params)
        hint = (f' of <{name}> (its parameters: {", ".join(params) or "none"})'
                + (f'; did you mean {match}?' if match else ''))
    chain = located([call[1:3] for call in reversed(active[:-1])], sites)
    return Diagnostic(f'xacro failed: {message}{hint}{call_note(chain)}',
                      where[0][1] if where else SourceLocation(files[0][0]), code=Code.XACRO)


def expansion_note(files: Files, active: list[Active]) -> str:
    """Return what a failure adds about the macro calls running (:func:`call_note`)."""
    if not active:
        return ''
    return call_note(located([call[1:3] for call in reversed(active)], call_sites(files)))


def _macro_names(macros: object) -> tuple[str, ...]:
    """Return the names of the macros a call can name (``ns.name`` in a namespace)."""
    names: dict[str, None] = {}
    table = macros
    while isinstance(table, dict):
        for key, value in table.items():
            names[key] = None
            if isinstance(value, dict):  # a namespace (xacro:include ns=...)
                names.update((f'{key}.{inner}', None) for inner in value)
        table = getattr(table, 'parent', None)
    return tuple(names)


def _nearest(name: str, known: Iterable[str]) -> str | None:
    import difflib  # here: only a failed call needs it
    match = difflib.get_close_matches(name, list(known), n=1)
    return match[0] if match else None
