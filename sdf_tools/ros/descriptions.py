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
What the nodes make of a description received as text (a parameter or a ``std_msgs/String``).

Both nodes load through :func:`sdf_tools.loading.load`, as the command line does; xacro must
have been expanded (as for robot_state_publisher), and with a resolver, mesh and texture URIs
that name no file are warned about. No rclpy here: the callbacks' work is testable without a
ROS context.
"""

from typing import TYPE_CHECKING

from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.errors import combine
from sdf_tools.errors import presented
from sdf_tools.loading import files_read
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import to_sdf
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.lookup import Resources

if TYPE_CHECKING:
    from sdf_tools.kinematics import KinematicTree
    from sdf_tools.model import Robot

#: Source name of descriptions received as a parameter or on a topic (in messages).
SOURCE = '<robot_description>'


@record(frozen=True, eq=False)
class RobotModel:
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
        Reader warnings, URIs that name no file and ignored mimic joints, with file:line,
        one a problem: in file order, a warning repeated in the file once with its count
        (:func:`~sdf_tools.errors.presented`), the URIs of a package not found or not built
        as one.

    """

    text: str
    robot: 'Robot'
    tree: 'KinematicTree'
    warnings: tuple[str, ...] = ()


def _options(check_uris: bool, source: str) -> LoadOptions:
    return LoadOptions(check_uris=check_uris, xacro=False, source=source)


def load_model(text: str, resources: Resources | None = None,
               source: str = SOURCE) -> RobotModel:
    """
    Load a description (URDF, SDFormat or RobCoGen, detected) and compile its tree.

    A mimic joint whose source joint does not exist or has no single value is treated as an
    independent joint, with a warning (robot_state_publisher ignores such ``<mimic>`` tags
    silently); every other problem raises.

    Parameters
    ----------
    text : str
        The description.
    resources : Resources, optional
        Where ``package://`` URIs and SDFormat includes are looked for (the node's); given,
        the URIs that name no file are warned about.
    source : str
        Name used in messages.

    Raises
    ------
    SdfToolsError
        The text is empty, unexpanded xacro, not a valid description, or not a tree
        (cycles, several parents, mimic loops, ...); the message lists every problem.

    """
    from sdf_tools.kinematics import compile_tree  # numpy: only the node that does FK
    loaded = load(text=text, options=_options(resources is not None, source),
                  resources=resources)
    tree = compile_tree(loaded.robot, missing_mimic='ignore')
    warnings = tuple(map(str, presented(combine(loaded.warnings, tree.warnings))))
    return RobotModel(text, loaded.robot, tree, warnings)


@record(frozen=True)
class Conversion:
    """
    A description converted to SDFormat by the converter node.

    Attributes
    ----------
    sdf : str
        The SDFormat document.
    source_format : str
        ``'urdf'``, ``'sdf'`` or ``'kindsl'``: what was received.
    warnings : tuple of str
        Reader and converter warnings, with file:line, one a problem (as ``RobotModel``'s).
    inputs : tuple of str
        The files the conversion read (meshes ``auto_inertials`` weighed, the files they
        name, the package.xml files of the package lookups): ``output_file`` may not be one.

    """

    sdf: str
    source_format: str
    warnings: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()


def convert(text: str, options: ConversionOptions | None = None,
            resources: Resources | None = None, source: str = SOURCE) -> Conversion:
    """
    Convert a description to SDFormat, as ``urdf2sdf`` / ``sdf_tools convert`` do.

    ``resources`` (the node's) is where SDFormat includes are looked for, and, when
    ``options.packages`` is not set, where the converter looks up URIs, warning about those
    that name no file; see :func:`sdf_tools.loading.to_sdf`.

    Raises
    ------
    SdfToolsError
        The text is empty or invalid, or cannot be expressed in SDFormat.

    """
    loaded = load(text=text, options=_options(False, source), resources=resources)
    options = options or ConversionOptions()
    if options.packages is None and resources is not None:
        options = replace(options, packages=resources.packages)
    converted = to_sdf(loaded, options)
    read = files_read(loaded, *converted.inputs)
    if options.packages is not None and options.packages is not loaded.resources.packages:
        read += options.packages.files_read()
    return Conversion(converted.sdf, loaded.fmt, tuple(map(str, presented(
        combine(loaded.warnings, converted.warnings)))), read)
