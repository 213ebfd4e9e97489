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

"""Tests of the checks of kept SDFormat content (:mod:`sdf_tools.formats.sdf.content`)."""

import pytest
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.sdf.reader import parse_sdf
from test_sdf_reader import oracle_reads
from test_sdf_reader import oracle_refuses
from test_sdf_reader import sdf


def _model(link='', visual='', collision='', joint='', model=''):
    return sdf(f"""<model name="m">{model}<link name="a">{link}
<visual name="v"><geometry><box/></geometry>{visual}</visual>
<collision name="c"><geometry><box/></geometry>{collision}</collision></link><link name="b"/>
<joint name="j" type="revolute"><parent>a</parent><child>b</child>{joint}</joint></model>""")


BAD = [
    ({'link': '<velocity_decay><linear>bad</linear></velocity_decay>'}, 2,
     "link 'a': <velocity_decay><linear> must be a number, got 'bad'"),
    ({'visual': '<material><diffuse>1 0 0 0 0</diffuse></material>'}, 3,
     "link 'a': <material><diffuse> must be 3 or 4 numbers, got '1 0 0 0 0'"),
    ({'collision': '<surface><friction><ode><mu>high</mu></ode></friction></surface>'}, 4,
     "link 'a': <surface><friction><ode><mu> must be a number, got 'high'"),
    ({'collision': '<max_contacts>many</max_contacts>'}, 4,
     "link 'a': <max_contacts> must be an integer, got 'many'"),
    ({'joint': '<physics><provide_feedback>yes</provide_feedback></physics>'}, 5,
     "joint 'j': <physics><provide_feedback> must be true or false, got 'yes'"),
    ({'model': '<self_collide>maybe</self_collide>'}, 2,
     "model 'm': <self_collide> must be true or false, got 'maybe'"),
]


@pytest.mark.parametrize('parts, line, message', BAD)
def test_values_libsdformat_refuses_in_kept_content_are_errors(parts, line, message, tmp_path):
    text = _model(**parts)
    with pytest.raises(DescriptionError) as info:
        parse_sdf(text, 'r.sdf')
    (error,) = info.value.diagnostics
    assert str(error) == f'r.sdf:{line}: {message} (libsdformat refuses the file)'
    oracle_refuses(text, tmp_path, 'Error')


def test_values_libsdformat_reads_in_kept_content_are_kept(tmp_path):
    text = _model(link='<velocity_decay><linear>inf</linear><angular> 1e-3 </angular>'
                  '</velocity_decay><gravity>0</gravity>',
                  visual='<material><diffuse>1 0 0</diffuse><ambient>1 0 0 1</ambient>'
                  '</material><cast_shadows>TRUE</cast_shadows>',
                  collision='<surface><friction><ode><fdir1>0 0 1</fdir1></ode></friction>'
                  '</surface><max_contacts>+3</max_contacts>',
                  # Content the table does not name (a plugin) is not looked at.
                  joint='<plugin name="p" filename="f"><linear>bad</linear></plugin>')
    robot = parse_sdf(text)
    assert '<linear>inf</linear>' in robot.link('a').extras[0]
    oracle_reads(text, tmp_path)
