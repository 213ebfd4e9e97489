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
Tests of :mod:`sdf_tools.formats.sdf.spec`: the SDFormat vocabulary and its generator.

The generator is run on description files written here (one per version, short), and on a
libsdformat checkout when ``SDFORMAT_CHECKOUT`` names one: the table shipped must be its
output. The table's ranges are held to libsdformat 12.3's (the oracle), element by element.
"""

import json
import os
from pathlib import Path

import pytest
from sdf_tools.errors import Code
from sdf_tools.formats.sdf import spec
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.spec import generate
from sdf_tools.formats.sdf.spec import nearest
from sdf_tools.formats.sdf.spec import vocabulary
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS
from support import oracle_path
from support import run_oracle

ROOT = """<!-- Root -->
<element name="sdf" required="1">
  <description>Prose that is left out.</description>
  <attribute name="version" type="string" default="1.4" required="1">
    <description>More prose.</description>
  </attribute>
  <include filename="model.sdf" required="*"/>
</element>
"""
MODEL = """<element name="model" required="*">
  <attribute name="name" type="string" default="__default__" required="1"/>
  <element name="static" type="bool" default="false" required="0"/>
  <element name="mu" type="double" default="1" min="0.0" required="0">
    <description>Friction.</description>
  </element>
  {extra}
  <element name="model" ref="model" required="*"><description>Nested.</description></element>
  <include filename="plugin.sdf" required="*"/>
</element>
"""
PLUGIN = """<element name="plugin" required="*">
  <attribute name="filename" type="string" default="__default__" required="1"/>
  <element copy_data="true" required="*"><description>Copied.</description></element>
