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
The files a model uses, which of them export copies, and where each goes in the folder.

:func:`plan` locates every URI the model uses (:class:`Use`: meshes, URDF textures, the
``<uri>`` of ``<gazebo>`` blocks and of kept SDFormat content) as the converter's ``file``
mode does (:func:`sdf_tools.resources.uris.locate`: ``package://`` and ``model://`` through
the package resolver, relative paths against the description's folder), except that
``model://NAME/rest`` is first ``rest`` in the model folder ``NAME`` on Gazebo's resource
path (``--resource-path``, ``GZ_SIM_RESOURCE_PATH``, ...: the
:class:`~sdf_tools.resources.models.ModelFinder` of ``<include>`` s), and only when that
holds no folder ``NAME`` in the ROS package ``NAME`` (libsdformat's URDF converter writes
``package://pkg/x`` as ``model://pkg/x``).

A description may come from anyone, and the folder is meant to be shared: export copies
only what a simulator loads as a resource, so that no description can have it copy
``~/.ssh/id_rsa``, ``~/.netrc`` or a folder of documents. A file is copied only when

* it is a file of a ROS package or of a model folder: the package or model folder a
  ``package://`` or ``model://`` URI names, else the nearest folder at or above the file
  holding ``package.xml`` or ``model.config``; inside it once symbolic links are followed;
* no name of its path in that folder starts with ``.`` (no hidden file, nothing in a
  hidden folder);
* its suffix (:data:`RESOURCE_KINDS`) is what its use loads (:data:`ACCEPTS`): a mesh for
  a mesh, an image for a texture, a material script for a material ``<script>``; for what a
  mesh names, a material library, a buffer or an image.

A URI naming a folder is copied only when it is the ``<uri>`` of a material ``<script>``
(``model://arm/materials/scripts``), and then as Gazebo reads it: the material scripts,
shader programs and images directly in it (at most :data:`MAX_FOLDER_FILES`). What a mesh
names (an OBJ's ``.mtl`` and its texture, a COLLADA file's images, a glTF's buffers: trimesh
tells, :func:`sdf_tools.resources.meshes.referenced_files`) is copied under the same rules,
when named by a relative path. Anything else is not copied, and is a warning
(``not-copied``) saying why; what is not found, or lies in no package or model folder, is
gathered in :attr:`Plan.left` for :func:`sdf_tools.exporting.report.summary` to say once. A
mesh that trimesh (when installed) cannot read is copied with a warning (``bad-mesh``).
URIs that name no local file, which Gazebo resolves itself (``https://``, Fuel, Gazebo's
own ``file://media/...``), are left as written.

Each file copied keeps its path in its package or model folder
(``package://arm/meshes/a.stl`` -> ``meshes/a.stl``), so that what meshes refer to by
relative path is found beside them; when the files of two packages (or folders) would take
the same path, every file of the later one goes below a folder of its name
(``gripper/meshes/base.stl``).
"""

from collections.abc import Iterable
import os
import re
from typing import TYPE_CHECKING

from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.models import in_model
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.package_places import read_manifest
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.packages import unquote
from sdf_tools.resources.uris import locate

if TYPE_CHECKING:  # (pathlib: imported when a file is placed)
    from pathlib import Path

#: What a simulator loads as a resource, by file suffix (in lower case): the only files
#: export copies. Meshes (Gazebo reads STL, COLLADA and OBJ, gz-sim also glTF and FBX, OGRE
#: its own ``.mesh``), what meshes name besides images (an OBJ's material library, a glTF's
#: buffers), images (textures, heightmaps), material scripts and the shader programs they
#: name.
RESOURCE_KINDS = {
    **dict.fromkeys(('.stl', '.dae', '.obj', '.ply', '.gltf', '.glb', '.fbx', '.mesh'),
                    'mesh'),
    **dict.fromkeys(('.mtl', '.bin'), 'mesh part'),
    **dict.fromkeys(('.png', '.jpg', '.jpeg', '.tga', '.bmp', '.dds', '.tif', '.tiff', '.gif',
                     '.ktx', '.exr', '.hdr'), 'image'),
    **dict.fromkeys(('.material', '.program', '.cg', '.glsl', '.hlsl', '.vert', '.frag'),
                    'material'),
}
#: How a file is named (a :class:`Use`'s kind, a mesh's reference, a material folder's
#: entry) -> the kinds of :data:`RESOURCE_KINDS` copied for it, and what it is called.
ACCEPTS = {
    'mesh': ({'mesh'}, 'a mesh'),
    'texture': ({'image'}, 'an image'),
    'script': ({'material'}, 'a material script'),
    'resource': ({'mesh', 'image', 'material'}, 'a mesh, an image or a material script'),
    'reference': ({'mesh part', 'image'}, "a mesh's material library, buffer or image"),
    'folder': ({'material', 'image'}, 'a material script, shader program or image'),
}
#: Most entries a material folder may hold; a larger folder is not copied.
MAX_FOLDER_FILES = 1000
#: Files the exported folder holds itself.
RESERVED = frozenset({'model.sdf', 'model.config'})
_MODEL = 'model://'
_OUTCOMES = ('copied', 'refused', 'left')  # of a file several URIs name: the first wins
_UNSAFE = re.compile(r'[^A-Za-z0-9._-]')


@record(frozen=True)
class Use:
    """
    One use of a URI; ``entity`` and ``location`` say where it is, for warnings.

    ``kind`` is ``mesh``, ``texture``, ``script`` (the ``<uri>`` of a material
    ``<script>``) or ``resource`` (any other ``<uri>``).
    """

    uri: str
    kind: str
    entity: str | None = None
    location: SourceLocation | None = None


@record(frozen=True, eq=False)
class Left:
    """
    A use whose file is not copied for a common reason, said once for all of them.

    ``why`` groups them: ``'missing'`` (no such file), ``'outside'`` (in no ROS package or
    model folder), or the :class:`PackageNotFoundError` of a package not found; ``name`` is
    the URI as written, or for a package not found, the path in it.
    """

    use: Use
    why: 'str | PackageNotFoundError'
    name: str


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
        What is not copied, and why, but for :attr:`left`; meshes trimesh cannot read.
    not_copied : frozenset of str
        The URIs not copied (those warned about and those of :attr:`left`).
    left : tuple of Left
        The uses not copied because their file is missing or in no package or model folder.
    used : dict
        ``(kind, outcome)`` -> how many files (or folders) the uses name, each once: kind
        ``'mesh'`` or ``'other'`` (any other use), outcome ``'copied'``, ``'left'`` (in
        :attr:`left`) or ``'refused'`` (a warning says why).
    inputs : frozenset of str
        Every file named that exists (copied or not: ``--auto-inertials`` reads meshes) and
        the ``package.xml`` files read to name packages: what the export must not replace.

    """

    uris: dict
    files: dict
    warnings: tuple[Diagnostic, ...] = ()
    not_copied: frozenset = frozenset()
    left: tuple[Left, ...] = ()
    used: dict = field(default_factory=dict)
    inputs: frozenset = frozenset()


@record(frozen=True, slots=True)
class _Root:
    """Files placed together (a package, a model folder), keeping their paths."""

    folder: str
    name: str


def plan(uses: Iterable[Use], name: str, packages: PackageResolver | None, folder: str | None,
         models: ModelFinder | None = None) -> Plan:
    """
    Locate, check and place every file of ``uses`` (module docstring).

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
    used: dict = {}
    for outcome in planner.used.values():
        used[outcome] = used.get(outcome, 0) + 1
    return Plan(uris, files, tuple(planner.warnings), frozenset(planner.not_copied),
                tuple(planner.left), used, frozenset(planner.inputs))


def _join(*parts: str) -> str:
    return '/'.join(part for part in parts if part and part != '.')


def _inside(path: str, folder: str) -> bool:
    return os.path.commonpath([path, folder]) == folder


def _contained(path: str, folder: str) -> bool:
    """Return whether ``path`` is inside ``folder`` once symbolic links are followed."""
    return _inside(os.path.realpath(path), os.path.realpath(folder))


def _hidden(relative: str) -> bool:
    """Return whether a path below a folder has a name starting with ``.`` (not ``.``)."""
    return any(part.startswith('.') for part in relative.split(os.sep) if part != '.')


def kind_of(path: str) -> str | None:
    """Return the kind of resource a file is by its suffix (:data:`RESOURCE_KINDS`)."""
    return RESOURCE_KINDS.get(os.path.splitext(path)[1].lower())


class _Planner:
    """Collects the files of :func:`plan`, grouped by root, each once; then places them."""

    def __init__(self, packages: PackageResolver | None, folder: str | None,
                 models: ModelFinder | None = None) -> None:
        self.packages = packages
        # The resource path only: the package NAME is looked up by ``packages``, as before.
        self.models = None if models is None else replace(models, packages=None)
        self.folder = None if folder is None else os.path.abspath(folder)
        self.roots: dict[str, _Root] = {}      # root folder -> root
        self.entries: dict[str, list] = {}     # root folder -> [(path below root, file)]
        self.placed: dict[str, tuple] = {}     # real path -> (root folder, path below root)
        self.uri_files: dict[str, tuple] = {}  # URI -> (root folder, path below root)
        self.warnings: list[Diagnostic] = []
        self.left: list[Left] = []
        self.used: dict = {}                   # file (real path) or URI -> (kind, outcome)
        self.inputs: set[str] = set()
        self.marked: dict = {}                 # folder -> nearest package or model folder
        self.seen: set[str] = set()
        self.not_copied: set[str] = set()

    def warn(self, use: Use, message: str, code: Code = Code.NOT_COPIED) -> None:
        if code is Code.NOT_COPIED:
            self.not_copied.add(use.uri)
        self.warnings.append(Diagnostic(message, use.location, use.entity, Severity.WARNING,
                                        code))

    def leave(self, use: Use, why: 'str | PackageNotFoundError', name: str) -> None:
        self.not_copied.add(use.uri)
        self.left.append(Left(use, why, name))

    def add(self, use: Use) -> None:
        """Locate one use's URI (once per URI), check it, and add its file or folder."""
        if use.uri in self.seen or _left_to_gazebo(use.uri):
            return
        self.seen.add(use.uri)
        path, outcome = self._add(use)
        key = os.path.realpath(path) if path is not None else use.uri
        kind, before = self.used.get(key, ('mesh' if use.kind == 'mesh' else 'other', 'left'))
        self.used[key] = (kind, min(outcome, before, key=_OUTCOMES.index))

    def _add(self, use: Use) -> tuple[str | None, str]:
        """Add one use; return the file it names (``None``: not located), and the outcome."""
        uri = use.uri
        model = self.models.model_folder(uri) if self.models is not None else None
        try:
            located = locate(uri, self.packages, self.folder, model_as_package=True) \
                if model is None else in_model(uri, model)
        except PackageNotFoundError as e:
            self.leave(use, e, unquote(uri.partition('://')[2].partition('/')[2]) or uri)
            return None, 'left'
        except ValueError as e:
            self.warn(use, f'{uri} is not copied: {e}')
            return None, 'refused'
        path = os.path.abspath(located)
        if '\0' in path:  # %00: no file has such a name, and the system refuses to look
            self.warn(use, f'{uri} is not copied: its path holds a NUL character (%00)')
            return None, 'refused'
        if os.path.isfile(path):
            self.inputs.add(path)
        root = self._root(uri, path, model)
        if root is None:
            self.leave(use, 'outside', uri)
            return path, 'left'
        why = self._refusal(path, root, use.kind)
        if why is not None:
            self.warn(use, f'{uri} is not copied: {why}')
            return path, 'refused'
        if os.path.isdir(path):
            return path, 'copied' if self._add_folder(use, path, root) else 'refused'
        if not os.path.isfile(path):
            self.leave(use, 'missing', uri)
            return path, 'left'
        if not os.access(path, os.R_OK):
            self.warn(use, f'{uri} is not copied: {path} cannot be read')
            return path, 'refused'
        self.uri_files[uri] = self._add_file(path, root)
        if kind_of(path) == 'mesh':
            self._read_mesh(use, path, root)
        return path, 'copied'

    def _refusal(self, path: str, root: _Root, kind: str) -> str | None:
        """Return why ``path`` of ``root``, named as ``kind`` (:data:`ACCEPTS`), is not copied."""
        if not _contained(path, root.folder):
            return (f'{path} leads outside {root.folder} (a symbolic link), and export copies '
                    'only what is inside it')
        real = os.path.relpath(os.path.realpath(path), os.path.realpath(root.folder))
        if _hidden(os.path.relpath(path, root.folder)) or _hidden(real):
            return (f"{path} is hidden (a name in its path in {root.folder} starts with '.'), "
                    'and export copies no hidden file and nothing in a hidden folder')
        if os.path.isdir(path):
            return None if kind == 'script' else (
                f'{path} is a folder, and export copies a folder only for the <uri> of a '
                'material <script>')
        accepted, noun = ACCEPTS[kind]
        if kind_of(path) not in accepted and os.path.lexists(path):
            return (f'{os.path.basename(path)!r} is not {noun} by its suffix, and export '
                    'copies only what a simulator loads as one')
        return None

    def _root(self, uri: str, path: str, model: str | None = None) -> _Root | None:
        """
        Return the package or model folder a located file is copied from, or ``None``.

        ``model``: the model folder found for the URI (:meth:`ModelFinder.model_folder`).
        """
        if model is not None:
            return _Root(model, unquote(uri[len(_MODEL):].partition('/')[0]))
        for scheme in ('package://', 'model://'):
            if uri.startswith(scheme):
                package = uri[len(scheme):].partition('/')[0]
                assert self.packages is not None   # it located the URI
                folder = os.path.abspath(self.packages.find(package))
                self.inputs.add(os.path.join(folder, 'package.xml'))
                return _Root(folder, package)
        start = os.path.dirname(path)
        if start not in self.marked:
            self.marked[start] = self._nearest(start)
        return self.marked[start]

    def _nearest(self, folder: str) -> _Root | None:
        """Return the nearest package or model folder at or above ``folder``, or ``None``."""
        while True:
            if os.path.isfile(os.path.join(folder, 'package.xml')):
                self.inputs.add(os.path.join(folder, 'package.xml'))
                try:
                    return _Root(folder, read_manifest(folder).name)
                except ValueError:
                    return _Root(folder, os.path.basename(folder))
            if os.path.isfile(os.path.join(folder, 'model.config')):
                return _Root(folder, os.path.basename(folder))
            parent = os.path.dirname(folder)
            if parent == folder:
                return None
            folder = parent

    def _add_file(self, path: str, root: _Root) -> tuple:
        """Add one file (once: a file reached again keeps its first place)."""
        real = os.path.realpath(path)
        if real in self.placed:
            return self.placed[real]
        key = root.folder
        self.roots.setdefault(key, root)
        relative = os.path.relpath(path, root.folder).replace(os.sep, '/')
        self.entries.setdefault(key, []).append((relative, _path(path)))
        self.placed[real] = (key, relative)
        return self.placed[real]

    def _add_folder(self, use: Use, path: str, root: _Root) -> bool:
        """
        Add the files of a material folder as Gazebo reads it; return whether any is copied.

        Its material scripts, shader programs and images directly in it (module docstring):
        other files and subfolders Gazebo does not read. One of those refused is a warning,
        and so is a folder of which nothing is copied (its URI is then left as written).
        """
        try:
            entries = sorted(os.listdir(path))
        except OSError as e:
            self.warn(use, f'{use.uri} is not copied: the folder {path} cannot be read '
                      f'({e.strerror})')
            return False
        if len(entries) > MAX_FOLDER_FILES:
            self.warn(use, f'{use.uri} is not copied: the folder {path} holds more than '
                      f'{MAX_FOLDER_FILES} entries')
            return False
        copied = others = 0
        for entry in entries:
            file = os.path.join(path, entry)
            if os.path.isdir(file) or kind_of(entry) not in ACCEPTS['folder'][0]:
                others += 1  # Gazebo does not read it
                continue
            why = self._refusal(file, root, 'folder')
            if why is None and not (os.path.isfile(file) and os.access(file, os.R_OK)):
                why = f'{file} cannot be read'
            if why is None:
                self._add_file(file, root)
                self.inputs.add(file)
                copied += 1
            else:
                self.warn(use, f'{entry} (in {use.uri}) is not copied: {why}')
        if not copied:  # its URI would name a folder the export does not hold
            self.warn(use, f'{use.uri} is not copied: the folder {path} holds no material '
                      'script, shader program or image to copy'
                      + (f' ({_count(others, "other entry", "other entries")})'
                         if others else ''))
            return False
        relative = os.path.relpath(path, root.folder).replace(os.sep, '/')
        self.uri_files[use.uri] = (root.folder, _join(relative))
        return True

    def _read_mesh(self, use: Use, path: str, root: _Root) -> None:
        """
        Read a copied mesh with trimesh: warn if it cannot, add what it names (module docstring).

        Without trimesh, only a mesh that may name files is a warning (they are not known).
        """
        from sdf_tools.resources import meshes  # trimesh: imported there when a mesh is read
        try:
            names = meshes.referenced_files(path, root.folder)
        except ConversionError as e:  # trimesh is not installed
            if os.path.splitext(path)[1].lower() in meshes.REFERENCING_SUFFIXES:
                self.warn(use, f'{use.uri}: the files it refers to (textures, materials) are '
                          f'not copied: {e.diagnostic.message}')
            return
        except ValueError as e:
            self.warn(use, f'{use.uri} is copied, but {e}: a simulator may not read it either, '
                      'and the files it may refer to are not copied', Code.BAD_MESH)
            return
        for name in names:
            self._add_reference(use, path, root, name)

    def _add_reference(self, use: Use, mesh: str, root: _Root, name: str) -> None:
        """Add a file a mesh names, by a relative path inside its root (warn about others)."""
        written = name.strip()
        target = os.path.normpath(os.path.join(os.path.dirname(mesh), written))
        if '://' in written or os.path.isabs(written):
            self.warn(use, f'{use.uri} refers to {written!r}, not by a relative path: it '
                      'is not copied, and the exported mesh will not find it elsewhere')
        elif not _inside(target, root.folder):
            self.warn(use, f'{use.uri} refers to {written!r}, outside {root.folder}: it '
                      'is not copied')
        elif (why := self._refusal(target, root, 'reference')) is not None:
            self.warn(use, f'{use.uri} refers to {written!r}, which is not copied: {why}')
        elif not os.path.isfile(target):
            self.warn(use, f'{use.uri} refers to {written!r}, which does not exist '
                      f'({target})')
        else:
            self.inputs.add(target)
            self._add_file(target, root)

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


def _count(number: int, one: str, many: str) -> str:
    return f'{number} {one if number == 1 else many}'


def _path(path: str) -> 'Path':
    from pathlib import Path
    return Path(path)
