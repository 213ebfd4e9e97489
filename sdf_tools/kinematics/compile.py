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
:func:`compile_tree`: a :class:`~sdf_tools.model.Robot` compiled once for kinematics.

Compilation checks the tree (loops, undefined links, zero axes, mimic sources and cycles),
numbers the links in topological order (``link_parent[i] < i``), assigns the independent
coordinates, resolves mimic joints to their independent source, and gives every link the
:class:`~sdf_tools.kinematics.motion.Motion` from its parent, from which each evaluator
compiles its records.

Coordinates
-----------
``q`` holds the independent coordinates only, in tree order (``coordinate_names``). A 1-dof
joint's coordinate is named like the joint; multi-dof coordinates are ``joint/suffix``
(:meth:`~sdf_tools.model.JointType.coordinate_names`; the table of
:mod:`~sdf_tools.kinematics.joint_motions`). Mimic joints (any 1-dof kind) are never in
``q``: their value is ``multiplier * value(source) + offset``, chains resolved at compile
time to an affine map of one independent coordinate. The zero configuration
(:meth:`KinematicTree.default_q`) has every coordinate 0 except the ``qw`` of ball and
floating joints, which is 1.
"""

import math
from types import MappingProxyType
from typing import Iterable
from typing import Mapping
from typing import NamedTuple
from typing import Sequence

import numpy as np

from sdf_tools.errors import Code
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import Reporter
from sdf_tools.kinematics.batch import BatchProgram
from sdf_tools.kinematics.joint_motions import DEFAULT_AXIS2
from sdf_tools.kinematics.joint_motions import joint_motion
from sdf_tools.kinematics.joint_motions import MOTIONS
from sdf_tools.kinematics.joint_motions import root_motion
from sdf_tools.kinematics.joint_states import tf_record
from sdf_tools.kinematics.motion import Drive
from sdf_tools.kinematics.motion import Motion
from sdf_tools.kinematics.motion import NO_DRIVE
from sdf_tools.kinematics.single import compile_records
from sdf_tools.kinematics.tree import KinematicTree
from sdf_tools.kinematics.tree import MimicJoint
from sdf_tools.kinematics.tree import Transform
from sdf_tools.kinematics.tree import TreeJoint
from sdf_tools.model import Frame
from sdf_tools.model import IDENTITY
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Robot
from sdf_tools.model import Vec3
from sdf_tools.topology import find_cycles
from sdf_tools.topology import mimic_loop_message
from sdf_tools.topology import WORLD
from sdf_tools.transforms import vec_unit

#: A joint's unit ``(axis, axis2)`` (``None`` where it uses none).
_Axes = tuple[Vec3 | None, Vec3 | None]

MISSING_MIMIC_MODES = ('error', 'ignore')


class _Mimic(NamedTuple):
    """A mimic joint's value: ``multiplier * value(source) + offset``."""

    source: str
    multiplier: float
    offset: float


class _Joints(NamedTuple):
    """The joints of a tree as a TF broadcaster sees them (see :class:`KinematicTree`)."""

    moving: tuple[TreeJoint, ...]
    fixed: tuple[TreeJoint, ...]
    fixed_transforms: tuple[Transform, ...]     # per fixed joint: T_parent_child
    dependents: tuple[tuple[int, ...], ...]     # per coordinate: indices into ``moving``
    motions: tuple[Motion, ...]                 # per moving joint


