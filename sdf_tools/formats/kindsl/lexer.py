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
The Kinematics-DSL tokenizer, and the cursor the parser reads tokens with.

Tokens are numbers (``1``, ``.5``, ``1e-3``), identifiers, and the punctuation
``{ } ( ) [ ] , = + - * /``. Spaces, newlines and comments (``// ...``, ``/* ... */``) only
separate them; lines and columns count from 1. A character that starts no token, or a
comment that is never closed, is a syntax error: reading stops there.
"""

from collections.abc import Iterator
import re
from typing import NoReturn

from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.records import record

_TOKEN = re.compile(r"""
    (?P<space>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<number>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[{}()\[\],=+\-*/])
""", re.VERBOSE | re.ASCII)  # ASCII: \d is 0-9 only, as in C (no Arabic-Indic digits)


@record(frozen=True, slots=True)
class Token:
    """One token: its kind (``'ident'``, ``'number'``, ``'punct'``, ``'end'``) and start."""

    kind: str
    text: str
    line: int
    column: int

    def describe(self) -> str:
        """Return how messages show the token (``'the end of the text'`` for the end)."""
        return 'the end of the text' if self.kind == 'end' else repr(self.text)


def located_error(source: str, line: int | None, message: str, code: Code,
                  entity: str | None = None) -> DescriptionError:
    """Return a :class:`DescriptionError` with one diagnostic at ``source:line``."""
    return DescriptionError(Diagnostic(message, SourceLocation(source, line), entity,
                                       code=code))


def tokenize(text: str, source: str) -> Iterator[Token]:
    """
    Yield the tokens of ``text``, then one ``'end'`` token.

    A generator, so that the parser stops reading at the first syntax error: a huge or
    pathological text costs no more than the part before its first mistake.

    Raises
    ------
    DescriptionError
        A character that starts no token, or an unclosed ``/*`` comment.

    """
    pos, line, line_start = 0, 1, 0
    end = len(text)
    while pos < end:
        m = _TOKEN.match(text, pos)
        column = pos - line_start + 1
        if m is None:
            raise located_error(source, line, f'syntax error at column {column}: unexpected '
                                f'character {text[pos]!r}', Code.SYNTAX)
        kind = m.lastgroup
        if kind == 'newline':
            line += 1
            line_start = m.end()
        elif kind == 'block_comment':
            close = text.find('*/', m.end())
            if close < 0:
                raise located_error(source, line, f'syntax error at column {column}: the '
                                    "comment opened here is never closed with '*/'",
                                    Code.SYNTAX)
            newlines = text.count('\n', pos, close)
            if newlines:
                line += newlines
                line_start = text.rfind('\n', pos, close) + 1
            pos = close + 2
            continue
        elif kind in ('number', 'ident', 'punct'):
            yield Token(kind, m.group(), line, column)
        pos = m.end()
    yield Token('end', '', line, end - line_start + 1)


class TokenCursor:
    """
    The current token of a text, and the errors a parser of it reports.

    Parameters
    ----------
    text : str
        The document.
    source : str
        Name for messages.
    reporter : Reporter
        Collects the errors that do not stop the parser; a syntax error raises at once,
        with every error collected before it.

    Attributes
    ----------
    entity : str or None
        What the parser is reading (``"link 'arm'"``), named by the messages.

    """

    __slots__ = ('tokens', 'current', 'source', 'reporter', 'entity')

    def __init__(self, text: str, source: str, reporter: Reporter) -> None:
        self.tokens = tokenize(text, source)
        self.source = source
        self.reporter = reporter
        self.entity: str | None = None
        self.current: Token
        self.advance()

    def advance(self) -> None:
        """Move to the next token (a lexical error raises with every earlier error)."""
        try:
            self.current = next(self.tokens)
        except DescriptionError as e:  # a lexical error: keep what was found before it
            raise DescriptionError(self.reporter.errors + list(e.diagnostics)) from None

    def peek(self) -> Token:
        """Return the current token."""
        return self.current

    def take(self) -> Token:
        """Return the current token and move past it (never past the end)."""
        tok = self.current
        if tok.kind != 'end':
            self.advance()
        return tok

    def at(self, text: str) -> bool:
        """Return whether the current token is the punctuation or identifier ``text``."""
        tok = self.peek()
        return tok.kind in ('punct', 'ident') and tok.text == text

    def expect(self, text: str, what: str | None = None) -> Token:
        """Take the token ``text``; anything else is a syntax error expecting ``what``."""
        tok = self.peek()
        if tok.kind in ('punct', 'ident') and tok.text == text:
            return self.take()
        self.syntax_error(tok, f'expected {what or repr(text)}, got {tok.describe()}')

    def name(self, what: str) -> Token:
        """Take an identifier; anything else is a syntax error expecting ``what``."""
        tok = self.peek()
        if tok.kind != 'ident':
            self.syntax_error(tok, f'expected {what}, got {tok.describe()}')
        return self.take()

    def syntax_error(self, tok: Token, message: str) -> NoReturn:
        """Raise a syntax error at ``tok``, with every error collected before it."""
        diagnostic = Diagnostic(f'syntax error at column {tok.column}: {message}',
                                SourceLocation(self.source, tok.line), self.entity,
                                code=Code.SYNTAX)
        raise DescriptionError(self.reporter.errors + [diagnostic])

    def error(self, line: int, message: str, code: Code = Code.INVALID,
              entity: str | None = None) -> None:
        """Record an error that does not stop the parser (at the current entity by default)."""
        self.reporter.error(message, SourceLocation(self.source, line),
                            entity if entity is not None else self.entity, code)
