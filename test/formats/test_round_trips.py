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
Round trips through SDFormat on every corpus robot.

* URDF -> SDF (fixed joints preserved) -> model gives the same forward kinematics as
  URDF -> model, at zero and at random configurations (1e-9);
* with lumping, the surviving links keep their poses and every lumped joint and link is a
  <frame> at the pose the URDF gives it;
* our SDF reader resolves the poses of our SDF exactly as libsdformat does (``oracle
  poses``, when the oracle is built).
"""

from lxml import etree
import numpy as np
import pytest
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.kinematics import frame_poses
from sdf_tools.model import JointType
import support

FILES = support.corpus_files()
pytestmark = pytest.mark.skipif(not FILES, reason=support.NO_CORPUS)


def _params():
    return FILES or [None]


def poses(tree, q):
    out = dict(zip(tree.link_names, forward_kinematics(tree, q)))
    if tree.frame_names:
        out.update(zip(tree.frame_names, frame_poses(tree, q)))
    return out


def blob_links(path):
    """Return the names of links a URDF's robot-level <gazebo> blocks define."""
    root = etree.fromstring(path.read_bytes(), etree.XMLParser(resolve_entities=False))
    return root.xpath('gazebo[not(@reference)]/link/@name')


def random_q(tree, robot, rng):
    """Random values for the 1-dof joints; multi-dof (floating) joints stay at zero."""
    q = tree.default_q()
    for i, name in enumerate(tree.coordinate_names):
        joint = robot.index.joints.get(name)
        if joint is not None and joint.kind in (JointType.REVOLUTE, JointType.CONTINUOUS,
                                                JointType.PRISMATIC):
            q[i] = rng.uniform(-1.5, 1.5)
    return q


def transfer(q, tree_from, tree_to, renamed):
    """Map a configuration between two trees by coordinate name (joints may be renamed)."""
    out = tree_to.default_q()
    for i, name in enumerate(tree_from.coordinate_names):
        target = renamed.get(name, name)
        if target in tree_to.coordinate_index:
            out[tree_to.coordinate_index[target]] = q[i]
    return out


def assert_same(a, b, names, what):
    for name in names:
        np.testing.assert_allclose(b[name], a[name], atol=1e-9, err_msg=f'{name} ({what})')


@pytest.mark.parametrize('path', _params(), ids=support.corpus_ids() or ['none'])
def test_urdf_to_sdf_to_model_keeps_the_kinematics(path):
    robot = parse_urdf(path.read_bytes(), path.name)
    tree = compile_tree(robot, missing_mimic='ignore')
    rng = np.random.default_rng(sum(path.stem.encode()))

    preserved = urdf_to_sdf(robot, ConversionOptions(preserve_fixed_joints=True))
    back = parse_sdf(preserved.sdf, f'{path.stem}.sdf')
    back_tree = compile_tree(back, missing_mimic='ignore')
    links = [name for name in tree.link_names if name != 'world']
    # pr2's <gazebo> blocks add links of their own (parallel gripper links).
    blobs = blob_links(path)
    assert sorted(links + blobs) == sorted(back_tree.link_names)
    for trial in range(3):
        q = random_q(tree, robot, rng) if trial else tree.default_q()
        q_back = transfer(q, tree, back_tree, preserved.renamed_joints)
        if tree.mimic_joints:  # SDFormat 1.9 has no <mimic>: give mimic joints their values
            for mimic in tree.mimic_joints:
                name = preserved.renamed_joints.get(mimic.joint, mimic.joint)
                if name in back_tree.coordinate_index:
                    q_back[back_tree.coordinate_index[name]] = \
                        mimic.multiplier * q[mimic.coordinate] + mimic.offset
        assert_same(poses(tree, q), poses(back_tree, q_back), links, f'trial {trial}')

    lumped = urdf_to_sdf(robot)
    back = parse_sdf(lumped.sdf, f'{path.stem}.sdf')
    back_tree = compile_tree(back, missing_mimic='ignore')
    for trial in range(2):
        q = random_q(tree, robot, rng) if trial else tree.default_q()
        q_back = transfer(q, tree, back_tree, lumped.renamed_joints)
        for mimic in tree.mimic_joints:
            name = lumped.renamed_joints.get(mimic.joint, mimic.joint)
            if name in back_tree.coordinate_index:
                q_back[back_tree.coordinate_index[name]] = \
                    mimic.multiplier * q[mimic.coordinate] + mimic.offset
        ours, theirs = poses(tree, q), poses(back_tree, q_back)
        kept = [name for name in back_tree.link_names if name not in blobs]
        assert_same(ours, theirs, kept, f'lumped, trial {trial}')
        # Every lumped link is a <frame> where the URDF puts it.
        for name, frame in zip(back.index.frames, back.frames):
            original = {v: k for k, v in lumped.renamed_frames.items()}.get(name, name)
            if original in ours:
                np.testing.assert_allclose(theirs[name], ours[original], atol=1e-9,
                                           err_msg=f'frame {name}')


def _oracle_poses(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if f and f[0] in ('link', 'frame'):
            out[f[1]] = np.array([float(v) for v in f[2:9]])
    return out


@pytest.mark.oracle
@pytest.mark.skipif(support.oracle_path() is None, reason=support.NO_ORACLE)
@pytest.mark.parametrize('path', _params(), ids=support.corpus_ids() or ['none'])
def test_our_sdf_reader_resolves_poses_as_libsdformat(path, tmp_path):
    robot = parse_urdf(path.read_bytes(), path.name)
    sdf = tmp_path / f'{path.stem}.sdf'
    sdf.write_text(urdf_to_sdf(robot, ConversionOptions(preserve_fixed_joints=True)).sdf)
    reference = support.run_oracle('poses', sdf)
    assert reference.returncode == 0, reference.stderr
    expected = _oracle_poses(reference.stdout)
    back = parse_sdf(sdf.read_bytes(), sdf.name)
    tree = compile_tree(back, missing_mimic='ignore')
    ours = poses(tree, tree.default_q())
    assert set(expected) <= set(ours)
    for name, (x, y, z, qw, qx, qy, qz) in expected.items():
        t = ours[name]
        np.testing.assert_allclose(t[:3, 3], (x, y, z), atol=1e-9, err_msg=name)
        r = np.array([[1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw),
                       2 * (qx * qz + qy * qw)],
                      [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz),
                       2 * (qy * qz - qx * qw)],
                      [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw),
                       1 - 2 * (qx * qx + qy * qy)]])
        np.testing.assert_allclose(t[:3, :3], r, atol=1e-9, err_msg=name)
