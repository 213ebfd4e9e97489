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
The frames of one SDFormat model: where each one is, and which link it moves with.

Every link, joint, ``<frame>`` and nested model of a model is a frame, a :class:`Vertex`
named by its scoped key (``link``, ``inner::link``); the model frame itself is
:data:`MODEL_FRAME`. Two graphs join them, and :class:`FrameGraph` holds both:

* the **pose graph**: a vertex's ``<pose>`` is written in one other frame, its
  ``relative_to``, or by default the frame its kind implies (the child link for a joint,
  ``attached_to`` for a frame, the enclosing model for links and nested models).
  :meth:`FrameGraph.relative` composes the edges into the pose of any frame in any other
  (``X_B_A``), :meth:`FrameGraph.in_model` into the pose in the model frame;
* the **attachment graph**: a frame is attached to one other (a ``<frame>`` to its
  ``attached_to``, a joint to its child, a nested model to its canonical link, the model
  frame to the model's canonical link) and so on until a link, the *body* the frame moves
  with (:meth:`FrameGraph.body`).

A model merged into another (``<include merge="true">``) is a :class:`Scope` too, whose
names are those of the model it joins (:attr:`Scope.merged_into`), and whose frame is the
``<frame>`` libsdformat adds for it (``_merged__NAME__model__``, attached to its canonical
link): in its content, ``__model__`` is that frame, and a name refers only to the merged
model's own frames, as libsdformat checks the model before merging it.

A cycle in either graph is an error (found by :func:`~sdf_tools.topology.find_cycles`,
reported at the first frame of the cycle in document order); frames on or behind a cycle
have no pose and no body. Names written in the document are resolved in the scope of the
model that holds them (:meth:`FrameGraph.ref`).
"""

from collections.abc import Iterator
from typing import Any

from sdf_tools.errors import Code
from sdf_tools.model import IDENTITY
from sdf_tools.model import Pose
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.topology import cycle_text
from sdf_tools.topology import find_cycles
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.node import Node
from sdf_tools.xmlio.parse import ValueReader

#: Name of the implicit model frame.
MODEL_FRAME = '__model__'

# Poses of frames at most this many pose-graph edges apart are composed along the path
# between them (exact for the usual pose relative to a nearby frame); farther ones through
# the memoised model-frame poses, so that long relative_to chains resolve in linear time.
_SHORT_PATH = 32


@record(slots=True, eq=False)
class Scope:
    """A model scope: the top-level model or a nested one."""

    key: str                   # its frame: MODEL_FRAME for the top model, else scoped name
    prefix: str                # '' or 'outer::inner::'
    name: str                  # the model's name, for messages
    elem: Any                  # the <model> (lxml)
    depth: int
    links: list = field(default_factory=list)     # link keys, document order
    models: list = field(default_factory=list)    # nested model keys, document order
    canonical: str | None = None                  # resolved canonical link key
    placement_elem: Any = None    # an <include>'s <placement_frame>, which replaces the model's
    version: tuple | None = None  # its file's SDFormat version (None: the document's)
    merged_into: Any = None       # a merged model's content: the Scope whose names it joins


def owners(scope: Scope) -> Iterator[Scope]:
    """Yield a scope, then the scopes it is merged into."""
    at = scope
    while at is not None:
        yield at
        at = at.merged_into


def home(scope: Scope) -> Scope:
    """Return the scope whose names a scope's names are: itself, or the one it is merged into."""
    return list(owners(scope))[-1]


def add_member(scope: Scope, kind: str, key: str) -> None:
    """Add a link or nested model (``kind``) to a scope and to those it is merged into."""
    for owner in owners(scope):
        (owner.links if kind == 'link' else owner.models).append(key)


@record(slots=True, eq=False)
class Vertex:
    """
    A frame of the model: a link, joint, frame or nested model (``kind``).

    ``data`` is what the element reader made of its element: a
    :class:`~sdf_tools.formats.sdf.elements.LinkSpec` or
    :class:`~sdf_tools.formats.sdf.joints.JointSpec` (``None`` for a joint it could not
    read, and for frames and nested models). A nested model's vertex opens its scope
    (``inner``); so does the ``<frame>`` of a merged model, whose element is the
    ``<include>``.
    """

    key: str
    kind: str
    name: str
    elem: Any                       # its element (lxml)
    scope: Scope
    pose: Pose = IDENTITY
    rel_text: str | None = None    # //pose/@relative_to as written
    pose_elem: Any = None
    attach_text: str | None = None  # //frame/@attached_to
    inner: Scope | None = None      # for nested and merged models: the scope they open
    data: Any = None                # LinkSpec or JointSpec

    @property
    def entity(self) -> str:
        """Return how messages name the vertex, e.g. ``link 'inner::base'``."""
        return f"{self.kind} '{self.key}'"


class FrameGraph:
    """
    The pose and attachment graphs of one model, built once its vertices are read.

    Fill it with :meth:`add_scope` and :meth:`add` in document order, call :meth:`resolve`
    once, then ask :meth:`relative`, :meth:`in_model` and :meth:`body`.

    Parameters
    ----------
    values : ValueReader
        Records the problems (unknown names, cycles) with their lines.

    Attributes
    ----------
    vertices : dict
        Key -> :class:`Vertex`.
    order : list of Vertex
        Every vertex in document order, nested models flattened where they stand.
    scopes : list of Scope
        The top model first, then the nested models in document order.
    joint_links : dict
        Joint key -> ``(parent key or 'world', child key)`` as named (``None`` where the
        name does not resolve); :meth:`body` gives the links.

    """

    __slots__ = ('v', 'vertices', 'order', 'scopes', 'joint_links', '_parent', '_edge',
                 '_depth', '_model_pose', '_attach', '_body_of')

    def __init__(self, values: ValueReader):
        self.v = values
        self.vertices: dict[str, Vertex] = {}
        self.order: list[Vertex] = []
        self.scopes: list[Scope] = []
        self.joint_links: dict[str, tuple] = {}
        self._parent: dict[str, str] = {}    # pose graph: key -> relative_to key
        self._edge: dict[str, Pose] = {}     # pose graph: X_parent_key
        self._depth: dict[str, int | None] = {}  # edges to the model frame (None: no pose)
        self._model_pose: dict[str, Pose] = {}   # memo of in_model
        self._attach: dict[str, str | None] = {}  # attachment graph: key -> attached-to key
        self._body_of: dict[str, str | None] = {}  # memo of body

    def add_scope(self, scope: Scope) -> None:
        """Record a model scope (the top model first)."""
        self.scopes.append(scope)

    def add(self, vertex: Vertex) -> None:
        """Record a vertex, in document order."""
        self.vertices[vertex.key] = vertex
        self.order.append(vertex)

    def ref(self, scope: Scope, text: str, elem: Node, entity: str | None,
            what: str) -> str | None:
        """Return the vertex key a frame name in ``scope`` refers to; report if none."""
        text = text.strip()
        if text == MODEL_FRAME:
            return scope.key
        key = scope.prefix + text
        if key not in self.vertices and text.endswith('::' + MODEL_FRAME):
            # A frame named so (SDFormat 1.7 allowed '::' in names: the frames of models
            # flattened into their parent are called X::__model__), else that model's.
            key = key[:-len(MODEL_FRAME) - 2]
            found = self.vertices.get(key)
            key = key if found is not None and found.kind == 'model' else ''
        if key in self.vertices and self._owned(scope, key):
            return key
        self.v.error(elem, entity, f'{what} names {text!r}, which does not exist in model '
                     f'{scope.name!r}', Code.MISSING_FRAME)
        return None

    def _owned(self, scope: Scope, key: str) -> bool:
        """Return whether a merged model's content may name ``key`` (its own frame)."""
        if scope.merged_into is None:
            return True
        head = self.vertices.get(scope.prefix + key[len(scope.prefix):].partition('::')[0])
        return scope in owners((head or self.vertices[key]).scope)

    # --- building -----------------------------------------------------------------------

    def resolve(self) -> None:
        """Build both graphs from the vertices, check them for cycles, place nested models."""
        for scope in self.scopes:
            self._canonical(scope)
        for vertex in self.order:
            self._edges(vertex)
        self._settle_poses()
        # Placement frames need the poses inside the nested (or merged) model: innermost
        # first, and a model comes after everything inside it in document order.
        for vertex in reversed([x for x in self.order if x.inner is not None]):
            if vertex.key not in self._edge:
                continue
            x_mf = self.placement(_inner(vertex))
            if x_mf is not None:
                self._edge[vertex.key] = self._edge[vertex.key].compose(x_mf.inverse())
        self._model_pose.clear()   # poses composed before the placements moved their frames
        self._settle_bodies()

    def placement(self, scope: Scope) -> Pose | None:
        """
        Return the pose of a model's ``placement_frame`` in that model's frame.

        ``None`` when the model has none or it does not resolve (reported). The model's
        ``<pose>`` places that frame, so the model frame is at ``pose @ inv(placement)``.
        """
        at = scope.elem if scope.placement_elem is None else scope.placement_elem
        text = scope.elem.get('placement_frame') if at is scope.elem else at.text
        if not text or not text.strip():
            return None
        key = self.ref(scope, text, at, f"model '{scope.name}'", 'placement_frame')
        return self.relative(key, scope.key) if key is not None else None

    def _canonical(self, scope: Scope) -> None:
        elem = scope.elem
        text = elem.get('canonical_link')
        if text and text.strip():
            entity = f"model '{scope.name}'"
            key = self.ref(scope, text, elem, entity, 'canonical_link')
            vertex = None if key is None else self.vertices.get(key)  # None: the model frame
            if key is not None and (vertex is None or vertex.kind != 'link'):
                self.v.error(elem, entity, f'canonical_link names {text.strip()!r}, which is '
                             'not a link', Code.BAD_CANONICAL_LINK)
                key = None
            scope.canonical = key
        elif scope.links:
            scope.canonical = scope.links[0]
        elif scope.models:
            scope.canonical = scope.models[0]

    def _edges(self, vertex: Vertex) -> None:
        """Add a vertex's attachment edge and its pose edge."""
        kind = vertex.kind
        if kind == 'joint':
            if vertex.data is None:
                return
            default = self._attach[vertex.key] = self._joint_child(vertex)
        elif kind == 'frame':
            target: str | None = vertex.scope.key
            if vertex.inner is not None:   # a merged model's frame: on its canonical link
                target = vertex.inner.canonical or target
            elif vertex.attach_text is not None:
                target = self.ref(vertex.scope, vertex.attach_text, vertex.elem, vertex.entity,
                                  'attached_to')
            default = self._attach[vertex.key] = target
        elif kind == 'model':
            self._attach[vertex.key] = _inner(vertex).canonical
            default = vertex.scope.key
        else:
            default = vertex.scope.key
        if vertex.rel_text is not None:
            rel = self.ref(vertex.scope, vertex.rel_text, vertex.pose_elem, vertex.entity,
                           '<pose> relative_to')
        else:
            rel = default
        if rel is None:
            return
        if rel == vertex.key:
            if vertex.rel_text is not None:
                self.v.error(vertex.pose_elem, vertex.entity, '<pose> is relative to itself',
                             Code.CYCLE)
            return      # else attached_to names the frame itself: reported as a cycle
        self._parent[vertex.key] = rel
        self._edge[vertex.key] = vertex.pose

    def _joint_child(self, vertex: Vertex) -> str | None:
        """Resolve a joint's parent and child names (:attr:`joint_links`); return the child."""
        spec = vertex.data
        parent = child = None
        if spec.parent == WORLD:
            parent = WORLD
        elif spec.parent is not None:
            parent = self.ref(vertex.scope, spec.parent, spec.parent_elem, vertex.entity,
                              '<parent>')
        if spec.child is not None:
            child = self.ref(vertex.scope, spec.child, spec.child_elem, vertex.entity,
                             '<child>')
            if child == vertex.key:
                self.v.error(spec.child_elem, vertex.entity, '<child> names the joint itself',
                             Code.CYCLE)
                child = None
        self.joint_links[vertex.key] = (parent, child)
        return child

    def _settle_poses(self) -> None:
        """Report pose cycles; give every vertex its depth in the pose graph."""
        depth = self._depth
        depth[MODEL_FRAME] = 0
        for cycle in find_cycles((x.key for x in self.order), self._parent.get):
            first = self.vertices[cycle[0]]
            self.v.error(first.pose_elem if first.pose_elem is not None else first.elem,
                         first.entity, 'the poses form a cycle: ' + cycle_text(cycle),
                         Code.CYCLE)
            depth.update(dict.fromkeys(cycle))
        for vertex in self.order:
            path = []
            key = vertex.key
            while key not in depth and key in self._parent:
                path.append(key)
                key = self._parent[key]
            base = depth.get(key)  # None: on or behind a cycle, or no edge (reported)
            for k in reversed(path):
                base = None if base is None else base + 1
                depth[k] = base

    def _settle_bodies(self) -> None:
        """Report attachment cycles; find the body of every vertex."""
        body_of = self._body_of
        for vertex in self.order:
            if vertex.kind == 'link':
                body_of[vertex.key] = vertex.key
        for cycle in find_cycles((x.key for x in self.order), self._attached_to):
            first = self.vertices[cycle[0]]
            self.v.error(first.elem, first.entity, 'the attached_to chain forms a cycle: '
                         + cycle_text(cycle), Code.CYCLE)
            body_of.update(dict.fromkeys(cycle))
        for vertex in self.order:
            self.body(vertex.key)

    def _attached_to(self, key: str) -> str | None:
        if key == MODEL_FRAME:
            return self.scopes[0].canonical
        vertex = self.vertices.get(key)
        return None if vertex is None or vertex.kind == 'link' else self._attach.get(key)

    # --- questions ----------------------------------------------------------------------

    def has_pose(self, key: str) -> bool:
        """Return whether a frame's pose resolves (not on or behind a cycle, not dangling)."""
        return self._depth.get(key) is not None

    def relative(self, a: str, b: str) -> Pose | None:
        """Return ``X_b_a``, the pose of vertex ``a`` in vertex ``b``; ``None`` if unresolved."""
        depth, parent = self._depth, self._parent
        da, db = depth.get(a), depth.get(b)
        if da is None or db is None:
            return None
        start_a, start_b = a, b
        if abs(da - db) > _SHORT_PATH:
            return self.in_model(start_b).inverse().compose(self.in_model(start_a))
        up_a, up_b = [], []
        while da > db:
            up_a.append(a)
            a = parent[a]
            da -= 1
        while db > da:
            up_b.append(b)
            b = parent[b]
            db -= 1
        while a != b:
            if len(up_a) > _SHORT_PATH:  # a long chain: compose through the memoised poses
                return self.in_model(start_b).inverse().compose(self.in_model(start_a))
            up_a.append(a)
            up_b.append(b)
            a, b = parent[a], parent[b]
        if a == MODEL_FRAME:
            # Only the model frame is common: use the memoised model-frame poses.
            x_ma = self.in_model(start_a)
            return x_ma if not up_b else self.in_model(start_b).inverse().compose(x_ma)
        # Compose along the two short paths from their common frame: exact for the usual
        # case of a pose written relative to the frame it is compared with.
        x_ca = IDENTITY
        for key in reversed(up_a):
            x_ca = x_ca.compose(self._edge[key])
        if not up_b:
            return x_ca
        x_cb = IDENTITY
        for key in reversed(up_b):
            x_cb = x_cb.compose(self._edge[key])
        return x_cb.inverse().compose(x_ca)

    def in_model(self, key: str) -> Pose:
        """Return the pose of a resolvable vertex in the top model frame (memoised)."""
        memo = self._model_pose
        path = []
        while key != MODEL_FRAME and key not in memo:
            path.append(key)
            key = self._parent[key]
        pose = memo.get(key, IDENTITY)
        for k in reversed(path):
            pose = pose.compose(self._edge[k])
            memo[k] = pose
        return pose

    def attached_to(self, key: str) -> str | None:
        """Return the frame a vertex is attached to, as named (``None``: not resolved)."""
        return self._attach.get(key)

    def on_static_frame(self, key: str) -> bool:
        """
        Return whether a vertex is attached, through frames, to the frame of a model without links.

        Such a model is static (or holds only models that are): its frame, and what is
        attached to it, are fixed in the top model frame.
        """
        seen = set()
        at: str | None = key
        while at is not None and at not in seen:
            seen.add(at)
            if at == MODEL_FRAME:
                return self.scopes[0].canonical is None
            vertex = self.vertices.get(at)
            if vertex is None or vertex.kind == 'link':
                return False
            if vertex.kind == 'model' and _inner(vertex).canonical is None:
                return True
            at = self._attach.get(at)
        return False

    def body(self, key: str) -> str | None:
        """Return the link a vertex is attached to (``None``: none, reported)."""
        body_of = self._body_of
        path = []
        at: str | None = key
        while at is not None and at not in body_of:
            path.append(at)
            at = self._attached_to(at)
        result = None if at is None else body_of[at]
        for k in path:
            body_of[k] = result
        return result


def _inner(vertex: Vertex) -> Scope:
    """Return the scope a nested model's vertex opens (every ``model`` vertex has one)."""
    if vertex.inner is None:
        raise ValueError(f'{vertex.entity} opens no scope')
    return vertex.inner
