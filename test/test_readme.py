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


def test_each_doc_stands_on_its_own():
    """The record in doc/ cites nothing its readers cannot open: no notes beside the checkout."""
    for page in sorted((support.REPO_DIR / 'doc').glob('*.md')):
        text = page.read_text(encoding='utf-8')
        for pattern in (r'\.\./shared', r'\bshared/(research|seeds|tools|corpus)',
                        r'\bissue \d+', r'\bissue #?\d+'):
            found = re.search(pattern, text, re.IGNORECASE)
            assert not found, f'{page.name}: {found.group(0)!r}'


def _tree(folder: Path) -> dict:
    """Return every file below ``folder`` -> its bytes."""
    return {path.relative_to(folder): path.read_bytes()
            for path in sorted(folder.rglob('*')) if path.is_file()}


def test_the_command_line_block_runs_in_a_clone_and_leaves_it_installable(tmp_path):
    """
    The block runs as written, by bash, from a copy of the checkout; it writes nothing there.

    Its outputs go to the scratch folder its first line makes, so the clone is unchanged and
    ``pip install .`` of it still works (outputs beside the examples once made it fail, and
    would have been shipped).
    """
    pytest.importorskip('matplotlib', reason='matplotlib is not installed (the view example)')
    clone = tmp_path / 'clone'
    shutil.copytree(support.REPO_DIR, clone, ignore=shutil.ignore_patterns(
        '.git', '.venv', 'build', 'install', 'log', '__pycache__', '*.egg-info',
        '.pytest_cache', '.hypothesis'))
    before = _tree(clone)
    scratch = tmp_path / 'tmp'
    scratch.mkdir()
    block = _fenced('Command line')
    assert block.splitlines()[0].startswith('d=$(mktemp -d) && cp sdf_tools/examples/*')
    done = subprocess.run(['bash', '-e', '-x', '-c', block], cwd=clone,
                          env={**_env(), 'TMPDIR': str(scratch)}, capture_output=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert b'Traceback' not in done.stderr
    (work,) = scratch.iterdir()
    for made in ('arm.sdf', 'arm.dot', 'arm.urdf', 'head.sdf', 'head.urdf', 'diff.png',
                 'demo_arm_model/model.sdf', 'demo_arm_model/model.config', 'arm.png'):
        assert (work / made).is_file(), made
    assert _tree(clone) == before
    site = tmp_path / 'site'
    installed = subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', '--no-deps',
                                '--target', str(site), str(clone)],
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    shipped = sorted(p.name for p in (site / 'sdf_tools' / 'examples').iterdir())
    assert shipped == sorted(p.name for p in (clone / 'sdf_tools' / 'examples').iterdir())


def test_the_diff_example_shows_only_what_the_conversion_changed(tmp_path):
    """The README's diff compares the demo with its own conversion: equal, lumping noted."""
    block = _fenced('Command line').splitlines()
    (convert,) = [line for line in block if line.startswith('urdf2sdf') and '-o arm.sdf' in line]
    (diff,) = [line for line in block if line.startswith('sdf_tools diff')]
    examples = tmp_path / 'examples'
    shutil.copytree(support.REPO_DIR / 'sdf_tools' / 'examples', examples)
    for line in (convert, diff.replace('--picture diff.png', '')):
        done = subprocess.run(shlex.split(line, comments=True), cwd=examples, env=_env(),
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f'{line}\n{done.stdout}{done.stderr}'
    assert 'poses (5 configurations, 9 links): the same' in done.stdout
    assert 'lumped' in done.stdout and done.stdout.rstrip().endswith('equal (tolerance 1e-06)')


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
