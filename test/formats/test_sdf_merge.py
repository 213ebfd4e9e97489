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
Tests of merge-include, ``<include merge="true">`` (:mod:`sdf_tools.formats.sdf.merge`).

As in ``test_sdf_include.py``, each fixture is a set of model folders in ``tmp_path/models``
and a file including them; the oracle (libsdformat 12.3, ``SDF_PATH`` naming the models
folder) lists the names and model-frame poses of what the merge gives the including model,
and every one must be ours. A few positions are also worked out by hand, so that the tests
check something without the oracle.

The poses here have at most six significant digits where libsdformat 12.3 computes the
merged model's frame: it writes that pose with six digits (``test_merged_pose_precision``).
"""

import math

from model_folders import make_model
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from test_sdf_include import oracle
from test_sdf_include import read
from test_sdf_include import read_case
from test_sdf_include import write
from test_sdf_reader import assert_pose
from test_sdf_reader import max_error
from test_sdf_reader import model_frame_poses
from test_sdf_reader import parse_poses

TOL = 1e-9
#: A model of every kind of frame, several placed relative to the model frame.
BOX = """<model name="box">
  <pose>0 0 5 0 0 0</pose>
  <link name="base"><pose>1 0 0 0 0 0</pose></link>
  <link name="top"><pose relative_to="__model__">0 1 0 0 0 0.5</pose></link>
  <joint name="hinge" type="revolute">
    <pose relative_to="__model__">0 0 1 0 0 0</pose><parent>base</parent><child>top</child>
    <axis><xyz expressed_in="__model__">1 0 0</xyz></axis>
  </joint>
  <frame name="tip" attached_to="base"><pose relative_to="__model__">0 2 0 0 0 0</pose></frame>
  <frame name="free"><pose>0 0 3 0 0 0</pose></frame>
  <model name="sub"><link name="s"><pose>0 0 1 0 0 0</pose></link></model>
</model>"""
#: SDFormat 1.4: the axis is in the model frame.
OLD = """<model name="old">
  <link name="a"><pose>0 0 1 0 0 0.5</pose></link>
  <link name="b"><pose>1 0 1 0 0 0.5</pose></link>
  <joint name="ab" type="revolute"><parent>a</parent><child>b</child>
    <axis><xyz>1 0 0</xyz></axis></joint>
</model>"""
#: A camera to mount on the box, as PX4 mounts one on its base model.
CAM = """<model name="cam">
  <link name="lens"><pose>0.5 0 0 0 0 0</pose></link>
</model>"""
#: A model made of the box, merged, and a link of its own.
VEHICLE = """<model name="vehicle">
  <include merge="true"><uri>model://box</uri><pose>0 0 1 0 0 0</pose></include>
  <link name="body"><pose>0 0 -1 0 0 0</pose></link>
</model>"""

# Each case: the model folders (name -> (version, body)), the including model's body, and
# hand-worked model-frame positions of some of its frames.
CASES = {
    "the include's pose, relative to a link, places the model": (
        {'box': ('1.9', BOX)},
        """<link name="l"><pose>0 0 2 0 0 0</pose></link>
  <include merge="true"><uri>model://box</uri><pose relative_to="l">1 0 0 0 0 0.5</pose>
  </include>
  <frame name="p_s" attached_to="sub::s"/>""",
        {'_merged__box__model__': (1, 0, 2), 'free': (1, 0, 5),
         'tip': (1 - 2 * math.sin(0.5), 2 * math.cos(0.5), 2), 'p_s': (1, 0, 3)}),
    "without one, the model's own; the include's name names its frame": (
        {'box': ('1.9', BOX)},
        """<link name="l"/>
  <include merge="true"><uri>model://box</uri><name>renamed</name></include>""",
        {'_merged__renamed__model__': (0, 0, 5), 'tip': (0, 2, 5)}),
    'placement_frame places that frame of the merged model': (
        {'box': ('1.9', BOX)},
        """<link name="l"><pose>0 0 2 0 0 0</pose></link>
  <include merge="true"><uri>model://box</uri><placement_frame>tip</placement_frame>
    <pose relative_to="l">1 0 0 0 0 0</pose></include>""",
        {'tip': (1, 0, 2), '_merged__box__model__': (1, -2, 2)}),
    "an old file's axis is in the merged model's frame": (
        {'old': ('1.4', OLD)},
        """<link name="l"/>
  <include merge="true"><uri>model://old</uri><pose>0 1 0 0 0 0.25</pose></include>""",
        {'_merged__old__model__': (0, 1, 0)}),
    'a merged model that merged another': (
        {'box': ('1.9', BOX), 'vehicle': ('1.9', VEHICLE)},
        """<include merge="true"><uri>model://vehicle</uri><pose>2 0 0 0 0 0</pose></include>""",
        {'_merged__vehicle__model__': (2, 0, 0), '_merged__box__model__': (2, 0, 1),
         'free': (2, 0, 4)}),
    'joints of the including model join merged links': (
        {'box': ('1.9', BOX), 'cam': ('1.9', CAM)},
        """<include merge="true"><uri>model://box</uri></include>
  <include merge="true"><uri>model://cam</uri><pose>0.1 0 0.2 0 0 0</pose></include>
  <joint name="mount" type="fixed"><parent>base</parent><child>lens</child></joint>""",
        {'_merged__cam__model__': (0.1, 0, 0.2)}),
}


