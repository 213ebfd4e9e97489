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
A robot's kinematic skeleton: what a picture shows where geometry is missing.

Each link has a point: where the joint that moves it is (``T_model_child @ joint_in_child``:
the child link's origin in URDF), or for a root link its origin. The skeleton is a segment
from each joint's parent link's point to the joint, the joints as dots (moving joints larger
than fixed ones) and the roots as squares, so that a robot whose meshes are not found still
shows its arms, legs and fingers where they are. The link names (``--labels``) go at the
links' points, the names of links at one point together.

:func:`matching_rows` is how two pictures tell what they share (segments here, triangles in
:func:`sdf_tools.drawing.scene.shared`): rows of coordinates equal within a tolerance.
"""

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
from sdf_tools.model import JointType
from sdf_tools.model import Robot
from sdf_tools.records import record

#: Weights of the projection :func:`matching_rows` sorts rows by (fixed, irrational-ish).
_SPREAD = (1.0, 0.7548776662, 0.5698402910, 0.4301597090, 0.3247179572, 0.2451223338,
           0.1850448197, 0.1396849609, 0.1054446009)

_Array = npt.NDArray[np.float64]  # shapes in the docstrings
_Mask = npt.NDArray[np.bool_]


@record(frozen=True, eq=False)
class Skeleton:
    """
    The lines and dots of a robot's skeleton in the model frame (module docstring).

    Attributes
    ----------
    segments : numpy.ndarray, shape (m, 2, 3)
        From each joint's parent link's point to the joint (m).
    joints : numpy.ndarray, shape (k, 3)
        Where each joint is (m).
    moving : numpy.ndarray of bool, shape (k,)
        Whether each joint moves (not fixed).
    roots : numpy.ndarray, shape (r, 3)
        The origins of the root links (m).
    labels : tuple of (str, numpy.ndarray)
        The link names at each point (``'base, base_footprint'``) and the point (3,).

    """

    segments: np.ndarray
    joints: np.ndarray
    moving: np.ndarray
    roots: np.ndarray
    labels: tuple = ()

    def points(self) -> np.ndarray:
        """Return every point drawn, (n, 3): segment ends, joints and roots."""
        return np.concatenate([self.segments.reshape(-1, 3), self.joints, self.roots])

    def turned(self, rotation: _Array) -> 'Skeleton':
        """Return the skeleton in another frame: every point rotated by ``rotation`` (3, 3)."""
        return Skeleton(self.segments @ rotation.T, self.joints @ rotation.T, self.moving,
                        self.roots @ rotation.T,
                        tuple((names, point @ rotation.T) for names, point in self.labels))

    def part(self, segments: _Mask, joints: _Mask, roots: _Mask) -> 'Skeleton':
        """Return the segments, joints and roots where the masks (bool) are true; the labels."""
        return Skeleton(self.segments[segments], self.joints[joints], self.moving[joints],
                        self.roots[roots], self.labels)


def skeleton(robot: Robot, poses: Mapping[str, npt.ArrayLike]) -> Skeleton:
    """
    Return the skeleton of ``robot`` with its links at ``poses`` (module docstring).

    Parameters
    ----------
    robot : Robot
        The description.
    poses : Mapping
        Link name -> ``T_model_link``, array-like (4, 4); joints between links not in it
        are left out.

    """
    points = {}
    moving = {}
    for joint in robot.joints:
        pose = poses.get(joint.child)
        if pose is not None and joint.parent in poses:
            points[joint.child] = np.asarray(pose, dtype=float) @ joint.joint_in_child.matrix()
            moving[joint.child] = joint.kind is not JointType.FIXED
    roots = [name for name in (link.name for link in robot.links)
             if name in poses and name not in points]
    for name in roots:
        points[name] = np.asarray(poses[name], dtype=float)
    segments = [(points[joint.parent][:3, 3], points[joint.child][:3, 3])
                for joint in robot.joints if joint.child in moving and joint.parent in points]
    joints = [points[name][:3, 3] for name in moving]
    return Skeleton(np.array(segments, dtype=float).reshape(-1, 2, 3),
                    np.array(joints, dtype=float).reshape(-1, 3),
                    np.array(list(moving.values()), dtype=bool),
                    np.array([points[name][:3, 3] for name in roots]).reshape(-1, 3),
                    _labels({name: points[name][:3, 3] for name in points}))


def _labels(points: dict) -> tuple:
    """Return ``(names, point)`` for each place, the names of links there joined."""
    places: dict = {}
    for name, point in points.items():
        with np.errstate(over='ignore', invalid='ignore'):  # too far to draw: refused later
            key = tuple(np.round(point, 6))  # a micrometre apart: one place
        places.setdefault(key, ([], point))[0].append(name)
    return tuple((', '.join(names), point) for names, point in places.values())


def shared_bones(first: Skeleton, second: Skeleton,
                 tolerance: float) -> list[tuple[_Mask, _Mask]]:
    """
    Return which segments, joints and roots of each skeleton the other has too.

    ``[(segments_in_second, segments_in_first), (joints...), (roots...)]``, masks as
    :func:`matching_rows` returns them, within ``tolerance`` (m) times the larger of 1 and
    the largest coordinate.
    """
    scale = max([1.0] + [float(np.abs(points).max()) for points in (first.points(),
                                                                    second.points())
                         if points.size])
    return [matching_rows(first.segments.reshape(-1, 6), second.segments.reshape(-1, 6),
                          tolerance * scale),
            matching_rows(first.joints, second.joints, tolerance * scale),
            matching_rows(first.roots, second.roots, tolerance * scale)]


def matching_rows(first: _Array, second: _Array, tolerance: float) -> tuple[_Mask, _Mask]:
    """
    Return which rows of each array the other has too, every number within ``tolerance``.

    Parameters
    ----------
    first, second : numpy.ndarray, shape (n, k) and (m, k)
        Rows of coordinates (m): a triangle's 9, a segment's 6.
    tolerance : float
        Largest difference of two numbers that are the same.

    Returns
    -------
    in_second : ndarray of bool, shape (n,)
    in_first : ndarray of bool, shape (m,)

    Rows are sorted by a projection that rows within ``tolerance`` share to within ``tolerance``
    times the sum of its weights; only rows that near in it are compared.

    """
    in_second, in_first = np.zeros(len(first), bool), np.zeros(len(second), bool)
    if not len(first) or not len(second):
        return in_second, in_first
    weights = np.resize(np.asarray(_SPREAD), first.shape[1])
    key_first, key_second = first @ weights, second @ weights
    order = np.argsort(key_second, kind='stable')
    sorted_keys = key_second[order]
    reach = tolerance * weights.sum()
    low = np.searchsorted(sorted_keys, key_first - reach, 'left')
    high = np.searchsorted(sorted_keys, key_first + reach, 'right')
    counts = high - low
    total = int(counts.sum())
    if total > 64 * (len(first) + len(second)):  # many rows in one place: chunks of pairs
        return _matching_chunked(first, second, tolerance, order, low, counts)
    rows = np.repeat(np.arange(len(first)), counts)
    candidates = order[np.repeat(low - np.cumsum(counts) + counts, counts) + np.arange(total)]
    close = np.abs(first[rows] - second[candidates]).max(axis=1) <= tolerance
    in_second[rows[close]] = True
    in_first[candidates[close]] = True
    return in_second, in_first


def _matching_chunked(first: _Array, second: _Array, tolerance: float,
                      order: npt.NDArray[np.intp], low: npt.NDArray[np.intp],
                      counts: npt.NDArray[np.intp]) -> tuple[_Mask, _Mask]:
    """Return :func:`matching_rows`'s result comparing row by row (rows that crowd together)."""
    in_second, in_first = np.zeros(len(first), bool), np.zeros(len(second), bool)
    for i in np.nonzero(counts)[0]:
        candidates = order[low[i]:low[i] + counts[i]]
        close = np.abs(second[candidates] - first[i]).max(axis=1) <= tolerance
        if close.any():
            in_second[i] = True
            in_first[candidates[close]] = True
    return in_second, in_first
