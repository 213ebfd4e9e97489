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
Hostile input is refused quickly, in bounded memory, and never echoes a file's content.

Every case goes through every entry point that reads it: ``parse_urdf``, ``parse_sdf``,
``load`` of a ``.urdf`` and of a ``.xacro`` file, a xacro file that
``<xacro:include>`` s it, and the command-line tools ``urdf2sdf`` and ``sdf_tools convert``
(exit 1, no traceback, no output file). Kinematics-DSL cases go through ``parse_kindsl``,
``load`` and ``sdf_tools convert``.

Each case runs in a child process (:data:`CHILD`) with a timeout, so that a hang fails the
test instead of stalling it; the child reports, per entry point, the outcome, the message,
the CPU time it took and the growth of its peak resident memory (``VmHWM``, reset before each
call). The limits: :data:`TIME_LIMIT` of CPU time and :data:`MEMORY_LIMIT_MB` per call. The
largest cases (200 kB to 4.5 MB) take 0.1 to 0.8 s on a 2-core CI machine under Python 3.11
and a little more under 3.10; a pass quadratic in their size would take minutes, so the budget
catches the growth that matters with room for a slow machine. CPU time, not wall time, so
that a busy machine cannot fail the test; a wait that uses no CPU (a blocking
read) is caught by the child's timeout instead. External entities point
at a file holding :data:`SECRET`, at a FIFO (opening it would block: a hang) and at a local
TCP port that must see no connection.
"""

import json
import os
from pathlib import Path
import re
import socket
import subprocess
import sys

import pytest

import support  # noqa: I100 - the test helpers

SECRET = 'TOPSECRET-7f3a9c1e-do-not-echo'
TIME_LIMIT = 5.0
MEMORY_LIMIT_MB = 64.0
CHILD_TIMEOUT = 60.0
XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'

XML_ENTRIES = ('parse_urdf', 'parse_sdf', 'load file', 'load .xacro', 'load xacro include',
               'urdf2sdf', 'convert')
DSL_ENTRIES = ('parse_kindsl', 'load file', 'convert .kindsl')

# The child: runs the entry points named in a JSON spec on stdin, prints JSON results.
CHILD = r"""
import contextlib
import gc
import io
import json
import resource
import sys
import time
import time

from sdf_tools import cli
from sdf_tools.convert import urdf_to_sdf  # noqa: F401 - imported before measuring
from sdf_tools.formats.kindsl.reader import parse_kindsl
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.loading import load
import xacro  # noqa: F401


