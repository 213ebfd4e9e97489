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
The converter's working copy of the kinematic tree, which fixed-joint lumping edits.

libsdformat edits urdfdom's ``urdf::Model`` in place; here the frozen
:class:`~sdf_tools.model.Robot` stays untouched and each conversion builds a :class:`Tree` of
mutable :class:`Link`, :class:`Joint` and :class:`Part` (a visual or collision) records that
point at their model originals. Lumping (:mod:`.lumping`) moves parts, mass and extensions
between them and re-parents joints; the decisions (:mod:`.decide_links`, :mod:`.decide_joints`)
read the result.

The names libsdformat gives visuals and collisions (:func:`part_name`) live here too: lumping
records them before it moves a part, the decisions use them after.
"""

from typing import TYPE_CHECKING

from sdf_tools.convert.mimic_movers import mimic_movers
from sdf_tools.model import JointType
from sdf_tools.model import Robot
from sdf_tools.topology import WORLD

if TYPE_CHECKING:   # (gazebo_ext imports this module)
    from typing import TypeGuard

    from sdf_tools.convert.gazebo_ext import Extension
    from sdf_tools.convert.mimic_movers import Mover
    from sdf_tools.inertia import Body
    from sdf_tools.model import Collision
    from sdf_tools.model import Joint as UrdfJoint
    from sdf_tools.model import Link as UrdfLink
    from sdf_tools.model import Pose
    from sdf_tools.model import Visual

#: What libsdformat puts between a link name and the name of a part lumped into it.
LUMP = '_fixed_joint_lump__'


def part_name(name: str, link_name: str, index: int, kind: str) -> str:
    """
    Return libsdformat's SDF name for the ``index``-th visual or collision of a link.

    Parameters
    ----------
    name : str
        The part's own name (``''`` when unnamed: the name of the link it came from).
    link_name : str
        The link that holds it.
    index : int
        Its position among the link's visuals (or collisions).
    kind : str
        ``'visual'`` or ``'collision'``.

    """
    base = f'{name or link_name}_{kind}'
    if index:
        base = f'{base}_{index}'
    return base if base.startswith(link_name) else link_name + LUMP + base


class Part:
    """
    A visual or collision on its way through lumping.

    ``origin`` is its pose in the link that holds it now (m, quaternion); ``source_link`` the
    link it was written in, and ``unlumped_name`` its SDF name there (what contact sensors of
    that link name it by).
    """

    __slots__ = ('model', 'name', 'origin', 'source_link', 'index', 'kind')

    def __init__(self, model: 'Visual | Collision', source_link: str, index: int,
                 kind: str) -> None:
        self.model = model
        self.name: str = model.name or ''
        self.origin: Pose = model.origin
        self.source_link = source_link
        self.index = index  # among the visuals (or collisions) of source_link
        self.kind = kind

    @property
    def unlumped_name(self) -> str:
        """Return its SDF name in ``source_link`` (made when asked: few parts need it)."""
        return part_name(self.name, self.source_link, self.index, self.kind)


class Link:
    """
    A link on its way through lumping.

    ``mass`` is ``(mass, com, quat, inertia)`` in link coordinates as :mod:`sdf_tools.inertia`
    takes it, or ``None`` without ``<inertial>``. ``extensions`` are the ``<gazebo>`` blocks
    whose content goes into this link (lumping moves a merged link's blocks to its kept
    ancestor). ``lumped`` is set when the link is merged into an ancestor.
    """

    __slots__ = ('model', 'name', 'mass', 'visuals', 'collisions', 'parent_joint',
                 'children', 'extensions', 'lumped')

    def __init__(self, model: 'UrdfLink', extensions: list['Extension']) -> None:
        self.model = model
        self.name = model.name
        inertial = model.inertial
        self.mass: Body | None = None
        if inertial is not None:
            self.mass = (inertial.mass, inertial.origin.xyz, inertial.origin.quat,
                         (inertial.ixx, inertial.ixy, inertial.ixz,
                          inertial.iyy, inertial.iyz, inertial.izz))
        self.visuals = [Part(v, model.name, i, 'visual') for i, v in enumerate(model.visuals)]
        self.collisions = [Part(c, model.name, i, 'collision')
                           for i, c in enumerate(model.collisions)]
        self.parent_joint: Joint | None = None
        self.children: list[Joint] = []
        self.extensions = extensions
        self.lumped = False


class Joint:
    """
    A joint on its way through lumping (its parent and origin change when re-parented).

    ``reducible``: a fixed joint that lumping may merge. ``lumping_disabled``: named by a
    ``<disableFixedJointLumping>`` (and no ``<preserveFixedJoint>``), so a fixed joint is
    written as a revolute joint locked at 0. ``extensions``: the ``<gazebo>`` blocks that
    reference it. ``sdf_name``: its name in the output (:mod:`.naming` may change it).
    """

    __slots__ = ('model', 'name', 'parent', 'child', 'origin', 'reducible', 'lumping_disabled',
                 'extensions', 'sdf_name')

    def __init__(self, model: 'UrdfJoint', reducible: bool, lumping_disabled: bool,
                 extensions: list['Extension']) -> None:
        self.model = model
        self.name = model.name
        self.parent = model.parent
        self.child = model.child
        self.origin = model.origin
        self.reducible = reducible
        self.lumping_disabled = lumping_disabled
        self.extensions = extensions
        self.sdf_name = model.name


def is_merged(joint: Joint | None) -> 'TypeGuard[Joint]':
    """Return whether ``joint`` disappears into its parent link (a fixed joint to world stays)."""
    return joint is not None and joint.reducible and joint.parent != WORLD


class Tree:
    """
    The working links and joints of one conversion, by name, and the root link.

    Children are in joint-name byte order, as :attr:`sdf_tools.model.RobotIndex.child_joints`
    gives them (libsdformat's order). ``mimic_movers``: what moves the mimic joints in the
    simulator (:func:`~.mimic_movers.mimic_movers`; empty without mimic joints).
    """

    __slots__ = ('links', 'joints', 'root', 'mimic_movers')

    def __init__(self, robot: Robot, extensions: list['Extension'],
                 preserve_fixed_joints: bool) -> None:
        """
        Build the tree of ``robot`` with the ``<gazebo>`` blocks that configure it.

        Parameters
        ----------
        robot : Robot
            The URDF model.
        extensions : list of Extension
            Every ``<gazebo>`` block, in document order.
        preserve_fixed_joints : bool
            Keep every fixed joint (:class:`~.urdf_to_sdf.ConversionOptions`).

        """
        preserve = {e.ref for e in extensions if e.preserve}
        disable = {e.ref for e in extensions if e.disable_lumping} - preserve
        by_ref: dict[str, list[Extension]] = {}
        for ext in extensions:
            if ext.ref:
                by_ref.setdefault(ext.ref, []).append(ext)
        self.links = {link.name: Link(link, list(by_ref.get(link.name, ())))
                      for link in robot.links}
        self.joints: dict[str, Joint] = {}
        for joint in robot.joints:
            reducible = (joint.kind is JointType.FIXED and not preserve_fixed_joints
                         and joint.name not in preserve and joint.name not in disable)
            self.joints[joint.name] = Joint(joint, reducible, joint.name in disable,
                                            list(by_ref.get(joint.name, ())))
        for name, joints in robot.index.child_joints.items():
            if name in self.links:
                self.links[name].children = [self.joints[j.name] for j in joints]
        for working in self.joints.values():
            if working.child in self.links:
                self.links[working.child].parent_joint = working
        self.root = self.links[robot.index.roots[0]]
        self.mimic_movers: dict[str, Mover] = mimic_movers(robot) if any(
            joint.mimic is not None for joint in robot.joints) else {}

    def preorder(self, top: Link) -> list[Link]:
        """Return every link below ``top`` (inclusive), depth first, children in order."""
        links = self.links
        order = []
        stack = [top]
        while stack:
            link = stack.pop()
            order.append(link)
            if link.children:  # (most links have none)
                stack += [links[j.child] for j in reversed(link.children)]
        return order

    def is_world_root(self, link: Link) -> bool:
        """Return whether ``link`` is a ``world`` root: the surroundings, not a model link."""
        return link is self.root and link.name == WORLD

    def kept_links(self) -> list[Link]:
        """Return the links the output has: not lumped, and not a ``world`` root."""
        return [link for link in self.links.values()
                if not link.lumped and not self.is_world_root(link)]
