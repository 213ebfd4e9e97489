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
from sdf_tools.resources.packages import PackageResolver

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


def _options(packages: PackageResolver | None, source: str) -> LoadOptions:
    return LoadOptions(packages=packages, check_uris=packages is not None, xacro=False,
                       source=source)


def load_model(text: str, packages: PackageResolver | None = None,
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
    packages : PackageResolver, optional
        Where ``package://`` URIs are looked for; given, the ones that name no file are
        warned about.
    source : str
        Name used in messages.

    Raises
    ------
    SdfToolsError
        The text is empty, unexpanded xacro, not a valid description, or not a tree
        (cycles, several parents, mimic loops, ...); the message lists every problem.

    """
    from sdf_tools.kinematics import compile_tree  # numpy: only the node that does FK
    loaded = load(text=text, options=_options(packages, source))
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
            packages: PackageResolver | None = None, source: str = SOURCE) -> Conversion:
    """
    Convert a description to SDFormat, as ``urdf2sdf`` / ``sdf_tools convert`` do.

    ``packages`` (when ``options.packages`` is not set) is where the converter looks up
    URIs, warning about those that name no file; see :func:`sdf_tools.loading.to_sdf`.

    Raises
    ------
    SdfToolsError
        The text is empty or invalid, or cannot be expressed in SDFormat.

    """
    loaded = load(text=text, options=_options(None, source))
    options = options or ConversionOptions()
    if options.packages is None and packages is not None:
        options = replace(options, packages=packages)
    converted = to_sdf(loaded, options)
    return Conversion(converted.sdf, loaded.fmt, tuple(map(str, presented(
        combine(loaded.warnings, converted.warnings)))),
        files_read(replace(loaded, packages=options.packages), *converted.inputs))
