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
The converter's output before and after its restructure into one emitter: the same bytes.

The converter once built SDFormat two ways (text parsed back and edited in lxml, fragments
spliced in, a regex pass at the end); now it decides a document of values that one emitter
writes once (``formats/sdf/emit.py``). That change was to leave every output as it was: this
test converts every corpus robot with the four option sets ``bench/bench_against.py`` uses,
with the code of :data:`BEFORE` (taken out of git) and with this tree, each side in a process
of its own, and requires the same SDFormat bytes. (The messages may differ: warnings were
added since, for typos in ``<gazebo>`` content.) When an output changes on purpose, move
:data:`BEFORE` to the commit before that change and say why in its message.
"""

import shutil
import subprocess
import sys

import pytest
import support

#: The last commit whose converter wrote text and edited it in lxml.
BEFORE = '6023162'

sys.path.insert(0, str(support.REPO_DIR / 'bench'))


def _have_revision() -> bool:
    if shutil.which('git') is None or not (support.REPO_DIR / '.git').exists():
        return False
    found = subprocess.run(['git', '-C', str(support.REPO_DIR), 'cat-file', '-e',
                            BEFORE + '^{commit}'], capture_output=True)
    return found.returncode == 0


@pytest.mark.skipif(not support.CORPUS_DIR.is_dir(), reason=support.NO_CORPUS)
@pytest.mark.skipif(not _have_revision(), reason=f'needs the git history ({BEFORE})')
def test_every_corpus_output_is_the_same_as_before_the_one_emitter(tmp_path):
    from bench_against import compare_outputs
    from bench_against import extract
    from bench_against import Side

    extract(support.REPO_DIR, BEFORE, tmp_path / 'before')
    scratch = tmp_path / 'scratch'
    scratch.mkdir()
    sides = [Side('before', tmp_path / 'before', scratch), Side('now', support.REPO_DIR, scratch)]
    try:
        differences, compared = compare_outputs(sides, support.corpus_files(), scratch)
    finally:
        for side in sides:
            side.close()
    outputs = [(name, where) for name, where in differences if not name.endswith('.log')]
    assert compared >= 8 * len(support.corpus_files())  # each output and its messages
    assert not outputs, outputs
