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
What a picture says under the drawing: the robot, its configuration, what is not drawn.

::

    ur5e_robot at shoulder_lift_joint=0.6, elbow_joint=-1.2 (the others at 0)
    7 meshes not found: drawn as a skeleton

A scene is *incomplete* (:func:`incomplete`) when a visual (collision) is not drawn or none
is there: its picture draws the kinematic skeleton too.
"""

from collections.abc import Mapping
from collections.abc import Sequence

from sdf_tools.drawing.scene import Scene
from sdf_tools.model import Robot


def incomplete(scene: Scene) -> bool:
    """Return whether a scene lacks geometry: something not drawn, or nothing to draw."""
    return bool(scene.missing) or len(scene.triangles) == 0


def configuration(joints: Mapping[str, float]) -> str:
    """Return joint values as text: ``'a=0.5, b=-1 (the others at 0)'`` or the zero one."""
    if not joints:
        return 'the zero configuration'
    values = ', '.join(f'{name}={float(value):.4g}' for name, value in joints.items())
    return f'{values} (the others at 0)'


def missing(scene: Scene, collision: bool = False) -> str | None:
    """
    Return what a scene does not draw, counted, and how it is drawn; ``None``: all of it.

    ``'14 meshes not found: drawn as a skeleton'``; with something drawn, ``'3 meshes not
    found (of 9 visuals): drawn with the skeleton'``; with no visual at all, ``'no visuals:
    drawn as a skeleton'``.
    """
    what = 'collisions' if collision else 'visuals'
    if not scene.parts:
        return f'no {what}: drawn as a skeleton'
    if not scene.missing:
        return None
    counts = ', '.join(f'{count} {_plural(noun) if count > 1 else noun} {why}'
                       for (noun, why), count in scene.missing)
    if len(scene.triangles) == 0:
        return f'{counts}: drawn as a skeleton'
    return f'{counts} (of {scene.parts} {what}): drawn with the skeleton'


def _plural(noun: str) -> str:
    """Return ``mesh`` as ``meshes``, ``part without geometry`` as ``parts ...``."""
    if noun == 'mesh':
        return 'meshes'
    return noun.replace('part ', 'parts ', 1)


def view_caption(robot: Robot, joints: Mapping[str, float] | None, scene: Scene,
                 collision: bool) -> tuple[str, ...]:
    """
    Return the caption of :func:`sdf_tools.drawing.view`'s picture (module docstring).

    ``joints`` is ``None`` when the link poses were given instead of joint values.
    """
    head = (robot.name or '(unnamed robot)') + (' (collisions)' if collision else '')
    if joints is not None:
        head += f' at {configuration(joints)}'
    note = missing(scene, collision)
    return (head,) if note is None else (head, note)


def overlay_caption(scenes: Sequence[Scene], labels: Sequence[str | None],
                    collision: bool) -> tuple[str, ...]:
    """Return what each side of an overlay does not draw: a line per side, one if the same."""
    notes = [missing(scene, collision) for scene in scenes]
    names = [label or side for label, side in zip(labels, 'AB')]
    if notes[0] is not None and notes[0] == notes[1]:
        return (f'both: {notes[0]}',)
    return tuple(f'{name}: {note}' for name, note in zip(names, notes) if note)
