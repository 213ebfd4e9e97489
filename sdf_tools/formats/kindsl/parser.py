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
The Kinematics-DSL parser: text to a parsed :class:`~.document.Document`.

The grammar, as RobCoGen writes it (keys inside a block in any order, each at most once)::

    document   = 'Robot' NAME '{' { base | link | joint } '}'
    base       = 'RobotBase' NAME [ 'floating' ] '{' link-keys '}'
    link       = 'link' NAME '{' link-keys '}'
    link-keys  = 'id' '=' INTEGER | 'inertia_properties' '{' inertia '}'
               | 'children' '{' { NAME 'via' NAME } '}' | 'frames' '{' { NAME pose } '}'
    inertia    = 'mass' '=' value | 'CoM' '=' vector | ('Ix' | 'Iy' | ... | 'Iyz') '=' value
    joint      = ('r_joint' | 'p_joint') NAME '{' 'ref_frame' pose '}'
    pose       = '{' 'translation' '=' vector  'rotation' '=' vector '}'
    vector     = '(' value ',' value ',' value ')'
    value      = term { ('+' | '-') term }      term = unary { ('*' | '/') unary }
    unary      = ('-' | '+') unary | atom       atom = NUMBER | 'PI' | parameter | '(' value ')'
    parameter  = NAME [ '[' value ']' ]

A ``pose`` is the translation, then intrinsic rotations about X, the new Y and the new Z
(:func:`~sdf_tools.transforms.quat_from_intrinsic_xyz`). Values are evaluated as they are
read (never with ``eval``); a parameter takes its value from the ``parameters`` mapping, or
its ``[default]``. Names are not resolved here: the builder in :mod:`.reader` does that.
"""

import math
import re
from typing import Literal

from sdf_tools import transforms
from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.formats.kindsl.document import Document
from sdf_tools.formats.kindsl.document import FrameSpec
from sdf_tools.formats.kindsl.document import Inertia
from sdf_tools.formats.kindsl.document import JointSpec
from sdf_tools.formats.kindsl.document import LinkSpec
from sdf_tools.formats.kindsl.document import MOMENTS
from sdf_tools.formats.kindsl.lexer import Token
from sdf_tools.formats.kindsl.lexer import TokenCursor
from sdf_tools.model import IDENTITY
from sdf_tools.model import JointType
from sdf_tools.model import Pose

#: Deepest nesting of parentheses and unary operators an expression may have.
MAX_EXPRESSION_DEPTH = 64

_INTEGER = re.compile(r'\d+', re.ASCII)
_JOINT_KEYWORDS = {'r_joint': JointType.REVOLUTE, 'p_joint': JointType.PRISMATIC}


def parse_document(text: str, source: str, reporter: Reporter,
                   parameters: dict[str, float]) -> tuple[Document, set[str]]:
    """
    Parse a Kinematics-DSL text.

    Parameters
    ----------
    text : str
        The document, without a byte-order mark.
    source : str
        Name for messages.
    reporter : Reporter
        Receives the errors that do not stop the parser (missing keys, parameters without
        a value, expressions that are not finite, ...).
    parameters : dict of str to float
        Values of the parameters.

    Returns
    -------
    document : Document
        What the text says, names unresolved.
    used : set of str
        The parameters the text uses.

    Raises
    ------
    DescriptionError
        The first syntax error, with every error reported before it.

    """
    parser = _Parser(text, source, reporter, parameters)
    return parser.document(), parser.used_parameters


class _Parser(TokenCursor):
    """Recursive-descent parser over the tokens; one instance per document."""

    __slots__ = ('parameters', 'used_parameters', 'missing_parameters', 'depth')

    def __init__(self, text: str, source: str, reporter: Reporter,
                 parameters: dict[str, float]) -> None:
        super().__init__(text, source, reporter)
        self.parameters = parameters
        self.used_parameters: set[str] = set()
        self.missing_parameters: set[str] = set()
        self.depth = 0

    # --- document structure -------------------------------------------------------------

    def document(self) -> Document:
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
        return Document(name, start.line, base, links, joints)

    def link(self, base: bool) -> LinkSpec:
        keyword = self.take()
        name = self.name(f"the name after '{keyword.text}'").text
        self.entity = f"link '{name}'"
        spec = LinkSpec(name, keyword.line, is_base=base)
        if base and self.at('floating'):
            self.take()
            spec.floating = True
        self.expect('{')
        seen: dict[str, Token] = {}
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

    def _once(self, seen: dict, tok: Token) -> None:
        if tok.text in seen:
            self.error(tok.line, f'{tok.text!r} is given twice (first on line '
                       f'{seen[tok.text]})', Code.REPEATED_ELEMENT)
        else:
            seen[tok.text] = tok.line

    def inertia(self, start: Token) -> Inertia:
        self.expect('{')
        spec = Inertia(start.line)
        seen: dict[str, Token] = {}
        while not self.at('}'):
            tok = self.peek()
            key = tok.text if tok.kind == 'ident' else None
            if key not in ('mass', 'CoM') + MOMENTS:
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
        missing = [k for k in ('mass', 'CoM') + MOMENTS if k not in seen]
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
            frames.append(FrameSpec(tok.text, tok.line, self.pose_block(tok)))
            self.entity = outer
        self.take()
        return frames

    def joint(self) -> JointSpec:
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
        return JointSpec(name, keyword.line, _JOINT_KEYWORDS[keyword.text], pose)

    def pose_block(self, start: Token) -> Pose:
        """Read ``{ translation = (x, y, z)  rotation = (rx, ry, rz) }``."""
        self.expect('{')
        seen: dict[str, Token] = {}
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

    def parameter(self, tok: Token) -> float:
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
                   f'give it one ({tok.text}:=VALUE, parameters={{...}}; a bare identifier '
                   'where a number is expected is a parameter)', Code.MISSING_PARAMETER)
        return 0.0


class _Nesting:
    """Context manager bounding expression nesting (no RecursionError on hostile input)."""

    __slots__ = ('parser', 'tok')

    def __init__(self, parser: _Parser, tok: Token) -> None:
        self.parser = parser
        self.tok = tok

    def __enter__(self) -> '_Nesting':
        self.parser.depth += 1
        if self.parser.depth > MAX_EXPRESSION_DEPTH:
            self.parser.syntax_error(self.tok, 'expression nested more than '
                                     f'{MAX_EXPRESSION_DEPTH} levels deep')
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        self.parser.depth -= 1
        return False
