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
Descriptions as the nodes receive them: text in, a compiled model or SDFormat text out.

Both nodes get a description as a string (a parameter or a ``std_msgs/String``) in any of
the formats sdf_tools reads; the format is detected from the content (xacro must have been
expanded, as for robot_state_publisher). This module holds the one core call each node makes
per description and imports no ROS package, so it is testable without rclpy.

Errors are :class:`~sdf_tools.errors.SdfToolsError` whose text is compiler style, e.g.
``<robot_description>:42: joint 'elbow': <limit> upper must be a number, got 'abc'``; the
nodes log it (or return it as the reason a parameter change is rejected).
"""

from dataclasses import dataclass

from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SourceLocation
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import KinematicTree
from sdf_tools.loading import detect_format
from sdf_tools.loading import parse_description
from sdf_tools.model import Robot
from sdf_tools.sdf_writer import write_sdf
from sdf_tools.to_sdf import ConversionOptions
from sdf_tools.to_sdf import urdf_to_sdf

#: Source name of descriptions received as a parameter or on a topic (in messages).
SOURCE = '<robot_description>'


@dataclass(frozen=True, eq=False)
class LoadedModel:
    """
    A description read and compiled for the state publisher.

    Attributes
    ----------
    text : str
        The description as received.
    robot : Robot
        The parsed model.
    tree : KinematicTree
        The compiled kinematic tree.
    warnings : tuple of str
        Reader warnings and ignored mimic joints, rendered with file:line.

    """

    text: str
    robot: Robot
    tree: KinematicTree
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class Converted:
    """
    A description converted to SDFormat.

    Attributes
    ----------
    sdf : str
        The SDFormat document.
    source_format : str
        ``'urdf'``, ``'sdf'`` or ``'kindsl'``: what was received.
    warnings : tuple of str
        Reader and converter warnings, rendered with file:line.

    """

    sdf: str
    source_format: str
    warnings: tuple[str, ...] = ()


def _require_text(text, source: str) -> None:
    if not text or not text.strip():
        raise DescriptionError(Diagnostic('the description is empty', SourceLocation(source),
                                          code='empty'))


def parse_text(text, source: str = SOURCE) -> Robot:
    """
    Parse a description received as text (URDF, SDFormat or RobCoGen, detected).

    Raises
    ------
    SdfToolsError
        The text is empty, unexpanded xacro, or not a valid description.

    """
    _require_text(text, source)
    data = text.encode('utf-8') if isinstance(text, str) else bytes(text)
    return parse_description(data, source, detect_format(data, source))


def load_model(text: str, source: str = SOURCE) -> LoadedModel:
    """
    Parse a description (URDF, SDFormat or RobCoGen, detected) and compile its tree.

    A mimic joint whose source joint does not exist or has no single value is treated as an
    independent joint, with a warning (robot_state_publisher ignores such ``<mimic>`` tags
    silently); every other problem raises.

    Parameters
    ----------
    text : str
        The description.
    source : str
        Name used in messages.

    Returns
    -------
    LoadedModel

    Raises
    ------
    SdfToolsError
        The text is empty, not a valid description, or not a tree (cycles, several parents,
        mimic loops, ...); the message lists every problem with its line.

    """
    robot = parse_text(text, source)
    tree = compile_tree(robot, missing_mimic='ignore')
    warnings = tuple(str(d) for d in robot.warnings + tree.warnings)
    return LoadedModel(text, robot, tree, warnings)


def convert(text: str, options: ConversionOptions | None = None,
            source: str = SOURCE) -> Converted:
    """
    Convert a description to SDFormat, as ``urdf2sdf`` / ``sdf_tools convert`` do.

    URDF goes through :func:`~sdf_tools.to_sdf.urdf_to_sdf` (``<gazebo>`` extensions,
    fixed-joint lumping); SDFormat and RobCoGen input is written back with
    :func:`~sdf_tools.sdf_writer.write_sdf` at ``options.sdf_version``.

    Parameters
    ----------
    text : str
        The description.
    options : ConversionOptions, optional
        Conversion switches (defaults as ``urdf2sdf``).
    source : str
        Name used in messages.

    Returns
    -------
    Converted

    Raises
    ------
    SdfToolsError
        The text is empty or invalid, or cannot be expressed in SDFormat.

    """
    options = options or ConversionOptions()
    robot = parse_text(text, source)
    warnings = [str(d) for d in robot.warnings]
    if robot.source_format == 'urdf':
        result = urdf_to_sdf(robot, options)
        warnings.extend(str(d) for d in result.warnings)
        sdf = result.sdf
    else:
        sdf = write_sdf(robot, version=options.sdf_version)
    return Converted(sdf, robot.source_format, tuple(warnings))
