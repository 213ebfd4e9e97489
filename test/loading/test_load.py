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

"""Tests of sdf_tools.loading: the one way from a description to a model or SDFormat."""

import os
import threading

import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import combine
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Severity
from sdf_tools.loading import check
from sdf_tools.loading import files_read
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import prepare
from sdf_tools.loading import read
from sdf_tools.loading import to_sdf
from sdf_tools.resources.lookup import find_resources
from sdf_tools.resources.lookup import Resources
import support

EXAMPLE = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'


def test_load_expands_xacro_with_arguments():
    loaded = load(str(EXAMPLE), LoadOptions(mappings={'prefix': 'r_', 'with_camera': 'false'}))
    names = {link.name for link in loaded.robot.links}
    assert 'r_base_link' in names and 'r_camera_link' not in names
    assert (loaded.fmt, loaded.xacro, loaded.source) == ('urdf', True, str(EXAMPLE))
    assert loaded.origins.label == f'{EXAMPLE} (expanded by xacro)'
    assert b'r_base_link' in loaded.text


def test_load_dispatches_text_on_content():
    urdf = load(text='<robot name="u"><link name="a"/></robot>')
    sdf = load(text=b'<sdf version="1.9"><model name="s"><link name="a"/></model></sdf>')
    assert (urdf.fmt, sdf.fmt) == ('urdf', 'sdf')
    assert (urdf.robot.source_format, sdf.robot.source_format) == ('urdf', 'sdf')
    assert urdf.origins is None and urdf.source == '<string>'
    with pytest.raises(DescriptionError, match='xacro markup must be expanded first'):
        load(text=EXAMPLE.read_bytes(), options=LoadOptions(xacro=False))
    with pytest.raises(DescriptionError, match='the description is empty'):
        load(text=' \n', options=LoadOptions(source='<robot_description>'))
    with pytest.raises(ValueError, match='give a path or a text'):
        load()


def test_xacro_is_expanded_only_when_asked(tmp_path):
    """Expanding xacro runs code: .xacro files, or xacro=True; else markup is refused."""
    path = tmp_path / 'r.urdf'
    path.write_text('<robot name="r">\n<!-- $(env HOME) -->\n<link name="$(env HOME)"/>\n'
                    '</robot>\n')
    with pytest.raises(DescriptionError) as refused:
        load(str(path))
    assert str(refused.value) == (
        f"{path}:3: xacro markup '$(env HOME)' in a file not named .xacro: not expanded, "
        'because expanding xacro runs the code it holds; if you trust it, expand it with '
        'LoadOptions(xacro=True)')
    assert refused.value.diagnostics[0].code == Code.XACRO
    with pytest.raises(DescriptionError, match=r"^<string>:1: xacro markup '<xacro:if' in "
                       '<string>: .*; rename it$'):
        load(text='<robot name="r"><xacro:if value="1"/></robot>',
             options=LoadOptions(xacro_remedy='rename it'))
    loaded = load(str(path), LoadOptions(xacro=True))
    assert [link.name for link in loaded.robot.links] == [os.environ['HOME']]
    xacro_file = tmp_path / 'r.xacro'
    xacro_file.write_text('<robot name="r">\n<link name="$(env HOME)"/>\n</robot>\n')
    assert load(str(xacro_file)).xacro
    with pytest.raises(DescriptionError, match=r'\.xacro:2: xacro markup must be expanded'):
        load(str(xacro_file), LoadOptions(xacro=False))


def test_loaded_inputs_are_every_file_read_and_never_an_output(tmp_path):
    ns = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    (tmp_path / 'parts').mkdir()
    include = tmp_path / 'parts' / 'link.xacro'
    include.write_text(f'<robot {ns}><link name="${{xacro.load_yaml(\'names.yaml\').a}}"/>'
                       '</robot>')
    yaml = tmp_path / 'parts' / 'names.yaml'
    yaml.write_text('a: base\n')
    main = tmp_path / 'r.urdf.xacro'
    main.write_text(f'<robot name="r" {ns}><xacro:include filename="parts/link.xacro"/>'
                    '</robot>')
    loaded = load(str(main))
    assert loaded.inputs == (str(main), str(include), str(yaml))
    assert [link.name for link in loaded.robot.links] == ['base']
    assert load(text='<robot name="r"><link name="a"/></robot>').inputs == ()
    # Before reading, what a caller that writes files checks them against (the command
    # line's -o and --keep-expanded); loading itself writes nothing.
    before = sorted(tmp_path.rglob('*'))
    prepared = prepare(str(main), LoadOptions(), find_resources(environ={}))
    assert files_read(prepared) == loaded.inputs and prepared.origins is not None
    assert read(prepared).inputs == loaded.inputs
    assert sorted(tmp_path.rglob('*')) == before


