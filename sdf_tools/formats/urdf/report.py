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
What the URDF writer cannot write, collected, and the numbers it writes.

The writer and its parts (:mod:`.tree`, :mod:`.extensions`) report every problem here and
go on, so that one :class:`~sdf_tools.errors.ConversionError` names all of them.
"""

import math

from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Reporter
from sdf_tools.formatting import fmt


class UrdfReport:
    """Collects the problems of one :func:`~sdf_tools.formats.urdf.writer.write_urdf` call."""

    __slots__ = ('reporter',)

    def __init__(self):
        self.reporter = Reporter(ConversionError)

    def error(self, entity, message, location=None, code=Code.NO_URDF_EQUIVALENT) -> None:
        """Record that entity cannot be written as it is (by default: no equivalent)."""
        self.reporter.error(message, location, entity, code)

    def num(self, value, entity, what) -> str:
        """Return a number's shortest text; a number that is not finite is a problem."""
        value = float(value)
        if not math.isfinite(value):
            self.error(entity, f'{what} is {value!r}; URDF needs finite numbers',
                       code=Code.BAD_NUMBER)
            return '0'
        return fmt(value)

    def nums(self, values, entity, what) -> str:
        """Return numbers as space-separated text (see :meth:`num`)."""
        return ' '.join(self.num(v, entity, what) for v in values)

    def raise_if_errors(self) -> None:
        """Raise a :class:`ConversionError` holding every problem, if there is any."""
        self.reporter.raise_if_errors()
