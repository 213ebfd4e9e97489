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
``sdf_tools export``: a description as a self-contained Gazebo model folder.

::

    DIR/
      model.config        name, SDFormat version; version, authors, description from the
                          package.xml of the description's package (:mod:`.model_config`)
      model.sdf           the model; every file it uses is model://DIR/...
      meshes/base.stl     each mesh, texture and material file the model uses, once, at
      ...                 its path in its package or model folder (:mod:`.assets`)

:func:`export` loads the description (:func:`sdf_tools.loading.load`), locates, checks and
places the files it uses (:func:`.assets.plan`: only the resources a simulator loads, of
ROS packages and model folders, none hidden), converts it with the copies' URIs (the
converter writes them for URDF meshes and textures, ``ConversionOptions.uri_map``; content
copied as written gets them first, :func:`.rewrite.with_uris`), warns about URIs and paths
still naming something outside the folder (:func:`.rewrite.leftovers`), says once what is
not copied and which joints of ``<gazebo>`` blocks close loops (:mod:`.report`), then
writes the folder at once (:func:`sdf_tools.outputs.write_folder`): a failure leaves
nothing behind, and so does ``strict`` when the folder would not hold everything the model
uses. An existing folder holding something is replaced only when forced, once the new one
is complete, and only if it is a model folder (it holds ``model.config``), holds no ROS
package (no ``package.xml``), is not the current folder, the home folder or one above
them, and holds no file read to make the export (the description and what loading it read,
every file the model names, the ``package.xml`` files read to name packages).

