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
Pictures of real robots whose meshes are not here: still a picture of that robot.

ur5e, talos (its collisions) and pr2 from the corpus name meshes in packages this machine
does not have. Each picture must show every link (a drawn pixel near each joint: the
skeleton), all of it inside the picture (nothing drawn on its edge, no joint outside), a fair
share of drawn pixels, and a caption that names the robot and what is not drawn.
"""

import numpy as np
from pictures import drawn
from pictures import pixels
import pytest
from sdf_tools.drawing import link_poses
from sdf_tools.drawing import overlay
from sdf_tools.drawing import view
from sdf_tools.drawing import ViewOptions
from sdf_tools.drawing.render import EDGE_PX
from sdf_tools.drawing.render import LINE_PX
from sdf_tools.loading import load
import support

pytest.importorskip('matplotlib', reason="needs matplotlib: pip install 'sdf_tools[view]'")

SIZE = (400, 300)
ROBOTS = [('ur5e', False, {'shoulder_lift_joint': -1.2, 'elbow_joint': 1.0}),
          ('talos_full_v2', True, {}), ('pr2', False, {})]


def _robot(name: str):
    path = support.CORPUS_DIR / f'{name}.urdf'
    if not path.is_file():
        pytest.skip(support.NO_CORPUS)
    return load(str(path)).robot


def _pixel(picture, point):
    """Return (row, column) of the pixel showing a model-frame point."""
    cam, (u0, u1, v0, v1) = picture.camera, picture.window
    u, v = np.dot(cam.right, point), np.dot(cam.up, point)
    return int((v1 - v) / (v1 - v0) * SIZE[1]), int((u - u0) / (u1 - u0) * SIZE[0])


def _check_whole_robot(picture, points, caption_lines: int):
    """Every point drawn near, inside the picture above the caption; the edges empty."""
    shown = drawn(pixels(picture.data))
    assert shown.mean() > 0.004, shown.mean()  # more than a few triads or dots
    ring = np.ones(shown.shape, bool)
    ring[2:-2, 2:-2] = False
    assert not shown[ring].any()  # nothing cut by the edge
    bottom = SIZE[1] - EDGE_PX - LINE_PX * caption_lines
    for point in points:
        row, column = _pixel(picture, point)
        assert EDGE_PX <= row < bottom and EDGE_PX <= column < SIZE[0] - EDGE_PX
        assert shown[row - 3:row + 4, column - 3:column + 4].any(), point


@pytest.mark.parametrize('name, collision, joints', ROBOTS, ids=[r[0] for r in ROBOTS])
def test_a_robot_whose_meshes_are_missing_is_drawn_whole_as_its_skeleton(name, collision,
                                                                         joints):
    robot = _robot(name)
    picture = view(robot, joints=joints, options=ViewOptions(size=SIZE, collision=collision))
    poses = link_poses(robot, joints)
    _check_whole_robot(picture, [pose[:3, 3] for pose in poses.values()], 2)
    head, note = picture.text
    assert head.startswith(f"{robot.name}{' (collisions)' if collision else ''} at ")
    assert all(f'{joint}={value:.4g}' in head for joint, value in joints.items())
    assert ' meshes not found' in note
    assert note.endswith('drawn as a skeleton' if name == 'ur5e' else 'drawn with the skeleton')


def test_an_overlay_of_two_robots_without_geometry_is_their_skeletons():
    robot = _robot('ur5e')
    bent = link_poses(robot, {'elbow_joint': 1.0})
    picture = overlay((robot, None), (robot, bent), ViewOptions(size=SIZE),
                      labels=('A (a.urdf)', 'B (b.urdf)'), caption=('at configuration 1',))
    points = [pose[:3, 3] for pose in list(link_poses(robot).values()) + list(bent.values())]
    _check_whole_robot(picture, points, 2)
    assert picture.text == ('in both: A (a.urdf), B (b.urdf)', 'only in A (a.urdf)',
                            'only in B (b.urdf)', 'at configuration 1',
                            'both: 7 meshes not found: drawn as a skeleton')


def test_link_names_are_drawn_inside_the_picture():
    robot = _robot('ur5e')
    joints = ROBOTS[0][2]
    plain, named = (drawn(pixels(view(robot, joints=joints, options=ViewOptions(
        size=SIZE, labels=labels)).data)) for labels in (False, True))
    assert named.sum() > plain.sum() + 500  # the names: 'forearm_link', ...
    assert not named[:2].any() and not named[-2:].any() and not named[:, :2].any() and \
        not named[:, -2:].any()
