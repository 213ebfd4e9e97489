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

"""Tests of the command-line tools (sdf_tools.cli): urdf2sdf and sdf_tools convert."""

import io
import os
from pathlib import Path
import site
import subprocess
import sys

from diagnostics import commands
from diagnostics import leftovers
from diagnostics import run_cli
from diagnostics import urdf
import pytest
from sdf_tools import cli
import support
from xml_compare import parse

EXAMPLE = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
GOOD = ('<robot name="r"><link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
        'ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link></robot>')


def run(main, argv, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, 'stdin', io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_urdf2sdf_converts_the_bundled_xacro_example_with_arguments(capsys):
    code, out, err = run(cli.urdf2sdf_main, [str(EXAMPLE), 'prefix:=left_'], capsys)
    assert code == 0, err
    model = parse(out).find('model')
    assert model.get('name') == 'demo_arm'
    assert model.find("link[@name='left_base_footprint']") is not None
    assert model.find("joint[@name='left_elbow']") is not None
    assert 'Traceback' not in err


def test_urdf2sdf_reads_stdin_and_prints_warnings_on_stderr(capsys, monkeypatch):
    urdf = GOOD.replace('</robot>', '<gazebo reference="nope"><mu1>1</mu1></gazebo></robot>')
    code, out, err = run(cli.urdf2sdf_main, ['-'], capsys, urdf, monkeypatch)
    assert code == 0
    assert parse(out).find('model/link').get('name') == 'a'
    assert err.startswith("<stdin>:1: warning: <gazebo reference='nope'>")  # said once
    code, out, err = run(cli.urdf2sdf_main, ['-q', '-'], capsys, urdf, monkeypatch)
    assert code == 0 and err == ''


def test_invalid_description_exits_1_with_file_and_line(capsys, tmp_path):
    bad = tmp_path / 'robot.urdf'
    bad.write_text('<robot name="r">\n<link name="a"/>\n<joint name="elbow" type="revolute">\n'
                   '<parent link="a"/><child link="b"/>\n'
                   '<limit upper="abc" effort="1" velocity="1"/>\n</joint>\n</robot>\n')
    code, out, err = run(cli.urdf2sdf_main, [str(bad)], capsys)
    assert code == 1 and out == ''
    assert f"{bad}:5: joint 'elbow': <limit> upper must be a number, got 'abc'" in err
    assert f"{bad}:3: joint 'elbow': child link 'b' is not defined" not in err  # parse first
    assert 'Traceback' not in err


def test_malformed_xml_and_missing_files_exit_1(capsys, tmp_path):
    bad = tmp_path / 'broken.urdf'
    bad.write_text('<robot name="r">\n<link name="a">\n</robot>\n')
    code, _, err = run(cli.urdf2sdf_main, [str(bad)], capsys)
    assert code == 1 and f'{bad}:3: not well-formed XML' in err
    code, _, err = run(cli.urdf2sdf_main, [str(tmp_path / 'missing.urdf')], capsys)
    assert code == 1 and 'cannot read: No such file or directory' in err


def test_usage_errors_exit_2(capsys, tmp_path):
    # Only the input is required: the name:=value words are optional.
    assert run(cli.urdf2sdf_main, [], capsys) == (
        2, '', 'urdf2sdf: error: the following arguments are required: input\n')
    assert run(cli.main, ['fk'], capsys) == (
        2, '', 'sdf_tools fk: error: the following arguments are required: input\n')
    assert run(cli.urdf2sdf_main, ['--no-such-option', 'x.urdf'], capsys)[0] == 2
    code, _, err = run(cli.urdf2sdf_main, [str(EXAMPLE), 'notamapping'], capsys)
    assert code == 2 and "expected name:=value, got 'notamapping'" in err
    sdf = tmp_path / 'model.sdf'
    sdf.write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>')
    code, _, err = run(cli.urdf2sdf_main, [str(sdf)], capsys)
    assert code == 2 and 'not URDF (use sdf_tools convert)' in err


def _python(code, *argv, bare=False, stdin=None, closed_stdin=False):
    """
    Run ``python -c code argv...`` with this checkout first on the path.

    ``bare``: without the site module (``-S``), so that no ``.pth`` hook imports modules
    before the code runs; the site-packages folders are put on the path instead. ``stdin``:
    the text its standard input reads (a pipe); ``closed_stdin``: with standard input
    closed, as a shell's ``<&-`` starts it.
    """
    folders = [str(support.REPO_DIR), os.environ.get('PYTHONPATH', '')]
    if bare:
        folders += site.getsitepackages()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(folders))
    command = [sys.executable, *(['-S'] if bare else []), '-c', code, *argv]
    if closed_stdin:
        command = ['sh', '-c', 'exec "$@" <&-', 'sh', *command]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120,
                          input=stdin)


def test_version_and_help_answer_before_the_converter_is_imported():
    """--help and --version import neither lxml, numpy, the readers, converter nor tables."""
    from sdf_tools import __version__
    code = ('import sys\nfrom sdf_tools import cli\n'
            'main = cli.urdf2sdf_main if sys.argv[1] == "urdf2sdf" else cli.main\n'
            'try:\n    main(sys.argv[2:])\nexcept SystemExit:\n    pass\n'
            "heavy = [m for m in sys.modules if m.split('.')[0] in ('lxml', 'numpy', 'xacro') "
            "or m.startswith(('sdf_tools.convert', 'sdf_tools.formats.urdf', "
            "'sdf_tools.model', 'sdf_tools.loading', 'sdf_tools.cli.commands', "
            "'sdf_tools.cli.common', 'sdf_tools.errors', 'sdf_tools.formats.sdf.spec'))]\n"
            "print('IMPORTED', sorted(heavy))")
    for argv, expected in ((['urdf2sdf', '--help'], 'usage: urdf2sdf'),
                           (['urdf2sdf', '--version'], f'urdf2sdf {__version__}'),
                           (['sdf_tools', '--help'], 'usage: sdf_tools'),
                           (['sdf_tools', '--version'], f'sdf_tools {__version__}'),
                           (['sdf_tools', 'convert', '--help'], 'usage: sdf_tools convert'),
                           (['sdf_tools', 'view', '--help'], 'usage: sdf_tools view')):
        done = _python(code, *argv)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(expected), done.stdout
        assert done.stdout.splitlines()[-1] == 'IMPORTED []', argv


