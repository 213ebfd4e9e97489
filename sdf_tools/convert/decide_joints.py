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

:func:`decide_joint` maps the URDF joint kind to an SDFormat type, poses the joint in its
parent link, decides the axis with limits, dynamics and (SDFormat 1.11) mimic, then applies
the joint's ``<gazebo>`` extensions. URDF ``continuous`` becomes ``revolute`` without limits,
a fixed joint with ``<disableFixedJointLumping>`` a revolute joint locked at 0, and floating
and planar joints, which SDFormat cannot express, are left out (the child link is posed at
the joint origin instead, see :mod:`.decide_links`).

The children ``gz sdf -p`` prints because SDFormat's schema requires them
(:func:`~sdf_tools.formats.sdf.versions.required_leaves`, with the output version's
defaults: ``-1e16``/``1e16`` limits in 1.9, ``-inf``/``inf`` from 1.10 on) go last in each
element, as libsdformat's schema pass adds them, after what extensions set: one table
(:func:`_fill`), for the leaves of a joint no extension configures
(:class:`~sdf_tools.formats.sdf.document.JointOut`) and, through :func:`complete_defaults`,
for a joint extensions configure and the joints of model-level blobs (elements).
"""

import functools
from typing import TYPE_CHECKING

from sdf_tools.convert.gazebo_apply import apply_joint
from sdf_tools.convert.gazebo_apply import overwrite_warner
from sdf_tools.convert.mimic_movers import mover_text
from sdf_tools.convert.tree import is_merged
from sdf_tools.convert.tree import Joint
from sdf_tools.convert.tree import Tree
from sdf_tools.errors import Code
from sdf_tools.formats.sdf.document import AxisOut
from sdf_tools.formats.sdf.document import JointOut
from sdf_tools.formats.sdf.emit import joint_element
from sdf_tools.formats.sdf.emit import NumberTexts
from sdf_tools.formats.sdf.versions import MIMIC_VERSION
from sdf_tools.formats.sdf.versions import required_leaves
from sdf_tools.formatting import fmt
from sdf_tools.model import JointType
from sdf_tools.topology import WORLD
from sdf_tools.xmlio.element import appended
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import first_index
from sdf_tools.xmlio.element import replace_child

if TYPE_CHECKING:
    from collections.abc import Container

    from sdf_tools.convert.tree import Link
    from sdf_tools.errors import Reporter
    from sdf_tools.errors import SourceLocation
    from sdf_tools.formats.sdf.document import Leaves
    from sdf_tools.model import Mimic

#: URDF joint kinds SDFormat has no joint for: the child is written as a free link.
NO_SDF_JOINT = frozenset((JointType.FLOATING, JointType.PLANAR))


def decide_joint(link: 'Link', joint: Joint, tree: Tree, sdf_version: str, reporter: 'Reporter',
                 texts: NumberTexts) -> JointOut | Element | None:
    """
    Return the ``<joint>`` whose child is ``link`` (``None`` for floating/planar).

    Parameters
    ----------
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
    texts : NumberTexts
        The document's number texts.

    Returns
    -------
    JointOut or Element or None
        The joint with the schema's defaults; as an element when extensions configure it.

    """
    urdf = joint.model
    kind = urdf.kind
    entity = f"joint '{joint.name}'"
    if kind in NO_SDF_JOINT:
        reporter.warn(f'SDFormat has no {kind.value} joint: link {link.name!r} is written as '
                      'a free body posed at the joint origin (libsdformat writes a link posed '
                      'relative to a joint that does not exist, which fails to load)',
                      urdf.location, entity, Code.NO_SDF_EQUIVALENT)
        return None
    exts = joint.extensions
    shared = joint.name in tree.links
    if exts and shared:  # the link has the blobs
        exts = [e for e in exts if e.has_joint_settings()]
    decided = _joint(link, joint, tree, sdf_version, reporter, texts, defaults=not exts)
    if not exts:
        return decided
    # The schema's defaults come after the extensions' settings, as libsdformat orders them.
    element = apply_joint(joint_element(decided, texts), exts,
                          overwrite_warner(reporter, entity, urdf.location),
                          with_blobs=not shared)
    return complete_defaults(element, sdf_version)


def _joint(link: 'Link', joint: Joint, tree: Tree, sdf_version: str, reporter: 'Reporter',
           texts: NumberTexts, defaults: bool) -> JointOut:
    """Return a joint SDFormat has, with the schema's defaults if ``defaults``."""
    urdf = joint.model
    kind = urdf.kind
    locked = kind is JointType.FIXED and joint.lumping_disabled
    placement = ('__model__' if joint.parent == WORLD else joint.parent, joint.origin,
                 joint.parent, link.name)
    if kind is JointType.FIXED and not locked:
        return JointOut(joint.sdf_name, 'fixed', *placement)
    if kind in (JointType.REVOLUTE, JointType.CONTINUOUS) or locked:
        sdf_type = 'revolute'
    else:
        sdf_type = kind.value
    if locked:
        axis = AxisOut(None, limit=(('lower', '0'), ('upper', '0')),
                       dynamics=(('damping', '0'), ('friction', '0')))
    else:
        axis = _axis(joint, tree, sdf_version, reporter, texts)
    return JointOut(joint.sdf_name, sdf_type, *placement,
                    _with_defaults(axis, sdf_version) if defaults else axis)


