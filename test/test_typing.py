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
Type checking and the oldest Python: the checks CI runs on ``sdf_tools/``.

mypy runs as ament_mypy runs it (``--show-error-context --show-column-numbers``, no cache),
with the configuration in ``setup.cfg`` (``python_version = 3.10``, every function annotated)
and lxml's types from lxml-stubs; vermin, which reads the code for the language and library
features each Python version added, must find nothing that needs more than Python 3.10 (ROS 2
Humble's). Neither catches everything (a keyword a
3.11 function gained, a regular expression feature): ``.ci/run`` also runs the tests on the
oldest and the newest Python the machine has.
"""

import importlib.metadata
import os
import shutil
import subprocess
import sys

import pytest
import support


@pytest.mark.mypy
@pytest.mark.linter
def test_mypy():
    api = pytest.importorskip('mypy.api', reason='mypy is not installed')
    # Without lxml's stubs mypy would take every lxml value as Any (ignore_missing_imports)
    # and pass code it should not.
    try:
        importlib.metadata.version('lxml-stubs')
    except importlib.metadata.PackageNotFoundError:
        pytest.fail('lxml-stubs is not installed (pip install lxml-stubs, or the test extra)')
    out, err, status = api.run(['--config-file', str(support.REPO_DIR / 'setup.cfg'),
                                '--cache-dir', os.devnull, '--no-incremental',
                                '--show-error-context', '--show-column-numbers',
                                str(support.REPO_DIR / 'sdf_tools')])
    assert status == 0, f'mypy found errors:\n{out}{err}'


@pytest.mark.linter
def test_python_3_10_is_enough():
    vermin = shutil.which('vermin', path=os.path.dirname(sys.executable)) or \
        shutil.which('vermin')
    if vermin is None:
        pytest.skip('vermin is not installed')
    proc = subprocess.run([vermin, '--no-tips', '--eval-annotations', '--violations',
                           '--target=3.10-', 'sdf_tools'],
                          cwd=support.REPO_DIR, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f'vermin: code that needs more than Python 3.10:\n{proc.stdout}'
