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
The one way in: a description (a file, standard input or text) to a model, and out to SDFormat.

The command line, both ROS nodes and the launch files load through here, so a description is
read, detected, expanded and converted the same way wherever it comes from:

* :func:`load` reads a path (``-``: standard input) or text in any format sdf_tools reads
  (URDF, xacro, SDFormat, RobCoGen Kinematics-DSL), expands xacro when asked (``.xacro``
  files, or ``LoadOptions.xacro``: expanding runs the code the file holds, so markup in
  anything else is refused), and returns a :class:`Loaded`: the
  :class:`~sdf_tools.model.Robot`, where its lines come from
  (:class:`~sdf_tools.source_map.SourceMap`, xacro only), the warnings and the files read
  (no output may overwrite one: :func:`~sdf_tools.outputs.check_outputs`);
* :func:`to_sdf` writes what was loaded as SDFormat: URDF through the libsdformat-compatible
  converter (``<gazebo>`` extensions, fixed-joint lumping), the rest through the SDFormat
  writer;
* :func:`check` returns every problem ``sdf_tools check`` reports;
* :func:`package_resolver` is where packages are looked for (``$(find)``, ``package://``):
  the one place a :class:`~sdf_tools.resources.packages.PackageResolver` is built;
* :func:`model_finder` is where SDFormat ``<include>`` s look for models (``model://``,
  ``--resource-path``, ``GZ_SIM_RESOURCE_PATH``, ...): the one place a
  :class:`~sdf_tools.resources.models.ModelFinder` is built.

For xacro input, everything reported names the xacro files' lines, never those of the hidden
expansion (:mod:`sdf_tools.loading.xacro_map`). Nothing here imports ROS. Errors are
:class:`~sdf_tools.errors.SdfToolsError` whose text is compiler style, e.g.
``robot.urdf:42: joint 'elbow': <limit> upper must be a number, got 'abc'``.
"""

from contextlib import nullcontext
import math
import os
from typing import TYPE_CHECKING

from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.loading.converting import check
from sdf_tools.loading.converting import Converted
from sdf_tools.loading.converting import errors_in
from sdf_tools.loading.converting import left_out_of_sdf
from sdf_tools.loading.converting import relocated
from sdf_tools.loading.converting import to_sdf
from sdf_tools.loading.sources import detect_format
from sdf_tools.loading.sources import read_input
from sdf_tools.model import Robot
from sdf_tools.outputs import check_outputs
from sdf_tools.outputs import STDIN
from sdf_tools.outputs import write_output
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ResourcePath
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.uris import check_uris
from sdf_tools.resources.uris import locate
from sdf_tools.source_map import SourceMap
from sdf_tools.worlds import World
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ['check', 'Converted', 'errors_in', 'files_read', 'left_out_of_sdf', 'load',
           'Loaded', 'LoadOptions', 'model_finder', 'package_resolver', 'to_sdf',
           'WrongFormat']


def package_resolver(folders=(), *, near: str | None = None, option: str = '--package-path',
                     environ: 'Mapping[str, str] | None' = None) -> PackageResolver:
    """
    Return where packages are looked for: around ``near``, ``folders``, the environment.

    Parameters
    ----------
    folders : iterable of str
        Folders given by the user (``--package-path``, the ``package_path`` parameter or
        launch argument); each item may itself be a ``:``-separated list.
    near : str, optional
        The input file, whose package, checkout and workspace are searched first.
    option : str
        How the user gives folders, for messages.
    environ : mapping, optional
        The environment (default ``os.environ``).

    Raises
    ------
    ValueError
        A folder given does not exist (the text names it and ``option``).

    """
    return PackageResolver(PackagePath.from_environment(folders, near=near, option=option,
                                                        environ=environ))


def model_finder(folders=(), *, packages: PackageResolver | None = None,
                 option: str = '--resource-path',
                 environ: 'Mapping[str, str] | None' = None) -> ModelFinder:
    """
    Return where SDFormat includes look for models: ``folders``, then the environment.

    Parameters
    ----------
    folders : iterable of str
        Folders given by the user (``--resource-path``); each item may itself be a
        ``:``-separated list.
    packages : PackageResolver, optional
        Finds ``package://`` URIs, and ``model://NAME`` as the ROS package ``NAME`` when the
        resource path does not hold it.
    option : str
        How the user gives folders, for messages.
    environ : mapping, optional
        The environment (default ``os.environ``): ``GZ_SIM_RESOURCE_PATH``,
        ``IGN_GAZEBO_RESOURCE_PATH``, ``SDF_PATH``, ``GAZEBO_MODEL_PATH``, in that order.

    Raises
    ------
    ValueError
        A folder given does not exist (the text names it and ``option``).

    """
    return ModelFinder(ResourcePath.from_environment(folders, option=option, environ=environ),
                       packages, option)


@record(frozen=True, eq=False)
class LoadOptions:
    """
    How :func:`load` reads a description.

    Attributes
    ----------
    mappings : dict
        xacro arguments (``name -> value``); for RobCoGen input without ``parameters``,
        its parameter values (texts of finite numbers).
    parameters : dict or None
        RobCoGen parameter values (``name -> float``).
    model : str or None
        The model to take from an SDFormat world holding several.
    fmt : str or None
        ``'urdf'``, ``'sdf'``, ``'kindsl'`` or ``'xacro'`` to force a reader; ``None``:
        detected from the name and content (:func:`~sdf_tools.loading.sources.detect_format`).
    packages : PackageResolver or None
        Where ``$(find pkg)`` and ``package://`` look; ``None``: :func:`package_resolver`
        around the input file.
    check_uris : bool
        Warn about mesh and texture URIs that name no file
        (:func:`~sdf_tools.resources.uris.check_uris`).
    keep_expanded : str or None
        xacro input: also write xacro's expansion to this file (``-``: standard output),
        before it is read, so that it is there to look at when reading fails; messages
        about elements whose xacro line cannot be told then name its lines. Other input:
        nothing is written (``Loaded.xacro`` tells).
    outputs : tuple of str
        The files the caller writes after loading (e.g. ``-o``): before anything is
        written, :func:`load` refuses one that, like ``keep_expanded``, is a file read to
        make it (``Loaded.inputs``) or that another output names
        (:func:`~sdf_tools.outputs.check_outputs`).
    xacro : bool or None
        Whether xacro markup is expanded, which runs the code it holds (its expressions
        are Python, and escape xacro's checks): ``None`` for ``.xacro`` files only (markup
        elsewhere is refused, naming its line and ``xacro_remedy``), ``True`` also for
        other files and text, ``False`` never (the nodes: xacro must be expanded before,
        as for robot_state_publisher).
    xacro_remedy : str
        What the refusal of markup not asked for tells the user to do.
    formats : tuple of str
        The formats accepted (expanded xacro is ``'urdf'``); input in another raises
        :class:`WrongFormat` before it is read.
    source : str or None
        Name of text given directly, in messages (default ``<string>``).
    max_bytes : int or None
        Largest input (default: each reader's own limit); for SDFormat also the most its
        included files may hold in all.
    models : ModelFinder or None
        Where SDFormat ``<include>`` s look for models; ``None``: :func:`model_finder` (the
        environment, then the packages).
    whole_document : bool
        SDFormat: a document without exactly one model (an empty world, several models
        and no ``model`` asked for) loads too; ``Loaded.models`` then holds every model
        (``sdf_tools check``). Otherwise it is an error (the tools that need one model).

    """

    mappings: dict = field(default_factory=dict)
    parameters: dict | None = None
    model: str | None = None
    fmt: str | None = None
    packages: PackageResolver | None = None
    check_uris: bool = False
    keep_expanded: str | None = None
    outputs: tuple[str, ...] = ()
    xacro: bool | None = None
    xacro_remedy: str = 'if you trust it, give --xacro to expand it'
    formats: tuple[str, ...] = ('urdf', 'sdf', 'kindsl')
    source: str | None = None
    max_bytes: int | None = None
    models: ModelFinder | None = None
    whole_document: bool = False


class WrongFormat(ValueError):
    """
    The input is in a format the caller does not accept (``LoadOptions.formats``).

    Attributes
    ----------
    source : str
        The file name, ``<stdin>`` or the name of the text.
    fmt : str
        Its format.

    """

    def __init__(self, source: str, fmt: str):
        super().__init__(f'{source} is {fmt}')
        self.source = source
        self.fmt = fmt


@record(frozen=True, eq=False)
class Loaded:
    """
    A description read into a model.

    Attributes
    ----------
    robot : Robot
        The model; for xacro input its locations name the xacro files.
    origins : SourceMap or None
        For xacro input, where the lines of the expansion come from: :func:`to_sdf` and
        :func:`check` map what they report through it.
    warnings : tuple of Diagnostic
        xacro's package lookups' (a duplicate package, at its ``$(find)``), the reader's,
        then (with ``check_uris``) the URIs that name no file.
    text : bytes
        What the reader read (for xacro input: the expansion, one element per line).
    source : str
        The file name, ``<stdin>`` or the name of the text.
    fmt : str
        ``'urdf'``, ``'sdf'`` or ``'kindsl'`` (expanded xacro is ``'urdf'``).
    xacro : bool
        Whether the input was xacro.
    packages : PackageResolver or None
        Where packages were looked for (:func:`to_sdf` checks URIs with it).
    inputs : tuple of str
        The files read: the input (unless standard input or text), then for xacro input
        the files xacro read (includes and YAML files, absolute paths), for SDFormat the
        files its ``<include>`` s read.
    unused : tuple of str
        The names of ``LoadOptions.mappings`` that changed nothing: for xacro, arguments no
        file declares or reads (each also a warning); for URDF and SDFormat, all of them.
    worlds : tuple of World
        SDFormat: every world of the document, and its top level when it holds a model
        (:class:`~sdf_tools.worlds.World`); ``robot`` is one of their models.
    models : tuple of Robot
        The models :func:`check` checks: ``(robot,)``, or with
        ``LoadOptions.whole_document`` and no one model to take, every model of the
        document (``robot`` is then an empty one named after the first world).
    finder : ModelFinder or None
        Where ``model://`` URIs are looked for (``LoadOptions.models``; for SDFormat, the
        finder its ``<include>`` s used): export copies the files of ``model://NAME/...``
        URIs from the model folders it finds.

    """

    robot: Robot
    origins: SourceMap | None = None
    warnings: tuple[Diagnostic, ...] = ()
    text: bytes = b''
    source: str = '<string>'
    fmt: str = 'urdf'
    xacro: bool = False
    packages: PackageResolver | None = None
    inputs: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()
    worlds: tuple[World, ...] = ()
    models: tuple[Robot, ...] = ()
    finder: ModelFinder | None = None


def files_read(loaded: Loaded, *more: str) -> tuple[str, ...]:
    """
    Return every file read so far to make what ``loaded`` becomes (:func:`check_outputs`).

    :data:`~sdf_tools.outputs.STDIN` (the file on standard input), ``Loaded.inputs``, the
    package.xml files the lookups read, then ``more`` (``Converted.inputs``: meshes).
    """
    return _read_so_far(loaded.source, loaded.inputs, loaded.packages,
                        loaded.finder and loaded.finder.packages) + more


def _read_so_far(source: str, inputs: tuple[str, ...], *resolvers) -> tuple[str, ...]:
    return ((STDIN,) if source == '<stdin>' else ()) + inputs + tuple(
        name for resolver in resolvers if resolver is not None for name in resolver.files_read())


def load(path: str | None = None, options: LoadOptions | None = None, *,
         text: str | bytes | None = None) -> Loaded:
    """
    Read a description file, standard input (``-``) or text into a model.

    Parameters
    ----------
    path : str, optional
        ``.urdf``, ``.xacro``, ``.sdf``, ``.world``, ``.kindsl`` or ``-``.
    options : LoadOptions, optional
        Arguments, forced format, package lookup, ... (defaults: detect the format; expand
        xacro in ``.xacro`` files only).
    text : str or bytes, optional
        The description itself, instead of ``path`` (named ``options.source``).

    Returns
    -------
    Loaded

    Raises
    ------
    SdfToolsError
        The input cannot be read, is empty, too large or in no format sdf_tools reads,
        holds xacro markup not asked for (``options.xacro``), xacro fails, or the
        description is invalid; the message lists every problem with its file and line.
    WrongFormat
        The input is in a format ``options.formats`` does not hold.
    OverwriteError
        ``options.keep_expanded`` or one of ``options.outputs`` is a file read (or both
        name one file); nothing was written.
    ValueError
        Neither or both of ``path`` and ``text`` are given, or a RobCoGen parameter value
        is not a number.

    """
    options = options or LoadOptions()
    if path is not None and text is None:
        data, source = read_input(path, max_bytes=options.max_bytes or DEFAULT_MAX_BYTES)
    elif text is not None and path is None:
        data = text.encode('utf-8') if isinstance(text, str) else bytes(text)
        source = options.source or '<string>'
        if not data.strip():
            raise DescriptionError(Diagnostic('the description is empty', SourceLocation(source),
                                              code=Code.EMPTY))
    else:
        raise ValueError('give a path or a text')
    fmt = options.fmt or detect_format(data, source)
    if ('urdf' if fmt == 'xacro' else fmt) not in options.formats:
        raise WrongFormat(source, fmt)
    file = path if path not in (None, '-') else None
    inputs: tuple[str, ...] = () if file is None else (file,)
    packages = options.packages
    origins = None
    lookups: tuple[Diagnostic, ...] = ()  # the package lookups' warnings (duplicates, ...)
    unused, warnings = _ignored_mappings(options.mappings, source, fmt)
    if fmt == 'xacro':
        from sdf_tools.loading.xacro import expand  # xacro: for xacro input only
        from sdf_tools.loading.xacro import refuse_unasked
        refuse_unasked(data, source, file, options.xacro, options.fmt, options.xacro_remedy)
        packages = packages or package_resolver(near=file)
        data, origins, read, unused, warnings = expand(data, source, file, options.mappings,
                                                       packages)
        inputs += read
        lookups = packages.take_warnings()
        fmt = 'urdf'
    if fmt == 'sdf':   # outputs checked once its includes are read (nothing written before)
        return _load_sdf(data, source, path, options, packages, inputs, unused, warnings)
    kept = options.keep_expanded if origins is not None else None
    check_outputs((kept,) + tuple(options.outputs), _read_so_far(source, inputs, packages))
    if kept is not None and origins is not None:
        origins = origins.kept_as(kept)
    try:
        with nullcontext() if origins is None else origins.relocating():
            robot = _read(data, source if origins is None else origins.label or source, fmt,
                          options)
    except SdfToolsError as e:  # the warnings found so far go with the errors, and the
        e.warnings = warnings + lookups + e.warnings  # expansion is there to look at
        _keep(kept, data)
        raise
    _keep(kept, data, robot, packages, file)
    if origins is not None:
        robot = robot.relocated(origins.locate)
    warnings += lookups + robot.warnings
    if options.check_uris:  # <gazebo> content keeps the expansion's lines: map them too
        warnings += relocated(origins, check_uris(robot, packages or package_resolver())[1])
    return Loaded(robot, origins, warnings, data, source, fmt, origins is not None, packages,
                  inputs, unused, models=(robot,), finder=options.models)


def _keep(kept: str | None, data: bytes, robot: Robot | None = None, packages=None,
          file: str | None = None) -> None:
    """
    Write xacro's expansion to ``kept`` (``--keep-expanded``), unless it names a file read.

    Besides what the output checks of :func:`load` compared it with, ``kept`` may not be a
    mesh or texture the expanded ``robot`` names (``--auto-inertials`` reads meshes after
    loading): each that names an existing local file counts as read.
    """
    if kept is None:
        return
    named = []
    folder = None if file is None else os.path.dirname(os.path.abspath(file))
    for uri, *_ in (robot.resource_uses() if robot is not None else ()):
        try:
            path = locate(uri, packages, folder)
        except (ValueError, LookupError):  # named no file that can be found: nothing read
            continue
        if os.path.isfile(path):
            named.append(os.fspath(path))
    check_outputs((kept,), named)
    write_output(kept, data.decode('utf-8'))


def _ignored_mappings(mappings: dict, source: str, fmt: str) -> tuple[tuple, tuple]:
    """Return the names of ``mappings`` a URDF or SDFormat input ignores, and a warning."""
    if fmt not in ('urdf', 'sdf') or not mappings:
        return (), ()
    given = ' '.join(f'{name}:={value}' for name, value in mappings.items())
    return tuple(mappings), (Diagnostic(
        f'{given} changes nothing: name:=value arguments are for xacro (and RobCoGen) input, '
        f'and this is {fmt.upper() if fmt == "urdf" else "SDFormat"}', SourceLocation(source),
        None, Severity.WARNING, Code.UNUSED_PARAMETER),)


def _load_sdf(data: bytes, source: str, path: str | None, options: LoadOptions,
              packages: PackageResolver | None, inputs: tuple[str, ...], unused: tuple,
              warnings: tuple) -> Loaded:
    """
    Read an SDFormat document whole: its worlds, includes, and the model asked for.

    ``inputs``, ``unused`` and ``warnings`` are what :func:`load` found before reading; the
    files the includes read are added to ``inputs``, then ``options.outputs`` are checked
    against them.
    """
    from sdf_tools.formats.sdf.reader import parse_sdf_document
    file = path if path not in (None, '-') else None
    finder = options.models
    if finder is None:
        finder = model_finder(packages=packages or package_resolver(near=file))
    document = parse_sdf_document(data, source, model=options.model, includes=finder,
                                  path=file, max_bytes=options.max_bytes or DEFAULT_MAX_BYTES)
    inputs += document.files
    check_outputs(options.outputs, _read_so_far(source, inputs, finder.packages))
    robot = document.robot
    models: tuple[Robot, ...] = (robot,) if robot is not None else ()
    if robot is None:
        if not options.whole_document or options.model is not None:
            raise DescriptionError(document.problem)
        models = tuple(model for world in document.worlds for model in world.models)
        names = [world.name for world in document.worlds if world.name is not None]
        robot = Robot(name=names[0] if names else '', source=source, source_format='sdf',
                      warnings=document.warnings)
    warnings += robot.warnings
    if options.check_uris:
        for model in models:
            warnings += check_uris(model, packages or package_resolver())[1]
    return Loaded(robot, None, warnings, data, source, 'sdf', False, packages, inputs, unused,
                  document.worlds, models, finder)


def _read(data: bytes, source: str, fmt: str, options: LoadOptions) -> Robot:
    """Read text in a known format with its reader (each imported when first needed)."""
    max_bytes = options.max_bytes
    if fmt == 'urdf':
        from sdf_tools.formats.urdf.reader import parse_urdf
        return parse_urdf(data, source, max_bytes=max_bytes or DEFAULT_MAX_BYTES)
    if fmt == 'kindsl':
        from sdf_tools.formats.kindsl.reader import MAX_BYTES
        from sdf_tools.formats.kindsl.reader import parse_kindsl
        parameters = options.parameters
        if parameters is None and options.mappings:
            parameters = {name: _number(value, f'RobCoGen parameter {name}:={value}')
                          for name, value in options.mappings.items()}
        # Bytes, so that the reader refuses text that is not UTF-8 instead of guessing.
        return parse_kindsl(data, source, parameters=parameters,
                            max_bytes=max_bytes or MAX_BYTES)
    raise ValueError(f'unknown format {fmt!r}')


def _number(text: str, what: str) -> float:
    """Return ``text`` as a finite float, or raise ``ValueError`` naming ``what``."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ValueError(f'{what} must be a finite number, got {text!r}')
    return value
