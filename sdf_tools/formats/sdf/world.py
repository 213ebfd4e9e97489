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
The frames of an SDFormat world: its models, its ``<frame>`` s and the implicit ``world``.

A world is checked and resolved the way libsdformat builds its world graphs, model by model
(each read by the model walk, :mod:`.reader`) and then as a whole (:class:`WorldGraph`):

* model names are unique in a world; a ``<frame>`` that takes a model's name is renamed
  ``NAME_frame`` with a warning, as libsdformat 12 and 13 do (from SDFormat 1.7 on a
  ``loader-refuses`` warning: libsdformat 14 refuses it), nor may it take another frame's;
* a frame is attached to ``world`` by default, else to what ``attached_to`` names: a
  model, another world frame, or a frame inside a model (``model::link``); its ``<pose>``
  is relative to that, or to its ``relative_to``;
* a model's ``<pose>`` is relative to ``world``, or to its ``relative_to`` (a model, a
  world frame, a frame inside a model); with a ``placement_frame`` it places that frame;
* names that name nothing, and cycles (in ``attached_to`` chains or ``relative_to``
  chains), are errors at their line.

The result (:class:`~sdf_tools.worlds.World`) has every model's frame and every world frame in
the world frame. What a document holds outside its worlds is checked as libsdformat's
``Root::Load`` does (:func:`check_root_content`), and the model asked for is taken from all
(:func:`select_model`).
"""

from collections.abc import Callable
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sdf_tools.describe import world_line
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.content import check_values
from sdf_tools.model import IDENTITY
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.topology import cycle_text
from sdf_tools.topology import find_cycles
from sdf_tools.topology import WORLD
from sdf_tools.worlds import World
from sdf_tools.worlds import WorldFrame
from sdf_tools.xmlio.parse import ValueReader

if TYPE_CHECKING:  # read by the model walk, which imports them
    from lxml import etree

    from sdf_tools.formats.sdf.elements import ElementReader
    from sdf_tools.formats.sdf.frames import FrameGraph
    from sdf_tools.formats.sdf.include import Included

    #: ``include(elem, entity)``: what an ``<include>`` brings in, or ``None``.
    IncludeFn = Callable[[etree._Element, str | None], Included | None]
    #: ``read_model(elem, included, placed)``: the model walk.
    ReadModel = Callable[[etree._Element, Included | None, bool], 'PlacedModel']

# What an <sdf> may hold one of, and only one kind of, outside a world (libsdformat's order).
_ROOT_ALONE = ('model', 'light', 'actor')
_ONE_ALONE = ('outside a <world>, SDFormat allows one model, light or actor (libsdformat '
              'refuses the file)')

_MODEL_FRAME = '__model__'


@record(slots=True, eq=False)
class PlacedModel:
    """A model read by the model walk, with what places it in its world."""

    robot: Robot          # its origin is the model frame in its relative_to frame
    graph: 'FrameGraph'   # the model's (for names inside it, model::link)
    rel_text: str | None  # its <pose> relative_to as written
    pose_elem: 'etree._Element | None'  # that <pose>, for messages
    elem: 'etree._Element'  # the <model> or <include>, for messages


@record(slots=True, eq=False)
class _Node:
    """A world-level frame: a model or a ``<frame>``."""

    kind: str                     # 'model' or 'frame'
    name: str
    elem: 'etree._Element'
    pose: Pose = IDENTITY         # in its relative_to frame
    rel_text: str | None = None   # //pose/@relative_to as written
    pose_elem: 'etree._Element | None' = None  # that <pose>
    attach_text: str | None = None  # frames: //frame/@attached_to as written
    rel: str | None = None        # key of the relative_to frame (None: unresolved)
    attach: str | None = None     # frames: key of what it is attached to
    model: PlacedModel | None = None


class WorldGraph:
    """
    Checks a world's names and frames and places its models (module docstring).

    Add its models (:meth:`add_model`) and frames (:meth:`add_frame`) in document order,
    then call :meth:`world`.

    Parameters
    ----------
    values : ValueReader
        Records the problems, at their lines.
    name : str or None
        The world's name (``None``: a file's top level, where models are not placed).
    elem : lxml element
        The ``<world>`` (or the ``<sdf>``).
    version : tuple
        The document's SDFormat version.

    """

    __slots__ = ('v', 'name', 'elem', 'version', 'entity', '_nodes', '_frames', '_lights',
                 '_actors', '_world', '_scoped_keys')

    def __init__(self, values: ValueReader, name: str | None, elem: 'etree._Element',
                 version: tuple[int, int]) -> None:
        self.v = values
        self.name = name
        self.elem = elem
        self.version = version
        self.entity = f"world '{name}'" if name is not None else None
        self._nodes: dict[str, _Node] = {}
        self._frames: list[_Node] = []       # as written, before their names are checked
        self._scoped_keys: dict[str, None] = {}  # model::frame names referred to, in order
        self._lights: list[str] = []
        self._actors: list[str] = []
        self._world: dict[str, Pose | None] = {WORLD: IDENTITY}   # memo: key -> X_W_key

    def add_model(self, placed: PlacedModel) -> None:
        """Add a model (read, or included) in document order."""
        name = placed.robot.name
        if name in self._nodes:
            self.v.error(placed.elem, f"model '{name}'", f'model name {name!r} is used more '
                         f'than once in {self._where()}', Code.DUPLICATE_NAME)
            return
        self._nodes[name] = _Node('model', name, placed.elem, placed.robot.origin or IDENTITY,
                                  placed.rel_text, placed.pose_elem, model=placed)

    def add_other(self, kind: str, name: str) -> None:
        """Add a light or an actor (by name: sdf_tools does not model them)."""
        (self._lights if kind == 'light' else self._actors).append(name)

    def add_frame(self, elem: 'etree._Element', elements: 'ElementReader') -> None:
        """Add a world ``<frame>``; ``elements`` (an ElementReader) reads its ``<pose>``."""
        v = self.v
        name = v.required_attr(elem, '<frame>', 'name')
        if name is None:
            return
        name = sdf_names.as_read(name)
        entity = f"frame '{name}'"
        problem = sdf_names.name_problem(name, version=self.version)
        if problem is not None:
            v.error(elem, entity, problem,
                    Code.RESERVED_NAME if sdf_names.is_reserved(name) else Code.BAD_NAME)
            return
        poses = [c for c in elem if c.tag == 'pose']
        if len(poses) > 1:
            v.error(poses[1], entity, 'has more than one <pose>', Code.REPEATED_ELEMENT)
        pose, rel = elements.pose(poses[0], entity) if poses else (IDENTITY, None)
        attached = (elem.get('attached_to') or '').strip() or None
        self._frames.append(_Node('frame', name, elem, pose, rel, poses[0] if poses else None,
                                  attached))

    # --- resolving ------------------------------------------------------------------------

    def world(self) -> World:
        """Check the names and graphs; return the world with everything in its frame."""
        if self.name is None:   # a file's top level: its models are not placed anywhere
            return World(None, tuple(_placed(n).robot for n in self._nodes.values()), (),
                         tuple(self._lights), tuple(self._actors), self.v.loc(self.elem))
        for node in self._frames:
            self._add_frame_node(node)
        for node in self._nodes.values():
            self._edges(node)
        self._report_cycles()
        models, frames = [], []
        for node in self._nodes.values():
            pose = self.in_world(node.name)
            if node.kind == 'model':
                robot = _placed(node).robot
                placed = pose is not None and node.rel != WORLD
                models.append(replace(robot, origin=pose) if placed else robot)
            else:
                frames.append(WorldFrame(node.name, node.attach or WORLD, pose,
                                         self.v.loc(node.elem)))
        return World(self.name, tuple(models), tuple(frames), tuple(self._lights),
                     tuple(self._actors), self.v.loc(self.elem))

    def _where(self) -> str:
        return f'world {self.name!r}' if self.name is not None else 'the file'

    def _add_frame_node(self, node: _Node) -> None:
        v = self.v
        name, elem = node.name, node.elem
        other = self._nodes.get(name)
        if other is not None:
            entity = f"frame '{name}'"
            if other.kind == 'frame':
                v.error(elem, entity, f'frame name {name!r} is used more than once in '
                        f'{self._where()}', Code.DUPLICATE_NAME)
                return
            new = name + '_frame'
            i = 0
            while new in self._nodes:
                new = f'{name}_frame{i}'
                i += 1
            renamed = f'has the same name as a model of {self._where()}; renamed to {new!r}'
            if self.version >= (1, 7):   # libsdformat 12 and 13 rename it too; 14 refuses
                v.warn(elem, entity, f'{renamed}, as libsdformat 12 and 13 do; libsdformat 14 '
                       'and later refuse it (Gazebo Harmonic loads nothing): world frames and '
                       'models need distinct names', Code.LOADER_REFUSES)
            else:
                v.warn(elem, entity, f'{renamed}, as libsdformat does for SDFormat 1.6 and '
                       'older', Code.RENAMED)
            node.name = new
        self._nodes[node.name] = node

    def _edges(self, node: _Node) -> None:
        """Resolve a node's attached_to and relative_to names."""
        entity = f"{node.kind} '{node.name}'"
        if node.kind == 'frame':
            node.attach = WORLD
            if node.attach_text is not None:
                node.attach = self._ref(node.attach_text, node.elem, entity, 'attached_to')
                if node.attach == node.name:
                    self.v.error(node.elem, entity, 'the attached_to chain forms a cycle: '
                                 f'{node.name!r} -> {node.name!r}', Code.CYCLE)
                    node.attach = None
            if node.rel_text is None:
                node.rel = node.attach
                return
        if node.rel_text is None:
            node.rel = WORLD
            return
        assert node.pose_elem is not None  # relative_to is read from it
        node.rel = self._ref(node.rel_text, node.pose_elem, entity, '<pose> relative_to')
        if node.rel == node.name:
            self.v.error(node.pose_elem, entity, '<pose> is relative to itself', Code.CYCLE)
            node.rel = None

    def _ref(self, text: str, elem: 'etree._Element', entity: str, what: str) -> str | None:
        """Return the key a name in the world refers to (a node, world, model::frame)."""
        text = text.strip()
        if text == WORLD or text in self._nodes:
            return text
        model, sep, rest = text.partition('::')
        node = self._nodes.get(model)
        if sep and node is not None and node.kind == 'model' and self._inside(node, rest):
            self._scoped_keys[text] = None
            return text
        self.v.error(elem, entity, f'{what} names {text!r}, which does not exist in '
                     f'{self._where()}', Code.MISSING_FRAME)
        return None

    @staticmethod
    def _inside(node: _Node, rest: str) -> bool:
        """Return whether ``rest`` names a frame of the model (``link``, ``inner::__model__``)."""
        graph = _placed(node).graph
        if rest == _MODEL_FRAME:
            return True
        if rest.endswith('::' + _MODEL_FRAME):
            found = graph.vertices.get(rest[:-len(_MODEL_FRAME) - 2])
            return found is not None and found.kind == 'model'
        return rest in graph.vertices

    def _report_cycles(self) -> None:
        v = self.v
        frames = [n for n in self._nodes.values() if n.kind == 'frame']
        for cycle in find_cycles([n.name for n in frames], self._attached):
            first = self._nodes[cycle[0]]
            v.error(first.elem, f"frame '{first.name}'", 'the attached_to chain forms a cycle: '
                    + cycle_text(cycle), Code.CYCLE)
        for cycle in find_cycles([*self._nodes, *self._scoped_keys], self._parent):
            first = next(self._nodes[k] for k in cycle if k in self._nodes)
            v.error(first.pose_elem if first.pose_elem is not None else first.elem,
                    f"{first.kind} '{first.name}'", 'the poses form a cycle: '
                    + cycle_text(cycle), Code.CYCLE)
            for key in cycle:
                self._world[key] = None

    def _attached(self, key: str) -> str | None:
        node = self._nodes.get(key)
        return None if node is None or node.kind != 'frame' else node.attach

    def _parent(self, key: str) -> str | None:
        node = self._nodes.get(key)
        if node is None:   # model::frame: placed by its model
            return key.partition('::')[0] if key in self._scoped_keys else None
        return node.rel

    def in_world(self, key: str) -> Pose | None:
        """
        Return ``X_W_key``, a world-level frame's pose in the world (``None``: unresolved).

        A loop, not a recursion, however long the chain of relative_to names (a
        ``model::frame`` is placed by its model, then by its pose in the model).
        """
        memo = self._world
        path = []
        while key not in memo:
            path.append(key)
            node = self._nodes.get(key)
            if node is None:   # model::frame (a scoped key): its model first
                key = key.partition('::')[0]
                continue
            if node.rel is None:
                memo[key] = None
                break
            key = node.rel
        pose = memo[key]
        for k in reversed(path):
            if k not in memo:
                node = self._nodes.get(k)
                if node is None:
                    pose = self._scoped(k, pose)
                else:
                    pose = None if pose is None else pose.compose(node.pose)
                memo[k] = pose
            else:
                pose = memo[k]
        return pose

    def _scoped(self, key: str, x_wm: Pose | None) -> Pose | None:
        """Return the pose of ``model::frame`` in the world from ``X_W_model``."""
        model, _, rest = key.partition('::')
        graph = _placed(self._nodes[model]).graph
        if rest == _MODEL_FRAME:
            return x_wm
        if rest.endswith('::' + _MODEL_FRAME):
            rest = rest[:-len(_MODEL_FRAME) - 2]
        if x_wm is None or not graph.has_pose(rest):
            return None
        return x_wm.compose(graph.in_model(rest))


