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
What the readers of the description formats share.

Every reader collects its problems in a :class:`~sdf_tools.errors.Reporter`, then
:func:`checked` raises them, checks the structure of the model and raises again, and
:func:`with_warnings` puts the warnings on the model it returns. URDF and SDFormat also say
alike that a ``<geometry>`` holds exactly one shape (:func:`shape_element`); the shapes
themselves differ (URDF gives their sizes as attributes, SDFormat as child elements with
defaults), so each reader reads them itself.
"""

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.model import Robot
from sdf_tools.validate import check_robot
from sdf_tools.xmlio.parse import ValueReader


def checked(robot: Robot, reporter: Reporter, **options: bool) -> None:
    """
    Raise the errors found while reading; check the model's structure; raise its errors.

    ``options`` go to :func:`~sdf_tools.validate.check_robot` (what the format allows).

    Raises
    ------
    DescriptionError
        Every error found, while reading or then by the check, with the warnings and the
        model as read (:attr:`~sdf_tools.errors.SdfToolsError.partial`).

    """
    reporter.raise_if_errors(robot)
    check_robot(robot, reporter, **options)
    reporter.raise_if_errors(robot)


def with_warnings(robot: Robot, reporter: Reporter) -> Robot:
    """Return the model with the reporter's warnings added to ``Robot.warnings``."""
    return robot.with_warnings(reporter.warnings) if reporter.warnings else robot


def shape_element(v: ValueReader, geometry: etree._Element,
                  entity: str | None) -> etree._Element | None:
    """
    Return the shape element of a ``<geometry>``, reporting one that holds none or several.

    Parameters
    ----------
    v : ValueReader
        Records the problem.
    geometry : lxml element
        The ``<geometry>``.
    entity : str
        The link, for messages.

    Returns
    -------
    lxml element or None
        The shape (the first, when there are several; ``None`` when there is none).

    """
    shapes = [c for c in geometry if isinstance(c.tag, str)]
    if len(shapes) != 1:
        v.error(geometry, entity, f'<geometry> must hold exactly one shape, found '
                f'{len(shapes)}', Code.BAD_GEOMETRY)
        if not shapes:
            return None
    return shapes[0]