def test_converting_a_urdf_imports_only_what_it_uses(tmp_path):
    """
    ``urdf2sdf robot.urdf`` (to stdout) loads no xacro, numpy, dataclasses or file writer.

    What a conversion process imports is most of its time (issue 14); xacro input, ``-o``,
    the kinematics and a package found (pathlib) each import theirs when they are used, and
    ``<gazebo>`` blocks the readers of SDFormat values that check their content.
    """
    robot = tmp_path / 'robot.urdf'
    robot.write_text('<robot name="r"><link name="a"/><link name="b"><visual><geometry>'
                     '<mesh filename="package://not_installed/b.stl"/></geometry></visual></link>'
                     '<joint name="j" type="revolute"><parent link="a"/><child link="b"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    code = ('import sys\nstarted = set(sys.modules)  # what the interpreter loads itself\n'
            'from sdf_tools import cli\nstatus = cli.urdf2sdf_main(sys.argv[1:])\n'
            "unused = [m for m in set(sys.modules) - started if m.split('.')[0] in ('xacro', "
            "'numpy', 'dataclasses', 'tempfile', 'shutil', 'threading', 'pathlib', 'urllib', "
            "'matplotlib', 'PIL', 'trimesh', 'copy') or m.startswith(('sdf_tools.loading.xacro', "
            "'sdf_tools.kinematics', 'sdf_tools.formats.sdf.reader', 'sdf_tools.drawing', "
            "'sdf_tools.formats.sdf.params', 'sdf_tools.convert.blob_values'))]"
            "\nprint('IMPORTED', sorted(unused), file=sys.stderr)\nsys.exit(status)")
    done = _python(code, str(robot), bare=True)
    assert done.returncode == 0, done.stderr
    assert '<joint name="j" type="revolute">' in done.stdout
    assert done.stderr.splitlines()[-1] == 'IMPORTED []'


def test_a_process_ends_with_its_output_whole_and_its_exit_code(tmp_path, capsys):
    """The entry points end the process without teardown; nothing written is lost."""
    example = str(support.REPO_DIR / 'sdf_tools/examples/demo_arm.urdf.xacro')
    in_process = run(cli.urdf2sdf_main, [example], capsys)
    scripts = {'urdf2sdf': 'from sdf_tools.cli import urdf2sdf_main as m; m()',
               'sdf_tools': 'from sdf_tools.cli import main as m; m()'}
    done = _python(scripts['urdf2sdf'], example)
    assert (done.returncode, done.stdout, done.stderr) == in_process
    written = tmp_path / 'out.sdf'
    done = _python(scripts['sdf_tools'], 'convert', example, '--to', 'sdf', '-o', str(written))
    assert done.returncode == 0 and written.read_text() == in_process[1]
    missing = str(tmp_path / 'missing.urdf')
    done = _python(scripts['urdf2sdf'], missing)
    assert done.returncode == 1 and missing in done.stderr and done.stdout == ''
    assert _python(scripts['sdf_tools'], 'convert').returncode == 2
    reader = subprocess.Popen([sys.executable, '-c', 'import sys; sys.stdin.read(5)'],
                              stdin=subprocess.PIPE)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(support.REPO_DIR),
                                                       os.environ.get('PYTHONPATH', '')]))
    done = subprocess.run([sys.executable, '-c', scripts['urdf2sdf'], example],
                          stdout=reader.stdin, stderr=subprocess.PIPE, text=True, env=env,
                          timeout=120)
    reader.stdin.close()
    reader.wait(timeout=60)
    assert done.returncode == 0 and 'Traceback' not in done.stderr  # | head: not an error


def test_a_closed_standard_input_is_a_clear_error():
    for script, argv in (('from sdf_tools.cli import urdf2sdf_main as m; m()', ['-']),
                         ('from sdf_tools.cli import main as m; m()', ['convert', '-'])):
        done = _python(script, *argv, closed_stdin=True)
        assert (done.returncode, done.stdout) == (1, '')
        assert done.stderr == 'Error: <stdin>: standard input is closed\n'


def test_input_that_is_not_xml_is_an_invalid_urdf(capsys, tmp_path, monkeypatch):
    code, out, err = run(cli.urdf2sdf_main, ['-'], capsys, '', monkeypatch)
    assert code == 1 and out == '' and '<stdin>: the description is empty' in err
    code, out, err = run(cli.urdf2sdf_main, ['-'], capsys, '<robot', monkeypatch)
    assert code == 1 and out == '' and '<stdin>:1: not well-formed XML' in err
    junk = tmp_path / 'robot.txt'
    junk.write_text('\nhello\n')
    for main, args in ((cli.urdf2sdf_main, [str(junk)]), (cli.main, ['convert', str(junk)])):
        code, _, err = run(main, args, capsys)
        assert code == 1 and err == (f'Error: {junk}:2: not a robot description: not XML '
                                     '(URDF, xacro or SDFormat), and not RobCoGen '
                                     "Kinematics-DSL, which starts with 'Robot'\n")
    dsl = tmp_path / 'r.kindsl'
    dsl.write_text('Robot R { }')
    code, _, err = run(cli.urdf2sdf_main, [str(dsl)], capsys)
    assert code == 2 and 'is kindsl, not URDF (use sdf_tools convert)' in err


def test_traceback_flag_is_accepted_after_the_command(capsys, tmp_path):
    src = tmp_path / 'r.urdf'
    src.write_text(GOOD)
    for argv in (['check', str(src), '--traceback'], ['--traceback', 'check', str(src)]):
        code, out, err = run(cli.main, argv, capsys)
        assert code == 0 and 'OK: 0 error(s)' in out, err


def test_model_option_is_for_sdformat_only(capsys, tmp_path):
    src = tmp_path / 'r.urdf'
    src.write_text(GOOD)
    code, _, err = run(cli.main, ['fk', str(src), '--model', 'x'], capsys)
    assert code == 2 and f'--model picks a model from an SDFormat world; {src} is urdf' in err


def test_robcogen_parameters_must_be_finite_numbers(capsys):
    fancy = support.DATA_DIR / 'kindsl' / 'fancy.kindsl'
    for value in ('abc', 'nan', '1e400'):
        code, _, err = run(cli.main, ['check', str(fancy), f'jC_tz:={value}'], capsys)
        assert code == 2, err
        assert (f"RobCoGen parameter jC_tz:={value} must be a finite number, got '{value}'"
                in err)
    assert run(cli.main, ['check', str(fancy), 'jC_tz:=0.2'], capsys)[0] == 0


def test_xacro_failure_is_a_clear_error(capsys, tmp_path):
    bad = tmp_path / 'bad.urdf.xacro'
    bad.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                   '<link name="${undefined_property}"/></robot>')
    code, _, err = run(cli.urdf2sdf_main, [str(bad)], capsys)
    assert code == 1
    # The file, the line and the expression, once, without xacro's exception class name.
    assert err == (f'Error: {bad}:1: ${{undefined_property}}: xacro failed: '
                   "name 'undefined_property' is not defined\n")


