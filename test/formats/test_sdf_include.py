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
Tests of SDFormat ``<include>`` (:mod:`sdf_tools.formats.sdf.include`).

Every fixture is a set of Gazebo model folders written in ``tmp_path/models`` (model.config
and model.sdf) and a file including them. Where libsdformat 12 reads the case, the same files
go to the oracle with ``SDF_PATH`` naming the models folder: ``oracle poses`` lists the
model-frame poses of the top model, so the content of a nested include is probed through
``<frame>`` s attached to it; ``oracle check`` says whether it loads. The expected numbers
are also written out by hand, so the tests check something without the oracle.
"""

import os
import subprocess

from model_folders import make_model
from model_folders import model_config
import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.sdf import include
from sdf_tools.formats.sdf.include import MAX_DEPTH
from sdf_tools.formats.sdf.reader import MAX_NESTING
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.reader import parse_sdf_document
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ResourcePath
import support
from test_sdf_reader import assert_pose
from test_sdf_reader import max_error
from test_sdf_reader import model_frame_poses
from test_sdf_reader import parse_poses

TOL = 1e-9
#: A model whose link sits 1 m along x of its frame and whose frame 'tip' is 1 m along y of
#: the link; the model's own pose lifts it 5 m.
BOX = """<model name="box">
  <pose>0 0 5 0 0 0</pose>
  <link name="base"><pose>1 0 0 0 0 0</pose></link>
  <frame name="tip" attached_to="base"><pose>0 1 0 0 0 0</pose></frame>
</model>"""


def write(tmp_path, body, version='1.9', name='top.sdf'):
    """Write ``<sdf version>`` holding ``body`` (its first line is line 2) into tmp_path."""
    path = tmp_path / name
    path.write_text(f'<sdf version="{version}">\n{body}\n</sdf>\n')
    return path


def finder(tmp_path):
    return ModelFinder(ResourcePath(((str(tmp_path / 'models'), '--resource-path'),)))


def read(path, model=None, **kwargs):
    """Read ``path`` with ``tmp_path/models`` as the resource path."""
    return parse_sdf(path.read_bytes(), str(path), model=model, includes=finder(path.parent),
                     path=str(path), **kwargs)


def oracle(command, path):
    """Run the oracle on ``path``, models found through SDF_PATH (skip without it)."""
    if support.oracle_path() is None:
        pytest.skip(support.NO_ORACLE)
    env = dict(os.environ, SDF_PATH=str(path.parent / 'models'))
    return subprocess.run([str(support.oracle_path()), command, str(path)], capture_output=True,
                          text=True, env=env, cwd=path.parent, timeout=300)


def agrees_with_oracle(path, robot):
    """Assert that libsdformat places the top model's links, joints and frames as we do."""
    done = oracle('poses', path)
    assert done.returncode == 0, done.stderr
    name, expected = parse_poses(done.stdout)
    assert name == robot.name
    assert max_error(robot, expected) <= TOL
    return len(expected)


# --- what an include brings in, placed as libsdformat places it ---------------------------