def _placed(node: _Node) -> PlacedModel:
    """Return the model of a model node (every one has it)."""
    if node.model is None:
        raise ValueError(f'{node.kind} {node.name!r} holds no model')
    return node.model


@record(frozen=True, eq=False)
class SdfDocument:
    """
    What an SDFormat document holds, read whole.

    Attributes
    ----------
    robot : Robot or None
        The model asked for, or the only one; ``None`` when there is none or several and
        none was asked for (``problem`` says which).
    worlds : tuple of World
        Its worlds in document order (models, frames, lights); a file's top level, when it
        holds a model, light or actor or nothing at all, is one more, named ``None``.
    warnings : tuple of Diagnostic
        The document's warnings (also on ``robot``).
    problem : Diagnostic or None
        Why ``robot`` is ``None``.
    files : tuple of str
        The files its ``<include>`` s read, and the meshes its ``<inertial auto="true">`` s
        weighed, each once, in the order first read (no output may overwrite one:
        :func:`~sdf_tools.outputs.check_outputs`).

    """

    robot: Robot | None
    worlds: tuple[World, ...] = ()
    warnings: tuple[Diagnostic, ...] = ()
    problem: Diagnostic | None = None
    files: tuple[str, ...] = ()

    def required_robot(self) -> Robot:
        """Return ``robot``, or raise :class:`DescriptionError` with ``problem`` (no robot)."""
        if self.robot is None:
            raise DescriptionError(self.problem or Diagnostic('the document holds no <model>',
                                                              code=Code.NO_MODEL))
        return self.robot


