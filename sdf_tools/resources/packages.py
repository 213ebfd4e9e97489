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
Where ROS packages are, without a sourced ROS: ``$(find pkg)`` and ``package://pkg/...``.

A :class:`PackagePath` says where to look; a :class:`PackageResolver` looks there
(:mod:`.package_places` tells what each place is). The rules:

**Search order.** The first place that holds the package wins:

1. around the input file (when there is one), so that its own packages win over
   same-named ones anywhere else:

   a. the ``install/`` of the colcon workspace whose ``src/`` holds the input, when colcon
      made it: a built workspace is used as built (as after ``source install/setup.sh``);
   b. the input's package: the nearest folder above the input holding ``package.xml``;
   c. the input's checkout: the nearest folder above the input holding ``.git`` (a clone,
      worktree or submodule), whatever its parents are called (in a workspace, only one
      below its ``src/``);
   d. the rest of the workspace's ``src/``;
   e. outside both a checkout and a workspace: the folder holding the input's package;

2. the folders given (``--package-path DIR``, the ``package_path`` parameter or launch
   argument), in the order given;
3. ``AMENT_PREFIX_PATH``: each prefix, as ament_index does;
4. ``ROS_PACKAGE_PATH``: each folder, in order.

**Workspace detection.** A folder is a colcon workspace when it holds ``src/`` and a
``build/``, ``install/`` or ``log/`` folder that colcon made: holding colcon's
``COLCON_IGNORE`` (``install/`` also ``.colcon_install_layout``). A folder named ``src`` is
nothing more: ``~/src/myrepo`` is a checkout among others, not a workspace (a package
not found then says that ``~/src`` was not searched, and why).

**What a folder given is** (2 and 4), the first of:

