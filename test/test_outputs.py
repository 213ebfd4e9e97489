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
Tests of sdf_tools.outputs: whole files or nothing.

Then the output file of ``urdf2sdf -o`` and ``sdf_tools convert -o`` under injected failures
(the write, fsync, the rename, an interruption, the directory): never partial, never
clobbered, no temporary file left.
"""

import os
from pathlib import Path
import tempfile

from diagnostics import commands
from diagnostics import INERTIA
from diagnostics import leftovers
from diagnostics import run_cli
from diagnostics import urdf
import pytest
from sdf_tools import outputs as atomic


def test_write_atomically_replaces_whole_files_and_cleans_up(tmp_path, monkeypatch):
    target = tmp_path / 'out.sdf'
    atomic.write_atomically(str(target), 'first')
    assert target.read_text() == 'first'
    os.chmod(target, 0o600)
    atomic.write_atomically(str(target), 'second')
    assert target.read_text() == 'second' and (target.stat().st_mode & 0o777) == 0o600

    def fail(*args):
        raise OSError(28, 'No space left on device')

    monkeypatch.setattr(os, 'replace', fail)
    with pytest.raises(OSError, match='No space left'):
        atomic.write_atomically(str(target), 'third')
    assert target.read_text() == 'second'
    assert [p.name for p in tmp_path.iterdir()] == ['out.sdf']


def test_write_atomically_writes_bytes_as_they_are(tmp_path):
    target = tmp_path / 'picture.png'
    data = bytes(range(256)) + '\u00e9\n'.encode('utf-8')
    atomic.write_atomically(str(target), data)
    assert target.read_bytes() == data


# --- the output files of urdf2sdf -o and sdf_tools convert -o -------------------------------

GOOD = urdf('<link name="a">', f'<inertial><mass value="1"/>{INERTIA}</inertial>', '</link>')


@pytest.mark.parametrize('fail_in', ['write', 'fsync', 'replace'])
def test_a_failure_while_writing_leaves_no_partial_file(tmp_path, capsys, monkeypatch, fail_in):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')

    def no_space(*args, **kwargs):
        raise OSError(28, 'No space left on device')

    if fail_in == 'write':
        real_fdopen = os.fdopen

        class Failing:
            """A file whose write fails half way, as a full disk does."""

            def __init__(self, *args, **kwargs):
                self.file = real_fdopen(*args, **kwargs)

            def write(self, text):
                self.file.write(text[:len(text) // 2])
                self.file.flush()
                no_space()

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.file.close()
                return False

            def __getattr__(self, name):
                return getattr(self.file, name)

        monkeypatch.setattr(atomic.os, 'fdopen', Failing)
    else:
        monkeypatch.setattr(atomic.os, fail_in, no_space)
    for argv in commands(source, output):
        code, out, err = run_cli(argv, capsys)
        assert code == 1, err
        assert 'No space left on device' in err and 'Traceback' not in err
        assert output.read_text() == 'previous content'
        assert leftovers(tmp_path) == []
    monkeypatch.undo()
    code, _, err = run_cli(commands(source, output)[0], capsys)
    assert code == 0, err
    assert '<sdf version="1.9">' in output.read_text() and leftovers(tmp_path) == []


def test_an_interrupted_write_leaves_no_partial_file(tmp_path, capsys, monkeypatch):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.os, 'fsync', interrupt)
    code, _, _ = run_cli(commands(source, output)[0], capsys)
    assert code == 130
    assert output.read_text() == 'previous content' and leftovers(tmp_path) == []


@pytest.mark.skipif(os.geteuid() == 0, reason='root writes into read-only directories; the '
                    'next test simulates it')
def test_a_read_only_directory_is_reported_and_left_alone(tmp_path, capsys):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    locked = tmp_path / 'locked'
    locked.mkdir()
    output = locked / 'out.sdf'
    output.write_text('previous content')
    locked.chmod(0o555)
    try:
        for argv in commands(source, output):
            code, _, err = run_cli(argv, capsys)
            assert code == 1 and 'Permission denied' in err and 'Traceback' not in err
            assert output.read_text() == 'previous content' and leftovers(locked) == []
    finally:
        locked.chmod(0o755)


def test_an_unwritable_directory_is_reported_and_left_alone(tmp_path, capsys, monkeypatch):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')

    def denied(*args, **kwargs):
        raise PermissionError(13, 'Permission denied', str(tmp_path))

    monkeypatch.setattr(tempfile, 'mkstemp', denied)
    for argv in commands(source, output):
        code, _, err = run_cli(argv, capsys)
        assert code == 1 and 'Permission denied' in err and 'Traceback' not in err
        assert output.read_text() == 'previous content' and leftovers(tmp_path) == []


def test_output_in_a_read_only_file_system_or_missing_directory(tmp_path, capsys):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    for output in ('/proc/sdf_tools_out.sdf', str(tmp_path / 'missing' / 'out.sdf'),
                   str(tmp_path)):
        for argv in commands(source, Path(output)):
            code, out, err = run_cli(argv, capsys)
            assert code == 1 and out == '', err
            assert err.startswith('Error: ') and 'Traceback' not in err, err
    assert not (tmp_path / 'missing').exists() and leftovers(tmp_path) == []
