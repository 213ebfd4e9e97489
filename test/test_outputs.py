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


# --- whole folders (sdf_tools export) -------------------------------------------------------

def siblings(folder: Path) -> list:
    """Return the names in ``folder``'s parent (temporary folders would show here)."""
    return sorted(p.name for p in folder.parent.iterdir())


def test_write_folder_writes_text_bytes_and_copies_and_leaves_nothing_else(tmp_path):
    source = tmp_path / 'mesh.stl'
    source.write_bytes(b'solid x\nendsolid x\n')
    target = tmp_path / 'out' / 'model'
    target.parent.mkdir()
    atomic.write_folder(str(target), {'model.sdf': 'text \u00e9', 'raw.bin': b'\x00\x01',
                                      'meshes/a/mesh.stl': source})
    assert (target / 'model.sdf').read_text(encoding='utf-8') == 'text \u00e9'
    assert (target / 'raw.bin').read_bytes() == b'\x00\x01'
    assert (target / 'meshes' / 'a' / 'mesh.stl').read_bytes() == source.read_bytes()
    assert siblings(target) == ['model']
    umask = os.umask(0)
    os.umask(umask)
    assert target.stat().st_mode & 0o777 == 0o777 & ~umask
    assert (target / 'raw.bin').stat().st_mode & 0o777 == 0o666 & ~umask


def test_write_folder_takes_an_empty_folder_and_refuses_one_holding_something(tmp_path):
    target = tmp_path / 'model'
    target.mkdir()
    atomic.write_folder(str(target), {'a': 'first'})
    assert (target / 'a').read_text() == 'first'
    with pytest.raises(FileExistsError, match='not empty') as info:
        atomic.write_folder(str(target), {'b': 'second'})
    assert info.value.filename == str(target)
    assert sorted(p.name for p in target.iterdir()) == ['a'] and siblings(target) == ['model']


def test_write_folder_never_replaces_a_file_or_a_symbolic_link(tmp_path):
    file = tmp_path / 'file'
    file.write_text('mine')
    link = tmp_path / 'link'
    (tmp_path / 'real').mkdir()
    link.symlink_to(tmp_path / 'real')
    for target in (file, link):
        with pytest.raises(NotADirectoryError, match='never replaced'):
            atomic.write_folder(str(target), {'a': 'x'}, replace=True)
    assert file.read_text() == 'mine' and link.is_symlink()
    assert not list((tmp_path / 'real').iterdir())


def test_write_folder_replaces_only_when_asked_once_the_new_one_is_whole(tmp_path,
                                                                         monkeypatch):
    target = tmp_path / 'model'
    atomic.write_folder(str(target), {'old.txt': 'old', 'meshes/old.stl': 'old'})
    real_fsync = os.fsync
    calls = []

    def fail_second(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(28, 'No space left on device')
        real_fsync(fd)

    monkeypatch.setattr(os, 'fsync', fail_second)
    with pytest.raises(OSError, match='No space left'):
        atomic.write_folder(str(target), {'new.txt': 'new', 'other.txt': 'new'}, replace=True)
    monkeypatch.setattr(os, 'fsync', real_fsync)
    assert sorted(str(p.relative_to(target)) for p in target.rglob('*')) == \
        ['meshes', 'meshes/old.stl', 'old.txt']
    assert siblings(target) == ['model']
    atomic.write_folder(str(target), {'new.txt': 'new'}, replace=True)
    assert [p.name for p in target.iterdir()] == ['new.txt'] and siblings(target) == ['model']


def test_write_folder_leaves_nothing_when_a_file_cannot_be_copied(tmp_path):
    target = tmp_path / 'model'
    with pytest.raises(FileNotFoundError) as info:
        atomic.write_folder(str(target), {'a.txt': 'a', 'm.stl': tmp_path / 'missing.stl'})
    assert info.value.filename == str(tmp_path / 'missing.stl')
    assert list(tmp_path.iterdir()) == []


def test_write_folder_refuses_paths_leaving_the_folder_and_a_missing_parent(tmp_path):
    for relative in ('../x', '/etc/x', 'a/../../x', '', 'a//b'):
        with pytest.raises(ValueError, match='not a relative path'):
            atomic.write_folder(str(tmp_path / 'model'), {relative: 'x'})
    with pytest.raises(FileNotFoundError, match='would hold it'):
        atomic.write_folder(str(tmp_path / 'no' / 'model'), {'a': 'x'})
    assert list(tmp_path.iterdir()) == []
