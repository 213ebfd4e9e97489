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
A parsed Kinematics-DSL document: plain records, between the parser and the builder.

:mod:`.parser` fills them in text order, with the line of each item for messages; names are
not resolved yet (a ``children`` entry names a link and a joint that may not exist): the
builder in :mod:`.reader` resolves them and makes the model.
"""

from sdf_tools.model import JointType
from sdf_tools.model import Pose
from sdf_tools.records import field
from sdf_tools.records import record

#: The moments of inertia of ``inertia_properties``, in the order
#: :func:`~sdf_tools.formats.kindsl.reader.inertial_from_kindsl` takes them.
MOMENTS = ('Ix', 'Iy', 'Iz', 'Ixy', 'Ixz', 'Iyz')


@record(slots=True)
class Inertia:
    """An ``inertia_properties`` block: mass (kg), ``CoM`` (m), moments (kg m^2) by name."""

    line: int
    mass: float | None = None
    com: tuple | None = None
    moments: dict = field(default_factory=dict)


@record(slots=True)
class FrameSpec:
    """A frame in a link's ``frames`` block; its pose is in the link frame."""

    name: str
    line: int
    pose: Pose


@record(slots=True)
class LinkSpec:
    """A ``link`` or the ``RobotBase``; ``children`` holds ``(child, joint, line)``."""

    name: str
    line: int
    is_base: bool = False
    floating: bool = False
    link_id: int | None = None
    id_line: int | None = None
    inertia: Inertia | None = None
    children: list | None = None  # [(child, joint, line)]
    frames: list | None = None


@record(slots=True)
class JointSpec:
    """An ``r_joint`` or ``p_joint``; ``pose`` is its ``ref_frame``."""

    name: str
    line: int
    kind: JointType
    pose: Pose


@record(slots=True)
class Document:
    """A parsed document: the robot's name, its base, links and joints in text order."""

    name: str
    line: int
    base: LinkSpec | None
    links: list[LinkSpec]
    joints: list[JointSpec]
