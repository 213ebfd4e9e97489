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
Tests of sdf_tools.outputs: whole files or nothing, never a file that was read.

Then the output file of ``urdf2sdf -o`` and ``sdf_tools convert -o`` under injected failures
(the write, fsync, the rename, an interruption, the directory): never partial, never
clobbered, no temporary file left; SIGTERM and SIGHUP clean up like Ctrl-C. Outputs that
are inputs (the input, a xacro include, a YAML file xacro loaded, a file an SDFormat
``<include>`` read) or that two options name are refused before anything is written; a FIFO
or a device is written in place; a full standard output is named.
"""

import os
from pathlib import Path
import signal
import stat
import subprocess
import sys
import tempfile
import threading

from diagnostics import commands
from diagnostics import INERTIA
from diagnostics import leftovers
from diagnostics import run_cli
from diagnostics import urdf
import pytest
from sdf_tools import cli
from sdf_tools import outputs as atomic
import support


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


def test_write_atomically_replaces_nothing_but_regular_files(tmp_path):
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    with pytest.raises(OSError, match=f'not a regular file: it is never replaced: .{fifo}.$'):
        atomic.write_atomically(str(fifo), 'text')
    with pytest.raises(IsADirectoryError, match=f'{tmp_path}'):
        atomic.write_atomically(str(tmp_path), 'text')
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ['pipe']


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


XACRO_NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'


def _run(argv, capsys):
    code = (cli.main if argv[0] in ('convert', 'check', 'tree', 'fk') else
            cli.urdf2sdf_main)(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def including(tmp_path):
    """Return main.urdf.xacro, which includes macros.xacro and loads p.yaml."""
    (tmp_path / 'macros.xacro').write_text(
        f'<robot {XACRO_NS}>\n<xacro:macro name="l" params="n"><link name="${{n}}"/>'
        '</xacro:macro>\n</robot>\n')
    (tmp_path / 'p.yaml').write_text('name: base\n')
    main = tmp_path / 'main.urdf.xacro'
    main.write_text(f'<robot name="r" {XACRO_NS}>\n<xacro:include filename="macros.xacro"/>\n'
                    '<xacro:l n="${xacro.load_yaml(\'p.yaml\')[\'name\']}"/>\n</robot>\n')
    return main


# --- SIGTERM and SIGHUP ----------------------------------------------------------------------

# A urdf2sdf process whose write blocks at fsync until a signal comes, saying so first.
BLOCKED_WRITE = """
import os
from sdf_tools import cli
import signal
import sys
for signum in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(signum, signal.SIG_DFL)  # as in a shell, whatever started the tests

def fsync(fd):
    print('writing', flush=True)
    signal.pause()

os.fsync = fsync
sys.exit(cli.urdf2sdf_main(sys.argv[1:]))
"""


MAIN = 'import sys; from sdf_tools import cli; sys.exit(cli.main(sys.argv[1:]))'


def _child_env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(support.REPO_DIR), os.environ.get('PYTHONPATH', '')]))


@pytest.mark.parametrize('signum', [signal.SIGTERM, signal.SIGHUP], ids=['TERM', 'HUP'])
def test_a_signal_during_a_write_leaves_no_temporary_file(tmp_path, signum):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')
    with subprocess.Popen([sys.executable, '-c', BLOCKED_WRITE, str(source), '-o', str(output)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=_child_env()) as child:
        assert child.stdout.readline() == 'writing\n'  # the temporary file exists now
        child.send_signal(signum)
        _, err = child.communicate(timeout=120)
    assert child.returncode == -signum, err  # ended by the signal, as without a write
    assert output.read_text() == 'previous content' and leftovers(tmp_path) == []


def test_a_programs_own_signal_handler_is_left_alone(tmp_path, monkeypatch):
    """A handler the program installed (the nodes' stop flag) runs; the write completes."""
    received = []
    previous = signal.signal(signal.SIGTERM, lambda signum, frame: received.append(signum))
    hangup = signal.getsignal(signal.SIGHUP)
    real_fsync = os.fsync

    def fsync(fd):
        os.kill(os.getpid(), signal.SIGTERM)
        real_fsync(fd)

    monkeypatch.setattr(atomic.os, 'fsync', fsync)
    target = tmp_path / 'out.sdf'
    try:
        atomic.write_file(str(target), 'whole')
        assert received == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGHUP) is hangup  # put back after the write
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert target.read_text() == 'whole' and leftovers(tmp_path) == []


# --- never a file that was read, nor one file for two outputs --------------------------------

def test_output_may_not_overwrite_the_input(capsys, tmp_path):
    source = tmp_path / 'r.urdf'
    source.write_text(GOOD)
    link = tmp_path / 'link.dot'
    link.symlink_to(source)
    assert _run([str(source), '-o', str(source)], capsys) == (
        2, '', f'urdf2sdf: error: refusing to write {source}: it is the input; nothing was '
        'written\n')
    assert _run(['tree', str(source), '--format', 'dot', '-o', str(link)], capsys) == (
        2, '', f'sdf_tools tree: error: refusing to write {link}: it is the input {source}; '
        'nothing was written\n')
    assert source.read_text() == GOOD and link.is_symlink()
    hard_link = tmp_path / 'hard.sdf'
    os.link(source, hard_link)
    with pytest.raises(atomic.OverwriteError, match=f'^refusing to write {hard_link}: it is '
                       f'the input {source}; nothing was written$'):
        atomic.check_outputs([str(hard_link)], [str(source)])