def piped(fifo, data: bytes) -> threading.Thread:
    """
    Start writing ``data`` into the named pipe ``fifo`` (made here) for one reader.

    Should a second reader open it (the file read again), its wait for a writer is ended
    after a few seconds with an empty pipe: the test fails instead of hanging.
    """
    os.mkfifo(fifo)

    def write():
        with open(fifo, 'wb') as f:  # waits for the reader
            f.write(data)
        if not done.wait(5):
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:  # nobody is reading: as it should be
                pass

    done = threading.Event()
    writer = threading.Thread(target=write, daemon=True)
    writer.done = done
    writer.start()
    return writer


@pytest.mark.skipif(not hasattr(os, 'mkfifo'), reason='named pipes are POSIX')
def test_xacro_from_a_pipe_is_read_once(tmp_path):
    ns = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    part = tmp_path / 'part.xacro'
    part.write_text(f'<robot {ns}><link name="part"/></robot>')
    text = (f'<robot name="r" {ns}>\n<xacro:include filename="part.xacro"/>\n'
            '<link name="$(arg side)"/>\n<joint name="j" type="fixed"><parent link="part"/>'
            '<child link="$(arg side)"/></joint>\n</robot>\n').encode()
    for mappings in ({'side': 'a'}, {}):
        fifo = tmp_path / 'robot.urdf.xacro'
        writer = piped(fifo, text)
        try:
            if mappings:
                loaded = load(str(fifo), LoadOptions(mappings=mappings))
                assert [link.name for link in loaded.robot.links] == ['part', 'a']
                assert loaded.inputs == (str(fifo), str(part))
            else:  # the source map still places errors in the file
                with pytest.raises(DescriptionError, match=rf'^{fifo}:3: \$\(arg side\): '):
                    load(str(fifo))
        finally:
            writer.done.set()
            writer.join(10)
            fifo.unlink()


def test_xacro_expands_the_text_that_was_checked(tmp_path, monkeypatch):
    from sdf_tools.loading import sources
    ns = 'xmlns:xacro="http://www.ros.org/wiki/xacro"'
    path = tmp_path / 'r.urdf.xacro'
    path.write_text(f'<robot name="r" {ns}>\n<link name="checked"/>\n</robot>\n')
    read_input = sources.read_input

    def read_then_change(*args, **kwargs):
        read = read_input(*args, **kwargs)
        path.write_text(f'<robot name="r" {ns}><link name="${{2 * 3}}"/></robot>\n')
        return read

    monkeypatch.setattr(sources, 'read_input', read_then_change)
    loaded = load(str(path))
    assert [link.name for link in loaded.robot.links] == ['checked']
    assert b'${' in path.read_bytes()  # the file did change


def test_sdformat_includes_are_inputs(tmp_path):
    (tmp_path / 'parts').mkdir()
    include = tmp_path / 'parts' / 'inc.sdf'
    include.write_text('<sdf version="1.9"><model name="inner"><link name="l"/></model></sdf>')
    main = tmp_path / 'main.sdf'
    main.write_text('<sdf version="1.9"><model name="outer"><link name="a"/><include>'
                    '<uri>parts/inc.sdf</uri></include></model></sdf>')
    loaded = load(str(main))
    assert loaded.inputs == (str(main), str(include)) == files_read(loaded)
    assert loaded.document.files == (str(include),) and loaded.origins is None


def test_a_forced_format_reads_what_detection_would_not():
    text = '<robot name="u"><link name="a"/></robot>'
    with pytest.raises(DescriptionError, match='<sdf>'):
        load(text=text, options=LoadOptions(fmt='sdf'))


