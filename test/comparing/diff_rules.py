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
The documented libsdformat rules (conversion_rules.RULES) as seen by sdf_tools diff.

A URDF compared with libsdformat 12.3's SDFormat of it is compared lumped, so what remains
are the places where our converter is documented to differ from 12.3. Each predicate here
recognises one rule of :data:`conversion_rules.RULES` in a
:class:`~sdf_tools.comparing.results.Difference`, from the URDF (through
:class:`Context`) and the two compared robots; ``conversion_rules.explain`` sorts a
comparison's differences into counts per rule and the unexplained rest, which the corpus test
requires to be empty.
"""

import math

import conversion_rules
import numpy as np
from sdf_tools import transforms
from sdf_tools.xmlio.parse import local_name


class Context(conversion_rules.Context):
    """What the rules need: the URDF and its conversion, and the comparison."""

    def __init__(self, robot, result, comparison):
        super().__init__(robot, result)
        self.comparison = comparison


# Placeholder mass properties our converter gives links without mass (default options).
_PLACEHOLDER_MASS = 1e-3
_PLACEHOLDER_TENSOR = {'ixx': 1e-6, 'ixy': 0.0, 'ixz': 0.0, 'iyy': 1e-6, 'iyz': 0.0,
                       'izz': 1e-6}


def _leaf(d):
    """Return the last element name of a content difference's path."""
    return d.field.rsplit('/', 1)[-1].split(' ', 1)[0]


def _numbers(text):
    return [float(v) for v in (text or '').split()]


def _r_lumped_frames(d, ctx):
    if d.entity != 'frame' or d.kind != 'only-in-a':
        return False
    original = {new: old for old, new in ctx.result.renamed_frames.items()}.get(d.name, d.name)
    return original in ctx.lumped_joints or original in ctx.lumped_links


def _r_massless_kept(d, ctx):
    # 12.3 drops massless links with everything below them; ours keeps them with a
    # placeholder inertial, which also replaces 12.3's where 12.3 keeps a massless link.
    if d.kind == 'only-in-a' and not d.part:
        if d.entity == 'link':
            return d.name in ctx.dropped
        if d.entity == 'joint':
            original = {new: old for old, new in ctx.result.renamed_joints.items()}.get(
                d.name, d.name)
            return ctx.joints[original].child in ctx.dropped
    if d.entity == 'link' and d.kind == 'mass':
        return d.a == _PLACEHOLDER_MASS
    return d.entity == 'link' and d.kind == 'inertia' and d.a == _PLACEHOLDER_TENSOR and \
        ctx.comparison.a.robot.link(d.name).inertial.mass == _PLACEHOLDER_MASS


def _physical(tensor: dict, mass: float, gyration: float = 0.0) -> bool:
    m = np.array([[tensor['ixx'], tensor['ixy'], tensor['ixz']],
                  [tensor['ixy'], tensor['iyy'], tensor['iyz']],
                  [tensor['ixz'], tensor['iyz'], tensor['izz']]])
    moments = np.linalg.eigvalsh(m)
    slack = 1e-9 * abs(moments).max()
    return bool(moments[0] >= mass * gyration ** 2 - slack and
                moments[0] + moments[1] >= moments[2] - slack)


def _r_invalid_inertia(d, ctx):
    # 12.3's tensor is no rigid body's; ours is the nearest one with a radius of gyration of
    # at least 1 mm, for the same mass.
    if d.entity != 'link' or d.kind != 'inertia':
        return False
    mass = ctx.comparison.a.robot.link(d.name).inertial.mass
    if ctx.comparison.b.robot.link(ctx.comparison.link_names[d.name]).inertial.mass != mass:
        return False
    return not _physical(d.b, mass, 1e-3) and _physical(d.a, mass, 1e-3 * (1 - 1e-9))


def _r_getrpy_snap(d, ctx):
    # A visual or collision whose pitch 12.3 snapped to +-pi/2: same position, turned by at
    # most 4.5e-3 rad.
    if d.entity != 'link' or d.kind != 'pose' or not d.part:
        return False
    pitch = d.b['rpy'][1]
    turned = transforms.quat_from_rpy(*d.a['rpy']), transforms.quat_from_rpy(*d.b['rpy'])
    x, y, z, w = transforms.quat_multiply(transforms.quat_conjugate(turned[0]), turned[1])
    angle = 2 * math.atan2(math.sqrt(x * x + y * y + z * z), abs(w))
    return abs(abs(pitch) - math.pi / 2) < 1e-9 and angle <= 5e-3 and \
        np.allclose(d.a['xyz'], d.b['xyz'], atol=1e-12)