# Each case: model folders (name -> (version, body)), the including model's body, and the
# model-frame position of each probe frame, worked out by hand.
NESTED = {
    "name and pose replace the model's": (
        {'box': ('1.9', BOX)},
        """<link name="l"/>
  <include><uri>model://box</uri><name>inner</name><pose>0 0 1 0 0 1.5707963267948966</pose>
  </include>
  <frame name="p_base" attached_to="inner::base"/>
  <frame name="p_tip" attached_to="inner::tip"/>""",
        {'p_base': (0, 1, 1), 'p_tip': (-1, 1, 1)}),
    "without a pose the file's own pose stays": (
        {'box': ('1.9', BOX)},
        """<link name="l"/>
  <include><uri>model://box</uri></include>
  <frame name="p_base" attached_to="box::base"/>""",
        {'p_base': (1, 0, 5)}),
    'placement_frame places that frame at the pose': (
        {'box': ('1.9', BOX)},
        """<link name="l"><pose>0 0 2 0 0 0</pose></link>
  <include><uri>model://box</uri><placement_frame>tip</placement_frame>
    <pose relative_to="l">3 0 0 0 0 0</pose></include>
  <frame name="p_tip" attached_to="box::tip"/>
  <frame name="p_base" attached_to="box::base"/>""",
        {'p_tip': (3, 0, 2), 'p_base': (3, -1, 2)}),
    "the included file is read with its own version's rules": (
        {'old': ('1.6', """<model name="old">
  <link name="a"/>
  <link name="b"><pose frame="a">0 0 1 0 0 0</pose></link>
</model>""")},
        """<link name="l"/>
  <include><uri>model://old</uri><pose>2 0 0 0 0 0</pose></include>
  <frame name="p_b" attached_to="old::b"/>""",
        {'p_b': (2, 0, 1)}),
    'an included model includes another': (
        {'box': ('1.9', BOX), 'shelf': ('1.9', """<model name="shelf">
  <link name="board"/>
  <include><uri>model://box</uri><name>on_top</name><pose>0 0 1 0 0 0</pose></include>
</model>""")},
        """<link name="l"/>
  <include><uri>model://shelf</uri><pose>0 2 0 0 0 0</pose></include>
  <frame name="p_base" attached_to="shelf::on_top::base"/>""",
        {'p_base': (1, 2, 1)}),
    "a relative uri starts in the including file's folder": (
        {'box': ('1.9', BOX)},
        """<link name="l"/>
  <include><uri>models/box</uri><name>near</name><pose>0 0 0 0 0 0</pose></include>
  <frame name="p_base" attached_to="near::base"/>""",
        {'p_base': (1, 0, 0)}),
}


def read_case(tmp_path, folders, body, probes):
    """Write the model folders and a model of ``body``; read it, check the probe frames."""
    for name, (version, model) in folders.items():
        make_model(tmp_path / 'models', name, model, version)
    path = write(tmp_path, f'<model name="outer">\n  {body}\n</model>')
    robot = read(path)
    poses = model_frame_poses(robot)
    for frame, xyz in probes.items():
        assert_pose(poses[('frame', frame)], xyz)
    return path, robot


@pytest.mark.parametrize('case', list(NESTED), ids=list(NESTED))
def test_nested_include_poses(tmp_path, case):
    agrees_with_oracle(*read_case(tmp_path, *NESTED[case]))


def test_world_include_places_the_model(tmp_path):
    make_model(tmp_path / 'models', 'box', BOX)
    path = write(tmp_path, """<world name="w">
  <include><uri>model://box</uri><name>b</name><pose>1 2 3 0 0 0</pose></include>
</world>""")
    robot = read(path)
    assert robot.name == 'b'
    assert_pose(robot.origin, (1, 2, 3))
    assert robot.location.line == 3   # the <include>, in the world file
    agrees_with_oracle(path, robot)


def test_file_whose_top_level_is_an_include(tmp_path):
    make_model(tmp_path / 'models', 'box', BOX)
    path = write(tmp_path, '<include><uri>model://box</uri><name>solo</name></include>')
    robot = read(path)
    assert robot.name == 'solo'
    assert_pose(robot.origin, (0, 0, 5))
    agrees_with_oracle(path, robot)


def test_include_static_and_plugins(tmp_path):
    make_model(tmp_path / 'models', 'box', BOX)
    path = write(tmp_path, """<world name="w">
  <include><uri>model://box</uri><static>true</static>
    <plugin name="p" filename="libp.so"><gain>2</gain></plugin></include>
</world>""")
    robot = read(path)
    assert robot.static
    assert [e for e in robot.extras if e.tag == 'plugin' and e.get('name') == 'p']
    done = oracle('convert', path)   # gz sdf -p: the expanded world
    assert done.returncode == 0, done.stderr
    assert '<static>true</static>' in done.stdout.replace('1</static>', 'true</static>')
    assert "<plugin name='p' filename='libp.so'>" in done.stdout


def test_model_chosen_by_its_include_name(tmp_path):
    make_model(tmp_path / 'models', 'box', BOX)
    path = write(tmp_path, """<world name="w">
  <include><uri>model://box</uri><name>left</name></include>
  <include><uri>model://box</uri><name>right</name><pose>0 1 0 0 0 0</pose></include>
</world>""")
    assert_pose(read(path, model='right').origin, (0, 1, 0))
    with pytest.raises(DescriptionError, match=r"holds 2 models \('left', 'right'\)"):
        read(path)


