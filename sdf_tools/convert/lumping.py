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
Fixed-joint lumping: libsdformat's ``ReduceFixedJoints`` and the ``Reduce*ToParent`` steps.

A *reducible* fixed joint (not preserved, not to ``world``) disappears, and its child link is
merged into the nearest kept ancestor K. :func:`lump` does, in libsdformat's order:

* visuals, collisions, ``<gazebo>`` extensions and the other child joints of a merged link M
  move to K, posed by ``X_KM`` (``ReduceVisualsToParent``, ``ReduceCollisionsToParent``,
  ``ReduceSDFExtensionToParent``, ``ReduceJointsToParent``); sensor, projector and light
  blobs are re-posed in K (``ReduceSDFExtensionElementTransformReduction``);
* mass properties are welded in libsdformat's merge order (``ReduceInertialToParent``), and
  a ``<frame>`` is recorded for each removed joint and link;
* blobs that name M (plugin ``bodyName``/``frameName`` with their ``xyzOffset`` and
  ``rpyOffset``, blob joints, grippers, projectors) are pointed at K
  (``ReduceSDFExtensionFrameReplace``), plugin offsets composed once.

Blobs are :class:`~sdf_tools.xmlio.element.Element` values: each change puts a new value in
the blob's place in its extension. Names are not settled here: :mod:`.naming` gives the
frames their final names, after which the ``relative_to`` of re-pointed blob joints is
filled in (:attr:`Lumping.frame_refs`, :func:`resolve_frame_refs`).
"""

from typing import cast
from typing import TYPE_CHECKING

from sdf_tools import inertia
from sdf_tools.convert.tree import is_merged
from sdf_tools.convert.tree import Link
from sdf_tools.convert.tree import Tree
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import IDENTITY
from sdf_tools.model import Pose
from sdf_tools.records import record
from sdf_tools.transforms import IDENTITY_QUAT
from sdf_tools.xmlio.element import appended
from sdf_tools.xmlio.element import at_path
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import first_index
from sdf_tools.xmlio.element import key_value
from sdf_tools.xmlio.element import replace_child
from sdf_tools.xmlio.element import with_attribute
from sdf_tools.xmlio.element import with_text

if TYPE_CHECKING:
    from collections.abc import Container

    from sdf_tools.convert.gazebo_ext import Extension
    from sdf_tools.errors import SourceLocation
    from sdf_tools.transforms import Vec3
    from sdf_tools.xmlio.parse import ValueReader

    #: A blob joint of :attr:`Lumping.frame_refs`: (extension, blob index, merged link).
    FrameRef = tuple[Extension, int, str]

_CORRECTED_OFFSETS = 'gz::corrected_offsets'
_NO_MASS = (0.0, (0.0, 0.0, 0.0), IDENTITY_QUAT, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0))


@record(frozen=True, slots=True)
class Frame:
    """
    The ``<frame>`` kept for a merged joint or link.

    A joint frame is attached to the joint's parent link (or that link's frame) and posed by
    the joint origin; a link frame is attached to its joint's frame, with no pose.
    """

    name: str
    attached_to: str
    pose: Pose | None  # None for a link frame
    location: 'SourceLocation | None'


@record(frozen=True)
class Lumping:
    """
    What :func:`lump` leaves for the later steps.

    Attributes
    ----------
    frames : list of Frame
        In libsdformat's merge order, with the original names.
    frame_refs : list of (Extension, int, str)
        Blob joints (an extension and the blob's index in its ``blobs``) whose child link,
        named last, was merged: the ``relative_to`` of their ``<pose>`` is to name the
        final ``<frame>`` of that link.

    """

    frames: list[Frame]
    frame_refs: 'list[FrameRef]'


def lump(tree: Tree, extensions: list['Extension'], values: 'ValueReader') -> Lumping:
    """
    Merge every link attached by a reducible fixed joint into the kept link above it.

    One pass in linear time: each merged link M gets its kept ancestor K and the pose
    ``X_KM``; its visuals, collisions, extensions and other child joints move to K in the
    order libsdformat's repeated one-level merges produce (a pre-order walk).

    Parameters
    ----------
    tree : Tree
        Edited in place.
    extensions : list of Extension
        Every block (changed blobs are put in their places).
    values : ValueReader
        Records malformed blob poses and plugin offsets.

    """
    link_refs = _index_link_refs(extensions, tree)  # before any blob is edited
    # Parts, extensions and child joints move to the kept ancestor (pre-order).
    keep_of: dict[str, Link] = {}
    x_of: dict[str, Pose] = {}
    for link in tree.preorder(tree.root):
        joint = link.parent_joint
        if not is_merged(joint):
            continue
        parent = tree.links[joint.parent]
        keep_of[link.name] = keep_of.get(parent.name, parent)
        x_of[link.name] = x_of[parent.name].compose(joint.origin) \
            if parent.name in x_of else joint.origin
        _absorb(keep_of[link.name], link, x_of[link.name], values)
    # Mass is welded into the parent, and frames recorded, in libsdformat's merge order.
    frames: list[Frame] = []
    for link in _merge_events(tree):
        joint = link.parent_joint
        assert joint is not None   # (a merged link's)
        parent = tree.links[joint.parent]
        frames.append(Frame(joint.name, parent.name, joint.origin, joint.model.location))
        frames.append(Frame(link.name, joint.name, None, link.model.location))
        if link.mass is not None:
            m, c, q, i = link.mass
            moved = joint.origin.compose(Pose(c, q))
            parent.mass = inertia.combine(parent.mass or _NO_MASS,
                                          (m, moved.xyz, moved.quat, i))
    # Blobs that name a merged link name its kept ancestor.
    frame_refs: list[FrameRef] = []
    for name, keep in keep_of.items():
        for ext, index in link_refs.get(name, ()):
            blob, framed = _rename_link_refs(ext.blobs[index], name, keep.name, x_of[name],
                                             values)
            ext.blobs[index] = blob
            if framed:
                frame_refs.append((ext, index, name))
    return Lumping(frames, frame_refs)


def resolve_frame_refs(frame_refs: 'list[FrameRef]', renamed_frames: dict[str, str]) -> None:
    """Give each blob joint of :attr:`Lumping.frame_refs` the final name of its frame."""
    for ext, index, link_name in frame_refs:
        name = renamed_frames.get(link_name, link_name)
        ext.blobs[index] = at_path(ext.blobs[index], ('pose',),
                                   lambda pose, name=name: with_attribute(pose, 'relative_to',
                                                                          name))


def _merge_events(tree: Tree) -> list[Link]:
    """
    Return the merged links in the order libsdformat merges them.

    libsdformat's recursive reduction first reduces a link's fixed children, then merges
    the link into its parent, then reduces its other children: a post-order over fixed
    joints. Iterative, so trees of any depth work.
    """
    links = tree.links
    events: list[Link] = []
    stack = [(tree.root, False)]
    while stack:
        link, done = stack.pop()
        if done:
            if is_merged(link.parent_joint):
                events.append(link)
            if link.children:  # (most links have none)
                stack += [(links[j.child], False) for j in reversed(link.children)
                          if not j.reducible]
            continue
        stack.append((link, True))
        if link.children:
            stack += [(links[j.child], False) for j in reversed(link.children) if j.reducible]
    return events


def _absorb(keep: Link, link: Link, x_kl: Pose, values: 'ValueReader') -> None:
    """Move one merged link's content into its kept ancestor ``keep``."""
    link.lumped = True
    for parts, target in ((link.visuals, keep.visuals), (link.collisions, keep.collisions)):
        for part in parts:
            part.origin = x_kl.compose(part.origin)
            if not part.name:
                part.name = link.name
            target.append(part)
        parts.clear()
    moved, link.extensions = link.extensions, []
    for ext in moved:
        blobs = ext.blobs
        for index, blob in enumerate(blobs):
            if blob.tag in ('sensor', 'projector', 'light'):
                blobs[index] = _reduce_blob_pose(blob, x_kl, values)
    keep.extensions.extend(moved)
    for joint in link.children:
        if not joint.reducible:
            joint.origin = x_kl.compose(joint.origin)
            joint.parent = keep.name


def _reduce_blob_pose(blob: Element, x_kl: Pose, values: 'ValueReader') -> Element:
    """Return a lumped sensor/projector/light with its pose in the kept link's frame."""
    at = first_index(blob, 'pose')
    pose = IDENTITY
    if at is not None:
        pose_elem = blob.children[at]
        if pose_elem.get('relative_to'):
            return blob
        errors = len(values.reporter.errors)
        from sdf_tools.formats.sdf.values import pose_value  # (as gazebo_ext: only with blobs)
        pose = pose_value(values, pose_elem, f'<{blob.tag}>', notes=False)  # quat_xyzw
        if len(values.reporter.errors) > errors:
            return blob
        blob = _without(blob, (at,))
    new = x_kl.compose(pose)
    return appended(blob, Element('pose', text=fmt_pose(new.xyz, new.quat)))


def _without(parent: Element, indices: 'Container[int]') -> Element:
    """Return ``parent`` without the children at ``indices``."""
    children = tuple(child for index, child in enumerate(parent.children)
                     if index not in indices)
    return Element(parent.tag, parent.attributes, parent.text, children, parent.tail,
                   parent.line)


# --- references to merged links -------------------------------------------------------------

def _link_references(blob: Element) -> tuple[list[int], list[int]]:
    """
    Return the children of a blob that name a link: ``(named, projectors)``, as indices.

    ``named`` hold a link name (every plugin ``bodyName`` and ``frameName``: libsdformat
    renames only the first, and Gazebo then reads a second one naming the merged link;
    the first blob joint ``parent`` and ``child``; every gripper ``gripper_link`` and
    ``palm_link``); ``projectors`` hold ``link/projector`` (``-1``: the blob itself, a
    ``<projector>``).
    """
    tag = blob.tag
    children = blob.children
    if tag == 'plugin':
        return ([i for i, e in enumerate(children) if e.tag in ('bodyName', 'frameName')],
                [i for i, e in enumerate(children) if e.tag == 'projector'])
    if tag == 'joint':
        found = (first_index(blob, 'parent'), first_index(blob, 'child'))
        return [i for i in found if i is not None], []
    if tag == 'gripper':
        return [i for i, e in enumerate(children) if e.tag in ('gripper_link', 'palm_link')], []
    if tag == 'projector':
        return [], [-1]
    return [], []


def _projector_ref(element: Element) -> tuple[str, str] | None:
    """Return ``(link, projector)`` of a ``link/projector`` reference (``None`` without ``/``)."""
    link, sep, projector = (element.text or '').strip().partition('/')
    return (link, projector) if sep else None


def _index_link_refs(extensions: list['Extension'], tree: Tree,
                     ) -> dict[str, list[tuple['Extension', int]]]:
    """Map link names to the blobs that name them: ``(extension, index in its blobs)``."""
    refs: dict[str, list[tuple[Extension, int]]] = {}
    for ext in extensions:
        for position, blob in enumerate(ext.blobs):
            named, projectors = _link_references(blob)
            names = {key_value(blob.children[i]) for i in named}
            names.update(ref[0] for ref in (_projector_ref(_child_at(blob, i))
                                            for i in projectors) if ref is not None)
            for name in names:
                if name in tree.links:
                    refs.setdefault(name, []).append((ext, position))
    return refs


def _child_at(blob: Element, index: int) -> Element:
    """Return the child at ``index`` (``-1``: the blob itself, as :func:`_link_references`)."""
    return blob if index < 0 else blob.children[index]


def _rename_link_refs(blob: Element, old: str, new: str, x_kl: Pose, values: 'ValueReader',
                      ) -> tuple[Element, bool]:
    """
    Return a blob whose references to the merged link ``old`` name ``new`` (posed ``x_kl``).

    And whether it is a joint whose ``<pose>`` is to be made relative to the ``<frame>``
    kept for ``old`` (:attr:`Lumping.frame_refs`).
    """
    named, projectors = _link_references(blob)
    renamed = [i for i in named if key_value(blob.children[i]) == old]
    if blob.tag == 'plugin':  # libsdformat removes the element and appends a new one
        tags = [blob.children[i].tag for i in renamed]
        blob = appended(_without(blob, set(renamed)), *(Element(t, text=new) for t in tags))
        projectors = [i for i, e in enumerate(blob.children) if e.tag == 'projector']
    else:
        for i in renamed:
            blob = replace_child(blob, i, with_text(blob.children[i], new))
    for i in projectors:
        ref = _projector_ref(_child_at(blob, i))
        if ref is not None and ref[0] == old:
            text = f'{new}/{ref[1]}'
            blob = with_text(blob, text) if i < 0 else \
                replace_child(blob, i, with_text(blob.children[i], text))
    if blob.tag == 'plugin' and renamed:
        blob = _move_plugin_offsets(blob, x_kl, values)
    framed = False
    if blob.tag == 'joint' and any(blob.children[i].tag == 'child' for i in renamed):
        # The joint frame defaults to the child link frame: keep it where it was by
        # resolving it against the <frame> recorded for the merged link.
        at = first_index(blob, 'pose')
        if at is None:
            blob = appended(blob, Element('pose', text='0 0 0 0 0 0'))
            at = len(blob.children) - 1
        framed = not blob.children[at].get('relative_to')
    return blob, framed


def _move_plugin_offsets(plugin: Element, x_kl: Pose, values: 'ValueReader') -> Element:
    """
    Return a plugin with its ``xyzOffset``/``rpyOffset`` re-expressed in the kept link.

    The offsets were relative to the merged link: compose once with its pose in the kept
    link (libsdformat composes twice when both names match, and starts from the joint pose
    instead of identity when no offset was given), and mark them ``gz::corrected_offsets``.
    """
    xyz, rpy = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
    for key in ('xyzOffset', 'rpyOffset'):
        at = first_index(plugin, key)
        if at is not None:
            elem = plugin.children[at]
            given = cast('Vec3 | None', values.vector(elem, None, f'<plugin> <{key}>',
                                                      key_value(elem), 3))
            if given is not None:
                if key == 'xyzOffset':
                    xyz = given
                else:
                    rpy = given
            plugin = _without(plugin, (at,))
    plugin = _without(plugin, {i for i, e in enumerate(plugin.children)
                               if e.tag == _CORRECTED_OFFSETS})
    offset = x_kl.compose(Pose.from_rpy(xyz, rpy))
    return appended(plugin, Element('xyzOffset', text=fmt_vec(offset.xyz)),
                    Element('rpyOffset', text=fmt_vec(offset.rpy)),
                    Element(_CORRECTED_OFFSETS, text='1'))
