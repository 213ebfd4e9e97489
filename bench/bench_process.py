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
URDF -> SDFormat as users meet it: whole processes, ``urdf2sdf`` against libsdformat's.

For every corpus robot, ``urdf2sdf ROBOT.urdf`` (the console script, output to a pipe) and
the libsdformat 12.3 oracle's ``convert ROBOT.urdf`` (what ``gz sdf -p`` does: schema init,
read, convert, print) are run as processes, taking turns (``--rounds`` each), and the wall
time of each process, start to exit, is recorded; each figure is a median. The ratio per
robot is ours / libsdformat's. Also the start-up costs users feel without a robot:
``urdf2sdf --help``, ``sdf_tools --help``, and the floors of any Python tool here
(``python -c pass``, ``python -c 'import lxml.etree'``).

The tools run as a user has them: a plain ``pip install .`` of this checkout into a virtual
environment of its own (``--venv``, made on first use from the same Python, reinstalled on
every run), so that what a development machine adds to every Python start (editable-install
finders, other packages' ``.pth`` hooks, version-manager shims) is not counted.

    python3 bench/bench_process.py [--rounds N] [--quick] [--json OUT] [--oracle PATH]

Targets (issue 14): median ratio <= 0.5, every robot <= 1; ``urdf2sdf --help`` <= 60 ms.
Robots libsdformat fails on (a 0/0 centre of mass) are timed on a copy with zero masses set
to 1 g, as ``bench_convert.py`` does, and marked.
"""

import argparse
import contextlib
import json
import os
from pathlib import Path
import statistics
import subprocess
import sys
import tempfile
import time

from bench_convert import oracle_target

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = Path(os.environ.get('SDF_TOOLS_SHARED', HERE.parent.parent / 'shared')) / \
    'corpus' / 'urdf'
QUICK_ROBOTS = ('ur5e', 'panda_hand_gazebo', 'turtlebot4_ignition', 'anymal_c', 'pr2', 'tiago',
                'talos_full_v2', 'dual_panda')


def prepare_venv(venv: Path) -> Path:
    """Install this checkout (not editable) into ``venv``; return its ``bin`` folder."""
    bin_dir = venv / 'bin'
    if not (bin_dir / 'python').exists():
        subprocess.run([sys.executable, '-m', 'venv', str(venv)], check=True)
        subprocess.run([str(bin_dir / 'python'), '-m', 'pip', 'install', '--quiet',
                        str(HERE.parent)], check=True)
    else:
        subprocess.run([str(bin_dir / 'python'), '-m', 'pip', 'install', '--quiet', '--no-deps',
                        '--force-reinstall', str(HERE.parent)], check=True)
    return bin_dir


def user_environment() -> dict:
    """
    Return this environment as a user's shell has it: no PYTHONPATH or PYTHONHOME.

    A checkout on PYTHONPATH (or as the working directory) would shadow the installed
    package with its sources, which are compiled afresh by every process (no ``.pyc`` is
    written where PYTHONDONTWRITEBYTECODE is set): 100 ms more per process here.
    """
    return {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'PYTHONHOME')}


def wall_seconds(command) -> float:
    """Run ``command`` as a user would, output to a pipe; return its wall time (start to exit)."""
    start = time.perf_counter()
    proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=600, env=user_environment(), cwd=tempfile.gettempdir())
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f'{command} failed ({proc.returncode}): {proc.stderr[-500:]!r}')
    return seconds


def oracle_converts(oracle, path) -> bool:
    """Return whether the oracle's ``convert`` process converts ``path``."""
    return subprocess.run([oracle, 'convert', str(path)], capture_output=True).returncode == 0


def taking_turns(commands: dict, rounds: int) -> dict:
    """Return name -> median seconds, the commands run in turn ``rounds`` times (1 warm-up)."""
    for command in commands.values():
        wall_seconds(command)
    samples = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            samples[name].append(wall_seconds(command))
    return {name: statistics.median(s) for name, s in samples.items()}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=7, help='timed runs of each side')
    parser.add_argument('--quick', action='store_true', help='8 robots, 5 rounds')
    parser.add_argument('--json', help='write the results here')
    parser.add_argument('--oracle', default=os.environ.get('SDF_TOOLS_ORACLE',
                                                           '/tmp/sdformat_oracle'))
    parser.add_argument('--corpus', default=str(DEFAULT_CORPUS))
    parser.add_argument('--venv', type=Path, default=Path(tempfile.gettempdir()) /
                        'sdf_tools_bench_venv', help='where the tools are installed')
    args = parser.parse_args(argv)
    if not os.access(args.oracle, os.X_OK):
        print(f'the libsdformat oracle is not at {args.oracle} (see ../shared/tools)',
              file=sys.stderr)
        return 2
    rounds = 5 if args.quick else args.rounds
    robots = sorted(Path(args.corpus).glob('*.urdf'))
    if args.quick:
        robots = [p for p in robots if p.stem in QUICK_ROBOTS]
    bin_dir = prepare_venv(args.venv)
    python, urdf2sdf, sdf_tools = (str(bin_dir / name) for name in
                                   ('python', 'urdf2sdf', 'sdf_tools'))

    start_up = taking_turns({
        'python -c pass': [python, '-c', 'pass'],
        "python -c 'import lxml.etree'": [python, '-c', 'import lxml.etree'],
        'urdf2sdf --help': [urdf2sdf, '--help'],
        'sdf_tools --help': [sdf_tools, '--help'],
    }, max(rounds, 11))
    print('start-up (median wall time of the process)')
    for name, seconds in start_up.items():
        print(f'  {name:32s} {seconds * 1e3:7.1f} ms')

    rows = []
    print(f'\n{"robot":28s} {"urdf2sdf":>10s} {"libsdformat":>12s} {"ratio":>7s}')
    with contextlib.ExitStack() as stack:
        for path in robots:
            target, note = oracle_target(args.oracle, path, stack, succeeds=lambda file: (
                oracle_converts(args.oracle, file)))
            commands = {'ours': [urdf2sdf, str(path)]}
            if target is not None:
                commands['libsdformat'] = [args.oracle, 'convert', str(target)]
            medians = taking_turns(commands, rounds)
            theirs = medians.get('libsdformat')
            ratio = medians['ours'] / theirs if theirs else None
            rows.append({'robot': path.stem, 'ours_s': medians['ours'],
                         'libsdformat_s': theirs, 'ratio': ratio, 'note': note})
            theirs_text = f'{theirs * 1e3:9.1f} ms' if theirs else f'{"-":>12s}'
            ratio_text = f'{ratio:7.3f}' if ratio else f'{"-":>7s}'
            print(f'{path.stem:28s} {medians["ours"] * 1e3:7.1f} ms {theirs_text} {ratio_text}'
                  + (f'  {note}' if note else ''))
    ratios = [r['ratio'] for r in rows if r['ratio'] is not None]
    summary = {
        'robots': len(rows), 'rounds': rounds,
        'median_ratio': statistics.median(ratios) if ratios else None,
        'max_ratio': max(ratios) if ratios else None,
        'median_ours_s': statistics.median(r['ours_s'] for r in rows) if rows else None,
        'start_up_s': start_up,
    }
    if ratios:
        worst = max(rows, key=lambda r: r['ratio'] or 0.0)
        print(f'\nmedian ratio {summary["median_ratio"]:.3f} (target <= 0.5), worst '
              f'{summary["max_ratio"]:.3f} ({worst["robot"]}; target <= 1); median urdf2sdf '
              f'{summary["median_ours_s"] * 1e3:.1f} ms; urdf2sdf --help '
              f'{start_up["urdf2sdf --help"] * 1e3:.1f} ms (target <= 60)')
    if args.json:
        Path(args.json).write_text(json.dumps({'summary': summary, 'robots': rows}, indent=2))
        print(f'wrote {args.json}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