The model's name in its URIs is the folder's name: Gazebo finds ``model://DIR`` as the
folder ``DIR`` in a folder of its resource path (``GZ_SIM_RESOURCE_PATH``, libsdformat's
``SDF_PATH``), wherever that is; renaming the folder breaks the URIs.
"""

from collections.abc import Iterable
import os
import re

from sdf_tools.convert.mesh_uris import model_uri
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.errors import Code
from sdf_tools.errors import combine
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.exporting import assets
from sdf_tools.exporting import report
from sdf_tools.exporting import rewrite
from sdf_tools.exporting.model_config import model_config
from sdf_tools.loading import load
from sdf_tools.loading import Loaded
from sdf_tools.loading import LoadOptions
from sdf_tools.loading import to_sdf
from sdf_tools.outputs import check_folder
from sdf_tools.outputs import OverwriteError
from sdf_tools.outputs import write_folder
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.lookup import Resources
from sdf_tools.resources.package_places import Manifest
from sdf_tools.resources.package_places import package_folder
from sdf_tools.resources.package_places import read_manifest

#: Folder names usable as the model's name in ``model://`` URIs.
NAME = re.compile(r'[A-Za-z0-9_][A-Za-z0-9._-]*')


@record(frozen=True, eq=False)
class ExportOptions:
    """
    How :func:`export` reads, converts and writes.

    Attributes
    ----------
    load : LoadOptions
        How the description is read (xacro arguments, ...).
    conversion : ConversionOptions
        ``sdf_version``, ``preserve_fixed_joints``, ``auto_inertials``, ...; ``packages``,
        ``input_folder`` and ``uri_map`` are export's own (the packages are
        ``Loaded.resources``'), and ``mesh_uris`` says only how meshes that are not copied
        are written.
    force : bool
        Replace a folder that already holds something, if it is a model folder (it holds
        ``model.config``), holds no ROS package and is not the current folder, the home
        folder or one above them.
    strict : bool
        Write nothing unless the folder holds every file the model uses (no ``not-copied``
        or ``not-self-contained`` warning): raise :class:`.report.NotSelfContained`.

    """

    load: LoadOptions = field(default_factory=LoadOptions)
    conversion: ConversionOptions = field(default_factory=ConversionOptions)
    force: bool = False
    strict: bool = False


@record(frozen=True, eq=False)
class Exported:
    """
    What :func:`export` wrote.

    Attributes
    ----------
    folder : str
        The folder (absolute).
    name : str
        The model's name in its URIs (``model://NAME/...``): the folder's name.
    files : tuple of str
        Every file written, relative to ``folder`` (``/``-separated), sorted.
    uris : dict
        Each URI of the description that was copied -> its URI in ``model.sdf``.
    warnings : tuple of Diagnostic
        The reader's, the converter's and export's own: what is not copied, what still
        names something outside the folder, loops Gazebo's physics leaves open.
    used : dict
        ``(kind, outcome)`` -> how many files the model uses (``Plan.used``).

    """

    folder: str
    name: str
    files: tuple[str, ...]
    uris: dict
    warnings: tuple[Diagnostic, ...] = ()
    used: dict = field(default_factory=dict)


def export(source: 'str | Loaded', folder: str, options: ExportOptions | None = None, *,
           resources: Resources | None = None) -> Exported:
    """
    Write the description ``source`` as the Gazebo model folder ``folder`` (module docstring).

    Parameters
    ----------
    source : str or Loaded
        A description file (``-``: standard input), or one already loaded.
    folder : str
        The folder to write; its name is the model's name in URIs.
    options : ExportOptions, optional
        Reading, converting, and whether to replace a folder holding something.
    resources : Resources, optional
        Where a file's packages and models are found, as :func:`~sdf_tools.loading.load`
        takes them (a ``Loaded`` holds its own): the files its URIs name are copied.

    Returns
    -------
    Exported

    Raises
    ------
    SdfToolsError
        The description cannot be read or converted, the folder's name cannot be a model
        name, or the folder holds something (code ``not-empty``) and ``options.force`` is
        not set, or it is no model folder (it holds no ``model.config``), holds a ROS
        package, or it is the current folder, the home folder or one above them;
        :class:`.report.NotSelfContained` with ``options.strict``. Nothing was written.
    OverwriteError
        The folder holds a file read to make the export: the description, a file read to
        load it (a xacro include, a YAML file, an SDFormat include), a file the model names
        or a ``package.xml`` read to name a package; nothing was written.
    OSError
        The folder cannot be written (nothing is left behind); the error names it.

    """
    options = options or ExportOptions()
    target = os.path.abspath(folder)
    name = os.path.basename(target)
    if not NAME.fullmatch(name):
        raise SdfToolsError(Diagnostic(
            f"{folder}: the folder's name is the model's name in its model:// URIs, so it "
            f'must be letters, digits, _, - and . (not first), got {name!r}',
            code=Code.BAD_NAME))
    _check_target(target, folder, options.force)
    if isinstance(source, Loaded):
        loaded = source
        file = source.source if os.path.isfile(source.source) else None
    else:
        loaded = load(source, options.load, resources=resources)
        file = None if source == '-' else source
    packages, models = loaded.resources.packages, loaded.resources.models
    input_folder = None if file is None else os.path.dirname(os.path.abspath(file))
    plan = assets.plan(rewrite.uses(loaded.robot), name, packages, input_folder, models)
    conversion = replace(options.conversion, packages=packages, input_folder=input_folder,
                         uri_map=plan.uris)
    converted = to_sdf(replace(loaded, robot=rewrite.with_uris(loaded.robot, plan.uris)),
                       conversion)
    reported = plan.not_copied | {model_uri(uri) for uri in plan.not_copied}
    manifest, problems, read = _manifest(file)
    files = {'model.config': model_config(loaded.robot.name, conversion.sdf_version, manifest,
                                          None if file is None else os.path.basename(file)),
             'model.sdf': converted.sdf, **plan.files}
    _refuse_inputs(target, folder, [file, *loaded.inputs, *plan.files.values(),
                                    *sorted(plan.inputs), *read])
    sdf_file = os.path.join(folder, 'model.sdf')
    warnings = combine(loaded.warnings, plan.warnings + report.summary(plan, loaded.source) +
                       converted.warnings) + problems + \
        rewrite.leftovers(converted.sdf, name, reported, sdf_file) + \
        report.loop_joints(loaded.robot, converted.sdf, sdf_file)  # combined: each problem once
    if options.strict:
        report.refuse_unless_self_contained(warnings, folder)
    try:
        write_folder(target, files, replace=options.force)
    except FileExistsError:
        _check_target(target, folder, False)  # raises the error the user can act on
        raise
    return Exported(target, name, tuple(sorted(files)), dict(plan.uris), warnings,
                    dict(plan.used))


def _check_target(target: str, folder: str, force: bool) -> None:
    """
    Refuse, before any work, a folder holding something, unless forced and replaceable.

    Forced, a folder holding something is replaced only when it looks like a model folder
    (it holds ``model.config``), and never when it is the current folder, a folder above
    it, the home folder or one above that: ``-o . --force`` in a folder of one's own work
    would delete it all. Nor when it holds a ``package.xml`` at any depth: export writes
    none, so that is someone's ROS package, and the package lookup may have read it.
    """
    try:
        exists = check_folder(target, replace=force)
    except FileExistsError:
        raise SdfToolsError(Diagnostic(
            f'{folder}: the folder is not empty; export replaces it only when forced '
            '(--force)', code=Code.NOT_EMPTY)) from None
    if not exists or not os.listdir(target):
        return
    real = os.path.realpath(target)
    why = None
    for place, name in ((_cwd(), 'current folder'), (os.path.expanduser('~'), 'home folder')):
        place = None if place is None else os.path.realpath(place)
        if place is not None and os.path.isabs(place) and \
                os.path.commonpath([place, real]) == real:
            why = f'it is the {name}' if place == real else f'it holds the {name}'
            break
    else:
        if not os.path.isfile(os.path.join(target, 'model.config')):
            why = 'it holds no model.config, so it is no model folder'
        elif (package := _package_in(target)) is not None:
            why = f'it holds a ROS package ({package})'
    if why is not None:
        raise SdfToolsError(Diagnostic(
            f'{folder}: not replaced, because {why}; --force replaces only a model folder '
            '(one holding model.config) holding no ROS package, never the current folder, '
            'the home folder or one above them', code=Code.NOT_EMPTY))


def _package_in(target: str) -> str | None:
    """Return the first ``package.xml`` in ``target`` or below it (links not followed)."""
    for top, folders, names in os.walk(target):
        if 'package.xml' in names:
            return os.path.join(top, 'package.xml')
        folders.sort()
    return None


def _cwd() -> str | None:
    try:
        return os.getcwd()
    except OSError:  # removed since the process started there
        return None


def _refuse_inputs(target: str, folder: str,
                   inputs: Iterable[str | os.PathLike[str] | None]) -> None:
    """
    Refuse to replace a folder holding a file read to make the export.

    ``inputs``: the description (or ``None``), then the files read to load it (xacro
    includes and YAML files, SDFormat includes), then the files copied; each is compared
    as a real path, so that links and other spellings are caught.
    """
    real = os.path.realpath(target)
    for index, path in enumerate(inputs):
        if path is None:
            continue
        path = os.fspath(path)
        if os.path.commonpath([os.path.realpath(path), real]) == real:
            what = f'the input {path}' if index == 0 else \
                f'{path}, which was read to make the output'
            raise OverwriteError(f'refusing to write {folder}: it holds {what}; nothing was '
                                 'written')


def _manifest(file: str | None) -> tuple[Manifest | None, tuple[Diagnostic, ...],
                                         tuple[str, ...]]:
    """Return the description's package's manifest (or ``None``), a warning, the file read."""
    package = None if file is None else package_folder(file)
    if package is None:
        return None, (), ()
    read = (os.path.join(package, 'package.xml'),)
    try:
        return read_manifest(package), (), read
    except ValueError as e:
        return None, (Diagnostic(f'{e}; model.config has no version, authors or description '
                                 'from it', SourceLocation(read[0]), severity=Severity.WARNING,
                                 code=Code.IO),), read
