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
Link poses in the model frame compared at the zero configuration and a few random ones.

Both sides get the same joint values: each coordinate of side A is drawn uniformly (seeded)
within its joint's limits, clipped to -pi..pi for angles and to 1 m wide for lengths (the
whole range for a joint without usable limits; -1..1 for quaternion coordinates), and the
matched coordinate of side B gets the same value; coordinates only B has are drawn the same
way. Forward kinematics (:func:`~sdf_tools.kinematics.forward_kinematics`, one batch per
side) gives every link's pose; the largest distance and rotation between a link's poses on
both sides, and where, are reported.

A difference of poses usually follows from a joint or link difference found before (a moved
origin moves every link below it). Each link whose pose *relative to its parent link*
differs must be so explained: its parent joint (on either side) differs in a way that moves
it (:data:`.joints.KINEMATIC`), or it is a root link whose pose differs. A link that is not
is reported on its own (``PoseCheck.unexplained``).
"""

import math

import numpy as np
import numpy.typing as npt

from sdf_tools.comparing.matching import Matching
from sdf_tools.comparing.results import PoseCheck
from sdf_tools.comparing.results import Side
from sdf_tools.kinematics.tree import KinematicTree
from sdf_tools.model import Joint
from sdf_tools.model import JointType

_ANGLE = (-math.pi, math.pi)
_LENGTH = (-0.5, 0.5)
_QUATERNION = ('qx', 'qy', 'qz', 'qw')


def check_poses(a: Side, b: Side, matching: Matching, explained: set[str], tol: float, count: int,
                seed: int) -> PoseCheck:
    """
    Compare the link poses of two sides (module docstring).

    Parameters
    ----------
    a, b : Side
        With their compiled trees.
    matching : Matching
        Which link and joint is which.
    explained : set of str
        Side A link names whose pose differences earlier differences explain.
    tol : float
        The tolerance.
    count : int
        How many random configurations besides the zero one.
    seed : int
        Of the random generator.

    """
    tree_a, tree_b = a.tree, b.tree
    if tree_a is None or tree_b is None:
        return PoseCheck(skipped='a side has no kinematic tree')
    q_a, q_b = _configurations(a, b, matching.joints, count, seed)
    pairs = [(i, tree_b.link_index[matching.links[name]])
             for i, name in enumerate(tree_a.link_names)
             if matching.links.get(name) in tree_b.link_index]
    configurations = tuple(dict(zip(tree_a.coordinate_names, row.tolist())) for row in q_a)
    b_configurations = tuple(dict(zip(tree_b.coordinate_names, row.tolist())) for row in q_b)
    if not pairs:
        return PoseCheck(configurations, b_configurations=b_configurations)
    from sdf_tools.kinematics import forward_kinematics  # numpy's kinematics: only here
    index_a = np.array([i for i, _ in pairs])
    index_b = np.array([j for _, j in pairs])
    poses_a = forward_kinematics(tree_a, q_a)[:, index_a]
    poses_b = forward_kinematics(tree_b, q_b)[:, index_b]
    distance, angle = _errors(poses_a, poses_b)
    names = [tree_a.link_names[i] for i in index_a]
    worst_d = np.unravel_index(np.argmax(distance), distance.shape)
    worst_a = np.unravel_index(np.argmax(angle), angle.shape)
    local = _local_errors(tree_a, tree_b, pairs, poses_a, poses_b)
    scale = np.maximum(1.0, np.linalg.norm(poses_a[..., :3, 3], axis=-1))
    moved = ((local[0] > tol * scale) | (local[1] > tol)).any(axis=0)
    unexplained = tuple(name for name, m in zip(names, moved) if m and name not in explained)
    d, g = float(distance[worst_d]), float(angle[worst_a])
    return PoseCheck(configurations, len(pairs), d, names[worst_d[1]] if d > 0 else None,
                     int(worst_d[0]) if d > 0 else None, g,
                     names[worst_a[1]] if g > 0 else None, int(worst_a[0]) if g > 0 else None,
                     unexplained, b_configurations=b_configurations)


def _errors(poses_a: np.ndarray, poses_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the distances (m) and rotation angles (rad) between two arrays of poses."""
    distance = np.linalg.norm(poses_a[..., :3, 3] - poses_b[..., :3, 3], axis=-1)
    relative = np.swapaxes(poses_a[..., :3, :3], -1, -2) @ poses_b[..., :3, :3]
    cos = (np.trace(relative, axis1=-2, axis2=-1) - 1.0) / 2.0
    skew = relative - np.swapaxes(relative, -1, -2)
    sin = np.sqrt(skew[..., 2, 1] ** 2 + skew[..., 0, 2] ** 2 + skew[..., 1, 0] ** 2) / 2.0
    return distance, np.arctan2(sin, cos)


