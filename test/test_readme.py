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
Tests of README.md: what it tells users holds.

Every command-line example runs as written, the node tables are the nodes' parameters, and
the page stays short and free of the record's language (dates, issues, commits).
"""

import os
from pathlib import Path
import re
import shlex
import shutil
import subprocess
import sys

import pytest
import support

README = (support.REPO_DIR / 'README.md').read_text()


def _env() -> dict:
    """Return an environment that runs this checkout's commands (console scripts on PATH)."""
    scripts = Path(sys.executable).parent
    return {**os.environ, 'PATH': f'{scripts}{os.pathsep}{os.environ["PATH"]}',
            'PYTHONPATH': str(support.REPO_DIR)}


def _fenced(heading: str, opening: str = '```bash\n') -> str:
    """Return the first fenced block opened by ``opening`` after ``## heading``."""
    section = README[README.index(f'## {heading}\n'):]
    start = section.index(opening) + len(opening)
    return section[start:section.index('\n```', start)]


def test_the_readme_is_short_and_speaks_to_users():
    assert README.count('\n') <= 300
    for pattern in (r'\bissue \d+', r'\b20\d\d-[01]\d-[0-3]\d\b', r'\btoday\b',
                    r'\b[0-9a-f]{7,40}\b(?<!\d{7})'):
        assert not re.search(pattern, README, re.IGNORECASE), pattern


def test_every_command_line_example_runs_as_written(tmp_path):
    pytest.importorskip('matplotlib', reason='matplotlib is not installed (the view example)')
    examples = tmp_path / 'examples'
    shutil.copytree(support.REPO_DIR / 'sdf_tools' / 'examples', examples)
    env = _env()
    lines = [shlex.split(line, comments=True) for line in _fenced('Command line').splitlines()]
    assert lines[0] == ['cd', 'sdf_tools/examples']
    for words in lines[1:]:
        stdin = None
        if '<' in words:
            at = words.index('<')
            stdin = (examples / words[at + 1]).read_bytes()
            words = words[:at] + words[at + 2:]
        line = shlex.join(words)
        done = subprocess.run(words, cwd=examples, env=env, input=stdin, capture_output=True,
                              timeout=300)
        expected = (0, 1) if words[:2] == ['sdf_tools', 'diff'] else (0,)
        assert done.returncode in expected, f'{line}\n{done.stderr.decode()}'
        assert b'Traceback' not in done.stderr, line
    for made in ('arm.sdf', 'arm.dot', 'arm.urdf', 'head.sdf', 'head.urdf', 'diff.png',
                 'demo_arm_model/model.sdf', 'demo_arm_model/model.config', 'arm.png'):
        assert (examples / made).is_file(), made


def test_the_quick_start_prints_the_warning_it_shows():
    command = _fenced('Quick start').splitlines()[0].split(' && ')[-1]
    shown = _fenced('Quick start', '\n\n```\n')
    done = subprocess.run(shlex.split(command), cwd=support.REPO_DIR, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == shown.strip()
    assert done.stdout.startswith('<sdf version="1.9">\n  <model name="demo_arm">')


def test_the_python_example_runs_as_written(tmp_path):
    examples = tmp_path / 'examples'
    shutil.copytree(support.REPO_DIR / 'sdf_tools' / 'examples', examples)
    code = _fenced('Python', '```python\n') + (
        "\nassert list(q) == [0.5 if name == 'l_shoulder_pan' else 0.0"
        ' for name in tree.coordinate_names]'
        '\nassert poses.shape == (len(tree.link_names), 4, 4)'
        '\nassert batch.shape == (1000, len(tree.link_names), 4, 4)\n')
    done = subprocess.run([sys.executable, '-c', code], cwd=examples, env=_env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert '<sdf version="1.11">' in done.stdout and 'l_shoulder_pan' in done.stdout


def test_the_node_tables_are_the_nodes_parameters():
    pytest.importorskip('rclpy', reason='rclpy is not installed')
    from sdf_tools.ros.sdf_converter import PARAMETERS as CONVERTER
    from sdf_tools.ros.state_publisher import PARAMETERS as PUBLISHER
    for node, specs in (('state_publisher', PUBLISHER), ('sdf_converter', CONVERTER)):
        section = README[README.index(f'**`{node}`**'):]
        start = section.index('| parameter |')
        table = section[start:section.index('\n\n', start)]
        rows = {}
        for row in table.splitlines()[2:]:
            names, default = row.split('|')[1:3]
            values = [v.strip(' `') for v in default.split(',')]
            names = [n.strip(' `') for n in names.split(',')]
            if len(values) != len(names):
                values = values * len(names)
            rows.update(zip(names, values))
        assert set(rows) == {spec.name for spec in specs}, node
        for spec in specs:
            shown = rows[spec.name]
            expected = (str(spec.default).lower() if isinstance(spec.default, bool)
                        else repr(spec.default))
            assert shown == expected, (node, spec.name, shown, expected)
