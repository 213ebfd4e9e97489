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

A :class:`PackagePath` says where to look; a :class:`PackageResolver` looks there, in this
order, and the first package of the name wins:

1. the folders given (``--package-path DIR``, the ``package_path`` parameter or launch
   argument), in the order given;
2. ``AMENT_PREFIX_PATH``: each prefix, as ament_index does (``PREFIX/share/<pkg>``);
3. ``ROS_PACKAGE_PATH``: each folder, in order;
4. around the input file (when there is one): the package holding it (the nearest folder
   above it with a ``package.xml``), then the colcon workspace holding that package (the
   folder above the nearest ``src`` folder above it) or, outside a workspace, the
   repository holding it (the nearest folder at or above it with ``.git``; without one,
   the folder holding the package) as a folder of packages.

A folder of 1 and 3 is taken as the first of these it is:

* **a package**: it holds ``package.xml``; it provides the package named by its ``<name>``
  (not by the folder's name);
* **an install prefix**: it holds ``share/``, ``local_setup.sh`` or
  ``.colcon_install_layout`` (an ament prefix such as ``/opt/ros/jazzy``, or a colcon
  ``install/`` folder);
* **a workspace root**: it holds ``src/`` or ``install/``: its ``install/`` is searched as
  an install prefix, then its ``src/`` as a folder of packages;
* **a folder of packages**: every other folder. Packages are found up to
  :data:`MAX_DEPTH` levels below it, by the ``<name>`` of their ``package.xml``; hidden
  folders, ``build``, ``install`` and ``log``, folders holding ``COLCON_IGNORE``,
  ``AMENT_IGNORE`` or ``CATKIN_IGNORE``, and the inside of packages are not searched, and
  the search stops after :data:`MAX_FOLDERS` folders.

An install prefix holds ``pkg`` as ``PREFIX/share/<pkg>`` (ament, colcon ``--merge-install``)
or ``PREFIX/<pkg>/share/<pkg>`` (colcon's default isolated layout), when that folder holds
a ``package.xml`` or the ament index lists ``pkg``.

A package's folder is the one holding its ``package.xml`` (``share/<pkg>`` when installed):
``$(find pkg)`` is that folder, and ``package://pkg/meshes/a.stl`` is ``meshes/a.stl`` in it.
Within a folder of packages, the shallowest package of a name wins, then the first in
alphabetical order. Each folder is searched at most once per resolver.
"""

from collections import deque
import os
from typing import TYPE_CHECKING

from sdf_tools.errors import SdfToolsError
from sdf_tools.records import record
from sdf_tools.xmlio.parse import parse_xml

if TYPE_CHECKING:
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


#: How many levels below a folder of packages a package.xml is looked for.
MAX_DEPTH = 4
#: How many folders one folder-of-packages search visits at most.
MAX_FOLDERS = 10_000
#: Largest package.xml read (bytes).
MAX_MANIFEST_BYTES = 1024 * 1024
_SKIPPED_FOLDERS = frozenset({'build', 'install', 'log', '__pycache__'})
_IGNORE_MARKERS = ('COLCON_IGNORE', 'AMENT_IGNORE', 'CATKIN_IGNORE')
_INSTALL_MARKERS = ('local_setup.sh', '.colcon_install_layout')


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

    def __init__(self, package: str, searched, hint: str):
        self.package = package
        self.searched = tuple(searched)
        super().__init__(f"package '{package}' not found; searched: "
                         f"{', '.join(self.searched) or 'nothing'}; {hint}")


def split_folders(text: str) -> tuple[str, ...]:
    """Return the folders of a ``:``-separated list (as ``ROS_PACKAGE_PATH``), minus empty ones."""
    return tuple(item for item in (text or '').split(os.pathsep) if item)


def given_folders(folders, option: str) -> tuple[str, ...]:
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
        The input file, whose package and workspace are searched last.
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
    def from_environment(cls, folders=(), *, near: str | None = None,
                         option: str = '--package-path', environ=None) -> 'PackagePath':
        """
        Return the places to search: ``folders``, then the environment, then ``near``.

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


@record(frozen=True, slots=True)
class _Place:
    """One place searched: ``kind`` is package, prefix, packages, missing or unset."""

    path: str
    kind: str
    route: str


def _classify(folder: str, route: str) -> list[_Place]:
    """Return how a folder given by the user (or ROS_PACKAGE_PATH) is searched."""
    if not os.path.isdir(folder):
        return [_Place(folder, 'missing', route)]
    if os.path.isfile(os.path.join(folder, 'package.xml')):
        return [_Place(folder, 'package', route)]
    if os.path.isdir(os.path.join(folder, 'share')) or any(
            os.path.exists(os.path.join(folder, m)) for m in _INSTALL_MARKERS):
        return [_Place(folder, 'prefix', route)]
    install, src = os.path.join(folder, 'install'), os.path.join(folder, 'src')
    if os.path.isdir(install) or os.path.isdir(src):
        return _workspace(folder, route)
    return [_Place(folder, 'packages', route)]


def _workspace(root: str, route: str) -> list[_Place]:
    install, src = os.path.join(root, 'install'), os.path.join(root, 'src')
    return ([_Place(install, 'prefix', route)] if os.path.isdir(install) else []) + \
        ([_Place(src, 'packages', route)] if os.path.isdir(src) else [])


def _ancestor(folder: str, test) -> str | None:
    """Return the nearest folder at or above ``folder`` that passes ``test``, or ``None``."""
    while not test(folder):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return folder


def _around(near: str) -> list[_Place]:
    """Return the input file's package and its workspace (or repository), if it has one."""
    route = 'around the input file'
    package = package_folder(near)
    if package is None:
        return []
    places = [_Place(package, 'package', route)]
    src = _ancestor(os.path.dirname(package), lambda f: os.path.basename(f) == 'src')
    if src is not None:
        return places + _workspace(os.path.dirname(src), route)
    repository = _ancestor(package, lambda f: os.path.exists(os.path.join(f, '.git'))) or \
        os.path.dirname(package)
    if repository != package:
        places.append(_Place(repository, 'packages', route))
    return places


def package_folder(path: str) -> str | None:
    """
    Return the folder of the package holding the file ``path``, or ``None``.

    That is the nearest folder at or above the file's folder with a ``package.xml``, as the
    resolver finds the input file's package (module docstring, 4).
    """
    return _ancestor(os.path.dirname(os.path.abspath(path)),
                     lambda f: os.path.isfile(os.path.join(f, 'package.xml')))


@record(frozen=True, slots=True)
class Manifest:
    """
    What a package's ``package.xml`` says about it (what a Gazebo ``model.config`` takes).

    Attributes
    ----------
    name : str
        ``<name>``.
    version : str or None
        ``<version>``.
    description : str or None
        ``<description>``'s text (markup inside left out, white space collapsed).
    authors, maintainers : tuple of (str, str or None)
        ``<author>`` and ``<maintainer>``: the name and the ``email`` attribute.

    """

    name: str
    version: str | None = None
    description: str | None = None
    authors: tuple[tuple[str, str | None], ...] = ()
    maintainers: tuple[tuple[str, str | None], ...] = ()


def read_manifest(folder: str) -> Manifest:
    """
    Return what the ``package.xml`` in ``folder`` says.

    Raises
    ------
    ValueError
        It cannot be read, is not XML, or has no ``<package><name>``.

    """
    path = os.path.join(folder, 'package.xml')
    try:
        with open(path, 'rb') as f:
            data = f.read(MAX_MANIFEST_BYTES + 1)
        root = parse_xml(data, path, max_bytes=MAX_MANIFEST_BYTES)
    except OSError as e:
        raise ValueError(f'{path}: {e.strerror}') from None
    except SdfToolsError as e:
        raise ValueError(str(e)) from None
    name = (root.findtext('name') or '').strip() if root.tag == 'package' else ''
    if not name:
        raise ValueError(f'{path}: no <package><name>')

    def text(element) -> str:
        return ' '.join(''.join(element.itertext()).split())

    def people(tag: str) -> tuple:
        return tuple((text(e), (e.get('email') or '').strip() or None)
                     for e in root.iterchildren(tag) if text(e))

    description = root.find('description')
    return Manifest(name, (root.findtext('version') or '').strip() or None,
                    None if description is None else text(description) or None,
                    people('author'), people('maintainer'))


def _manifest_name(folder: str) -> str:
    """Return the ``<name>`` of the package.xml in ``folder`` (``ValueError`` as read_manifest)."""
    return read_manifest(folder).name


@record(frozen=True, slots=True)
class _Scan:
    """The packages of a folder of packages: name -> folder, and what could not be read."""

    packages: dict
    problems: tuple[str, ...]
    truncated: bool


def _scan(root: str) -> _Scan:
    """Find the packages below ``root``: breadth first, sorted, bounded (module docstring)."""
    packages, problems = {}, []
    queue = deque([(root, 0)])
    seen = set()
    while queue:
        if len(seen) >= MAX_FOLDERS:
            return _Scan(packages, tuple(problems), True)
        folder, depth = queue.popleft()
        real = os.path.realpath(folder)
        if real in seen:  # a symbolic link back up
            continue
        seen.add(real)
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        names = {e.name for e in entries}
        if any(m in names for m in _IGNORE_MARKERS):
            continue
        if 'package.xml' in names and folder != root:
            try:
                packages.setdefault(_manifest_name(folder), folder)
            except ValueError as e:
                problems.append(str(e))
            continue
        if depth < MAX_DEPTH:
            queue.extend((e.path, depth + 1) for e in entries
                         if not e.name.startswith('.') and e.name not in _SKIPPED_FOLDERS
                         and e.is_dir())
    return _Scan(packages, tuple(problems), False)


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
        self._places: list[_Place] | None = None
        self._names: dict[str, str | None] = {}   # package folder -> its name (None: unreadable)
        self._scans: dict[str, _Scan] = {}
        self._found: dict[str, 'Path'] = {}
        self._sources: dict[str, str] = {}   # package -> folder, for packages not installed

    def find(self, package: str) -> 'Path':
        """
        Return the folder of ``package`` (the one holding its package.xml).

        Raises
        ------
        PackageNotFoundError
            It is in none of the places; the message lists them in order.

        """
        if package in self._found:
            return self._found[package]
        for place in self._search_order():
            folder = self._lookup(place, package)
            if folder is not None:
                if place.kind != 'prefix':
                    self._sources[package] = folder
                from pathlib import Path  # not at the top: see unquote
                self._found[package] = Path(folder)
                return self._found[package]
        raise PackageNotFoundError(package, self.searched(), self.hint('its folder'))

    def hint(self, what: str) -> str:
        """Return how to add a folder, e.g. ``give its folder with --package-path``."""
        option = self.package_path.option
        return f'give {what} {"with" if option.startswith("-") else "in"} {option}'

    def source_package(self, path: str) -> tuple[str, 'Path'] | None:
        """
        Return ``(name, folder)`` of the package found as sources that holds ``path``.

        Only packages found so far count, and only those found as sources (a package
        folder, not an install prefix): their files may be laid out otherwise once
        installed (a CMake ``install(DIRECTORY description/urdf DESTINATION share/pkg)``).
        """
        from pathlib import Path  # not at the top: see unquote
        for name, folder in self._sources.items():
            if Path(path).is_relative_to(folder):
                return name, Path(folder)
        return None

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

    def _search_order(self) -> list[_Place]:
        """Return every folder searched, in order (computed once)."""
        if self._places is None:
            p = self.package_path
            places = [place for folder in p.folders for place in _classify(folder, p.option)]
            places += [_Place(prefix, 'prefix', 'AMENT_PREFIX_PATH')
                       for prefix in split_folders(p.ament_prefix_path)] or \
                [_Place('', 'unset', 'AMENT_PREFIX_PATH')]
            places += [place for folder in split_folders(p.ros_package_path)
                       for place in _classify(folder, 'ROS_PACKAGE_PATH')] or \
                [_Place('', 'unset', 'ROS_PACKAGE_PATH')]
            if p.near is not None:
                places += _around(p.near)
            self._places = places
        return self._places

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
                scan = self._scans[place.path]
                detail += f': {len(scan.packages)} package(s)'
                if scan.truncated:
                    detail += f', stopped after {MAX_FOLDERS} folders'
                detail += ''.join(f'; {problem}' for problem in scan.problems[:3])
            lines.append(f'{place.path} ({detail})')
        return tuple(lines)

    def _name(self, folder: str) -> str | None:
        if folder not in self._names:
            try:
                self._names[folder] = _manifest_name(folder)
            except ValueError:
                self._names[folder] = None
        return self._names[folder]

    def _lookup(self, place: _Place, package: str) -> str | None:
        if place.kind == 'package':
            return place.path if self._name(place.path) == package else None
        if place.kind == 'prefix':
            index = os.path.join('share', 'ament_index', 'resource_index', 'packages', package)
            for prefix in (place.path, os.path.join(place.path, package)):
                share = os.path.join(prefix, 'share', package)
                if os.path.isdir(share) and (
                        os.path.isfile(os.path.join(share, 'package.xml'))
                        or os.path.isfile(os.path.join(prefix, index))):
                    return share
            return None
        if place.kind == 'packages':
            if place.path not in self._scans:
                self._scans[place.path] = _scan(place.path)
            return self._scans[place.path].packages.get(package)
        return None
