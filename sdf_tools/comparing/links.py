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
Links compared: which are only on one side or renamed, their pose, mass properties and parts.

Mass properties compare as what they mean: the mass (relative to the larger mass), the
centre of mass in the link frame (m), and the inertia tensor about it expressed in the link
frame (kg m^2, relative to the larger tensor), whatever frame each side wrote it in.
"""

from collections.abc import Callable

from sdf_tools import transforms
from sdf_tools.comparing.context import Context
from sdf_tools.comparing.context import Places
from sdf_tools.comparing.matching import Matching
from sdf_tools.comparing.parts import compare_parts
from sdf_tools.comparing.parts import MeshFiles
from sdf_tools.comparing.results import Side
from sdf_tools.comparing.values import pose_error
from sdf_tools.model import Inertial
from sdf_tools.model import Link

_TENSOR = ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')


def compare_links(ctx: Context, meshes: MeshFiles) -> None:
    """Add the differences of every link (side A's order, then the links only B has)."""
    for link_a, link_b in ctx.paired('link', ctx.a.robot.links, ctx.b.robot.links,
                                     ctx.matching.links):
        compare_link(ctx, meshes, link_a, link_b)


def compare_link(ctx: Context, meshes: MeshFiles, link_a: Link, link_b: Link) -> None:
    """Add the differences of two links taken to be the same one."""
    name = link_a.name
    at = (link_a.location, link_b.location)
    ctx.pose('link', name, 'pose', (link_a.pose, link_b.pose), at,
             detail=' (a root link, in the model frame)')
    compare_inertials(ctx, name, link_a.inertial, link_b.inertial, at)
    compare_parts(ctx, meshes, link_a, link_b, 'visual')
    compare_parts(ctx, meshes, link_a, link_b, 'collision')
    ctx.content('link', name, (link_a.extras, link_b.extras), at,
                keys=(('link', link_a.name), ('link', link_b.name)))


def same_content(a: Side, b: Side, tol: float, meshes: MeshFiles,
                 ) -> Callable[[str, str], bool]:
    """Return ``f(link_a, link_b)``: whether two links hold the same (likely renames)."""
    def same(name_a: str, name_b: str) -> bool:
        link_a, link_b = a.robot.index.links[name_a], b.robot.index.links[name_b]
        mass_a, mass_b = (None if link.inertial is None else link.inertial.mass
                          for link in (link_a, link_b))
        if (len(link_a.visuals), len(link_a.collisions), mass_a is None) != \
                (len(link_b.visuals), len(link_b.collisions), mass_b is None) or \
                (mass_a is not None and mass_b is not None and mass_a != mass_b
                 and abs(mass_a - mass_b) > tol * max(abs(mass_a), abs(mass_b))):
            return False  # the cheap tests first: many links may be tried
        ctx = Context(a, b, tol, Matching({name_a: name_b}, {}, frozenset(), frozenset()))
        compare_link(ctx, meshes, link_a, link_b)
        return not ctx.differences
    return same


def inertial_value(inertial: Inertial | None) -> dict | None:
    """Return mass properties as JSON: mass (kg), centre of mass (m), tensor in the link frame."""
    if inertial is None:
        return None
    return {'mass': inertial.mass, 'com': list(inertial.origin.xyz),
            **dict(zip(_TENSOR, _in_link_frame(inertial)))}


def _in_link_frame(inertial: Inertial) -> tuple:
    """Return the inertia tensor about the centre of mass in link axes (6 values, kg m^2)."""
    r = transforms.mat3_from_quat(inertial.origin.quat)
    i = (inertial.ixx, inertial.ixy, inertial.ixz, inertial.ixy, inertial.iyy, inertial.iyz,
         inertial.ixz, inertial.iyz, inertial.izz)
    m = transforms.mat3_multiply(transforms.mat3_multiply(r, i), transforms.mat3_transpose(r))
    return (m[0], m[1], m[2], m[4], m[5], m[8])


def compare_inertials(ctx: Context, name: str, a: Inertial | None, b: Inertial | None,
                      at: Places) -> None:
    """Add the differences of two links' mass properties (module docstring)."""
    if a is None or b is None:
        if a is not b:
            ctx.add('link', name, 'inertial', inertial_value(a), inertial_value(b), at=at)
        return
    tol = ctx.tol
    if abs(a.mass - b.mass) > tol * max(abs(a.mass), abs(b.mass)):
        ctx.add('link', name, 'mass', a.mass, b.mass, at=at)
    distance = pose_error(a.origin, b.origin)[0]
    if distance > tol * max(1.0, transforms.vec_dot(a.origin.xyz, a.origin.xyz) ** 0.5):
        ctx.add('link', name, 'centre-of-mass', list(a.origin.xyz), list(b.origin.xyz), at=at,
                detail=f'moved {distance:.6g} m')
    tensor_a, tensor_b = _in_link_frame(a), _in_link_frame(b)
    scale = max(map(abs, tensor_a + tensor_b))
    if any(abs(x - y) > tol * scale for x, y in zip(tensor_a, tensor_b)):
        ctx.add('link', name, 'inertia', dict(zip(_TENSOR, tensor_a)),
                dict(zip(_TENSOR, tensor_b)), at=at,
                detail='about the centre of mass, in the link frame')
