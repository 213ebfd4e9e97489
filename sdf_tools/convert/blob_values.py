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
The SDFormat content of ``<gazebo>`` blobs, checked against the vocabulary of the version written.

A blob is copied into the SDFormat document as written, where libsdformat reads it against
the specification of that version. :func:`check_blob` walks a blob along the vocabulary
(:mod:`sdf_tools.formats.sdf.spec`) from the element it lands in (a link, visual,
collision, joint, or the model), with every line it reports:

* each value is read as libsdformat's ``sdf::Param`` reads it
  (:func:`~sdf_tools.formats.sdf.content.check_value`): a text it refuses is an error (it
  refuses the whole document, and Gazebo with it); one it reads as another value is a
  warning saying which (``<samples> '666.5185185185185' is read as 666``); a value outside
  the element's ``min``/``max`` is a ``loader-refuses`` warning; a ``<pose>`` is read as
  :func:`~sdf_tools.formats.sdf.values.pose_value` reads it (``degrees``,
  ``rotation_format``);
* an element or attribute the version written does not have there (nor, at the top of the
  block, a ``<gazebo>`` extension tag) is a warning naming the nearest known name
  (``<mu11>``: did you mean ``<mu1>``?), and the versions that have it;
* a ``<sensor>`` whose type libsdformat's loader does not know, and a ``<material>`` its
  loader refuses (a ``<script>`` without ``<uri>``, a normal-map ``<shader>`` without
  ``<normal_map>``: :func:`~sdf_tools.formats.sdf.content.material_problems`) are
  ``loader-refuses`` warnings (``check``: errors);
* nothing inside a ``<plugin>`` (its content is the plugin's to read) or an element of
  another namespace is looked at.
"""

from typing import TYPE_CHECKING

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.formats.sdf.content import chain_to
from sdf_tools.formats.sdf.content import check_sensor_type
from sdf_tools.formats.sdf.content import check_value
from sdf_tools.formats.sdf.content import described
from sdf_tools.formats.sdf.content import material_problems
from sdf_tools.formats.sdf.content import tags_below
from sdf_tools.formats.sdf.content import unknown_name
from sdf_tools.formats.sdf.content import versions_with
from sdf_tools.formats.sdf.spec import nearest
from sdf_tools.formats.sdf.values import pose_value
from sdf_tools.xmlio.parse import ValueReader

if TYPE_CHECKING:
    from sdf_tools.formats.sdf.spec import ElementSpec
    from sdf_tools.xmlio.element import Element

    #: Where a blob lands: the path of that element below ``<sdf>``, and its spec.
    Landing = tuple[str, ElementSpec]


def check_blob(blob: 'Element', values: ValueReader, where: str, landing: 'Landing',
               version: str, extensions: frozenset[str] = frozenset(),
               scripts: bool = True) -> None:
    """
    Report what libsdformat will make of one blob (module docstring), with its lines.

    Parameters
    ----------
    blob : Element
        A blob as written (:class:`~sdf_tools.xmlio.element.Element`).
    values : ValueReader
        Where the problems go.
    where : str
        Names the block in messages, e.g. ``<gazebo reference='base'>`` (the blob's tag and
        name follow it).
    landing : tuple
        ``(path, spec)``: the path of the element the blob lands in below ``<sdf>``
        (``'model/link'``) and its :class:`~sdf_tools.formats.sdf.spec.ElementSpec` in
        ``version``.
    version : str
        The SDFormat version written.
    extensions : frozenset
        The ``<gazebo>`` tags the block may hold besides SDFormat (for the nearest name).
    scripts : bool
        Whether a ``<material><script>`` in it must be whole (``False``: a ``<material>``
        tag of the link's blocks completes it).

    """
    tag = blob.tag
    if not isinstance(tag, str) or ':' in tag or tag[0] == '{':
        return
    path, parent = landing
    spec = parent.children.get(tag)
    if spec is None:
        found = versions_with(f'{path}/{tag}')
        hint = None if found else nearest(tag, set(parent.children) | extensions)
        values.warn(blob, where, f'<{tag}> is neither a <gazebo> extension nor an SDFormat '
                    f'{version} element of a <{parent.name}>'
                    + (f' (SDFormat {", ".join(found)} has it)' if found else '')
                    + ': it is copied there, and Gazebo ignores it'
                    + (f'; did you mean <{hint}>?' if hint else ''), Code.UNKNOWN_NAME)
        return
    name = blob.get('name')
    entity = where if tag == 'pose' else \
        f"{where} <{tag}{'' if name is None else f' name={name!r}'}>"

    def unknown(child: 'Element', spec: 'ElementSpec') -> None:
        chain = chain_to(child, blob)
        below = '/'.join(item.tag for item in chain)
        values.warn(child, entity, unknown_name(spec, child.tag, version,
                                                versions_with(f'{path}/{below}'),
                                                element=(child, chain[-2])),
                    Code.UNKNOWN_NAME)

    for elem, spec in described(blob, spec, unknown):
        _check_element(elem, spec, (blob, path), values, entity, version, scripts)


def _check_element(elem: 'Element', spec: 'ElementSpec', landing: 'tuple[Element, str]',
                   values: ValueReader, entity: str, version: str, scripts: bool) -> None:
    """Check one element of a blob (``landing``: the blob, its path): attributes, value, type."""
    for name in elem.keys():
        if name not in spec.attributes and ':' not in name and name[0] != '{':
            path = f"{landing[1]}/{'/'.join(tags_below(elem, landing[0]))}"
            message = unknown_name(spec, name, version, versions_with(path, name),
                                   elem.get(name))
            if message is not None:
                values.warn(elem, entity, message, Code.UNKNOWN_NAME)
    if spec.type == 'pose':
        _check_pose(elem, values, entity)
    elif spec.type is not None:
        check_value(values, elem, spec, entity, elem)
    if spec.name == 'sensor':
        check_sensor_type(values, elem, entity)
    elif spec.name == 'material':
        for where, problem, _ in material_problems(elem, scripts):
            values.warn(where, entity, f'{problem}: libsdformat converts it, and its loader '
                        'then refuses the file (Gazebo Sim loads nothing)', Code.LOADER_REFUSES)


def _check_pose(pose: 'Element', values: ValueReader, entity: str) -> None:
    """
    Report what makes a ``<pose>`` unreadable, and what libsdformat reads it as.

    The other warnings (a quaternion that is not unit length) are fixed-joint lumping's, when
    it re-expresses the pose.
    """
    scratch = ValueReader(values.source, Reporter())
    pose_value(scratch, pose, entity)
    values.reporter.errors.extend(scratch.reporter.errors)
    values.reporter.warnings.extend(d for d in scratch.reporter.warnings
                                    if d.code is Code.READ_AS)