def test_to_sdf_converts_urdf_and_writes_the_other_formats():
    """URDF goes through the libsdformat-compatible converter, the rest through the writer."""
    urdf = load(text='<robot name="u"><link name="a"/><link name="b"/><joint name="j" '
                'type="fixed"><parent link="a"/><child link="b"/></joint></robot>')
    converted = to_sdf(urdf)
    assert '<model name="u">' in converted.sdf and '<joint' not in converted.sdf  # lumped
    assert any(w.code == 'massless-link' for w in converted.warnings)
    sdf = load(text='<sdf version="1.9"><model name="s"><link name="a"/><link name="b"/>'
               '<joint name="j" type="fixed"><parent>a</parent><child>b</child></joint>'
               '</model></sdf>')
    converted = to_sdf(sdf)
    assert '<joint name="j" type="fixed">' in converted.sdf and converted.warnings == ()


def test_check_reports_the_tree_and_the_converter_problems_once():
    loaded = load(text='<robot name="r"><link name="a"/><link name="b"/><joint name="j" '
                  'type="continuous"><parent link="a"/><child link="b"/><mimic joint="nope"/>'
                  '</joint></robot>')
    assert [d.code for d in loaded.warnings] == [Code.MISSING_JOINT]  # the reader says it
    # compile_tree says it again, knowing more: it is reported once. By default a warning
    # (the joint moves on its own), as the converter takes it; an error when asked.
    for missing_mimic in ('ignore', 'error'):
        problems = check(loaded, missing_mimic=missing_mimic)
        assert [(d.code, d.severity.value) for d in problems] == [
            (Code.MISSING_JOINT, 'warning' if missing_mimic == 'ignore' else 'error'),
            (Code.MASSLESS_LINK, 'warning'), (Code.MASSLESS_LINK, 'warning')]  # no second
        # word on that <mimic> from the converter (SDFormat 1.9 has none): one problem
        assert 'moves' in problems[0].message
    assert check(loaded) == check(loaded, missing_mimic='ignore')


def test_arguments_a_urdf_or_sdformat_input_ignores_are_said_to_change_nothing():
    loaded = load(text='<robot name="u"><link name="a"/></robot>',
                  options=LoadOptions(mappings={'prefix': 'l_', 'x': '1'}, source='u.urdf'))
    assert loaded.unused == ('prefix', 'x')
    assert [str(d) for d in loaded.warnings] == [
        'u.urdf: warning: prefix:=l_ x:=1 changes nothing: name:=value arguments are for '
        'xacro (and RobCoGen) input, and this is URDF']
    assert load(text='<robot name="u"><link name="a"/></robot>').unused == ()
    xacro = load(str(EXAMPLE), LoadOptions(mappings={'prefix': 'r_', 'prefx': 'l_'}))
    assert xacro.unused == ('prefx',) and xacro.warnings[0].code == Code.UNUSED_PARAMETER


def test_check_refuses_the_sdformat_inertials_libsdformat_refuses_and_convert_repairs_them(
        tmp_path):
    text = ('<sdf version="1.9">\n<model name="m">\n<link name="a"><inertial><mass>-1</mass>'
            '</inertial></link>\n<link name="b"><inertial><mass>1</mass><inertia><ixx>1</ixx>'
            '<iyy>1</iyy><izz>2.0000001</izz></inertia></inertial></link>\n</model>\n</sdf>\n')
    path = tmp_path / 'm.sdf'
    path.write_text(text)
    loaded = load(str(path))   # fk and tree read it: the kinematics are well defined
    problems = check(loaded)
    # In the stead of the reader's warning; the second one is beyond its tolerance, not
    # beyond libsdformat's.
    assert [(d.code, d.severity.value, d.location.line) for d in problems] == [
        (Code.NEGATIVE_MASS, 'error', 3), (Code.BAD_INERTIA, 'error', 4)]
    assert 'libsdformat refuses the link ("invalid inertia")' in problems[0].message
    converted = to_sdf(loaded)
    assert [d.code for d in converted.warnings] == [Code.MASSLESS_LINK, Code.BAD_INERTIA]
    if support.oracle_path() is not None:
        result = support.run_oracle('check', path)
        assert result.stdout.count('has invalid inertia') == 2, result.stdout
        written = tmp_path / 'written.sdf'
        written.write_text(converted.sdf)
        assert support.run_oracle('check', written).returncode == 0


