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

How the model maps to URDF
--------------------------
* Joint types: revolute, continuous, prismatic, fixed, floating and planar are written as
  they are. A revolute joint without limits (RobCoGen joints have none) is written as
  ``continuous``, which is what an unlimited revolute joint is in URDF. URDF requires a
  ``<limit>`` on prismatic joints, and no value means "unlimited", so a prismatic joint
  without limits is an error unless ``unlimited_prismatic`` gives the limit to write. Ball,
  universal, revolute2, screw and gearbox joints have no URDF equivalent: error.
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
"""

import copy
import math

from lxml import etree

from sdf_tools import transforms
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Reporter
from sdf_tools.errors import XmlSyntaxError
from sdf_tools.files.xml_source import DCOLON
from sdf_tools.files.xml_source import parse_number
from sdf_tools.files.xml_source import parse_xml
from sdf_tools.files.xml_source import to_string
from sdf_tools.formatting import fmt
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Mesh
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Sphere
from sdf_tools.topology import WORLD

#: Name of the link added above a root link whose ``Link.pose`` is not the identity.
MODEL_FRAME_LINK = 'model_frame'
#: Suffix of the massless link added at the joint frame when ``joint_in_child`` is not the
#: identity.
JOINT_FRAME_SUFFIX = '__joint_frame'
#: Suffix of every fixed joint the writer adds: ``<its child link>__fixed``.
FIXED_SUFFIX = '__fixed'

_WRITTEN_AS_IS = {
    JointType.REVOLUTE: 'revolute', JointType.CONTINUOUS: 'continuous',
    JointType.PRISMATIC: 'prismatic', JointType.FIXED: 'fixed',
    JointType.FLOATING: 'floating', JointType.PLANAR: 'planar',
}
_DEFAULT_AXIS = (1.0, 0.0, 0.0)


def write_urdf(robot: Robot, *, unlimited_prismatic: Limit | None = None) -> str:
    """
    Write a model as URDF text.

    Parameters
    ----------
    robot : Robot
        A valid model (as the readers return it).
    unlimited_prismatic : Limit, optional
        The ``<limit>`` to write for prismatic joints that have none (URDF requires one and
        cannot say "unlimited"). ``None`` makes such a joint a :class:`ConversionError`.

    Returns
    -------
    str
        The URDF document, with an XML declaration, indented by two spaces.

    Raises
    ------
    ConversionError
        Something has no exact URDF equivalent; holds every such problem, each naming its
        element (module docstring).

    """
    return _UrdfWriter(robot, unlimited_prismatic).write()


class _UrdfWriter:
    """Builds the ``<robot>`` element; one instance per call."""

    __slots__ = ('robot', 'unlimited_prismatic', 'reporter', 'names', 'gazebo')

    def __init__(self, robot: Robot, unlimited_prismatic: Limit | None):
        self.robot = robot
        self.unlimited_prismatic = unlimited_prismatic
        self.reporter = Reporter(ConversionError)
        self.names = ({link.name for link in robot.links}, {j.name for j in robot.joints})
        self.gazebo = []  # extra <gazebo> elements, written after the model's own

    def error(self, entity, message, location=None, code=Code.NO_URDF_EQUIVALENT) -> None:
        self.reporter.error(message, location, entity, code)

    # --- numbers ------------------------------------------------------------------------

    def num(self, value, entity, what) -> str:
        value = float(value)
        if not math.isfinite(value):
            self.error(entity, f'{what} is {value!r}; URDF needs finite numbers',
                       code=Code.BAD_NUMBER)
            return '0'
        return fmt(value)

    def nums(self, values, entity, what) -> str:
        return ' '.join(self.num(v, entity, what) for v in values)

    # --- document -----------------------------------------------------------------------

    def write(self) -> str:
        robot = self.robot
        root = etree.Element('robot', name=robot.name)
        if robot.origin is not None:
            self.origin(root, robot.origin, f"robot '{robot.name}'", force=True)
        for material in robot.materials:
            self.material(root, material, f"robot '{robot.name}'")
        extra_links, extra_joints = self.tree_additions()
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
        for ext in robot.gazebo:
            elem = etree.SubElement(root, 'gazebo')
            if ext.reference is not None:
                elem.set('reference', ext.reference)
            for child in ext.elements:
                elem.append(copy.deepcopy(child))
        self.model_extensions()
        for elem in self.gazebo:
            root.append(elem)
        self.reporter.raise_if_errors()
        etree.indent(root, space='  ')
        return to_string(root, pretty=True, declaration=True)

    def tree_additions(self):
        """
        Check the tree shape; return the links and fixed joints the writer adds.

        Returns ``(link names, [(parent, child, origin)])``: ``world`` for an implicit
        world, ``model_frame`` for a posed root, and the joint-frame and frame links.
        """
        robot = self.robot
        index = robot.index
        entity = f"robot '{robot.name}'"
        links, joints = [], []
        implicit_world = (WORLD not in index.links
                          and any(j.parent == WORLD for j in robot.joints))
        roots = list(index.roots)
        if implicit_world:
            links.append(WORLD)
            roots.insert(0, WORLD)
        if not roots:
            self.error(entity, 'has no links; a URDF needs at least one <link>',
                       robot.location, Code.NO_LINKS)
        elif len(roots) > 1:
            shown = ', '.join(repr(r) for r in roots[:6]) + (', ...' if len(roots) > 6 else '')
            self.error(entity, f'has {len(roots)} root links ({shown}); a URDF is a tree with '
                       'exactly one root', robot.location, Code.SEVERAL_ROOTS)
        for joint in index.loop_joints:
            self.error(f"joint '{joint.name}'", f'closes a kinematic loop (link '
                       f'{joint.child!r} is already the child of joint '
                       f'{index.parent_joint[joint.child].name!r}); a URDF is a tree',
                       joint.location, Code.KINEMATIC_LOOP)
        for name in roots:
            link = index.links.get(name)
            if link is None or link.pose is None or link.pose.is_identity():
                continue
            self.new_link(MODEL_FRAME_LINK, f"link '{name}'", 'the model frame above a '
                          'posed root link')
            self.new_joint(name + FIXED_SUFFIX, f"link '{name}'")
            links.append(MODEL_FRAME_LINK)
            joints.append((MODEL_FRAME_LINK, name, link.pose))
        for joint in robot.joints:
            if joint.joint_in_child.is_identity():
                continue
            middle = joint.child + JOINT_FRAME_SUFFIX
            entity = f"joint '{joint.name}'"
            self.new_link(middle, entity, 'the joint frame of a child link not at the joint')
            self.new_joint(joint.child + FIXED_SUFFIX, entity)
            links.append(middle)
            joints.append((middle, joint.child, joint.joint_in_child.inverse()))
        for frame in robot.frames:
            entity = f"frame '{frame.name}'"
            if frame.attached_to not in index.links:
                self.error(entity, f'is attached to {frame.attached_to!r}, which is not a '
                           'link', frame.location, Code.MISSING_LINK)
                continue
            self.new_link(frame.name, entity, 'the frame')
            self.new_joint(frame.name + FIXED_SUFFIX, entity)
            links.append(frame.name)
            joints.append((frame.attached_to, frame.name, frame.pose))
        return links, joints

    def new_link(self, name, entity, what) -> None:
        if name in self.names[0]:
            self.error(entity, f'needs a link named {name!r} for {what}, but the model '
                       'already has one', code=Code.NAME_CLASH)
        self.names[0].add(name)

    def new_joint(self, name, entity) -> None:
        if name in self.names[1]:
            self.error(entity, f'needs a fixed joint named {name!r}, but the model already '
                       'has one', code=Code.NAME_CLASH)
        self.names[1].add(name)

    # --- shared pieces ------------------------------------------------------------------

    def origin(self, parent, pose: Pose, entity, *, force=False) -> None:
        """Write ``<origin>`` (omitted for the identity unless ``force``)."""
        xyz = tuple(float(v) for v in pose.xyz)
        rpy = transforms.rpy_from_quat(pose.quat)
        has_xyz = any(v != 0.0 for v in xyz)
        has_rpy = any(v != 0.0 for v in rpy)
        if not (has_xyz or has_rpy or force):
            return
        elem = etree.SubElement(parent, 'origin')
        if has_xyz or force:
            elem.set('xyz', self.nums(xyz, entity, '<origin> xyz'))
        if has_rpy or force:
            elem.set('rpy', self.nums(rpy, entity, '<origin> rpy'))

    def material(self, parent, material, entity, *, reference_ok=False) -> None:
        top = None
        if reference_ok and material.name is not None:
            top = next((m for m in self.robot.materials if m.name == material.name), None)
        elem = etree.SubElement(parent, 'material')
        if material.name is not None:
            elem.set('name', material.name)
        if top == material or (top is None and reference_ok and material.rgba is None
                               and material.texture is None):
            return
        if material.rgba is not None:
            etree.SubElement(elem, 'color', rgba=self.nums(material.rgba, entity,
                                                           '<color> rgba'))
        if material.texture is not None:
            etree.SubElement(elem, 'texture', filename=material.texture)

    def geometry(self, parent, geometry, entity, what) -> None:
        elem = etree.SubElement(parent, 'geometry')
        if isinstance(geometry, Box):
            etree.SubElement(elem, 'box', size=self.nums(geometry.size, entity, '<box> size'))
        elif isinstance(geometry, Cylinder):
            etree.SubElement(elem, 'cylinder',
                             radius=self.num(geometry.radius, entity, '<cylinder> radius'),
                             length=self.num(geometry.length, entity, '<cylinder> length'))
        elif isinstance(geometry, Sphere):
            etree.SubElement(elem, 'sphere',
                             radius=self.num(geometry.radius, entity, '<sphere> radius'))
        elif isinstance(geometry, Capsule):
            etree.SubElement(elem, 'capsule',
                             radius=self.num(geometry.radius, entity, '<capsule> radius'),
                             length=self.num(geometry.length, entity, '<capsule> length'))
        elif isinstance(geometry, Mesh):
            mesh = etree.SubElement(elem, 'mesh', filename=geometry.filename)
            if geometry.scale is not None:
                mesh.set('scale', self.nums(geometry.scale, entity, '<mesh> scale'))
        elif geometry is None:
            self.error(entity, f'{what} has no geometry; URDF requires one')
        else:
            self.error(entity, f'{what} has a <{geometry.kind}> geometry; URDF has only box, '
                       'cylinder, sphere, capsule and mesh')

    def extension(self, reference, elements) -> None:
        """Queue a ``<gazebo>`` block holding serialised SDFormat elements."""
        block = etree.Element('gazebo')
        if reference is not None:
            block.set('reference', reference)
        for item in elements:
            block.append(item)
        self.gazebo.append(block)

    def parse_extras(self, extras, entity, location):
        elements = []
        for text in extras:
            try:
                elements.append(parse_xml(text, f'{entity} extras'))
            except XmlSyntaxError as e:
                self.error(entity, f'holds SDFormat content that is not one XML element '
                           f'({e.diagnostic.message})', location, Code.BAD_EXTRAS)
        return elements

    # --- links --------------------------------------------------------------------------

    def link(self, root, link) -> None:
        entity = f"link '{link.name}'"
        elem = etree.SubElement(root, 'link', name=link.name)
        inertial = link.inertial
        if inertial is not None:
            ie = etree.SubElement(elem, 'inertial')
            self.origin(ie, inertial.origin, entity)
            etree.SubElement(ie, 'mass', value=self.num(inertial.mass, entity, '<mass>'))
            etree.SubElement(ie, 'inertia', **{
                key: self.num(getattr(inertial, key), entity, f'<inertia> {key}')
                for key in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')})
        for visual in link.visuals:
            ve = etree.SubElement(elem, 'visual')
            if visual.name is not None:
                ve.set('name', visual.name)
            self.origin(ve, visual.origin, entity)
            self.geometry(ve, visual.geometry, entity, 'a <visual>')
            if visual.material is not None:
                self.material(ve, visual.material, entity, reference_ok=True)
        for collision in link.collisions:
            ce = etree.SubElement(elem, 'collision')
            if collision.name is not None:
                ce.set('name', collision.name)
            self.origin(ce, collision.origin, entity)
            self.geometry(ce, collision.geometry, entity, 'a <collision>')
        self.link_extensions(link, entity)

    def link_extensions(self, link, entity) -> None:
        elements = self.parse_extras(link.extras, entity, link.location)
        for tag, items in (('visual', link.visuals), ('collision', link.collisions)):
            if not any(item.extras for item in items):
                continue
            parsed = [self.parse_extras(item.extras, entity, link.location) for item in items]
            forms = {tuple(_canonical(e) for e in group) for group in parsed}
            if len(forms) > 1 and tag == 'visual':
                # Visuals of different colours (as libsdformat writes URDF colours): the
                # URDF <color> of each already says what its <material> does.
                parsed = [[e for e in group if not _colour_only(e, item.material)]
                          for group, item in zip(parsed, items)]
                forms = {tuple(_canonical(e) for e in group) for group in parsed}
            if len(forms) > 1:
                tags = sorted({e.tag.replace(DCOLON, '::') for group in parsed for e in group})
                self.error(entity, f'its <{tag}> elements carry different SDFormat-only '
                           f'content ({", ".join(f"<{t}>" for t in tags)}); URDF can only '
                           f'add the same content to every <{tag}> of a link (a <gazebo> '
                           'extension)', link.location)
                continue
            if parsed[0]:
                wrapper = etree.Element(tag)
                for item in parsed[0]:
                    wrapper.append(item)
                elements.append(wrapper)
        if elements:
            self.extension(link.name, elements)

    # --- joints -------------------------------------------------------------------------

    def joint(self, root, joint) -> None:
        entity = f"joint '{joint.name}'"
        kind = joint.kind
        if kind not in _WRITTEN_AS_IS:
            self.error(entity, f'is a {kind.value} joint; URDF has no {kind.value} joint '
                       '(only revolute, continuous, prismatic, fixed, floating and planar)',
                       joint.location)
            return
        limit = joint.limit
        type_name = _WRITTEN_AS_IS[kind]
        if _unbounded(limit):
            if kind is JointType.REVOLUTE:
                type_name = 'continuous'  # an unlimited revolute joint
                if limit is not None:
                    limit = Limit(0.0, 0.0, limit.effort, limit.velocity)
            elif kind is JointType.PRISMATIC:
                if self.unlimited_prismatic is None:
                    self.error(entity, 'is a prismatic joint without limits; URDF requires '
                               '<limit> on prismatic joints and cannot say "unlimited" '
                               '(pass unlimited_prismatic=Limit(...) to choose one)',
                               joint.location, Code.MISSING_LIMIT)
                    return
                limit = self.unlimited_prismatic
        child = joint.child
        if not joint.joint_in_child.is_identity():
            child = joint.child + JOINT_FRAME_SUFFIX
        elem = etree.SubElement(root, 'joint', name=joint.name, type=type_name)
        self.origin(elem, joint.origin, entity)
        etree.SubElement(elem, 'parent', link=joint.parent)
        etree.SubElement(elem, 'child', link=child)
        if kind.axes or tuple(joint.axis) != _DEFAULT_AXIS:
            etree.SubElement(elem, 'axis', xyz=self.nums(joint.axis, entity, '<axis> xyz'))
        if joint.calibration is not None:
            cal = etree.SubElement(elem, 'calibration')
            if joint.calibration.rising is not None:
                cal.set('rising', self.num(joint.calibration.rising, entity,
                                           '<calibration> rising'))
            if joint.calibration.falling is not None:
                cal.set('falling', self.num(joint.calibration.falling, entity,
                                            '<calibration> falling'))
        dynamics = joint.dynamics
        if dynamics is not None:
            etree.SubElement(elem, 'dynamics',
                             damping=self.num(dynamics.damping, entity, '<dynamics> damping'),
                             friction=self.num(dynamics.friction, entity,
                                               '<dynamics> friction'))
        if limit is not None:
            le = etree.SubElement(elem, 'limit')
            if limit.lower != 0.0 or limit.upper != 0.0 or type_name != 'continuous':
                le.set('lower', self.num(limit.lower, entity, '<limit> lower'))
                le.set('upper', self.num(limit.upper, entity, '<limit> upper'))
            le.set('effort', self.num(limit.effort, entity, '<limit> effort'))
            le.set('velocity', self.num(limit.velocity, entity, '<limit> velocity'))
        if joint.mimic is not None:
            mimic = joint.mimic
            etree.SubElement(elem, 'mimic', joint=mimic.joint,
                             multiplier=self.num(mimic.multiplier, entity,
                                                 '<mimic> multiplier'),
                             offset=self.num(mimic.offset, entity, '<mimic> offset'))
        safety = joint.safety_controller
        if safety is not None:
            etree.SubElement(
                elem, 'safety_controller',
                soft_lower_limit=self.num(safety.soft_lower_limit, entity,
                                          '<safety_controller> soft_lower_limit'),
                soft_upper_limit=self.num(safety.soft_upper_limit, entity,
                                          '<safety_controller> soft_upper_limit'),
                k_position=self.num(safety.k_position, entity,
                                    '<safety_controller> k_position'),
                k_velocity=self.num(safety.k_velocity, entity,
                                    '<safety_controller> k_velocity'))
        self.joint_extensions(joint, entity)

    def joint_extensions(self, joint, entity) -> None:
        elements = []
        for element in self.parse_extras(joint.extras, entity, joint.location):
            # A <physics> blob would follow the one the converter makes for joint extensions,
            # and simulators read only the first: say it with the special tags when they can.
            elements += _physics_tags(element) if element.tag == 'physics' else [element]
        dynamics = joint.dynamics
        if dynamics is not None:
            for tag, value in (('springReference', dynamics.spring_reference),
                               ('springStiffness', dynamics.spring_stiffness)):
                if value != 0.0:
                    item = etree.Element(tag)
                    item.text = self.num(value, entity, f'<dynamics> {tag}')
                    elements.append(item)
        if elements:
            self.extension(joint.name, elements)

    def fixed_joint(self, root, parent, child, pose) -> None:
        elem = etree.SubElement(root, 'joint', name=child + FIXED_SUFFIX, type='fixed')
        self.origin(elem, pose, f"joint '{child + FIXED_SUFFIX}'")
        etree.SubElement(elem, 'parent', link=parent)
        etree.SubElement(elem, 'child', link=child)

    def model_extensions(self) -> None:
        robot = self.robot
        entity = f"robot '{robot.name}'"
        elements = []
        if robot.static:
            static = etree.Element('static')
            static.text = 'true'
            elements.append(static)
        elements += self.parse_extras(robot.extras, entity, robot.location)
        if elements:
            self.gazebo.insert(0, etree.Element('gazebo'))
            for item in elements:
                self.gazebo[0].append(item)


# Leaves of an SDFormat joint <physics> and the <gazebo> joint tags that write them.
_PHYSICS_TAGS = {
    ('ode', 'limit', 'cfm'): 'stopCfm', ('ode', 'limit', 'erp'): 'stopErp',
    ('provide_feedback',): 'provideFeedback', ('ode', 'provide_feedback'): 'provideFeedback',
    ('ode', 'implicit_spring_damper'): 'implicitSpringDamper',
    ('ode', 'cfm_damping'): 'implicitSpringDamper', ('ode', 'fudge_factor'): 'fudgeFactor'}


def _physics_tags(physics) -> list:
    """Return a joint ``<physics>`` as special tags, or ``[physics]`` when they cannot say it."""
    values = {}
    for leaf in physics.iter():
        if len(leaf) or leaf is physics:
            continue
        path, e = [], leaf
        while e is not physics:
            path.append(e.tag)
            e = e.getparent()
        tag = _PHYSICS_TAGS.get(tuple(reversed(path)))
        text = (leaf.text or '').strip()
        if tag is None or leaf.attrib or values.setdefault(tag, text) != text:
            return [physics]
    out = []
    for tag, text in values.items():
        item = etree.Element(tag)
        item.text = text
        out.append(item)
    return out


def _colour_only(element, material) -> bool:
    """Return whether a visual's SDFormat ``<material>`` holds only its URDF colour."""
    if element.tag != 'material' or material is None or material.rgba is None \
            or element.attrib or len(element) == 0:
        return False
    for child in element:
        if child.tag not in ('ambient', 'diffuse') or child.attrib or len(child):
            return False
        values = [parse_number(v) for v in (child.text or '').split()]
        if len(values) == 3:
            values.append(1.0)
        if tuple(values) != tuple(material.rgba):
            return False
    return True


def _canonical(element) -> bytes:
    """Return an element's text with whitespace-only text and tails dropped (to compare)."""
    element = copy.deepcopy(element)
    for e in element.iter():
        if e.text is not None and not e.text.strip():
            e.text = None
        if e.tail is not None and not e.tail.strip():
            e.tail = None
    element.tail = None
    return etree.tostring(element, method='c14n', exclusive=True)


def _unbounded(limit) -> bool:
    """Return whether a limit leaves the position free (absent, or infinite both ways)."""
    return limit is None or (limit.lower == -math.inf and limit.upper == math.inf)
