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
Named rules that explain how our SDFormat differs from libsdformat 12.3's.

Each rule is a predicate over one :class:`xml_compare.Difference`, written from the URDF
(independently of the converter's code) and documented with its reason: what 12.3 does,
what the documented or fixed behaviour is. :func:`explain` sorts a list of differences into
counts per rule and the unexplained rest, which tests require to be empty.
"""

import copy
import math
import re

import numpy as np

from sdf_tools import batch_transforms
from sdf_tools import transforms
from sdf_tools.model import JointType
from sdf_tools.xmlio.parse import local_name
import xml_compare

LUMP = '_fixed_joint_lump__'

RULES = {
    'lumped-frames':
        'libsdformat 12.3 writes no <frame> for lumped joints and links; 12.7+ and the '
        'seed document do, and so do we',
    'float32-colour':
        'urdfdom keeps colours as 32-bit floats, so 12.3 prints 0.2500000037 for 0.25; '
        'we keep the exact value',
    'six-digits':
        'libsdformat prints lumped sensor/projector/light poses, plugin offsets and mesh '
        'scales with 6 significant digits; we keep full precision',
    'getrpy-snap':
        "urdfdom's getRPY snaps pitch to +-pi/2 once |sin(pitch)| >= 0.99999, moving "
        'visual/collision/sensor poses by up to 4.5e-3 rad (12.3 also lumps inertials '
        'through the snapped rotation, shifting their centre of mass and inertia); we write '
        'the exact rotation',
    'static-false':
        'libsdformat 12.3 writes <static>false</static> for every model-level <gazebo> '
        'block without <static>, even over an earlier true (fixed in 12.7)',
    'massless-kept':
        'libsdformat drops links without mass with everything below them (12.3 also '
        'drops masses <= 1e-6 and cuts below massless lumped links); we keep them with a '
        'placeholder inertial and a warning',
    'floating-planar':
        'SDFormat has no floating/planar joint: libsdformat leaves the child posed '
        'relative_to the missing joint (unloadable); we pose it at the joint origin',
    'name-clash':
        'a joint named like a link (or like an element a <gazebo> block declares) is '
        'renamed <name>_joint: libsdformat keeps the clash, which Gazebo cannot load',
    'extension-target':
        'libsdformat matches link extensions to visuals/collisions by their generated '
        'names, so named ones miss their extensions and lumped ones whose name starts '
        "with the parent link name catch the parent's; we follow where each came from",
    'contact-collision':
        "contact sensors of lumped links are pointed at the lumped collision's new name "
        "(libsdformat's rename looks at the wrong XML level and does nothing)",
    'lumped-references':
        'references to lumped links in <joint>, <gripper> and projector blobs follow the '
        'lumping (12.3 renames none of them; 12.6+ renames joint parent/child); a renamed '
        'joint child keeps its frame through relative_to; every <bodyName>/<frameName> of a '
        'plugin follows (libsdformat renames only the first, and Gazebo reads the other)',
    'plugin-offsets':
        'xyzOffset/rpyOffset of a plugin on a lumped link are composed once with the '
        "link's pose (libsdformat composes twice when bodyName and frameName both "
        'match, and starts from the joint pose when no offset is given)',
    'corrected-offsets':
        '12.3 writes <ignition::corrected_offsets>; 12.7+ write <gz::corrected_offsets>',
    'light-pose':
        "12.3 does not re-express the pose of a lumped link's <light> (12.6+ do)",
    'invalid-inertia':
        'inertias no rigid body can have (libsdformat reports them and Gazebo refuses '
        'the model) are written as the nearest valid one, with a warning',
    'surface-blob':
        'a <collision> blob whose <surface> has no <contact> or <friction>, after an '
        'earlier extension on the link: libsdformat keeps pointers into the replaced '
        'surface and loses or misplaces the values (crash or nesting); we write them '
        'into the surface that is kept',
    'degenerate-collision':
        'a collision whose shape has no volume (a box side, radius or cylinder length not '
        "above 0, a mesh scale factor of 0) is left out with a warning: DART, Gazebo's "
        'engine, aborts on it; libsdformat writes it',
    'sensor-names':
        'a second sensor or light of one name in a link (declared twice, or gathered there '
        'by lumping) is renamed <name>_2 with a warning: libsdformat writes both and then '
        'refuses the file, as Gazebo does',
    'schema-defaults':
        "libsdformat's schema pass adds required children with their default values "
        'inside blobs (camera image 320x240, light direction, contact topic, ...)',
    'nameless-material':
        'a visual <material> without a name attribute: urdfdom refuses that visual and '
        "stops there, losing it, the link's later visuals and all its collisions (lumped "
        "links' too, which renumbers the names of the rest); we keep them, with a warning",
    'dangling-mimic':
        'a <mimic> naming a joint that does not exist, or a fixed joint that lumping '
        'removes, is left out of SDFormat 1.11 with a warning (the joint then moves on its '
        'own): libsdformat 14 writes it and then refuses its own file; 12.3 (SDFormat 1.9) '
        'writes no <mimic> at all',
}

# SDFormat 1.9 defaults libsdformat's schema pass writes into blobs of the test inputs.
_SCHEMA_DEFAULTS = {
    ('camera', 'horizontal_fov'): '1.047', ('image', 'width'): '320',
    ('image', 'height'): '240', ('clip', 'near'): '.1', ('clip', 'far'): '100',
    ('light', 'direction'): '0 0 -1', ('contact', 'topic'): '__default_topic__',
    ('depth_camera', 'output'): 'depths',
}


class Context:
    """What the rules need to know about one conversion (``urdf``: the source text)."""

    def __init__(self, robot, result, urdf=None):
        self.robot = robot
        self.result = result
        self.nameless = _nameless_visuals(urdf) if urdf is not None else {}
        self.links = {link.name: link for link in robot.links}
        self.joints = {joint.name: joint for joint in robot.joints}
        self.parent_joint = {joint.child: joint for joint in robot.joints}
        preserve = set()
        for block in robot.gazebo:
            for e in block.elements:
                if e.tag in ('preserveFixedJoint', 'disableFixedJointLumping') and \
                        (e.get('value') or e.text or '').strip().lower() in ('true', 'yes', '1'):
                    preserve.add(block.reference)
        self.lumped_joints = {j.name for j in robot.joints
                              if j.kind is JointType.FIXED and j.name not in preserve
                              and j.parent != 'world'}
        self.lumped_links = {self.joints[j].child for j in self.lumped_joints}
        self.blob_names = set()
        for block in robot.gazebo:
            if not block.reference:
                self.blob_names.update(e.get('name') for e in block.elements
                                       if isinstance(e.tag, str) and e.get('name'))
        self.dropped = self._dropped_by_12_3()

    def kept_ancestor(self, link):
        """Return the link a lumped link ends up in, and the pose X_kept_link."""
        pose = np.eye(4)
        while link in self.lumped_links:
            joint = self.parent_joint[link]
            pose = joint.origin.matrix() @ pose
            link = joint.parent
        return link, pose

    def _dropped_by_12_3(self):
        """
        Return the links libsdformat 12.3 leaves out for lack of mass.

        12.3 stops at a link (other than world) whose mass, after absorbing its lumped
        children, is missing or within 1e-6 of zero: that link and everything below it are
        not written, whether the link itself is lumped or not.
        """
        children = {}
        for joint in self.robot.joints:
            children.setdefault(joint.parent, []).append(joint)

        mass = {}

        def subtree_mass(link):  # None when no inertial anywhere in the lumped subtree
            stack, order = [link], []
            while stack:
                name = stack.pop()
                order.append(name)
                stack.extend(j.child for j in children.get(name, ())
                             if j.name in self.lumped_joints)
            for name in reversed(order):
                inertial = self.links[name].inertial
                total = inertial.mass if inertial is not None else None
                for j in children.get(name, ()):
                    if j.name in self.lumped_joints and mass[j.child] is not None:
                        total = (total or 0.0) + mass[j.child]
                mass[name] = total
            return mass[link]

        dropped = set()
        roots = [name for name in self.links if name not in self.parent_joint]
        stack = list(roots)
        while stack:
            name = stack.pop()
            m = subtree_mass(name)
            if name != 'world' and (m is None or abs(m) <= 1e-6):
                below = [name]
                while below:
                    n = below.pop()
                    dropped.add(n)
                    below.extend(j.child for j in children.get(n, ()))
                continue
            stack.extend(j.child for j in children.get(name, ()))
        return dropped


def _nameless_visuals(urdf):
    """
    Return link name -> index of its first visual whose first <material> has no name attribute.

    From the URDF text itself: the model cannot tell an absent name from ``name=""``.
    """
    root = xml_compare.parse(urdf)
    found = {}
    for link in root.iterchildren('link'):
        for index, visual in enumerate(link.iterchildren('visual')):
            material = visual.find('material')
            if material is not None and material.get('name') is None:
                found[link.get('name')] = index
                break
    return found


def _tag(element):
    return local_name(element) if element is not None else None


def _ancestors(element):
    out = []
    while element is not None:
        out.append(element)
        element = element.getparent()
    return out


def _element_of(diff):
    if diff.kind == 'missing':
        return diff.expected_element
    if diff.kind == 'extra':
        return diff.actual_element
    return diff.actual_element


def _owner(diff, tag):
    """Return the nearest ancestor with this tag of the differing element (either side)."""
    for side in (diff.actual_element, diff.expected_element):
        for element in _ancestors(side):
            if _tag(element) == tag:
                return element
    return None


def _nums(text):
    return [float(v) for v in (text or '').split()]


def _pose_matrix(text):
    v = _nums(text) or [0.0] * 6
    pose = np.eye(4)
    pose[:3, :3] = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*v[3:]))
    pose[:3, 3] = v[:3]
    return pose


def _r_lumped_frames(diff, ctx):
    # The frame of a lumped joint is attached to its parent link at the joint origin; the
    # frame of a lumped link is attached to its joint's frame (seed document, 12.7+).
    element = _element_of(diff)
    if diff.kind != 'extra' or _tag(element) != 'frame':
        return False
    renamed = {v: k for k, v in ctx.result.renamed_frames.items()}
    name = renamed.get(element.get('name'), element.get('name'))
    attached = renamed.get(element.get('attached_to'), element.get('attached_to'))
    pose = element.find('pose')
    joint = ctx.joints.get(name) if name in ctx.lumped_joints else None
    if joint is not None and attached == joint.parent and pose is not None and \
            np.allclose(_pose_matrix(pose.text), joint.origin.matrix(), atol=1e-9):
        return True
    return name in ctx.lumped_links and attached == ctx.parent_joint[name].name and (
        pose is None or np.allclose(_pose_matrix(pose.text), np.eye(4), atol=1e-12))


def _r_float32_colour(diff, ctx):
    if diff.kind != 'text' or _tag(diff.actual_element) not in ('diffuse', 'ambient'):
        return False
    a, b = _nums(diff.expected), _nums(diff.actual)
    return len(a) == len(b) and all(abs(x - y) <= 2e-7 * max(1.0, abs(y)) for x, y in zip(a, b))


def _r_six_digits(diff, ctx):
    if diff.kind != 'text':
        return False
    tag = _tag(diff.actual_element)
    parent = _tag(diff.actual_element.getparent())
    if not (tag in ('xyzOffset', 'rpyOffset', 'scale')
            or (tag == 'pose' and parent in ('sensor', 'projector', 'light'))):
        return False
    return xml_compare.values_equal(tag, diff.expected, diff.actual, rtol=1e-5, atol=1e-5)


def _r_getrpy_snap(diff, ctx):
    if diff.kind != 'text' or _tag(diff.actual_element) != 'pose':
        return False
    e, a = _nums(diff.expected), _nums(diff.actual)
    if len(e) != 6 or len(a) != 6 or abs(abs(e[4]) - math.pi / 2) > 1e-12:
        return False
    if not all(abs(x - y) <= 1e-5 * max(1.0, abs(x)) for x, y in zip(e[:3], a[:3])):
        return False
    ra = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*a[3:]))
    re_ = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*e[3:]))
    angle = math.acos(max(-1.0, min(1.0, (np.trace(ra.T @ re_) - 1.0) / 2.0)))
    return abs(ra[2, 0]) >= 0.99999 - 1e-9 and angle <= 5e-3


def _r_static_false(diff, ctx):
    # 12.3's false where we write nothing, or where a model block said true.
    element = diff.expected_element
    if _tag(element) != 'static' or (element.text or '').strip() != 'false':
        return False
    model_blocks = [b for b in ctx.robot.gazebo if not b.reference]
    has_blockless_static = any(not any(e.tag == 'static' for e in b.elements)
                               for b in model_blocks)
    if diff.kind == 'text':
        said_true = any((e.text or '').strip().lower() in ('true', '1', 'yes')
                        for b in model_blocks for e in b.elements if e.tag == 'static')
        return has_blockless_static and said_true and diff.actual in ('true', '1')
    return diff.kind == 'missing' and has_blockless_static


def _r_massless_kept(diff, ctx):
    element = _element_of(diff)
    tag = _tag(element)
    if diff.kind == 'extra' and tag == 'link' and _tag(element.getparent()) == 'model':
        link = ctx.links.get(element.get('name'))
        if link is None or element.get('name') not in ctx.dropped:
            return False
        if link.inertial is not None and link.inertial.mass > 0.0:
            return True  # below a massless link: its own inertial is compared nowhere else
        inertial = element.find('inertial')  # ours: the placeholder
        return inertial is not None and _nums(inertial.findtext('mass')) == [1e-3] and all(
            _nums(inertial.findtext(f'inertia/{k}')) == [v] for k, v in
            (('ixx', 1e-6), ('iyy', 1e-6), ('izz', 1e-6), ('ixy', 0.0), ('ixz', 0.0),
             ('iyz', 0.0)))
    if diff.kind == 'extra' and tag == 'joint' and _tag(element.getparent()) == 'model':
        return (element.findtext('child') or '').strip() in ctx.dropped
    # A link 12.3 keeps although its mass is not positive gets our placeholder inertial:
    # 1 g and 1e-6 kg m^2 about the same axes (the converter's default options).
    inertial = _owner(diff, 'inertial')
    if inertial is None or diff.kind != 'text':
        return False
    name = inertial.getparent().get('name')
    link = ctx.links.get(name)
    if link is None or link.inertial is None or link.inertial.mass > 0.0:
        return False
    placeholder = {'mass': 1e-3, 'ixx': 1e-6, 'iyy': 1e-6, 'izz': 1e-6, 'ixy': 0.0,
                   'ixz': 0.0, 'iyz': 0.0}
    expected = placeholder.get(_tag(diff.actual_element))
    return expected is not None and _nums(diff.actual) == [expected]


def _r_floating_planar(diff, ctx):
    # The link's own <pose>: 12.3 makes it relative_to the joint it does not write; ours is
    # the joint origin relative to the parent link (the model frame for world).
    pose = diff.actual_element
    if diff.kind not in ('attribute', 'text') or _tag(pose) != 'pose' or \
            _tag(pose.getparent()) != 'link':
        return False
    joint = ctx.parent_joint.get(pose.getparent().get('name'))
    if joint is None or joint.kind not in (JointType.FLOATING, JointType.PLANAR):
        return False
    if diff.kind == 'attribute':
        return diff.expected == joint.name and \
            diff.actual == (None if joint.parent == 'world' else joint.parent)
    return np.allclose(_pose_matrix(diff.actual), joint.origin.matrix(), atol=1e-9)


def _r_name_clash(diff, ctx):
    renamed = ctx.result.renamed_joints
    clashing = {old for old in renamed if old in ctx.joints
                and (old in ctx.links or old in ctx.blob_names)}
    element = _element_of(diff)
    if diff.kind == 'missing' and _tag(element) == 'joint':
        old = element.get('name')
        return old in clashing and any(j.get('name') == renamed[old]
                                       for j in diff.actual_element.iterchildren('joint'))
    if diff.kind == 'extra' and _tag(element) == 'joint':
        # The renamed joint has the content of 12.3's joint of the old name.
        new_to_old = {renamed[old]: old for old in clashing}
        old = new_to_old.get(element.get('name'))
        golden = next((j for j in diff.expected_element.iterchildren('joint')
                       if j.get('name') == old), None)
        if golden is None:
            return False
        ours = copy.deepcopy(element)
        ours.set('name', old)
        # 12.3 applied the link's <gazebo reference> block to the joint too, which gives it a
        # <physics> of schema defaults; the renamed joint has no block.
        return all(_default_physics(d) for d in explain(xml_compare.compare(golden, ours),
                                                        ctx)[1])
    if diff.kind == 'attribute' and diff.path.endswith('@relative_to'):
        return diff.expected in clashing and diff.actual == renamed[diff.expected]
    if diff.kind == 'text' and _tag(diff.actual_element) == 'mimic':
        return False
    return False


def _default_physics(diff):
    element = diff.expected_element
    leaves = {_tag(e.getparent()) + '/' + _tag(e): _nums(e.text)
              for e in element.iter() if len(e) == 0} if _tag(element) == 'physics' else {}
    return diff.kind == 'missing' and leaves == {'limit/cfm': [0.0], 'limit/erp': [0.2]}


def _source_of(sdf_name, link, ctx, suffix):
    """Return (source link or None, named) of a visual/collision from its SDF name."""
    body = re.sub(rf'{suffix}(_\d+)?$', '', sdf_name)
    if LUMP in body:
        base = body.split(LUMP, 1)[1]
    else:
        base = body
    if base == link:
        return link, False
    if base in ctx.lumped_links and ctx.kept_ancestor(base)[0] == link:
        return base, False
    return None, True


# What link extensions write into a <collision> / <visual> besides blob content.
_EXTENSION_OUTPUT = {
    'collision': {'mu1': 'surface', 'mu2': 'surface', 'kp': 'surface', 'kd': 'surface',
                  'fdir1': 'surface', 'minDepth': 'surface', 'maxVel': 'surface',
                  'maxContacts': 'max_contacts', 'laserRetro': 'laser_retro'},
    'visual': {'material': 'material'},
}


def _extension_output(ctx, links, kind):
    """Return the child tags of a ``kind`` element that extensions of ``links`` write."""
    tags = set()
    for block in ctx.robot.gazebo:
        if block.reference not in links:
            continue
        if kind == 'collision':  # every link extension gives collisions a <surface>
            tags.add('surface')
        for e in block.elements:
            if e.tag == kind:
                tags.update(local_name(c) for c in e if isinstance(c.tag, str))
            elif e.tag in _EXTENSION_OUTPUT[kind]:
                tags.add(_EXTENSION_OUTPUT[kind][e.tag])
    return tags


def _r_extension_target(diff, ctx):
    # Only content that the extensions of the element's link (or, for 12.3's name match,
    # of the kept link) write can differ; never the pose or geometry.
    for tag, suffix in (('collision', '_collision'), ('visual', '_visual')):
        chain = _ancestors(_element_of(diff))
        element = next((e for e in chain if _tag(e) == tag), None)
        if element is None or element is chain[0]:
            continue
        top = chain[chain.index(element) - 1]
        link = element.getparent().get('name')
        source, named = _source_of(element.get('name'), link, ctx, suffix)
        lumped_by_name = source is not None and source != link and \
            LUMP not in element.get('name')
        if not (named or lumped_by_name):
            continue
        written = _extension_output(ctx, {link, source} | set(ctx.lumped_links), tag)
        if _tag(top) not in written:
            continue
        # The URDF colour is no extension: a colour differs only if a blob wrote one.
        colour = [_tag(e) for e in _ancestors(_element_of(diff))
                  if _tag(e) in ('diffuse', 'ambient')]
        return not colour or bool(set(colour) & _material_blob_tags(ctx, {link, source}))
    return False


def _material_blob_tags(ctx, links):
    """Return the child tags of ``<visual><material>`` blobs in the extensions of ``links``."""
    return {local_name(c) for block in ctx.robot.gazebo if block.reference in links
            for e in block.elements if e.tag == 'visual'
            for m in e if m.tag == 'material' for c in m if isinstance(c.tag, str)}


def _r_contact_collision(diff, ctx):
    if diff.kind != 'text' or _tag(diff.actual_element) != 'collision' or \
            _tag(diff.actual_element.getparent()) != 'contact':
        return False
    link = _owner(diff, 'link')
    names = {c.get('name') for c in link.iterchildren('collision')}
    return diff.actual in names and diff.expected not in names


def _r_lumped_references(diff, ctx):
    tag = _tag(diff.actual_element)
    if diff.kind == 'text' and tag in ('parent', 'child', 'gripper_link', 'palm_link',
                                       'projector', 'bodyName', 'frameName'):
        old = diff.expected.partition('/')[0] if tag == 'projector' else diff.expected
        new = diff.actual.partition('/')[0] if tag == 'projector' else diff.actual
        return old in ctx.lumped_links and ctx.kept_ancestor(old)[0] == new
    if diff.kind == 'attribute' and diff.path.endswith('pose/@relative_to') and \
            _tag(_owner(diff, 'joint')) == 'joint':
        return diff.expected is None and diff.actual in ctx.lumped_links
    if diff.kind == 'extra' and _tag(_element_of(diff)) == 'pose':
        pose = _element_of(diff)
        return pose.get('relative_to') in ctx.lumped_links and \
            _tag(pose.getparent()) == 'joint'
    return False


def _original_plugin(ctx, name):
    for block in ctx.robot.gazebo:
        for e in block.elements:
            if e.tag == 'plugin' and e.get('name') == name:
                return e
    return None


def _r_plugin_offsets(diff, ctx):
    tag = _tag(diff.actual_element)
    if diff.kind != 'text' or tag not in ('xyzOffset', 'rpyOffset'):
        return False
    plugin = diff.actual_element.getparent()
    original = _original_plugin(ctx, plugin.get('name'))
    if original is None:
        return False
    body = (original.findtext('bodyName') or original.findtext('frameName') or '').strip()
    if body not in ctx.lumped_links:
        return False
    _, x_kl = ctx.kept_ancestor(body)
    xyz = _nums(original.findtext('xyzOffset')) or [0.0, 0.0, 0.0]
    rpy = _nums(original.findtext('rpyOffset')) or [0.0, 0.0, 0.0]
    offset = np.eye(4)
    offset[:3, :3] = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*rpy))
    offset[:3, 3] = xyz
    expected = x_kl @ offset
    if tag == 'xyzOffset':
        return np.allclose(_nums(diff.actual), expected[:3, 3], atol=1e-9)
    ours = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*_nums(diff.actual)))
    return np.allclose(ours, expected[:3, :3], atol=1e-9)


def _r_corrected_offsets(diff, ctx):
    element = _element_of(diff)
    tag = _tag(element)
    return (diff.kind == 'missing' and tag == 'ignition::corrected_offsets') or \
        (diff.kind == 'extra' and tag == 'gz::corrected_offsets')


def _r_light_pose(diff, ctx):
    if diff.kind != 'text' or _tag(diff.actual_element) != 'pose' or \
            _tag(diff.actual_element.getparent()) != 'light':
        return False
    light = diff.actual_element.getparent()
    for block in ctx.robot.gazebo:
        for e in block.elements:
            if e.tag == 'light' and e.get('name') == light.get('name') and \
                    block.reference in ctx.lumped_links:
                _, x_kl = ctx.kept_ancestor(block.reference)
                v = _nums(diff.expected)
                pose = np.eye(4)
                pose[:3, :3] = batch_transforms.matrix_from_quat(transforms.quat_from_rpy(*v[3:]))
                pose[:3, 3] = v[:3]
                expected = x_kl @ pose
                return np.allclose(_nums(diff.actual)[:3], expected[:3, 3], atol=1e-5)
    return False


def _tensor(inertia_element):
    values = {_tag(c): float(c.text) for c in inertia_element}
    return np.array([[values['ixx'], values['ixy'], values['ixz']],
                     [values['ixy'], values['iyy'], values['iyz']],
                     [values['ixz'], values['iyz'], values['izz']]])


def _is_physical(tensor, mass, gyration=0.0):
    moments = np.linalg.eigvalsh(tensor)
    slack = 1e-9 * abs(moments).max()
    return moments[0] >= mass * gyration ** 2 - slack and \
        moments[0] + moments[1] >= moments[2] - slack


def _r_invalid_inertia(diff, ctx):
    # 12.3's tensor is no rigid body's (or a point mass); ours is one, with the same mass
    # and principal axes and a radius of gyration of at least 1 mm.
    if diff.kind != 'text' or _tag(diff.actual_element.getparent()) != 'inertia':
        return False
    ours_elem, golden_elem = diff.actual_element.getparent(), diff.expected_element.getparent()
    mass = float(ours_elem.getparent().findtext('mass'))
    if float(golden_elem.getparent().findtext('mass')) != mass:
        return False
    ours, golden = _tensor(ours_elem), _tensor(golden_elem)
    if _is_physical(golden, mass, 1e-3) or not _is_physical(ours, mass, 1e-3 * (1 - 1e-9)):
        return False
    scale = np.linalg.norm(ours) * np.linalg.norm(golden)
    return bool(np.linalg.norm(ours @ golden - golden @ ours) <= 1e-9 * scale)


def _r_surface_blob(diff, ctx):
    surface = _owner(diff, 'surface')
    link = _owner(diff, 'link')
    if surface is None or link is None or _tag(surface.getparent()) != 'collision':
        return False
    blocks = [b for b in ctx.robot.gazebo if b.reference == link.get('name')]
    for i, block in enumerate(blocks):
        for e in block.elements:
            if e.tag == 'collision' and any(
                    c.tag == 'surface' and (c.find('contact') is None or
                                            c.find('friction') is None) for c in e):
                if i > 0:
                    return True
    return False


def _has_no_volume(shape):
    values = {_tag(c): _nums(c.text) for c in shape}
    tag = _tag(shape)
    if tag == 'box':
        return min(values.get('size') or [1.0]) <= 0.0
    if tag in ('cylinder', 'sphere', 'capsule') and (values.get('radius') or [1.0])[0] <= 0.0:
        return True
    if tag == 'cylinder':
        return (values.get('length') or [1.0])[0] <= 0.0
    if tag == 'capsule':
        return (values.get('length') or [1.0])[0] < 0.0
    return tag == 'mesh' and 0.0 in (values.get('scale') or [])


def _r_degenerate_collision(diff, ctx):
    element = diff.expected_element
    if diff.kind != 'missing' or _tag(element) != 'collision':
        return False
    shapes = list(element.iterfind('geometry/*'))
    return len(shapes) == 1 and _has_no_volume(shapes[0])


def _r_sensor_names(diff, ctx):
    # The golden link has two sensors (or lights) of one name; ours renamed the later ones
    # <name>_2, _3... and left their content alone.
    element = _element_of(diff)
    tag = _tag(element)
    if diff.kind not in ('missing', 'extra') or tag not in ('sensor', 'light'):
        return False
    golden_link = diff.expected_element.getparent() if diff.kind == 'missing' \
        else diff.expected_element
    ours_link = diff.actual_element if diff.kind == 'missing' \
        else diff.actual_element.getparent()
    golden = list(golden_link.iterchildren(element.tag))
    names = [e.get('name') for e in golden]
    if diff.kind == 'missing':
        name = element.get('name')
        return names.count(name) > 1 and any(
            re.fullmatch(rf'{re.escape(name)}_\d+', e.get('name') or '')
            for e in ours_link.iterchildren(element.tag))
    base = re.sub(r'_\d+$', '', element.get('name') or '')
    if names.count(base) < 2:
        return False
    ours = copy.deepcopy(element)
    ours.set('name', base)
    return any(not xml_compare.compare(e, ours) for e in golden if e.get('name') == base)


def _r_dangling_mimic(diff, ctx):
    # The golden (libsdformat 14, SDFormat 1.11) has <joint><axis><mimic joint="J">; ours has
    # none, because J is not a joint of the URDF or is a fixed joint lumping removes.
    element = _element_of(diff)
    if diff.kind != 'missing' or _tag(element) != 'mimic':
        return False
    joint = ctx.joints.get(element.getparent().getparent().get('name'))
    target = element.get('joint')
    return joint is not None and joint.mimic is not None and joint.mimic.joint == target and (
        target not in ctx.joints or target in ctx.lumped_joints)


def _r_schema_defaults(diff, ctx):
    element = _element_of(diff)
    if diff.kind != 'missing':
        return False
    parent = _tag(element.getparent())
    tag = _tag(element)
    if (parent, tag) in _SCHEMA_DEFAULTS:
        return (element.text or '').strip() == _SCHEMA_DEFAULTS[(parent, tag)]
    if tag in ('image', 'clip'):
        return all((c.text or '').strip() == _SCHEMA_DEFAULTS.get((tag, _tag(c)))
                   for c in element)
    return False


def _dropped_by_nameless(ctx, kept_link):
    """Return (tag, pose X_kept_item, geometry) of what 12.3 drops in ``kept_link``."""
    dropped = []
    for name, index in ctx.nameless.items():
        kept, x_kl = ctx.kept_ancestor(name)
        if kept != kept_link:
            continue
        link = ctx.links[name]
        items = [('visual', v) for v in link.visuals[index:]]
        items += [('collision', c) for c in link.collisions]
        dropped += [(tag, x_kl @ item.origin.matrix(), item.geometry) for tag, item in items]
    return dropped


def _same_geometry(element, geometry):
    shapes = list(element.iterfind('geometry/*'))
    kind = getattr(geometry, 'kind', type(geometry).__name__.lower())
    if len(shapes) != 1 or _tag(shapes[0]) != kind:
        return False
    shape = shapes[0]
    for key in ('size', 'radius', 'length'):
        ours = getattr(geometry, key, None)
        if ours is not None and not np.allclose(_nums(shape.findtext(key)), ours, atol=1e-12):
            return False
    return True


def _renumbered(element, others):
    # The same content under a name that differs only in its _N suffix.
    base = re.sub(r'_\d+$', '', element.get('name') or '')
    for other in others:
        if other is element or re.sub(r'_\d+$', '', other.get('name') or '') != base:
            continue
        copied = copy.deepcopy(other)
        copied.set('name', element.get('name'))
        if not xml_compare.compare(element, copied):
            return True
    return False


def _r_nameless_material(diff, ctx):
    element = _element_of(diff)
    tag = _tag(element)
    if diff.kind not in ('missing', 'extra') or tag not in ('visual', 'collision') or \
            not ctx.nameless:
        return False
    dropped = _dropped_by_nameless(ctx, element.getparent().get('name'))
    if not dropped:
        return False
    other_side = diff.actual_element if diff.kind == 'missing' else diff.expected_element
    if _renumbered(element, list(other_side.iterchildren(element.tag))):
        return True
    if diff.kind == 'missing':
        return False
    pose = _pose_matrix(element.findtext('pose'))
    return any(kind == tag and np.allclose(pose, x_ki, atol=1e-9) and
               _same_geometry(element, geometry) for kind, x_ki, geometry in dropped)


_PREDICATES = {
    'name-clash': _r_name_clash,
    'contact-collision': _r_contact_collision,
    'lumped-references': _r_lumped_references,
    'plugin-offsets': _r_plugin_offsets,
    'corrected-offsets': _r_corrected_offsets,
    'light-pose': _r_light_pose,
    'floating-planar': _r_floating_planar,
    'lumped-frames': _r_lumped_frames,
    'float32-colour': _r_float32_colour,
    'six-digits': _r_six_digits,
    'getrpy-snap': _r_getrpy_snap,
    'static-false': _r_static_false,
    'massless-kept': _r_massless_kept,
    'extension-target': _r_extension_target,
    'invalid-inertia': _r_invalid_inertia,
    'surface-blob': _r_surface_blob,
    'degenerate-collision': _r_degenerate_collision,
    'sensor-names': _r_sensor_names,
    'schema-defaults': _r_schema_defaults,
    'nameless-material': _r_nameless_material,
    'dangling-mimic': _r_dangling_mimic,
}
assert set(_PREDICATES) == set(RULES)


def explain(diffs, ctx, predicates=None):
    """
    Sort differences by the first rule that explains each.

    ``predicates`` (rule name -> ``f(diff, ctx)``) are this module's by default; the
    comparison tests give their own for the same rules.

    Returns
    -------
    tuple
        ``(counts, unexplained)``: rule name -> number of differences it explains, and the
        differences no rule explains.

    """
    counts = {}
    unexplained = []
    for diff in diffs:
        for name, predicate in (predicates or _PREDICATES).items():
            if predicate(diff, ctx):
                counts[name] = counts.get(name, 0) + 1
                break
        else:
            unexplained.append(diff)
    return counts, unexplained
