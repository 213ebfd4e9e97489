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
Joint values: refusing those that are not finite numbers, and naming the joint when one is.

The evaluators check cheaply on their fast paths (one sum, or one scan for infinity) and
come here only on failure, to find which joint to name in the message.
"""

from collections.abc import Iterable
from collections.abc import Sequence
import math
import numbers
from typing import Any
from typing import NoReturn
from typing import Protocol

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.kinematics.motion import Motion


class CompiledTree(Protocol):
    """What the slow path reads of a :class:`~sdf_tools.kinematics.KinematicTree`."""

    @property
    def coordinate_names(self) -> tuple[str, ...]: ...  # noqa: D102

    @property
    def mimic_joints(self) -> tuple[Any, ...]: ...  # noqa: D102

    @property
    def moving_joints(self) -> tuple[Any, ...]: ...  # noqa: D102

    @property
    def _motions(self) -> tuple[Motion, ...]: ...  # noqa: D102


class InfiniteAngle(Exception):
    """Some joint angle is infinite; ``args[0]`` is the configurations (a list of rows)."""


def as_float(value: object, name: str) -> float:
    """
    Return ``value`` as a finite float.

    Raises
    ------
    KinematicsError
        ``value`` is not a real number (bools included) or not finite; the message names
        the joint or coordinate ``name``.

    """
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            value = float(value)
        except OverflowError:  # an int (or Fraction) beyond the float range
            value = -math.inf if value < 0 else math.inf  # (typeshed's Real has no >)
        if math.isfinite(value):
            return value
        problem = f'must be finite, got {value!r}'
    else:
        shown = repr(value)
        if len(shown) > 40:
            shown = shown[:40] + '...'
        problem = f'must be a real number, got {type(value).__name__} {shown}'
    raise KinematicsError(Diagnostic(f'joint value {problem}', None, f"joint '{name}'",
                                     code=Code.BAD_NUMBER))


def infinite_angle_error(tree: CompiledTree,
                         rows: Iterable[Sequence[float]]) -> KinematicsError | None:
    """
    Return the error for configurations in which some joint value is infinite.

    ``math.sin`` refuses infinity, so the evaluators fail there; this slow path finds the
    joint for the message: an infinite coordinate, a mimic joint whose ``multiplier * value
    + offset`` overflows, or a motion whose own angle does (a gearbox's ``ratio * value``).

    Parameters
    ----------
    tree : KinematicTree
        The compiled robot.
    rows : iterable of sequence of float
        The configurations, shape (n_q,) each.

    Returns
    -------
    KinematicsError or None
        ``None`` if no joint value is infinite (the failure was something else).

    """
    for q in rows:
        q = [float(v) for v in q]
        for name, value in zip(tree.coordinate_names, q):
            if math.isinf(value):
                return _error(name, f'joint value must be finite, got {value!r}')
        for m in tree.mimic_joints:
            if math.isinf(m.multiplier * q[m.coordinate] + m.offset):
                return _error(m.joint, f'mimic value {m.multiplier:g} * {q[m.coordinate]:g} + '
                              f'{m.offset:g} (following {m.source!r}) overflows to infinity')
        for joint, motion in zip(tree.moving_joints, tree._motions):
            problem = motion.overflow(q)
            if problem is not None:
                return _error(joint.name, problem)
    return None


def raise_infinite_angle(tree: CompiledTree, rows: Iterable[Sequence[float]]) -> NoReturn:
    """
    Raise the KinematicsError naming the joint whose value is infinite in ``rows``.

    Call it from the ``except`` clause that caught ``math.sin``'s ValueError or
    OverflowError: when no joint value is infinite, it re-raises the exception being handled.
    """
    error = infinite_angle_error(tree, rows)
    if error is None:
        raise  # the exception being handled: not an infinite angle
    raise error from None


def _error(name: str, message: str) -> KinematicsError:
    return KinematicsError(Diagnostic(message, None, f"joint '{name}'", code=Code.BAD_NUMBER))