def peak_kb():
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith('VmHWM:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def reset_peak():
    try:
        with open('/proc/self/clear_refs', 'w') as f:
            f.write('5')
    except OSError:
        pass  # then the peak is the process's peak so far: still an upper bound


def call(entry, spec):
    path = spec['path']
    if entry in ('parse_urdf', 'parse_sdf', 'parse_kindsl'):
        with open(path, 'rb') as f:
            data = f.read()
        func = {'parse_urdf': parse_urdf, 'parse_sdf': parse_sdf,
                'parse_kindsl': parse_kindsl}[entry]
        return lambda: func(data, 'hostile')
    if entry == 'load file':
        return lambda: load(path)
    if entry == 'load .xacro':
        return lambda: load(spec['xacro'])
    if entry == 'load xacro include':
        return lambda: load(spec['include'])
    if entry == 'urdf2sdf':
        return lambda: cli.urdf2sdf_main([path, '-o', spec['output']])
    return lambda: cli.main(['convert', path, '-o', spec['output']])


spec = json.load(sys.stdin)
results = []
for entry in spec['entries']:
    func = call(entry, spec)
    out, err = io.StringIO(), io.StringIO()
    gc.collect()
    reset_peak()
    base = peak_kb()
    start = time.process_time()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            value = func()
        outcome, message = 'returned', repr(value)
    except Exception as e:
        outcome, message = type(e).__name__, str(e)
    seconds = time.process_time() - start
    results.append({'entry': entry, 'outcome': outcome, 'message': message[:4000],
                    'message_length': len(message), 'seconds': seconds,
                    'memory_mb': (peak_kb() - base) / 1024.0,
                    'stdout': out.getvalue()[:4000], 'stderr': err.getvalue()[:4000]})
json.dump(results, sys.stdout)
"""


def run_child(spec: dict) -> list:
    """Run the entry points of ``spec`` in a child process; fail on a hang."""
    try:
        done = subprocess.run([sys.executable, '-c', CHILD], input=json.dumps(spec),
                              capture_output=True, text=True, timeout=CHILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f'hang: the entry points {spec["entries"]} did not finish within '
                    f'{CHILD_TIMEOUT:g} s')
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def prepare(tmp_path: Path, data: bytes, suffix: str = '.urdf') -> dict:
    """Write a hostile document and the xacro files that load or include it."""
    path = tmp_path / f'hostile{suffix}'
    path.write_bytes(data)
    (tmp_path / 'hostile.urdf.xacro').write_bytes(data)
    include = tmp_path / 'main.urdf.xacro'
    include.write_text(f'<robot name="m" {XACRO_NS}>\n  <link name="base"/>\n'
                       f'  <xacro:include filename="{path.name}"/>\n</robot>\n')
    return {'path': str(path), 'xacro': str(tmp_path / 'hostile.urdf.xacro'),
            'include': str(include), 'output': str(tmp_path / 'out.sdf')}


def check_refused(results, message: str, tmp_path: Path, time_limit: float = TIME_LIMIT):
    """Assert each entry point refused the input cleanly, fast, in bounded memory."""
    for r in results:
        where = f"{r['entry']}: {r['outcome']}: {r['message'][:300]}"
        if r['entry'] in ('urdf2sdf', 'convert', 'convert .kindsl'):
            assert r['message'] == '1', where  # the exit code
            assert 'Traceback' not in r['stderr'] and 'internal error' not in r['stderr'], \
                r['stderr']
            assert re.search(message, r['stderr']), (message, r['stderr'])
        else:
            assert r['outcome'] in ('XmlSyntaxError', 'DescriptionError'), where
            assert re.search(message, r['message']), (message, where)
        assert r['seconds'] < time_limit, f"{where}: took {r['seconds']:.2f} s of CPU time"
        assert r['memory_mb'] < MEMORY_LIMIT_MB, f"{where}: used {r['memory_mb']:.0f} MB"
        for text in (r['message'], r['stdout'], r['stderr']):
            assert SECRET not in text, f"{r['entry']} echoed the secret file"
        assert r['message_length'] < 10_000, f"{where}: a {r['message_length']} character " \
                                             'message'
    assert not (tmp_path / 'out.sdf').exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith('.tmp')]


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / 'secret.txt'
    path.write_text(SECRET + '\n')
    return path


@pytest.fixture
def listener():
    """Listen on a local TCP port, to show that nothing connects to it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(('127.0.0.1', 0))
    sock.listen(8)
    sock.setblocking(False)
    yield sock
    sock.close()


def assert_no_connection(sock):
    with pytest.raises(BlockingIOError):
        conn, _ = sock.accept()
        conn.close()


def entity_doc(declaration: str, body: str) -> bytes:
    return (f'<?xml version="1.0"?>\n<!DOCTYPE robot [\n{declaration}\n]>\n' + body).encode()


ROBOT_TEXT = '<robot name="r"><link name="a">&s;</link></robot>'
ROBOT_ATTR = '<robot name="&s;"><link name="a"/></robot>'
ENTITY_REFUSED = r'entit(y|ies) .*not allowed \(entity expansion is disabled for safety\)'


# --- external entities ----------------------------------------------------------------------

@pytest.mark.parametrize('body', [ROBOT_TEXT, ROBOT_ATTR], ids=['text', 'attribute'])
@pytest.mark.parametrize('scheme', ['path', 'file-url'])
def test_external_file_entity_is_refused_and_never_read(tmp_path, secret, body, scheme):
    target = str(secret) if scheme == 'path' else f'file://{secret}'
    data = entity_doc(f'<!ENTITY s SYSTEM "{target}">', body)
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, ENTITY_REFUSED, tmp_path)


