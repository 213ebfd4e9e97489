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
Generic SDFormat writer: :class:`~sdf_tools.model.Robot` to SDFormat text.

A plain model-to-SDFormat writer, for models read from SDFormat (or built in code): no URDF
fixed-joint lumping and no ``<gazebo>`` extensions (the URDF converter does those). What it
writes:

* one ``<model>`` with the robot's ``origin`` as its ``<pose>`` and ``<static>``;
* each link with its pose **in the model frame** (the zero-configuration pose, composed from
  the joints), inertial, visuals, collisions and ``extras``;
* each joint with its pose relative to its child link (``X_CJ``, the SDFormat default), its
  axes in the joint frame, limits, dynamics, screw pitch and gearbox fields; continuous
  joints are written as ``revolute`` with limits of +-1e16, because Gazebo's DART engine
  turns a ``continuous`` joint into a fixed one;
* each frame attached to its link, with its pose in that link;
* scoped names (``outer::inner::link``, as the SDFormat reader flattens nested models) as
  nested ``<model>`` elements again (SDFormat 1.8+ forbids ``::`` in names; grouped by
  :mod:`.scopes`); nested models get no pose, so their frames coincide with the top model
  frame.

Numbers are the shortest text that reads back to the same double (``1`` for 1.0, never
``-0``); rotations are written as fixed-axis roll, pitch, yaw.

