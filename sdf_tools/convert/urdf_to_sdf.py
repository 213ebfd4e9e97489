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
URDF (with ``<gazebo>`` extensions) to SDFormat, the way libsdformat's ``gz sdf -p`` does it.

The pipeline follows libsdformat's URDF parser step by step, so that the output has the same
elements, names and order:

1. every ``<gazebo>`` block becomes an :class:`~sdf_tools.convert.gazebo_ext.Extension`;
2. fixed joints are *lumped* depth first (children in joint-name order): the child's mass
   properties, visuals, collisions, extensions and child joints move into the parent, and a
   ``<frame>`` is recorded for the removed joint and link;
3. links are written depth first from the root, each preceded by its parent joint;
4. model-level extensions, the lumping frames and the ``<robot><origin>`` pose come last.

Where libsdformat is documented to be wrong, this converter is right instead (each case is
covered by a test and listed in the README):

* extensions reach the link's named visuals and collisions, and those lumped from a child
  (libsdformat matches them by generated names, which named elements do not have);
* floating and planar joints, which SDFormat cannot express, leave a free link posed at the
  joint origin instead of a link whose ``relative_to`` names a missing joint;
* links without mass are kept with a small placeholder inertial, with a warning, instead of
  being dropped silently together with everything below them;
* lumping two massless links gives a massless result, not a 0/0 (NaN) centre of mass;
* a ``<collision>`` blob with a ``<surface>`` never leaves values in a replaced surface;
* ``<static>`` is written only when given;
* a joint that shares its name with a link is renamed (``<name>_joint``), with a warning;
* orientations are printed exactly (urdfdom's ``getRPY`` snaps pitch near +-pi/2 by up to
  4.5e-3 rad), with full precision (not 6 digits), and lumped ``<light>`` poses, plugin
  offsets, joint blobs and contact-sensor collision names follow the lumping exactly.
"""

from dataclasses import dataclass
from dataclasses import field
import math

from lxml import etree

from sdf_tools import inertia
from sdf_tools.convert import gazebo_ext
from sdf_tools.errors import Code
from sdf_tools.errors import ConversionError
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.files.xml_source import DCOLON
from sdf_tools.files.xml_source import first_child
from sdf_tools.files.xml_source import to_string
from sdf_tools.files.xml_source import ValueReader
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.formats.sdf.values import pose_value
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.formats.sdf.versions import MIMIC_VERSION
from sdf_tools.formats.sdf.versions import version_tuple
from sdf_tools.formatting import fmt
from sdf_tools.formatting import fmt_pose
from sdf_tools.formatting import fmt_vec
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import IDENTITY
from sdf_tools.model import JointType
from sdf_tools.model import Mesh
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.model import Sphere
from sdf_tools.topology import WORLD
from sdf_tools.transforms import IDENTITY_QUAT

LUMP = '_fixed_joint_lump__'
_ZERO_INERTIA = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
#: ``<gz::corrected_offsets>`` (``::`` is held as DCOLON while the tree is in lxml).
_CORRECTED_OFFSETS = f'gz{DCOLON}corrected_offsets'


@dataclass(frozen=True)
class ConversionOptions:
    """
    Options of :func:`urdf_to_sdf`.

    Attributes
    ----------
    preserve_fixed_joints : bool
        Keep every fixed joint (libsdformat ``ParserConfig::URDFPreserveFixedJoint``); by
        default fixed joints are lumped unless ``<preserveFixedJoint>`` or
        ``<disableFixedJointLumping>`` is set for them.
    sdf_version : str
        ``'1.9'`` (what libsdformat 12 writes), ``'1.10'`` or ``'1.11'`` (adds ``<mimic>``).
    massless_mass : float
        Mass (kg) of the placeholder inertial given to links without mass.
    massless_inertia : float
        Principal moments (kg m^2) of that placeholder.

    """

    preserve_fixed_joints: bool = False
    sdf_version: str = '1.9'
    massless_mass: float = 1e-3
    massless_inertia: float = 1e-6


@dataclass(frozen=True)
class ConversionResult:
    """
    What :func:`urdf_to_sdf` produced.

    Attributes
    ----------
    sdf : str
        The SDFormat document.
    warnings : tuple of Diagnostic
        Everything worth telling the user, with file:line where known.
    renamed_joints : dict
        URDF joint name -> its different name in the SDFormat output (name clashes).
    renamed_frames : dict
        Lumped joint or link name -> the different name of the ``<frame>`` kept for it.

    """

    sdf: str
    warnings: tuple[Diagnostic, ...] = ()
    renamed_joints: dict = field(default_factory=dict)
    renamed_frames: dict = field(default_factory=dict)


def urdf_to_sdf(robot: Robot, options: ConversionOptions | None = None) -> ConversionResult:
    """
    Convert a URDF model (with its ``<gazebo>`` extensions) to SDFormat text.

    Parameters
    ----------
    robot : Robot
        Read by :func:`sdf_tools.formats.urdf.reader.parse_urdf`.
    options : ConversionOptions, optional
        Conversion switches.

    Returns
    -------
    ConversionResult

    Raises
    ------
    DescriptionError
        A ``<gazebo>`` value is malformed (e.g. a non-numeric ``<mu1>``).
    ConversionError
        The options are invalid.

    """
    options = options or ConversionOptions()
    if options.sdf_version not in CONVERTIBLE_VERSIONS:
        raise ConversionError(Diagnostic(
            f'SDFormat version {options.sdf_version!r} is not supported (choose one of '
            + ', '.join(CONVERTIBLE_VERSIONS) + ')', code=Code.BAD_OPTION))
    for name in ('massless_mass', 'massless_inertia'):
        value = getattr(options, name)
        if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
            raise ConversionError(Diagnostic(f'{name} must be a finite number greater than 0, '
                                             f'got {value!r}', code=Code.BAD_OPTION))
    return _Converter(robot, options).run()


class _Elem:
    """A visual or collision on its way through lumping."""

    __slots__ = ('model', 'name', 'origin', 'source_link', 'unlumped_name')

    def __init__(self, model, source_link, index, suffix):
        self.model = model
        self.name = model.name or ''
        self.origin = model.origin
        self.source_link = source_link
        self.unlumped_name = _element_name(self.name, source_link, index, suffix)


class _Link:
    """A link on its way through lumping."""

    __slots__ = ('model', 'name', 'mass', 'visuals', 'collisions', 'parent_joint',
                 'children', 'lumped')

    def __init__(self, model):
        self.model = model
        self.name = model.name
        inertial = model.inertial
        self.mass = None
        if inertial is not None:
            self.mass = (inertial.mass, inertial.origin.xyz, inertial.origin.quat,
                         (inertial.ixx, inertial.ixy, inertial.ixz,
                          inertial.iyy, inertial.iyz, inertial.izz))
        self.visuals = [_Elem(v, model.name, i, '_visual') for i, v in enumerate(model.visuals)]
        self.collisions = [_Elem(c, model.name, i, '_collision')
                           for i, c in enumerate(model.collisions)]
        self.parent_joint = None
        self.children = []
        self.lumped = False


class _Joint:
    """A joint on its way through lumping (its parent and origin change when re-parented)."""

    __slots__ = ('model', 'name', 'parent', 'child', 'origin', 'reducible', 'sdf_name')

    def __init__(self, model, reducible):
        self.model = model
        self.name = model.name
        self.parent = model.parent
        self.child = model.child
        self.origin = model.origin
        self.reducible = reducible
        self.sdf_name = model.name


def _element_name(name, link_name, index, suffix):
    """Return libsdformat's SDF name for the ``index``-th visual/collision of a link."""
    base = (name or link_name) + suffix
    if index:
        base = f'{base}_{index}'
    return base if base.startswith(link_name) else link_name + LUMP + base


