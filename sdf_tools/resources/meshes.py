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
Mesh files read through trimesh (an optional dependency): as triangles, or for the files they name.

Only ``--auto-inertials`` (:func:`load_solid`), ``sdf_tools export``
(:func:`referenced_files`) and ``sdf_tools view`` (:func:`load_triangles`) read meshes, and
only they import this module; trimesh is installed with ``pip install 'sdf_tools[meshes]'``
or ``'sdf_tools[view]'`` (or ``pip install trimesh``; DAE also needs pycollada, convex hulls
scipy). Whatever trimesh reads is read (STL, OBJ, DAE, PLY, glTF, ...): a file holding a
scene of several meshes becomes one mesh, each part placed by the scene's transforms, in
metres when the file gives its unit (COLLADA ``<unit meter>``, which Gazebo applies too).

trimesh reads COLLADA through pycollada, whose XML parser expands entities; a COLLADA (or
other XML) mesh with a DOCTYPE, where entities are declared, is refused before trimesh sees
it, as every description is, also inside an archive (a zipped COLLADA ``.zae``, a ``.zip``,
``.3mf``, ``.3dxml``, ``.bz2``, ``.tar.gz``, ``.tar.bz2``). trimesh decompresses an archive
whole in memory: one that would decompress to more than :data:`MESH_BYTES_LIMIT`, or that
holds another archive, is refused before trimesh opens it (:func:`_check_contents`).
"""

import bz2
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Sequence
import os
import tarfile
from types import ModuleType
from typing import TYPE_CHECKING
import zipfile

from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Diagnostic
from sdf_tools.records import record

if TYPE_CHECKING:  # numpy and trimesh are imported only when a mesh is read
    import numpy as np
    import numpy.typing as npt
    import trimesh
    from trimesh.resolvers import Resolver


@record(frozen=True, eq=False)
class Solid:
    """
    The triangles of a mesh file that bound a solid.

    Attributes
    ----------
    vertices : numpy.ndarray, shape (n, 3)
        Vertex positions (m, scaled) in the mesh frame.
    faces : numpy.ndarray of int, shape (k, 3)
        Vertex indices of each triangle, consistently wound.
    closed : bool
        Whether the file's mesh is closed (watertight and consistently wound). If not,
        ``vertices`` and ``faces`` are those of its convex hull (flat when the mesh is).
    files : tuple of str
        The other files trimesh read for it (an OBJ's material library, a glTF's buffers):
        inputs of the run, as the mesh itself is.

    """

    vertices: 'npt.NDArray[np.float64]'
    faces: 'npt.NDArray[np.int64]'
    closed: bool
    files: tuple[str, ...] = ()


#: Suffixes of the mesh formats that may name other files (materials, textures, buffers).
REFERENCING_SUFFIXES = frozenset({'.obj', '.dae', '.gltf', '.glb', '.ply'})


def require_trimesh(user: str = 'auto_inertials (--auto-inertials)',
                    extra: str = 'meshes') -> ModuleType:
    """
    Return the ``trimesh`` module.

    Parameters
    ----------
    user : str
        What reads meshes, for the message.
    extra : str
        The pip extra of sdf_tools that installs trimesh for it.

    Raises
    ------
    ConversionError
        It is not installed (code ``no-trimesh``), with how to install it; the text says
        that ``user`` needs it.

    """
    try:
        import trimesh
    except ImportError:
        raise ConversionError(Diagnostic(
            f'{user} reads meshes with the trimesh package, which is not installed: '
            f"pip install 'sdf_tools[{extra}]' (or: pip install trimesh scipy pycollada)",
            code=Code.NO_TRIMESH)) from None
    return trimesh


def referenced_files(path: str, within: str) -> tuple[str, ...]:
    """
    Return the names of the files the mesh file ``path`` refers to, as written in it.

    They are the files trimesh asks for while it loads ``path``: an OBJ's material library
    and that library's texture, a COLLADA file's images, a glTF's buffers and images. Those
    named by a relative path that stays inside the folder ``within`` are given to trimesh
    (so that it reads an OBJ's material library and goes on to its texture); no other file
    is read. Each name is given once, in the order asked.

    Raises
    ------
    ConversionError
        trimesh is not installed.
    ValueError
        trimesh cannot read the file, or finds no geometry in it (it returns an empty scene
        for bytes that are no STL).

    """
    trimesh = require_trimesh('sdf_tools export (to find the files a mesh refers to)')
    import logging
    asked: list[str] = []
    resolver = _resolver(path, within, asked)
    quiet = logging.NullHandler()  # trimesh logs what it cannot load; the caller reports it
    logger = logging.getLogger('trimesh')
    logger.addHandler(quiet)
    _check_contents(path)
    try:
        loaded = trimesh.load(path, resolver=resolver)
    except Exception as e:  # trimesh raises whatever its loaders raise
        raise ValueError(f'trimesh cannot read {path} ({type(e).__name__}: {e})') from None
    finally:
        logger.removeHandler(quiet)
    if getattr(loaded, 'is_empty', False):  # what it cannot parse may come back empty
        raise ValueError(f'trimesh finds no geometry in {path}')
    return tuple(asked)


def load_solid(path: str, scale: Sequence[float] | None = None) -> Solid:
    """
    Read a mesh file and return the solid it bounds (its convex hull if it is not closed).

    Parameters
    ----------
    path : str
        The file.
    scale : tuple of float, optional
        URDF ``<mesh scale>`` (x, y, z factors), applied in the mesh frame.

    Raises
    ------
    ConversionError
        trimesh is not installed.
    ValueError
        trimesh cannot read the file, or it holds no triangles.

    """
    served: list[str] = []
    mesh = _read(path, scale, require_trimesh(), served)
    closed = bool(mesh.is_watertight and mesh.is_winding_consistent)
    if not closed:
        import numpy as np
        try:
            with np.errstate(all='ignore'):  # trimesh divides by a flat hull's zero volume
                mesh = mesh.convex_hull
        except Exception as e:  # degenerate point sets: qhull may refuse them
            raise ValueError(f'{path} is not closed and has no convex hull '
                             f'({type(e).__name__})') from None
    return Solid(mesh.vertices, mesh.faces, closed, tuple(served))


def load_triangles(path: str, scale: Sequence[float] | None = None,
                   user: str = 'sdf_tools view') -> 'trimesh.Trimesh':
    """
    Read a mesh file and return its triangles as they are (open or closed).

    ``path`` and ``scale`` are as for :func:`load_solid`; ``user`` is what reads it, for the
    message when trimesh is missing.

    Returns
    -------
    trimesh.Trimesh
        Vertices in metres (scaled) in the mesh frame; ``faces`` wound as the file winds
        them, flipped by a scale that mirrors (a negative product). Errors: as
        :func:`load_solid`'s.

    """
    return _read(path, scale, require_trimesh(user, 'view'))


def _read(path: str, scale: Sequence[float] | None, trimesh: ModuleType,
          served: list[str] | None = None) -> 'trimesh.Trimesh':
    """
    Return the one mesh of the file ``path`` (metres, scaled); ``ValueError`` if none.

    The files it names are read only from its folder (:func:`_resolver`); those read are
    appended to ``served``.
    """
    _check_contents(path)
    resolver = _resolver(path, os.path.dirname(os.path.abspath(path)), [], served)
    try:
        scene = trimesh.load(path, force='scene', resolver=resolver)
        if scene.units not in (None, 'meters', 'm'):  # a DAE <unit>, as Gazebo applies it
            scene = scene.convert_units('meters')
        mesh = scene.to_mesh()
    except Exception as e:  # trimesh raises whatever its loaders raise
        raise ValueError(f'trimesh cannot read {path} ({type(e).__name__}: {e})') from None
    if not isinstance(mesh, trimesh.Trimesh) or len(mesh.faces) == 0:
        raise ValueError(f'{path} holds no triangles')
    if scale is not None and tuple(scale) != (1.0, 1.0, 1.0):
        mesh.apply_transform(_scaling(scale))
    return mesh


def _resolver(path: str, root: str, asked: list[str],
              served: list[str] | None = None) -> 'Resolver':
    """
    Return the trimesh resolver through which a mesh file reads the files it names.

    trimesh must be installed (:func:`require_trimesh`).

    Each name asked for is appended to ``asked`` (once); a file is served, and appended to
    ``served``, only when the name is a relative path to a regular file inside the folder
    ``root`` with no hidden name below it, of at most :data:`MESH_BYTES_LIMIT` bytes.
    trimesh's own resolver would read any path, ``/dev/zero`` and ``../../.ssh`` included.
    """
    from trimesh.resolvers import Resolver
    folder = os.path.dirname(os.path.abspath(path))
    root = os.path.abspath(root)

    class Inside(Resolver):
        """Serves the files inside ``root`` only (see :func:`_resolver`)."""

        def __init__(self) -> None:
            self.file_name = os.path.basename(path)

        def get(self, name: str) -> bytes:
            name = str(name)
            if name not in asked:
                asked.append(name)
            candidate = os.path.normpath(os.path.join(folder, name.strip()))
            below = os.path.relpath(candidate, root)
            if '://' in name or os.path.isabs(name.strip()) or below.startswith('..') or \
                    any(part.startswith('.') for part in below.split(os.sep)) or \
                    not os.path.isfile(candidate) or \
                    os.path.getsize(candidate) > MESH_BYTES_LIMIT:
                raise FileNotFoundError(name)
            with open(candidate, 'rb') as f:
                data = f.read(MESH_BYTES_LIMIT + 1)
            if served is not None and candidate not in served:
                served.append(candidate)
            return data

        def write(self, name: str, data: str | bytes) -> None:
            raise OSError(f'{name}: not written')

        def namespaced(self, namespace: str) -> 'Inside':
            return self

        def keys(self) -> Iterator[str]:
            return iter(())

    return Inside()


#: The most a compressed mesh may decompress to (bytes, all its members together). trimesh
#: holds the whole of it in memory, then pycollada its tree: a 1.5 MB ``.zae`` holding a 1.5 GB
#: comment took 3.2 GB to be refused, one of 250 MB 900 MB to be read; at the limit, reading
#: takes under 400 MB.
MESH_BYTES_LIMIT = 64 << 20
#: Mesh formats trimesh reads as XML (COLLADA, XAML, 3D XML), by trimesh's name of the type.
_XML_MESHES = frozenset({'dae', 'xaml', '3dxml'})
#: Archives trimesh decompresses whole: ZIP files (a ``.zae`` is a zipped COLLADA file) and
#: compressed streams (a ``.bz2`` is read as the file it compresses).
_ZIP_MESHES = frozenset({'zae', 'zip', '3mf', '3dxml'})
_STREAM_MESHES = frozenset({'bz2', 'tar.bz2', 'tar.gz'})
#: How much of an XML mesh is searched for a DOCTYPE before its root element.
_PREAMBLE_BYTES = 1 << 20


def _kind(name: str) -> str:
    """Return the type trimesh reads the file ``name`` as: ``'dae'``, ``'tar.gz'``, ..."""
    name = name.lower()
    return next((end for end in ('tar.bz2', 'tar.gz') if name.endswith(end)),
                name.rsplit('.', 1)[-1])


def _check_contents(path: str) -> None:
    """
    Raise ``ValueError`` if trimesh should not read the mesh file ``path``.

    That is: an XML mesh, or one inside an archive, that declares a DOCTYPE (entities,
    DTDs) or has more than 1 MiB before its root element; an archive that would decompress to
    more than :data:`MESH_BYTES_LIMIT` or that holds an archive trimesh would open in turn.
    Only what these checks need is decompressed: the sizes a ZIP file declares (``zipfile``
    reads no more than them), the first MiB of an XML member, a stream up to the limit.
    """
    kind = _kind(path)
    if kind not in _ZIP_MESHES and kind not in _STREAM_MESHES:
        if kind in _XML_MESHES:
            try:
                with open(path, 'rb') as f:
                    _refuse_doctype(path, f.read(_PREAMBLE_BYTES))
            except OSError:
                pass  # trimesh's own error names it
        return
    try:
        for name, read in _members(path, kind):
            where = f"{path}: '{name}'"
            if _kind(name) in _ZIP_MESHES or _kind(name) in _STREAM_MESHES:
                raise ValueError(f'{where}: an archive inside an archive is not read')
            if _kind(name) in _XML_MESHES:
                _refuse_doctype(where, read(_PREAMBLE_BYTES))
    except ValueError:
        raise
    except Exception as e:  # what zipfile, tarfile, zlib, bz2 and lzma raise on a broken file
        raise ValueError(f'{path}: not a readable {kind} archive ({type(e).__name__}: {e})') \
            from None


def _members(path: str, kind: str) -> Iterator[tuple[str, Callable[[int], bytes]]]:
    """
    Yield ``(name, read)`` for each file of the archive ``path``; ``read(n)``: its first bytes.

    A ``.bz2`` file holds one file (its name: ``path`` without ``.bz2``). ``ValueError`` as
    soon as the sizes of the members (of a ZIP file, as its directory declares them) add up
    to more than :data:`MESH_BYTES_LIMIT`; a stream is decompressed once, piece by piece.
    """
    def too_big(total: int) -> ValueError:
        return ValueError(f'{path}: decompresses to more than {MESH_BYTES_LIMIT >> 20} MiB '
                          f'({total:,} bytes or more), the most a mesh may decompress to; '
                          'not read')
    if kind in _ZIP_MESHES:
        with zipfile.ZipFile(path) as archive:
            infos = archive.infolist()
            total = sum(info.file_size for info in infos)
            if total > MESH_BYTES_LIMIT:
                raise too_big(total)
            for info in infos:
                with archive.open(info) as member:
                    yield info.filename, member.read
        return
    if kind == 'bz2':
        with bz2.open(path, 'rb') as stream:
            head = stream.read(_PREAMBLE_BYTES)
            total = len(head)
            while total <= MESH_BYTES_LIMIT:
                chunk = stream.read(1 << 16)
                if not chunk:
                    break
                total += len(chunk)
            if total > MESH_BYTES_LIMIT:
                raise too_big(total)
        yield os.path.basename(path)[:-len('.bz2')], lambda n: head[:n]
        return
    total = 0
    with tarfile.open(path, 'r|*') as tar:
        for item in tar:  # a header at a time, its size read before its content
            total += item.size
            if total > MESH_BYTES_LIMIT:
                raise too_big(total)
            content = tar.extractfile(item) if item.isfile() else None
            if content is not None:
                yield item.name, content.read


def _refuse_doctype(where: str, head: bytes) -> None:
    """Raise ``ValueError`` if the XML text that starts with ``head`` declares a DOCTYPE."""
    from sdf_tools.xmlio.parse import preamble_end
    end = preamble_end(head)
    if end >= len(head) == _PREAMBLE_BYTES:
        raise ValueError(f'{where}: more than {_PREAMBLE_BYTES} bytes before the root element')
    if b'<!DOCTYPE' in head[:end] or head.startswith(b'<!DOCTYPE', end):
        raise ValueError(f'{where}: a mesh with a DOCTYPE is not read (it may declare entities, '
                         'and the mesh reader would expand them)')


def _scaling(scale: Sequence[float]) -> 'npt.NDArray[np.float64]':
    """Return the 4x4 matrix (shape (4, 4)) scaling x, y and z by ``scale``."""
    import numpy as np
    matrix = np.eye(4)
    matrix[0, 0], matrix[1, 1], matrix[2, 2] = scale
    return matrix
