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

import enum
from typing import Any
from typing import Iterable

from sdf_tools.records import record


class Severity(enum.Enum):
    """How bad a diagnostic is."""

    ERROR = 'error'
    WARNING = 'warning'


class Code(str, enum.Enum):
    """
    What a diagnostic is about: the one table of stable, machine-readable kinds.

    A ``Code`` equals its text (``Code.BAD_NUMBER == 'bad-number'``) and prints as it, so it
    can be compared with strings and written to logs and JSON as is. Each member's comment
    says what it means; a new kind of problem gets a new member here, never a literal at the
    place it is reported.
    """

    # --- the text ------------------------------------------------------------------------
    SYNTAX = 'syntax'                      # not well-formed XML, or a DSL syntax error
    TOO_LARGE = 'too-large'                # over a size, count or depth limit
    BAD_ENCODING = 'bad-encoding'          # not UTF-8
    IO = 'io'                              # a file cannot be read
    XACRO = 'xacro'                        # xacro failed, or xacro markup was not expanded
    PACKAGE_NOT_FOUND = 'package-not-found'  # $(find pkg) or package://pkg names no package found
    MISSING_FILE = 'missing-file'          # a mesh or texture URI names a file that does not exist
    DUPLICATE_PACKAGE = 'duplicate-package'  # two packages of one name where one is looked for
    INCOMPLETE_SEARCH = 'incomplete-search'  # a package search stopped early or skipped folders
    EMPTY = 'empty'                        # no description at all
    UNKNOWN_FORMAT = 'unknown-format'      # text in none of the formats sdf_tools reads
    NOT_URDF = 'not-urdf'                  # the root element is not <robot>
    NOT_SDF = 'not-sdf'                    # the root element is not <sdf>
    BAD_VERSION = 'bad-version'            # an SDFormat or URDF version sdf_tools cannot read
    NEW_VERSION = 'new-version'            # newer than sdf_tools knows; read with its rules
    # --- values --------------------------------------------------------------------------
    BAD_NUMBER = 'bad-number'              # not a finite number, or out of its range
    BAD_ARITY = 'bad-arity'                # a vector with the wrong count of numbers
    BAD_BOOL = 'bad-bool'                  # not a boolean
    READ_AS = 'read-as'                    # a value libsdformat reads as another (666.5: 666)
    BAD_POSE = 'bad-pose'                  # a pose that cannot be read or composed
    UNNORMALISED = 'unnormalised'          # a quaternion that is not unit length
    BAD_NAME = 'bad-name'                  # a name the target format does not allow
    RESERVED_NAME = 'reserved-name'        # a name SDFormat reserves (world, __x__)
    BAD_ID = 'bad-id'                      # a Kinematics-DSL id out of order or range
    BAD_JOINT_TYPE = 'bad-joint-type'      # an unknown joint type
    BAD_GEOMETRY = 'bad-geometry'          # an unknown, incomplete or flat geometry
    BAD_OPTION = 'bad-option'              # a conversion option out of range
    UNKNOWN_NAME = 'unknown-name'          # an element or attribute the format lacks; ignored
    LOADER_REFUSES = 'loader-refuses'      # libsdformat 10+ refuses, classic reads; check: error
    # --- structure -----------------------------------------------------------------------
    MISSING_ELEMENT = 'missing-element'    # a required element is absent
    MISSING_ATTRIBUTE = 'missing-attribute'  # a required attribute is absent
    REPEATED_ELEMENT = 'repeated-element'  # an element or setting given twice where one is allowed
    DUPLICATE_NAME = 'duplicate-name'      # two entities of one kind share a name (or DSL id)
    NO_LINKS = 'no-links'                  # a model without links
    NO_MODEL = 'no-model'                  # an SDFormat file without the model asked for
    AMBIGUOUS_MODEL = 'ambiguous-model'    # several models, none chosen
    INCLUDE = 'include'                    # an SDFormat <include>, which is not read
    DROPPED = 'dropped'                    # content the model cannot hold, left out
    # --- references ----------------------------------------------------------------------
    MISSING_LINK = 'missing-link'          # a reference to a link that does not exist
    MISSING_JOINT = 'missing-joint'        # a reference to a joint that does not exist
    MISSING_FRAME = 'missing-frame'        # a reference to a frame that does not exist
    MISSING_PARAMETER = 'missing-parameter'  # a DSL parameter without a value
    UNUSED_PARAMETER = 'unused-parameter'  # a DSL parameter or xacro argument nothing uses
    UNDEFINED_MATERIAL = 'undefined-material'  # a URDF material used but never defined
    MATERIAL_REDEFINED = 'material-redefined'  # a URDF material defined twice, differently
    NAMELESS_MATERIAL = 'nameless-material'  # a visual <material> without name (urdfdom refuses)
    BAD_CHILD = 'bad-child'                # a joint child that cannot be one (world)
    BAD_CANONICAL_LINK = 'bad-canonical-link'  # an SDFormat canonical_link that is no link
    RELATIVE_TO = 'relative-to'            # a pose relative to a frame outside the model
    UNKNOWN_REFERENCE = 'unknown-reference'  # a <gazebo reference> that names nothing
    AMBIGUOUS_REFERENCE = 'ambiguous-reference'  # a name that is both a link and a joint
    UNKNOWN_JOINT = 'unknown-joint'        # a joint value for a name that is no coordinate
    OUT_OF_LIMITS = 'out-of-limits'        # a joint value outside its joint's limits
    # --- the tree ------------------------------------------------------------------------
    CYCLE = 'cycle'                        # joints, mimic joints or poses that form a loop
    KINEMATIC_LOOP = 'kinematic-loop'      # an SDFormat parallel linkage (a second parent)
    SEVERAL_PARENTS = 'several-parents'    # a link that is the child of two joints
    SEVERAL_ROOTS = 'several-roots'        # more than one root link where one is needed
    NO_ROOT = 'no-root'                    # no root link at all
    NO_PARENT = 'no-parent'                # a DSL link no joint attaches
    JOINT_REUSED = 'joint-reused'          # a DSL joint that connects two pairs of links
    UNUSED_JOINT = 'unused-joint'          # a DSL joint that connects nothing
    ZERO_AXIS = 'zero-axis'                # a joint axis of length zero
    MISSING_AXIS = 'missing-axis'          # a joint without the axis its type needs
    MISSING_LIMIT = 'missing-limit'        # a joint without the limit its type needs
    SWAPPED_LIMITS = 'swapped-limits'      # lower above upper
    BAD_MIMIC = 'bad-mimic'                # a mimic that cannot be followed
    MIMIC_AXIS = 'mimic-axis'              # a mimic of a second axis, kept as the first
    MIMIC_DROPPED = 'mimic-dropped'        # a mimic the target version cannot hold
    NAME_CLASH = 'name-clash'              # a joint named like a link
    RENAMED = 'renamed'                    # an element written under another name
    # --- mass properties -----------------------------------------------------------------
    BAD_INERTIA = 'bad-inertia'            # an inertia no rigid body has (or one repaired)
    NEGATIVE_MASS = 'negative-mass'        # a negative mass
    MASSLESS_LINK = 'massless-link'        # a link without mass, given a placeholder
    AUTO_INERTIAL = 'auto-inertial'        # mass properties from collision geometry, or why not
    # --- conversion ----------------------------------------------------------------------
    NO_EFFECT = 'no-effect'                # a setting that does nothing where it is; ignored
    OVERWRITE = 'overwrite'                # a <gazebo> setting given twice; the last wins
    DEPRECATED = 'deprecated'              # a <gazebo> setting with a newer name
    EXTENSION_TARGET = 'extension-target'  # where libsdformat applies a block differently
    NOT_EXPRESSIBLE = 'not-expressible'    # the model cannot be written in SDFormat
    NO_SDF_EQUIVALENT = 'no-sdf-equivalent'  # URDF content SDFormat has no place for
    NO_URDF_EQUIVALENT = 'no-urdf-equivalent'  # SDFormat content URDF has no place for
    # --- export --------------------------------------------------------------------------
    NOT_EMPTY = 'not-empty'                # an output folder that already holds something
    NOT_COPIED = 'not-copied'              # a file the model uses, not copied into the folder
    NOT_SELF_CONTAINED = 'not-self-contained'  # a URI in the output naming what is outside
    SIMULATOR_MEDIA = 'simulator-media'    # a file the simulator's install provides (file://media)
    BAD_MESH = 'bad-mesh'                  # a mesh file trimesh cannot read (or holds nothing)
    # --- tools ---------------------------------------------------------------------------
    NO_GRAPHVIZ = 'no-graphviz'            # Graphviz's dot is not installed
    GRAPHVIZ_FAILED = 'graphviz-failed'    # Graphviz's dot failed
    NO_TRIMESH = 'no-trimesh'              # trimesh (meshes' mass or pictures) is not installed
    NO_MATPLOTLIB = 'no-matplotlib'        # matplotlib (for sdf_tools view) is not installed
    NOT_DRAWN = 'not-drawn'                # geometry a picture leaves out (unreadable, no shape)
    # --- fallbacks -----------------------------------------------------------------------
    INVALID = 'invalid'                    # any other error
    WARNING = 'warning'                    # any other warning

    def __str__(self) -> str:
        return self.value

    __format__ = str.__format__  # type: ignore[assignment]  # f'{code}' is its value


