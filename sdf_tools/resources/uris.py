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
The files a description's meshes and textures name: where they are, and whether they exist.

:func:`locate` turns one URI into a path; :func:`check_uris` is the one place that checks
every mesh and texture URI of a description and says which name no file (the URDF converter
calls it when it has a :class:`~sdf_tools.resources.packages.PackageResolver`,
:func:`sdf_tools.loading.to_sdf` for the other formats, and the nodes through
:func:`sdf_tools.loading.load` with ``LoadOptions.check_uris``):

* ``package://pkg/path``: ``path`` in the package's folder (the resolver finds it);
* ``file:///abs/path`` and absolute paths: as written;
* ``model://pkg/path``: as ``package://``, only when asked (``--mesh-uris file``): Gazebo
  resolves it through its resource path, which a share folder's parent makes the same file;
* relative paths: against the description file's folder, only when asked and when the
  description came from a file;
* anything else (``https://``, Fuel URLs): not a local file.

The texts of ``<gazebo>`` content (a gz_ros2_control ``<parameters>`` file, a material
script ``<uri>``, any element text or attribute value) are looked up too, when they are
``package://`` URIs, ``file://`` URIs of absolute paths, or absolute paths whose last part
has a ``.`` (:func:`gazebo_uses`: a file name with an extension; ROS names, such as the topic
``/scan`` or a ``/tf:=tf`` remapping, have none). There a folder counts as found (a material
script ``<uri>`` names one), and ``file://media/...`` (relative) is left to Gazebo's resource
path. Other texts are never looked at: only a text holding a ``/`` is trimmed and compared.
"""

import os
import stat
from typing import TYPE_CHECKING

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.records import replace
from sdf_tools.resources.models import in_model
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.packages import unquote
from sdf_tools.xmlio.parse import local_name

if TYPE_CHECKING:
    from pathlib import Path

    from sdf_tools.model import Robot

#: A use of a URI: ``(uri, what, entity, location)`` (``what``: ``''`` for a mesh or texture).
_Use = tuple[str, str, str, SourceLocation | None]

#: URI schemes looked up in a package: ``model://`` only where Gazebo's is meant.
_PACKAGE = 'package://'
_MODEL = 'model://'
_FILE = 'file://'


class ModelFolderNotFoundError(PackageNotFoundError):
    """``model://NAME/...``: no model folder ``NAME`` on the resource path, no package ``NAME``."""

    def __init__(self, missing: PackageNotFoundError, models: ModelFinder) -> None:
        LookupError.__init__(
            self, f"no model folder '{missing.package}' in "
            f'{models.resource_path.described()}, and {missing}; add the folder holding '
            f'{missing.package}/ with {models.option} or GZ_SIM_RESOURCE_PATH')
        self.package = missing.package
        self.searched = missing.searched


def locate(uri: str, packages: PackageResolver | None, folder: str | None = None, *,
           model_as_package: bool = False, models: ModelFinder | None = None) -> 'Path':
    """
    Return the file a mesh or texture URI names (it need not exist).

    Parameters
    ----------
    uri : str
        As written in the description.
    packages : PackageResolver or None
        Finds the packages of ``package://`` (and ``model://``) URIs.
    folder : str, optional
        The description file's folder, for relative paths (``None``: not resolved).
    model_as_package : bool
        Look ``model://pkg/...`` up as ``package://pkg/...``.
    models : ModelFinder, optional
        Look ``model://NAME/rest`` up first as ``rest`` in the model folder ``NAME`` on
        Gazebo's resource path (``--resource-path``, ``GZ_SIM_RESOURCE_PATH``, ``SDF_PATH``,
        ...), as ``<include>`` s and ``export`` do
        (:meth:`~sdf_tools.resources.models.ModelFinder.model_folder`).

    Raises
    ------
    PackageNotFoundError
        The package is not found (with ``models``, for a ``model://`` URI: a
        :class:`ModelFolderNotFoundError` naming the resource path too).
    ValueError
        The URI names no local file that can be found (the text says why).

    """
    written = uri
    if uri.startswith(_MODEL) and models is not None:
        model = models.model_folder(uri)
        if model is not None:
            from pathlib import Path  # imported when a file is looked up (unquote says why)
            return Path(in_model(uri, model))
    if uri.startswith(_MODEL) and model_as_package:
        uri = _PACKAGE + uri[len(_MODEL):]
    if uri.startswith(_PACKAGE):
        if packages is None:
            raise ValueError(f'{written}: no package resolver to find its package')
        try:
            return packages.resolve_uri(uri)
        except PackageNotFoundError as e:
            if models is None or written == uri:
                raise
            raise ModelFolderNotFoundError(e, models) from None
        except ValueError as e:  # its text starts with the URI looked up: name it as written
            raise ValueError(str(e).replace(uri, written, 1)) from None
    from pathlib import Path  # imported when a URI is looked up (packages.unquote says why)
    if uri.startswith(_FILE):
        path = unquote(uri[len(_FILE):])
        if not os.path.isabs(path):
            raise ValueError(f'{uri}: not an absolute path')
        return Path(path)
    if '://' in uri:
        raise ValueError(f'{uri}: not a local file')
    if os.path.isabs(uri):
        return Path(uri)
    if folder is None:
        raise ValueError(f'{uri}: a relative path, and the description was not read from a '
                         'file whose folder it could be relative to')
    return Path(os.path.abspath(os.path.join(folder, uri)))


def _exists(path: 'Path', folder_too: bool) -> bool:
    """
    Return whether ``path`` is a file (or, with ``folder_too``, a folder).

    ``OSError`` when that cannot be told (a name too long, a folder not searchable), the same
    on every Python (:mod:`pathlib` raises it on some, says ``False`` on others).
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL (%00)
        return False
    return folder_too or stat.S_ISREG(mode)


def _lookup_warnings(packages: PackageResolver | None, location: SourceLocation | None,
                     entity: str) -> tuple[Diagnostic, ...]:
    """Return the warnings a resolver's lookups left (:meth:`PackageResolver.take_warnings`)."""
    take = getattr(packages, 'take_warnings', None)
    return take(location, entity) if take is not None else ()


def _checked(uri: str, is_mesh: bool, every_mesh: bool) -> bool:
    """Return whether ``uri`` is looked up (module docstring)."""
    if uri.startswith(_PACKAGE) or uri.startswith(_FILE) or os.path.isabs(uri):
        return True
    return is_mesh and every_mesh


def names_a_file(text: str) -> bool:
    """
    Return whether a text of ``<gazebo>`` content (trimmed) is looked up (module docstring).

    A ``package://`` URI, or an absolute path (``file://`` or not) whose last name has a
    ``.``; export names such paths as outside its folder
    (:func:`sdf_tools.exporting.rewrite.leftovers`).
    """
    if text.startswith(_PACKAGE):
        return True
    if text.startswith(_FILE):
        text = text[len(_FILE):]
    return text.startswith('/') and '.' in text.rpartition('/')[2]


def gazebo_uses(robot: 'Robot') -> list[_Use]:
    """
    Return ``(uri, what, entity, location)`` of each path written in ``<gazebo>`` content.

    Element texts and attribute values that :func:`check_uris` looks up (module docstring),
    in document order; ``what`` names the element (``<parameters>``) or the attribute
    (``<plugin> filename``), ``entity`` the block (``<gazebo reference='base'>``).
    """
    uses: list[_Use] = []
    source = robot.source
    for block in robot.gazebo:
        entity = f"<gazebo reference='{block.reference}'>" if block.reference else '<gazebo>'
        for top in block.elements:
            for element in top.iter():
                if not isinstance(element.tag, str):
                    continue
                text = element.text
                if text and '/' in text and names_a_file(text.strip()):
                    uses.append((text.strip(), f'<{local_name(element)}>', entity,
                                 SourceLocation(source, element.sourceline)))
                for name, value in element.items():
                    if '/' in value and names_a_file(value.strip()):
                        what = f"<{local_name(element)}> {name.rpartition('}')[2]}"
                        uses.append((value.strip(), what, entity,
                                     SourceLocation(source, element.sourceline)))
    return uses


def check_uris(robot: 'Robot', packages: PackageResolver | None, folder: str | None = None, *,
               every_mesh: bool = False) -> tuple[dict[str, 'Path'], tuple[Diagnostic, ...]]:
    """
    Look up the URIs of ``robot``'s files; return what was found and the warnings.

    Mesh and texture URIs first: ``package://`` URIs, ``file://`` URIs and absolute paths
    are always looked up; with ``every_mesh`` (``--mesh-uris file``), every mesh URI is
    (``model://`` as a package, relative paths against ``folder``). Then the paths of
    ``<gazebo>`` content (:func:`gazebo_uses`). Each URI is looked up once, at its first use.

    Parameters
    ----------
    robot : Robot
        The description (:meth:`~sdf_tools.model.Robot.resource_uses`, ``Robot.gazebo``).
    packages : PackageResolver or None
        Where packages are.
    folder : str, optional
        The description file's folder.
    every_mesh : bool
        Also look up the mesh URIs that are usually left to Gazebo.

    Returns
    -------
    located : dict
        URI -> absolute :class:`~pathlib.Path` of every URI looked up and located (the file
        may be missing).
    warnings : tuple of Diagnostic
        One per package not found (at its first use, with the places searched) or found
        twice (a duplicate, at the use that looked it up), one per located file that does
        not exist (``missing-file``; in ``<gazebo>`` content, a folder counts) or cannot be
        looked up (``io``: a name too long, a folder not searchable), one per URI that names
        no local file (when looked up because of ``every_mesh``, or a ``package://`` URI
        leaving its package). The URIs of one package (``package:///``: of none) with one
        kind of problem are one warning, at the first, with their count and next places
        (:attr:`~sdf_tools.errors.Diagnostic.count`): a package not built, or a prefix
        written wrong, is one line, not one per mesh.

    """
    located: dict[str, Path] = {}
    problems = _Warnings(every_mesh)
    done = set()
    uses: list[_Use] = [(uri, '', entity, location) for uri, is_mesh, entity, location
                        in robot.resource_uses() if _checked(uri, is_mesh, every_mesh)]
    gazebo = len(uses)
    uses += gazebo_uses(robot)
    for number, use in enumerate(uses):
        uri, _, entity, location = use
        if uri in done:
            continue
        done.add(uri)
        try:
            path = locate(uri, packages, folder, model_as_package=every_mesh)
        except PackageNotFoundError as e:
            problems.warn(use, f'{uri}: {e}', Code.PACKAGE_NOT_FOUND)
            continue
        except ValueError as e:
            problems.warn(use, str(e), Code.WARNING)
            continue
        finally:  # the lookup's own warnings (a duplicate package), at this use
            problems.problems += _lookup_warnings(packages, location, entity)
        located[uri] = path.__class__(os.path.abspath(path))  # a pathlib.Path, as locate's
        try:
            found = _exists(path, folder_too=number >= gazebo)
        except OSError as e:  # a name too long, a folder not searchable, a loop of links
            problems.warn(use, f'{uri}: cannot look up {path}: {e.strerror}', Code.IO)
            continue
        if not found:
            kind = 'file or folder' if number >= gazebo else 'file'
            problems.warn(use, f'{uri}: no such {kind}: {path}', Code.MISSING_FILE)
    return located, problems.grouped()


class _Warnings:
    """:func:`check_uris`' warnings: a package's URIs with one problem are one, counted."""

    def __init__(self, every_mesh: bool) -> None:
        self.every_mesh = every_mesh
        self.problems: list[Diagnostic] = []
        # (code, package) -> (its warning's index, the next uses' places)
        self.groups: dict[tuple[Code, str], tuple[int, list[SourceLocation | None]]] = {}

    def warn(self, use: _Use, message: str, code: Code) -> None:
        """Warn about a use ``(uri, what, entity, location)``, or count it in its group."""
        uri, what, entity, location = use
        package = _package_of(uri, self.every_mesh)
        group = self.groups.get((code, package)) if package is not None else None
        if group is not None:
            group[1].append(location)
            return
        if package is not None:
            self.groups[code, package] = (len(self.problems), [])
        self.problems.append(Diagnostic(f'{what}: {message}' if what else message, location,
                                        entity, Severity.WARNING, code))

    def grouped(self) -> tuple[Diagnostic, ...]:
        """Return the warnings, each group's first with its count and next places."""
        problems = self.problems
        for index, others in self.groups.values():
            if others:  # a model made in code has no places: its uses are counted
                known = sorted((place for place in others if place is not None),
                               key=lambda place: (place.source, place.line or 0))
                problems[index] = replace(problems[index], places=tuple(known[:3]),
                                          count=1 + len(others))
        return tuple(problems)


def _package_of(uri: str, model_as_package: bool) -> str | None:
    """Return the package a ``package://`` URI names (``''``: none), else ``None``."""
    for scheme in (_PACKAGE, _MODEL) if model_as_package else (_PACKAGE,):
        if uri.startswith(scheme):
            return uri[len(scheme):].partition('/')[0]
    return None
