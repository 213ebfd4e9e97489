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
The model as a whole (name, static, pose, kept content), its frames, ``<gazebo>`` blocks.

Between two URDFs (not lumped), the ``<gazebo>`` blocks are compared too.

``<gazebo>`` blocks compare as what they configure: all the blocks of one reference
together (however they are split), each setting matched by tag and name
(:mod:`.blobs`); a reference to a renamed link or joint follows it. ``<transmission>``,
``<ros2_control>`` and other top-level URDF elements compare the same way.
"""

from collections.abc import Sequence

from sdf_tools.comparing.blobs import compare_elements
from sdf_tools.comparing.blobs import label
from sdf_tools.comparing.context import Context
from sdf_tools.comparing.results import Side
from sdf_tools.comparing.sides import element_place
from sdf_tools.errors import SourceLocation
from sdf_tools.model import GazeboExtension
from sdf_tools.model import Robot


def compare_model(ctx: Context) -> None:
    """Add the differences of the model itself: name, static, pose and kept content."""
    a, b = ctx.a.robot, ctx.b.robot
    at = (a.location, b.location)
    if a.name != b.name:
        ctx.add('model', '', 'name', a.name, b.name, at=at)
    if a.static != b.static:
        ctx.add('model', '', 'static', a.static, b.static, at=at)
    ctx.pose('model', '', 'pose', (a.origin, b.origin), at)
    on_a, on_b = ctx.matching.prefix
    if on_a or on_b:
        links = sum(name in ctx.matching.prefixed for name in a.index.links)
        longer, shorter = ('B', 'A') if on_b else ('A', 'B')
        ctx.add('model', '', 'prefix', on_a or None, on_b or None, at=at, detail=(
            f'the names of {longer} are those of {shorter} with {on_b or on_a} in front: '
            f'{links} links, {len(ctx.matching.prefixed) - links} joints'))
    ctx.content('model', '', (a.extras, b.extras), at, keys=(('model', ''), ('model', '')))
    _compare_kept(ctx, a, b)


def _compare_kept(ctx: Context, a: Robot, b: Robot) -> None:
    """Add the differences of top-level URDF elements (``<transmission>``, ...)."""
    if not (a.urdf_extras or b.urdf_extras):
        return
    elements = [[item.element for item in robot.urdf_extras] for robot in (a, b)]
    places = [{label(e): item.location for e, item in zip(found, robot.urdf_extras)}
              for found, robot in zip(elements, (a, b))]
    for d in compare_elements(elements[0], elements[1], ctx.tol):
        top = d.path.split('/', 1)[0]
        ctx.add('model', '', 'content', d.a, d.b, field=d.path,
                at=(places[0].get(top), places[1].get(top)))


def compare_frames(ctx: Context) -> None:
    """Add the differences of the named frames: only on one side, attached to, pose."""
    a, b = ctx.a.robot, ctx.b.robot
    links = ctx.matching.links
    names = {frame.name: frame.name for frame in a.frames if frame.name in b.index.frames}
    for frame, other in ctx.paired('frame', a.frames, b.frames, names):
        at = (frame.location, other.location)
        if links.get(frame.attached_to, frame.attached_to) != other.attached_to:
            ctx.add('frame', frame.name, 'attached-to', frame.attached_to, other.attached_to,
                    at=at)
        ctx.pose('frame', frame.name, 'pose', (frame.pose, other.pose), at)


def compare_gazebo(ctx: Context) -> None:
    """Add the differences of two URDFs' ``<gazebo>`` blocks (module docstring)."""
    a, b = ctx.a.robot, ctx.b.robot
    if not (a.gazebo or b.gazebo) or ctx.a.lumped or ctx.b.lumped:
        return
    renamed = {**ctx.matching.links, **ctx.matching.joints}
    blocks_a, blocks_b = _by_reference(a, renamed), _by_reference(b, {})
    for reference in list(blocks_a) + [r for r in blocks_b if r not in blocks_a]:
        found_a, found_b = blocks_a.get(reference, ()), blocks_b.get(reference, ())
        elements = [[e for block in found for e in block.elements if isinstance(e.tag, str)]
                    for found in (found_a, found_b)]
        name = found_a[0].reference if found_a else reference
        for d in compare_elements(elements[0], elements[1], ctx.tol):
            top = d.path.split('/', 1)[0].split(' #', 1)[0]
            ctx.add('gazebo', name or '', 'content', d.a, d.b, field=d.path,
                    at=(_place_of(ctx.a, found_a, top), _place_of(ctx.b, found_b, top)))


def _by_reference(robot: Robot, renamed: dict) -> dict:
    """Return reference (in side B's names) -> the robot's blocks for it, in order."""
    blocks: dict = {}
    for block in robot.gazebo:
        reference = renamed.get(block.reference, block.reference)
        blocks.setdefault(reference, []).append(block)
    return blocks


def _place_of(side: Side, blocks: Sequence[GazeboExtension], top: str,
              ) -> SourceLocation | None:
    """
    Return where the ``<gazebo>`` content ``top`` (``"sensor 'cam'"``, ``mu1``) is.

    The line of the first element of that label, else the first block holding its tag,
    else the first block (xacro: mapped to its file).
    """
    for block in blocks:
        for e in block.elements:
            if isinstance(e.tag, str) and label(e) == top and e.sourceline is not None:
                return element_place(side.loaded, e)
    tag = top.split(' ', 1)[0]
    for block in blocks:
        if any(e.tag == tag for e in block.elements):
            return block.location
    return blocks[0].location if blocks else None
