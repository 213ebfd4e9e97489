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
kept as values (:class:`~sdf_tools.xmlio.element.Element`) in the ``extras`` of their link,
visual, collision, joint or (top-level) model, so that an SDF to SDF round trip keeps them;
a visual's ``<material>`` is kept there whole and also read, best effort, into
:class:`~sdf_tools.model.Material` (diffuse colour).
Axis details (``<initial_position>``, limit ``stiffness``/``dissipation``), mesh
``<submesh>`` and the children of nested models other than links, joints, frames and models
are dropped with a warning. Names are held to the SDFormat vocabulary, and kept values are
read as libsdformat reads them (:mod:`.content`).

Worlds and includes: the whole document is read (:func:`parse_sdf_document`), every model
of every world, and checked as libsdformat checks a world (:mod:`.world`: model and frame
names, world ``<frame>`` s, models placed ``relative_to`` other models or frames); the
model asked for (or the only one) is returned, its ``origin`` in the world frame.
``<include>`` s are resolved when the reader is given a
:class:`~sdf_tools.resources.models.ModelFinder` (:mod:`.include`: ``model://``, relative
paths, packages, model.config; ``<name>``, ``<pose>``, ``<static>``, ``<placement_frame>``,
``<plugin>``); an included model is read with the rules of its own file's version, and
what is reported about it names that file's lines; a merge-include's model is merged into
the including one (:mod:`.merge`). Without a finder an include is an error.

Read as libsdformat reads them: a model without links that is static or holds nested models
(its frames, and those of a nested model without links, are fixed in the model frame:
attached to ``world``); visuals and collisions without geometry; SDFormat 1.7 frames named
``X::__model__``. Refused as libsdformat refuses them (Gazebo then loads nothing): a second
model, light or actor outside a world; a ``relative_to`` on the pose of a model outside a
world; what :mod:`.elements`, :mod:`.joints` and :mod:`.content` refuse. A negative mass or
an invalid inertia is read with a warning (``check`` makes it an error: :mod:`.inertials`).

An ``<inertial auto="true">`` is computed from the link's collisions as libsdformat 14
computes it (:mod:`.auto_inertial`; meshes read with trimesh, found as includes are).

Bounded: models nest at most :data:`MAX_NESTING` levels deep, across includes.

Unsupported, as errors: files without ``<sdf version>`` or of a version outside 1.3 to 1.11
(1.3 is read as libsdformat converts it, with the 1.4 rules; 1.12 and later with the 1.11
rules and a warning). Every problem is reported with its line, then one
:class:`~sdf_tools.errors.DescriptionError` holds all of them.

How it is built: this module checks the document and walks the model (scopes, names,
nested models); :mod:`.world` walks the worlds and holds their frames; :mod:`.include`
reads what includes name; :mod:`.elements` and :mod:`.joints` read each element's values;
:mod:`.frames` holds the pose and attachment graphs of the model's frames; :mod:`.assembly`
turns the resolved graph into the model's links, joints and frames.
"""

from collections.abc import Iterable
import os

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.formats.sdf import assembly
from sdf_tools.formats.sdf import merge
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.auto_inertial import MeshWeigher
from sdf_tools.formats.sdf.content import check_document
from sdf_tools.formats.sdf.content import check_values
from sdf_tools.formats.sdf.content import misspelt
from sdf_tools.formats.sdf.elements import ElementReader
from sdf_tools.formats.sdf.frames import add_member
from sdf_tools.formats.sdf.frames import FrameGraph
from sdf_tools.formats.sdf.frames import home
from sdf_tools.formats.sdf.frames import MODEL_FRAME
from sdf_tools.formats.sdf.frames import Scope
from sdf_tools.formats.sdf.frames import Vertex
from sdf_tools.formats.sdf.include import INCLUDABLE
from sdf_tools.formats.sdf.include import Included
from sdf_tools.formats.sdf.include import IncludeReader
from sdf_tools.formats.sdf.include import instruction_error
from sdf_tools.formats.sdf.include import no_finder_error
from sdf_tools.formats.sdf.include import SourcedValues
from sdf_tools.formats.sdf.joints import read_joint
from sdf_tools.formats.sdf.values import read_bool
from sdf_tools.formats.sdf.versions import read_version
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.formats.sdf.world import check_root_content
from sdf_tools.formats.sdf.world import PlacedModel
from sdf_tools.formats.sdf.world import read_worlds
from sdf_tools.formats.sdf.world import SdfDocument
from sdf_tools.formats.sdf.world import select_model
from sdf_tools.model import IDENTITY
from sdf_tools.model import Robot
from sdf_tools.records import record
from sdf_tools.resources.models import ModelFinder
from sdf_tools.validate import check_robot
from sdf_tools.worlds import World
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import from_lxml
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_xml
from sdf_tools.xmlio.parse import ValueReader

# Priority of names in a model scope when old files reuse one (libsdformat 12 order).
_KIND_ORDER = ('model', 'link', 'joint', 'frame')
# The children of a <model> that are frames of the model (and <include>: a nested model).
_MODEL_CONTENT = ('link', 'joint', 'frame', 'model', 'include')
#: Levels of models, the top one included, in all (includes count: the XML parser bounds
#: one file's elements at 256 levels). Each level is a few calls deeper.
MAX_NESTING = 256


def parse_sdf(text: str | bytes, source: str = '<string>', *, model: str | None = None,
              max_bytes: int = DEFAULT_MAX_BYTES, includes: ModelFinder | None = None,
              path: str | None = None) -> Robot:
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
        Size limit passed to :func:`~sdf_tools.xmlio.parse.parse_xml`; also the most the
        included files may hold in all.
    includes : ModelFinder or None
        Finds what ``<include>`` s name; ``None``: every include is an error.
    path : str or None
        The file ``text`` was read from: relative include URIs start in its folder.

    Returns
    -------
    Robot
        With ``source_format='sdf'``; poses in the model frame (module docstring), the model
        frame's pose in ``origin`` (in the world frame for a model of a world); non-fatal
        problems of the whole document are in ``Robot.warnings``.

    Raises
    ------
    XmlSyntaxError
        The text is not acceptable XML.
    DescriptionError
        It is not a valid SDFormat document, or holds no such model; holds every problem
        found.

    """
    document = parse_sdf_document(text, source, model=model, max_bytes=max_bytes,
                                  includes=includes, path=path)
    return document.required_robot()


