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
The names of nested SDFormat models' content (``arm::hand``) as URDF names (``arm/hand``).

A model read from SDFormat names the links, joints and frames of its nested models by their
scope: ``inner::l1``. ``::`` is SDFormat's scope delimiter, and a URDF name holding it is
refused by libsdformat (``urdf2sdf``, Gazebo: "Detected delimiter '::'") and by
``sdf_tools check``. :func:`flatten_names` writes ``/`` in its place in the finished
``<robot>`` (so that every other message of the writer names what the SDFormat file says):
the name ros_gz_bridge gives Gazebo's scoped frames in ROS (``inner/l1``, a TF frame name).
Every name the document holds is renamed so: links', joints' (the ones the writer adds
too: ``inner/l1__fixed``), joints' parents, children and mimic joints, ``<gazebo
reference>`` s; and so is text or an attribute value of SDFormat-only content (plugins,
sensors) that is exactly such a name. One warning lists the renames of the model's links,
joints and frames; a new name that another link or joint already has is an error.
"""

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.formats.urdf.report import UrdfReport
from sdf_tools.model import Robot
from sdf_tools.xmlio.parse import attribute_items

#: SDFormat's scope delimiter, and what the URDF writer writes in its place.
SCOPE = '::'
SEPARATOR = '/'
# The elements of a URDF <robot> that hold names, and the attribute that does.
_NAMED = (('link', 'name'), ('joint', 'name'), ('joint/parent', 'link'),
          ('joint/child', 'link'), ('joint/mimic', 'joint'), ('gazebo', 'reference'))


def flatten_names(root: etree._Element, robot: Robot, report: UrdfReport) -> None:
    """
    Write every scoped name of a finished ``<robot>`` with :data:`SEPARATOR` (module docstring).

    Parameters
    ----------
    root : lxml.etree._Element
        The ``<robot>`` the writer made (changed in place).
    robot : Robot
        The model written (for the warning and the places of errors).
    report : UrdfReport
        Receives the warning listing the renames, and an error for each new name taken.

    """
    renamed: dict[str, str] = {}
    for path, key in _NAMED:
        for elem in root.iterfind(path):
            name = elem.get(key)
            if name is not None and SCOPE in name:
                renamed[name] = name.replace(SCOPE, SEPARATOR)
                elem.set(key, renamed[name])
    if not renamed:
        return
    for block in root.iterfind('gazebo'):
        for elem in block.iter():
            if elem.text is not None and elem.text.strip() in renamed:
                elem.text = renamed[elem.text.strip()]
            for key, value in attribute_items(elem):
                if value.strip() in renamed:
                    elem.set(key, renamed[value.strip()])
    _report(root, robot, renamed, report)


def _report(root: etree._Element, robot: Robot, renamed: dict[str, str],
            report: UrdfReport) -> None:
    """Warn once with the renames of the model's names; report each new name taken twice."""
    own = robot.links + robot.joints + robot.frames
    shown = ', '.join(f'{item.name!r} as {renamed[item.name]!r}' for item in own
                      if item.name in renamed)
    report.warn(f"robot '{robot.name}'", 'the links, joints and frames of nested models have '
                "names holding '::', SDFormat's scope delimiter, which libsdformat 14 and "
                "sdf_tools refuse in a URDF (\"Detected delimiter '::'\"); they are written "
                f"with '{SEPARATOR}' instead, as "
                f'ros_gz_bridge names such frames in ROS: {shown}; SDFormat content naming '
                'them (plugins, sensors) is changed to match', robot.location, Code.RENAMED)
    new = {value: old for old, value in renamed.items()}
    places = {item.name: item.location for item in own}
    kinds = {frame.name: 'frame' for frame in robot.frames}
    for tag in ('link', 'joint'):
        seen: set[str | None] = set()
        for elem in root.iterfind(tag):
            name = elem.get('name')
            if name in seen and name in new:
                old = new[name]
                report.error(f"{kinds.get(old, tag)} '{old}'", f'is written as {name!r} (a '
                             f'URDF name cannot hold {SCOPE!r}), but the model already has a '
                             f'{tag} of that name', places.get(old), Code.NAME_CLASH)
            seen.add(name)
