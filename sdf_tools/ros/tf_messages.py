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
TF as ``geometry_msgs/TransformStamped`` objects: what tf2_ros's broadcasters take.

:class:`TransformSet` is the object counterpart of :class:`~sdf_tools.ros.tf_cdr.TfMessageCdr`
(same constructor, same :meth:`~TransformSet.fill`): the list of messages of one list of frame
pairs, built once and updated in place. :func:`static_transforms` is the ``/tf_static`` set.
"""

from typing import Iterable
from typing import Sequence

from builtin_interfaces.msg import Time
from geometry_msgs.msg import TransformStamped
import numpy as np
from sdf_tools.kinematics import KinematicTree
from sdf_tools.kinematics.tree import Transform
from sdf_tools.model import Frame


def make_transform(parent: str, child: str, xyz: Sequence[float], quat: Sequence[float],
                   stamp: Time | None = None) -> TransformStamped:
    """
    Build one ``TransformStamped`` (``T_parent_child``).

    Parameters
    ----------
    parent, child : str
        ``header.frame_id`` and ``child_frame_id``.
    xyz : sequence of 3 float
        Translation (m).
    quat : sequence of 4 float
        Rotation ``(x, y, z, w)``.
    stamp : builtin_interfaces.msg.Time, optional
        ``header.stamp`` (default zero).

    """
    t = TransformStamped()
    t.header.frame_id = parent
    t.child_frame_id = child
    if stamp is not None:
        t.header.stamp = stamp
    translation = t.transform.translation
    translation.x, translation.y, translation.z = (float(v) for v in xyz)
    rotation = t.transform.rotation
    rotation.x, rotation.y, rotation.z, rotation.w = (float(v) for v in quat)
    return t


def static_transforms(tree: KinematicTree, frame_prefix: str, stamp: Time,
                      frames: Iterable[Frame] = ()) -> list:
    """
    Return the ``/tf_static`` set: fixed joints (parent link -> child link) and named frames.

    Named frames (SDFormat ``<frame>``, RobCoGen ``frames {}``) are rigidly attached to a
    link, so they are published as static transforms link -> frame (robot_state_publisher,
    which reads only URDF, has none).

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    frame_prefix : str
        Prepended to both frame names (plain concatenation).
    stamp : builtin_interfaces.msg.Time
        The stamp of every transform (the node clock's now).
    frames : iterable of Frame
        The model's named frames (``Robot.frames``).

    Returns
    -------
    list of TransformStamped

    """
    transforms = [make_transform(frame_prefix + joint.parent, frame_prefix + joint.child, xyz,
                                 quat, stamp)
                  for joint, (xyz, quat) in zip(tree.fixed_joints, tree.fixed_joint_transforms)]
    transforms += [make_transform(frame_prefix + frame.attached_to, frame_prefix + frame.name,
                                  frame.pose.xyz, frame.pose.quat, stamp) for frame in frames]
    return transforms


class TransformSet:
    """
    The ``TransformStamped`` of one list of frame pairs, updated in place by :meth:`fill`.

    Parameters
    ----------
    frames : sequence of (str, str)
        ``(header.frame_id, child_frame_id)`` of each transform, in order.

    Attributes
    ----------
    frames : tuple of (str, str)
        The frame pairs.

    """

    __slots__ = ('frames', '_out', '_parts', '_stamp')

    def __init__(self, frames: Iterable[tuple[str, str]]) -> None:
        self.frames = tuple((str(parent), str(child)) for parent, child in frames)
        self._out = [make_transform(parent, child, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
                     for parent, child in self.frames]
        self._stamp = self._out[0].header.stamp if self._out else None
        for t in self._out:
            t.header.stamp = self._stamp  # one stamp object: set once per message
        self._parts = [(t.transform.translation, t.transform.rotation) for t in self._out]

    def __len__(self) -> int:
        """Return the number of transforms."""
        return len(self.frames)

    def fill(self, sec: int, nanosec: int, transforms: Iterable[Transform]) -> list:
        """
        Write the stamp and the transforms; return the messages.

        Parameters
        ----------
        sec, nanosec : int
            ``header.stamp`` of every transform (s, ns).
        transforms : iterable of ((float, float, float), (float, float, float, float))
            ``T_frame_child`` of each frame pair in order: translation (m) and rotation
            quaternion ``(x, y, z, w)``. Exactly one per frame pair.

        Returns
        -------
        list of TransformStamped
            The same list at every call: send it before the next one (``sendTransform``
            serialises at once).

        """
        stamp = self._stamp
        if stamp is not None:
            stamp.sec = sec
            stamp.nanosec = nanosec
        for (translation, rotation), (xyz, quat) in zip(self._parts, transforms):
            translation.x, translation.y, translation.z = xyz
            rotation.x, rotation.y, rotation.z, rotation.w = quat
        return self._out

    def fill_poses(self, sec: int, nanosec: int, poses: np.ndarray) -> list:
        """
        Write the stamp and the transforms given as an array; return the messages.

        Parameters
        ----------
        sec, nanosec : int
            ``header.stamp`` of every transform (s, ns).
        poses : ndarray, shape (7, n)
            Rows ``x, y, z`` (m) and ``qx, qy, qz, qw``, one column per frame pair in order
            (:attr:`~sdf_tools.kinematics.joint_states.TfArrays.poses`).

        Returns
        -------
        list of TransformStamped
            As :meth:`fill`.

        """
        stamp = self._stamp
        if stamp is not None:
            stamp.sec = sec
            stamp.nanosec = nanosec
        columns = poses.T.tolist()
        for (translation, rotation), (x, y, z, qx, qy, qz, qw) in zip(self._parts, columns):
            translation.x, translation.y, translation.z = x, y, z
            rotation.x, rotation.y, rotation.z, rotation.w = qx, qy, qz, qw
        return self._out
