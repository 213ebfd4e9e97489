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
The description model every reader produces and every writer and solver consumes.

A :class:`Robot` is a tree (for SDFormat: a forest) of :class:`Link` s connected by
:class:`Joint` s, plus :class:`Frame` s attached to links. Everything is frozen; numbers are
plain floats and tuples. Frames follow the URDF convention, generalised just enough for
SDFormat:

* ``Joint.origin`` is ``X_PJ``: the joint frame J in the parent link frame P, at the zero
  configuration (URDF ``<origin>``).
* ``Joint.joint_in_child`` is ``X_CJ``: the joint frame in the child link frame C. It is the
  identity for URDF and RobCoGen; SDFormat allows any pose there.
* The joint moves the child about/along ``Joint.axis`` (a unit or non-unit 3-vector,
  expressed in J). Hence ``X_PC(q) = X_PJ @ motion(q) @ inv(X_CJ)``.
* ``Link.pose`` is only used for links no joint attaches (SDFormat root links): their pose in
  the model frame. ``None`` means the model origin.

Rotations are unit quaternions ``(x, y, z, w)``; see :mod:`sdf_tools.transforms`.
"""

from collections.abc import Callable
from collections.abc import Iterable
import enum
from functools import cached_property
from typing import TYPE_CHECKING
from typing import TypeVar

from sdf_tools import transforms
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SourceLocation
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.robot_index import RobotIndex
from sdf_tools.transforms import Quat
from sdf_tools.transforms import Vec3
from sdf_tools.xmlio.element import Element

if TYPE_CHECKING:  # numpy is imported only when asked (Pose.matrix)
    import numpy as np
    import numpy.typing as npt

# What Robot.relocated moves: the records that have a location.
_Located = TypeVar('_Located', bound='Link | Visual | Collision | Joint | Frame | '
                   'GazeboExtension | KeptElement | Diagnostic')


@record(frozen=True, slots=True)
class Pose:
    """
    A rigid transform: position ``xyz`` (m) and a unit quaternion ``quat``.

    ``quat`` is ``(x, y, z, w)``. As a frame pose, the ``Pose`` of frame B in frame A maps
    B coordinates to A coordinates.
    """

    xyz: Vec3 = transforms.ZERO3
    quat: Quat = transforms.IDENTITY_QUAT

    @staticmethod
    def from_rpy(xyz: Vec3 = transforms.ZERO3, rpy: Vec3 = transforms.ZERO3) -> 'Pose':
        """Return the pose of a URDF ``<origin xyz rpy>`` (fixed-axis roll, pitch, yaw)."""
        x, y, z = xyz
        return Pose((float(x), float(y), float(z)), transforms.quat_from_rpy(*rpy))

    @property
    def rpy(self) -> Vec3:
        """Fixed-axis roll, pitch, yaw (rad) of the rotation."""
        return transforms.rpy_from_quat(self.quat)

    def compose(self, other: 'Pose') -> 'Pose':
        """Return ``self @ other`` (``other`` expressed in this pose's frame)."""
        xyz, quat = transforms.compose(self.xyz, self.quat, other.xyz, other.quat)
        return Pose(xyz, quat)

    def inverse(self) -> 'Pose':
        """Return the inverse transform."""
        xyz, quat = transforms.invert(self.xyz, self.quat)
        return Pose(xyz, quat)

    def is_identity(self, tol: float = 0.0) -> bool:
        """Return whether this is the identity, within ``tol`` per component."""
        x, y, z = self.xyz
        qx, qy, qz, qw = self.quat
        return (abs(x) <= tol and abs(y) <= tol and abs(z) <= tol
                and abs(qx) <= tol and abs(qy) <= tol and abs(qz) <= tol)

    def matrix(self) -> 'npt.NDArray[np.float64]':
        """Return this pose as a numpy (4, 4) homogeneous transform."""
        from sdf_tools.batch_transforms import transform_from_pose  # numpy only when asked
        return transform_from_pose(self.xyz, self.quat)


IDENTITY = Pose()


# --- geometry -------------------------------------------------------------------------------

@record(frozen=True, slots=True)
class Box:
    """Box centred at its frame; ``size`` is the full extent along x, y, z (m)."""

    size: Vec3


@record(frozen=True, slots=True)
class Cylinder:
    """Cylinder about the frame's z axis, centred at its frame (m)."""

    radius: float
    length: float


@record(frozen=True, slots=True)
class Sphere:
    """Sphere centred at its frame (m)."""

    radius: float


@record(frozen=True, slots=True)
class Capsule:
    """Capsule about the z axis (URDF 1.1 / SDFormat 1.8+); ``length`` excludes the caps."""

    radius: float
    length: float


@record(frozen=True, slots=True)
class Mesh:
    """Mesh file; ``filename`` is the URI as written; ``scale`` ``None`` means 1 1 1."""

    filename: str
    scale: Vec3 | None = None


@record(frozen=True, slots=True)
class OtherGeometry:
    """
    A geometry only SDFormat can express (plane, ellipsoid, heightmap, ...), kept as written.

    ``elements`` holds the shape element as a value
    (:class:`~sdf_tools.xmlio.element.Element`); a geometry of several ``<polyline>`` s
    (which SDFormat allows) holds them all, in order.
    """

    kind: str
    elements: tuple[Element, ...]


Geometry = Box | Cylinder | Sphere | Capsule | Mesh | OtherGeometry


# --- links ----------------------------------------------------------------------------------

@record(frozen=True, slots=True)
class Material:
    """A URDF material: a name, an RGBA colour (0..1) and/or a texture file name."""

    name: str | None = None
    rgba: tuple[float, float, float, float] | None = None
    texture: str | None = None


@record(frozen=True, slots=True)
class Inertial:
    """
    Mass properties of a link.

    ``origin`` is the inertial frame in the link frame (its position is the centre of mass);
    the inertia tensor (kg m^2) is about the centre of mass, in that frame. ``auto`` is an
    SDFormat ``<inertial auto="true">`` as written (a
    :class:`~sdf_tools.xmlio.element.Element`), whose values these are computed from the
    collisions (written back as given to SDFormat 1.11); ``None`` otherwise.
    """

    mass: float
    ixx: float = 0.0
    ixy: float = 0.0
    ixz: float = 0.0
    iyy: float = 0.0
    iyz: float = 0.0
    izz: float = 0.0
    origin: Pose = IDENTITY
    auto: Element | None = None

    @property
    def inertia(self) -> tuple[tuple[float, float, float], ...]:
        """Return the symmetric (3, 3) inertia tensor as nested tuples."""
        return ((self.ixx, self.ixy, self.ixz),
                (self.ixy, self.iyy, self.iyz),
                (self.ixz, self.iyz, self.izz))


@record(frozen=True, slots=True)
class Visual:
    """
    A visual element.

    ``name`` is ``None`` when the source gives none. ``extras`` holds the SDFormat children
    sdf_tools does not model, as written (:class:`~sdf_tools.xmlio.element.Element` values,
    kept for SDF to SDF writing).
    """

    origin: Pose = IDENTITY
    geometry: Geometry | None = None
    name: str | None = None
    material: Material | None = None
    location: SourceLocation | None = None
    extras: tuple[Element, ...] = ()


@record(frozen=True, slots=True)
class Collision:
    """A collision element (see :class:`Visual`)."""

    origin: Pose = IDENTITY
    geometry: Geometry | None = None
    name: str | None = None
    location: SourceLocation | None = None
    extras: tuple[Element, ...] = ()


@record(frozen=True, slots=True)
class Link:
    """A rigid body. ``pose`` is used only for links no joint attaches (module docstring)."""

    name: str
    inertial: Inertial | None = None
    visuals: tuple[Visual, ...] = ()
    collisions: tuple[Collision, ...] = ()
    location: SourceLocation | None = None
    pose: Pose | None = None
    extras: tuple[Element, ...] = ()


# --- joints ---------------------------------------------------------------------------------

class JointType(enum.Enum):
    """Every joint type of URDF and SDFormat."""

    REVOLUTE = 'revolute'
    CONTINUOUS = 'continuous'
    PRISMATIC = 'prismatic'
    FIXED = 'fixed'
    FLOATING = 'floating'
    PLANAR = 'planar'
    BALL = 'ball'
    UNIVERSAL = 'universal'
    REVOLUTE2 = 'revolute2'
    SCREW = 'screw'
    GEARBOX = 'gearbox'

    @property
    def axes(self) -> int:
        """
        Return how many axes the joint uses: 0, 1 (``Joint.axis``) or 2 (also ``axis2``).

        Planar joints use ``axis`` as the plane normal; gearbox joints turn about ``axis``
        and ``axis2``.
        """
        return _JOINT_KINDS[self][0]

    @property
    def coordinate_suffixes(self) -> tuple[str, ...] | None:
        """
        Return the suffixes of a multi-dof joint's coordinates (``J/x``, ``J/qw``...).

        ``None`` for a joint with one coordinate, named like the joint; ``()`` for fixed.
        """
        return _JOINT_KINDS[self][1]

    @property
    def dof(self) -> int:
        """Return the number of joint coordinates (floating: 7, position + quaternion)."""
        suffixes = _JOINT_KINDS[self][1]
        return 1 if suffixes is None else len(suffixes)

    def coordinate_names(self, joint: str) -> tuple[str, ...]:
        """Return the names of the coordinates of a joint of this type called ``joint``."""
        suffixes = _JOINT_KINDS[self][1]
        return (joint,) if suffixes is None else tuple(f'{joint}/{s}' for s in suffixes)


# Per joint type: how many axes it uses, and its coordinates (None: one, named like the joint).
# Ball and floating orientations are quaternions (x, y, z, w); planar moves in the plane
# normal to its axis.
_JOINT_KINDS = {
    JointType.REVOLUTE: (1, None),
    JointType.CONTINUOUS: (1, None),
    JointType.PRISMATIC: (1, None),
    JointType.SCREW: (1, None),
    JointType.GEARBOX: (2, None),
    JointType.FIXED: (0, ()),
    JointType.FLOATING: (0, ('x', 'y', 'z', 'qx', 'qy', 'qz', 'qw')),
    JointType.PLANAR: (1, ('x', 'y', 'theta')),
    JointType.BALL: (0, ('qx', 'qy', 'qz', 'qw')),
    JointType.UNIVERSAL: (2, ('1', '2')),
    JointType.REVOLUTE2: (2, ('1', '2')),
}


@record(frozen=True, slots=True)
class Limit:
    """Joint limits: position (rad or m), effort (N m or N) and velocity (rad/s or m/s)."""

    lower: float = 0.0
    upper: float = 0.0
    effort: float = 0.0
    velocity: float = 0.0


@record(frozen=True, slots=True)
class Dynamics:
    """Joint damping, friction and spring (SDFormat) coefficients."""

    damping: float = 0.0
    friction: float = 0.0
    spring_reference: float = 0.0
    spring_stiffness: float = 0.0


@record(frozen=True, slots=True)
class Mimic:
    """``value = multiplier * value(joint) + offset``."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0


@record(frozen=True, slots=True)
class Calibration:
    """URDF ``<calibration>`` reference positions."""

    rising: float | None = None
    falling: float | None = None


@record(frozen=True, slots=True)
class SafetyController:
    """URDF ``<safety_controller>``."""

    k_velocity: float
    k_position: float = 0.0
    soft_lower_limit: float = 0.0
    soft_upper_limit: float = 0.0


@record(frozen=True, slots=True)
class Joint:
    """
    A joint from ``parent`` to ``child`` (link names; ``parent`` may be ``world``).

    See the module docstring for ``origin`` and ``joint_in_child``. ``axis2``/``limit2``/
    ``dynamics2`` belong to the second axis of universal and revolute2 joints;
    ``screw_thread_pitch`` to screw joints: metres travelled along the axis per revolution,
    positive for a right-handed thread (SDFormat 1.10 ``<screw_thread_pitch>``; the older
    ``<thread_pitch>`` p, in rad/m and left-handed, is ``-2 pi / p``); ``gearbox_*`` to
    gearbox joints.
    """

    name: str
    kind: JointType
    parent: str
    child: str
    origin: Pose = IDENTITY
    axis: Vec3 = (1.0, 0.0, 0.0)
    limit: Limit | None = None
    dynamics: Dynamics | None = None
    mimic: Mimic | None = None
    calibration: Calibration | None = None
    safety_controller: SafetyController | None = None
    location: SourceLocation | None = None
    joint_in_child: Pose = IDENTITY
    axis2: Vec3 | None = None
    limit2: Limit | None = None
    dynamics2: Dynamics | None = None
    screw_thread_pitch: float | None = None
    gearbox_ratio: float | None = None
    gearbox_reference_body: str | None = None
    extras: tuple[Element, ...] = ()


@record(frozen=True, slots=True)
class Frame:
    """
    A named frame rigidly attached to link ``attached_to`` at ``pose`` (in the link frame).

    ``attached_to`` is ``world`` for a frame fixed in the model frame (the frames of a static
    SDFormat model without links); ``pose`` is then in the model frame.
    """

    name: str
    attached_to: str
    pose: Pose = IDENTITY
    location: SourceLocation | None = None


@record(frozen=True, slots=True, eq=False)
class GazeboExtension:
    """
    One URDF ``<gazebo>`` block.

    ``reference`` is ``None`` for the model level; ``elements`` are its child elements as
    written, values (:class:`~sdf_tools.xmlio.element.Element`, with the text after each
    when it is not layout), read once.
    """

    reference: str | None
    elements: tuple[Element, ...] = ()
    location: SourceLocation | None = None


@record(frozen=True, slots=True)
class KeptElement:
    """
    A top-level URDF element the model does not hold, kept as written to be written back.

    ``<transmission>``, ``<ros2_control>`` and any other unknown child of ``<robot>`` (as
    SDFormat-only content is kept in ``extras``): the URDF writer puts it back where it was
    among the ``<gazebo>`` blocks, conversions that cannot hold it say that they drop it.

    Attributes
    ----------
    tag : str
        Its name as written (``transmission``).
    name : str or None
        Its ``name`` attribute, for messages.
    element : Element
        The element as written (:class:`~sdf_tools.xmlio.element.Element`).
    location : SourceLocation or None
        Where it is.
    gazebo_before : int
        How many ``<gazebo>`` blocks come before it in the document.

    """

    tag: str
    name: str | None
    element: Element
    location: SourceLocation | None = None
    gazebo_before: int = 0


# --- the robot ------------------------------------------------------------------------------

@record(frozen=True, eq=False)
class Robot:
    """
    A whole description.

    Attributes
    ----------
    name : str
        Robot (model) name.
    links, joints, frames : tuple
        In document order.
    materials : tuple of Material
        URDF top-level materials.
    gazebo : tuple of GazeboExtension
        URDF ``<gazebo>`` blocks in document order.
    origin : Pose or None
        The non-standard URDF ``<robot><origin>`` (libsdformat writes it as the model pose).
    source : str
        Where it was read from (for messages).
    source_format : str
        ``'urdf'``, ``'sdf'`` or ``'kindsl'``.
    warnings : tuple of Diagnostic
        Problems the reader noticed that did not stop it.
    static : bool
        SDFormat ``<static>``.
    location : SourceLocation or None
        Where the ``<robot>`` or ``<model>`` is.
    extras : tuple of Element
        The SDFormat children of the model that sdf_tools does not model, as written (links,
        joints, visuals and collisions have their own).
    urdf_extras : tuple of KeptElement
        Top-level URDF elements the model does not hold, in document order.

    """

    name: str
    links: tuple[Link, ...] = ()
    joints: tuple[Joint, ...] = ()
    frames: tuple[Frame, ...] = ()
    materials: tuple[Material, ...] = ()
    gazebo: tuple[GazeboExtension, ...] = ()
    origin: Pose | None = None
    source: str = '<string>'
    source_format: str = 'urdf'
    warnings: tuple[Diagnostic, ...] = ()
    static: bool = False
    location: SourceLocation | None = None
    extras: tuple[Element, ...] = field(default=())
    urdf_extras: tuple[KeptElement, ...] = ()

    @cached_property
    def index(self) -> 'RobotIndex':
        """Name look-ups and tree structure, computed once."""
        return RobotIndex(self)

    def with_warnings(self, warnings: Iterable[Diagnostic]) -> 'Robot':
        """Return this robot with ``warnings`` added; its index, which they leave, is kept."""
        robot = replace(self, warnings=self.warnings + tuple(warnings))
        if 'index' in self.__dict__:  # computed (cached_property): links and joints are the same
            robot.__dict__['index'] = self.__dict__['index']
        return robot

    def link(self, name: str) -> Link:
        """Return the link called ``name`` (``KeyError`` if none)."""
        return self.index.links[name]

    def joint(self, name: str) -> Joint:
        """Return the joint called ``name`` (``KeyError`` if none)."""
        return self.index.joints[name]

    def resource_uses(self) -> list[tuple[str, bool, str, SourceLocation | None]]:
        """Return ``(uri, is_mesh, entity, location)`` of every mesh and texture, in order."""
        uses = []
        for link in self.links:
            entity = f"link '{link.name}'"
            for element in link.visuals + link.collisions:
                location = element.location or link.location
                if isinstance(element.geometry, Mesh):
                    uses.append((element.geometry.filename, True, entity, location))
                material = getattr(element, 'material', None)  # visuals only
                if material is not None and material.texture:
                    uses.append((material.texture, False, entity, location))
        uses += [(m.texture, False, f"material '{m.name}'", self.location)
                 for m in self.materials if m.texture]
        return uses

    def relocated(self, locate: Callable[[SourceLocation], SourceLocation]) -> 'Robot':
        """
        Return the robot with every location (its elements' and its warnings') mapped.

        ``locate(SourceLocation) -> SourceLocation``, e.g. from an expansion's lines to the
        xacro files (:class:`~sdf_tools.source_map.SourceMap`).
        """
        def at(item: _Located) -> _Located:
            if item.location is None:
                return item
            return replace(item, location=locate(item.location))

        def warning(d: Diagnostic) -> Diagnostic:  # and the other places it names
            d = at(d)
            return replace(d, places=tuple(map(locate, d.places))) if d.places else d

        links = tuple(replace(at(link), visuals=tuple(map(at, link.visuals)),
                              collisions=tuple(map(at, link.collisions)))
                      for link in self.links)
        return replace(self, links=links, joints=tuple(map(at, self.joints)),
                       frames=tuple(map(at, self.frames)), gazebo=tuple(map(at, self.gazebo)),
                       urdf_extras=tuple(map(at, self.urdf_extras)),
                       warnings=tuple(map(warning, self.warnings)),
                       location=None if self.location is None else locate(self.location))
