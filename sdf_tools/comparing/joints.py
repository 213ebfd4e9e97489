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
Joints compared: type, the links they join, frames, axes, limits, dynamics, mimic, extras.

The joint frame compares in the parent link frame (``Joint.origin``, ``X_PJ``) and in the
child link frame (``Joint.joint_in_child``, ``X_CJ``, the identity for URDF); axes as unit
vectors in the joint frame. Links are compared through the matching, so a renamed link is
reported once, at the link. What a joint type does not use is not compared: position limits
of continuous joints, axes of fixed ones. Absent dynamics are zero dynamics.
"""

from sdf_tools.comparing.context import Context
from sdf_tools.comparing.context import Places
from sdf_tools.comparing.values import all_close
from sdf_tools.comparing.values import close
from sdf_tools.comparing.values import unit
from sdf_tools.model import Dynamics
from sdf_tools.model import Joint
from sdf_tools.model import JointType

_NO_POSITION_LIMITS = (JointType.CONTINUOUS, JointType.FIXED, JointType.FLOATING,
                       JointType.BALL, JointType.PLANAR)
#: Kinds of difference that change where a joint puts its child (:mod:`.poses` uses it).
KINEMATIC = frozenset(('only-in-a', 'only-in-b', 'renamed', 'type', 'parent', 'child',
                       'origin', 'joint-in-child', 'axis', 'mimic', 'screw', 'gearbox'))


def compare_joints(ctx: Context) -> None:
    """Add the differences of every joint (side A's order, then the joints only B has)."""
    for joint_a, joint_b in ctx.paired('joint', ctx.a.robot.joints, ctx.b.robot.joints,
                                       ctx.matching.joints):
        compare_joint(ctx, joint_a, joint_b)


def compare_joint(ctx: Context, a: Joint, b: Joint) -> None:
    """Add the differences of two joints taken to be the same one."""
    name, at, links = a.name, (a.location, b.location), ctx.matching.links
    if a.kind is not b.kind:
        ctx.add('joint', name, 'type', a.kind.value, b.kind.value, at=at)
    for end in ('parent', 'child'):
        end_a, end_b = getattr(a, end), getattr(b, end)
        if links.get(end_a, end_a) != end_b:
            ctx.add('joint', name, end, end_a, end_b, at=at)
    ctx.pose('joint', name, 'origin', (a.origin, b.origin), at)
    ctx.pose('joint', name, 'joint-in-child', (a.joint_in_child, b.joint_in_child), at)
    axes = min(a.kind.axes, b.kind.axes)
    for field, axis_a, axis_b in (('', a.axis, b.axis), ('2', a.axis2, b.axis2))[:axes]:
        if axis_a is None or axis_b is None or not all_close(unit(axis_a), unit(axis_b),
                                                             ctx.tol):
            ctx.add('joint', name, 'axis', axis_a and list(unit(axis_a)),
                    axis_b and list(unit(axis_b)), field=field, at=at)
    if a.kind is not JointType.FIXED or b.kind is not JointType.FIXED:
        _compare_limits(ctx, a, b, at)
    _compare_records(ctx, a, b, at)
    ctx.content('joint', name, (a.extras, b.extras), at,
                keys=(('joint', a.name), ('joint', b.name)))


def _compare_limits(ctx: Context, a: Joint, b: Joint, at: Places) -> None:
    """Add the differences of the limits and dynamics of the joint's axes."""
    positions = a.kind not in _NO_POSITION_LIMITS and b.kind not in _NO_POSITION_LIMITS
    for suffix, limit_a, limit_b, dynamics_a, dynamics_b in (
            ('', a.limit, b.limit, a.dynamics, b.dynamics),
            ('2', a.limit2, b.limit2, a.dynamics2, b.dynamics2)):
        fields = ('lower', 'upper', 'effort', 'velocity') if positions else ('effort', 'velocity')
        for field in fields:
            value_a = getattr(limit_a, field) if limit_a is not None else None
            value_b = getattr(limit_b, field) if limit_b is not None else None
            if value_a is None or value_b is None:
                differ = value_a is not value_b
            else:
                differ = not close(value_a, value_b, ctx.tol)
            if differ:
                ctx.add('joint', a.name, 'limit', value_a, value_b, field=field + suffix, at=at)
        for field in ('damping', 'friction', 'spring_reference', 'spring_stiffness'):
            value_a = getattr(dynamics_a or Dynamics(), field)
            value_b = getattr(dynamics_b or Dynamics(), field)
            if not close(value_a, value_b, ctx.tol):
                ctx.add('joint', a.name, 'dynamics', value_a, value_b, field=field + suffix,
                        at=at)


def _record_value(item: object, names: tuple[str, ...]) -> dict[str, object] | None:
    """Return the named fields of a record as JSON (``None`` for no record)."""
    return None if item is None else {name: getattr(item, name) for name in names}


def _same_values(x: dict | None, y: dict | None, tol: float) -> bool:
    """Return whether two record values are equal (numbers within ``tol``)."""
    if x is None or y is None:
        return x is y
    return all(x[k] == y[k] or (isinstance(x[k], float) and isinstance(y[k], float)
                                and close(x[k], y[k], tol)) for k in x)


_SAFETY = ('k_velocity', 'k_position', 'soft_lower_limit', 'soft_upper_limit')


def _compare_records(ctx: Context, a: Joint, b: Joint, at: Places) -> None:
    """Add the differences of mimic, calibration, safety controller, screw and gearbox."""
    links, joints = ctx.matching.links, ctx.matching.joints
    mimic_a = _record_value(a.mimic, ('joint', 'multiplier', 'offset'))
    if mimic_a is not None:
        mimic_a['joint'] = joints.get(mimic_a['joint'], mimic_a['joint'])
    gearbox_a = _record_value(a, ('gearbox_ratio', 'gearbox_reference_body'))
    if gearbox_a is not None:
        body = gearbox_a['gearbox_reference_body']
        gearbox_a['gearbox_reference_body'] = links.get(body, body)
    screw_a, screw_b = a.screw_thread_pitch, b.screw_thread_pitch
    checks = (
        ('mimic', mimic_a, _record_value(b.mimic, ('joint', 'multiplier', 'offset'))),
        ('calibration', _record_value(a.calibration, ('rising', 'falling')),
         _record_value(b.calibration, ('rising', 'falling'))),
        ('safety-controller', _record_value(a.safety_controller, _SAFETY),
         _record_value(b.safety_controller, _SAFETY)),
        ('screw', None if screw_a is None else {'pitch': screw_a},
         None if screw_b is None else {'pitch': screw_b}),
        ('gearbox', gearbox_a, _record_value(b, ('gearbox_ratio', 'gearbox_reference_body'))))
    for kind, value_a, value_b in checks:
        if not _same_values(value_a, value_b, ctx.tol):
            ctx.add('joint', a.name, kind, value_a, value_b, at=at)