def test_package_uris_are_checked_when_asked(tmp_path):
    from workspaces import make_tree
    tree = make_tree(tmp_path)
    found = find_resources([str(tree['src'])], environ={})
    nowhere = find_resources(environ={})

    def collision(uri):
        return f'<collision><geometry><mesh filename="{uri}"/></geometry></collision>\n'

    text = ('<robot name="r">\n'
            '<material name="wood"><texture filename="package://arm_description/w.png"/>'
            '</material>\n<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
            'ixz="0" iyy="1" iyz="0" izz="1"/></inertial>\n'
            '<visual><geometry><mesh filename="package://arm_description/meshes/base.stl"/>'
            '</geometry></visual>\n'
            + collision('package://arm_description/meshes/none.stl')
            + collision('package://other/x.stl') + collision('package://other/y.stl')
            + collision('package://arm_description/../../x.stl') + collision('model://m/z.stl')
            + collision('package://arm_description/meshes/base.stl') + '</link>\n</robot>\n')
    options = LoadOptions(source='<robot_description>')
    assert load(text=text, options=options, resources=found).warnings == ()  # not asked
    searched = (f"searched: {tree['src']} (--package-path: 2 package(s)), AMENT_PREFIX_PATH "
                '(not set), ROS_PACKAGE_PATH (not set); give its folder with --package-path')
    problems = load(text=text, options=LoadOptions(source='<robot_description>',
                                                   check_uris=True), resources=found).warnings
    # One warning per package and problem, with the count and the other places.
    assert [(str(d), d.code) for d in problems] == [
        ("<robot_description>:5: warning: link 'a': package://arm_description/meshes/"
         f"none.stl: no such file: {tree['package']}/meshes/none.stl (2 in all; also line 1)",
         Code.MISSING_FILE),
        ("<robot_description>:6: warning: link 'a': package://other/x.stl: package 'other' "
         f'not found; {searched} (2 in all; also line 7)', Code.PACKAGE_NOT_FOUND),
        ("<robot_description>:8: warning: link 'a': package://arm_description/../../x.stl: "
         'the path leaves the package folder', Code.WARNING)]
    # Nowhere to look: one warning per package, at its first use.
    first, second = load(text=text, options=LoadOptions(source='<robot_description>',
                                                        check_uris=True),
                         resources=nowhere).warnings[:2]
    assert str(first) == ("<robot_description>:4: warning: link 'a': package://"
                          "arm_description/meshes/base.stl: package 'arm_description' not "
                          'found; searched: AMENT_PREFIX_PATH (not set), ROS_PACKAGE_PATH (not '
                          'set); give its folder with --package-path (3 in all; also lines 1, 5)')
    assert str(second).startswith("<robot_description>:6: warning: link 'a': "
                                  "package://other/x.stl: package 'other' not found")


def test_gazebo_paths_of_xacro_input_are_checked_at_their_xacro_line(tmp_path):
    from workspaces import make_tree
    from workspaces import PACKAGE
    tree = make_tree(tmp_path)
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '<link name="base"/>\n<gazebo>\n<plugin filename="gz_ros2_control-system" '
                    'name="control">\n'
                    f'<parameters>$(find {PACKAGE})/config/controllers.yaml</parameters>\n'
                    '</plugin>\n</gazebo>\n</robot>\n')
    (warning,) = load(str(path), LoadOptions(check_uris=True),
                      resources=find_resources([str(tree['src'])], environ={})).warnings
    assert str(warning) == (f"{path}:5: warning: <gazebo>: <parameters>: {tree['package']}/"
                            'config/controllers.yaml: no such file or folder: '
                            f"{tree['package']}/config/controllers.yaml")