* a package: it holds ``package.xml``, and provides the package its ``<name>`` names (not
  the folder's name);
* an install prefix: it holds ``.colcon_install_layout`` (a colcon ``install/``),
  ``share/ament_index/`` (an ament prefix such as ``/opt/ros/jazzy``) or ``.catkin``;
* a workspace root (above): its ``install/``, then its ``src/``;
* a folder of packages: any other folder.

An install prefix holds ``pkg`` as ``PREFIX/share/<pkg>`` (ament, colcon ``--merge-install``)
or ``PREFIX/<pkg>/share/<pkg>`` (colcon's default isolated layout), when that folder holds
a ``package.xml`` or the ament index lists ``pkg``.

**A folder of packages** is searched as colcon searches a workspace: packages by the
``<name>`` of their ``package.xml``, breadth first in alphabetical order; hidden folders,
``build``, ``install``, ``log``, ``node_modules``, ``__pycache__``, folders holding
``COLCON_IGNORE``, ``AMENT_IGNORE`` or ``CATKIN_IGNORE`` and the inside of packages are
skipped, and so are folders that cannot be read. The input's checkout, a workspace's
``src/`` and a folder given that holds ``.git`` are searched fully (to any depth; a
safety stop at 200,000 folders, :data:`~.package_places.MAX_FULL_FOLDERS`); any other
(``~``, ``/``) only 4 levels down and up to 10,000 folders
(:data:`~.package_places.MAX_DEPTH`, :data:`~.package_places.MAX_FOLDERS`). A package not
found names, for each folder, its count of packages, the ignore markers that skipped
folders (and the package a skipped folder holds), the folders that could not be read and
where a search stopped.

**Duplicates.** Two packages of one name are a warning naming both and the one used, when
they are in one folder of packages (the shallowest wins, then the first in alphabetical
order), among the input's package, checkout and workspace (a to d above), around the
input and in a folder given (the input's wins), or in two folders given (the one given
first wins; the same folder given twice is one folder). An installed copy is not a
duplicate of its sources, and the environment is an underlay: a package found before it
shadows its copy there without a warning, and so does a prefix or folder of the
environment over a later one (as ament_index and ``ROS_PACKAGE_PATH`` do). A search that
stopped at its bound or skipped folders it could not read is a warning too.

A package's folder is the one holding its ``package.xml`` (``share/<pkg>`` when installed):
``$(find pkg)`` is that folder, and ``package://pkg/meshes/a.stl`` is ``meshes/a.stl`` in it.
Each folder is searched at most once per resolver. Warnings wait in the resolver until taken
(:meth:`PackageResolver.take_warnings`), placed at the ``$(find)`` or URI that caused them.
"""

import os
from typing import TYPE_CHECKING

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.package_places import around
from sdf_tools.resources.package_places import classify
from sdf_tools.resources.package_places import files_named
from sdf_tools.resources.package_places import inside
from sdf_tools.resources.package_places import is_workspace
from sdf_tools.resources.package_places import manifest_name
from sdf_tools.resources.package_places import Place
from sdf_tools.resources.package_places import Scan
from sdf_tools.resources.package_places import scan

if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Iterable
    from collections.abc import Mapping
    from pathlib import Path


def unquote(text: str) -> str:
    """
    Percent-decode the path of a URI, as :func:`urllib.parse.unquote` does.

    :mod:`urllib.parse` (and :mod:`pathlib`, which imports it) are imported when first
    needed: together ~5 ms of every ``urdf2sdf`` run before (issue 14), and text without a
    ``%`` needs neither (``unquote`` returns it as it is).
    """
    if '%' not in text:
        return text
    from urllib.parse import unquote as percent_decode
    return percent_decode(text)


class PackageNotFoundError(LookupError):
    """
    A package is in none of the places searched; the text says which and how to add one.

    Attributes
    ----------
    package : str
        The package name.
    searched : tuple of str
        Every place searched, in order, e.g. ``/ws/src (--package-path: 3 package(s))``.

    """

    def __init__(self, package: str, searched: 'Iterable[str]', hint: str) -> None:
        self.package = package
        self.searched = tuple(searched)
        super().__init__(f"package '{package}' not found; searched: "
                         f"{', '.join(self.searched) or 'nothing'}; {hint}")


def split_folders(text: str | None) -> tuple[str, ...]:
    """Return the folders of a ``:``-separated list (as ``ROS_PACKAGE_PATH``), minus empty ones."""
    return tuple(item for item in (text or '').split(os.pathsep) if item)


def given_folders(folders: 'Iterable[str]', option: str) -> tuple[str, ...]:
    """
    Return folders the user gave (each item may be a ``:``-separated list), made absolute.

    Raises
    ------
    ValueError
        One does not exist; the text names it and ``option``, how the user gives folders.

    """
    absolute = []
    for item in folders:
        for folder in split_folders(item):
            if not os.path.isdir(folder):
                raise ValueError(f'{option} {folder}: no such folder')
            absolute.append(os.path.abspath(folder))
    return tuple(absolute)


@record(frozen=True, slots=True)
class PackagePath:
    """
    Where to look for packages (module docstring), in the order searched.

    Attributes
    ----------
    folders : tuple of str
        Absolute folders given explicitly, in order.
    ament_prefix_path : str or None
        ``AMENT_PREFIX_PATH`` (``None``: not set).
    ros_package_path : str or None
        ``ROS_PACKAGE_PATH`` (``None``: not set).
    near : str or None
        The input file, whose package, checkout and workspace are searched first.
    option : str
        How the user gives folders, for messages: ``--package-path``, ``the package_path
        parameter``, ...

    """

    folders: tuple[str, ...] = ()
    ament_prefix_path: str | None = None
    ros_package_path: str | None = None
    near: str | None = None
    option: str = '--package-path'

    @classmethod
    def from_environment(cls, folders: 'Iterable[str]' = (), *, near: str | None = None,
                         option: str = '--package-path',
                         environ: 'Mapping[str, str] | None' = None) -> 'PackagePath':
        """
        Return the places to search: around ``near``, ``folders``, then the environment.

        Parameters
        ----------
        folders : iterable of str
            Folders given explicitly; each item may itself be a ``:``-separated list.
        near : str, optional
            The input file.
        option : str
            How the user gives folders (messages).
        environ : mapping, optional
            The environment (default ``os.environ``).

        Raises
        ------
        ValueError
            A folder given explicitly does not exist.

        """
        environ = os.environ if environ is None else environ
        return cls(given_folders(folders, option), environ.get('AMENT_PREFIX_PATH'),
                   environ.get('ROS_PACKAGE_PATH'),
                   None if near is None else os.path.abspath(near), option)


def _listed(items: 'Iterable[str]', limit: int = 3) -> str:
    """Return the first ``limit`` texts of ``items``, comma-separated, and how many more."""
    items = list(items)
    more = f' and {len(items) - limit} more' if len(items) > limit else ''
    return ', '.join(items[:limit]) + more


class PackageResolver:
    """
    Finds packages where a :class:`PackagePath` says (module docstring); caches what it read.

    Parameters
    ----------
    package_path : PackagePath, optional
        Where to look (default: nowhere, so every lookup fails with the hint).

    """

    def __init__(self, package_path: PackagePath | None = None):
        self.package_path = package_path or PackagePath()
        self._places: list[Place] | None = None
        self._lone_src: str | None = None
        self._names: dict[str, str | None] = {}   # package folder -> its name (None: unreadable)
        self._scans: dict[str, Scan] = {}
        self._found: dict[str, 'Path'] = {}
        self._found_in: dict[str, Place] = {}
        self._warnings: list[Diagnostic] = []
        self._manifests: dict[str, None] = {}  # the package.xml files read, in order

    def files_read(self) -> tuple[str, ...]:
        """
        Return the package.xml files the lookups so far have read (or tried), in order.

        They are inputs of the run: no output may replace one
        (:func:`~sdf_tools.outputs.check_outputs`).
        """
        return tuple(self._manifests)

    def find(self, package: str) -> 'Path':
        """
        Return the folder of ``package`` (the one holding its package.xml).

        A duplicate (module docstring) leaves a warning to take (:meth:`take_warnings`).

        Raises
        ------
        PackageNotFoundError
            It is in none of the places; the message lists them in order.

        """
        if package in self._found:
            return self._found[package]
        places = self._search_order()
        for index, place in enumerate(places):
            hits = self._hits(place, package)
            if hits:
                self._check_duplicates(package, place, hits, places[index + 1:])
                from pathlib import Path  # not at the top: see unquote
                self._found_in[package] = place
                self._found[package] = Path(hits[0])
                return self._found[package]
        raise PackageNotFoundError(package, self.searched(), self._not_found_hint(package))

    def hint(self, what: str) -> str:
        """Return how to add a folder, e.g. ``give its folder with --package-path``."""
        option = self.package_path.option
        return f'give {what} {"with" if option.startswith("-") else "in"} {option}'

    def take_warnings(self, location: SourceLocation | None = None,
                      entity: str | None = None) -> tuple[Diagnostic, ...]:
        """
        Return the warnings of the lookups so far (duplicates, incomplete searches), once.

        Those without a place get ``location`` and ``entity``: the use that looked it up.
        """
        taken = tuple(w if w.location is not None else replace(w, location=location,
                                                               entity=entity)
                      for w in self._warnings)
        self._warnings.clear()
        return taken

    def place_warnings(self, locate: 'Callable[[], SourceLocation]', entity: str) -> None:
        """Give the warnings without a place the one ``locate()`` returns (called only then)."""
        if any(w.location is None for w in self._warnings):
            self._warnings[:] = self.take_warnings(locate(), entity)

    def resolve_uri(self, uri: str) -> 'Path':
        """
        Return the file a ``package://pkg/path`` or ``file://`` URI names.

        The file need not exist; a path that leaves its package (``package://p/../x``) is
        refused.

        Raises
        ------
        PackageNotFoundError
            The package is not found.
        ValueError
            Not a ``package://`` or ``file://`` URI, or it leaves its package.

        """
        if uri.startswith('file://'):
            from pathlib import Path
            return Path(unquote(uri[len('file://'):]))
        if not uri.startswith('package://'):
            raise ValueError(f'{uri}: not a package:// or file:// URI')
        package, _, relative = uri[len('package://'):].partition('/')
        if not package:
            raise ValueError(f'{uri}: no package name')
        relative = os.path.normpath(unquote(relative)) if relative else '.'
        if relative == '..' or relative.startswith('../') or os.path.isabs(relative):
            raise ValueError(f'{uri}: the path leaves the package folder')
        return self.find(package) / relative

    def explain_missing(self, path: str) -> str | None:
        """
        Return why ``path``, in a package found so far, is missing, or ``None``.

        Only what can be told from the files: a package used as installed whose sources
        have the file (rebuild), sources that hold it elsewhere, as an install would lay
        it out differently (build), or a package without any file of that name (another
        version of the package).
        """
        path = os.path.abspath(path)
        held = [(name, str(folder)) for name, folder in self._found.items()
                if inside(path, str(folder))]
        if not held:
            return None
        name, folder = max(held, key=lambda item: len(item[1]))
        place, relative = self._found_in[name], os.path.relpath(path, folder)
        base = os.path.basename(relative)
        if place.kind == 'prefix':
            sources = self._sources_of(name, place)
            if sources is None:
                return (f"package '{name}' is used as installed ({folder}), which has no "
                        f'{relative}: is it the version the description was written for?')
            elsewhere = files_named(sources, base)
            if elsewhere:
                have = 'have it' if relative in elsewhere else f'have {elsewhere[0]}'
                return (f"package '{name}' is used as installed ({folder}), which has no "
                        f'{relative}; its sources ({sources}) {have}: build the workspace '
                        'again (colcon build); if it is still missing, the package does not '
                        'install it there')
            return (f"package '{name}' has no {relative}, neither installed ({folder}) nor in "
                    f'its sources ({sources}): is it the version the description was '
                    'written for?')
        elsewhere = files_named(folder, base)
        if not elsewhere:
            return (f"package '{name}' ({folder}) has no {relative}, nor any file named "
                    f'{base}: is it the version the description was written for?')
        hint = (f"package '{name}' was found as sources ({folder}), which hold "
                f'{elsewhere[0]}; installing may lay it out as {relative}: build it '
                '(colcon build)')
        if not self._in_searched_workspace(folder):
            hint += f" and {self.hint('the workspace')}"
        return hint

    def searched(self) -> tuple[str, ...]:
        """Return the places searched, described for messages (scanned folders with counts)."""
        lines = []
        for place in self._search_order():
            detail = place.route
            if place.kind == 'unset':
                lines.append(f'{place.route} (not set)')
                continue
            if place.kind == 'missing' or not os.path.isdir(place.path):
                detail += ': no such folder'
            elif place.kind == 'package':
                name = self._name(place.path)
                detail += f": package '{name}'" if name else ': unreadable package.xml'
            elif place.kind == 'packages' and place.path in self._scans:
                detail += _scan_detail(self._scans[place.path])
            lines.append(f'{place.path} ({detail})')
        return tuple(lines)

    def _search_order(self) -> list[Place]:
        """Return every place searched, in order, each once (computed once)."""
        if self._places is None:
            p = self.package_path
            places: list[Place] = []
            if p.near is not None:
                places, self._lone_src = around(p.near)
            places += [place for folder in p.folders for place in classify(folder, p.option)]
            places += [Place(prefix, 'prefix', 'AMENT_PREFIX_PATH', 'environment', origin=prefix)
                       for prefix in split_folders(p.ament_prefix_path)] or \
                [Place('', 'unset', 'AMENT_PREFIX_PATH', 'environment')]
            places += [place for folder in split_folders(p.ros_package_path)
                       for place in classify(folder, 'ROS_PACKAGE_PATH', 'environment')] or \
                [Place('', 'unset', 'ROS_PACKAGE_PATH', 'environment')]
            seen: set[tuple[str, str]] = set()
            self._places = []
            for place in places:
                if place.kind == 'unset' or (place.path, place.kind) not in seen:
                    seen.add((place.path, place.kind))
                    self._places.append(place)
        return self._places

    def _name(self, folder: str) -> str | None:
        if folder not in self._names:
            self._manifests[os.path.join(folder, 'package.xml')] = None
            try:
                self._names[folder] = manifest_name(folder)
            except ValueError:
                self._names[folder] = None
        return self._names[folder]

    def _scan(self, place: Place) -> Scan:
        """Return the packages of a folder of packages, searched once; warn if incomplete."""
        found = self._scans.get(place.path)
        if found is None:
            found = self._scans[place.path] = scan(place.path, place.full)
            self._manifests.update(dict.fromkeys(found.manifests))
            if found.stopped_after is not None or found.unreadable:
                self._warn(_incomplete(place, found), Code.INCOMPLETE_SEARCH)
        return found

    def _hits(self, place: Place, package: str) -> list[str]:
        """Return the folders of ``package`` in one place, the one that wins first."""
        if place.kind == 'package':
            return [place.path] if self._name(place.path) == package else []
        if place.kind == 'prefix':
            index = os.path.join('share', 'ament_index', 'resource_index', 'packages', package)
            for prefix in (place.path, os.path.join(place.path, package)):
                share = os.path.join(prefix, 'share', package)
                if os.path.isdir(share) and (
                        os.path.isfile(os.path.join(share, 'package.xml'))
                        or os.path.isfile(os.path.join(prefix, index))):
                    return [share]
            return []
        if place.kind == 'packages':
            return list(self._scan(place).packages.get(package, ()))
        return []

    def _check_duplicates(self, package: str, place: Place, hits: list[str],
                          later: list[Place]) -> None:
        """
        Warn when ``package`` has other folders that count (module docstring, Duplicates).

        Found around the input or in a folder given, the later folders given are searched
        for it too (each once per resolver, as a lookup that fails would); the environment
        never is.
        """
        chosen = os.path.realpath(hits[0])
        others = [(hit, place) for hit in hits[1:]]
        if place.group in ('around', 'given'):
            origins = {place.origin}  # one copy per folder given (a workspace's install/ and src/)
            for other in later:
                if other.group == 'around' and other.full and place.kind != 'prefix':
                    others += [(hit, other) for hit in self._hits(other, package)]
                elif other.group == 'given' and other.origin not in origins:
                    found = [hit for hit in self._hits(other, package)
                             if os.path.realpath(hit) != chosen
                             and not _built_from(place, hits[0], other, hit)]
                    if found:
                        origins.add(other.origin)
                        others.append((found[0], other))
        seen, shown = {chosen}, []
        for hit, other in others:
            if os.path.realpath(hit) not in seen:
                seen.add(os.path.realpath(hit))
                shown.append((hit, other))
        if not shown:
            return
        if all(other is place for _, other in shown):
            rule = 'in one folder, the shallowest wins, then the first in alphabetical order'
        elif place.group == 'given':
            rule = f'the folder given first in {place.route} wins'
        else:
            rule = f'{place.route} is searched first'
        listed = ', '.join(f'{hit} ({other.route})' for hit, other in shown)
        self._warn(f"package '{package}' is in {len(shown) + 1} places: using {hits[0]} "
                   f'({place.route}), not {listed}; {rule}', Code.DUPLICATE_PACKAGE)

    def _warn(self, message: str, code: Code) -> None:
        self._warnings.append(Diagnostic(message, severity=Severity.WARNING, code=code))

    def _not_found_hint(self, package: str) -> str:
        """Return what to do about a package not found: what skipped it, how to add one."""
        hints = [f"'{package}' is in {skipped.path}, which is skipped for its {skipped.why}: "
                 f"remove that file, or {self.hint('the folder')}"
                 for found in self._scans.values() for skipped in found.ignored
                 if skipped.package == package]
        if self._lone_src is not None:
            root = os.path.dirname(self._lone_src)
            hints.append(f'{self._lone_src} was not searched: {root} is not a colcon '
                         'workspace (no build/, install/ or log/ made by colcon); if it '
                         f'holds the package, {self.hint(self._lone_src)}')
        return '; '.join(hints + [self.hint('its folder')])

    def _sources_of(self, package: str, place: Place) -> str | None:
        """Return the source folder of a package found in a workspace's ``install/``."""
        if place.sources is None or not os.path.isdir(place.sources):
            return None
        sources = Place(place.sources, 'packages', place.route, place.group, True, place.origin)
        hits = self._scan(sources).packages.get(package)
        return hits[0] if hits else None

    def _in_searched_workspace(self, folder: str) -> bool:
        """Return whether ``folder`` is in the ``src/`` of a workspace searched."""
        return any(place.kind == 'packages' and os.path.basename(place.path) == 'src'
                   and inside(folder, place.path)
                   and is_workspace(os.path.dirname(place.path))
                   for place in self._search_order())


def _built_from(place: Place, hit: str, other: Place, other_hit: str) -> bool:
    """Return whether one of two copies is the install of the other's workspace sources."""
    return (place.sources is not None and inside(other_hit, place.sources)) or \
        (other.sources is not None and inside(hit, other.sources))


def _scan_detail(found: Scan) -> str:
    """Return what a search of a folder of packages found and skipped, for messages."""
    detail = f': {len(found.packages)} package(s)'
    if found.stopped_after is not None:
        detail += f', stopped after {found.stopped_after} folders'
    if found.ignored:
        detail += '; skipped for an ignore marker: ' + _listed(
            f'{s.path} ({s.why}' + (f", package '{s.package}')" if s.package else ')')
            for s in found.ignored)
    if found.unreadable:
        detail += '; unreadable: ' + _listed(f'{s.path} ({s.why})' for s in found.unreadable)
    return detail + ''.join(f'; {problem}' for problem in found.problems[:3])


def _incomplete(place: Place, found: Scan) -> str:
    """Return the warning text of a search that stopped or skipped unreadable folders."""
    parts = []
    if found.stopped_after is not None:
        parts.append(f'stopped after {found.stopped_after} folders, so packages further '
                     'down were not looked at')
    if found.unreadable:
        parts.append(f'skipped {len(found.unreadable)} folder(s) or link(s) it could not '
                     'read: ' + _listed(f'{s.path} ({s.why})' for s in found.unreadable))
    return f'the search for packages in {place.path} ({place.route}) ' + ' and '.join(parts)