def _axis(joint: Joint, tree: Tree, sdf_version: str, reporter: 'Reporter',
          texts: NumberTexts) -> AxisOut:
    """
    Return a moving joint's axis, warning about what is changed.

    Its ``limit`` and ``dynamics`` leaves (limits swapped if reversed); a ``<mimic>`` in
    SDFormat 1.11 only.
    """
    urdf = joint.model
    entity = f"joint '{joint.name}'"
    mimic = None
    if urdf.mimic is not None and sdf_version == MIMIC_VERSION:
        mimic = _mimic_leaves(urdf.mimic, urdf.location, tree, entity, reporter, texts)
    elif urdf.mimic is not None and urdf.mimic.joint in tree.joints:  # else the reader's
        mover = tree.mimic_movers.get(urdf.name)
        reporter.warn(f'<mimic> is left out: SDFormat {sdf_version} has no mimic joints (1.11 '
                      'has; libsdformat 12 drops it too), ' + (
                          'so the simulator moves this joint on its own' if mover is None else
                          f'and {mover_text(mover, urdf.mimic)}'),
                      urdf.location, entity, Code.MIMIC_DROPPED,
                      () if mover is None or mover[2] is None else (mover[2],))
    limit: tuple[tuple[str, str], ...] = ()
    if urdf.limit is not None:
        lower, upper = urdf.limit.lower, urdf.limit.upper
        if urdf.kind is not JointType.CONTINUOUS:
            if lower > upper:
                reporter.warn(f'<limit> lower {fmt(lower)} is greater than upper {fmt(upper)}; '
                              'the two are swapped', urdf.location, entity,
                              Code.SWAPPED_LIMITS)
                lower, upper = upper, lower
            limit += (('lower', texts.number(lower)), ('upper', texts.number(upper)))
        limit += (('effort', texts.number(urdf.limit.effort)),
                  ('velocity', texts.number(urdf.limit.velocity)))
    dynamics: tuple[tuple[str, str], ...] = ()
    if urdf.dynamics is not None:
        dynamics = (('damping', texts.number(urdf.dynamics.damping)),
                    ('friction', texts.number(urdf.dynamics.friction)))
    mimic_joint, mimic_leaves = mimic or (None, ())
    return AxisOut(urdf.axis, mimic_joint, mimic_leaves, limit, dynamics)


def _mimic_leaves(mimic: 'Mimic', location: 'SourceLocation | None', tree: Tree, entity: str,
                  reporter: 'Reporter', texts: NumberTexts) -> 'tuple[str, Leaves] | None':
    """Return ``<mimic>``'s joint and leaves (its ``<reference>`` is a default)."""
    source = tree.joints.get(mimic.joint)
    if source is None or is_merged(source):
        reporter.warn(f'<mimic> joint {mimic.joint!r} is not in the SDFormat model; the '
                      'mimic constraint is left out', location, entity, Code.MIMIC_DROPPED)
        return None
    return source.sdf_name, (('multiplier', texts.number(mimic.multiplier)),
                             ('offset', texts.number(mimic.offset)))


