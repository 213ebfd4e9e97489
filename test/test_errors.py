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
Tests of diagnostics (:mod:`sdf_tools.errors`): the table of codes, rendering, collecting.

The code table is read from the source too: each member must say what it means in its
comment, and no module of the package may pass a code as a string literal.
"""

import ast
import io
import json
from pathlib import Path
import re
import tokenize

import pytest
import sdf_tools
from sdf_tools import errors
from sdf_tools.errors import Code
from sdf_tools.errors import combine
from sdf_tools.errors import ConversionError
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import Reporter
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.errors import XmlSyntaxError

PACKAGE_DIR = Path(sdf_tools.__file__).parent
CODE_VALUES = frozenset(code.value for code in Code)


# --- the table of codes ---------------------------------------------------------------------

def code_members():
    """Return ``(name, value, line)`` of each member assigned in ``class Code``'s source."""
    source = Path(errors.__file__).read_text()
    [code_class] = [node for node in ast.parse(source).body
                    if isinstance(node, ast.ClassDef) and node.name == 'Code']
    return [(node.targets[0].id, node.value.value, node.lineno) for node in code_class.body
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)]


def test_every_code_is_unique_and_explained_by_its_comment():
    members = code_members()
    values = [value for _, value, _ in members]
    assert len(values) == len(set(values)) == len(Code) == len(Code.__members__)  # no alias
    source = Path(errors.__file__).read_text()
    comments = {token.start[0]: token.string
                for token in tokenize.generate_tokens(io.StringIO(source).readline)
                if token.type == tokenize.COMMENT}
    for name, value, line in members:
        assert re.fullmatch('[a-z]+(-[a-z]+)*', value), name
        explanation = comments.get(line, '').lstrip('#').strip()
        assert len(explanation.split()) >= 2, f'Code.{name} (line {line}) has no comment'


def test_a_code_is_its_text_wherever_it_goes():
    for code in Code:
        assert code == code.value and code.value == code
        assert str(code) == f'{code}' == '%s' % code == code.value
        assert f'{code:>30}' == f'{code.value:>30}'
        assert json.dumps({'code': code}) == json.dumps({'code': code.value})
        assert {code.value: 1}[code] == 1
    assert Code.BAD_NUMBER == 'bad-number' and Code('bad-number') is Code.BAD_NUMBER


def test_a_diagnostic_takes_a_code_of_the_table_as_text_and_refuses_others():
    assert Diagnostic('m', code='bad-number').code is Code.BAD_NUMBER
    assert Diagnostic('m').code is Code.INVALID
    with pytest.raises(ValueError, match='nonsense'):
        Diagnostic('m', code='nonsense')
    with pytest.raises(ValueError):
        Diagnostic('m', code='Bad-Number')


# --- rendering ------------------------------------------------------------------------------

def test_a_diagnostic_renders_like_a_compiler_message():
    location = SourceLocation('robot.urdf', 42)
    assert str(location) == 'robot.urdf:42'
    assert str(SourceLocation('<robot_description>')) == '<robot_description>'
    elbow = "joint 'elbow'"
    assert str(Diagnostic("<limit> upper must be a number, got 'abc'", location, elbow)) == (
        "robot.urdf:42: joint 'elbow': <limit> upper must be a number, got 'abc'")
    assert str(Diagnostic('has no mass', location, "link 'a'", Severity.WARNING)) == (
        "robot.urdf:42: warning: link 'a': has no mass")
    assert str(Diagnostic('empty', SourceLocation('<stdin>'))) == '<stdin>: empty'
    assert str(Diagnostic('no links', entity="model 'm'")) == "model 'm': no links"
    assert str(Diagnostic('bare', severity=Severity.WARNING)) == 'warning: bare'


def test_line_breaks_and_bidi_controls_are_escaped_where_a_diagnostic_is_rendered():
    forged = "link 'a\n/r.urdf:1: warning: fine\u202eb\u2066\x1b[2J'"
    text = str(Diagnostic('has no mass\r', SourceLocation('r\u2028.urdf', 3), forged,
                          Severity.WARNING))
    assert text == ("r\\u2028.urdf:3: warning: link 'a\\n/r.urdf:1: warning: "
                    "fine\\u202eb\\u2066\\x1b[2J': has no mass\\r")
    assert errors.shown('café 机器人 ok') == 'café 机器人 ok'


def clipped_parts(text):
    """Split a clipped text into its start, the count of characters left out, and its end."""
    match = re.fullmatch(r'(.*) \.\.\.\((\d+) characters\)\.\.\. (.*)', text, re.S)
    assert match, text
    return match[1], int(match[2]), match[3]


