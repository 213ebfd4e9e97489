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
Gazebo model folders: what an SDFormat ``<include><uri>`` names, and the file it reads.

A :class:`ResourcePath` says where models are looked for, a :class:`ModelFinder` looks
there (:meth:`ModelFinder.find`). The URI of an include is:

* ``model://NAME/rest`` and a relative path (``NAME/rest``, PX4's ``<uri>x500</uri>``):
  one lookup, as libsdformat strips the scheme and looks both up alike (its ``findFile``),
  in this order, the first that exists:

  - ``NAME/rest`` in the folder of the file that holds the include (libsdformat tries its
    working directory there; sdf_tools never does, so that what is read does not depend on
    where it runs);
  - in each folder of the resource path in order: the folders given (``--resource-path
    DIR``), then ``GZ_SIM_RESOURCE_PATH``, ``IGN_GAZEBO_RESOURCE_PATH``, ``SDF_PATH`` and
    ``GAZEBO_MODEL_PATH`` (each ``:``-separated);
  - ``rest`` in the ROS package ``NAME``'s folder (as Gazebo finds it when ros_gz puts the
    share folders on its resource path);

  a path that climbs out (``../x``) only in the file's folder; ``model://`` with one is an
  error;
* ``package://pkg/rest``: ``rest`` in the package's folder;
* ``file:///abs/path`` and absolute paths: as written;
* ``http://``, ``https://`` (Gazebo Fuel) and other schemes: an error; nothing is fetched.

