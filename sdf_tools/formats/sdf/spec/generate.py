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
Write :file:`table.json`, the SDFormat vocabulary, from libsdformat's description files.

Usage (from a checkout of https://github.com/gazebosim/sdformat)::

    python -m sdf_tools.formats.sdf.spec.generate PATH/TO/sdformat [OUTPUT]

For each version sdf_tools reads (1.4 to 1.11) it reads ``sdf/1.N/*.sdf`` and keeps, of each
``<element>``, what libsdformat's ``initXml`` reads: its ``name``, ``required`` (``1``,
``*``, ``+``, ``-1`` for deprecated; left out for ``0``), the ``type``, ``default``, ``min`` and
``max`` of its value, its attributes (``name``, ``type``, ``default``, ``required``; an
attribute's ``min`` and ``max`` are not read by libsdformat and not kept), ``copy_data``
(the content of ``<plugin>``, which is not described), ``ref`` (an element whose description
is another file's, read when it is met: a nested ``<model>``) and its children in order,
an ``<include filename>`` of another file's element kept as ``{"include": file}``.
Descriptions (``<description>``) are prose and are left out. A file's element is written
once for all the versions where it is the same (``files``: file name -> its variants;
``versions``: version -> file name -> variant).

The output is compared with the committed table by the maintainer: rerun it against a newer
libsdformat checkout to follow the specification.
"""

import json
from pathlib import Path
import sys
from typing import TypedDict

from lxml import etree
from sdf_tools.formats.sdf.versions import READABLE_VERSIONS

_VALUE = ('type', 'default', 'min', 'max')
_ATTRIBUTE = ('name', 'type', 'default', 'required')

#: An ``<element>`` as the table holds it: JSON text, numbers, lists and objects.
Description = dict[str, object]


class Table(TypedDict):
    """The whole table: version -> file name -> variant, and file name -> its variants."""

    versions: dict[str, dict[str, int]]
    files: dict[str, list[Description]]


def element(node: etree._Element) -> Description:
    """Return an ``<element>`` description as the table holds it (no description text)."""
    out: Description = {'name': node.get('name')}
    if node.get('required') != '0':
        out['required'] = node.get('required')
    if node.get('ref') is not None:
        out['ref'] = node.get('ref')
        return out   # libsdformat replaces it by the referenced file's element when met
    out.update((key, node.get(key)) for key in _VALUE if node.get(key) is not None)
    attributes = [[item.get(key) for key in _ATTRIBUTE] for item in node.iterchildren('attribute')]
    if attributes:
        out['attributes'] = attributes
    children: list[Description] = []
    for item in node.iterchildren('element', 'include'):
        if item.tag == 'include':
            children.append({'include': item.get('filename')})
        elif item.get('copy_data') in ('true', '1'):
            out['copy_data'] = True
        else:
            children.append(element(item))
    if children:
        out['elements'] = children
    return out


def read_version(folder: Path) -> dict[str, Description]:
    """Return ``{file name: element}`` of the description files of one version folder."""
    parser = etree.XMLParser(remove_comments=True, resolve_entities=False, no_network=True)
    files = {}
    for path in sorted(folder.glob('*.sdf')):
        root = etree.parse(str(path), parser).getroot()
        if root.tag == 'element':
            files[path.name] = element(root)
    return files


def table(checkout: Path) -> Table:
    """Return the whole table of a libsdformat checkout (module docstring)."""
    variants: dict[str, list[Description]] = {}   # file name -> [element, ...]
    versions: dict[str, dict[str, int]] = {}
    for version in READABLE_VERSIONS:
        folder = checkout / 'sdf' / version
        if not folder.is_dir():
            raise SystemExit(f'{folder} is not a folder: give the root of an sdformat checkout')
        chosen = {}
        for name, described in read_version(folder).items():
            known = variants.setdefault(name, [])
            if described not in known:
                known.append(described)
            chosen[name] = known.index(described)
        versions[version] = chosen
    return {'versions': versions, 'files': variants}


def dump(data: Table) -> str:
    """
    Return the table as JSON text: one line per version and per variant of a file.

    The package reads the table by these lines, a variant when it is needed (:mod:`.`).
    """
    lines = ['{"versions": {']
    lines += [f'  {json.dumps(v)}: {json.dumps(files, sort_keys=True)},'
              for v, files in data['versions'].items()]
    lines[-1] = lines[-1].rstrip(',')
    lines.append('}, "files": {')
    for name, known in sorted(data['files'].items()):
        lines.append(f'  {json.dumps(name)}: [')
        lines += [f'    {json.dumps(item)},' for item in known]
        lines[-1] = lines[-1].rstrip(',')
        lines.append('  ],')
    lines[-1] = lines[-1].rstrip(',')
    lines.append('}}')
    return '\n'.join(lines) + '\n'


def main(argv: list[str] | None = None) -> int:
    """Write the table of the checkout ``argv[0]`` to ``argv[1]`` (default: next to here)."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv or len(argv) > 2:
        print(__doc__.split('\n\n')[1].strip(), file=sys.stderr)
        return 2
    output = Path(argv[1]) if len(argv) > 1 else Path(__file__).with_name('table.json')
    text = dump(table(Path(argv[0])))
    json.loads(text)   # the layout above is JSON
    output.write_text(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