def _unique(name, taken, suffix):
    if name not in taken:
        return name
    candidate = name + suffix
    n = 2
    while candidate in taken:
        candidate = f'{name}{suffix}_{n}'
        n += 1
    return candidate


class _Converter:
    """One conversion: working copies of links, joints and extensions, then the document."""

    def __init__(self, robot: Robot, options: ConversionOptions):
        self.robot = robot
        self.options = options
        self.reporter = Reporter()
        self.values = ValueReader(robot.source, self.reporter)
        self.links: dict[str, _Link] = {}
        self.joints: dict[str, _Joint] = {}
        self.model_exts = []
        self.all_exts = []
        self.on_link: dict[str, list] = {}
        self.by_ref: dict[str, list] = {}
        self.frames = []  # (name, attached_to, pose or None, location), lumping order
        self.link_refs = {}
        self.frame_refs = []  # (element, merged link) whose relative_to names its <frame>
        self.disable = set()

    # --- diagnostics --------------------------------------------------------------------

    def warn(self, message, location=None, entity=None, code=Code.WARNING):
        self.reporter.warn(message, location, entity, code)

    def _overwrite_warner(self, entity, location):
        def on_overwrite(key, old, new):
            self.warn(f'<{key}> is set more than once; {old!r} is replaced by {new!r}',
                      location, entity, Code.OVERWRITE)
        return on_overwrite

    # --- pipeline -----------------------------------------------------------------------

    def run(self) -> ConversionResult:
        robot = self.robot
        self._parse_extensions()
        preserve = {e.ref for e in self.all_exts if e.preserve}
        disable = {e.ref for e in self.all_exts if e.disable_lumping} - preserve
        self.disable = disable
        for link in robot.links:
            self.links[link.name] = _Link(link)
        for joint in robot.joints:
            reducible = (joint.kind is JointType.FIXED and not self.options.preserve_fixed_joints
                         and joint.name not in preserve and joint.name not in disable)
            self.joints[joint.name] = _Joint(joint, reducible)
        for name, joints in robot.index.child_joints.items():
            if name in self.links:
                self.links[name].children = [self.joints[j.name] for j in joints]
        for joint in self.joints.values():
            if joint.child in self.links:
                self.links[joint.child].parent_joint = joint
        self._check_references()

        root = self.links[robot.index.roots[0]]
        self.link_refs = self._index_link_refs()
        self._lump(root)
        renamed_joints, renamed_frames = self._resolve_names()
        self._check_sdf_names(root)
        for element, link_name in self.frame_refs:
            element.set('relative_to', renamed_frames.get(link_name, link_name))

        sdf = etree.Element('sdf', version=self.options.sdf_version)
        model = etree.SubElement(sdf, 'model', name=robot.name)
        if root.name == WORLD:
            for joint in root.children:
                self._emit(model, self.links[joint.child])
        else:
            self._emit(model, root)
        gazebo_ext.apply_model(model, self.model_exts,
                               self._overwrite_warner(f"robot '{robot.name}'", None))
        for joint in model.iterchildren('joint'):
            _complete_joint_defaults(joint)
        for name, attached_to, pose, _ in self.frames:
            frame = etree.SubElement(model, 'frame', name=name, attached_to=attached_to)
            if pose is not None:
                etree.SubElement(frame, 'pose').text = fmt_pose(pose.xyz, pose.quat)
        if robot.origin is not None:
            etree.SubElement(model, 'pose').text = fmt_pose(robot.origin.xyz,
                                                            robot.origin.quat)
        text = to_string(sdf)
        if 'inf' in text or 'nan' in text:  # fmt writes these; names rarely hold them
            self._check_poses_finite(model)
        self.reporter.raise_if_errors()
        return ConversionResult(text, tuple(self.reporter.warnings), renamed_joints,
                                renamed_frames)

    def _parse_extensions(self):
        def warn(element, message, code):
            self.warn(message, self.values.loc(element), None, code)

        for block in self.robot.gazebo:
            if not any(isinstance(e.tag, str) for e in block.elements):
                continue  # an empty block configures nothing (and creates no <surface>)
            ext = gazebo_ext.parse_extension(block, self.values, warn)
            self.all_exts.append(ext)
            if ext.ref:
                self.by_ref.setdefault(ext.ref, []).append(ext)
                self.on_link.setdefault(ext.ref, []).append(ext)
            else:
                self.model_exts.append(ext)
        self.reporter.raise_if_errors()

    def _check_references(self):
        """Warn about references that name nothing and tags that have no effect where used."""
        for ext in self.all_exts:
            where = f"<gazebo reference='{ext.ref}'>" if ext.ref else '<gazebo>'
            is_link = ext.ref in self.links
            is_joint = ext.ref in self.joints
            if ext.ref and not is_link and not is_joint:
                self.warn(f'reference {ext.ref!r} names no link or joint; the block is '
                          'ignored', ext.location, where, Code.UNKNOWN_REFERENCE)
                continue
            allowed = set(gazebo_ext.IGNORED_TAGS)
            if not ext.ref:
                allowed |= gazebo_ext.MODEL_TAGS
            if is_link:
                allowed |= gazebo_ext.LINK_TAGS
            if is_joint:
                allowed |= gazebo_ext.JOINT_TAGS
            for tag, element in ext.tags:
                if tag not in allowed:
                    kind = 'model' if not ext.ref else ('link' if is_link else 'joint')
                    self.warn(f'<{tag}> has no effect in a {kind}-level block and is dropped',
                              self.values.loc(element), where, Code.NO_EFFECT)
            if is_joint and not is_link and self._merged(self.joints[ext.ref]):
                self.warn(f'joint {ext.ref!r} is fixed and is merged into its parent by '
                          'fixed-joint lumping, so this block has no effect (set '
                          '<preserveFixedJoint> to keep the joint)', ext.location, where,
                          Code.NO_EFFECT)
            if is_link and is_joint and (ext.blobs and ext.has_joint_settings()):
                self.warn(f'{ext.ref!r} names both a link and a joint: its elements go to the '
                          'link, its joint settings to the joint', ext.location, where,
                          Code.AMBIGUOUS_REFERENCE)

    # --- fixed-joint lumping ------------------------------------------------------------

    def _check_poses_finite(self, model):
        """Report poses that composing made non-finite (libsdformat refuses the file)."""
        for pose in model.iter('pose'):
            words = (pose.text or '').split()
            if not any(w.lower().lstrip('+-') in ('inf', 'infinity', 'nan') for w in words):
                continue
            named = next((e for e in pose.iterancestors() if e.get('name')), None)
            entity = location = None
            if named is not None:
                entity = f"{named.tag} '{named.get('name')}'"
                item = {'link': self.links, 'joint': self.joints}.get(
                    named.tag, {}).get(named.get('name'))
                location = item.model.location if item is not None else None
            self.reporter.error(f'a <pose> of its <{pose.getparent().tag}> is not finite '
                                f'({pose.text}): the joint origins composed by fixed-joint '
                                'lumping are too large', location, entity, Code.BAD_NUMBER)

    def _merged(self, joint):
        """Return whether ``joint`` disappears into its parent link."""
        return joint is not None and joint.reducible and joint.parent != WORLD

    def _preorder(self, root):
        """Return every link below ``root`` (inclusive), children in joint-name order."""
        order = []
        stack = [root]
        while stack:
            link = stack.pop()
            order.append(link)
            stack.extend(self.links[j.child] for j in reversed(link.children))
        return order

    def _merge_events(self, root):
        """
        Return the merged links in the order libsdformat merges them.

        libsdformat's recursive reduction first reduces a link's fixed children, then merges
        the link into its parent, then reduces its other children: a post-order over fixed
        joints. Iterative, so trees of any depth work.
        """
        events = []
        stack = [(root, False)]
        while stack:
            link, done = stack.pop()
            if done:
                if self._merged(link.parent_joint):
                    events.append(link)
                stack.extend((self.links[j.child], False)
                             for j in reversed(link.children) if not j.reducible)
                continue
            stack.append((link, True))
            stack.extend((self.links[j.child], False)
                         for j in reversed(link.children) if j.reducible)
        return events

    def _lump(self, root):
        """
        Merge every link attached by a reducible fixed joint into the kept link above it.

        One pass in linear time: each merged link M gets its kept ancestor K and the pose
        ``X_KM``; its visuals, collisions, extensions and other child joints move to K in
        the order libsdformat's repeated one-level merges produce (a pre-order walk).
        """
        keep_of, x_of = {}, {}
        for link in self._preorder(root):
            joint = link.parent_joint
            if not self._merged(joint):
                continue
            parent = self.links[joint.parent]
            keep_of[link.name] = keep_of.get(parent.name, parent)
            x_of[link.name] = x_of[parent.name].compose(joint.origin) \
                if parent.name in x_of else joint.origin
            self._absorb(keep_of[link.name], link, x_of[link.name])
        for link in self._merge_events(root):
            joint = link.parent_joint
            parent = self.links[joint.parent]
            self.frames.append((joint.name, parent.name, joint.origin, joint.model.location))
            self.frames.append((link.name, joint.name, None, link.model.location))
            if link.mass is not None:
                m, c, q, i = link.mass
                moved = joint.origin.compose(Pose(c, q))
                base = parent.mass or (0.0, (0.0, 0.0, 0.0), IDENTITY_QUAT, _ZERO_INERTIA)
                parent.mass = inertia.combine(base, (m, moved.xyz, moved.quat, i))
        for name, keep in keep_of.items():
            for blob in self.link_refs.pop(name, ()):
                self._rename_link_refs(blob, name, keep.name, x_of[name])

    def _absorb(self, keep, link, x_kl):
        """Move one merged link's content into its kept ancestor ``keep``."""
        link.lumped = True
        for elems, target in ((link.visuals, keep.visuals),
                              (link.collisions, keep.collisions)):
            for elem in elems:
                elem.origin = x_kl.compose(elem.origin)
                if not elem.name:
                    elem.name = link.name
                target.append(elem)
            elems.clear()
        moved = self.on_link.pop(link.name, [])
        for ext in moved:
            for blob in ext.blobs:
                if blob.tag in ('sensor', 'projector', 'light'):
                    self._reduce_blob_pose(blob, x_kl)
        self.on_link.setdefault(keep.name, []).extend(moved)
        for joint in link.children:
            if not joint.reducible:
                joint.origin = x_kl.compose(joint.origin)
                joint.parent = keep.name

    def _reduce_blob_pose(self, blob, x_kl):
        """Re-express a lumped sensor/projector/light pose in the kept link's frame."""
        pose_elem = blob.find('pose')
        pose = IDENTITY
        if pose_elem is not None:
            if pose_elem.get('relative_to'):
                return
            errors = len(self.values.reporter.errors)
            pose = pose_value(self.values, pose_elem, f'<{blob.tag}>')  # degrees, quat_xyzw
            if len(self.values.reporter.errors) > errors:
                return
            blob.remove(pose_elem)
        new = x_kl.compose(pose)
        etree.SubElement(blob, 'pose').text = fmt_pose(new.xyz, new.quat)

    def _index_link_refs(self):
        """Map link names to the extension blobs that mention them (plugins, joints, ...)."""
        refs = {}
        for ext in self.all_exts:
            for blob in ext.blobs:
                names = set()
                tag = blob.tag
                if tag == 'plugin':
                    for key in ('bodyName', 'frameName'):
                        elem = blob.find(key)
                        if elem is not None:
                            names.add(gazebo_ext.key_value(elem))
                    names.update((e.text or '').strip().partition('/')[0]
                                 for e in blob.findall('projector'))
                elif tag == 'joint':
                    names.update(gazebo_ext.key_value(e) for e in blob
                                 if e.tag in ('parent', 'child'))
                elif tag == 'gripper':
                    names.update(gazebo_ext.key_value(e) for e in blob
                                 if e.tag in ('gripper_link', 'palm_link'))
                elif tag == 'projector':
                    names.add((blob.text or '').strip().partition('/')[0])
                for name in names:
                    if name in self.links:
                        refs.setdefault(name, []).append(blob)
        return refs

    def _rename_link_refs(self, blob, old, new, x_kl):
        """Point one blob's references to the merged link ``old`` at ``new``."""
        tag = blob.tag
        if tag == 'plugin':
            self._rename_plugin(blob, old, new, x_kl)
        elif tag == 'joint':
            renamed_child = False
            for role in ('parent', 'child'):
                elem = blob.find(role)
                if elem is not None and gazebo_ext.key_value(elem) == old:
                    elem.text = new
                    renamed_child |= role == 'child'
            if renamed_child:
                # The joint frame defaults to the child link frame: keep it where it was by
                # resolving it against the <frame> recorded for the merged link.
                pose = blob.find('pose')
                if pose is None:
                    pose = etree.SubElement(blob, 'pose')
                    pose.text = '0 0 0 0 0 0'
                if not pose.get('relative_to'):
                    self.frame_refs.append((pose, old))
        elif tag == 'gripper':
            for elem in blob:
                if elem.tag in ('gripper_link', 'palm_link') and \
                        gazebo_ext.key_value(elem) == old:
                    elem.text = new
        elif tag == 'projector':
            _rename_projector_ref(blob, old, new)

    def _rename_plugin(self, plugin, old, new, x_kl):
        renamed = False
        for key in ('bodyName', 'frameName'):
            elem = plugin.find(key)
            if elem is not None and gazebo_ext.key_value(elem) == old:
                plugin.remove(elem)
                etree.SubElement(plugin, key).text = new
                renamed = True
        for elem in plugin.findall('projector'):
            _rename_projector_ref(elem, old, new)
        if not renamed:
            return
        xyz, rpy = (0.0, 0.0, 0.0), (0.0, 0.0, 0.0)
        for key in ('xyzOffset', 'rpyOffset'):
            elem = plugin.find(key)
            if elem is not None:
                values = self.values.vector(elem, None, f'<plugin> <{key}>',
                                            gazebo_ext.key_value(elem), 3)
                if values is not None:
                    if key == 'xyzOffset':
                        xyz = values
                    else:
                        rpy = values
                plugin.remove(elem)
        for elem in plugin.findall(_CORRECTED_OFFSETS):
            plugin.remove(elem)
        # The offsets were relative to the merged link: compose once with its pose in the
        # new link (libsdformat composes twice when both names match, and starts from the
        # joint pose instead of identity when no offset was given).
        offset = x_kl.compose(Pose.from_rpy(xyz, rpy))
        etree.SubElement(plugin, 'xyzOffset').text = fmt_vec(offset.xyz)
        etree.SubElement(plugin, 'rpyOffset').text = fmt_vec(offset.rpy)
        etree.SubElement(plugin, _CORRECTED_OFFSETS).text = '1'

    # --- names --------------------------------------------------------------------------

    def _resolve_names(self):
        """Give joints and lumping frames names distinct from links and from each other."""
        taken = {name for name, link in self.links.items()
                 if not link.lumped and name != WORLD}
        # Names that model-level blobs declare (e.g. extra <joint>s) are the user's own SDF:
        # they keep their names and URDF-derived elements give way.
        for ext in self.model_exts:
            for blob in ext.blobs:
                if blob.tag in ('joint', 'link', 'frame', 'model') and blob.get('name'):
                    taken.add(blob.get('name'))
        renamed_joints, renamed_frames = {}, {}
        for joint in self.joints.values():
            if self._merged(joint):
                continue
            joint.sdf_name = _unique(joint.name, taken, '_joint')
            taken.add(joint.sdf_name)
            if joint.sdf_name != joint.name:
                renamed_joints[joint.name] = joint.sdf_name
                what = 'a link' if joint.name in self.links else 'an element of a <gazebo> block'
                self.warn(f'has the same name as {what}; SDFormat needs distinct names (and '
                          f"Gazebo's physics drops such joints), so it is written as "
                          f'{joint.sdf_name!r}', joint.model.location,
                          f"joint '{joint.name}'", Code.RENAMED)
        # Each merged joint leaves a frame attached to its parent link (itself maybe a
        # frame), and each merged link a frame attached to that joint frame.
        joint_frames, link_frames = {}, {}
        named = []
        for index, (name, attached_to, pose, location) in enumerate(self.frames):
            new = _unique(name, taken, '_frame')
            taken.add(new)
            (link_frames if pose is None else joint_frames)[name] = new
            if new != name:
                renamed_frames[name] = new
                self.warn(f'the <frame> kept for merged {name!r} is named {new!r}: the name '
                          'is taken', location, None, Code.RENAMED)
            named.append(new)
        frames = []
        for new, (name, attached_to, pose, location) in zip(named, self.frames):
            if pose is None:  # link frame, attached to its joint frame
                attached = joint_frames.get(attached_to, attached_to)
            else:  # joint frame, attached to a kept link or a merged link's frame
                attached = link_frames.get(attached_to, attached_to)
            frames.append((new, attached, pose, location))
        self.frames = frames
        return renamed_joints, renamed_frames

    def _check_sdf_names(self, root):
        """Refuse names SDFormat reserves or reads as scopes, and a model with no link."""
        problems = []

        def check(name, what, entity, location):
            problem = sdf_names.name_problem(name, what, version_tuple(self.options.sdf_version))
            if problem is not None:
                problems.append(Diagnostic(problem, location, entity, code=Code.BAD_NAME))

        check(self.robot.name, 'model name', f"robot '{self.robot.name}'", self.robot.location)
        kept = [link for link in self.links.values()
                if not link.lumped and not (link is root and link.name == WORLD)]
        for link in kept:
            check(link.name, 'link name', f"link '{link.name}'", link.model.location)
        for joint in self.joints.values():
            if not self._merged(joint):
                check(joint.sdf_name, 'joint name', f"joint '{joint.name}'",
                      joint.model.location)
        for name, _, _, location in self.frames:
            check(name, 'frame name', f"frame '{name}'", location)
        static = any(ext.static for ext in self.model_exts)
        if not kept and not static:
            problems.append(Diagnostic(
                "the robot has no link besides 'world': an SDFormat model needs at least one "
                'link (or <static>true</static> in a <gazebo> block)', self.robot.location,
                f"robot '{self.robot.name}'", code=Code.NO_LINKS))
        if problems:
            raise ConversionError(problems)

    # --- emission -----------------------------------------------------------------------

    def _emit(self, model, link):
        """Write ``link`` and everything below it, depth first, joints before their links."""
        for each in self._preorder(link):
            if not self._merged(each.parent_joint):
                self._create_link(model, each)

    def _create_link(self, model, link):
        joint = link.parent_joint
        element = etree.Element('link', name=link.name)
        if joint is not None:
            pose = etree.SubElement(element, 'pose')
            if joint.model.kind in (JointType.FLOATING, JointType.PLANAR):
                if joint.parent != WORLD:
                    pose.set('relative_to', joint.parent)
                pose.text = fmt_pose(joint.origin.xyz, joint.origin.quat)
            else:
                pose.set('relative_to', joint.sdf_name)
                pose.text = '0 0 0 0 0 0'
        self._create_inertial(element, link)
        exts = self.on_link.get(link.name, ())
        entity = f"link '{link.name}'"
        on_overwrite = self._overwrite_warner(entity, link.model.location)
        names = {}
        for index, elem in enumerate(link.collisions):
            sdf_name = _element_name(elem.name, link.name, index, '_collision')
            names.setdefault(elem.source_link, {})[elem.unlumped_name] = sdf_name
            collision = self._create_shape(element, 'collision', sdf_name, elem)
            gazebo_ext.apply_collision(collision, self._targeting(exts, link, elem, sdf_name,
                                                                  '_collision'), on_overwrite)
        for index, elem in enumerate(link.visuals):
            sdf_name = _element_name(elem.name, link.name, index, '_visual')
            visual = self._create_shape(element, 'visual', sdf_name, elem)
            gazebo_ext.apply_visual(visual, self._targeting(exts, link, elem, sdf_name,
                                                            '_visual'), on_overwrite)
            self._urdf_material(visual, elem.model.material)

        def rename_contacts(ext, blob):
            mapping = names.get(ext.ref)
            if mapping and blob.tag == 'sensor' and ext.ref != link.name:
                for collision in blob.iterfind('contact/collision'):
                    text = gazebo_ext.key_value(collision)
                    if text in mapping:
                        collision.text = mapping[text]

        gazebo_ext.apply_link(element, exts, on_overwrite, rename_contacts)
        if joint is not None:
            self._create_joint(model, link, joint)
        model.append(element)

    def _targeting(self, exts, link, elem, sdf_name, suffix):
        """
        Return the extensions that configure one visual or collision.

        An extension configures the elements that came from the link it references, named or
        not. libsdformat decides by the generated SDF name instead; where that would also
        reach this element, say so, since a model tuned under Gazebo may rely on it.
        """
        mine = [e for e in exts if e.ref == elem.source_link]
        for ext in exts:
            if ext in mine:
                continue
            by_name = (LUMP not in sdf_name if ext.ref == link.name
                       else f'{LUMP}{ext.ref}{suffix}' in sdf_name)
            if by_name and (ext.visual_blobs or ext.material if suffix == '_visual'
                            else ext.collision_blobs or _has_surface_settings(ext)):
                kind = suffix[1:]
                self.warn(f'configures the {kind}s of link {ext.ref!r}; {kind} {sdf_name!r} '
                          f'came from link {elem.source_link!r}, so it is left alone '
                          '(libsdformat applies the block to it because of how its name '
                          'reads)', ext.location,
                          f"<gazebo reference='{ext.ref}'>", Code.EXTENSION_TARGET)
        return mine

    def _create_inertial(self, element, link):
        mass = link.mass
        if mass is None or not mass[0] > 0.0:
            placeholder = self.options.massless_mass
            moment = self.options.massless_inertia
            what = ('has no <inertial>' if mass is None else
                    f'has mass {mass[0]:g}, which is not positive')
            below = len(link.children)
            self.warn(f'{what}; it is written with a placeholder inertial (mass {placeholder:g}'
                      f' kg, inertia {moment:g} kg m^2) so that it and the {below} joint(s) '
                      'below it stay in the model (libsdformat drops them all)',
                      link.model.location, f"link '{link.name}'", Code.MASSLESS_LINK)
            origin = (mass[1], mass[2]) if mass is not None else ((0.0, 0.0, 0.0),
                                                                  IDENTITY_QUAT)
            mass = (placeholder, origin[0], origin[1], (moment, 0.0, 0.0, moment, 0.0, moment))
        m, com, quat, values = mass
        if not all(map(math.isfinite, (m, *com, *quat, *values))):
            raise DescriptionError(Diagnostic(
                'its mass properties, with the links merged into it by fixed-joint lumping, '
                'are not finite (joint origins or inertias too large)', link.model.location,
                f"link '{link.name}'", code=Code.BAD_NUMBER))
        moments = inertia.principal_moments(values)
        invalid = not inertia.is_physical(values, moments=moments)
        if invalid or inertia.is_degenerate(m, values, moments):
            floor = m * inertia.MIN_GYRATION_RADIUS ** 2
            fixed = inertia.nearest_physical(values, floor)
            old = ', '.join(f'{v:.6g}' for v in moments)
            new = ', '.join(f'{v:.6g}' for v in inertia.principal_moments(fixed))
            why = ('is not one a rigid body can have (negative, or violating the triangle '
                   'inequality), which libsdformat and Gazebo reject' if invalid else
                   'leaves a body with mass free to spin without resistance, which physics '
                   'engines cannot simulate (DART aborts)')
            self.warn(f'<inertia> (principal moments {old}) {why}; it is written as the '
                      f'nearest valid one whose radius of gyration is at least '
                      f'{inertia.MIN_GYRATION_RADIUS * 1e3:g} mm ({new})',
                      link.model.location, f"link '{link.name}'", Code.BAD_INERTIA)
            values = fixed
        inertial = etree.SubElement(element, 'inertial')
        etree.SubElement(inertial, 'pose').text = fmt_pose(com, quat)
        etree.SubElement(inertial, 'mass').text = fmt(m)
        tensor = etree.SubElement(inertial, 'inertia')
        for key, value in zip(('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz'), values):
            etree.SubElement(tensor, key).text = fmt(value)

    def _create_shape(self, parent, tag, name, elem):
        element = etree.SubElement(parent, tag, name=name)
        etree.SubElement(element, 'pose').text = fmt_pose(elem.origin.xyz, elem.origin.quat)
        geometry = elem.model.geometry
        if geometry is not None:
            shape = _geometry(geometry)
            if shape is not None:
                etree.SubElement(element, 'geometry').append(shape)
        return element

    def _urdf_material(self, visual, material):
        """Add the URDF colour unless an extension already gave diffuse or ambient."""
        if material is None:
            return
        mat = first_child(visual, 'material')
        if mat is None:
            mat = etree.SubElement(visual, 'material')
        if first_child(mat, 'diffuse') is not None or first_child(mat, 'ambient') is not None:
            return
        r, g, b, a = material.rgba if material.rgba is not None else (0.0, 0.0, 0.0, 1.0)
        color = fmt_vec((_clamp01(r / 0.8), _clamp01(g / 0.8), _clamp01(b / 0.8), a))
        gazebo_ext.add_key_value(mat, 'diffuse', color)
        gazebo_ext.add_key_value(mat, 'ambient', color)

    def _create_joint(self, model, link, joint):
        urdf = joint.model
        kind = urdf.kind
        entity = f"joint '{joint.name}'"
        if kind in (JointType.FLOATING, JointType.PLANAR):
            self.warn(f'SDFormat has no {kind.value} joint: link {link.name!r} is written as a '
                      'free body posed at the joint origin (libsdformat writes a link posed '
                      'relative to a joint that does not exist, which fails to load)',
                      urdf.location, entity, Code.NO_SDF_EQUIVALENT)
            return
        disabled = kind is JointType.FIXED and joint.name in self.disable
        if kind in (JointType.REVOLUTE, JointType.CONTINUOUS) or disabled:
            sdf_type = 'revolute'
        else:
            sdf_type = kind.value
        element = etree.SubElement(model, 'joint', name=joint.sdf_name, type=sdf_type)
        pose = etree.SubElement(element, 'pose',
                                relative_to='__model__' if joint.parent == WORLD
                                else joint.parent)
        pose.text = fmt_pose(joint.origin.xyz, joint.origin.quat)
        etree.SubElement(element, 'parent').text = joint.parent
        etree.SubElement(element, 'child').text = link.name
        if disabled:
            axis = etree.SubElement(element, 'axis')
            limit = etree.SubElement(axis, 'limit')
            etree.SubElement(limit, 'lower').text = '0'
            etree.SubElement(limit, 'upper').text = '0'
            dynamics = etree.SubElement(axis, 'dynamics')
            etree.SubElement(dynamics, 'damping').text = '0'
            etree.SubElement(dynamics, 'friction').text = '0'
        elif kind is not JointType.FIXED:
            axis = etree.SubElement(element, 'axis')
            etree.SubElement(axis, 'xyz').text = fmt_vec(urdf.axis)
            if urdf.mimic is not None and self.options.sdf_version == MIMIC_VERSION:
                self._create_mimic(axis, urdf, entity)
            elif urdf.mimic is not None:
                self.warn(f'<mimic> is left out: SDFormat {self.options.sdf_version} has no '
                          'mimic joints (1.11 has; libsdformat 12 drops it too), so the '
                          'simulator moves this joint on its own', urdf.location, entity,
                          Code.MIMIC_DROPPED)
            limit = etree.SubElement(axis, 'limit')
            if urdf.limit is not None:
                lower, upper = urdf.limit.lower, urdf.limit.upper
                if kind is not JointType.CONTINUOUS:
                    if lower > upper:
                        self.warn(f'<limit> lower {fmt(lower)} is greater than upper '
                                  f'{fmt(upper)}; the two are swapped', urdf.location, entity,
                                  Code.SWAPPED_LIMITS)
                        lower, upper = upper, lower
                    etree.SubElement(limit, 'lower').text = fmt(lower)
                    etree.SubElement(limit, 'upper').text = fmt(upper)
                etree.SubElement(limit, 'effort').text = fmt(urdf.limit.effort)
                etree.SubElement(limit, 'velocity').text = fmt(urdf.limit.velocity)
            dynamics = etree.SubElement(axis, 'dynamics')
            if urdf.dynamics is not None:
                etree.SubElement(dynamics, 'damping').text = fmt(urdf.dynamics.damping)
                etree.SubElement(dynamics, 'friction').text = fmt(urdf.dynamics.friction)
        exts = self.by_ref.get(joint.name, ())
        if exts:
            shared = joint.name in self.links
            if shared:
                exts = [e for e in exts if e.has_joint_settings()]
            gazebo_ext.apply_joint(element, exts,
                                   self._overwrite_warner(entity, urdf.location),
                                   with_blobs=not shared)

    def _create_mimic(self, axis, urdf, entity):
        source = self.joints.get(urdf.mimic.joint)
        if source is None or self._merged(source):
            self.warn(f'<mimic> joint {urdf.mimic.joint!r} is not in the SDFormat model; the '
                      'mimic constraint is left out', urdf.location, entity, Code.MIMIC_DROPPED)
            return
        mimic = etree.SubElement(axis, 'mimic', joint=source.sdf_name)
        etree.SubElement(mimic, 'multiplier').text = fmt(urdf.mimic.multiplier)
        etree.SubElement(mimic, 'offset').text = fmt(urdf.mimic.offset)
        etree.SubElement(mimic, 'reference').text = '0'


