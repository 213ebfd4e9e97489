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
Conversion output and speed of this tree against another revision, side by side in one run.

    python3 bench/bench_against.py REV [--ours REV] [--quick] [--corpus DIR] [--rounds N]
    python3 bench/bench_convert.py --against REV      (the same)

``REV`` (and ``--ours REV``; without it, this working tree as it is) is taken out of git
with ``git archive`` into a temporary folder outside the repository, and each side runs in
its own Python process with only its own ``sdf_tools`` importable.

1. **Bytes.** Every corpus robot and every example of the package (``sdf_tools/examples``)
   is converted by both sides through the command line's ``convert --to sdf`` with four
   option sets (the defaults, ``--sdf-version 1.10``, ``--sdf-version 1.11``,
   ``--preserve-fixed-joints``); the SDFormat written, the exit code and the messages must
   be the same bytes. Any difference is listed (with its first differing line) and the
   script exits 1.
2. **Speed.** For every corpus robot, the in-process conversion (``parse_urdf`` +
   ``urdf_to_sdf``, as bench_convert.py times it) of each side: the sides take turns, in
   alternating order, a warm-up and three timed calls each per round, so that the shared
   machine's load falls on both alike. Reported: each side's median over the robots of its
   per-robot medians, the median and range of the per-robot ratios ours/theirs, the totals,
   and the same with each side's best time (the least disturbed by other load).
"""

import argparse
import contextlib
import io
import json
import os
from pathlib import Path
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_CORPUS = ROOT.parent / 'shared' / 'corpus' / 'urdf'
VARIANTS = {'default': [], 'v110': ['--sdf-version', '1.10'],
            'v111': ['--sdf-version', '1.11'], 'preserve': ['--preserve-fixed-joints']}


# --- a side: one worker process ----------------------------------------------------------------

def _worker() -> int:
    """Serve one side: JSON commands on stdin, answers on the original stdout."""
    protocol = os.fdopen(os.dup(1), 'w')
    import sdf_tools
    from sdf_tools.cli import main as cli_main
    from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
    from sdf_tools.formats.urdf.reader import parse_urdf

    def answer(value):
        protocol.write(json.dumps(value) + '\n')
        protocol.flush()

    answer({'sdf_tools': sdf_tools.__file__})
    for line in sys.stdin:
        command = json.loads(line)
        if command['op'] == 'convert':
            for source, output, options in command['jobs']:
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    try:
                        code = cli_main(['convert', source, '--to', 'sdf', '-o', output,
                                         *options])
                    except SystemExit as e:
                        code = e.code
                Path(output + '.log').write_text(
                    f'exit {code}\n--stdout--\n{out.getvalue()}--stderr--\n{err.getvalue()}')
            answer({'done': len(command['jobs'])})
        elif command['op'] == 'time':
            data = Path(command['path']).read_bytes()
            name = Path(command['path']).name
            urdf_to_sdf(parse_urdf(data, name))
            times = []
            for _ in range(command['calls']):
                t0 = time.perf_counter()
                urdf_to_sdf(parse_urdf(data, name))
                times.append(time.perf_counter() - t0)
            answer({'times': times})
        else:
            return 0
    return 0


class Side:
    """One revision's ``sdf_tools`` in a worker process (:func:`_worker`)."""

    def __init__(self, label: str, root: Path, scratch: Path):
        self.label, self.root = label, root
        env = dict(os.environ, PYTHONPATH=str(root))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), '--worker'], cwd=scratch,
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.module = self.ask(None)['sdf_tools']
        if not self.module.startswith(str(root)):
            raise RuntimeError(f'{label}: imported {self.module}, not the copy in {root}')

    def ask(self, command):
        """Send ``command`` (``None``: none, read the greeting) and return the answer."""
        if command is not None:
            self.process.stdin.write(json.dumps(command) + '\n')
            self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f'the worker of {self.label} stopped')
        return json.loads(line)

    def close(self):
        with contextlib.suppress(OSError):
            self.process.stdin.write(json.dumps({'op': 'quit'}) + '\n')
            self.process.stdin.close()
        self.process.wait(timeout=60)


def extract(repo: Path, rev: str, into: Path) -> str:
    """Write the tree of ``rev`` into ``into`` (``git archive``); return its commit hash."""
    commit = subprocess.run(['git', '-C', str(repo), 'rev-parse', '--verify', rev + '^{commit}'],
                            check=True, capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(['git', '-C', str(repo), 'archive', '--format=tar', commit],
                             check=True, capture_output=True).stdout
    into.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, 'data_filter'):
            tar.extractall(into, filter='data')
        else:
            tar.extractall(into)
    return commit


# --- the two checks ------------------------------------------------------------------------------

