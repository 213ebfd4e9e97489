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
The places a package is looked for, and what each holds: the rules of :mod:`.packages`.

* :func:`is_workspace` tells a colcon workspace by the marks colcon leaves in it;
* :func:`classify` tells what a folder given by the user (or ``ROS_PACKAGE_PATH``) is;
* :func:`around` finds the input file's package, checkout and workspace;
* :func:`scan` finds the packages below a folder of packages, as colcon's crawl does.

Nothing here decides which package wins or writes a message: :class:`.packages.PackageResolver`
does, from the :class:`Place` and :class:`Scan` records these return.
"""

from collections import deque
from collections.abc import Iterator
import os

from lxml import etree

from sdf_tools.records import record
from sdf_tools.xmlio.parse import parse_xml_file

#: How many levels below a folder of packages a package.xml is looked for (bounded search).
MAX_DEPTH = 4
#: How many folders a bounded search visits at most.
MAX_FOLDERS = 10_000
#: How many folders a full search (a checkout, a workspace's src/) visits at most: a safety
#: stop no source tree of ROS packages comes near.
MAX_FULL_FOLDERS = 200_000
#: Largest package.xml read (bytes).
MAX_MANIFEST_BYTES = 1024 * 1024
#: Folders never searched for packages (besides hidden ones, whose names start with '.').
SKIPPED_FOLDERS = frozenset({'build', 'install', 'log', 'node_modules', '__pycache__'})
#: A folder holding one of these files is not searched (colcon: COLCON_IGNORE; colcon-ros:
#: AMENT_IGNORE and CATKIN_IGNORE).
IGNORE_MARKERS = ('COLCON_IGNORE', 'AMENT_IGNORE', 'CATKIN_IGNORE')
#: What colcon writes into the build/, install/ and log/ folders it makes (the first in each),
#: and into install/ (the second).
COLCON_MARKS = ('COLCON_IGNORE', '.colcon_install_layout')

# Where a place comes from (its route, in messages).
PACKAGE = "the input's package"
CHECKOUT = "the input's checkout"
WORKSPACE = "the input's workspace"
BESIDE = "beside the input's package"


@record(frozen=True, slots=True)
class Place:
    """
    One place searched.

    Attributes
    ----------
    path : str
        The folder ('' for an environment variable not set).
    kind : str
        ``package``, ``prefix`` (an install prefix), ``packages`` (a folder of packages),
        ``missing`` or ``unset``.
    route : str
        Why it is searched, for messages: ``--package-path``, ``AMENT_PREFIX_PATH``,
        ``the input's checkout``, ...
    group : str
        ``around`` (the input file's places), ``given`` (by the user) or ``environment``.
    full : bool
        A folder of packages searched without the bounds (:data:`MAX_DEPTH`,
        :data:`MAX_FOLDERS`): a checkout or a workspace's ``src/``.
    origin : str
        The folder the place was made from (a workspace root gives two places).
    sources : str or None
        For a workspace's ``install/``: the workspace's ``src/``.

    """

    path: str
    kind: str
    route: str
    group: str = 'given'
    full: bool = False
    origin: str = ''
    sources: str | None = None


@record(frozen=True, slots=True)
class Skipped:
    """A folder not searched: ``why`` is its ignore marker, or why it cannot be read."""

    path: str
    why: str
    package: str | None = None   # the package it holds (ignore markers only), if any


@record(frozen=True, slots=True)
class Scan:
    """
    The packages below a folder of packages, and what was not searched.

    Attributes
    ----------
    packages : dict
        Package name -> its folders in the order found: the shallowest first, then
        alphabetically (more than one: a duplicate).
    problems : tuple of str
        package.xml files that cannot be read.
    ignored : tuple of Skipped
        Folders skipped for their ignore marker.
    unreadable : tuple of Skipped
        Folders that could not be read (the reason).
    stopped_after : int or None
        The bound (a count of folders) the search stopped at, folders left; ``None``: it
        searched everything.
    manifests : tuple of str
        The package.xml files read (or tried), in order: no output may replace one
        (:func:`~sdf_tools.outputs.check_outputs`).

    """

    packages: dict
    problems: tuple[str, ...] = ()
    ignored: tuple[Skipped, ...] = ()
    unreadable: tuple[Skipped, ...] = ()
    stopped_after: int | None = None
    manifests: tuple[str, ...] = ()


def _has(folder: str, name: str) -> bool:
    return os.path.lexists(os.path.join(folder, name))


def colcon_made(folder: str) -> bool:
    """Return whether ``folder`` is a build/, install/ or log/ folder colcon made."""
    return any(os.path.isfile(os.path.join(folder, mark)) for mark in COLCON_MARKS)


def is_workspace(root: str) -> bool:
    """
    Return whether ``root`` is a colcon workspace root.

    It holds ``src/`` and at least one of ``build/``, ``install/``, ``log/`` that colcon made
    (holding ``COLCON_IGNORE``, or ``.colcon_install_layout``): a folder named ``src`` is no
    sign by itself.
    """
    return os.path.isdir(os.path.join(root, 'src')) and any(
        colcon_made(os.path.join(root, sub)) for sub in ('build', 'install', 'log'))


def is_prefix(folder: str) -> bool:
    """
    Return whether ``folder`` is an install prefix.

    A colcon ``install/`` (``.colcon_install_layout``), an ament prefix such as
    ``/opt/ros/jazzy`` (``share/ament_index/``) or a catkin install or devel space
    (``.catkin``).
    """
    return (_has(folder, '.colcon_install_layout') or _has(folder, '.catkin')
            or os.path.isdir(os.path.join(folder, 'share', 'ament_index')))


def workspace_places(root: str, route: str, group: str, origin: str) -> list[Place]:
    """Return a workspace's places: its ``install/`` (when colcon made it), then its ``src/``."""
    install, src = os.path.join(root, 'install'), os.path.join(root, 'src')
    places = [Place(install, 'prefix', route, group, origin=origin, sources=src)] \
        if colcon_made(install) else []
    return places + [Place(src, 'packages', route, group, True, origin)]


def classify(folder: str, route: str, group: str = 'given') -> list[Place]:
    """
    Return how a folder given by the user (or ``ROS_PACKAGE_PATH``) is searched.

    The first it is of: a package (``package.xml``), an install prefix (:func:`is_prefix`), a
    colcon workspace (:func:`is_workspace`: its ``install/``, then its ``src/``), or a folder
    of packages, searched fully when it is a checkout (holds ``.git``) or a workspace's
    ``src/``, bounded otherwise.
    """
    if not os.path.isdir(folder):
        return [Place(folder, 'missing', route, group, origin=folder)]
    if os.path.isfile(os.path.join(folder, 'package.xml')):
        return [Place(folder, 'package', route, group, origin=folder)]
    if is_prefix(folder):
        parent = os.path.dirname(folder)
        sources = os.path.join(parent, 'src') if os.path.basename(folder) == 'install' and \
            is_workspace(parent) else None
        return [Place(folder, 'prefix', route, group, origin=folder, sources=sources)]
    if is_workspace(folder):
        return workspace_places(folder, route, group, folder)
    full = _has(folder, '.git') or (os.path.basename(folder) == 'src'
                                    and is_workspace(os.path.dirname(folder)))
    return [Place(folder, 'packages', route, group, full, folder)]


def _ancestors(folder: str) -> Iterator[str]:
    """Yield ``folder`` and every folder above it, up to the root."""
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def inside(path: str, folder: str) -> bool:
    """Return whether ``path`` is ``folder`` or below it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def around(near: str) -> tuple[list[Place], str | None]:
    """
    Return the places of the input file ``near`` (absolute), in order, and a lone ``src``.

    The places: the workspace's ``install/`` (when colcon made it), the input's package, its
    checkout (searched fully), the workspace's ``src/`` (fully); without a checkout or a
    workspace, the folder holding the input's package (bounded). The second value is the
    nearest folder named ``src`` above the input that was not taken for a workspace's
    (for the hint of a package not found), or ``None``.
    """
    folder = os.path.dirname(near)
    workspace = lone_src = package = checkout = None
    for ancestor in _ancestors(folder):
        if package is None and os.path.isfile(os.path.join(ancestor, 'package.xml')):
            package = ancestor
        if checkout is None and _has(ancestor, '.git'):
            checkout = ancestor
        if os.path.basename(ancestor) == 'src' and workspace is None:
            if is_workspace(os.path.dirname(ancestor)):
                workspace = os.path.dirname(ancestor)
            elif lone_src is None:
                lone_src = ancestor
    places: list[Place] = []
    src = None
    if workspace is not None:
        src = os.path.join(workspace, 'src')
        places += workspace_places(workspace, WORKSPACE, 'around', workspace)[:-1]
        if package is not None and not inside(package, src):
            package = None  # a package.xml above the workspace is not the input's package
        if checkout is not None and not (inside(checkout, src) and checkout != src):
            checkout = None  # the workspace's src/ covers it
    if package is not None:
        places.append(Place(package, 'package', PACKAGE, 'around', origin=package))
    if checkout is not None and checkout != package:
        places.append(Place(checkout, 'packages', CHECKOUT, 'around', True, checkout))
    if src is not None:
        places.append(Place(src, 'packages', WORKSPACE, 'around', True, os.path.dirname(src)))
    elif checkout is None and package is not None:
        beside = os.path.dirname(package)
        places.append(Place(beside, 'packages', BESIDE, 'around', False, beside))
    return places, None if workspace is not None else lone_src


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
    root = parse_xml_file(path, MAX_MANIFEST_BYTES)
    name = (root.findtext('name') or '').strip() if root.tag == 'package' else ''
    if not name:
        raise ValueError(f'{path}: no <package><name>')

    def text(element: etree._Element) -> str:
        # lxml-stubs 0.5.1 types the pieces str or bytes; lxml gives str
        return ' '.join(''.join(element.itertext()).split())  # type: ignore[arg-type]

    def people(tag: str) -> tuple[tuple[str, str | None], ...]:
        return tuple((text(e), (e.get('email') or '').strip() or None)
                     for e in root.iterchildren(tag) if text(e))

    description = root.find('description')
    return Manifest(name, (root.findtext('version') or '').strip() or None,
                    None if description is None else text(description) or None,
                    people('author'), people('maintainer'))


def manifest_name(folder: str) -> str:
    """Return the ``<name>`` of the package.xml in ``folder`` (``ValueError`` as read_manifest)."""
    return read_manifest(folder).name


def package_folder(path: str) -> str | None:
    """
    Return the folder of the package holding the file ``path``, or ``None``.

    That is the nearest folder at or above the file's folder with a ``package.xml``, as
    :func:`around` finds the input file's package.
    """
    return next((folder for folder in _ancestors(os.path.dirname(os.path.abspath(path)))
                 if os.path.isfile(os.path.join(folder, 'package.xml'))), None)


def _name_or_none(folder: str) -> str | None:
    try:
        return manifest_name(folder)
    except ValueError:
        return None


def _reason(e: OSError) -> str:
    return e.strerror or type(e).__name__


def scan(root: str, full: bool = False) -> Scan:
    """
    Find the packages below ``root``, breadth first in alphabetical order, as colcon does.

    Hidden folders, :data:`SKIPPED_FOLDERS`, folders below ``root`` holding an ignore marker
    (:data:`IGNORE_MARKERS`) and the inside of packages are not searched; a symbolic link is
    followed once; folders that cannot be read are skipped. A bounded search (``full``
    false) stops :data:`MAX_DEPTH` levels down and after :data:`MAX_FOLDERS` folders; a full
    one goes to any depth, with :data:`MAX_FULL_FOLDERS` as its safety stop.
    """
    limit, max_depth = (MAX_FULL_FOLDERS, None) if full else (MAX_FOLDERS, MAX_DEPTH)
    packages: dict[str, list[str]] = {}
    problems: list[str] = []
    ignored: list[Skipped] = []
    unreadable: list[Skipped] = []
    manifests: list[str] = []
    queue = deque([(root, os.path.realpath(root), 0)])
    seen: set[str] = set()
    while queue:
        folder, real, depth = queue.popleft()
        if real in seen:  # a symbolic link to a folder searched already
            continue
        if len(seen) >= limit:
            return Scan(packages, tuple(problems), tuple(ignored), tuple(unreadable), limit,
                        tuple(manifests))
        seen.add(real)
        try:
            names, folders, failed = _entries(folder)
        except OSError as e:
            unreadable.append(Skipped(folder, _reason(e)))
            continue
        marker = next((m for m in IGNORE_MARKERS if m in names), None)
        if folder != root and 'package.xml' in names:
            manifests.append(os.path.join(folder, 'package.xml'))
        if folder != root and marker is not None:
            ignored.append(Skipped(folder, marker, _name_or_none(folder)
                                   if 'package.xml' in names else None))
            continue
        if folder != root and 'package.xml' in names:
            try:
                packages.setdefault(manifest_name(folder), []).append(folder)
            except ValueError as e:
                problems.append(str(e))
            continue
        if max_depth is not None and depth >= max_depth:
            continue
        unreadable += failed
        for name, path, link in folders:
            queue.append((path, os.path.realpath(path) if link else real + os.sep + name,
                          depth + 1))
    return Scan(packages, tuple(problems), tuple(ignored), tuple(unreadable),
                manifests=tuple(manifests))


def _entries(folder: str) -> tuple[set[str], list[tuple[str, str, bool]], list[Skipped]]:
    """
    Return the names in ``folder``, its subfolders to search and the links that failed.

    Subfolders are ``(name, path, is_link)`` in alphabetical order, without hidden ones and
    :data:`SKIPPED_FOLDERS`; a link that cannot be followed (into ``/proc``) is a
    :class:`Skipped`.
    """
    names: set[str] = set()
    folders: list[tuple[str, str, bool]] = []
    failed: list[Skipped] = []
    with os.scandir(folder) as it:
        for entry in it:
            name = entry.name
            names.add(name)
            if name[0] == '.' or name in SKIPPED_FOLDERS:
                continue
            try:
                if entry.is_dir():
                    folders.append((name, entry.path, entry.is_symlink()))
            except OSError as e:
                failed.append(Skipped(entry.path, _reason(e)))
    folders.sort()
    failed.sort(key=lambda skipped: skipped.path)
    return names, folders, failed


def files_named(folder: str, name: str, limit: int = 2000) -> list[str]:
    """
    Return the files called ``name`` below ``folder`` (relative paths, shallowest first).

    Hidden folders are skipped; at most ``limit`` folders are read.
    """
    found, queue, visited = [], deque([folder]), 0
    while queue and visited < limit:
        current = queue.popleft()
        visited += 1
        try:
            with os.scandir(current) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.name == name and entry.is_file():
                    found.append(os.path.relpath(entry.path, folder))
                elif not entry.name.startswith('.') and entry.is_dir(follow_symlinks=False):
                    queue.append(entry.path)
            except OSError:
                continue
    return found
