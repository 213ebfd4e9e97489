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

Read as libsdformat reads them: a model without links that is static or holds nested models
(its frames, and those of a nested model without links, are fixed in the model frame:
attached to ``world``); visuals and collisions without geometry; SDFormat 1.7 frames named
``X::__model__``. Refused as libsdformat refuses them (Gazebo then loads nothing): a
``<light>`` or ``<actor>`` beside a model outside a world; a ``relative_to`` on the pose of a
model outside a world; what :mod:`.elements`, :mod:`.joints` and :mod:`.content` refuse. A
negative mass or an invalid inertia is read with a warning (``sdf_tools check`` makes it an
error: :func:`~sdf_tools.formats.sdf.inertials.refused`).

Unsupported, as errors: ``<include>`` (sdf_tools reads self-contained files only; it has no
Gazebo resource paths and never fetches), files without ``<sdf version>`` or of a version
outside 1.4 to 1.11 (1.12 and later are read with the 1.11 rules and a warning).
Every problem is reported with its line, then one
:class:`~sdf_tools.errors.DescriptionError` holds all of them.

How it is built: this module checks the document and walks the model (scopes, names,
nested models); :mod:`.elements` and :mod:`.joints` read each element's values;
:mod:`.frames` holds the pose and attachment graphs of the model's frames; :mod:`.assembly`
turns the resolved graph into the model's links, joints and frames.
"""

import re

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.formats.reading import checked
from sdf_tools.formats.reading import with_warnings
from sdf_tools.formats.sdf import assembly
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.content import check_values
from sdf_tools.formats.sdf.elements import element_text
from sdf_tools.formats.sdf.elements import ElementReader
from sdf_tools.formats.sdf.frames import FrameGraph
from sdf_tools.formats.sdf.frames import MODEL_FRAME
from sdf_tools.formats.sdf.frames import Scope
from sdf_tools.formats.sdf.frames import Vertex
from sdf_tools.formats.sdf.joints import read_joint
from sdf_tools.formats.sdf.values import read_bool
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.model import IDENTITY
from sdf_tools.model import Robot
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import ValueReader

_VERSION = re.compile(r'\s*(\d+)\.(\d+)(?:\.\d+)?\s*')
# Priority of names in a model scope when old files reuse one (libsdformat 12 order).
_KIND_ORDER = ('model', 'link', 'joint', 'frame')
# What an <sdf> may hold one of, and only one kind of, outside a world (libsdformat's order).
_ROOT_ALONE = ('model', 'light', 'actor')
# The children of a <model> that are frames of the model (and <include>, refused).
_MODEL_CONTENT = ('link', 'joint', 'frame', 'model', 'include')


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
        Size limit passed to :func:`~sdf_tools.xmlio.parse.parse_xml`.

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
    values = ValueReader(source, reporter)
    _check_root_content(values, root)
    robot = _read_document(values, root, model)
    checked(robot, reporter, single_root=False, implicit_world=True, allow_loops=True)
    return with_warnings(robot, reporter)


# --- the document ----------------------------------------------------------------------------

def _check_root_content(v: ValueReader, root) -> None:
    """Report a ``<light>`` or ``<actor>`` beside a model (or each other) outside a world."""
    first: dict = {}
    for child in root:
        if child.tag in _ROOT_ALONE:
            first.setdefault(child.tag, child)
    if len(first) > 1:
        kinds = sorted(first, key=_ROOT_ALONE.index)
        later = first[kinds[1]]
        v.error(later, None, f'the <sdf> element holds both <{kinds[0]}> and <{kinds[1]}>: '
                'outside a <world>, SDFormat allows one model, light or actor (libsdformat '
                'refuses the file)', Code.INVALID)


def _read_document(v: ValueReader, root, wanted) -> Robot:
    """Check the ``<sdf>`` element and its version, choose the model and read it."""
    if local_name(root) != 'sdf':
        hint = ' (this looks like URDF)' if root.tag == 'robot' else ''
        v.error(root, None, f'the root element is <{local_name(root)}>, an SDFormat file '
                f'needs <sdf>{hint}', Code.NOT_SDF)
        return Robot(name='', source=v.source, source_format='sdf')
    version = _read_version(v, root)
    elem = _select_model(v, root, wanted) if version is not None else None
    if version is None or elem is None:
        return Robot(name='', source=v.source, source_format='sdf')
    return _ModelReader(v, version).read(elem)


def _read_version(v: ValueReader, root) -> tuple | None:
    """Return the version rules to read the document with; ``None`` if it has none."""
    text = root.get('version')
    if text is None:
        v.missing_attr(root, None, 'version')
        return None
    m = _VERSION.fullmatch(text)
    if m is None:
        v.error(root, None, f'<sdf> version must look like 1.9, got {text!r}',
                Code.BAD_VERSION)
        return None
    version = (int(m.group(1)), int(m.group(2)))
    if version < (1, 4) or version[0] != 1:
        v.error(root, None, f'SDFormat version {text.strip()} is not supported (sdf_tools '
                f'reads {READABLE_VERSIONS[0]} to {READABLE_VERSIONS[-1]})', Code.BAD_VERSION)
        return None
    if version > version_tuple(READABLE_VERSIONS[-1]):
        v.warn(root, None, f'SDFormat version {text.strip()} is newer than '
               f'{READABLE_VERSIONS[-1]}; it is read with the {READABLE_VERSIONS[-1]} rules',
               Code.NEW_VERSION)
        version = version_tuple(READABLE_VERSIONS[-1])
    return version


def _select_model(v: ValueReader, root, wanted):
    """Return the ``<model>`` to read (top level or in a ``<world>``); ``None``: reported."""
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
        _include_error(v, chosen, None)
        return None
    return chosen


def _include_error(v: ValueReader, elem, entity) -> None:
    uri = (elem.findtext('uri') or '').strip()
    v.error(elem, entity, f'<include> of {uri!r} cannot be resolved: sdf_tools reads '
            'self-contained SDFormat only (model://, Fuel, http and file includes '
            "need Gazebo's resource paths); expand it first, e.g. with "
            '`gz sdf -p`', Code.INCLUDE)


def _include_name(elem) -> str:
    """Return the model name an ``<include>`` gives (its ``<name>``, else from its URI)."""
    name = (elem.findtext('name') or '').strip()
    if name:
        return name
    uri = (elem.findtext('uri') or '').strip().rstrip('/')
    return uri.rsplit('/', 1)[-1] if uri else ''


# --- the model -------------------------------------------------------------------------------

class _ModelReader:
    """Walks one ``<model>``: its scopes, names and elements, then assembles the robot."""

    __slots__ = ('v', 'version', 'elements', 'graph')

    def __init__(self, values: ValueReader, version: tuple):
        self.v = values
        self.version = version
        self.elements = ElementReader(values, version)
        self.graph = FrameGraph(values)

    def read(self, elem) -> Robot:
        v = self.v
        graph = self.graph
        name = self._name(elem, 'model') or ''
        top = Scope(MODEL_FRAME, '', name, elem, 0)
        entity = f"model '{name}'"
        graph.add_scope(top)
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
                static = read_bool(v, child, entity, '<static>', child.text, False)
            elif tag not in _MODEL_CONTENT:
                check_values(v, 'model', child, entity)
                extras.append(element_text(child))
        self._register_scope(top)
        if not static and not top.models and not any(x.kind == 'link' for x in graph.order):
            v.error(elem, entity, 'has no <link> (only static models, and models holding '
                    'nested models, may have none)', Code.NO_LINKS)
        graph.resolve()
        pose = None
        if pose_elem is not None:
            pose, rel = self.elements.pose(pose_elem, entity)
            if rel and elem.getparent() is not None and elem.getparent().tag == 'sdf':
                v.error(pose_elem, entity, f'the <pose> of a model outside a world must not '
                        f'have relative_to (it has {rel!r}: there is no frame to be relative '
                        'to; libsdformat refuses the file)', Code.RELATIVE_TO)
            elif rel:
                v.warn(pose_elem, entity, f'the model <pose> is relative to {rel!r}, a frame '
                       'outside the model; sdf_tools keeps it as written', Code.RELATIVE_TO)
        x_mf = graph.placement(top)  # the model's pose (identity when absent) is that frame's
        if x_mf is not None:
            pose = (pose or IDENTITY).compose(x_mf.inverse())
        links = assembly.links(graph, v)
        joints = assembly.joints(graph, v, self.version)
        frames = assembly.frames(graph, v)
        return Robot(name=name, links=tuple(links), joints=tuple(joints), frames=tuple(frames),
                     origin=pose, source=v.source, source_format='sdf', static=static,
                     location=v.loc(elem), extras=tuple(extras))

    def _name(self, elem, kind):
        v = self.v
        name = v.required_attr(elem, f'<{kind}>', 'name')
        if name is None:
            return None
        name = sdf_names.as_read(name)  # as libsdformat reads every attribute (relative_to too)
        entity = f"{kind} '{name}'"
        problem = sdf_names.name_problem(name, version=self.version)
        if problem is not None:
            v.error(elem, entity, problem,
                    Code.RESERVED_NAME if sdf_names.is_reserved(name) else Code.BAD_NAME)
            return None
        return name

    def _register_scope(self, scope: Scope) -> None:
        """Create the vertices of a model scope (and of its nested models), in document order."""
        v = self.v
        elems: dict[str, list] = {kind: [] for kind in _KIND_ORDER}
        for child in scope.elem:
            if child.tag in elems:
                elems[child.tag].append(child)
            elif child.tag == 'include':
                _include_error(v, child, f"model '{scope.key}'" if scope.depth else
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
                    name = self._clashing_name(scope, elem, kind, name, taken)
                    if name is None:
                        continue
                taken[name] = kind
                vertex_of[elem] = Vertex(scope.prefix + name, kind, name, elem, scope)
        for child in scope.elem:
            vertex = vertex_of.get(child)
            if vertex is None:
                continue
            self.graph.add(vertex)
            self._read_vertex(vertex)

    def _clashing_name(self, scope: Scope, elem, kind, name, taken) -> str | None:
        """Return the name for an element whose name is taken: renamed before 1.7, else None."""
        v = self.v
        other = taken[name]
        entity = f"{kind} '{scope.prefix}{name}'"
        if other == kind:
            v.error(elem, entity, f'{kind} name {name!r} is used more than once in model '
                    f'{scope.name!r}', Code.DUPLICATE_NAME)
            return None
        if self.version >= (1, 7):
            v.error(elem, entity, f'has the same name as a {other} of model {scope.name!r}; '
                    'links, joints, frames and nested models need distinct names',
                    Code.DUPLICATE_NAME)
            return None
        new = f'{name}_{kind}'
        i = 0
        while new in taken:
            new = f'{name}_{kind}{i}'
            i += 1
        v.warn(elem, entity, f'has the same name as a {other} of model {scope.name!r}; '
               f'renamed to {new!r}, as libsdformat does for SDFormat 1.6 and older',
               Code.RENAMED)
        return new

    def _read_vertex(self, vertex: Vertex) -> None:
        elem = vertex.elem
        entity = vertex.entity
        poses = [c for c in elem if c.tag == 'pose']
        if len(poses) > 1:
            self.v.error(poses[1], entity, 'has more than one <pose>', Code.REPEATED_ELEMENT)
        if poses:
            vertex.pose, vertex.rel_text = self.elements.pose(poses[0], entity)
            vertex.pose_elem = poses[0]
        kind = vertex.kind
        if kind == 'link':
            vertex.scope.links.append(vertex.key)
            vertex.data = self.elements.link(elem, entity)
        elif kind == 'joint':
            vertex.data = read_joint(self.elements, elem, entity)
        elif kind == 'frame':
            attached = elem.get('attached_to')
            vertex.attach_text = attached.strip() if attached and attached.strip() else None
        else:
            self._read_nested_model(vertex)

    def _read_nested_model(self, vertex: Vertex) -> None:
        elem = vertex.elem
        entity = vertex.entity
        scope = vertex.scope
        inner = Scope(vertex.key, vertex.key + '::', vertex.key, elem, scope.depth + 1)
        vertex.inner = inner
        scope.models.append(vertex.key)
        self.graph.add_scope(inner)
        for child in elem:
            if child.tag != 'pose' and child.tag not in _MODEL_CONTENT:
                self.v.warn(child, entity, f'<{local_name(child)}> of a nested model is '
                            'not kept (nested models are flattened)', Code.DROPPED)
        self._register_scope(inner)
        static = elem.find('static')
        if not inner.links and not inner.models and not (
                static is not None and read_bool(self.v, static, entity, '<static>',
                                                 static.text, False)):
            self.v.error(elem, entity, 'has no <link> (only static models may have none)',
                         Code.NO_LINKS)