def test_urdf_elements_sdformat_has_no_place_for_are_warned_about_once_per_kind():
    # libsdformat ignores <transmission> and <ros2_control>; so does the conversion, saying so.
    text = ('<robot name="r">\n<link name="a"/>\n'
            + ''.join(f'<transmission name="t{i}"><type>x</type></transmission>\n'
                      for i in range(5))
            + '<ros2_control name="sys" type="system"/>\n<webots/>\n'
            '<gazebo><plugin name="p" filename="f"><ignition:foo>1</ignition:foo></plugin>'
            '</gazebo>\n</robot>')
    converted = to_sdf(load(text=text, options=LoadOptions(source='r.urdf')))
    assert '<transmission' not in converted.sdf and '<ros2_control' not in converted.sdf
    assert '<ignition:foo>1</ignition:foo>' in converted.sdf  # a <gazebo> blob as written
    left_out = [str(w) for w in converted.warnings if w.code == 'no-sdf-equivalent']
    assert left_out == [
        "r.urdf:3: warning: robot 'r': 5 <transmission> elements ('t0', 't1', 't2', ...) are "
        'left out: SDFormat has no place for them (libsdformat ignores them too)',
        "r.urdf:8: warning: robot 'r': <ros2_control> 'sys' is left out: SDFormat has no "
        'place for it (libsdformat ignores it too)',
        "r.urdf:9: warning: robot 'r': <webots> is left out: SDFormat has no place for it "
        '(libsdformat ignores it too)']


def test_an_unknown_top_level_element_is_one_warning_the_readers():
    text = ('<robot name="r" xmlns:x="urn:x">\n<link name="a"/>\n<inertial/>\n<x:inertial/>\n'
            '</robot>')
    loaded = load(text=text, options=LoadOptions(source='r.urdf'))
    warnings = combine(loaded.warnings, to_sdf(loaded).warnings)
    assert [str(w) for w in warnings if w.code != 'massless-link'] == [
        "r.urdf:3: warning: robot 'r': unknown element <inertial> in <robot> is ignored (URDF "
        'puts it in <link>)',
        "r.urdf:4: warning: robot 'r': <{urn:x}inertial> is left out: SDFormat has no place "
        'for it (libsdformat ignores it too)']  # namespaced: the reader says nothing of it


def test_load_reports_the_package_lookups_warnings_at_their_find(tmp_path):
    from workspaces import make_package
    from workspaces import ROBOT_XACRO
    first = make_package(tmp_path / 'a' / 'arm_description')
    make_package(tmp_path / 'b' / 'arm_description')
    robot = tmp_path / 'robot.urdf.xacro'
    robot.write_text(ROBOT_XACRO)
    loaded = load(str(robot), resources=find_resources([str(tmp_path)], environ={}))
    assert [(str(w.location), w.code) for w in loaded.warnings] == [
        (f'{robot}:3', Code.DUPLICATE_PACKAGE)]
    assert f'using {first} (--package-path)' in loaded.warnings[0].message


def test_check_reports_a_visual_material_without_name():
    loaded = load(text='<robot name="r">\n<link name="a">\n<visual><geometry><sphere radius="1"/>'
                  '</geometry>\n<material><color rgba="1 0 0 1"/></material></visual>\n'
                  '<collision><geometry><sphere radius="1"/></geometry></collision>\n</link>\n'
                  '</robot>', options=LoadOptions(source='r.urdf'))
    [found] = [d for d in check(loaded) if d.code is Code.NAMELESS_MATERIAL]
    assert str(found).startswith("r.urdf:4: warning: link 'a': <material> has no name "
                                 'attribute: libsdformat and urdfdom refuse it and drop this '
                                 "visual and the link's collision")


# --- SDFormat documents: includes, worlds ------------------------------------------------------

MIMIC_LOOP = """<model name="b"><link name="l0"/><link name="l1"/><link name="l2"/>
<joint name="j1" type="revolute"><parent>l0</parent><child>l1</child>
<axis><xyz>0 0 1</xyz><mimic joint="j2"/></axis></joint>
<joint name="j2" type="revolute"><parent>l1</parent><child>l2</child>
<axis><xyz>0 0 1</xyz><mimic joint="j1"/></axis></joint></model>"""


def test_loaded_keeps_the_resources_it_was_loaded_with(tmp_path):
    """The entry point's resources go down to every reader; load builds one default else."""
    given = find_resources(environ={})
    urdf = load(text='<robot name="r"><link name="a"/></robot>', resources=given)
    sdf = load(text='<sdf version="1.9"><model name="m"><link name="a"/></model></sdf>',
               resources=given)
    assert urdf.resources is given and sdf.resources is given
    assert given.models.packages is given.packages  # model://NAME as the package NAME
    path = tmp_path / 'r.urdf'
    path.write_text('<robot name="r"><link name="a"/></robot>')
    built = load(str(path)).resources  # the default: around the input, then the environment
    assert isinstance(built, Resources) and built.packages.package_path.near == str(path)
    assert load(text=path.read_text()).resources.packages.package_path.near is None


