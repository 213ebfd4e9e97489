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
The values of SDFormat elements, one element at a time: poses and links (joints: :mod:`.joints`).

:class:`ElementReader` reads what an element says, checks it and applies the SDFormat
defaults, but resolves no frame name: a ``<pose>`` keeps its ``relative_to`` text (as does
the pose of an inertial, visual or collision, a :class:`Placed`). The model walk
(:mod:`.reader`) puts the results on the vertices of the :class:`~.frames.FrameGraph`, and
:mod:`.assembly` resolves them into the model.

Children sdf_tools does not model are kept as written, as values (``extras``:
:class:`~sdf_tools.xmlio.element.Element`), their numbers and booleans checked as
libsdformat checks them (:mod:`.content`); a visual's ``<material>`` is kept there whole and
also read, best effort, into a :class:`~sdf_tools.model.Material` (a ``<script>`` needs its
``<uri>`` and ``<name>``, as libsdformat says).

An ``<inertial auto="true">`` is read as written, and its link's collisions are weighed
(:mod:`.auto_inertial`): :mod:`.assembly` adds them up once their poses are resolved.

What libsdformat reads and sdf_tools reads alike: a visual or collision without
``<geometry>`` (or with an empty one) has none (``Visual.geometry`` is ``None``; libsdformat
reads it as an empty geometry); several ``<polyline>`` s in one ``<geometry>`` are one
:class:`~sdf_tools.model.OtherGeometry` holding them all. What it refuses, so does the
reader: two visuals, or two collisions, of one name in a link (both lines are named).
"""

import math
from typing import cast
from typing import TypeVar

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.formats.reading import shape_element
from sdf_tools.formats.sdf import auto_inertial
from sdf_tools.formats.sdf.auto_inertial import AutoInertial
from sdf_tools.formats.sdf.content import check_values
from sdf_tools.formats.sdf.content import material_problems
from sdf_tools.formats.sdf.content import misspelt
from sdf_tools.formats.sdf.values import pose_value
from sdf_tools.formats.sdf.values import read_bool
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Geometry
from sdf_tools.model import IDENTITY
from sdf_tools.model import Inertial
from sdf_tools.model import Material
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Pose
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.transforms import Vec3
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import from_lxml
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_number
from sdf_tools.xmlio.parse import quote_value
from sdf_tools.xmlio.parse import ValueReader


# What an <inertial> holds for auto="true" alone (SDFormat 1.11).
_AUTO_ONLY = ('density', 'auto_inertia_params')
#: A colour, RGBA (0..1).
_Rgba = tuple[float, float, float, float]
#: ``ixx, ixy, ixz, iyy, iyz, izz``.
_Moments = tuple[float, float, float, float, float, float]
_D = TypeVar('_D')


@record(slots=True, eq=False)
class Placed:
    """A pose written inside a link (inertial, visual, collision), not yet resolved."""

    pose: Pose
    rel_text: str | None    # its relative_to as written (None: the link frame)
    elem: etree._Element | None  # the <pose>, for messages


@record(slots=True, eq=False)
class LinkSpec:
    """What a ``<link>`` holds, with the poses inside it not yet resolved."""

    inertial: tuple[Inertial, Placed] | None = None    # (Inertial without origin, Placed)
    visuals: list[tuple[Visual, Placed]] = field(default_factory=list)
    collisions: list[tuple[Collision, Placed]] = field(default_factory=list)
    extras: tuple[Element, ...] = ()
    auto: AutoInertial | None = None  # <inertial auto="true">: the collisions weighed


class ElementReader:
    """
    Reads the values of SDFormat elements of one document.

    Parameters
    ----------
    values : ValueReader
        Reads numbers and records problems with their lines.
    version : tuple
        The document's SDFormat version, ``(major, minor)``.
    meshes : tuple, optional
        ``(MeshWeigher, folder)``: weighs the meshes of ``<inertial auto="true">`` named in
        a file of that folder (:mod:`.auto_inertial`; ``None``: paths only, from nowhere).

    """

    __slots__ = ('v', 'version', 'meshes')

    def __init__(self, values: ValueReader, version: tuple[int, int],
                 meshes: 'tuple[auto_inertial.MeshWeigher, str | None] | None' = None) -> None:
        self.v = values
        self.version = version
        self.meshes = meshes

    # --- values -------------------------------------------------------------------------

    def pose(self, elem: etree._Element, entity: str | None) -> tuple[Pose, str | None]:
        """Return the value of a ``<pose>`` and its ``relative_to`` text (or ``None``)."""
        v = self.v
        rel = elem.get('relative_to')
        legacy = elem.get('frame')
        if legacy is not None and legacy.strip():
            if self.version < (1, 7):
                if rel is None or not rel.strip():
                    rel = legacy
            else:
                v.warn(elem, entity, "<pose> attribute 'frame' is ignored in SDFormat 1.7 "
                       "and later (use 'relative_to')", Code.NO_EFFECT)
        rel = rel.strip() if rel is not None and rel.strip() else None
        return pose_value(v, elem, entity), rel

    def number(self, elem: etree._Element, entity: str | None, tag: str, default: _D,
               **checks: bool) -> float | _D:
        """Return the number in child ``<tag>`` of ``elem`` (``default`` when absent)."""
        child = elem.find(tag)
        if child is None:
            return default
        return self.v.number(child, entity, f'<{tag}>', child.text, default, **checks)

    def vector(self, elem: etree._Element, entity: str | None, tag: str, n: int,
               default: _D) -> tuple[float, ...] | _D:
        """Return the ``n`` numbers in child ``<tag>`` of ``elem`` (``default`` when absent)."""
        child = elem.find(tag)
        if child is None:
            return default
        return self.v.vector(child, entity, f'<{tag}>', child.text, n, default)

    def placed(self, elem: etree._Element, entity: str | None) -> Placed:
        """Return the ``<pose>`` of an element inside a link."""
        poses = [c for c in elem if c.tag == 'pose']
        if len(poses) > 1:
            self.v.error(poses[1], entity, f'<{elem.tag}> has more than one <pose>',
                         Code.REPEATED_ELEMENT)
        if not poses:
            return Placed(IDENTITY, None, None)
        pose, rel = self.pose(poses[0], entity)
        return Placed(pose, rel, poses[0])

    # --- links --------------------------------------------------------------------------

    def link(self, elem: etree._Element, entity: str) -> LinkSpec:
        """Read a ``<link>``'s inertial, visuals, collisions and extras (not its pose)."""
        spec = LinkSpec()
        extras = []
        seen: dict[tuple[str, str], etree._Element] = {}   # (tag, name) -> the first one
        auto = None       # an <inertial auto="true">
        collisions = []   # (element, Collision)
        for child in elem:
            tag = child.tag
            if tag == 'inertial':
                if spec.inertial is not None:
                    self.v.error(child, entity, 'has more than one <inertial>',
                                 Code.REPEATED_ELEMENT)
                    continue
                auto = child if read_bool(self.v, child, entity, '<inertial> auto',
                                          child.get('auto'), False) else None
                spec.inertial = self._inertial(child, entity, auto is not None)
            elif tag == 'visual' or tag == 'collision':
                self._unique(child, entity, seen)
                if tag == 'visual':
                    spec.visuals.append(self._visual(child, entity))
                else:
                    spec.collisions.append(self._collision(child, entity))
                    collisions.append((child, spec.collisions[-1][0]))
            elif tag != 'pose':
                check_values(self.v, 'link', child, entity, self.version)
                extras.append(from_lxml(child))
        spec.extras = tuple(extras)
        if auto is not None:
            spec.auto = auto_inertial.read(self, auto, from_lxml(auto), entity, collisions,
                                           self.meshes or (auto_inertial.MeshWeigher(), None))
        return spec

    def _unique(self, elem: etree._Element, entity: str,
                seen: dict[tuple[str, str], etree._Element]) -> None:
        """Report a visual or collision named like an earlier one of its link."""
        name = elem.get('name')
        if name is None:
            return
        first = seen.setdefault((elem.tag, name.strip()), elem)
        if first is not elem:
            self.v.error(elem, entity, f'<{elem.tag}> name {quote_value(name)} is used twice in '
                         f'the link (first at line {first.sourceline}): libsdformat and Gazebo '
                         f'refuse two {elem.tag}s of one name in a link', Code.DUPLICATE_NAME)

    def _inertial(self, elem: etree._Element, entity: str,
                  auto: bool) -> tuple[Inertial, Placed]:
        """Read an ``<inertial>`` as written (``auto``: its collisions give the values)."""
        mass = self.number(elem, entity, 'mass', 1.0)
        moments: _Moments = (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)   # the SDFormat defaults
        inertia = elem.find('inertia')
        if inertia is not None:   # (cast: six names, six numbers)
            moments = cast(_Moments, tuple(self.number(inertia, entity, k, d) for k, d in zip(
                ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), moments)))
        for child in elem:   # (an unknown name is reported as one: .content)
            tag = child.tag
            if tag in _AUTO_ONLY and not auto:
                self.v.warn(child, entity, f'<inertial><{tag}> has no effect without '
                            'auto="true"; Gazebo ignores it', Code.NO_EFFECT)
            elif tag not in ('mass', 'inertia', 'pose', *_AUTO_ONLY) and \
                    not misspelt('model/link/inertial', tag):
                self.v.warn(child, entity, f'<inertial><{local_name(child)}> is not kept',
                            Code.DROPPED)
        return Inertial(mass, *moments), self.placed(elem, entity)

    def _visual(self, elem: etree._Element, entity: str) -> tuple[Visual, Placed]:
        geometry = self._geometry_of(elem, entity)
        material = None
        extras = []
        for child in elem:
            tag = child.tag
            if tag == 'material':
                material = self._material(child, entity)
            if tag not in ('pose', 'geometry'):
                check_values(self.v, 'visual', child, entity, self.version)
                extras.append(from_lxml(child))
        visual = Visual(geometry=geometry, name=elem.get('name'), material=material,
                        location=self.v.loc(elem), extras=tuple(extras))
        return visual, self.placed(elem, entity)

    def _collision(self, elem: etree._Element, entity: str) -> tuple[Collision, Placed]:
        geometry = self._geometry_of(elem, entity)
        extras = []
        for child in elem:
            if child.tag not in ('pose', 'geometry'):
                check_values(self.v, 'collision', child, entity, self.version)
                extras.append(from_lxml(child))
        collision = Collision(geometry=geometry, name=elem.get('name'),
                              location=self.v.loc(elem), extras=tuple(extras))
        return collision, self.placed(elem, entity)

    def _geometry_of(self, elem: etree._Element, entity: str) -> Geometry | None:
        found = elem.findall('geometry')
        if not found:
            return None  # libsdformat reads it as an empty geometry
        if len(found) > 1:
            self.v.error(found[1], entity, f'<{elem.tag}> has more than one <geometry>',
                         Code.REPEATED_ELEMENT)
        return self._geometry(found[0], entity)

    def _geometry(self, elem: etree._Element, entity: str) -> Geometry | None:
        v = self.v
        shapes = [c for c in elem if isinstance(c.tag, str)]
        if not shapes:
            return None  # an empty geometry, as libsdformat reads it
        if len(shapes) > 1 and all(c.tag == 'polyline' for c in shapes):
            return OtherGeometry('polyline', tuple(map(from_lxml, shapes)))
        shape = shape_element(v, elem, entity)
        if shape is None:
            return None
        tag = shape.tag
        if tag == 'box':
            return Box(cast(Vec3, self.vector(shape, entity, 'size', 3, (1.0, 1.0, 1.0))))
        if tag == 'cylinder':
            return Cylinder(self.number(shape, entity, 'radius', 1.0),
                            self.number(shape, entity, 'length', 1.0))
        if tag == 'sphere':
            return Sphere(self.number(shape, entity, 'radius', 1.0))
        if tag == 'capsule':
            return Capsule(self.number(shape, entity, 'radius', 0.5),
                           self.number(shape, entity, 'length', 1.0))
        if tag == 'mesh':
            uri = shape.find('uri')
            if uri is None or not (uri.text or '').strip():
                v.error(shape, entity, '<mesh> is missing <uri>', Code.MISSING_ELEMENT)
                return None
            for child in shape:
                if child.tag not in ('uri', 'scale') and \
                        not misspelt('model/link/visual/geometry/mesh', child.tag):
                    v.warn(child, entity, f'<mesh><{local_name(child)}> is not kept',
                           Code.DROPPED)
            scale = cast(Vec3 | None, self.vector(shape, entity, 'scale', 3, None))
            return Mesh((uri.text or '').strip(), scale)
        return OtherGeometry(local_name(shape), (from_lxml(shape),))

    def _material(self, elem: etree._Element, entity: str) -> Material | None:
        """Read a visual's colour and script name (its values are checked by :mod:`.content`)."""
        rgba: _Rgba | None = None
        for tag in ('diffuse', 'ambient'):
            child = elem.find(tag)
            if child is not None and child.text and child.text.strip():
                values = tuple(map(parse_number, child.text.split(None, 4)))  # never it all
                if len(values) in (3, 4) and all(x is not None and math.isfinite(x)
                                                 for x in values):
                    # three numbers: opaque (cast: all numbers, checked just above)
                    rgba = cast(_Rgba, values + (1.0,) * (4 - len(values)))
                break
        for where, problem, code in material_problems(elem):
            self.v.error(where, entity, f'{problem} (libsdformat refuses the file)', code)
        script = elem.find('script')
        name = None if script is None else (script.findtext('name') or '').strip() or None
        if rgba is None and name is None:
            return None
        return Material(name, rgba)
