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
URDF (with ``<gazebo>`` extensions) to SDFormat, the way libsdformat's ``gz sdf -p`` does it.

The conversion follows libsdformat's URDF parser (``URDF2SDF::InitModelString``) step by step,
so that the output has the same elements, names and order. :func:`urdf_to_sdf` reads as that
order; each step has its module:

1. :mod:`.gazebo_ext`: every ``<gazebo>`` block becomes an
   :class:`~sdf_tools.convert.gazebo_ext.Extension` (the poses and numbers of its blobs
   checked by :mod:`.blob_values`); references that name nothing and tags without effect are
   reported;
2. :mod:`.tree`: a working copy of the links and joints, with the extensions of each (with
   ``auto_inertials``, :mod:`.auto_inertials` gives the links without ``<inertial>`` the mass
   properties of their collision geometry);
3. :mod:`.lumping`: fixed joints are *lumped* depth first (children in joint-name order):
   the child's mass properties, visuals, collisions, extensions and child joints move into
   the parent, references to it follow, and a ``<frame>`` is recorded for the removed joint
   and link;
4. :mod:`.naming`: joints and frames get names distinct from the links', sensor names
   distinct within their link, all SDFormat-valid; the blob joints lumping re-pointed are
   posed relative to their frames' final names;
5. :mod:`.decide_links` and :mod:`.decide_joints`: links are decided depth first from the
   root, each listed after its parent joint, mesh URIs as :mod:`.mesh_uris` says; what
   extensions add to a link, visual, collision or joint is decided by :mod:`.gazebo_apply`
   (:class:`~sdf_tools.xmlio.element.Element` values);
6. here: model-level extensions, the lumping frames and the ``<robot><origin>`` pose come
   last, and the document (:class:`~sdf_tools.formats.sdf.document.SdfDocument`), whose
   poses are checked to be finite, is written once by
   :func:`~sdf_tools.formats.sdf.emit.write_document`.

Where libsdformat is documented to be wrong, this converter is right instead (each case is
covered by a test and listed in the README):

* extensions reach the link's named visuals and collisions, and those lumped from a child
  (libsdformat matches them by generated names, which named elements do not have);
* floating and planar joints, which SDFormat cannot express, leave a free link posed at the
  joint origin instead of a link whose ``relative_to`` names a missing joint;
* links without mass are kept with a small placeholder inertial, with a warning, instead of
  being dropped silently together with everything below them;
* lumping two massless links gives a massless result, not a 0/0 (NaN) centre of mass;
* a ``<collision>`` blob with a ``<surface>`` never leaves values in a replaced surface;
* ``<static>`` is written only when given;
* a joint that shares its name with a link is renamed (``<name>_joint``), with a warning;
* orientations are printed exactly (urdfdom's ``getRPY`` snaps pitch near +-pi/2 by up to
  4.5e-3 rad), with full precision (not 6 digits), and lumped ``<light>`` poses, plugin
  offsets and every plugin ``bodyName``, joint blobs and contact-sensor collision names follow
  the lumping exactly;
* collisions whose shape has no volume, on which Gazebo's DART engine aborts, are left out,
  and a second sensor or light of one name in a link is renamed, each with a warning.
