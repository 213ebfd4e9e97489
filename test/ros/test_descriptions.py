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


"""Tests of sdf_tools.ros.descriptions: what the nodes make of a description (no rclpy)."""

from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.errors import Code
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.resources.lookup import find_resources
from sdf_tools.ros.descriptions import convert
from sdf_tools.ros.descriptions import load_model

ROBOT = ('<robot name="r">\n<link name="a"><inertial><mass value="1"/><inertia ixx="1" ixy="0" '
         'ixz="0" iyy="1" iyz="0" izz="1"/></inertial>\n<collision><geometry><mesh '
         'filename="package://arm_description/meshes/none.stl"/></geometry></collision>\n'
         '</link>\n</robot>\n')


def test_uris_are_checked_only_with_a_resolver(tmp_path):
    from workspaces import make_tree
    tree = make_tree(tmp_path)
    found = find_resources([str(tree['src'])], environ={})
    assert load_model(ROBOT).warnings == ()  # no resolver: nothing checked
    assert convert(ROBOT).warnings == ()
    expected = tuple(str(d) for d in load(text=ROBOT, options=LoadOptions(
        source='<robot_description>', check_uris=True), resources=found).warnings)
    assert len(expected) == 1 and 'none.stl: no such file' in expected[0]
    assert load_model(ROBOT, resources=found).warnings == expected
    assert convert(ROBOT, resources=found).warnings == expected  # checked once
    options = ConversionOptions(packages=found.packages)
    assert convert(ROBOT, options).warnings == expected


def test_a_missing_mimic_source_is_warned_about_once():
    text = ('<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="continuous">'
            '<parent link="a"/><child link="b"/><mimic joint="nope"/></joint></robot>')
    (warning,) = load_model(text).warnings  # the reader's, restated by compile_tree
    assert warning == ("<robot_description>:1: warning: joint 'j': <mimic> names joint "
                       "'nope', which does not exist; the <mimic> is ignored and the joint "
                       'moves independently')


def test_xacro_is_refused_and_the_format_is_told():
    model = load_model('<sdf version="1.9"><model name="s"><link name="a"/></model></sdf>')
    assert model.robot.source_format == 'sdf' and model.tree.link_names == ('a',)
    conversion = convert('<sdf version="1.9"><model name="s"><link name="a"/></model></sdf>')
    assert conversion.source_format == 'sdf' and '<model name' in conversion.sdf
    for call in (load_model, convert):
        try:
            call('<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="${x}"/>')
        except Exception as e:
            assert getattr(e, 'diagnostics')[0].code == Code.XACRO
        else:
            raise AssertionError(f'{call.__name__} expanded xacro')


def test_the_nodes_warnings_are_one_a_problem(tmp_path):
    # A package not found is one warning, its search path once; a warning repeated in the
    # file one with its count (102 lines for a real humanoid under ros2 launch before).
    geometry = '<visual><geometry name="g"><mesh filename="package://nowhere/{}.stl"/>' \
        '</geometry></visual>'
    inertial = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
                'izz="1"/></inertial>')
    text = (f'<robot name="r">\n<link name="a">{inertial}\n'
            + '\n'.join(geometry.format(n) for n in range(4)) + '\n</link>\n</robot>\n')
    nowhere = find_resources([str(tmp_path)], environ={})
    warnings = load_model(text, resources=nowhere).warnings
    assert len(warnings) == 2, warnings
    assert warnings[0].endswith("unknown attribute 'name' of <geometry> is ignored (4 in all; "
                                'also lines 4, 5, 6)')
    assert warnings[1].count('searched: ') == 1 and warnings[1].endswith(
        '(4 in all; also lines 4, 5, 6)')
    assert convert(text, resources=nowhere).warnings == warnings
