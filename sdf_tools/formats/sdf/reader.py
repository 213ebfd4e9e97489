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
SDFormat reader: XML text to :class:`~sdf_tools.model.Robot`.

Reads one model of an SDFormat 1.4 to 1.11 document and resolves its poses the way
libsdformat does, into the URDF-style joint frames of :mod:`sdf_tools.model`:

* every ``<pose>`` is resolved through the model's pose graph (``relative_to``) to the model
  frame; ``Joint.origin`` is then the joint frame in the parent link frame (``X_PJ``) and
  ``Joint.joint_in_child`` the joint frame in the child link frame (``X_CJ``); links no joint
  attaches get ``Link.pose`` in the model frame. A joint whose parent is ``world`` keeps that
  name, and its ``origin`` is the joint frame in the model frame: all poses are in the model
  frame, whose own ``<pose>`` becomes ``Robot.origin``;
* ``<axis>``/``<axis2>`` ``<xyz>`` is converted into the joint frame and normalised, as
  libsdformat normalises it;
* ``<frame>`` elements become :class:`~sdf_tools.model.Frame` s on the link their
  ``attached_to`` chain ends at (a joint leads to its child, a model to its canonical link);
* nested models are flattened: their links, joints and frames get scoped names
  (``outer::inner::link``) and their poses are composed.

Version rules (as libsdformat 12 applies them after converting old files):

* 1.4: axis ``<xyz>`` is expressed in the frame of the model that holds the joint.
* 1.5, 1.6: it is expressed in the joint frame, or in the model frame when
  ``<use_parent_model_frame>`` is true (``expressed_in`` is honoured otherwise).
* before 1.7, ``<pose frame='F'>`` means ``relative_to='F'``, and a link, joint or frame
  whose name is already taken by a nested model, link or joint of the same model is renamed
  with a ``_link``, ``_joint`` or ``_frame`` suffix (a warning); 1.7 and later make such
  clashes errors and ignore ``use_parent_model_frame`` and ``<pose frame>`` (warnings).
* 1.7+: ``relative_to``, ``attached_to``, ``__model__``, ``expressed_in``, ``canonical_link``.
* 1.8+: references into nested scopes (``inner::link``), ``placement_frame``; ``::`` in names
  is an error.
* ``rotation_format='quat_xyzw'`` and ``degrees='true'`` (1.9) are accepted in every version,
  as libsdformat 12 does; quaternions are normalised (libsdformat 12 does not).
* screw joints: ``<screw_thread_pitch>`` (1.10, m/rev, right-handed) is kept as is; the older
  ``<thread_pitch>`` p (rad/m, left-handed) becomes ``-2 pi / p``. When neither is given, the
  default of the file's version applies (``thread_pitch`` 1 before 1.10).
* 1.11 ``<mimic>`` in an axis becomes :class:`~sdf_tools.model.Mimic`
  (``offset - multiplier * reference``).

Not modelled but kept: children sdf_tools does not model (sensors, plugins, surface, ...) are
serialised into the ``extras`` of their link, visual, collision, joint or (top-level) model,
so that an SDF to SDF round trip keeps them; a visual's ``<material>`` is kept there whole
and also read, best effort, into :class:`~sdf_tools.model.Material` (diffuse colour).
Axis details (``<initial_position>``, limit ``stiffness``/``dissipation``), mesh
``<submesh>`` and the children of nested models other than links, joints, frames and models
are dropped with a warning.

