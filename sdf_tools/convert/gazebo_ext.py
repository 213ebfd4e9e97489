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
URDF ``<gazebo>`` extensions: what each tag means, and how it lands in the SDFormat output.

One :class:`Extension` per ``<gazebo>`` block. Its children are classified by tag name alone,
as libsdformat does: the special tags of the SDFormat "URDF extensions" tables become fields;
everything else is a *blob*, an element copied verbatim into the target (``<sensor>``,
``<plugin>``, ...). ``<visual>`` and ``<collision>`` hold blobs for every visual / collision of
the referenced link; ``<material>`` names a Gazebo-classic script material.

The ``apply_*`` functions write an extension's content into an SDFormat element, in
libsdformat's order and with its overwrite rule (a value set twice replaces the first and
moves to the end, with a warning when the values differ). Blob elements are deep-copied per
use; the :class:`~sdf_tools.model.GazeboExtension` elements of the model are never modified.
"""

import copy

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.files.xml_source import first_child
from sdf_tools.formatting import fmt

#: Tags that configure a link (or its collisions and visuals).
LINK_TAGS = frozenset((
    'turnGravityOff', 'dampingFactor', 'maxVel', 'minDepth', 'mu1', 'mu2', 'fdir1', 'kp',
    'kd', 'selfCollide', 'maxContacts', 'laserRetro', 'material', 'visual', 'collision'))
#: Tags that configure a joint.
JOINT_TAGS = frozenset((
    'stopCfm', 'stopErp', 'springReference', 'springStiffness', 'provideFeedback',
    'implicitSpringDamper', 'cfmDamping', 'fudgeFactor', 'preserveFixedJoint',
    'disableFixedJointLumping'))
#: Tags that configure the model.
MODEL_TAGS = frozenset(('static',))
#: Tags read and ignored (as libsdformat does).
IGNORED_TAGS = frozenset(('canonicalBody',))

_FLOAT_FIELDS = {
    'dampingFactor': 'damping_factor', 'maxVel': 'max_vel', 'minDepth': 'min_depth',
    'mu1': 'mu1', 'mu2': 'mu2', 'kp': 'kp', 'kd': 'kd', 'laserRetro': 'laser_retro',
    'springReference': 'spring_reference', 'springStiffness': 'spring_stiffness',
    'stopCfm': 'stop_cfm', 'stopErp': 'stop_erp', 'fudgeFactor': 'fudge_factor',
}
_BOOL_FIELDS = {
    'static': 'static', 'selfCollide': 'self_collide', 'provideFeedback': 'provide_feedback',
    'implicitSpringDamper': 'implicit_spring_damper', 'cfmDamping': 'implicit_spring_damper',
    'preserveFixedJoint': 'preserve', 'disableFixedJointLumping': 'disable_lumping',
}
_JOINT_FIELDS = ('stop_cfm', 'stop_erp', 'spring_reference', 'spring_stiffness',
                 'provide_feedback', 'implicit_spring_damper', 'fudge_factor')


def key_value(element) -> str:
    """Return a tag's value: its ``value`` attribute if present, else its text, trimmed."""
    value = element.get('value')
    if value is None:
        value = element.text or ''
    return value.strip()


def is_true(text: str) -> bool:
    """Return libsdformat's reading of a boolean: ``true``/``yes`` (any case) or ``1``."""
    return text.lower() in ('true', 'yes') or text == '1'


class Extension:
    """
    One ``<gazebo>`` block, parsed.

    Attributes
    ----------
    ref : str
        The ``reference`` it was written for (``''`` at model level). It stays the original
        name when lumping moves the extension to an ancestor link: visuals and collisions
        that came from that link are the ones it configures.
    location : SourceLocation
        Where the block is.
    blobs, visual_blobs, collision_blobs : list
        Private deep copies of the blob elements (lumping edits them in place).
    tags : list of (str, element)
        Every special tag seen, for "no effect here" warnings.

    """

    __slots__ = ('ref', 'location', 'tags', 'blobs', 'visual_blobs', 'collision_blobs',
                 'material', 'fdir1', 'gravity', 'max_contacts', *_FLOAT_FIELDS.values(),
                 *set(_BOOL_FIELDS.values()))

    def __init__(self, ref: str, location):
        self.ref = ref
        self.location = location
        self.tags = []
        self.blobs = []
        self.visual_blobs = []
        self.collision_blobs = []
        self.material = self.fdir1 = self.gravity = self.max_contacts = None
        for name in _FLOAT_FIELDS.values():
            setattr(self, name, None)
        for name in set(_BOOL_FIELDS.values()):
            setattr(self, name, None)

    def has_joint_settings(self) -> bool:
        """Return whether any joint-level special tag was given."""
        return any(getattr(self, name) is not None for name in _JOINT_FIELDS)