"""

import math
from typing import TYPE_CHECKING

from sdf_tools.convert import gazebo_apply
from sdf_tools.convert import gazebo_ext
from sdf_tools.convert import lumping
from sdf_tools.convert import naming
from sdf_tools.convert.decide_joints import complete_defaults
from sdf_tools.convert.decide_links import decide_links
from sdf_tools.convert.mesh_uris import mesh_uris
from sdf_tools.convert.mesh_uris import MODES
from sdf_tools.convert.tree import Tree
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.formats.sdf.document import FrameOut
from sdf_tools.formats.sdf.document import ModelOut
from sdf_tools.formats.sdf.document import SdfDocument
from sdf_tools.formats.sdf.emit import non_finite_poses
from sdf_tools.formats.sdf.emit import NumberTexts
from sdf_tools.formats.sdf.emit import write_document
from sdf_tools.formats.sdf.inertials import MASSLESS_INERTIA
from sdf_tools.formats.sdf.inertials import MASSLESS_MASS
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.model import Robot
from sdf_tools.records import field
from sdf_tools.records import record
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.parse import ValueReader

if TYPE_CHECKING:
    from sdf_tools.convert.tree import Joint as TreeJoint
    from sdf_tools.convert.tree import Link as TreeLink


@record(frozen=True)
class ConversionOptions:
    """
    Options of :func:`urdf_to_sdf`.

    Attributes
    ----------
    preserve_fixed_joints : bool
        Keep every fixed joint (libsdformat ``ParserConfig::URDFPreserveFixedJoint``); by
        default fixed joints are lumped unless ``<preserveFixedJoint>`` or
        ``<disableFixedJointLumping>`` is set for them.
    sdf_version : str
        ``'1.9'`` (what libsdformat 12 writes), ``'1.10'`` or ``'1.11'`` (adds ``<mimic>``).
    massless_mass : float
        Mass (kg) of the placeholder inertial given to links without mass.
    massless_inertia : float
        Principal moments (kg m^2) of that placeholder.
    mesh_uris : str
        How mesh URIs are written (:mod:`.mesh_uris`): ``'model'`` (libsdformat's
        ``model://``), ``'file'`` (absolute ``file://`` paths; needs ``packages``) or
        ``'package'`` (as written).
    packages : PackageResolver, optional
        Finds the packages of ``package://`` URIs. Given, every mode warns about meshes,
        textures and paths in ``<gazebo>`` content whose file does not exist, and the ones
        that name no package found.
    input_folder : str, optional
        The description file's folder, against which ``'file'`` resolves relative mesh
        paths and ``auto_inertials`` loads them (``None``: they are not resolved).
    auto_inertials : float, optional
        Density (kg/m^3): links without ``<inertial>`` get the mass properties of their
        collision geometry at this density (:mod:`.auto_inertials`; meshes need trimesh).
        ``None``: they get the placeholder.
    uri_map : dict, optional
        URDF mesh filename or ``<texture>`` filename -> the URI to write for it, as
        ``sdf_tools export`` places the files (:mod:`.mesh_uris`). Meshes not in it are
        written as ``mesh_uris`` says; a visual whose URDF texture is in it gets the texture
        as ``<pbr><metal><albedo_map>`` (libsdformat leaves textures out). Given, the
        converter warns about no URI itself (the caller located the files).
    plugins : tuple of Element
        Model-level ``<plugin>`` elements written as the model's last children (the
        Gazebo systems a spawn adds, :mod:`sdf_tools.ros.bringup.gazebo`).

    """

    preserve_fixed_joints: bool = False
    sdf_version: str = '1.9'
    massless_mass: float = MASSLESS_MASS
    massless_inertia: float = MASSLESS_INERTIA
    mesh_uris: str = 'model'
    packages: PackageResolver | None = None
    input_folder: str | None = None
    auto_inertials: float | None = None
    uri_map: dict[str, str] | None = None
    plugins: tuple[Element, ...] = ()


@record(frozen=True)
class ConversionResult:
    """
    What :func:`urdf_to_sdf` produced.

    Attributes
    ----------
    sdf : str
        The SDFormat document.
    warnings : tuple of Diagnostic
        Everything worth telling the user, with file:line where known.
    renamed_joints : dict
        URDF joint name -> its different name in the SDFormat output (name clashes).
    renamed_frames : dict
        Lumped joint or link name -> the different name of the ``<frame>`` kept for it.
    inputs : tuple of str
        The files read to convert (the meshes ``auto_inertials`` weighed): no output may
        replace one (:func:`~sdf_tools.outputs.check_outputs`).

    """

    sdf: str
    warnings: tuple[Diagnostic, ...] = ()
    renamed_joints: dict[str, str] = field(default_factory=dict)
    renamed_frames: dict[str, str] = field(default_factory=dict)
    inputs: tuple[str, ...] = ()


def urdf_to_sdf(robot: Robot, options: ConversionOptions | None = None) -> ConversionResult:
    """
    Convert a URDF model (with its ``<gazebo>`` extensions) to SDFormat text.

    Parameters
    ----------
    robot : Robot
        Read by :func:`sdf_tools.formats.urdf.reader.parse_urdf`.
    options : ConversionOptions, optional
        Conversion switches.

    Returns
    -------
    ConversionResult

    Raises
    ------
    DescriptionError
        A ``<gazebo>`` value is malformed (e.g. a non-numeric ``<mu1>``).
    ConversionError
        The options are invalid.

    """
    options = options or ConversionOptions()
    if options.sdf_version not in CONVERTIBLE_VERSIONS:
        raise ConversionError(Diagnostic(
            f'SDFormat version {options.sdf_version!r} is not supported (choose one of '
            + ', '.join(CONVERTIBLE_VERSIONS) + ')', code=Code.BAD_OPTION))
    for name in ('massless_mass', 'massless_inertia'):
        value = getattr(options, name)
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ConversionError(Diagnostic(f'{name} must be a finite number greater than 0, '
                                             f'got {value!r}', code=Code.BAD_OPTION))
    _check_mesh_options(options)
    return _convert(robot, options)


def _check_mesh_options(options: ConversionOptions) -> None:
    """Refuse a ``mesh_uris`` or ``auto_inertials`` that cannot be used."""
    problem = None
    if options.mesh_uris not in MODES:
        problem = (f'mesh_uris must be one of {", ".join(MODES)}, got '
                   f'{options.mesh_uris!r}')
    elif options.mesh_uris == 'file' and options.packages is None:
        problem = "mesh_uris 'file' needs a package resolver (packages) to locate the meshes"
    elif options.auto_inertials is not None and not (
            isinstance(options.auto_inertials, (int, float))
            and math.isfinite(options.auto_inertials) and options.auto_inertials > 0):
        problem = ('auto_inertials (a density, kg/m^3) must be a finite number greater than '
                   f'0, got {options.auto_inertials!r}')
    if problem:
        raise ConversionError(Diagnostic(problem, code=Code.BAD_OPTION))


def _convert(robot: Robot, options: ConversionOptions) -> ConversionResult:
    """Run the steps in libsdformat's order (see the module docstring)."""
    reporter = Reporter()
    values = ValueReader(robot.source, reporter)
    extensions = gazebo_ext.parse_extensions(robot, values, options.sdf_version)
    model_extensions = [e for e in extensions if not e.ref]
    tree = Tree(robot, extensions, options.preserve_fixed_joints)
    gazebo_ext.check_references(extensions, tree, values)
    uris = mesh_uris(robot, options, reporter)
    inputs: tuple[str, ...] = ()
    if options.auto_inertials is not None:
        from sdf_tools.convert import auto_inertials  # numpy and trimesh: only when asked
        inputs = auto_inertials.fill(tree, options, reporter)
    lumped = lumping.lump(tree, extensions, values)
    names = naming.resolve_names(tree, model_extensions, lumped.frames, reporter)
    naming.name_sensors(tree, reporter)
    naming.check_sdf_names(robot, tree, names.frames, model_extensions, options.sdf_version)
    lumping.resolve_frame_refs(lumped.frame_refs, names.renamed_frames)

    texts = NumberTexts()
    items = decide_links(tree, options, reporter, uris, texts)
    # Model-level content finds and replaces only its own elements (<static>, blobs).
    content = gazebo_apply.apply_model(model_extensions, gazebo_apply.overwrite_warner(
        reporter, f"robot '{robot.name}'", None))
    content = tuple(complete_defaults(e, options.sdf_version) if e.tag == 'joint' else e
                    for e in content)
    frames = tuple(FrameOut(f.name, f.attached_to, f.pose) for f in names.frames)
    document = SdfDocument(options.sdf_version, ModelOut(
        robot.name, tuple(items), content, frames, robot.origin, tuple(options.plugins)))
    _check_poses_finite(document, texts, tree, reporter)
    reporter.raise_if_errors()
    return ConversionResult(write_document(document, texts), tuple(reporter.warnings),
                            names.renamed_joints, names.renamed_frames, inputs)


def _check_poses_finite(document: SdfDocument, texts: NumberTexts, tree: Tree,
                        reporter: Reporter) -> None:
    """Report poses that composing made non-finite (libsdformat refuses the file)."""
    for text, parent, tag, name in non_finite_poses(document, texts):
        items: dict[str, TreeLink] | dict[str, TreeJoint] = \
            tree.links if tag == 'link' else tree.joints if tag == 'joint' else {}
        item = items.get(name)
        reporter.error(f'a <pose> of its <{parent}> is not finite ({text}): the joint '
                       'origins composed by fixed-joint lumping are too large',
                       item.model.location if item is not None else None, f"{tag} '{name}'",
                       Code.BAD_NUMBER)