def check_root_content(v: ValueReader, root: 'etree._Element') -> None:
    """
    Report a second model, light or actor outside a world, as libsdformat's Root::Load does.

    A second element of the first kind (of model, light, actor) is an error at it ("Root
    object can only contain one model"), and so is the first element of each other kind
    ("Skipping this light"). A second model of the first one's name is left to the name
    check, as libsdformat only says that the name is taken.
    """
    found: dict[str, list[etree._Element]] = {}   # kind -> its first two elements
    for child in root:
        if child.tag in _ROOT_ALONE and len(found.setdefault(child.tag, [])) < 2:
            found[child.tag].append(child)
    if not found:
        return
    kinds = sorted(found, key=_ROOT_ALONE.index)
    alone = found[kinds[0]]
    if len(alone) > 1 and alone[1].get('name') != alone[0].get('name'):
        v.error(alone[1], None, f'the <sdf> element holds more than one <{kinds[0]}>: '
                f'{_ONE_ALONE}', Code.INVALID)
    for kind in kinds[1:]:
        v.error(found[kind][0], None, f'the <sdf> element holds both <{kinds[0]}> and '
                f'<{kind}>: {_ONE_ALONE}', Code.INVALID)


def select_model(worlds: Iterable[World], wanted: str | None,
                 at: SourceLocation) -> tuple[Robot, None] | tuple[None, Diagnostic]:
    """
    Return ``(robot, None)``: the model named ``wanted``, or the only one; else ``(None, why)``.

    ``why`` is a :class:`~sdf_tools.errors.Diagnostic` at ``at`` (the document): no model, or
    several and none asked for, or none of that name.
    """
    candidates = [robot for world in worlds for robot in world.models]
    names = ', '.join(repr(robot.name) for robot in candidates)
    if wanted is None:
        if not candidates:
            held = '; '.join(world_line(world) for world in worlds)
            return None, Diagnostic('the document holds no <model>'
                                    + (f' ({held})' if held else ''), at, code=Code.NO_MODEL)
        if len(candidates) > 1:
            return None, Diagnostic(f'the document holds {len(candidates)} models ({names}); '
                                    'choose one by name', at, code=Code.AMBIGUOUS_MODEL)
        return candidates[0], None
    matches = [robot for robot in candidates if robot.name == wanted]
    if not matches:
        shown = f'it holds {names}' if candidates else 'it holds none'
        return None, Diagnostic(f'the document has no model named {wanted!r}; {shown}', at,
                                code=Code.NO_MODEL)
    if len(matches) > 1:
        return None, Diagnostic(f'the document holds {len(matches)} models named {wanted!r}',
                                matches[1].location, code=Code.AMBIGUOUS_MODEL)
    return matches[0], None