def compile_tree(robot: Robot, *, missing_mimic: str = 'error') -> KinematicTree:
    """
    Compile a robot for forward kinematics.

    Parameters
    ----------
    robot : Robot
        Any reader's model (URDF, SDFormat, Kinematics DSL).
    missing_mimic : {'error', 'ignore'}
        What to do with a mimic joint whose source does not exist or has no single value
        (fixed or multi-dof source, a loop joint, or a multi-dof mimic joint): raise, or
        treat the joint as an ordinary independent one and say so in
        :attr:`KinematicTree.warnings`. Mimic cycles always raise.

    Returns
    -------
    KinematicTree

    Raises
    ------
    KinematicsError
        Holding every problem found: links in a loop of parent joints (no root reached),
        references to undefined links, zero axes, mimic cycles and (``'error'``) unusable
        mimic sources, frames attached to unknown links, coordinate name clashes.

    """
    if missing_mimic not in MISSING_MIMIC_MODES:
        raise ValueError(f"missing_mimic must be 'error' or 'ignore', got {missing_mimic!r}")
    reporter = Reporter(KinematicsError)
    topology = robot.index.topology
    order = topology.order
    link_joint = [topology.parent_joint.get(name) for name in order]
    joints = [j for j in link_joint if j is not None]
    axes, mimics, direct = _check_joints(robot, joints, missing_mimic, reporter)

    link_index = {name: i for i, name in enumerate(order)}
    link_parent = tuple(-1 if j is None or j.parent not in link_index else link_index[j.parent]
                        for j in link_joint)
    coordinate_names, default_q, drives = _assign_coordinates(joints, mimics)
    coordinate_index = _index_coordinates(coordinate_names, robot, reporter)
    frames = [f for f in robot.frames if _frame_link_known(f, link_index, reporter)]
    reporter.raise_if_errors()

    roots = [name for name, joint in zip(order, link_joint) if joint is None]
    root_poses = {name: robot.index.links[name].pose or IDENTITY for name in roots}
    motions = [root_motion(name, root_poses[name]) if joint is None
               else joint_motion(joint, *axes[joint.name], drives.get(joint.name, NO_DRIVE))
               for name, joint in zip(order, link_joint)]
    tf = _tf_joints(order, link_joint, link_parent, motions, mimics, len(coordinate_names))
    steps = [motion.world_step() for motion in motions]
    return KinematicTree(
        name=robot.name,
        link_names=tuple(order),
        link_parent=link_parent,
        link_index=MappingProxyType(link_index),
        coordinate_names=tuple(coordinate_names),
        coordinate_index=MappingProxyType(coordinate_index),
        frame_names=tuple(f.name for f in frames),
        frame_links=tuple(link_index.get(f.attached_to, -1) for f in frames),
        moving_joints=tf.moving,
        fixed_joints=tf.fixed,
        fixed_joint_transforms=tf.fixed_transforms,
        root_links=tuple(roots),
        root_link_poses=tuple((pose.xyz, pose.quat) for pose in root_poses.values()),
        mimic_joints=tuple(MimicJoint(j.name, mimics[j.name].source, *drives[j.name])
                           for j in joints if j.name in mimics),  # in tree order
        loop_joints=tuple(joint.name for joint in topology.loop_joints),
        warnings=tuple(reporter.warnings),
        _default_q=tuple(default_q),
        _mimic_names=frozenset(mimics),
        _direct_mimics=MappingProxyType({name: tuple(direct[name]) for name in mimics}),
        _dependents=tf.dependents,
        _motions=tf.motions,
        _single_records=compile_records(motions, steps, link_parent),
        _batch=BatchProgram(motions, steps, link_parent),
        _tf_records=tuple(tf_record(motion) for motion in tf.motions),
        _frame_constants=np.array([f.pose.matrix() for f in frames]).reshape(-1, 4, 4),
    )


def _check_joints(robot: Robot, joints: list[Joint], missing_mimic: str,
                  reporter: Reporter) -> tuple[dict[str, _Axes], dict[str, _Mimic],
                                               dict[str, _Mimic]]:
    """
    Check the tree and its joints, and raise every problem at once.

    Returns
    -------
    axes : dict
        Joint name -> its unit ``(axis, axis2)`` (``None`` where unused).
    mimics : dict
        Mimic joint name -> :class:`_Mimic` whose ``source`` is independent.
    direct : dict
        Mimic joint name -> :class:`_Mimic` of the joint its ``<mimic>`` names.

    """
    topology = robot.index.topology
    topology.report(reporter, implicit_world=True, loops='quiet')
    topology.report_cycles(reporter)
    axes = {joint.name: _joint_axes(joint, reporter) for joint in joints}
    by_name = {j.name: j for j in robot.joints}
    loop_joints = frozenset(j.name for j in topology.loop_joints)
    direct = _direct_mimics(joints, by_name, loop_joints, missing_mimic, reporter)
    mimics = _resolve_mimics(direct, by_name, reporter)
    reporter.raise_if_errors()
    return axes, mimics, direct


