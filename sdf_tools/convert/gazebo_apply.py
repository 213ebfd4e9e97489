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

The ``apply_*`` functions return what an :class:`~.gazebo_ext.Extension`'s content makes of
one SDFormat element (``InsertSDFExtensionLink``, ``...Collision``, ``...Visual``,
``...Joint``, ``...Robot``), in libsdformat's order and with its overwrite rule
(:func:`~sdf_tools.xmlio.element.with_key`: a value set twice replaces the first and moves
to the end, with a warning when the values differ). :func:`targeting` picks the extensions
of one visual or collision. Everything is an :class:`~sdf_tools.xmlio.element.Element`
value: nothing is edited, each step returns a new one. The tags extensions find and
replace (``surface``, ``material``, ``script``, ``laser_retro``, ``max_contacts``,
``gravity``, ``self_collide``, ``static``) are never the URDF's content of a link, visual,
collision or model, so for those the functions return only what extensions add (the writer
puts it after the rest); a joint's settings go into its ``<axis>``, so a joint is passed
whole.
"""

from typing import TYPE_CHECKING

from sdf_tools.convert.gazebo_ext import COLLISION_SETTINGS
from sdf_tools.convert.gazebo_ext import JOINT_SETTINGS
from sdf_tools.convert.tree import LUMP
from sdf_tools.errors import Code
from sdf_tools.formatting import fmt
from sdf_tools.xmlio.element import appended
from sdf_tools.xmlio.element import at_path
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import ensure_path
from sdf_tools.xmlio.element import first_index
from sdf_tools.xmlio.element import with_key

if TYPE_CHECKING:
    from collections.abc import Callable
    from collections.abc import Mapping

    from sdf_tools.convert.gazebo_ext import Extension
    from sdf_tools.convert.tree import Part
    from sdf_tools.errors import Reporter
    from sdf_tools.errors import SourceLocation

    #: ``on_overwrite(key, old, new)`` of :func:`~sdf_tools.xmlio.element.with_key`.
    OnOverwrite = Callable[[str, str, str], None]
    #: ``(parent, key, text)``: ``<key>text</key>`` in the element named ``parent``.
    Setting = tuple[str, str, str]


def targeting(extensions: list['Extension'], link_name: str, part: 'Part', sdf_name: str,
              kind: str, reporter: 'Reporter') -> list['Extension']:
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


def overwrite_warner(reporter: 'Reporter', entity: str, location: 'SourceLocation | None',
                     ) -> 'OnOverwrite':
    """Return the ``on_overwrite`` callback of the ``apply_*`` functions for one entity."""
    def on_overwrite(key: str, old: str, new: str) -> None:
        reporter.warn(f'<{key}> is set more than once; {old!r} is replaced by {new!r}',
                      location, entity, Code.OVERWRITE)
    return on_overwrite


def _text(value: float | str) -> str:
    """Return a setting as SDFormat text (booleans as ``true``/``false``)."""
    if isinstance(value, bool):
        return 'true' if value else 'false'
    if isinstance(value, (int, str)):
        return str(value)
    return fmt(value)


def _set_all(element: Element, settings: list['Setting'],
             parents: 'Mapping[str, tuple[str, ...]]', on_overwrite: 'OnOverwrite | None',
             ) -> Element:
    """
    Return ``element`` with each ``(parent, key, value)`` of ``settings`` set, in order.

    ``<key>value</key>`` goes in the element at ``parents[parent]`` (a path of tags); the
    settings of one parent that follow each other are set in one step.
    """
    index = 0
    while index < len(settings):
        parent = settings[index][0]
        end = index + 1
        while end < len(settings) and settings[end][0] == parent:
            end += 1
        group = settings[index:end]

        def change(target: Element, group: list['Setting'] = group) -> Element:
            for _, key, value in group:
                target = with_key(target, key, value, on_overwrite)
            return target

        element = at_path(element, parents[parent], change)
        index = end
    return element


#: Where each parent of a collision setting is, below the collision.
_COLLISION_PARENTS = {'contact': ('surface', 'contact', 'ode'),
                      'friction': ('surface', 'friction', 'ode'), 'collision': ()}


def apply_collision(extensions: list['Extension'], on_overwrite: 'OnOverwrite | None' = None,
                    ) -> tuple[Element, ...]:
    """
    Return what extensions give one ``<collision>`` (blobs, then surface settings).

    A ``<surface>`` blob replaces the collision's surface; ``contact/ode`` and
    ``friction/ode`` are then looked up afresh in whatever surface is current, and created
    when missing, so values always land in the surface that is written (libsdformat keeps
    pointers into a surface a later blob has replaced).
    """
    collision: Element | None = None
    for ext in extensions:
        settings = [(parent, tag, _text(value)) for name, parent, tag in COLLISION_SETTINGS
                    if (value := getattr(ext, name)) is not None and value != '']
        if collision is None and not ext.collision_blobs:
            collision = _first_surface(settings)
            continue
        collision = _insert_blobs(collision or Element('collision'), ext.collision_blobs,
                                  'surface')
        collision = ensure_path(collision, ('surface', 'contact', 'ode'))
        collision = ensure_path(collision, ('surface', 'friction', 'ode'))
        if settings:
            collision = _set_all(collision, settings, _COLLISION_PARENTS, on_overwrite)
    return collision.children if collision is not None else ()


def _first_surface(settings: list['Setting']) -> Element:
    """
    Return a collision holding the first extension's ``settings`` (it has no blobs).

    What the general steps of :func:`apply_collision` make of them, made in one step: a
    ``<surface>`` with ``<contact><ode>`` and ``<friction><ode>``, then the collision's own
    settings; each setting is given once, so none overwrites another.
    """
    leaves: dict[str, list[Element]] = {'contact': [], 'friction': [], 'collision': []}
    for parent, tag, text in settings:
        leaves[parent].append(Element(tag, text=text))
    surface = Element('surface', children=tuple(
        Element(parent, children=(Element('ode', children=tuple(leaves[parent])),))
        for parent in ('contact', 'friction')))
    return Element('collision', children=(surface, *leaves['collision']))


def _insert_blobs(target: Element, blobs: list[Element], replaced: str) -> Element:
    """Return ``target`` with ``blobs`` appended; a ``<replaced>`` blob replaces the old one."""
    for blob in blobs:
        if blob.tag == replaced:
            old = first_index(target, replaced)
            if old is not None:
                children = target.children
                target = Element(target.tag, target.attributes, target.text,
                                 children[:old] + children[old + 1:], target.tail, target.line)
        target = appended(target, blob)
    return target


_SCRIPT = {'script': ('material', 'script')}


def apply_visual(extensions: list['Extension'], on_overwrite: 'OnOverwrite | None' = None,
                 ) -> tuple[Element, ...]:
    """Return what extensions give one ``<visual>``: blobs (a material blob replaces), script."""
    visual = Element('visual')
    for ext in extensions:
        visual = _insert_blobs(visual, ext.visual_blobs, 'material')
        if ext.material:
            visual = ensure_path(visual, ('material', 'script'))
            visual = _set_all(visual, [
                ('script', 'name', ext.material),
                ('script', 'uri', 'file://media/materials/scripts/gazebo.material')],
                _SCRIPT, on_overwrite)
    return visual.children


def apply_link(extensions: list['Extension'], on_overwrite: 'OnOverwrite | None' = None,
               transform_blob: 'Callable[[Extension, Element], Element] | None' = None,
               ) -> tuple[Element, ...]:
    """
    Return what extensions append to a link: gravity, velocity decay, self collide, blobs.

    ``transform_blob(ext, blob)`` returns the blob to write (lumping renames).
    """
    link = Element('link')
    for ext in extensions:
        if ext.gravity is not None:
            link = with_key(link, 'gravity', _text(ext.gravity), on_overwrite)
        if ext.damping_factor is not None:
            factor = fmt(ext.damping_factor)
            link = appended(link, Element('velocity_decay', children=(
                Element('linear', text=factor), Element('angular', text=factor))))
        if ext.self_collide is not None:
            link = with_key(link, 'self_collide', '1' if ext.self_collide else '0',
                            on_overwrite)
        blobs = ext.blobs if transform_blob is None else \
            [transform_blob(ext, blob) for blob in ext.blobs]
        link = appended(link, *blobs)
    return link.children


#: Where each parent of a joint setting is, below the joint.
_JOINT_PARENTS = {'dynamics': ('axis', 'dynamics'), 'physics': ('physics',),
                  'ode': ('physics', 'ode'), 'limit': ('physics', 'ode', 'limit')}


def apply_joint(joint: Element, extensions: list['Extension'],
                on_overwrite: 'OnOverwrite | None' = None, with_blobs: bool = True) -> Element:
    """
    Return a joint with joint-level settings: ``physics/ode`` and ``axis/dynamics``, blobs.

    As in libsdformat, every extension creates ``<axis><dynamics/>`` and
    ``<physics><ode><limit/>`` if absent, even when it sets nothing there.
    """
    for ext in extensions:
        joint = ensure_path(joint, ('axis', 'dynamics'))
        joint = ensure_path(joint, ('physics', 'ode', 'limit'))
        settings = [(parent, tag, _text(value)) for name, targets in JOINT_SETTINGS
                    if (value := getattr(ext, name)) is not None for parent, tag in targets]
        if settings:
            joint = _set_all(joint, settings, _JOINT_PARENTS, on_overwrite)
        if with_blobs:
            joint = appended(joint, *ext.blobs)
    return joint


def apply_model(extensions: list['Extension'], on_overwrite: 'OnOverwrite | None' = None,
                ) -> tuple[Element, ...]:
    """Return what extensions append to the model: ``<static>`` (only when given), blobs."""
    model = Element('model')
    for ext in extensions:
        if ext.static is not None:
            model = with_key(model, 'static', _text(ext.static), on_overwrite)
        model = appended(model, *ext.blobs)
    return model.children
