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
Human-readable views of a model: a summary, the kinematic tree as text, Graphviz DOT.

Pure functions from a :class:`~sdf_tools.model.Robot` to text (what ``sdf_tools check`` and
``sdf_tools tree`` print); nothing here reads files or runs programs. The text views quote
every name as messages do (:func:`~sdf_tools.errors.short_name`: a 9 MB name is not printed
whole); DOT keeps names whole, as data.
"""

from collections import Counter
from collections.abc import Iterator
from collections.abc import Sized

from sdf_tools.errors import short_name as n
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import Joint
from sdf_tools.model import Robot
from sdf_tools.robot_index import RobotIndex
from sdf_tools.topology import WORLD
from sdf_tools.worlds import World


def joint_label(joint: Joint) -> str:
    """Return ``'type, axis x y z'`` for a joint (no axis for fixed, floating, ball)."""
    label = joint.kind.value
    if joint.kind.axes:
        label += f', axis {fmt_vec(joint.axis)}'
        if joint.axis2 is not None:
            label += f', axis2 {fmt_vec(joint.axis2)}'
    if joint.mimic is not None:
        label += f', mimics {n(joint.mimic.joint)}'
    return label


def summary(robot: Robot) -> str:
    """Return a one-paragraph description: name, format, source and counts by joint type."""
    kinds = Counter(j.kind.value for j in robot.joints)
    by_type = ', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))
    lines = [f"robot '{n(robot.name)}' ({robot.source_format}, {robot.source})",
             f"  {_count(robot.links, 'link')}, {_count(robot.joints, 'joint')}"
             + (f' ({by_type})' if by_type else '') + f", {_count(robot.frames, 'frame')}"]
    mimic = [j for j in robot.joints if j.mimic is not None]
    if mimic:
        lines.append(f"  {_count(mimic, 'mimic joint')}")
    roots = _tops(robot.index)
    lines.append(f"  root link{'s' if len(roots) != 1 else ''}: "
                 + ', '.join(n(root) for root in roots))
    loops = robot.index.loop_joints
    if loops:
        lines.append(f"  {_count(loops, 'joint')} closing kinematic loops: "
                     + ', '.join(n(j.name) for j in loops))
    return '\n'.join(lines)


def world_line(world: World) -> str:
    """
    Return one line saying what a world holds, e.g. ``world 'w': 2 models ('a', 'b'), 1 frame``.

    A file's top level (``World.name`` is ``None``) is ``the top level``; a world without
    models says ``no model``.
    """
    parts = [] if world.models else ['no model']
    for names, noun in (([m.name for m in world.models], 'model'),
                        ([f.name for f in world.frames], 'frame'),
                        (list(world.lights), 'light'), (list(world.actors), 'actor')):
        if names:
            shown = ', '.join(f"'{n(name)}'" for name in names[:5]) + (
                ', ...' if len(names) > 5 else '')
            parts.append(f'{_count(names, noun)} ({shown})')
    what = 'the top level' if world.name is None else f"world '{n(world.name)}'"
    return f"{what}: {', '.join(parts)}"


def _tops(index: RobotIndex) -> list[str]:
    """Return the roots of the tree, ``world`` first when joints attach links to it."""
    world = WORLD not in index.links and index.child_joints.get(WORLD)
    return ([WORLD] if world else []) + list(index.roots)


def _count(items: Sized, noun: str) -> str:
    return f"{len(items)} {noun}{'' if len(items) == 1 else 's'}"


#: The deepest indentation :func:`tree_text` draws, in levels of four columns (128 columns): the
#: deepest robot of the corpus (tiago) is 21 levels deep; a generated chain of 20,000 joints
#: indented in full was 810 MB of text.
TREE_INDENT_LEVELS = 32


def tree_text(robot: Robot) -> str:
    """
    Return the kinematic tree as indented text, children in joint-name order.

    Each line below a root reads ``joint (type, axis x y z) -> child``; frames attached to a
    link are listed under it as ``[frame] name``; joints that close kinematic loops
    (SDFormat) follow as ``[loop] joint (...): parent -> child``. Lines deeper than
    :data:`TREE_INDENT_LEVELS` levels are not indented further but marked with their depth
    (``[depth 40] `-- j39 (...) -> l40``: the child of the line of depth 39 above it), so that
    the text grows linearly with the tree, however deep.
    """
    index = robot.index
    frames: dict[str, list[str]] = {}
    for frame in robot.frames:
        frames.setdefault(frame.attached_to, []).append(frame.name)

    def items(link: str) -> Iterator[tuple[str | Joint, bool]]:
        """Return ``(frame name or joint, last)`` of what hangs below a link, in order."""
        entries: list[str | Joint] = [*frames.get(link, ()), *index.child_joints.get(link, ())]
        return iter([(item, i == len(entries) - 1) for i, item in enumerate(entries)])

    tops = _tops(index)
    if WORLD in frames and WORLD not in tops:  # frames fixed in the model frame
        tops.insert(0, WORLD)
    lines = []
    for root in tops:
        lines.append(n(root))
        stack = [(items(root), '', 1)]  # explicit stack: trees of any depth print
        while stack:
            entries, prefix, depth = stack[-1]
            entry = next(entries, None)
            if entry is None:
                stack.pop()
                continue
            item, last = entry
            mark = f'[depth {depth}] ' if depth > TREE_INDENT_LEVELS + 1 else ''
            branch = prefix + mark + ('`-- ' if last else '|-- ')
            if isinstance(item, str):  # a frame's name
                lines.append(f'{branch}[frame] {n(item)}')
                continue
            lines.append(f'{branch}{n(item.name)} ({joint_label(item)}) -> {n(item.child)}')
            if depth <= TREE_INDENT_LEVELS:
                prefix += '    ' if last else '|   '
            stack.append((items(item.child), prefix, depth + 1))
    for joint in index.loop_joints:
        lines.append(f'[loop] {n(joint.name)} ({joint_label(joint)}): {n(joint.parent)} -> '
                     f'{n(joint.child)}')
    return '\n'.join(lines) + '\n'


def tree_dot(robot: Robot) -> str:
    """Return the kinematic tree as Graphviz DOT: links as boxes, joints as labelled edges."""
    def esc(text: str) -> str:
        return text.replace('\\', '\\\\').replace('"', '\\"')

    def q(text: str) -> str:
        return f'"{esc(text)}"'

    out = [f'digraph {q(robot.name)} {{', '  rankdir=TB;',
           '  node [shape=box, style=rounded, fontname="Helvetica"];',
           '  edge [fontname="Helvetica", fontsize=10];']
    for link in robot.links:
        out.append(f'  {q(link.name)};')
    for frame in robot.frames:
        out.append(f'  {q(frame.name)} [shape=ellipse, style=dashed];')
        out.append(f'  {q(frame.attached_to)} -> {q(frame.name)} [style=dashed];')
    for joint in robot.joints:
        label = f'{esc(joint.name)}\\n{esc(joint_label(joint))}'  # \\n: a DOT line break
        out.append(f'  {q(joint.parent)} -> {q(joint.child)} [label="{label}"];')
    out.append('}')
    return '\n'.join(out) + '\n'
