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
A decided SDFormat document: everything the text says, in the order it says it.

The URDF converter (:mod:`sdf_tools.convert`) decides names, poses, inertials, joints
with the schema's defaults filled in and what ``<gazebo>`` extensions add, and hands the
result over as a :class:`SdfDocument`; :func:`~sdf_tools.formats.sdf.emit.write_document`
writes it, once, from the first character to the last. Poses are :class:`~sdf_tools.model.Pose`
values (the writer formats them, and a non-finite one can be found before anything is
written); the leaves of a joint axis are texts; content that is XML as written, or that
extensions configure, is :class:`~sdf_tools.xmlio.element.Element` values.
"""

from sdf_tools.model import Geometry
from sdf_tools.model import Pose
from sdf_tools.records import record
from sdf_tools.xmlio.element import Element

#: Leaves of an element: ``(tag, text)`` in order.
Leaves = tuple[tuple[str, str], ...]


@record(frozen=True, slots=True)
class InertialOut:
    """``<inertial>``: the centre of mass and principal frame, the mass and six moments."""

    com: tuple[float, float, float]
    quat: tuple[float, float, float, float]
    mass: float
    moments: tuple[float, ...]


@record(frozen=True, slots=True)
class PartOut:
    """
    A ``<visual>`` or ``<collision>`` (``tag``).

    ``uri`` is a mesh's as written (unescaped); ``colour`` the RGBA written as diffuse and
    ambient (a visual no extension configures); ``content`` what extensions give it, after
    the pose and geometry.
    """

    tag: str
    name: str
    origin: Pose
    geometry: Geometry | None
    uri: str = ''
    colour: tuple | None = None
    content: tuple[Element, ...] = ()


@record(frozen=True, slots=True)
class LinkOut:
    """
    A ``<link>``, in the order written.

    Its pose (``None``: none written) relative to ``relative_to``, inertial, collisions
    then visuals (``parts``), then ``content``.
    """

    name: str
    pose: Pose | None
    relative_to: str | None
    inertial: InertialOut
    parts: tuple[PartOut, ...] = ()
    content: tuple[Element, ...] = ()


@record(frozen=True, slots=True)
class AxisOut:
    """
    A joint's ``<axis>``, in the order written.

    ``xyz`` (``None``: none), ``<mimic joint=...>`` with its leaves (``mimic_joint``
    ``None``: no ``<mimic>``), ``<limit>`` and ``<dynamics>`` leaves (``None``: no such
    element), and leaves written last (``after``).
    """

    xyz: tuple[float, float, float] | None
    mimic_joint: str | None = None
    mimic: Leaves = ()
    limit: Leaves | None = None
    dynamics: Leaves | None = None
    after: Leaves = ()


@record(frozen=True, slots=True)
class JointOut:
    """A ``<joint>``: posed relative to ``relative_to``; ``axis`` ``None`` for a fixed joint."""

    name: str
    type: str  # noqa: A003 (the attribute's name in SDFormat)
    relative_to: str
    origin: Pose
    parent: str
    child: str
    axis: AxisOut | None = None


@record(frozen=True, slots=True)
class FrameOut:
    """A ``<frame>`` attached to ``attached_to``, posed (``None``: no pose) in it."""

    name: str
    attached_to: str
    pose: Pose | None = None


#: What a model lists: links, joints (decided, or configured as an element), in order.
ModelItem = LinkOut | JointOut | Element


@record(frozen=True, slots=True)
class ModelOut:
    """
    A ``<model>``, in the order written.

    Its ``items`` (links and joints), then ``content`` (model-level extension content),
    ``frames``, the model ``pose`` and ``plugins`` (systems a launch adds).
    """

    name: str
    items: tuple[ModelItem, ...] = ()
    content: tuple[Element, ...] = ()
    frames: tuple[FrameOut, ...] = ()
    pose: Pose | None = None
    plugins: tuple[Element, ...] = ()


@record(frozen=True, slots=True)
class SdfDocument:
    """An ``<sdf version=...>`` holding one model."""

    version: str
    model: ModelOut
