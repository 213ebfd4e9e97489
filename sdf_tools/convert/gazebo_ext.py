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
URDF ``<gazebo>`` extensions: what each tag means (libsdformat's ``ParseSDFExtension``).

One :class:`Extension` per ``<gazebo>`` block (:func:`parse_extensions`). Its children are
classified by tag name alone, as libsdformat does: the special tags of the SDFormat "URDF
extensions" tables become fields, their numbers read as libsdformat reads them
(``std::stod``, ``std::stoi``: ``2x`` is 2, with a warning) and held to the ``min``/``max``
of the SDFormat element they set; everything else is a *blob*, an element copied verbatim
into the target (``<sensor>``, ``<plugin>``, ...; checked against the vocabulary of the
SDFormat version written, :mod:`.blob_values`). ``<visual>`` and ``<collision>`` hold blobs
for every visual / collision of the referenced link; ``<material>`` names a Gazebo-classic
script material. :func:`check_references` warns about blocks and tags that configure nothing,
and names the nearest link or joint of a reference that names neither.

Where each setting lands in SDFormat is tabled here (:data:`COLLISION_SETTINGS`,
:data:`JOINT_SETTINGS`); :mod:`.gazebo_apply` writes it there.
"""

from typing import TYPE_CHECKING

from sdf_tools.convert.tree import is_merged
from sdf_tools.errors import Code
from sdf_tools.formats.sdf.spec import nearest
from sdf_tools.formats.sdf.spec import vocabulary
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import key_value

if TYPE_CHECKING:
    from sdf_tools.convert.blob_values import Landing
    from sdf_tools.convert.tree import Tree
    from sdf_tools.errors import SourceLocation
    from sdf_tools.formats.sdf.spec import ElementSpec
    from sdf_tools.formats.sdf.spec import Vocabulary
    from sdf_tools.model import GazeboExtension
    from sdf_tools.model import Robot
    from sdf_tools.xmlio.parse import ValueReader

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
_SPECIAL_TAGS = LINK_TAGS | JOINT_TAGS | MODEL_TAGS  # any other tag is a blob
#: The tags of a block that are not SDFormat (for the nearest name of a misspelt one).
EXTENSION_TAGS = _SPECIAL_TAGS | IGNORED_TAGS

# Tags of numbers (and fdir1's vector): libsdformat reads them with std::stod (maxContacts:
# std::stoi), as the SDFormat elements they set (_SETS) read them.
_NUMBER_FIELDS = {
    'dampingFactor': 'damping_factor', 'maxVel': 'max_vel', 'minDepth': 'min_depth',
    'mu1': 'mu1', 'mu2': 'mu2', 'kp': 'kp', 'kd': 'kd', 'laserRetro': 'laser_retro',
    'springReference': 'spring_reference', 'springStiffness': 'spring_stiffness',
    'stopCfm': 'stop_cfm', 'stopErp': 'stop_erp', 'fudgeFactor': 'fudge_factor',
    'maxContacts': 'max_contacts', 'fdir1': 'fdir1',
}
_BOOL_FIELDS = {
    'static': 'static', 'selfCollide': 'self_collide', 'provideFeedback': 'provide_feedback',
    'implicitSpringDamper': 'implicit_spring_damper', 'cfmDamping': 'implicit_spring_damper',
    'preserveFixedJoint': 'preserve', 'disableFixedJointLumping': 'disable_lumping',
}
#: Where each collision setting goes, in libsdformat's order: (field, parent, SDFormat tag);
#: the parent is ``<surface><friction><ode>``, ``<surface><contact><ode>`` or the collision.
COLLISION_SETTINGS = (
    ('mu1', 'friction', 'mu'), ('mu2', 'friction', 'mu2'), ('fdir1', 'friction', 'fdir1'),
    ('kp', 'contact', 'kp'), ('kd', 'contact', 'kd'), ('max_vel', 'contact', 'max_vel'),
    ('min_depth', 'contact', 'min_depth'), ('laser_retro', 'collision', 'laser_retro'),
    ('max_contacts', 'collision', 'max_contacts'))
#: Where each joint setting goes, in libsdformat's order: (field, ((parent, tag), ...)); the
#: parents are ``<physics><ode><limit>``, ``<axis><dynamics>``, ``<physics>`` and ``<ode>``.
JOINT_SETTINGS = (
    ('stop_cfm', (('limit', 'cfm'),)),
    ('stop_erp', (('limit', 'erp'),)),
    ('spring_reference', (('dynamics', 'spring_reference'),)),
    ('spring_stiffness', (('dynamics', 'spring_stiffness'),)),
    ('provide_feedback', (('physics', 'provide_feedback'), ('ode', 'provide_feedback'))),
    ('implicit_spring_damper', (('ode', 'implicit_spring_damper'), ('ode', 'cfm_damping'))),
    ('fudge_factor', (('ode', 'fudge_factor'),)))


# The SDFormat elements below which the settings land (COLLISION_SETTINGS, JOINT_SETTINGS).
_PARENTS = {
    'friction': 'model/link/collision/surface/friction/ode',
    'contact': 'model/link/collision/surface/contact/ode', 'collision': 'model/link/collision',
    'limit': 'model/joint/physics/ode/limit', 'dynamics': 'model/joint/axis/dynamics',
    'physics': 'model/joint/physics', 'ode': 'model/joint/physics/ode'}
_FIELD_TAGS = {field: tag for tag, field in _NUMBER_FIELDS.items()}
# The fields of the special tags, each once (an Extension's, None until given).
_SPECIAL_FIELDS = tuple(dict.fromkeys((*_NUMBER_FIELDS.values(), *_BOOL_FIELDS.values())))
# Tag -> the SDFormat element its value is written to (the vocabulary's type and min/max).
_SETS = {
    'dampingFactor': 'model/link/velocity_decay/linear',
    **{_FIELD_TAGS[field]: f'{_PARENTS[parent]}/{tag}'
       for field, parent, tag in COLLISION_SETTINGS},
    **{_FIELD_TAGS[field]: f'{_PARENTS[targets[0][0]]}/{targets[0][1]}'
       for field, targets in JOINT_SETTINGS if field in _FIELD_TAGS},
}


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
    blobs, visual_blobs, collision_blobs : list of Element
        The blob elements (lumping and naming put changed values in their places).
    tags : list of (str, element)
        Every special tag seen, for "no effect here" warnings.
    empty : bool
        The block has no element. libsdformat records which link a block came from only
        while reading its children, so an empty block reaches no visual or collision (no
        ``<surface>``); on a joint it still adds ``<axis><dynamics>`` and ``<physics>``, as
        every block does.

    """

    __slots__ = ('ref', 'location', 'empty', 'tags', 'blobs', 'visual_blobs', 'collision_blobs',
                 'material', 'gravity', *_SPECIAL_FIELDS)

    # The fields of the special tags, set in __init__ from _SPECIAL_FIELDS
    # (numbers as check_value reads them; fdir1 as written).
    damping_factor: float | None
    max_vel: float | None
    min_depth: float | None
    mu1: float | None
    mu2: float | None
    kp: float | None
    kd: float | None
    laser_retro: float | None
    spring_reference: float | None
    spring_stiffness: float | None
    stop_cfm: float | None
    stop_erp: float | None
    fudge_factor: float | None
    max_contacts: int | None
    fdir1: str | None
    static: bool | None
    self_collide: bool | None
    provide_feedback: bool | None
    implicit_spring_damper: bool | None
    preserve: bool | None
    disable_lumping: bool | None

    def __init__(self, ref: str, location: 'SourceLocation | None') -> None:
        self.ref = ref
        self.location = location
        self.empty = True
        self.tags: list[tuple[str, Element]] = []
        self.blobs: list[Element] = []
        self.visual_blobs: list[Element] = []
        self.collision_blobs: list[Element] = []
        self.material: str | None = None
        self.gravity: bool | None = None
        for name in _SPECIAL_FIELDS:
            setattr(self, name, None)

    def has_joint_settings(self) -> bool:
        """Return whether any joint-level special tag was given."""
        return any(getattr(self, name) is not None for name, _ in JOINT_SETTINGS)

    def configures(self, kind: str) -> bool:
        """Return whether it has anything for a ``'visual'`` or a ``'collision'``."""
        if kind == 'visual':
            return bool(self.visual_blobs or self.material)
        return bool(self.collision_blobs) or any(
            getattr(self, name) is not None for name, _, _ in COLLISION_SETTINGS)


def parse_extensions(robot: 'Robot', values: 'ValueReader', version: str = '1.9',
                     ) -> list[Extension]:
    """
    Parse every ``<gazebo>`` block of a robot, in document order.

    Parameters
    ----------
    robot : Robot
        The URDF model.
    values : ValueReader
        Records malformed numbers as errors (libsdformat throws ``std::invalid_argument``)
        and warnings.
    version : str
        The SDFormat version written: the vocabulary the blobs are checked against.

    Raises
    ------
    DescriptionError
        Every malformed value, with its line.

    """
    if not robot.gazebo:
        values.reporter.raise_if_errors()
        return []
    links = {link.name for link in robot.links}
    joints = {joint.name for joint in robot.joints}
    vocab = vocabulary(version)
    named = {block.reference or '' for block in robot.gazebo   # a <material> tag names a
             if any(child.tag == 'material' for child in block.elements)}   # script whole
    extensions = []
    for block in robot.gazebo:
        ref = block.reference or ''
        path = 'model/link' if ref in links else 'model/joint' if ref in joints else \
            'model' if not ref else None   # else the block names nothing: it is ignored
        landing = None if path is None else (path, _spec(vocab, path))
        extensions.append(_parse_extension(block, values, landing, vocab,
                                           (block.reference or '') not in named))
    values.reporter.raise_if_errors()
    return extensions


def _spec(vocab: 'Vocabulary', path: str) -> 'ElementSpec':
    """Return the spec at ``path``, an element every SDFormat version written has."""
    spec = vocab.at(path)
    assert spec is not None   # (what extensions set: a model, link, joint and their parts)
    return spec


def _parse_extension(block: 'GazeboExtension', values: 'ValueReader', landing: 'Landing | None',
                     vocab: 'Vocabulary', scripts: bool) -> Extension:
    """
    Parse one :class:`~sdf_tools.model.GazeboExtension`.

    ``landing``: the path and spec of the element its blobs land in (``None``: it names
    nothing); ``scripts``: whether its ``<visual>`` blobs' material scripts must be whole (no
    ``<material>`` tag of a block of its reference completes them).
    """
    # Here, not at the top: a robot without <gazebo> blocks never loads the readers of
    # SDFormat values (formats.sdf.params and what imports it); urdf2sdf starts faster.
    from sdf_tools.convert.blob_values import check_blob
    from sdf_tools.formats.sdf.content import check_value
    ext = Extension(block.reference or '', block.location)
    where = block_name(ext.ref)
    on_link = landing is not None and landing[0] == 'model/link'
    for child in block.elements:
        tag = child.tag
        if not isinstance(tag, str):
            continue
        ext.empty = False
        if tag in IGNORED_TAGS:
            continue
        if tag not in _SPECIAL_TAGS:
            if landing is not None:
                check_blob(child, values, where, landing, vocab.version, EXTENSION_TAGS)
            ext.blobs.append(_blob_copy(child))
            continue
        ext.tags.append((tag, child))
        if tag in ('visual', 'collision'):
            target = ext.visual_blobs if tag == 'visual' else ext.collision_blobs
            part = (f'model/link/{tag}', _spec(vocab, f'model/link/{tag}'))
            for blob in child:
                if isinstance(blob.tag, str):
                    if on_link:
                        check_blob(blob, values, where, part, vocab.version,
                                   scripts=scripts)
                    target.append(_blob_copy(blob))
        elif tag == 'material':
            ext.material = key_value(child)
        elif tag in _NUMBER_FIELDS:
            value = check_value(values, child, _spec(vocab, _SETS[tag]), where, child,
                                text=key_value(child), required=True)
            if value is not None:
                setattr(ext, _NUMBER_FIELDS[tag], key_value(child) if tag == 'fdir1' else value)
        elif tag in _BOOL_FIELDS:
            if tag == 'cfmDamping':
                values.warn(child, None, '<cfmDamping> is deprecated; use '
                            '<implicitSpringDamper>', Code.DEPRECATED)
            setattr(ext, _BOOL_FIELDS[tag], is_true(key_value(child)))
        else:  # turnGravityOff: gravity stays on only for an explicit false
            ext.gravity = key_value(child).lower() in ('false', 'no', '0')
    return ext


def block_name(ref: str) -> str:
    """Return how messages name a block: ``<gazebo reference='base'>``, or ``<gazebo>``."""
    return f"<gazebo reference='{ref}'>" if ref else '<gazebo>'


def _blob_copy(element: Element) -> Element:
    """Return a blob element without its tail (text of the block)."""
    if element.tail is None:
        return element
    return Element(element.tag, element.attributes, element.text, element.children, None,
                   element.line)


def check_references(extensions: list[Extension], tree: 'Tree', values: 'ValueReader',
                     ) -> None:
    """
    Warn about references that name nothing and tags that have no effect where used.

    Parameters
    ----------
    extensions : list of Extension
        Every block.
    tree : Tree
        The working tree, before lumping (which joints will merge is known).
    values : ValueReader
        Where the warnings go (with the line of each tag).

    """
    for ext in extensions:
        where = block_name(ext.ref)
        is_link = ext.ref in tree.links
        is_joint = ext.ref in tree.joints
        if ext.ref and not is_link and not is_joint:
            # (only a close one: robots name links alike, link1 and link2)
            hint = nearest(ext.ref, [*tree.links, *tree.joints], cutoff=0.85)
            values.reporter.warn(f'reference {ext.ref!r} names no link or joint; the block is '
                                 'ignored' + (f' (did you mean {hint!r}?)' if hint else ''),
                                 ext.location, where, Code.UNKNOWN_REFERENCE)
            continue
        allowed = set(IGNORED_TAGS)
        if not ext.ref:
            allowed |= MODEL_TAGS
        if is_link:
            allowed |= LINK_TAGS
        if is_joint:
            allowed |= JOINT_TAGS
        for tag, element in ext.tags:
            if tag not in allowed:
                kind = 'model' if not ext.ref else ('link' if is_link else 'joint')
                values.warn(element, where, f'<{tag}> has no effect in a {kind}-level block '
                            'and is dropped', Code.NO_EFFECT)
        if is_joint and not is_link and is_merged(tree.joints[ext.ref]):
            values.reporter.warn(f'joint {ext.ref!r} is fixed and is merged into its parent by '
                                 'fixed-joint lumping, so this block has no effect (set '
                                 '<preserveFixedJoint> to keep the joint)', ext.location,
                                 where, Code.NO_EFFECT)
        if is_link and is_joint and (ext.blobs and ext.has_joint_settings()):
            values.reporter.warn(f'{ext.ref!r} names both a link and a joint: its elements go '
                                 'to the link, its joint settings to the joint', ext.location,
                                 where, Code.AMBIGUOUS_REFERENCE)