def _has_surface_settings(ext):
    return any(getattr(ext, name) is not None for name in (
        'mu1', 'mu2', 'fdir1', 'kp', 'kd', 'max_vel', 'min_depth', 'laser_retro',
        'max_contacts'))


def _rename_projector_ref(element, old, new):
    text = (element.text or '').strip()
    link, sep, rest = text.partition('/')
    if sep and link == old:
        element.text = f'{new}/{rest}'


def _clamp01(value):
    return min(max(value, 0.0), 1.0)


def _geometry(geometry):
    if isinstance(geometry, Box):
        shape = etree.Element('box')
        etree.SubElement(shape, 'size').text = fmt_vec(geometry.size)
    elif isinstance(geometry, Cylinder):
        shape = etree.Element('cylinder')
        etree.SubElement(shape, 'length').text = fmt(geometry.length)
        etree.SubElement(shape, 'radius').text = fmt(geometry.radius)
    elif isinstance(geometry, Sphere):
        shape = etree.Element('sphere')
        etree.SubElement(shape, 'radius').text = fmt(geometry.radius)
    elif isinstance(geometry, Mesh):
        shape = etree.Element('mesh')
        etree.SubElement(shape, 'scale').text = fmt_vec(geometry.scale or (1.0, 1.0, 1.0))
        # libsdformat replaces the first 'package://' wherever it occurs.
        etree.SubElement(shape, 'uri').text = geometry.filename.replace(
            'package://', 'model://', 1)
    elif isinstance(geometry, Capsule):
        shape = etree.Element('capsule')
        etree.SubElement(shape, 'radius').text = fmt(geometry.radius)
        etree.SubElement(shape, 'length').text = fmt(geometry.length)
    else:
        return None
    return shape


