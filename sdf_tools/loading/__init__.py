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
The one road from a description to a model or an SDFormat document.

The command-line tools, both ROS nodes and the launch files all go through here, so a
description is read, detected, expanded and converted the same way wherever it comes from:

* :func:`load_description` (a path or ``-``) and :func:`parse_description` (text) give a
  :class:`~sdf_tools.model.Robot` from URDF, xacro, SDFormat or RobCoGen Kinematics-DSL;
* :func:`to_sdf` writes any model as SDFormat: URDF through the libsdformat-compatible
  converter (``<gazebo>`` extensions, fixed-joint lumping), the rest through the SDFormat
  writer;
* :func:`load_model` and :func:`convert` are what the nodes call per description received as
  text (a parameter or a ``std_msgs/String``; xacro must have been expanded, as for
  robot_state_publisher); given a :class:`~sdf_tools.resources.packages.PackageResolver`, they
  also warn about mesh and texture URIs that name no file (:func:`check_package_uris`).

Nothing here imports ROS. Errors are :class:`~sdf_tools.errors.SdfToolsError` whose text is
compiler style, e.g. ``<robot_description>:42: joint 'elbow': <limit> upper must be a number,
got 'abc'``.
"""

from contextlib import nullcontext
from typing import TYPE_CHECKING

from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import Code
from sdf_tools.errors import combine
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.loading.sources import Description
from sdf_tools.loading.sources import detect_format
from sdf_tools.loading.sources import read_description
from sdf_tools.loading.sources import read_input
from sdf_tools.model import Robot
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.uris import check_uris
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from sdf_tools.kinematics import KinematicTree

#: Source name of descriptions received as a parameter or on a topic (in messages).
SOURCE = '<robot_description>'


def parse_description(text, source: str = '<string>', fmt: str | None = None, *,
                      parameters: dict | None = None, model: str | None = None,
                      max_bytes: int | None = None) -> Robot:
    """
    Read URDF, SDFormat or RobCoGen text into a :class:`~sdf_tools.model.Robot`.

    ``fmt`` is detected from the content when ``None``; xacro must be expanded first
    (:func:`load_description` does it). ``parameters`` feed RobCoGen symbolic values;
    ``model`` picks a model from an SDFormat world. ``max_bytes`` defaults to each reader's
    own limit (:data:`~sdf_tools.xmlio.parse.DEFAULT_MAX_BYTES` for XML,
    :data:`sdf_tools.formats.kindsl.reader.MAX_BYTES` for the DSL).
    """
    data = text.encode('utf-8') if isinstance(text, str) else bytes(text)
    fmt = fmt or detect_format(data, source)
    if fmt == 'xacro':
        raise DescriptionError(Diagnostic('xacro markup must be expanded first (use a path, '
                                          'or run xacro)', SourceLocation(source),
                                          code=Code.XACRO))
    # Each reader is imported when first needed: a URDF conversion never loads the others.
    if fmt == 'urdf':
        from sdf_tools.formats.urdf.reader import parse_urdf
        return parse_urdf(data, source, max_bytes=max_bytes or DEFAULT_MAX_BYTES)
    if fmt == 'sdf':
        from sdf_tools.formats.sdf.reader import parse_sdf
        return parse_sdf(data, source, model=model, max_bytes=max_bytes or DEFAULT_MAX_BYTES)
    if fmt == 'kindsl':
        from sdf_tools.formats.kindsl.reader import MAX_BYTES
        from sdf_tools.formats.kindsl.reader import parse_kindsl
        # Bytes, so that the reader refuses text that is not UTF-8 instead of guessing.
        return parse_kindsl(data, source, parameters=parameters,
                            max_bytes=max_bytes or MAX_BYTES)
    raise ValueError(f'unknown format {fmt!r}')


def load_description(path: str, *, mappings: dict | None = None,
                     parameters: dict | None = None, model: str | None = None,
                     fmt: str | None = None, packages: PackageResolver | None = None):
    """
    Load a description file (``.urdf``, ``.xacro``, ``.sdf``, ``.world``, ``.kindsl``, ``-``).

    xacro input is expanded with ``mappings``, its ``$(find pkg)`` looked up by
    ``packages`` (default: the environment, then the folders around ``path``); the result
    is a :class:`~sdf_tools.model.Robot`. ``fmt`` forces a reader instead of
    detection.
    """
    if fmt is not None and fmt != 'xacro':
        data, source = read_input(path)
        return parse_description(data, source, fmt, parameters=parameters, model=model)
    return read_model(read_description(path, mappings, packages), parameters=parameters,
                      model=model)


def read_model(description: Description, *, parameters: dict | None = None,
               model: str | None = None) -> Robot:
    """
    Read a :class:`~sdf_tools.loading.sources.Description` into a model.

    For xacro input, what is reported names the xacro files' lines, never the hidden
    expansion's (:mod:`sdf_tools.loading.xacro_map`): the reader's errors and warnings,
    the model's locations, and through ``Robot.origins`` what :func:`to_sdf` reports.
    """
    with relocating(description.origins):
        robot = parse_description(description.data, description.label, description.fmt,
                                  parameters=parameters, model=model)
    return description.relocated(robot)


def to_sdf(robot: Robot, options: ConversionOptions | None = None):
    """
    Write any model as SDFormat, the way ``sdf_tools convert`` and the converter node do.

    URDF goes through :func:`~sdf_tools.convert.urdf_to_sdf.urdf_to_sdf` (``<gazebo>``
    extensions, fixed-joint lumping, as libsdformat); SDFormat and RobCoGen models are
    written back with :func:`~sdf_tools.formats.sdf.writer.write_sdf` at
    ``options.sdf_version``. For a model read from xacro, everything reported names the
    xacro files' lines (``Robot.origins``).

    Returns
    -------
    sdf : str
        The SDFormat document.
    warnings : tuple of Diagnostic
        The converter's warnings, and what it leaves out (:func:`left_out_of_sdf`); the
        reader's are in ``robot.warnings``.

    Raises
    ------
    SdfToolsError
        The model cannot be expressed in SDFormat.

    """
    options = options or ConversionOptions()
    if robot.source_format == 'urdf':
        with relocating(robot.origins):
            result = urdf_to_sdf(robot, options)
        return result.sdf, relocated(robot.origins, result.warnings + left_out_of_sdf(robot))
    from sdf_tools.formats.sdf.writer import write_sdf
    return write_sdf(robot, version=options.sdf_version), ()


def relocating(origins):
    """Map the places of errors raised in the block through ``origins`` (xacro input only)."""
    return nullcontext() if origins is None else origins.relocating()


def relocated(origins, diagnostics) -> tuple:
    """Return ``diagnostics`` with their places mapped through ``origins`` (xacro input only)."""
    return tuple(diagnostics) if origins is None else origins.diagnostics(diagnostics)


def left_out_of_sdf(robot: Robot) -> tuple[Diagnostic, ...]:
    """
    Return one warning per kind of top-level URDF element that SDFormat has no place for.

    ``<transmission>``, ``<ros2_control>`` and unknown elements (``Robot.urdf_extras``) are
    not converted (libsdformat ignores them too); each warning names the element, how many
    there are and the first names, at the first one's line.
    """
    by_tag = {}
    for item in robot.urdf_extras:
        by_tag.setdefault(item.tag, []).append(item)
    warnings = []
    for tag, items in by_tag.items():
        names = [repr(item.name) for item in items if item.name]
        if len(items) == 1:
            what, them = ' '.join([f'<{tag}>'] + names) + ' is', 'it'
        else:
            shown = ', '.join(names[:3]) + (', ...' if len(names) > 3 else '')
            what = f'{len(items)} <{tag}> elements{f" ({shown})" if shown else ""} are'
            them = 'them'
        warnings.append(Diagnostic(
            f'{what} left out: SDFormat has no place for {them} (libsdformat ignores {them} '
            'too)', items[0].location, f"robot '{robot.name}'", Severity.WARNING,
            Code.NO_SDF_EQUIVALENT))
    return tuple(warnings)


@record(frozen=True, eq=False)
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
    tree: 'KinematicTree'
    warnings: tuple[str, ...] = ()


@record(frozen=True)
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
                                          code=Code.EMPTY))


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


def load_model(text: str, source: str = SOURCE,
               packages: PackageResolver | None = None) -> LoadedModel:
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
    packages : PackageResolver, optional
        Where ``package://`` URIs are looked for; given, the ones that name no file are
        warned about.

    Returns
    -------
    LoadedModel

    Raises
    ------
    SdfToolsError
        The text is empty, not a valid description, or not a tree (cycles, several parents,
        mimic loops, ...); the message lists every problem with its line.

    """
    from sdf_tools.kinematics import compile_tree  # numpy: only the nodes that do FK need it
    robot = parse_text(text, source)
    tree = compile_tree(robot, missing_mimic='ignore')
    checked = check_package_uris(robot, packages) if packages is not None else ()
    warnings = tuple(str(d) for d in combine(robot.warnings, tree.warnings) + checked)
    return LoadedModel(text, robot, tree, warnings)


