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

import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Severity
from sdf_tools.loading import check
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import model_finder
from sdf_tools.loading import package_resolver
from sdf_tools.loading import to_sdf
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
        load(text=EXAMPLE.read_bytes(), options=LoadOptions(allow_xacro=False))
    with pytest.raises(DescriptionError, match='the description is empty'):
        load(text=' \n', options=LoadOptions(source='<robot_description>'))
    with pytest.raises(ValueError, match='give a path or a text'):
        load()


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
    problems = check(loaded)
    # compile_tree says it again, knowing more (an error): it is reported once.
    assert [(d.code, d.severity.value) for d in problems] == [
        (Code.MISSING_JOINT, 'error'), (Code.MASSLESS_LINK, 'warning'),
        (Code.MASSLESS_LINK, 'warning'), (Code.MIMIC_DROPPED, 'warning')]


def test_package_uris_are_checked_when_asked(tmp_path):
    from workspaces import make_tree
    tree = make_tree(tmp_path)
    found = package_resolver([str(tree['src'])], environ={})
    nowhere = package_resolver(environ={})

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
    options = LoadOptions(source='<robot_description>', packages=found)
    assert load(text=text, options=options).warnings == ()  # not asked: nothing checked
    searched = (f"searched: {tree['src']} (--package-path: 2 package(s)), AMENT_PREFIX_PATH "
                '(not set), ROS_PACKAGE_PATH (not set); give its folder with --package-path')
    problems = load(text=text, options=LoadOptions(source='<robot_description>', packages=found,
                                                   check_uris=True)).warnings
    assert [(str(d), d.code) for d in problems] == [
        ("<robot_description>:5: warning: link 'a': package://arm_description/meshes/"
         f"none.stl: no such file: {tree['package']}/meshes/none.stl", Code.MISSING_FILE),
        ("<robot_description>:6: warning: link 'a': package://other/x.stl: package 'other' "
         f'not found; {searched}', Code.PACKAGE_NOT_FOUND),
        ("<robot_description>:8: warning: link 'a': package://arm_description/../../x.stl: "
         'the path leaves the package folder', Code.WARNING),
        ("<robot_description>:1: warning: material 'wood': package://arm_description/w.png: "
         f"no such file: {tree['package']}/w.png", Code.MISSING_FILE)]
    # Nowhere to look: one warning per package, at its first use.
    first, second = load(text=text, options=LoadOptions(source='<robot_description>',
                                                        packages=nowhere,
                                                        check_uris=True)).warnings[:2]
    assert str(first) == ("<robot_description>:4: warning: link 'a': package://"
                          "arm_description/meshes/base.stl: package 'arm_description' not "
                          'found; searched: AMENT_PREFIX_PATH (not set), ROS_PACKAGE_PATH (not '
                          'set); give its folder with --package-path')
    assert str(second).startswith("<robot_description>:6: warning: link 'a': "
                                  "package://other/x.stl: package 'other' not found")


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


# --- SDFormat documents: includes, worlds ------------------------------------------------------

MIMIC_LOOP = """<model name="b"><link name="l0"/><link name="l1"/><link name="l2"/>
<joint name="j1" type="revolute"><parent>l0</parent><child>l1</child>
<axis><xyz>0 0 1</xyz><mimic joint="j2"/></axis></joint>
<joint name="j2" type="revolute"><parent>l1</parent><child>l2</child>
<axis><xyz>0 0 1</xyz><mimic joint="j1"/></axis></joint></model>"""


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
    assert loaded.worlds[0].name == 'w' and loaded.models == (loaded.robot,)
    # A folder given first wins; one that does not exist is refused.
    make_model(tmp_path / 'given', 'box', '<model name="given"><link name="l"/></model>')
    given = model_finder([str(tmp_path / 'given')])
    assert load(str(world), LoadOptions(models=given)).robot.name == 'given'
    with pytest.raises(ValueError, match='--resource-path .*nope: no such folder'):
        model_finder([str(tmp_path / 'nope')])


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
