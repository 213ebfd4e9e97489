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
``<inertial auto="true">`` (SDFormat 1.11): a link's mass properties from its collisions.

As libsdformat 14 computes them (``Link::ResolveAutoInertials``; Gazebo Harmonic and later),
each ``<collision>`` of the link is weighed as a solid of uniform density, and the solids
are added up:

* the density is the collision's ``<density>``, else the inertial's, else
  :data:`DEFAULT_DENSITY` (with libsdformat's warning when no ``<mass>`` is given either);
* boxes, cylinders, spheres, capsules, ellipsoids and cones in closed form (gz-math's
  formulas, :mod:`sdf_tools.inertia`), each at its collision's pose in the link;
* meshes through the calculator the program registers with libsdformat (Gazebo Sim's
  weighs the mesh's triangles with the divergence theorem); sdf_tools reads the mesh with
  trimesh (:class:`MeshWeigher`) and weighs it the same way
  (:func:`sdf_tools.inertia.solid_mesh`), an open mesh as its convex hull, with a warning.
  A mesh it cannot weigh (not found, unreadable, trimesh not installed) counts as
  libsdformat counts a mesh without a calculator: mass 1 kg and unit moments at the
  collision's origin, with a warning;
* the sum is in link axes about the combined centre of mass; a given ``<mass>`` scales it
  to that mass. A ``<pose>`` or ``<inertia>`` beside ``auto`` is ignored (libsdformat's
  warning); ``<auto_inertia_params>`` is for the program's calculator (Gazebo Sim's reads
  none), kept as written.

What libsdformat 14 then refuses (a link without collisions; a collision of another shape,
a plane or a heightmap, or whose size or density is not positive) is a ``loader-refuses``
warning, and the inertial is read as written, as libsdformat 13 and older read it (they do
not know ``auto``): its ``<mass>`` or 1 kg, its ``<inertia>`` or unit moments.

Poses are resolved after the elements are read, so this takes two steps: :func:`read`
weighs each collision in its own frame, :func:`resolve` adds them up in the link frame.
"""

from collections.abc import Callable
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lxml import etree

from sdf_tools import inertia
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.formats.sdf import params
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Geometry
from sdf_tools.model import Inertial
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Pose
from sdf_tools.model import Sphere
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.transforms import Vec3
from sdf_tools.xmlio.element import Element

if TYPE_CHECKING:  # meshes are read through trimesh, imported when one is weighed
    from sdf_tools.formats.sdf.elements import ElementReader
    from sdf_tools.resources.meshes import Solid
    from sdf_tools.resources.models import ModelFinder

#: ``(function, args, sizes)``: a shape's body is ``function(*args, density)``.
_Shape = tuple[Callable[..., inertia.Body] | None, tuple[object, ...],
               Sequence[float]]

#: kg/m^3: libsdformat's ``DensityDefault()``, that of water.
DEFAULT_DENSITY = 1000.0
#: What libsdformat counts a mesh as without a calculator: 1 kg, unit moments, at its origin.
UNWEIGHED: inertia.Body = (
    1.0, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (1.0, 0.0, 0.0, 1.0, 0.0, 1.0))
_REFUSED = ': libsdformat 14 and later refuse the link (Gazebo Harmonic loads nothing)'


@record(slots=True, eq=False)
class AutoInertial:
    """A link's ``<inertial auto="true">``, its collisions weighed, not yet placed."""

    # per collision, its body in its own frame; None: not computed
    bodies: tuple[inertia.Body, ...] | None
    mass: float | None     # the <mass> given: the sum is scaled to it
    element: Element       # the <inertial> as written


class MeshWeigher:
    """
    Weighs the meshes of auto inertials: each file read once, through trimesh.

    Parameters
    ----------
    finder : ModelFinder or None
        Finds ``model://`` and ``package://`` URIs (``None``: paths only).

    Attributes
    ----------
    files : dict
        The files read (keys, in order): inputs, which no output may replace.

    """

    __slots__ = ('finder', 'files', '_solids')

    def __init__(self, finder: 'ModelFinder | None' = None) -> None:
        self.finder = finder
        self.files: dict[str, None] = {}
        # (uri, folder, scale) -> Solid, or why there is none
        self._solids: dict[tuple[str, str | None, Vec3 | None], Solid | str] = {}

    def weigh(self, mesh: Mesh, folder: str | None,
              density: float) -> tuple[inertia.Body | None, str | None]:
        """
        Return ``(body, note)``: the mesh's body in its frame (``None``: not weighed).

        ``folder`` is that of the file the mesh is named in (relative URIs start there);
        ``note`` says why it is not weighed, or that it is not closed (``None``: neither).
        """
        key = (mesh.filename, folder, mesh.scale)
        if key not in self._solids:
            self._solids[key] = self._load(mesh, folder)
        solid = self._solids[key]
        if isinstance(solid, str):
            return None, solid
        body = inertia.solid_mesh(solid.vertices, solid.faces, density)
        return body, None if solid.closed else 'is not closed: its convex hull stands for it'

    def _load(self, mesh: Mesh, folder: str | None) -> 'Solid | str':
        from sdf_tools.resources import meshes   # trimesh: only for meshes to weigh
        from sdf_tools.resources.packages import PackageNotFoundError
        from sdf_tools.resources.uris import locate
        finder = self.finder
        try:
            path = locate(mesh.filename, None if finder is None else finder.packages, folder,
                          models=finder)
            if not path.is_file():
                return f'no such file: {path}'
            self.files[str(path)] = None
            solid = meshes.load_solid(str(path), mesh.scale)
        except ConversionError as e:   # trimesh is not installed
            return e.diagnostic.message
        except (PackageNotFoundError, ValueError) as e:
            return str(e)
        self.files.update(dict.fromkeys(solid.files))   # what it names (an OBJ's .mtl)
        return solid


def read(elements: 'ElementReader', inertial: etree._Element, value: Element, entity: str,
         collisions: Sequence[tuple[etree._Element, Collision]],
         meshes: tuple[MeshWeigher, str | None]) -> AutoInertial:
    """
    Weigh the collisions of a link whose ``<inertial>`` has ``auto="true"``.

    Parameters
    ----------
    elements : ElementReader
        Reads the numbers; its ``v`` takes the warnings.
    inertial : lxml.etree._Element
        The ``<inertial>``.
    value : Element
        It as written (kept, to be written back).
    entity : str
        The link, for messages.
    collisions : list
        ``(element, Collision)`` of each ``<collision>`` of the link, in order.
    meshes : tuple
        ``(MeshWeigher, folder)``: weighs meshes named in a file of that folder.

    """
    v = elements.v
    mass = elements.number(inertial, entity, 'mass', None)
    for tag in ('pose', 'inertia'):
        child = inertial.find(tag)
        if child is not None:
            v.warn(child, entity, f'<inertial auto="true"> ignores its <{tag}>: Gazebo '
                   'computes the inertial from the collisions', Code.NO_EFFECT)
    auto = AutoInertial(None, mass, value)
    if not collisions:
        v.warn(inertial, entity, '<inertial auto="true"> has no <collision> to compute the '
               f'inertial from{_REFUSED}; the inertial is read as written',
               Code.LOADER_REFUSES)
        return auto
    density = elements.number(inertial, entity, 'density', None)
    bodies: list[inertia.Body] = []
    defaulted: list[str | None] = []
    for elem, collision in collisions:
        own = elem.find('density')
        given = density
        if own is not None:   # read as libsdformat reads it (a refusal: an error already)
            own_density = params.read('double', own.text or '').value
            if not isinstance(own_density, float):
                return auto
            given = own_density
        if given is None:
            defaulted.append(collision.name)
        body = _body(elements, elem, collision, DEFAULT_DENSITY if given is None else given,
                     entity, meshes)
        if body is None:
            return auto
        bodies.append(body)
    if defaulted and mass is None:
        v.warn(inertial, entity, f'<inertial auto="true">: {_names(defaulted)} and the '
               f'<inertial> give no <density>; {DEFAULT_DENSITY:g} kg/m^3 is used, as '
               'libsdformat does', Code.AUTO_INERTIAL)
    auto.bodies = tuple(bodies)
    return auto


def _names(names: Sequence[str | None]) -> str:
    shown = ', '.join(repr(name) for name in names)
    return f"collision{'s' if len(names) > 1 else ''} {shown}"


def _body(elements: 'ElementReader', elem: etree._Element, collision: Collision, density: float,
          entity: str, meshes: tuple[MeshWeigher, str | None]) -> inertia.Body | None:
    """Return a collision's body in its frame, or ``None`` with a loader-refuses warning."""
    v = elements.v
    what = f'<inertial auto="true">: collision {collision.name!r}'
    shape = collision.geometry
    solid = _solid(elements, elem, shape, entity)
    if solid is None:
        assert shape is None or isinstance(shape, OtherGeometry)  # the others are weighed
        kind = 'no <geometry>' if shape is None else f'a <{shape.kind}>'
        v.warn(elem, entity, f'{what} has {kind}, which libsdformat does not weigh'
               f'{_REFUSED}; the inertial is read as written', Code.LOADER_REFUSES)
        return None
    function, args, sizes = solid
    if not density > 0.0 or not all(x > 0.0 for x in sizes):
        v.warn(elem, entity, f'{what} has a size or <density> ({density:g}) that is not '
               f'positive{_REFUSED}; the inertial is read as written', Code.LOADER_REFUSES)
        return None
    if function is not None:
        return function(*args, density)
    assert isinstance(shape, Mesh)  # the one shape weighed without a function
    weigher, folder = meshes
    body, note = weigher.weigh(shape, folder, density)
    if body is None:
        v.warn(elem, entity, f'{what}: the mesh {shape.filename} cannot be weighed ({note}); '
               'it counts as libsdformat counts a mesh without a calculator: 1 kg, unit '
               "moments at the collision's origin", Code.AUTO_INERTIAL)
        return UNWEIGHED
    if note is not None:
        v.warn(elem, entity, f'{what}: the mesh {shape.filename} {note} (Gazebo Sim weighs '
               'its open surface as it is)', Code.AUTO_INERTIAL)
    return body


def _solid(elements: 'ElementReader', elem: etree._Element, shape: Geometry | None,
           entity: str) -> _Shape | None:
    """
    Return ``(function, args, sizes)``: the shape's body is ``function(*args, density)``.

    ``sizes`` must be positive (a capsule's length may be 0); ``function`` is ``None`` for
    a mesh. ``None``: libsdformat does not weigh the shape (a plane, a heightmap, ...).
    """
    if isinstance(shape, Box):
        return inertia.box, (shape.size,), shape.size
    if isinstance(shape, (Cylinder, Capsule)):
        function = inertia.cylinder if isinstance(shape, Cylinder) else inertia.capsule
        sizes = (shape.radius,) if function is inertia.capsule and shape.length == 0.0 else \
            (shape.radius, shape.length)
        return function, (shape.radius, shape.length), sizes
    if isinstance(shape, Sphere):
        return inertia.sphere, (shape.radius,), (shape.radius,)
    if isinstance(shape, Mesh):
        return None, (), ()
    if isinstance(shape, OtherGeometry) and shape.kind == 'ellipsoid':
        found = elem.find('geometry/ellipsoid')
        assert found is not None  # the shape was read from it
        radii = elements.vector(found, entity, 'radii', 3, (1.0, 1.0, 1.0))
        return inertia.ellipsoid, (radii,), radii
    if isinstance(shape, OtherGeometry) and shape.kind == 'cone':
        found = elem.find('geometry/cone')
        assert found is not None  # the shape was read from it
        args = tuple(elements.number(found, entity, tag, 1.0) for tag in ('radius', 'length'))
        return inertia.cone, args, args
    return None


def resolve(auto: AutoInertial, collisions: Sequence[Collision], inertial: Inertial) -> Inertial:
    """
    Return the link's inertial: its collisions' bodies added up in the link frame.

    ``collisions`` are the link's, their origins in the link frame; ``inertial`` is the
    ``<inertial>`` as written, returned (with ``auto``) when it was not computed.
    """
    if auto.bodies is None:
        return replace(inertial, auto=auto.element)
    body = inertia.weld([inertia.placed(b, c.origin.xyz, c.origin.quat)
                         for b, c in zip(auto.bodies, collisions)])
    if auto.mass is not None:
        body = inertia.with_mass(body, auto.mass)
    mass, com, quat, (ixx, ixy, ixz, iyy, iyz, izz) = body
    return Inertial(mass, ixx, ixy, ixz, iyy, iyz, izz, origin=Pose(com, quat), auto=auto.element)