def test_xacro_option_expands_other_files_and_stdin(capsys, tmp_path, monkeypatch):
    text = '<robot name="r">\n<link name="l${2 * 3}_$(arg side)"/>\n</robot>\n'
    (tmp_path / 'r.urdf').write_text(text)
    code, out, _ = run(cli.urdf2sdf_main, [str(tmp_path / 'r.urdf'), '--xacro', 'side:=a'],
                       capsys)
    assert code == 0 and parse(out).find('model/link').get('name') == 'l6_a'
    code, out, _ = run(cli.main, ['tree', '-', 'side:=b', '--xacro'], capsys, text, monkeypatch)
    assert (code, out) == (0, 'l6_b\n')


@pytest.mark.skipif(not os.path.exists('/dev/stdin'), reason='needs /dev/stdin')
def test_xacro_on_a_pipe_named_as_a_file_is_read_once():
    # `cat robot.xacro | sdf_tools convert /dev/stdin --xacro`: the pipe is empty once read,
    # so xacro must expand the bytes read (and checked), not open /dev/stdin again.
    text = ('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
            '<xacro:property name="n" value="3"/>\n<link name="l${2 * n}_$(arg side)"/>\n'
            '</robot>\n')
    script = 'from sdf_tools.cli import main; main()'
    done = _python(script, 'convert', '/dev/stdin', '--xacro', stdin=text)
    assert done.returncode == 1, done.stderr  # expanded: the error is xacro's, at its line
    assert done.stderr.startswith('Error: /dev/stdin:3: $(arg side): ')
    done = _python(script, 'tree', '/dev/stdin', '--xacro', 'side:=a', stdin=text)
    assert (done.returncode, done.stdout) == (0, 'l6_a\n'), done.stderr


def test_output_is_written_atomically_and_never_clobbered_on_failure(capsys, tmp_path):
    src = tmp_path / 'r.urdf'
    src.write_text(GOOD)
    out = tmp_path / 'r.sdf'
    out.write_text('previous content')
    os.chmod(out, 0o640)
    assert run(cli.urdf2sdf_main, [str(src), '-o', str(out)], capsys)[0] == 0
    assert parse(out.read_text()).find('model').get('name') == 'r'
    assert (out.stat().st_mode & 0o777) == 0o640
    # A failing conversion leaves the previous output untouched and no temporary file.
    src.write_text('<robot name="r"><link name="a"/><link name="a"/></robot>')
    before = out.read_text()
    assert run(cli.urdf2sdf_main, [str(src), '-o', str(out)], capsys)[0] == 1
    assert out.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ['r.sdf', 'r.urdf']


def test_an_invalid_input_leaves_an_existing_output_untouched(tmp_path, capsys):
    source = tmp_path / 'bad.urdf'
    source.write_text(urdf('<link name="a">', '<inertial><mass value="nan"/></inertial>',
                           '</link>'))
    output = tmp_path / 'out.sdf'
    output.write_text('previous content')
    for argv in commands(source, output):
        code, out, err = run_cli(argv, capsys)
        assert code == 1 and out == ''
        assert "bad.urdf:3: link 'a': <mass> value must be a number, got 'nan'" in err
        assert 'Traceback' not in err
        assert output.read_text() == 'previous content'
        assert leftovers(tmp_path) == []


def test_output_goes_through_symbolic_links_and_errors_name_it(capsys, tmp_path):
    src = tmp_path / 'r.urdf'
    src.write_text(GOOD)
    (tmp_path / 'real').mkdir()
    target = tmp_path / 'real' / 'r.sdf'
    target.write_text('old')
    link = tmp_path / 'r.sdf'
    link.symlink_to(target)
    assert run(cli.urdf2sdf_main, [str(src), '-o', str(link)], capsys)[0] == 0
    assert link.is_symlink() and parse(target.read_text()).find('model').get('name') == 'r'
    code, _, err = run(cli.urdf2sdf_main, [str(src), '-o', str(tmp_path / 'real')], capsys)
    assert code == 1 and f"{tmp_path / 'real'}: Is a directory" in err and '.tmp' not in err


def test_options_reach_the_converter(capsys, tmp_path):
    src = tmp_path / 'r.urdf'
    src.write_text(GOOD.replace('</robot>', '<link name="b"><inertial><mass value="1"/>'
                                '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'
                                '</inertial></link><joint name="j" type="fixed"><parent '
                                'link="a"/><child link="b"/></joint></robot>'))
    code, out, _ = run(cli.urdf2sdf_main, [str(src), '--preserve-fixed-joints',
                                           '--sdf-version', '1.11'], capsys)
    assert code == 0
    assert parse(out).get('version') == '1.11'
    assert parse(out).find("model/joint[@name='j']").get('type') == 'fixed'


def test_convert_picks_the_writer_from_the_output_extension(capsys, tmp_path):
    src = tmp_path / 'r.urdf'
    src.write_text(GOOD)
    out = tmp_path / 'copy.urdf'
    assert run(cli.main, ['convert', str(src), '-o', str(out)], capsys)[0] == 0
    assert parse(out.read_text()).tag == 'robot'
    code, out_text, _ = run(cli.main, ['convert', str(src)], capsys)
    assert code == 0 and parse(out_text).tag == 'sdf'
    code, _, err = run(cli.main, ['convert', str(src), '-o', str(tmp_path / 'x.txt')], capsys)
    assert code == 2 and 'cannot tell the output format' in err


def test_xacro_to_urdf_keeps_what_the_model_does_not_hold(capsys, tmp_path):
    # Franka: 25 transmissions and a ros2_control block, lost with exit 0 until they were kept.
    src = tmp_path / 'r.urdf.xacro'
    src.write_text(
        '<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
        '<xacro:macro name="tr" params="j"><transmission name="${j}_tr"><type>simple</type>'
        '<joint name="${j}"><hardwareInterface>effort</hardwareInterface></joint>'
        '</transmission></xacro:macro>\n'
        '<link name="a"/><link name="b"/>\n<joint name="j" type="continuous">'
        '<parent link="a"/><child link="b"/></joint>\n<xacro:tr j="j"/>\n'
        '<ros2_control name="sys" type="system"><joint name="j"><command_interface '
        'name="effort"/></joint></ros2_control>\n</robot>\n')
    code, out, err = run(cli.main, ['convert', str(src), '--to', 'urdf'], capsys)
    assert code == 0 and err == ''
    robot = parse(out)
    assert robot.find('transmission').get('name') == 'j_tr'
    assert robot.find('transmission/joint/hardwareInterface').text == 'effort'
    assert robot.find('ros2_control/joint/command_interface').get('name') == 'effort'
    code, _, err = run(cli.main, ['convert', str(src), '--to', 'sdf'], capsys)
    assert code == 0
    assert f"{src}:2: warning: robot 'r': <transmission> 'j_tr' is left out" in err
    assert f"{src}:6: warning: robot 'r': <ros2_control> 'sys' is left out" in err


