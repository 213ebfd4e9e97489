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
  the joints), inertial, visuals, collisions and ``extras``; an ``<inertial auto="true">``
  read from SDFormat is written as given to SDFormat 1.11 (Gazebo computes it from the
  collisions, as the reader did), as the values the reader computed to older versions;
* each joint with its pose relative to its child link (``X_CJ``, the SDFormat default), its
  axes in the joint frame, limits, dynamics, screw pitch and gearbox fields; continuous
  joints are written as ``revolute`` with the version's unlimited limits (``-1e16``/``1e16``
  before SDFormat 1.10, ``-inf``/``inf`` from 1.10 on:
  :func:`~sdf_tools.formats.sdf.versions.joint_defaults`), because Gazebo's DART engine
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
joints to ``world``. Missing visual and collision names are made up (``<link>_visual``,
``<link>_visual_1``, ...).

What libsdformat would refuse is written so that it loads, each with a warning: a negative
mass as the placeholder inertial, an inertia no rigid body has as the nearest valid one
(:mod:`.inertials`, as the URDF converter writes them), and a visual (collision) named like
an earlier one of its link as ``<name>_2``, ``<name>_3``, ... (a model read from SDFormat
has no such names: the reader refuses them; URDF allows them). Everything else SDFormat
cannot hold raises :class:`~sdf_tools.errors.ConversionError`.
"""

import functools
import math
from typing import cast
from typing import TYPE_CHECKING

from sdf_tools import inertia
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.errors import Severity
from sdf_tools.formats.sdf import inertials
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.emit import axis_text
from sdf_tools.formats.sdf.emit import COLOURS
from sdf_tools.formats.sdf.emit import DYNAMICS
from sdf_tools.formats.sdf.emit import geometry_block
from sdf_tools.formats.sdf.emit import inertial_block
from sdf_tools.formats.sdf.emit import LIMIT
from sdf_tools.formats.sdf.emit import MIMIC
from sdf_tools.formats.sdf.emit import MOMENTS
from sdf_tools.formats.sdf.emit import part_block
from sdf_tools.formats.sdf.emit import SdfText
from sdf_tools.formats.sdf.emit import shape_leaves
from sdf_tools.formats.sdf.emit import shape_texts
from sdf_tools.formats.sdf.inertials import MASSLESS_INERTIA
from sdf_tools.formats.sdf.inertials import MASSLESS_MASS
from sdf_tools.formats.sdf.scopes import empty_scope
from sdf_tools.formats.sdf.scopes import group_by_scope
from sdf_tools.formats.sdf.scopes import holds_links
from sdf_tools.formats.sdf.scopes import world_link
from sdf_tools.formats.sdf.versions import joint_defaults
from sdf_tools.formats.sdf.versions import MIMIC_VERSION
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.formats.sdf.versions import WRITABLE_VERSIONS
from sdf_tools.formatting import fmt_colour
from sdf_tools.model import Capsule
from sdf_tools.model import IDENTITY
from sdf_tools.model import JointType
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Visual
from sdf_tools.records import replace
from sdf_tools.topology import link_loop_message
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import stripped
from sdf_tools.xmlio.text import Block
from sdf_tools.xmlio.text import escape_attribute
from sdf_tools.xmlio.text import escape_text

if TYPE_CHECKING:  # annotations only
    from collections.abc import Iterable

    from sdf_tools.errors import SourceLocation
    from sdf_tools.formats.sdf.emit import Slotted
    from sdf_tools.formats.sdf.emit import Tags
    from sdf_tools.formats.sdf.scopes import Scope
    from sdf_tools.model import Collision
    from sdf_tools.model import Dynamics
    from sdf_tools.model import Frame
    from sdf_tools.model import Inertial
    from sdf_tools.model import Joint
    from sdf_tools.model import Link
    from sdf_tools.model import Mimic
    from sdf_tools.transforms import Vec3

    #: An axis's lower, upper, effort and velocity limits (``None``: not written).
    _Limits = tuple[float, float, float | None, float | None]


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


def write_sdf(robot: Robot, *, version: str = '1.9', reporter: Reporter | None = None,
              massless_mass: float = MASSLESS_MASS,
              massless_inertia: float = MASSLESS_INERTIA,
              plugins: tuple[Element, ...] = ()) -> str:
    """
    Write a robot as an SDFormat document holding one model.

    Parameters
    ----------
    robot : Robot
        The model; a valid tree (or forest) as the readers produce.
    version : str
        SDFormat version to write, one of
        :data:`~sdf_tools.formats.sdf.versions.WRITABLE_VERSIONS`.
    reporter : Reporter, optional
        Where the warnings about what is written otherwise so that libsdformat loads it go
        (module docstring). ``None``: such a model is a :class:`ConversionError` instead.
    massless_mass, massless_inertia : float
        The placeholder inertial of a link with a negative mass (kg, kg m^2).
    plugins : tuple of Element
        ``<plugin>`` elements written as the model's last children (the Gazebo systems a
        spawn adds, :mod:`sdf_tools.ros.bringup.gazebo`).

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
    repairs = Reporter(ConversionError)
    text = _SdfWriter(robot, version_tuple(version), repairs,
                      (massless_mass, massless_inertia)).write(version, plugins)
    if reporter is not None:
        reporter.warnings.extend(repairs.warnings)
    elif repairs.warnings:
        raise ConversionError([replace(w, severity=Severity.ERROR, message=(
            f'{w.message} (no reporter was given to take this warning)'))
            for w in repairs.warnings])
    return text


