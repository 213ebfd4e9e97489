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
The Kinematics-DSL builder: a parsed :class:`~.document.Document` to the model.

It resolves the names of the document (every ``children`` entry must name a defined link
and joint; each joint connects one parent and one child; each link but the base has one
parent) and reports what does not, then builds the model.

Mapping to the model
--------------------
* Every ``link`` (and the ``RobotBase``) is a :class:`~sdf_tools.model.Link` whose frame is
  the RobCoGen link frame: for a link other than the base, the frame that coincides with the
  frame of its supporting joint at the zero configuration, so ``joint_in_child`` is the
  identity, as in URDF.
* ``r_joint`` / ``p_joint`` become :attr:`JointType.REVOLUTE` / :attr:`JointType.PRISMATIC`
  joints with ``axis = (0, 0, 1)`` (the joint frame's z axis) and no limits (the language has
  none). ``ref_frame`` is the joint frame in the predecessor's link frame: the translation,
  then intrinsic rotations about X, then the new Y, then the new Z
  (:func:`~sdf_tools.transforms.quat_from_intrinsic_xyz`).
* The parent and child of a joint come from the ``children { <link> via <joint> }`` lists.
* ``frames { name { translation rotation } }`` become :class:`~sdf_tools.model.Frame` s
  attached to their link, with the same pose format as ``ref_frame``.
