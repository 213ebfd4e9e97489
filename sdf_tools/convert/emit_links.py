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

:func:`write_links` walks the lumped tree depth first from the root, writing each kept link
preceded by its parent ``<joint>`` (:mod:`.emit_joints`): the link pose (relative to that
joint, or at the joint origin for floating and planar joints), the inertial
(``CreateInertial``), the collisions and visuals with their geometry, ``<gazebo>`` settings
and URDF colour (``CreateCollisions``, ``CreateVisuals``, ``CreateGeometry``), then the
link-level extension content, where contact sensors of lumped links name their collisions by
the names they have now (``ReduceSDFExtensionContactSensorFrameReplace``). Everything is
written as text except what extensions add to a link, visual or collision: :mod:`.gazebo_apply`
builds that as lxml elements, apart from the rest, which it never finds or replaces.

Links without mass get a placeholder inertial instead of being dropped, inertias no rigid
body can have are replaced by the nearest valid one, and collisions whose shape has no volume
are left out (Gazebo's DART engine aborts on them), each with a warning.
"""

import math

from lxml import etree

from sdf_tools import inertia
from sdf_tools.convert import gazebo_apply
from sdf_tools.convert.emit_joints import NO_SDF_JOINT
from sdf_tools.convert.emit_joints import write_joint
from sdf_tools.convert.gazebo_ext import key_value
from sdf_tools.convert.tree import is_merged
from sdf_tools.convert.tree import Link
from sdf_tools.convert.tree import part_name
from sdf_tools.convert.tree import Tree
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.formats.sdf import inertials
from sdf_tools.formats.sdf.emit import COLOURS
from sdf_tools.formats.sdf.emit import geometry_block
from sdf_tools.formats.sdf.emit import inertial_block
from sdf_tools.formats.sdf.emit import part_block
from sdf_tools.formats.sdf.emit import SdfText
from sdf_tools.formats.sdf.emit import shape_texts
from sdf_tools.formatting import fmt_colour
from sdf_tools.model import Capsule
from sdf_tools.model import Mesh
from sdf_tools.model import Sphere
from sdf_tools.topology import WORLD
from sdf_tools.validate import geometry_problem
from sdf_tools.xmlio.parse import first_child
from sdf_tools.xmlio.text import escape_attribute
from sdf_tools.xmlio.text import escape_text


def write_links(out: SdfText, tree: Tree, options, reporter, uris: dict) -> None:
    """
    Write every kept link and joint, depth first, joints before their links.

    Parameters
    ----------
    out : SdfText
        The ``<model>``'s content.
    tree : Tree
        After lumping and naming.
    options : ConversionOptions
        The output version and the placeholder inertial.
    reporter : Reporter
        Where the warnings go.
    uris : dict
        URDF mesh filename -> the ``<uri>`` to write (:mod:`.mesh_uris`).

    """
    for link in tree.preorder(tree.root):
        if not tree.is_world_root(link) and not is_merged(link.parent_joint):
            _write_link(out, link, tree, options, reporter, uris)


def _write_link(out: SdfText, link: Link, tree: Tree, options, reporter, uris) -> None:
    """Write one link, after its parent joint (whose warnings follow the link's)."""
    joint = link.parent_joint
    start = out.mark()
    out.start('link', {'name': link.name})
    if joint is not None:
        if joint.model.kind in NO_SDF_JOINT:
            out.leaf('pose', out.pose(joint.origin.xyz, joint.origin.quat),
                     {'relative_to': joint.parent} if joint.parent != WORLD else None)
        else:
            out.leaf('pose', '0 0 0 0 0 0', {'relative_to': joint.sdf_name})
    _write_inertial(out, link, options, reporter)
    on_overwrite = gazebo_apply.overwrite_warner(reporter, f"link '{link.name}'",
                                                 link.model.location)
    names = _write_parts(out, link, on_overwrite, reporter, uris)

    def rename_contacts(ext, blob):
        """Name collisions in a lumped link's contact sensor by their names in this link."""
        mapping = names.get(ext.ref)
        if mapping and blob.tag == 'sensor' and ext.ref != link.name:
            for collision in blob.iterfind('contact/collision'):
                value = key_value(collision)
                if value in mapping:
                    collision.text = mapping[value]

    if link.extensions:
        # What the extensions append to the link: gravity, velocity decay, self collide and
        # blobs find and replace only each other, so they are built apart from the rest.
        added = etree.Element('link')
        gazebo_apply.apply_link(added, link.extensions, on_overwrite, rename_contacts)
        for element in added:
            out.element(element)
    out.end()
    if joint is not None:
        written = out.mark()
        write_joint(out, link, joint, tree, options.sdf_version, reporter)
        out.move_before(start, written)


def _write_parts(out: SdfText, link: Link, on_overwrite, reporter, uris) -> dict:
    """
    Write the collisions, then the visuals, of a link with their extensions.

    Returns ``{source link: {unlumped name: name here}}`` of the collisions.
    """
    exts = link.extensions
    names: dict[str, dict[str, str]] = {}
    for index, part in enumerate(link.collisions):
        sdf_name = part_name(part.name, link.name, index, 'collision')
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
        added = None
        if targeting:
            added = etree.Element('collision')
            gazebo_apply.apply_collision(added, targeting, on_overwrite)
        _write_part(out, 'collision', sdf_name, part, uris, added=added)
    for index, part in enumerate(link.visuals):
        sdf_name = part_name(part.name, link.name, index, 'visual')
        targeting = gazebo_apply.targeting(exts, link.name, part, sdf_name, 'visual',
                                           reporter) if exts else None
        material = part.model.material
        texture = uris.get(material.texture) if material is not None and material.texture \
            else None  # only sdf_tools export gives textures a URI (ConversionOptions.uri_map)
        if not targeting and texture is None:
            _write_part(out, 'visual', sdf_name, part, uris, material=material)
            continue
        added = etree.Element('visual')
        if targeting:
            gazebo_apply.apply_visual(added, targeting, on_overwrite)
        _add_urdf_material(added, material, texture)
        _write_part(out, 'visual', sdf_name, part, uris, added=added)
    return names


def _write_inertial(out: SdfText, link: Link, options, reporter) -> None:
    """Write ``<inertial>``: a placeholder without mass, the nearest valid inertia if invalid."""
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
    number = out.number
    out.block(inertial_block(), out.pose(com, quat), number(m), *map(number, values))


def _placeholder(link: Link, options, reporter) -> tuple:
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


def _write_part(out: SdfText, tag: str, name: str, part, uris, *, material=None,
                added=None) -> None:
    """
    Write a ``<visual>`` or ``<collision>``: pose, geometry, then what extensions added.

    ``material`` is the URDF colour of a visual no extension configures, written as
    :func:`_add_urdf_material` adds it. ``added`` holds, as lxml elements, what extensions
    gave the part (and a configured visual's colour): it never finds or replaces the pose or
    the geometry, so it is built apart and written after them. A part without it is one
    block (:func:`~sdf_tools.formats.sdf.emit.part_block`).
    """
    geometry = part.model.geometry
    if tag == 'collision' and isinstance(geometry, Capsule) and geometry.length == 0.0:
        geometry = Sphere(geometry.radius)  # the same shape; DART aborts on the capsule
    uri = escape_text(uris[geometry.filename]) if isinstance(geometry, Mesh) else ''
    shape = shape_texts(out, geometry, uri)
    pose = out.pose(part.origin.xyz, part.origin.quat)
    kind = geometry.__class__ if shape else None
    if added is None:
        block = part_block(tag, kind, colour=material is not None)
        if material is None:
            out.block(block, escape_attribute(name), pose, *shape)
        else:
            color = fmt_colour(_urdf_color(material))
            out.block(block, escape_attribute(name), pose, *shape, color, color)
        return
    out.start(tag, {'name': name})
    out.leaf('pose', pose)
    if shape:
        out.block(geometry_block(kind), *shape)
    for element in added:
        out.element(element)
    out.end()


def _add_urdf_material(visual, material, texture: str | None = None) -> None:
    """
    Add the URDF colour unless an extension already gave diffuse or ambient.

    ``texture`` is the URI of the URDF texture (``sdf_tools export`` only): it becomes
    ``<pbr><metal><albedo_map>`` unless an extension gave ``<pbr>``, and a material with a
    texture and no colour is white, so that the texture shows as it is (Gazebo multiplies
    the two).
    """
    if material is None:
        return
    mat = first_child(visual, 'material')
    if mat is None:
        mat = etree.SubElement(visual, 'material')
    if first_child(mat, 'diffuse') is None and first_child(mat, 'ambient') is None:
        rgba = _urdf_color(material) if texture is None or material.rgba is not None else \
            (1.0, 1.0, 1.0, 1.0)
        color = fmt_colour(rgba)
        for colour in COLOURS:
            gazebo_apply.add_key_value(mat, colour, color)
    if texture is not None and first_child(mat, 'pbr') is None:
        metal = etree.SubElement(etree.SubElement(mat, 'pbr'), 'metal')
        etree.SubElement(metal, 'albedo_map').text = texture


def _urdf_color(material) -> tuple:
    """Return the SDFormat diffuse and ambient of a URDF colour (as libsdformat derives it)."""
    r, g, b, a = material.rgba if material.rgba is not None else (0.0, 0.0, 0.0, 1.0)
    # libsdformat: diffuse r/0.8 and ambient 0.5 r/0.4, clamped to [0, 1]
    return (_clamp01(r / 0.8), _clamp01(g / 0.8), _clamp01(b / 0.8), a)


def _clamp01(value: float) -> float:
    return min(max(value, 0.0), 1.0)
