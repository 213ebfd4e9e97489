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
The links and fixed joints the URDF writer adds, so that the model is one URDF tree.

URDF has no frames apart from links, no joint frame apart from the child link's, no model
frame and one root; :func:`tree_additions` checks the tree and returns what stands in for
each of these (the rules are listed in :mod:`.writer`):

* ``world`` for joints to the SDFormat implicit world;
* ``model_frame`` above a root link posed in the model frame;
* ``<child>__joint_frame`` at the joint frame of a child link that is not at its joint;
* a link for each :class:`~sdf_tools.model.Frame`.

Each added link but ``world`` hangs from a fixed joint named ``<its child>__fixed``. A lossy
write first takes the model's largest tree (:func:`nearest_tree`).
"""

from sdf_tools.errors import Code
from sdf_tools.formats.urdf.report import UrdfReport
from sdf_tools.model import Joint
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.records import replace
from sdf_tools.robot_index import RobotIndex
from sdf_tools.topology import Topology
from sdf_tools.topology import WORLD

#: Name of the link added above a root link whose ``Link.pose`` is not the identity.
MODEL_FRAME_LINK = 'model_frame'
#: Suffix of the massless link added at the joint frame when ``joint_in_child`` is not the
#: identity.
JOINT_FRAME_SUFFIX = '__joint_frame'
#: Suffix of every fixed joint the writer adds: ``<its child link>__fixed``.
FIXED_SUFFIX = '__fixed'
# Why a frame of a model without links (attached to ``world``) is not written.
_IN_WORLD = ("is attached to 'world' (a frame of a static model without links); a URDF holds "
             'frames only on its links')


def tree_additions(robot: Robot, report: UrdfReport) -> tuple[list, list]:
    """
    Check the tree shape; return the links and fixed joints the writer adds.

    Parameters
    ----------
    robot : Robot
        The model to write.
    report : UrdfReport
        Receives what URDF cannot say: no root or several, loops, names already taken.

    Returns
    -------
    links : list of str
        The names of the added links (``world`` first, when it is added).
    joints : list of tuple
        ``(parent, child, X_parent_child)`` of each added fixed joint, a :class:`Pose`
        for its ``<origin>``; it is named ``child + FIXED_SUFFIX``.

    """
    index = robot.index
    added = _Added(robot, report)
    roots = _roots(robot)
    if roots and roots[0] == WORLD and WORLD not in index.links:
        added.links.append(WORLD)
    _check_roots(robot, roots, report)
    for name in roots:
        link = index.links.get(name)
        if link is None or link.pose is None or link.pose.is_identity():
            continue
        added.fixed(MODEL_FRAME_LINK, name, link.pose, new=MODEL_FRAME_LINK,
                    what='the model frame above a posed root link', entity=f"link '{name}'")
    for joint in robot.joints:
        if joint.joint_in_child.is_identity():
            continue
        middle = joint.child + JOINT_FRAME_SUFFIX
        added.fixed(middle, joint.child, joint.joint_in_child.inverse(), new=middle,
                    what='the joint frame of a child link not at the joint',
                    entity=f"joint '{joint.name}'")
    for frame in robot.frames:
        entity = f"frame '{frame.name}'"
        if frame.attached_to == WORLD and WORLD not in index.links:
            report.drop(entity, _IN_WORLD, f'is left out: it {_IN_WORLD}', frame.location,
                        Code.NO_URDF_EQUIVALENT)
            continue
        if frame.attached_to not in index.links:
            report.error(entity, f'is attached to {frame.attached_to!r}, which is not a '
                         'link', frame.location, Code.MISSING_LINK)
            continue
        added.fixed(frame.attached_to, frame.name, frame.pose, new=frame.name,
                    what='the frame', entity=entity)
    return added.links, added.joints


def nearest_tree(robot: Robot, report: UrdfReport) -> Robot:
    """
    Return the largest tree of the model, reporting each part a lossy write leaves out.

    Joints that close kinematic loops are left out; of several roots (the implicit
    ``world`` is one, when joints hang from it), the one with the most links below it is
    kept, the first of them on a tie, and every other one is left out with the links,
    joints and frames below it.
    """
    index = robot.index
    for joint in index.loop_joints:
        report.drop(f"joint '{joint.name}'", '', f'is left out: it {_loop(index, joint)}',
                    joint.location, Code.KINEMATIC_LOOP)
    roots = _roots(robot)
    below = {root: _below(index.topology, root) for root in roots}
    kept = max(roots, key=lambda root: len(below[root]), default=None)
    dropped = set()
    for root in roots:
        if root == kept:
            continue
        dropped |= below[root]
        link = index.links.get(root)
        count = len(below[root]) - (link is not None)
        report.drop(f"link '{root}'", '', f'is left out with the {count} link(s) below it: a '
                    f'URDF has one root, and {kept!r} has the most links below it',
                    None if link is None else link.location, Code.SEVERAL_ROOTS)
    loops = set(map(id, index.loop_joints))
    return replace(
        robot, links=tuple(link for link in robot.links if link.name not in dropped),
        joints=tuple(j for j in robot.joints if id(j) not in loops and j.child not in dropped),
        frames=tuple(f for f in robot.frames if f.attached_to not in dropped))


def _roots(robot: Robot) -> list:
    """Return the root links, with ``world`` first when joints hang from it undefined."""
    roots = list(robot.index.roots)
    if WORLD not in robot.index.links and any(j.parent == WORLD for j in robot.joints):
        roots.insert(0, WORLD)
    return roots


def _below(topology: Topology[Joint], root: str) -> set[str]:
    """Return the links below ``root`` through tree joints, ``root`` included."""
    found, stack = set(), [root]
    while stack:
        link = stack.pop()
        found.add(link)
        stack.extend(j.child for j in topology.child_joints.get(link, ())
                     if j.child not in found)
    return found


def _loop(index: RobotIndex, joint: Joint) -> str:
    return (f'closes a kinematic loop (link {joint.child!r} is already the child of joint '
            f'{index.parent_joint[joint.child].name!r}); a URDF is a tree')


def _check_roots(robot: Robot, roots: list, report: UrdfReport) -> None:
    """Report a model that is not one tree: no root, several roots, loop joints."""
    index = robot.index
    entity = f"robot '{robot.name}'"
    if not roots:
        report.error(entity, 'has no links; a URDF needs at least one <link>',
                     robot.location, Code.NO_LINKS)
    elif len(roots) > 1:  # not in a lossy write: nearest_tree keeps one
        shown = ', '.join(repr(r) for r in roots[:6]) + (', ...' if len(roots) > 6 else '')
        report.drop(entity, f'has {len(roots)} root links ({shown}); a URDF is a tree with '
                    'exactly one root', '', robot.location, Code.SEVERAL_ROOTS)
    for joint in index.loop_joints:  # idem
        report.drop(f"joint '{joint.name}'", _loop(index, joint), '', joint.location,
                    Code.KINEMATIC_LOOP)


class _Added:
    """The added links and joints, with the names they claim."""

    __slots__ = ('report', 'link_names', 'joint_names', 'links', 'joints')

    def __init__(self, robot: Robot, report: UrdfReport):
        self.report = report
        self.link_names = {link.name for link in robot.links}
        self.joint_names = {joint.name for joint in robot.joints}
        self.links: list[str] = []
        self.joints: list[tuple] = []

    def fixed(self, parent: str, child: str, pose: Pose, *, new: str, what: str,
              entity: str) -> None:
        """Add a fixed joint from parent to child, and ``new`` (one of them, for ``what``)."""
        if new in self.link_names:
            self.report.error(entity, f'needs a link named {new!r} for {what}, but the '
                              'model already has one', code=Code.NAME_CLASH)
        self.link_names.add(new)
        joint = child + FIXED_SUFFIX
        if joint in self.joint_names:
            self.report.error(entity, f'needs a fixed joint named {joint!r}, but the model '
                              'already has one', code=Code.NAME_CLASH)
        self.joint_names.add(joint)
        self.links.append(new)
        self.joints.append((parent, child, pose))
