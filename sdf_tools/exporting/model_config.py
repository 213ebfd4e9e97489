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
The ``model.config`` of an exported model: what Gazebo and Fuel read about it.

Gazebo's format (libsdformat finds the model's file through it, Fuel shows the rest)::

    <?xml version="1.0"?>
    <model>
      <name>demo_arm</name>
      <version>0.3.1</version>
      <sdf version="1.9">model.sdf</sdf>
      <author>
        <name>Ada</name>
        <email>ada@example.com</email>
      </author>
      <description>A two-wheeled arm.</description>
    </model>

The name is the robot's. With a ``package.xml``
(:class:`~sdf_tools.resources.package_places.Manifest` of the package holding the
description), the version is the package's, and its
``<author>`` then ``<maintainer>`` people (each once) are the authors, its description the
description. Without one, the version is ``1.0``, there is no author, and the description
says where the model comes from.
"""

from sdf_tools.resources.package_places import Manifest
from sdf_tools.xmlio.text import XmlText


def model_config(name: str, sdf_version: str, manifest: Manifest | None = None,
                 source: str | None = None,
                 file: str = 'model.sdf') -> str:
    """
    Return the text of ``model.config`` (module docstring).

    Parameters
    ----------
    name : str
        The model's name.
    sdf_version : str
        The SDFormat version of ``file``.
    manifest : Manifest, optional
        The description's package.
    source : str, optional
        The description's file name, said in the description when there is no package.
    file : str
        The model's SDFormat file in the folder.

    """
    out = XmlText()
    out.start('model')
    out.leaf('name', name)
    out.leaf('version', (manifest.version if manifest is not None else None) or '1.0')
    out.leaf('sdf', file, {'version': sdf_version})
    people: dict[str, str | None] = {}
    if manifest is not None:
        for person, email in manifest.authors + manifest.maintainers:
            people.setdefault(person, email)
    for person, email in people.items():
        out.group('author', [('name', person)] + ([('email', email)] if email else []))
    description = manifest.description if manifest is not None else None
    if not description:
        description = f'{name}, exported by sdf_tools' + (f' from {source}' if source else '')
    out.leaf('description', description)
    out.end()
    return '<?xml version="1.0"?>\n' + out.text()
