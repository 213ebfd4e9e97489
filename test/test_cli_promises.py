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
Tests of what the command line promises on hostile input: never a success that is not.

``fk`` of poses that overflow is an error naming the joint, as ``check`` and ``urdf2sdf``
make it, and ``--json`` never writes ``Infinity`` (not JSON). ``convert`` never writes into a
``.urdf`` a name xacro would evaluate. A name of megabytes is shortened alike wherever a
message or a table quotes it (``--json`` keeps it whole: data for programs).
"""

from diagnostics import INERTIA
import pytest
from sdf_tools import cli

INERTIAL = f'<inertial><mass value="1"/>{INERTIA}</inertial>'
# Two joint origins of 1e308 m: each is a finite number, their sum is not.
FAR = ('<robot name="far">\n'
       f'<link name="a">{INERTIAL}</link>\n<link name="b">{INERTIAL}</link>\n'
       f'<link name="c">{INERTIAL}</link>\n'
       '<joint name="j1" type="fixed"><parent link="a"/><child link="b"/>'
       '<origin xyz="1e308 0 0"/></joint>\n'
       '<joint name="j2" type="fixed"><parent link="b"/><child link="c"/>'
       '<origin xyz="1e308 0 0"/></joint>\n</robot>\n')


@pytest.mark.parametrize('options', [[], ['--json']], ids=['table', 'json'])
def test_fk_of_poses_that_overflow_is_an_error_as_check_and_urdf2sdf_make_it(
        capsys, tmp_path, options):
    source = tmp_path / 'far.urdf'
    source.write_text(FAR)
    assert cli.main(['check', str(source)]) == 1
    assert cli.urdf2sdf_main([str(source)]) == 1
    capsys.readouterr()
    assert cli.main(['fk', str(source), *options]) == 1
    out, err = capsys.readouterr()
    assert out == ''
    assert err == (f"Error: {source}:6: joint 'j2': the pose of link 'c' is not finite (xyz "
                   'inf 0 0): the joint origins and values composed from the root are too '
                   'large\n')


def test_fk_of_a_joint_value_that_overflows_a_pose_is_an_error(capsys, tmp_path):
    source = tmp_path / 'slide.urdf'
    source.write_text('<robot name="s">\n<link name="a"/><link name="b"/>\n'
                      '<joint name="s" type="prismatic"><parent link="a"/><child link="b"/>'
                      '<origin xyz="1e308 0 0"/><axis xyz="1 0 0"/>'
                      '<limit lower="0" upper="1" effort="1" velocity="1"/></joint>\n'
                      '</robot>\n')
    assert cli.main(['fk', str(source), 's=1e308', '--json']) == 1
    out, err = capsys.readouterr()
    assert out == '' and 'Infinity' not in err
    # (after the warning that s=1e308 is outside the joint's limits)
    assert err.splitlines()[-1].startswith(
        f"Error: {source}:3: joint 's': the pose of link 'b' is not finite")


def test_convert_never_writes_xacro_markup_into_a_urdf(capsys, tmp_path):
    source = tmp_path / 'x.sdf'
    source.write_text('<sdf version="1.9"><model name="m">\n'
                      "<link name=\"${__import__('os').getcwd()}\"/>\n</model></sdf>\n")
    output = tmp_path / 'x.urdf'
    assert cli.main(['convert', str(source), '-o', str(output)]) == 1
    out, err = capsys.readouterr()
    assert out == '' and not output.exists()
    assert err.startswith(f"Error: {source}:2: link '${{__import__('os').getcwd()}}': <link> "
                          "name '${__import__('os').getcwd()}' is xacro markup")


LONG = 'L' * 2_000_000  # a link named with 2 MB


def test_a_long_name_is_shortened_in_tables_and_messages_alike(capsys, tmp_path):
    source = tmp_path / 'long.urdf'
    source.write_text(f'<robot name="{LONG}"><link name="a"/><link name="{LONG}"/>'
                      f'<joint name="{LONG}" type="revolute"><parent link="a"/>'
                      f'<child link="{LONG}"/><axis xyz="0 0 1"/>'
                      '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    shortened = 'L' * 35 + ' ...(1999930 characters)... ' + 'L' * 35
    assert cli.main(['fk', str(source)]) == 0
    out, err = capsys.readouterr()
    assert len(out) < 1000 and out.splitlines()[2].startswith(f'{shortened}  ')
    assert cli.main(['fk', str(source), 'elbow=1']) == 2
    out, err = capsys.readouterr()
    assert len(err) < 2000  # the reader's warning (a joint named like a link), then
    assert err.endswith(f"sdf_tools fk: error: not a joint coordinate of '{shortened}': elbow; "
                        f'use: {shortened}\n')
    assert cli.main(['fk', str(source), '--json']) == 0
    assert LONG in capsys.readouterr().out
