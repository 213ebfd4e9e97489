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

"""Tests of sdf_tools.pipeline: the one road from a description to a model or SDFormat."""

import pytest
from sdf_tools import pipeline
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
