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
import subprocess
import sys

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
    assert "Warning: <stdin>:1: warning: <gazebo reference='nope'>" in err
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
    assert run(cli.urdf2sdf_main, [], capsys)[0] == 2
    assert run(cli.urdf2sdf_main, ['--no-such-option', 'x.urdf'], capsys)[0] == 2
    code, _, err = run(cli.urdf2sdf_main, [str(EXAMPLE), 'notamapping'], capsys)
    assert code == 2 and "expected name:=value, got 'notamapping'" in err
    sdf = tmp_path / 'model.sdf'
    sdf.write_text('<sdf version="1.9"><model name="m"><link name="l"/></model></sdf>')
    code, _, err = run(cli.urdf2sdf_main, [str(sdf)], capsys)
    assert code == 2 and 'not URDF (use sdf_tools convert)' in err


def test_xacro_failure_is_a_clear_error(capsys, tmp_path):
    bad = tmp_path / 'bad.urdf.xacro'
    bad.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">'
                   '<link name="${undefined_property}"/></robot>')
    code, _, err = run(cli.urdf2sdf_main, [str(bad)], capsys)
    assert code == 1
    assert f'{bad}: xacro failed:' in err and 'undefined_property' in err


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


def test_output_may_not_overwrite_the_input(capsys, tmp_path):
    src = tmp_path / 'r.urdf'
    src.write_text(GOOD)
    code, _, err = run(cli.urdf2sdf_main, [str(src), '-o', str(src)], capsys)
    assert code == 2 and 'would overwrite the input' in err
    assert src.read_text() == GOOD


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