def test_sdf_to_urdf_is_refused_or_lossy_for_the_bundled_example(capsys, tmp_path):
    sdf, urdf = tmp_path / 'demo.sdf', tmp_path / 'demo.urdf'
    assert run(cli.main, ['convert', str(EXAMPLE), '-o', str(sdf), '-q'], capsys)[0] == 0
    collision = 'palm_fixed_joint_lump__camera_link_collision_1'  # the camera's, lumped
    line = next(n for n, text in enumerate(sdf.read_text().splitlines(), 1)
                if f'<collision name="{collision}">' in text)
    code, _, err = run(cli.main, ['convert', str(sdf), '-o', str(urdf)], capsys)
    assert code == 1 and not urdf.exists()
    assert (f"{sdf}:{line}: link 'palm': its <collision> elements carry different SDFormat-only "
            'content (<surface>); URDF can only add the same content to every <collision> of '
            'a link (a <gazebo> extension); --lossy writes the nearest URDF '
            'without it') in err
    code, _, err = run(cli.main, ['convert', str(sdf), '-o', str(urdf), '--lossy'], capsys)
    assert code == 0
    assert err.splitlines() == [
        f"{sdf}:{line}: warning: link 'palm': <collision> '{collision}': <surface> "
        'is left out: URDF can only add the same SDFormat-only content to every <collision> '
        'of a link']
    back = parse(urdf.read_text())
    assert len(back.findall("link[@name='palm']/collision")) == 2
    assert run(cli.main, ['convert', str(urdf), '-q'], capsys)[0] == 0
    code, _, err = run(cli.main, ['convert', str(sdf), '--to', 'sdf', '--lossy'], capsys)
    assert code == 2 and '--lossy is for conversions to URDF' in err


def test_sdf_to_urdf_leaves_out_the_frames_of_a_static_model_without_links(capsys, tmp_path):
    # Such frames are attached to 'world' (fixed in the model frame): not a link of the URDF.
    sdf = tmp_path / 'sframe.sdf'
    sdf.write_text('<sdf version="1.9"><model name="m"><link name="l"/>\n'
                   '<model name="n"><static>true</static><frame name="f">\n'
                   '<pose>1 0 0 0 0 0</pose></frame></model></model></sdf>')
    code, out, err = run(cli.main, ['convert', str(sdf), '--to', 'urdf'], capsys)
    assert code == 1 and not out
    assert (f"{sdf}:2: frame 'n::f': is attached to 'world' (a frame of a static model without "
            'links); a URDF holds frames only on its links; --lossy writes the '
            'nearest URDF without it') in err
    assert 'Traceback' not in err
    code, out, err = run(cli.main, ['convert', str(sdf), '--to', 'urdf', '--lossy'], capsys)
    assert code == 0
    assert f"{sdf}:2: warning: frame 'n::f': is left out: it is attached to 'world'" in err
    assert [link.get('name') for link in parse(out).findall('link')] == ['l']


@pytest.mark.parametrize('script', ['urdf2sdf', 'sdf_tools'])
def test_installed_console_scripts_run_without_tracebacks(script, tmp_path):
    exe = Path(sys.executable).parent / script
    if not exe.exists():
        pytest.skip(f'{script} is not installed next to {sys.executable} (pip install .)')
    bad = tmp_path / 'bad.urdf'
    bad.write_text('<robot name="r"><link name="a"/><link name="a"/></robot>')
    args = [str(bad)] if script == 'urdf2sdf' else ['convert', str(bad)]
    proc = subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "link name 'a' is used more than once" in proc.stderr
    assert 'Traceback' not in proc.stderr


# --- check, tree, fk ------------------------------------------------------------------------

TWO_LINK = ('<robot name="two">\n<link name="base"/>\n<link name="arm"/>\n<link name="hand"/>\n'
            '<joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/>'
            '<origin xyz="0 0 1"/><axis xyz="0 0 1"/>'
            '<limit lower="-3" upper="3" effort="1" velocity="1"/></joint>\n'
            '<joint name="wrist" type="fixed"><parent link="arm"/><child link="hand"/>'
            '<origin xyz="0.5 0 0"/></joint>\n</robot>\n')


def test_check_prints_the_tree_and_every_problem(capsys, tmp_path):
    src = tmp_path / 'two.urdf'
    src.write_text(TWO_LINK)
    code, out, _ = run(cli.main, ['check', str(src)], capsys)
    assert code == 0
    assert "robot 'two' (urdf," in out and '3 links, 2 joints (fixed 1, revolute 1)' in out
    assert '`-- shoulder (revolute, axis 0 0 1) -> arm' in out
    assert 'has no <inertial>' in out  # the SDFormat conversion's warnings are problems too
    assert out.rstrip().endswith('warning(s)') and 'OK: 0 error(s)' in out
    src.write_text(TWO_LINK.replace('<limit lower="-3"', '<limit lower="x"'))
    code, out, err = run(cli.main, ['check', str(src)], capsys)
    assert code == 1 and f"{src}:5: joint 'shoulder': <limit> lower must be a number" in out


def test_a_mimic_that_cannot_be_followed_is_what_missing_mimic_says(capsys, tmp_path):
    src = tmp_path / 'm.urdf'
    src.write_text(TWO_LINK.replace('<joint name="wrist" type="fixed">',
                                    '<joint name="wrist" type="revolute">').replace(
        '<origin xyz="0.5 0 0"/></joint>',
        '<origin xyz="0.5 0 0"/><limit effort="1" velocity="1"/>'
        '<mimic joint="nowhere"/></joint>'))
    # check: a warning by default, as urdf2sdf converts it (the joint moves on its own).
    code, out, _ = run(cli.main, ['check', str(src)], capsys)
    assert code == 0 and 'OK: 0 error(s)' in out
    assert f"{src}:6: warning: joint 'wrist': <mimic> names joint 'nowhere', which does not " \
        'exist; the <mimic> is ignored and the joint moves independently' in out
    # Said once: the reader's warning about the same joint is not repeated.
    assert out.count("names joint 'nowhere'") == 1
    code, out, _ = run(cli.main, ['check', str(src), '--missing-mimic', 'error'], capsys)
    assert code == 1 and 'INVALID: 1 error(s)' in out
    # fk refuses it by default, naming the option (and the keyword, for Python callers).
    code, out, err = run(cli.main, ['fk', str(src)], capsys)
    assert code == 1 and out == ''
    assert f"Error: {src}:6: joint 'wrist': <mimic> names joint 'nowhere', which does not " \
        "exist (--missing-mimic ignore, missing_mimic='ignore', moves the joint " \
        'independently)' in err
    code, out, err = run(cli.main, ['fk', str(src), 'wrist=0.5', '--missing-mimic', 'ignore'],
                         capsys)
    assert code == 0 and "warning: joint 'wrist': <mimic> names joint 'nowhere'" in err
    assert out.splitlines()[3].split()[1:5] == ['0.500000', '0.000000', '1.000000',
                                                '0.247404']  # qx: sin(0.5 / 2), about x