@pytest.mark.parametrize('option', ['-o', '--keep-expanded'])
@pytest.mark.parametrize('read', ['macros.xacro', 'p.yaml'])
def test_a_file_xacro_read_is_never_overwritten(capsys, tmp_path, including, read, option):
    target = tmp_path / read
    before = target.read_text()
    output = tmp_path / 'out.sdf'
    argv = [str(including), '-q', option, str(target)]
    code, out, err = _run(argv + (['-o', str(output)] if option != '-o' else []), capsys)
    assert (code, out) == (2, '')
    assert err == (f'urdf2sdf: error: refusing to write {target}: it is {target}, which was '
                   'read to make the output; nothing was written\n')
    assert target.read_text() == before and not output.exists()
    assert _run([str(including), '-q', '-o', str(output)], capsys)[0] == 0
    assert '<link name="base">' in output.read_text()


def test_other_spellings_of_the_input_are_refused_and_never_resolved_away(capsys, tmp_path):
    source = tmp_path / 'r.urdf'
    source.write_text(GOOD)
    for spelling in (f'{source}/', f'{tmp_path}/missing/../r.urdf'):
        code, out, err = _run([str(source), '-o', spelling], capsys)
        assert (code, out) == (2, ''), err
        assert err == (f'urdf2sdf: error: refusing to write {spelling}: it is the input '
                       f'{source}; nothing was written\n')
    assert source.read_text() == GOOD
    # Not an input: a name the system would refuse is refused, never read another way.
    with pytest.raises(IsADirectoryError, match='names a folder'):
        atomic.write_atomically(f'{tmp_path}/new.sdf/', 'x')
    with pytest.raises(FileNotFoundError) as error:
        atomic.write_atomically(f'{tmp_path}/missing/../new.sdf', 'x')
    assert error.value.filename == f'{tmp_path}/missing/../new.sdf'
    assert sorted(p.name for p in tmp_path.iterdir()) == ['r.urdf']


def test_an_output_to_a_descriptor_goes_through_it_and_never_replaces_its_file(tmp_path):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    log = tmp_path / 'log.txt'
    log.write_text('old line\n')
    for name in ('/dev/stdout', '/dev/fd/1', '/proc/self/fd/1'):
        with open(log, 'a') as appended:  # as a shell's '>> log.txt'
            done = subprocess.run([sys.executable, '-c', MAIN, 'convert', str(source), '--to',
                                   'sdf', '-o', name], stdout=appended,
                                  stderr=subprocess.PIPE, text=True, env=_child_env())
        assert done.returncode == 0, done.stderr
        text = log.read_text()
        assert text.startswith('old line\n<sdf version=') and text.endswith('</sdf>\n')
        log.write_text('old line\n')
    assert leftovers(tmp_path) == []


def test_two_outputs_to_standard_output_are_refused(capsys, tmp_path, including):
    for output, kept in ((None, '-'), ('-', '/dev/stdout'), ('/dev/stdout', '/dev/fd/1')):
        argv = [str(including), '-q', '--keep-expanded', kept]
        shown = '-' if output is None else output
        assert _run(argv + ([] if output is None else ['-o', output]), capsys) == (
            2, '', f'urdf2sdf: error: refusing to write two outputs to <stdout> ({kept} and '
            f'{shown}); nothing was written\n')
    assert _run([str(including), '-q', '--keep-expanded', '/dev/stderr'], capsys)[0] == 0


def test_a_file_an_sdformat_include_read_is_never_overwritten(capsys, tmp_path):
    from model_folders import make_model
    models = tmp_path / 'models'
    make_model(models, 'hand', '<model name="hand"><link name="palm"/></model>')
    make_model(models, 'arm', '<model name="arm"><link name="base"/>\n'
               '<include><uri>model://hand</uri></include></model>')
    world = tmp_path / 'world.sdf'
    world.write_text('<sdf version="1.9"><world name="w"><include><uri>model://arm</uri>'
                     '</include></world></sdf>')
    output = tmp_path / 'out.sdf'
    for target in (models / 'arm' / 'model.sdf', models / 'hand' / 'model.sdf',
                   models / 'arm' / 'model.config'):  # what the world includes, and so on
        before = target.read_text()
        code, out, err = _run(['convert', str(world), '--resource-path', str(models), '--to',
                               'sdf', '-o', str(target)], capsys)
        assert (code, out) == (2, '')
        assert err == (f'sdf_tools convert: error: refusing to write {target}: it is '
                       f'{target}, which was read to make the output; nothing was written\n')
        assert target.read_text() == before
    assert _run(['convert', str(world), '--resource-path', str(models), '-o', str(output)],
                capsys)[0] == 0
    assert '<link name="palm"/>' in output.read_text()