def same_as_oracle(path, robot):
    """Assert that libsdformat's names and poses for ``path`` are ours."""
    done = oracle('poses', path)
    assert done.returncode == 0, done.stderr
    name, expected = parse_poses(done.stdout)
    assert name == robot.name
    ours = model_frame_poses(robot)
    for kind in ('link', 'joint', 'frame'):
        assert {k for k in ours if k[0] == kind and '::' not in k[1]} == \
            {k for k in expected if k[0] == kind}, kind
    assert max_error(robot, expected) <= TOL


@pytest.mark.parametrize('case', list(CASES), ids=list(CASES))
def test_merged_content_is_placed_and_named_as_libsdformat_does(tmp_path, case):
    path, robot = read_case(tmp_path, *CASES[case])
    assert not robot.warnings
    same_as_oracle(path, robot)


def test_the_merged_frame_is_on_the_canonical_link_and_first_links_come_first(tmp_path):
    make_model(tmp_path / 'models', 'box',
               BOX.replace('<model name="box">', '<model name="box" canonical_link="top">'))
    path = write(tmp_path, '<model name="outer">\n'
                 '<include merge="true"><uri>model://box</uri></include>\n</model>')
    robot = read(path)
    frames = {frame.name: frame for frame in robot.frames}
    assert frames['_merged__box__model__'].attached_to == 'top'
    assert frames['free'].attached_to == 'top'   # through the merged model's frame
    assert [link.name for link in robot.links] == ['base', 'top', 'sub::s']
    assert frames['_merged__box__model__'].location.line == 3   # the <include>
    same_as_oracle(path, robot)


def test_merged_pose_precision(tmp_path):
    # libsdformat 12.3 writes the pose of the merged model's frame with six significant
    # digits (C++'s default stream precision); sdf_tools keeps every digit, as libsdformat
    # 13 and later do.
    make_model(tmp_path / 'models', 'cam', CAM)
    path = write(tmp_path, '<model name="outer"><link name="l"/>\n<include merge="true">'
                 '<uri>model://cam</uri><pose>0 0 0 0 0 1.5707963267948966</pose></include>'
                 '\n</model>')
    robot = read(path)
    assert_pose(model_frame_poses(robot)[('link', 'lens')], (0, 0.5, 0), tol=1e-15)
    _, expected = parse_poses(oracle('poses', path).stdout)
    assert 1e-7 < max_error(robot, expected) < 1e-5


ERRORS = {
    'the merged content names a frame of the including model': (
        {'m': '<model name="m"><link name="x"><pose relative_to="l">0 0 1 0 0 0</pose>'
              '</link></model>'},
        '<link name="l"/>', "names 'l', which does not exist in model 'm'",
        'models/m/model.sdf:2', Code.MISSING_FRAME),
    'a merged model without links is not static': (
        {'m': '<model name="m"><frame name="f"/></model>'},
        '<link name="l"/>', "model 'm': has no <link>", 'top.sdf:3', Code.NO_LINKS),
    'both models use a name': (
        {'m': '<model name="m"><link name="l"/></model>'},
        '<link name="l"/>', "link name 'l' is used more than once in model 'o'",
        'models/m/model.sdf:2', Code.DUPLICATE_NAME),
    'a light cannot be merged': (
        {'m': '<light name="m" type="point"/>'},
        '<link name="l"/>', 'names a <light>: only a model can be merged', 'top.sdf:3',
        Code.INCLUDE),
}