def test_a_classic_model_folder_is_read_in_its_newest_version(tmp_path):
    # The classic model library lists a file per version; the newest read is taken (here
    # 1.3, which libsdformat converts to 1.4 before reading).
    folder = make_model(tmp_path / 'models', 'cart', BOX, config=model_config(
        'cart', ('1.2', 'model-1_2.sdf'), ('1.3', 'model-1_3.sdf')))
    (folder / 'model-1_2.sdf').write_text('<gazebo version="1.2"/>')
    (folder / 'model-1_3.sdf').write_text(f'<sdf version="1.3">{BOX}</sdf>')
    path = write(tmp_path, '<model name="outer"><link name="l"/>\n'
                 '<include><uri>model://cart</uri></include>\n'
                 '<frame name="p_tip" attached_to="box::tip"/></model>')
    robot = read(path)
    assert robot.link('box::base').location.source == str(folder / 'model-1_3.sdf')
    assert_pose(model_frame_poses(robot)[('frame', 'p_tip')], (1, 1, 5))
    agrees_with_oracle(path, robot)


@pytest.mark.parametrize('uri', ['box', 'model://box'])
@pytest.mark.parametrize('beside', [True, False])
def test_a_bare_name_is_found_where_libsdformat_finds_it(tmp_path, uri, beside):
    # libsdformat strips the scheme: NAME and model://NAME are one lookup, in its working
    # directory (the oracle runs in the including file's folder, where sdf_tools looks
    # instead) before SDF_PATH (the resource path).
    make_model(tmp_path / 'models', 'box', BOX)
    if beside:
        make_model(tmp_path, 'box', BOX.replace('<pose>0 0 5', '<pose>0 0 7'))
    path = write(tmp_path, f'<model name="outer"><link name="l"/>\n'
                 f'<include><uri>{uri}</uri></include>\n'
                 '<frame name="p_base" attached_to="box::base"/></model>')
    robot = read(path)
    assert_pose(model_frame_poses(robot)[('frame', 'p_base')], (1, 0, 7 if beside else 5))
    agrees_with_oracle(path, robot)


def test_world_includes_lights_and_actors_by_name(tmp_path):
    make_model(tmp_path / 'models', 'sun', '<light name="sun" type="directional"/>')
    path = write(tmp_path, """<world name="w">
  <include><uri>model://sun</uri></include>
  <include><uri>model://sun</uri><name>moon</name></include>
</world>""")
    document = parse_sdf_document(path.read_bytes(), str(path), includes=finder(tmp_path),
                                  path=str(path))
    assert document.worlds[0].lights == ('sun', 'moon')
    sun = tmp_path / 'models' / 'sun'
    assert document.files == (str(sun / 'model.sdf'), str(sun / 'model.config'))  # read once
    assert 'oracle: OK' in oracle('check', path).stdout


# --- what cannot be included --------------------------------------------------------------

def test_messages_name_the_included_file_and_line(tmp_path):
    make_model(tmp_path / 'models', 'bad', """<model name="bad">
  <link name="a"><pose>0 0 abc 0 0 0</pose></link>
</model>""")
    path = write(tmp_path, '<world name="w">\n<include><uri>model://bad</uri></include>\n'
                 '</world>')
    with pytest.raises(DescriptionError) as info:
        read(path)
    location = info.value.diagnostic.location
    assert (location.source, location.line) == (str(tmp_path / 'models/bad/model.sdf'), 3)
    assert oracle('check', path).returncode != 0


@pytest.mark.parametrize('body, message, where', [
    ('<include><name>x</name></include>', r'<include> needs a <uri>', 'top.sdf:3'),
    ('<include><uri>model://nothing</uri></include>',
     r"<include> of 'model://nothing' cannot be resolved: model://nothing: not found in ",
     'top.sdf:3'),
    ('<include><uri>model://box</uri>\n<placement_frame>tip</placement_frame></include>',
     r'<placement_frame> needs a <pose> in the include', 'top.sdf:4'),
    ('<include><uri>model://world</uri></include>',
     r'model.sdf holds no top-level <model>, <actor> or <light> to include', 'top.sdf:3'),
    ('<include><uri>model://two</uri></include>',
     r'the file holds more than one <model>; an included file holds one',
     'models/two/model.sdf:3'),
])
def test_include_errors_in_a_model(tmp_path, body, message, where):
    models = tmp_path / 'models'
    make_model(models, 'box', BOX)
    make_model(models, 'world', '<world name="x"/>')
    make_model(models, 'two', '<model name="a"><link name="l"/></model>\n'
               '<model name="b"><link name="l"/></model>')
    path = write(tmp_path, f'<model name="outer"><link name="l"/>\n{body}\n</model>')
    with pytest.raises(DescriptionError, match=message) as info:
        read(path)
    assert str(info.value.diagnostic.location) == str(tmp_path / where)
    assert oracle('check', path).returncode != 0