@pytest.mark.parametrize('body', [ROBOT_TEXT, ROBOT_ATTR], ids=['text', 'attribute'])
def test_network_entity_is_refused_without_connecting(tmp_path, listener, body):
    port = listener.getsockname()[1]
    data = entity_doc(f'<!ENTITY s SYSTEM "http://127.0.0.1:{port}/secret">', body)
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, ENTITY_REFUSED, tmp_path)
    assert_no_connection(listener)


def test_parameter_entity_and_fifo_entity_are_refused_without_opening(tmp_path, secret):
    fifo = tmp_path / 'fifo'
    os.mkfifo(fifo)  # opening it for reading would block: a hang, caught by the timeout
    data = entity_doc(f'<!ENTITY % p SYSTEM "{secret}">\n%p;\n<!ENTITY s SYSTEM "{fifo}">',
                      ROBOT_TEXT)
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, ENTITY_REFUSED, tmp_path)


def test_external_dtd_subset_is_never_fetched(tmp_path, listener):
    # A DOCTYPE naming an external DTD (a FIFO, or a URL) is ignored, not loaded: the
    # document reads normally.
    fifo = tmp_path / 'fifo.dtd'
    os.mkfifo(fifo)
    port = listener.getsockname()[1]
    for system in (str(fifo), f'http://127.0.0.1:{port}/robot.dtd'):
        data = (f'<?xml version="1.0"?>\n<!DOCTYPE robot SYSTEM "{system}">\n'
                '<robot name="r"><link name="a"/></robot>\n').encode()
        results = run_child({**prepare(tmp_path, data),
                             'entries': ('parse_urdf', 'load file', 'load .xacro')})
        for r in results:
            assert r['outcome'] == 'returned', r
            assert r['seconds'] < TIME_LIMIT
    assert_no_connection(listener)


@pytest.mark.parametrize('body', [ROBOT_TEXT, ROBOT_ATTR], ids=['text', 'attribute'])
def test_entity_references_behind_an_external_dtd_are_refused(tmp_path, body):
    # The DTD is not loaded, so libxml2 cannot tell the reference is undefined: it would keep
    # it unexpanded in text and drop it silently from an attribute value.
    data = (f'<?xml version="1.0"?>\n<!DOCTYPE robot SYSTEM "robot.dtd">\n{body}\n').encode()
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, r"entity reference '&s;' .*line|" + ENTITY_REFUSED, tmp_path)
    for r in results:
        assert ':3:' in r['message'] + r['stderr'], r  # the line of the reference


# --- amplification, size, depth -------------------------------------------------------------

def billion_laughs() -> bytes:
    entities = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "' + f'&lol{i - 1};' * 10 + '">' for i in range(1, 10)]
    return entity_doc('\n'.join(entities), '<robot name="&lol9;"><link name="a"/></robot>')


def quadratic_blowup() -> bytes:
    return entity_doc('<!ENTITY a "' + 'x' * 50_000 + '">',
                      '<robot name="r"><link name="a">' + '&a;' * 50_000 + '</link></robot>')


@pytest.mark.parametrize('make', [billion_laughs, quadratic_blowup])
def test_entity_amplification_is_refused(tmp_path, make):
    results = run_child({**prepare(tmp_path, make()), 'entries': XML_ENTRIES})
    check_refused(results, ENTITY_REFUSED, tmp_path)


def test_deep_nesting_is_refused(tmp_path):
    depth = 100_000
    data = b'<robot name="r">' + b'<a>' * depth + b'</a>' * depth + b'</robot>'
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, 'elements are nested more than 256 levels deep', tmp_path)


def test_unclosed_comments_among_scoped_names_are_refused_fast(tmp_path):
    # Names with '::' (as gz sdf -p writes them) make the reader skip comments by hand; an
    # unclosed comment must not be searched for its end again and again.
    data = b'<sdf version="1.9"><a::b/>' + b'<!--' * 2000 + b'x' * 8_000_000
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, 'not well-formed XML', tmp_path)


