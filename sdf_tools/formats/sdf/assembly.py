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
The model's links, joints and frames, from a resolved :class:`~.frames.FrameGraph`.

Every pose is re-expressed the way :mod:`sdf_tools.model` keeps it:

* a pose inside a link (inertial, visual, collision) in the link frame; an
  ``<inertial auto="true">`` is computed from the collisions there (:mod:`.auto_inertial`);
* a link no joint attaches in the model frame (``Link.pose``);
* a joint's frame in its parent link frame (``Joint.origin``, ``X_PJ``; in the model frame
  when the parent is ``world``) and in its child link frame (``Joint.joint_in_child``,
  ``X_CJ``), its axes in the joint frame, normalised;
* a ``<frame>`` in the frame of the link it is attached to.

The parent and child of a joint are the links (bodies) its ``<parent>`` and ``<child>``
frames are attached to.
"""


from sdf_tools import transforms
from sdf_tools.errors import Code
from sdf_tools.formats.sdf import auto_inertial
from sdf_tools.formats.sdf.elements import Placed
from sdf_tools.formats.sdf.frames import FrameGraph
from sdf_tools.formats.sdf.frames import MODEL_FRAME
from sdf_tools.formats.sdf.frames import Vertex
from sdf_tools.formats.sdf.joints import AxisSpec
from sdf_tools.formats.sdf.joints import Z_AXIS
from sdf_tools.model import Dynamics
from sdf_tools.model import Frame
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Mimic
from sdf_tools.model import Pose
from sdf_tools.records import replace
from sdf_tools.topology import WORLD
from sdf_tools.transforms import Vec3
from sdf_tools.xmlio.parse import ValueReader


def links(graph: FrameGraph, v: ValueReader) -> list[Link]:
    """Return the model's links, in document order."""
    children = {child for _, child in graph.joint_links.values() if child is not None}
    child_links = {graph.body(c) for c in children}
    out = []
    for vertex in graph.order:
        if vertex.kind != 'link':
            continue
        spec = vertex.data
        entity = vertex.entity
        inertial = None
        visuals = tuple(replace(visual, origin=_in_link(graph, p, vertex, entity))
                        for visual, p in spec.visuals)
        collisions = tuple(replace(c, origin=_in_link(graph, p, vertex, entity))
                           for c, p in spec.collisions)
        if spec.inertial is not None:
            inertial, placed = spec.inertial
            inertial = replace(inertial, origin=_in_link(graph, placed, vertex, entity))
            if spec.auto is not None:   # computed from the collisions, placed in the link
                inertial = auto_inertial.resolve(spec.auto, collisions, inertial)
        pose = None
        if vertex.key not in child_links and graph.has_pose(vertex.key):
            pose = graph.in_model(vertex.key)
        out.append(Link(name=vertex.key, inertial=inertial, visuals=visuals,
                        collisions=collisions, location=v.loc(vertex.elem), pose=pose,
                        extras=spec.extras))
    return out


def _in_link(graph: FrameGraph, placed: Placed, link: Vertex, entity: str) -> Pose:
    """Return a pose written inside a link (a :class:`~.elements.Placed`) in the link frame."""
    if placed.rel_text is None:
        return placed.pose
    assert placed.elem is not None  # relative_to is read from it
    rel = graph.ref(link.scope, placed.rel_text, placed.elem, entity, '<pose> relative_to')
    if rel is None:
        return placed.pose
    x_lr = graph.relative(rel, link.key)
    return placed.pose if x_lr is None else x_lr.compose(placed.pose)


def joints(graph: FrameGraph, v: ValueReader, version: tuple) -> list[Joint]:
    """Return the model's joints, in document order (those that resolve)."""
    out = []
    for vertex in graph.order:
        if vertex.kind != 'joint' or vertex.data is None:
            continue
        joint = _joint(graph, v, version, vertex)
        if joint is not None:
            out.append(joint)
    return out


