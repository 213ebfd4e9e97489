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
Link and frame poses in the model frame: :func:`forward_kinematics` and :func:`frame_poses`.

One configuration, or a batch of up to :data:`SCALAR_BATCH_MAX`, runs the pure-Python
evaluator (:mod:`.single`) once per configuration; larger batches run the numpy one
(:mod:`.batch`) in chunks of ``chunk_size`` configurations, so that memory beyond the result
stays proportional to the chunk and time linear in the number of links. Values given for
mimic joints (``mimic_values``) override their formula as in ``joint_states``
(:meth:`~sdf_tools.kinematics.KinematicTree.mimic_drives`).
"""

from collections.abc import Iterable
from collections.abc import Mapping
from itertools import chain
import math

import numpy as np
import numpy.typing as npt

from sdf_tools.kinematics.single import compile_records
from sdf_tools.kinematics.single import Pose16
from sdf_tools.kinematics.single import world_poses
from sdf_tools.kinematics.tree import KinematicTree
from sdf_tools.kinematics.values import as_float
from sdf_tools.kinematics.values import InfiniteAngle
from sdf_tools.kinematics.values import raise_infinite_angle

DEFAULT_CHUNK_SIZE = 2048
"""Configurations per vectorised chunk (working memory: about 100 bytes per configuration
for each link whose children are not done yet)."""
SCALAR_BATCH_MAX = 8
"""Batches up to this size run the pure-Python evaluator once per configuration."""
_INF = math.inf


def forward_kinematics(tree: KinematicTree, q: npt.ArrayLike, *, chunk_size: int | None = None,
                       mimic_values: Mapping[str, float] | None = None,
                       ) -> npt.NDArray[np.float64]:
    """
    Return the pose of every link in the model frame.

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    q : array-like, shape (n_q,) or (..., n_q)
        Configurations (rad, m; quaternion coordinates need not be normalised).
    chunk_size : int, optional
        Configurations per vectorised chunk (default :data:`DEFAULT_CHUNK_SIZE`); memory
        beyond the result is proportional to it, never to the batch size.
    mimic_values : Mapping, optional
        Mimic joint name -> value (rad or m) used instead of its formula, and followed by
        the mimic joints that mimic it (:meth:`KinematicTree.mimic_drives`); one
        configuration only.

    Returns
    -------
    ndarray, shape (n_links, 4, 4) or (..., n_links, 4, 4)
        ``T_model_link`` for each link of ``tree.link_names``.

    Raises
    ------
    ValueError
        The last dimension of ``q`` is not ``tree.n_q``, or ``mimic_values`` is given with a
        batch.
    KeyError
        A name of ``mimic_values`` is not a mimic joint.
    KinematicsError
        A joint value is infinite: an entry of ``q``, the ``multiplier * value +
        offset`` of a mimic joint, or a gearbox's ``ratio * value``, which overflows.
        ``NaN`` is not checked: it gives ``NaN`` poses.

    """
    n_q = tree.n_q
    if not (type(q) is list and len(q) == n_q and (n_q == 0 or type(q[0]) is float)):
        q = np.asarray(q, dtype=float)
        if q.ndim == 0 or q.shape[-1] != n_q:
            raise ValueError(f'q must have shape (..., {n_q}), got {q.shape}')
    chunk = DEFAULT_CHUNK_SIZE if chunk_size is None else int(chunk_size)
    if chunk < 1:
        raise ValueError(f'chunk_size must be positive, got {chunk_size}')
    try:
        if mimic_values:
            return _evaluate_with_mimic_values(tree, q, mimic_values)
        return _evaluate(tree, q, chunk)
    except InfiniteAngle as e:
        raise_infinite_angle(tree, e.args[0])
    except (ValueError, OverflowError):  # math.sin(inf) of the single evaluator
        raise_infinite_angle(tree, np.asarray(q, dtype=float).reshape(-1, n_q))


def _evaluate(tree: KinematicTree, q: list[float] | npt.NDArray[np.float64],
              chunk: int) -> npt.NDArray[np.float64]:
    """Run :func:`forward_kinematics` on a checked ``q`` (a list of floats or an array)."""
    if isinstance(q, np.ndarray) and q.ndim == 1:
        q = q.tolist()
    if not isinstance(q, np.ndarray):  # a list
        if _INF in q or -_INF in q:  # a C-level scan: cheap next to the evaluation
            raise InfiniteAngle([q])
        return _poses_array(world_poses(tree._single_records, q), tree.n_links)
    lead = q.shape[:-1]
    flat = q.reshape(math.prod(lead), tree.n_q)
    n_links = tree.n_links
    if flat.shape[0] <= SCALAR_BATCH_MAX:
        if np.isinf(flat).any():
            raise InfiniteAngle(flat.tolist())
        records = tree._single_records
        out = np.empty((flat.shape[0], n_links, 4, 4))
        for k, row in enumerate(flat.tolist()):
            out[k] = _poses_array(world_poses(records, row), n_links)
    else:
        out = tree._batch.poses(flat, chunk)
    return out.reshape(lead + (n_links, 4, 4))


def _evaluate_with_mimic_values(tree: KinematicTree, q: list[float] | npt.NDArray[np.float64],
                                mimic_values: Mapping[str, float]) -> npt.NDArray[np.float64]:
    """Run :func:`forward_kinematics` for one configuration with mimic joints' own values."""
    if isinstance(q, np.ndarray):
        if q.ndim != 1:
            raise ValueError('mimic_values need a single configuration, got q of shape '
                             f'{q.shape}')
        row: list[float] = q.tolist()
    else:
        row = q
    if _INF in row or -_INF in row:
        raise InfiniteAngle([row])
    names = tuple(mimic_values)
    drives = tree.mimic_drives(names)
    records = list(tree._single_records)
    for k, drive in drives.items():
        link = tree.link_index[tree.moving_joints[k].child]
        motion = tree._motions[k].with_drive(drive)
        records[link], = compile_records([motion], [motion.world_step()],
                                         [tree.link_parent[link]])
    values = row + [as_float(mimic_values[name], name) for name in names]
    return _poses_array(world_poses(records, values), tree.n_links)