# --- the walk ----------------------------------------------------------------------------------


def read_worlds(v: ValueReader, root: 'etree._Element', version: tuple[int, int],
                elements: 'ElementReader', include: 'IncludeFn',
                read_model: 'ReadModel') -> list[World]:
    """
    Read the worlds of an ``<sdf>`` element, and its top-level content as one more.

    Parameters
    ----------
    v : ValueReader
        Records the problems.
    root : lxml element
        The ``<sdf>``.
    version : tuple
        Its version.
    elements : ElementReader
        Reads the world frames' poses.
    include : callable
        ``include(elem, entity) -> Included or None``: what an ``<include>`` brings in.
    read_model : callable
        ``read_model(elem, included, placed) -> PlacedModel``: the model walk; ``placed``
        when the model is in a world (which resolves its ``relative_to``).

    Returns
    -------
    list of World
        The top level first when it holds a model, light or actor (or nothing at all), then
        the worlds in document order.

    """
    worlds: list[World] = []
    top = WorldGraph(v, None, root, version)
    content = False
    for child in root:
        if child.tag == 'world':
            world = _read_world(v, child, version, elements, include, read_model)
            if any(world.name == other.name for other in worlds):
                v.error(child, f"world '{world.name}'", f'world name {world.name!r} is used '
                        'more than once in the file', Code.DUPLICATE_NAME)
            worlds.append(world)
        elif child.tag in _CONTENT:
            content = True
            _add(top, child, None, include, read_model)
    if content or not worlds:
        worlds.insert(0, top.world())
    return worlds