def _local_errors(tree_a: KinematicTree, tree_b: KinematicTree, pairs: list[tuple[int, int]],
                  poses_a: npt.NDArray[np.float64], poses_b: npt.NDArray[np.float64],
                  ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """
    Return the errors of each link's pose in its parent link (in the model frame for roots).

    A link whose parent on side A has no counterpart, or a different one on side B, counts
    as not moved here: the joint or link differences say that already. ``pairs``: (link
    index on A, on B); poses: shape (configurations, len(pairs), 4, 4); errors: shape
    (configurations, len(pairs)), m and rad.
    """
    row_of_a = {i: k for k, (i, _) in enumerate(pairs)}
    partner = dict(pairs)
    children: list[int] = []
    parents: list[int] = []
    skipped: list[int] = []   # rows: of links below a matched parent, ...
    for k, (i, j) in enumerate(pairs):
        parent_a, parent_b = tree_a.link_parent[i], tree_b.link_parent[j]
        if parent_a < 0 and parent_b < 0:
            continue   # roots: their poses in the model frame
        if parent_a in row_of_a and partner[parent_a] == parent_b:
            children.append(k)
            parents.append(row_of_a[parent_a])
        else:
            skipped.append(k)
    relative_a, relative_b = poses_a.copy(), poses_b.copy()
    if children:   # one batch of (configurations, links) 4x4 systems per side
        relative_a[:, children] = np.linalg.solve(poses_a[:, parents], poses_a[:, children])
        relative_b[:, children] = np.linalg.solve(poses_b[:, parents], poses_b[:, children])
    distance, angle = _errors(relative_a, relative_b)
    distance[:, skipped] = 0.0
    angle[:, skipped] = 0.0
    return distance, angle


def _coordinates(tree: KinematicTree) -> list[tuple[str, str]]:
    """Return ``(joint, suffix)`` of each coordinate of a tree (suffix ``''``: 1-dof)."""
    out: list = [None] * tree.n_q
    for joint in tree.moving_joints:
        for index in joint.coordinates:
            name = tree.coordinate_names[index]
            out[index] = (joint.name, name[len(joint.name) + 1:] if joint.multi_dof else '')
    return out


def _range(joint: Joint, suffix: str) -> tuple[float, float]:
    """Return the range a coordinate is drawn from (module docstring)."""
    if suffix in _QUATERNION:
        return (-1.0, 1.0)
    if suffix in ('x', 'y', 'z'):
        return _LENGTH
    linear = joint.kind is JointType.PRISMATIC
    default = _LENGTH if linear else _ANGLE
    limit = joint.limit2 if suffix == '2' else joint.limit
    if limit is None or joint.kind is JointType.CONTINUOUS or suffix:
        return default
    lower, upper = limit.lower, limit.upper
    if linear:
        lower, upper = max(lower, upper - 1.0), min(upper, lower + 1.0)
    else:
        lower, upper = max(lower, _ANGLE[0]), min(upper, _ANGLE[1])
    return (lower, upper) if lower < upper else default


def _configurations(a: Side, b: Side, joints: dict[str, str], count: int, seed: int,
                    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Return side A's and B's joint values (shapes (count + 1, n_q)): zero, then random."""
    rng = np.random.default_rng(seed)
    tree_a, tree_b = a.tree, b.tree
    assert tree_a is not None and tree_b is not None
    coordinates_a, coordinates_b = _coordinates(tree_a), _coordinates(tree_b)
    index_b: dict[tuple[str | None, str], int] = {key: i for i, key in enumerate(coordinates_b)}
    q_a = np.tile(tree_a.default_q(), (count + 1, 1))
    q_b = np.tile(tree_b.default_q(), (count + 1, 1))
    drawn_b = set()
    for i, (joint, suffix) in enumerate(coordinates_a):
        low, high = _range(a.robot.joint(joint), suffix)
        values = rng.uniform(low, high, count)
        q_a[1:, i] = values
        j = index_b.get((joints.get(joint), suffix))
        if j is not None:
            q_b[1:, j] = values
            drawn_b.add(j)
    for j, (joint, suffix) in enumerate(coordinates_b):
        if j not in drawn_b:
            low, high = _range(b.robot.joint(joint), suffix)
            q_b[1:, j] = rng.uniform(low, high, count)
    return q_a, q_b
