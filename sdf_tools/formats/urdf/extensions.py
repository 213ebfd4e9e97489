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
SDFormat-only content written as URDF ``<gazebo>`` extensions, which libsdformat puts back.

What a model read from SDFormat holds and URDF has no element for is written as the
elements of a ``<gazebo>`` block (the rules are listed in :mod:`.writer`):

* the model's ``<static>`` and ``Robot.extras``, in a block without ``reference``;
* a link's ``Link.extras``, and the extras of its visuals (collisions) inside one
  ``<visual>`` (``<collision>``), which the extension applies to every visual (collision):
  so they must be the same for all of them, but for a visual ``<material>`` that only
  repeats its URDF colour (a lossy report keeps what they all carry and drops the rest),
  and a collision's ``<density>`` and ``<auto_inertia_params>`` when the link's inertial
  is computed from them (``<inertial auto="true">``, written as its values);
* a joint's ``Joint.extras`` (a ``<physics>`` said with the special tags when they can say
  it) and its spring stiffness and reference.

Each function returns the elements of one block (empty: no block).
"""

from collections.abc import Iterable
from collections.abc import Sequence
import copy

from lxml import etree

from sdf_tools.errors import SourceLocation
from sdf_tools.formats.urdf.report import UrdfReport
from sdf_tools.model import Collision
from sdf_tools.model import Joint
from sdf_tools.model import Link
from sdf_tools.model import Material
from sdf_tools.model import Robot
from sdf_tools.model import Visual
from sdf_tools.xmlio.element import to_lxml
from sdf_tools.xmlio.parse import local_name
from sdf_tools.xmlio.parse import parse_number


#: What a collision holds for its link's auto inertial alone (SDFormat 1.11).
_WEIGHING = ('density', 'auto_inertia_params')


def gazebo_block(reference: str | None,
                 elements: Iterable[etree._Element]) -> etree._Element:
    """Return a ``<gazebo>`` element (for ``reference``, when given) holding ``elements``."""
    block = etree.Element('gazebo')
    if reference is not None:
        block.set('reference', reference)
    for item in elements:
        block.append(item)
    return block


def model_content(robot: Robot, report: UrdfReport) -> list[etree._Element]:
    """Return the model's SDFormat-only elements: ``<static>`` and its extras."""
    elements = []
    if robot.static:
        static = etree.Element('static')
        static.text = 'true'
        elements.append(static)
    elements += map(to_lxml, robot.extras)
    return elements


def link_content(link: Link, report: UrdfReport) -> list[etree._Element]:
    """Return a link's SDFormat-only elements, with those of its visuals and collisions."""
    entity = f"link '{link.name}'"
    elements = list(map(to_lxml, link.extras))
    # An <inertial auto="true"> is written as the values computed from the collisions' own
    # <density> and <auto_inertia_params>, which have no other use.
    auto = () if link.inertial is None or link.inertial.auto is None else _WEIGHING
    for tag, items in (('visual', link.visuals), ('collision', link.collisions)):
        if not any(item.extras for item in items):
            continue
        parsed = [[to_lxml(e) for e in item.extras if tag == 'visual' or e.tag not in auto]
                  for item in items]
        forms = {tuple(_canonical(e) for e in group) for group in parsed}
        if len(forms) > 1 and tag == 'visual':
            # Visuals of different colours (as libsdformat writes URDF colours): the
            # URDF <color> of each already says what its <material> does.
            parsed = [[e for e in group if not _colour_only(e, getattr(item, 'material', None))]
                      for group, item in zip(parsed, items)]
            forms = {tuple(_canonical(e) for e in group) for group in parsed}
        if len(forms) > 1:
            parsed = [_common(parsed, items, tag, entity, link.location, report)]
            if not report.lossy:
                continue
        if parsed[0]:
            wrapper = etree.Element(tag)
            for item in parsed[0]:
                wrapper.append(item)
            elements.append(wrapper)
    return elements