def _poses_array(poses: Iterable[Pose16], n_links: int) -> npt.NDArray[np.float64]:
    """Return the 16-tuples after the model frame slot as a (n_links, 4, 4) array."""
    flat = np.fromiter(chain.from_iterable(poses), float, 16 * (n_links + 1))
    return flat[16:].reshape(n_links, 4, 4)


def frame_poses(tree: KinematicTree, q: npt.ArrayLike | None = None, *,
                link_poses: npt.ArrayLike | None = None) -> npt.NDArray[np.float64]:
    """
    Return the pose of every named frame (``tree.frame_names``) in the model frame.

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    q : array-like, shape (n_q,) or (..., n_q), optional
        Configurations; ignored when ``link_poses`` is given.
    link_poses : ndarray, shape (..., n_links, 4, 4), optional
        The result of :func:`forward_kinematics`, to avoid computing it twice.

    Returns
    -------
    ndarray, shape (..., n_frames, 4, 4)
        ``T_model_frame = T_model_link @ T_link_frame``.

    """
    if link_poses is None:
        if q is None:
            raise ValueError('give q or link_poses')
        link_poses = forward_kinematics(tree, q)
    link_poses = np.asarray(link_poses, dtype=float)
    links = list(tree.frame_links)
    if -1 in links:  # the model frame: the identity, last, is what index -1 takes
        model_frame = np.broadcast_to(np.eye(4), link_poses.shape[:-3] + (1, 4, 4))
        link_poses = np.concatenate((link_poses, model_frame), axis=-3)
    return np.matmul(link_poses[..., links, :, :], tree._frame_constants)
