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
RobCoGen Kinematics-DSL reader: ``.kindsl`` text to :class:`~sdf_tools.model.Robot`.

The language (RobCoGen's documentation, "Kinematics-DSL")::

    Robot Fancy {
        RobotBase base0 { inertia_properties {...}  children { link1 via jA } }
        link link1 {
            id = 1
            inertia_properties { mass = 1.0  CoM = (0.5, .0, .0)
                                 Ix=0.0025 Iy=0.33458 Iz=0.33458 Ixy=0.0 Ixz=0.0 Iyz=0.0 }
            children { link2 via jB }
            frames { tip { translation = (1.0, 0.0, 0.0)  rotation = (0.0, 0.0, 0.0) } }
        }
        p_joint jB { ref_frame { translation = (1.0, 0.0, 0.0)  rotation = (-PI/2.0, 0.0, 0.0) } }
    }

Mapping to the model
--------------------
* Every ``link`` (and the ``RobotBase``) is a :class:`~sdf_tools.model.Link` whose frame is
  the RobCoGen link frame: for a link other than the base, the frame that coincides with the
  frame of its supporting joint at the zero configuration, so ``joint_in_child`` is the
  identity, as in URDF.
* ``r_joint`` / ``p_joint`` become :attr:`JointType.REVOLUTE` / :attr:`JointType.PRISMATIC`
  joints with ``axis = (0, 0, 1)`` (the joint frame's z axis) and no limits (the language has
  none). ``ref_frame`` is the joint frame in the predecessor's link frame: the translation,
  then intrinsic rotations about X, then the new Y, then the new Z
  (:func:`~sdf_tools.transforms.quat_from_intrinsic_xyz`).
* The parent and child of a joint come from the ``children { <link> via <joint> }`` lists.
* ``frames { name { translation rotation } }`` become :class:`~sdf_tools.model.Frame` s
  attached to their link, with the same pose format as ``ref_frame``.
* ``RobotBase <name> floating { ... }`` (RobCoGen's floating base) adds a massless link named
  ``world`` and a :attr:`JointType.FLOATING` joint ``world_to_<name>`` from it to the base,
  the URDF idiom for a free-flying robot; a fixed base is simply the root link. Link ids are
  checked (positive integers, unique; the base may say ``id = 0``) but not kept.
* Inertia: see :func:`inertial_from_kindsl`.

Numbers and parameters
----------------------
Wherever a number is expected the reader takes an expression: decimal literals (``.5``,
``1e-3``), ``PI``, parentheses, unary minus and ``+ - * /`` (``-PI/2.0``, ``2*PI``,
``PI*0.5``). A bare identifier is a *parameter* (RobCoGen: "any symbolic identifier appearing
where a numerical property is expected is a parameter"); its value comes from the
``parameters`` mapping, and a missing one is an error naming it and the line of its first
use. RobCoGen 2's ``name[default]`` form is accepted too: the default applies when
``parameters`` has no value.
Expressions are evaluated by a small recursive-descent parser, never ``eval``.

Comments are ``// ...`` and ``/* ... */``. Keys inside a block may come in any order; each
may appear once. Syntax errors stop the reader at once (with line and column); every other
problem is collected and reported together, as for URDF::

    fancy.kindsl:12: link 'link1': <message>
"""

from dataclasses import dataclass
from dataclasses import replace
import math
import numbers
import re

from sdf_tools import transforms
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.model import Frame
from sdf_tools.model import IDENTITY
from sdf_tools.model import Inertial
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Link
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.topology import WORLD
from sdf_tools.validate import check_robot

#: Deepest nesting of parentheses and unary operators an expression may have.
MAX_EXPRESSION_DEPTH = 64
#: Largest document :func:`parse_kindsl` accepts by default (bytes, or characters for text).
#: Hand-written models are a few kilobytes (a 40-link humanoid is about 25); the pure-Python
#: reader takes up to two seconds per megabyte, so the XML formats' limit
#: (:data:`~sdf_tools.files.xml_source.DEFAULT_MAX_BYTES`) would allow a minute of work.
MAX_BYTES = 256 * 1024

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<number>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[{}()\[\],=+\-*/])
""", re.VERBOSE | re.ASCII)  # ASCII: \d is 0-9 only, as in C (no Arabic-Indic digits)
_INTEGER = re.compile(r'\d+', re.ASCII)
_JOINT_KEYWORDS = {'r_joint': JointType.REVOLUTE, 'p_joint': JointType.PRISMATIC}
_MOMENTS = ('Ix', 'Iy', 'Iz', 'Ixy', 'Ixz', 'Iyz')


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # 'ident', 'number', 'punct' or 'end'
    text: str
    line: int
    column: int

    def describe(self) -> str:
        return 'the end of the text' if self.kind == 'end' else repr(self.text)


def parse_kindsl(text, source: str = '<string>', *, parameters=None,
                 max_bytes: int = MAX_BYTES) -> Robot:
    """
    Read a RobCoGen Kinematics-DSL document.

    Parameters
    ----------
    text : str or bytes
        The document (bytes are decoded as UTF-8).
    source : str
        Name for messages (file name or label).
    parameters : mapping of str to float, optional
        Values of the model's parameters (identifiers used where a number is expected).
    max_bytes : int
        Larger documents are refused (default :data:`MAX_BYTES`, 256 KiB).

    Returns
    -------
    Robot
        With ``source_format='kindsl'``; non-fatal problems are in ``Robot.warnings``.

    Raises
    ------
    DescriptionError
        Syntax errors (the first one), or every semantic problem found: missing parameters,
        duplicate names or ids, undefined or unused joints, links with two parents, ...
    TypeError
        ``text`` is not text, or a parameter value is not a finite real number.

    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        if len(data) > max_bytes:
            raise _error(source, None, f'document is {len(data)} bytes, more than the limit of '
                         f'{max_bytes} bytes', Code.TOO_LARGE)
        try:
            text = data.decode('utf-8-sig')
        except UnicodeDecodeError as e:
            raise _error(source, None, f'not UTF-8 text ({e.reason} at byte {e.start})',
                         Code.BAD_ENCODING) from None
    elif not isinstance(text, str):
        raise TypeError(f'parse_kindsl() needs str or bytes, got {type(text).__name__}')
    elif len(text) > max_bytes:
        raise _error(source, None, f'document is {len(text)} characters, more than the limit '
                     f'of {max_bytes}', Code.TOO_LARGE)
    reporter = Reporter()
    params = _check_parameters(parameters)
    parser = _Parser(_tokenize(text.lstrip('\ufeff'), source), source, reporter, params)
    document = parser.document()
    robot = _Builder(document, source, reporter).build()
    reporter.raise_if_errors()
    check_robot(robot, reporter)
    reporter.raise_if_errors()
    unused = sorted(set(params) - parser.used_parameters)
    if unused:
        reporter.warn('parameters not used by the model: ' + ', '.join(map(repr, unused)),
                      SourceLocation(source), f"robot '{robot.name}'", Code.UNUSED_PARAMETER)
    if reporter.warnings:
        robot = replace(robot, warnings=robot.warnings + tuple(reporter.warnings))
    return robot


def inertial_from_kindsl(mass, com, moments) -> Inertial:
    """
    Convert Kinematics-DSL inertia properties to a model :class:`Inertial`.

    The DSL gives, all in the link frame L (RobCoGen: "All the properties must be expressed
    in the link-frame"): the mass m, the centre of mass c = ``com`` and
    ``moments = (Ix, Iy, Iz, Ixy, Ixz, Iyz)`` with ``Ix = sum m_i (y_i^2 + z_i^2)`` and
    ``Ixy = sum m_i x_i y_i`` over coordinates in L, i.e. the moments are about the origin
    of L, and the tensor about that origin is ::

        I_O = [[ Ix, -Ixy, -Ixz],
               [-Ixy,  Iy, -Iyz],
               [-Ixz, -Iyz,  Iz]]

    (the products are given *without* the minus sign). The document's own example confirms
    the origin: a thin hollow cylinder of unit mass, unit length and radius r = 0.05 along x,
    with L at the centre of one base, has ``Iy = 0.33458``; about its centre the moment is
    m (r^2 / 2 + L^2 / 12) = 0.0845833, about the base m (r^2 / 2 + L^2 / 3) = 0.3345833.

    The model (URDF ``<inertial>``) wants the tensor about the centre of mass, in axes
    parallel to L. The parallel-axis theorem, I_O = I_C + m (|c|^2 E - c c^T), gives ::

        I_C = I_O - m (|c|^2 E - c c^T)
        ixx = Ix - m (cy^2 + cz^2)      ixy = -Ixy + m cx cy
        iyy = Iy - m (cx^2 + cz^2)      ixz = -Ixz + m cx cz
        izz = Iz - m (cx^2 + cy^2)      iyz = -Iyz + m cy cz

    and the inertial frame is at c with the link frame's orientation.

    Parameters
    ----------
    mass : float
        ``mass`` (kg).
    com : sequence of 3 float
        ``CoM`` in the link frame (m).
    moments : sequence of 6 float
        ``(Ix, Iy, Iz, Ixy, Ixz, Iyz)`` about the link-frame origin (kg m^2), products
        without the minus sign, as the DSL writes them.

    Returns
    -------
    Inertial
        Mass, tensor about the centre of mass (URDF convention) and ``origin`` at ``com``.

    """
    cx, cy, cz = (float(v) for v in com)
    ix, iy, iz, ixy, ixz, iyz = (float(v) for v in moments)
    m = float(mass)
    com = (cx + 0.0, cy + 0.0, cz + 0.0)
    # "+ 0.0" turns the -0.0 of e.g. -0.0 + m * 0.0 * -0.2 into 0.0.
    return Inertial(
        m,
        ixx=ix - m * (cy * cy + cz * cz) + 0.0,
        ixy=-ixy + m * cx * cy + 0.0,
        ixz=-ixz + m * cx * cz + 0.0,
        iyy=iy - m * (cx * cx + cz * cz) + 0.0,
        iyz=-iyz + m * cy * cz + 0.0,
        izz=iz - m * (cx * cx + cy * cy) + 0.0,
        origin=Pose(com) if com != (0.0, 0.0, 0.0) else IDENTITY,
    )


def _error(source, line, message, code, entity=None) -> DescriptionError:
    return DescriptionError(Diagnostic(message, SourceLocation(source, line), entity,
                                       code=code))


def _check_parameters(parameters) -> dict:
    if parameters is None:
        return {}
    values = {}
    for name, value in dict(parameters).items():
        number = None
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:  # an int beyond the float range
                pass
        if number is None or not math.isfinite(number):
            shown = repr(value)
            if len(shown) > 40:
                shown = shown[:40] + '...'
            raise TypeError(f'parameter {name!r} must be a finite number, got {shown}')
        values[str(name)] = number
    return values


# --- tokens -------------------------------------------------------------------------------

def _tokenize(text: str, source: str):
    """
    Yield the tokens of ``text``, then one ``'end'`` token.

    A generator, so that the parser stops reading at the first syntax error: a huge or
    pathological text costs no more than the part before its first mistake.
    """
    pos, line, line_start = 0, 1, 0
    end = len(text)
    while pos < end:
        m = _TOKEN.match(text, pos)
        column = pos - line_start + 1
        if m is None:
            raise _error(source, line, f'syntax error at column {column}: unexpected '
                         f'character {text[pos]!r}', Code.SYNTAX)
        kind = m.lastgroup
        if kind == 'newline':
            line += 1
            line_start = m.end()
        elif kind == 'block_comment':
            close = text.find('*/', m.end())
            if close < 0:
                raise _error(source, line, f'syntax error at column {column}: the comment '
                             "opened here is never closed with '*/'", Code.SYNTAX)
            newlines = text.count('\n', pos, close)
            if newlines:
                line += newlines
                line_start = text.rfind('\n', pos, close) + 1
            pos = close + 2
            continue
        elif kind in ('number', 'ident', 'punct'):
            yield _Token(kind, m.group(), line, column)
        pos = m.end()
    yield _Token('end', '', line, end - line_start + 1)


# --- the parse tree (plain records; the builder turns them into the model) ---------------

@dataclass(slots=True)
class _Inertia:
    line: int
    mass: float | None = None
    com: tuple | None = None
    moments: dict | None = None


@dataclass(slots=True)
class _FrameSpec:
    name: str
    line: int
    pose: Pose


@dataclass(slots=True)
class _LinkSpec:
    name: str
    line: int
    is_base: bool = False
    floating: bool = False
    link_id: int | None = None
    id_line: int | None = None
    inertia: _Inertia | None = None
    children: list | None = None  # [(child, joint, line)]
    frames: list | None = None


@dataclass(slots=True)
class _JointSpec:
    name: str
    line: int
    kind: JointType
    pose: Pose


@dataclass(slots=True)
class _Document:
    name: str
    line: int
    base: _LinkSpec | None
    links: list
    joints: list


class _Parser:
    """Recursive-descent parser over the token list; one instance per document."""

    __slots__ = ('tokens', 'current', 'source', 'reporter', 'parameters', 'used_parameters',
                 'missing_parameters', 'entity', 'depth')

    def __init__(self, tokens, source, reporter, parameters):
        self.tokens = tokens
        self.source = source
        self.reporter = reporter
        self.current = None
        self.advance()
        self.parameters = parameters
        self.used_parameters: set[str] = set()
        self.missing_parameters: set[str] = set()
        self.entity: str | None = None
        self.depth = 0

    # --- token helpers ------------------------------------------------------------------

    def advance(self) -> None:
        try:
            self.current = next(self.tokens)
        except DescriptionError as e:  # a lexical error: keep what was found before it
            raise DescriptionError(self.reporter.errors + list(e.diagnostics)) from None

    def peek(self) -> _Token:
        return self.current

    def take(self) -> _Token:
        tok = self.current
        if tok.kind != 'end':
            self.advance()
        return tok

    def at(self, text: str) -> bool:
        tok = self.peek()
        return tok.kind in ('punct', 'ident') and tok.text == text

    def expect(self, text: str, what: str | None = None) -> _Token:
        tok = self.peek()
        if tok.kind in ('punct', 'ident') and tok.text == text:
            return self.take()
        self.syntax_error(tok, f'expected {what or repr(text)}, got {tok.describe()}')

    def name(self, what: str) -> _Token:
        tok = self.peek()
        if tok.kind != 'ident':
            self.syntax_error(tok, f'expected {what}, got {tok.describe()}')
        return self.take()

    def syntax_error(self, tok: _Token, message: str):
        diagnostic = Diagnostic(f'syntax error at column {tok.column}: {message}',
                                SourceLocation(self.source, tok.line), self.entity,
                                code=Code.SYNTAX)
        raise DescriptionError(self.reporter.errors + [diagnostic])

    def error(self, line: int, message: str, code: Code = Code.INVALID, entity=None) -> None:
        self.reporter.error(message, SourceLocation(self.source, line),
                            entity if entity is not None else self.entity, code)

    # --- document structure -------------------------------------------------------------

    def document(self) -> _Document:
        start = self.expect('Robot', "'Robot <name> {'")
        name = self.name('the robot name').text
        self.entity = f"robot '{name}'"
        self.expect('{')
        base, links, joints = None, [], []
        while not self.at('}'):
            tok = self.peek()
            if tok.kind == 'ident' and tok.text == 'RobotBase':
                spec = self.link(base=True)
                if base is not None:
                    self.error(tok.line, f'a robot has one RobotBase; {base.name!r} is '
                               f'already the base (line {base.line})', Code.REPEATED_ELEMENT,
                               f"robot '{name}'")
                else:
                    base = spec
            elif tok.kind == 'ident' and tok.text == 'link':
                links.append(self.link(base=False))
            elif tok.kind == 'ident' and tok.text in _JOINT_KEYWORDS:
                joints.append(self.joint())
            else:
                self.entity = f"robot '{name}'"
                self.syntax_error(tok, "expected 'RobotBase', 'link', 'r_joint', 'p_joint' "
                                  f"or '}}', got {tok.describe()}")
            self.entity = f"robot '{name}'"
        self.take()
        tok = self.peek()
        if tok.kind != 'end':
            self.syntax_error(tok, f"unexpected {tok.describe()} after the end of 'Robot "
                              f"{name}'")
        if base is None:
            self.error(start.line, "has no 'RobotBase' (the root link)", Code.NO_ROOT)
        return _Document(name, start.line, base, links, joints)

    def link(self, base: bool) -> _LinkSpec:
        keyword = self.take()
        name = self.name(f"the name after '{keyword.text}'").text
        self.entity = f"link '{name}'"
        spec = _LinkSpec(name, keyword.line, is_base=base)
        if base and self.at('floating'):
            self.take()
            spec.floating = True
        self.expect('{')
        seen = {}
        while not self.at('}'):
            tok = self.peek()
            key = tok.text if tok.kind == 'ident' else None
            allowed = ('id', 'inertia_properties', 'children', 'frames')
            if key not in allowed:
                self.syntax_error(tok, 'expected ' + ', '.join(allowed[:-1])
                                  + f" or {allowed[-1]} (or '}}'), got {tok.describe()}")
            self._once(seen, tok)
            self.take()
            if key == 'id':
                self.expect('=')
                value = self.peek()
                if value.kind != 'number' or not _INTEGER.fullmatch(value.text):
                    self.syntax_error(value, f'id must be an integer, got {value.describe()}')
                self.take()
                spec.link_id, spec.id_line = int(value.text), value.line
            elif key == 'inertia_properties':
                spec.inertia = self.inertia(tok)
            elif key == 'children':
                spec.children = self.children()
            else:
                spec.frames = self.frames()
        self.take()
        if spec.inertia is None and (not base or spec.floating):
            what = 'a floating RobotBase' if base else 'a link'
            self.error(keyword.line, f"is missing 'inertia_properties' ({what} needs its mass "
                       'properties)', Code.MISSING_ELEMENT)
        if spec.children is None:
            self.error(keyword.line, "is missing 'children' (write 'children {}' when it has "
                       'none)', Code.MISSING_ELEMENT)
        if not base and spec.link_id is None:
            self.error(keyword.line, "is missing 'id'", Code.MISSING_ELEMENT)
        return spec

    def _once(self, seen: dict, tok: _Token) -> None:
        if tok.text in seen:
            self.error(tok.line, f'{tok.text!r} is given twice (first on line '
                       f'{seen[tok.text]})', Code.REPEATED_ELEMENT)
        else:
            seen[tok.text] = tok.line

    def inertia(self, start: _Token) -> _Inertia:
        self.expect('{')
        spec = _Inertia(start.line, moments={})
        seen = {}
        while not self.at('}'):
            tok = self.peek()
            key = tok.text if tok.kind == 'ident' else None
            if key not in ('mass', 'CoM') + _MOMENTS:
                self.syntax_error(tok, 'expected mass, CoM, Ix, Iy, Iz, Ixy, Ixz or Iyz in '
                                  f"'inertia_properties' (or '}}'), got {tok.describe()}")
            self._once(seen, tok)
            self.take()
            self.expect('=')
            if key == 'mass':
                spec.mass = self.value()
            elif key == 'CoM':
                spec.com = self.vector()
            else:
                spec.moments[key] = self.value()
        self.take()
        missing = [k for k in ('mass', 'CoM') + _MOMENTS if k not in seen]
        if missing:
            self.error(start.line, "'inertia_properties' is missing " + ', '.join(missing),
                       Code.MISSING_ELEMENT)
        return spec

    def children(self) -> list:
        self.expect('{')
        children = []
        while not self.at('}'):
            child = self.name("a child link name (or '}')")
            self.expect('via', "'via' after the child link name")
            joint = self.name("a joint name after 'via'")
            children.append((child.text, joint.text, child.line))
        self.take()
        return children

    def frames(self) -> list:
        self.expect('{')
        frames = []
        while not self.at('}'):
            tok = self.name("a frame name (or '}')")
            outer = self.entity
            self.entity = f"frame '{tok.text}'"
            frames.append(_FrameSpec(tok.text, tok.line, self.pose_block(tok)))
            self.entity = outer
        self.take()
        return frames

    def joint(self) -> _JointSpec:
        keyword = self.take()
        name = self.name(f"the name after '{keyword.text}'").text
        self.entity = f"joint '{name}'"
        self.expect('{')
        pose = None
        while not self.at('}'):
            tok = self.peek()
            if not (tok.kind == 'ident' and tok.text == 'ref_frame'):
                self.syntax_error(tok, f"expected 'ref_frame' (or '}}'), got {tok.describe()}")
            if pose is not None:
                self.error(tok.line, "'ref_frame' is given twice", Code.REPEATED_ELEMENT)
            self.take()
            pose = self.pose_block(tok)
        self.take()
        if pose is None:
            self.error(keyword.line, "is missing 'ref_frame' (the joint frame in the parent "
                       'link frame)', Code.MISSING_ELEMENT)
            pose = IDENTITY
        return _JointSpec(name, keyword.line, _JOINT_KEYWORDS[keyword.text], pose)

    def pose_block(self, start: _Token) -> Pose:
        """Read ``{ translation = (x, y, z)  rotation = (rx, ry, rz) }``."""
        self.expect('{')
        seen = {}
        translation = rotation = None
        while not self.at('}'):
            tok = self.peek()
            if tok.kind != 'ident' or tok.text not in ('translation', 'rotation'):
                self.syntax_error(tok, "expected 'translation' or 'rotation' (or '}'), got "
                                  + tok.describe())
            self._once(seen, tok)
            self.take()
            self.expect('=')
            if tok.text == 'translation':
                translation = self.vector()
            else:
                rotation = self.vector()
        self.take()
        missing = [k for k in ('translation', 'rotation') if k not in seen]
        if missing:
            self.error(start.line, f'{start.text!r} is missing ' + ' and '.join(missing),
                       Code.MISSING_ELEMENT)
        translation = translation or (0.0, 0.0, 0.0)
        rotation = rotation or (0.0, 0.0, 0.0)
        if rotation == (0.0, 0.0, 0.0):
            quat = transforms.IDENTITY_QUAT
        else:
            quat = transforms.quat_normalize(transforms.quat_from_intrinsic_xyz(*rotation))
        return Pose(translation, quat)

    # --- numbers ------------------------------------------------------------------------

    def vector(self) -> tuple:
        self.expect('(', "'(' to open a 3-vector")
        values = [self.value()]
        for _ in range(2):
            self.expect(',', "',' (a 3-vector has three numbers)")
            values.append(self.value())
        self.expect(')', "')' to close the 3-vector (it has three numbers)")
        return tuple(values)

    def value(self) -> float:
        tok = self.peek()
        value = self.expression()
        if not math.isfinite(value):
            self.error(tok.line, 'the expression starting at column '
                       f'{tok.column} does not evaluate to a finite number', Code.BAD_NUMBER)
            return 0.0
        return value

    def expression(self) -> float:
        value = self.term()
        while self.at('+') or self.at('-'):
            op = self.take()
            rhs = self.term()
            value = value + rhs if op.text == '+' else value - rhs
        return value

    def term(self) -> float:
        value = self.unary()
        while self.at('*') or self.at('/'):
            op = self.take()
            rhs = self.unary()
            if op.text == '*':
                value = value * rhs
            elif rhs == 0.0:
                self.error(op.line, f'division by zero at column {op.column}', Code.BAD_NUMBER)
                value = 0.0
            else:
                value = value / rhs
        return value

    def unary(self) -> float:
        if self.at('-') or self.at('+'):
            op = self.take()
            with _Nesting(self, op):
                operand = self.unary()
            return -operand if op.text == '-' else operand
        return self.atom()

    def atom(self) -> float:
        tok = self.peek()
        if tok.kind == 'number':
            self.take()
            return float(tok.text)
        if tok.kind == 'ident':
            self.take()
            if tok.text == 'PI':
                return math.pi
            return self.parameter(tok)
        if tok.kind == 'punct' and tok.text == '(':
            self.take()
            with _Nesting(self, tok):
                value = self.expression()
            self.expect(')', "')' to close the parenthesis")
            return value
        self.syntax_error(tok, f'expected a number, PI, a parameter name or an expression, '
                          f'got {tok.describe()}')

    def parameter(self, tok: _Token) -> float:
        default = None
        if self.at('['):
            bracket = self.take()
            with _Nesting(self, bracket):
                default = self.expression()
            self.expect(']', "']' to close the parameter's default value")
        self.used_parameters.add(tok.text)
        if tok.text in self.parameters:
            return self.parameters[tok.text]
        if default is not None:
            return default
        if tok.text in self.missing_parameters:
            return 0.0  # reported at its first use
        self.missing_parameters.add(tok.text)
        self.error(tok.line, f'parameter {tok.text!r} (column {tok.column}) has no value: '
                   'pass it in parameters={...} (a bare identifier where a number is '
                   'expected is a parameter)', Code.MISSING_PARAMETER)
        return 0.0


class _Nesting:
    """Context manager bounding expression nesting (no RecursionError on hostile input)."""

    __slots__ = ('parser', 'tok')

    def __init__(self, parser: _Parser, tok: _Token):
        self.parser = parser
        self.tok = tok

    def __enter__(self):
        self.parser.depth += 1
        if self.parser.depth > MAX_EXPRESSION_DEPTH:
            self.parser.syntax_error(self.tok, 'expression nested more than '
                                     f'{MAX_EXPRESSION_DEPTH} levels deep')
        return self

    def __exit__(self, *exc):
        self.parser.depth -= 1
        return False


# --- model building -----------------------------------------------------------------------

class _Builder:
    """Resolves names in a parsed document and builds the :class:`Robot`."""

    __slots__ = ('doc', 'source', 'reporter')

    def __init__(self, doc: _Document, source: str, reporter: Reporter):
        self.doc = doc
        self.source = source
        self.reporter = reporter

    def loc(self, line) -> SourceLocation:
        return SourceLocation(self.source, line)

    def error(self, line, entity, message, code=Code.INVALID) -> None:
        self.reporter.error(message, self.loc(line), entity, code)

    def build(self) -> Robot:
        doc = self.doc
        specs = ([doc.base] if doc.base is not None else []) + doc.links
        links = self._index_links(specs)
        joints = self._index_joints()
        self._check_ids(specs)
        parent_of, ends = self._connect(specs, links, joints)
        for spec in doc.links:
            if spec.name not in parent_of and links.get(spec.name) is spec:
                self.error(spec.line, f"link '{spec.name}'", 'is not the child of any link '
                           "(no 'children' list names it); only the RobotBase has no parent",
                           Code.NO_PARENT)
        model_joints = []
        for spec in doc.joints:
            if joints.get(spec.name) is not spec:
                continue
            connection = ends.get(spec.name)
            if connection is None:
                self.error(spec.line, f"joint '{spec.name}'", 'is not used by any link (no '
                           f"'children' entry says '<link> via {spec.name}')", Code.UNUSED_JOINT)
                continue
            parent, child = connection
            model_joints.append(Joint(name=spec.name, kind=spec.kind, parent=parent,
                                      child=child, origin=spec.pose, axis=(0.0, 0.0, 1.0),
                                      location=self.loc(spec.line)))
        model_links = [self._link(spec) for spec in specs]
        frames = self._frames(specs, links)
        base = doc.base
        if base is not None and base.floating:
            model_joints.insert(0, self._floating_joint(base, links, joints))
            model_links.insert(0, Link(WORLD, location=self.loc(base.line)))
        return Robot(name=doc.name, links=tuple(model_links), joints=tuple(model_joints),
                     frames=tuple(frames), source=self.source, source_format='kindsl',
                     location=self.loc(doc.line))

    def _index_links(self, specs) -> dict:
        links = {}
        for spec in specs:
            if spec.name in links:
                self.error(spec.line, f"link '{spec.name}'", f'link name {spec.name!r} is '
                           f'used more than once (first on line {links[spec.name].line})',
                           Code.DUPLICATE_NAME)
                continue
            links[spec.name] = spec
        return links

    def _index_joints(self) -> dict:
        joints = {}
        for spec in self.doc.joints:
            if spec.name in joints:
                self.error(spec.line, f"joint '{spec.name}'", f'joint name {spec.name!r} is '
                           f'used more than once (first on line {joints[spec.name].line})',
                           Code.DUPLICATE_NAME)
                continue
            joints[spec.name] = spec
        return joints

    def _check_ids(self, specs) -> None:
        owners = {}
        for spec in specs:
            if spec.link_id is None:
                continue
            entity = f"link '{spec.name}'"
            if spec.is_base:
                if spec.link_id != 0:
                    self.error(spec.id_line, entity, f'the RobotBase id must be 0, got '
                               f'{spec.link_id}', Code.BAD_ID)
                continue
            if spec.link_id < 1:
                self.error(spec.id_line, entity, f'id must be a positive integer, got '
                           f'{spec.link_id} (0 is the RobotBase)', Code.BAD_ID)
            elif spec.link_id in owners:
                other = owners[spec.link_id]
                self.error(spec.id_line, entity, f'id {spec.link_id} is already used by link '
                           f"'{other.name}' (line {other.id_line})", Code.DUPLICATE_NAME)
            else:
                owners[spec.link_id] = spec

    def _connect(self, specs, links, joints):
        """
        Resolve every ``children`` entry.

        Returns ``(parent_of, ends)``: child link -> ``(joint, parent)`` and joint ->
        ``(parent, child)``, for the valid connections.
        """
        parent_of, ends = {}, {}
        base_name = self.doc.base.name if self.doc.base is not None else None
        for spec in specs:
            if links.get(spec.name) is not spec:
                continue
            entity = f"link '{spec.name}'"
            for child, joint, line in spec.children or ():
                ok = True
                if joint not in joints:
                    self.error(line, entity, f"children: '{child} via {joint}' names joint "
                               f'{joint!r}, which is not defined (r_joint or p_joint)',
                               Code.MISSING_JOINT)
                    ok = False
                if child not in links:
                    self.error(line, entity, f"children: '{child} via {joint}' names link "
                               f'{child!r}, which is not defined', Code.MISSING_LINK)
                    ok = False
                if not ok:
                    continue
                if child == base_name:
                    self.error(line, entity, f'children: the RobotBase {child!r} cannot be '
                               'the child of a link', Code.CYCLE)
                    continue
                if child == spec.name:
                    self.error(line, entity, f'children: link {child!r} cannot be its own '
                               'child', Code.CYCLE)
                    continue
                used = ends.get(joint)
                if used is not None:
                    self.error(line, entity, f'children: joint {joint!r} already connects '
                               f'link {used[0]!r} to link {used[1]!r}; each joint connects '
                               'one parent and one child', Code.JOINT_REUSED)
                    continue
                if child in parent_of:
                    other_joint, other_parent = parent_of[child]
                    self.error(line, entity, f'children: link {child!r} is already the child '
                               f'of link {other_parent!r} (via {other_joint!r}); a link has '
                               'only one parent', Code.SEVERAL_PARENTS)
                    continue
                parent_of[child] = (joint, spec.name)
                ends[joint] = (spec.name, child)
        return parent_of, ends

    def _link(self, spec: _LinkSpec) -> Link:
        inertial = None
        ip = spec.inertia
        if ip is not None and ip.mass is not None and ip.com is not None:
            moments = [ip.moments.get(k, 0.0) for k in _MOMENTS]
            inertial = inertial_from_kindsl(ip.mass, ip.com, moments)
            values = (inertial.ixx, inertial.ixy, inertial.ixz, inertial.iyy, inertial.iyz,
                      inertial.izz)
            if not all(map(math.isfinite, values)):
                self.error(ip.line, f"link '{spec.name}'", 'moving the moments of inertia to '
                           'the centre of mass overflows (the mass or CoM is too large)',
                           Code.BAD_NUMBER)
                inertial = None
            elif min(inertial.ixx, inertial.iyy, inertial.izz) < 0.0:
                self.reporter.warn(
                    'moving the moments of inertia to the centre of mass makes one negative '
                    f'(ixx {inertial.ixx:.6g}, iyy {inertial.iyy:.6g}, izz {inertial.izz:.6g}): '
                    'Ix, Iy, Iz must be about the link-frame origin, not about the centre of '
                    'mass', self.loc(ip.line), f"link '{spec.name}'", Code.BAD_INERTIA)
        return Link(spec.name, inertial=inertial, location=self.loc(spec.line))

    def _frames(self, specs, links) -> list:
        frames = []
        seen = {}
        for spec in specs:
            if links.get(spec.name) is not spec:
                continue
            for frame in spec.frames or ():
                entity = f"frame '{frame.name}'"
                if frame.name in links:
                    self.error(frame.line, entity, f'has the name of a link (line '
                               f'{links[frame.name].line}); frame and link names must be '
                               'distinct', Code.DUPLICATE_NAME)
                    continue
                if frame.name in seen:
                    self.error(frame.line, entity, f'frame name {frame.name!r} is used more '
                               f'than once (first on line {seen[frame.name]})',
                               Code.DUPLICATE_NAME)
                    continue
                seen[frame.name] = frame.line
                frames.append(Frame(frame.name, spec.name, frame.pose, self.loc(frame.line)))
        return frames

    def _floating_joint(self, base: _LinkSpec, links, joints) -> Joint:
        name = f'{WORLD}_to_{base.name}'
        if WORLD in links:
            self.error(links[WORLD].line, f"link '{WORLD}'", f'a floating base adds a link '
                       f'named {WORLD!r} (the fixed frame); rename this link', Code.DUPLICATE_NAME)
        if name in joints:
            self.error(joints[name].line, f"joint '{name}'", f'a floating base {base.name!r} '
                       f'adds a floating joint named {name!r}; rename this joint',
                       Code.DUPLICATE_NAME)
        return Joint(name=name, kind=JointType.FLOATING, parent=WORLD, child=base.name,
                     location=self.loc(base.line))