def test_a_100_mb_description_is_refused_before_parsing(tmp_path):
    data = b'<robot name="r"><link name="a"/>' + b' ' * (100 * 2 ** 20) + b'</robot>'
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, r'more than the limit of \d+ bytes', tmp_path)


def test_a_flood_of_elements_is_refused_before_parsing(tmp_path):
    # 32 MB of <a/> would make libxml2 alone take a gigabyte.
    data = b'<robot name="r"><link name="a"/>' + b'<a/>' * (8 * 2 ** 20 - 16) + b'</robot>'
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, r'document has \d+ tags, more than the limit of \d+', tmp_path)


@pytest.mark.parametrize('where', ['attribute', 'text'])
def test_values_beyond_the_parser_limit_are_refused(tmp_path, where):
    big = b'x' * (12 * 2 ** 20)
    data = (b'<robot name="' + big + b'"><link name="a"/></robot>' if where == 'attribute'
            else b'<robot name="r"><link name="a">' + big + b'</link></robot>')
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, 'larger than the XML parser allows', tmp_path)


@pytest.mark.parametrize('kind', ['urdf', 'sdf', 'sdf-colour'])
def test_huge_values_under_the_parser_limit_are_not_echoed_or_expanded(tmp_path, kind):
    # A 4.5 MB vector is neither split into a million numbers (that took 250 MB) nor
    # quoted whole.
    numbers = b'1 ' * 2_250_000
    if kind == 'urdf':
        data = (b'<robot name="r"><link name="a"><visual><origin xyz="' + numbers + b'"/>'
                b'<geometry><box size="1 1 1"/></geometry></visual></link></robot>')
        entries = ('parse_urdf', 'load file', 'urdf2sdf', 'convert')
        message = r"<origin> xyz must be 3 numbers, got '1 1 1 1 .*\.\.\.'"
    elif kind == 'sdf':
        data = (b'<sdf version="1.9"><model name="m"><link name="a"><pose>' + numbers
                + b'</pose></link></model></sdf>')
        entries = ('parse_sdf', 'load file', 'convert')
        message = r"<pose> must be 6 numbers, got '1 1 1 1 .*\.\.\.'"
    else:
        data = (b'<sdf version="1.9"><model name="m"><link name="a"><visual name="v">'
                b'<geometry><sphere><radius>1</radius></sphere></geometry><material><diffuse>'
                + numbers + b'</diffuse></material></visual></link></model></sdf>')
        entries = ('parse_sdf', 'load file', 'convert')
        message = r"<diffuse> must be 3 or 4 numbers from 0 to 1, got '1 1 1 1 .*\.\.\.'"
    results = run_child({**prepare(tmp_path, data, '.' + kind.split('-')[0]),
                         'entries': entries})
    check_refused(results, message, tmp_path)
    if kind == 'urdf':
        # xacro is slower (its substitution engine reads every attribute, about 0.35 s per
        # MB), but the value is still neither expanded nor echoed.
        results = run_child({**prepare(tmp_path, data), 'entries': ('load .xacro',)})
        check_refused(results, message, tmp_path, time_limit=3 * TIME_LIMIT)


# --- encodings and emptiness ----------------------------------------------------------------

@pytest.mark.parametrize('data, message', [
    (b'<robot name="r\xff\xfe"><link name="a"/></robot>', 'Invalid bytes in character'),
    (b'<robot name="r\x00"><link name="a"/></robot>', 'not well-formed XML'),
    (b'<robot name="r"><link name="a"/>\x00</robot>', 'not well-formed XML'),
    (b'', 'not well-formed XML: Document is empty'),
    (b'  \n\t ', 'not well-formed XML'),
    (b'<?xml version="1.0"?>\n', 'not well-formed XML'),
    (b'<!-- only a comment -->', 'not well-formed XML'),
    (b'<?xml version="1.0" encoding="x-unknown"?><robot name="r"/>', 'Unsupported encoding'),
], ids=['non-utf8', 'nul-attribute', 'nul-text', 'empty', 'whitespace', 'declaration-only',
        'comment-only', 'unknown-encoding'])