def test_a_light_included_in_a_model_is_left_out_with_a_warning(tmp_path):
    # libsdformat 12 puts the <light> into the model, where nothing reads it.
    make_model(tmp_path / 'models', 'sun', '<light name="sun" type="directional"/>')
    path = write(tmp_path, '<model name="outer"><link name="l"/>\n'
                 '<include><uri>model://sun</uri></include>\n</model>')
    (warning,) = read(path).warnings
    assert warning.message == ("<include> of 'model://sun' names a <light>, which sdf_tools "
                               'keeps only in a world (here <model>); it is left out')
    assert warning.location.line == 3
    assert 'oracle: OK' in oracle('check', path).stdout


def test_fuel_uri_is_a_clear_error(tmp_path):
    path = write(tmp_path, '<world name="w">\n<include>\n<uri>https://fuel.gazebosim.org/1.0/'
                 'OpenRobotics/models/Table</uri>\n</include>\n</world>')
    with pytest.raises(DescriptionError, match='does not download models .no network.') as info:
        read(path)
    assert info.value.diagnostic.location.line == 4


FUEL = 'https://fuel.gazebosim.org/1.0/OpenRobotics/models/Coke Can'
ROBOT = '<model name="robot">{pose}<link name="base"/>{include}</model>'


@pytest.mark.parametrize('name', ['<name>can</name>', ''])
def test_a_model_asked_for_needs_no_web_include_of_its_world(tmp_path, name):
    def world(pose='', include=''):
        return write(tmp_path, f'<world name="w">\n<include>{name}<uri>{FUEL}</uri></include>'
                     f'\n{ROBOT.format(pose=pose, include=include)}\n</world>')

    path = world()
    robot = read(path, model='robot')
    assert robot.name == 'robot' and robot.links[0].name == 'base'
    (warning,) = [w for w in robot.warnings if w.code is Code.INCLUDE]
    assert warning.message == (f'<include> of {FUEL!r} is left out: sdf_tools does not '
                               "download models, and the model asked for ('robot') does not "
                               'need it')
    assert (warning.entity, warning.location.line) == ("world 'w'", 3)
    # Without a model asked for, or asking for the included one, it is an error.
    for model in [None] + (['can'] if name else []):
        with pytest.raises(DescriptionError, match='does not download models .no network.'):
            read(path, model=model)
    # So it is when the model asked for needs it: posed relative to it, or including one.
    needs = [world(pose='<pose relative_to="can">1 0 0 0 0 0</pose>')] if name else []
    for path in needs + [world(include=f'<include><uri>{FUEL}</uri></include>')]:
        with pytest.raises(DescriptionError, match='does not download models') as info:
            read(path, model='robot')
        assert {d.location.line for d in info.value.diagnostics} == {3, 4}


def test_include_cycle_names_the_chain(tmp_path):
    models = tmp_path / 'models'
    make_model(models, 'a', '<model name="a"><link name="l"/>\n'
               '<include><uri>model://b</uri></include></model>')
    make_model(models, 'b', '<model name="b"><link name="l"/>\n'
               '<include><uri>model://a</uri></include></model>')
    path = write(tmp_path, '<world name="w"><include><uri>model://a</uri></include></world>')
    with pytest.raises(DescriptionError) as info:
        read(path)
    (error,) = info.value.diagnostics
    top, a, b = (os.path.realpath(p) for p in (path, models / 'a/model.sdf',
                                               models / 'b/model.sdf'))
    assert error.message == f"<include> of 'model://a' includes itself: {top} -> {a} -> {b} " \
        f'-> {a}'

    assert error.location.source == str(models / 'b' / 'model.sdf')


def test_include_depth_is_bounded(tmp_path):
    models = tmp_path / 'models'
    for i in range(MAX_DEPTH + 1):
        make_model(models, f'm{i}', f'<model name="m{i}"><link name="l"/>\n'
                   f'<include><uri>model://m{i + 1}</uri></include></model>')
    make_model(models, f'm{MAX_DEPTH + 1}', '<model name="end"><link name="l"/></model>')
    path = write(tmp_path, '<world name="w"><include><uri>model://m0</uri></include></world>')
    with pytest.raises(DescriptionError, match=f'nests includes more than {MAX_DEPTH} deep'):
        read(path)


