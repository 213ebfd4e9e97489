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
URDF reader: XML text to :class:`~sdf_tools.model.Robot`.

Covers the whole URDF: links with inertials, visuals, collisions and materials (box,
cylinder, sphere, mesh and the URDF 1.1 capsule), top-level materials, and joints with every
element of the URDF joint specification (origin, parent, child, axis, calibration, dynamics,
limit, mimic, safety_controller). ``<gazebo>`` blocks and the non-standard
``<robot><origin>`` are kept for the SDFormat converter; other top-level elements
(``<transmission>``, ``<ros2_control>``, ...), which urdfdom ignores, are kept as written
(``Robot.urdf_extras``) for the URDF writer, and conversions that drop them say so.

It is stricter than urdfdom where urdfdom silently loses data: a bad number inside a link,
an unknown geometry or an ``<axis>`` without ``xyz`` are errors here (urdfdom 3 keeps a
partial link or a zero axis), and an element or attribute URDF does not define (a typo such
as ``<orgin>``) is a warning with the nearest known name (:mod:`.names`). Every problem is
reported with its line, then one :class:`~sdf_tools.errors.DescriptionError` holds all of
them. An element given twice where URDF has one (two ``<origin>`` in a joint, two
``<inertial>`` in a link, two shapes in a ``<geometry>``) is read as urdfdom reads it, and
so robot_state_publisher, RViz, MoveIt and libsdformat: the first; each later one is
ignored with a warning naming the first's line (``repeated-element``). ``<robot version>``
is read as urdfdom reads it: absent or 1.0, else an error. A visual ``<material>`` without a
``name`` attribute, which urdfdom refuses with the rest of the link's visuals and all its
collisions, is kept with a warning (rule ``nameless-material``).
"""

import re
from typing import cast

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.formats.reading import checked
from sdf_tools.formats.reading import shape_element
from sdf_tools.formats.reading import with_warnings
from sdf_tools.formats.urdf.names import ATTRIBUTES
from sdf_tools.formats.urdf.names import check_leaf
from sdf_tools.formats.urdf.names import CHILDREN
from sdf_tools.formats.urdf.names import report_unknown
from sdf_tools.formats.urdf.names import report_unknown_child
from sdf_tools.formats.urdf.names import REQUIRED_ONLY
from sdf_tools.formats.urdf.names import UrdfValues
from sdf_tools.model import Box
from sdf_tools.model import Calibration
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Dynamics
from sdf_tools.model import GazeboExtension
from sdf_tools.model import Geometry
from sdf_tools.model import IDENTITY
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import KeptElement
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Material
from sdf_tools.model import Mesh
from sdf_tools.model import Mimic
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import SafetyController
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.transforms import Vec3
from sdf_tools.xmlio.element import children_from_lxml
from sdf_tools.xmlio.element import from_lxml
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import quote_value

_URDF_JOINT_TYPES = {
    'revolute': JointType.REVOLUTE,
    'continuous': JointType.CONTINUOUS,
    'prismatic': JointType.PRISMATIC,
    'fixed': JointType.FIXED,
    'floating': JointType.FLOATING,
    'planar': JointType.PLANAR,
}
_ZERO3 = (0.0, 0.0, 0.0)
_Rgba = tuple[float, float, float, float]
# One part of a URDF version as urdfdom's strtol reads it whole (leading spaces, a sign).
_VERSION_PART = r'\s*\+?[0-9]+|\s*-0+'
_SHAPES = frozenset(CHILDREN['geometry'])


def parse_urdf(text: str | bytes, source: str = '<string>', *,
               max_bytes: int = DEFAULT_MAX_BYTES) -> Robot:
    """
    Read a URDF document.

    Parameters
    ----------
    text : str or bytes
        The URDF XML.
    source : str
        Name for messages (file name or label).
    max_bytes : int
        Size limit passed to :func:`~sdf_tools.xmlio.parse.parse_xml`.

    Returns
    -------
    Robot
        With ``source_format='urdf'``; non-fatal problems are in ``Robot.warnings``.

    Raises
    ------
    XmlSyntaxError
        The text is not acceptable XML.
    DescriptionError
        It is not a valid URDF; holds every problem found.

    """
    dropped: list = []  # processing instructions, which nothing may copy (parse_xml)
    robot = read_urdf_element(parse_xml(text, source, max_bytes=max_bytes,
                                        instructions=dropped), source)
    return robot.with_warnings(dropped) if dropped else robot


def read_urdf_element(root: etree._Element, source: str = '<string>') -> Robot:
    """Read a URDF from an already parsed ``<robot>`` element (see :func:`parse_urdf`)."""
    reporter = Reporter()
    reader = _UrdfReader(UrdfValues(source, reporter))
    robot = reader.read(root)
    checked(robot, reporter)
    return with_warnings(robot, reporter)


class _UrdfReader:
    """Walks a ``<robot>`` element; one instance per document."""

    __slots__ = ('v', 'materials', 'poses')

    def __init__(self, values: UrdfValues) -> None:
        self.v = values
        self.materials: dict[str, Material] = {}
        self.poses: dict[tuple, Pose] = {}  # (xyz text, rpy text) -> a valid origin's pose

    def read(self, root: etree._Element) -> Robot:
        v = self.v
        if root.tag != 'robot':
            v.error(root, None, f'the root element is <{root.tag}>, a URDF needs <robot>',
                    Code.NOT_URDF)
            return Robot(name='', source=v.source)
        name = root.get('name')
        if name is None or not name.strip():
            v.missing_attr(root, None, 'name')
            name = ''
        entity = f"robot '{name}'"
        if not ATTRIBUTES['robot'].issuperset(root.keys()):
            report_unknown(v, root, entity, 'robot')
        _check_version(v, root, entity)
        link_elems, joint_elems, gazebo, origin = [], [], [], None
        materials, kept = [], []
        seen: dict = {}
        for child in root:
            tag = child.tag
            if tag == 'link':
                link_elems.append(child)
            elif tag == 'joint':
                joint_elems.append(child)
            elif tag == 'gazebo':
                ref = child.get('reference')
                gazebo.append(GazeboExtension(ref, children_from_lxml(child), v.loc(child)))
            elif tag == 'material':
                material = self._material(child, entity, top_level=True)
                if material is not None and material.name is not None:  # named: top level
                    materials.append(material)
                    if material.name in self.materials:
                        v.error(child, entity, f'material {material.name!r} is defined more '
                                'than once', Code.DUPLICATE_NAME)
                    self.materials[material.name] = material
            elif tag == 'origin':
                if tag in seen:
                    self._again(child, seen[tag], entity)
                else:
                    seen[tag] = child
                    origin = self._origin(child, entity)
            else:
                report_unknown_child(v, child, entity, 'robot')
                kept.append(KeptElement(local_name(child), child.get('name'),
                                        from_lxml(child), v.loc(child), len(gazebo)))
        if not link_elems:
            v.error(root, entity, 'has no <link>', Code.NO_LINKS)
        links = tuple(self._link(e) for e in link_elems)
        joints = tuple(j for j in (self._joint(e) for e in joint_elems) if j is not None)
        return Robot(name=name, links=links, joints=joints, materials=tuple(materials),
                     gazebo=tuple(gazebo), origin=origin, source=v.source, source_format='urdf',
                     location=v.loc(root), urdf_extras=tuple(kept))

    # --- shared pieces ------------------------------------------------------------------

    def _origin(self, elem: etree._Element, entity: str) -> Pose:
        key = (elem.get('xyz'), elem.get('rpy'))
        if len(elem) or len(elem.attrib) != (key[0] is not None) + (key[1] is not None):
            report_unknown(self.v, elem, entity, 'origin')
        pose = self.poses.get(key)  # origins repeat; the quaternion costs trigonometry
        if pose is not None:
            return pose
        v = self.v
        errors = len(v.reporter.errors)
        xyz = cast(Vec3, v.attr_vector(elem, entity, 'xyz', 3, _ZERO3))
        rpy = cast(Vec3, v.attr_vector(elem, entity, 'rpy', 3, _ZERO3))
        if rpy == _ZERO3:
            pose = Pose(xyz) if xyz != _ZERO3 else IDENTITY
        else:
            pose = Pose.from_rpy(xyz, rpy)
        if len(v.reporter.errors) == errors:  # an invalid one is reported where it is
            self.poses[key] = pose
        return pose

    def _again(self, elem: etree._Element, first: etree._Element, entity: str) -> None:
        """
        Warn that ``elem`` is ignored: a sibling of the same name, ``first``, came before.

        urdfdom reads the first ``<origin>``, ``<limit>``, ``<mass>``, ... of an element
        (tinyxml2's ``FirstChildElement``), and so robot_state_publisher, RViz, MoveIt and
        libsdformat do. The loops keep the first of each name in a ``seen`` dict (tag ->
        element) and call this for a later one.
        """
        v = self.v
        v.reporter.warn(f'<{elem.tag}> is given again and this one is ignored: urdfdom, and so '
                        'robot_state_publisher, RViz, MoveIt and libsdformat, read only the '
                        'first', v.loc(elem), entity, Code.REPEATED_ELEMENT, (v.loc(first),))

    def _name(self, elem: etree._Element, kind: str) -> str:
        name = self.v.required_attr(elem, f'<{kind}>', 'name')
        return name if name is not None else ''

    # --- links --------------------------------------------------------------------------

    def _link(self, elem: etree._Element) -> Link:
        name = self._name(elem, 'link')
        entity = f"link '{name}'"
        if len(elem.attrib) != 1:  # name, required
            report_unknown(self.v, elem, entity, 'link')
        inertial = nameless = None
        visuals, collisions = [], []
        seen: dict = {}
        for child in elem:
            tag = child.tag
            if tag == 'visual':
                visual, unnamed = self._visual(child, entity)
                visuals.append(visual)
                if unnamed is not None and nameless is None:
                    nameless = (unnamed, len(visuals) - 1)
            elif tag == 'collision':
                collisions.append(self._collision(child, entity))
            elif tag == 'inertial':
                if tag in seen:
                    self._again(child, seen[tag], entity)
                else:
                    seen[tag] = child
                    inertial = self._inertial(child, entity)
            else:
                report_unknown_child(self.v, child, entity, 'link')
        if nameless is not None:
            self._nameless_material(*nameless, len(visuals), len(collisions), entity)
        return Link(name=name, inertial=inertial, visuals=tuple(visuals),
                    collisions=tuple(collisions), location=self.v.loc(elem))

    def _inertial(self, elem: etree._Element, entity: str) -> Inertial:
        v = self.v
        origin = IDENTITY
        mass = None
        inertia = None
        if len(elem.attrib):
            report_unknown(v, elem, entity, 'inertial')
        seen: dict = {}
        for child in elem:
            tag = child.tag
            if tag in _INERTIAL_PARTS:
                if tag in seen:
                    self._again(child, seen[tag], entity)
                    continue
                seen[tag] = child
            if tag == 'origin':
                origin = self._origin(child, entity)
            elif tag == 'mass':
                check_leaf(v, child, entity, 'mass')
                mass = v.attr_number(child, entity, 'value', 0.0, required=True)
            elif tag == 'inertia':
                check_leaf(v, child, entity, 'inertia')
                inertia = [v.attr_number(child, entity, k, 0.0, required=True)
                           for k in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')]
            else:
                report_unknown_child(v, child, entity, 'inertial')
        if mass is None:
            v.missing_child(elem, entity, 'mass', '<inertial> is missing <mass>')
            mass = 0.0
        if inertia is None:
            v.missing_child(elem, entity, 'inertia', '<inertial> is missing <inertia>')
            inertia = [0.0] * 6
        ixx, ixy, ixz, iyy, iyz, izz = inertia
        return Inertial(mass, ixx, ixy, ixz, iyy, iyz, izz, origin=origin)

    def _visual(self, elem: etree._Element, entity: str) -> tuple[Visual, etree._Element | None]:
        """Return the visual, and its first ``<material>`` if that has no name attribute."""
        name = elem.get('name')
        origin, geometry, material, nameless = self._placed_shape(elem, entity, name)
        visual = Visual(origin=origin, geometry=geometry, name=name, material=material,
                        location=self.v.loc(elem))
        return visual, nameless

    def _collision(self, elem: etree._Element, entity: str) -> Collision:
        name = elem.get('name')
        origin, geometry, _, _ = self._placed_shape(elem, entity, name)
        return Collision(origin=origin, geometry=geometry, name=name, location=self.v.loc(elem))

    def _placed_shape(self, elem: etree._Element, entity: str, name: str | None,
                      ) -> tuple[Pose, Geometry | None, Material | None, etree._Element | None]:
        """
        Return the origin, geometry and (for a visual) material of a visual or collision.

        Then the visual's first ``<material>`` when it has no name attribute (else ``None``).
        """
        origin, geometry = IDENTITY, None
        material = nameless = None
        kind = elem.tag
        seen: dict = {}
        if len(elem.attrib) != (name is not None):
            report_unknown(self.v, elem, entity, kind)
        for child in elem:
            tag = child.tag
            if tag in seen:  # only the parts read are: a second one is ignored
                self._again(child, seen[tag], entity)
            elif tag == 'origin':
                seen[tag] = child
                origin = self._origin(child, entity)
            elif tag == 'geometry':
                seen[tag] = child
                geometry = self._geometry(child, entity)
            elif tag == 'material' and kind == 'visual':
                seen[tag] = child
                if child.get('name') is None:
                    nameless = child
                material = self._material(child, entity, top_level=False)
            else:
                report_unknown_child(self.v, child, entity, kind)
        if geometry is None and elem.find('geometry') is None:
            self.v.missing_child(elem, entity, 'geometry', f'<{kind}> is missing <geometry>')
        return origin, geometry, material, nameless

    def _nameless_material(self, material: etree._Element, index: int, visuals: int,
                           collisions: int, entity: str) -> None:
        """
        Warn that urdfdom (libsdformat) refuses a visual's ``<material>`` without name.

        urdfdom stops reading the link's visuals there (that visual and the later ones are
        lost) and skips all its collisions (rule ``nameless-material``); sdf_tools keeps them.
        """
        later = visuals - index - 1
        lost = 'this visual' + ('' if not later else ' and the next one' if later == 1 else
                                f' and the {later} after it')
        if collisions:
            lost += " and the link's " + ('collision' if collisions == 1 else
                                          f'{collisions} collisions')
        self.v.warn(material, entity, '<material> has no name attribute: libsdformat and '
                    f'urdfdom refuse it and drop {lost} (Gazebo loads the link without them); '
                    'sdf_tools keeps them. Name it (name="" is enough)', Code.NAMELESS_MATERIAL)

    def _geometry(self, elem: etree._Element, entity: str) -> Geometry | None:
        v = self.v
        if len(elem.attrib):
            report_unknown(v, elem, entity, 'geometry')
        shapes = [c for c in elem if isinstance(c.tag, str)]
        if len(shapes) != 1:
            if not shapes:
                shape_element(v, elem, entity)  # the error
                return None
            for other in shapes[1:]:  # urdfdom reads the first element, whatever it is
                v.reporter.warn(f'<geometry> holds a second shape and this <{other.tag}> is '
                                'ignored: urdfdom, and so robot_state_publisher, RViz, MoveIt '
                                f'and libsdformat, read only the first, <{shapes[0].tag}>',
                                v.loc(other), entity, Code.REPEATED_ELEMENT, (v.loc(shapes[0]),))
        shape = shapes[0]
        tag = shape.tag
        if tag in _SHAPES:
            check_leaf(v, shape, entity, tag)
        if tag == 'box':
            size = cast(Vec3 | None, v.attr_vector(shape, entity, 'size', 3, required=True))
            return Box(size) if size is not None else None
        if tag in ('cylinder', 'capsule'):  # both: radius and length
            r = v.attr_number(shape, entity, 'radius', required=True)
            length = v.attr_number(shape, entity, 'length', required=True)
            kind = Cylinder if tag == 'cylinder' else Capsule
            return kind(r, length) if r is not None and length is not None else None
        if tag == 'sphere':
            r = v.attr_number(shape, entity, 'radius', required=True)
            return Sphere(r) if r is not None else None
        if tag == 'mesh':
            filename = v.required_attr(shape, entity, 'filename')
            scale = cast(Vec3 | None, v.attr_vector(shape, entity, 'scale', 3))
            return Mesh(filename, scale) if filename is not None else None
        v.error(shape, entity, f'unknown geometry <{tag}> (URDF has box, cylinder, sphere, '
                'capsule and mesh)', Code.BAD_GEOMETRY)
        return None

    def _material(self, elem: etree._Element, entity: str, *, top_level: bool) -> Material | None:
        """
        Read a ``<material>``; visual materials resolve through the registry.

        As in urdfdom, a visual material's name is looked up among the top-level materials
        and the named materials of earlier visuals; only when the name is new does the
        visual's own colour or texture define it (and register it for later visuals).
        """
        v = self.v
        name = elem.get('name')
        if len(elem.attrib) != (name is not None):
            report_unknown(v, elem, entity, 'material')
        if name is not None and not name.strip():
            name = None
        rgba = texture = None
        seen: dict = {}
        for child in elem:
            tag = child.tag
            if tag in _MATERIAL_PARTS:
                if tag in seen:
                    self._again(child, seen[tag], entity)
                    continue
                seen[tag] = child
            if tag == 'color':
                check_leaf(v, child, entity, 'color')
                rgba = cast(_Rgba | None, v.attr_vector(child, entity, 'rgba', 4, required=True))
                if rgba is not None and not all(0.0 <= c <= 1.0 for c in rgba):
                    # urdfdom's Color refuses it; a <material> of the robot keeps its default
                    # colour, one of a visual is not defined (libsdformat writes none).
                    rgba = (0.0, 0.0, 0.0, 1.0) if top_level else None
                    v.warn(child, entity, f'<color> rgba {child.get("rgba")!r} is outside 0 to '
                           '1: urdfdom refuses it, and ' + (
                               'the material keeps its default colour, black (0 0 0 1)'
                               if top_level else 'the visual gets no material from it'),
                           Code.BAD_NUMBER)
            elif tag == 'texture':
                check_leaf(v, child, entity, 'texture')
                texture = child.get('filename')
            else:
                report_unknown_child(v, child, entity, 'material')
        if top_level:
            if name is None:
                v.missing_attr(elem, entity, 'name')
                return None
            return Material(name, rgba, texture)
        if name is None:
            if rgba is None and texture is None:
                v.warn(elem, entity, '<material> has no name, colour or texture; it is '
                       'ignored', Code.UNDEFINED_MATERIAL)
                return None
            return Material(None, rgba, texture)
        defined = self.materials.get(name)
        if defined is not None:
            if (rgba is not None or texture is not None) and \
                    (rgba, texture) != (defined.rgba, defined.texture):
                v.warn(elem, entity, f'material {name!r} is already defined differently; '
                       'the earlier definition is used (as urdfdom does)', Code.MATERIAL_REDEFINED)
            return defined
        if rgba is None and texture is None:
            v.warn(elem, entity, f'material {name!r} is not defined; the visual gets no '
                   'material', Code.UNDEFINED_MATERIAL)
            return None
        material = Material(name, rgba, texture)
        self.materials[name] = material
        return material

    # --- joints -------------------------------------------------------------------------

    def _joint(self, elem: etree._Element) -> Joint | None:
        v = self.v
        name = self._name(elem, 'joint')
        entity = f"joint '{name}'"
        type_text = elem.get('type')
        if type_text is None:
            v.missing_attr(elem, entity, 'type')
            return None
        jtype = _URDF_JOINT_TYPES.get(type_text.strip())
        if jtype is None:
            v.error(elem, entity, f'unknown joint type {type_text!r} (URDF has '
                    + ', '.join(_URDF_JOINT_TYPES) + ')', Code.BAD_JOINT_TYPE)
            return None
        if len(elem.attrib) != 2:  # name and type, required
            report_unknown(v, elem, entity, 'joint')
        origin = IDENTITY
        parent = child_name = None
        axis = (1.0, 0.0, 0.0)
        limit = dynamics = mimic = calibration = safety = None
        seen: dict = {}
        for child in elem:
            tag = child.tag
            count = _JOINT_LEAVES.get(tag, -2)  # the leaf's attribute count, -1, -2
            if count == -2:
                report_unknown_child(v, child, entity, 'joint')
                continue
            if tag in seen:
                self._again(child, seen[tag], entity)
                continue
            seen[tag] = child
            if tag == 'origin':
                origin = self._origin(child, entity)
                continue
            if len(child) or (len(child.attrib) != count if count >= 0 else
                              not ATTRIBUTES[tag].issuperset(child.keys())):
                report_unknown(v, child, entity, tag)
            if tag == 'parent':
                parent = v.required_attr(child, entity, 'link')
            elif tag == 'child':
                child_name = v.required_attr(child, entity, 'link')
            elif tag == 'axis':
                axis = cast(Vec3, v.attr_vector(child, entity, 'xyz', 3, axis, required=True))
            elif tag == 'limit':
                limit = self._limit(child, entity)
            elif tag == 'dynamics':
                dynamics = Dynamics(
                    v.attr_number(child, entity, 'damping', 0.0),
                    v.attr_number(child, entity, 'friction', 0.0))
            elif tag == 'mimic':
                target = v.required_attr(child, entity, 'joint')
                if target is not None:
                    mimic = Mimic(target, v.attr_number(child, entity, 'multiplier', 1.0),
                                  v.attr_number(child, entity, 'offset', 0.0))
            elif tag == 'calibration':
                calibration = Calibration(v.attr_number(child, entity, 'rising'),
                                          v.attr_number(child, entity, 'falling'))
            elif tag == 'safety_controller':
                k_velocity = v.attr_number(child, entity, 'k_velocity', required=True)
                safety = SafetyController(
                    k_velocity if k_velocity is not None else 0.0,
                    v.attr_number(child, entity, 'k_position', 0.0),
                    v.attr_number(child, entity, 'soft_lower_limit', 0.0),
                    v.attr_number(child, entity, 'soft_upper_limit', 0.0))
        if parent is None and elem.find('parent') is None:
            v.missing_child(elem, entity, 'parent', '<joint> is missing <parent>')
        if child_name is None and elem.find('child') is None:
            v.missing_child(elem, entity, 'child', '<joint> is missing <child>')
        if limit is None and jtype in (JointType.REVOLUTE, JointType.PRISMATIC):
            v.missing_child(elem, entity, 'limit', f'a {jtype.value} joint needs <limit> (with '
                            'effort and velocity)')
        if parent is None or child_name is None:
            return None
        return Joint(name=name, kind=jtype, parent=parent, child=child_name, origin=origin,
                     axis=axis, limit=limit, dynamics=dynamics, mimic=mimic,
                     calibration=calibration, safety_controller=safety, location=v.loc(elem))

    def _limit(self, elem: etree._Element, entity: str) -> Limit:
        v = self.v
        effort = v.attr_number(elem, entity, 'effort', 0.0, required=True)
        velocity = v.attr_number(elem, entity, 'velocity', 0.0, required=True)
        lower = v.attr_number(elem, entity, 'lower', 0.0)
        upper = v.attr_number(elem, entity, 'upper', 0.0)
        return Limit(lower, upper, effort, velocity)


# The children of <joint>: tag -> their attribute count, or -1 (check the names); <origin>
# is read by _origin.
_JOINT_LEAVES = {tag: REQUIRED_ONLY.get(tag, -1) for tag in CHILDREN['joint']}
# The children of <inertial> and <material>, each read once (the first, as urdfdom).
_INERTIAL_PARTS = frozenset(CHILDREN['inertial'])
_MATERIAL_PARTS = frozenset(CHILDREN['material'])


def _check_version(v: UrdfValues, root: etree._Element, entity: str) -> None:
    """
    Refuse a ``<robot version>`` other than 1.0, as urdfdom does (absent means 1.0).

    urdfdom splits the text at dots (a last empty part is dropped: ``1.0.`` is ``1.0``),
    wants exactly two parts, and reads each as a whole non-negative decimal integer
    (``strtol``: leading spaces and a sign allowed, so `` 1.0`` and ``+1.00`` are 1.0).
    """
    text = root.get('version')
    if text is None:
        return
    parts = text.split('.')
    if len(parts) > 1 and parts[-1] == '':
        parts.pop()
    if len(parts) != 2:
        problem = "must be 'major.minor'"
    elif not all(re.fullmatch(_VERSION_PART, part) for part in parts):
        problem = 'must be two whole numbers separated by a dot'
    elif tuple(part.strip().lstrip('+-').lstrip('0') for part in parts) != ('1', ''):
        problem = 'is not supported'   # compared as digits: int() refuses 4300 and more
    else:
        return
    shown = repr(text) if len(text) <= 40 else quote_value(text)
    v.error(root, entity, f'<robot> version {problem}, got {shown}: urdfdom and libsdformat '
            'read only URDF version 1.0 (or no version)', Code.BAD_VERSION)
