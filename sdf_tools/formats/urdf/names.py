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
The names URDF defines, the ones tools add beside them, and the warning about any other.

urdfdom and libsdformat skip what they do not know, so a misspelt ``<orgin>`` or ``lowr=``
silently loses what it holds. The reader checks the attributes and children of every
element the URDF specification defines against :data:`ATTRIBUTES` and :data:`CHILDREN` (the
reader's ``if``/``elif`` on tags, and an attribute count or a frozenset test per element:
the reader is a hot path) and reports the rest with :func:`report_unknown` and
:func:`report_unknown_child`: a warning (``unknown-name``) at the element's line, with the
nearest known name (``did you mean <origin>?``).

A required attribute or element that is missing is an error of the reader; when an unknown
name beside it is its misspelling (``<limit efort="1">``), the error names it
(:func:`misspelt`: ``did you mean 'effort' for 'efort'?``) and no warning repeats it.

Not reported: names in an XML namespace (``xacro:``, ``drake:``, ...); what is inside
elements that other tools read (``<gazebo>``, ``<transmission>``, ...); and the extensions
published robots carry (:data:`_EXTENSION_ATTRIBUTES`, :data:`_EXTENSION_CHILDREN`, each with
who writes it), which no URDF reader uses and which lose nothing a URDF reader would keep.
"""

from collections.abc import Collection
from collections.abc import Iterable

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.errors import SourceLocation
from sdf_tools.xmlio.node import Node
from sdf_tools.xmlio.parse import attribute_items
from sdf_tools.xmlio.parse import ValueReader

#: Attributes of the URDF elements (URDF XML specification; what urdfdom reads).
SPEC_ATTRIBUTES = {
    'robot': ('name', 'version'),
    'link': ('name',),
    'inertial': (),
    'origin': ('xyz', 'rpy'),
    'mass': ('value',),
    'inertia': ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'),
    'visual': ('name',),
    'collision': ('name',),
    'geometry': (),
    'box': ('size',),
    'cylinder': ('radius', 'length'),
    'sphere': ('radius',),
    'capsule': ('radius', 'length'),
    'mesh': ('filename', 'scale'),
    'material': ('name',),
    'color': ('rgba',),
    'texture': ('filename',),
    'joint': ('name', 'type'),
    'parent': ('link',),
    'child': ('link',),
    'axis': ('xyz',),
    'calibration': ('rising', 'falling'),
    'dynamics': ('damping', 'friction'),
    'limit': ('lower', 'upper', 'effort', 'velocity'),
    'mimic': ('joint', 'multiplier', 'offset'),
    'safety_controller': ('soft_lower_limit', 'soft_upper_limit', 'k_position',
                          'k_velocity'),
}

#: Children of the URDF elements; the others hold none. ``<robot><origin>`` is
#: libsdformat's (the model's pose); geometry shapes are checked by the reader itself.
_SPEC_CHILDREN = {
    'robot': ('link', 'joint', 'material', 'origin'),
    'link': ('inertial', 'visual', 'collision'),
    'inertial': ('origin', 'mass', 'inertia'),
    'visual': ('origin', 'geometry', 'material'),
    'collision': ('origin', 'geometry'),
    'geometry': ('box', 'cylinder', 'sphere', 'capsule', 'mesh'),
    'material': ('color', 'texture'),
    'joint': ('origin', 'parent', 'child', 'axis', 'calibration', 'dynamics', 'limit',
              'mimic', 'safety_controller'),
}

#: The attributes urdfdom requires (and the reader: an ``<axis>`` needs ``xyz``; a
#: top-level ``<material>`` its name, checked by the reader alone). A missing one is an
#: error that names an unknown attribute beside it whose nearest name it is
#: (:func:`misspelt`), which is then not warned about as well.
REQUIRED = {
    'robot': ('name',), 'link': ('name',), 'mass': ('value',),
    'inertia': SPEC_ATTRIBUTES['inertia'], 'box': ('size',), 'cylinder': ('radius', 'length'),
    'sphere': ('radius',), 'capsule': ('radius', 'length'), 'mesh': ('filename',),
    'color': ('rgba',), 'joint': ('name', 'type'), 'parent': ('link',), 'child': ('link',),
    'axis': ('xyz',), 'limit': ('effort', 'velocity'), 'mimic': ('joint',),
    'safety_controller': ('k_velocity',),
}

#: The elements whose attributes are all required: tag -> their number (a count is enough
#: to tell an unknown or a missing one, :func:`check_leaf`).
REQUIRED_ONLY = {tag: len(names) for tag, names in REQUIRED.items()
                 if set(names) == set(SPEC_ATTRIBUTES[tag])}

#: The children urdfdom requires (and a revolute or prismatic joint its ``<limit>``), named
#: like the required attributes when missing.
REQUIRED_CHILDREN = {'joint': ('parent', 'child'), 'inertial': ('mass', 'inertia'),
                     'visual': ('geometry',), 'collision': ('geometry',)}

#: Attributes tools write beside the specification's (found on the corpus of real robots).
_EXTENSION_ATTRIBUTES = {
    'link': ('type',),  # PR2: type="laser" / "camera"
    # Franka's friction model (D, K, mu_coulomb, mu_viscous); Hello Robot's Stretch springs
    'dynamics': ('D', 'K', 'mu_coulomb', 'mu_viscous', 'spring_reference', 'spring_stiffness'),
    'limit': ('command_effort', 'current', 'gear_velocity'),  # ANYbotics' actuator limits
}

#: Elements tools write beside the specification's (found on the corpus of real robots and
#: in the tools' documentation); their content is theirs and is not checked.
_EXTENSION_CHILDREN = {
    # libsdformat's <gazebo>, ros_control's <transmission>, ros2_control, urdfdom's and
    # iDynTree's <sensor>, MuJoCo's <mujoco> compiler options, webots_ros2's <webots>,
    # Klampt's <klampt>
    'robot': ('gazebo', 'transmission', 'ros2_control', 'sensor', 'mujoco', 'webots',
              'klampt'),
    # PyBullet's <contact>; the capsule MoveIt's ancestors checked self collisions with
    # (iiwa_stack); ANYbotics' perception self filter
    'link': ('contact', 'self_collision_checking', 'self_filter'),
    # a visual's <material> repeated in the collision (11 of 50 real robots): urdfdom
    # ignores it, and a collision has no appearance to lose
    'collision': ('material',),
}

#: What to write instead of SDFormat elements put in URDF.
_SDFORMAT_HINTS = {
    'pose': ' (URDF gives poses as <origin xyz="..." rpy="..."/>)',
    'surface': ' (SDFormat content for a collision goes in <gazebo reference="LINK">'
               '<collision>...</collision></gazebo>)',
}

#: Attributes each URDF element may have without a warning.
ATTRIBUTES = {tag: frozenset(names + _EXTENSION_ATTRIBUTES.get(tag, ()))
              for tag, names in SPEC_ATTRIBUTES.items()}
#: Children each URDF element may have without a warning (none: a leaf).
CHILDREN = {tag: frozenset(_SPEC_CHILDREN.get(tag, ()) + _EXTENSION_CHILDREN.get(tag, ()))
            for tag in SPEC_ATTRIBUTES}


def report_unknown(v: ValueReader, element: etree._Element, entity: str | None,
                   tag: str) -> None:
    """
    Warn about the attributes, and for a leaf the children, that ``<tag>`` does not have.

    The reader calls it only when its quick test failed: a leaf with children, more
    attributes than the known ones it read, or ``ATTRIBUTES[tag].issuperset(element.keys())``
    false. It may find nothing to report (a required attribute missing, which the reader
    reports, or an extension).

    Parameters
    ----------
    v : ValueReader
        Receives the warnings (``unknown-name``).
    element : lxml.etree._Element
        A URDF element named ``tag``.
    entity : str or None
        Its link, joint or robot, for messages.
    tag : str
        Its name, a key of :data:`ATTRIBUTES`.

    """
    known = ATTRIBUTES[tag]
    required = REQUIRED.get(tag, ())
    for name, value in attribute_items(element):
        if name in known or name.startswith('{') or _silent(tag, name, value):
            continue
        match = nearest(name, known)
        if match in required and element.get(match) is None:
            continue  # the missing-attribute error names it (misspelt)
        hint = f"; did you mean '{match}'?" if match else ''
        v.warn(element, entity, f'unknown attribute {name!r} of <{tag}> is ignored{hint}',
               Code.UNKNOWN_NAME)
    if not CHILDREN[tag]:
        for child in element:
            report_unknown_child(v, child, entity, tag)


def check_leaf(v: ValueReader, elem: etree._Element, entity: str | None, tag: str) -> None:
    """
    Report the unknown attributes, and any child, of a URDF element that holds none.

    For the elements whose attributes are all required (:data:`REQUIRED_ONLY`), their count
    is enough: another count means an unknown name, or a missing one (the reader's error).
    """
    count = REQUIRED_ONLY.get(tag)
    if len(elem) or (len(elem.attrib) != count if count is not None else
                     not ATTRIBUTES[tag].issuperset(elem.keys())):
        report_unknown(v, elem, entity, tag)


def report_unknown_child(v: ValueReader, child: etree._Element, entity: str | None,
                         parent: str) -> None:
    """
    Warn about ``child`` unless ``<parent>`` may hold it (:data:`CHILDREN`) or it is namespaced.

    The reader calls it for the children its reading of ``<parent>`` did not take.
    """
    tag = child.tag
    if not isinstance(tag, str) or tag.startswith('{') or tag in CHILDREN[parent]:
        return
    known = CHILDREN[parent]
    if tag in SPEC_ATTRIBUTES.get(parent, ()):
        hint = f' (URDF gives {tag} as an attribute: <{parent} {tag}="..."/>)'
    elif tag in _SDFORMAT_HINTS:
        hint = _SDFORMAT_HINTS[tag]
    else:
        owners = [name for name, children in _SPEC_CHILDREN.items() if tag in children]
        match = nearest(tag, known) if not owners else None
        holder = child.getparent()
        assert holder is not None  # the reader met child among its parent's children
        if match is not None and match in required_children(holder, parent) \
                and holder.find(match) is None:
            return  # the missing-element error names it (misspelt)
        hint = f'; did you mean <{match}>?' if match else '' if not owners else \
            ' (URDF puts it in ' + ' or '.join(f'<{name}>' for name in owners) + ')'
    v.warn(child, entity, f'unknown element <{tag}> in <{parent}> is ignored{hint}',
           Code.UNKNOWN_NAME)


def required_children(element: etree._Element, tag: str) -> tuple[str, ...]:
    """Return the children ``element`` (a ``<tag>``) must have (:data:`REQUIRED_CHILDREN`)."""
    if tag == 'joint' and element.get('type', '').strip() in ('revolute', 'prismatic'):
        return REQUIRED_CHILDREN['joint'] + ('limit',)
    return REQUIRED_CHILDREN.get(tag, ())


def misspelt(name: str, present: Iterable[object], known: Collection[str]) -> str | None:
    """
    Return the one of ``present`` that is a misspelling of the missing ``name``, or ``None``.

    That is a name ``known`` lacks whose nearest known name (:func:`nearest`) is ``name``:
    the name :func:`report_unknown` and :func:`report_unknown_child` would suggest for it.
    ``present`` are the attribute names, or the children's tags, of the element.
    """
    for other in present:
        if isinstance(other, str) and other not in known and not other.startswith('{') \
                and nearest(other, known) == name:
            return other
    return None


def nearest(name: str, known: Collection[str]) -> str | None:
    """Return the closest of ``known`` to ``name`` (``difflib``, or the same but for case)."""
    import difflib  # here: a command-line process that meets no unknown name never needs it

    match = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    if not match and name.lower() in {k.lower() for k in known}:
        match = [k for k in known if k.lower() == name.lower()]
    return match[0] if match else None


def _silent(tag: str, name: str, value: str) -> bool:
    """
    Return whether an attribute the element lacks says nothing, so need not be reported.

    ``<axis rpy="0 0 0">``: ROS's URDF tutorials (r2d2) wrote it and their copies keep it;
    a rotation that is not zero would be lost and is reported.
    """
    if tag != 'axis' or name != 'rpy':
        return False
    try:
        return [float(x) for x in value.split()] == [0.0, 0.0, 0.0]
    except ValueError:
        return False


class UrdfValues(ValueReader):
    """The strict value reader of URDF: a missing attribute or child names its misspelling."""

    __slots__ = ()

    def missing_attr(self, element: Node, entity: str | None, attr: str) -> None:
        """Record a missing required attribute, and the unknown one that is its typo."""
        assert isinstance(element, etree._Element)  # the URDF reader reads lxml's tree
        tag = element.tag
        present = [name for name, _ in attribute_items(element)]
        typo = misspelt(attr, present, ATTRIBUTES[tag]) if tag in ATTRIBUTES else None
        hint = f'; did you mean {attr!r} for {typo!r}?' if typo is not None else ''
        self.error(element, entity, f'<{tag}> is missing required attribute {attr!r}{hint}',
                   Code.MISSING_ATTRIBUTE)

    def missing_child(self, element: etree._Element, entity: str | None, tag: str,
                      message: str) -> None:
        """Record a missing required child, and the unknown one that is its typo (its line)."""
        typo = misspelt(tag, (c.tag for c in element), CHILDREN[element.tag])
        places: tuple[SourceLocation, ...] = ()
        if typo is not None:
            message += f'; did you mean <{tag}> for <{typo}>?'
            found = element.find(typo)
            assert found is not None  # typo is the tag of one of element's children
            places = (self.loc(found),)
        self.reporter.error(message, self.loc(element), entity, Code.MISSING_ELEMENT, places)