def parse_extension(block, values, warn) -> Extension:
    """
    Parse one model :class:`~sdf_tools.model.GazeboExtension`.

    Parameters
    ----------
    block : GazeboExtension
        The block.
    values : ValueReader
        Records malformed numbers as errors (libsdformat throws ``std::invalid_argument``).
    warn : callable
        ``warn(element, message, code)`` records a warning.

    """
    ext = Extension(block.reference or '', block.location)
    for child in block.elements:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        if tag in ('visual', 'collision'):
            ext.tags.append((tag, child))
            target = ext.visual_blobs if tag == 'visual' else ext.collision_blobs
            target.extend(copy.deepcopy(e) for e in child if isinstance(e.tag, str))
        elif tag == 'material':
            ext.tags.append((tag, child))
            ext.material = key_value(child)
        elif tag in _FLOAT_FIELDS:
            ext.tags.append((tag, child))
            value = values.number(child, None, f'<gazebo> <{tag}>', key_value(child))
            if value is not None:
                setattr(ext, _FLOAT_FIELDS[tag], value)
        elif tag in _BOOL_FIELDS:
            ext.tags.append((tag, child))
            if tag == 'cfmDamping':
                warn(child, '<cfmDamping> is deprecated; use <implicitSpringDamper>',
                     Code.DEPRECATED)
            setattr(ext, _BOOL_FIELDS[tag], is_true(key_value(child)))
        elif tag == 'turnGravityOff':
            ext.tags.append((tag, child))
            # Gravity stays on only for an explicit false; anything else turns it off.
            ext.gravity = key_value(child).lower() in ('false', 'no', '0')
        elif tag == 'fdir1':
            ext.tags.append((tag, child))
            ext.fdir1 = key_value(child)
        elif tag == 'maxContacts':
            ext.tags.append((tag, child))
            text = key_value(child)
            value = values.number(child, None, '<gazebo> <maxContacts>', text)
            if value is not None and not -2 ** 31 <= value < 2 ** 31:
                values.error(child, None, f'<gazebo> <maxContacts> must fit a 32-bit integer '
                             f'(SDFormat <max_contacts> is one), got {text!r}', Code.BAD_NUMBER)
            elif value is not None:
                if value != int(value):
                    warn(child, f'<maxContacts> must be an integer, got {text!r}; using '
                         f'{int(value)}', Code.BAD_NUMBER)
                ext.max_contacts = int(value)
        elif tag in IGNORED_TAGS:
            pass
        else:
            ext.blobs.append(copy.deepcopy(child))
    return ext


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
        contact_ode = _child(_child(surface, 'contact'), 'ode')
        friction_ode = _child(_child(surface, 'friction'), 'ode')
        if ext.mu1 is not None:
            add_key_value(friction_ode, 'mu', fmt(ext.mu1), on_overwrite)
        if ext.mu2 is not None:
            add_key_value(friction_ode, 'mu2', fmt(ext.mu2), on_overwrite)
        if ext.fdir1:
            add_key_value(friction_ode, 'fdir1', ext.fdir1, on_overwrite)
        if ext.kp is not None:
            add_key_value(contact_ode, 'kp', fmt(ext.kp), on_overwrite)
        if ext.kd is not None:
            add_key_value(contact_ode, 'kd', fmt(ext.kd), on_overwrite)
        if ext.max_vel is not None:
            add_key_value(contact_ode, 'max_vel', fmt(ext.max_vel), on_overwrite)
        if ext.min_depth is not None:
            add_key_value(contact_ode, 'min_depth', fmt(ext.min_depth), on_overwrite)
        if ext.laser_retro is not None:
            add_key_value(collision, 'laser_retro', fmt(ext.laser_retro), on_overwrite)
        if ext.max_contacts is not None:
            add_key_value(collision, 'max_contacts', str(ext.max_contacts), on_overwrite)


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

    ``transform_blob(ext, blob)`` may return a rewritten copy of a blob (lumping renames).
    """
    for ext in extensions:
        if ext.gravity is not None:
            add_key_value(link, 'gravity', 'true' if ext.gravity else 'false', on_overwrite)
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
        axis = _child(joint, 'axis')
        dynamics = _child(axis, 'dynamics')
        physics = _child(joint, 'physics')
        ode = _child(physics, 'ode')
        limit = _child(ode, 'limit')
        if ext.stop_cfm is not None:
            add_key_value(limit, 'cfm', fmt(ext.stop_cfm), on_overwrite)
        if ext.stop_erp is not None:
            add_key_value(limit, 'erp', fmt(ext.stop_erp), on_overwrite)
        if ext.spring_reference is not None:
            add_key_value(dynamics, 'spring_reference', fmt(ext.spring_reference),
                          on_overwrite)
        if ext.spring_stiffness is not None:
            add_key_value(dynamics, 'spring_stiffness', fmt(ext.spring_stiffness),
                          on_overwrite)
        if ext.provide_feedback is not None:
            text = 'true' if ext.provide_feedback else 'false'
            add_key_value(physics, 'provide_feedback', text, on_overwrite)
            add_key_value(ode, 'provide_feedback', text, on_overwrite)
        if ext.implicit_spring_damper is not None:
            text = 'true' if ext.implicit_spring_damper else 'false'
            add_key_value(ode, 'implicit_spring_damper', text, on_overwrite)
            add_key_value(ode, 'cfm_damping', text, on_overwrite)
        if ext.fudge_factor is not None:
            add_key_value(ode, 'fudge_factor', fmt(ext.fudge_factor), on_overwrite)
        if with_blobs:
            for blob in ext.blobs:
                joint.append(copy.deepcopy(blob))


def apply_model(model, extensions, on_overwrite=None) -> None:
    """Append model-level content: ``<static>`` (only when given), then blobs."""
    for ext in extensions:
        if ext.static is not None:
            add_key_value(model, 'static', 'true' if ext.static else 'false', on_overwrite)
        for blob in ext.blobs:
            model.append(copy.deepcopy(blob))
