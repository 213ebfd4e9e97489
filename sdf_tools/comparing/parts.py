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
Visuals and collisions compared: which is which, geometry, pose, material, mesh files.

Parts of a link pair up by name (a name that only differs by a renamed link's name is the
same), then unnamed or unmatched ones that are equal, then the rest in order. Names a
converter generates (``base_collision_2``, ``base_fixed_joint_lump__plate_visual_1``: they
count the parts, so deleting one renames those after it) say nothing: two parts with such
names (or none) pair up by what they are (shape, size, pose) first, and a different
generated name is no difference. A mesh is the
same when its URI is the same (``model://`` and ``package://`` alike), or when both URIs
lead to one file, or to files with the same bytes (:class:`MeshFiles`; ``model://NAME/...``
is looked for in the model folder ``NAME`` on Gazebo's resource path first, as
``<include>`` s look). A URDF material
(colour and texture) is compared only when neither side holds an SDFormat ``<material>``,
which is then compared as content.
"""

from collections.abc import Callable
from collections.abc import Sequence
import filecmp
import os
import re

from sdf_tools.comparing.blobs import compare_elements
from sdf_tools.comparing.context import Context
from sdf_tools.comparing.context import Places
from sdf_tools.comparing.values import all_close
from sdf_tools.comparing.values import poses_close
from sdf_tools.loading import Loaded
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Collision
from sdf_tools.model import Cylinder
from sdf_tools.model import Geometry
from sdf_tools.model import Link
from sdf_tools.model import Mesh
from sdf_tools.model import OtherGeometry
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.uris import locate
from sdf_tools.xmlio.text import element_text

_ONES = (1.0, 1.0, 1.0)
#: A visual or a collision.
_Part = Visual | Collision
#: Whether a part's name is one a converter makes up (:func:`generated`).
_MadeUp = Callable[[str | None], bool]


class MeshFiles:
    """Where each side's mesh URIs lead, each looked up once in its ``Loaded.resources``."""

    def __init__(self, a: Loaded, b: Loaded):
        self._loaded = (a, b)
        self._paths: dict = {}

    def same(self, uri_a: str, uri_b: str) -> tuple[bool, str]:
        """Return whether two URIs name the same mesh, and if not, why not."""
        if _normal(uri_a) == _normal(uri_b):
            return True, ''
        path_a, path_b = self._path(0, uri_a), self._path(1, uri_b)
        if path_a is None or path_b is None:
            missing = [uri for uri, path in ((uri_a, path_a), (uri_b, path_b)) if path is None]
            return False, 'not found: ' + ', '.join(missing)
        if path_a == path_b:
            return True, ''
        if os.path.isfile(path_a) and os.path.isfile(path_b) and \
                filecmp.cmp(path_a, path_b, shallow=False):
            return True, ''
        return False, 'different files'

    def _path(self, side: int, uri: str) -> str | None:
        """Return the real path ``uri`` leads to on a side, or ``None``."""
        key = (side, uri)
        if key not in self._paths:
            source, resources = self._loaded[side].source, self._loaded[side].resources
            folder = os.path.dirname(os.path.abspath(source)) if os.path.isfile(source) else None
            try:
                path = str(locate(uri, resources.packages, folder, model_as_package=True,
                                  models=resources.models))
                self._paths[key] = os.path.realpath(path)
            except (PackageNotFoundError, ValueError):
                self._paths[key] = None
        return self._paths[key]


def _normal(uri: str) -> str:
    """Return a URI with ``model://`` read as ``package://`` and ``file://`` dropped."""
    if uri.startswith('model://'):
        return 'package://' + uri[len('model://'):]
    return uri[len('file://'):] if uri.startswith('file:///') else uri


def geometry_value(geometry: Geometry | None) -> dict[str, object] | None:
    """Return a geometry as JSON: ``{'shape': 'box', 'size': [...]}``, ... (m)."""
    if geometry is None:
        return None
    if isinstance(geometry, Box):
        return {'shape': 'box', 'size': list(geometry.size)}
    if isinstance(geometry, (Cylinder, Capsule)):
        return {'shape': type(geometry).__name__.lower(), 'radius': geometry.radius,
                'length': geometry.length}
    if isinstance(geometry, Sphere):
        return {'shape': 'sphere', 'radius': geometry.radius}
    if isinstance(geometry, Mesh):
        return {'shape': 'mesh', 'uri': geometry.filename, 'scale': list(geometry.scale or _ONES)}
    return {'shape': geometry.kind, 'xml': ''.join(map(element_text, geometry.elements))}


def _numbers(value: dict[str, object]) -> list[float]:
    """Return the numbers of a geometry value, in order."""
    out: list[float] = []
    for item in value.values():
        if isinstance(item, list):
            out.extend(item)
        elif isinstance(item, float):
            out.append(item)
    return out


def compare_geometry(ctx: Context, meshes: MeshFiles, where: tuple[str, str],
                     a: Geometry | None, b: Geometry | None, at: Places) -> None:
    """Add the differences of two geometries; ``where`` is ``(name, part)`` of the link."""
    name, part = where
    value_a, value_b = geometry_value(a), geometry_value(b)
    if value_a is None or value_b is None or value_a['shape'] != value_b['shape']:
        if value_a != value_b:
            ctx.add('link', name, 'geometry', value_a, value_b, part=part, at=at)
        return
    if isinstance(a, OtherGeometry):
        assert isinstance(b, OtherGeometry)   # of one shape
        for d in compare_elements(a.elements, b.elements, ctx.tol):
            ctx.add('link', name, 'geometry', d.a, d.b, part=part, field=d.path, at=at)
        return
    if isinstance(a, Mesh):
        assert isinstance(b, Mesh)   # of one shape
        same, why = meshes.same(a.filename, b.filename)
        if not same:
            ctx.add('link', name, 'mesh', a.filename, b.filename, part=part, at=at, detail=why)
        if not all_close(a.scale or _ONES, b.scale or _ONES, ctx.tol):
            ctx.add('link', name, 'geometry', list(a.scale or _ONES), list(b.scale or _ONES),
                    part=part, field='scale', at=at)
        return
    if not all_close(_numbers(value_a), _numbers(value_b), ctx.tol):
        ctx.add('link', name, 'geometry', value_a, value_b, part=part, at=at)


def generated(name: str | None, link: str) -> bool:
    """
    Return whether a part's name is none, or one a converter makes up from its position.

    ``LINK_visual``, ``LINK_collision_3`` and lumped parts' ``LINK_fixed_joint_lump__OTHER_
    visual_1`` (libsdformat's names for unnamed URDF parts).
    """
    return not name or re.fullmatch(re.escape(link) + r'(_fixed_joint_lump__.+)?_'
                                    r'(visual|collision)(_\d+)?', name) is not None


def pair_parts(items_a: Sequence[_Part], items_b: Sequence[_Part],
               same_name: Callable[[str, str], bool], same: Callable[[_Part, _Part], bool],
               generated_names: tuple[_MadeUp | None, _MadeUp | None] = (None, None),
               ) -> list[tuple[int | None, int | None]]:
    """
    Return ``(index_a, index_b)`` pairs of two lists of parts (``None``: no counterpart).

    Parts whose names are both generated (``generated_names``: each side's
    ``f(name) -> bool``) and equal (``same(a, b)``) first, then by name
    (``same_name(a, b)``), then equal unmatched ones, then the rest in order; side A's
    order, then the parts only side B has.
    """
    partner: dict[int, int] = {}
    free_b = list(range(len(items_b)))
    made_up_a, made_up_b = (test or (lambda name: False) for test in generated_names)
    for rule in ('generated', 'name', 'same', 'order'):
        for i, item in enumerate(items_a):
            if i in partner or (rule == 'generated' and not made_up_a(item.name)):
                continue
            for j in free_b:
                other = items_b[j]
                if rule == 'order' or (rule == 'same' and same(item, other)) or (
                        rule == 'generated' and made_up_b(other.name) and same(item, other)) or (
                        rule == 'name' and item.name and other.name
                        and same_name(item.name, other.name)):
                    partner[i] = j
                    free_b.remove(j)
                    break
    pairs: list[tuple[int | None, int | None]] = [(i, partner.get(i))
                                                  for i in range(len(items_a))]
    return pairs + [(None, j) for j in free_b]


def part_label(kind: str, item: _Part, index: int) -> str:
    """Return how a report names a visual or collision: by its name, else its position."""
    return f"{kind} '{item.name}'" if item.name else f'{kind} {index + 1}'


def compare_parts(ctx: Context, meshes: MeshFiles, link_a: Link, link_b: Link,
                  kind: str) -> None:
    """Add the differences of the visuals (``kind='visual'``) or collisions of two links."""
    items_a: Sequence[_Part] = link_a.visuals if kind == 'visual' else link_a.collisions
    items_b: Sequence[_Part] = link_b.visuals if kind == 'visual' else link_b.collisions
    rename = (link_a.name, link_b.name)

    def same_name(x: str, y: str) -> bool:
        return x == y or x.replace(*rename) == y

    def same(x: _Part, y: _Part) -> bool:
        if type(x.geometry) is not type(y.geometry) or \
                not poses_close(x.origin, y.origin, ctx.tol):
            return False
        if geometry_value(x.geometry) == geometry_value(y.geometry):
            return True
        trial = Context(ctx.a, ctx.b, ctx.tol, ctx.matching)  # a mesh URI written otherwise
        compare_geometry(trial, meshes, ('', ''), x.geometry, y.geometry, (None, None))
        return not trial.differences

    made_up: tuple[_MadeUp, _MadeUp] = (lambda n: generated(n, link_a.name),
                                        lambda n: generated(n, link_b.name))
    name = link_a.name
    for i, j in pair_parts(items_a, items_b, same_name, same, made_up):
        x = items_a[i] if i is not None else None
        y = items_b[j] if j is not None else None
        at: Places = (None if x is None else x.location or link_a.location,
                      None if y is None else y.location or link_b.location)
        if i is not None:
            part = part_label(kind, items_a[i], i)
        else:
            assert j is not None   # a pair holds one part at least
            part = part_label(kind, items_b[j], j)
        if x is None or y is None:
            ctx.add('link', name, 'only-in-a' if y is None else 'only-in-b',
                    part=part, at=at, a=x and geometry_value(x.geometry),
                    b=y and geometry_value(y.geometry))
            continue
        if (x.name or y.name) and not (x.name and y.name and same_name(x.name, y.name)) and \
                not (made_up[0](x.name) and made_up[1](y.name)):
            ctx.add('link', name, 'name', x.name, y.name, part=part, at=at)
        ctx.pose('link', name, 'pose', (x.origin, y.origin), at, part=part)
        compare_geometry(ctx, meshes, (name, part), x.geometry, y.geometry, at)
        if isinstance(x, Visual) and isinstance(y, Visual):
            _compare_material(ctx, name, part, x, y, at)
        keys = ((kind, link_a.name, x.name), (kind, link_b.name, y.name))
        ctx.content('link', name, (x.extras, y.extras), at, part=part, keys=keys)


def _compare_material(ctx: Context, name: str, part: str, x: Visual, y: Visual,
                      at: Places) -> None:
    """Add the differences of two URDF materials (colour, texture) when SDFormat has none."""
    if any(extra.tag == 'material' for extra in x.extras + y.extras):
        return
    ma, mb = x.material, y.material
    rgba_a = list(ma.rgba) if ma is not None and ma.rgba is not None else None
    rgba_b = list(mb.rgba) if mb is not None and mb.rgba is not None else None
    if (rgba_a is None) != (rgba_b is None) or (
            rgba_a is not None and rgba_b is not None and not all_close(rgba_a, rgba_b, ctx.tol)):
        ctx.add('link', name, 'material', rgba_a, rgba_b, part=part, field='rgba', at=at)
    texture_a = ma.texture if ma is not None else None
    texture_b = mb.texture if mb is not None else None
    if texture_a != texture_b:
        ctx.add('link', name, 'material', texture_a, texture_b, part=part, field='texture',
                at=at)