@pytest.mark.parametrize('field', ['source', 'entity', 'message'])
def test_huge_values_are_clipped_in_the_middle(field):
    huge = 'START' + 'x' * 1_000_000 + 'END'
    parts = {'source': 'robot.urdf', 'entity': "link 'a'", 'message': 'is wrong'}
    parts[field] = huge
    diagnostic = Diagnostic(parts['message'], SourceLocation(parts['source'], 7),
                            parts['entity'])
    text = str(diagnostic)
    assert len(text) < 1500
    shown = huge + ':7' if field == 'source' else huge  # the location is clipped with its line
    [clipped] = [part for part in text.split(': ') if '...(' in part]
    start, left_out, end = clipped_parts(clipped)
    assert shown.startswith(start) and shown.endswith(end)
    assert len(start) + left_out + len(end) == len(shown)
    assert diagnostic.message == parts['message']  # only the rendering is shortened


# --- exceptions and the reporter ------------------------------------------------------------

def test_an_error_holds_every_diagnostic_and_prints_one_per_line():
    first = Diagnostic('first', SourceLocation('a.sdf', 1))
    second = Diagnostic('second', SourceLocation('a.sdf', 2))
    error = DescriptionError([first, second])
    assert error.diagnostics == (first, second) and error.diagnostic is first
    assert str(error) == 'a.sdf:1: first\na.sdf:2: second'
    assert KinematicsError(first).diagnostics == (first,)
    for kind in (XmlSyntaxError, DescriptionError, ConversionError, KinematicsError):
        assert issubclass(kind, SdfToolsError)


def test_the_reporter_collects_in_order_and_raises_every_error_at_once():
    reporter = Reporter()
    reporter.warn('w1', SourceLocation('s', 1), "link 'a'")
    reporter.raise_if_errors()  # warnings alone do not raise
    reporter.error('e1', SourceLocation('s', 2), "joint 'j'", Code.CYCLE)
    reporter.error('e2')
    reporter.warn('w2', code='no-effect')
    assert [(d.message, d.severity, d.code) for d in reporter.errors] == [
        ('e1', Severity.ERROR, Code.CYCLE), ('e2', Severity.ERROR, Code.INVALID)]
    assert [(d.message, d.severity, d.code) for d in reporter.warnings] == [
        ('w1', Severity.WARNING, Code.WARNING), ('w2', Severity.WARNING, Code.NO_EFFECT)]
    with pytest.raises(DescriptionError) as info:
        reporter.raise_if_errors('read so far')
    assert info.value.diagnostics == tuple(reporter.errors)
    # the warnings found before go with the errors, and what was read
    assert (info.value.warnings, info.value.partial) == (tuple(reporter.warnings), 'read so far')
    assert str(info.value) == "s:2: joint 'j': e1\ne2"
    kinematics = Reporter(KinematicsError)
    kinematics.error('loop')
    with pytest.raises(KinematicsError, match='^loop$'):
        kinematics.raise_if_errors()


# --- no string literal where a code goes ----------------------------------------------------

