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

"""Tests of sdf_tools.loading: the one road from a description to a model or SDFormat."""

import pytest
from sdf_tools import loading as pipeline
from sdf_tools.errors import DescriptionError
import support

EXAMPLE = support.REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'


def test_load_description_expands_xacro_with_arguments():
    robot = pipeline.load_description(str(EXAMPLE), mappings={'prefix': 'r_',
                                                              'with_camera': 'false'})
    names = {link.name for link in robot.links}
    assert 'r_base_link' in names and 'r_camera_link' not in names
    assert robot.source.endswith('(expanded by xacro)')


def test_parse_description_dispatches_on_content():
    urdf = pipeline.parse_description('<robot name="u"><link name="a"/></robot>')
    sdf = pipeline.parse_description('<sdf version="1.9"><model name="s"><link name="a"/>'
                                     '</model></sdf>')
    assert (urdf.source_format, sdf.source_format) == ('urdf', 'sdf')
    with pytest.raises(DescriptionError, match='xacro markup must be expanded first'):
        pipeline.parse_description(EXAMPLE.read_bytes())


def test_to_sdf_converts_urdf_and_writes_the_other_formats():
    """URDF goes through the libsdformat-compatible converter, the rest through the writer."""
    urdf = pipeline.parse_description(
        '<robot name="u"><link name="a"/><link name="b"/>'
        '<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>')
    text, warnings = pipeline.to_sdf(urdf)
    assert '<model name="u">' in text and '<joint' not in text  # the fixed joint is lumped
    assert any(w.code == 'massless-link' for w in warnings)
    sdf = pipeline.parse_description(
        '<sdf version="1.9"><model name="s"><link name="a"/><link name="b"/>'
        '<joint name="j" type="fixed"><parent>a</parent><child>b</child></joint>'
        '</model></sdf>')
    text, warnings = pipeline.to_sdf(sdf)
    assert "<joint name='j' type='fixed'>" in text and warnings == ()


def test_package_uris_are_checked_when_a_resolver_is_given(tmp_path):
    from sdf_tools.errors import Code
    from sdf_tools.resources.packages import PackagePath
    from sdf_tools.resources.packages import PackageResolver
    from workspaces import make_tree
    tree = make_tree(tmp_path)
    found = PackageResolver(PackagePath.from_environment([str(tree['src'])], environ={}))
    nowhere = PackageResolver(PackagePath.from_environment(environ={}))

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
    assert pipeline.load_model(text).warnings == ()  # no resolver: nothing checked
    assert pipeline.convert(text).warnings == ()
    searched = (f"searched: {tree['src']} (--package-path: 2 package(s)), AMENT_PREFIX_PATH "
                '(not set), ROS_PACKAGE_PATH (not set); give its folder with --package-path')
    robot = pipeline.parse_text(text)
    problems = pipeline.check_package_uris(robot, found)
    assert [(str(d), d.code) for d in problems] == [
        ("<robot_description>:5: warning: link 'a': package://arm_description/meshes/"
         f"none.stl: no such file: {tree['package']}/meshes/none.stl", Code.MISSING_FILE),
        ("<robot_description>:6: warning: link 'a': package://other/x.stl: package 'other' "
         f'not found; {searched}', Code.PACKAGE_NOT_FOUND),
        ("<robot_description>:8: warning: link 'a': package://arm_description/../../x.stl: "
         'the path leaves the package folder', Code.WARNING),
        ("<robot_description>:1: warning: material 'wood': package://arm_description/w.png: "
         f"no such file: {tree['package']}/w.png", Code.MISSING_FILE)]
    assert pipeline.load_model(text, packages=found).warnings == \
        tuple(str(d) for d in problems)
    assert pipeline.convert(text, packages=found).warnings == tuple(str(d) for d in problems)
    # Nowhere to look: one warning per package, at its first use.
    first, second = pipeline.check_package_uris(robot, nowhere)[:2]
    assert str(first) == ("<robot_description>:4: warning: link 'a': package://"
                          "arm_description/meshes/base.stl: package 'arm_description' not "
                          'found; searched: AMENT_PREFIX_PATH (not set), ROS_PACKAGE_PATH (not '
                          'set); give its folder with --package-path')
    assert str(second).startswith("<robot_description>:6: warning: link 'a': "
                                  "package://other/x.stl: package 'other' not found")


def test_a_missing_mimic_source_is_warned_about_once():
    text = ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="continuous">'
            '<parent link="a"/><child link="b"/><mimic joint="nope"/></joint></robot>')
    robot = pipeline.parse_text(text)
    assert [w.code for w in robot.warnings] == ['missing-joint']  # the reader says it
    (warning,) = pipeline.load_model(text).warnings  # and compile_tree, knowing more
    assert warning == ("<robot_description>:1: warning: joint 'j': <mimic> names joint "
                       "'nope', which does not exist; the <mimic> is ignored and the joint "
                       'moves independently')


def test_urdf_elements_sdformat_has_no_place_for_are_warned_about_once_per_kind():
    # libsdformat ignores <transmission> and <ros2_control>; so does the conversion, saying so.
    text = ('<robot name="r">\n<link name="a"/>\n'
            + ''.join(f'<transmission name="t{i}"><type>x</type></transmission>\n'
                      for i in range(5))
            + '<ros2_control name="sys" type="system"/>\n<webots/>\n'
            '<gazebo><plugin name="p" filename="f"><ignition:foo>1</ignition:foo></plugin>'
            '</gazebo>\n</robot>')
    robot = pipeline.parse_description(text, 'r.urdf')
    sdf, warnings = pipeline.to_sdf(robot)
    assert '<transmission' not in sdf and '<ros2_control' not in sdf
    assert '<ignition:foo>1</ignition:foo>' in sdf  # a <gazebo> blob is copied as written
    left_out = [str(w) for w in warnings if w.code == 'no-sdf-equivalent']
    assert left_out == [
        "r.urdf:3: warning: robot 'r': 5 <transmission> elements ('t0', 't1', 't2', ...) are "
        'left out: SDFormat has no place for them (libsdformat ignores them too)',
        "r.urdf:8: warning: robot 'r': <ros2_control> 'sys' is left out: SDFormat has no "
        'place for it (libsdformat ignores it too)',
        "r.urdf:9: warning: robot 'r': <webots> is left out: SDFormat has no place for it "
        '(libsdformat ignores it too)']
