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
Where the lines of a generated document (xacro's expansion) come from.

A reader reads xacro's expansion under a label of its own and reports places in it; a
:class:`SourceMap` (made by :func:`sdf_tools.loading.xacro_map.map_expansion`) rewrites
those places to the xacro file and line each element came from, so that no message names a
line of a document nobody has. It sits on the ground floor, beside the locations it maps:
the model and the readers never need to know that xacro exists. :func:`relocating` and
:func:`relocated` map through a map that may be absent (``None``: input that was not xacro).
"""

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
import contextlib
from typing import overload

from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.records import replace


@record(frozen=True, eq=False)
class SourceMap:
    """
    Where the lines of a xacro expansion come from (module docstring).

    Attributes
    ----------
    label : str or None
        The source name the expansion was read under; locations in other sources are left
        as they are. ``None``: a map that changes nothing (input that was not xacro).
    document : str
        The xacro document's name, for places that cannot be told.
    lines : dict
        Line of the expansion -> :class:`SourceLocation` in a xacro file.
    paths : dict
        Line of the expansion -> the path of the element that starts there.
    kept : str or None
        Where the expansion was written (``--keep-expanded``): its lines are real.
    calls : dict
        Line of the expansion -> the macro calls that made the element there, innermost
        first, each ``(name, SourceLocation)``: an error there names them (:func:`call_note`).

    """

    label: str | None = None
    document: str = ''
    lines: dict = field(default_factory=dict)
    paths: dict = field(default_factory=dict)
    kept: str | None = None
    calls: dict = field(default_factory=dict)

    def kept_as(self, path: str) -> 'SourceMap':
        """Return the map for an expansion also written to ``path``."""
        return replace(self, kept=path)

    @overload
    def locate(self, location: SourceLocation) -> SourceLocation: ...

    @overload
    def locate(self, location: None) -> None: ...

    def locate(self, location: SourceLocation | None) -> SourceLocation | None:
        """Return where a location in the expansion really is (module docstring)."""
        if location is None or self.label is None or location.source != self.label:
            return location
        line = location.line
        origin = self.lines.get(line)
        if origin is not None:
            return origin
        if self.kept is not None:
            return SourceLocation(self.kept, line)
        return SourceLocation(self.document, None, self.paths.get(line))

    def diagnostics(self, diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
        """
        Return the diagnostics with their locations (and other places) mapped.

        An error in an element a macro call made names the call (:func:`call_note`): a bad
        value is reported in the macro's body, and is often given at the call.
        """
        return tuple(map(self._mapped, diagnostics))

    def _mapped(self, d: Diagnostic) -> Diagnostic:
        location = d.location
        changes: dict = {'location': self.locate(location)}
        if d.places:
            changes['places'] = tuple(map(self.locate, d.places))
        if self.calls and d.severity is Severity.ERROR and location is not None and \
                location.source == self.label and location.line in self.calls:
            changes['message'] = d.message + call_note(self.calls[location.line])
        return replace(d, **changes)

    @contextlib.contextmanager
    def relocating(self) -> Iterator[None]:
        """
        Map the locations of any :class:`SdfToolsError` raised inside the block.

        Its warnings too; what it could read (``partial``) is passed on as it is.
        """
        try:
            yield
        except SdfToolsError as e:
            if self.label is None:
                raise
            raise type(e)(self.diagnostics(e.diagnostics), warnings=self.diagnostics(e.warnings),
                          partial=e.partial) from None


def call_note(calls: Sequence[tuple[str, SourceLocation]]) -> str:
    """
    Return what an error adds about the macro calls that made its element, or ``''``.

    ``calls``: ``(name, SourceLocation)`` of each, innermost first, e.g. `` (expanded from
    <xacro:wheel> at robot.xacro:52, from <xacro:base> at robot.xacro:70)``.
    """
    if not calls:
        return ''
    return ' (expanded from ' + ', from '.join(f'<{name}> at {where}'
                                               for name, where in calls) + ')'


def relocating(origins: SourceMap | None) -> contextlib.AbstractContextManager[None]:
    """Map the places of errors raised in the block through ``origins`` (xacro input only)."""
    return contextlib.nullcontext() if origins is None else origins.relocating()


def relocated(origins: SourceMap | None,
              diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """Return ``diagnostics`` with their places mapped through ``origins`` (xacro only)."""
    return tuple(diagnostics) if origins is None else origins.diagnostics(diagnostics)