def _joint(graph: FrameGraph, v: ValueReader, version: tuple, vertex: Vertex) -> Joint | None:
    spec = vertex.data
    entity = vertex.entity
    parent_key, child_key = graph.joint_links.get(vertex.key, (None, None))
    if parent_key is None or child_key is None:
        return None
    child = graph.body(child_key)
    if child is None:
        v.error(spec.child_elem, entity, f'<child> {spec.child!r} is not attached to any '
                'link', Code.MISSING_LINK)
        return None
    if parent_key == WORLD:
        parent, frame_of_parent = WORLD, MODEL_FRAME
    else:
        body = graph.body(parent_key)
        if body is None:
            v.error(spec.parent_elem, entity, f'<parent> {spec.parent!r} is not attached '
                    'to any link', Code.MISSING_LINK)
            return None
        parent = frame_of_parent = body
    x_pj = graph.relative(vertex.key, frame_of_parent)
    x_cj = graph.relative(vertex.key, child)
    if x_pj is None or x_cj is None:
        return None
    kind = spec.kind
    axis = axis2 = limit = limit2 = dynamics = dynamics2 = mimic = None
    if kind.axes:
        axis, limit, dynamics, mimic = _axis(graph, version, vertex, spec.axis)
    if kind.axes == 2:
        axis2, limit2, dynamics2, _ = _axis(graph, version, vertex, spec.axis2)
    reference = None
    if spec.gearbox_reference is not None:
        key = graph.ref(vertex.scope, spec.gearbox_reference, spec.gearbox_elem, entity,
                        '<gearbox_reference_body>')
        reference = graph.body(key) if key is not None else None
    return Joint(name=vertex.key, kind=kind, parent=parent, child=child, origin=x_pj,
                 axis=axis if axis is not None else (1.0, 0.0, 0.0), limit=limit,
                 dynamics=dynamics, mimic=mimic, location=v.loc(vertex.elem),
                 joint_in_child=x_cj, axis2=axis2, limit2=limit2, dynamics2=dynamics2,
                 screw_thread_pitch=spec.pitch,
                 gearbox_ratio=spec.gearbox_ratio if kind is JointType.GEARBOX else None,
                 gearbox_reference_body=reference, extras=spec.extras)


def _axis(graph: FrameGraph, version: tuple[int, int], vertex: Vertex, spec: AxisSpec | None
          ) -> tuple[Vec3, Limit | None, Dynamics | None, Mimic | None]:
    """Return (axis in the joint frame, limit, dynamics, mimic) of an axis element."""
    if spec is None:
        return Z_AXIS, None, None, None
    scope = vertex.scope
    frame: str | None
    if (scope.version or version) < (1, 5) or spec.use_parent_model_frame:
        frame = scope.key
    elif spec.expressed_in is not None:
        frame = graph.ref(scope, spec.expressed_in, spec.elem.find('xyz'), vertex.entity,
                          f'<{spec.elem.tag}> <xyz> expressed_in')
    else:
        frame = vertex.key
    xyz = transforms.vec_unit(spec.xyz)
    if frame is not None and frame != vertex.key:
        x_je = graph.relative(frame, vertex.key)
        if x_je is not None:
            xyz = transforms.vec_unit(transforms.quat_rotate(x_je.quat, xyz))
    mimic = spec.mimic
    if mimic is not None and scope.prefix:
        mimic = replace(mimic, joint=scope.prefix + mimic.joint)
    return xyz, spec.limit, spec.dynamics, mimic


def frames(graph: FrameGraph, v: ValueReader) -> list[Frame]:
    """
    Return the model's ``<frame>`` s, each on the link it is attached to.

    A frame attached to the frame of a model without links (a static one) is attached to
    ``world``, the model frame, with its pose in the model frame.
    """
    out = []
    for vertex in graph.order:
        if vertex.kind != 'frame':
            continue
        link = graph.body(vertex.key)
        if link is None:
            if graph.on_static_frame(vertex.key) and graph.has_pose(vertex.key):
                out.append(Frame(vertex.key, WORLD, graph.in_model(vertex.key),
                                 v.loc(vertex.elem)))
            continue
        pose = graph.relative(vertex.key, link)
        if pose is None:
            continue
        out.append(Frame(vertex.key, link, pose, v.loc(vertex.elem)))
    return out
