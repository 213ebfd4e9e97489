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
SDFormat ``<joint>`` elements (libsdformat's ``CreateJoint``) and the defaults its schema adds.

:func:`write_joint` maps the URDF joint kind to an SDFormat type, poses the joint in its
parent link, writes the axis with limits, dynamics and (SDFormat 1.11) mimic, then applies the
joint's ``<gazebo>`` extensions. URDF ``continuous`` becomes ``revolute`` without limits, a
fixed joint with ``<disableFixedJointLumping>`` a revolute joint locked at 0, and floating and
planar joints, which SDFormat cannot express, are left out (the child link is posed at the
joint origin instead, see :mod:`.emit_links`).

The children ``gz sdf -p`` prints because SDFormat's schema requires them
(:func:`~sdf_tools.formats.sdf.versions.joint_required`, with the output version's defaults:
``-1e16``/``1e16`` limits in 1.9, ``-inf``/``inf`` from 1.10 on) are added last in each
element, as libsdformat's schema pass does: written with the joint when no extension
configures it, otherwise added by :func:`complete_defaults` after the extensions' settings
(which is also how joints in model-level blobs get them).
"""

import functools

from lxml import etree

from sdf_tools.convert.gazebo_apply import apply_joint
from sdf_tools.convert.gazebo_apply import overwrite_warner
from sdf_tools.convert.mimic_movers import mover_text
from sdf_tools.convert.tree import is_merged
from sdf_tools.convert.tree import Joint
from sdf_tools.convert.tree import Tree
from sdf_tools.errors import Code
from sdf_tools.formats.sdf.emit import axis_text
from sdf_tools.formats.sdf.emit import SdfText
from sdf_tools.formats.sdf.versions import MIMIC_VERSION
from sdf_tools.formats.sdf.versions import required_leaves
from sdf_tools.formatting import fmt
from sdf_tools.model import JointType
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.parse import first_child
from sdf_tools.xmlio.text import Block
from sdf_tools.xmlio.text import escape_attribute
from sdf_tools.xmlio.text import escape_text
from sdf_tools.xmlio.text import nested

#: URDF joint kinds SDFormat has no joint for: the child is written as a free link.
NO_SDF_JOINT = frozenset((JointType.FLOATING, JointType.PLANAR))
#: A joint's pose, parent and child.
_PLACEMENT_TEXT = """
<pose relative_to="{}">{}</pose>
<parent>{}</parent>
<child>{}</child>
"""
_FIXED = Block('<joint name="{}" type="fixed">\n' + nested(_PLACEMENT_TEXT) + '</joint>\n')


def write_joint(out: SdfText, link, joint: Joint, tree: Tree, sdf_version: str,
                reporter) -> None:
    """
    Write the ``<joint>`` whose child is ``link`` (nothing for floating/planar).

    Parameters
    ----------
    out : SdfText
        The ``<model>``'s content.
    link : Link
        The child link.
    joint : Joint
        Its parent joint, after lumping and naming.
    tree : Tree
        The working tree (for the joint a ``<mimic>`` follows).
    sdf_version : str
        The output version.
    reporter : Reporter
        Where the warnings go.

    """
    urdf = joint.model
    kind = urdf.kind
    entity = f"joint '{joint.name}'"
    if kind in NO_SDF_JOINT:
        reporter.warn(f'SDFormat has no {kind.value} joint: link {link.name!r} is written as '
                      'a free body posed at the joint origin (libsdformat writes a link posed '
                      'relative to a joint that does not exist, which fails to load)',
                      urdf.location, entity, Code.NO_SDF_EQUIVALENT)
        return
    exts = joint.extensions
    shared = joint.name in tree.links
    if exts and shared:  # the link has the blobs
        exts = [e for e in exts if e.has_joint_settings()]
    # Without extensions the schema's defaults are written at once; with them, they are
    # filled in after the extensions' settings (complete_defaults), as libsdformat orders them.
    text = out.fragment() if exts else out
    _write_joint(text, link, joint, tree, sdf_version, reporter, defaults=not exts)
    if exts:
        element = etree.fromstring(text.text())
        apply_joint(element, exts, overwrite_warner(reporter, entity, urdf.location),
                    with_blobs=not shared)
        complete_defaults(element, sdf_version)
        out.element(element)


def _write_joint(out: SdfText, link, joint: Joint, tree: Tree, sdf_version: str, reporter,
                 defaults: bool) -> None:
    """Write a joint SDFormat has, with the schema's defaults if ``defaults``: one block."""
    urdf = joint.model
    kind = urdf.kind
    locked = kind is JointType.FIXED and joint.lumping_disabled
    if kind in (JointType.REVOLUTE, JointType.CONTINUOUS) or locked:
        sdf_type = 'revolute'
    else:
        sdf_type = kind.value
    relative_to = '__model__' if joint.parent == WORLD else escape_attribute(joint.parent)
    placement = (relative_to, out.pose(joint.origin.xyz, joint.origin.quat),
                 escape_text(joint.parent), escape_text(link.name))
    name = escape_attribute(joint.sdf_name)
    if kind is JointType.FIXED and not locked:
        out.block(_FIXED, name, *placement)
        return
    if locked:
        mimic, limit, dynamics = None, (('lower', '0'), ('upper', '0')), \
            (('damping', '0'), ('friction', '0'))
    else:
        mimic, limit, dynamics = _axis_leaves(out, joint, tree, sdf_version, reporter)
    block = _moving_joint(_tags(limit), _tags(dynamics), locked,
                          None if mimic is None else _tags(mimic[1]),
                          sdf_version if defaults else None)
    out.block(block, name, sdf_type, *placement,
              *(() if locked else (out.vector(urdf.axis),)),
              *(() if mimic is None else (mimic[0], *_texts(mimic[1]))),
              *_texts(limit), *_texts(dynamics))


def _tags(leaves) -> tuple:
    return tuple(tag for tag, _ in leaves)


def _texts(leaves) -> tuple:
    return tuple(text for _, text in leaves)


def _axis_leaves(out: SdfText, joint: Joint, tree: Tree, sdf_version: str, reporter):
    """
    Return a moving joint's ``(mimic, limit, dynamics)``, warning about what is changed.

    ``limit`` and ``dynamics`` are ``(tag, text)`` leaves (limits swapped if reversed);
    ``mimic`` is ``None`` or ``(joint attribute, leaves)`` (SDFormat 1.11 only).
    """
    urdf = joint.model
    entity = f"joint '{joint.name}'"
    mimic = None
    if urdf.mimic is not None and sdf_version == MIMIC_VERSION:
        mimic = _mimic_leaves(out, urdf, tree, entity, reporter)
    elif urdf.mimic is not None and urdf.mimic.joint in tree.joints:  # else the reader's
        mover = tree.mimic_movers.get(urdf.name)
        reporter.warn(f'<mimic> is left out: SDFormat {sdf_version} has no mimic joints (1.11 '
                      'has; libsdformat 12 drops it too), ' + (
                          'so the simulator moves this joint on its own' if mover is None else
                          f'and {mover_text(mover, urdf.mimic)}'),
                      urdf.location, entity, Code.MIMIC_DROPPED,
                      () if mover is None else (mover[2],))
    limit: tuple[tuple[str, str], ...] = ()
    if urdf.limit is not None:
        lower, upper = urdf.limit.lower, urdf.limit.upper
        if urdf.kind is not JointType.CONTINUOUS:
            if lower > upper:
                reporter.warn(f'<limit> lower {fmt(lower)} is greater than upper {fmt(upper)}; '
                              'the two are swapped', urdf.location, entity,
                              Code.SWAPPED_LIMITS)
                lower, upper = upper, lower
            limit += (('lower', out.number(lower)), ('upper', out.number(upper)))
        limit += (('effort', out.number(urdf.limit.effort)),
                  ('velocity', out.number(urdf.limit.velocity)))
    dynamics: tuple[tuple[str, str], ...] = ()
    if urdf.dynamics is not None:
        dynamics = (('damping', out.number(urdf.dynamics.damping)),
                    ('friction', out.number(urdf.dynamics.friction)))
    return mimic, limit, dynamics


def _mimic_leaves(out: SdfText, urdf, tree: Tree, entity: str, reporter):
    """Return ``<mimic>``'s joint (escaped) and leaves (its ``<reference>`` is a default)."""
    source = tree.joints.get(urdf.mimic.joint)
    if source is None or is_merged(source):
        reporter.warn(f'<mimic> joint {urdf.mimic.joint!r} is not in the SDFormat model; the '
                      'mimic constraint is left out', urdf.location, entity, Code.MIMIC_DROPPED)
        return None
    return escape_attribute(source.sdf_name), (('multiplier', out.number(urdf.mimic.multiplier)),
                                               ('offset', out.number(urdf.mimic.offset)))


@functools.cache
def _fill(sdf_version: str) -> dict:
    """Return what the schema of ``sdf_version`` adds to each element of a joint (leaves)."""
    return {element: required_leaves(sdf_version, element)
            for element in ('axis', 'axis/limit', 'axis/dynamics', 'axis/mimic',
                            'physics/ode/limit')}


@functools.cache
def _moving_joint(limit: tuple, dynamics: tuple, locked: bool, mimic: tuple | None,
                  defaults: str | None) -> Block:
    """
    Return the block of a whole joint with an axis (:func:`~.emit.axis_text`'s layout).

    Its slots: name, type, the :data:`_PLACEMENT_TEXT` slots, the axis direction (unless
    ``locked``), the mimic's joint and each tag of ``mimic`` (unless ``None``), then one for
    each tag of ``limit`` and of ``dynamics``. With ``defaults`` (the output version), what
    the schema adds is written as :func:`complete_defaults` adds it.
    """
    fill = None if defaults is None else _fill(defaults)

    def leaves(given, element):
        slots = tuple((tag, None) for tag in given)
        return slots + tuple(_missing(given, fill[element])) if fill is not None else slots

    axis = axis_text(xyz=not locked,
                     mimic=None if mimic is None else leaves(mimic, 'axis/mimic'),
                     limit=leaves(limit, 'axis/limit'),
                     dynamics=leaves(dynamics, 'axis/dynamics'),
                     after=fill['axis'] if locked and fill is not None else ())
    return Block('<joint name="{}" type="{}">\n' + nested(_PLACEMENT_TEXT) + nested(axis)
                 + '</joint>\n')


def _missing(present, defaults):
    """Yield the ``(tag, text)`` of ``defaults`` whose tag is not in ``present``, in order."""
    return ((tag, text) for tag, text in defaults if tag not in present)


def complete_defaults(joint, sdf_version: str) -> None:
    """
    Add the required children SDFormat's schema fills in (what ``gz sdf -p`` prints).

    With the defaults of ``sdf_version``. Missing children go last, as libsdformat's schema
    pass puts them.
    """
    fill = _fill(sdf_version)
    children = _children_by_tag(joint)
    axis = children.get('axis')
    if axis is not None:
        in_axis = _fill_element(axis, fill['axis'])
        limit = in_axis.get('limit')
        _fill_element(limit if limit is not None else etree.SubElement(axis, 'limit'),
                      fill['axis/limit'])
        dynamics = in_axis.get('dynamics')
        if dynamics is not None:
            _fill_element(dynamics, fill['axis/dynamics'])
        mimic = in_axis.get('mimic')
        if mimic is not None:
            _fill_element(mimic, fill['axis/mimic'])
    limit = first_child(first_child(children.get('physics'), 'ode'), 'limit')
    if limit is not None:
        _fill_element(limit, fill['physics/ode/limit'])


def _children_by_tag(parent) -> dict:
    """Return ``{tag: first child with that tag}`` of an element."""
    children: dict = {}
    for child in parent:
        children.setdefault(child.tag, child)
    return children


def _fill_element(parent, defaults) -> dict:
    """
    Append each ``(tag, text)`` of ``defaults`` that ``parent`` lacks, in this order.

    Returns ``parent``'s children by tag as they were before.
    """
    children = _children_by_tag(parent)
    for tag, text in _missing(children, defaults):
        etree.SubElement(parent, tag).text = text
    return children