def compare_outputs(sides, inputs, scratch: Path) -> list:
    """Convert ``inputs`` on both sides; return the differences (``[(name, first line)]``)."""
    folders = []
    for side in sides:
        folder = scratch / f'out-{side.label}'
        folder.mkdir()
        jobs = [(str(path), str(folder / f'{path.name}.{tag}.sdf'), options)
                for path in inputs for tag, options in VARIANTS.items()]
        side.ask({'op': 'convert', 'jobs': jobs})
        folders.append(folder)
    differences = []
    names = sorted({p.name for folder in folders for p in folder.iterdir()})
    for name in names:
        a, b = (folder / name for folder in folders)
        data_a = a.read_bytes() if a.exists() else None
        data_b = b.read_bytes() if b.exists() else None
        if data_a != data_b:
            differences.append((name, _first_difference(data_a, data_b)))
    return differences, len(names)


def _first_difference(a, b) -> str:
    """Return where two outputs first differ: a line, and each side from its first change."""
    if a is None or b is None:
        return 'written by one side only'
    lines_a, lines_b = a.decode(errors='replace').splitlines(), \
        b.decode(errors='replace').splitlines()
    for number, (x, y) in enumerate(zip(lines_a, lines_b), 1):
        if x != y:
            at = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            start = max(0, at - 20)
            return f'line {number}: {x[start:at + 50]!r} against {y[start:at + 50]!r}'
    return f'{len(lines_a)} lines against {len(lines_b)}'


def compare_speed(sides, robots, rounds: int) -> tuple:
    """
    Return each robot's median and best seconds per side (``{label: [..]}`` each).

    The sides take turns (module docstring).
    """
    medians: dict = {side.label: [] for side in sides}
    bests: dict = {side.label: [] for side in sides}
    for index, path in enumerate(robots):
        samples: dict = {side.label: [] for side in sides}
        for round_ in range(rounds):
            order = sides if (index + round_) % 2 == 0 else sides[::-1]
            for side in order:
                samples[side.label] += side.ask({'op': 'time', 'path': str(path),
                                                 'calls': 3})['times']
        for label, times in samples.items():
            medians[label].append(statistics.median(times))
            bests[label].append(min(times))
    return medians, bests


def main(argv=None) -> int:
    if argv is None and sys.argv[1:] == ['--worker']:
        return _worker()
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('against', help='the revision to compare with (anything git names)')
    parser.add_argument('--ours', help='a revision in the stead of this working tree')
    parser.add_argument('--corpus', default=str(DEFAULT_CORPUS))
    parser.add_argument('--quick', action='store_true', help='8 robots, 3 rounds')
    parser.add_argument('--rounds', type=int, default=5, help='timing rounds per robot')
    args = parser.parse_args(argv)

    robots = sorted(Path(args.corpus).glob('*.urdf'))
    rounds = args.rounds
    if args.quick:
        robots, rounds = robots[::max(1, len(robots) // 8)][:8], 3
    examples = sorted(p for p in (ROOT / 'sdf_tools' / 'examples').iterdir() if p.is_file())
    scratch = Path(tempfile.mkdtemp(prefix='sdf-tools-against-'))
    sides = []
    try:
        if args.ours:
            ours_root = scratch / 'ours'
            ours_name = f'{args.ours} = {extract(ROOT, args.ours, ours_root)[:10]}'
        else:
            ours_root, ours_name = ROOT, 'this working tree'
        theirs_name = extract(ROOT, args.against, scratch / 'theirs')[:10]
        sides = [Side('ours', ours_root, scratch), Side('theirs', scratch / 'theirs', scratch)]
        print(f'ours: {ours_name} ({sides[0].module})\ntheirs: {args.against} = '
              f'{theirs_name} ({sides[1].module})')
        differences, compared = compare_outputs(sides, robots + examples, scratch)
        print(f'\n{compared} files compared ({len(robots)} robots and {len(examples)} '
              f'examples, {len(VARIANTS)} option sets, SDFormat and messages): '
              f'{len(differences)} differ')
        for name, where in differences[:40]:
            print(f'  {name}: {where}')
        medians, bests = compare_speed(sides, robots, rounds)
        ratios = [a / b for a, b in zip(medians['ours'], medians['theirs'])]
        best_ratios = [a / b for a, b in zip(bests['ours'], bests['theirs'])]
        mid_ours = statistics.median(medians['ours'])
        mid_theirs = statistics.median(medians['theirs'])
        print(f'\nspeed over {len(robots)} robots ({rounds} rounds of 3 calls, in turns): '
              f'median ours {mid_ours * 1e3:.2f} ms, theirs {mid_theirs * 1e3:.2f} ms, '
              f'ratio of medians {mid_ours / mid_theirs:.3f}; per-robot ratio ours/theirs '
              f'median {statistics.median(ratios):.3f} (range {min(ratios):.3f}-'
              f'{max(ratios):.3f}); total {sum(medians["ours"]) * 1e3:.1f} ms against '
              f'{sum(medians["theirs"]) * 1e3:.1f} ms; best of each side: per-robot ratio '
              f'median {statistics.median(best_ratios):.3f}, total {sum(bests["ours"]) * 1e3:.1f}'
              f' ms against {sum(bests["theirs"]) * 1e3:.1f} ms')
        return 1 if differences else 0
    finally:
        for side in sides:
            side.close()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
