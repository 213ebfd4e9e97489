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
Tests of SDFormat worlds (:mod:`sdf_tools.formats.sdf.world`): names, frames, model placement.

Side by side with libsdformat 12.3: ``oracle check`` says whether a world loads, and the
physics probe (``# model_pose``) gives the pose of a world's first model in the world frame,
which is where the world graph places it (``relative_to`` another model, a world frame, a
frame inside a model; ``placement_frame``; includes).
"""

import os
import subprocess

from model_folders import make_model
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Severity
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.reader import parse_sdf_document
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.model import Pose
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ResourcePath
import support
from test_sdf_reader import assert_pose
from test_sdf_reader import pose_error

TOL = 1e-9


def write(tmp_path, body, version='1.9'):
    """Write ``tmp_path/world.sdf``: ``<sdf>`` on line 1, ``body`` from line 2."""
    path = tmp_path / 'world.sdf'
    path.write_text(f'<sdf version="{version}">\n{body}\n</sdf>\n')
    return path


def document(path):
    """Read a file whole, models found in ``tmp_path/models``."""
    finder = ModelFinder(ResourcePath(((str(path.parent / 'models'), '--resource-path'),)))
    return parse_sdf_document(path.read_bytes(), str(path), includes=finder, path=str(path))


def run(tool, path, *args):
    """Run the oracle or the probe on ``path`` with ``SDF_PATH`` naming tmp_path/models."""
    binary = support.oracle_path() if tool == 'oracle' else \
        (support.PROBE_PATH if support.probe_built() else None)
    if binary is None:
        pytest.skip(support.NO_ORACLE if tool == 'oracle' else support.NO_PROBE)
    env = dict(os.environ, SDF_PATH=str(path.parent / 'models'))
    return subprocess.run([str(binary), *args, str(path)], capture_output=True, text=True,
                          env=env, cwd=path.parent, timeout=300)


def probe_model_pose(path):
    """Return libsdformat's pose of the world's first model in the world (x y z qw qx qy qz)."""
    done = run('probe', path, 'poses')
    assert 'sdf_errors 0' in done.stdout, done.stdout + done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith('# model_pose'))
    return tuple(float(x) for x in line.split()[2:])


# --- what a world holds -------------------------------------------------------------------

def test_world_without_models_is_read_and_described(tmp_path):
    path = write(tmp_path, '<world name="empty">\n<frame name="f"><pose>1 0 0 0 0 0</pose>'
                 '</frame>\n<light name="sun" type="directional"/>\n</world>')
    (world,) = document(path).worlds
    assert (world.name, world.models, world.lights) == ('empty', (), ('sun',))
    assert world.frames[0].pose == Pose((1.0, 0.0, 0.0))
    with pytest.raises(DescriptionError, match=r"the document holds no <model> \(world 'empty': "
                       r"no model, 1 frame \('f'\), 1 light \('sun'\)\)"):
        parse_sdf(path.read_bytes(), str(path))
    assert 'oracle: OK' in run('oracle', path, 'check').stdout


def test_file_with_a_light_alone(tmp_path):
    path = write(tmp_path, '<light name="sun" type="directional"/>')
    (top,) = document(path).worlds
    assert (top.name, top.lights) == (None, ('sun',))
    assert 'oracle: OK' in run('oracle', path, 'check').stdout


def test_a_top_level_model_is_not_placed(tmp_path):
    # Outside a world there is nothing to be relative to: libsdformat refuses the file (the
    # oracle's verdict is held in test_sdf_reader); inside one, the world places the model.
    path = write(tmp_path, '<model name="m"><pose relative_to="x">1 0 0 0 0 0</pose>'
                 '<link name="l"/></model>')
    with pytest.raises(DescriptionError, match='outside a world must not have relative_to'):
        parse_sdf(path.read_bytes(), str(path))
    path = write(tmp_path, '<world name="w"><frame name="x"><pose>0 2 0 0 0 0</pose></frame>'
                 '<model name="m"><pose relative_to="x">1 0 0 0 0 0</pose>'
                 '<link name="l"/></model></world>')
    assert parse_sdf(path.read_bytes(), str(path)).origin == Pose((1.0, 2.0, 0.0))


def test_every_model_of_a_world_is_read(tmp_path):
    # The second model's error is found even when the first is the one asked for.
    path = write(tmp_path, '<world name="w">\n<model name="a"><link name="l"/></model>\n'
                 '<model name="b"><link name="l"/><frame name="f" attached_to="x"/></model>'
                 '\n</world>')
    with pytest.raises(DescriptionError, match="frame 'f': attached_to names 'x'") as info:
        parse_sdf(path.read_bytes(), str(path), model='a')
    assert info.value.diagnostic.location.line == 4
    assert run('oracle', path, 'check').returncode != 0


# --- where models and frames are ----------------------------------------------------------

# Each case: the world's body (its first model is the one placed), the expected position
# of that model in the world, worked out by hand.
PLACED = {
    'relative to a world frame': ("""<frame name="F"><pose>1 2 3 0 0 1.5707963267948966</pose>
</frame>
<model name="m"><pose relative_to="F">1 0 0 0 0 0</pose><link name="l"/></model>""",
                                  (1, 3, 3)),
    'relative to another model, declared later': (
        """<model name="m"><pose relative_to="other">0 0 1 0 0 0</pose><link name="l"/></model>
<model name="other"><pose>5 0 0 0 0 0</pose><link name="l"/></model>""", (5, 0, 1)),
    'relative to a frame inside a model': (
        """<model name="m"><pose relative_to="other::l">0 0 1 0 0 0</pose><link name="l"/>
</model>
<model name="other"><pose>5 0 0 0 0 0</pose><link name="l"><pose>0 1 0 0 0 0</pose></link>
</model>""", (5, 1, 1)),
    'relative to a world frame attached to a model': (
        """<model name="m"><pose relative_to="F">0 0 1 0 0 0</pose><link name="l"/></model>
<frame name="F" attached_to="other"><pose>0 0 2 0 0 0</pose></frame>
<model name="other"><pose>5 0 0 0 0 0</pose><link name="l"/></model>""", (5, 0, 3)),
    'an included model with a placement frame': (
        """<include><uri>model://box</uri><placement_frame>tip</placement_frame>
<pose relative_to="F">0 0 0 0 0 0</pose></include>
<frame name="F"><pose>1 1 1 0 0 0</pose></frame>""", (0, 0, 1)),
}
BOX = """<model name="box"><link name="base"><pose>1 0 0 0 0 0</pose></link>
<frame name="tip" attached_to="base"><pose>0 1 0 0 0 0</pose></frame></model>"""


@pytest.mark.parametrize('case', list(PLACED), ids=list(PLACED))
def test_model_placed_in_the_world(tmp_path, case):
    body, xyz = PLACED[case]
    make_model(tmp_path / 'models', 'box', BOX)
    path = write(tmp_path, f'<world name="w">\n{body}\n</world>')
    robot = document(path).worlds[0].models[0]
    assert_pose(robot.origin, xyz)
    assert pose_error(robot.origin, probe_model_pose(path)) <= TOL


def test_world_frames_in_the_world(tmp_path):
    path = write(tmp_path, """<world name="w">
<model name="m"><pose>0 0 1 0 0 0</pose><link name="l"><pose>1 0 0 0 0 0</pose></link></model>
<frame name="on_link" attached_to="m::l"/>
<frame name="chained" attached_to="on_link"><pose>0 1 0 0 0 0</pose></frame>
<frame name="moved"><pose relative_to="chained">0 0 1 0 0 0</pose></frame>
</world>""")
    frames = {f.name: f for f in document(path).worlds[0].frames}
    assert_pose(frames['on_link'].pose, (1, 0, 1))
    assert_pose(frames['chained'].pose, (1, 1, 1))
    assert (frames['moved'].attached_to, frames['chained'].attached_to) == ('world', 'on_link')
    assert_pose(frames['moved'].pose, (1, 1, 2))
    assert 'oracle: OK' in run('oracle', path, 'check').stdout


def test_a_long_chain_of_poses_relative_to_the_next_model_is_resolved(tmp_path):
    # Each model is placed relative to a link of the next (a model::frame, placed by its
    # model): 2000 deep, far beyond Python's recursion limit.
    count = 2000
    models = ''.join(f'<model name="m{i}"><pose relative_to="m{i + 1}::l">1 0 0 0 0 0</pose>'
                     f'<link name="l"><pose>0 1 0 0 0 0</pose></link></model>'
                     for i in range(count))
    path = write(tmp_path, f'<world name="w">{models}<model name="m{count}"><link name="l"/>'
                 '</model></world>')
    robots = {robot.name: robot for robot in document(path).worlds[0].models}
    assert_pose(robots['m0'].origin, (count, count - 1, 0))
    assert_pose(robots['m1999'].origin, (1, 0, 0))


# --- what libsdformat refuses -------------------------------------------------------------

@pytest.mark.parametrize('body, message, line', [
    ('<frame name="F" attached_to="A"/>', r"frame 'F': attached_to names 'A', which does not "
     r"exist in world 'w'", 3),
    ('<frame name="F" attached_to="F"/>', r"frame 'F': the attached_to chain forms a cycle: "
     r"'F' -> 'F'", 3),
    ('<frame name="F" attached_to="G"/>\n<frame name="G" attached_to="F"/>',
     r"frame 'F': the attached_to chain forms a cycle: 'F' -> 'G' -> 'F'", 3),
    ('<frame name="F">\n<pose relative_to="A">1 0 0 0 0 0</pose></frame>',
     r"frame 'F': <pose> relative_to names 'A', which does not exist", 4),
    ('<frame name="F">\n<pose relative_to="F">1 0 0 0 0 0</pose></frame>',
     r"frame 'F': <pose> is relative to itself", 4),
    ('<model name="M">\n<pose relative_to="A">0 3 0 0 0 0</pose><link name="L"/></model>',
     r"model 'M': <pose> relative_to names 'A', which does not exist", 4),
    ('<model name="M">\n<pose relative_to="M">0 3 0 0 0 0</pose><link name="L"/></model>',
     r"model 'M': <pose> is relative to itself", 4),
    ('<model name="M">\n<pose relative_to="F">0 0 0 0 0 0</pose><link name="L"/></model>\n'
     '<frame name="F" attached_to="M::L"/>',
     r"model 'M': the poses form a cycle: 'M' -> 'F' -> 'M::L' -> 'M'", 4),
    ('<model name="M1"><model name="N"><link name="L2"/></model></model>\n'
     '<frame name="F" attached_to="M1::N::L1"/>',
     r"frame 'F': attached_to names 'M1::N::L1', which does not exist", 4),
    ('<model name="M"><link name="L"/></model>\n<model name="M"><link name="L"/></model>',
     r"model 'M': model name 'M' is used more than once in world 'w'", 4),
    ('<frame name="F"/>\n<frame name="F"/>',
     r"frame 'F': frame name 'F' is used more than once in world 'w'", 4),
])
def test_world_errors(tmp_path, body, message, line):
    path = write(tmp_path, f'<world name="w">\n{body}\n</world>')
    with pytest.raises(DescriptionError, match=message) as info:
        document(path)
    assert info.value.diagnostic.location.line == line
    assert run('oracle', path, 'check').returncode != 0


@pytest.mark.parametrize('body, message', [
    ('<world name="world"/>', r"world 'world': the world name 'world' is reserved"),
    ('<world name="w"/>\n<world name="w"/>', r"world 'w': world name 'w' is used more than "
     'once in the file'),
])
def test_world_name_errors(tmp_path, body, message):
    path = write(tmp_path, body)
    with pytest.raises(DescriptionError, match=message):
        document(path)
    assert run('oracle', path, 'check').returncode != 0


def test_frame_named_like_a_model(tmp_path):
    # libsdformat's world_model_frame_same_name.sdf, shortened: 12.3 renames the frame
    # (its DOMWorld.LoadModelFrameSameName test asserts no error), in every version.
    body = '<world name="w">\n<model name="g"><pose>0 2 0 0 0 0</pose><link name="l"/></model>' \
           '\n<frame name="g"><pose>0 0 3 0 0 0</pose></frame>\n<model name="m">' \
           '<pose relative_to="g">1 0 0 0 0 0</pose><link name="l"/></model>\n</world>'
    for version, code, said in (('1.6', Code.RENAMED, 'as libsdformat does for SDFormat 1.6 '
                                 'and older'),
                                ('1.7', Code.LOADER_REFUSES, 'as libsdformat 12 and 13 do; '
                                 'libsdformat 14 and later refuse it (Gazebo Harmonic loads '
                                 'nothing): world frames and models need distinct names')):
        path = write(tmp_path, body, version)
        read = document(path)
        (warning,) = read.warnings
        assert (warning.code, warning.location.line, warning.message) == (
            code, 4, f"has the same name as a model of world 'w'; renamed to 'g_frame', {said}")
        (world,) = read.worlds
        assert [(f.name, f.pose.xyz) for f in world.frames] == [('g_frame', (0.0, 0.0, 3.0))]
        # 'g' names the model: m is placed 1 m along x from it, as libsdformat places it.
        assert world.models[1].origin.xyz == (1.0, 2.0, 0.0)
        assert 'oracle: OK' in run('oracle', path, 'check').stdout
    # check: an error from 1.7 on, as libsdformat 14 refuses the file.
    diagnostics = check(load(str(write(tmp_path, body, '1.7')), LoadOptions(model='m')))
    assert [d.severity for d in diagnostics if d.code is Code.LOADER_REFUSES] == [Severity.ERROR]


@pytest.mark.parametrize('content, message', [
    ('<gravity>0 1 bad</gravity>', "<gravity> must be 3 numbers, got '0 1 bad'"),
    ('<physics type="ode"><max_step_size>fast</max_step_size></physics>',
     "<physics><max_step_size> must be a number, got 'fast'"),
])
def test_a_world_value_libsdformat_cannot_read_is_refused(tmp_path, content, message):
    # libsdformat's bad_syntax_vector.sdf: a world holding only a <gravity> it cannot read.
    path = write(tmp_path, f'<world name="w">\n{content}\n</world>')
    with pytest.raises(DescriptionError) as info:
        document(path)
    (error,) = info.value.diagnostics
    assert str(error) == f"{path}:3: world 'w': {message} (libsdformat refuses the file)"
    assert run('oracle', path, 'check').returncode != 0
    # What it reads is read: '0 0 -9.8x' is (0, 0, -9.8), as libsdformat reads it.
    path = write(tmp_path, '<world name="w">\n<gravity>0 0 -9.8x</gravity>\n</world>')
    (warning,) = document(path).warnings
    assert warning.message == "<gravity> '0 0 -9.8x' is read as 0 0 -9.8 by libsdformat"
    assert 'oracle: OK' in run('oracle', path, 'check').stdout
