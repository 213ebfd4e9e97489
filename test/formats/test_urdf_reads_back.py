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
The URDF the writer makes of an SDFormat model reads back (sdf_tools.formats.urdf.writer).

What ``sdf_tools convert --to urdf --lossy`` writes, for the SDFormat test models and for
corpus robots converted to SDFormat (``sdf_tools convert robot.urdf``) and read back, must be
accepted by ``sdf_tools check`` (no error), by ``urdf2sdf`` and by pinocchio (a URDF is a
tree). A handful runs by default; the whole corpus is marked slow.
"""

import pytest
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.loading import check
from sdf_tools.loading import errors_in
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import to_sdf
from sdf_tools.model import Limit
import support

SDF_DIR = support.DATA_DIR / 'sdf'
# Nested models, a closed loop, every joint kind, SDFormat 1.4's limits, a world's model.
SDF_MODELS = [('nested.sdf', None), ('four_bar.sdf', None), ('joint_types.sdf', None),
              ('version_rules_1_4.sdf', None), ('world.sdf', 'pendulum')]
# Continuous wheels, visuals of many materials, gripper loops.
CORPUS = ['husky', 'a1_gazebo', 'pr2']


def assert_reads_back(robot, tmp_path):
    """Write a model as the CLI's --lossy does; assert check, urdf2sdf and pinocchio take it."""
    pinocchio = pytest.importorskip('pinocchio')
    text, _ = write_urdf(robot, lossy=True, unlimited_prismatic=Limit(-1.0, 1.0, 10.0, 1.0))
    loaded = load(text=text, options=LoadOptions(fmt='urdf', source=f'{robot.name}.urdf'))
    problems = check(loaded)
    assert errors_in(problems) == 0, [str(d) for d in problems]
    to_sdf(loaded)  # raises what urdf2sdf refuses
    path = tmp_path / f'{robot.name}.urdf'
    path.write_text(text)
    model = pinocchio.buildModelFromUrdf(str(path))
    bodies = {f.name for f in model.frames if f.type == pinocchio.FrameType.BODY}
    assert bodies == {link.name for link in loaded.robot.links}


def corpus_round_trip(name, tmp_path):
    path = support.CORPUS_DIR / f'{name}.urdf'
    if not path.is_file():
        pytest.skip(support.NO_CORPUS)
    sdf = to_sdf(load(str(path))).sdf
    assert_reads_back(parse_sdf(sdf, f'{name}.sdf'), tmp_path)


@pytest.mark.parametrize('name, model', SDF_MODELS, ids=[n for n, _ in SDF_MODELS])
def test_sdformat_models_read_back_as_urdf(name, model, tmp_path):
    loaded = load(str(SDF_DIR / name), LoadOptions(model=model))
    assert_reads_back(loaded.robot, tmp_path)


@pytest.mark.parametrize('name', CORPUS)
def test_corpus_robots_read_back_through_sdformat(name, tmp_path):
    corpus_round_trip(name, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize('path', support.corpus_files() or [None], ids=support.corpus_ids()
                         or ['no-corpus'])
def test_every_corpus_robot_reads_back_through_sdformat(path, tmp_path):
    if path is None:
        pytest.skip(support.NO_CORPUS)
    if path.stem in CORPUS:
        pytest.skip('run by default (test_corpus_robots_read_back_through_sdformat)')
    corpus_round_trip(path.stem, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize('path', sorted(SDF_DIR.glob('*.sdf')), ids=lambda p: p.stem)
def test_every_sdformat_test_model_reads_back(path, tmp_path):
    if path.name in [n for n, _ in SDF_MODELS]:
        pytest.skip('run by default (test_sdformat_models_read_back_as_urdf)')
    assert_reads_back(load(str(path)).robot, tmp_path)
