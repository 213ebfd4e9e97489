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
Differential test on ../shared/corpus: our SDFormat against libsdformat 12.3's.

For each corpus robot, libsdformat converts the URDF, and our SDF is passed through
libsdformat too (``oracle convert ours.sdf``), so that both sides carry the defaults
libsdformat's schema pass adds. Every difference must be explained by a rule of
conversion_rules. Our SDF must also load in libsdformat without a single error
(``oracle check``), including the robots libsdformat cannot convert itself, and be indented
as libsdformat's is.

Needs the corpus and, but for the layout test, the oracle (tools/sdformat_oracle/build.sh);
skips with the reason otherwise.
"""

import re

import conversion_rules
import pytest
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
import support
from xml_compare import compare

FILES = support.corpus_files()
pytestmark = pytest.mark.skipif(not FILES, reason=support.NO_CORPUS)
ORACLE = pytest.mark.skipif(support.oracle_path() is None,
                            reason=support.NO_ORACLE)

# libsdformat 12.3 cannot convert these: lumping two massless links gives a 0/0 centre of
# mass, which it then refuses ("Pose values must be finite").
NAN_COM = {'anymal_c', 'talos_full_v2'}


@pytest.fixture(scope='module')
def summary():
    yield from support.rule_counts('corpus differences explained, by rule:')


@pytest.mark.oracle
@ORACLE
@pytest.mark.parametrize('path', FILES or [None], ids=support.corpus_ids() or ['none'])
def test_corpus_robot_matches_libsdformat_up_to_named_rules(path, tmp_path, summary):
    robot = parse_urdf(path.read_bytes(), path.name)
    result = urdf_to_sdf(robot)
    ours = tmp_path / f'{path.stem}.sdf'
    ours.write_text(result.sdf)

    check = support.run_oracle('check', ours)
    assert check.returncode == 0, f'libsdformat reports errors in our SDF:\n{check.stdout}'

    reference = support.run_oracle('convert', path)
    if path.stem in NAN_COM:
        assert reference.returncode == 1
        assert 'Pose values must be finite' in reference.stderr
        assert not re.search(r'\b(nan|inf)\b', result.sdf, re.IGNORECASE)
        summary['nan-centre-of-mass (libsdformat fails)'] = \
            summary.get('nan-centre-of-mass (libsdformat fails)', 0) + 1
        return
    assert reference.returncode == 0, reference.stderr

    normalised = support.run_oracle('convert', ours)
    assert normalised.returncode == 0, normalised.stderr
    diffs = compare(reference.stdout, normalised.stdout)
    context = conversion_rules.Context(robot, result, path.read_bytes())
    counts, unexplained = conversion_rules.explain(diffs, context)
    for rule, n in counts.items():
        summary[rule] = summary.get(rule, 0) + n
    assert not unexplained, '\n'.join(map(str, unexplained))


@pytest.mark.parametrize('path', FILES or [None], ids=support.corpus_ids() or ['none'])
def test_corpus_output_is_indented(path):
    # One element a line, blob content included: only text the user wrote on a long line
    # (a long <param> value, say) may make a line longer than 200 characters.
    source = path.read_text()
    sdf = urdf_to_sdf(parse_urdf(source, path.name)).sdf
    long_lines = [line for line in sdf.splitlines()
                  if len(line) > 200 and line.strip() not in source]
    assert not long_lines, long_lines[0][:300]
    assert sdf.startswith('<sdf version="1.9">\n  <model name=')


def test_every_rule_is_documented():
    assert set(conversion_rules.RULES) == set(conversion_rules._PREDICATES)
    assert all(len(text) > 40 for text in conversion_rules.RULES.values())
