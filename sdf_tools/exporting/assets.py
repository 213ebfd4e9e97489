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
The files a model uses, and where each goes in the exported folder.

:func:`plan` locates every URI the model uses (:class:`Use`: meshes, URDF textures, the
``<uri>`` of ``<gazebo>`` blocks and of kept SDFormat content) as the converter's ``file``
mode does (:func:`sdf_tools.resources.uris.locate`: ``package://`` and ``model://`` through
the package resolver, relative paths against the description's folder), except that
``model://NAME/rest`` is first ``rest`` in the model folder ``NAME`` on Gazebo's resource
path (``--resource-path``, ``GZ_SIM_RESOURCE_PATH``, ...: the
:class:`~sdf_tools.resources.models.ModelFinder` of ``<include>`` s), and only when that
holds no folder ``NAME`` in the ROS package ``NAME`` (libsdformat's URDF converter writes
``package://pkg/x`` as ``model://pkg/x``). It adds the files meshes refer to (an OBJ's
material library and texture, a COLLADA file's images:
:func:`sdf_tools.resources.meshes.referenced_files`), and places each file once:

* a file of a package or of a model folder keeps its path in it
  (``package://arm/meshes/a.stl`` -> ``meshes/a.stl``), so that what meshes refer to by
  relative path is found beside them;
* a file outside any package keeps its path below the description file's folder;
* when the files of two packages (or folders) would take the same path, every file of the
  later one goes below a folder of its name (``gripper/meshes/base.stl``).

Only files of packages, of model folders and below the description's folder are copied
(and of those, what a mesh refers to only inside its package or folder): a description,
which may come from anyone, cannot have export copy ``/etc/passwd`` or ``~/.ssh/id_rsa``
into a folder meant to be shared. Inside means once symbolic links are followed: a link in a
package that leads out of it (to a file or a folder) is not followed, and is a warning.

A URI naming a folder (a material script's ``model://pkg/materials/scripts``) brings the
files below it (at most :data:`MAX_FOLDER_FILES`). URIs that name no local file Gazebo
resolves itself (``https://``, Fuel, Gazebo's own ``file://media/...``) are left as written;
everything else that cannot be found, read or placed is a warning (``not-copied``) naming it.
"""

import os
import re

from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.models import in_model
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.package_places import package_folder
from sdf_tools.resources.package_places import read_manifest
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import unquote
from sdf_tools.resources.uris import locate

#: Most files a URI naming a folder brings; a larger folder is not copied.
MAX_FOLDER_FILES = 1000
#: Files the exported folder holds itself.
RESERVED = frozenset({'model.sdf', 'model.config'})
_MODEL = 'model://'
_UNSAFE = re.compile(r'[^A-Za-z0-9._-]')


@record(frozen=True)
class Use:
    """
    One use of a URI: ``kind`` is ``mesh``, ``texture`` or ``resource`` (any other ``<uri>``).

    ``entity`` and ``location`` say where it is used, for warnings.
    """

    uri: str
    kind: str
    entity: str | None = None
    location: SourceLocation | None = None


@record(frozen=True, eq=False)
class Plan:
    """
    Where the files a model uses go.

    Attributes
    ----------
    uris : dict
        URI as written -> ``model://NAME/path`` of its copy (of its folder, for a folder).
    files : dict
        Path in the exported folder (``/``-separated) -> the file (:class:`pathlib.Path`)
        copied there.
    warnings : tuple of Diagnostic
        What is not copied, and why.
    not_copied : frozenset of str
        The URIs those warnings are about.

    """

    uris: dict
    files: dict
    warnings: tuple[Diagnostic, ...] = ()
    not_copied: frozenset = frozenset()


@record(frozen=True, slots=True)
class _Root:
    """Files placed together (a package, the description's folder), keeping their paths."""

    folder: str
    name: str


def plan(uses, name: str, packages, folder: str | None,
         models: ModelFinder | None = None) -> Plan:
    """
    Locate and place every file of ``uses`` (module docstring).

    Parameters
    ----------
    uses : iterable of Use
        In the order the model uses them (the first use of a URI names it in warnings, and
        the first package to claim a path keeps it).
    name : str
        The model's name in ``model://`` URIs (the exported folder's name).
    packages : PackageResolver or None
        Finds ``package://`` and ``model://`` packages.
    folder : str or None
        The description file's folder (relative paths; ``None``: not resolved).
    models : ModelFinder, optional
        Finds the model folders of ``model://`` URIs on Gazebo's resource path, before
        ``packages`` (its own package lookup is not used); ``None``: packages only.

    """
    planner = _Planner(packages, folder, models)
    for use in uses:
        planner.add(use)
    targets = planner.place()
    uris = {}
    for uri, (key, relative) in planner.uri_files.items():
        path = _join(targets[key], relative)
        uris[uri] = f'model://{name}/{path}' if path else f'model://{name}'
    files = {_join(targets[key], relative): source
             for key, entries in planner.entries.items() for relative, source in entries}
    return Plan(uris, files, tuple(planner.warnings), frozenset(planner.not_copied))


def _join(*parts: str) -> str:
    return '/'.join(part for part in parts if part and part != '.')


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def _contained(path: str, folder: str) -> bool:
    """Return whether ``path`` is inside ``folder`` once symbolic links are followed."""
    return _inside(os.path.realpath(path), os.path.realpath(folder))


class _Planner:
    """Collects the files of :func:`plan`, grouped by root, each once; then places them."""

    def __init__(self, packages, folder: str | None, models: ModelFinder | None = None):
        self.packages = packages
        # The resource path only: the package NAME is looked up by ``packages``, as before.
        self.models = None if models is None else replace(models, packages=None)
        self.folder = None if folder is None else os.path.abspath(folder)
        self.roots: dict[str, _Root] = {}      # root folder -> root
        self.entries: dict[str, list] = {}     # root folder -> [(path below root, file)]
        self.placed: dict[str, tuple] = {}     # real path -> (root folder, path below root)
        self.uri_files: dict[str, tuple] = {}  # URI -> (root folder, path below root)
        self.warnings: list[Diagnostic] = []
        self.missing_packages: set[str] = set()
        self.seen: set[str] = set()
        self.not_copied: set[str] = set()

    def warn(self, use: Use, message: str) -> None:
        self.not_copied.add(use.uri)
        self.warnings.append(Diagnostic(message, use.location, use.entity, Severity.WARNING,
                                        Code.NOT_COPIED))

    def _inside(self, path: str, use: Use, root) -> bool:
        """Return whether ``path`` (a folder's entry) stays inside ``root``; warn if not."""
        if _contained(path, root.folder):
            return True
        self.warn(use, f'{path} (in {use.uri}) is not copied: it leads outside {root.folder} '
                  '(a symbolic link)')
        return False

    def add(self, use: Use) -> None:
        """Locate one use's URI (once per URI) and add its file or folder."""
        uri = use.uri
        if uri in self.seen or _left_to_gazebo(uri):
            return
        self.seen.add(uri)
        model = self.models.model_folder(uri) if self.models is not None else None
        try:
            located = locate(uri, self.packages, self.folder, model_as_package=True) \
                if model is None else in_model(uri, model)
        except PackageNotFoundError as e:
            if e.package not in self.missing_packages:
                self.missing_packages.add(e.package)
                self.warn(use, f'{uri} is not copied: {e}')
            return
        except ValueError as e:
            self.warn(use, f'{uri} is not copied: {e}')
            return
        path = os.path.abspath(located)
        if '\0' in path:  # %00: no file has such a name, and the system refuses to look
            self.warn(use, f'{uri} is not copied: its path holds a NUL character (%00)')
            return
        found = self._root(uri, path, model)
        if found is None:
            self.warn(use, f'{uri} is not copied: {path} is in no package and not below the '
                      "description's folder (export copies only those)")
            return
        root, relative = found
        if not _contained(path, root.folder):
            self.warn(use, f'{uri} is not copied: {path} leads outside {root.folder} (a '
                      'symbolic link), and export copies only what is inside it')
            return
        if os.path.isdir(path) and use.kind == 'resource':
            self._add_folder(use, path, root, relative)
        elif not os.path.isfile(path):
            self.warn(use, f'{uri} is not copied: no such file: {path}')
        elif not os.access(path, os.R_OK):
            self.warn(use, f'{uri} is not copied: {path} cannot be read')
        else:
            self.uri_files[uri] = self._add_file(path, root, relative)
            if use.kind != 'texture' and \
                    os.path.splitext(path)[1].lower() in _referencing_suffixes():
                self._add_references(use, path, root)

    def _root(self, uri: str, path: str, model: str | None = None) -> tuple[_Root, str] | None:
        """
        Return the root a located file is placed with and its path below it, or ``None``.

        ``model``: the model folder found for the URI (:meth:`ModelFinder.model_folder`).
        """
        if model is not None:
            name = unquote(uri[len(_MODEL):].partition('/')[0])
            return _Root(model, name), os.path.relpath(path, model)
        for scheme in ('package://', 'model://'):
            if uri.startswith(scheme):
                package = uri[len(scheme):].partition('/')[0]
                folder = os.path.abspath(self.packages.find(package))
                return _Root(folder, package), os.path.relpath(path, folder)
        folder = package_folder(path)
        if folder is not None:
            try:
                name = read_manifest(folder).name
            except ValueError:
                name = os.path.basename(folder)
            return _Root(folder, name), os.path.relpath(path, folder)
        if self.folder is not None and _inside(path, self.folder):
            return (_Root(self.folder, os.path.basename(self.folder)),
                    os.path.relpath(path, self.folder))
        return None

    def _add_file(self, path: str, root: _Root, relative: str) -> tuple:
        """Add one file (once: a file reached again keeps its first place)."""
        real = os.path.realpath(path)
        if real in self.placed:
            return self.placed[real]
        key = root.folder
        self.roots.setdefault(key, root)
        relative = relative.replace(os.sep, '/')
        self.entries.setdefault(key, []).append((relative, _path(path)))
        self.placed[real] = (key, relative)
        return self.placed[real]

    def _add_folder(self, use: Use, path: str, root: _Root, relative: str) -> None:
        """
        Add the files below a folder a ``<uri>`` names (hidden ones left out).

        Symbolic links are followed only inside the root (a link out is a warning), and a
        folder reached again through a link is not walked again. A folder of which no file is
        copied is a warning too, and its URI is left as written.
        """
        found = []
        walked = set()
        for top, folders, names in os.walk(path, followlinks=True):
            walked.add(os.path.realpath(top))
            folders[:] = [entry for entry in sorted(folders) if not entry.startswith('.')
                          and os.path.realpath(os.path.join(top, entry)) not in walked
                          and self._inside(os.path.join(top, entry), use, root)]
            found += [os.path.join(top, entry) for entry in sorted(names)
                      if not entry.startswith('.')
                      and self._inside(os.path.join(top, entry), use, root)]
            if len(found) > MAX_FOLDER_FILES:
                self.warn(use, f'{use.uri} is not copied: the folder {path} holds more than '
                          f'{MAX_FOLDER_FILES} files')
                return
        copied = False
        for file in found:
            if os.path.isfile(file) and os.access(file, os.R_OK):
                self._add_file(file, root, os.path.relpath(file, root.folder))
                copied = True
            else:
                self.warn(use, f'{file} (in {use.uri}) is not copied: it cannot be read')
        if not copied:  # its URI would name a folder the export does not hold
            self.warn(use, f'{use.uri} is not copied: the folder {path} holds no file to copy')
            return
        self.uri_files[use.uri] = (root.folder, relative.replace(os.sep, '/'))

    def _add_references(self, use: Use, path: str, root: _Root) -> None:
        """Add the files a mesh refers to by relative path inside its root (warn about others)."""
        from sdf_tools.resources.meshes import referenced_files  # trimesh: only for such meshes
        try:
            names = referenced_files(path, root.folder)
        except ConversionError as e:
            self.warn(use, f'{use.uri}: the files it refers to (textures, materials) are not '
                      f'copied: {e.diagnostic.message}')
            return
        except ValueError as e:
            self.warn(use, f'{use.uri}: the files it refers to (textures, materials) cannot '
                      f'be told: {e}')
            return
        for name in names:
            written = name.strip()
            target = os.path.normpath(os.path.join(os.path.dirname(path), written))
            if '://' in written or os.path.isabs(written):
                self.warn(use, f'{use.uri} refers to {written!r}, not by a relative path: it '
                          'is not copied, and the exported mesh will not find it elsewhere')
            elif not _inside(target, root.folder):
                self.warn(use, f'{use.uri} refers to {written!r}, outside {root.folder}: it '
                          'is not copied')
            elif not _contained(target, root.folder):
                self.warn(use, f'{use.uri} refers to {written!r}, which leads outside '
                          f'{root.folder} (a symbolic link): it is not copied')
            elif not os.path.isfile(target):
                self.warn(use, f'{use.uri} refers to {written!r}, which does not exist '
                          f'({target})')
            else:
                self._add_file(target, root, os.path.relpath(target, root.folder))

    def place(self) -> dict:
        """Return root folder -> the folder its files go below ('' for the top), in order."""
        claimed: dict[str, str] = {}  # path in the folder -> real path of its file
        folders: set[str] = set()     # every folder holding a claimed path
        prefixes = {}
        for key, entries in self.entries.items():
            # A folder name, whatever the package calls itself ('..', '.hidden', 'a/b').
            name = _UNSAFE.sub('_', self.roots[key].name).strip('.') or 'files'
            number = 0
            while True:
                prefix = '' if number == 0 else name if number == 1 else f'{name}_{number}'
                paths = [(_join(prefix, relative), os.path.realpath(source))
                         for relative, source in entries]
                if all(_fits(path, real, claimed, folders) for path, real in paths):
                    break
                number += 1
            prefixes[key] = prefix
            for path, real in paths:
                claimed[path] = real
                parts = path.split('/')
                folders.update('/'.join(parts[:i]) for i in range(1, len(parts)))
        return prefixes


def _fits(path: str, real: str, claimed: dict, folders: set) -> bool:
    """Return whether a file may take ``path`` (free, or its own; no file/folder clash)."""
    if path in RESERVED or path in folders or claimed.get(path, real) != real:
        return False
    parts = path.split('/')
    return not any('/'.join(parts[:i]) in claimed or '/'.join(parts[:i]) in RESERVED
                   for i in range(1, len(parts)))


def _left_to_gazebo(uri: str) -> bool:
    """Return whether a URI names no local file to copy (a web URL, Gazebo's own media)."""
    scheme, sep, rest = uri.partition('://')
    if not sep:
        return False
    if scheme == 'file':
        return not rest.startswith('/')  # file://media/...: relative to Gazebo's media paths
    return scheme not in ('package', 'model')


def _referencing_suffixes() -> frozenset:
    from sdf_tools.resources.meshes import REFERENCING_SUFFIXES
    return REFERENCING_SUFFIXES


def _path(path: str):
    from pathlib import Path
    return Path(path)
