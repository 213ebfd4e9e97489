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
Mass properties from collision geometry, for links without ``<inertial>`` (``auto_inertials``).

Descriptions without inertials (ros-industrial's arms, many teaching robots) otherwise convert
to 1 g placeholder links. With a density (kg/m^3), before lumping, each link without
``<inertial>`` gets the mass properties of the solids its ``<collision>`` elements bound, at
their origins, welded (:func:`sdf_tools.inertia.weld`): boxes, cylinders, spheres and
capsules in closed form, meshes through :mod:`sdf_tools.resources.meshes` (closed ones exactly,
open ones as their convex hull, with a warning). Each such link gets a warning naming it.
Overlapping collision shapes count twice. Only meshes need trimesh: without it, primitive
shapes are computed and the first mesh to read is an error naming it.

A link keeps no mass (and so gets the placeholder if it is kept) when it has no collision, or
when one of its collisions has no volume that can be computed (a mesh that cannot be found or
read, a plane or heightmap), or when they enclose no volume; the warning says which.
Links given an ``<inertial>``, even with mass 0, are left as written.
"""

import math
from typing import cast
from typing import TYPE_CHECKING

from sdf_tools import inertia
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import Mesh
from sdf_tools.model import Sphere
from sdf_tools.records import replace
from sdf_tools.resources import meshes
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.uris import locate

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sdf_tools.convert.tree import Part
    from sdf_tools.convert.tree import Tree
    from sdf_tools.convert.urdf_to_sdf import ConversionOptions
    from sdf_tools.errors import Reporter
    from sdf_tools.model import OtherGeometry
    from sdf_tools.transforms import Vec3

    #: The mesh bodies: (filename, scale) -> the body in the mesh frame, or why it has none.
    Solids = dict[tuple[str, Vec3 | None], inertia.Body | str]


def fill(tree: 'Tree', options: 'ConversionOptions', reporter: 'Reporter') -> tuple[str, ...]:
    """
    Give every link of ``tree`` without ``<inertial>`` the mass of its collision geometry.

    Return the mesh files read (each once, in order): inputs, which no output may replace.

    Parameters
    ----------
    tree : Tree
        Before lumping; ``link.mass`` is set where it can be computed.
    options : ConversionOptions
        ``auto_inertials`` (the density, kg/m^3), ``packages`` and ``input_folder`` (to find
        mesh files).
    reporter : Reporter
        Receives a warning per link considered and per open mesh.

    Raises
    ------
    ConversionError
        A mesh must be read and trimesh is not installed (primitive shapes need no trimesh).

    """
    density = options.auto_inertials
    assert density is not None   # (the option that asks for this)
    solids: Solids = {}
    read: dict[str, None] = {}  # the mesh files read
    for link in tree.links.values():
        if link.mass is not None or not link.collisions or tree.is_world_root(link):
            continue
        entity = f"link '{link.name}'"
        bodies: list[inertia.Body] = []
        problem: str | None = None
        for part in link.collisions:
            try:
                body = _body(part, density, options, solids, reporter, read)
            except ValueError as e:
                problem = str(e)
                break
            bodies.append(inertia.placed(body, part.origin.xyz, part.origin.quat))
        if problem is None:
            mass = inertia.weld(bodies)
            if not mass[0] > 0.0:
                problem = 'they enclose no volume'
        if problem is not None:
            reporter.warn(f'has no <inertial>, and its mass properties cannot be computed from '
                          f'its collision geometry: {problem}; it stays without mass',
                          link.model.location, entity, Code.AUTO_INERTIAL)
            continue
        link.mass = mass
        reporter.warn(f'has no <inertial>; it is given the mass properties of its '
                      f'{len(bodies)} collision shape(s) at {density:g} kg/m^3: mass '
                      f'{mass[0]:.6g} kg, centre of mass {_vector(mass[1])} m',
                      link.model.location, entity, Code.AUTO_INERTIAL)
    return tuple(read)


def _vector(values: 'Iterable[float]') -> str:
    return ' '.join(f'{v:.6g}' for v in values)


def _body(part: 'Part', density: float, options: 'ConversionOptions', solids: 'Solids',
          reporter: 'Reporter', read: dict[str, None]) -> inertia.Body:
    """
    Return the body of one collision in its own frame.

    ``solids``: the mesh bodies computed so far; ``read``: the mesh files read (both are
    filled here).

    Raises
    ------
    ValueError
        It has no volume that can be computed (the text says why).

    """
    shape = part.model.geometry
    if isinstance(shape, Mesh):
        return _mesh_body(part, shape, density, options, solids, reporter, read)
    dimensions: dict = {Box: lambda s: s.size, Cylinder: lambda s: (s.radius, s.length),
                        Sphere: lambda s: (s.radius,), Capsule: lambda s: (s.radius, s.length)}
    for kind, values in dimensions.items():
        if isinstance(shape, kind):
            if not all(math.isfinite(v) and v >= 0.0 for v in values(shape)):
                raise ValueError(f'a <{kind.__name__.lower()}> with negative or non-finite '
                                 'dimensions')
            if kind is Box:
                return inertia.box(shape.size, density)
            if kind is Sphere:
                return inertia.sphere(shape.radius, density)
            function = inertia.cylinder if kind is Cylinder else inertia.capsule
            return function(shape.radius, shape.length, density)
    other = cast('OtherGeometry | None', shape)   # (the shapes left)
    what = 'no geometry' if other is None else f'a <{other.kind}>'
    raise ValueError(f'a collision has {what}, whose volume sdf_tools does not compute')


def _mesh_body(part: 'Part', shape: Mesh, density: float, options: 'ConversionOptions',
               solids: 'Solids', reporter: 'Reporter', read: dict[str, None]) -> inertia.Body:
    """Return the body of a mesh collision (cached per file and scale); warn if it is open."""
    key = (shape.filename, shape.scale)
    if key not in solids:
        try:
            meshes.require_trimesh()
        except ConversionError as e:  # say which mesh needs it
            raise ConversionError(replace(e.diagnostic, location=part.model.location,
                                          entity=f"link '{part.source_link}'",
                                          message=f'{shape.filename}: {e.diagnostic.message}'))
        try:
            path = locate(shape.filename, options.packages, options.input_folder,
                          model_as_package=True)
            if not path.is_file():
                raise ValueError(f'{shape.filename}: no such file: {path}')
            read[str(path)] = None
            solid = meshes.load_solid(str(path), shape.scale)
        except (PackageNotFoundError, ValueError) as e:
            solids[key] = str(e)
        else:
            read.update(dict.fromkeys(solid.files))  # what it names (an OBJ's .mtl): inputs
            solids[key] = inertia.solid_mesh(solid.vertices, solid.faces, density)
            if not solid.closed:
                reporter.warn(f'{shape.filename}: the mesh is not closed, so its convex hull '
                              'stands for the solid in the mass properties (--auto-inertials)',
                              part.model.location, f"link '{part.source_link}'",
                              Code.AUTO_INERTIAL)
    result = solids[key]
    if isinstance(result, str):
        raise ValueError(result)
    return result