@pytest.mark.parametrize('in_world', [False, True], ids=['model', 'world'])
def test_model_nesting_across_includes_is_bounded(tmp_path, in_world):
    # Each file nests 128 models (the XML parser bounds one file at 256 elements deep): the
    # second file's deepest model is the 256th level, the third file's include one too many.
    def nested(name, inside):
        return '<model name="m"><link name="l"/>' * 127 + f'<model name="{name}">' \
            f'<link name="l"/>{inside}</model>' + '</model>' * 127

    models = tmp_path / 'models'
    make_model(models, 'a', nested('a', '<include><uri>model://b</uri></include>'))
    make_model(models, 'b', nested('b', '\n<include><uri>model://c</uri></include>'))
    make_model(models, 'c', nested('c', ''))
    top = '<include><uri>model://a</uri></include>'
    path = write(tmp_path, f'<world name="w">{top}</world>' if in_world else top)
    with pytest.raises(DescriptionError) as info:
        read(path)
    (error,) = info.value.diagnostics
    assert str(error) == (f"{models / 'b' / 'model.sdf'}:3: model 'm': is nested more than "
                          f'{MAX_NESTING} models deep (including the models of includes)')
    make_model(models, 'b', nested('b', ''))
    assert len(read(path).links) == 2 * 128


def test_an_included_file_holding_a_processing_instruction_is_an_error(tmp_path):
    folder = make_model(tmp_path / 'models', 'box', '<model name="box">\n<?foo?>'
                        '<link name="l"/></model>')
    path = write(tmp_path, '<world name="w">\n<include><uri>model://box</uri></include>'
                 '</world>')
    with pytest.raises(DescriptionError) as info:
        read(path)
    (error,) = info.value.diagnostics
    assert str(error) == (f"{path}:3: world 'w': <include> of 'model://box': "
                          f"{folder / 'model.sdf'}:3: the processing instruction <?foo ...?> "
                          'inside <model>: libsdformat refuses the file (tinyxml2 reads none '
                          'there)')
    assert oracle('check', path).returncode != 0


def test_included_bytes_are_bounded_counting_each_inclusion(tmp_path):
    folder = make_model(tmp_path / 'models', 'box', BOX)
    size = (folder / 'model.sdf').stat().st_size
    includes = ''.join(f'<include><uri>model://box</uri><name>b{i}</name></include>\n'
                       for i in range(5))
    path = write(tmp_path, f'<world name="w">\n{includes}</world>')
    assert len(read(path, model='b4', max_bytes=5 * size).links) == 1
    with pytest.raises(DescriptionError, match=f'hold more than {5 * size - 1} bytes in all '
                       r'\(each inclusion counts\)') as info:
        read(path, model='b4', max_bytes=5 * size - 1)
    assert info.value.diagnostic.location.line == 7   # the fifth include's <uri>


def test_included_tags_are_bounded_counting_each_inclusion(tmp_path, monkeypatch):
    folder = make_model(tmp_path / 'models', 'box', BOX)
    tags = (folder / 'model.sdf').read_bytes().count(b'<')
    includes = ''.join(f'<include><uri>model://box</uri><name>b{i}</name></include>\n'
                       for i in range(5))
    path = write(tmp_path, f'<world name="w">\n{includes}</world>')
    assert include.MAX_INCLUDED_TAGS == 250_000   # the limit of one document's tags
    monkeypatch.setattr(include, 'MAX_INCLUDED_TAGS', 5 * tags)
    assert len(read(path, model='b4').links) == 1
    monkeypatch.setattr(include, 'MAX_INCLUDED_TAGS', 5 * tags - 1)
    with pytest.raises(DescriptionError) as info:
        read(path, model='b4')
    (error,) = info.value.diagnostics
    assert str(error) == (f"{path}:7: world 'w': <include> of 'model://box': the included "
                          f'files hold more than {5 * tags - 1} tags in all (each inclusion '
                          'counts; this one would be inclusion 5)')


