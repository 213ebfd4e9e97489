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


"""Kept XML content (sensors, plugins, <gazebo> blobs) compared as the settings it holds."""

import math

from sdf_tools.comparing.blobs import compare_elements
from sdf_tools.xmlio.element import parse_element


def differences(a, b, tol=1e-6):
    return [(d.path, d.a, d.b) for d in compare_elements(
        [parse_element(t) for t in a], [parse_element(t) for t in b], tol)]


def test_the_order_of_elements_and_attributes_does_not_matter():
    a = ['<sensor name="s" type="ray"><update_rate>30</update_rate><visualize>1</visualize>'
         '</sensor>', '<plugin name="p" filename="x.so"/>']
    b = ['<plugin filename="x.so" name="p"/>', '<sensor type="ray" name="s"><visualize>1'
         '</visualize><update_rate>30</update_rate></sensor>']
    assert differences(a, b) == []


def test_numbers_compare_within_the_tolerance():
    a = ['<sensor name="s"><update_rate>30</update_rate><range>0.1 30</range></sensor>']
    b = ['<sensor name="s"><update_rate>30.0000001</update_rate><range>0.1 31</range>'
         '</sensor>']
    assert differences(a, b) == [("sensor 's'/range", '0.1 30', '0.1 31')]


def test_true_and_1_are_one_boolean():
    assert differences(['<visualize>true</visualize>'], ['<visualize>1</visualize>']) == []
    assert differences(['<visualize>true</visualize>'], ['<visualize>0</visualize>']) == [
        ('visualize', 'true', '0')]


def test_an_empty_element_configures_nothing():
    a = ['<surface><contact><ode/></contact><friction><ode/></friction></surface>']
    assert differences(a, []) == []


def test_a_pose_compares_as_a_pose():
    # Roll and yaw of pi with pitch p are the rotation of pitch pi - p.
    a = ['<pose>1 2 3 3.141592653589793 0.5 3.141592653589793</pose>']
    b = ['<pose>1 2 3 0 2.641592653589793 0</pose>']
    degrees = [f'<pose degrees="true">1 2 3 0 {math.degrees(2.641592653589793)!r} 0</pose>']
    assert differences(a, b) == []
    assert differences(b, degrees, tol=1e-6) == []
    assert differences(a, ['<pose>1 2 3 0 2.7 0</pose>'])[0][0] == 'pose'


def test_an_element_on_one_side_is_shown_whole_when_it_holds_only_text():
    a = ['<sensor name="c"><contact><collision>x</collision></contact></sensor>']
    b = ['<sensor name="c"><contact><collision>x</collision><topic>t</topic></contact>'
         '</sensor>', '<plugin name="p"><a>1</a></plugin>']
    assert differences(a, b) == [("sensor 'c'/contact/topic", None, '<topic>t</topic>'),
                                 ("plugin 'p'", None, '<plugin name="p">')]


def test_elements_of_one_tag_pair_by_name_then_in_order():
    a = ['<plugin name="a"><k>1</k></plugin>', '<plugin name="b"><k>2</k></plugin>',
         '<light>1</light>', '<light>2</light>']
    b = ['<plugin name="b"><k>2</k></plugin>', '<plugin name="a"><k>1</k></plugin>',
         '<light>1</light>', '<light>3</light>']
    assert differences(a, b) == [('light #2', '2', '3')]
