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
What each side of a comparison compares: the model as read, or a URDF as SDFormat holds it.

A URDF compared with an SDFormat model is first converted the way ``urdf2sdf`` converts it
(:func:`~sdf_tools.convert.urdf_to_sdf.urdf_to_sdf`: ``<gazebo>`` extensions applied, fixed
joints lumped, mesh URIs kept as written, at the SDFormat version of the other side,
:func:`sdf_version`) and read back, so that both sides say what Gazebo would get. Fixed
joints whose child link the SDFormat side has are kept: all of them as
``--preserve-fixed-joints`` keeps them, some as a ``<preserveFixedJoint>`` block does
(which also gives the joint a ``<physics>``), so SDFormat written without lumping compares
too.

Every place of the converted model is mapped back to the URDF: links, joints and the
``<frame>`` s lumping leaves by name, visuals and collisions by the names libsdformat gives
them (:func:`~sdf_tools.convert.tree.part_name` over the lumped tree), content added by
``<gazebo>`` blocks to the blocks (:attr:`Lumped.blocks`). The notes say what lumping did.
"""

from collections.abc import Callable
from collections.abc import Collection
import re

from sdf_tools.comparing.blobs import label
from sdf_tools.comparing.context import Blocks
from sdf_tools.comparing.context import BlockTags
from sdf_tools.comparing.results import Note
from sdf_tools.convert import gazebo_ext
from sdf_tools.convert import lumping
from sdf_tools.convert.gazebo_ext import Extension
from sdf_tools.convert.tree import Link as TreeLink
from sdf_tools.convert.tree import part_name
from sdf_tools.convert.tree import Tree
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import ConversionResult
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.loading import left_out_of_sdf
from sdf_tools.loading import Loaded
from sdf_tools.model import GazeboExtension
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Robot
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.parse import ValueReader

_VERSION = re.compile(rb'<sdf\b[^>]*?\bversion\s*=\s*["\']\s*(\d+\.\d+)')


@record(frozen=True, eq=False)
class Lumped:
    """
    A URDF converted to SDFormat for comparison.

    Attributes
    ----------
    robot : Robot
        The SDFormat model read back, its places in the URDF (xacro) files.
    notes : tuple of Note
        What lumping and the conversion changed.
    blocks : dict
        ``('link' | 'joint' | 'model', name)`` -> ``((location, tags, places), ...)``: the
        ``<gazebo>`` blocks whose content reaches that element, with the tags each holds
        and where each element it keeps (a ``<sensor>``, a ``<plugin>``) is, by its label
        (``"sensor 'camera'"``, :func:`.blobs.label`); ``('visual' | 'collision', link,
        name)`` -> the location of the first block that configures that visual or
        collision.

    """

    robot: Robot
    notes: tuple[Note, ...] = ()
    blocks: Blocks = field(default_factory=dict)


def sdf_version(loaded: Loaded) -> str:
    """
    Return the SDFormat version to convert a URDF to for comparison with ``loaded``.

    The convertible version nearest below the document's (1.9 to 1.11; 1.9 if it cannot be
    told), so that what the other side's version cannot hold (``<mimic>`` before 1.11) is
    left out of both.
    """
    found = _VERSION.search(loaded.text[:4096])
    if found is None:
        return CONVERTIBLE_VERSIONS[0]
    try:
        version = version_tuple(found.group(1).decode())
    except ValueError:
        return CONVERTIBLE_VERSIONS[0]
    return max((v for v in CONVERTIBLE_VERSIONS if version_tuple(v) <= version),
               key=version_tuple, default=CONVERTIBLE_VERSIONS[0])


def lumped(loaded: Loaded, other_links: Collection[str] = frozenset(),
           version: str = '1.9') -> Lumped:
    """
    Return a URDF as SDFormat holds it (module docstring).

    Parameters
    ----------
    loaded : Loaded
        A URDF (or xacro) description.
    other_links : set of str
        The link names of the other side: fixed joints to these are kept.
    version : str
        The SDFormat version to convert to (:func:`sdf_version`).

    Raises
    ------
    SdfToolsError
        The URDF cannot be converted (a malformed ``<gazebo>`` value, ...).

    """
    robot = loaded.robot
    fixed = [j.name for j in robot.joints if j.kind is JointType.FIXED and j.parent != WORLD]
    kept = [name for name in fixed if robot.joint(name).child in other_links]
    options = ConversionOptions(mesh_uris='package', sdf_version=version,
                                preserve_fixed_joints=bool(fixed) and len(kept) == len(fixed))
    if kept and not options.preserve_fixed_joints:  # as <preserveFixedJoint> blocks would
        robot = replace(robot, gazebo=robot.gazebo + tuple(map(_preserving, kept)))
    if loaded.origins is not None:
        with loaded.origins.relocating():
            result = urdf_to_sdf(robot, options)
    else:
        result = urdf_to_sdf(robot, options)
    label = f'{loaded.source} (as SDFormat)'
    sdf = parse_sdf(result.sdf, label)
    tree, extensions = _lumped_tree(robot, options.preserve_fixed_joints)
    places = _places(robot, sdf, tree, result)
    fallback = SourceLocation(loaded.source)

    def locate(location: SourceLocation) -> SourceLocation:
        if location is None or location.source != label:
            return location
        return fallback if location.line is None else places.get(location.line, fallback)

    notes = _merge_notes(tree, robot) + _rename_notes(robot, result.renamed_joints)
    for kind, warnings in (('converted', result.warnings), ('left-out', left_out_of_sdf(robot))):
        if loaded.origins is not None:
            warnings = loaded.origins.diagnostics(warnings)
        notes += tuple(Note(kind, d.message if d.entity is None else f'{d.entity}: {d.message}',
                            d.location) for d in warnings)
    return Lumped(sdf.relocated(locate), notes,
                  _blocks(tree, extensions, result.renamed_joints, _element_place(loaded)))


def _element_place(loaded: Loaded) -> Callable[[Element], SourceLocation | None]:
    """Return ``f(element)``: :func:`element_place` of the elements of ``loaded``."""
    return lambda element: element_place(loaded, element)


def element_place(loaded: Loaded, element: Element) -> SourceLocation | None:
    """Return where an element of the description read is (xacro: in its xacro file)."""
    origins = loaded.origins
    if origins is None or origins.label is None:
        return SourceLocation(loaded.source, element.sourceline)
    return origins.locate(SourceLocation(origins.label, element.sourceline))


def _preserving(joint: str) -> GazeboExtension:
    """Return a ``<gazebo>`` block that keeps the fixed joint ``joint``."""
    return GazeboExtension(joint, (Element('preserveFixedJoint', text='true'),))


def _lumped_tree(robot: Robot, preserve: bool) -> tuple[Tree, list[Extension]]:
    """Return the converter's tree of ``robot`` after lumping, and its ``<gazebo>`` blocks."""
    values = ValueReader(robot.source, Reporter())
    extensions = gazebo_ext.parse_extensions(robot, values)
    tree = Tree(robot, extensions, preserve)
    lumping.lump(tree, extensions, values)
    return tree, extensions