def literal_codes(tree):
    """Yield ``(line, text)`` of each string literal passed as a diagnostic code."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        arguments = [k.value for k in node.keywords if k.arg == 'code']
        name = getattr(node.func, 'attr', getattr(node.func, 'id', None))
        if name in ('error', 'warn', 'Diagnostic') and node.args:
            arguments.append(node.args[-1])
        for argument in arguments:
            if isinstance(argument, ast.Constant) and argument.value in CODE_VALUES:
                yield node.lineno, argument.value


def test_the_literal_code_finder_finds_them():
    tree = ast.parse("reporter.error('m', location, entity, 'cycle')\n"
                     "Diagnostic('m', code='io')\n"
                     "v.warn(elem, entity, 'is ignored', code=Code.NO_EFFECT)\n"
                     "warn('m', None, None, 'not-a-code')\n")
    assert sorted(literal_codes(tree)) == [(1, 'cycle'), (2, 'io')]


def test_no_module_passes_a_string_literal_as_a_diagnostic_code():
    found = [f'{path.relative_to(PACKAGE_DIR)}:{line}: {text!r}'
             for path in sorted(PACKAGE_DIR.rglob('*.py'))
             for line, text in literal_codes(ast.parse(path.read_text(), str(path)))]
    assert found == [], 'use sdf_tools.errors.Code members: ' + ', '.join(found)


def test_combine_keeps_each_problem_once_as_the_later_step_says_it():
    here, there = SourceLocation('r.urdf', 4), SourceLocation('r.urdf', 5)
    read = [Diagnostic('names no joint', here, "joint 'j'", Severity.WARNING,
                       Code.MISSING_JOINT),
            Diagnostic('no inertial', there, "link 'a'", Severity.WARNING, Code.WARNING)]
    compiled = [Diagnostic('names no joint; refused', here, "joint 'j'", code=Code.MISSING_JOINT),
                Diagnostic('names no joint', there, "joint 'k'", code=Code.MISSING_JOINT)]
    assert combine(read, compiled) == (read[1], *compiled)
    assert combine(read, []) == tuple(read)


def test_combine_of_several_steps_is_each_step_combined_in_turn():
    def diagnostic(code, line, message=''):
        return Diagnostic(message, SourceLocation('w.sdf', line), "link 'l'", code=code)

    steps = [[diagnostic(Code.NEGATIVE_MASS, 2), diagnostic(Code.CYCLE, 4),
              diagnostic(Code.NEGATIVE_MASS, 8)],
             [diagnostic(Code.NEGATIVE_MASS, 2, 'again'), diagnostic(Code.WARNING, 3)],
             [], [diagnostic(Code.WARNING, 3, 'twice'), diagnostic(Code.WARNING, 3, 'twice')],
             [diagnostic(Code.NEGATIVE_MASS, 8, 'at last')]]
    folded = ()
    for step in steps:
        folded = combine(folded, step)
    assert combine(*steps) == folded == (
        steps[0][1], steps[1][0], *steps[3], steps[4][0])
    assert combine() == () and combine(iter(steps[0])) == tuple(steps[0])


def test_short_name_quotes_a_name_as_every_message_and_summary_does():
    assert errors.short_name('elbow') == 'elbow'
    assert errors.short_name('a\nb') == 'a\\nb'  # escaped as shown() escapes it
    name = 'x' * 9_000_000
    shortened = errors.short_name(name)
    assert len(shortened) <= errors.NAME_CHARS
    assert shortened == 'x' * 35 + ' ...(8999930 characters)... ' + 'x' * 35
    assert errors.short_name('y' * errors.NAME_CHARS) == 'y' * errors.NAME_CHARS


# --- other places, file order, repeated warnings as one -------------------------------------

def test_a_diagnostic_names_its_other_places_in_its_file_by_line_and_elsewhere_in_full():
    here = SourceLocation('r.urdf', 9)
    first = Diagnostic('ignored', here, "joint 'j'", Severity.WARNING, Code.REPEATED_ELEMENT,
                       (SourceLocation('r.urdf', 7),))
    assert str(first) == "r.urdf:9: warning: joint 'j': ignored (see line 7)"
    apart = Diagnostic('m', here, places=(SourceLocation('r.urdf', 3),
                                          SourceLocation('arm.xacro', 12),
                                          SourceLocation('r.urdf', None, '/robot/link')))
    assert str(apart) == 'r.urdf:9: m (see line 3, arm.xacro:12, r.urdf: /robot/link)'
    many = Diagnostic('m', here, places=(SourceLocation('r.urdf', 10),
                                         SourceLocation('r.urdf', 11)), count=5)
    assert str(many) == 'r.urdf:9: m (5 in all; also lines 10, 11, ...)'


def test_diagnostics_in_file_order_are_sorted_by_file_first_named_then_line():
    def at(source, line):
        return Diagnostic(f'{source}{line}', None if source is None else
                          SourceLocation(source, line))

    given = [at('b', 5), at('a', 9), at('b', 2), at(None, 0), at('a', None), at('b', 2)]
    assert [d.message for d in errors.in_file_order(given)] == [
        'b2', 'b2', 'b5', 'aNone', 'a9', 'None0']


def test_warnings_repeating_one_problem_in_one_file_are_one_with_a_count():
    def warning(message, source, line, entity="link 'a'", code=Code.UNKNOWN_NAME):
        return Diagnostic(message, SourceLocation(source, line), entity, Severity.WARNING, code)

    same = [warning('unknown name', 'r.urdf', line, f"link 'l{line}'") for line in range(2, 8)]
    other = [warning('unknown name', 'other.urdf', 3), warning('another', 'r.urdf', 4),
             Diagnostic('unknown name', SourceLocation('r.urdf', 9), code=Code.UNKNOWN_NAME)]
    kept = errors.grouped([same[0], other[0], *same[1:3], other[1], *same[3:], other[2]])
    assert kept[1:] == [other[0], other[1], other[2]]  # another file, message, or an error
    assert (kept[0].count, kept[0].places, kept[0].entity) == (
        6, tuple(d.location for d in same[1:4]), "link 'l2'")
    assert str(kept[0]).endswith('unknown name (6 in all; also lines 3, 4, 5, ...)')
    assert errors.grouped(same[:1]) == same[:1]