def read_sdf_element(root: etree._Element, source: str = '<string>', *,
                     model: str | None = None) -> Robot:
    """Read a model from an already parsed ``<sdf>`` element (see :func:`parse_sdf`)."""
    return read_sdf_document(root, source, model=model).required_robot()


def parse_sdf_document(text: str | bytes, source: str = '<string>', *, model: str | None = None,
                       max_bytes: int = DEFAULT_MAX_BYTES, includes: ModelFinder | None = None,
                       path: str | None = None) -> SdfDocument:
    """Read every world and model of a document (parameters: :func:`parse_sdf`)."""
    dropped: list = []   # processing instructions: errors (read_sdf_document)
    root = parse_xml(text, source, max_bytes=max_bytes, instructions=dropped)
    return read_sdf_document(root, source, model=model, max_bytes=max_bytes,
                             includes=includes, path=path, instructions=dropped)


def read_sdf_document(root: etree._Element, source: str = '<string>', *, model: str | None = None,
                      max_bytes: int = DEFAULT_MAX_BYTES, includes: ModelFinder | None = None,
                      path: str | None = None,
                      instructions: Iterable[Diagnostic] = ()) -> SdfDocument:
    """
    Read an already parsed ``<sdf>`` element whole (see :func:`parse_sdf_document`).

    ``instructions`` are the warnings of :func:`~sdf_tools.xmlio.parse.parse_xml` about the
    processing instructions it dropped: each is an error, as libsdformat refuses the file.
    """
    reporter = Reporter()
    for dropped in instructions:
        reporter.error(instruction_error(dropped), dropped.location, code=Code.INVALID)
    v = SourcedValues(source, reporter)
    check_root_content(v, root)
    worlds, files = _read_document(v, root, includes, path, max_bytes, model)
    reporter.raise_if_errors()
    for world in worlds:
        for robot in world.models:
            check_robot(robot, reporter, single_root=False, implicit_world=True,
                        allow_loops=True)
    reporter.raise_if_errors()
    chosen, problem = select_model(worlds, model, v.loc(root))
    if chosen is not None and reporter.warnings:
        chosen = chosen.with_warnings(reporter.warnings)
    return SdfDocument(chosen, tuple(worlds), tuple(reporter.warnings), problem, files)


# --- the document ----------------------------------------------------------------------------