def test_bad_bytes_and_missing_roots_are_refused(tmp_path, data, message):
    results = run_child({**prepare(tmp_path, data), 'entries': XML_ENTRIES})
    check_refused(results, message, tmp_path)


def test_xacro_state_does_not_leak_from_one_expansion_to_the_next(tmp_path, monkeypatch):
    # xacro keeps a file stack and a list of includes in module globals: an expansion
    # without a path must not resolve includes against the previous call's file, and the
    # list must not grow in a long-running process.
    from sdf_tools import loading as pipeline
    from sdf_tools.errors import DescriptionError
    from sdf_tools.loading import xacro as xacro_expansion
    from sdf_tools.resources.packages import PackageResolver
    import xacro
    other = tmp_path / 'other'
    other.mkdir()
    (other / 'part.xacro').write_text(f'<robot {XACRO_NS}><link name="part"/></robot>')
    main = other / 'main.urdf.xacro'
    main.write_text(f'<robot name="r" {XACRO_NS}><link name="a"/>'
                    '<xacro:include filename="part.xacro"/>'
                    '<joint name="j" type="fixed"><parent link="a"/><child link="part"/>'
                    '</joint></robot>')
    robot = pipeline.load(str(main)).robot
    assert [link.name for link in robot.links] == ['a', 'part']
    assert xacro.all_includes == []
    monkeypatch.chdir(tmp_path)  # part.xacro is not here
    with pytest.raises(DescriptionError, match='xacro failed: No such file or directory'):
        xacro_expansion.expand_xacro(main.read_bytes(), '<stdin>', PackageResolver())


def test_hostile_xml_through_stdin_is_refused(tmp_path, secret):
    data = entity_doc(f'<!ENTITY s SYSTEM "{secret}">', ROBOT_TEXT)
    code = ('import sys\nfrom sdf_tools import cli\n'
            'sys.exit(cli.urdf2sdf_main(["-"]))')
    done = subprocess.run([sys.executable, '-c', code], input=data, capture_output=True,
                          timeout=CHILD_TIMEOUT)
    assert done.returncode == 1
    assert b'entity' in done.stderr and b'Traceback' not in done.stderr
    assert SECRET.encode() not in done.stdout + done.stderr


# --- xacro that runs code ---------------------------------------------------------------------

def code_payload(marker: Path) -> str:
    """Return a URDF whose xacro expression escapes xacro's sandbox to create ``marker``."""
    escape = ('[c for x in [0] for c in x.__class__.__base__.__subclasses__() if c.__name__ == '
              "'catch_warnings'][0]()._module.sys.modules['os']")
    return (f'<robot name="r">\n  <link name="base${{{escape}.system(\'touch {marker}\') * 0}}"'
            '/>\n</robot>\n')


@pytest.mark.parametrize('argv', [['urdf2sdf', 'FILE'], ['check', 'FILE'], ['tree', 'FILE'],
                                  ['fk', 'FILE'], ['urdf2sdf', '-'], ['check', '-']],
                         ids=lambda argv: ' '.join(argv))