class _SdfWriter:
    """Writes the document for one robot, element by element (:class:`SdfText`)."""

    def __init__(self, robot: Robot, version: tuple[int, int], repairs: Reporter,
                 placeholder: tuple[float, float]) -> None:
        self.robot = robot
        self.version = version
        self.problems: list[Diagnostic] = []
        self.repairs = repairs
        self.placeholder = placeholder
        self.world_link: str | None = None
        self.out = SdfText()

    def fail(self, message: str, entity: str | None = None,
             location: 'SourceLocation | None' = None) -> None:
        self.problems.append(Diagnostic(message, location, entity, code=Code.NOT_EXPRESSIBLE))

    def pose_text(self, pose: Pose, entity: str, location: 'SourceLocation | None',
                  what: str = '<pose>') -> str:
        """Return a pose's text; one that is not finite (an overflow) is a problem."""
        if not all(map(math.isfinite, pose.xyz + pose.quat)):
            self.fail(f'{what} is not finite (composing the poses overflows)', entity,
                      location)
            return '0 0 0 0 0 0'
        return self.out.pose(pose.xyz, pose.quat)

    def pose_leaf(self, pose: Pose, entity: str, location: 'SourceLocation | None',
                  what: str = '<pose>') -> None:
        """Write ``<pose>`` unless ``pose`` is the identity."""
        if not pose.is_identity():
            self.out.leaf('pose', self.pose_text(pose, entity, location, what))

    def write(self, version_text: str, plugins: tuple[Element, ...] = ()) -> str:
        robot = self.robot
        name = robot.name
        if not name:
            self.fail('the robot has no name; an SDFormat model needs one')
        else:
            problem = sdf_names.name_problem(name, 'model name', self.version)
            if problem is not None:
                self.fail(problem, f"robot '{name}'", robot.location)
        self.world_link = world_link(robot, self.fail)
        poses = self._link_poses()
        scopes = group_by_scope(robot, self.world_link, self.version, self.fail)
        if not robot.static and len(scopes) <= 1 and not holds_links('', scopes):
            self.fail("the model would hold no link (URDF's world link is not one); "
                      'SDFormat needs one unless the model is static or holds nested models',
                      f"robot '{name}'", robot.location)
        out = self.out
        out.start('sdf', {'version': version_text})
        out.start('model', {'name': robot.name})
        if robot.origin is not None:
            self.pose_leaf(robot.origin, f"robot '{robot.name}'", robot.location)
        if robot.static:
            out.leaf('static', 'true')
        self._fill_scope('', scopes, poses)
        self._kept(robot.extras)
        for plugin in plugins:
            out.element(plugin)
        out.end()
        out.end()
        if self.problems:
            raise ConversionError(self.problems)
        return '<?xml version="1.0" ?>\n' + out.text()

    # --- structure --------------------------------------------------------------------

    def _link_poses(self) -> dict[str, Pose]:
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

    def _fill_scope(self, prefix: str, scopes: 'dict[str, Scope]', poses: dict[str, Pose]
                    ) -> None:
        out = self.out
        items = scopes.get(prefix, empty_scope())
        # A scope's lists hold what their keys say (Scope types them as one union).
        for link in cast('list[Link]', items['link']):
            self._link(link, prefix, poses[link.name])
        for joint in cast('list[Joint]', items['joint']):
            self._joint(joint, prefix)
        for frame in cast('list[Frame]', items['frame']):
            attached = {} if frame.attached_to == WORLD else \
                {'attached_to': frame.attached_to[len(prefix):]}  # else: the model frame
            out.start('frame', {'name': frame.name[len(prefix):], **attached})
            self.pose_leaf(frame.pose, f"frame '{frame.name}'", frame.location)
            out.end()
        children = dict.fromkeys(p[len(prefix):].split('::')[0] for p in scopes
                                 if p != prefix and p.startswith(prefix))
        for name in children:
            out.start('model', {'name': name})
            if not holds_links(f'{prefix}{name}::', scopes):
                out.leaf('static', 'true')  # SDFormat allows no other model without links
            self._fill_scope(f'{prefix}{name}::', scopes, poses)
            out.end()

    # --- links ------------------------------------------------------------------------

    def _link(self, link: 'Link', prefix: str, pose: Pose) -> None:
        out = self.out
        entity = f"link '{link.name}'"
        local = link.name[len(prefix):]
        out.start('link', {'name': local})
        self.pose_leaf(pose, entity, link.location, 'its pose in the model frame')
        inertial = link.inertial
        if inertial is not None and inertial.auto is not None and self.version >= (1, 11):
            self._kept((inertial.auto,))   # as given: Gazebo computes it alike
        elif inertial is not None:
            origin = None
            if not inertial.origin.is_identity():
                origin = self.pose_text(inertial.origin, entity, link.location)
            number = out.number
            mass, moments = self._loadable(link, inertial)
            out.block(inertial_block(origin is not None), *(() if origin is None else (origin,)),
                      number(mass), *map(number, moments))
        for tag, items in (('visual', link.visuals), ('collision', link.collisions)):
            self._parts(tag, items, local, entity)
        self._kept(link.extras)
        out.end()

    def _loadable(self, link: 'Link', inertial: 'Inertial'
                  ) -> tuple[float, tuple[float, ...]]:
        """Return the mass and moments to write: ones libsdformat loads (module docstring)."""
        mass = inertial.mass
        moments = tuple(getattr(inertial, key) for key in MOMENTS)
        if not all(map(math.isfinite, (mass, *moments))):
            return mass, moments  # reported by the model's check
        entity = f"link '{link.name}'"
        if mass < 0.0:
            body = (mass, inertial.origin.xyz, inertial.origin.quat, moments)
            mass, _, _, moments = inertials.placeholder(
                body, what=f'has mass {mass:g}, which is negative',
                then='so that libsdformat loads it (it refuses a negative mass: "invalid '
                'inertia")',
                location=link.location, entity=entity, reporter=self.repairs,
                mass=self.placeholder[0], moment=self.placeholder[1])
        elif not inertia.clearly_physical(moments):
            moments = inertials.valid_inertia(mass, moments, location=link.location,
                                              entity=entity, reporter=self.repairs,
                                              degenerate=False)
        return mass, moments

    def _parts(self, tag: str, items: 'tuple[Visual, ...] | tuple[Collision, ...]', local: str,
               entity: str) -> None:
        """Write the visuals (collisions) of a link, each under a name of its own."""
        names: set[str] = set()
        first: dict[str, Visual | Collision] = {}
        tried: dict[tuple[str, int], int] = {}  # (base, first suffix) -> the suffix to try next
        for item in items:
            name = item.name
            if name is None:
                name = _unique(f'{local}_{tag}', names, tried)
            elif name in names:
                earlier = first[name]
                new = _unique(name, names, tried, start=2)
                where = '' if earlier.location is None else \
                    f' (the first is at {earlier.location})'
                self.repairs.warn(f'<{tag}> {name!r} is not the first of that name in the link'
                                  f'{where}; libsdformat and Gazebo refuse two, so it is '
                                  f'written as {new!r}', item.location, entity, Code.RENAMED)
                name = new
            names.add(name)
            first.setdefault(name, item)
            self._part(tag, name, item, entity)

    def _part(self, tag: str, name: str, item: 'Visual | Collision', entity: str) -> None:
        """Write a visual or collision: pose, geometry, colour, extras."""
        out = self.out
        geometry = item.geometry
        if isinstance(geometry, Capsule) and self.version < (1, 8):
            self.fail('capsules need SDFormat 1.8 or later', entity, item.location)
        uri = escape_text(geometry.filename) if isinstance(geometry, Mesh) else ''
        shape = shape_texts(out, geometry, uri, default_scale=False)
        has_material = any(extra.tag == 'material' for extra in item.extras)
        material = item.material if isinstance(item, Visual) else None
        rgba = None if has_material or material is None else material.rgba
        colour = rgba is not None
        kind: type = geometry.__class__
        pose = None if item.origin.is_identity() else \
            self.pose_text(item.origin, entity, item.location)
        if shape and not item.extras:
            texts = (*shape, *((fmt_colour(rgba),) * 2 if rgba is not None else ()))
            out.block(part_block(tag, kind, pose=pose is not None, colour=colour,
                                 leaves=shape_leaves(geometry, shape)),
                      escape_attribute(name), *(() if pose is None else (pose,)), *texts)
            return
        out.start(tag, {'name': name})
        if pose is not None:
            out.leaf('pose', pose)
        if shape:
            out.block(geometry_block(kind, shape_leaves(geometry, shape)), *shape)
        elif isinstance(geometry, OtherGeometry):
            out.start('geometry')
            self._kept(geometry.elements)
            out.end()
        if rgba is not None:
            text = fmt_colour(rgba)
            out.group('material', [(c, text) for c in COLOURS])
        self._kept(item.extras)
        out.end()

    def _kept(self, elements: 'Iterable[Element]') -> None:
        """Write kept content (:class:`~sdf_tools.xmlio.element.Element` values), trimmed."""
        for element in elements:
            self.out.element(stripped(element))

    # --- joints -----------------------------------------------------------------------

    def _joint(self, joint: 'Joint', prefix: str) -> None:
        out = self.out
        entity = f"joint '{joint.name}'"
        type_name = _TYPE_NAMES.get(joint.kind)
        if type_name is None:
            self.fail(f'SDFormat has no {joint.kind.value} joint', entity, joint.location)
            return
        out.start('joint', {'name': joint.name[len(prefix):], 'type': type_name})
        self.pose_leaf(joint.joint_in_child, entity, joint.location)
        parent = joint.parent
        out.leaf('parent', WORLD if parent in (WORLD, self.world_link)
                 else parent[len(prefix):])
        out.leaf('child', joint.child[len(prefix):])
        kind = joint.kind
        if kind is JointType.GEARBOX:
            out.leaf('gearbox_ratio', out.number(joint.gearbox_ratio
                                                 if joint.gearbox_ratio is not None else 1.0))
            if joint.gearbox_reference_body is not None:
                out.leaf('gearbox_reference_body', _local(joint.gearbox_reference_body, prefix))
        if kind is JointType.SCREW:
            self._screw(joint, entity)
        if kind.axes:
            limit = joint.limit
            limits: '_Limits | None' = None
            if kind is JointType.CONTINUOUS:
                defaults = joint_defaults(self.version)  # the version's "unlimited"
                limits = (float(defaults['axis/limit/lower']),
                          float(defaults['axis/limit/upper']),
                          None if limit is None else limit.effort,
                          None if limit is None else limit.velocity)
            elif limit is not None:
                limits = (limit.lower, limit.upper, limit.effort, limit.velocity)
            self._axis('axis', joint.axis, limits, joint.dynamics, joint.mimic, prefix)
        if kind.axes == 2 and joint.axis2 is not None:
            limit2 = joint.limit2
            limits2: '_Limits | None' = None
            if limit2 is not None:
                limits2 = (limit2.lower, limit2.upper, limit2.effort, limit2.velocity)
            self._axis('axis2', joint.axis2, limits2, joint.dynamics2, None, prefix)
        self._kept(joint.extras)
        out.end()

    def _screw(self, joint: 'Joint', entity: str) -> None:
        """Write a screw joint's pitch as the version has it."""
        out = self.out
        pitch = joint.screw_thread_pitch if joint.screw_thread_pitch is not None else 1.0
        if self.version >= (1, 10):
            out.leaf('screw_thread_pitch', out.number(pitch))
        elif pitch == 0.0 or not math.isfinite(-2.0 * math.pi / pitch):
            self.fail(f'a screw pitch of {pitch:g} cannot be written as <thread_pitch> '
                      '(before SDFormat 1.10)', entity, joint.location)
        else:
            out.leaf('thread_pitch', out.number(-2.0 * math.pi / pitch))

    def _axis(self, tag: str, xyz: 'Vec3', limit: '_Limits | None', dynamics: 'Dynamics | None',
              mimic: 'Mimic | None', prefix: str) -> None:
        """Write ``<axis>`` or ``<axis2>`` in :func:`~.emit.axis_text`'s layout."""
        out = self.out
        number = out.number
        texts = [out.vector(xyz)]
        mimic_leaves = None
        if mimic is not None and self.version >= version_tuple(MIMIC_VERSION):
            mimic_leaves = tuple(zip(MIMIC, (number(mimic.multiplier), number(mimic.offset),
                                             '0')))
            texts.append(escape_attribute(_local(mimic.joint, prefix)))
        limit_leaves = None
        if limit is not None:
            limit_leaves = tuple((key, number(value)) for key, value in zip(LIMIT, limit)
                                 if value is not None)
        dynamics_leaves = None
        if dynamics is not None:
            dynamics_leaves = tuple(zip(DYNAMICS, map(number, (
                dynamics.damping, dynamics.friction, dynamics.spring_reference,
                dynamics.spring_stiffness))))
        key = (tag, _slots(mimic_leaves), _slots(limit_leaves), _slots(dynamics_leaves))
        for leaves in (mimic_leaves, limit_leaves, dynamics_leaves):
            texts.extend(text for _, text in leaves or ())
        out.block(_axis_block(*key), *texts)


