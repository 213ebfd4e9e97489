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

Some content URDF cannot hold can be left out and still give the nearest URDF: what
:meth:`UrdfReport.drop` receives. By default it is an error that names the way out
(``--lossy``, ``lossy=True``); a lossy report records instead one warning per item left out,
naming it, its entity and its place.
"""

from collections.abc import Iterable
import math

from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.formatting import fmt


#: How an error about content that ``lossy`` would leave out ends (it names the command
#: line's option: the Python one, ``lossy=True``, is the parameter of the same name).
LOSSY_HINT = '; --lossy writes the nearest URDF without it'


class UrdfReport:
    """
    Collects the problems of one :func:`~sdf_tools.formats.urdf.writer.write_urdf` call.

    ``lossy``: content that :meth:`drop` receives is left out with a warning instead of
    being an error.
    """

    __slots__ = ('reporter', 'lossy', '_refused')

    def __init__(self, lossy: bool = False) -> None:
        self.reporter = Reporter(ConversionError)
        self.lossy = lossy
        self._refused: set[tuple] = set()  # (entity, refusal): each said once

    def error(self, entity: str | None, message: str, location: SourceLocation | None = None,
              code: Code = Code.NO_URDF_EQUIVALENT) -> None:
        """Record that entity cannot be written as it is (by default: no equivalent)."""
        self.reporter.error(message, location, entity, code)

    def warn(self, entity: str | None, message: str, location: SourceLocation | None = None,
             code: Code = Code.WARNING) -> None:
        """Record a warning: what the URDF says differently, and how."""
        self.reporter.warn(message, location, entity, code)

    def drop(self, entity: str | None, refusal: str, dropped: str,
             location: SourceLocation | None = None,
             code: Code = Code.NO_URDF_EQUIVALENT) -> bool:
        """
        Record content URDF cannot hold that the nearest URDF leaves out.

        Parameters
        ----------
        entity : str
            What holds it, e.g. ``link 'palm'``.
        refusal : str
            Why it cannot be written (the error, which then names ``--lossy``; the same
            refusal for the same entity is one error).
        dropped : str
            What is left out and why (the lossy warning), e.g. ``<collision> 'c':
            <surface> is left out: ...``.
        location : SourceLocation, optional
            Where the content is.
        code : Code
            What it is about.

        Returns
        -------
        bool
            Whether the caller leaves the content out (lossy) and goes on.

        """
        if self.lossy:
            self.reporter.warn(dropped, location, entity, code)
        elif (entity, refusal) not in self._refused:
            self._refused.add((entity, refusal))
            self.reporter.error(refusal + LOSSY_HINT, location, entity, code)
        return self.lossy

    @property
    def warnings(self) -> tuple:
        """Return the warnings: what is written differently, and what a lossy write left out."""
        return tuple(self.reporter.warnings)

    def num(self, value: float, entity: str | None, what: str) -> str:
        """Return a number's shortest text; a number that is not finite is a problem."""
        value = float(value)
        if not math.isfinite(value):
            self.error(entity, f'{what} is {value!r}; URDF needs finite numbers',
                       code=Code.BAD_NUMBER)
            return '0'
        return fmt(value)

    def nums(self, values: Iterable[float], entity: str | None, what: str) -> str:
        """Return numbers as space-separated text (see :meth:`num`)."""
        return ' '.join(self.num(v, entity, what) for v in values)

    def raise_if_errors(self) -> None:
        """Raise a :class:`ConversionError` holding every problem, if there is any."""
        self.reporter.raise_if_errors()