# What a file's top level or a world holds that sdf_tools reads (a world also its frames).
_CONTENT = ('model', 'include', 'light', 'actor')


def _read_world(v: ValueReader, elem: 'etree._Element', version: tuple[int, int],
                elements: 'ElementReader', include: 'IncludeFn',
                read_model: 'ReadModel') -> World:
    name = sdf_names.as_read(v.required_attr(elem, '<world>', 'name') or '')
    if elem.get('name') is not None and (not name or sdf_names.is_reserved(name)):
        v.error(elem, f"world '{name}'", f'the world name {name!r} is '
                f"{'empty' if not name else 'reserved in SDFormat'}", Code.RESERVED_NAME)
    graph = WorldGraph(v, name, elem, version)
    for child in elem:
        if child.tag == 'frame':
            graph.add_frame(child, elements)
        elif child.tag in _CONTENT:
            _add(graph, child, graph.entity, include, read_model)
        elif isinstance(child.tag, str):   # <gravity>, <physics>, <scene>, ...: read as
            check_values(v, 'world', child, graph.entity, version)   # libsdformat reads them
    return graph.world()


def _add(graph: WorldGraph, child: 'etree._Element', entity: str | None, include: 'IncludeFn',
         read_model: 'ReadModel') -> None:
    """Add a model, include, light or actor to a world (or to a file's top level)."""
    placed = graph.name is not None
    if child.tag == 'model':
        graph.add_model(read_model(child, None, placed))
    elif child.tag == 'include':
        included = include(child, entity)
        if included is None:
            return
        if included.kind == 'model':
            graph.add_model(read_model(included.elem, included, placed))
        else:
            _add_other(graph, included.kind, included.name, included.elem)
    else:
        _add_other(graph, child.tag, sdf_names.as_read(child.get('name') or ''), child)


def _add_other(graph: WorldGraph, kind: str, name: str, elem: 'etree._Element') -> None:
    """Add a light or an actor; a light's colours and numbers are checked (:mod:`.content`)."""
    if kind == 'light':
        for part in elem:
            if isinstance(part.tag, str):
                check_values(graph.v, 'light', part, f"light '{name}'", graph.version)
    graph.add_other(kind, name)