Not written: URDF-only joint data (calibration, safety controller), mimic joints before
SDFormat 1.11, material names and textures (only the colour is written, as ambient and
diffuse; a ``<material>`` kept in a visual's ``extras`` is written instead). A link named
``world`` that is a root with no content is taken as URDF's world link: its joints become
joints to ``world``. Repeated or missing visual and collision names are made unique.
Everything else SDFormat cannot hold raises :class:`~sdf_tools.errors.ConversionError`.
"""

import math
import re

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.scopes import empty_scope
from sdf_tools.formats.sdf.scopes import group_by_scope
from sdf_tools.formats.sdf.scopes import world_link
from sdf_tools.formats.sdf.versions import MIMIC_VERSION
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.formats.sdf.versions import WRITABLE_VERSIONS
from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import IDENTITY
from sdf_tools.model import JointType
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Sphere
from sdf_tools.topology import link_loop_message
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import to_string


_TYPE_NAMES = {
    JointType.REVOLUTE: 'revolute',
    JointType.CONTINUOUS: 'revolute',
    JointType.PRISMATIC: 'prismatic',
    JointType.FIXED: 'fixed',
    JointType.BALL: 'ball',
    JointType.UNIVERSAL: 'universal',
    JointType.REVOLUTE2: 'revolute2',
    JointType.SCREW: 'screw',
    JointType.GEARBOX: 'gearbox',
}
_MATERIAL = re.compile(r'\s*<material[\s/>]')
#: Limits libsdformat writes for joints without any (its "unlimited").
UNLIMITED = 1e16


def write_sdf(robot: Robot, *, version: str = '1.9') -> str:
    """
    Write a robot as an SDFormat document holding one model.

    Parameters
    ----------
    robot : Robot
        The model; a valid tree (or forest) as the readers produce.
    version : str
        SDFormat version to write, one of
        :data:`~sdf_tools.formats.sdf.versions.WRITABLE_VERSIONS`.

    Returns
    -------
    str
        The document, starting with the XML declaration.

    Raises
    ------
    ValueError
        ``version`` is not one of
        :data:`~sdf_tools.formats.sdf.versions.WRITABLE_VERSIONS`.
    ConversionError
        The model holds something SDFormat cannot express (floating or planar joints, clashing
        or reserved names, a capsule before 1.8, ...); holds every such problem.

    """
    if version not in WRITABLE_VERSIONS:
        raise ValueError(f'cannot write SDFormat {version!r}; choose one of '
                         + ', '.join(WRITABLE_VERSIONS))
    return _SdfWriter(robot, version_tuple(version)).write(version)


class _SdfWriter:
    """Builds the document for one robot."""

    def __init__(self, robot: Robot, version: tuple):
        self.robot = robot
        self.version = version
        self.problems: list[Diagnostic] = []
        self.world_link = None

    def fail(self, message: str, entity: str | None = None, location=None) -> None:
        self.problems.append(Diagnostic(message, location, entity, code=Code.NOT_EXPRESSIBLE))

    def pose_text(self, pose: Pose, entity: str, location, what: str = '<pose>') -> str:
        """Return a pose's text; one that is not finite (an overflow) is a problem."""
        if not all(map(math.isfinite, pose.xyz + pose.quat)):
            self.fail(f'{what} is not finite (composing the poses overflows)', entity,
                      location)
            return '0 0 0 0 0 0'
        return fmt_pose(pose.xyz, pose.quat)

    def write(self, version_text: str) -> str:
        robot = self.robot
        name = robot.name
        if not name:
            self.fail('the robot has no name; an SDFormat model needs one')
        else:
            problem = sdf_names.name_problem(name, 'model name', self.version)
            if problem is not None:
                self.fail(problem, f"robot '{name}'", robot.location)
        self.world_link = world_link(robot, self.fail)
        if not robot.static and all(link.name == self.world_link for link in robot.links):
            self.fail("the model would hold no link (URDF's world link is not one); "
                      'SDFormat needs one unless the model is static', f"robot '{name}'",
                      robot.location)
        poses = self._link_poses()
        scopes = group_by_scope(robot, self.world_link, self.version, self.fail)
        root = etree.Element('sdf', version=version_text)
        model = etree.SubElement(root, 'model', name=robot.name)
        if robot.origin is not None and not robot.origin.is_identity():
            _text(model, 'pose', self.pose_text(robot.origin, f"robot '{robot.name}'",
                                                robot.location))
        if robot.static:
            _text(model, 'static', 'true')
        self._fill_scope(model, '', scopes, poses)
        for extra in robot.extras:
            self._append_xml(model, extra, f"robot '{robot.name}'")
        if self.problems:
            raise ConversionError(self.problems)
        lines = ['<?xml version="1.0" ?>']
        _emit(root, 0, lines)
        return '\n'.join(lines) + '\n'

    # --- structure --------------------------------------------------------------------

    def _link_poses(self) -> dict:
        """Return every link's zero-configuration pose in the model frame."""
        index = self.robot.index
        topology = index.topology
        if topology.cycles:
            for cycle in topology.cycles:
                self.fail(link_loop_message(cycle), f"link '{cycle[0]}'")
            return {n: IDENTITY for n in index.links}
        poses = {WORLD: IDENTITY}
        for name in topology.order:
            joint = topology.parent_joint.get(name)
            if joint is None:
                pose = index.links[name].pose
                poses[name] = pose if pose is not None else IDENTITY
            elif joint.parent not in poses:
                self.fail(f'the parent link {joint.parent!r} is not defined')
                poses[name] = IDENTITY
            else:
                poses[name] = poses[joint.parent].compose(joint.origin).compose(
                    joint.joint_in_child.inverse())
        return poses

    def _fill_scope(self, model, prefix, scopes, poses) -> None:
        items = scopes.get(prefix, empty_scope())
        for link in items['link']:
            self._link(model, link, prefix, poses[link.name])
        for joint in items['joint']:
            self._joint(model, joint, prefix)
        for frame in items['frame']:
            element = etree.SubElement(model, 'frame', name=frame.name[len(prefix):],
                                       attached_to=frame.attached_to[len(prefix):])
            if not frame.pose.is_identity():
                _text(element, 'pose', self.pose_text(frame.pose, f"frame '{frame.name}'",
                                                      frame.location))
        children = dict.fromkeys(p[len(prefix):].split('::')[0] for p in scopes
                                 if p != prefix and p.startswith(prefix))
        for name in children:
            nested = etree.SubElement(model, 'model', name=name)
            self._fill_scope(nested, f'{prefix}{name}::', scopes, poses)

    # --- links ------------------------------------------------------------------------

    def _link(self, model, link, prefix, pose) -> None:
        entity = f"link '{link.name}'"
        local = link.name[len(prefix):]
        element = etree.SubElement(model, 'link', name=local)
        if not pose.is_identity():
            _text(element, 'pose', self.pose_text(pose, entity, link.location,
                                                  'its pose in the model frame'))
        inertial = link.inertial
        if inertial is not None:
            item = etree.SubElement(element, 'inertial')
            if not inertial.origin.is_identity():
                _text(item, 'pose', self.pose_text(inertial.origin, entity, link.location))
            _text(item, 'mass', fmt(inertial.mass))
            tensor = etree.SubElement(item, 'inertia')
            for key in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'):
                _text(tensor, key, fmt(getattr(inertial, key)))
        for tag, items in (('visual', link.visuals), ('collision', link.collisions)):
            names = set()
            for item in items:
                name = _unique(item.name or f'{local}_{tag}', names)
                shape = etree.SubElement(element, tag, name=name)
                if not item.origin.is_identity():
                    _text(shape, 'pose', self.pose_text(item.origin, entity, item.location))
                self._geometry(etree.SubElement(shape, 'geometry'), item.geometry, entity,
                               item.location)
                has_material = any(_MATERIAL.match(extra) for extra in item.extras)
                if tag == 'visual' and not has_material and item.material is not None \
                        and item.material.rgba is not None:
                    material = etree.SubElement(shape, 'material')
                    _text(material, 'ambient', fmt_vec(item.material.rgba))
                    _text(material, 'diffuse', fmt_vec(item.material.rgba))
                for extra in item.extras:
                    self._append_xml(shape, extra, entity)
        for extra in link.extras:
            self._append_xml(element, extra, entity)

    def _geometry(self, element, geometry, entity, location) -> None:
        if isinstance(geometry, Box):
            _text(etree.SubElement(element, 'box'), 'size', fmt_vec(geometry.size))
        elif isinstance(geometry, (Cylinder, Capsule)):
            if isinstance(geometry, Capsule) and self.version < (1, 8):
                self.fail('capsules need SDFormat 1.8 or later', entity, location)
            shape = etree.SubElement(element, 'cylinder' if isinstance(geometry, Cylinder)
                                     else 'capsule')
            _text(shape, 'radius', fmt(geometry.radius))
            _text(shape, 'length', fmt(geometry.length))
        elif isinstance(geometry, Sphere):
            _text(etree.SubElement(element, 'sphere'), 'radius', fmt(geometry.radius))
        elif isinstance(geometry, Mesh):
            shape = etree.SubElement(element, 'mesh')
            _text(shape, 'uri', geometry.filename)
            if geometry.scale is not None:
                _text(shape, 'scale', fmt_vec(geometry.scale))
        elif isinstance(geometry, OtherGeometry):
            self._append_xml(element, geometry.xml, entity)
        else:
            etree.SubElement(element, 'empty')

    def _append_xml(self, parent, text: str, entity) -> None:
        try:
            parent.append(parse_xml(text, f'extras of {entity}'))
        except SdfToolsError as e:  # an extra that is not XML: say whose it is
            self.fail(f'an extra element is not well-formed XML: {e}', entity)

    # --- joints -----------------------------------------------------------------------

    def _joint(self, model, joint, prefix) -> None:
        entity = f"joint '{joint.name}'"
        type_name = _TYPE_NAMES.get(joint.kind)
        if type_name is None:
            self.fail(f'SDFormat has no {joint.kind.value} joint', entity, joint.location)
            return
        element = etree.SubElement(model, 'joint', name=joint.name[len(prefix):],
                                   type=type_name)
        if not joint.joint_in_child.is_identity():
            _text(element, 'pose', self.pose_text(joint.joint_in_child, entity,
                                                  joint.location))
        parent = joint.parent
        _text(element, 'parent', WORLD if parent in (WORLD, self.world_link)
              else parent[len(prefix):])
        _text(element, 'child', joint.child[len(prefix):])
        kind = joint.kind
        if kind is JointType.GEARBOX:
            _text(element, 'gearbox_ratio', fmt(joint.gearbox_ratio
                                                if joint.gearbox_ratio is not None else 1.0))
            if joint.gearbox_reference_body is not None:
                _text(element, 'gearbox_reference_body',
                      joint.gearbox_reference_body[len(prefix):]
                      if joint.gearbox_reference_body.startswith(prefix)
                      else joint.gearbox_reference_body)
        if kind is JointType.SCREW:
            pitch = joint.screw_thread_pitch if joint.screw_thread_pitch is not None else 1.0
            if self.version >= (1, 10):
                _text(element, 'screw_thread_pitch', fmt(pitch))
            elif pitch == 0.0 or not math.isfinite(-2.0 * math.pi / pitch):
                self.fail(f'a screw pitch of {pitch:g} cannot be written as <thread_pitch> '
                          '(before SDFormat 1.10)', entity, joint.location)
            else:
                _text(element, 'thread_pitch', fmt(-2.0 * math.pi / pitch))
        if kind.axes:
            limit = joint.limit
            if kind is JointType.CONTINUOUS:
                limit = (-UNLIMITED, UNLIMITED,
                         None if limit is None else limit.effort,
                         None if limit is None else limit.velocity)
            elif limit is not None:
                limit = (limit.lower, limit.upper, limit.effort, limit.velocity)
            self._axis(element, 'axis', joint.axis, limit, joint.dynamics, joint, prefix)
        if kind.axes == 2 and joint.axis2 is not None:
            limit2 = joint.limit2
            if limit2 is not None:
                limit2 = (limit2.lower, limit2.upper, limit2.effort, limit2.velocity)
            self._axis(element, 'axis2', joint.axis2, limit2, joint.dynamics2, None, prefix)
        for extra in joint.extras:
            self._append_xml(element, extra, entity)

    def _axis(self, joint_element, tag, xyz, limit, dynamics, joint, prefix) -> None:
        axis = etree.SubElement(joint_element, tag)
        _text(axis, 'xyz', fmt_vec(xyz))
        if dynamics is not None:
            item = etree.SubElement(axis, 'dynamics')
            _text(item, 'damping', fmt(dynamics.damping))
            _text(item, 'friction', fmt(dynamics.friction))
            _text(item, 'spring_reference', fmt(dynamics.spring_reference))
            _text(item, 'spring_stiffness', fmt(dynamics.spring_stiffness))
        if limit is not None:
            item = etree.SubElement(axis, 'limit')
            for key, value in zip(('lower', 'upper', 'effort', 'velocity'), limit):
                if value is not None:
                    _text(item, key, fmt(value))
        mimic = joint.mimic if joint is not None else None
        if mimic is not None and self.version >= version_tuple(MIMIC_VERSION):
            leader = mimic.joint[len(prefix):] if mimic.joint.startswith(prefix) \
                else mimic.joint
            item = etree.SubElement(axis, 'mimic', joint=leader)
            _text(item, 'multiplier', fmt(mimic.multiplier))
            _text(item, 'offset', fmt(mimic.offset))
            _text(item, 'reference', '0')


def _unique(name: str, taken: set) -> str:
    candidate = name
    i = 0
    while candidate in taken:
        i += 1
        candidate = f'{name}_{i}'
    taken.add(candidate)
    return candidate


def _text(parent, tag: str, text: str):
    element = etree.SubElement(parent, tag)
    element.text = text
    return element


# --- serialisation ---------------------------------------------------------------------------

def _escape_text(text: str) -> str:
    return text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def _escape_attr(text: str) -> str:
    return (_escape_text(text).replace("'", '&apos;').replace('\n', '&#10;')
            .replace('\t', '&#9;').replace('\r', '&#13;'))


def _emit(element, depth: int, out: list) -> None:
    """Append the lines of an element, indented by two spaces per level, single-quoted."""
    pad = '  ' * depth
    if element.tag.startswith('{') or any(k.startswith('{') for k in element.attrib):
        # Namespaced content (rare in SDFormat): let lxml write the declarations it needs.
        text = to_string(element, pretty=False, with_tail=False)
        out.extend(pad + line for line in text.splitlines())
        return
    tag = local_name(element)
    attrs = ''.join(f" {k}='{_escape_attr(v)}'" for k, v in element.attrib.items())
    children = [c for c in element if isinstance(c.tag, str)]
    text = element.text.strip() if element.text and element.text.strip() else None
    if not children:
        if text is None:
            out.append(f'{pad}<{tag}{attrs}/>')
        else:
            out.append(f'{pad}<{tag}{attrs}>{_escape_text(text)}</{tag}>')
        return
    out.append(f'{pad}<{tag}{attrs}>')
    if text is not None:
        out.append(f'{pad}  {_escape_text(text)}')
    for child in children:
        _emit(child, depth + 1, out)
    out.append(f'{pad}</{tag}>')
