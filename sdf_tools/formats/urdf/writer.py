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
URDF writer: :class:`~sdf_tools.model.Robot` to URDF text.

The output re-reads with :func:`~sdf_tools.formats.urdf.reader.parse_urdf` to an equivalent
model: the same links, joints, inertials, visuals, collisions, materials and limits. Every
number is the shortest text that reads back to the same float
(:func:`~sdf_tools.formatting.fmt`: ``1`` not ``1.0``, never ``-0``); rotations are
fixed-axis ``rpy``, decomposed so that they re-read to within about 1e-15 for every rotation,
pitch near +-pi/2 included (:func:`~sdf_tools.transforms.rpy_from_quat`).
What URDF cannot say exactly is a :class:`~sdf_tools.errors.ConversionError` naming the
element; all such problems are reported together.

What URDF can say only differently is written so, with a warning: the names of nested
models' content (:mod:`.scoped_names`), effort and velocity limits that are not enforced,
and materials (below).

``lossy=True`` (``sdf_tools convert --lossy``) writes the nearest URDF instead where content
can be left out, with one warning per item left out: visual and collision extras that differ
between the visuals (collisions) of a link (what they all carry is kept), visuals and
collisions whose geometry URDF lacks, SDFormat content that is not one element, joints that
close kinematic loops, all but the largest tree of a model with several roots
(:func:`~.tree.nearest_tree`), and frames attached to ``world`` (those of a static model
without links: a URDF has frames only on its links); joints of a kind URDF lacks are
written as fixed joints. The rest (names taken, numbers that are not finite, a prismatic
joint without limits, text xacro would evaluate: ``${...}``, ``$(...)``) stays an error.

How the model maps to URDF
--------------------------
* Joint types: revolute, continuous, prismatic, fixed, floating and planar are written as
  they are. A revolute joint without limits (RobCoGen joints have none; read from
  SDFormat, +-1e16 is none: 1.9's default) is written as ``continuous``, which is what an
  unlimited revolute joint is in URDF. URDF requires a ``<limit>`` on prismatic joints,
  and no value means "unlimited", so a prismatic joint without limits is an error unless
  ``unlimited_prismatic`` gives the limit to write. Ball, universal, revolute2, screw and
  gearbox joints have no URDF equivalent: error.
* An effort or velocity limit that is not enforced (SDFormat: ``-1``, any negative value,
  or ``inf``, the default from 1.10 on) is written as :data:`UNLIMITED_EFFORT` (1e16 N or
  N m, 1e16 m/s or rad/s, the value SDFormat 1.9 writes for an unbounded position), with
  one warning naming the joints, or as ``unlimited_effort`` (``--unlimited-effort EFFORT
  VELOCITY``) gives. URDF requires both and has no "unlimited"; ``-1`` is refused by
  pinocchio ("min_effort greater than max_effort") and makes no sense to MoveIt. A
  continuous joint's ``<limit>`` that would say nothing else is left out (URDF does not
  require one there).
* Names holding ``::`` (the content of nested SDFormat models) are written with ``/``
  (:mod:`.scoped_names`), with one warning listing the renames.
* A visual's material is written by reference when it is a top-level URDF material, else
  with its colour (texture): under its name, or ``name=""`` when an earlier material of the
  document has that name with another colour (a URDF reader would give it that colour). A
  material with a name but no colour or texture (an SDFormat ``<script>`` material) is
  not written: URDF has nothing to say it with (a reference to a material defined nowhere is
  warned about by every reader); the SDFormat material is kept in the ``<gazebo>``
  extension, or left out, with a warning, by a lossy write.
* Frames (:class:`~sdf_tools.model.Frame`) become massless links with the frame's name,
  attached to their link by a fixed joint named ``<frame>__fixed``. That is how URDF
  expresses extra frames (robot_state_publisher publishes them as TF frames), and
  libsdformat's fixed-joint lumping turns them back into SDFormat ``<frame>`` s.
* ``Joint.joint_in_child`` (SDFormat: the child link frame is not at the joint) is converted
  exactly, without touching the child link: the joint's child becomes a massless link
  ``<child>__joint_frame`` located at the joint frame, and a fixed joint ``<child>__fixed``
  with origin ``inv(joint_in_child)`` carries the real child. The child keeps its frame,
  its content and its TF name, and ``X_PC(q) = X_PJ @ motion(q) @ inv(X_CJ)`` holds as
  before. (Re-expressing the child's
  content in the joint frame instead would silently move the TF frame called ``<child>``
  and invalidate the poses inside SDFormat-only content.)
