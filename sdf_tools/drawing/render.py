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
Triangles to a PNG or SVG picture with matplotlib, headless: no display, no GPU.

The projection is done here, not by mplot3d: the triangles are turned into the camera's frame
(:class:`~sdf_tools.drawing.camera.Camera`, orthographic), the faces of closed solids that
turn away from the camera are left out, long triangles are split so that painting them from
the farthest to the nearest (by their centres' depth) hides what is behind, each is shaded
by its normal against a light from the upper left, and all go to matplotlib as one
``PolyCollection`` on axes that fill the figure. So a pixel maps to the picture plane
exactly: column ``c`` of a ``W`` pixel wide picture of the window ``(u0, u1, v0, v1)`` covers
``u0 + (u1 - u0) * [c, c + 1] / W``, row ``r`` (from the top) covers ``v1 - (v1 - v0) * [r + 1,
r] / H``.

Over the triangles go a layer's kinematic skeleton (:mod:`sdf_tools.drawing.skeleton`) in its
colour, the link frames' axes and the link names when asked. A fitted window holds all of
it, the axes' tips included, and leaves a strip at the top for the legend and one at the
bottom for the caption's lines, so that nothing drawn is cut by the picture's edge or hidden
by the text.

matplotlib (``pip install 'sdf_tools[view]'``) is imported by :func:`draw_layers` only, through
its Agg and SVG canvases (never pyplot, which would look for a display).
"""

from collections.abc import Iterable
from collections.abc import Sequence
import io
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from sdf_tools.drawing.camera import Camera
from sdf_tools.drawing.camera import fit_window
from sdf_tools.drawing.camera import Window
from sdf_tools.drawing.scene import Scene
from sdf_tools.drawing.skeleton import Skeleton
from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.records import record
from sdf_tools.records import replace

if TYPE_CHECKING:  # matplotlib is imported when a picture is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Where the light comes from, in the camera frame (right, up, toward the camera).
LIGHT = np.array([-0.4, 0.6, 0.7]) / np.linalg.norm([-0.4, 0.6, 0.7])
#: Shade of a face: AMBIENT + DIFFUSE * max(0, n . LIGHT) + FACING * n . toward.
AMBIENT, DIFFUSE, FACING = 0.3, 0.5, 0.2
#: Triangles are split until no edge is longer than this fraction of the window's width.
SPLIT = 1.0 / 40.0
#: ... unless the picture already has this many triangles.
MAX_TRIANGLES = 400_000
#: Farthest (m) a drawn point may be from the model's origin: the arithmetic of a picture
#: (normals: products of two lengths) overflows well before ``1e308``.
MAX_REACH = 1e100
#: A PNG is drawn this many times wider and higher, then averaged down (antialiasing).
SUPERSAMPLE = 3
#: The colour of a skeleton drawn without a layer colour (RGBA).
SKELETON_COLOR = (0.16, 0.2, 0.28, 1.0)
#: A link frame's axes are this fraction of the window's larger side long.
AXIS_LENGTH = 0.06
#: Text: points high; pixels a line of the caption or the legend takes; room at the edges.
FONT_SIZE, LINE_PX, EDGE_PX = 9.0, 18, 6
#: Link names: pixels high, and pixels from their point (right or left, up).
LABEL_PX, LABEL_OFFSET = 10.0, (7.0, 4.0)
_DPI = 100

_Array = npt.NDArray[np.float64]  # shapes in the docstrings
_Color = tuple[float, float, float, float]  # RGBA, 0..1
_Name = tuple[str, _Array]  # a text and its point (3,) (m)


@record(frozen=True, eq=False)
class Layer:
    """
    Triangles to draw (:class:`~sdf_tools.drawing.scene.Scene`), and their legend entry.

    ``label`` (``None``: none) is shown beside a patch of ``color`` (RGBA); ``skeleton``
    (a :class:`~sdf_tools.drawing.skeleton.Skeleton` or ``None``) is drawn over the triangles
    in ``color`` (default :data:`SKELETON_COLOR`); ``names`` are ``(text, point)`` pairs
    (model frame, m) written at their points (the links' names,
    :attr:`~sdf_tools.drawing.skeleton.Skeleton.labels`).
    """

    scene: Scene
    label: str | None = None
    color: _Color | None = None
    skeleton: Skeleton | None = None
    names: tuple[_Name, ...] = ()


@record(frozen=True)
class RenderOptions:
    """
    How :func:`draw_layers` draws.

    Attributes
    ----------
    size : tuple of int
        ``(width, height)`` in pixels.
    fmt : str
        ``'png'`` or ``'svg'``.
    window : tuple of float or None
        ``(u0, u1, v0, v1)``: the part of the picture plane shown (m); ``None``: fitted to
        the triangles (:func:`~sdf_tools.drawing.camera.fit_window`).
    frames : bool
        Draw each link frame's axes (x red, y green, z blue).
    background : tuple of float
        RGBA of the background.
    caption : tuple of str
        Lines of text at the bottom (each cut to the picture's width; as many as fit in a
        quarter of its height).

    """

    size: tuple[int, int] = (800, 600)
    fmt: str = 'png'
    window: tuple[float, float, float, float] | None = None
    frames: bool = False
    background: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    caption: tuple[str, ...] = ()


def require_matplotlib() -> ModuleType:
    """
    Return the ``matplotlib`` module.

    Raises
    ------
    SdfToolsError
        It is not installed (code ``no-matplotlib``), with how to install it.

    """
    try:
        import matplotlib
    except ImportError:
        raise SdfToolsError(Diagnostic(
            'pictures (sdf_tools view) are drawn with matplotlib, which is not installed: pip '
            "install 'sdf_tools[view]' (or: pip install matplotlib trimesh)",
            code=Code.NO_MATPLOTLIB)) from None
    return matplotlib


def draw_layers(layers: Sequence[Layer], camera: Camera,
                options: RenderOptions) -> tuple[bytes, Window]:
    """
    Draw ``layers`` as seen by ``camera``; return the picture's bytes and its window.

    Parameters
    ----------
    layers : sequence of Layer
        Drawn together, depth-sorted as one; a label puts the layer's colour in a legend.
    camera : Camera
        The view.
    options : RenderOptions
        Size, format, window, frames, background.

    Returns
    -------
    data : bytes
        The PNG or SVG file.
    window : tuple of float
        ``(u0, u1, v0, v1)`` (m) shown.

    Raises
    ------
    SdfToolsError
        matplotlib is not installed, or a point to draw is farther than :data:`MAX_REACH`
        from the origin (code ``too-large``).

    """
    require_matplotlib()
    check_reach([layer.scene for layer in layers])
    rotation = camera.rotation
    triangles = np.concatenate([layer.scene.triangles for layer in layers]) @ rotation.T
    colors = np.concatenate([layer.scene.colors for layer in layers])
    closed = np.concatenate([layer.scene.closed for layer in layers])
    frames = np.concatenate([layer.scene.frames for layer in layers])
    axes = _frame_axes(frames, rotation)
    skeletons = [(layer.skeleton.turned(rotation), layer.color or SKELETON_COLOR)
                 for layer in layers if layer.skeleton is not None]
    names = [(text, point @ rotation.T) for layer in layers for text, point in layer.names]
    caption = _caption_lines(options)
    window = options.window
    if window is None:
        top, bottom = (EDGE_PX + LINE_PX * lines if lines else 0 for lines in (
            sum(bool(layer.label) for layer in layers), len(caption)))
        window = _fitted(triangles, axes, ([bones for bones, _ in skeletons], names), options,
                         (top, bottom))
    axes[:, 1:] = axes[:, :1] + (axes[:, 1:] - axes[:, :1]) * _axis_length(window)
    longest = (window[1] - window[0]) * SPLIT
    triangles, shades = visible_faces(triangles, colors, closed, longest)
    order = np.argsort(triangles[:, :, 2].sum(axis=1), kind='stable')  # farthest first
    return _draw(triangles[order], shades[order], (axes, skeletons, names), window, layers,
                 replace(options, caption=caption)), window


def _axis_length(window: Window) -> float:
    """Return how long (m) a link frame's axes are drawn in ``window``."""
    return AXIS_LENGTH * max(window[1] - window[0], window[3] - window[2])


def _fitted(triangles: _Array, axes: _Array, marks: tuple[list[Skeleton], list[_Name]],
            options: RenderOptions, reserve: tuple[int, int]) -> Window:
    """
    Return the window that shows everything drawn, ``reserve`` (top, bottom) pixels free.

    The triangles, the skeletons and names (``marks``, in the camera frame) and, with frames
    (or nothing else), the link origins and the tips of their axes, as long as they are
    drawn in that window.
    """
    skeletons, names = marks
    shown = np.concatenate([triangles[..., :2].reshape(-1, 2)] +
                           [bones.points()[:, :2] for bones in skeletons] +
                           [np.array([point[:2] for _, point in names]).reshape(-1, 2)])
    if options.frames or len(shown) == 0:
        shown = np.concatenate([shown, axes[:, 0, :2]])  # the link origins
    window = fit_window(shown, options.size, reserve=reserve)
    if options.frames and len(axes):
        tips = axes[:, :1, :2] + (axes[:, 1:, :2] - axes[:, :1, :2]) * _axis_length(window)
        shown = np.concatenate([shown, tips.reshape(-1, 2)])
        window = fit_window(shown, options.size, reserve=reserve)  # larger: shorter axes
    for _ in range(3 if names else 0):  # each fit a little larger
        pixel = (window[1] - window[0]) / options.size[0]
        window = fit_window(np.concatenate([shown, _label_corners(names, window,
                                                                  1.1 * pixel)]),
                            options.size, reserve=reserve)
    return window


def _label_corners(labels: Sequence[_Name], window: Window, pixel: float) -> _Array:
    """Return the far corner of each name (:func:`_labels`), ``pixel`` m a pixel."""
    middle = (window[0] + window[1]) / 2.0
    corners = []
    for names, point in labels:
        reach = (LABEL_OFFSET[0] + len(names) * 0.6 * LABEL_PX + 2) * pixel
        corners.append((point[0] + (reach if point[0] <= middle else -reach),
                        point[1] + (LABEL_OFFSET[1] + 1.3 * LABEL_PX) * pixel))
    return np.array(corners).reshape(-1, 2)


def _caption_lines(options: RenderOptions) -> tuple[str, ...]:
    """
    Return the caption's lines as drawn: wrapped to the width, a quarter of the height.

    A line too long for the width (at 0.6 em a character) wraps at its spaces; lines that
    do not fit are left out, the last kept one ending with ``...``.
    """
    import textwrap
    width, height = options.size
    most = max(8, int((width - 2 * EDGE_PX) / (0.6 * FONT_SIZE * _DPI / 72.0)))
    lines = [part for line in options.caption
             for part in textwrap.wrap(line, most, subsequent_indent='  ') or ['']]
    room = max(0, (height // 4 - EDGE_PX) // LINE_PX)
    if len(lines) > room:
        lines = lines[:room]
        if lines:
            lines[-1] = lines[-1][:most - 3] + '...'
    return tuple(lines)


def check_reach(scenes: Iterable[Scene]) -> None:
    """
    Refuse scenes with a point farther than :data:`MAX_REACH` (or not finite).

    Raises
    ------
    SdfToolsError
        Code ``too-large``: the model is too large to draw.

    """
    reach = 0.0
    for scene in scenes:
        for points in (scene.triangles, scene.frames[:, :3, 3]):
            if points.size:
                reach = max(reach, float(np.abs(points).max()))
            if np.isnan(points).any():
                reach = float('nan')
    if not reach <= MAX_REACH:
        shown = 'a coordinate that is not a number' if reach != reach else f'{reach:g} m'
        raise SdfToolsError(Diagnostic(
            f'the model is too large to draw: it reaches {shown} from its origin (at most '
            f'{MAX_REACH:g} m)', code=Code.TOO_LARGE))


def _frame_axes(frames: _Array, rotation: _Array) -> _Array:
    """Return, per link frame, its origin and the tips of its x, y, z axes: (k, 4, 3), 1 m."""
    origins = frames[:, :3, 3]
    tips = origins[:, None, :] + np.swapaxes(frames[:, :3, :3], 1, 2)  # + each axis column
    return np.concatenate([origins[:, None, :], tips], axis=1) @ rotation.T


def visible_faces(triangles: _Array, colors: _Array, closed: npt.NDArray[np.bool_],
                  longest: float) -> tuple[_Array, _Array]:
    """
    Return the triangles the camera sees (split to edges of at most ``longest``) and shades.

    Faces of closed solids that turn away are left out; the other faces turned away are
    lit as if turned towards the camera (open meshes have no outside).

    Parameters
    ----------
    triangles : ndarray, shape (n, 3, 3)
        Corners in the camera frame (right, up, toward the camera), m.
    colors : ndarray, shape (n, 4)
        RGBA of each.
    closed : ndarray of bool, shape (n,)
        Whether each bounds a closed solid.
    longest : float
        Longest edge (m) after splitting.

    Returns
    -------
    triangles : ndarray, shape (k, 3, 3)
    shades : ndarray, shape (k, 4)
        RGBA, shaded.

    """
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    length = np.linalg.norm(normals, axis=1)
    keep = (length > 0.0) & ~(closed & (normals[:, 2] <= 0.0))
    triangles, colors = triangles[keep], colors[keep]
    normals = normals[keep] / length[keep, None]
    normals *= np.where(normals[:, 2] < 0.0, -1.0, 1.0)[:, None]
    shade = AMBIENT + DIFFUSE * np.clip(normals @ LIGHT, 0.0, None) + FACING * normals[:, 2]
    shades = np.concatenate([np.clip(colors[:, :3] * shade[:, None], 0.0, 1.0),
                             colors[:, 3:]], axis=1)
    return _split(triangles, shades, longest)


def _split(triangles: _Array, values: _Array, longest: float) -> tuple[_Array, _Array]:
    """Halve the longest edge of every triangle whose edge is over ``longest``, repeatedly."""
    for _ in range(16):
        edges = np.linalg.norm(np.roll(triangles, -1, axis=1) - triangles, axis=2)  # i -> i+1
        split = edges.max(axis=1) > longest
        if not split.any() or len(triangles) + split.sum() > MAX_TRIANGLES:
            break
        first = edges[split].argmax(axis=1)
        corners = (first[:, None] + np.arange(3)) % 3  # the longest edge from corner 0 to 1
        t = triangles[split][np.arange(len(first))[:, None], corners]
        middle = (t[:, 0] + t[:, 1]) / 2.0
        halves = np.concatenate([np.stack([t[:, 0], middle, t[:, 2]], axis=1),
                                 np.stack([middle, t[:, 1], t[:, 2]], axis=1)])
        triangles = np.concatenate([triangles[~split], halves])
        values = np.concatenate([values[~split], np.tile(values[split], (2, 1))])
    return triangles, values


def _draw(triangles: _Array, shades: _Array,
          lines: tuple[_Array, list[tuple[Skeleton, _Color]], list[_Name]], window: Window,
          layers: Sequence[Layer], options: RenderOptions) -> bytes:
    """
    Draw on a figure with axes filling it; return the file's bytes.

    ``lines`` holds the frames' axes (origin and tips, (k, 4, 3)), the skeletons with
    their colours and the names with their points, in the camera frame.
    """
    axes, skeletons, names = lines
    from matplotlib.collections import LineCollection
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure
    png = options.fmt == 'png'
    dpi = _DPI * (SUPERSAMPLE if png else 1)
    width, height = options.size
    # A hair more than the size, so that the pixel count (truncated) is the size exactly.
    figure = Figure(figsize=((width + 1e-6) / _DPI, (height + 1e-6) / _DPI), dpi=dpi,
                    facecolor=options.background)
    ax = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    ax.set_xlim(window[0], window[1])
    ax.set_ylim(window[2], window[3])
    # Antialiased triangles leave hairline seams between them. A PNG is drawn without
    # antialiasing at SUPERSAMPLE times its size, then averaged down; in an SVG, opaque
    # triangles get edges in their colour (0.5 pt) that close the seams.
    opaque = shades[:, 3] >= 1.0
    # (matplotlib's types want a Sequence of polygons; an (n, 3, 2) array is read as one.)
    ax.add_collection(PolyCollection(
        triangles[:, :, :2],  # type: ignore[arg-type]
        facecolors=shades, linewidths=0.0 if png else 0.5,
        edgecolors=np.where(opaque[:, None], shades, 0.0), antialiaseds=not png),
        autolim=False)
    for bones, color in skeletons:
        _skeleton(ax, bones, color)
    if options.frames and len(axes):
        tips = axes[:, 1:, :2]
        segments = np.stack([np.broadcast_to(axes[:, :1, :2], tips.shape), tips], axis=2)
        ax.add_collection(LineCollection(list(segments.reshape(-1, 2, 2)), linewidths=1.5,
                                         colors=['#d62728', '#2ca02c', '#1f77b4'] * len(axes),
                                         zorder=4), autolim=False)
    _labels(ax, names, window)
    _legend(ax, layers)
    for i, line in enumerate(reversed(options.caption)):
        figure.text(EDGE_PX / width, (EDGE_PX + 4 + i * LINE_PX) / height, line,
                    fontsize=FONT_SIZE, color='#333333', ha='left', va='bottom')
    return _png(figure, options.size) if png else _svg(figure)


def _png(figure: 'Figure', size: tuple[int, int]) -> bytes:
    """Draw ``figure`` with Agg (SUPERSAMPLE times ``size``); return the averaged-down PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image  # matplotlib's own dependency
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    width, height = size
    drawn = Image.frombuffer('RGBA', (width * SUPERSAMPLE, height * SUPERSAMPLE),
                             canvas.buffer_rgba(), 'raw', 'RGBA', 0, 1)
    data = io.BytesIO()
    drawn.reduce(SUPERSAMPLE).save(data, format='png')  # the mean of each block
    return data.getvalue()


def _svg(figure: 'Figure') -> bytes:
    """Return ``figure`` as SVG text, the same for the same picture (no date, fixed ids)."""
    import matplotlib
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    data = io.BytesIO()
    with matplotlib.rc_context({'svg.hashsalt': 'sdf_tools'}):
        FigureCanvasSVG(figure).print_svg(data, metadata={'Date': None})
    return data.getvalue()


def _skeleton(ax: 'Axes', bones: Skeleton, color: _Color) -> None:
    """Draw a skeleton (camera frame): segments, joints as dots, roots as squares; darker."""
    from matplotlib.collections import LineCollection
    dark = tuple(c * 0.7 for c in color[:3]) + tuple(color[3:])
    ax.add_collection(LineCollection(list(bones.segments[:, :, :2]), linewidths=2.0,
                                     colors=[dark], zorder=2, capstyle='round'),
                      autolim=False)
    for points, marker, area in ((bones.joints[bones.moving], 'o', 22.0),
                                 (bones.joints[~bones.moving], 'o', 7.0),
                                 (bones.roots, 's', 22.0)):
        if len(points):
            ax.scatter(points[:, 0], points[:, 1], s=area, marker=marker, c=[dark],
                       linewidths=0.0, zorder=3)


def _labels(ax: 'Axes', labels: Sequence[_Name], window: Window) -> None:
    """Write each ``(text, point)`` at its point, away from the nearer side (white halo)."""
    from matplotlib import patheffects
    middle = (window[0] + window[1]) / 2.0
    halo = [patheffects.withStroke(linewidth=2.5, foreground='white')]
    points = 72.0 / _DPI  # a pixel in points
    for names, point in labels:
        left = point[0] <= middle
        ax.annotate(names, (point[0], point[1]),
                    xytext=((1 if left else -1) * LABEL_OFFSET[0] * points,
                            LABEL_OFFSET[1] * points), textcoords='offset points',
                    ha='left' if left else 'right', va='bottom', fontsize=LABEL_PX * points,
                    color='#222222', zorder=5, path_effects=halo)


def _legend(ax: 'Axes', layers: Sequence[Layer]) -> None:
    """Name each labelled layer beside a patch of its colour, in the upper left corner."""
    labelled = [layer for layer in layers if layer.label]
    if not labelled:
        return
    from matplotlib.patches import Patch
    handles = [Patch(color=layer.color, label=layer.label) for layer in labelled]
    ax.legend(handles=handles, loc='upper left', frameon=False, fontsize=9)