def test_a_joint_value_given_as_a_xacro_argument_is_a_usage_error(capsys, tmp_path):
    src = tmp_path / 'arm.urdf.xacro'
    src.write_text(TWO_LINK.replace('<robot name="two">', '<robot name="two" xmlns:xacro='
                                    '"http://www.ros.org/wiki/xacro"><xacro:arg name="s" '
                                    'default="1"/>'))
    code, out, err = run(cli.main, ['fk', str(src), 'shoulder:=0.5'], capsys)
    assert code == 2 and out == ''
    assert err == (f'sdf_tools fk: error: shoulder:=0.5: name:=value is a xacro argument, and '
                   f"{src} has no such argument; shoulder is a joint of 'two': joint values "
                   'are NAME=VALUE (use shoulder=0.5)\n')
    plain = tmp_path / 'two.urdf'
    plain.write_text(TWO_LINK)
    code, _, err = run(cli.main, ['fk', str(plain), 'wrist:=0', 'shoulder:=1'], capsys)
    assert code == 2 and 'wrist, shoulder are joints' in err and 'use wrist=0 shoulder=1' in err
    # An argument the file has is one, whatever its name; one it lacks is said to change nothing.
    code, out, err = run(cli.main, ['fk', str(src), 's:=0.5', 'reach:=2'], capsys)
    assert code == 0 and out.startswith(' ' * 6)
    assert err == (f'{src}: warning: reach:=2 changes nothing: no xacro file declares or reads '
                   "an argument 'reach'; its arguments are s\n")


def test_convert_to_urdf_gives_unlimited_prismatic_joints_the_limit_chosen(capsys, tmp_path):
    src = tmp_path / 'slide.kindsl'
    src.write_text('Robot slide {\nRobotBase base { inertia_properties { mass = 1 CoM = (0, 0, 0) '
                   'Ix=1 Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 } children { carriage via slider } }\n'
                   'link carriage { id = 1 inertia_properties { mass = 1 CoM = (0, 0, 0) Ix=1 '
                   'Iy=1 Iz=1 Ixy=0 Ixz=0 Iyz=0 } children { } }\n'
                   'p_joint slider { ref_frame { translation = (0, 0, 0) rotation = (0, 0, 0) '
                   '} }\n}\n')
    out_path = tmp_path / 'slide.urdf'
    code, _, err = run(cli.main, ['convert', str(src), '-o', str(out_path)], capsys)
    assert code == 1 and not out_path.exists()
    assert "joint 'slider': is a prismatic joint without limits; URDF requires <limit> on " \
        'prismatic joints and cannot say "unlimited" (--unlimited-prismatic LOWER UPPER ' \
        'EFFORT VELOCITY chooses the limit to write)' in err
    assert 'Limit(' not in err and 'lossy=' not in err  # a command names its options only
    code, _, err = run(cli.main, ['convert', str(src), '-o', str(out_path),
                                  '--unlimited-prismatic', '-0.5', '2', '100', '0.25'], capsys)
    assert code == 0, err
    assert parse(out_path.read_text()).find("joint[@name='slider']/limit").attrib == {
        'lower': '-0.5', 'upper': '2', 'effort': '100', 'velocity': '0.25'}
    for argv, message in (
            (['--unlimited-prismatic', '1', '-1', '1', '1', '--to', 'urdf'],
             'needs LOWER <= UPPER and EFFORT, VELOCITY >= 0, got 1 -1 1 1'),
            (['--unlimited-prismatic', '0', 'inf', '1', '1', '--to', 'urdf'],
             "argument --unlimited-prismatic: must be a finite number, got 'inf'"),
            (['--unlimited-prismatic', '0', '1', '1', '1'],
             '--unlimited-prismatic is for conversions to URDF')):
        code, _, err = run(cli.main, ['convert', str(src)] + argv, capsys)
        assert code == 2 and message in err, err


def test_convert_to_urdf_gives_limits_not_enforced_the_values_chosen(capsys, tmp_path):
    src, out_path = tmp_path / 'arm.sdf', tmp_path / 'arm.urdf'
    src.write_text('<sdf version="1.9"><model name="arm"><link name="a"/><link name="b"/>\n'
                   '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis>'
                   '<xyz>0 0 1</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis>'
                   '</joint></model></sdf>\n')
    code, _, err = run(cli.main, ['convert', str(src), '-o', str(out_path)], capsys)
    assert code == 0
    assert "with an effort or velocity limit that is not enforced (SDFormat's -1 or inf)" in err
    assert parse(out_path.read_text()).find("joint[@name='j']/limit").attrib == {
        'lower': '-1', 'upper': '1', 'effort': '1e+16', 'velocity': '1e+16'}
    code, _, err = run(cli.main, ['convert', str(src), '-o', str(out_path),
                                  '--unlimited-effort', '40', '3'], capsys)
    assert (code, err) == (0, '')
    assert parse(out_path.read_text()).find("joint[@name='j']/limit").attrib == {
        'lower': '-1', 'upper': '1', 'effort': '40', 'velocity': '3'}
    for argv, message in (
            (['--unlimited-effort', '0', '1', '--to', 'urdf'],
             'stands for limits that are not enforced and needs both above 0, got 0 1'),
            (['--unlimited-effort', '1', 'inf', '--to', 'urdf'],
             "argument --unlimited-effort: must be a finite number, got 'inf'"),
            (['--unlimited-effort', '1', '1'], '--unlimited-effort is for conversions to URDF')):
        code, _, err = run(cli.main, ['convert', str(src)] + argv, capsys)
        assert code == 2 and message in err, err


def test_tree_text_and_dot(capsys, tmp_path):
    src = tmp_path / 'two.urdf'
    src.write_text(TWO_LINK)
    code, out, _ = run(cli.main, ['tree', str(src)], capsys)
    assert code == 0
    assert out.splitlines() == ['base', '`-- shoulder (revolute, axis 0 0 1) -> arm',
                                '    `-- wrist (fixed) -> hand']
    dot = tmp_path / 'two.dot'
    assert run(cli.main, ['tree', str(src), '--format', 'dot', '-o', str(dot)], capsys)[0] == 0
    text = dot.read_text()
    assert text.startswith('digraph "two" {')
    assert '"base" -> "arm" [label="shoulder\\nrevolute, axis 0 0 1"];' in text


def test_tree_svg_needs_graphviz(capsys, tmp_path, monkeypatch):
    src = tmp_path / 'two.urdf'
    src.write_text(TWO_LINK)
    monkeypatch.setenv('PATH', str(tmp_path))  # no 'dot' on this PATH
    code, out, err = run(cli.main, ['tree', str(src), '--format', 'svg'], capsys)
    assert code == 1 and "needs Graphviz's 'dot' program" in err and out == ''