</element>
"""


def _checkout(path: Path) -> Path:
    for version in READABLE_VERSIONS:
        folder = path / 'sdf' / version
        folder.mkdir(parents=True)
        (folder / 'root.sdf').write_text(ROOT)
        extra = '<element name="kinematic" type="bool" default="false" required="0"/>' \
            if version == '1.11' else ''
        (folder / 'model.sdf').write_text(MODEL.format(extra=extra))
        (folder / 'plugin.sdf').write_text(PLUGIN)
    return path


def test_the_generator_keeps_names_types_and_numbers_and_no_prose(tmp_path):
    table = generate.table(_checkout(tmp_path))
    text = generate.dump(table)
    assert json.loads(text) == table and 'rose' not in text and 'Friction' not in text
    assert table['files']['model.sdf'][0] == {
        'name': 'model', 'required': '*',
        'attributes': [['name', 'string', '__default__', '1']],
        'elements': [{'name': 'static', 'type': 'bool', 'default': 'false'},
                     {'name': 'mu', 'type': 'double', 'default': '1', 'min': '0.0'},
                     {'name': 'model', 'required': '*', 'ref': 'model'},
                     {'include': 'plugin.sdf'}]}
    assert table['files']['plugin.sdf'] == [{
        'name': 'plugin', 'required': '*', 'copy_data': True,
        'attributes': [['filename', 'string', '__default__', '1']]}]
    # A file that is the same in several versions is written once.
    assert [table['versions'][v]['model.sdf'] for v in READABLE_VERSIONS] == [0] * 7 + [1]
    assert table['files']['model.sdf'][1]['elements'][2]['name'] == 'kinematic'


def test_the_generator_writes_the_table_of_a_checkout(tmp_path):
    output = tmp_path / 'table.json'
    assert generate.main([str(_checkout(tmp_path / 'sdformat')), str(output)]) == 0
    assert json.loads(output.read_text()) == generate.table(tmp_path / 'sdformat')
    assert generate.main([]) == 2
    with pytest.raises(SystemExit, match='is not a folder'):
        generate.main([str(tmp_path / 'nothing'), str(output)])


def test_the_table_read_by_variant_is_the_json_it_is(tmp_path):
    # The shipped table and one the generator writes: read a variant at a time (the layout
    # generate.dump writes), every version and every variant is what json.load reads.
    output = tmp_path / 'table.json'
    assert generate.main([str(_checkout(tmp_path / 'sdformat')), str(output)]) == 0
    for path in (Path(generate.__file__).with_name('table.json'), output):
        text = path.read_text()
        whole, table = json.loads(text), spec._Table(text)
        assert table.versions == whole['versions']
        read = {name: [table.row(name, index) for index in range(len(variants))]
                for name, variants in whole['files'].items()}
        assert read == whole['files']
        with pytest.raises(KeyError):
            table.row('no_such.sdf', 0)


@pytest.mark.skipif('SDFORMAT_CHECKOUT' not in os.environ,
                    reason='SDFORMAT_CHECKOUT names no checkout of gazebosim/sdformat')
def test_the_shipped_table_is_the_generators_output():
    shipped = Path(generate.__file__).with_name('table.json').read_text()
    assert generate.dump(generate.table(Path(os.environ['SDFORMAT_CHECKOUT']))) == shipped


def test_each_version_reads_its_own_vocabulary():
    # sdf/1.N/joint.sdf: 1.10 brought <screw_thread_pitch>, 1.11 <mimic> (in mimic.sdf).
    for version in READABLE_VERSIONS:
        joint = vocabulary(version).at('model/joint')
        assert ('screw_thread_pitch' in joint.children) == (version in ('1.10', '1.11'))
        assert ('mimic' in joint.children['axis'].children) == (version == '1.11')
    mu = vocabulary('1.9').at('model/link/collision/surface/friction/ode/mu')
    assert (mu.type, mu.default, mu.min, mu.max) == ('double', '1', '0.0', None)
    # A nested model is the model; a plugin's content is not described.
    model = vocabulary('1.9').at('model')
    assert model.children['model'] is model
    assert model.children['plugin'].copy_data and not model.children['plugin'].children
    assert vocabulary('1.9').at('model/nothing') is None


def test_the_nearest_name_sets_case_and_underscores_aside_first():
    assert nearest('min_depth', ['minDepth', 'mu1']) == 'minDepth'
    assert nearest('selfColide', ['self_collide', 'selfCollide']) == 'selfCollide'
    assert nearest('mu11', ['mu1', 'mu2', 'kp']) == 'mu1'
    assert nearest('link7', ['base', 'wheel']) is None


def _bounded():
    """Yield ``(path, spec)`` of each element with a min or max below a 1.9 link, once."""
    seen = set()
    stack = [('model/link', vocabulary('1.9').at('model/link'))]
    while stack:
        path, spec = stack.pop()
        for tag, child in spec.children.items():
            key = (tag, child.min, child.max, path.rsplit('/', 1)[-1])
            if (child.min or child.max) and child.type != 'vector2d' and key not in seen:
                seen.add(key)
                yield f'{path}/{tag}', child
            if child.children and tag not in ('model', 'link', 'joint') and \
                    path.count('/') < 8:
                stack.append((f'{path}/{tag}', child))


def _document(path: str, value: str) -> str:
    """Return a 1.9 model with the element at ``path`` (below the model) set to ``value``."""
    tags = path.split('/')[1:]
    opened = []
    for i, tag in enumerate(tags[:-1]):
        attributes = ' name="n"' if tag in ('link', 'collision', 'visual', 'sensor',
                                            'particle_emitter') else ''
        if tag == 'sensor':
            attributes += f' type="{tags[i + 1]}"'
        elif tag == 'noise':
            attributes += ' type="gaussian"'
        elif tag == 'particle_emitter':
            attributes += ' type="box"'
        opened.append(f'<{tag}{attributes}>')
    closing = ''.join(f'</{tag}>' for tag in reversed(tags[:-1]))
    return (f'<sdf version="1.9"><model name="m">{"".join(opened)}<{tags[-1]}>{value}'
            f'</{tags[-1]}>{closing}</model></sdf>')


BOUNDED = list(_bounded())


@pytest.mark.parametrize('path, spec', BOUNDED, ids=[path for path, _ in BOUNDED])
def test_the_tables_ranges_are_libsdformats(path, spec, tmp_path):
    for bound, outside, word in ((spec.min, -1, 'less'), (spec.max, 1, 'greater')):
        if bound is None:
            continue
        value = str(float(bound) + outside) if spec.type == 'double' else \
            str(int(bound) + outside)
        text = _document(path, value)
        warnings = [w for w in parse_sdf(text).warnings if w.code == Code.LOADER_REFUSES]
        assert len(warnings) == 1 and f'is {word} than the' in warnings[0].message
        if oracle_path() is not None:
            file = tmp_path / 'bounded.sdf'
            file.write_text(text)
            result = run_oracle('check', file)
            assert f'is {word} than the' in result.stderr, result.stdout + result.stderr
            assert f"for key [{path.rsplit('/', 1)[-1]}]" in result.stderr
