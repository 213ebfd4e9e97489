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
Long fuzzing run: the harness of ``test/fuzzing.py`` with a large budget.

Six input sources share the budget equally: generated URDF, SDFormat and Kinematics-DSL
documents (hypothesis strategies) and mutations of the URDF corpus, of SDFormat files and of
the DSL test files. Every input goes through its reader, the converter, both writers and the
kinematics (see ``test/fuzzing.py``). Violations of the oracle are collected, not raised, and
the inputs that caused them are saved under ``--save`` for replay.

    python3 bench/fuzz.py [--examples 100000] [--seed 1] [--sources urdf,sdf,...]
                          [--json OUT] [--save DIR]

The report gives the inputs fuzzed per source, the calls and outcomes (exception types) per
target, the calls over 2 s, the longest call, the peak resident memory and its growth over
the run, and the largest tracemalloc peak of one input (sampled every ``--trace-every``
inputs). The exit status is 1 when there is any violation.
"""

import argparse
import gc
import json
import os
from pathlib import Path
import random
import sys
import time
import tracemalloc
import warnings

HERE = Path(__file__).resolve().parent
REPO_DIR = HERE.parent
for path in (REPO_DIR, REPO_DIR / 'test'):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from hypothesis import given  # noqa: E402 - after the path set-up
from hypothesis import HealthCheck  # noqa: E402
from hypothesis import Phase  # noqa: E402
from hypothesis import seed as hypothesis_seed  # noqa: E402
from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import fuzzing  # noqa: E402, I100
import support  # noqa: E402

SOURCES = ('urdf', 'sdf', 'kindsl', 'mutate-urdf', 'mutate-sdf', 'mutate-kindsl')
#: Examples per hypothesis run (see :func:`run_generated`).
CHUNK = 1000


class Run:
    """One fuzzing run: the oracle, the memory samples and the progress line."""

    def __init__(self, trace_every: int, save: Path | None):
        self.oracle = fuzzing.Oracle(strict=False)
        self.trace_every = trace_every
        self.save = save
        self.count = 0
        self.max_traced = 0
        self.last_report = time.monotonic()
        self.saved = 0

    def feed(self, kind: str, data, pipeline) -> None:
        """Run one input through its pipeline."""
        self.count += 1
        self.oracle.begin(kind, data)
        before = len(self.oracle.violations)
        traced = self.trace_every and self.count % self.trace_every == 0
        if traced:
            tracemalloc.start()
        try:
            pipeline()
        finally:
            if traced:
                self.max_traced = max(self.max_traced, tracemalloc.get_traced_memory()[1])
                tracemalloc.stop()
        if len(self.oracle.violations) > before:
            self._save(kind, data, self.oracle.violations[before:])
        now = time.monotonic()
        if now - self.last_report > 15.0:
            self.last_report = now
            print(f'  {self.count} inputs, {len(self.oracle.violations)} violations, '
                  f'peak RSS {fuzzing.peak_rss_mb():.0f} MB', flush=True)

    def _save(self, kind: str, data, violations) -> None:
        """Save an input (first line: its repr, for ast.literal_eval) and what it broke."""
        if self.save is None or self.saved >= 500:
            return
        self.save.mkdir(parents=True, exist_ok=True)
        self.saved += 1
        path = self.save / f'{self.saved:03d}-{kind.replace(" ", "-")}.txt'
        path.write_text(repr(data) + '\n\n' + '\n\n'.join(map(str, violations)) + '\n',
                        encoding='utf-8')


def run_generated(run: Run, source: str, n: int, seed: int) -> None:
    """
    Feed ``n`` documents of one hypothesis strategy.

    In runs of at most :data:`CHUNK` examples with successive seeds: hypothesis keeps
    bookkeeping for every example of a run (about 60 kB each), released when the run ends.
    """
    if source == 'urdf':
        strategy, kind = fuzzing.urdf_documents(), 'generated URDF'
    elif source == 'sdf':
        strategy, kind = fuzzing.sdf_documents(), 'generated SDFormat'
    else:
        strategy, kind = fuzzing.kindsl_documents(), 'generated DSL'

    def body(example, rng):
        if source == 'urdf':
            run.feed(kind, example, lambda: fuzzing.urdf_pipeline(run.oracle, example, rng))
        elif source == 'sdf':
            run.feed(kind, example, lambda: fuzzing.sdf_pipeline(run.oracle, example, rng))
        else:
            text, parameters = example
            run.feed(kind, example, lambda: fuzzing.kindsl_pipeline(run.oracle, text,
                                                                    parameters, rng))

    start = run.oracle.inputs[kind]
    stalled = 0
    while run.oracle.inputs[kind] - start < n and stalled < 5:
        before = run.oracle.inputs[kind]
        todo = min(CHUNK, n - (before - start))
        test = settings(max_examples=todo, database=None, deadline=None,
                        phases=[Phase.generate], suppress_health_check=list(HealthCheck))(
            hypothesis_seed(seed)(given(strategy, st.randoms(use_true_random=False))(body)))
        test()
        seed += 1000
        stalled = stalled + 1 if run.oracle.inputs[kind] == before else 0


def run_mutated(run: Run, source: str, n: int, seed: int, seeds: dict) -> None:
    """Feed ``n`` mutations of the seeds of one format."""
    rng = random.Random(seed)
    items = seeds[source]
    for _ in range(n):
        original = rng.choice(items)
        if source == 'mutate-urdf':
            data = fuzzing.mutate(original, rng)
            run.feed('mutated URDF', data, lambda: fuzzing.urdf_pipeline(run.oracle, data, rng))
        elif source == 'mutate-sdf':
            data = fuzzing.mutate(original, rng)
            run.feed('mutated SDFormat', data,
                     lambda: fuzzing.sdf_pipeline(run.oracle, data, rng))
        else:
            text = fuzzing.mutate_text(original, rng)
            params = rng.choice((None, {'p': 1.0}, {'x': float('nan')}))
            run.feed('mutated DSL', text,
                     lambda: fuzzing.kindsl_pipeline(run.oracle, text, params, rng))


def report(run: Run, seconds: float, rss_start: float) -> dict:
    """Print the figures and return them as a dict."""
    oracle = run.oracle
    result = {
        'inputs': dict(oracle.inputs),
        'total_inputs': sum(oracle.inputs.values()),
        'seconds': round(seconds, 1),
        'targets': {name: {'calls': s.calls, 'outcomes': dict(s.outcomes),
                           'max_seconds': round(s.max_seconds, 4), 'over_2s': s.slow}
                    for name, s in sorted(oracle.stats.items())},
        'violations': len(oracle.violations),
        'known_bug_hits': len(oracle.known),
        'peak_rss_mb': round(fuzzing.peak_rss_mb(), 1),
        'rss_start_mb': round(rss_start, 1),
        'rss_end_mb': round(fuzzing.current_rss_mb(), 1),
        'max_traced_input_mb': round(run.max_traced / 2**20, 2),
    }
    print(f'\n{result["total_inputs"]} inputs in {seconds:.0f} s')
    for kind, count in sorted(oracle.inputs.items()):
        print(f'  {kind:20} {count}')
    print(f'\n{"target":40} {"calls":>8} {"max s":>8} {">2s":>4}  outcomes')
    for name, s in sorted(oracle.stats.items()):
        outcomes = ', '.join(f'{k} {v}' for k, v in s.outcomes.most_common())
        print(f'{name:40} {s.calls:8} {s.max_seconds:8.4f} {s.slow:4}  {outcomes}')
    longest = max((s.max_seconds for s in oracle.stats.values()), default=0.0)
    print(f'\nlongest call {longest:.3f} s; calls over {fuzzing.SLOW_SECONDS:g} s: '
          f'{sum(s.slow for s in oracle.stats.values())}')
    print(f'peak RSS {result["peak_rss_mb"]} MB (RSS {result["rss_start_mb"]} MB after '
          f'set-up, {result["rss_end_mb"]} MB at the end); largest traced peak of one '
          f'input {result["max_traced_input_mb"]} MB')
    print(f'violations: {len(oracle.violations)} (and {len(oracle.known)} hits of known bugs)')
    shown = {}
    for v in oracle.violations:
        key = (v.target, v.problem.split(':')[0])
        shown.setdefault(key, v)
    for v in list(shown.values())[:20]:
        print(f'\n--- {v}\ninput: {fuzzing._show(v.data, 600)}')
    if run.save is not None:
        run.save.mkdir(parents=True, exist_ok=True)
        for name, s in oracle.stats.items():
            if s.slowest is not None and s.max_seconds > 0.1:
                path = run.save / f'slowest-{name.replace(" ", "-").replace("/", "-")}.txt'
                path.write_text(f'{s.slowest!r}\n\n{name}: {s.max_seconds:.3f} s\n',
                                encoding='utf-8')
    return result


def main(argv=None) -> int:
    """Run the fuzzer; return 1 if the oracle was violated."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--examples', type=int,
                        default=int(os.environ.get('SDF_TOOLS_FUZZ_EXAMPLES', '100000')),
                        help='total inputs, shared by the sources (default 100000, or '
                        '$SDF_TOOLS_FUZZ_EXAMPLES)')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--sources', default=','.join(SOURCES),
                        help='comma-separated subset of ' + ', '.join(SOURCES))
    parser.add_argument('--trace-every', type=int, default=200,
                        help='measure the tracemalloc peak of every Nth input (0: never)')
    parser.add_argument('--json', help='write the figures here')
    parser.add_argument('--save', type=Path, help='save violating inputs in this directory')
    args = parser.parse_args(argv)
    # numpy's overflow warnings for the huge values fed on purpose are noise here.
    warnings.simplefilter('ignore', RuntimeWarning)
    sources = [s for s in args.sources.split(',') if s]
    unknown = set(sources) - set(SOURCES)
    if unknown:
        parser.error(f'unknown sources: {", ".join(sorted(unknown))}')

    urdf = fuzzing.urdf_seeds(support.CORPUS_DIR, support.DATA_DIR)
    seeds = {'mutate-urdf': urdf, 'mutate-sdf': fuzzing.sdf_seeds(urdf, support.DATA_DIR),
             'mutate-kindsl': fuzzing.kindsl_seeds(support.DATA_DIR)}
    print(f'seeds: {len(urdf)} URDF, {len(seeds["mutate-sdf"])} SDFormat, '
          f'{len(seeds["mutate-kindsl"])} DSL; {args.examples} inputs over '
          f'{", ".join(sources)}', flush=True)
    run = Run(args.trace_every, args.save)
    rss_start = fuzzing.current_rss_mb()
    start = time.perf_counter()
    share = args.examples // len(sources)
    rss_after = {}
    for i, source in enumerate(sources):
        n = share + (1 if i < args.examples % len(sources) else 0)
        print(f'{source}: {n} inputs', flush=True)
        if source.startswith('mutate-'):
            run_mutated(run, source, n, args.seed + i, seeds)
        else:
            run_generated(run, source, n, args.seed + i)
        gc.collect()
        rss_after[source] = round(fuzzing.current_rss_mb(), 1)
        print(f'  RSS after {source}: {rss_after[source]} MB', flush=True)
    result = report(run, time.perf_counter() - start, rss_start)
    result['rss_after_source_mb'] = rss_after
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + '\n')
    return 1 if run.oracle.violations else 0


if __name__ == '__main__':
    sys.exit(main())