@record(frozen=True, slots=True)
class SourceLocation:
    """
    Where an element came from.

    Attributes
    ----------
    source : str
        File name, or a label such as ``<string>`` or ``<robot_description>``.
    line : int or None
        1-based line number, when known.
    path : str or None
        The element's path, e.g. ``/robot/joint[@name='elbow']/limit``, for a place whose
        line cannot be told (an element xacro made from markup that cannot be identified).

    """

    source: str
    line: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        text = self.source if self.line is None else f'{self.source}:{self.line}'
        return text if self.path is None else f'{text}: {self.path}'


@record(frozen=True, slots=True)
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
    code : Code
        Stable, machine-readable kind, e.g. ``bad-number`` or ``duplicate-name`` (text is
        accepted and must be a :class:`Code` value).
    places : tuple of SourceLocation
        Other places the message is about: the first of an element given twice, or the
        next places of the same problem (:func:`grouped`); shown after the message.
    count : int
        How many places the problem is at in all, when it stands for several (0: one).

    """

    message: str
    location: SourceLocation | None = None
    entity: str | None = None
    severity: Severity = Severity.ERROR
    code: Code = Code.INVALID
    places: tuple[SourceLocation, ...] = ()
    count: int = 0

    def __post_init__(self) -> None:
        if self.code.__class__ is not Code:
            object.__setattr__(self, 'code', Code(self.code))  # ValueError if not in the table

    def __str__(self) -> str:
        parts = []
        if self.location is not None:
            parts.append(clip(str(self.location), 200))
        if self.severity is Severity.WARNING:
            parts.append('warning')
        if self.entity:
            parts.append(clip(self.entity, 120))
        parts.append(clip(self.message, 1000))
        text = ': '.join(parts)
        if self.count > 1:
            more = ', ...' if self.count > 1 + len(self.places) else ''
            also = f'; also {_where(self.places, self.location)}{more}' if self.places else ''
            text += f' ({self.count} in all{also})'
        elif self.places:
            text += f' (see {_where(self.places, self.location)})'
        return text


def _where(places: Iterable[SourceLocation], location: SourceLocation | None) -> str:
    """
    Return places as ``line 12``, ``lines 12, 31``, or ``arm.xacro:31`` in another file.

    Lines of the file of ``location`` are given as numbers; other places in full.
    """
    source = location.source if location is not None else None
    items = [str(p.line) if p.source == source and p.line is not None and p.path is None
             else clip(str(p), 200) for p in places]
    if all(item.isdigit() for item in items):
        return ('line ' if len(items) == 1 else 'lines ') + ', '.join(items)
    return ', '.join(f'line {item}' if item.isdigit() else item for item in items)


def in_file_order(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """
    Return diagnostics in the order of the places they name: by file, then by line.

    Files come in the order they are first named; a diagnostic without a line comes first
    in its file (it is about the whole of it), one without a place after every file (it
    concludes: ``not written, because ...``). The sort is stable.
    """
    sources: dict[str | None, int] = {}
    for d in diagnostics:
        sources.setdefault(d.location.source if d.location is not None else None, len(sources))

    def key(d: Diagnostic) -> tuple[int, int]:
        location = d.location
        if location is None:
            return (len(sources), 0)
        return (sources[location.source], location.line or 0)

    return sorted(diagnostics, key=key)


def grouped(diagnostics: Iterable[Diagnostic], shown: int = 3) -> list[Diagnostic]:
    """
    Return diagnostics with the warnings that repeat one problem in one file as one.

    Warnings of the same code and message in the same file (the same unknown attribute in
    every link, the same placeholder inertial in many) become the first of them with the
    count (:attr:`Diagnostic.count`) and the next ``shown`` places; the order is kept.
    Errors are never merged.
    """
    firsts: dict[tuple, int] = {}
    merged: dict[int, list[SourceLocation | None]] = {}
    kept: list[Diagnostic] = []
    for d in diagnostics:
        if d.severity is Severity.WARNING and d.count <= 1 and not d.places:
            key = (d.code, d.message, d.location.source if d.location is not None else None)
            index = firsts.get(key)
            if index is not None:
                merged[index].append(d.location)
                continue
            firsts[key] = len(kept)
            merged[len(kept)] = []
        kept.append(d)
    for index, others in merged.items():
        if others:
            first = kept[index]
            kept[index] = Diagnostic(first.message, first.location, first.entity,
                                     first.severity, first.code,
                                     tuple(p for p in others[:shown] if p is not None),
                                     1 + len(others))
    return kept


def presented(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Return diagnostics as commands print them: in file order, repeated warnings grouped."""
    return grouped(in_file_order(diagnostics))


