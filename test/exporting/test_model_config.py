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

"""Tests of sdf_tools.exporting.model_config: Gazebo's model.config from a package.xml."""

from lxml import etree
from sdf_tools.exporting.model_config import model_config
from sdf_tools.resources.package_places import Manifest


def fields(text):
    root = etree.fromstring(text.encode())
    return {'tags': [e.tag for e in root], 'name': root.findtext('name'),
            'version': root.findtext('version'),
            'sdf': (root.find('sdf').get('version'), root.findtext('sdf')),
            'authors': [(a.findtext('name'), a.findtext('email')) for a in root.iter('author')],
            'description': root.findtext('description')}


def test_the_fields_come_from_the_package_xml():
    manifest = Manifest('arm_description', '2.1.0', 'An arm & <its> meshes.',
                        authors=(('Ann', None), ('Mia', 'mia@example.com')),
                        maintainers=(('Mia', 'other@example.com'), ('Max', 'max@example.com')))
    text = model_config('arm', '1.10', manifest, 'arm.urdf.xacro')
    assert text.startswith('<?xml version="1.0"?>\n<model>\n  <name>arm</name>\n')
    assert fields(text) == {
        'tags': ['name', 'version', 'sdf', 'author', 'author', 'author', 'description'],
        'name': 'arm', 'version': '2.1.0', 'sdf': ('1.10', 'model.sdf'),
        'authors': [('Ann', None), ('Mia', 'mia@example.com'), ('Max', 'max@example.com')],
        'description': 'An arm & <its> meshes.'}


def test_without_a_package_the_version_is_1_0_and_the_description_says_the_source():
    assert fields(model_config('arm', '1.9', None, 'arm.urdf')) == {
        'tags': ['name', 'version', 'sdf', 'description'], 'name': 'arm', 'version': '1.0',
        'sdf': ('1.9', 'model.sdf'), 'authors': [],
        'description': 'arm, exported by sdf_tools from arm.urdf'}
    assert fields(model_config('arm', '1.9', Manifest('p')))['description'] == \
        'arm, exported by sdf_tools'