def convert(text: str, options: ConversionOptions | None = None,
            source: str = SOURCE, packages: PackageResolver | None = None) -> Converted:
    """
    Convert a description to SDFormat, as ``urdf2sdf`` / ``sdf_tools convert`` do.

    URDF goes through :func:`~sdf_tools.convert.urdf_to_sdf.urdf_to_sdf` (``<gazebo>`` extensions,
    fixed-joint lumping); SDFormat and RobCoGen input is written back with
    :func:`~sdf_tools.formats.sdf.writer.write_sdf` at ``options.sdf_version``.

    Parameters
    ----------
    text : str
        The description.
    options : ConversionOptions, optional
        Conversion switches (defaults as ``urdf2sdf``).
    source : str
        Name used in messages.
    packages : PackageResolver, optional
        As for :func:`load_model`; for URDF it becomes ``options.packages`` when that is
        not set, so the converter checks the URIs (once) and ``mesh_uris='file'`` can use it.

    Returns
    -------
    Converted

    Raises
    ------
    SdfToolsError
        The text is empty or invalid, or cannot be expressed in SDFormat.

    """
    robot = parse_text(text, source)
    options = options or ConversionOptions()
    checked = ()
    if robot.source_format == 'urdf' and packages is not None and options.packages is None:
        options = replace(options, packages=packages)  # the converter checks the URIs
    elif robot.source_format != 'urdf' and packages is not None:
        checked = check_package_uris(robot, packages)
    sdf, warnings = to_sdf(robot, options)
    return Converted(sdf, robot.source_format,
                     tuple(str(d) for d in robot.warnings + tuple(warnings) + checked))


def check_package_uris(robot: Robot, packages: PackageResolver) -> tuple[Diagnostic, ...]:
    """
    Return warnings for the mesh and texture URIs of ``robot`` that name no file.

    ``package://`` and ``file://`` URIs and absolute paths are looked up
    (:func:`sdf_tools.resources.uris.check_uris`, where the rules are): one warning per
    package not found (at its first use, with the places searched), and one per URI whose
    file does not exist. ``model://`` URIs and relative paths are left to Gazebo.
    """
    return check_uris(robot, packages)[1]
