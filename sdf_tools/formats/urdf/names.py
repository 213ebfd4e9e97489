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

Not reported: names in an XML namespace (``xacro:``, ``drake:``, ...); what is inside
elements that other tools read (``<gazebo>``, ``<transmission>``, ...); and the extensions
published robots carry (:data:`_EXTENSION_ATTRIBUTES`, :data:`_EXTENSION_CHILDREN`, each with
who writes it), which no URDF reader uses and which lose nothing a URDF reader would keep.
"""

from sdf_tools.errors import Code

#: Attributes of the URDF elements (URDF XML specification; what urdfdom reads).
_SPEC_ATTRIBUTES = {
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
              for tag, names in _SPEC_ATTRIBUTES.items()}
#: Children each URDF element may have without a warning (none: a leaf).
CHILDREN = {tag: frozenset(_SPEC_CHILDREN.get(tag, ()) + _EXTENSION_CHILDREN.get(tag, ()))
            for tag in _SPEC_ATTRIBUTES}


def report_unknown(v, element, entity, tag: str) -> None:
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
    element : lxml element
        A URDF element named ``tag``.
    entity : str or None
        Its link, joint or robot, for messages.
    tag : str
        Its name, a key of :data:`ATTRIBUTES`.

    """
    known = ATTRIBUTES[tag]
    for name in element.keys():
        if name in known or name.startswith('{') or _silent(tag, name, element.get(name)):
            continue
        hint = _nearest(name, known, "'{}'")
        v.warn(element, entity, f'unknown attribute {name!r} of <{tag}> is ignored{hint}',
               Code.UNKNOWN_NAME)
    if not CHILDREN[tag]:
        for child in element:
            report_unknown_child(v, child, entity, tag)


def report_unknown_child(v, child, entity, parent: str) -> None:
    """
    Warn about ``child`` unless ``<parent>`` may hold it (:data:`CHILDREN`) or it is namespaced.

    The reader calls it for the children its reading of ``<parent>`` did not take.
    """
    tag = child.tag
    if not isinstance(tag, str) or tag.startswith('{') or tag in CHILDREN[parent]:
        return
    known = CHILDREN[parent]
    if tag in _SPEC_ATTRIBUTES.get(parent, ()):
        hint = f' (URDF gives {tag} as an attribute: <{parent} {tag}="..."/>)'
    elif tag in _SDFORMAT_HINTS:
        hint = _SDFORMAT_HINTS[tag]
    else:
        owners = [name for name, children in _SPEC_CHILDREN.items() if tag in children]
        hint = _nearest(tag, known, '<{}>') if not owners else \
            ' (URDF puts it in ' + ' or '.join(f'<{name}>' for name in owners) + ')'
    v.warn(child, entity, f'unknown element <{tag}> in <{parent}> is ignored{hint}',
           Code.UNKNOWN_NAME)


def _nearest(name: str, known, form: str) -> str:
    """Return ``'; did you mean ...?'`` with the closest of ``known``, or ``''``."""
    import difflib  # here: a command-line process that meets no unknown name never needs it

    match = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
    if not match and name.lower() in {k.lower() for k in known}:
        match = [k for k in known if k.lower() == name.lower()]
    return f'; did you mean {form.format(match[0])}?' if match else ''


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