def _read_document(v: SourcedValues, root: etree._Element, finder: ModelFinder | None,
                   path: str | None, max_bytes: int,
                   wanted: str | None) -> tuple[list[World], tuple[str, ...]]:
    """
    Check the ``<sdf>`` element and its version; read its worlds and top-level models.

    Returns the worlds and the files the includes (and auto inertials) read. ``wanted``: the
    model asked for, which may not need a world's web includes (:meth:`IncludeReader.settle`).
    """
    if local_name(root) != 'sdf':
        hint = ' (this looks like URDF)' if root.tag == 'robot' else ''
        v.error(root, None, f'the root element is <{local_name(root)}>, an SDFormat file '
                f'needs <sdf>{hint}', Code.NOT_SDF)
        return [], ()
    version = read_version(v, root)
    if version is None:
        return [], ()
    check_document(v, root, version)
    includes = None if finder is None else IncludeReader(
        v, finder, read_version, version_tuple(READABLE_VERSIONS[-1]), max_bytes, wanted)
    folder = None if path is None else os.path.dirname(os.path.abspath(path))
    weigher = MeshWeigher(finder)   # the meshes of auto inertials
    origin = _File(version, ElementReader(v, version, (weigher, folder)), folder,
                   () if path is None else (os.path.realpath(path),))

    def include(elem: etree._Element, entity: str | None,
                kinds: tuple[str, ...] = INCLUDABLE) -> Included | None:
        if includes is None:
            no_finder_error(v, elem, entity)
            return None
        return includes.read(elem, origin.folder, origin.chain, entity, kinds)

    def read_model(elem: etree._Element, included: Included | None, placed: bool) -> PlacedModel:
        reader = _ModelReader(v, version, includes, origin)
        robot = reader.read(elem, included, placed)
        return PlacedModel(robot, reader.graph, reader.rel_text, reader.pose_elem,
                           elem if included is None else included.include)

    worlds = read_worlds(v, root, version, origin.elements, include, read_model)
    if includes is None:
        return worlds, tuple(weigher.files)
    includes.settle(worlds)
    return worlds, tuple(dict.fromkeys((*includes.files, *weigher.files)))


@record(slots=True, eq=False)
class _File:
    """The file a model scope was written in: its version rules and where it is."""

    version: tuple
    elements: ElementReader
    folder: str | None      # relative include URIs in it start here
    chain: tuple            # real paths of the files included to get to it


# --- the model -------------------------------------------------------------------------------