@functools.cache
def _fill(sdf_version: str) -> 'dict[str, Leaves]':
    """Return what the schema of ``sdf_version`` adds to each element of a joint (leaves)."""
    return {element: required_leaves(sdf_version, element)
            for element in ('axis', 'axis/limit', 'axis/dynamics', 'axis/mimic',
                            'physics/ode/limit')}


def _missing(present: 'Container[str]', defaults: 'Leaves') -> 'Leaves':
    """Return the ``(tag, text)`` of ``defaults`` whose tag is not in ``present``, in order."""
    return tuple((tag, text) for tag, text in defaults if tag not in present)


@functools.cache
def _lacking(tags: tuple[str, ...], defaults: 'Leaves') -> 'Leaves':
    """Return :func:`_missing` for leaves of ``tags`` (a few shapes: remembered)."""
    return _missing(tags, defaults)


def _completed(leaves: 'Leaves', defaults: 'Leaves') -> 'Leaves':
    """Return ``leaves`` followed by the ``defaults`` whose tag they lack."""
    return leaves + _lacking(tuple([tag for tag, _ in leaves]), defaults)


def _with_defaults(axis: AxisOut, sdf_version: str) -> AxisOut:
    """Return a decided axis with what the schema adds to it (:func:`_fill`)."""
    fill = _fill(sdf_version)
    return AxisOut(
        axis.xyz, axis.mimic_joint,
        axis.mimic if axis.mimic_joint is None else _completed(axis.mimic, fill['axis/mimic']),
        _completed(axis.limit or (), fill['axis/limit']),
        None if axis.dynamics is None else _completed(axis.dynamics, fill['axis/dynamics']),
        axis.after + _lacking(('mimic', 'limit', 'dynamics') if axis.xyz is None else
                              ('xyz', 'mimic', 'limit', 'dynamics'), fill['axis']))


def complete_defaults(joint: Element, sdf_version: str) -> Element:
    """
    Return ``joint`` with the required children SDFormat's schema fills in.

    With the defaults of ``sdf_version``. Missing children go last, as libsdformat's schema
    pass puts them (what ``gz sdf -p`` prints).
    """
    fill = _fill(sdf_version)
    index = first_index(joint, 'axis')
    if index is not None:
        axis = _filled(joint.children[index], fill['axis'])
        at = first_index(axis, 'limit')
        axis = appended(axis, _filled(Element('limit'), fill['axis/limit'])) if at is None \
            else replace_child(axis, at, _filled(axis.children[at], fill['axis/limit']))
        for tag in ('dynamics', 'mimic'):
            at = first_index(axis, tag)
            if at is not None:
                axis = replace_child(axis, at, _filled(axis.children[at], fill[f'axis/{tag}']))
        joint = replace_child(joint, index, axis)
    path: list[int] = []
    element = joint
    for tag in ('physics', 'ode', 'limit'):
        at = first_index(element, tag)
        if at is None:
            return joint
        path.append(at)
        element = element.children[at]
    return _replaced(joint, path, _filled(element, fill['physics/ode/limit']))


def _replaced(element: Element, path: list[int], new: Element) -> Element:
    """Return ``element`` with the element at the child indices ``path`` replaced by ``new``."""
    if not path:
        return new
    return replace_child(element, path[0],
                         _replaced(element.children[path[0]], path[1:], new))


def _filled(parent: Element, defaults: 'Leaves') -> Element:
    """Return ``parent`` with each ``(tag, text)`` of ``defaults`` it lacks appended, in order."""
    missing = _missing({child.tag for child in parent.children}, defaults)
    return appended(parent, *(Element(tag, text=text) for tag, text in missing)) \
        if missing else parent