def _pose_matrix(text):
    v = _numbers(text)
    m = np.eye(4)
    m[:3, :3] = np.array(transforms.mat3_from_quat(transforms.quat_from_rpy(*v[3:]))).reshape(3, 3)
    m[:3, 3] = v[:3]
    return m


def _r_six_digits(d, ctx):
    # 12.3 prints lumped sensor, projector and light poses, plugin offsets and mesh scales
    # with 6 significant digits.
    if d.kind != 'content' or d.a is None or d.b is None:
        return False
    leaf = _leaf(d)
    parent = d.field.rsplit('/', 2)[-2].split(' ', 1)[0] if '/' in d.field else ''
    if leaf == 'pose' and parent in ('sensor', 'projector', 'light'):
        a, b = _pose_matrix(d.a), _pose_matrix(d.b)
        return np.allclose(a[:3, 3], b[:3, 3], rtol=1e-5, atol=1e-5) and \
            np.allclose(a[:3, :3], b[:3, :3], atol=1e-5)
    return leaf in ('xyzOffset', 'rpyOffset', 'scale') and \
        np.allclose(_numbers(d.a), _numbers(d.b), rtol=1e-5, atol=1e-5)


def _r_corrected_offsets(d, ctx):
    # 12.3 writes <ignition::corrected_offsets>, 12.7+ (and we) <gz::corrected_offsets>.
    leaf = _leaf(d)
    return d.kind == 'content' and (
        (leaf == 'gz::corrected_offsets' and d.b is None) or
        (leaf == 'ignition::corrected_offsets' and d.a is None))


def _in_extras(extras, path):
    """Return ``(parent, element)`` at ``path`` (``tag 'name'/tag/...``) in kept elements."""
    elements = list(extras)
    found = parent = None
    for step in path.split('/'):
        tag, _, name = step.partition(' ')
        name = name.strip("'") or None
        parent, found = found, next((e for e in elements
                                     if local_name(e) == tag and e.get('name') == name), None)
        if found is None:
            return None, None
        elements = list(found)
    return parent, found


def _r_schema_defaults(d, ctx):
    # 12.3's schema pass adds required children with their defaults inside blobs.
    if d.kind != 'content' or d.a is not None or d.entity != 'link' or d.part:
        return False
    link = ctx.comparison.b.robot.link(ctx.comparison.link_names[d.name])
    top, element = _in_extras(link.extras, d.field)
    if element is None:
        return False
    leaves = [(parent, e) for parent in element.iter() for e in parent if len(e) == 0]
    if len(element) == 0:
        leaves.append((top, element))
    return all(parent is not None and (local_name(parent), local_name(e)) in
               conversion_rules._SCHEMA_DEFAULTS and (e.text or '').strip() ==
               conversion_rules._SCHEMA_DEFAULTS[(local_name(parent), local_name(e))]
               for parent, e in leaves)


def _r_extension_target(d, ctx):
    # 12.3 matches link extensions to visuals and collisions by generated names: named
    # ones miss them, lumped ones named like the parent link catch the parent's.
    if d.kind != 'content' or not d.part or d.field.split('/', 1)[0] not in (
            'surface', 'material', 'laser_retro', 'max_contacts'):
        return False
    kind, _, name = d.part.partition(' ')
    source, named = conversion_rules._source_of(name.strip("'"), d.name, ctx, f'_{kind}')
    return named or (source is not None and source != d.name and
                     conversion_rules.LUMP not in name)


def _r_plugin_offsets(d, ctx):
    # A plugin offset on a lumped link is composed once with the link's pose (12.3 twice).
    if d.kind != 'content' or _leaf(d) not in ('xyzOffset', 'rpyOffset'):
        return False
    top = d.field.split('/', 1)[0]
    if not top.startswith('plugin '):
        return False
    original = conversion_rules._original_plugin(ctx, top.split(' ', 1)[1].strip("'"))
    if original is None:
        return False
    body = (original.findtext('bodyName') or original.findtext('frameName') or '').strip()
    return body in ctx.lumped_links


PREDICATES = {
    'lumped-frames': _r_lumped_frames,
    'massless-kept': _r_massless_kept,
    'invalid-inertia': _r_invalid_inertia,
    'getrpy-snap': _r_getrpy_snap,
    'six-digits': _r_six_digits,
    'corrected-offsets': _r_corrected_offsets,
    'schema-defaults': _r_schema_defaults,
    'extension-target': _r_extension_target,
    'plugin-offsets': _r_plugin_offsets,
}
assert set(PREDICATES) <= set(conversion_rules.RULES)