def _tf_joints(order: Sequence[str], link_joint: Sequence[Joint | None],
               link_parent: Sequence[int], motions: Sequence[Motion],
               mimics: Mapping[str, _Mimic], n_q: int) -> _Joints:
    """Sort the joints into moving and fixed ones, and note what each coordinate moves."""
    moving: list[TreeJoint] = []
    moving_motions: list[Motion] = []
    fixed: list[TreeJoint] = []
    fixed_transforms: list[Transform] = []
    dependents: list[list[int]] = [[] for _ in range(n_q)]
    for name, joint, parent, motion in zip(order, link_joint, link_parent, motions):
        if joint is None:
            continue
        parent_name = joint.parent if parent >= 0 else WORLD
        if joint.kind is JointType.FIXED:
            fixed.append(TreeJoint(joint.name, joint.kind, parent_name, name))
            fixed_transforms.append(motion.local(()))
            continue
        dof = joint.kind.dof
        start = motion.drive.coordinate
        coordinates = (start,) if dof == 1 else tuple(range(start, start + dof))
        for c in coordinates:
            dependents[c].append(len(moving))
        moving.append(TreeJoint(joint.name, joint.kind, parent_name, name, coordinates,
                                joint.name in mimics, dof != 1))
        moving_motions.append(motion)
    return _Joints(tuple(moving), tuple(fixed), tuple(fixed_transforms),
                   tuple(tuple(d) for d in dependents), tuple(moving_motions))


def _assign_coordinates(joints: Iterable[Joint], mimics: Mapping[str, _Mimic]
                        ) -> tuple[list[str], list[float], dict[str, Drive]]:
    """
    Assign indices to the independent coordinates, in tree order.

    Returns
    -------
    names : list of str
        Coordinate names.
    default_q : list of float
        The zero configuration.
    drives : dict
        Moving joint name -> :class:`~sdf_tools.kinematics.motion.Drive`: for a 1-dof joint
        the coordinate its value is affine in (its own, or its mimic source's), for a
        multi-dof joint its first coordinate.

    """
    names: list[str] = []
    default_q: list[float] = []
    drives: dict[str, Drive] = {}
    for joint in joints:
        if joint.kind is JointType.FIXED or joint.name in mimics:
            continue
        drives[joint.name] = Drive(len(names))
        names.extend(joint.kind.coordinate_names(joint.name))
        default_q.extend(MOTIONS[joint.kind].neutral)
    for name, (source, multiplier, offset) in mimics.items():
        drives[name] = Drive(drives[source].coordinate, multiplier, offset)
    return names, default_q, drives


def _index_coordinates(names: Sequence[str], robot: Robot, reporter: Reporter) -> dict[str, int]:
    """Return coordinate name -> index, reporting names used twice."""
    index: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in index:
            reporter.error(f'coordinate name {name!r} is used twice (a joint is named like '
                           "another joint's coordinate)", robot.location,
                           f"robot '{robot.name}'", Code.DUPLICATE_NAME)
        index[name] = i
    return index


def _frame_link_known(frame: Frame, link_index: Mapping[str, int], reporter: Reporter) -> bool:
    """Return whether a frame is attached to a link of the tree or the model frame; else report."""
    if frame.attached_to in link_index or frame.attached_to == WORLD:
        return True
    reporter.error(f'attached to {frame.attached_to!r}, which is not a link',
                   frame.location, f"frame '{frame.name}'", Code.MISSING_LINK)
    return False


def _entity(joint: Joint) -> str:
    return f"joint '{joint.name}'"


def _unit(vector: Sequence[float], joint: Joint, what: str, reporter: Reporter) -> Vec3:
    """Return ``vector`` of unit length, or report it and return ``(1, 0, 0)``."""
    floats = tuple(float(v) for v in vector)
    norm = math.hypot(*floats)  # no overflow for 1e200, no underflow for 1e-200
    if norm == 0.0 or not math.isfinite(norm):
        reporter.error(f'{what} must be a finite non-zero vector, got {tuple(vector)}',
                       joint.location, _entity(joint), Code.ZERO_AXIS)
        return (1.0, 0.0, 0.0)
    return vec_unit(floats)