def test_fk_prints_link_poses_in_the_root_frame(capsys, tmp_path):
    import json
    import math
    src = tmp_path / 'two.urdf'
    src.write_text(TWO_LINK)
    code, out, _ = run(cli.main, ['fk', str(src), '--json', f'shoulder={math.pi / 2!r}'], capsys)
    assert code == 0
    poses = json.loads(out)
    # By hand: arm at (0, 0, 1) turned 90 deg about z; hand 0.5 m along the arm's x = world y.
    assert poses['arm']['xyz'] == pytest.approx([0, 0, 1], abs=1e-12)
    assert poses['arm']['quat_xyzw'] == pytest.approx([0, 0, math.sqrt(0.5), math.sqrt(0.5)])
    assert poses['hand']['xyz'] == pytest.approx([0, 0.5, 1], abs=1e-12)
    code, out, _ = run(cli.main, ['fk', str(src)], capsys)
    assert code == 0 and out.splitlines()[3].split() == [
        'hand', '0.500000', '0.000000', '1.000000', '0.000000', '0.000000', '0.000000',
        '1.000000']


def test_fk_warns_about_joint_values_outside_the_limits_and_uses_them(capsys, tmp_path):
    src = tmp_path / 'two.urdf'
    src.write_text(TWO_LINK)
    code, out, err = run(cli.main, ['fk', str(src), 'shoulder=3.5'], capsys)
    assert code == 0 and err == (f"{src}:5: warning: joint 'shoulder': shoulder=3.5 is outside "
                                 'its limits (-3 to 3 rad); used as given\n')
    assert out == run(cli.main, ['fk', str(src), 'shoulder=3.5'], capsys)[1]
    assert run(cli.main, ['fk', str(src), 'shoulder=3'], capsys)[2] == ''  # the limit itself


def test_fk_of_sdformat_input_is_in_the_model_frame(capsys):
    import json
    import math
    src = support.DATA_DIR / 'sdf' / 'two_links_orthogonal_1.sdf'
    q = 0.78
    code, out, _ = run(cli.main, ['fk', str(src), '--json', f'jointAB={q!r}'], capsys)
    assert code == 0
    poses = json.loads(out)
    # The seed document: linkB starts at (0.1, 0, 0.1) and turns about the y axis through the
    # joint at (0.1, 0, 0) (pose 0 0 -0.1 in linkB): it ends at (0.1 + 0.1 sin q, 0, 0.1 cos q).
    assert poses['linkB']['xyz'] == pytest.approx(
        [0.1 + 0.1 * math.sin(q), 0, 0.1 * math.cos(q)], abs=1e-12)


def test_check_of_a_world_checks_every_model_and_names_what_it_holds(capsys, tmp_path):
    src = tmp_path / 'w.sdf'
    src.write_text('<sdf version="1.11"><world name="w"><frame name="f"/>\n'
                   '<model name="a"><link name="l"/></model>\n'
                   '<model name="b"><link name="l0"/><link name="l1"/>\n'
                   '<joint name="j" type="revolute"><parent>l0</parent><child>l1</child>\n'
                   '<axis><xyz>0 0 1</xyz><mimic joint="j"/></axis></joint></model>\n'
                   '</world></sdf>\n')
    code, out, _ = run(cli.main, ['check', str(src)], capsys)
    assert code == 1
    assert out.startswith("world 'w': 2 models ('a', 'b'), 1 frame ('f')\nrobot 'a' (sdf,")
    assert "robot 'b' (sdf," in out and 'INVALID: 1 error(s)' in out
    assert f"{src}:4: joint 'j': mimic joints form a loop: 'j' -> 'j'" in out
    code, out, _ = run(cli.main, ['check', str(src), '--model', 'a'], capsys)
    assert "robot 'b'" not in out and 'OK: 0 error(s)' in out


def test_check_of_a_world_without_models(capsys, tmp_path):
    src = tmp_path / 'empty.world'
    src.write_text('<sdf version="1.9"><world name="e"><light name="sun" type="directional"/>'
                   '</world></sdf>')
    code, out, _ = run(cli.main, ['check', str(src)], capsys)
    assert (code, out) == (0, "world 'e': no model, 1 light ('sun')\nOK: 0 error(s), "
                           '0 warning(s)\n')
    code, out, err = run(cli.main, ['fk', str(src)], capsys)
    assert code == 1 and "the document holds no <model> (world 'e': no model" in err


def test_resource_path_option_finds_included_models(capsys, tmp_path):
    from model_folders import make_model
    make_model(tmp_path / 'models', 'box', '<model name="box"><link name="base"/></model>')
    src = tmp_path / 'w.sdf'
    src.write_text('<sdf version="1.9"><world name="w"><include><uri>model://box</uri>'
                   '<pose>0 0 1 0 0 0</pose></include></world></sdf>')
    code, out, err = run(cli.main, ['tree', str(src), '--resource-path',
                                    str(tmp_path / 'models')], capsys)
    assert (code, out) == (0, 'base\n'), err
    code, out, err = run(cli.main, ['tree', str(src), '--resource-path',
                                    str(tmp_path / 'nope')], capsys)
    assert code == 2 and 'nope: no such folder' in err


def test_fk_rejects_unknown_and_mimic_names_and_bad_values(capsys, tmp_path):
    src = tmp_path / 'two.urdf'
    src.write_text(TWO_LINK)
    code, _, err = run(cli.main, ['fk', str(src), 'elbow=1'], capsys)
    assert code == 2 and "not a joint coordinate of 'two': elbow; use: shoulder" in err
    for value in ('abc', 'nan', '-inf', '1e400'):
        code, _, err = run(cli.main, ['fk', str(src), f'shoulder={value}'], capsys)
        assert code == 2, (value, err)
        assert f"joint value shoulder={value} must be a finite number, got '{value}'" in err


