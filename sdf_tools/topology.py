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
The shape of the joint graph: the one walk every reader, writer and solver uses.

Links are nodes and joints are edges from a parent link to a child link. URDF and RobCoGen
make a tree of them, SDFormat a forest whose trees may hang from ``world`` (the model frame
when no link has that name). A link may be the child of several joints in SDFormat (a
parallel linkage): the first of them in document order is its *tree joint*, the others
*loop joints*, which close kinematic loops and which the walk leaves out.

:class:`Topology` is computed once per robot (:attr:`sdf_tools.model.Robot.index`);
:func:`find_cycles` is the one cycle finder, for links that are their own ancestors and for
mimic joints that follow themselves; the messages about both are written here once.

Joints are any objects with ``name``, ``parent`` and ``child`` attributes (the model's
:class:`~sdf_tools.model.Joint`); this module imports nothing of the package but the
diagnostics.
"""

from typing import Any
from typing import Callable
from typing import Generic
from typing import Hashable
from typing import Iterable
from typing import Protocol
from typing import Sequence
from typing import TypeVar

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation

#: The frame a joint's parent can name without a link of that name: the model (SDFormat) or
#: the fixed world (the ``world`` link of URDF convention).
WORLD = 'world'

_Node = TypeVar('_Node', bound=Hashable)


class Link(Protocol):
    """What the walk needs of a link (the model's :class:`~sdf_tools.model.Link`)."""

    @property
    def name(self) -> str: ...  # noqa: D102

    @property
    def location(self) -> SourceLocation | None: ...  # noqa: D102


class Joint(Link, Protocol):
    """What the walk needs of a joint (the model's :class:`~sdf_tools.model.Joint`)."""

    @property
    def parent(self) -> str: ...  # noqa: D102

    @property
    def child(self) -> str: ...  # noqa: D102


_J = TypeVar('_J', bound=Joint)


def find_cycles(nodes: Iterable[_Node],
                successor: Callable[[_Node], _Node | None]) -> list[list[_Node]]:
    """
    Return the cycles of a graph in which each node has at most one successor.

    Parameters
    ----------
    nodes : iterable
        The nodes, in the order the walk starts from them (document order).
    successor : callable
        Node -> the next node, or ``None``; a node not in ``nodes`` ends the walk.

    Returns
    -------
    list of list
        Each cycle once, as the nodes in walk order starting where the walk first entered it
        (``a -> successor(a) -> ...``). Linear in the number of nodes.

    """
    nodes = list(nodes)
    known = set(nodes)
    state: dict[_Node, int] = {}  # node -> 1 while on the current path, 2 when done
    cycles: list[list[_Node]] = []
    for start in nodes:
        path: list[_Node] = []
        node: _Node | None = start
        while node in known and node not in state:
            state[node] = 1
            path.append(node)
            node = successor(node)
        if node in known and state[node] == 1:
            cycles.append(path[path.index(node):])
        for n in path:
            state[n] = 2
    return cycles


def cycle_text(names: Sequence[Any]) -> str:
    """Return a cycle as ``'a' -> 'b' -> 'a'`` (the first name again at the end)."""
    return ' -> '.join(repr(n) for n in [*names, names[0]])


def link_loop_message(links: Sequence[str]) -> str:
    """Return the message for links that are their own ancestors (parent -> child order)."""
    return ('the joints form a kinematic loop through links '
            + cycle_text([links[0], *links[:0:-1]]))


def mimic_loop_message(joints: Sequence[str]) -> str:
    """Return the message for mimic joints that follow each other around (``a`` mimics next)."""
    return 'mimic joints form a loop: ' + cycle_text(joints)


class Topology(Generic[_J]):
    """
    The tree (or forest) the joints make of the links.

    Parameters
    ----------
    links : iterable
        Links in document order: objects with ``name`` (and ``location``, for messages).
    joints : iterable
        Joints in document order: objects with ``name``, ``parent``, ``child`` (and
        ``location``).

    Attributes
    ----------
    links : frozenset of str
        The link names.
    joints : tuple
        The joints, in document order.
    parent_joint : dict
        Link -> its tree joint: the first joint in document order whose child it is (a joint
        whose parent and child are the same link is not one).
    child_joints : dict
        Link (or ``world``, or an undefined parent name) -> the tree joints whose parent it
        is, in document order.
    loop_joints : tuple
        Joints whose child already has a tree joint, in document order.
    self_joints : tuple
        Joints whose parent and child are the same link.
    roots : tuple of str
        Links that are no tree joint's child, in document order.
    order : tuple of str
        Every link reachable from a root, from ``world`` or from an undefined parent, depth
        first, children in document order: parents come before their children. Links on a
        loop of parent joints, and the links below them, are not in it.
    cycles : tuple of tuple
        Each loop of parent joints, as its links from a child to its parent and on
        (:func:`find_cycles` of the parent relation); :meth:`report_cycles` explains them.
    duplicate_links, duplicate_joints : tuple
        The second and later links and joints sharing a name.

    """

    __slots__ = ('links', 'joints', 'parent_joint', 'child_joints', 'loop_joints',
                 'self_joints', 'roots', 'order', 'cycles', 'duplicate_links',
                 'duplicate_joints')

    def __init__(self, links: Iterable[Link], joints: Iterable[_J]) -> None:
        names: set[str] = set()
        duplicate_links: list[Link] = []
        ordered: list[str] = []
        for link in links:
            if link.name in names:
                duplicate_links.append(link)
            else:
                ordered.append(link.name)
            names.add(link.name)
        self.links = frozenset(names)
        self.joints = tuple(joints)
        joint_names: set[str] = set()
        duplicate_joints: list[_J] = []
        parent_joint: dict[str, _J] = {}
        children: dict[str, list[_J]] = {}
        loop_joints: list[_J] = []
        self_joints: list[_J] = []
        for joint in self.joints:
            if joint.name in joint_names:
                duplicate_joints.append(joint)
            joint_names.add(joint.name)
            if joint.parent == joint.child:
                self_joints.append(joint)
            elif joint.child in parent_joint:
                loop_joints.append(joint)
            else:
                parent_joint[joint.child] = joint
                children.setdefault(joint.parent, []).append(joint)
        self.parent_joint = parent_joint
        self.child_joints = children
        self.loop_joints = tuple(loop_joints)
        self.self_joints = tuple(self_joints)
        self.duplicate_links = tuple(duplicate_links)
        self.duplicate_joints = tuple(duplicate_joints)
        self.roots = tuple(n for n in ordered if n not in parent_joint)
        self.order = tuple(self._walk(ordered))
        self.cycles = tuple(tuple(c) for c in find_cycles(ordered, self.parent_of))

    def parent_of(self, link: str) -> str | None:
        """Return the parent link of ``link`` through its tree joint (``None`` for a root)."""
        joint = self.parent_joint.get(link)
        return None if joint is None else joint.parent

    def _walk(self, ordered: list[str]) -> list[str]:
        children, links = self.child_joints, self.links
        order: list[str] = []
        seen: set[str] = set()
        for name in ordered:
            joint = self.parent_joint.get(name)
            if joint is not None and joint.parent in links:
                continue  # reached from its parent
            stack = [name]
            while stack:
                link = stack.pop()
                order.append(link)
                seen.add(link)
                # Only defined links, each once: a loop through an undefined link (whose
                # joints are reported) must not send the walk round it forever.
                below = children.get(link)
                if below:  # (most links have none)
                    stack += [j.child for j in reversed(below)
                              if j.child in links and j.child not in seen]
        return order

    def report(self, reporter: Reporter, *, implicit_world: bool = True,
               loops: str = 'error') -> None:
        """
        Record what is wrong with the joints, each at its joint.

        That is: names used twice, links that are not defined, a joint from a link to
        itself, second parent joints. Loops of parent joints are :meth:`report_cycles`.

        Parameters
        ----------
        reporter : Reporter
            Receives the diagnostics.
        implicit_world : bool
            Accept ``world`` as a parent that is no link (SDFormat; kinematics).
        loops : {'error', 'warn', 'quiet'}
            What a second parent joint is: an error (URDF, RobCoGen: a link has one parent),
            a warning (SDFormat parallel linkages) or nothing.

        """
        for link in self.duplicate_links:
            reporter.error(f'link name {link.name!r} is used more than once', link.location,
                           f"link '{link.name}'", Code.DUPLICATE_NAME)
        for joint in self.duplicate_joints:
            reporter.error(f'joint name {joint.name!r} is used more than once', joint.location,
                           _entity(joint), Code.DUPLICATE_NAME)
        loop_joints = set(map(id, self.loop_joints))
        for joint in self.joints:
            entity = _entity(joint)
            for role, name in (('parent', joint.parent), ('child', joint.child)):
                if name not in self.links and not (
                        role == 'parent' and name == WORLD and implicit_world):
                    reporter.error(f'{role} link {name!r} is not defined', joint.location,
                                   entity, Code.MISSING_LINK)
            if joint.parent == joint.child:
                reporter.error(f'parent and child are the same link {joint.child!r}',
                               joint.location, entity, Code.CYCLE)
            elif id(joint) in loop_joints and loops != 'quiet':
                other = self.parent_joint[joint.child]
                if loops == 'error':
                    reporter.error(f'link {joint.child!r} is already the child of joint '
                                   f'{other.name!r}; a link can have only one parent joint',
                                   joint.location, entity, Code.SEVERAL_PARENTS)
                else:
                    reporter.warn(f'closes a kinematic loop: link {joint.child!r} is already '
                                  f'the child of joint {other.name!r}; forward kinematics '
                                  f'follows {other.name!r} and leaves this joint out',
                                  joint.location, entity, Code.KINEMATIC_LOOP)

    def report_cycles(self, reporter: Reporter) -> None:
        """Record each loop of parent joints, at the joint that closes it."""
        for cycle in self.cycles:
            joint = self.parent_joint[cycle[0]]
            reporter.error(link_loop_message(cycle), joint.location, _entity(joint), Code.CYCLE)


def _entity(joint: Joint) -> str:
    return f"joint '{joint.name}'"
