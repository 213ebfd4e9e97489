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


"""Tests of sdf_tools.drawing.caption and of how a caption is laid out under a picture."""

import numpy as np
from sdf_tools.drawing import link_poses
from sdf_tools.drawing.caption import view_caption
from sdf_tools.drawing.render import _caption_lines
from sdf_tools.drawing.render import RenderOptions
from sdf_tools.drawing.scene import build_scene
from sdf_tools.drawing.scene import SceneOptions
from sdf_tools.formats.urdf.reader import parse_urdf

ROBOT = ('<robot name="r"><link name="a"><visual><geometry><box size="1 1 1"/></geometry>'
         '</visual>{}</link></robot>')
MESH = '<visual><geometry><mesh filename="package://gone/{}.stl"/></geometry></visual>'


def _caption(body: str, joints=None, collision=False):
    robot = parse_urdf(ROBOT.format(body))
    scene = build_scene(robot, link_poses(robot))
    return view_caption(robot, joints, scene, collision)


def test_a_caption_names_the_robot_its_configuration_and_what_is_not_drawn():
    assert _caption('', {}) == ('r at the zero configuration',)
    assert _caption('', None) == ('r',)  # drawn at poses given, not joint values
    assert _caption(MESH.format('x'), {'j': 0.123456, 'k': -1}) == (
        'r at j=0.1235, k=-1 (the others at 0)',
        '1 mesh not found (of 2 visuals): drawn with the skeleton')
    assert _caption(MESH.format('x') + MESH.format('y'), {})[1] == \
        '2 meshes not found (of 3 visuals): drawn with the skeleton'
    robot = parse_urdf('<robot name="r"><link name="a">' + MESH.format('x') + '</link></robot>')
    scene = build_scene(robot, link_poses(robot))
    assert view_caption(robot, {}, scene, False)[1] == '1 mesh not found: drawn as a skeleton'
    assert len(scene.triangles) == 0 and np.asarray(scene.skeleton.roots).shape == (1, 3)
    collisions = build_scene(robot, link_poses(robot), SceneOptions(collision=True))
    assert view_caption(robot, {}, collisions, True) == (
        'r (collisions) at the zero configuration', 'no collisions: drawn as a skeleton')


def test_long_lines_wrap_at_spaces_and_lines_that_do_not_fit_are_left_out():
    """At 400 px, about 51 characters a line (0.6 em of 9 pt); a quarter of the height."""
    long = 'r at j=0.1235, k=-1, l=0.5, m=0.25, n=2.5, o=3.5, p=1.5, q=0.75 (the others at 0)'
    lines = _caption_lines(RenderOptions(size=(400, 300), caption=(long, 'a second line')))
    assert len(lines) == 3 and lines[1].startswith('  ') and lines[2] == 'a second line'
    assert all(len(line) <= 51 for line in lines)
    assert ' '.join(line.strip() for line in lines[:2]) == long
    (cut,) = _caption_lines(RenderOptions(size=(400, 120), caption=(long, 'a second line')))
    assert cut.endswith('...') and long.startswith(cut[:-3])
    assert _caption_lines(RenderOptions(size=(400, 60), caption=(long,))) == ()