* ``RobotBase <name> floating { ... }`` (RobCoGen's floating base) adds a massless link named
  ``world`` and a :attr:`JointType.FLOATING` joint ``world_to_<name>`` from it to the base,
  the URDF idiom for a free-flying robot; a fixed base is simply the root link. Link ids are
  checked (positive integers, unique; the base may say ``id = 0``) but not kept.
* Inertia: see :func:`inertial_from_kindsl`.
"""

import math
from typing import Sequence
from typing import TypeVar

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.kindsl.document import Document
from sdf_tools.formats.kindsl.document import JointSpec
from sdf_tools.formats.kindsl.document import LinkSpec
from sdf_tools.formats.kindsl.document import MOMENTS
from sdf_tools.model import Frame
from sdf_tools.model import IDENTITY
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.topology import WORLD

_Spec = TypeVar('_Spec', LinkSpec, JointSpec)
_Pair = tuple[str, str]


def build_robot(document: Document, source: str, reporter: Reporter) -> Robot:
    """
    Return the model a parsed document describes.

    Parameters
    ----------
    document : Document
        From :func:`~sdf_tools.formats.kindsl.parser.parse_document`.
    source : str
        Name for messages.
    reporter : Reporter
        Receives every problem with the names; the model holds what resolves.

    Returns
    -------
    Robot
        With ``source_format='kindsl'``, not yet checked by
        :func:`~sdf_tools.validate.check_robot`.

    """
    return _Builder(document, source, reporter).build()


def inertial_from_kindsl(mass: float, com: Sequence[float],
                         moments: Sequence[float]) -> Inertial:
    """
    Convert Kinematics-DSL inertia properties to a model :class:`Inertial`.

    The DSL gives, all in the link frame L (RobCoGen: "All the properties must be expressed
    in the link-frame"): the mass m, the centre of mass c = ``com`` and
    ``moments = (Ix, Iy, Iz, Ixy, Ixz, Iyz)`` with ``Ix = sum m_i (y_i^2 + z_i^2)`` and
    ``Ixy = sum m_i x_i y_i`` over coordinates in L, i.e. the moments are about the origin
    of L, and the tensor about that origin is ::

        I_O = [[ Ix, -Ixy, -Ixz],
               [-Ixy,  Iy, -Iyz],
               [-Ixz, -Iyz,  Iz]]

    (the products are given *without* the minus sign). The document's own example confirms
    the origin: a thin hollow cylinder of unit mass, unit length and radius r = 0.05 along x,
    with L at the centre of one base, has ``Iy = 0.33458``; about its centre the moment is
    m (r^2 / 2 + L^2 / 12) = 0.0845833, about the base m (r^2 / 2 + L^2 / 3) = 0.3345833.

    The model (URDF ``<inertial>``) wants the tensor about the centre of mass, in axes
    parallel to L. The parallel-axis theorem, I_O = I_C + m (|c|^2 E - c c^T), gives ::

        I_C = I_O - m (|c|^2 E - c c^T)
        ixx = Ix - m (cy^2 + cz^2)      ixy = -Ixy + m cx cy
        iyy = Iy - m (cx^2 + cz^2)      ixz = -Ixz + m cx cz
        izz = Iz - m (cx^2 + cy^2)      iyz = -Iyz + m cy cz

    and the inertial frame is at c with the link frame's orientation.

    Parameters
    ----------
    mass : float
        ``mass`` (kg).
    com : sequence of 3 float
        ``CoM`` in the link frame (m).
    moments : sequence of 6 float
        ``(Ix, Iy, Iz, Ixy, Ixz, Iyz)`` about the link-frame origin (kg m^2), products
        without the minus sign, as the DSL writes them.

    Returns
    -------
    Inertial
        Mass, tensor about the centre of mass (URDF convention) and ``origin`` at ``com``.

    """
    cx, cy, cz = (float(v) for v in com)
    ix, iy, iz, ixy, ixz, iyz = (float(v) for v in moments)
    m = float(mass)
    c = (cx + 0.0, cy + 0.0, cz + 0.0)
    # "+ 0.0" turns the -0.0 of e.g. -0.0 + m * 0.0 * -0.2 into 0.0.
    return Inertial(
        m,
        ixx=ix - m * (cy * cy + cz * cz) + 0.0,
        ixy=-ixy + m * cx * cy + 0.0,
        ixz=-ixz + m * cx * cz + 0.0,
        iyy=iy - m * (cx * cx + cz * cz) + 0.0,
        iyz=-iyz + m * cy * cz + 0.0,
        izz=iz - m * (cx * cx + cy * cy) + 0.0,
        origin=Pose(c) if c != (0.0, 0.0, 0.0) else IDENTITY,
    )


class _Builder:
    """Resolves names in a parsed document and builds the :class:`Robot`."""

    __slots__ = ('doc', 'source', 'reporter')

    def __init__(self, doc: Document, source: str, reporter: Reporter) -> None:
        self.doc = doc
        self.source = source
        self.reporter = reporter

    def loc(self, line: int | None) -> SourceLocation:
        return SourceLocation(self.source, line)

    def error(self, line: int | None, entity: str, message: str,
              code: Code = Code.INVALID) -> None:
        self.reporter.error(message, self.loc(line), entity, code)

    def build(self) -> Robot:
        doc = self.doc
        specs: list[LinkSpec] = ([doc.base] if doc.base is not None else []) + doc.links
        links = self._index(specs, 'link')
        joints = self._index(doc.joints, 'joint')
        self._check_ids(specs)
        parent_of, ends = self._connect(specs, links, joints)
        for spec in doc.links:
            if spec.name not in parent_of and links.get(spec.name) is spec:
                self.error(spec.line, f"link '{spec.name}'", 'is not the child of any link '
                           "(no 'children' list names it); only the RobotBase has no parent",
                           Code.NO_PARENT)
        model_joints = []
        for joint in doc.joints:
            if joints.get(joint.name) is not joint:
                continue
            connection = ends.get(joint.name)
            if connection is None:
                self.error(joint.line, f"joint '{joint.name}'", 'is not used by any link (no '
                           f"'children' entry says '<link> via {joint.name}')", Code.UNUSED_JOINT)
                continue
            parent, child = connection
            model_joints.append(Joint(name=joint.name, kind=joint.kind, parent=parent,
                                      child=child, origin=joint.pose, axis=(0.0, 0.0, 1.0),
                                      location=self.loc(joint.line)))
        model_links = [self._link(spec) for spec in specs]
        frames = self._frames(specs, links)
        base = doc.base
        if base is not None and base.floating:
            model_joints.insert(0, self._floating_joint(base, links, joints))
            model_links.insert(0, Link(WORLD, location=self.loc(base.line)))
        return Robot(name=doc.name, links=tuple(model_links), joints=tuple(model_joints),
                     frames=tuple(frames), source=self.source, source_format='kindsl',
                     location=self.loc(doc.line))

    def _index(self, specs: list[_Spec], kind: str) -> dict[str, _Spec]:
        """Return name -> spec; the second and later specs of a name are reported."""
        index: dict[str, _Spec] = {}
        for spec in specs:
            if spec.name in index:
                self.error(spec.line, f"{kind} '{spec.name}'", f'{kind} name {spec.name!r} is '
                           f'used more than once (first on line {index[spec.name].line})',
                           Code.DUPLICATE_NAME)
                continue
            index[spec.name] = spec
        return index

    def _check_ids(self, specs: list[LinkSpec]) -> None:
        owners: dict[int, LinkSpec] = {}
        for spec in specs:
            if spec.link_id is None:
                continue
            entity = f"link '{spec.name}'"
            if spec.is_base:
                if spec.link_id != 0:
                    self.error(spec.id_line, entity, f'the RobotBase id must be 0, got '
                               f'{spec.link_id}', Code.BAD_ID)
                continue
            if spec.link_id < 1:
                self.error(spec.id_line, entity, f'id must be a positive integer, got '
                           f'{spec.link_id} (0 is the RobotBase)', Code.BAD_ID)
            elif spec.link_id in owners:
                other = owners[spec.link_id]
                self.error(spec.id_line, entity, f'id {spec.link_id} is already used by link '
                           f"'{other.name}' (line {other.id_line})", Code.DUPLICATE_NAME)
            else:
                owners[spec.link_id] = spec

    def _connect(self, specs: list[LinkSpec], links: dict[str, LinkSpec],
                 joints: dict[str, JointSpec]) -> tuple[dict[str, _Pair], dict[str, _Pair]]:
        """
        Resolve every ``children`` entry.

        Returns ``(parent_of, ends)``: child link -> ``(joint, parent)`` and joint ->
        ``(parent, child)``, for the valid connections.
        """
        parent_of: dict[str, _Pair] = {}
        ends: dict[str, _Pair] = {}
        base_name = self.doc.base.name if self.doc.base is not None else None
        for spec in specs:
            if links.get(spec.name) is not spec:
                continue
            entity = f"link '{spec.name}'"
            for child, joint, line in spec.children or ():
                ok = True
                if joint not in joints:
                    self.error(line, entity, f"children: '{child} via {joint}' names joint "
                               f'{joint!r}, which is not defined (r_joint or p_joint)',
                               Code.MISSING_JOINT)
                    ok = False
                if child not in links:
                    self.error(line, entity, f"children: '{child} via {joint}' names link "
                               f'{child!r}, which is not defined', Code.MISSING_LINK)
                    ok = False
                if not ok:
                    continue
                if child == base_name:
                    self.error(line, entity, f'children: the RobotBase {child!r} cannot be '
                               'the child of a link', Code.CYCLE)
                    continue
                if child == spec.name:
                    self.error(line, entity, f'children: link {child!r} cannot be its own '
                               'child', Code.CYCLE)
                    continue
                used = ends.get(joint)
                if used is not None:
                    self.error(line, entity, f'children: joint {joint!r} already connects '
                               f'link {used[0]!r} to link {used[1]!r}; each joint connects '
                               'one parent and one child', Code.JOINT_REUSED)
                    continue
                if child in parent_of:
                    other_joint, other_parent = parent_of[child]
                    self.error(line, entity, f'children: link {child!r} is already the child '
                               f'of link {other_parent!r} (via {other_joint!r}); a link has '
                               'only one parent', Code.SEVERAL_PARENTS)
                    continue
                parent_of[child] = (joint, spec.name)
                ends[joint] = (spec.name, child)
        return parent_of, ends

    def _link(self, spec: LinkSpec) -> Link:
        inertial = None
        ip = spec.inertia
        if ip is not None and ip.mass is not None and ip.com is not None:
            moments = [ip.moments.get(k, 0.0) for k in MOMENTS]
            inertial = inertial_from_kindsl(ip.mass, ip.com, moments)
            values = (inertial.ixx, inertial.ixy, inertial.ixz, inertial.iyy, inertial.iyz,
                      inertial.izz)
            if not all(map(math.isfinite, values)):
                self.error(ip.line, f"link '{spec.name}'", 'moving the moments of inertia to '
                           'the centre of mass overflows (the mass or CoM is too large)',
                           Code.BAD_NUMBER)
                inertial = None
            elif min(inertial.ixx, inertial.iyy, inertial.izz) < 0.0:
                self.reporter.warn(
                    'moving the moments of inertia to the centre of mass makes one negative '
                    f'(ixx {inertial.ixx:.6g}, iyy {inertial.iyy:.6g}, izz {inertial.izz:.6g}): '
                    'Ix, Iy, Iz must be about the link-frame origin, not about the centre of '
                    'mass', self.loc(ip.line), f"link '{spec.name}'", Code.BAD_INERTIA)
        return Link(spec.name, inertial=inertial, location=self.loc(spec.line))

    def _frames(self, specs: list[LinkSpec], links: dict[str, LinkSpec]) -> list[Frame]:
        frames = []
        seen: dict[str, int] = {}
        for spec in specs:
            if links.get(spec.name) is not spec:
                continue
            for frame in spec.frames or ():
                entity = f"frame '{frame.name}'"
                if frame.name in links:
                    self.error(frame.line, entity, f'has the name of a link (line '
                               f'{links[frame.name].line}); frame and link names must be '
                               'distinct', Code.DUPLICATE_NAME)
                    continue
                if frame.name in seen:
                    self.error(frame.line, entity, f'frame name {frame.name!r} is used more '
                               f'than once (first on line {seen[frame.name]})',
                               Code.DUPLICATE_NAME)
                    continue
                seen[frame.name] = frame.line
                frames.append(Frame(frame.name, spec.name, frame.pose, self.loc(frame.line)))
        return frames

    def _floating_joint(self, base: LinkSpec, links: dict[str, LinkSpec],
                        joints: dict[str, JointSpec]) -> Joint:
        name = f'{WORLD}_to_{base.name}'
        if WORLD in links:
            self.error(links[WORLD].line, f"link '{WORLD}'", f'a floating base adds a link '
                       f'named {WORLD!r} (the fixed frame); rename this link', Code.DUPLICATE_NAME)
        if name in joints:
            self.error(joints[name].line, f"joint '{name}'", f'a floating base {base.name!r} '
                       f'adds a floating joint named {name!r}; rename this joint',
                       Code.DUPLICATE_NAME)
        return Joint(name=name, kind=JointType.FLOATING, parent=WORLD, child=base.name,
                     location=self.loc(base.line))