The files a model uses (``model://NAME/meshes/arm.stl``) are found the same way: in the model
folder ``NAME`` the resource path holds, else in the ROS package ``NAME``
(:meth:`ModelFinder.model_folder`, :func:`in_model`; every command and ``export`` look them
up so, through :func:`sdf_tools.resources.uris.locate`).

What is found is a model folder or a file. A folder's ``model.config`` (or the deprecated
``manifest.xml``) names its SDFormat file (:func:`model_file`): among its ``<sdf
version="...">`` entries the highest version sdf_tools reads, as libsdformat picks the
highest it reads; without versions, the first. That file must be inside the model folder
(no absolute path, no ``..``, no symbolic link out of it): a model.config never makes
sdf_tools read a file elsewhere.
"""

from collections.abc import Iterable
from collections.abc import Mapping
import os

from lxml import etree

from sdf_tools.records import record
from sdf_tools.resources.packages import given_folders
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.packages import split_folders
from sdf_tools.resources.packages import unquote
from sdf_tools.xmlio.parse import parse_xml_file

#: The environment variables of Gazebo's resource path, in the order searched.
ENVIRONMENT = ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
               'GAZEBO_MODEL_PATH')
#: Largest ``model.config`` read (bytes).
MAX_CONFIG_BYTES = 1024 * 1024
_MODEL = 'model://'
_PACKAGE = 'package://'
_FILE = 'file://'
#: The URI schemes of models on the web (Gazebo Fuel), which are never downloaded.
WEB_SCHEMES = ('http://', 'https://')


class ModelNotFoundError(LookupError):
    """An include URI names nothing that can be read; the text says where it looked."""


@record(frozen=True, slots=True)
class ResourcePath:
    """
    Where ``model://`` and relative include URIs are looked for (module docstring).

    Attributes
    ----------
    folders : tuple of (str, str)
        ``(folder, route)`` in the order searched; ``route`` says where the folder comes
        from (``--resource-path``, ``GZ_SIM_RESOURCE_PATH``, ...), for messages.
    unset : tuple of str
        The environment variables that are not set (messages list them).

    """

    folders: tuple[tuple[str, str], ...] = ()
    unset: tuple[str, ...] = ()

    @classmethod
    def from_environment(cls, folders: Iterable[str] = (), *, option: str = '--resource-path',
                         environ: Mapping[str, str] | None = None) -> 'ResourcePath':
        """
        Return the folders given, then those of the environment (:data:`ENVIRONMENT`).

        The parameters and the ``ValueError`` for a folder that does not exist are
        :meth:`~sdf_tools.resources.packages.PackagePath.from_environment`'s.
        """
        environ = os.environ if environ is None else environ
        found = [(folder, option) for folder in given_folders(folders, option)]
        unset = []
        for name in ENVIRONMENT:
            value = environ.get(name)
            if value is None:
                unset.append(name)
            found += [(folder, name) for folder in split_folders(value)]
        return cls(tuple(found), tuple(unset))

    def described(self) -> str:
        """Return the folders for messages: ``/a (--resource-path), SDF_PATH (not set)``."""
        items = [f'{folder} ({route}{"" if os.path.isdir(folder) else ": no such folder"})'
                 for folder, route in self.folders]
        items += [f'{name} (not set)' for name in self.unset]
        return ', '.join(items) or 'nothing'


@record(frozen=True, slots=True, eq=False)
class ModelFinder:
    """
    Finds what include URIs name (module docstring).

    Attributes
    ----------
    resource_path : ResourcePath
        Where ``model://`` and relative URIs are looked for.
    packages : PackageResolver or None
        Finds ``package://`` packages and ``model://NAME`` as the package ``NAME``.
    option : str
        How the user adds a folder, for messages.

    """

    resource_path: ResourcePath = ResourcePath()
    packages: PackageResolver | None = None
    option: str = '--resource-path'

    def find(self, uri: str, folder: str | None) -> str:
        """
        Return the model folder or file an include URI names (it exists).

        Parameters
        ----------
        uri : str
            The ``<uri>`` text, stripped.
        folder : str or None
            The folder of the file holding the include (``None``: text not read from a file).

        Raises
        ------
        ModelNotFoundError
            It names nothing found, or nothing sdf_tools may read (a web URI).

        """
        if uri.startswith(WEB_SCHEMES):
            import shlex  # only for this advice
            raise ModelNotFoundError(
                f'{uri}: sdf_tools does not download models (no network); download it '
                f'(e.g. gz fuel download -u {shlex.quote(uri)}) and include the downloaded '
                f'folder by its path, or put its parent folder on {self.option} or '
                'GZ_SIM_RESOURCE_PATH and include it as model://NAME')
        if uri.startswith(_FILE):
            path = unquote(uri[len(_FILE):])
            if not os.path.isabs(path):
                raise ModelNotFoundError(f'{uri}: a file:// URI needs an absolute path')
            return _existing(path, uri)
        if uri.startswith(_PACKAGE):
            return self._in_package(uri)
        if uri.startswith(_MODEL):
            relative = unquote(uri[len(_MODEL):]).rstrip('/')
            if not relative or _leaves(relative):
                raise ModelNotFoundError(f'{uri}: not a model name')
        elif '://' in uri:
            raise ModelNotFoundError(f'{uri}: unknown URI scheme (sdf_tools reads model://, '
                                     'package://, file:// and paths)')
        else:
            relative = unquote(uri)
            if os.path.isabs(relative):
                return _existing(relative, uri)
        return self._lookup(uri, relative, folder)

    def _lookup(self, uri: str, relative: str, folder: str | None) -> str:
        """Return ``model://relative`` or ``relative``: one lookup (module docstring)."""
        if folder is not None and os.path.exists(os.path.join(folder, relative)):
            return os.path.normpath(os.path.join(folder, relative))
        here = '' if folder is None else f" in the including file's folder {folder}"
        if _leaves(relative):
            raise ModelNotFoundError(f'{uri}: not found{here}; a path that climbs out of '
                                     "its folder is looked for only in the including file's")
        for base, _ in self.resource_path.folders:
            candidate = os.path.join(base, relative)
            if os.path.exists(candidate):
                return os.path.normpath(candidate)
        name, _, rest = relative.partition('/')
        tried = ''
        if self.packages is not None:
            try:
                found = self.packages.find(name)
            except PackageNotFoundError:
                tried = f", nor is '{name}' a ROS package found"
            else:
                candidate = os.path.join(found, rest) if rest else str(found)
                if os.path.exists(candidate):
                    return os.path.normpath(candidate)
                tried = f", nor in package '{name}' ({found})"
        beside = '' if folder is None else os.path.dirname(os.path.abspath(folder))
        beside = f' ({beside} holds it)' if beside and os.path.exists(
            os.path.join(beside, name)) else ''
        raise ModelNotFoundError(f'{uri}: not found in {self.resource_path.described()}'
                                 f'{tried}{here and ", nor" + here}; add the folder holding '
                                 f'{name}/{beside} with {self.option} or GZ_SIM_RESOURCE_PATH')

    def model_folder(self, uri: str) -> str | None:
        """
        Return the model folder ``model://NAME/...`` names, or ``None`` if none is found.

        ``NAME`` in each folder of the resource path, then the ROS package ``NAME`` (as
        :meth:`find` looks for ``model://NAME``); ``None`` also for a URI of another scheme.
        """
        if not uri.startswith(_MODEL):
            return None
        name = uri[len(_MODEL):].partition('/')[0]
        try:
            found = self.find(_MODEL + name, None)
        except ModelNotFoundError:  # not there (or no model name)
            return None
        return os.path.abspath(found) if os.path.isdir(found) else None

    def _in_package(self, uri: str) -> str:
        if self.packages is None:
            raise ModelNotFoundError(f'{uri}: no package lookup to find its package')
        try:
            path = self.packages.resolve_uri(uri)
        except PackageNotFoundError as e:
            raise ModelNotFoundError(f'{uri}: {e}') from None
        except ValueError as e:
            raise ModelNotFoundError(str(e)) from None
        return _existing(str(path), uri)


