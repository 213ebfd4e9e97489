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
The URIs of an exported model: what it uses, the model with the copies' URIs, what is left.

The converter writes the URIs of URDF meshes and textures it is given
(``ConversionOptions.uri_map``); the rest is content copied as written: the elements of
``<gazebo>`` blocks (material scripts, meshes of visual blobs, plugin parameters) and, for
SDFormat input, what the model keeps as ``extras``. Here:

* :func:`uses` lists every URI the model uses, in document order: meshes and URDF textures
  (:meth:`~sdf_tools.model.Robot.resource_uses`), then the text of each element of that
  content named in :data:`URI_TAGS` (``<uri>``, the PBR texture maps);
* :func:`with_uris` returns the model whose content holds the copies' URIs instead (copies
  of the elements, never the originals), and for input other than URDF, whose meshes do;
* :func:`leftovers` warns about each URI or path of the written SDFormat that still names
  something outside the folder (``package://``, another model's ``model://``, an absolute
  path such as a plugin's ``<parameters>`` file), with its line, and notes each of
  Gazebo's own ``file://media/...`` files, which come from the simulator's install.
"""

from collections.abc import Collection
from collections.abc import Iterator
import re
from typing import TypeVar

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.exporting.assets import Use
from sdf_tools.model import Collision
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Robot
from sdf_tools.model import Visual
from sdf_tools.records import replace
from sdf_tools.resources.uris import names_a_file
from sdf_tools.xmlio.element import Element

#: Elements whose text is a URI of a file Gazebo loads.
URI_TAGS = frozenset({'uri', 'albedo_map', 'normal_map', 'roughness_map', 'metalness_map',
                      'emissive_map', 'light_map', 'environment_map', 'ambient_occlusion_map',
                      'specular_map', 'glossiness_map'})
#: A kept element, where it is for messages (its entity) and where its owner is written.
_Content = tuple[Element, str, SourceLocation | None]
_Part = TypeVar('_Part', Visual, Collision)


def uses(robot: Robot) -> list[Use]:
    """Return each use of a URI in ``robot`` (module docstring), in document order."""
    found = [Use(uri, 'mesh' if is_mesh else 'texture', entity, location)
             for uri, is_mesh, entity, location in robot.resource_uses()]
    for element, entity, location in _content(robot):
        for child, parent in _uri_elements(element):
            text = (child.text or '').strip()
            if text:
                found.append(Use(text, _kind(child.tag, parent), entity, location))
    return found


def _uri_elements(element: Element) -> Iterator[tuple[Element, str]]:
    """Yield ``(element, its parent's tag)`` of each element of :data:`URI_TAGS`, in order."""
    stack: list[tuple[Element, str]] = [(element, '')]
    while stack:
        item, parent = stack.pop()
        if item.tag in URI_TAGS:
            yield item, parent
        stack += [(child, item.tag) for child in reversed(item.children)]


def _kind(tag: str, parent: str) -> str:
    """Return the :class:`Use` kind of a URI element (``tag``): what its parent is."""
    if tag != 'uri':
        return 'texture'  # a PBR map
    return parent if parent in ('mesh', 'script') else 'resource'


def _content(robot: Robot) -> Iterator[_Content]:
    """Yield ``(element, entity, location)`` of the content copied as written."""
    if robot.source_format == 'urdf':
        for block in robot.gazebo:
            entity = '<gazebo>' if block.reference is None else \
                f'<gazebo reference={block.reference!r}>'
            for element in block.elements:
                yield element, entity, block.location
        return
    yield from _extras(robot)


def _extras(robot: Robot) -> Iterator[_Content]:
    """Yield ``(element, entity, location)`` of each kept SDFormat element of ``robot``."""
    for element in robot.extras:
        yield element, f"model '{robot.name}'", robot.location
    for link in robot.links:
        entity = f"link '{link.name}'"
        for element in link.extras:
            yield element, entity, link.location
        for part in link.visuals + link.collisions:
            for element in part.extras + _other_geometry(part):
                yield element, entity, part.location or link.location
    for joint in robot.joints:
        for element in joint.extras:
            yield element, f"joint '{joint.name}'", joint.location


def _other_geometry(part: Visual | Collision) -> tuple[Element, ...]:
    geometry = part.geometry
    return geometry.elements if isinstance(geometry, OtherGeometry) else ()


def with_uris(robot: Robot, uris: dict[str, str]) -> Robot:
    """
    Return ``robot`` with the URIs of :func:`uses` that ``uris`` maps replaced.

    URDF meshes and textures are left to the converter (``ConversionOptions.uri_map``), so
    that what reads them (``auto_inertials``) still finds the files.
    """
    if not uris:
        return robot

    def kept(elements: tuple[Element, ...]) -> tuple[Element, ...]:
        return tuple(_rewritten(element, uris) for element in elements)

    if robot.source_format == 'urdf':
        return replace(robot, gazebo=tuple(replace(block, elements=kept(block.elements))
                                           for block in robot.gazebo))

    def part(item: _Part) -> _Part:
        geometry = item.geometry
        if isinstance(geometry, Mesh) and geometry.filename in uris:
            geometry = replace(geometry, filename=uris[geometry.filename])
        elif isinstance(geometry, OtherGeometry):
            geometry = replace(geometry, elements=kept(geometry.elements))
        return replace(item, geometry=geometry, extras=kept(item.extras))

    links = tuple(replace(link, extras=kept(link.extras),
                          visuals=tuple(map(part, link.visuals)),
                          collisions=tuple(map(part, link.collisions)))
                  for link in robot.links)
    joints = tuple(replace(joint, extras=kept(joint.extras))
                   for joint in robot.joints)
    return replace(robot, links=links, joints=joints, extras=kept(robot.extras))


def _rewritten(element: Element, uris: dict[str, str]) -> Element:
    """Return ``element``, or a copy of it whose URI elements ``uris`` maps are replaced."""
    children = tuple(_rewritten(child, uris) for child in element.children)
    text = element.text
    if element.tag in URI_TAGS and text is not None and text.strip() in uris:
        text = uris[text.strip()]
    elif all(new is old for new, old in zip(children, element.children)):
        return element
    return Element(element.tag, element.attributes, text, children, element.tail,
                   element.line)


def leftovers(sdf: str, name: str, reported: Collection[str] = frozenset(),
              file: str = 'model.sdf') -> tuple[Diagnostic, ...]:
    """
    Warn once about each URI or path in ``sdf`` naming something outside the folder ``name``.

    That is every ``package://`` URI (Gazebo does not resolve them), every ``model://`` URI
    of another model and every absolute path (``file:///...``, or a path whose last name
    has a ``.``, as a plugin's ``<parameters>`` file: :func:`~sdf_tools.resources.uris.
    names_a_file`), in any text or attribute, except those in ``reported`` (already warned
    about). A ``file://media/...`` URI (relative: Gazebo's own media) gets a note
    (``simulator-media``). Each names its element and its first line in ``file``. One pass
    over the text (no tree: the output may be larger than any input).
    """
    warnings: list[Diagnostic] = []
    seen = set(reported)
    line, at = 1, 0
    for match in _TOKEN.finditer(sdf):
        token = match.group()
        why = _outside(token, name)
        if why is None or token in seen:
            continue
        seen.add(token)
        line += sdf.count('\n', at, match.start())
        at = match.start()
        tag = _TAG.match(sdf, sdf.rfind('<', 0, at))
        warnings.append(Diagnostic(
            f'{token} {why}', SourceLocation(file, line),
            f'<{tag.group(1)}>' if tag else None, Severity.WARNING,
            Code.SIMULATOR_MEDIA if why == _MEDIA else Code.NOT_SELF_CONTAINED))
    return tuple(warnings)


#: A URI, or a path starting a text or an attribute value (or after a blank in one).
_TOKEN = re.compile(r'(?:package|model|file)://[^\s<>"\']*|(?<=[>"\'\s])/[^\s<>"\']*')
_TAG = re.compile(r'<([^\s/>!?]+)')
_ELSEWHERE = ('names something outside the exported folder: Gazebo finds it only where its '
              'resource path (GZ_SIM_RESOURCE_PATH) or ROS workspace holds it')
_ABSOLUTE = ('is an absolute path outside the exported folder: it names a file of this '
             'machine, which the folder does not hold')
_MEDIA = ("is not in the folder: it is one of Gazebo's own media files, which come with the "
          "simulator's install")


def _outside(token: str, name: str) -> str | None:
    """Return why ``token`` names what the folder ``name`` does not hold, or ``None``."""
    scheme, sep, rest = token.partition('://')
    if not sep:
        return _ABSOLUTE if names_a_file(token) else None
    if scheme == 'package':
        return _ELSEWHERE
    if scheme == 'model':
        return None if rest.partition('/')[0] == name else _ELSEWHERE
    if scheme == 'file':
        return _ABSOLUTE if rest.startswith('/') else _MEDIA
    return None
