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
from typing import TYPE_CHECKING

from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import Code
from sdf_tools.errors import combine
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import Reporter
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf.inertials import refused as refused_inertials
from sdf_tools.loading.sources import detect_format
from sdf_tools.loading.sources import read_input
from sdf_tools.model import Robot
from sdf_tools.outputs import check_outputs
from sdf_tools.outputs import write_output
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ResourcePath
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.uris import check_uris
from sdf_tools.source_map import SourceMap
from sdf_tools.worlds import World
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from collections.abc import Mapping


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
    check_outputs((kept,) + tuple(options.outputs), inputs)
    if kept is not None and origins is not None:
        # Written before it is read, to be there to look at when reading fails.
        write_output(kept, data.decode('utf-8'))
        origins = origins.kept_as(kept)
    with nullcontext() if origins is None else origins.relocating():
        robot = _read(data, source if origins is None else origins.label or source, fmt,
                      options)
    if origins is not None:
        robot = robot.relocated(origins.locate)
    warnings += lookups + robot.warnings
    if options.check_uris:  # <gazebo> content keeps the expansion's lines: map them too
        warnings += _relocated(origins, check_uris(robot, packages or package_resolver())[1])
    return Loaded(robot, origins, warnings, data, source, fmt, origins is not None, packages,
                  inputs, unused, models=(robot,), finder=options.models)


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
    check_outputs(options.outputs, inputs)
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

    """

    sdf: str
    warnings: tuple[Diagnostic, ...] = ()


def to_sdf(loaded: Loaded, options: ConversionOptions | None = None) -> Converted:
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
        with _relocating(loaded.origins):
            result = urdf_to_sdf(robot, options)
        return Converted(result.sdf, _relocated(loaded.origins,
                                                result.warnings + left_out_of_sdf(robot)))
    from sdf_tools.formats.sdf.writer import write_sdf
    repairs = Reporter()
    sdf = write_sdf(robot, version=options.sdf_version, reporter=repairs,
                    massless_mass=options.massless_mass,
                    massless_inertia=options.massless_inertia)
    checked = check_uris(robot, options.packages)[1] \
        if options.packages is not None and options.uri_map is None else ()
    return Converted(sdf, tuple(repairs.warnings) + checked)


def check(loaded: Loaded, *, missing_mimic: str = 'ignore') -> tuple[Diagnostic, ...]:
    """
    Return every problem ``sdf_tools check`` reports, each once, warnings and errors.

    The reader's warnings, what :func:`~sdf_tools.kinematics.compile_tree` refuses (cycles,
    several parents, mimic loops, ...) in each of ``Loaded.models``, for URDF what the
    converter would warn about, and for SDFormat what libsdformat refuses though the reader
    reads it (a negative mass, an invalid inertia: errors in the stead of the reader's
    warnings; ``convert`` repairs them). What libsdformat's loader refuses and Gazebo
    classic reads (``loader-refuses``: a value outside the specification's ``min``/``max``,
    an unknown sensor type), a warning when reading and converting, is an error here, as
    the loader says. ``missing_mimic`` goes to ``compile_tree``: by
    default a ``<mimic>`` that cannot be followed is a warning, as the converter and the
    nodes take it; ``'error'`` refuses it.
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
    problems = combine(*steps)
    if loaded.robot.source_format == 'urdf':
        with _relocating(loaded.origins):
            problems += _relocated(loaded.origins, urdf_to_sdf(loaded.robot).warnings)
    return tuple(replace(d, severity=Severity.ERROR) if d.code is Code.LOADER_REFUSES else d
                 for d in problems)


def errors_in(diagnostics) -> int:
    """Return how many of ``diagnostics`` are errors."""
    return sum(d.severity is Severity.ERROR for d in diagnostics)


def _relocating(origins: SourceMap | None):
    """Map the places of errors raised in the block through ``origins`` (xacro input only)."""
    return nullcontext() if origins is None else origins.relocating()


def _relocated(origins: SourceMap | None, diagnostics) -> tuple[Diagnostic, ...]:
    """Return ``diagnostics`` with their places mapped through ``origins`` (xacro only)."""
    return tuple(diagnostics) if origins is None else origins.diagnostics(diagnostics)


def left_out_of_sdf(robot: Robot) -> tuple[Diagnostic, ...]:
    """
    Return one warning per kind of top-level URDF element that SDFormat has no place for.

    ``<transmission>``, ``<ros2_control>`` and unknown elements (``Robot.urdf_extras``) are
    not converted (libsdformat ignores them too); each warning names the element, how many
    there are and the first names, at the first one's line.
    """
    by_tag: dict[str, list] = {}
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
