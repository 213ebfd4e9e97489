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
What the comparison steps share: both sides, the tolerance, the matching and the findings.

Each step (:mod:`.links`, :mod:`.joints`, :mod:`.model`) reads both robots through a
:class:`Context` and adds what differs with :meth:`Context.add`; :meth:`Context.content`
compares kept XML content (:mod:`.blobs`) and places each difference at the ``<gazebo>``
block it came from when a side is a lumped URDF.
"""

from collections.abc import Iterator
from collections.abc import Sequence
from typing import TypeVar

from sdf_tools.comparing.blobs import compare_elements
from sdf_tools.comparing.matching import Matching
from sdf_tools.comparing.results import Difference
from sdf_tools.comparing.results import Side
from sdf_tools.comparing.values import pose_error
from sdf_tools.comparing.values import pose_values
from sdf_tools.comparing.values import poses_close
from sdf_tools.errors import SourceLocation
from sdf_tools.model import Frame
from sdf_tools.model import Joint
from sdf_tools.model import Link
from sdf_tools.model import Pose
from sdf_tools.xmlio.element import Element

Places = tuple[SourceLocation | None, SourceLocation | None]
#: An element's key in :data:`Blocks`: ``('link' | 'joint' | 'model', name)``,
#: ``('visual' | 'collision', link, name)``.
Key = tuple[str | None, ...]
#: A ``<gazebo>`` block whose content reaches an element: its location, the tags it holds,
#: and label -> place of each element it keeps whole (:attr:`.sides.Lumped.blocks`).
BlockTags = tuple[SourceLocation | None, frozenset[str], dict[str, SourceLocation | None]]
#: Where ``<gazebo>`` content comes from: element key -> its blocks (a visual's or a
#: collision's: the first block's location).
Blocks = dict[Key, tuple[BlockTags, ...] | SourceLocation | None]
_Item = TypeVar('_Item', Link, Joint, Frame)


class Context:
    """
    One comparison in progress.

    Attributes
    ----------
    a, b : Side
        The two sides.
    tol : float
        The tolerance (:mod:`.values`).
    blocks : tuple of dict
        Per side, where ``<gazebo>`` content comes from (:attr:`.sides.Lumped.blocks`;
        empty for a side that is not a lumped URDF).
    matching : Matching
        Which link and joint is which.
    differences : list of Difference
        What was found, in order.

    """

    def __init__(self, a: Side, b: Side, tol: float, matching: Matching,
                 blocks: tuple[Blocks, Blocks] = ({}, {})) -> None:
        self.a = a
        self.b = b
        self.tol = tol
        self.matching = matching
        self.blocks = blocks
        self.differences: list[Difference] = []

    def add(self, entity: str, name: str, kind: str, a: object = None, b: object = None, *,
            part: str = '',
            field: str = '', at: Places = (None, None), detail: str = '') -> None:
        """Record a difference (the arguments are :class:`.results.Difference`'s)."""
        self.differences.append(Difference(entity, name, kind, a, b, part, field, at[0], at[1],
                                           detail))

    def paired(self, entity: str, items_a: Sequence[_Item], items_b: Sequence[_Item],
               names: dict[str, str]) -> Iterator[tuple[_Item, _Item]]:
        """
        Yield the pairs of matched items (links, joints, frames) in side A's order.

        ``names`` maps side A's names to side B's. Items only on one side, and renamed ones,
        are recorded as differences on the way (the items only B has at the end).
        """
        by_name = {item.name: item for item in items_b}
        for item in items_a:
            other = names.get(item.name)
            if other is None:
                self.add(entity, item.name, 'only-in-a', item.name, None, at=(item.location, None))
                continue
            item_b = by_name[other]
            if other != item.name and item.name not in self.matching.prefixed:
                self.add(entity, item.name, 'renamed', item.name, other,
                         at=(item.location, item_b.location))
            yield item, item_b
        matched = set(names.values())
        for item in items_b:
            if item.name not in matched:
                self.add(entity, item.name, 'only-in-b', None, item.name,
                         at=(None, item.location))

    def pose(self, entity: str, name: str, kind: str, poses: tuple[Pose | None, Pose | None],
             at: Places, *, part: str = '', detail: str = '') -> None:
        """Record a difference of two poses (``poses``: ``(a, b)``) if they differ."""
        a, b = poses
        if not poses_close(a, b, self.tol):
            distance, angle = (0.0 if error <= self.tol else error for error in pose_error(a, b))
            self.add(entity, name, kind, *pose_values(a, b, self.tol), part=part, at=at,
                     detail=f'moved {distance:.6g} m, turned {angle:.6g} rad{detail}')

    def content(self, entity: str, name: str,
                extras: tuple[Sequence[Element], Sequence[Element]], at: Places, *,
                part: str = '', keys: tuple[Key | None, Key | None] = (None, None)) -> None:
        """
        Add the differences of kept XML: ``extras`` holds each side's elements (values).

        ``keys`` are the keys of :attr:`blocks` that say which ``<gazebo>`` block wrote the
        content on each side.
        """
        a_elements, b_elements = extras
        if tuple(a_elements) == tuple(b_elements):
            return
        found = compare_elements(a_elements, b_elements, self.tol)
        for d in found:
            top = d.path.split('/', 1)[0].split(' #', 1)[0]
            places = (self._block(0, keys[0], top) or at[0], self._block(1, keys[1], top) or at[1])
            self.add(entity, name, 'content', d.a, d.b, part=part, field=d.path, at=places)

    def _block(self, side: int, key: Key | None, top: str) -> SourceLocation | None:
        """
        Return where the ``<gazebo>`` content ``top`` (``"sensor 'cam'"``) came from, if known.

        The element's own line when a block keeps it whole (a sensor, a plugin), else the
        first block holding its tag, else the first block.
        """
        entry = self.blocks[side].get(key) if key is not None else None
        if entry is None or isinstance(entry, SourceLocation):
            return entry
        for _, _, places in entry:
            if top in places:
                return places[top]
        tag = top.split(' ', 1)[0]
        for location, tags, _ in entry:
            if tag in tags:
                return location
        return entry[0][0] if entry else None