def test_output_and_expansion_may_not_name_one_file(capsys, tmp_path, including):
    output = tmp_path / 'x.sdf'
    other_name = os.path.join(str(tmp_path), '.', 'x.sdf')
    for kept, problem in ((str(output), f'{output} twice (two outputs name it)'),
                          (other_name, f'{other_name} and {output}: they are the same file')):
        assert _run([str(including), '-q', '-o', str(output), '--keep-expanded', kept],
                    capsys) == (2, '', f'urdf2sdf: error: refusing to write {problem}; '
                                'nothing was written\n')
        assert not output.exists()


# --- FIFOs, devices, a full standard output --------------------------------------------------

def test_output_onto_a_fifo_is_written_in_place(capsys, tmp_path):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    expected = _run([str(source)], capsys)[1]
    fifo = tmp_path / 'pipe'
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    code, out, err = _run([str(source), '-o', str(fifo)], capsys)
    reader.join(timeout=120)
    assert (code, out, err) == (0, '', '')
    assert received == [expected]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and leftovers(tmp_path) == []


def _null_device(tmp_path: Path) -> Path:
    """Return a /dev/null: made in ``tmp_path`` as root (the real one is not at stake)."""
    if os.geteuid() != 0:
        return Path('/dev/null')  # only root can replace it
    device = tmp_path / 'null'
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError:
        pytest.skip('root without CAP_MKNOD: not writing onto the real /dev/null')
    return device


def test_output_onto_a_device_is_written_in_place(capsys, tmp_path, including):
    device = _null_device(tmp_path)
    before = os.stat(device)
    for argv in ([str(including), '-q', '-o', str(device), '--keep-expanded', str(device)],
                 ['convert', str(including), '-q', '--to', 'urdf', '-o', str(device)],
                 ['tree', str(including), '-o', str(device)]):
        assert _run(argv, capsys) == (0, '', ''), argv
        after = os.stat(device)
        assert stat.S_ISCHR(after.st_mode), argv
        assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev), argv
    assert leftovers(device.parent) == []


@pytest.mark.skipif(not os.path.exists('/dev/full'), reason='needs /dev/full')
@pytest.mark.parametrize('command', ['urdf2sdf', 'check', 'tree', 'fk'])
def test_a_full_disk_is_named(capsys, tmp_path, command):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    main = 'urdf2sdf_main' if command == 'urdf2sdf' else 'main'
    argv = ([] if command == 'urdf2sdf' else [command]) + [str(source)]
    with open('/dev/full', 'w') as full:  # a process, to see its final flush too
        done = subprocess.run([sys.executable, '-c', f'from sdf_tools import cli; cli.{main}()',
                               *argv], stdout=full, stderr=subprocess.PIPE, text=True,
                              env=_child_env(), timeout=120)
    assert (done.returncode, done.stderr) == (1, 'Error: <stdout>: No space left on device\n')
    if command in ('urdf2sdf', 'tree'):
        assert _run(argv + ['-o', '/dev/full'], capsys) == (
            1, '', 'Error: /dev/full: No space left on device\n')


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


BLOCKED_FOLDER = """
import os
import signal
import sys
from sdf_tools import outputs
for signum in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(signum, signal.SIG_DFL)

def fsync(fd):
    print('writing', flush=True)
    signal.pause()

os.fsync = fsync
outputs.write_folder(sys.argv[1], {'model.sdf': 'new', 'meshes/a.stl': b'solid'}, replace=True)
"""


@pytest.mark.parametrize('signum', [signal.SIGTERM, signal.SIGHUP], ids=['TERM', 'HUP'])
def test_a_signal_while_a_folder_is_written_leaves_the_old_one_and_nothing_else(tmp_path,
                                                                                signum):
    folder = tmp_path / 'model'
    folder.mkdir()
    (folder / 'model.sdf').write_text('old')
    with subprocess.Popen([sys.executable, '-c', BLOCKED_FOLDER, str(folder)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=_child_env()) as child:
        assert child.stdout.readline() == 'writing\n'  # the temporary folder exists now
        child.send_signal(signum)
        _, err = child.communicate(timeout=120)
    assert child.returncode == -signum, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ['model']
    assert [p.name for p in folder.iterdir()] == ['model.sdf']
    assert (folder / 'model.sdf').read_text() == 'old'


def test_write_folder_refuses_paths_leaving_the_folder_and_a_missing_parent(tmp_path):
    for relative in ('../x', '/etc/x', 'a/../../x', '', 'a//b'):
        with pytest.raises(ValueError, match='not a relative path'):
            atomic.write_folder(str(tmp_path / 'model'), {relative: 'x'})
    with pytest.raises(FileNotFoundError, match='would hold it'):
        atomic.write_folder(str(tmp_path / 'no' / 'model'), {'a': 'x'})
    assert list(tmp_path.iterdir()) == []
