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
Number text for the writers: exact, shortest, stable.

Floats are written with the shortest text that reads back to the same double
(``repr``), without a trailing ``.0`` and without ``-0``: ``0.1``, ``1``, ``1e-09``,
``0.30000000000000004``. libsdformat 12.3 writes ``%.16g`` (which can lose the last bit) and
12.4+ writes 17 significant digits; all three read back to the same numbers within 1 ulp.
A subnormal (nonzero, below 2.2e-308 in magnitude) is written ``0``: libsdformat reads
numbers with C++ ``std::stod``, which refuses its text as out of range, so the file would
not load. For the same reason a colour component below the smallest normal float (1.2e-38)
is written ``0`` (:func:`fmt_colour`): libsdformat reads colours as floats (``std::stof``).
"""

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Sequence
import sys

from sdf_tools import transforms

_SMALLEST_NORMAL = sys.float_info.min
_SMALLEST_FLOAT = 2.0 ** -126   # the smallest normal float


def fmt(value: float) -> str:
    """Return the shortest exact text of a float (``1`` for 1.0, ``0`` for -0.0 and subnormals)."""
    if -_SMALLEST_NORMAL < value < _SMALLEST_NORMAL:
        return '0'
    return (repr(value) if value.__class__ is float else repr(float(value))).removesuffix('.0')


def fmt_vec(values: Iterable[float], number: Callable[[float], str] = fmt) -> str:
    """Return space-separated :func:`fmt` texts (``number``: :func:`fmt` or a cache of it)."""
    return ' '.join(map(number, values))


def fmt_colour(values: Iterable[float]) -> str:
    """Return :func:`fmt_vec` of colour components, those that no float holds as ``0``."""
    return ' '.join('0' if -_SMALLEST_FLOAT < value < _SMALLEST_FLOAT else fmt(value)
                    for value in values)


def fmt_pose(xyz: Sequence[float], quat: Sequence[float],
             number: Callable[[float], str] = fmt) -> str:
    """
    Return ``x y z roll pitch yaw`` of a pose (fixed-axis rpy, exact for every rotation).

    ``number`` formats each of the six: :func:`fmt` or a cache of it.
    """
    if quat[0] == 0.0 and quat[1] == 0.0 and quat[2] == 0.0:
        if xyz[0] == 0.0 and xyz[1] == 0.0 and xyz[2] == 0.0:
            return '0 0 0 0 0 0'  # a third of the poses in real descriptions
        rpy = (0.0, 0.0, 0.0)
    else:
        rpy = transforms.rpy_from_quat(quat)
    return fmt_vec((*xyz, *rpy), number)