@functools.cache
def _axis_block(tag: str, mimic: 'Tags | None', limit: 'Tags | None', dynamics: 'Tags | None'
                ) -> Block:
    """Return the block of an axis with these leaves (each a tuple of tags, or ``None``)."""
    def slots(tags: 'Tags | None') -> 'Slotted | None':
        return None if tags is None else tuple((t, None) for t in tags)
    return Block(axis_text(tag, mimic=slots(mimic), limit=slots(limit),
                           dynamics=slots(dynamics)))


def _slots(leaves: 'tuple[tuple[str, str], ...] | None') -> 'Tags | None':
    return None if leaves is None else tuple(tag for tag, _ in leaves)


def _local(name: str, prefix: str) -> str:
    """Return a scoped name relative to ``prefix`` (unchanged when outside it)."""
    return name[len(prefix):] if name.startswith(prefix) else name


def _unique(name: str, taken: set[str], tried: dict[tuple[str, int], int], start: int = 0) -> str:
    """
    Return the first of ``name_<start>``, ``name_<start + 1>``, ... not in ``taken``; add it.

    Suffix 0 is ``name`` itself. ``tried`` holds, per ``(name, start)``, the suffix after the
    last one returned: ``taken`` only grows, so those below it are still taken, and naming
    n parts of one base probes each name once (linear, not quadratic, in n).
    """
    number = tried.get((name, start), start)
    candidate = name if number == 0 else f'{name}_{number}'
    while candidate in taken:
        number += 1
        candidate = f'{name}_{number}'
    tried[(name, start)] = number + 1
    taken.add(candidate)
    return candidate