def _places(robot: Robot, sdf: Robot, tree: Tree, result: ConversionResult,
            ) -> dict[int, SourceLocation]:
    """Return line of the converted SDFormat -> the place in the URDF it was written from."""
    joint_of = {new: old for old, new in result.renamed_joints.items()}
    frame_of = {new: old for old, new in result.renamed_frames.items()}
    index = robot.index
    parts = {}
    for kept in tree.kept_links():
        for kind, held in (('visual', kept.visuals), ('collision', kept.collisions)):
            for i, part in enumerate(held):
                parts[(kept.name, kind, part_name(part.name, kept.name, i, kind))] = \
                    part.model.location or kept.model.location
    places: dict[int, SourceLocation] = {}

    def put(location: SourceLocation | None, place: SourceLocation | None) -> None:
        if location is not None and location.line is not None and place is not None:
            places[location.line] = place

    def location_of(item: Link | Joint | None) -> SourceLocation | None:
        return None if item is None else item.location

    put(sdf.location, robot.location)
    for link in sdf.links:
        put(link.location, location_of(index.links.get(link.name)))
        for kind, items in (('visual', link.visuals), ('collision', link.collisions)):
            for item in items:
                put(item.location, parts.get((link.name, kind, item.name or '')))
    for joint in sdf.joints:
        put(joint.location, location_of(index.joints.get(joint_of.get(joint.name, joint.name))))
    for frame in sdf.frames:
        name = frame_of.get(frame.name, frame.name)
        put(frame.location, location_of(index.joints.get(name) or index.links.get(name)))
    return places


