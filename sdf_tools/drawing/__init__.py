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
Pictures of robots, headless: :func:`view` draws one at a configuration, :func:`overlay` two.

The visual (or collision) geometry, primitives and meshes, is placed by forward kinematics
(:func:`link_poses`) and drawn with matplotlib in an orthographic view (``front``, ``side``,
``top``, ``iso`` or any azimuth and elevation), shaded by the faces' normals, as PNG or SVG.
No display, GPU or ROS is needed; matplotlib and trimesh are optional dependencies
(``pip install 'sdf_tools[view]'``), imported when a picture is drawn.

A robot with geometry missing (meshes in a package that is not there) is still a picture of
that robot: its kinematic skeleton is drawn with what is drawn (:mod:`.skeleton`), the whole
of it inside the picture, and a caption names the robot, the joint values and what is not
drawn (``14 meshes not found: drawn as a skeleton``, :mod:`.caption`).

Example::

    import sdf_tools

    loaded = sdf_tools.load('robot.urdf.xacro')
    picture = sdf_tools.view(loaded.robot, joints={'elbow': 0.5},
                             options=sdf_tools.ViewOptions(view='side'))
    picture.save('robot.png')

Modules
-------
========== ==================================================================
``shapes``   the primitives as triangles
``scene``    a robot at a configuration as coloured triangles; what is not drawn
``skeleton`` the kinematic skeleton: a segment from each joint to the next
``caption``  the text under a picture
``camera``   the views, and the window of the picture plane shown
``render``   triangles, skeletons and text to PNG or SVG with matplotlib
========== ==================================================================
"""

from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from sdf_tools.drawing import caption as captions
from sdf_tools.drawing.camera import Camera
from sdf_tools.drawing.camera import camera
from sdf_tools.drawing.camera import VIEWS
from sdf_tools.drawing.render import check_reach
from sdf_tools.drawing.render import draw_layers
from sdf_tools.drawing.render import Layer
from sdf_tools.drawing.render import RenderOptions
from sdf_tools.drawing.render import require_matplotlib
from sdf_tools.drawing.scene import build_scene
from sdf_tools.drawing.scene import Scene
from sdf_tools.drawing.scene import SceneOptions
from sdf_tools.drawing.scene import shared
from sdf_tools.drawing.skeleton import shared_bones
from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import Severity
from sdf_tools.model import Robot
from sdf_tools.outputs import write_atomically
from sdf_tools.records import record
from sdf_tools.records import replace
from sdf_tools.resources.lookup import Resources

__all__ = ['Camera', 'link_poses', 'overlay', 'OVERLAY_COLORS', 'Picture', 'view', 'VIEWS',
           'ViewOptions']

#: :func:`overlay`'s colours: the first side's (blue), the second's (orange), both's (grey).
OVERLAY_COLORS = ((0.12, 0.47, 0.71, 1.0), (1.0, 0.5, 0.05, 1.0), (0.75, 0.75, 0.75, 1.0))
FORMATS = ('png', 'svg')

_Poses = Mapping[str, npt.ArrayLike]  # link name -> T_model_link (4, 4)
_Color = tuple[float, float, float, float]  # RGBA, 0..1
_Source = tuple[Resources | None, str | None]  # where a side's meshes are (overlay)


@record(frozen=True, eq=False)
class ViewOptions:
    """
    What a picture shows and how.

    Attributes
    ----------
    view : str or tuple of float
        ``'front'``, ``'side'``, ``'top'``, ``'iso'`` (:data:`VIEWS`), or ``(azimuth,
        elevation)`` in degrees (:mod:`sdf_tools.drawing.camera`).
    size : tuple of int
        ``(width, height)`` in pixels (SVG: its size at 100 dpi).
    fmt : str
        ``'png'`` or ``'svg'``.
    collision : bool
        Draw the collision geometry instead of the visual geometry.
    frames : bool
        Draw each link frame's axes (x red, y green, z blue).
    resources : Resources or None
        Finds ``package://`` and ``model://`` mesh URIs (``Loaded.resources``,
        :func:`sdf_tools.resources.lookup.find_resources`): ``model://NAME/...`` in the
        model folders on Gazebo's resource path first, then as the package ``NAME``;
        ``None``: only files are found.
    folder : str or None
        The description file's folder, for relative mesh paths.
    window : tuple of float or None
        ``(u0, u1, v0, v1)``: the part of the picture plane shown, in metres (``u`` along
        the camera's ``right``, ``v`` along its ``up``); ``None``: the robot, with a margin.
    max_faces : int
        Meshes with more triangles are decimated to about this many.
    background : tuple of float
        RGBA (0..1).
    skeleton : bool or None
        Draw the kinematic skeleton; ``None``: when geometry is missing
        (:func:`.caption.incomplete`).
    labels : bool
        Name the links (at their skeleton's points).
    caption : bool
        Say under the drawing what it shows (:mod:`.caption`), when the picture is at least
        four lines high.

    """

    view: str | tuple[float, float] = 'iso'
    size: tuple[int, int] = (800, 600)
    fmt: str = 'png'
    collision: bool = False
    frames: bool = False
    resources: Resources | None = None
    folder: str | None = None
    window: tuple[float, float, float, float] | None = None
    max_faces: int = 5000
    background: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    skeleton: bool | None = None
    labels: bool = False
    caption: bool = True


@record(frozen=True, eq=False)
class Picture:
    """
    A drawn picture.

    Attributes
    ----------
    data : bytes
        The PNG or SVG file.
    fmt : str
        ``'png'`` or ``'svg'``.
    camera : Camera
        The view: the picture's ``right`` and ``up`` in the model frame.
    window : tuple of float
        ``(u0, u1, v0, v1)`` (m): the part of the picture plane shown, edge to edge.
    warnings : tuple of Diagnostic
        What is not drawn, and why.
    text : tuple of str
        The legend's entries, then the caption's lines (as given: a line too long for the
        picture is cut there).

    """

    data: bytes
    fmt: str
    camera: Camera
    window: tuple[float, float, float, float]
    warnings: tuple[Diagnostic, ...] = ()
    text: tuple[str, ...] = ()

    def save(self, path: str) -> None:
        """Write the picture to ``path``, atomically."""
        write_atomically(path, self.data)


def link_poses(robot: Robot,
               joints: Mapping[str, float] | None = None) -> dict[str, npt.NDArray[np.float64]]:
    """
    Return every link's pose in the model frame at a configuration.

    Parameters
    ----------
    robot : Robot
        The description.
    joints : Mapping, optional
        Coordinate name -> value (rad, m); coordinates not named are at zero. A mimic
        joint's value is used instead of its formula (as the ``fk`` command does).

    Returns
    -------
    dict
        Link name -> ``T_model_link``, ndarray (4, 4).

    Raises
    ------
    KinematicsError
        The tree cannot be built, a value is not finite, or a name is not a coordinate
        (code ``unknown-joint``; the message lists the coordinates).

    """
    from sdf_tools.kinematics import compile_tree
    from sdf_tools.kinematics import forward_kinematics
    tree = compile_tree(robot)
    values = dict(joints or {})
    q, unknown, mimic = tree.joint_vector(values)
    if unknown:
        known = ', '.join(tree.coordinate_names) or '(none: the robot has no moving joints)'
        raise KinematicsError(Diagnostic(f'not a joint coordinate of {robot.name!r}: '
                                         f"{', '.join(unknown)}; use: {known}",
                                         code=Code.UNKNOWN_JOINT))
    poses = forward_kinematics(tree, q, mimic_values={name: values[name] for name in mimic})
    return dict(zip(tree.link_names, poses))


def view(robot: Robot, poses: _Poses | None = None, options: ViewOptions | None = None, *,
         joints: Mapping[str, float] | None = None) -> Picture:
    """
    Draw a robot at a configuration.

    Parameters
    ----------
    robot : Robot
        The description (:func:`sdf_tools.load`).
    poses : Mapping, optional
        Link name -> ``T_model_link`` (4, 4), e.g. from :func:`link_poses`; links not in it
        are not drawn.
    options : ViewOptions, optional
        What to draw and how (default: the visuals, iso view, 800 x 600 PNG).
    joints : Mapping, optional
        Instead of ``poses``: joint values (:func:`link_poses`); neither: the zero
        configuration.

    Returns
    -------
    Picture

    Raises
    ------
    SdfToolsError
        matplotlib is not installed (code ``no-matplotlib``), or the configuration cannot
        be computed (:func:`link_poses`).
    ValueError
        Both ``poses`` and ``joints``, or options out of range.

    """
    options = _checked(options)
    if poses is not None and joints is not None:
        raise ValueError('give the link poses or the joint values, not both')
    scene = _scene(robot, poses if poses is not None else link_poses(robot, joints), options)
    assert scene.skeleton is not None  # build_scene gives every scene its skeleton
    warnings = scene.warnings
    if len(scene.triangles) == 0:  # a blank picture says nothing: the skeleton at least
        what = 'collision' if options.collision else 'visual'
        warnings += (Diagnostic(f'no {what} geometry drawn: the kinematic skeleton is drawn '
                                f"instead{'' if options.collision else ' (try the collisions)'}",
                                robot.location, f"robot '{robot.name}'", Severity.WARNING,
                                Code.NOT_DRAWN),)
    bones = scene.skeleton if _skeleton_drawn(options, scene) else None
    caption = captions.view_caption(robot, None if poses is not None else joints or {}, scene,
                                    options.collision) if options.caption else ()
    names = scene.skeleton.labels if options.labels else ()
    return _picture([Layer(scene, skeleton=bones, names=names)], options, warnings, caption)


def _skeleton_drawn(options: ViewOptions, *scenes: Scene) -> bool:
    """Return whether the skeleton is drawn: asked for, or geometry missing from a scene."""
    if options.skeleton is not None:
        return options.skeleton
    return any(captions.incomplete(scene) for scene in scenes)


def overlay(first: tuple[Robot, _Poses | None], second: tuple[Robot, _Poses | None],
            options: ViewOptions | None = None, *,
            colors: Sequence[str | _Color] = OVERLAY_COLORS,
            labels: Sequence[str | None] = (None, None), tolerance: float = 1e-6,
            sources: Sequence[_Source | None] = (None, None),
            caption: Sequence[str] = ()) -> Picture:
    """
    Draw two robots (or one at two configurations) over each other: what differs in colour.

    Triangles both sides have at the same place (within ``tolerance``) are drawn once, in
    the third colour; the others in their side's colour, so a link that moved shows twice,
    where it was and where it is, and one only on one side in that side's colour. Where a
    side lacks geometry, both skeletons are drawn the same way: what they share once.

    Parameters
    ----------
    first, second : tuple
        ``(robot, poses)``: as :func:`view`'s (``poses`` ``None``: the zero configuration).
    options : ViewOptions, optional
        As :func:`view`'s.
    colors : tuple
        The colours of the first side's, the second side's and the shared triangles: RGBA
        tuples (0..1) or matplotlib colour names.
    labels : pair of str or None
        Each side's name for a legend, ``only in NAME`` (``None``: no legend).
    tolerance : float
        How far apart corners may be and still be the same: metres, times the larger of 1
        and the largest coordinate.
    sources : pair
        Each side's ``(resources, folder)`` for its mesh URIs (as ``options.resources`` and
        ``options.folder``, which a ``None`` side uses): two files from two places.
    caption : sequence of str
        Lines under the drawing (the configuration shown), before what each side does not
        draw (with ``options.caption``).

    Returns
    -------
    Picture

    """
    options = _checked(options)
    from matplotlib.colors import to_rgba
    first_color, second_color, both_color = (to_rgba(color) for color in colors)
    a, b = (_scene(robot, poses if poses is not None else link_poses(robot), options, source)
            for (robot, poses), source in zip((first, second), sources))
    check_reach((a, b))  # before comparing corners, which overflows as drawing does
    assert a.skeleton is not None and b.skeleton is not None  # (build_scene's)
    masks = [shared(a, b, tolerance)]
    if _skeleton_drawn(options, a, b):
        masks += shared_bones(a.skeleton, b.skeleton, tolerance)
    named = labels[0] is not None and labels[1] is not None

    def layer(scene: Scene, side: int, keep: bool, color: _Color, text: str) -> Layer:
        assert scene.skeleton is not None  # a or b
        wanted = [mask[side] if keep else ~mask[side] for mask in masks]
        bones = scene.skeleton.part(*wanted[1:]) if len(wanted) > 1 else None
        shown = any(mask.any() for mask in wanted)  # a legend entry for what is drawn
        return Layer(scene.part(wanted[0], color, frames=not keep),
                     text if named and shown else None, color, bones)

    layers = [replace(layer(a, 0, True, both_color, f'in both: {labels[0]}, {labels[1]}'),
                      names=a.skeleton.labels if options.labels else ()),
              layer(a, 0, False, first_color, f'only in {labels[0]}'),
              layer(b, 1, False, second_color, f'only in {labels[1]}')]
    if options.caption:
        caption = tuple(caption) + captions.overlay_caption((a, b), labels, options.collision)
    return _picture(layers, options, tuple(dict.fromkeys(a.warnings + b.warnings)),
                    tuple(caption) if options.caption else ())


def _checked(options: ViewOptions | None) -> ViewOptions:
    """Return the options (default if ``None``) once they are checked and matplotlib is here."""
    options = options or ViewOptions()
    if options.fmt not in FORMATS:
        raise ValueError(f'unknown picture format {options.fmt!r}; use png or svg')
    width, height = options.size
    if not (1 <= width <= 16384 and 1 <= height <= 16384):
        raise ValueError(f'a picture of {width}x{height} pixels is out of range (1 to 16384)')
    require_matplotlib()
    return options


def _scene(robot: Robot, poses: _Poses, options: ViewOptions,
           source: _Source | None = None) -> Scene:
    """Return the triangles of ``robot`` at ``poses`` as ``options`` asks (``source``: overlay)."""
    resources, folder = (options.resources, options.folder) if source is None else source
    return build_scene(robot, poses, SceneOptions(
        collision=options.collision, resources=resources, folder=folder,
        max_faces=options.max_faces))


def _picture(layers: Sequence[Layer], options: ViewOptions, warnings: Iterable[Diagnostic],
             caption: Sequence[str] = ()) -> Picture:
    """Draw ``layers`` with ``caption`` (lines); return the picture with ``warnings``."""
    cam = camera(options.view)
    data, window = draw_layers(layers, cam, RenderOptions(
        size=options.size, fmt=options.fmt, window=options.window,
        frames=options.frames, background=options.background, caption=tuple(caption)))
    legend = tuple(layer.label for layer in layers if layer.label)
    return Picture(data, options.fmt, cam, window, tuple(warnings), legend + tuple(caption))