@pytest.mark.parametrize('case', list(ERRORS), ids=list(ERRORS))
def test_what_libsdformat_refuses_to_merge_is_an_error(tmp_path, case):
    folders, body, message, where, code = ERRORS[case]
    for name, model in folders.items():
        make_model(tmp_path / 'models', name, model)
    path = write(tmp_path, f'<model name="o">{body}\n'
                 '<include merge="true"><uri>model://m</uri></include>\n</model>')
    with pytest.raises(DescriptionError, match=message) as info:
        read(path)
    diagnostic = info.value.diagnostic
    assert str(diagnostic.location).endswith(where)
    assert diagnostic.code is code
    assert oracle('check', path).returncode != 0


def test_a_world_merges_nothing(tmp_path):
    make_model(tmp_path / 'models', 'cam', CAM)
    path = write(tmp_path, '<world name="w">\n'
                 '<include merge="true"><uri>model://cam</uri></include>\n</world>')
    with pytest.raises(DescriptionError, match='merges a model into the <model> holding the '
                       'include, not into a <world>') as info:
        read(path)
    assert info.value.diagnostic.location.line == 3
    assert 'Merge-include does not support parent element of type world' in \
        oracle('check', path).stdout


def test_what_is_not_merged_is_warned_about(tmp_path):
    make_model(tmp_path / 'models', 'm', """<model name="m">
  <static>true</static>
  <self_collide>true</self_collide>
  <enable_wind>false</enable_wind>
  <link name="a"/>
</model>""")
    path = write(tmp_path, '<model name="o">\n'
                 '<include merge="true"><uri>model://m</uri></include>\n</model>')
    robot = read(path)
    assert not robot.static
    assert sorted((w.location.line, w.message.partition(':')[0]) for w in robot.warnings) == [
        (3, 'is static, but merging makes its links links of the including model'),
        (4, '<self_collide> of a merged model is not kept')]   # <enable_wind>: the default
    same_as_oracle(path, robot)   # libsdformat drops them silently


def test_a_static_merged_model_without_links_is_merged(tmp_path):
    make_model(tmp_path / 'models', 'm', '<model name="m"><static>true</static>\n'
               '<frame name="f"><pose>1 0 0 0 0 0</pose></frame></model>')
    path = write(tmp_path, '<model name="o"><link name="l"/>\n<include merge="true">'
                 '<uri>model://m</uri><pose>0 2 0 0 0 0</pose></include>\n</model>')
    robot = read(path)
    assert not robot.warnings
    assert_pose(model_frame_poses(robot)[('frame', 'f')], (1, 2, 0))
    same_as_oracle(path, robot)


def test_plugins_and_custom_elements_go_to_the_including_model(tmp_path):
    make_model(tmp_path / 'models', 'm', """<model name="m" xmlns:my="http://example.org/my">
  <link name="a"/>
  <plugin name="motor" filename="libmotor.so"><gain>2</gain></plugin>
  <my:thing name="t"/>
</model>""")
    path = write(tmp_path, '<model name="o">\n<include merge="true"><uri>model://m</uri>\n'
                 '<plugin name="extra" filename="libextra.so"/></include>\n</model>')
    robot = read(path)
    assert [extra.get('name') for extra in robot.extras] == \
        ['motor', 't', 'extra']
    expanded = oracle('convert', path)   # gz sdf -p: the merged model
    assert expanded.returncode == 0, expanded.stderr
    for name in ('motor', 'extra'):
        assert f"<plugin name='{name}'" in expanded.stdout
    assert "<my:thing name='t'/>" in expanded.stdout


@pytest.mark.parametrize('value, merged', [
    ('true', True), ('True', True), ('1', True), (' 1', True), ('+2', True), ('0x10', True),
    ('2x', True), ('tRue', False), (' true', False), ('yes', False), ('0', False),
    ('false', False)])
def test_merge_is_read_as_libsdformat_reads_it(tmp_path, value, merged):
    # tinyxml2's BoolAttribute: an integer (decimal or 0x hexadecimal) unless 0, or exactly
    # true, True or TRUE.
    make_model(tmp_path / 'models', 'cam', CAM)
    path = write(tmp_path, f'<model name="o"><link name="l"/>\n<include merge="{value}">'
                 '<uri>model://cam</uri></include>\n</model>')
    robot = read(path)
    assert ('lens' in robot.index.links, 'cam::lens' in robot.index.links) == \
        (merged, not merged)
    done = oracle('convert', path)
    assert done.returncode == 0, done.stderr
    assert ('_merged__cam__model__' in done.stdout) == merged