class _ModelReader:
    """Walks one ``<model>``: its scopes, names and elements, then assembles the robot."""

    __slots__ = ('v', 'version', 'elements', 'graph', 'includes', 'rel_text', 'pose_elem',
                 '_origin', '_files', '_moved')

    def __init__(self, values: ValueReader, version: tuple[int, int],
                 includes: IncludeReader | None = None, origin: _File | None = None) -> None:
        self.v = values
        self.version = version
        self.elements = ElementReader(values, version)
        self.graph = FrameGraph(values)
        self.includes = includes   # IncludeReader, or None: includes are errors
        self.rel_text: str | None = None         # the model <pose> relative_to, as written
        self.pose_elem: etree._Element | None = None  # that <pose>
        self._origin = origin or _File(version, self.elements, None, ())
        self._files: dict[str, _File] = {}   # scope key -> the file it was written in
        self._moved: list[Element] = []      # what merged models give the top model

    def read(self, elem: etree._Element, included: Included | None = None,
             placed: bool = False) -> Robot:
        """
        Read a top-level model (or the one an ``<include>`` brings in).

        ``placed``: the model is in a world, which resolves its ``relative_to``
        (:attr:`rel_text`); ``origin`` is then its frame in that frame.
        """
        v = self.v
        graph = self.graph
        file = self._origin if included is None else self._included_file(included)
        self.version, self.elements = file.version, file.elements
        name = self._name(elem, 'model', included) or ''
        top = Scope(MODEL_FRAME, '', name, elem, 0, placement_elem=included and
                    included.placement, version=file.version)
        self._files[top.key] = file
        entity = f"model '{name}'"
        graph.add_scope(top)
        pose_elem, static, extras = self._top_children(elem, entity, included)
        self._register_scope(top)
        if not static and not top.models and not any(x.kind == 'link' for x in graph.order):
            v.error(elem, entity, 'has no <link> (only static models, and models holding '
                    'nested models, may have none)', Code.NO_LINKS)
        graph.resolve()
        pose = None
        if pose_elem is not None:
            reader = self._pose_reader(pose_elem, included, self._origin)
            pose, rel = reader.pose(pose_elem, entity)
            self.rel_text, self.pose_elem = rel, pose_elem
            parent = elem.getparent()
            outside = parent is not None and parent.tag == 'sdf'
            if rel and not placed and included is None and outside:
                v.error(pose_elem, entity, f'the <pose> of a model outside a world must not '
                        f'have relative_to (it has {rel!r}: there is no frame to be relative '
                        'to; libsdformat refuses the file)', Code.RELATIVE_TO)
            elif rel and not placed:
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
                     location=v.loc(elem if included is None else included.include),
                     extras=tuple(extras + self._moved))

    def _top_children(self, elem: etree._Element, entity: str, included: Included | None,
                      ) -> tuple[etree._Element | None, bool, list[Element]]:
        """Return the top model's ``<pose>``, whether it is static, and its kept children."""
        v = self.v
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
                check_values(v, 'model', child, entity, self.version)
                extras.append(from_lxml(child))
        if included is not None:   # what the include says wins
            pose_elem = included.pose
            static = self._static(included, entity, static)
            extras += [from_lxml(plugin) for plugin in included.plugins]
        return pose_elem, static, extras

    # --- includes -----------------------------------------------------------------------

    def _included_file(self, included: Included) -> _File:
        meshes = self._origin.elements.meshes   # its meshes are named from its folder
        return _File(included.version, ElementReader(
            self.v, included.version, meshes and (meshes[0], included.folder)),
            included.folder, included.chain)

    def _include(self, elem: etree._Element, scope: Scope) -> Included | None:
        """Return the model a nested ``<include>`` brings in (``None``: reported)."""
        entity = f"model '{scope.name}'"
        if self.includes is None:
            no_finder_error(self.v, elem, entity)
            return None
        file = self._files[scope.key]
        return self.includes.read(elem, file.folder, file.chain, entity, ('model',))

    def _static(self, included: Included, entity: str, static: bool) -> bool:
        """Return whether an included model is static: the include's <static> decides."""
        elem = included.static
        if elem is None or elem.getparent() is not included.include:
            return static
        return read_bool(self.v, elem, entity, '<static>', elem.text, False)

    def _pose_reader(self, pose_elem: etree._Element, included: Included | None,
                     outer: _File) -> ElementReader:
        """Return the ElementReader for a model's <pose>: its own file's, or the include's."""
        if included is not None and pose_elem.getparent() is included.include:
            return outer.elements
        return self.elements if included is None else \
            ElementReader(self.v, included.version)

    def _name(self, elem: etree._Element | None, kind: str, included: Included | None = None,
              version: tuple[int, int] | None = None) -> str | None:
        v = self.v
        if included is None:
            assert elem is not None  # (elem is None only with an include)
            name = v.required_attr(elem, f'<{kind}>', 'name')
        else:   # the include's <name>, else the included model's
            name = included.name
            elem = included.include
        if name is None:
            return None
        name = sdf_names.as_read(name)  # as libsdformat reads every attribute (relative_to too)
        entity = f"{kind} '{name}'"
        problem = sdf_names.name_problem(name, version=version or self.version)
        if problem is not None:
            v.error(elem, entity, problem,
                    Code.RESERVED_NAME if sdf_names.is_reserved(name) else Code.BAD_NAME)
            return None
        return name

    def _register_scope(self, scope: Scope, taken: dict | None = None) -> None:
        """Create the vertices of a model scope (and its nested models'), in document order."""
        elems: dict[str, list] = {kind: [] for kind in _KIND_ORDER}
        included_by = {}
        version = self._files[scope.key].version
        for child in scope.elem:
            if child.tag in elems:
                elems[child.tag].append(child)
            elif child.tag == 'include':
                included = self._include(child, scope)
                if included is not None:   # a nested (or merged) model, from another file
                    elems['model'].extend(() if included.merge else (child,))
                    included_by[child] = included
        # Names are claimed in libsdformat's order, so that old files rename the same way.
        taken = {} if taken is None else taken   # merged content shares its model's
        vertex_of = {}
        for kind in _KIND_ORDER:
            for elem in elems[kind]:
                included = included_by.get(elem)
                name = self._name(elem, kind, included, version)
                if name is None:
                    continue
                if name in taken:
                    name = self._clashing_name(scope, elem, kind, name, taken, version)
                    if name is None:
                        continue
                taken[name] = kind
                vertex_of[elem] = Vertex(scope.prefix + name, kind, name, elem, scope,
                                         data=included)
        for child in scope.elem:
            vertex = vertex_of.get(child)
            if vertex is not None:
                self.graph.add(vertex)
                self._read_vertex(vertex)
            elif child in included_by and included_by[child].merge:
                self._merge(included_by[child], scope, taken)

    def _merge(self, included: Included, scope: Scope, taken: dict) -> None:
        """Merge an included model into ``scope``, behind its frame (:mod:`.merge`)."""
        version = self._files[scope.key].version
        name = self._name(None, 'model', included, version)
        if name is None:   # reported (never empty: names are checked)
            return
        frame = merge.frame_name(name)
        if frame in taken:
            clash = self._clashing_name(scope, included.include, 'frame', frame, taken, version)
            if clash is None:
                return
            frame = clash
        if not frame:
            return
        taken[frame] = 'frame'
        file = self._included_file(included)
        reader = None if included.pose is None else self._pose_reader(   # it places the frame
            included.pose, included, self._files[scope.key])
        inner = merge.add_frame(self.graph, included, scope, name, frame, file.version, reader)
        self._files[inner.key] = file
        self._register_scope(inner, taken)
        merge.check_merged(self.v, included, inner)
        self._moved += merge.moved_parts(self.v, included, f"model '{name}'",
                                         kept=home(scope).depth == 0)

    def _clashing_name(self, scope: Scope, elem: etree._Element, kind: str, name: str,
                       taken: dict[str, str], version: tuple[int, int]) -> str | None:
        """Return the name for an element whose name is taken: renamed before 1.7, else None."""
        v = self.v
        other = taken[name]
        entity = f"{kind} '{scope.prefix}{name}'"
        model = home(scope).name   # a merged model's names are its including model's
        if other == kind:
            v.error(elem, entity, f'{kind} name {name!r} is used more than once in model '
                    f'{model!r}', Code.DUPLICATE_NAME)
            return None
        if version >= (1, 7):
            v.error(elem, entity, f'has the same name as a {other} of model {model!r}; '
                    'links, joints, frames and nested models need distinct names',
                    Code.DUPLICATE_NAME)
            return None
        new = f'{name}_{kind}'
        i = 0
        while new in taken:
            new = f'{name}_{kind}{i}'
            i += 1
        v.warn(elem, entity, f'has the same name as a {other} of model {model!r}; '
               f'renamed to {new!r}, as libsdformat does for SDFormat 1.6 and older',
               Code.RENAMED)
        return new

    def _read_vertex(self, vertex: Vertex) -> None:
        elem = vertex.elem
        entity = vertex.entity
        file = self._files[vertex.scope.key]
        elements = file.elements
        if isinstance(vertex.data, Included):   # the include's <pose>, else the model's
            poses = [] if vertex.data.pose is None else [vertex.data.pose]
            if poses:
                elements = self._pose_reader(poses[0], vertex.data, file)
        else:
            poses = [c for c in elem if c.tag == 'pose']
        if len(poses) > 1:
            self.v.error(poses[1], entity, 'has more than one <pose>', Code.REPEATED_ELEMENT)
        if poses:
            vertex.pose, vertex.rel_text = elements.pose(poses[0], entity)
            vertex.pose_elem = poses[0]
        kind = vertex.kind
        if kind == 'link':
            add_member(vertex.scope, 'link', vertex.key)
            vertex.data = elements.link(elem, entity)
        elif kind == 'joint':
            vertex.data = read_joint(elements, elem, entity)
        elif kind == 'frame':
            attached = elem.get('attached_to')
            vertex.attach_text = attached.strip() if attached and attached.strip() else None
        else:
            self._read_nested_model(vertex)

    def _read_nested_model(self, vertex: Vertex) -> None:
        elem = vertex.elem
        entity = vertex.entity
        scope = vertex.scope
        included = vertex.data     # an Included, or None for a <model> written here
        model = elem if included is None else included.elem
        file = self._files[scope.key] if included is None else self._included_file(included)
        inner = Scope(vertex.key, vertex.key + '::', vertex.key, model, scope.depth + 1,
                      placement_elem=None if included is None else included.placement,
                      version=file.version)
        vertex.inner = inner
        self._files[inner.key] = file
        add_member(scope, 'model', vertex.key)
        self.graph.add_scope(inner)
        if inner.depth >= MAX_NESTING:   # not read: its own content would go deeper
            self.v.error(elem, f"model '{vertex.name}'", 'is nested more than '
                         f'{MAX_NESTING} models deep (including the models of includes)',
                         Code.TOO_LARGE)
            return
        dropped = [c for c in model if c.tag not in _MODEL_CONTENT and c.tag != 'pose'
                   and not misspelt('model', c.tag)]
        for child in dropped + ([] if included is None else list(included.plugins)):
            self.v.warn(child, entity, f'<{local_name(child)}> of a nested model is '
                        'not kept (nested models are flattened)', Code.DROPPED)
        self._register_scope(inner)
        static = model.find('static') if included is None else included.static
        if not inner.links and not inner.models and not (
                static is not None and read_bool(self.v, static, entity, '<static>',
                                                 static.text, False)):
            self.v.error(elem, entity, 'has no <link> (only static models may have none)',
                         Code.NO_LINKS)
