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
Diagnostics and the exception hierarchy.

Every problem sdf_tools reports says where it is: the source (a file name or a label such as
``<robot_description>``), the line, the entity (``joint 'elbow'``) and what is wrong, rendered
compiler style::

    robot.urdf:42: joint 'elbow': <limit> upper must be a number, got 'abc'

Readers collect every semantic problem before raising, so one run shows all of them;
:class:`SdfToolsError` carries the whole list.
"""

from dataclasses import dataclass
import enum


class Severity(enum.Enum):
    """How bad a diagnostic is."""

    ERROR = 'error'
    WARNING = 'warning'


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """
    Where an element came from.

    Attributes
    ----------
    source : str
        File name, or a label such as ``<string>`` or ``<robot_description>``.
    line : int or None
        1-based line number, when known.

    """

    source: str
    line: int | None = None

    def __str__(self) -> str:
        return self.source if self.line is None else f'{self.source}:{self.line}'


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """
    One problem found in a description, with its place.

    Attributes
    ----------
    message : str
        What is wrong, e.g. ``<limit> upper must be a number, got 'abc'``.
    location : SourceLocation or None
        Where it is.
    entity : str or None
        The named thing it concerns, e.g. ``joint 'elbow'``.
    severity : Severity
        Error or warning.
    code : str
        Stable, machine-readable kind, e.g. ``bad-number`` or ``duplicate-name``.

    """

    message: str
    location: SourceLocation | None = None
    entity: str | None = None
    severity: Severity = Severity.ERROR
    code: str = 'invalid'

    def __str__(self) -> str:
        parts = []
        if self.location is not None:
            parts.append(_clip(str(self.location), 200))
        if self.severity is Severity.WARNING:
            parts.append('warning')
        if self.entity:
            parts.append(_clip(self.entity, 120))
        parts.append(_clip(self.message, 1000))
        return ': '.join(parts)


def _clip(text: str, limit: int) -> str:
    """
    Shorten text that quotes the input (a name can be megabytes) so no message echoes it.

    The middle goes: the start names the thing, the end usually says what is wrong with it.
    """
    if len(text) <= limit:
        return text
    keep = (limit - 30) // 2
    return f'{text[:keep]} ...({len(text) - 2 * keep} characters)... {text[-keep:]}'


class SdfToolsError(Exception):
    """Base of every error sdf_tools raises on bad input; holds one or more diagnostics."""

    def __init__(self, diagnostics):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = tuple(diagnostics)
        super().__init__('\n'.join(str(d) for d in self.diagnostics))

    @property
    def diagnostic(self) -> Diagnostic:
        """Return the first (or only) diagnostic."""
        return self.diagnostics[0]


class XmlSyntaxError(SdfToolsError):
    """The text is not acceptable XML (malformed, entities, too deep, too large)."""


class DescriptionError(SdfToolsError):
    """The XML (or DSL) is well formed but is not a valid robot description."""


class ConversionError(SdfToolsError):
    """The description is valid but cannot be expressed in the requested target format."""


class KinematicsError(SdfToolsError):
    """A kinematic tree cannot be built or evaluated (cycles, mimic loops, bad joint values)."""


class Reporter:
    """
    Collects diagnostics while a reader walks a document.

    Errors are accumulated so that one run reports all of them; :meth:`raise_if_errors` raises
    a single exception holding every error (warnings are kept for the caller).
    """

    __slots__ = ('errors', 'warnings', 'error_type')

    def __init__(self, error_type: type = DescriptionError):
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.error_type = error_type

    def error(self, message: str, location: SourceLocation | None = None,
              entity: str | None = None, code: str = 'invalid') -> None:
        """Record an error."""
        self.errors.append(Diagnostic(message, location, entity, Severity.ERROR, code))

    def warn(self, message: str, location: SourceLocation | None = None,
             entity: str | None = None, code: str = 'warning') -> None:
        """Record a warning."""
        self.warnings.append(Diagnostic(message, location, entity, Severity.WARNING, code))

    def raise_if_errors(self) -> None:
        """Raise ``error_type`` with every recorded error, if there is any."""
        if self.errors:
            raise self.error_type(self.errors)
