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

"""Tests of sdf_tools.files.atomic: whole files or nothing."""

import os

import pytest
from sdf_tools.files import atomic


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
