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
How ``<gazebo>`` extensions land in the SDFormat output (libsdformat's ``InsertSDFExtension*``).

The ``apply_*`` functions write an :class:`~.gazebo_ext.Extension`'s content into one
SDFormat element (``InsertSDFExtensionLink``, ``...Collision``, ``...Visual``, ``...Joint``,
``...Robot``), in libsdformat's order and with its overwrite rule (:func:`add_key_value`: a
value set twice replaces the first and moves to the end, with a warning when the values
differ). :func:`targeting` picks the extensions of one visual or collision. Blob elements are
deep-copied per use; the :class:`~sdf_tools.model.GazeboExtension` elements of the model are
never modified. The tags they find and replace (``surface``, ``material``, ``script``,
``laser_retro``, ``max_contacts``, ``gravity``, ``self_collide``, ``static``) are never the
URDF's content of a link, visual, collision or model, so the writers pass those an element
holding only what extensions add; a joint's settings go into its ``<axis>``, so a joint is
passed whole.
"""

import copy

from lxml import etree

from sdf_tools.convert.gazebo_ext import COLLISION_SETTINGS
from sdf_tools.convert.gazebo_ext import JOINT_SETTINGS
from sdf_tools.convert.gazebo_ext import key_value
from sdf_tools.convert.tree import LUMP
from sdf_tools.errors import Code
from sdf_tools.formatting import fmt
from sdf_tools.xmlio.parse import first_child


def targeting(extensions, link_name: str, part, sdf_name: str, kind: str, reporter) -> list:
    """
    Return the extensions of a link that configure one of its visuals or collisions.

    An extension configures the parts that came from the link it references, named or not.
    libsdformat decides by the generated SDF name instead; where that would also reach this
    part, say so, since a model tuned under Gazebo may rely on it.

    Parameters
    ----------
    extensions : list of Extension
        The link's extensions (its own and those lumping moved to it).
    link_name : str
        The link.
    part : Part
        The visual or collision, named ``sdf_name`` in the output.
    sdf_name : str
        Its name.
    kind : str
        ``'visual'`` or ``'collision'``.
    reporter : Reporter
        Where the warnings go.

    """
    mine = [e for e in extensions if e.ref == part.source_link and not e.empty]
    for ext in extensions:
        if ext in mine:
            continue
        by_name = (LUMP not in sdf_name if ext.ref == link_name
                   else f'{LUMP}{ext.ref}_{kind}' in sdf_name)
        if by_name and ext.configures(kind):
            reporter.warn(f'configures the {kind}s of link {ext.ref!r}; {kind} {sdf_name!r} '
                          f'came from link {part.source_link!r}, so it is left alone '
                          '(libsdformat applies the block to it because of how its name '
                          'reads)', ext.location, f"<gazebo reference='{ext.ref}'>",
                          Code.EXTENSION_TARGET)
    return mine


def overwrite_warner(reporter, entity: str, location):
    """Return the ``on_overwrite`` callback of the ``apply_*`` functions for one entity."""
    def on_overwrite(key, old, new):
        reporter.warn(f'<{key}> is set more than once; {old!r} is replaced by {new!r}',
                      location, entity, Code.OVERWRITE)
    return on_overwrite


def _text(value) -> str:
    """Return a setting as SDFormat text (booleans as ``true``/``false``)."""
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (int, str)):
        return str(value)
    return fmt(value)


def add_key_value(parent, key: str, value: str, on_overwrite=None):
    """
    Set ``<key>value</key>`` under ``parent`` the libsdformat way.

    An existing ``<key>`` is removed and the new one appended at the end;
    ``on_overwrite(key, old, new)`` is called when the old value differs.
    """
    old = first_child(parent, key)
    if old is not None:
        old_value = key_value(old)
        if old_value != value and on_overwrite is not None:
            on_overwrite(key, old_value, value)
        parent.remove(old)
    element = etree.SubElement(parent, key)
    element.text = value
    return element


def _child(parent, tag):
    found = first_child(parent, tag)
    return found if found is not None else etree.SubElement(parent, tag)


def apply_collision(collision, extensions, on_overwrite=None) -> None:
    """
    Apply extensions to one ``<collision>`` (blobs, then surface settings).

    A ``<surface>`` blob replaces the collision's surface; ``contact/ode`` and
    ``friction/ode`` are then looked up afresh in whatever surface is current, and created
    when missing, so values always land in the surface that is written (libsdformat keeps
    pointers into a surface a later blob has replaced).
    """
    for ext in extensions:
        _insert_blobs(collision, ext.collision_blobs, 'surface')
        surface = _child(collision, 'surface')
        parents = {'contact': _child(_child(surface, 'contact'), 'ode'),
                   'friction': _child(_child(surface, 'friction'), 'ode'),
                   'collision': collision}
        for name, parent, tag in COLLISION_SETTINGS:
            value = getattr(ext, name)
            if value is not None and value != '':
                add_key_value(parents[parent], tag, _text(value), on_overwrite)


def _insert_blobs(target, blobs, replaced: str) -> None:
    """Append copies of ``blobs`` to ``target``; a ``<replaced>`` blob replaces the old one."""
    for blob in blobs:
        if blob.tag == replaced:
            old = first_child(target, replaced)
            if old is not None:
                target.remove(old)
        target.append(copy.deepcopy(blob))


def apply_visual(visual, extensions, on_overwrite=None) -> None:
    """Apply extensions to one ``<visual>``: blobs (a material blob replaces), script name."""
    for ext in extensions:
        _insert_blobs(visual, ext.visual_blobs, 'material')
        if ext.material:
            script = _child(_child(visual, 'material'), 'script')
            add_key_value(script, 'name', ext.material, on_overwrite)
            add_key_value(script, 'uri', 'file://media/materials/scripts/gazebo.material',
                          on_overwrite)


def apply_link(link, extensions, on_overwrite=None, transform_blob=None) -> None:
    """
    Append link-level content: gravity, velocity decay, self collide, then blobs.

    ``transform_blob(ext, blob)`` may rewrite a blob's copy in place (lumping renames).
    """
    for ext in extensions:
        if ext.gravity is not None:
            add_key_value(link, 'gravity', _text(ext.gravity), on_overwrite)
        if ext.damping_factor is not None:
            decay = etree.SubElement(link, 'velocity_decay')
            add_key_value(decay, 'linear', fmt(ext.damping_factor))
            add_key_value(decay, 'angular', fmt(ext.damping_factor))
        if ext.self_collide is not None:
            add_key_value(link, 'self_collide', '1' if ext.self_collide else '0',
                          on_overwrite)
        for blob in ext.blobs:
            blob = copy.deepcopy(blob)
            if transform_blob is not None:
                transform_blob(ext, blob)
            link.append(blob)


def apply_joint(joint, extensions, on_overwrite=None, with_blobs=True) -> None:
    """
    Apply joint-level settings: ``physics/ode`` and ``axis/dynamics`` values, then blobs.

    As in libsdformat, every extension creates ``<axis><dynamics/>`` and
    ``<physics><ode><limit/>`` if absent, even when it sets nothing there.
    """
    for ext in extensions:
        dynamics = _child(_child(joint, 'axis'), 'dynamics')
        physics = _child(joint, 'physics')
        ode = _child(physics, 'ode')
        parents = {'dynamics': dynamics, 'physics': physics, 'ode': ode,
                   'limit': _child(ode, 'limit')}
        for name, targets in JOINT_SETTINGS:
            value = getattr(ext, name)
            if value is not None:
                for parent, tag in targets:
                    add_key_value(parents[parent], tag, _text(value), on_overwrite)
        if with_blobs:
            for blob in ext.blobs:
                joint.append(copy.deepcopy(blob))


def apply_model(model, extensions, on_overwrite=None) -> None:
    """Append model-level content: ``<static>`` (only when given), then blobs."""
    for ext in extensions:
        if ext.static is not None:
            add_key_value(model, 'static', _text(ext.static), on_overwrite)
        for blob in ext.blobs:
            model.append(copy.deepcopy(blob))