def _complete_joint_defaults(joint):
    """
    Add the required children SDFormat's schema fills in (what ``gz sdf -p`` prints).

    Only elements the converter itself created are completed, and missing children go last,
    as libsdformat's schema pass puts them.
    """
    children = _children_by_tag(joint)
    axis = children.get('axis')
    if axis is not None:
        in_axis = _fill(axis, (('xyz', '0 0 1'),))
        limit = in_axis.get('limit')
        _fill(limit if limit is not None else etree.SubElement(axis, 'limit'),
              (('lower', '-1e16'), ('upper', '1e16')))
        dynamics = in_axis.get('dynamics')
        if dynamics is not None:
            _fill(dynamics, (('spring_reference', '0'), ('spring_stiffness', '0')))
        mimic = in_axis.get('mimic')
        if mimic is not None:
            _fill(mimic, (('reference', '0'),))
    limit = first_child(first_child(children.get('physics'), 'ode'), 'limit')
    if limit is not None:
        _fill(limit, (('cfm', '0'), ('erp', '0.2')))


def _children_by_tag(parent) -> dict:
    """Return ``{tag: first child with that tag}`` of an element."""
    children = {}
    for child in parent:
        children.setdefault(child.tag, child)
    return children


def _fill(parent, defaults) -> dict:
    """
    Append each ``(tag, text)`` of ``defaults`` that ``parent`` lacks, in this order.

    Returns ``parent``'s children by tag as they were before.
    """
    children = _children_by_tag(parent)
    for tag, text in defaults:
        if tag not in children:
            etree.SubElement(parent, tag).text = text
    return children