* One root: URDF is a tree. Joints whose parent is ``world`` with no ``world`` link (the
  SDFormat implicit world) get a ``<link name="world"/>``. Several roots are an error.
* A root link with a ``Link.pose`` (its pose in the SDFormat model frame) that is not the
  identity gets a massless parent link ``model_frame`` (the model frame) and a fixed joint
  ``<root>__fixed`` with that pose, so every link keeps its pose in the model frame. It is
  deliberately not named ``world``: Gazebo would weld such a link to the world.
* ``<gazebo>`` blocks are kept, in order. SDFormat-only content of the model
  (``Robot.extras``, ``static``), of links (``Link.extras``) and of joints
  (``Joint.extras``, spring stiffness and reference) is written as ``<gazebo>`` extensions,
  which libsdformat inserts back into the model, link or joint. Visual and collision extras
  can only be written when every visual (collision) of the link has the same ones (the
  extension applies to all of them); otherwise they are an error.
* The non-standard ``<robot><origin>`` (:attr:`Robot.origin`) is written back.
* Top-level URDF elements the model does not hold (``<transmission>``, ``<ros2_control>``,
  unknown ones: ``Robot.urdf_extras``) are written back as they were, after the joints, in
  their document order among the ``<gazebo>`` blocks.

The links and joints the writer adds are made in :mod:`.tree`, the ``<gazebo>`` extensions
in :mod:`.extensions`; every problem goes to one :class:`~.report.UrdfReport`.
"""

from collections.abc import Iterable
import math

from lxml import etree

from sdf_tools import transforms
from sdf_tools.errors import Code
from sdf_tools.errors import short_name
from sdf_tools.formats.urdf import extensions
from sdf_tools.formats.urdf.report import UrdfReport
from sdf_tools.formats.urdf.scoped_names import flatten_names
from sdf_tools.formats.urdf.tree import FIXED_SUFFIX
from sdf_tools.formats.urdf.tree import JOINT_FRAME_SUFFIX
from sdf_tools.formats.urdf.tree import nearest_tree
from sdf_tools.formats.urdf.tree import tree_additions
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Geometry
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import KeptElement
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Material
from sdf_tools.model import Mesh
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.records import replace
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.element import to_lxml
from sdf_tools.xmlio.markup import evaluated_by_xacro
from sdf_tools.xmlio.parse import attribute_items
from sdf_tools.xmlio.parse import to_string

_WRITTEN_AS_IS = {
    JointType.REVOLUTE: 'revolute', JointType.CONTINUOUS: 'continuous',
    JointType.PRISMATIC: 'prismatic', JointType.FIXED: 'fixed',
    JointType.FLOATING: 'floating', JointType.PLANAR: 'planar',
}
_DEFAULT_AXIS = (1.0, 0.0, 0.0)
_SAFETY_KEYS = ('soft_lower_limit', 'soft_upper_limit', 'k_position', 'k_velocity')
# The position limits of a revolute joint that SDFormat up to 1.9 means as none.
_SDF_UNBOUNDED = 1e16
#: The effort (N, N m) and velocity (m/s, rad/s) written for limits that are not enforced.
UNLIMITED_EFFORT = (1e16, 1e16)


def write_urdf(robot: Robot, *, unlimited_prismatic: Limit | None = None,
               unlimited_effort: tuple | None = None, lossy: bool = False) -> tuple:
    """
    Write a model as URDF text.

    Parameters
    ----------
    robot : Robot
        A valid model (as the readers return it).
    unlimited_prismatic : Limit, optional
        The ``<limit>`` to write for prismatic joints that have none (URDF requires one and
        cannot say "unlimited"). ``None`` makes such a joint a :class:`ConversionError`.
    unlimited_effort : tuple of float, optional
        ``(effort, velocity)`` to write for effort and velocity limits that are not enforced
        (URDF requires them and cannot say "unlimited"). ``None``: :data:`UNLIMITED_EFFORT`,
        with a warning naming the joints.
    lossy : bool
        Write the nearest URDF instead of refusing content URDF cannot hold (module
        docstring), and return what was left out.

    Returns
    -------
    str
        The URDF document, with an XML declaration, indented by two spaces.
    tuple of Diagnostic
        The warnings: what is written differently (renamed, limits not enforced), and when
        ``lossy`` one per item left out, naming it, its entity and its place.

    Raises
    ------
    ConversionError
        Something has no exact URDF equivalent; holds every such problem, each naming its
        element (module docstring). Those ``lossy`` would leave out say so (``--lossy``).

    """
    writer = _UrdfWriter(robot, unlimited_prismatic, unlimited_effort, lossy)
    text = writer.write()
    return text, writer.report.warnings


class _UrdfWriter:
    """Builds the ``<robot>`` element; one instance per call."""

    __slots__ = ('robot', 'unlimited_prismatic', 'unlimited_effort', 'report', 'gazebo',
                 'unenforced', 'defined')

    def __init__(self, robot: Robot, unlimited_prismatic: Limit | None,
                 unlimited_effort: tuple | None, lossy: bool):
        self.report = UrdfReport(lossy)
        self.robot = nearest_tree(robot, self.report) if lossy else robot
        self.unlimited_prismatic = unlimited_prismatic
        self.unlimited_effort = unlimited_effort
        # <gazebo> blocks of SDFormat-only content, after the model's own
        self.gazebo: list[etree._Element] = []
        self.unenforced: list[str] = []  # joints whose effort or velocity is not enforced
        # material name -> the first material of that name written
        self.defined: dict[str, Material] = {}

    def write(self) -> str:
        robot = self.robot
        report = self.report
        root = etree.Element('robot', name=robot.name)
        if robot.origin is not None:
            self.origin(root, robot.origin, f"robot '{robot.name}'", force=True)
        for material in robot.materials:
            self.material(root, material, f"robot '{robot.name}'")
        extra_links, extra_joints = tree_additions(robot, report)
        if WORLD in extra_links:
            etree.SubElement(root, 'link', name=WORLD)
        for link in robot.links:
            self.link(root, link)
        for name in (n for n in extra_links if n != WORLD):
            etree.SubElement(root, 'link', name=name)
        for joint in robot.joints:
            self.joint(root, joint)
        for parent, child, pose in extra_joints:
            self.fixed_joint(root, parent, child, pose)
        self.report_unenforced()
        kept = list(robot.urdf_extras)
        for i, ext in enumerate(robot.gazebo):
            while kept and kept[0].gazebo_before <= i:
                self.kept(root, kept.pop(0))
            elem = etree.SubElement(root, 'gazebo')
            if ext.reference is not None:
                elem.set('reference', ext.reference)
            for child in ext.elements:
                to_lxml(child, elem)
        for item in kept:
            self.kept(root, item)
        content = extensions.model_content(robot, report)
        if content:
            root.append(extensions.gazebo_block(None, content))
        for elem in self.gazebo:
            root.append(elem)
        self.refuse_xacro_markup(root)
        flatten_names(root, robot, report)
        report.raise_if_errors()
        etree.indent(root, space='  ')
        return to_string(root, pretty=True, declaration=True)

    def refuse_xacro_markup(self, root: etree._Element) -> None:
        """
        Refuse text xacro would evaluate (``${...}``, ``$(...)``): one error per element.

        A URDF is often given to xacro whatever its name (a launch file's ``Command(['xacro
        ', path])``), which would run a name such as ``${__import__('os').system(...)}`` as
        code, and sdf_tools refuses a ``.urdf`` holding it as xacro markup. Escaping it
        (``$${``) would change the name for every other reader, so it is an error, lossy or
        not, naming the top-level element (a link's or joint's line) and the text.
        """
        index = self.robot.index
        places: dict[str, dict] = {'link': index.links, 'joint': index.joints}
        for top in (root, *root):
            found = _xacro_markup((root,) if top is root else top.iter())
            if found is None:
                continue
            tag, attribute, value = found
            name = top.get('name') or top.get('reference')
            what = top.tag if top is not root else 'robot'
            item = self.robot if top is root else places.get(top.tag, {}).get(name)
            where = f'<{tag}> {attribute}' if attribute is not None else f'the text of <{tag}>'
            self.report.error(f"{what} '{short_name(name)}'" if name is not None else f'<{what}>',
                              f"{where} '{short_name(value)}' is xacro markup, which xacro "
                              'would evaluate as code if given this URDF (sdf_tools refuses a '
                              '.urdf holding it); a URDF cannot hold it',
                              getattr(item, 'location', None), Code.XACRO)

    def kept(self, root: etree._Element, item: KeptElement) -> None:
        """Write back a top-level element the model does not hold, as it was written."""
        to_lxml(item.element, root)

    def extension(self, reference: str, content: list[etree._Element]) -> None:
        """Queue a ``<gazebo reference=...>`` block holding ``content`` (none if empty)."""
        if content:
            self.gazebo.append(extensions.gazebo_block(reference, content))

    # --- shared pieces ------------------------------------------------------------------

    def numbers(self, parent: etree._Element, tag: str, source: object, keys: Iterable[str],
                entity: str, **attrs: str) -> etree._Element:
        """Add ``<tag>`` with ``attrs`` and, as numbers, the ``keys`` of ``source`` not None."""
        elem = etree.SubElement(parent, tag, attrs)
        for key in keys:
            value = getattr(source, key)
            if value is not None:
                elem.set(key, self.report.num(value, entity, f'<{tag}> {key}'))
        return elem

    def origin(self, parent: etree._Element, pose: Pose, entity: str, *,
               force: bool = False) -> None:
        """Write ``<origin>`` (omitted for the identity unless ``force``)."""
        xyz = tuple(float(v) for v in pose.xyz)
        rpy = transforms.rpy_from_quat(pose.quat)
        has_xyz = any(v != 0.0 for v in xyz)
        has_rpy = any(v != 0.0 for v in rpy)
        if not (has_xyz or has_rpy or force):
            return
        elem = etree.SubElement(parent, 'origin')
        if has_xyz or force:
            elem.set('xyz', self.report.nums(xyz, entity, '<origin> xyz'))
        if has_rpy or force:
            elem.set('rpy', self.report.nums(rpy, entity, '<origin> rpy'))

    def material(self, parent: etree._Element, material: Material, entity: str) -> None:
        """Write a top-level ``<material>`` (the first of a name is the one readers use)."""
        assert material.name is not None  # URDF's top-level materials are named
        elem = etree.SubElement(parent, 'material', name=material.name)
        self.defined.setdefault(material.name, material)
        self.colour(elem, material, entity)

    def visual_material(self, parent: etree._Element, material: Material,
                        entity: str) -> None:
        """Write a visual's ``<material>``: a reference, a definition, or none (docstring)."""
        name = material.name
        if name is not None and material in self.robot.materials:
            etree.SubElement(parent, 'material', name=name)  # a top-level material
            return
        if material.rgba is None and material.texture is None:
            return  # a name URDF defines nowhere: readers would warn and give no colour
        if name is not None and self.defined.setdefault(name, material) != material:
            name = None  # readers would give it the earlier material's colour
        # A visual's material without a name is written name="": urdfdom (libsdformat)
        # refuses a <material> without the attribute, and the link's content with it.
        self.colour(etree.SubElement(parent, 'material', name=name or ''), material, entity)

    def colour(self, elem: etree._Element, material: Material, entity: str) -> None:
        """Write a material's ``<color>`` and ``<texture>`` into ``elem``."""
        if material.rgba is not None:
            etree.SubElement(elem, 'color', rgba=self.report.nums(material.rgba, entity,
                                                                  '<color> rgba'))
        if material.texture is not None:
            etree.SubElement(elem, 'texture', filename=material.texture)

    def writable(self, item: Visual | Collision, tag: str, number: int, entity: str) -> bool:
        """Return whether a visual or collision has a URDF geometry (else report it)."""
        geometry = item.geometry
        if isinstance(geometry, (Box, Cylinder, Sphere, Capsule, Mesh)):
            return True
        if geometry is None:
            why = 'has no geometry; URDF requires one'
        else:
            why = (f'has a <{geometry.kind}> geometry; URDF has only box, cylinder, sphere, '
                   'capsule and mesh')
        named = f'<{tag}> {item.name!r}' if item.name is not None else f'<{tag}> #{number}'
        self.report.drop(entity, f'a <{tag}> {why}', f'{named} is left out: it {why}',
                         item.location)
        return False

    def geometry(self, parent: etree._Element, geometry: Geometry | None,
                 entity: str) -> None:
        elem = etree.SubElement(parent, 'geometry')
        if isinstance(geometry, Box):
            etree.SubElement(elem, 'box', size=self.report.nums(geometry.size, entity,
                                                                '<box> size'))
        elif isinstance(geometry, Cylinder):
            self.numbers(elem, 'cylinder', geometry, ('radius', 'length'), entity)
        elif isinstance(geometry, Sphere):
            self.numbers(elem, 'sphere', geometry, ('radius',), entity)
        elif isinstance(geometry, Capsule):
            self.numbers(elem, 'capsule', geometry, ('radius', 'length'), entity)
        elif isinstance(geometry, Mesh):
            mesh = etree.SubElement(elem, 'mesh', filename=geometry.filename)
            if geometry.scale is not None:
                mesh.set('scale', self.report.nums(geometry.scale, entity, '<mesh> scale'))

    # --- links --------------------------------------------------------------------------

    def link(self, root: etree._Element, link: Link) -> None:
        entity = f"link '{link.name}'"
        elem = etree.SubElement(root, 'link', name=link.name)
        inertial = link.inertial
        if inertial is not None:
            ie = etree.SubElement(elem, 'inertial')
            self.origin(ie, inertial.origin, entity)
            etree.SubElement(ie, 'mass', value=self.report.num(inertial.mass, entity,
                                                               '<mass>'))
            self.numbers(ie, 'inertia', inertial, ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'),
                         entity)
        kept: dict[str, list[Visual | Collision]] = {}
        groups: tuple[tuple[str, tuple[Visual | Collision, ...]], ...] = (
            ('visual', link.visuals), ('collision', link.collisions))
        for tag, items in groups:
            kept[tag] = [item for number, item in enumerate(items, 1)
                         if self.writable(item, tag, number, entity)]
            for item in kept[tag]:
                item_elem = etree.SubElement(elem, tag)
                if item.name is not None:
                    item_elem.set('name', item.name)
                self.origin(item_elem, item.origin, entity)
                self.geometry(item_elem, item.geometry, entity)
                if isinstance(item, Visual) and item.material is not None:
                    self.visual_material(item_elem, item.material, entity)
        written = replace(link, visuals=tuple(kept['visual']),
                          collisions=tuple(kept['collision']))
        self.extension(link.name, extensions.link_content(written, self.report))

    # --- joints -------------------------------------------------------------------------

    def joint(self, root: etree._Element, joint: Joint) -> None:
        entity = f"joint '{joint.name}'"
        written = self.joint_type(joint, entity)
        if written is None:
            return
        type_name, limit = written
        child = joint.child
        if not joint.joint_in_child.is_identity():
            child = joint.child + JOINT_FRAME_SUFFIX
        elem = etree.SubElement(root, 'joint', name=joint.name, type=type_name)
        self.origin(elem, joint.origin, entity)
        etree.SubElement(elem, 'parent', link=joint.parent)
        etree.SubElement(elem, 'child', link=child)
        if joint.kind.axes or tuple(joint.axis) != _DEFAULT_AXIS:
            etree.SubElement(elem, 'axis', xyz=self.report.nums(joint.axis, entity,
                                                                '<axis> xyz'))
        if joint.calibration is not None:
            self.numbers(elem, 'calibration', joint.calibration, ('rising', 'falling'), entity)
        if joint.dynamics is not None:
            self.numbers(elem, 'dynamics', joint.dynamics, ('damping', 'friction'), entity)
        if limit is not None:
            bounded = limit.lower != 0.0 or limit.upper != 0.0 or type_name != 'continuous'
            limit = self.enforced(limit, joint.name, optional=not bounded)
        if limit is not None:
            self.numbers(elem, 'limit', limit, ('lower', 'upper', 'effort', 'velocity')
                         if bounded else ('effort', 'velocity'), entity)
        if joint.mimic is not None:
            self.numbers(elem, 'mimic', joint.mimic, ('multiplier', 'offset'), entity,
                         joint=joint.mimic.joint)
        if joint.safety_controller is not None:
            self.numbers(elem, 'safety_controller', joint.safety_controller, _SAFETY_KEYS,
                         entity)
        self.extension(joint.name, extensions.joint_content(joint, self.report))

    def joint_type(self, joint: Joint, entity: str) -> tuple[str, Limit | None] | None:
        """Return the URDF type and the limit to write; ``None``: URDF cannot (reported)."""
        kind = joint.kind
        if kind not in _WRITTEN_AS_IS:
            why = (f'is a {kind.value} joint; URDF has no {kind.value} joint (only revolute, '
                   'continuous, prismatic, fixed, floating and planar)')
            if self.report.drop(entity, why, f'its motion is left out: it is written as a '
                                f'fixed joint (URDF has no {kind.value} joint)',
                                joint.location):
                return 'fixed', None
            return None
        limit = joint.limit
        type_name = _WRITTEN_AS_IS[kind]
        if _unbounded(limit, kind, self.robot.source_format):
            if kind is JointType.REVOLUTE:
                type_name = 'continuous'  # an unlimited revolute joint
                if limit is not None:
                    limit = Limit(0.0, 0.0, limit.effort, limit.velocity)
            elif kind is JointType.PRISMATIC:
                if self.unlimited_prismatic is None:
                    self.report.error(entity, 'is a prismatic joint without limits; URDF '
                                      'requires <limit> on prismatic joints and cannot say '
                                      '"unlimited" (--unlimited-prismatic LOWER UPPER EFFORT '
                                      'VELOCITY chooses the limit to write)', joint.location,
                                      Code.MISSING_LIMIT)
                    return None
                limit = self.unlimited_prismatic
        return type_name, limit

    def enforced(self, limit: Limit, joint: str, optional: bool) -> Limit | None:
        """
        Give a value to an effort or velocity limit that is not enforced: below 0, or inf.

        ``optional``: a continuous joint without position limits, whose ``<limit>`` URDF
        does not require; ``None`` when it would say nothing.
        """
        values = self.unlimited_effort or UNLIMITED_EFFORT
        free = {key: value for key, value in zip(('effort', 'velocity'), values)
                if getattr(limit, key) < 0.0 or getattr(limit, key) == math.inf}
        if not free:
            return limit
        if optional and len(free) == 2:
            return None
        self.unenforced.append(joint)
        return replace(limit, **free)

    def report_unenforced(self) -> None:
        """Warn once about the limits written for efforts and velocities not enforced."""
        names = self.unenforced
        if not names or self.unlimited_effort is not None:
            return
        shown = ', '.join(map(repr, names[:6])) + (', ...' if len(names) > 6 else '')
        effort, velocity = UNLIMITED_EFFORT
        self.report.warn(
            f"robot '{self.robot.name}'", f'{len(names)} joint(s) ({shown}) with an effort or '
            "velocity limit that is not enforced (SDFormat's -1 or inf): URDF requires both "
            'and cannot say "unlimited" (pinocchio refuses -1), so effort '
            f'{effort:g} and velocity {velocity:g} are written for them (--unlimited-effort '
            'EFFORT VELOCITY chooses the values)', self.robot.location, Code.NO_URDF_EQUIVALENT)

    def fixed_joint(self, root: etree._Element, parent: str, child: str, pose: Pose) -> None:
        elem = etree.SubElement(root, 'joint', name=child + FIXED_SUFFIX, type='fixed')
        self.origin(elem, pose, f"joint '{child + FIXED_SUFFIX}'")
        etree.SubElement(elem, 'parent', link=parent)
        etree.SubElement(elem, 'child', link=child)


def _unbounded(limit: Limit | None, kind: JointType, source_format: str) -> bool:
    """
    Return whether a limit leaves the position free (absent, or infinite both ways).

    In a model read from SDFormat, a revolute joint's +-1e16 is "unlimited" too: the
    default up to SDFormat 1.9, and how libsdformat writes a URDF continuous joint.
    """
    if limit is None:
        return True
    sdf_revolute = kind is JointType.REVOLUTE and source_format == 'sdf'
    bound = _SDF_UNBOUNDED if sdf_revolute else math.inf
    return limit.lower <= -bound and limit.upper >= bound


def _xacro_markup(elements: Iterable[etree._Element]) -> tuple[str, str | None, str] | None:
    """
    Return ``(tag, attribute, value)`` of the first text xacro would evaluate, or ``None``.

    ``elements`` are searched in order, their attributes, then their text (``attribute``
    ``None``); comments are skipped.
    """
    for element in elements:
        if not isinstance(element.tag, str):  # a comment kept in <gazebo> content
            continue
        for key, value in attribute_items(element):
            if evaluated_by_xacro(value):
                return element.tag, key, value
        if element.text and evaluated_by_xacro(element.text):
            return element.tag, None, element.text
    return None