def in_model(uri: str, model: str) -> str:
    """
    Return the file ``model://NAME/rest`` names in ``model``, the model folder found for NAME.

    Raises
    ------
    ValueError
        ``rest`` leaves the model folder (``..``, an absolute path).

    """
    rest = unquote(uri[len(_MODEL):].partition('/')[2])
    path = os.path.normpath(os.path.join(model, rest))
    if os.path.commonpath([path, model]) != model:
        raise ValueError(f'{uri}: the path leaves the model folder {model}')
    return path


def _leaves(relative: str) -> bool:
    """Return whether a relative path climbs out of its folder (or is absolute)."""
    normal = os.path.normpath(relative)
    return os.path.isabs(relative) or normal == '..' or normal.startswith('..' + os.sep)


def _existing(path: str, uri: str) -> str:
    if not os.path.exists(path):
        raise ModelNotFoundError(f'{uri}: {path} does not exist')
    return path


def model_file(folder: str, newest: tuple[int, int]) -> tuple[str, str | None]:
    """
    Return the SDFormat file a model folder's ``model.config`` names, and a note.

    Parameters
    ----------
    folder : str
        The model folder.
    newest : tuple
        The newest SDFormat version the reader reads, ``(major, minor)``: entries of newer
        versions are passed over, as libsdformat passes over those newer than it reads.

    Returns
    -------
    tuple
        ``(path, note)``: the file (a regular file inside ``folder``); ``note`` is a warning
        text (a ``manifest.xml`` instead of ``model.config``) or ``None``.

    Raises
    ------
    ModelNotFoundError
        No readable model.config, no ``<sdf>`` entry, or an entry that names a file that does
        not exist or is outside the folder.

    """
    note = None
    config = os.path.join(folder, 'model.config')
    if not os.path.isfile(config):
        manifest = os.path.join(folder, 'manifest.xml')
        if not os.path.isfile(manifest):
            raise ModelNotFoundError(f'{folder}: a model folder needs a model.config naming '
                                     'its SDFormat file')
        config = manifest
        note = f'{manifest}: manifest.xml is deprecated; Gazebo reads model.config'
    try:
        root = parse_xml_file(config, MAX_CONFIG_BYTES)
    except ValueError as e:
        raise ModelNotFoundError(str(e)) from None
    if root.tag != 'model':
        raise ModelNotFoundError(f'{config}: the root element must be <model>, got '
                                 f'<{root.tag}>')
    entry = _best_entry([e for e in root if e.tag == 'sdf'], newest)
    named = '' if entry is None else (entry.text or '').strip()
    if not named:
        raise ModelNotFoundError(f'{config}: no <sdf> element naming the model file')
    return _inside(folder, named, config), note


def _best_entry(entries: list[etree._Element],
                newest: tuple[int, int]) -> etree._Element | None:
    """Return the ``<sdf>`` entry libsdformat would choose (module docstring)."""
    best, best_version = (entries[0] if entries else None), (0, 0)
    for entry in entries:
        version = _version((entry.get('version') or '').strip())
        if version is not None and best_version < version <= newest:
            best, best_version = entry, version
    return best


def _version(text: str) -> tuple[int, int] | None:
    """Return ``(major, minor)`` of ``1.9`` or ``1.9.0``; ``None`` for anything else."""
    parts = text.split('.')
    if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts) or \
            any(len(p.lstrip('0')) > 9 for p in parts):   # int() refuses 4300 digits
        return None
    return int(parts[0]), int(parts[1])


def _inside(folder: str, name: str, config: str) -> str:
    """Return the file ``name`` in ``folder``; refuse one that is elsewhere or missing."""
    if _leaves(name):
        raise ModelNotFoundError(f'{config}: <sdf> names {name!r}, outside the model folder; '
                                 'sdf_tools reads only files inside it')
    path = os.path.normpath(os.path.join(folder, name))
    real = os.path.realpath(path)
    if os.path.commonpath([real, os.path.realpath(folder)]) != os.path.realpath(folder):
        raise ModelNotFoundError(f'{config}: <sdf> names {name!r}, a link to a file outside '
                                 'the model folder; sdf_tools reads only files inside it')
    if not os.path.isfile(path):
        raise ModelNotFoundError(f'{config}: <sdf> names {name!r}, which is not a file in '
                                 f'{folder}')
    return path
