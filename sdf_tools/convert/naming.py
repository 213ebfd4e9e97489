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
The names of the SDFormat elements: distinct, and ones SDFormat accepts.

A URDF may give a joint and a link the same name, but SDFormat needs every link, joint and
frame of a model to be named distinctly (and Gazebo's physics drops joints named like a
link). :func:`resolve_names` keeps link names and the names of elements that model-level
``<gazebo>`` blobs declare, and gives way with the joints (``<name>_joint``) and the
lumping frames (``<name>_frame``), with a warning each; libsdformat keeps the clash.
:func:`name_sensors` does the same for the sensors and lights of one link.
:func:`check_sdf_names` refuses names SDFormat reserves or reads as scopes.
"""

from typing import TYPE_CHECKING

from sdf_tools.convert.lumping import Frame
from sdf_tools.convert.tree import is_merged
from sdf_tools.convert.tree import Tree
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Diagnostic
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.model import Robot
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.element import with_attribute

if TYPE_CHECKING:
    from sdf_tools.convert.gazebo_ext import Extension
    from sdf_tools.errors import Reporter
    from sdf_tools.errors import SourceLocation


@record(frozen=True)
class Names:
    """
    The settled names.

    Attributes
    ----------
    renamed_joints : dict
        URDF joint name -> its different name in the SDFormat output.
    renamed_frames : dict
        Lumped joint or link name -> the different name of the ``<frame>`` kept for it.
    frames : list of Frame
        The lumping frames with their final names, attached to final names.

    """

    renamed_joints: dict[str, str]
    renamed_frames: dict[str, str]
    frames: list[Frame]


def _unique(name: str, taken: set[str], suffix: str) -> str:
    """Return ``name``, or ``name + suffix`` (then ``_2``, ``_3``...) if it is taken."""
    if name not in taken:
        return name
    candidate = name + suffix
    n = 2
    while candidate in taken:
        candidate = f'{name}{suffix}_{n}'
        n += 1
    return candidate


def resolve_names(tree: Tree, model_extensions: list['Extension'], frames: list[Frame],
                  reporter: 'Reporter') -> Names:
    """
    Give joints and lumping frames names distinct from links and from each other.

    Sets each kept joint's ``sdf_name``.

    Parameters
    ----------
    tree : Tree
        After lumping.
    model_extensions : list of Extension
        The model-level blocks: names their blobs declare (e.g. extra ``<joint>``) are the
        user's own SDF, so they keep their names and URDF-derived elements give way.
    frames : list of Frame
        From :func:`~.lumping.lump`.
    reporter : Reporter
        Where the warnings go.

    """
    taken = {name for name, link in tree.links.items()
             if not link.lumped and name != WORLD}
    for ext in model_extensions:
        for blob in ext.blobs:
            if blob.tag in ('joint', 'link', 'frame', 'model') and (name := blob.get('name')):
                taken.add(name)
    renamed_joints: dict[str, str] = {}
    for joint in tree.joints.values():
        if is_merged(joint):
            continue
        joint.sdf_name = _unique(joint.name, taken, '_joint')
        taken.add(joint.sdf_name)
        if joint.sdf_name != joint.name:
            renamed_joints[joint.name] = joint.sdf_name
            clash = joint.name in tree.links  # the reader's name-clash: this says it better
            what = 'a link' if clash else 'an element of a <gazebo> block'
            reporter.warn(f'has the same name as {what}; SDFormat needs distinct names (and '
                          f"Gazebo's physics drops such joints), so it is written as "
                          f'{joint.sdf_name!r}', joint.model.location,
                          f"joint '{joint.name}'", Code.NAME_CLASH if clash else Code.RENAMED)
    renamed_frames, frames = _name_frames(frames, taken, tree, reporter)
    return Names(renamed_joints, renamed_frames, frames)


def name_sensors(tree: Tree, reporter: 'Reporter') -> None:
    """
    Give the sensors (and lights) of each kept link distinct names, in their blobs' places.

    Lumping gathers the sensors of merged links into their kept ancestor, and macros easily
    declare one twice. libsdformat writes both, then refuses the file, and so does Gazebo
    (``sensor with name[camera] already exists``). Here the later one is renamed
    ``<name>_2`` (``_3``...), with a warning naming both places, so the robot loads; topics
    derived from the sensor name change with it.

    Parameters
    ----------
    tree : Tree
        After lumping: each link holds its extensions and those of the links merged into it.
    reporter : Reporter
        Where the warnings go.

    """
    for link in tree.kept_links():
        named = [(ext, index, blob) for ext in link.extensions
                 for index, blob in enumerate(ext.blobs)
                 if blob.tag in ('sensor', 'light') and blob.get('name')]
        taken = {(blob.tag, blob.get('name') or '') for _, _, blob in named}
        first: dict[tuple[str, str], SourceLocation] = {}  # (tag, name) -> the first's place
        for ext, index, blob in named:
            key = (blob.tag, blob.get('name') or '')
            assert ext.location is not None   # (a block of a link: read from a file)
            here = replace(ext.location, line=blob.sourceline or ext.location.line)
            if key not in first:
                first[key] = here
                continue
            new = _unique(key[1], {n for t, n in taken if t == blob.tag}, '')
            taken.add((blob.tag, new))
            ext.blobs[index] = with_attribute(blob, 'name', new)
            reporter.warn(f'<{blob.tag}> {key[1]!r} is the second of that name in link '
                          f'{link.name!r} (the first is at {first[key]}; SDFormat and Gazebo '
                          f'refuse two), so it is written as {new!r}', here,
                          f"link '{link.name}'", Code.RENAMED)


def _name_frames(frames: list[Frame], taken: set[str], tree: Tree, reporter: 'Reporter',
                 ) -> tuple[dict[str, str], list[Frame]]:
    """
    Return the renamed frames and the frames with their final names.

    Each merged joint leaves a frame attached to its parent link (itself maybe a frame), and
    each merged link a frame attached to that joint frame. A frame whose name is taken
    because a URDF joint is named like a link is what the reader's warning about that joint
    (``name-clash``) announced: the warning about it takes that one's place.
    """
    joint_frames: dict[str, str] = {}
    link_frames: dict[str, str] = {}
    renamed: dict[str, str] = {}
    named = []
    for frame in frames:
        new = _unique(frame.name, taken, '_frame')
        taken.add(new)
        (link_frames if frame.pose is None else joint_frames)[frame.name] = new
        if new != frame.name:
            renamed[frame.name] = new
            _frame_renamed(frame, new, tree, reporter)
        named.append(new)
    final = []
    for new, frame in zip(named, frames):
        if frame.pose is None:  # link frame, attached to its joint frame
            attached = joint_frames.get(frame.attached_to, frame.attached_to)
        else:  # joint frame, attached to a kept link or a merged link's frame
            attached = link_frames.get(frame.attached_to, frame.attached_to)
        final.append(Frame(new, attached, frame.pose, frame.location))
    return renamed, final


def _frame_renamed(frame: Frame, new: str, tree: Tree, reporter: 'Reporter') -> None:
    """Warn that the frame kept for a merged joint or link is written as ``new``."""
    merged = 'link' if frame.pose is None else 'joint'
    joint = tree.joints.get(frame.name)
    if joint is None or frame.name not in tree.links:
        reporter.warn(f'the <frame> kept for merged {merged} {frame.name!r} is named {new!r}: '
                      'the name is taken', frame.location, None, Code.RENAMED)
        return
    reporter.warn('has the same name as a link; SDFormat needs distinct names, so the <frame> '
                  f'kept for the merged {merged} {frame.name!r} is written as {new!r}',
                  joint.model.location, f"joint '{frame.name}'", Code.NAME_CLASH)


def check_sdf_names(robot: Robot, tree: Tree, frames: list[Frame],
                    model_extensions: list['Extension'], sdf_version: str) -> None:
    """
    Refuse names SDFormat reserves, reads as scopes or as another name, and a model with no link.

    SDFormat trims names, so ``'a '`` and ``'a'`` are one name to it.

    Raises
    ------
    ConversionError
        Every problem found.

    """
    problems: list[Diagnostic] = []
    version = version_tuple(sdf_version)
    read_as: dict[str, str] = {}  # name as SDFormat reads it -> the name written

    def check(name: str, what: str, entity: str, location: 'SourceLocation | None',
              child: bool = True) -> None:
        problem = sdf_names.name_problem(name, what, version)
        if problem is None and child:  # the model's links, joints and frames share names
            other = read_as.setdefault(sdf_names.as_read(name), name)
            if other != name:
                problem = (f'the {what} {name!r} and the name {other!r} are one name to '
                           'SDFormat, which trims names')
        if problem is not None:
            problems.append(Diagnostic(problem, location, entity, code=Code.BAD_NAME))

    check(robot.name, 'model name', f"robot '{robot.name}'", robot.location, child=False)
    kept = tree.kept_links()
    for link in kept:
        check(link.name, 'link name', f"link '{link.name}'", link.model.location)
    for joint in tree.joints.values():
        if not is_merged(joint):
            check(joint.sdf_name, 'joint name', f"joint '{joint.name}'", joint.model.location)
    for frame in frames:
        check(frame.name, 'frame name', f"frame '{frame.name}'", frame.location)
    if not kept and not any(ext.static for ext in model_extensions):
        problems.append(Diagnostic(
            "the robot has no link besides 'world': an SDFormat model needs at least one "
            'link (or <static>true</static> in a <gazebo> block)', robot.location,
            f"robot '{robot.name}'", code=Code.NO_LINKS))
    if problems:
        raise ConversionError(problems)