def _common(parsed: list[list[etree._Element]], items: Sequence[Visual | Collision], tag: str,
            entity: str, location: SourceLocation | None,
            report: UrdfReport) -> list[etree._Element]:
    """
    Return the extras every visual (collision) has; report each other one as dropped.

    The extension applies to every ``<visual>`` (``<collision>``) of the link, so only what
    they all carry can be written (in the first one's order).
    """
    tags = sorted({local_name(e) for group in parsed for e in group})
    refusal = (f'its <{tag}> elements carry different SDFormat-only content '
               f'({", ".join(f"<{t}>" for t in tags)}); URDF can only add the same content '
               f'to every <{tag}> of a link (a <gazebo> extension)')
    canonical = [[_canonical(e) for e in group] for group in parsed]
    shared = set(canonical[0]).intersection(*canonical[1:])
    for number, (group, forms, item) in enumerate(zip(parsed, canonical, items), 1):
        named = f'<{tag}> {item.name!r}' if item.name is not None else f'<{tag}> #{number}'
        for element, form in zip(group, forms):
            if form not in shared:
                report.drop(entity, refusal, f'{named}: <{local_name(element)}> is left out'
                            f'{_but_colour(element, item)}: URDF can only add the same '
                            f'SDFormat-only content to every <{tag}> of a link',
                            item.location or location)
    return [e for e, form in zip(parsed[0], canonical[0]) if form in shared]


def _but_colour(element: etree._Element, item: Visual | Collision) -> str:
    """Return what of a visual's SDFormat ``<material>`` left out the URDF still says."""
    material = getattr(item, 'material', None)
    if local_name(element) != 'material' or material is None or material.rgba is None:
        return ''
    return ' but for its colour (the URDF <color>)'


def joint_content(joint: Joint, report: UrdfReport) -> list[etree._Element]:
    """Return a joint's SDFormat-only elements: its extras and spring values."""
    entity = f"joint '{joint.name}'"
    elements: list[etree._Element] = []
    for element in map(to_lxml, joint.extras):
        # A <physics> blob would follow the one the converter makes for joint extensions,
        # and simulators read only the first: say it with the special tags when they can.
        elements += _physics_tags(element) if element.tag == 'physics' else [element]
    dynamics = joint.dynamics
    if dynamics is not None:
        for tag, value in (('springReference', dynamics.spring_reference),
                           ('springStiffness', dynamics.spring_stiffness)):
            if value != 0.0:
                item = etree.Element(tag)
                item.text = report.num(value, entity, f'<dynamics> {tag}')
                elements.append(item)
    return elements


# Leaves of an SDFormat joint <physics> and the <gazebo> joint tags that write them.
_PHYSICS_TAGS = {
    ('ode', 'limit', 'cfm'): 'stopCfm', ('ode', 'limit', 'erp'): 'stopErp',
    ('provide_feedback',): 'provideFeedback', ('ode', 'provide_feedback'): 'provideFeedback',
    ('ode', 'implicit_spring_damper'): 'implicitSpringDamper',
    ('ode', 'cfm_damping'): 'implicitSpringDamper', ('ode', 'fudge_factor'): 'fudgeFactor'}


def _physics_tags(physics: etree._Element) -> list[etree._Element]:
    """Return a joint ``<physics>`` as special tags, or ``[physics]`` when they cannot say it."""
    values: dict[str, str] = {}
    for leaf in physics.iter():
        if len(leaf) or leaf is physics:
            continue
        path, e = [], leaf
        while e is not physics:
            path.append(e.tag)
            parent = e.getparent()
            assert parent is not None  # e is inside physics
            e = parent
        tag = _PHYSICS_TAGS.get(tuple(reversed(path)))
        text = (leaf.text or '').strip()
        if tag is None or leaf.attrib or values.setdefault(tag, text) != text:
            return [physics]
    out = []
    for tag, text in values.items():
        item = etree.Element(tag)
        item.text = text
        out.append(item)
    return out


def _colour_only(element: etree._Element, material: Material | None) -> bool:
    """Return whether a visual's SDFormat ``<material>`` holds only its URDF colour."""
    if element.tag != 'material' or material is None or material.rgba is None \
            or element.attrib or len(element) == 0:
        return False
    for child in element:
        if child.tag not in ('ambient', 'diffuse') or child.attrib or len(child):
            return False
        values = [parse_number(v) for v in (child.text or '').split()]
        if len(values) == 3:
            values.append(1.0)
        if tuple(values) != tuple(material.rgba):
            return False
    return True


def _canonical(element: etree._Element) -> bytes:
    """Return an element's text with whitespace-only text and tails dropped (to compare)."""
    element = copy.deepcopy(element)
    for e in element.iter():
        if e.text is not None and not e.text.strip():
            e.text = None
        if e.tail is not None and not e.tail.strip():
            e.tail = None
    element.tail = None
    return etree.tostring(element, method='c14n', exclusive=True)