def test_fk_uses_a_mimic_joints_own_value_like_the_state_publisher(capsys):
    """``fk robot.urdf mimic_joint=0.3`` uses 0.3 (it used to exit 2), as joint_states does."""
    import json
    from sdf_tools.kinematics import forward_kinematics
    from sdf_tools.ros.descriptions import load_model
    src = support.DATA_DIR / 'conversion' / 'demo_arm.urdf'
    tree = load_model(src.read_text()).tree
    [mimic] = tree.mimic_joints
    assert (mimic.joint, mimic.source) == ('right_finger_joint', 'left_finger_joint')
    code, out, err = run(cli.main, ['fk', str(src), '--json', 'left_finger_joint=0.01',
                                    'right_finger_joint=0.03'], capsys)
    assert code == 0, err
    poses = json.loads(out)
    # The node's plan for a joint_states message with both names gives the same transform.
    plan = tree.joint_state_plan(['left_finger_joint', 'right_finger_joint'])
    q = tree.default_q().tolist()
    plan.update(q, [0.01, 0.03])
    by_child = {j.child: tf for j, tf in zip(plan.tree_joints, plan.transforms(q, [0.01, 0.03]))}
    [joint] = [j for j in plan.tree_joints if j.name == 'right_finger_joint']
    T_root_parent = forward_kinematics(tree, q)[tree.link_index[joint.parent]]
    xyz = T_root_parent @ [*by_child[joint.child][0], 1.0]
    assert poses['right_finger']['xyz'] == pytest.approx(xyz[:3].tolist(), abs=1e-12)
    # Only the source: the formula (the finger mirrors the left one).
    code, out, _ = run(cli.main, ['fk', str(src), '--json', 'left_finger_joint=0.01'], capsys)
    formula = json.loads(out)['right_finger']['xyz']
    assert formula != poses['right_finger']['xyz']
    assert formula == pytest.approx(json.loads(run(cli.main, [
        'fk', str(src), '--json', 'left_finger_joint=0.01', 'right_finger_joint=0.01'],
        capsys)[1])['right_finger']['xyz'], abs=1e-12)


# --- packages: $(find) without a sourced ROS ----------------------------------------------------

def _visual_mesh(sdf_text):
    return parse(sdf_text).find('model/link/visual/geometry/mesh/uri').text


@pytest.fixture
def tree(tmp_path, monkeypatch):
    from workspaces import make_tree
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    return make_tree(tmp_path)


def test_every_lookup_route_through_both_commands(capsys, tree, monkeypatch):
    mesh = 'meshes/base.stl'
    routes = [(['--package-path', str(tree['package'])], tree['package']),
              (['--package-path', str(tree['src'])], tree['package']),
              (['--package-path', str(tree['ws'])], tree['install']),
              ([f"--package-path={tree['prefix']}"], tree['prefix_share']),
              (['--package-path', str(tree['src']), '--package-path', str(tree['prefix'])],
               tree['package'])]
    for options, expected in routes:
        for main, argv in ((cli.urdf2sdf_main, [str(tree['robot']), *options]),
                           (cli.main, ['convert', str(tree['robot']), *options])):
            code, out, err = run(main, argv, capsys)
            assert code == 0, err
            assert _visual_mesh(out) == str(expected / mesh), (main, options)
    code, out, err = run(cli.urdf2sdf_main, [str(tree['inner_robot'])], capsys)
    assert code == 0 and _visual_mesh(out) == str(tree['install'] / mesh), err
    for variable, folder, expected in (('AMENT_PREFIX_PATH', 'prefix', 'prefix_share'),
                                       ('ROS_PACKAGE_PATH', 'src', 'package')):
        with monkeypatch.context() as m:
            m.setenv(variable, str(tree[folder]))
            for main, argv in ((cli.urdf2sdf_main, [str(tree['robot'])]),
                               (cli.main, ['convert', str(tree['robot'])])):
                code, out, err = run(main, argv, capsys)
                assert code == 0 and _visual_mesh(out) == str(tree[expected] / mesh), err
    # The other commands read xacro the same way.
    for command in ('check', 'tree', 'fk'):
        code, out, err = run(cli.main, [command, str(tree['robot']), '--package-path',
                                        str(tree['src'])], capsys)
        assert code == 0 and 'base' in out, (command, err)


def test_a_missing_package_is_one_error_with_its_line(capsys, tree, tmp_path):
    expected = (f"Error: {tree['robot']}:3: $(find arm_description): package "
                "'arm_description' not found; searched: AMENT_PREFIX_PATH (not set), "
                'ROS_PACKAGE_PATH (not set); give its folder with --package-path\n')
    for main, argv in ((cli.urdf2sdf_main, [str(tree['robot'])]),
                       (cli.main, ['convert', str(tree['robot'])])):
        assert run(main, argv, capsys) == (1, '', expected)
    # check: its report, with what it could read (nothing)
    assert run(cli.main, ['check', str(tree['robot'])], capsys) == (
        1, f'problems:\n  {expected[len("Error: "):]}INVALID: 1 error(s), 0 warning(s)\n', '')
    empty = tmp_path / 'empty'
    empty.mkdir()
    code, _, err = run(cli.urdf2sdf_main, [str(tree['robot']), '--package-path', str(empty)],
                       capsys)
    assert code == 1 and f'searched: {empty} (--package-path: 0 package(s)), ' in err
    code, _, err = run(cli.main, ['convert', str(tree['robot']), '--package-path',
                                  str(tmp_path / 'typo')], capsys)
    assert (code, err) == (2, f'sdf_tools convert: error: --package-path {tmp_path}/typo: '
                              'no such folder\n')


def test_without_ros_nothing_imports_ament_index(tree):
    code = ('import sys\nfrom sdf_tools import cli\n'
            'status = cli.urdf2sdf_main(sys.argv[1:])\n'
            "assert 'ament_index_python' not in sys.modules, 'ament_index_python imported'\n"
            'sys.exit(status)')
    env = {k: v for k, v in os.environ.items() if k not in ('AMENT_PREFIX_PATH',
                                                            'ROS_PACKAGE_PATH')}
    env['PYTHONPATH'] = os.pathsep.join([str(support.REPO_DIR), env.get('PYTHONPATH', '')])
    for folders, status in (([str(tree['ws'])], 0), ([], 1)):
        args = [a for f in folders for a in ('--package-path', f)]
        done = subprocess.run([sys.executable, '-c', code, str(tree['robot']), *args],
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == status, done.stderr
        assert 'Traceback' not in done.stderr


def test_a_clone_under_src_uses_its_own_package_and_says_which_not(capsys, tmp_path,
                                                                   monkeypatch):
    # Issue 24: ~/src/myrepo with a stale copy of a package elsewhere under ~/src.
    from workspaces import make_package
    from workspaces import PACKAGE
    from workspaces import ROBOT_XACRO
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    src = tmp_path / 'src'
    (src / 'myrepo' / '.git').mkdir(parents=True)
    robot = make_package(src / 'myrepo' / 'robot', name='robot') / 'urdf' / 'robot.urdf.xacro'
    robot.write_text(ROBOT_XACRO)
    mine = make_package(src / 'myrepo' / PACKAGE, label='mine')
    stale = make_package(src / 'old' / PACKAGE, label='stale')
    code, out, err = run(cli.urdf2sdf_main, [str(robot)], capsys)
    assert (code, err) == (0, '') and _visual_mesh(out) == f'{mine}/meshes/base.stl'
    code, out, err = run(cli.urdf2sdf_main, [str(robot), '--package-path', str(src)], capsys)
    assert code == 0 and _visual_mesh(out) == f'{mine}/meshes/base.stl'
    assert err == (f"{robot}:3: warning: $(find {PACKAGE}): package '{PACKAGE}' is in 2 places: "
                   f"using {mine} (the input's checkout), not {stale} (--package-path); the "
                   "input's checkout is searched first\n")


def test_package_path_root_is_searched_without_aborting(capsys, tmp_path, monkeypatch):
    # Issue 24: '--package-path /' stopped the lookup at '/proc/1/cwd' (Permission denied).
    from workspaces import ROBOT_XACRO
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    robot = tmp_path / 'robot.urdf.xacro'
    robot.write_text(ROBOT_XACRO.replace('arm_description', 'sdf_tools_no_such_package'))
    code, out, err = run(cli.urdf2sdf_main, [str(robot), '--package-path', '/'], capsys)
    assert code == 1 and out == '' and 'Traceback' not in err
    assert err.startswith(f'Error: {robot}:3: $(find sdf_tools_no_such_package): package '
                          "'sdf_tools_no_such_package' not found; searched: / (--package-path:")


# --- every problem, warnings and errors, by every command ------------------------------------

TYPOS = urdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
             '<orgin xyz="0 0 1"/>', '<parent link="a"/>', '<child link="b"/>',
             '<limit efort="1" velocity="1"/>', '</joint>')


