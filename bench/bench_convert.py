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

For every corpus robot: our in-process conversion (parse + convert + serialise to text),
median of repeated runs, and libsdformat 12.3's in-process conversion as the oracle's
``time FILE 1`` measures it (schema init + read/convert + print, what ``gz sdf -p`` does;
median of as many oracle processes as our repeats, each after an untimed warm-up),
plus the floor of any Python converter: an lxml parse and serialise of the same file.
Then time and peak memory on generated chains of 100, 1,000 and 10,000 links.

    python3 bench/bench_convert.py [--quick] [--json OUT] [--oracle PATH] [--corpus DIR]

libsdformat 12.3 fails on robots whose lumping gives a 0/0 centre of mass (anymal_c,
talos_full_v2); for those its time is measured on a copy with zero masses set to 0.001 kg,
as research/perf_anchors.md does, and marked.
"""

import argparse
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
from sdf_tools.to_sdf import urdf_to_sdf
from sdf_tools.urdf import parse_urdf

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


def _oracle_run(oracle, path, runs):
    """
    Return the median seconds of one conversion, and of its read/convert/print part.

    Each of ``runs`` oracle processes times one conversion after its untimed warm-up; the
    median, as for our side, keeps a shared machine's outliers out of the ratio. ``None``
    when libsdformat fails.
    """
    totals, parts = [], []
    for _ in range(runs):
        proc = subprocess.run([oracle, 'time', str(path), '1'], capture_output=True,
                              text=True, timeout=600)
        if proc.returncode != 0:
            return None
        totals.append(float(proc.stdout.strip()))
        split = _SPLIT.search(proc.stderr)
        if split:
            parts.append(float(split.group(1)))
    return statistics.median(totals), statistics.median(parts) if parts else None


def oracle_time(oracle, path, runs):
    """
    Return ``((total, without schema init), note)`` from ``oracle time``.

    ``total`` is what ``gz sdf -p`` pays per file (its schema init included, about 30 ms
    here); the second figure leaves that robot-independent start-up out. ``(None, None)``
    if libsdformat fails.
    """
    result = _oracle_run(oracle, path, runs)
    if result is not None:
        return result, ''
    text = path.read_text()
    if '<mass value="0"/>' not in text:
        return (None, None), 'libsdformat failed'
    with tempfile.NamedTemporaryFile('w', suffix='.urdf', delete=False) as f:
        f.write(text.replace('<mass value="0"/>', '<mass value="0.001"/>'))
    try:
        result = _oracle_run(oracle, f.name, runs)
    finally:
        os.unlink(f.name)
    if result is None:
        return (None, None), 'libsdformat failed'
    return result, 'libsdformat fails; timed on a copy without zero masses'


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
    args = parser.parse_args(argv)

    repeats = 5 if args.quick else 15
    oracle_runs = repeats
    files = sorted(Path(args.corpus).glob('*.urdf'))
    if args.quick:
        files = files[::max(1, len(files) // 8)][:8]
    have_oracle = os.access(args.oracle, os.X_OK)
    if not have_oracle:
        print(f'(no oracle at {args.oracle}: build it with tools/sdformat_oracle/build.sh; '
              'only our times are reported)', file=sys.stderr)
    rows = []
    print(f'{"robot":36s} {"ours ms":>8s} {"lxml ms":>8s} {"libsdf ms":>10s} {"ratio":>7s} '
          f'{"no-init ms":>10s} {"ratio":>7s}')
    nan = float('nan')
    for path in files:
        data = path.read_bytes()
        t_ours = median_time(lambda: ours(data, path.name), repeats)
        t_floor = median_time(lambda: lxml_floor(data), repeats)
        (t_lib, t_conv), note = (oracle_time(args.oracle, path, oracle_runs) if have_oracle
                                 else ((None, None), ''))
        ratio = t_ours / t_lib if t_lib else None
        ratio_conv = t_ours / t_conv if t_conv else None
        rows.append({'robot': path.stem, 'ours_s': t_ours, 'lxml_floor_s': t_floor,
                     'libsdformat_s': t_lib, 'libsdformat_without_init_s': t_conv,
                     'ratio': ratio, 'ratio_without_init': ratio_conv, 'note': note})
        print(f'{path.stem:36s} {t_ours * 1e3:8.2f} {t_floor * 1e3:8.2f} '
              f'{(t_lib or nan) * 1e3:10.1f} {(ratio or nan):7.3f} '
              f'{(t_conv or nan) * 1e3:10.1f} {(ratio_conv or nan):7.3f} {note}')
    ratios = [r['ratio'] for r in rows if r['ratio'] is not None]
    ratios_conv = [r['ratio_without_init'] for r in rows if r['ratio_without_init']]
    summary = {
        'robots': len(rows),
        'median_ours_ms': statistics.median(r['ours_s'] for r in rows) * 1e3 if rows else None,
        'median_ratio': statistics.median(ratios) if ratios else None,
        'max_ratio': max(ratios) if ratios else None,
        'median_ratio_without_init': statistics.median(ratios_conv) if ratios_conv else None,
    }
    if ratios:
        print(f'\nmedian ratio ours/libsdformat {summary["median_ratio"]:.4f} '
              f'(libsdformat is {1 / summary["median_ratio"]:.0f}x slower), max '
              f'{summary["max_ratio"]:.4f}, over {len(ratios)} robots')
    if ratios_conv:
        print(f'without its schema init: median ratio '
              f'{summary["median_ratio_without_init"]:.4f} (libsdformat '
              f'{1 / summary["median_ratio_without_init"]:.0f}x slower), range '
              f'{min(ratios_conv):.3f}-{max(ratios_conv):.3f}')

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