def fan_out(folder, depth: int) -> str:
    """Write files m0.sdf ... each including the next twice (2 ** depth - 1 models)."""
    for k in range(depth):
        inner = '' if k == depth - 1 else ''.join(
            f'<include><uri>m{k + 1}.sdf</uri><name>{c}</name></include>' for c in 'ab')
        (folder / f'm{k}.sdf').write_text(f'<sdf version="1.9"><model name="m{k}">'
                                          f'<link name="l"/>{inner}</model></sdf>\n')
    return str(folder / 'm0.sdf')


def test_an_include_fan_out_is_refused_at_the_limit_whatever_its_depth(tmp_path, monkeypatch):
    # Files including the next twice, eighteen deep, built 262,143 links (25 s, 957 MB)
    # before any limit. The tags they bring in are counted per inclusion: at the limit
    # (here 20,000 tags, about 1,200 models) the include going past it is the error, so a
    # fan-out sixteen times larger costs the same (the least CPU time of two tries each).
    from sdf_tools.loading import load
    monkeypatch.setattr(include, 'MAX_INCLUDED_TAGS', 20_000)

    def refuse(depth):
        folder = tmp_path / str(depth)
        folder.mkdir()
        path = fan_out(folder, depth)

        def call():
            with pytest.raises(DescriptionError, match=r"m\d+\.sdf:1: model '[ab:]+': <include> "
                               r"of 'm\d+\.sdf': the included files hold more than 20000 tags"):
                load(path)
        return support.least_cpu_seconds(call, repeats=2)

    small, large = refuse(11), refuse(15)
    assert large < 2.0 * small, f'{small:.2f} s -> {large:.2f} s of CPU time'


def test_unknown_include_children_are_warned_about(tmp_path):
    make_model(tmp_path / 'models', 'box', BOX)
    path = write(tmp_path, '<world name="w"><include><uri>model://box</uri>\n'
                 '<colour>red</colour><namespace>n</namespace></include></world>')
    # A name SDFormat has (1.11's <namespace>) is not applied; one it lacks is misspelt.
    assert [(w.location.line, w.message) for w in read(path).warnings] == [
        (3, '<include> has no element <colour> in SDFormat 1.9; Gazebo ignores it'),
        (3, '<include> child <namespace> is not applied by sdf_tools')]


def test_parameter_passing_is_refused(tmp_path):
    # libsdformat's experimental:params edits the included model; reading it without the
    # edits would give another model.
    make_model(tmp_path / 'models', 'box', BOX)
    params = '<experimental:params><link element_id="base" action="remove"/>' \
        '</experimental:params>'
    for declared in ('', ' xmlns:experimental="http://sdformat.org/schemas/experimental"'):
        path = write(tmp_path, f'<world name="w"{declared}><include><uri>model://box</uri>\n'
                     f'{params}</include></world>')
        with pytest.raises(DescriptionError, match=r'<experimental:params> \(parameter '
                           r'passing, an experimental libsdformat feature\) is not '
                           'supported') as info:
            read(path)
        assert info.value.diagnostic.location.line == 3


def test_without_a_finder_includes_are_errors():
    text = '<sdf version="1.9">\n<world name="w">\n<include><uri>model://sun</uri></include>' \
           '\n</world>\n</sdf>'
    with pytest.raises(DescriptionError, match="<include> of 'model://sun' cannot be resolved: "
                       'this reader was given no way to find included models') as info:
        parse_sdf(text, 'w.sdf')
    assert info.value.diagnostic.location.line == 3


def test_the_document_names_the_files_its_includes_read(tmp_path):
    make_model(tmp_path / 'models', 'box', '<model name="box"><link name="l"/></model>')
    (tmp_path / 'part.sdf').write_text('<sdf version="1.9"><model name="part"><link name="p"/>'
                                       '</model></sdf>')
    top = write(tmp_path, '<world name="w"><include><uri>model://box</uri></include>'
                '<include><uri>part.sdf</uri></include>'
                '<include><name>again</name><uri>part.sdf</uri></include></world>')
    document = parse_sdf_document(top.read_bytes(), str(top), model='box',
                                  includes=finder(tmp_path), path=str(top))
    box = tmp_path / 'models' / 'box'
    assert document.files == (str(box / 'model.sdf'), str(tmp_path / 'part.sdf'),
                              str(box / 'model.config'))
    assert parse_sdf_document(write(tmp_path, '<model name="m"><link name="l"/></model>'
                                    ).read_bytes()).files == ()
