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
What the commands do with a loaded description: write it as SDFormat, check it.

:func:`to_sdf` and :func:`check` take a :class:`~sdf_tools.loading.readers.Loaded`
(both re-exported by :mod:`sdf_tools.loading`); for xacro input, what they report names the
xacro files' lines (:func:`~sdf_tools.source_map.relocated`).
"""

from typing import TYPE_CHECKING

from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import Code
from sdf_tools.errors import combine
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import Reporter
from sdf_tools.errors import Severity
from sdf_tools.formats.sdf.inertials import refused as refused_inertials
from sdf_tools.model import Robot
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.uris import check_uris
from sdf_tools.source_map import relocated
from sdf_tools.source_map import relocating

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sdf_tools.loading.readers import Loaded


@record(frozen=True)
class Converted:
    """
    A description written as SDFormat.

    Attributes
    ----------
    sdf : str
        The SDFormat document.
    warnings : tuple of Diagnostic
        The converter's warnings and what it leaves out (:func:`left_out_of_sdf`); with a
        resolver, the URIs that name no file. The reader's are in ``Loaded.warnings``.
    inputs : tuple of str
        The files the conversion read: the meshes ``auto_inertials`` weighed.

    """

    sdf: str
    warnings: tuple[Diagnostic, ...] = ()
    inputs: tuple[str, ...] = ()


def to_sdf(loaded: 'Loaded', options: ConversionOptions | None = None) -> Converted:
    """
    Write a loaded description as SDFormat, the way ``urdf2sdf`` and the converter node do.

    URDF goes through :func:`~sdf_tools.convert.urdf_to_sdf.urdf_to_sdf` (``<gazebo>``
    extensions, fixed-joint lumping, as libsdformat); SDFormat and RobCoGen models are
    written with :func:`~sdf_tools.formats.sdf.writer.write_sdf` at
    ``options.sdf_version``. With a resolver (``options.packages``), mesh and texture URIs
    that name no file are warned about (unless ``options.uri_map`` says the caller located
    them). For xacro input, what is reported names the xacro files' lines.

    Raises
    ------
    SdfToolsError
        The model cannot be expressed in SDFormat.

    """
    options = options or ConversionOptions()
    robot = loaded.robot
    if robot.source_format == 'urdf':
        with relocating(loaded.origins):
            result = urdf_to_sdf(robot, options)
        return Converted(result.sdf, relocated(loaded.origins,
                                               result.warnings + left_out_of_sdf(robot)),
                         result.inputs)
    from sdf_tools.formats.sdf.writer import write_sdf
    repairs = Reporter()
    sdf = write_sdf(robot, version=options.sdf_version, reporter=repairs,
                    massless_mass=options.massless_mass,
                    massless_inertia=options.massless_inertia, plugins=options.plugins)
    checked = check_uris(robot, options.packages)[1] \
        if options.packages is not None and options.uri_map is None else ()
    return Converted(sdf, tuple(repairs.warnings) + checked)


def check(loaded: 'Loaded', *, missing_mimic: str = 'ignore') -> tuple[Diagnostic, ...]:
    """
    Return every problem ``sdf_tools check`` reports, each once, warnings and errors.

    The reader's warnings, what :func:`~sdf_tools.kinematics.compile_tree` refuses (cycles,
    several parents, mimic loops, ...) in each of ``Loaded.models``, for URDF what the
    converter would warn about, and for SDFormat what libsdformat refuses though the reader
    reads it (a negative mass, an invalid inertia: errors in the stead of the reader's
    warnings; ``convert`` repairs them). What libsdformat's loader refuses and Gazebo
    classic reads (``loader-refuses``: a value outside the specification's ``min``/``max``,
    an unknown sensor type), a warning when reading and converting, is an error here, as
    the loader says. ``missing_mimic`` goes to ``compile_tree``: by default a ``<mimic>``
    that cannot be followed is a warning, as the converter and the nodes take it;
    ``'error'`` refuses it.
    """
    from sdf_tools.kinematics import compile_tree  # numpy: only what needs the tree
    steps = [loaded.warnings]  # combined once: a world's models in linear time
    for robot in loaded.models or (loaded.robot,):
        try:
            steps.append(compile_tree(robot, missing_mimic=missing_mimic).warnings)
        except KinematicsError as e:
            steps.append(e.diagnostics)
        if robot.source_format == 'sdf':
            steps.append(refused_inertials(robot))
    if loaded.robot.source_format == 'urdf':  # it says better what the reader said
        with relocating(loaded.origins):
            steps.append(relocated(loaded.origins, urdf_to_sdf(loaded.robot).warnings))
    return tuple(replace(d, severity=Severity.ERROR) if d.code is Code.LOADER_REFUSES else d
                 for d in combine(*steps))


def errors_in(diagnostics: 'Iterable[Diagnostic]') -> int:
    """Return how many of ``diagnostics`` are errors."""
    return sum(d.severity is Severity.ERROR for d in diagnostics)


def left_out_of_sdf(robot: Robot) -> tuple[Diagnostic, ...]:
    """
    Return one warning per kind of top-level URDF element that SDFormat has no place for.

    ``<transmission>``, ``<ros2_control>`` and unknown elements (``Robot.urdf_extras``) are
    not converted (libsdformat ignores them too); each warning names the element, how many
    there are and the first names, at the first one's line. An element URDF does not know,
    which the reader warned about already (with the nearest name), is not warned about again.
    """
    from sdf_tools.formats.urdf.names import CHILDREN
    by_tag: dict[str, list] = {}
    for item in robot.urdf_extras:
        if item.tag in CHILDREN['robot'] or item.tag.startswith('{'):  # else the reader's
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
