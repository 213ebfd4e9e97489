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
URDF -> SDFormat speed: sdf_tools against libsdformat, side by side in one run.

For every corpus robot: our in-process conversion (parse + convert + serialise to text)
and libsdformat 12.3's in-process conversion as the oracle's ``time FILE 1`` measures it
(schema init + read/convert + print, what ``gz sdf -p`` does; one conversion per oracle
process, after an untimed warm-up). The two take turns (a warm-up and three timed runs of
ours, then one oracle process; 15 rounds) so that the shared machine's load falls on both
alike; each figure is a median. Plus the floor of any Python converter: an lxml parse and
serialise of the same file.
Then time and peak memory on generated chains of 100, 1,000 and 10,000 links.

    python3 bench/bench_convert.py [--quick] [--json OUT] [--oracle PATH] [--corpus DIR]
    python3 bench/bench_convert.py --against REV [--quick] [--corpus DIR]

``--against REV``: this tree against another revision instead, output bytes and speed
(bench_against.py, which says more).

libsdformat 12.3 fails on robots whose lumping gives a 0/0 centre of mass (anymal_c,
talos_full_v2); for those its time is measured on a copy with zero masses set to 0.001 kg,
as research/perf_anchors.md does, and marked.
"""

import argparse
import contextlib
import json
import os
from pathlib import Path
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc

from lxml import etree
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.formats.urdf.reader import parse_urdf

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / 'shared' / 'corpus' / 'urdf'


def median_time(func, repeats, min_seconds=0.05):
    """Return the median wall time of ``func()`` over ``repeats`` runs (after a warm-up)."""
    func()
    times = []
    start = time.perf_counter()
    while len(times) < repeats or (time.perf_counter() - start < min_seconds
                                   and len(times) < 10 * repeats):
        t0 = time.perf_counter()
        func()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def ours(data, name):
    return urdf_to_sdf(parse_urdf(data, name)).sdf


def lxml_floor(data):
    return etree.tostring(etree.fromstring(data), encoding='unicode')


_SPLIT = re.compile(r'read/convert/print ([0-9.eE+-]+) s')


def _oracle_once(oracle, path):
    """
    Return libsdformat's seconds for one conversion, and for its read/convert/print part.

    One oracle process times one conversion after its untimed warm-up. ``None`` when
    libsdformat fails.
    """
    proc = subprocess.run([oracle, 'time', str(path), '1'], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        return None
    split = _SPLIT.search(proc.stderr)
    return float(proc.stdout.strip()), float(split.group(1)) if split else None


def oracle_target(oracle, path, stack, succeeds=None):
    """
    Return ``(file to time, note)`` for libsdformat.

    The robot itself, or, where libsdformat fails on a zero-mass lump (0/0 centre of mass),
    a temporary copy with zero masses set to 0.001 kg (removed by ``stack``); ``None`` where
    it fails anyway. ``succeeds(file)`` says whether libsdformat converts a file (default:
    ``oracle time`` succeeds; bench_process.py asks ``oracle convert``).
    """
    if succeeds is None:
        def succeeds(file):
            return _oracle_once(oracle, file) is not None

    if succeeds(path):
        return path, ''
    text = Path(path).read_text()
    if '<mass value="0"/>' in text:
        with tempfile.NamedTemporaryFile('w', suffix='.urdf', delete=False) as f:
            f.write(text.replace('<mass value="0"/>', '<mass value="0.001"/>'))
        stack.callback(os.unlink, f.name)
        if succeeds(f.name):
            return f.name, 'libsdformat fails; timed on a copy without zero masses'
    return None, 'libsdformat fails'


def side_by_side(oracle, path, func, rounds, calls_per_round=3):
    """
    Return ``(samples, note)``: seconds per conversion, ours and libsdformat's.

    ``samples`` maps ``ours``, ``libsdformat`` and ``libsdformat_without_init`` to lists
    (libsdformat's empty without an oracle or where it fails). The two sides take turns:
    each round runs ``func`` once untimed (as each oracle process warms up before its timed
    conversion) and times it ``calls_per_round`` times, then runs one oracle process, so
    that a burst of load on the shared machine falls on both alike.
    """
    samples = {'ours': [], 'libsdformat': [], 'libsdformat_without_init': []}
    with contextlib.ExitStack() as stack:
        target, note = oracle_target(oracle, path, stack) if oracle else (None, '')
        for _ in range(rounds):
            func()  # warm-up: the oracle process just ran
            for _ in range(calls_per_round):
                t0 = time.perf_counter()
                func()
                samples['ours'].append(time.perf_counter() - t0)
            result = _oracle_once(oracle, target) if target is not None else None
            if result is not None:
                samples['libsdformat'].append(result[0])
                if result[1] is not None:
                    samples['libsdformat_without_init'].append(result[1])
    return samples, note


def _ratio(ours, theirs, statistic):
    return statistic(ours) / statistic(theirs) if ours and theirs else None


def chain(n):
    """Return a URDF chain of ``n`` links, every third joint fixed, with visuals and tags."""
    parts = ['<robot name="chain">']
    inertial = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                'izz="1"/></inertial>')
    for i in range(n):
        parts.append(f'<link name="l{i}">{inertial}<visual><geometry><box size="1 1 1"/>'
                     '</geometry></visual><collision><geometry><sphere radius="0.1"/>'
                     '</geometry></collision></link>')
        if i:
            kind = 'fixed' if i % 3 == 0 else 'revolute'
            parts.append(f'<joint name="j{i}" type="{kind}"><parent link="l{i - 1}"/>'
                         f'<child link="l{i}"/><origin xyz="0 0 0.1" rpy="0 0.1 0"/>'
                         '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" '
                         'velocity="1"/></joint>')
        if i % 5 == 0:
            parts.append(f'<gazebo reference="l{i}"><mu1>0.5</mu1><sensor name="s{i}" '
                         'type="imu"><pose>0 0 0.1 0 0 0</pose></sensor></gazebo>')
    parts.append('</robot>')
    return '\n'.join(parts).encode()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--quick', action='store_true', help='fewer repeats, 8 robots')
    parser.add_argument('--json', help='write the results here')
    parser.add_argument('--oracle', default=os.environ.get('SDF_TOOLS_ORACLE',
                                                           '/tmp/sdformat_oracle'))
    parser.add_argument('--corpus', default=str(DEFAULT_CORPUS))
    parser.add_argument('--against', metavar='REV',
                        help='compare output bytes and speed with REV (bench_against.py)')
    args = parser.parse_args(argv)
    if args.against:
        from bench_against import main as against
        return against([args.against, '--corpus', args.corpus,
                        *(['--quick'] if args.quick else [])])

    repeats = 5 if args.quick else 15
    files = sorted(Path(args.corpus).glob('*.urdf'))
    if args.quick:
        files = files[::max(1, len(files) // 8)][:8]
    have_oracle = os.access(args.oracle, os.X_OK)
    if not have_oracle:
        print(f'(no oracle at {args.oracle}: build it with tools/sdformat_oracle/build.sh; '
              'only our times are reported)', file=sys.stderr)
    rows = []
    print(f'{"robot":36s} {"ours ms":>8s} {"lxml ms":>8s} {"libsdf ms":>10s} {"ratio":>7s} '
          f'{"no-init ms":>10s} {"ratio":>7s} {"best-of":>8s}')
    nan = float('nan')
    median = statistics.median
    for path in files:
        data = path.read_bytes()
        samples, note = side_by_side(args.oracle if have_oracle else None, path,
                                     lambda: ours(data, path.name), repeats)
        t_floor = median_time(lambda: lxml_floor(data), repeats)
        mine, lib, conv = (samples['ours'], samples['libsdformat'],
                           samples['libsdformat_without_init'])
        row = {'robot': path.stem, 'ours_s': median(mine), 'lxml_floor_s': t_floor,
               'libsdformat_s': median(lib) if lib else None,
               'libsdformat_without_init_s': median(conv) if conv else None,
               'ratio': _ratio(mine, lib, median),
               'ratio_without_init': _ratio(mine, conv, median),
               'ratio_best_of': _ratio(mine, lib, min), 'note': note, 'samples': samples}
        rows.append(row)
        print(f'{path.stem:36s} {row["ours_s"] * 1e3:8.2f} {t_floor * 1e3:8.2f} '
              f'{(row["libsdformat_s"] or nan) * 1e3:10.1f} {(row["ratio"] or nan):7.3f} '
              f'{(row["libsdformat_without_init_s"] or nan) * 1e3:10.1f} '
              f'{(row["ratio_without_init"] or nan):7.3f} '
              f'{(row["ratio_best_of"] or nan):8.3f} {note}')

    def summarise(key):
        values = [r[key] for r in rows if r[key] is not None]
        return (median(values), min(values), max(values)) if values else None

    summary = {
        'robots': len(rows),
        'median_ours_ms': median(r['ours_s'] for r in rows) * 1e3 if rows else None,
        'ratio': summarise('ratio'),
        'ratio_without_init': summarise('ratio_without_init'),
        'ratio_best_of': summarise('ratio_best_of'),
    }
    for key, what in (('ratio', 'ours/libsdformat (medians)'),
                      ('ratio_without_init', 'without its schema init'),
                      ('ratio_best_of', 'best of each side')):
        if summary[key] is not None:
            mid, low, high = summary[key]
            print(f'{"" if key != "ratio" else chr(10)}{what}: median ratio {mid:.4f} '
                  f'(libsdformat {1 / mid:.0f}x slower), range {low:.3f}-{high:.3f}, '
                  f'over {len(rows)} robots')

    print(f'\n{"chain links":>12s} {"ms":>9s} {"us/link":>9s} {"peak MiB":>9s}')
    scaling = []
    for n in (100, 1000, 10000):
        data = chain(n)
        t = median_time(lambda: ours(data, 'chain'), {100: 21, 1000: 5}.get(n, 3), 0.0)
        tracemalloc.start()
        ours(data, 'chain')
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        scaling.append({'links': n, 's': t, 'us_per_link': t / n * 1e6,
                        'peak_mib': peak / 2 ** 20})
        print(f'{n:12d} {t * 1e3:9.1f} {t / n * 1e6:9.1f} {peak / 2 ** 20:9.1f}')
    summary['scaling'] = scaling
    if args.json:
        Path(args.json).write_text(json.dumps({'rows': rows, 'summary': summary}, indent=2))
    return 0


if __name__ == '__main__':
    sys.exit(main())
