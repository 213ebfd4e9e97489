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
A robot at a configuration as coloured triangles in the model frame: what a picture shows.

Each visual (or collision) becomes triangles: primitives from :mod:`.shapes`, meshes read
with trimesh (:func:`sdf_tools.resources.meshes.load_triangles`; a mesh of more than
``max_faces`` triangles is decimated, with fast-simplification when it is installed), placed
by ``T_model_link @ T_link_element``. A visual's colour is its material's RGBA (URDF), else
the default colour.

What cannot be drawn is left out of the picture, each with a warning naming it and why: a
mesh whose file is not found or cannot be read (one warning per URI, or per package or model
folder not found), all meshes when trimesh is not installed (one warning), and geometry that
has no shape here (SDFormat planes, heightmaps, ...). :attr:`Scene.missing` counts them for
a caption (``14 meshes not found``); the kinematic skeleton
(:mod:`sdf_tools.drawing.skeleton`) shows where they are.
"""

from collections.abc import Mapping
import os
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from sdf_tools.drawing.shapes import primitive
from sdf_tools.drawing.skeleton import matching_rows
from sdf_tools.drawing.skeleton import Skeleton
from sdf_tools.drawing.skeleton import skeleton
from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.model import Geometry
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Robot
from sdf_tools.records import record
from sdf_tools.resources.lookup import Resources
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.uris import locate

if TYPE_CHECKING:  # imported when a mesh is read (resources.meshes)
    import trimesh

_NOT_FOUND = ('mesh', 'not found')
_NO_TRIMESH = ('mesh', 'not drawn (no trimesh)')
#: The colour of visuals without one, and of collisions (RGBA, 0..1).
VISUAL_COLOR = (0.72, 0.74, 0.78, 1.0)
COLLISION_COLOR = (0.85, 0.55, 0.25, 1.0)

_Mask = npt.NDArray[np.bool_]
#: Where a part is, for warnings: its location and entity (``"link 'base'"``).
_Where = tuple[SourceLocation | None, str]
#: A part's shape ``((vertices (n, 3) m, faces (k, 3) int, closed), '')``, or ``(None, why)``
#: with ``why`` as :attr:`Scene.missing` counts it (``('mesh', 'not found')``).
_Shaped = (tuple[tuple[npt.NDArray[np.float64], npt.NDArray[np.intp], bool], str]
           | tuple[None, tuple[str, str]])


@record(frozen=True, eq=False)
class Scene:
    """
    A robot's triangles in the model frame.

    Attributes
    ----------
    triangles : numpy.ndarray, shape (n, 3, 3)
        Corners (m) of each triangle, wound counter-clockwise seen from its front.
    colors : numpy.ndarray, shape (n, 4)
        RGBA (0..1) of each triangle.
    closed : numpy.ndarray of bool, shape (n,)
        Whether the triangle bounds a closed, consistently wound solid (its back is never
        seen, so a picture may leave it out when it faces away).
    frames : numpy.ndarray, shape (k, 4, 4)
        ``T_model_link`` of every link placed.
    warnings : tuple of Diagnostic
        What is not drawn, and why.
    skeleton : Skeleton or None
        The robot's kinematic skeleton (:mod:`sdf_tools.drawing.skeleton`).
    missing : tuple of ((str, str), int)
        How many visuals (collisions) are not drawn, by what and why: ``(('mesh', 'not
        found'), 14)``, ``(('mesh', 'not read'), 1)``, ``(('<plane>', 'not drawn'), 1)``...
    parts : int
        How many visuals (collisions) the links placed have.

    """

    triangles: np.ndarray
    colors: np.ndarray
    closed: np.ndarray
    frames: np.ndarray
    warnings: tuple[Diagnostic, ...] = ()
    skeleton: Skeleton | None = None
    missing: tuple[tuple[tuple[str, str], int], ...] = ()
    parts: int = 0

    def part(self, mask: _Mask, color: tuple[float, float, float, float] | None = None,
             frames: bool = True) -> 'Scene':
        """
        Return the triangles where ``mask`` (bool, (n,)) is true, all in ``color`` if given.

        With ``frames``, the link frames are kept; the warnings and the skeleton are not.
        """
        colors = self.colors[mask]
        if color is not None:
            colors = np.broadcast_to(np.asarray(color, dtype=float), colors.shape)
        return Scene(self.triangles[mask], colors, self.closed[mask],
                     self.frames if frames else self.frames[:0])


def shared(first: Scene, second: Scene, tolerance: float) -> tuple[_Mask, _Mask]:
    """
    Return which triangles of each scene the other has too, corner for corner.

    Corners in the same order, each coordinate within ``tolerance`` (m) times the larger of
    1 and the largest coordinate (:func:`~sdf_tools.drawing.skeleton.matching_rows`): two
    sides whose poses agree within a comparison's tolerance draw one surface, not two that
    fight through each other.

    Returns
    -------
    in_second : ndarray of bool, shape (n_first,)
    in_first : ndarray of bool, shape (n_second,)

    """
    a, b = first.triangles.reshape(-1, 9), second.triangles.reshape(-1, 9)
    scale = max([1.0] + [float(np.abs(x).max()) for x in (a, b) if x.size])
    return matching_rows(a, b, tolerance * scale)


@record(frozen=True, eq=False)
class SceneOptions:
    """
    What :func:`build_scene` draws and where it finds meshes.

    Attributes
    ----------
    collision : bool
        Collision geometry instead of visual geometry.
    resources : Resources or None
        Finds ``package://`` and ``model://`` mesh URIs (``model://NAME/...`` in the model
        folder ``NAME`` on Gazebo's resource path first,
        :func:`sdf_tools.resources.uris.locate`); ``None``: only files are found.
    folder : str or None
        The description file's folder, for relative mesh paths.
    color : tuple of float or None
        RGBA for every triangle (``None``: materials, else :data:`VISUAL_COLOR` or
        :data:`COLLISION_COLOR`).
    max_faces : int
        Meshes with more triangles are decimated to about this many.

    """

    collision: bool = False
    resources: Resources | None = None
    folder: str | None = None
    color: tuple[float, float, float, float] | None = None
    max_faces: int = 5000


def build_scene(robot: Robot, poses: Mapping[str, npt.ArrayLike],
                options: SceneOptions | None = None) -> Scene:
    """
    Return the triangles of ``robot``'s visuals (or collisions) with its links at ``poses``.

    Parameters
    ----------
    robot : Robot
        The description.
    poses : Mapping
        Link name -> ``T_model_link``, array-like (4, 4); links not in it are not drawn.
    options : SceneOptions, optional
        Visuals or collisions, where meshes are, colour (default: visuals, materials).

    """
    options = options or SceneOptions()
    meshes = _MeshCache(options)
    triangles, colors, closed, frames = [], [], [], []
    missing: dict = {}
    parts = 0
    default = COLLISION_COLOR if options.collision else VISUAL_COLOR
    for link in robot.links:
        pose = poses.get(link.name)
        if pose is None:
            continue
        frames.append(np.asarray(pose, dtype=float))
        for element in link.collisions if options.collision else link.visuals:
            parts += 1
            where = (element.location or link.location, f"link '{link.name}'")
            shape, why = _shape(element.geometry, meshes, where)
            if shape is None:
                missing[why] = missing.get(why, 0) + 1
                continue
            vertices, faces, solid = shape
            t_model_element = frames[-1] @ element.origin.matrix()
            triangles.append((vertices @ t_model_element[:3, :3].T + t_model_element[:3, 3])[
                faces])
            material = getattr(element, 'material', None)  # visuals only
            color = options.color or (material.rgba if material is not None and
                                      material.rgba is not None else default)
            colors.append(np.broadcast_to(np.asarray(color, dtype=float), (len(faces), 4)))
            closed.append(np.full(len(faces), solid))
    if not triangles:
        triangles, colors, closed = [np.zeros((0, 3, 3))], [np.zeros((0, 4))], [np.zeros(0, bool)]
    return Scene(np.concatenate(triangles), np.concatenate(colors), np.concatenate(closed),
                 np.array(frames).reshape(-1, 4, 4), tuple(meshes.warnings),
                 skeleton(robot, poses), tuple(missing.items()), parts)


def _shape(geometry: Geometry | None, meshes: '_MeshCache', where: _Where) -> _Shaped:
    """
    Return ``((vertices, faces, closed), '')`` of a geometry, or ``(None, why)`` (warned).

    ``why`` counts it in :attr:`Scene.missing`.
    """
    if isinstance(geometry, Mesh):
        return meshes.get(geometry, where)
    shape = primitive(geometry)
    if shape is not None:
        return (shape[0], shape[1], True), ''
    # Not a primitive (primitive() draws them all): another shape, or none.
    kind = f'<{geometry.kind}>' if isinstance(geometry, OtherGeometry) else 'no geometry'
    meshes.warn(where, f'{kind} is not drawn (no shape for it in a picture)', Code.NOT_DRAWN)
    return None, ('part without geometry' if geometry is None else kind, 'not drawn')


class _MeshCache:
    """The meshes of one picture, each file read once; the warnings about those not drawn."""

    def __init__(self, options: SceneOptions) -> None:
        self.options = options
        self.read: dict = {}
        self.warnings: list = []
        self._missing_packages: set = set()
        self._no_trimesh = False

    def warn(self, where: _Where, message: str, code: Code) -> None:
        location, entity = where
        self.warnings.append(Diagnostic(message, location, entity, Severity.WARNING, code))

    def get(self, mesh: Mesh, where: _Where) -> _Shaped:
        """Return ``((vertices, faces, closed), '')`` of ``mesh``, or ``(None, why)``."""
        key = (mesh.filename, mesh.scale)
        if key not in self.read:
            self.read[key] = self._load(mesh, where)
        return self.read[key]

    def _load(self, mesh: Mesh, where: _Where) -> _Shaped:
        uri = mesh.filename
        if self._no_trimesh:
            return None, _NO_TRIMESH
        try:
            resources = self.options.resources
            path = locate(uri, resources.packages if resources is not None else None,
                          self.options.folder, model_as_package=True,
                          models=resources.models if resources is not None else None)
        except PackageNotFoundError as e:
            if e.package not in self._missing_packages:
                self._missing_packages.add(e.package)
                self.warn(where, f'{uri}: {e}; its meshes are not drawn', Code.PACKAGE_NOT_FOUND)
            return None, _NOT_FOUND
        except ValueError as e:
            self.warn(where, f'{e}; not drawn', Code.NOT_DRAWN)
            return None, _NOT_FOUND
        if not os.path.isfile(path):
            self.warn(where, f'{uri}: no such file: {path}; not drawn', Code.MISSING_FILE)
            return None, _NOT_FOUND
        from sdf_tools.resources.meshes import load_triangles  # trimesh: meshes only
        try:
            triangles = load_triangles(str(path), mesh.scale)
        except SdfToolsError as e:  # no trimesh: say it once, draw the rest
            self._no_trimesh = True
            self.warn(where, f'meshes are not drawn: {e.diagnostic.message}', Code.NO_TRIMESH)
            return None, _NO_TRIMESH
        except ValueError as e:
            self.warn(where, f'{uri}: {e}; not drawn', Code.NOT_DRAWN)
            return None, ('mesh', 'not read')
        if len(triangles.faces) > self.options.max_faces:
            triangles = decimated(triangles, self.options.max_faces)
        closed = bool(triangles.is_watertight and triangles.is_winding_consistent)
        return (np.asarray(triangles.vertices, dtype=float), np.asarray(triangles.faces),
                closed), ''


def decimated(mesh: 'trimesh.Trimesh', faces: int) -> 'trimesh.Trimesh':
    """
    Return ``mesh`` (a trimesh.Trimesh) with about ``faces`` triangles.

    Quadric decimation needs the fast-simplification package (in the ``view`` extra); without
    it the mesh is drawn whole, only slower.
    """
    try:
        return mesh.simplify_quadric_decimation(face_count=faces)
    except ImportError:  # fast-simplification is not installed
        return mesh
