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
Forward kinematics for tests: a deliberately naive one, and sdf_tools.kinematics.

:func:`chain_fk` is independent of :mod:`sdf_tools.kinematics`: it walks the model's joints
from the roots and composes, for every joint,
``T_world_child = T_world_parent @ X_PJ @ motion(q) @ inv(X_CJ)`` (the model docstring), with
numpy matrices built from the model's poses. :func:`kinematics_fk` gives the same result
through :mod:`sdf_tools.kinematics`, so tests can run against both.
"""

import math

import numpy as np
import pytest
from sdf_tools.model import JointType


def rot(axis, angle):
    """Return the (4, 4) rotation by ``angle`` about a 3-vector ``axis`` (Rodrigues)."""
    k = np.asarray(axis, dtype=float)
    k = k / np.linalg.norm(k)
    kx = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    t = np.eye(4)
    t[:3, :3] = np.eye(3) + math.sin(angle) * kx + (1.0 - math.cos(angle)) * kx @ kx
    return t


def trans(x, y, z):
    """Return the (4, 4) translation by ``(x, y, z)``."""
    t = np.eye(4)
    t[:3, 3] = (x, y, z)
    return t


def motion(joint, value):
    """Return the joint transform of a 1-dof joint (identity for fixed and floating)."""
    if joint.kind in (JointType.REVOLUTE, JointType.CONTINUOUS):
        return rot(joint.axis, value)
    if joint.kind is JointType.PRISMATIC:
        k = np.asarray(joint.axis, dtype=float)
        return trans(*(k / np.linalg.norm(k) * value))
    assert value == 0.0, f'{joint.kind} takes no value here'
    return np.eye(4)


def chain_fk(robot, q=None):
    """
    Return ``{link or frame name: (4, 4) pose in the model frame}`` at joint values ``q``.

    ``q`` maps joint names to values (missing ones are 0). Roots are placed at their
    ``Link.pose`` (or the identity); an implicit ``world`` at the identity.
    """
    q = q or {}
    index = robot.index
    out = {}
    stack = []
    for name in index.roots:
        pose = index.links[name].pose
        out[name] = pose.matrix() if pose is not None else np.eye(4)
        stack.append(name)
    if 'world' not in out and any(j.parent == 'world' for j in robot.joints):
        out['world'] = np.eye(4)
        stack.append('world')
    while stack:
        name = stack.pop()
        for joint in index.child_joints.get(name, ()):
            out[joint.child] = (out[name] @ joint.origin.matrix()
                                @ motion(joint, q.get(joint.name, 0.0))
                                @ joint.joint_in_child.inverse().matrix())
            stack.append(joint.child)
    for frame in robot.frames:
        out[frame.name] = out[frame.attached_to] @ frame.pose.matrix()
    return out


def kinematics_fk(robot, q=None):
    """Return what :func:`chain_fk` returns, computed by :mod:`sdf_tools.kinematics`."""
    kinematics = pytest.importorskip('sdf_tools.kinematics')
    tree = kinematics.compile_tree(robot)
    links = kinematics.forward_kinematics(tree, tree.joint_vector(q or {}, strict=True).q)
    out = dict(zip(tree.link_names, links))
    out.update(zip(tree.frame_names, kinematics.frame_poses(tree, link_poses=links)))
    return out


#: Both implementations, for ``pytest.mark.parametrize('fk', FK_FUNCTIONS)``.
FK_FUNCTIONS = (chain_fk, kinematics_fk)
