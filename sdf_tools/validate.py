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
Structural checks shared by every reader: names, references, the tree, mimic joints, inertia.

Each check records diagnostics (with the element's line) in a :class:`Reporter`; readers call
:func:`check_robot` once the model is built and raise if it found errors.
"""

import math

from sdf_tools import inertia
from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.model import JointType
from sdf_tools.model import Robot

WORLD = 'world'


def check_robot(robot: Robot, reporter: Reporter, *, single_root: bool = True,
                implicit_world: bool = False, allow_loops: bool = False) -> None:
    """
    Check names, references, the tree shape, mimic joints and inertials.

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
        (:class:`~sdf_tools.model.RobotIndex`), reported as a warning because forward
        kinematics follows the tree and does not enforce the loop. Otherwise it is an error
        (URDF, RobCoGen).

    """
    links = links_by_name(robot, reporter)
    joints = {}
    for joint in robot.joints:
        if joint.name in joints:
            reporter.error(f'joint name {joint.name!r} is used more than once',
                           joint.location, f"joint '{joint.name}'", Code.DUPLICATE_NAME)
        joints[joint.name] = joint

    parent_of = {}
    for joint in robot.joints:
        entity = f"joint '{joint.name}'"
        for role, name in (('parent', joint.parent), ('child', joint.child)):
            if name not in links and not (role == 'parent' and name == WORLD and implicit_world):
                reporter.error(f'{role} link {name!r} is not defined', joint.location, entity,
                               Code.MISSING_LINK)
        if joint.parent == joint.child:
            reporter.error(f'parent and child are the same link {joint.child!r}',
                           joint.location, entity, Code.CYCLE)
            continue
        if joint.child in parent_of:
            other = parent_of[joint.child]
            if allow_loops:
                reporter.warn(f'closes a kinematic loop: link {joint.child!r} is already the '
                              f'child of joint {other.name!r}; forward kinematics follows '
                              f'{other.name!r} and leaves this joint out', joint.location,
                              entity, Code.KINEMATIC_LOOP)
            else:
                reporter.error(f'link {joint.child!r} is already the child of joint '
                               f'{other.name!r}; a link can have only one parent joint',
                               joint.location, entity, Code.SEVERAL_PARENTS)
        else:
            parent_of[joint.child] = joint

    roots = [name for name in links if name not in parent_of]
    if single_root and robot.links:
        if not roots:
            reporter.error('no root link: every link is the child of a joint (the joints '
                           'form a loop)', robot.location, f"robot '{robot.name}'", Code.NO_ROOT)
        elif len(roots) > 1:
            shown = ', '.join(repr(r) for r in roots[:6]) + (', ...' if len(roots) > 6 else '')
            reporter.error(f'{len(roots)} root links ({shown}): a description needs exactly '
                           'one link that is not the child of a joint', robot.location,
                           f"robot '{robot.name}'", Code.SEVERAL_ROOTS)
    _check_loops(links, parent_of, reporter)
    _check_mimic(robot, joints, reporter)
    _check_name_clashes(robot, links, reporter)
    for frame in robot.frames:
        if frame.attached_to not in links:
            reporter.error(f'attached to {frame.attached_to!r}, which is not a link',
                           frame.location, f"frame '{frame.name}'", Code.MISSING_LINK)
    for link in robot.links:
        check_inertial(link, reporter)
    for joint in robot.joints:
        _check_joint(joint, reporter)


def links_by_name(robot: Robot, reporter: Reporter) -> dict:
    """Return name -> link (the last of a repeated name), reporting each repeat."""
    links = {}
    for link in robot.links:
        if link.name in links:
            reporter.error(f'link name {link.name!r} is used more than once', link.location,
                           f"link '{link.name}'", Code.DUPLICATE_NAME)
        links[link.name] = link
    return links


def _check_loops(links, parent_of, reporter):
    """Report links whose chain of parent joints never reaches a root."""
    reaches_root = {}
    for start in links:
        path = []
        on_path = set()
        name = start
        while True:
            if name in reaches_root:
                ok = reaches_root[name]
                break
            if name not in links:  # world, or an undefined parent (reported already)
                ok = True
                break
            if name in on_path:
                loop = path[path.index(name):]
                joint = parent_of[loop[0]]
                reporter.error('the joints form a kinematic loop through links '
                               + ' -> '.join(repr(n) for n in reversed(loop + [loop[0]])),
                               joint.location, f"joint '{joint.name}'", Code.CYCLE)
                ok = False
                break
            path.append(name)
            on_path.add(name)
            joint = parent_of.get(name)
            if joint is None:
                ok = True
                break
            name = joint.parent
        for n in path:
            reaches_root[n] = ok


def _check_mimic(robot, joints, reporter):
    """
    Warn about mimic joints whose source is missing or that form loops.

    These are warnings here: the description still converts (SDFormat 1.9 has no mimic).
    :func:`sdf_tools.kinematics.compile_tree` refuses them, since no value can be computed.
    """
    for joint in robot.joints:
        if joint.mimic is None:
            continue
        entity = f"joint '{joint.name}'"
        target = joints.get(joint.mimic.joint)
        if target is None:
            reporter.warn(f'<mimic> names joint {joint.mimic.joint!r}, which does not exist',
                          joint.location, entity, Code.MISSING_JOINT)
        elif target.name == joint.name:
            reporter.warn('<mimic> names the joint itself', joint.location, entity, Code.CYCLE)
    # Cycles through several joints: follow each chain once (each joint mimics at most one,
    # so a walk that reaches a joint on its own path has found a loop).
    done = set()
    for joint in robot.joints:
        path, on_path = [], set()
        name = joint.name
        while name not in done and name not in on_path:
            path.append(name)
            on_path.add(name)
            mimic = joints[name].mimic
            if mimic is None or mimic.joint not in joints:
                break
            name = mimic.joint
        if name in on_path and path[-1] != name:  # a loop of two or more joints
            loop = path[path.index(name):]
            first = loop.index(min(loop))
            loop = loop[first:] + loop[:first]
            start = joints[loop[0]]
            reporter.warn('mimic joints form a loop: '
                          + ' -> '.join(repr(n) for n in loop + [loop[0]]),
                          start.location, f"joint '{start.name}'", Code.CYCLE)
        done.update(path)


def _check_name_clashes(robot, links, reporter):
    for joint in robot.joints:
        if joint.name in links:
            reporter.warn('has the same name as a link; SDFormat needs distinct names, so '
                          'conversion to SDFormat renames the joint', joint.location,
                          f"joint '{joint.name}'", Code.NAME_CLASH)


def _check_joint(joint, reporter):
    entity = f"joint '{joint.name}'"
    # hypot, not a sum of squares: 1e-200 is not zero and 1e200 does not overflow.
    if joint.kind in (JointType.REVOLUTE, JointType.CONTINUOUS, JointType.PRISMATIC,
                      JointType.PLANAR, JointType.SCREW, JointType.UNIVERSAL,
                      JointType.REVOLUTE2, JointType.GEARBOX):
        if math.hypot(*joint.axis) == 0.0:
            reporter.error('<axis> xyz must not be the zero vector', joint.location, entity,
                           Code.ZERO_AXIS)
    if joint.axis2 is not None and math.hypot(*joint.axis2) == 0.0:
        reporter.error('<axis2> xyz must not be the zero vector', joint.location, entity,
                       Code.ZERO_AXIS)


def check_inertial(link, reporter) -> None:
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
    if not any(values):
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
