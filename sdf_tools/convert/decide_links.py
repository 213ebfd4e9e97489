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
SDFormat ``<link>`` elements: libsdformat's ``CreateSDF`` walk and ``CreateLink``.

:func:`decide_links` walks the lumped tree depth first from the root and decides each kept
link and, listed before it, its parent ``<joint>`` (:mod:`.decide_joints`): the link pose
(relative to that joint, or at the joint origin for floating and planar joints), the
inertial (``CreateInertial``), the collisions and visuals with their geometry, ``<gazebo>``
settings and URDF colour (``CreateCollisions``, ``CreateVisuals``, ``CreateGeometry``), then
the link-level extension content, where contact sensors of lumped links name their
collisions by the names they have now (``ReduceSDFExtensionContactSensorFrameReplace``).
A link is decided before its joint, so that warnings come in libsdformat's order.

Links without mass get a placeholder inertial instead of being dropped, inertias no rigid
body can have are replaced by the nearest valid one, and collisions whose shape has no volume
are left out (Gazebo's DART engine aborts on them), each with a warning.
"""

import math
from typing import cast
from typing import TYPE_CHECKING

from sdf_tools import inertia
from sdf_tools.convert import gazebo_apply
from sdf_tools.convert.decide_joints import decide_joint
from sdf_tools.convert.decide_joints import NO_SDF_JOINT
from sdf_tools.convert.tree import is_merged
from sdf_tools.convert.tree import Link
from sdf_tools.convert.tree import part_name
from sdf_tools.convert.tree import Tree
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.formats.sdf import inertials
from sdf_tools.formats.sdf.document import InertialOut
from sdf_tools.formats.sdf.document import LinkOut
from sdf_tools.formats.sdf.document import PartOut
from sdf_tools.formats.sdf.emit import COLOURS
from sdf_tools.formatting import fmt_colour
from sdf_tools.model import Capsule
from sdf_tools.model import IDENTITY
from sdf_tools.model import Mesh
from sdf_tools.model import Sphere
from sdf_tools.topology import WORLD
from sdf_tools.validate import geometry_problem
from sdf_tools.xmlio.element import appended
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import first_index
from sdf_tools.xmlio.element import key_value
from sdf_tools.xmlio.element import replace_child
from sdf_tools.xmlio.element import with_key
from sdf_tools.xmlio.element import with_text

if TYPE_CHECKING:
    from sdf_tools.convert.gazebo_apply import OnOverwrite
    from sdf_tools.convert.gazebo_ext import Extension
    from sdf_tools.convert.tree import Part
    from sdf_tools.convert.urdf_to_sdf import ConversionOptions
    from sdf_tools.errors import Reporter
    from sdf_tools.formats.sdf.document import ModelItem
    from sdf_tools.formats.sdf.emit import NumberTexts
    from sdf_tools.model import Geometry
    from sdf_tools.model import Material
    from sdf_tools.model import Pose
    from sdf_tools.model import Visual

    #: A colour: red, green, blue and alpha, 0 to 1.
    Rgba = tuple[float, float, float, float]


def decide_links(tree: Tree, options: 'ConversionOptions', reporter: 'Reporter',
                 uris: dict[str, str], texts: 'NumberTexts') -> list['ModelItem']:
    """
    Return every kept link and joint, depth first, each joint before its link.

    Parameters
    ----------
    tree : Tree
        After lumping and naming.
    options : ConversionOptions
        The output version and the placeholder inertial.
    reporter : Reporter
        Where the warnings go.
    uris : dict
        URDF mesh filename -> the ``<uri>`` to write (:mod:`.mesh_uris`).
    texts : NumberTexts
        The document's number texts.

    Returns
    -------
    list
        :class:`~sdf_tools.formats.sdf.document.LinkOut` and joints (decided, or elements).

    """
    items: list[ModelItem] = []
    for link in tree.preorder(tree.root):
        if not tree.is_world_root(link) and not is_merged(link.parent_joint):
            decided = _link(link, options, reporter, uris)
            joint = link.parent_joint
            if joint is not None:
                out = decide_joint(link, joint, tree, options.sdf_version, reporter, texts)
                if out is not None:
                    items.append(out)
            items.append(decided)
    return items


def _link(link: Link, options: 'ConversionOptions', reporter: 'Reporter',
          uris: dict[str, str]) -> LinkOut:
    """Decide one link (its parent joint comes after: its warnings follow the link's)."""
    joint = link.parent_joint
    pose: Pose | None = None
    relative_to: str | None = None
    if joint is not None:
        if joint.model.kind in NO_SDF_JOINT:
            pose = joint.origin
            relative_to = joint.parent if joint.parent != WORLD else None
        else:
            pose, relative_to = IDENTITY, joint.sdf_name
    inertial = _inertial(link, options, reporter)
    on_overwrite = gazebo_apply.overwrite_warner(  # (most links have no extension to warn of)
        reporter, f"link '{link.name}'", link.model.location) if link.extensions else None
    parts, names = _parts(link, on_overwrite, reporter, uris)

    def rename_contacts(ext: 'Extension', blob: Element) -> Element:
        """Name collisions in a lumped link's contact sensor by their names in this link."""
        mapping = names.get(ext.ref)
        if mapping and blob.tag == 'sensor' and ext.ref != link.name:
            return _renamed_contacts(blob, mapping)
        return blob

    # What the extensions append to the link: gravity, velocity decay, self collide and
    # blobs find and replace only each other, so they are decided apart from the rest.
    content = gazebo_apply.apply_link(link.extensions, on_overwrite, rename_contacts) \
        if link.extensions else ()
    return LinkOut(link.name, pose, relative_to, inertial, parts, content)


def _renamed_contacts(sensor: Element, mapping: dict[str, str]) -> Element:
    """Return a sensor whose ``contact/collision`` texts ``mapping`` renames."""
    for at, contact in enumerate(sensor.children):
        if contact.tag != 'contact':
            continue
        for index, collision in enumerate(contact.children):
            value = key_value(collision) if collision.tag == 'collision' else None
            if value is not None and value in mapping:
                contact = replace_child(contact, index, with_text(collision, mapping[value]))
        sensor = replace_child(sensor, at, contact)
    return sensor


def _parts(link: Link, on_overwrite: 'OnOverwrite | None', reporter: 'Reporter',
           uris: dict[str, str]) -> tuple[tuple[PartOut, ...], dict[str, dict[str, str]]]:
    """
    Return the collisions, then the visuals, of a link with their extensions.

    And ``{source link: {unlumped name: name here}}`` of the collisions (empty without
    extensions: only their contact sensors name collisions).
    """
    exts = link.extensions
    names: dict[str, dict[str, str]] = {}
    parts: list[PartOut] = []
    for index, part in enumerate(link.collisions):
        sdf_name = part_name(part.name, link.name, index, 'collision')
        if exts:
            names.setdefault(part.source_link, {})[part.unlumped_name] = sdf_name
        problem = geometry_problem(part.model.geometry)
        if problem is not None:  # in the stead of the reader's warning: its place and entity
            reporter.warn(f'collision {sdf_name!r} is left out: {problem}, and DART '
                          "(Gazebo's physics engine) aborts on a collision without volume "
                          '(libsdformat writes it)', part.model.location,
                          f"link '{part.source_link}'", Code.BAD_GEOMETRY)
            continue
        targeting = gazebo_apply.targeting(exts, link.name, part, sdf_name, 'collision',
                                           reporter) if exts else None
        content = gazebo_apply.apply_collision(targeting, on_overwrite) if targeting else ()
        geometry = part.model.geometry
        if isinstance(geometry, Capsule) and geometry.length == 0.0:
            geometry = Sphere(geometry.radius)  # the same shape; DART aborts on the capsule
        parts.append(_part('collision', sdf_name, part, geometry, uris, content=content))
    for index, part in enumerate(link.visuals):
        sdf_name = part_name(part.name, link.name, index, 'visual')
        targeting = gazebo_apply.targeting(exts, link.name, part, sdf_name, 'visual',
                                           reporter) if exts else None
        material = cast('Visual', part.model).material   # (a visual's part)
        texture = uris.get(material.texture) if material is not None and material.texture \
            else None  # only sdf_tools export gives textures a URI (ConversionOptions.uri_map)
        geometry = part.model.geometry
        if not targeting and texture is None:
            colour = None if material is None else _urdf_color(material)
            parts.append(_part('visual', sdf_name, part, geometry, uris, colour=colour))
            continue
        content = gazebo_apply.apply_visual(targeting, on_overwrite) if targeting else ()
        content = _with_urdf_material(content, material, texture)
        parts.append(_part('visual', sdf_name, part, geometry, uris, content=content))
    return tuple(parts), names


def _part(tag: str, name: str, part: 'Part', geometry: 'Geometry | None', uris: dict[str, str],
          *, colour: 'Rgba | None' = None, content: tuple[Element, ...] = ()) -> PartOut:
    uri = uris[geometry.filename] if isinstance(geometry, Mesh) else ''
    return PartOut(tag, name, part.origin, geometry, uri, colour, content)


def _inertial(link: Link, options: 'ConversionOptions', reporter: 'Reporter') -> InertialOut:
    """Return ``<inertial>``: a placeholder without mass, the nearest valid inertia if invalid."""
    mass = link.mass
    if mass is None or not mass[0] > 0.0:
        mass = _placeholder(link, options, reporter)
    m, com, quat, values = mass
    if not all(map(math.isfinite, (m, *com, *quat, *values))):
        raise DescriptionError(Diagnostic(
            'its mass properties, with the links merged into it by fixed-joint lumping, '
            'are not finite (joint origins or inertias too large)', link.model.location,
            f"link '{link.name}'", code=Code.BAD_NUMBER))
    if not inertia.clearly_physical(values):  # most tensors are, without an eigen-solve
        values = inertials.valid_inertia(m, values, location=link.model.location,
                                         entity=f"link '{link.name}'", reporter=reporter)
    return InertialOut(com, quat, m, tuple(values))


def _placeholder(link: Link, options: 'ConversionOptions', reporter: 'Reporter',
                 ) -> inertia.Body:
    """Return the placeholder mass properties of a link without positive mass, and warn."""
    mass = link.mass
    entity = f"link '{link.name}'"
    if mass is not None and mass[0] < 0.0:
        return inertials.placeholder(
            mass, what=f'has mass {mass[0]:g} kg, which no body can have (libsdformat writes it '
            "as given, and its own check then refuses the link: 'invalid inertia')",
            then='instead, at its centre of mass', location=link.model.location,
            entity=entity, reporter=reporter, mass=options.massless_mass,
            moment=options.massless_inertia)
    what = 'has no <inertial>' if mass is None else f'has mass {mass[0]:g}, which is not positive'
    if options.auto_inertials is not None and mass is None and not link.collisions:
        what += ' and no <collision> to compute one from'
    below = len(link.children)
    kept = ('it stays in the model (libsdformat drops it)' if below == 0 else
            f"it and the {'joint' if below == 1 else f'{below} joints'} below it stay in "
            'the model (libsdformat drops them, with everything below)')
    return inertials.placeholder(mass, what=what, then=f'so that {kept}',
                                 location=link.model.location, entity=entity,
                                 reporter=reporter, mass=options.massless_mass,
                                 moment=options.massless_inertia)


def _with_urdf_material(content: tuple[Element, ...], material: 'Material | None',
                        texture: str | None = None) -> tuple[Element, ...]:
    """
    Return a visual's extension content with the URDF colour, unless it gives one.

    The colour is added unless an extension already gave diffuse or ambient. ``texture`` is
    the URI of the URDF texture (``sdf_tools export`` only): it becomes
    ``<pbr><metal><albedo_map>`` unless an extension gave ``<pbr>``, and a material with a
    texture and no colour is white, so that the texture shows as it is (Gazebo multiplies
    the two).
    """
    if material is None:
        return content
    visual = Element('visual', children=content)
    at = first_index(visual, 'material')
    if at is None:
        visual = appended(visual, Element('material'))
        at = len(visual.children) - 1
    mat = visual.children[at]
    if first_index(mat, 'diffuse') is None and first_index(mat, 'ambient') is None:
        rgba = _urdf_color(material) if texture is None or material.rgba is not None else \
            (1.0, 1.0, 1.0, 1.0)
        color = fmt_colour(rgba)
        for colour in COLOURS:
            mat = with_key(mat, colour, color)
    if texture is not None and first_index(mat, 'pbr') is None:
        mat = appended(mat, Element('pbr', children=(
            Element('metal', children=(Element('albedo_map', text=texture),)),)))
    return replace_child(visual, at, mat).children


def _urdf_color(material: 'Material') -> 'Rgba':
    """Return the SDFormat diffuse and ambient of a URDF colour (as libsdformat derives it)."""
    r, g, b, a = material.rgba if material.rgba is not None else (0.0, 0.0, 0.0, 1.0)
    # libsdformat: diffuse r/0.8 and ambient 0.5 r/0.4, clamped to [0, 1]
    return (_clamp01(r / 0.8), _clamp01(g / 0.8), _clamp01(b / 0.8), a)


def _clamp01(value: float) -> float:
    return min(max(value, 0.0), 1.0)