def _joint_axes(joint: Joint, reporter: Reporter) -> _Axes:
    """Return the unit ``(axis, axis2)`` a joint uses (``None`` where it uses none)."""
    count = joint.kind.axes
    axis = _unit(joint.axis, joint, '<axis> xyz', reporter) if count >= 1 else None
    if count < 2:
        return axis, None
    axis2 = joint.axis2 if joint.axis2 is not None else DEFAULT_AXIS2
    return axis, _unit(axis2, joint, '<axis2> xyz', reporter)


def _resolve_mimics(direct: dict[str, _Mimic], by_name: Mapping[str, Joint],
                    reporter: Reporter) -> dict[str, _Mimic]:
    """
    Resolve the usable mimic joints (``direct``, :func:`_direct_mimics`) to independent sources.

    Returns
    -------
    dict
        Mimic joint name -> :class:`_Mimic` whose ``source`` is independent.

    """
    failed: set[str] = set()
    for cycle in find_cycles(direct, lambda name: direct[name].source):
        joint = by_name[cycle[0]]
        reporter.error(mimic_loop_message(cycle), joint.location, _entity(joint), Code.CYCLE)
        failed.update(cycle)
    resolved: dict[str, _Mimic] = {}
    for name in direct:
        path: list[str] = []
        current = name
        while current in direct and current not in resolved and current not in failed:
            path.append(current)
            current = direct[current].source
        if current in failed:  # the chain runs into a cycle
            failed.update(path)
            continue
        base = resolved.get(current, _Mimic(current, 1.0, 0.0))
        for joint_name in reversed(path):
            _, multiplier, offset = direct[joint_name]
            base = _Mimic(base.source, multiplier * base.multiplier,
                          multiplier * base.offset + offset)
            if not (math.isfinite(base.multiplier) and math.isfinite(base.offset)):
                joint = by_name[joint_name]
                reporter.error(f'the mimic chain to {base.source!r} multiplies to '
                               f'value * {base.multiplier:g} + {base.offset:g}, which is not '
                               'finite', joint.location, _entity(joint), Code.BAD_MIMIC)
                base = _Mimic(base.source, 1.0, 0.0)
            resolved[joint_name] = base
    return resolved


def _direct_mimics(joints: Iterable[Joint], by_name: Mapping[str, Joint],
                   loop_joints: frozenset[str], missing_mimic: str,
                   reporter: Reporter) -> dict[str, _Mimic]:
    """Return mimic joint name -> :class:`_Mimic` of its direct source, for usable ones."""
    direct: dict[str, _Mimic] = {}
    for joint in joints:
        mimic = joint.mimic
        if mimic is None or joint.kind is JointType.FIXED:
            continue
        source = by_name.get(mimic.joint)
        if joint.kind.dof != 1:
            problem = (f'a {joint.kind.value} joint cannot mimic: only 1-dof joints have '
                       'a single value', Code.BAD_MIMIC)
        elif source is None:
            problem = (f'<mimic> names joint {mimic.joint!r}, which does not exist',
                       Code.MISSING_JOINT)
        elif source.kind.dof != 1:
            problem = (f'<mimic> names {source.kind.value} joint {source.name!r}, which has '
                       'no single value to follow', Code.BAD_MIMIC)
        elif source.name in loop_joints:
            problem = (f'<mimic> names joint {source.name!r}, which closes a kinematic loop '
                       'and has no value in the tree', Code.BAD_MIMIC)
        else:
            direct[joint.name] = _Mimic(source.name, float(mimic.multiplier),
                                        float(mimic.offset))
            continue
        if missing_mimic == 'error':
            reporter.error(problem[0] + " (--missing-mimic ignore, missing_mimic='ignore', "
                           'moves the joint independently)', joint.location, _entity(joint),
                           problem[1])
        else:
            reporter.warn(problem[0] + '; the <mimic> is ignored and the joint moves '
                          'independently', joint.location, _entity(joint), problem[1])
    return direct
