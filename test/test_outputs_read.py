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
Tests of sdf_tools.outputs against everything a run read, and standard output by what it is.

An output never replaces a file the run read: the file on standard input, a mesh
``--auto-inertials`` weighed, a package.xml the package lookup read; nor, through standard
output, the input itself (``>> robot.urdf``). Every name of standard output
(``//dev/stdout``, ``/dev/fd/../fd/1``, a link to ``/proc/self/fd/1``, ...) is told by the
descriptor it resolves to, so the file the shell redirected into is written through it,
never replaced. A closed standard output (``>&-``) is an error that says so; a closed
standard error sends no message into standard output.
"""

import os
import subprocess
import sys

from diagnostics import INERTIA
from diagnostics import urdf
from mesh_robot import make_mesh_robot
import pytest
from sdf_tools import cli
from sdf_tools.outputs import descriptor_of
import support

GOOD = urdf('<link name="a">', f'<inertial><mass value="1"/>{INERTIA}</inertial>', '</link>')
# As the console scripts run: the process's command line, and the process's own exit.
URDF2SDF = 'from sdf_tools import cli; cli.urdf2sdf_main()'
MAIN = 'from sdf_tools import cli; cli.main()'
LINUX_PROC = pytest.mark.skipif(not os.path.isdir('/proc/self/fd'),
                                reason="needs Linux's /proc/self/fd")


def _env():
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(support.REPO_DIR), os.environ.get('PYTHONPATH', '')]))


def _child(code, argv, **streams):
    """Run ``python -c code argv`` with ``streams`` (``stdin``, ``stdout``); stderr piped."""
    return subprocess.run([sys.executable, '-c', code, *argv], text=True, env=_env(),
                          timeout=120, stderr=subprocess.PIPE, **streams)


def _shell(redirection, code, argv):
    """Run ``python -c code argv`` from sh with ``redirection`` (``>&-``), as a user does."""
    return subprocess.run(['sh', '-c', f'exec "$@" {redirection}', 'sh', sys.executable, '-c',
                           code, *argv], capture_output=True, text=True, timeout=120,
                          env=_env())


# --- standard input and standard output are what they are ---------------------------------

def test_the_file_on_standard_input_is_never_overwritten(tmp_path):
    source = tmp_path / 'in.urdf'
    source.write_text(GOOD)
    with open(source) as stdin:
        done = _child(URDF2SDF, ['-', '-q', '-o', str(source)], stdin=stdin,
                      stdout=subprocess.PIPE)
    assert (done.returncode, done.stdout) == (2, '')
    assert done.stderr == (f'urdf2sdf: error: refusing to write {source}: it is the file on '
                           'standard input, the input; nothing was written\n')
    other = tmp_path / 'out.sdf'
    with open(source) as stdin:
        done = _child(URDF2SDF, ['-', '-q', '-o', str(other)], stdin=stdin)
    assert done.returncode == 0 and other.read_text().startswith('<sdf version=')
    assert source.read_text() == GOOD


@pytest.mark.parametrize('command', ['urdf2sdf', 'convert', 'check', 'fk'])
def test_standard_output_appending_to_the_input_is_refused(tmp_path, command):
    source = tmp_path / 'in.urdf'
    source.write_text(GOOD)
    code, argv = (URDF2SDF, []) if command == 'urdf2sdf' else (MAIN, [command])
    with open(source, 'a') as appended:  # a shell's '>> in.urdf'
        done = _child(code, argv + [str(source)], stdout=appended)
    assert done.returncode == 2
    prog = 'urdf2sdf' if command == 'urdf2sdf' else f'sdf_tools {command}'
    assert done.stderr.endswith(f'{prog}: error: refusing to write <stdout>: it is the input '
                                f'{source}; nothing was written\n')
    assert source.read_text() == GOOD


@LINUX_PROC
@pytest.mark.parametrize('spelling', ['//dev/stdout', '/dev/./stdout', '/dev/fd/../fd/1',
                                      '/proc/thread-self/fd/1', 'a link to /proc/self/fd/1',
                                      'a link to a link to /dev/stdout'])
def test_every_name_of_standard_output_writes_through_it(tmp_path, spelling):
    if spelling.startswith('/proc/thread-self') and not os.path.exists('/proc/thread-self'):
        pytest.skip('no /proc/thread-self (Linux before 3.17)')
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    name = spelling
    if spelling.startswith('a link'):
        name = str(tmp_path / 'out.sdf')
        target = '/proc/self/fd/1' if spelling.endswith('fd/1') else str(tmp_path / 'std')
        os.symlink(target, name)
        if target != '/proc/self/fd/1':
            os.symlink('/dev/stdout', target)
    log = tmp_path / 'log.txt'
    log.write_text('old line\n')
    inode = log.stat().st_ino
    with open(log, 'a') as appended:  # a shell's '>> log.txt'
        done = _child(MAIN, ['convert', str(source), '--to', 'sdf', '-o', name],
                      stdout=appended)
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    assert text.startswith('old line\n<sdf version=') and text.endswith('</sdf>\n')
    assert log.stat().st_ino == inode  # written through, never replaced
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith('.')) == []


@LINUX_PROC
def test_descriptor_of_resolves_names_and_never_follows_a_descriptors_own_link(tmp_path):
    assert descriptor_of('-') == 1
    for name, number in (('/dev/stdout', 1), ('//dev/stderr', 2), ('/dev/./stdin', 0),
                         (f'/proc/{os.getpid()}/fd/7', 7), ('/proc/self/fd/../fd/12', 12)):
        assert descriptor_of(name) == number, name
    (tmp_path / '1').write_text('x')  # a file called 1 is a file
    os.symlink(tmp_path / '1', tmp_path / 'one')
    os.symlink(tmp_path / 'loop', tmp_path / 'loop')  # too many links: not a descriptor
    for name in ('1', 'one', 'loop', 'missing'):
        assert descriptor_of(str(tmp_path / name)) is None, name
    if os.getpid() != 1 and os.path.isdir('/proc/1/fd'):
        assert descriptor_of('/proc/1/fd/1') is None  # another process's


def test_a_closed_standard_output_is_an_error_that_says_so(tmp_path):
    source = tmp_path / 'good.urdf'
    source.write_text(GOOD)
    for code, argv in ((URDF2SDF, [str(source), '-q']),
                       (MAIN, ['check', str(source)]),
                       (URDF2SDF, [str(source), '-q', '-o', '/dev/stdout'])):
        done = _shell('>&-', code, argv)
        assert done.returncode == 1, done.stderr
        name = '/dev/stdout' if '/dev/stdout' in argv else '<stdout>'
        assert done.stderr == (f'Error: {name}: standard output is closed (started with >&-); '
                               'give the output file with -o\n')
    output = tmp_path / 'out.sdf'
    done = _shell('>&-', URDF2SDF, [str(source), '-q', '-o', str(output)])
    assert (done.returncode, done.stderr) == (0, '')
    assert output.read_text().startswith('<sdf version=')


def test_a_closed_standard_error_sends_no_message_into_the_output(tmp_path):
    source = tmp_path / 'warned.urdf'
    source.write_text(urdf('<link name="a"/>'))  # no inertial: a warning
    done = _shell('2>&-', URDF2SDF, [str(source)])
    assert done.returncode == 0
    assert done.stdout.startswith('<sdf version=') and 'warning' not in done.stdout


# --- what was read on the way: meshes, package.xml -----------------------------------------

def test_a_mesh_or_package_xml_the_run_read_is_never_overwritten(tmp_path, capsys):
    pytest.importorskip('trimesh', reason="trimesh is not installed (pip install '.[test]')")
    files = make_mesh_robot(tmp_path)
    description = str(files['urdf'])
    mesh = files['package'] / 'meshes' / 'cube.stl'
    manifest = files['package'] / 'package.xml'
    for target, options in ((mesh, ['--auto-inertials', '1000']), (manifest, [])):
        before = target.read_bytes()
        for main, argv in ((cli.urdf2sdf_main, [description]),
                           (cli.main, ['convert', description, '--to', 'sdf'])):
            code = main(argv + ['-q', *options, '-o', str(target)])
            out, err = capsys.readouterr()
            assert (code, out) == (2, ''), err
            assert err.endswith(f': error: refusing to write {target}: it is {target}, which '
                                'was read to make the output; nothing was written\n')
        assert target.read_bytes() == before
    output = tmp_path / 'out.sdf'
    assert cli.urdf2sdf_main([description, '-q', '--auto-inertials', '1000', '-o',
                              str(output)]) == 0
    assert '<mass>' in output.read_text()


def test_keep_expanded_never_replaces_a_mesh_the_description_names(tmp_path, capsys):
    """
    ``--keep-expanded`` is written after reading, checked against the files it names.

    ``--auto-inertials`` reads the meshes once loading is done: an expansion written over
    one of them would be weighed as the mesh (and the mesh lost).
    """
    (tmp_path / 'a.stl').write_bytes(b'solid a\nendsolid a\n')
    robot = tmp_path / 'r.urdf.xacro'
    robot.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                     '<link name="a"><collision><geometry><mesh filename="a.stl"/>'
                     '</geometry></collision></link></robot>')
    code = cli.urdf2sdf_main([str(robot), '--keep-expanded', str(tmp_path / 'a.stl'),
                              '-o', str(tmp_path / 'r.sdf')])
    assert code == 2
    assert 'a.stl' in capsys.readouterr().err
    assert (tmp_path / 'a.stl').read_bytes() == b'solid a\nendsolid a\n'
    assert not (tmp_path / 'r.sdf').exists()
    # Elsewhere, it is written even when reading fails (there to look at).
    broken = tmp_path / 'b.urdf.xacro'
    broken.write_text('<robot name="b" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                      '<joint name="j" type="revolute"/></robot>')
    assert cli.urdf2sdf_main([str(broken), '--keep-expanded', str(tmp_path / 'b.urdf')]) == 1
    assert '<joint name="j" type="revolute"/>' in (tmp_path / 'b.urdf').read_text()