def combine(*steps: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """
    Return the diagnostics of several steps, in order, each problem once.

    A later step may report again what an earlier one found, knowing more: the reader warns
    that a ``<mimic>`` names no joint, then :func:`~sdf_tools.kinematics.compile_tree`
    refuses it (or says it ignores it). A diagnostic of one step with the same code, entity
    and location as one of any later step is left out; the order is kept otherwise. One pass
    over every step, from the last (``combine(a, b, c)`` is ``combine(combine(a, b), c)``,
    in linear time).
    """
    kept = []
    restated: set[tuple] = set()
    for step in reversed(steps):
        step = tuple(step)
        kept.append([d for d in step if (d.code, d.entity, d.location) not in restated])
        restated.update((d.code, d.entity, d.location) for d in step)
    return tuple(d for step in reversed(kept) for d in step)


def shown(text: str) -> str:
    r"""
    Return text that quotes the input, each unprintable character escaped as ``repr`` does.

    A name may hold a newline, a terminal escape or a bidirectional control (U+202A-U+202E,
    U+2066-U+2069), which would start a forged log line or reorder what a reader sees; each
    becomes ``\n``, ``\x1b``, ``\u202e``. Printable text, accented letters and other
    scripts included, is returned as it is (the same object: the check is one C call).
    """
    if text.isprintable():
        return text
    return ''.join(c if c.isprintable() else c.encode('unicode_escape').decode('ascii')
                   for c in text)


def clip(text: str, limit: int) -> str:
    """
    Shorten text that quotes the input (a name can be megabytes) so no message echoes it.

    Unprintable characters are escaped first (:func:`shown`). The middle goes: the start
    names the thing, the end usually says what is wrong with it.
    """
    text = shown(text)
    if len(text) <= limit:
        return text
    keep = (limit - 30) // 2
    return f'{text[:keep]} ...({len(text) - 2 * keep} characters)... {text[-keep:]}'


#: The most characters of a name from the input that a message or a summary quotes
#: (:func:`short_name`).
NAME_CHARS = 100


def short_name(name: str) -> str:
    """
    Return a name from the input as every message and summary quotes it.

    Unprintable characters escaped (:func:`shown`), and at most :data:`NAME_CHARS`
    characters: a longer name keeps its start and end and says how many characters it
    leaves out (``LLL ...(8999930 characters)... LLL``), alike wherever it is named. A
    name of 9 MB is not printed whole in an error, a table or a log line.
    """
    return clip(name, NAME_CHARS)


class SdfToolsError(Exception):
    """
    Base of every error sdf_tools raises on bad input; holds one or more diagnostics.

    Attributes
    ----------
    diagnostics : tuple of Diagnostic
        The errors.
    warnings : tuple of Diagnostic
        The warnings found before it was raised (the reader's, in the order found): a
        command prints them with the errors.
    partial : object or None
        What could be read (a reader's :class:`~sdf_tools.model.Robot`, unchecked), for a
        summary of it (``sdf_tools check``); ``None`` when nothing was.

    """

    def __init__(self, diagnostics: Diagnostic | Iterable[Diagnostic], *,
                 warnings: Iterable[Diagnostic] = (), partial: Any = None) -> None:
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics = tuple(diagnostics)
        self.warnings = tuple(warnings)
        self.partial = partial
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

    def __init__(self, error_type: type[SdfToolsError] = DescriptionError) -> None:
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.error_type = error_type

    def error(self, message: str, location: SourceLocation | None = None,
              entity: str | None = None, code: Code = Code.INVALID,
              places: Iterable[SourceLocation] = ()) -> None:
        """Record an error; ``places`` are the other places it names (``Diagnostic.places``)."""
        self.errors.append(Diagnostic(message, location, entity, Severity.ERROR, code,
                                      tuple(places)))

    def warn(self, message: str, location: SourceLocation | None = None,
             entity: str | None = None, code: Code = Code.WARNING,
             places: Iterable[SourceLocation] = ()) -> None:
        """Record a warning; ``places`` are the other places it names (``Diagnostic.places``)."""
        self.warnings.append(Diagnostic(message, location, entity, Severity.WARNING, code,
                                        tuple(places)))

    def raise_if_errors(self, partial: Any = None) -> None:
        """
        Raise ``error_type`` with every recorded error, if there is any.

        The warnings go with it (:attr:`SdfToolsError.warnings`), and ``partial``, what was
        read (:attr:`SdfToolsError.partial`).
        """
        if self.errors:
            raise self.error_type(self.errors, warnings=self.warnings, partial=partial)