def test_xacro_markup_runs_no_code_unless_asked(tmp_path, argv):
    marker = tmp_path / 'pwned'
    payload = tmp_path / 'robot.urdf'
    payload.write_text(code_payload(marker))
    main = 'urdf2sdf_main' if argv[0] == 'urdf2sdf' else 'main'
    words = [str(payload) if word == 'FILE' else word for word in argv[main == 'urdf2sdf_main':]]

    def run(*options):
        return subprocess.run([sys.executable, '-c', f'from sdf_tools import cli; cli.{main}()',
                               *words, *options], input=payload.read_text(),
                              capture_output=True, text=True, timeout=CHILD_TIMEOUT)

    done = run()
    name, where = ((str(payload), 'in a file not named .xacro') if 'FILE' in argv else
                   ('<stdin>', 'on standard input'))
    # check reports it in its list of problems, the others as an error
    said, quiet, start = ((done.stdout, done.stderr, 'problems:\n  ') if argv[0] == 'check' else
                          (done.stderr, done.stdout, 'Error: '))
    assert (done.returncode, quiet) == (1, '')
    assert said.startswith(f"{start}{name}:2: xacro markup '${{[c for x in [0] ")
    assert f"...' {where}: not expanded, because expanding xacro runs the code it holds; if you " \
        'trust it, give --xacro to expand it\n' in said
    assert not marker.exists()
    if argv == ['urdf2sdf', 'FILE']:  # asked for, xacro runs it: as the README warns
        asked = run('--xacro')
        if sys.version_info < (3, 12):
            assert asked.returncode == 0 and marker.exists(), asked.stderr
        else:  # comprehensions are inlined from 3.12 (PEP 709): xacro's name check sees these
            assert asked.returncode == 1 and 'Use of invalid name(s)' in asked.stderr
            assert not marker.exists()


# --- Kinematics DSL -------------------------------------------------------------------------

def dsl(mass_expression: str) -> str:
    return ('Robot R {\n'
            '  RobotBase base { children { arm via shoulder } }\n'
            '  link arm { id = 1\n'
            f'    inertia_properties {{ mass = {mass_expression} CoM = (0, 0, 0)\n'
            '      Ix = 1 Iy = 1 Iz = 1 Ixy = 0 Ixz = 0 Iyz = 0 }\n'
            '    children { } }\n'
            '  r_joint shoulder { ref_frame { translation = (0, 0, 1) rotation = (0, 0, 0) } }\n'
            '}\n')


@pytest.mark.parametrize('text, message', [
    (dsl('(' * 500_000 + '1' + ')' * 500_000)[:200_000], 'nested more than 64 levels deep'),
    (dsl('-' * 200_000 + '1'), 'nested more than 64 levels deep'),
    (dsl('p[' * 60_000 + '1' + ']' * 60_000), 'nested more than 64 levels deep'),
    (dsl('9' * 200_000), 'does not evaluate to a finite number'),
    (dsl('1e99999999999999999999'), 'does not evaluate to a finite number'),
    (dsl('*'.join(['1e300'] * 20_000)), 'does not evaluate to a finite number'),
    (dsl('+'.join(['p'] * 100_000)), "parameter 'p' .* has no value"),
    (dsl('1/0'), 'division by zero'),
    (dsl('1') * 100_000, r'more than the limit of \d+'),
    ('Robot R {' + ' RobotBase b { children {' * 8_000, "expected 'via'"),
    ('/*' + ' x' * 100_000, "never closed with '\\*/'"),
    (dsl('1') + '\x00', "unexpected character '\\\\x00'"),
    ('', "expected 'Robot <name> {'"),
], ids=['parentheses', 'unary-minus', 'parameter-defaults', 'long-literal', 'huge-exponent',
        'overflowing-product', 'missing-parameter-flood', 'division-by-zero', 'huge-text',
        'nested-blocks', 'unclosed-comment', 'nul', 'empty'])
def test_hostile_kinematics_dsl_is_refused(tmp_path, text, message):
    spec = prepare(tmp_path, text.encode('utf-8'), '.kindsl')
    results = run_child({**spec, 'entries': DSL_ENTRIES})
    check_refused(results, message, tmp_path)
    for r in results:
        if r['entry'] != 'convert .kindsl':
            assert r['message'].count('\n') < 5, 'one diagnostic per problem, not per use'


def test_dsl_that_is_not_utf8_is_refused_through_every_entry_point(tmp_path):
    data = dsl('1').encode('utf-8').replace(b'shoulder }', b'shoulder\xff }', 1)
    results = run_child({**prepare(tmp_path, data, '.kindsl'), 'entries': DSL_ENTRIES})
    check_refused(results, r'not UTF-8 text \(invalid start byte at byte \d+\)', tmp_path)


