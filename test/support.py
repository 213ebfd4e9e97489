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
Shared test helpers: where the reference material is, the libsdformat oracle, CPU time.

The corpus and tools live next to the project (../shared) on developer and CI machines;
tests that need them skip with the reason when they are absent. Override the locations with
SDF_TOOLS_SHARED (the shared directory) and SDF_TOOLS_ORACLE (the oracle binary).
"""

import gc
import math
import os
from pathlib import Path
import subprocess
import time

TEST_DIR = Path(__file__).resolve().parent
REPO_DIR = TEST_DIR.parent
DATA_DIR = TEST_DIR / 'data'
SHARED_DIR = Path(os.environ.get('SDF_TOOLS_SHARED', REPO_DIR.parent / 'shared'))
CORPUS_DIR = SHARED_DIR / 'corpus' / 'urdf'
SEEDS_DIR = SHARED_DIR / 'seeds'
ORACLE_TOOLS_DIR = SHARED_DIR / 'tools' / 'sdformat_oracle'
RULE_EXAMPLES_DIR = ORACLE_TOOLS_DIR / 'rule_examples'
PROBE_PATH = Path(os.environ.get('SDF_TOOLS_PROBE', '/tmp/physics_probe'))

# Why a test skips, in words a newcomer can act on (README, Quick start).
NO_CORPUS = (f'needs the 50 reference robots at {CORPUS_DIR}: the ../shared folder that sits '
             'beside this repository on the project machines (or set SDF_TOOLS_SHARED)')
NO_ORACLE = ('needs libsdformat 12.3 as a command-line oracle: bash ../shared/tools/'
             'sdformat_oracle/build.sh /tmp/sdformat_oracle (or set SDF_TOOLS_ORACLE)')
NO_PROBE = ("needs the physics probe (ignition-physics + DART, Gazebo Fortress's engine): "
            'bash ../shared/tools/physics_probe/build.sh /tmp/physics_probe (or set '
            'SDF_TOOLS_PROBE)')


def corpus_files():
    """Return the corpus URDF paths (empty when the corpus is not on this machine)."""
    if not CORPUS_DIR.is_dir():
        return []
    return sorted(CORPUS_DIR.glob('*.urdf'))


def corpus_ids():
    """Return pytest ids for :func:`corpus_files`."""
    return [p.stem for p in corpus_files()]


def oracle_path():
    """Return the libsdformat oracle binary, or None when it is not built."""
    path = Path(os.environ.get('SDF_TOOLS_ORACLE', '/tmp/sdformat_oracle'))
    if path.is_file() and os.access(path, os.X_OK):
        return path
    return None


def run_oracle(*args, timeout=300):
    """Run the oracle; return the CompletedProcess (text mode)."""
    return subprocess.run([str(oracle_path()), *map(str, args)], capture_output=True,
                          text=True, timeout=timeout)


def probe_built():
    """Return whether the physics probe (SDF_TOOLS_PROBE) is built."""
    return PROBE_PATH.is_file() and os.access(PROBE_PATH, os.X_OK)


def run_probe(*args, timeout=300):
    """Run the physics probe; return the CompletedProcess (text mode)."""
    return subprocess.run([str(PROBE_PATH), *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)


def probe_report(stdout):
    """Return the ``key value`` lines of ``probe step`` as a dict of strings."""
    return dict(line.split(None, 1) for line in stdout.splitlines() if ' ' in line)


def rule_counts(title: str):
    """
    Yield a dict to count differences per rule in, then print the counts under ``title``.

    The body of a module fixture: ``yield from support.rule_counts('...')``.
    """
    counts: dict = {}
    yield counts
    if counts:
        lines = [f'{n:6d}  {rule}' for rule, n in sorted(counts.items(), key=lambda kv: -kv[1])]
        print(f'\n{title}\n' + '\n'.join(lines))


def least_cpu_seconds(func, *args, repeats: int = 3) -> float:
    """
    Return the least CPU time (s) of ``repeats`` calls of ``func(*args)``, collector off.

    For growth ratios measured in one run (twice the input, twice the time): CPU time, so that
    a busy machine does not count; the least of a few calls, so that a scheduling hiccup does
    not either; and no garbage collection, whose passes walk every object the test process
    holds (a whole suite's), not only the ones the measured call made.
    """
    best = math.inf
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            start = time.process_time()
            func(*args)
            best = min(best, time.process_time() - start)
    finally:
        if enabled:
            gc.enable()
    return best