def _kept_ancestor(tree: Tree, link: TreeLink) -> TreeLink:
    """Return the kept link a lumped link was merged into."""
    while link.lumped:
        assert link.parent_joint is not None  # a lumped link has its fixed joint
        link = tree.links[link.parent_joint.parent]
    return link


def _merge_notes(tree: Tree, robot: Robot) -> tuple[Note, ...]:
    """Return one note per link lumping merged into another, in the URDF's order."""
    notes: list[Note] = []
    for original in robot.links:
        link = tree.links[original.name]
        if not link.lumped:
            continue
        joint = link.parent_joint
        assert joint is not None  # a lumped link has its fixed joint
        kept = _kept_ancestor(tree, link)
        moved = [f'{n} {what}{"s" if n > 1 else ""}' for n, what in (
            (len(original.visuals), 'visual'), (len(original.collisions), 'collision'))
            if n] + (['its mass'] if original.inertial is not None else [])
        notes.append(Note('lumped', f"fixed joint '{joint.name}' lumped: link "
                          f"'{link.name}' merged into link '{kept.name}'"
                          + (f" ({', '.join(moved)})" if moved else ''),
                          joint.model.location))
    return tuple(notes)


def _rename_notes(robot: Robot, renamed: dict[str, str]) -> tuple[Note, ...]:
    """Return one note per joint the conversion renamed."""
    return tuple(Note('lumped', f"joint '{old}' is called '{new}' in SDFormat (a link or "
                      'element has its name)', robot.joint(old).location)
                 for old, new in renamed.items())


def _blocks(tree: Tree, extensions: list[Extension], renamed_joints: dict[str, str],
            place: Callable[[Element], SourceLocation | None]) -> Blocks:
    """Return where ``<gazebo>`` content comes from (:attr:`Lumped.blocks`)."""
    blocks: Blocks = {}

    def tags(ext: Extension) -> BlockTags:
        found = {tag for tag, _ in ext.tags}
        found.update(blob.tag for blob in ext.blobs if isinstance(blob.tag, str))
        places = {label(blob): place(blob) for blob in ext.blobs if isinstance(blob.tag, str)}
        return ext.location, frozenset(found), places

    for link in tree.kept_links():
        blocks[('link', link.name)] = tuple(tags(ext) for ext in link.extensions)
        for kind, items in (('visual', link.visuals), ('collision', link.collisions)):
            for i, part in enumerate(items):
                ext = next((e for e in link.extensions if e.ref == part.source_link
                            and e.configures(kind)), None)
                if ext is not None:
                    blocks[(kind, link.name, part_name(part.name, link.name, i, kind))] = \
                        ext.location
    for joint in tree.joints.values():
        blocks[('joint', renamed_joints.get(joint.name, joint.name))] = tuple(
            tags(ext) for ext in joint.extensions)
    blocks[('model', '')] = tuple(tags(ext) for ext in extensions if not ext.ref)
    return blocks
