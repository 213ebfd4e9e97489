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
Checks shared by every reader: names, references, the tree, mimic joints, inertia, geometry.

Each check records diagnostics (with the element's line) in a :class:`Reporter`; readers call
:func:`check_robot` once the model is built and raise if it found errors.
"""

from collections.abc import Collection
from collections.abc import Sequence
import math
import sys

from sdf_tools import inertia
from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Geometry
from sdf_tools.model import Joint
from sdf_tools.model import Link
from sdf_tools.model import Mesh
from sdf_tools.model import Robot
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.topology import find_cycles
from sdf_tools.topology import mimic_loop_message
from sdf_tools.topology import WORLD


def check_robot(robot: Robot, reporter: Reporter, *, single_root: bool = True,
                implicit_world: bool = False, allow_loops: bool = False) -> None:
    """
    Check names, references, the tree shape, mimic joints, inertials and shapes.

    Parameters
    ----------
    robot : Robot
        The model to check.
    reporter : Reporter
        Receives errors and warnings.
    single_root : bool
        Require exactly one root link (URDF, RobCoGen); SDFormat models may have several.
    implicit_world : bool
        Accept ``world`` as a joint parent without a ``world`` link (SDFormat).
    allow_loops : bool
        Accept a link that is the child of several joints (SDFormat parallel linkages):
        the first joint is its tree joint, each other one a loop joint
        (:class:`~sdf_tools.topology.Topology`), reported as a warning because forward
        kinematics follows the tree and does not enforce the loop. Otherwise it is an error
        (URDF, RobCoGen).

    """
    topology = robot.index.topology
    topology.report(reporter, implicit_world=implicit_world,
                    loops='warn' if allow_loops else 'error')
    roots = topology.roots
    if single_root and robot.links:
        if not roots:
            reporter.error('no root link: every link is the child of a joint (the joints '
                           'form a loop)', robot.location, f"robot '{robot.name}'",
                           Code.NO_ROOT)
        elif len(roots) > 1:
            shown = ', '.join(repr(r) for r in roots[:6]) + (', ...' if len(roots) > 6 else '')
            reporter.error(f'{len(roots)} root links ({shown}): a description needs exactly '
                           'one link that is not the child of a joint', robot.location,
                           f"robot '{robot.name}'", Code.SEVERAL_ROOTS)
    topology.report_cycles(reporter)
    _check_mimic(robot, reporter)
    _check_name_clashes(robot, topology.links, reporter)
    for frame in robot.frames:
        if frame.attached_to not in topology.links and frame.attached_to != WORLD:
            reporter.error(f'attached to {frame.attached_to!r}, which is not a link',
                           frame.location, f"frame '{frame.name}'", Code.MISSING_LINK)
    for link in robot.links:
        check_inertial(link, reporter)
        _check_geometry(link, reporter)
    for joint in robot.joints:
        _check_joint(joint, reporter)


def _check_mimic(robot: Robot, reporter: Reporter) -> None:
    """
    Warn about mimic joints whose source is missing or that form loops.

    These are warnings here: the description still converts (SDFormat 1.9 has no mimic).
    :func:`sdf_tools.kinematics.compile_tree` refuses them, since no value can be computed.
    """
    joints = robot.index.joints
    mimicking = [(joint, joint.mimic) for joint in robot.joints if joint.mimic is not None]
    for joint, mimic in mimicking:
        if mimic.joint not in joints:
            reporter.warn(f'<mimic> names joint {mimic.joint!r}, which does not exist',
                          joint.location, f"joint '{joint.name}'", Code.MISSING_JOINT)
    if not mimicking:
        return  # no loop to look for (most robots)

    def source(name: str) -> str | None:
        mimic = joints[name].mimic
        return None if mimic is None else mimic.joint

    for loop in find_cycles(joints, source):
        start = joints[loop[0]]
        message = ('<mimic> names the joint itself' if len(loop) == 1
                   else mimic_loop_message(loop))
        reporter.warn(message, start.location, f"joint '{start.name}'", Code.CYCLE)


def _check_name_clashes(robot: Robot, links: Collection[str], reporter: Reporter) -> None:
    for joint in robot.joints:
        if joint.name in links:
            reporter.warn('has the same name as a link; SDFormat needs distinct names, so '
                          'conversion to SDFormat renames the joint (or the <frame> kept for '
                          'it)', joint.location,
                          f"joint '{joint.name}'", Code.NAME_CLASH)


def _check_joint(joint: Joint, reporter: Reporter) -> None:
    entity = f"joint '{joint.name}'"
    if joint.kind.axes and _zero(joint.axis):
        reporter.error('<axis> xyz must not be the zero vector', joint.location, entity,
                       Code.ZERO_AXIS)
    if joint.axis2 is not None and _zero(joint.axis2):
        reporter.error('<axis2> xyz must not be the zero vector', joint.location, entity,
                       Code.ZERO_AXIS)


def _zero(axis: Sequence[float]) -> bool:
    """
    Return whether an axis is the zero vector as SDFormat can hold it.

    1e-200 is not zero; a vector of subnormals (below 2.2e-308) is: they are written ``0``
    (:mod:`sdf_tools.formatting`; libsdformat cannot read their text).
    """
    return max(map(abs, axis)) < sys.float_info.min


def check_inertial(link: Link, reporter: Reporter) -> None:
    """Warn about negative masses and invalid inertia tensors; non-finite values are errors."""
    inertial = link.inertial
    if inertial is None:
        return
    entity = f"link '{link.name}'"
    values = (inertial.ixx, inertial.ixy, inertial.ixz, inertial.iyy, inertial.iyz, inertial.izz)
    if not all(map(math.isfinite, (inertial.mass,) + values)):
        reporter.error('<inertial> mass and inertia must be finite', link.location, entity,
                       Code.BAD_NUMBER)
        return
    if inertial.mass < 0.0:
        reporter.warn(f'<mass> is negative ({inertial.mass:g} kg)', link.location, entity,
                      Code.NEGATIVE_MASS)
        return
    if not any(values) or inertia.clearly_physical(values):
        return
    moments = inertia.principal_moments(values)
    a, b, c = moments
    scale = max(abs(a), abs(b), abs(c), 1e-300)
    tol = 1e-6 * scale
    if min(moments) < -tol:
        reporter.warn('<inertia> is not positive semi-definite (principal moments '
                      f'{a:.6g}, {b:.6g}, {c:.6g})', link.location, entity, Code.BAD_INERTIA)
    elif a + b < c - tol or a + c < b - tol or b + c < a - tol:
        reporter.warn('<inertia> violates the triangle inequality (principal moments '
                      f'{a:.6g}, {b:.6g}, {c:.6g}): no rigid body has it', link.location,
                      entity, Code.BAD_INERTIA)


def geometry_problem(geometry: Geometry | None) -> str | None:
    """
    Return why a shape has no volume, or ``None`` if it has one (or is not checked here).

    A box side, a radius or a cylinder length that is not above 0, a negative capsule length
    or a mesh scale factor of 0. Physics engines cannot collide such a shape: DART (Gazebo's
    default engine) aborts on each of them (``BoxShape.cpp: _size[2] > 0.0``). A capsule of
    length 0 is a sphere and a negative mesh scale a mirror image: both have a volume.

    Parameters
    ----------
    geometry : Box, Cylinder, Sphere, Capsule, Mesh, OtherGeometry or None
        A visual's or collision's shape (sizes in m).

    """
    if isinstance(geometry, Box) and min(geometry.size) <= 0.0:
        return f'<box> size {fmt_vec(geometry.size)} has a side that is not above 0'
    if isinstance(geometry, (Cylinder, Sphere, Capsule)) and geometry.radius <= 0.0:
        return f'<{type(geometry).__name__.lower()}> radius {geometry.radius:g} is not above 0'
    if isinstance(geometry, Cylinder) and geometry.length <= 0.0:
        return f'<cylinder> length {geometry.length:g} is not above 0'
    if isinstance(geometry, Capsule) and geometry.length < 0.0:
        return f'<capsule> length {geometry.length:g} is negative'
    if isinstance(geometry, Mesh) and geometry.scale is not None and 0.0 in geometry.scale:
        return f'<mesh> scale {fmt_vec(geometry.scale)} flattens it'
    return None


def _check_geometry(link: Link, reporter: Reporter) -> None:
    """
    Warn about collisions whose shape has no volume, and visuals that draw nothing.

    A visual with an area (a flat box, a disc, a flattened mesh: a ground plane written
    ``<box size="5 5 0"/>``) is drawn as it is meant: it is not warned about.
    """
    groups: tuple[tuple[str, Sequence[Visual | Collision]], ...] = (
        ('visual', link.visuals), ('collision', link.collisions))
    for kind, parts in groups:
        for part in parts:
            problem = geometry_problem(part.geometry)
            if problem is None or (kind == 'visual' and _has_area(part.geometry)):
                continue
            what = f'<{kind}> {part.name!r}' if part.name else f'a <{kind}>'
            effect = (': physics engines cannot collide it (DART aborts)'
                      if kind == 'collision' else ' (it is not drawn)')
            reporter.warn(f'{what}: {problem}, so the shape has no volume{effect}',
                          part.location or link.location, f"link '{link.name}'",
                          Code.BAD_GEOMETRY)


def _has_area(geometry: Geometry | None) -> bool:
    """Return whether a shape without volume still has an area (it is drawn flat)."""
    if isinstance(geometry, Box):
        return min(geometry.size) == 0.0 and sorted(geometry.size)[1] > 0.0
    if isinstance(geometry, Cylinder):
        return geometry.radius > 0.0 and geometry.length == 0.0
    if isinstance(geometry, Mesh) and geometry.scale is not None:
        return sorted(map(abs, geometry.scale))[1] > 0.0
    return False
