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
sdf_tools diff over ../shared/corpus: each robot against itself, our SDFormat and libsdformat's.

A robot equals itself and our SDFormat of it. Against libsdformat 12.3's SDFormat (``oracle
convert robot.urdf``) every remaining difference is one of the documented rules
(:mod:`diff_rules`, named as in :data:`conversion_rules.RULES`); where 12.3's SDFormat cannot
be read at all, the reason is one of them too (:data:`UNREADABLE`). Needs the corpus, and
for the libsdformat test the oracle; skips with the reason otherwise.
"""

import conversion_rules
import diff_rules
import pytest
from sdf_tools.comparing import diff
from sdf_tools.comparing.report import to_text
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import SdfToolsError
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import to_sdf
import support

FILES = support.corpus_files()
pytestmark = pytest.mark.skipif(not FILES, reason=support.NO_CORPUS)
ORACLE = pytest.mark.skipif(support.oracle_path() is None, reason=support.NO_ORACLE)

# libsdformat 12.3 cannot convert these: lumping two massless links gives a 0/0 centre of
# mass, which it then refuses ("Pose values must be finite").
NAN_COM = {'anymal_c', 'talos_full_v2'}
_NO_LINK = ('massless-kept', 'has no <link>')
# 12.3 writes SDFormat no reader accepts (libsdformat's own included), for these rules.
UNREADABLE = {
    'abb_irb2400': _NO_LINK, 'abb_irb6640_185_280': _NO_LINK, 'dual_panda': _NO_LINK,
    'kuka_lbr_iiwa_14_r820': _NO_LINK, 'r2d2_flexible': _NO_LINK,
    'nao_v40': ('name-clash', "joint 'LAnklePitch': has the same name as a link"),
    'pr2': ('lumped-references', "<child> names 'r_gripper_palm_link', which does not exist"),
    'unitree_as2_floating': ('floating-planar', "relative_to names 'floating_base_joint'"),
}


@pytest.fixture(scope='module')
def summary():
    yield from support.rule_counts('diff against libsdformat 12.3, differences by rule:')


@pytest.mark.parametrize('path', FILES or [None], ids=support.corpus_ids() or ['none'])
def test_corpus_robot_equals_itself_and_our_sdformat_of_it(path):
    urdf = load(str(path))
    assert diff(urdf, urdf).equal
    ours = load(text=to_sdf(urdf).sdf, options=LoadOptions(source=f'{path.stem}.sdf'))
    comparison = diff(urdf, ours)
    assert comparison.equal, to_text(comparison)


@pytest.mark.oracle
@ORACLE
@pytest.mark.parametrize('path', FILES or [None], ids=support.corpus_ids() or ['none'])
def test_corpus_robot_against_libsdformat_differs_only_by_named_rules(path, tmp_path, summary):
    reference = support.run_oracle('convert', path)
    if path.stem in NAN_COM:
        assert reference.returncode == 1 and 'Pose values must be finite' in reference.stderr
        return
    assert reference.returncode == 0, reference.stderr
    theirs = tmp_path / f'{path.stem}.sdf'
    theirs.write_text(reference.stdout)
    if path.stem in UNREADABLE:
        rule, message = UNREADABLE[path.stem]
        with pytest.raises(SdfToolsError, match=message.replace('(', r'\(')):
            load(str(theirs))
        summary[f'{rule} (unreadable)'] = summary.get(f'{rule} (unreadable)', 0) + 1
        return
    urdf = load(str(path))
    comparison = diff(urdf, load(str(theirs)))
    counts, unexplained = conversion_rules.explain(
        comparison.differences, diff_rules.Context(urdf.robot, urdf_to_sdf(urdf.robot),
                                                   comparison), diff_rules.PREDICATES)
    for rule, n in counts.items():
        summary[rule] = summary.get(rule, 0) + n
    assert not unexplained, '\n'.join(map(str, unexplained))


def test_every_rule_used_is_documented():
    assert set(diff_rules.PREDICATES) <= set(conversion_rules.RULES)
    assert {rule for rule, _ in UNREADABLE.values()} <= set(conversion_rules.RULES)
