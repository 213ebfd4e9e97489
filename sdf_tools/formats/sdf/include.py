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
SDFormat ``<include>``: the model (or light, or actor) it names, as libsdformat merges it.

:class:`IncludeReader` finds the file of an include's ``<uri>`` (through a
:class:`~sdf_tools.resources.models.ModelFinder`: ``model://``, relative paths, packages,
model.config), reads it, and returns what it includes (:class:`Included`): the one top-level
``<model>``, ``<light>`` or ``<actor>`` of that file, with what the include overrides, as
libsdformat 12 applies it:

* ``<name>`` replaces the included element's name;
* ``<pose>`` replaces its ``<pose>`` whole (value, ``relative_to``, ``degrees``,
  ``rotation_format``); without one, the file's own pose stays;
* ``<static>`` replaces the model's ``<static>``;
* ``<placement_frame>`` (it needs the include's ``<pose>``) replaces the model's
  ``placement_frame``: the pose then places that frame of the model;
* ``<plugin>`` elements are added to the included model's;
* ``merge="true"`` (SDFormat 1.9 merge-include; read as tinyxml2 reads a boolean attribute,
  so ``1`` and ``True`` too) merges the model into the model holding the include, as
  libsdformat 12 does (:attr:`Included.merge`; the model reader merges it): only a model
  may be merged, and only into a model;
* ``<experimental:params>`` (libsdformat's experimental parameter passing, which edits the
  included model) is refused with an error; other children are warned about.

The included elements stay in their own document, so that every message names the file and
line they were written at (:class:`SourcedValues`); the model walk reads them with the rules
of their file's ``<sdf version>``.

Limits: includes nest at most :data:`MAX_DEPTH` deep, a file that includes itself (directly
or not) is an error naming the chain, and the files read, counted once per inclusion, hold
at most ``max_bytes`` and :data:`MAX_INCLUDED_TAGS` in all: however the includes fan out
(files including the next one twice, eighteen deep, made 262,143 links), what they bring in
is bounded as one document is, and the include that goes past the limit is the error.

A world's include of a web URI (Gazebo Fuel) cannot be read, as nothing is downloaded. When
a model is asked for by name (``--model``), such includes are set aside, and
:meth:`IncludeReader.settle` makes each a warning if the model asked for is found, is not one
of them, and nothing else in the document is wrong (a pose or frame naming the include's
model is); else each is the error it would have been.
"""

from collections.abc import Callable
from collections.abc import Iterable
import os
import re

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf.content import check_document
from sdf_tools.formats.sdf.content import misspelt
from sdf_tools.records import record
from sdf_tools.resources.models import model_file
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ModelNotFoundError
from sdf_tools.resources.models import WEB_SCHEMES
from sdf_tools.worlds import World
from sdf_tools.xmlio.node import Node
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import DEFAULT_MAX_TAGS
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import ValueReader

#: Deepest nesting of includes (a world including a robot including a gripper is 2).
MAX_DEPTH = 32
#: Most tags (``<``) the files an include tree reads may hold in all, each file counted once
#: per inclusion: what the includes bring in (links, joints, models) grows with it. The limit
#: of one document: the includes of a file bring in no more than it could hold itself.
MAX_INCLUDED_TAGS = DEFAULT_MAX_TAGS
#: What an included file may hold at its top, in libsdformat's order of preference.
INCLUDABLE = ('model', 'actor', 'light')
# The children of <include> that are applied (others are warned about).
_APPLIED = frozenset({'uri', 'name', 'pose', 'static', 'placement_frame', 'plugin'})
# tinyxml2's integers (XMLUtil::ToInt: sscanf of %x after a 0x prefix, else of %d).
_HEX = re.compile(r'\s*0[xX]([0-9a-fA-F]+)')
_INT = re.compile(r'\s*([+-]?\d+)')

#: An SDFormat version: ``(major, minor)``.
Version = tuple[int, int]
#: A file read: ``(root, version, size, tags)``, or ``(message,)`` when it cannot be read.
_File = tuple[etree._Element, Version | None, int, int] | tuple[str]


class SourcedValues(ValueReader):
    """A :class:`ValueReader` whose locations name the file each element comes from."""

    __slots__ = ()

    def loc(self, element: Node) -> SourceLocation:
        """Return the location of an element: its own file's name (an included one's path)."""
        assert isinstance(element, etree._Element)  # the SDFormat reader reads lxml's tree
        url = element.getroottree().docinfo.URL
        return SourceLocation(self.source if url is None else url,
                              element.sourceline)  # type: ignore[arg-type]


def no_finder_error(v: ValueReader, elem: etree._Element, entity: str | None) -> None:
    """Report an ``<include>`` that a reader given no model finder cannot read."""
    uri = (elem.findtext('uri') or '').strip()
    v.error(elem, entity, f'<include> of {uri!r} cannot be resolved: this reader was given no '
            'way to find included models (sdf_tools.load and the command line give one: '
            '--resource-path, GZ_SIM_RESOURCE_PATH, ...); expand it first, e.g. with '
            '`gz sdf -p`', Code.INCLUDE)


def instruction_error(dropped: Diagnostic) -> str:
    """
    Return the error for a processing instruction :func:`parse_xml` dropped (its warning).

    libsdformat refuses such a document: tinyxml2 reads ``<?foo?>`` inside the root element
    as a malformed XML declaration (``XML_ERROR_PARSING_DECLARATION``).
    """
    what = dropped.message.partition(' is left out')[0]
    return f'{what}: libsdformat refuses the file (tinyxml2 reads none there)'


@record(slots=True, eq=False)
class Included:
    """What an ``<include>`` brings in, with its overrides (module docstring)."""

    kind: str                 # 'model', 'light' or 'actor'
    elem: etree._Element      # that element, in the included file
    name: str                 # the include's <name>, else the element's name
    include: etree._Element   # the <include>
    # the <pose> that places it: the include's, else the file's, or None
    pose: etree._Element | None
    static: etree._Element | None     # the <static> that applies (the include's first)
    placement: etree._Element | None  # the include's <placement_frame>
    plugins: tuple[etree._Element, ...]  # the include's <plugin> elements
    version: Version          # the included file's SDFormat version
    source: str               # the file read
    chain: tuple[str, ...]    # real paths of the files included to get here, outermost first
    merge: bool = False       # merge="true": merged into the model holding the include

    @property
    def folder(self) -> str:
        """Return the folder of the included file (relative URIs in it start there)."""
        return os.path.dirname(self.source)


class IncludeReader:
    """
    Resolves the ``<include>`` s of one document (module docstring).

    Parameters
    ----------
    values : SourcedValues
        Records the problems, each at the line of the file it is in.
    finder : ModelFinder
        Finds what URIs name.
    read_version : callable
        ``read_version(values, root) -> (major, minor) or None``: the rules a file is read
        with (reports what is wrong with its ``version``).
    newest : tuple
        The newest version the reader reads (model.config entries of newer ones are passed
        over).
    max_bytes : int
        Largest file, and most bytes read in all, counting a file once per inclusion.
    wanted : str or None
        The model asked for by name: a world's includes of web URIs wait for
        :meth:`settle` (module docstring).

    """

    __slots__ = ('v', 'finder', 'read_version', 'newest', 'max_bytes', 'wanted', '_files',
                 '_configs', '_read', '_tags', '_inclusions', '_unfetched')

    def __init__(self, values: SourcedValues, finder: ModelFinder,
                 read_version: Callable[[ValueReader, etree._Element], Version | None],
                 newest: Version, max_bytes: int = DEFAULT_MAX_BYTES,
                 wanted: str | None = None) -> None:
        self.v = values
        self.finder = finder
        self.read_version = read_version
        self.newest = newest
        self.max_bytes = max_bytes
        self._files: dict[str, _File] = {}   # real path -> (root, version, size, tags) or
        self._configs: dict[str, None] = {}  # (message,); the model.config files read
        self._read = 0                       # bytes included so far
        self._tags = 0                       # tags included so far
        self._inclusions = 0                 # inclusions so far
        self.wanted = wanted
        # (include's name, <uri>, entity, message)
        self._unfetched: list[tuple[str | None, etree._Element, str | None, str]] = []

    @property
    def files(self) -> tuple[str, ...]:
        """
        Return the files read so far, each once, as their URIs were found, first read first.

        The SDFormat files, then the model folders' ``model.config`` (or ``manifest.xml``)
        files that named them.
        """
        return tuple(entry[0].getroottree().docinfo.URL for entry in self._files.values()
                     if isinstance(entry[0], etree._Element)) + tuple(self._configs)

    def read(self, include: etree._Element, folder: str | None, chain: tuple[str, ...],
             entity: str | None, kinds: tuple[str, ...] = INCLUDABLE) -> Included | None:
        """
        Return what ``include`` brings in, or ``None`` after reporting why it cannot.

        Parameters
        ----------
        include : lxml.etree._Element
            The ``<include>``.
        folder : str or None
            The folder of the file holding it (relative URIs start there).
        chain : tuple of str
            The real paths of the files included to get to it, outermost first.
        entity : str or None
            What holds it, for messages (``model 'outer'``, ``world 'w'``).
        kinds : tuple of str
            What it may include here (a model includes only models).

        """
        v = self.v
        uri_elem = include.find('uri')
        uri = (uri_elem.text or '').strip() if uri_elem is not None else ''
        if uri_elem is None or not uri:
            v.error(include, entity, '<include> needs a <uri>', Code.MISSING_ELEMENT)
            return None
        what = f'<include> of {uri!r}'
        merge = merged(include)
        if merge and 'light' in kinds:   # not in a <model>
            holder = include.getparent()
            assert holder is not None  # the reader met it in a <world>
            v.error(include, entity, f'{what}: merge="true" merges a model into the <model> '
                    f'holding the include, not into a <{holder.tag}> (libsdformat '
                    'refuses it)', Code.INCLUDE)
            return None
        path = self._path(uri, uri_elem, folder, entity, world='light' in kinds)
        if path is None:
            return None
        real = os.path.realpath(path)
        if real in chain or len(chain) >= MAX_DEPTH:
            shown = ' -> '.join([*chain, real])
            problem = 'includes itself' if real in chain else \
                f'nests includes more than {MAX_DEPTH} deep'
            v.error(uri_elem, entity, f'{what} {problem}: {shown}',
                    Code.CYCLE if real in chain else Code.TOO_LARGE)
            return None
        document = self._document(path, real, uri_elem, entity, what)
        if document is None:
            return None
        root, version = document
        elem = self._top(root, uri_elem, entity, what, path)
        if elem is None:
            return None
        if merge and elem.tag != 'model':
            v.error(uri_elem, entity, f'{what} names a <{elem.tag}>: only a model can be '
                    'merged (merge="true"; libsdformat refuses it)', Code.INCLUDE)
            return None
        if elem.tag not in kinds:   # libsdformat 12 puts it there, and nothing reads it
            v.warn(uri_elem, entity, f'{what} names a <{elem.tag}>, which sdf_tools keeps '
                   f"only in a world (here {' or '.join(f'<{k}>' for k in kinds)}); it is "
                   'left out', Code.DROPPED)
            return None
        return self._included(include, elem, version, path, (*chain, real), entity, merge)

    def settle(self, worlds: Iterable[World]) -> None:
        """Report the web includes set aside for the model asked for (module docstring)."""
        unfetched, self._unfetched = self._unfetched, []
        names = [robot.name for world in worlds for robot in world.models]
        needed = bool(self.v.reporter.errors) or self.wanted is None or \
            names.count(self.wanted) != 1
        for name, uri_elem, entity, message in unfetched:
            if needed or name == self.wanted:
                self.v.error(uri_elem, entity, message, Code.INCLUDE)
            else:
                uri = str(uri_elem.text).strip()  # not empty: it was looked for
                self.v.warn(uri_elem, entity, f'<include> of {uri!r} is left out: sdf_tools '
                            'does not download models, and the model asked for '
                            f'({self.wanted!r}) does not need it', Code.INCLUDE)

    def _path(self, uri: str, uri_elem: etree._Element, folder: str | None,
              entity: str | None, world: bool) -> str | None:
        """Return the SDFormat file a URI names (a model folder's model.config decides)."""
        v = self.v
        try:
            path = self.finder.find(uri, folder)
            if os.path.isdir(path):
                folder_path = path
                path, note = model_file(path, self.newest)
                config = os.path.join(folder_path, 'model.config')
                self._configs[config if os.path.isfile(config)
                              else os.path.join(folder_path, 'manifest.xml')] = None
                if note is not None:
                    v.warn(uri_elem, entity, note, Code.DEPRECATED)
        except ModelNotFoundError as e:
            message = f'<include> of {uri!r} cannot be resolved: {e}'
            if world and self.wanted is not None and uri.startswith(WEB_SCHEMES):
                include = uri_elem.getparent()
                assert include is not None  # the <uri> of an <include>
                name = (include.findtext('name') or '').strip() or None
                self._unfetched.append((name, uri_elem, entity, message))
            else:
                v.error(uri_elem, entity, message, Code.INCLUDE)
            return None
        return path

    def _document(self, path: str, real: str, uri_elem: etree._Element, entity: str | None,
                  what: str) -> tuple[etree._Element, Version] | None:
        """Return ``(root, version)`` of an included file (read once), or ``None``."""
        v = self.v
        cached = self._files.get(real)
        if cached is None:
            cached = self._files[real] = self._parse(path)
        if len(cached) == 1:
            v.error(uri_elem, entity, f'{what}: {cached[0]}', Code.INCLUDE)
            return None
        root, version, size, tags = cached
        self._read += size
        self._tags += tags
        if self._read > self.max_bytes:
            v.error(uri_elem, entity, f'{what}: the included files hold more than '
                    f'{self.max_bytes} bytes in all (each inclusion counts)', Code.TOO_LARGE)
            return None
        if self._tags > MAX_INCLUDED_TAGS:
            v.error(uri_elem, entity, f'{what}: the included files hold more than '
                    f'{MAX_INCLUDED_TAGS} tags in all (each inclusion counts; this one would '
                    f'be inclusion {self._inclusions + 1})', Code.TOO_LARGE)
            return None
        self._inclusions += 1
        if version is None:
            return None
        return root, version

    def _parse(self, path: str) -> _File:
        """Return ``(root, version, size, tags)`` of a file, or ``(message,)`` if unreadable."""
        try:
            if not os.path.isfile(path):
                return (f'{path} is not a file',)
            with open(path, 'rb') as f:
                data = f.read(self.max_bytes + 1)
            dropped: list[Diagnostic] = []  # processing instructions: libsdformat refuses it
            root = parse_xml(data, path, max_bytes=self.max_bytes, instructions=dropped)
            if dropped:
                return (f'{dropped[0].location}: {instruction_error(dropped[0])}',)
        except OSError as e:
            return (f'cannot read {path}: {e.strerror}',)
        except SdfToolsError as e:
            return (str(e),)
        root.getroottree().docinfo.URL = path   # SourcedValues.loc names this file
        if root.tag != 'sdf':
            return (f'{path} is not SDFormat: its root element is <{root.tag}>',)
        version = self.read_version(self.v, root)
        if version is not None:
            check_document(self.v, root, version)
        return root, version, len(data), data.count(b'<')

    def _top(self, root: etree._Element, uri_elem: etree._Element, entity: str | None,
             what: str, path: str) -> etree._Element | None:
        """Return the one top-level model, actor or light of an included file (libsdformat)."""
        v = self.v
        found = {kind: [c for c in root if c.tag == kind] for kind in INCLUDABLE}
        kinds = [kind for kind in INCLUDABLE if found[kind]]
        if not kinds:
            v.error(uri_elem, entity, f'{what}: {path} holds no top-level <model>, <actor> or '
                    '<light> to include', Code.INCLUDE)
            return None
        for other in kinds[1:]:
            v.error(found[other][0], entity, f'{what}: the file holds a <{other}> besides '
                    f'its <{kinds[0]}>; an included file holds one of them', Code.INCLUDE)
        if len(found[kinds[0]]) > 1:
            v.error(found[kinds[0]][1], entity, f'{what}: the file holds more than one '
                    f'<{kinds[0]}>; an included file holds one', Code.INCLUDE)
        return found[kinds[0]][0]

    def _included(self, include: etree._Element, elem: etree._Element, version: Version,
                  path: str, chain: tuple[str, ...], entity: str | None,
                  merge: bool) -> Included | None:
        """Apply the include's overrides (module docstring) to what it names."""
        v = self.v
        children: dict[str, list[etree._Element]] = {}
        for child in include:
            if isinstance(child.tag, str):
                children.setdefault(child.tag, []).append(child)
        for tag, items in children.items():
            shown = written(items[0])
            if shown == 'experimental:params':   # it edits the model: reading without it lies
                v.error(items[0], entity, '<include> <experimental:params> (parameter passing, '
                        'an experimental libsdformat feature) is not supported', Code.INCLUDE)
                return None
            if tag not in _APPLIED and not misspelt('model/include', tag):
                v.warn(items[0], entity, f'<include> child <{shown}> is not applied by '
                       'sdf_tools', Code.DROPPED)
            elif tag != 'plugin' and len(items) > 1:
                v.error(items[1], entity, f'<include> has more than one <{tag}>',
                        Code.REPEATED_ELEMENT)
        name_elem = _first(children, 'name')
        name = (name_elem.text or '').strip() if name_elem is not None else None
        if name is None:
            name = (elem.get('name') or '').strip()
        pose = _first(children, 'pose')
        placement = _first(children, 'placement_frame')
        if placement is not None and pose is None:
            v.error(placement, entity, '<include> <placement_frame> needs a <pose> in the '
                    'include (the pose the frame is placed at)', Code.MISSING_ELEMENT)
            return None
        static = _first(children, 'static')
        if elem.tag != 'model':
            static = placement = None
        own = [c for c in elem if c.tag == 'pose']
        return Included(elem.tag, elem, name, include,
                        pose if pose is not None else (own[0] if own else None),
                        static if static is not None else elem.find('static'), placement,
                        tuple(children.get('plugin', ())), version, path, chain, merge)


def merged(include: etree._Element) -> bool:
    """
    Return whether an ``<include>`` is a merge-include, as libsdformat reads ``merge``.

    tinyxml2's ``BoolAttribute``: an integer (decimal, or hexadecimal after ``0x``) is true
    unless 0; else only ``true``, ``True`` and ``TRUE`` are true.
    """
    text = include.get('merge')
    if text is None:
        return False
    number = _HEX.match(text) or _INT.match(text)
    if number is not None:
        return int(number.group(1), 16 if number.re is _HEX else 10) != 0
    return text in ('true', 'True', 'TRUE')


def written(element: etree._Element) -> str:
    """Return an element's name as written: ``prefix:name``, without a namespace URI."""
    name = local_name(element)
    if name.startswith('{'):   # a declared namespace
        name = name.partition('}')[2]
        if element.prefix:
            name = f'{element.prefix}:{name}'
    return name


def _first(children: dict[str, list[etree._Element]], tag: str) -> etree._Element | None:
    items = children.get(tag)
    return items[0] if items else None