def test_a_file_is_looked_up_by_one_set_of_rules_its_package_first(tmp_path, monkeypatch):
    """Includes and the URI check of one load look around the file alike, once each."""
    from sdf_tools.resources import packages
    from workspaces import make_package
    from workspaces import PACKAGE
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)
    package = make_package(tmp_path / PACKAGE)
    (package / 'models').mkdir()
    (package / 'models' / 'arm.sdf').write_text(
        '<sdf version="1.9"><model name="arm"><link name="a"><visual name="v"><geometry><mesh>'
        f'<uri>package://{PACKAGE}/meshes/base.stl</uri></mesh></geometry></visual></link>'
        '</model></sdf>')
    world = package / 'world.sdf'
    world.write_text('<sdf version="1.9"><model name="m"><include>'
                     f'<uri>package://{PACKAGE}/models/arm.sdf</uri></include></model></sdf>')
    built = []
    original = packages.PackageResolver.__init__

    def counted(self, *args, **kwargs):
        built.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(packages.PackageResolver, '__init__', counted)
    loaded = load(str(world), LoadOptions(check_uris=True))
    assert loaded.warnings == () and [m.name for m in loaded.models] == ['m']
    assert built == [loaded.resources.packages]  # the one default, used by both


def test_includes_are_found_through_the_environment(tmp_path, monkeypatch):
    from model_folders import make_model
    make_model(tmp_path / 'gz', 'box', '<model name="box"><link name="l"/></model>')
    world = tmp_path / 'world.sdf'
    world.write_text('<sdf version="1.9"><world name="w"><include><uri>model://box</uri>'
                     '</include></world></sdf>')
    for name in ('GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
                 'GAZEBO_MODEL_PATH'):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(DescriptionError, match="<include> of 'model://box' cannot be "
                       'resolved: model://box: not found in GZ_SIM_RESOURCE_PATH .not set.'):
        load(str(world))
    monkeypatch.setenv('GZ_SIM_RESOURCE_PATH', str(tmp_path / 'gz'))
    loaded = load(str(world))
    assert (loaded.robot.name, loaded.robot.links[0].location.source) == \
        ('box', str(tmp_path / 'gz' / 'box' / 'model.sdf'))
    assert loaded.document.worlds[0].name == 'w' and loaded.models == (loaded.robot,)
    box = tmp_path / 'gz' / 'box'
    assert loaded.inputs == (str(world), str(box / 'model.sdf'), str(box / 'model.config'))
    # A folder given first wins; one that does not exist is refused.
    make_model(tmp_path / 'given', 'box', '<model name="given"><link name="l"/></model>')
    given = find_resources(resource_path=[str(tmp_path / 'given')])
    assert load(str(world), resources=given).robot.name == 'given'
    with pytest.raises(ValueError, match='--resource-path .*nope: no such folder'):
        find_resources(resource_path=[str(tmp_path / 'nope')])


def test_whole_document_loads_every_model_for_check():
    text = f'<sdf version="1.11"><world name="w"><model name="a"><link name="l"/></model>\n' \
           f'{MIMIC_LOOP}</world></sdf>'
    with pytest.raises(DescriptionError, match=r"holds 2 models \('a', 'b'\); choose one"):
        load(text=text)
    loaded = load(text=text, options=LoadOptions(whole_document=True))
    assert [m.name for m in loaded.models] == ['a', 'b']
    assert (loaded.robot.name, loaded.robot.links) == ('w', ())
    # The reader warns about the second model's mimic loop; check() compiles every model,
    # and compile_tree refuses it (an error).
    (warning,) = loaded.warnings
    (problem,) = check(loaded)
    assert problem.message == warning.message == \
        "mimic joints form a loop: 'j1' -> 'j2' -> 'j1'"
    assert (warning.severity, problem.severity) == (Severity.WARNING, Severity.ERROR)
    # A model asked for by name is the one compiled (the reader's warnings stay).
    assert check(load(text=text, options=LoadOptions(whole_document=True, model='a'))) == \
        (warning,)
    with pytest.raises(DescriptionError, match="no model named 'c'"):
        load(text=text, options=LoadOptions(whole_document=True, model='c'))
    empty = load(text='<sdf version="1.9"><world name="e"/></sdf>',
                 options=LoadOptions(whole_document=True))
    assert (empty.models, check(empty)) == ((), ())


