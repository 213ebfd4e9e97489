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
Shared test helpers: small invalid descriptions and the diagnostics they must give.

The builders put one element per line, so a test names the line each diagnostic must
point at: :func:`urdf` puts ``<robot>`` on line 1 and its arguments on lines 2, 3, ...;
:func:`sdf` puts ``<model>`` on line 2; :func:`dsl` puts ``Robot`` on line 1.
:func:`single_error` and :func:`only_warning` check message, line, entity and code. The
last helpers run ``urdf2sdf -o`` and ``sdf_tools convert -o`` for the output-file tests.
"""

from pathlib import Path
import re

import pytest
from sdf_tools import cli

INERTIA = '<inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>'


def urdf(*lines: str) -> str:
    """Return a URDF whose ``<robot>`` is line 1 and ``lines`` are lines 2, 3, ..."""
    return '\n'.join(['<robot name="r">', *lines, '</robot>'])


def sdf(*lines: str, version: str = '1.9') -> str:
    """Return an SDFormat model whose ``<model>`` is line 2 and ``lines`` are lines 3, ..."""
    return '\n'.join([f'<sdf version="{version}">', '<model name="m">', *lines, '</model>',
                      '</sdf>'])


def dsl(*lines: str) -> str:
    """Return a DSL document whose ``Robot`` is line 1 and ``lines`` are lines 2, 3, ..."""
    return '\n'.join(['Robot R {', *lines, '}'])


def dsl_link(name: str, link_id: int, children: str = '', mass: str = '1',
             com: str = '(0, 0, 0)', moments: str = 'Ix=1 Iy=1 Iz=1') -> str:
    """Return a one-line DSL link with these inertia properties and ``children``."""
    return (f'link {name} {{ id = {link_id} inertia_properties {{ mass = {mass} CoM = {com} '
            f'{moments} Ixy=0 Ixz=0 Iyz=0 }} children {{ {children} }} }}')


def dsl_joint(name: str, translation: str = '(0, 0, 1)') -> str:
    """Return a one-line DSL revolute joint translated by ``translation`` (m)."""
    return (f'r_joint {name} {{ ref_frame {{ translation = {translation} '
            'rotation = (0, 0, 0) } }')


def mimic_urdf(first_mimic: str, second_mimic: str = '') -> str:
    """Return a chain a -j1-> b -j2-> c of continuous joints (lines 5 and 8) with mimics."""
    return urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>',
                '<joint name="j1" type="continuous">',
                '<parent link="a"/><child link="b"/>', first_mimic, '</joint>',
                '<joint name="j2" type="continuous">',
                '<parent link="b"/><child link="c"/>', second_mimic, '</joint>')


def single_error(error_type, func, text, match, line, entity=None, code=None, **kwargs):
    """Call ``func(text)``; assert it raises one diagnostic with this message and line."""
    with pytest.raises(error_type, match=match) as info:
        func(text, 'robot.src', **kwargs)
    d = info.value.diagnostic
    assert d.location.line == line, str(info.value)
    assert d.location.source == 'robot.src'
    if entity is not None:
        assert d.entity == entity
    if code is not None:
        assert d.code == code
    return info.value


def only_warning(robot, match, line, code):
    """Assert the model carries exactly one warning like this."""
    assert [(w.code, w.location.line) for w in robot.warnings] == [(code, line)], \
        [str(w) for w in robot.warnings]
    assert re.search(match, robot.warnings[0].message), robot.warnings[0].message


# --- the output files of the command-line tools ---------------------------------------------

def leftovers(directory: Path) -> list:
    """Return the temporary files an atomic write left in ``directory``."""
    return sorted(p.name for p in directory.iterdir() if p.name.endswith('.tmp'))


def run_cli(argv, capsys):
    """Run ``sdf_tools`` (``argv`` starting with ``convert``) or ``urdf2sdf`` in-process."""
    code = cli.main(argv) if argv[0] == 'convert' else cli.urdf2sdf_main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def commands(source: Path, output: Path):
    """Return the ``urdf2sdf`` and ``sdf_tools convert`` arguments writing ``-o output``."""
    return ([str(source), '-o', str(output)],
            ['convert', str(source), '--to', 'sdf', '-o', str(output)])