Unsupported, as errors: ``<include>`` (sdf_tools reads self-contained files only; it has no
Gazebo resource paths and never fetches), files without ``<sdf version>`` or of a version
outside 1.4 to 1.11 (1.12 and later are read with the 1.11 rules and a warning).
Every problem is reported with its line, then one
:class:`~sdf_tools.errors.DescriptionError` holds all of them.
"""

from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
import math
import re

from lxml import etree

from sdf_tools import transforms
from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.files.xml_source import DCOLON
from sdf_tools.files.xml_source import DEFAULT_MAX_BYTES
from sdf_tools.files.xml_source import local_name
from sdf_tools.files.xml_source import parse_xml
from sdf_tools.files.xml_source import ValueReader
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.values import pose_value
from sdf_tools.formats.sdf.values import read_bool
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Dynamics
from sdf_tools.model import Frame
from sdf_tools.model import IDENTITY
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Material
from sdf_tools.model import Mesh
from sdf_tools.model import Mimic
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.topology import WORLD
from sdf_tools.validate import check_robot

#: SDFormat versions read with their own rules.

#: Name of the implicit model frame.
MODEL_FRAME = '__model__'

_JOINT_TYPES = {
    'revolute': JointType.REVOLUTE,
    'continuous': JointType.CONTINUOUS,
    'prismatic': JointType.PRISMATIC,
    'fixed': JointType.FIXED,
    'ball': JointType.BALL,
    'universal': JointType.UNIVERSAL,
    'revolute2': JointType.REVOLUTE2,
    'screw': JointType.SCREW,
    'gearbox': JointType.GEARBOX,
}
_VERSION = re.compile(r'\s*(\d+)\.(\d+)(?:\.\d+)?\s*')
_ZERO3 = (0.0, 0.0, 0.0)
# Poses of frames at most this many pose-graph edges apart are composed along the path
# between them (exact for the usual pose relative to a nearby frame); farther ones through
# the memoised model-frame poses, so that long relative_to chains resolve in linear time.
_SHORT_PATH = 32
_Z_AXIS = (0.0, 0.0, 1.0)
# Priority of names in a model scope when old files reuse one (libsdformat 12 order).
_KIND_ORDER = ('model', 'link', 'joint', 'frame')


def parse_sdf(text, source: str = '<string>', *, model: str | None = None,
              max_bytes: int = DEFAULT_MAX_BYTES) -> Robot:
    """
    Read one model of an SDFormat document.

    Parameters
    ----------
    text : str or bytes
        The SDFormat XML (``<sdf version=...>`` holding a ``<model>`` or ``<world>`` s).
    source : str
        Name for messages (file name or label).
    model : str or None
        Name of the model to read. ``None`` needs the document to hold exactly one.
    max_bytes : int
        Size limit passed to :func:`~sdf_tools.files.xml_source.parse_xml`.

    Returns
    -------
    Robot
        With ``source_format='sdf'``; poses in the model frame (module docstring);
        non-fatal problems are in ``Robot.warnings``.

    Raises
    ------
    XmlSyntaxError
        The text is not acceptable XML.
    DescriptionError
        It is not a valid SDFormat model; holds every problem found.

    """
    root = parse_xml(text, source, max_bytes=max_bytes)
    return read_sdf_element(root, source, model=model)


def read_sdf_element(root, source: str = '<string>', *, model: str | None = None) -> Robot:
    """Read a model from an already parsed ``<sdf>`` element (see :func:`parse_sdf`)."""
    reporter = Reporter()
    robot = _SdfReader(ValueReader(source, reporter)).read(root, model)
    reporter.raise_if_errors()
    check_robot(robot, reporter, single_root=False, implicit_world=True, allow_loops=True)
    reporter.raise_if_errors()
    if reporter.warnings:
        robot = replace(robot, warnings=robot.warnings + tuple(reporter.warnings))
    return robot


def _element_text(element) -> str:
    """Serialise an element alone (no tail), restoring ``::`` in element names."""
    text = etree.tostring(element, encoding='unicode', with_tail=False)
    return text.replace(DCOLON, '::') if DCOLON in text else text


# --- reading state ---------------------------------------------------------------------------

@dataclass(slots=True, eq=False)
class _Scope:
    """A model scope: the top-level model or a nested one."""

    key: str                   # its frame: MODEL_FRAME for the top model, else scoped name
    prefix: str                # '' or 'outer::inner::'
    name: str                  # the model's name, for messages
    elem: object
    depth: int
    links: list = field(default_factory=list)     # link keys, document order
    models: list = field(default_factory=list)    # nested model keys, document order
    canonical: str | None = None                  # resolved canonical link key


@dataclass(slots=True, eq=False)
class _Vertex:
    """A frame of the model: link, joint, frame or nested model."""

    key: str
    kind: str
    name: str
    elem: object
    scope: _Scope
    pose: Pose = IDENTITY
    rel_text: str | None = None    # //pose/@relative_to as written
    pose_elem: object = None
    attach_text: str | None = None  # //frame/@attached_to
    inner: _Scope | None = None     # for nested models: the scope they open
    data: object = None             # _LinkSpec or _JointSpec

    @property
    def entity(self) -> str:
        return f"{self.kind} '{self.key}'"


@dataclass(slots=True, eq=False)
class _Placed:
    """A pose written inside a link (inertial, visual, collision), not yet resolved."""

    pose: Pose
    rel_text: str | None
    elem: object


@dataclass(slots=True, eq=False)
class _LinkSpec:
    inertial: tuple | None = None    # (Inertial without origin, _Placed)
    visuals: list = field(default_factory=list)      # (Visual, _Placed)
    collisions: list = field(default_factory=list)   # (Collision, _Placed)
    extras: tuple = ()


@dataclass(slots=True, eq=False)
class _AxisSpec:
    xyz: tuple
    expressed_in: str | None
    use_parent_model_frame: bool
    elem: object
    limit: Limit | None = None
    dynamics: Dynamics | None = None
    mimic: Mimic | None = None


@dataclass(slots=True, eq=False)
class _JointSpec:
    kind: JointType
    parent: str | None = None
    child: str | None = None
    parent_elem: object = None
    child_elem: object = None
    axis: _AxisSpec | None = None
    axis2: _AxisSpec | None = None
    pitch: float | None = None
    gearbox_ratio: float | None = None
    gearbox_reference: str | None = None
    gearbox_elem: object = None
    extras: tuple = ()


class _SdfReader:
    """Walks one ``<sdf>`` document; one instance per document."""

    def __init__(self, values: ValueReader):
        self.v = values
        self.version = version_tuple(READABLE_VERSIONS[-1])
        self.vertices: dict[str, _Vertex] = {}
        self.order: list[_Vertex] = []      # document order, flattened
        self.scopes: list[_Scope] = []
        self.parent: dict[str, str] = {}    # pose graph: key -> relative_to key
        self.edge: dict[str, Pose] = {}     # pose graph: X_parent_key
        self.depth: dict[str, int | None] = {}   # depth in the pose graph (None: unresolved)
        self.model_pose: dict[str, Pose] = {}
        self.body_of: dict[str, str | None] = {}
        self.attach: dict[str, str | None] = {}
        self.joint_links: dict[str, tuple] = {}   # joint key -> (parent key|'world', child key)

    # --- document ---------------------------------------------------------------------

    def read(self, root, wanted) -> Robot:
        v = self.v
        if local_name(root) != 'sdf':
            hint = ' (this looks like URDF)' if root.tag == 'robot' else ''
            v.error(root, None, f'the root element is <{local_name(root)}>, an SDFormat file '
                    f'needs <sdf>{hint}', Code.NOT_SDF)
            return Robot(name='', source=v.source, source_format='sdf')
        if not self._read_version(root):
            return Robot(name='', source=v.source, source_format='sdf')
        elem = self._select_model(root, wanted)
        if elem is None:
            return Robot(name='', source=v.source, source_format='sdf')
        return self._read_model(elem)

    def _read_version(self, root) -> bool:
        v = self.v
        text = root.get('version')
        if text is None:
            v.missing_attr(root, None, 'version')
            return False
        m = _VERSION.fullmatch(text)
        if m is None:
            v.error(root, None, f'<sdf> version must look like 1.9, got {text!r}',
                    Code.BAD_VERSION)
            return False
        version = (int(m.group(1)), int(m.group(2)))
        if version < (1, 4) or version[0] != 1:
            v.error(root, None, f'SDFormat version {text.strip()} is not supported (sdf_tools '
                    f'reads {READABLE_VERSIONS[0]} to {READABLE_VERSIONS[-1]})', Code.BAD_VERSION)
            return False
        if version > version_tuple(READABLE_VERSIONS[-1]):
            v.warn(root, None, f'SDFormat version {text.strip()} is newer than '
                   f'{READABLE_VERSIONS[-1]}; it is read with the {READABLE_VERSIONS[-1]} rules',
                   Code.NEW_VERSION)
            version = version_tuple(READABLE_VERSIONS[-1])
        self.version = version
        return True

    def _select_model(self, root, wanted):
        v = self.v
        candidates = []     # (name, element)
        for child in root:
            tag = child.tag
            if tag == 'model':
                candidates.append((child.get('name', ''), child))
            elif tag == 'world':
                for item in child:
                    if item.tag == 'model':
                        candidates.append((item.get('name', ''), item))
                    elif item.tag == 'include':
                        candidates.append((_include_name(item), item))
            elif tag == 'include':
                candidates.append((_include_name(child), child))
        names = ', '.join(repr(name) for name, _ in candidates)
        if wanted is None:
            if not candidates:
                v.error(root, None, 'the document holds no <model>', Code.NO_MODEL)
                return None
            if len(candidates) > 1:
                v.error(root, None, f'the document holds {len(candidates)} models ({names}); '
                        'choose one by name', Code.AMBIGUOUS_MODEL)
                return None
            chosen = candidates[0][1]
        else:
            matches = [elem for name, elem in candidates if name == wanted]
            if not matches:
                shown = f'it holds {names}' if candidates else 'it holds none'
                v.error(root, None, f'the document has no model named {wanted!r}; {shown}',
                        Code.NO_MODEL)
                return None
            if len(matches) > 1:
                v.error(matches[1], None, f'the document holds {len(matches)} models named '
                        f'{wanted!r}', Code.AMBIGUOUS_MODEL)
                return None
            chosen = matches[0]
        if chosen.tag == 'include':
            self._include_error(chosen, None)
            return None
        return chosen

    def _include_error(self, elem, entity) -> None:
        uri = (elem.findtext('uri') or '').strip()
        self.v.error(elem, entity, f'<include> of {uri!r} cannot be resolved: sdf_tools reads '
                     'self-contained SDFormat only (model://, Fuel, http and file includes '
                     "need Gazebo's resource paths); expand it first, e.g. with "
                     '`gz sdf -p`', Code.INCLUDE)

    # --- the model --------------------------------------------------------------------

    def _read_model(self, elem) -> Robot:
        v = self.v
        name = self._name(elem, 'model') or ''
        top = _Scope(MODEL_FRAME, '', name, elem, 0)
        entity = f"model '{name}'"
        self.scopes.append(top)
        static = False
        extras = []
        pose_elem = None
        for child in elem:
            tag = child.tag
            if tag == 'pose':
                if pose_elem is not None:
                    v.error(child, entity, 'has more than one <pose>', Code.REPEATED_ELEMENT)
                    continue
                pose_elem = child
            elif tag == 'static':
                static = self._bool(child, entity, '<static>', child.text, False)
            elif tag not in ('link', 'joint', 'frame', 'model', 'include'):
                extras.append(_element_text(child))
        self._register_scope(top)
        if not static and not any(x.kind == 'link' for x in self.order):
            v.error(elem, entity, 'has no <link> (only static models may have none)',
                    Code.NO_LINKS)
        self._resolve_graphs()
        pose = None
        if pose_elem is not None:
            pose, rel = self._pose(pose_elem, entity)
            if rel:
                v.warn(pose_elem, entity, f'the model <pose> is relative to {rel!r}, a frame '
                       'outside the model; sdf_tools keeps it as written', Code.RELATIVE_TO)
        placement = elem.get('placement_frame')
        if placement:  # the model's pose (identity when absent) is that frame's pose
            key = self._ref(top, placement, elem, entity, 'placement_frame')
            x_mf = self._relative(key, MODEL_FRAME) if key is not None else None
            if x_mf is not None:
                pose = (pose or IDENTITY).compose(x_mf.inverse())
        origin = pose
        links = self._links()
        joints = self._joints()
        frames = self._frames()
        return Robot(name=name, links=tuple(links), joints=tuple(joints), frames=tuple(frames),
                     origin=origin, source=v.source, source_format='sdf', static=static,
                     location=v.loc(elem), extras=tuple(extras))

    def _name(self, elem, kind):
        v = self.v
        name = v.required_attr(elem, f'<{kind}>', 'name')
        if name is None:
            return None
        name = name.strip()  # as libsdformat reads every attribute (and relative_to etc. here)
        entity = f"{kind} '{name}'"
        problem = sdf_names.name_problem(name, version=self.version)
        if problem is not None:
            v.error(elem, entity, problem,
                    Code.RESERVED_NAME if sdf_names.is_reserved(name) else Code.BAD_NAME)
            return None
        return name

    def _register_scope(self, scope: _Scope) -> None:
        """Create the vertices of a model scope (and of its nested models), in document order."""
        v = self.v
        elems = {kind: [] for kind in _KIND_ORDER}
        for child in scope.elem:
            if child.tag in elems:
                elems[child.tag].append(child)
            elif child.tag == 'include':
                self._include_error(child, f"model '{scope.key}'" if scope.depth else
                                    f"model '{scope.name}'")
        # Names are claimed in libsdformat's order, so that old files rename the same way.
        taken: dict[str, str] = {}
        vertex_of = {}
        for kind in _KIND_ORDER:
            for elem in elems[kind]:
                name = self._name(elem, kind)
                if name is None:
                    continue
                if name in taken:
                    other = taken[name]
                    entity = f"{kind} '{scope.prefix}{name}'"
                    if other == kind:
                        v.error(elem, entity, f'{kind} name {name!r} is used more than once in '
                                f'model {scope.name!r}', Code.DUPLICATE_NAME)
                        continue
                    if self.version >= (1, 7):
                        v.error(elem, entity, f'has the same name as a {other} of model '
                                f'{scope.name!r}; links, joints, frames and nested models '
                                'need distinct names', Code.DUPLICATE_NAME)
                        continue
                    new = f'{name}_{kind}'
                    i = 0
                    while new in taken:
                        new = f'{name}_{kind}{i}'
                        i += 1
                    v.warn(elem, entity, f'has the same name as a {other} of model '
                           f'{scope.name!r}; renamed to {new!r}, as libsdformat does for '
                           'SDFormat 1.6 and older', Code.RENAMED)
                    name = new
                taken[name] = kind
                vertex_of[elem] = _Vertex(scope.prefix + name, kind, name, elem, scope)
        for child in scope.elem:
            vertex = vertex_of.get(child)
            if vertex is None:
                continue
            self.vertices[vertex.key] = vertex
            self.order.append(vertex)
            self._read_vertex(vertex)

    def _read_vertex(self, vertex: _Vertex) -> None:
        elem = vertex.elem
        entity = vertex.entity
        poses = [c for c in elem if c.tag == 'pose']
        if len(poses) > 1:
            self.v.error(poses[1], entity, 'has more than one <pose>', Code.REPEATED_ELEMENT)
        if poses:
            vertex.pose, vertex.rel_text = self._pose(poses[0], entity)
            vertex.pose_elem = poses[0]
        kind = vertex.kind
        if kind == 'link':
            vertex.scope.links.append(vertex.key)
            vertex.data = self._link_spec(elem, entity)
        elif kind == 'joint':
            vertex.data = self._joint_spec(elem, entity)
        elif kind == 'frame':
            attached = elem.get('attached_to')
            vertex.attach_text = attached.strip() if attached and attached.strip() else None
        else:
            scope = vertex.scope
            inner = _Scope(vertex.key, vertex.key + '::', vertex.key, elem, scope.depth + 1)
            vertex.inner = inner
            scope.models.append(vertex.key)
            self.scopes.append(inner)
            for child in elem:
                if child.tag not in ('pose', 'link', 'joint', 'frame', 'model', 'include'):
                    self.v.warn(child, entity, f'<{local_name(child)}> of a nested model is '
                                'not kept (nested models are flattened)', Code.DROPPED)
            self._register_scope(inner)
            static = elem.find('static')
            if not inner.links and not inner.models and not (
                    static is not None and self._bool(static, entity, '<static>', static.text,
                                                      False)):
                self.v.error(elem, entity, 'has no <link> (only static models may have none)',
                             Code.NO_LINKS)

    # --- values -----------------------------------------------------------------------

    def _bool(self, elem, entity, what, text, default):
        return read_bool(self.v, elem, entity, what, text, default)

    def _pose(self, elem, entity):
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

    def _number(self, elem, entity, tag, default, **checks):
        child = elem.find(tag)
        if child is None:
            return default
        return self.v.number(child, entity, f'<{tag}>', child.text, default, **checks)

    def _vector(self, elem, entity, tag, n, default):
        child = elem.find(tag)
        if child is None:
            return default
        return self.v.vector(child, entity, f'<{tag}>', child.text, n, default)

    def _placed(self, elem, entity) -> _Placed:
        poses = [c for c in elem if c.tag == 'pose']
        if len(poses) > 1:
            self.v.error(poses[1], entity, f'<{elem.tag}> has more than one <pose>',
                         Code.REPEATED_ELEMENT)
        if not poses:
            return _Placed(IDENTITY, None, None)
        pose, rel = self._pose(poses[0], entity)
        return _Placed(pose, rel, poses[0])

    # --- links ------------------------------------------------------------------------

    def _link_spec(self, elem, entity) -> _LinkSpec:
        spec = _LinkSpec()
        extras = []
        for child in elem:
            tag = child.tag
            if tag == 'inertial':
                if spec.inertial is not None:
                    self.v.error(child, entity, 'has more than one <inertial>',
                                 Code.REPEATED_ELEMENT)
                    continue
                spec.inertial = self._inertial(child, entity)
            elif tag == 'visual':
                spec.visuals.append(self._visual(child, entity))
            elif tag == 'collision':
                spec.collisions.append(self._collision(child, entity))
            elif tag != 'pose':
                extras.append(_element_text(child))
        spec.extras = tuple(extras)
        return spec

    def _inertial(self, elem, entity):
        mass = self._number(elem, entity, 'mass', 1.0)
        moments = (1.0, 0.0, 0.0, 1.0, 0.0, 1.0)   # the SDFormat defaults
        inertia = elem.find('inertia')
        if inertia is not None:
            moments = tuple(self._number(inertia, entity, k, d) for k, d in zip(
                ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), moments))
        for child in elem:
            if child.tag not in ('mass', 'inertia', 'pose'):
                self.v.warn(child, entity, f'<inertial><{local_name(child)}> is not kept',
                            Code.DROPPED)
        return Inertial(mass, *moments), self._placed(elem, entity)

    def _visual(self, elem, entity):
        geometry = self._geometry_of(elem, entity)
        material = None
        extras = []
        for child in elem:
            tag = child.tag
            if tag == 'material':
                material = self._material(child, entity)
                extras.append(_element_text(child))
            elif tag not in ('pose', 'geometry'):
                extras.append(_element_text(child))
        visual = Visual(geometry=geometry, name=elem.get('name'), material=material,
                        location=self.v.loc(elem), extras=tuple(extras))
        return visual, self._placed(elem, entity)

    def _collision(self, elem, entity):
        geometry = self._geometry_of(elem, entity)
        extras = tuple(_element_text(c) for c in elem if c.tag not in ('pose', 'geometry'))
        collision = Collision(geometry=geometry, name=elem.get('name'),
                              location=self.v.loc(elem), extras=extras)
        return collision, self._placed(elem, entity)

    def _geometry_of(self, elem, entity):
        found = elem.findall('geometry')
        if not found:
            self.v.error(elem, entity, f'<{elem.tag}> is missing <geometry>', Code.MISSING_ELEMENT)
            return None
        if len(found) > 1:
            self.v.error(found[1], entity, f'<{elem.tag}> has more than one <geometry>',
                         Code.REPEATED_ELEMENT)
        return self._geometry(found[0], entity)

    def _geometry(self, elem, entity):
        v = self.v
        shapes = [c for c in elem if isinstance(c.tag, str)]
        if len(shapes) != 1:
            v.error(elem, entity, f'<geometry> must hold exactly one shape, found {len(shapes)}',
                    Code.BAD_GEOMETRY)
            if not shapes:
                return None
        shape = shapes[0]
        tag = shape.tag
        if tag == 'box':
            return Box(self._vector(shape, entity, 'size', 3, (1.0, 1.0, 1.0)))
        if tag == 'cylinder':
            return Cylinder(self._number(shape, entity, 'radius', 1.0),
                            self._number(shape, entity, 'length', 1.0))
        if tag == 'sphere':
            return Sphere(self._number(shape, entity, 'radius', 1.0))
        if tag == 'capsule':
            return Capsule(self._number(shape, entity, 'radius', 0.5),
                           self._number(shape, entity, 'length', 1.0))
        if tag == 'mesh':
            uri = shape.find('uri')
            if uri is None or not (uri.text or '').strip():
                v.error(shape, entity, '<mesh> is missing <uri>', Code.MISSING_ELEMENT)
                return None
            for child in shape:
                if child.tag not in ('uri', 'scale'):
                    v.warn(child, entity, f'<mesh><{local_name(child)}> is not kept',
                           Code.DROPPED)
            return Mesh(uri.text.strip(), self._vector(shape, entity, 'scale', 3, None))
        return OtherGeometry(local_name(shape), _element_text(shape))

    def _material(self, elem, entity):
        rgba = None
        for tag in ('diffuse', 'ambient'):
            child = elem.find(tag)
            if child is not None and child.text and child.text.strip():
                n = len(child.text.split(None, 4))  # 3 or 4; never split it all
                rgba = self.v.vector(child, entity, f'<{tag}>', child.text, 4 if n != 3 else 3)
                if rgba is not None and len(rgba) == 3:
                    rgba = rgba + (1.0,)
                break
        name = elem.findtext('script/name')
        name = name.strip() if name and name.strip() else None
        if rgba is None and name is None:
            return None
        return Material(name, rgba)

    # --- joints -----------------------------------------------------------------------

    def _joint_spec(self, elem, entity):
        v = self.v
        type_text = elem.get('type')
        if type_text is None:
            v.missing_attr(elem, entity, 'type')
            return None
        kind = _JOINT_TYPES.get(type_text.strip().lower())
        if kind is None:
            v.error(elem, entity, f'unknown joint type {type_text!r} (SDFormat has '
                    + ', '.join(_JOINT_TYPES) + ')', Code.BAD_JOINT_TYPE)
            return None
        spec = _JointSpec(kind)
        extras = []
        thread_pitch = screw_pitch = None
        for child in elem:
            tag = child.tag
            if tag in ('parent', 'child'):
                text = (child.text or '').strip()
                if not text:
                    v.error(child, entity, f'<{tag}> is empty', Code.MISSING_ELEMENT)
                    text = None
                setattr(spec, tag, text)
                setattr(spec, f'{tag}_elem', child)
            elif tag == 'axis':
                spec.axis = self._axis(child, entity)
            elif tag == 'axis2':
                spec.axis2 = self._axis(child, entity)
            elif tag == 'thread_pitch':
                thread_pitch = v.number(child, entity, '<thread_pitch>', child.text)
                if thread_pitch == 0.0:
                    v.error(child, entity, '<thread_pitch> must not be zero', Code.BAD_NUMBER)
                    thread_pitch = None
                elif thread_pitch is not None and not math.isfinite(2.0 * math.pi /
                                                                    thread_pitch):
                    v.error(child, entity, f'<thread_pitch> {thread_pitch:g} is too small: '
                            'the pitch in metres, -2 pi / thread_pitch, overflows',
                            Code.BAD_NUMBER)
                    thread_pitch = None
            elif tag == 'screw_thread_pitch':
                screw_pitch = v.number(child, entity, '<screw_thread_pitch>', child.text)
            elif tag == 'gearbox_ratio':
                spec.gearbox_ratio = v.number(child, entity, '<gearbox_ratio>', child.text)
            elif tag == 'gearbox_reference_body':
                text = (child.text or '').strip()
                spec.gearbox_reference = text or None
                spec.gearbox_elem = child
            elif tag != 'pose':
                extras.append(_element_text(child))
        spec.extras = tuple(extras)
        for tag in ('parent', 'child'):
            if getattr(spec, f'{tag}_elem') is None:
                v.error(elem, entity, f'<joint> is missing <{tag}>', Code.MISSING_ELEMENT)
        if spec.child == WORLD:
            v.error(spec.child_elem, entity, "<child> must not be 'world'", Code.BAD_CHILD)
            spec.child = None
        if kind is JointType.SCREW:
            if screw_pitch is not None:
                spec.pitch = screw_pitch
            elif thread_pitch is not None:
                spec.pitch = -2.0 * math.pi / thread_pitch
            else:
                spec.pitch = 1.0 if self.version >= (1, 10) else -2.0 * math.pi
        if kind is JointType.GEARBOX and spec.gearbox_ratio is None:
            spec.gearbox_ratio = 1.0
        if kind.axes:
            if spec.axis is None:
                v.warn(elem, entity, f'a {kind.value} joint without <axis> moves about 0 0 1 '
                       '(the SDFormat default)', Code.MISSING_AXIS)
        if kind.axes == 2 and spec.axis2 is None:
            v.warn(elem, entity, f'a {kind.value} joint without <axis2> uses 0 0 1 for its '
                   'second axis (the SDFormat default)', Code.MISSING_AXIS)
        if spec.axis2 is not None and kind.axes != 2:
            v.warn(spec.axis2.elem, entity, f'<axis2> is ignored for a {kind.value} joint',
                   Code.NO_EFFECT)
            spec.axis2 = None
        if spec.axis is not None and not kind.axes:
            spec.axis = None      # fixed and ball joints have no axis to keep
        return spec

    def _axis(self, elem, entity) -> _AxisSpec:
        v = self.v
        what = f'<{elem.tag}>'
        xyz = _Z_AXIS
        expressed_in = None
        upmf = False
        spec = _AxisSpec(xyz, None, False, elem)
        for child in elem:
            tag = child.tag
            if tag == 'xyz':
                xyz = v.vector(child, entity, f'{what} <xyz>', child.text or '0 0 1', 3, xyz)
                if math.hypot(*xyz) == 0.0:
                    v.error(child, entity, f'{what} <xyz> must not be the zero vector',
                            Code.ZERO_AXIS)
                    xyz = _Z_AXIS
                text = child.get('expressed_in')
                expressed_in = text.strip() if text and text.strip() else None
            elif tag == 'use_parent_model_frame':
                upmf = self._bool(child, entity, f'{what} <use_parent_model_frame>',
                                  child.text, False)
                if self.version >= (1, 7):
                    v.warn(child, entity, '<use_parent_model_frame> is ignored in SDFormat '
                           "1.7 and later (use <xyz expressed_in='__model__'>)", Code.NO_EFFECT)
                    upmf = False
            elif tag == 'dynamics':
                spec.dynamics = Dynamics(
                    self._number(child, entity, 'damping', 0.0),
                    self._number(child, entity, 'friction', 0.0),
                    self._number(child, entity, 'spring_reference', 0.0),
                    self._number(child, entity, 'spring_stiffness', 0.0))
            elif tag == 'limit':
                spec.limit = Limit(
                    self._number(child, entity, 'lower', -1e16),
                    self._number(child, entity, 'upper', 1e16),
                    self._number(child, entity, 'effort', -1.0),
                    self._number(child, entity, 'velocity', -1.0))
                for item in child:
                    if item.tag not in ('lower', 'upper', 'effort', 'velocity'):
                        v.warn(item, entity, f'{what} <limit><{local_name(item)}> is not '
                               'kept', Code.DROPPED)
            elif tag == 'mimic':
                spec.mimic = self._mimic(child, entity)
            else:
                v.warn(child, entity, f'{what} <{local_name(child)}> is not kept', Code.DROPPED)
        spec.xyz = xyz
        spec.expressed_in = expressed_in
        spec.use_parent_model_frame = upmf
        return spec

    def _mimic(self, elem, entity):
        v = self.v
        leader = v.required_attr(elem, entity, 'joint')
        if leader is None:
            return None
        if (elem.get('axis') or 'axis').strip() != 'axis':
            v.warn(elem, entity, "<mimic> of a leader's axis2 is kept as a mimic of its first "
                   'axis', Code.MIMIC_AXIS)
        multiplier = self._number(elem, entity, 'multiplier', 1.0)
        offset = self._number(elem, entity, 'offset', 0.0)
        reference = self._number(elem, entity, 'reference', 0.0)
        return Mimic(leader.strip(), multiplier, offset - multiplier * reference)

    # --- frame graphs -----------------------------------------------------------------

    def _ref(self, scope: _Scope, text: str, elem, entity, what) -> str | None:
        """Return the vertex key a frame name in ``scope`` refers to; report if none."""
        text = text.strip()
        if text == MODEL_FRAME:
            return scope.key
        if text.endswith('::' + MODEL_FRAME):
            key = scope.prefix + text[:-len(MODEL_FRAME) - 2]
            found = self.vertices.get(key)
            if found is not None and found.kind == 'model':
                return key
        else:
            key = scope.prefix + text
            if key in self.vertices:
                return key
        self.v.error(elem, entity, f'{what} names {text!r}, which does not exist in model '
                     f'{scope.name!r}', Code.MISSING_FRAME)
        return None

    def _resolve_graphs(self) -> None:
        """Build the pose (relative_to) and attached_to graphs, and check them for cycles."""
        for scope in self.scopes:
            self._canonical(scope)
        for vertex in self.order:
            self._edges(vertex)
        self._check_pose_cycles()
        # Placement frames need the poses inside the nested model: innermost first.
        nested = [x for x in self.order if x.kind == 'model']
        for vertex in sorted(nested, key=lambda x: -x.inner.depth):
            placement = vertex.elem.get('placement_frame')
            if not placement or vertex.key not in self.edge:
                continue
            key = self._ref(vertex.inner, placement, vertex.elem, vertex.entity,
                            'placement_frame')
            x_mf = self._relative(key, vertex.key) if key is not None else None
            if x_mf is not None:
                self.edge[vertex.key] = self.edge[vertex.key].compose(x_mf.inverse())
        for vertex in self.order:
            self._body(vertex.key)

    def _canonical(self, scope: _Scope) -> None:
        elem = scope.elem
        text = elem.get('canonical_link')
        if text and text.strip():
            entity = f"model '{scope.name}'"
            key = self._ref(scope, text, elem, entity, 'canonical_link')
            vertex = self.vertices.get(key)  # None for the model frame itself
            if key is not None and (vertex is None or vertex.kind != 'link'):
                self.v.error(elem, entity, f'canonical_link names {text.strip()!r}, which is '
                             'not a link', Code.BAD_CANONICAL_LINK)
                key = None
            scope.canonical = key
        elif scope.links:
            scope.canonical = scope.links[0]
        elif scope.models:
            scope.canonical = scope.models[0]

    def _edges(self, vertex: _Vertex) -> None:
        scope = vertex.scope
        entity = vertex.entity
        kind = vertex.kind
        if kind == 'joint':
            spec = vertex.data
            if spec is None:
                return
            parent = child = None
            if spec.parent == WORLD:
                parent = WORLD
            elif spec.parent is not None:
                parent = self._ref(scope, spec.parent, spec.parent_elem, entity, '<parent>')
            if spec.child is not None:
                child = self._ref(scope, spec.child, spec.child_elem, entity, '<child>')
                if child == vertex.key:
                    self.v.error(spec.child_elem, entity, '<child> names the joint itself',
                                 Code.CYCLE)
                    child = None
            self.joint_links[vertex.key] = (parent, child)
            self.attach[vertex.key] = child
            default = child
        elif kind == 'frame':
            target = scope.key
            if vertex.attach_text is not None:
                target = self._ref(scope, vertex.attach_text, vertex.elem, entity,
                                   'attached_to')
            self.attach[vertex.key] = target
            default = target
        elif kind == 'model':
            self.attach[vertex.key] = vertex.inner.canonical
            default = scope.key
        else:
            default = scope.key
        if vertex.rel_text is not None:
            rel = self._ref(scope, vertex.rel_text, vertex.pose_elem, entity,
                            '<pose> relative_to')
        else:
            rel = default
        if rel is None:
            return
        if rel == vertex.key:
            if vertex.rel_text is not None:
                self.v.error(vertex.pose_elem, entity, '<pose> is relative to itself', Code.CYCLE)
            return      # else attached_to names the frame itself: reported as a cycle
        self.parent[vertex.key] = rel
        self.edge[vertex.key] = vertex.pose

    def _check_pose_cycles(self) -> None:
        """Give every vertex its depth in the pose graph; report cycles."""
        depth = self.depth
        depth[MODEL_FRAME] = 0
        for vertex in self.order:
            path = []
            on_path = set()
            key = vertex.key
            while key not in depth:
                if key in on_path:
                    loop = path[path.index(key):]
                    first = self.vertices[loop[0]]
                    self.v.error(first.pose_elem if first.pose_elem is not None
                                 else first.elem, first.entity,
                                 'the poses form a cycle: ' + ' -> '.join(
                                     repr(k) for k in loop + [loop[0]]), Code.CYCLE)
                    for k in loop:
                        depth[k] = None
                    break
                if key not in self.parent:
                    depth[key] = None        # unresolvable (already reported)
                    break
                path.append(key)
                on_path.add(key)
                key = self.parent[key]
            base = depth.get(key)
            for k in reversed(path):
                if k in depth:
                    base = depth[k]
                    continue
                base = None if base is None else base + 1
                depth[k] = base

    def _relative(self, a: str, b: str) -> Pose | None:
        """Return ``X_b_a``, the pose of vertex ``a`` in vertex ``b``; ``None`` if unresolved."""
        depth = self.depth
        da, db = depth.get(a), depth.get(b)
        if da is None or db is None:
            return None
        start_a, start_b = a, b
        if abs(da - db) > _SHORT_PATH:
            return self._in_model(start_b).inverse().compose(self._in_model(start_a))
        up_a, up_b = [], []
        while da > db:
            up_a.append(a)
            a = self.parent[a]
            da -= 1
        while db > da:
            up_b.append(b)
            b = self.parent[b]
            db -= 1
        while a != b:
            if len(up_a) > _SHORT_PATH:  # a long chain: compose through the memoised poses
                return self._in_model(start_b).inverse().compose(self._in_model(start_a))
            up_a.append(a)
            up_b.append(b)
            a, b = self.parent[a], self.parent[b]
        if a == MODEL_FRAME:
            # Only the model frame is common: use the memoised model-frame poses.
            x_ma = self._in_model(start_a)
            return x_ma if not up_b else self._in_model(start_b).inverse().compose(x_ma)
        # Compose along the two short paths from their common frame: exact for the usual
        # case of a pose written relative to the frame it is compared with.
        x_ca = IDENTITY
        for key in reversed(up_a):
            x_ca = x_ca.compose(self.edge[key])
        if not up_b:
            return x_ca
        x_cb = IDENTITY
        for key in reversed(up_b):
            x_cb = x_cb.compose(self.edge[key])
        return x_cb.inverse().compose(x_ca)

    def _in_model(self, key: str) -> Pose:
        """Return the pose of a resolvable vertex in the top model frame (memoised)."""
        memo = self.model_pose
        path = []
        while key != MODEL_FRAME and key not in memo:
            path.append(key)
            key = self.parent[key]
        pose = memo.get(key, IDENTITY)
        for k in reversed(path):
            pose = pose.compose(self.edge[k])
            memo[k] = pose
        return pose

    def _body(self, key: str) -> str | None:
        """Return the link a vertex is attached to (``None``: none, reported)."""
        if key in self.body_of:
            return self.body_of[key]
        path = []
        on_path = set()
        result = None
        while True:
            if key in self.body_of:
                result = self.body_of[key]
                break
            vertex = self.vertices.get(key)
            if key == MODEL_FRAME:
                target = self.scopes[0].canonical
            elif vertex is None:
                break
            elif vertex.kind == 'link':
                result = key
                path.append(key)
                break
            else:
                target = self.attach.get(key)
            if key in on_path:
                loop = path[path.index(key):]
                first = self.vertices.get(loop[0])
                if first is not None:
                    self.v.error(first.elem, first.entity, 'the attached_to chain forms a '
                                 'cycle: ' + ' -> '.join(repr(k) for k in loop + [loop[0]]),
                                 Code.CYCLE)
                break
            path.append(key)
            on_path.add(key)
            if target is None:
                break
            key = target
        for k in path:
            self.body_of[k] = result
        return result

    # --- results ----------------------------------------------------------------------

    def _resolve_placed(self, placed: _Placed, link: _Vertex, entity) -> Pose:
        if placed.rel_text is None:
            return placed.pose
        rel = self._ref(link.scope, placed.rel_text, placed.elem, entity, '<pose> relative_to')
        if rel is None:
            return placed.pose
        x_lr = self._relative(rel, link.key)
        return placed.pose if x_lr is None else x_lr.compose(placed.pose)

    def _links(self) -> list[Link]:
        children = {child for _, child in self.joint_links.values() if child is not None}
        child_links = {self.body_of.get(c) for c in children}
        links = []
        for vertex in self.order:
            if vertex.kind != 'link':
                continue
            spec = vertex.data
            entity = vertex.entity
            inertial = None
            if spec.inertial is not None:
                inertial, placed = spec.inertial
                inertial = replace(inertial,
                                   origin=self._resolve_placed(placed, vertex, entity))
            visuals = tuple(replace(visual, origin=self._resolve_placed(p, vertex, entity))
                            for visual, p in spec.visuals)
            collisions = tuple(replace(c, origin=self._resolve_placed(p, vertex, entity))
                               for c, p in spec.collisions)
            pose = None
            if vertex.key not in child_links and self.depth.get(vertex.key) is not None:
                pose = self._in_model(vertex.key)
            links.append(Link(name=vertex.key, inertial=inertial, visuals=visuals,
                              collisions=collisions, location=self.v.loc(vertex.elem),
                              pose=pose, extras=spec.extras))
        return links

    def _joints(self) -> list[Joint]:
        joints = []
        for vertex in self.order:
            if vertex.kind != 'joint' or vertex.data is None:
                continue
            joint = self._joint(vertex)
            if joint is not None:
                joints.append(joint)
        return joints

    def _joint(self, vertex: _Vertex) -> Joint | None:
        v = self.v
        spec = vertex.data
        entity = vertex.entity
        parent_key, child_key = self.joint_links.get(vertex.key, (None, None))
        if parent_key is None or child_key is None:
            return None
        child = self._body(child_key)
        if child is None:
            v.error(spec.child_elem, entity, f'<child> {spec.child!r} is not attached to any '
                    'link', Code.MISSING_LINK)
            return None
        if parent_key == WORLD:
            parent, frame_of_parent = WORLD, MODEL_FRAME
        else:
            parent = frame_of_parent = self._body(parent_key)
            if parent is None:
                v.error(spec.parent_elem, entity, f'<parent> {spec.parent!r} is not attached '
                        'to any link', Code.MISSING_LINK)
                return None
        x_pj = self._relative(vertex.key, frame_of_parent)
        x_cj = self._relative(vertex.key, child)
        if x_pj is None or x_cj is None:
            return None
        kind = spec.kind
        axis = axis2 = limit = limit2 = dynamics = dynamics2 = mimic = None
        if kind.axes:
            axis, limit, dynamics, mimic = self._axis_values(vertex, spec.axis)
        if kind.axes == 2:
            axis2, limit2, dynamics2, _ = self._axis_values(vertex, spec.axis2)
        reference = None
        if spec.gearbox_reference is not None:
            key = self._ref(vertex.scope, spec.gearbox_reference, spec.gearbox_elem, entity,
                            '<gearbox_reference_body>')
            reference = self._body(key) if key is not None else None
        return Joint(name=vertex.key, kind=kind, parent=parent, child=child, origin=x_pj,
                     axis=axis if axis is not None else (1.0, 0.0, 0.0), limit=limit,
                     dynamics=dynamics, mimic=mimic, location=v.loc(vertex.elem),
                     joint_in_child=x_cj, axis2=axis2, limit2=limit2, dynamics2=dynamics2,
                     screw_thread_pitch=spec.pitch,
                     gearbox_ratio=spec.gearbox_ratio if kind is JointType.GEARBOX else None,
                     gearbox_reference_body=reference, extras=spec.extras)

    def _axis_values(self, vertex: _Vertex, spec: _AxisSpec | None):
        """Return (axis in the joint frame, limit, dynamics, mimic) of an axis element."""
        if spec is None:
            return _Z_AXIS, None, None, None
        scope = vertex.scope
        if self.version < (1, 5) or spec.use_parent_model_frame:
            frame = scope.key
        elif spec.expressed_in is not None:
            frame = self._ref(scope, spec.expressed_in, spec.elem.find('xyz'), vertex.entity,
                              f'<{spec.elem.tag}> <xyz> expressed_in')
        else:
            frame = vertex.key
        norm = math.hypot(*spec.xyz)  # no overflow for 1e200, no underflow for 1e-200
        xyz = tuple(c / norm for c in spec.xyz)
        if frame is not None and frame != vertex.key:
            x_je = self._relative(frame, vertex.key)
            if x_je is not None:
                xyz = transforms.quat_rotate(x_je.quat, xyz)
                norm = math.hypot(*xyz)
                xyz = tuple(c / norm for c in xyz)
        mimic = spec.mimic
        if mimic is not None and vertex.scope.prefix:
            mimic = replace(mimic, joint=vertex.scope.prefix + mimic.joint)
        return xyz, spec.limit, spec.dynamics, mimic

    def _frames(self) -> list[Frame]:
        frames = []
        for vertex in self.order:
            if vertex.kind != 'frame':
                continue
            link = self._body(vertex.key)
            if link is None:
                if self.attach.get(vertex.key) is not None or vertex.attach_text is None:
                    self.v.warn(vertex.elem, vertex.entity, 'is not attached to any link (the '
                                'model has none); it is not kept', Code.DROPPED)
                continue
            pose = self._relative(vertex.key, link)
            if pose is None:
                continue
            frames.append(Frame(vertex.key, link, pose, self.v.loc(vertex.elem)))
        return frames


def _include_name(elem) -> str:
    """Return the model name an ``<include>`` gives (its ``<name>``, else from its URI)."""
    name = (elem.findtext('name') or '').strip()
    if name:
        return name
    uri = (elem.findtext('uri') or '').strip().rstrip('/')
    return uri.rsplit('/', 1)[-1] if uri else ''