@pytest.mark.parametrize('argv', [[], ['convert'], ['check'], ['fk'], ['tree']])
def test_an_error_comes_with_every_warning_in_file_order_and_names_the_typo(
        argv, capsys, tmp_path):
    path = tmp_path / 'r.urdf'
    path.write_text(TYPOS)
    main = cli.main if argv else cli.urdf2sdf_main
    code, out, err = run(main, argv + [str(path)], capsys)
    assert code == 1
    shown = [line.strip() for line in (out + err).splitlines() if f'{path}:' in line]
    assert shown == [
        f"{path}:5: warning: joint 'j': unknown element <orgin> in <joint> is ignored; did you "
        'mean <origin>?',
        ('' if argv == ['check'] else 'Error: ') + f"{path}:8: joint 'j': <limit> is missing "
        "required attribute 'effort'; did you mean 'effort' for 'efort'?"]


def test_a_missing_element_names_its_misspelling_and_where_it_is(capsys, tmp_path):
    path = tmp_path / 'r.urdf'
    path.write_text(urdf('<link name="a"><inertial>', '<mas value="1"/>',
                         '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>',
                         '</inertial></link>'))
    code, out, err = run(cli.urdf2sdf_main, [str(path)], capsys)
    assert (code, out) == (1, '')
    assert err == (f"Error: {path}:2: link 'a': <inertial> is missing <mass>; did you mean "
                   '<mass> for <mas>? (see line 3)\n')


def test_check_summarises_what_it_could_read_of_an_invalid_description(capsys, tmp_path):
    path = tmp_path / 'r.urdf'
    path.write_text(TYPOS.replace('<link name="b"/>', '<link name="b"/><link name="c"/>'))
    code, out, err = run(cli.main, ['check', str(path)], capsys)
    assert (code, err) == (1, '')
    assert out.startswith(f"robot 'r' (urdf, {path})\n  3 links, 1 joint (revolute 1), 0 "
                          'frames\n  root links: a, c\nproblems:\n')
    assert out.endswith('INVALID: 1 error(s), 1 warning(s)\n')


@pytest.mark.parametrize('command', ['fk', 'tree'])
def test_fk_and_tree_print_the_readers_warnings(command, capsys, tmp_path):
    path = tmp_path / 'r.urdf'
    path.write_text(TYPOS.replace('efort', 'effort'))
    code, out, err = run(cli.main, [command, str(path)], capsys)
    assert code == 0 and 'b' in out
    assert err == (f"{path}:5: warning: joint 'j': unknown element <orgin> in <joint> is "
                   'ignored; did you mean <origin>?\n')


def test_a_warning_repeated_in_a_file_is_printed_once_with_a_count(capsys, tmp_path):
    path = tmp_path / 'r.urdf'
    links = [f'<link name="l{n}"><visual><geometry name="g"><sphere radius="1"/></geometry>'
             '</visual></link>' for n in range(5)]
    joints = [f'<joint name="j{n}" type="fixed"><parent link="l0"/><child link="l{n}"/>'
              '</joint>' for n in range(1, 5)]
    path.write_text(urdf(*links, *joints))
    code, out, err = run(cli.main, ['tree', str(path)], capsys)
    assert code == 0
    assert err == (f"{path}:2: warning: link 'l0': unknown attribute 'name' of <geometry> is "
                   'ignored (5 in all; also lines 3, 4, 5, ...)\n')


INERTIAL = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
            'izz="1"/></inertial>')
ONE_PROBLEM = {
    'triangle': (urdf('<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
                      'ixz="0" iyy="1" iyz="0" izz="3"/></inertial></link>'),
                 "2: warning: link 'a': <inertia> (principal moments 1, 1, 3) is not one a "
                 'rigid body can have'),
    'ground plane': (urdf(f'<link name="a">{INERTIAL}<visual><geometry><box size="5 5 0"/>'
                          '</geometry></visual>', '<collision><geometry><box size="5 5 0"/>'
                          '</geometry></collision></link>'),
                     "3: warning: link 'a': collision 'a_collision' is left out: <box> size 5 "
                     '5 0 has a side that is not above 0'),
    'renamed joint': (urdf(f'<link name="a">{INERTIAL}</link>', f'<link name="b">{INERTIAL}'
                           '</link>', '<joint name="b" type="continuous"><parent link="a"/>'
                           '<child link="b"/></joint>'),
                      "4: warning: joint 'b': has the same name as a link; SDFormat needs "
                      "distinct names (and Gazebo's physics drops such joints), so it is "
                      "written as 'b_joint'"),
    'renamed frame': (urdf(f'<link name="a">{INERTIAL}</link>', f'<link name="b">{INERTIAL}'
                           '</link>', '<joint name="b" type="fixed"><parent link="a"/>'
                           '<child link="b"/></joint>'),
                      "4: warning: joint 'b': has the same name as a link; SDFormat needs "
                      "distinct names, so the <frame> kept for the merged link 'b' is written "
                      "as 'b_frame'"),
}


@pytest.mark.parametrize('case', ONE_PROBLEM)
@pytest.mark.parametrize('command', ['urdf2sdf', 'check'])
def test_one_problem_is_one_warning(case, command, capsys, tmp_path):
    path = tmp_path / 'r.urdf'
    text, expected = ONE_PROBLEM[case]
    path.write_text(text)
    if command == 'check':
        code, said, _ = run(cli.main, ['check', str(path)], capsys)
    else:
        code, _, said = run(cli.urdf2sdf_main, [str(path), '-o', str(tmp_path / 'r.sdf')],
                            capsys)
    lines = [line.strip() for line in said.splitlines() if f'{path}:' in line]
    assert code == 0 and len(lines) == 1, lines
    assert lines[0].startswith(f'{path}:{expected}')