def test_check_of_a_world_states_each_models_problems_once_in_model_order():
    # The reader's warnings restated by later steps (compile_tree, the inertials libsdformat
    # refuses), model after model; the same list as when each step was combined in turn.
    text = ('<sdf version="1.9"><world name="w">\n'
            '<model name="a"><link name="l"><inertial><mass>-1</mass></inertial></link>'
            f'</model>\n{MIMIC_LOOP}\n'
            '<model name="c"><link name="l"><inertial><mass>-1</mass></inertial></link>\n'
            '<link name="m"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy>'
            '<izz>3</izz></inertia></inertial></link>\n'
            '<link name="n"/><joint name="k" type="revolute"><parent>l</parent><child>n'
            '</child><axis><xyz>0 0 1</xyz><mimic joint="nope"/></axis></joint></model>\n'
            '</world></sdf>\n')
    loaded = load(text=text, options=LoadOptions(whole_document=True))
    assert [(d.code, d.location.line) for d in loaded.warnings] == [
        (Code.NEGATIVE_MASS, 2), (Code.CYCLE, 4), (Code.MISSING_JOINT, 10),
        (Code.NEGATIVE_MASS, 8), (Code.BAD_INERTIA, 9)]
    assert [(d.code, d.severity.value, d.location.line, d.entity) for d in check(loaded)] == [
        (Code.NEGATIVE_MASS, 'error', 2, "link 'l'"), (Code.CYCLE, 'error', 4, "joint 'j1'"),
        (Code.MISSING_JOINT, 'warning', 10, "joint 'k'"),
        (Code.NEGATIVE_MASS, 'error', 8, "link 'l'"), (Code.BAD_INERTIA, 'error', 9, "link 'm'")]


def test_check_of_a_world_takes_linear_time_in_its_models():
    # Each model's problems were once combined with all those gathered before them: a world
    # of 4000 models, one problem each, took 37 s. Four times the models: about four times
    # the CPU time (quadratic: sixteen).
    def cpu_seconds(n):
        text = '<sdf version="1.9"><world name="w">' + ''.join(
            f'<model name="m{i}"><link name="l"><inertial><mass>-1</mass></inertial></link>'
            '</model>\n' for i in range(n)) + '</world></sdf>'
        loaded = load(text=text, options=LoadOptions(whole_document=True))
        assert len(check(loaded)) == n
        return support.least_cpu_seconds(check, loaded)

    cpu_seconds(50)  # imports
    small, large = cpu_seconds(500), cpu_seconds(2000)
    assert large < 8.0 * small, (f'4x the models took {large / small:.1f}x the CPU time '
                                 f'({small:.3f} s -> {large:.3f} s): not linear')


def test_the_places_and_warnings_of_xacro_input_name_the_xacro_lines(tmp_path):
    path = tmp_path / 'robot.urdf.xacro'
    path.write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
                    '<xacro:macro name="place" params="z">\n'
                    '  <origin rpy="0 0 ${z}"/>\n'
                    '</xacro:macro>\n'
                    '<link name="a"/><link name="b"/>\n'
                    '<joint name="j" type="fixed"><parent link="a"/><child link="b"/>\n'
                    '  <xacro:place z="1"/>\n'
                    '  <origin xyz="0 0 2"/>\n'
                    '  <orgin/>\n'
                    '</joint>\n</robot>\n')
    again, typo = load(str(path)).robot.warnings
    assert str(again).endswith('read only the first (see line 3)')
    assert (again.location.line, str(typo)) == (8, f"{path}:9: warning: joint 'j': unknown "
                                                'element <orgin> in <joint> is ignored; did '
                                                'you mean <origin>?')
    path.write_text(path.read_text().replace('<child link="b"/>', '<child lnk="b"/>'))
    with pytest.raises(DescriptionError) as caught:
        load(str(path))
    assert [str(d) for d in caught.value.warnings[:2]] == [str(again), str(typo)]
    assert caught.value.partial.name == 'r'
    assert str(caught.value.diagnostic) == (f"{path}:6: joint 'j': <child> is missing required "
                                            "attribute 'link'; did you mean 'link' for 'lnk'?")
