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
``sdf_tools diff`` on talos-sized descriptions (issue 26: well under a second).

Robot: ``talos_full_v2.urdf`` from the corpus (``$SDF_TOOLS_SHARED/corpus/urdf``, default
``../shared`` next to the repository): 60 links, 59 joints, 110 ``<gazebo>`` blocks. Pairs:

* ``urdf-urdf``: the URDF against a copy with one joint limit changed (compared as read);
* ``urdf-sdf``: the URDF against our SDFormat of it (the URDF converted and lumped first);
* ``sdf-sdf``: our SDFormat against itself.

For each pair: ``diff()`` alone on descriptions already loaded, load + ``diff()`` in one
process, and the ``sdf_tools diff A B`` command as a process (start to exit, Python start-up
and imports included). Each figure is CPU time (user + system; for the process, the
child's), the median of ``--rounds`` runs (the collector off for the in-process ones), so
that other work on a shared machine does not count; the process's wall time is given too.

    python3 bench/bench_diff.py [--rounds N] [--json OUT]
"""

import argparse
import gc
import json
import os
from pathlib import Path
import statistics
import subprocess
import sys
import tempfile
import time

REPO_DIR = Path(__file__).resolve().parent.parent
if str(REPO_DIR) not in sys.path:
    sys.path.insert(0, str(REPO_DIR))

from sdf_tools.comparing import diff  # noqa: E402 - after the path set-up
from sdf_tools.loading import load  # noqa: E402
from sdf_tools.loading import to_sdf  # noqa: E402

CORPUS = Path(os.environ.get('SDF_TOOLS_SHARED', REPO_DIR.parent / 'shared')) / 'corpus' / 'urdf'
LIMIT = 'lower="-0.209439510239" upper="0.785398163397"'


def median_cpu_seconds(func, rounds: int) -> float:
    """Return the median CPU time (s) of ``rounds`` calls of ``func``, collector off."""
    times = []
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            start = time.process_time()
            func()
            times.append(time.process_time() - start)
    finally:
        gc.enable()
    return statistics.median(times)


def process_seconds(a: Path, b: Path, rounds: int) -> tuple[float, float]:
    """Return the median CPU and wall times (s) of ``sdf_tools diff -q a b`` as a process."""
    code = 'import sys; from sdf_tools.cli import main; sys.exit(main(sys.argv[1:]))'
    env = dict(os.environ, PYTHONPATH=str(REPO_DIR))
    cpu, wall = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        child = subprocess.Popen([sys.executable, '-c', code, 'diff', '-q', str(a), str(b)],
                                 env=env, stdout=subprocess.DEVNULL)
        _, _, usage = os.wait4(child.pid, 0)
        wall.append(time.perf_counter() - start)
        cpu.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(cpu), statistics.median(wall)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=7)
    parser.add_argument('--json', help='also write the figures here')
    args = parser.parse_args(argv)
    source = CORPUS / 'talos_full_v2.urdf'
    if not source.is_file():
        print(f'needs {source} (set SDF_TOOLS_SHARED)', file=sys.stderr)
        return 2
    text = source.read_text()
    assert text.count(LIMIT) >= 1, 'the limit edited is not in the file'
    with tempfile.TemporaryDirectory() as folder:
        urdf, edited, sdf = (Path(folder) / name for name in ('a.urdf', 'b.urdf', 'a.sdf'))
        urdf.write_text(text)
        edited.write_text(text.replace(LIMIT, 'lower="-0.2" upper="0.785398163397"', 1))
        sdf.write_text(to_sdf(load(str(urdf))).sdf)
        figures = {}
        for name, (a, b) in {'urdf-urdf': (urdf, edited), 'urdf-sdf': (urdf, sdf),
                             'sdf-sdf': (sdf, sdf)}.items():
            loaded = load(str(a)), load(str(b))
            comparison = diff(*loaded)
            cpu, wall = process_seconds(a, b, args.rounds)
            figures[name] = {
                'differences': len(comparison.differences),
                'diff_cpu_s': median_cpu_seconds(lambda: diff(*loaded), args.rounds),
                'load_and_diff_cpu_s': median_cpu_seconds(
                    lambda: diff(load(str(a)), load(str(b))), args.rounds),
                'process_cpu_s': cpu, 'process_wall_s': wall}
    print(f'{"pair":10} {"differences":>11} {"diff()":>9} {"load+diff":>10} '
          f'{"process":>9} {"(wall)":>9}   CPU time, medians')
    for name, f in figures.items():
        print(f'{name:10} {f["differences"]:11d} {f["diff_cpu_s"] * 1e3:7.1f}ms '
              f'{f["load_and_diff_cpu_s"] * 1e3:8.1f}ms {f["process_cpu_s"] * 1e3:7.1f}ms '
              f'{f["process_wall_s"] * 1e3:7.1f}ms')
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