def test_dsl_error_flood_stays_fast_and_bounded(tmp_path):
    # Many distinct errors are all reported (the reader collects them), within the limits.
    text = dsl('+'.join(['1/0'] * 20_000))
    results = run_child({**prepare(tmp_path, text.encode(), '.kindsl'),
                         'entries': ('parse_kindsl',)})
    assert results[0]['outcome'] == 'DescriptionError'
    assert results[0]['seconds'] < TIME_LIMIT
    assert results[0]['memory_mb'] < MEMORY_LIMIT_MB


@pytest.mark.parametrize('kind', ['urdf', 'kindsl'])
def test_a_huge_name_is_not_echoed_whole(tmp_path, kind):
    name = 'x' * 200_000
    if kind == 'urdf':
        data = f'<robot name="r"><link name="{name}"/><link name="{name}"/></robot>'
        entries = ('parse_urdf', 'load file', 'urdf2sdf')
    else:
        data = f'Robot {name} {{'
        entries = DSL_ENTRIES
    results = run_child({**prepare(tmp_path, data.encode(), '.' + kind),
                         'entries': entries})
    check_refused(results, 'used more than once' if kind == 'urdf' else
                  "expected 'RobotBase'", tmp_path)


# --- valid but pathological structures: linear time -----------------------------------------

def frame_chain(n: int) -> str:
    frames = ''.join(f'<frame name="f{i}" attached_to="L"><pose relative_to='
                     f'"{f"f{i - 1}" if i else "L"}">0.01 0 0 0 0 0.01</pose></frame>'
                     for i in range(n))
    return f'<sdf version="1.9"><model name="m"><link name="L"/>{frames}</model></sdf>'


def chain_urdf(n: int, mimic: int = 0) -> str:
    # Links and joints listed deepest first; joint i mimics joint i - mimic (if any).
    links = ''.join(f'<link name="l{i}"/>' for i in reversed(range(n + 1)))
    joints = ''.join(
        f'<joint name="j{i}" type="revolute"><parent link="l{i}"/><child link="l{i + 1}"/>'
        '<limit lower="-1" upper="1" effort="1" velocity="1"/>'
        + (f'<mimic joint="j{i - mimic}"/>' if mimic and 0 <= i - mimic < n else '')
        + '</joint>' for i in reversed(range(n)))
    return f'<robot name="r">{links}{joints}</robot>'


@pytest.mark.parametrize('case', ['relative_to chain', 'mimic chain up', 'mimic chain down',
                                  'deepest first'])
def test_long_chains_load_in_linear_time(case):
    # 20,000 to 40,000 elements at the large size, near the tag limit: these once took minutes
    # to hours (pose paths, mimic chains and the loop check were walked again from every
    # element). Linear means four times the elements cost about four times the CPU time
    # (quadratic: sixteen); the two sizes are measured in the same run, in CPU time, so
    # neither a busy machine nor a slow one moves the ratio much (the least of two, without the
    # collector's passes over everything the suite holds: support.least_cpu_seconds).
    from sdf_tools.kinematics import compile_tree
    from sdf_tools.loading import load
    make = {'relative_to chain': lambda n: frame_chain(n // 2),
            'mimic chain up': lambda n: chain_urdf(n // 2, mimic=1),
            'mimic chain down': lambda n: chain_urdf(n // 2, mimic=-1),
            'deepest first': lambda n: chain_urdf(n)}[case]

    def cpu_seconds(n):
        text = make(n)
        tree = compile_tree(load(text=text).robot)
        assert len(tree.link_names) + len(tree.frame_names) > n // 2
        return support.least_cpu_seconds(lambda: compile_tree(load(text=text).robot),
                                         repeats=2)

    small, large = cpu_seconds(10_000), cpu_seconds(40_000)
    assert large < 8.0 * small, (f'{case}: 4x the elements took {large / small:.1f}x the CPU '
                                 f'time ({small:.2f} s -> {large:.2f} s): not linear')
