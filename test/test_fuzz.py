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
Fuzzing in CI: a short, seeded, deterministic run of the harness in ``test/fuzzing.py``.

Generated URDF, SDFormat and Kinematics-DSL documents (hypothesis, derandomized) and
mutations of the corpus and test files (seeded) go through the readers, the converter, both
writers and the kinematics; any call that raises an undocumented exception, takes more than
two seconds or returns a diagnostic without a message fails the test (hypothesis then
shrinks the input). Memory must not grow over a run.

The budget is about 3,000 inputs (some 40 s). ``SDF_TOOLS_FUZZ_EXAMPLES=N`` runs N inputs
per test instead; ``python3 bench/fuzz.py --examples 100000`` is the long run with a report.
"""

import math
import os
import random
import time

from hypothesis import given
from hypothesis import HealthCheck
from hypothesis import settings
from hypothesis import strategies as st
import numpy as np
import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic

import fuzzing  # noqa: I100 - the test helpers, after the package
import support

LONG = int(os.environ.get('SDF_TOOLS_FUZZ_EXAMPLES', '0'))


def budget(short: int) -> int:
    return LONG or short


def fuzz_settings(examples: int):
    return settings(max_examples=budget(examples), derandomize=True, database=None,
                    deadline=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


@pytest.fixture(scope='module')
def seeds():
    urdf = fuzzing.urdf_seeds(support.CORPUS_DIR, support.DATA_DIR)
    return {'urdf': urdf, 'sdf': fuzzing.sdf_seeds(urdf, support.DATA_DIR),
            'kindsl': fuzzing.kindsl_seeds(support.DATA_DIR)}


def _burn_cpu(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


# --- the oracle can fail --------------------------------------------------------------------

def test_the_oracle_flags_undocumented_exceptions_slow_calls_and_empty_diagnostics(monkeypatch):
    oracle = fuzzing.Oracle(strict=True)
    oracle.begin('probe', b'<robot/>')
    assert oracle.call('ok', (), lambda: 42) == 42
    assert oracle.call('documented', (DescriptionError,), _raise(DescriptionError(
        Diagnostic('bad')))) is None
    with pytest.raises(fuzzing.FuzzViolation,
                       match=r"undocumented ZeroDivisionError[\s\S]*input: b'<robot/>'"):
        oracle.call('crash', (DescriptionError,), lambda: 1 / 0)
    with pytest.raises(fuzzing.FuzzViolation, match='error without any diagnostic'):
        oracle.call('empty', (DescriptionError,), _raise(DescriptionError([])))
    with pytest.raises(fuzzing.FuzzViolation, match='diagnostic without a message'):
        oracle.call('blank', (DescriptionError,), _raise(DescriptionError(Diagnostic(' '))))
    monkeypatch.setattr(fuzzing, 'SLOW_SECONDS', 0.01)
    with pytest.raises(fuzzing.FuzzViolation, match=r'took 0.\d+ s \(limit 0.01 s\)'):
        oracle.call('slow', (), _burn_cpu, 0.05)  # CPU time counts, not waiting
    monkeypatch.setattr(fuzzing, 'HANG_SECONDS', 0.05)
    with pytest.raises(fuzzing.FuzzViolation, match='still running after 0.05 s'):
        oracle.call('hang', (), _burn_cpu, 5.0)  # stopped after 0.05 s of CPU time
    # Known (reported, xfail-tracked) bugs are counted apart, others still fail.
    monkeypatch.setattr(fuzzing, 'KNOWN_BUGS', ((None, 'ZeroDivisionError', 'known_crash'),))

    def known_crash():
        return 1 / 0

    assert oracle.call('known', (), known_crash) is None
    assert oracle.stats['known'].outcomes == {'ZeroDivisionError (known bug)': 1}
    assert [v.target for v in oracle.known] == ['known']
    with pytest.raises(fuzzing.FuzzViolation, match='undocumented ZeroDivisionError'):
        oracle.call('other', (), lambda: 1 / 0)
    lenient = fuzzing.Oracle(strict=False)
    lenient.call('crash', (), lambda: 1 / 0)
    assert [v.target for v in lenient.violations] == ['crash']
    assert lenient.stats['crash'].outcomes == {'ZeroDivisionError': 1}


def _raise(error):
    def func():
        raise error
    return func


def test_batch_and_single_poses_are_compared_even_past_the_largest_float():
    poses = np.tile(np.eye(4), (3, 1, 1))
    poses[1, :3, 3] = (1e300, 2.0, 3.0)
    far = poses.copy()
    far[1, 0, 3] = 1e299  # the difference of huge offsets: rounding bounds nothing at inf reach
    assert fuzzing._agree(poses, far, math.inf)
    assert not fuzzing._agree(poses, far, 1.0)
    turned = poses.copy()
    turned[2, 0, 1] = 1e-6  # rotations are compared whatever the reach
    assert not fuzzing._agree(poses, turned, math.inf)
    infinite = poses.copy()
    infinite[0, 0, 3] = math.inf
    assert not fuzzing._agree(poses, infinite)


def test_mutations_are_deterministic_and_change_the_input(seeds):
    data = seeds['urdf'][0]
    first = [fuzzing.mutate(data, random.Random(i)) for i in range(20)]
    assert first == [fuzzing.mutate(data, random.Random(i)) for i in range(20)]
    assert sum(m != data for m in first) >= 18


# --- generated documents --------------------------------------------------------------------

@fuzz_settings(450)
@given(fuzzing.urdf_documents(), st.randoms(use_true_random=False))
def test_fuzz_generated_urdf(document, rng):
    oracle = fuzzing.Oracle()
    oracle.begin('generated URDF', document)
    fuzzing.urdf_pipeline(oracle, document, rng)


@fuzz_settings(450)
@given(fuzzing.sdf_documents(), st.randoms(use_true_random=False))
def test_fuzz_generated_sdf(document, rng):
    oracle = fuzzing.Oracle()
    oracle.begin('generated SDFormat', document)
    fuzzing.sdf_pipeline(oracle, document, rng)


@fuzz_settings(450)
@given(fuzzing.kindsl_documents(), st.randoms(use_true_random=False))
def test_fuzz_generated_kindsl(document, rng):
    text, parameters = document
    oracle = fuzzing.Oracle()
    oracle.begin('generated DSL', document)
    fuzzing.kindsl_pipeline(oracle, text, parameters, rng)


# --- mutated real descriptions --------------------------------------------------------------

@pytest.mark.parametrize('kind, examples', [('urdf', 600), ('sdf', 400), ('kindsl', 600)])
def test_fuzz_mutated_descriptions(seeds, kind, examples):
    rng = random.Random(20260401)
    oracle = fuzzing.Oracle()
    outcomes = []
    rss = []
    for i in range(budget(examples)):
        if i in (50, budget(examples) - 1):
            rss.append(fuzzing.current_rss_mb())
        original = rng.choice(seeds[kind])
        if kind == 'kindsl':
            text = fuzzing.mutate_text(original, rng)
            oracle.begin('mutated DSL', text)
            fuzzing.kindsl_pipeline(oracle, text, rng.choice((None, {'p': 1.0})), rng)
        else:
            data = fuzzing.mutate(original, rng)
            oracle.begin(f'mutated {kind}', data)
            pipeline = fuzzing.urdf_pipeline if kind == 'urdf' else fuzzing.sdf_pipeline
            pipeline(oracle, data, rng)
        outcomes.append(len(oracle.stats))
    reader = {'urdf': 'parse_urdf', 'sdf': 'parse_sdf', 'kindsl': 'parse_kindsl'}[kind]
    stats = oracle.stats[reader]
    assert stats.calls == budget(examples)
    # The mutations reach every stage: some inputs still read, some are refused.
    assert stats.outcomes['ok'] > 0.05 * stats.calls, stats.outcomes
    assert stats.outcomes['DescriptionError'] > 0.05 * stats.calls, stats.outcomes
    assert oracle.stats['compile_tree'].calls > 0
    if kind == 'urdf' and support.corpus_files():
        assert oracle.stats['urdf_to_sdf'].calls > 0.05 * stats.calls
    # Bounded memory: no growth beyond allocator noise once warmed up.
    assert rss[-1] - rss[0] < 50.0, f'resident memory grew from {rss[0]:.0f} to {rss[-1]:.0f} MB'
