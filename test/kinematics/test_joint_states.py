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
Tests of the /tf path: joint_transforms, joint_vector and JointStatePlan.

Expected transforms come from the independent reference in kinematics_reference.py.
"""

import array
import math

from kinematics_reference import assert_poses_close
from kinematics_reference import build
from kinematics_reference import J
from kinematics_reference import matrix_from_tf
from kinematics_reference import random_joint
from kinematics_reference import random_q
from kinematics_reference import random_tree
from kinematics_reference import ref_fk
from kinematics_reference import ref_local
from kinematics_reference import ref_values
from kinematics_reference import TOL
import numpy as np
import pytest
from sdf_tools.errors import KinematicsError
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
import support


def test_joint_transforms_compose_to_world_poses():
    rng = np.random.default_rng(5)
    links, joints = random_tree(rng, 25, roots=3)
    joints.append(random_joint(rng, 'to_world', 'revolute', 'world', 'floating_body'))
    links['floating_body'] = None
    tree = compile_tree(build(links, joints))
    assert tree.moving_joints[[j.name for j in tree.moving_joints].index('to_world')].parent \
        == 'world'
    for q in random_q(rng, tree, 20):
        world = {'world': np.eye(4)}
        for name, (xyz, quat) in zip(tree.root_links, tree.root_link_poses):
            world[name] = matrix_from_tf(xyz, quat)
        local = {}
        for j, tf in zip(tree.moving_joints, tree.joint_transforms(q.tolist())):
            local[j.child] = (j.parent, matrix_from_tf(*tf))
        for j, tf in zip(tree.fixed_joints, tree.fixed_joint_transforms):
            local[j.child] = (j.parent, matrix_from_tf(*tf))
        for name in tree.link_names:  # parents first
            if name not in world:
                parent, t = local[name]
                world[name] = world[parent] @ t
        ours = forward_kinematics(tree, q)
        for i, name in enumerate(tree.link_names):
            np.testing.assert_allclose(world[name], ours[i], rtol=0, atol=TOL)
        expected = ref_fk(links, joints, tree, q)
        assert_poses_close(ours, expected, tree.link_names)


# --- named values and the joint_states hot path -----------------------------------------------

def small_tree():
    links = dict.fromkeys(('base', 'a', 'b', 'c', 'd'))
    joints = [J('ja', 'revolute', 'base', 'a', xyz=(0, 0, 0.2), axis=(0, 0, 1)),
              J('jb', 'prismatic', 'a', 'b', xyz=(0.1, 0, 0), axis=(1, 0, 0)),
              J('jc', 'revolute', 'b', 'c', axis=(0, 1, 0), mimic=('ja', -1.0, 0.2)),
              J('jd', 'floating', 'base', 'd')]
    return links, joints, compile_tree(build(links, joints))


def test_joint_vector():
    _, _, tree = small_tree()
    result = tree.joint_vector({'jb': 0.25, 'jc': 9.0, 'nope': 1.0, 'jd/z': 2, 'jd/qw': 0.5})
    expected = dict(zip(tree.coordinate_names, tree.default_q()))
    expected.update({'jb': 0.25, 'jd/z': 2.0, 'jd/qw': 0.5})
    assert result.q.tolist() == [expected[n] for n in tree.coordinate_names]
    assert (result.unknown, result.mimic) == (('nope',), ('jc',))
    assert tree.joint_vector([('ja', np.float32(0.5))]).q[0] == 0.5
    for bad, match in ((float('nan'), 'finite'), (float('-inf'), 'finite'),
                       ('0.3', 'real number'), (None, 'real number'), (1j, 'real number')):
        with pytest.raises(KinematicsError, match=f"joint 'jb'.*{match}"):
            tree.joint_vector({'ja': 0.1, 'jb': bad})
    with pytest.raises(KinematicsError, match="'nope'"):
        tree.joint_vector({'nope': 1.0}, strict=True)
    with pytest.raises(KinematicsError, match="'jc'"):
        tree.joint_vector({'jc': 1.0}, strict=True)


def test_joint_state_plan():
    links, joints, tree = small_tree()
    names = ['jb', 'extra', 'jc', 'ja']
    plan = tree.joint_state_plan(names)
    assert plan.unknown == ('extra',) and plan.mimic == ('jc',)
    moving = [j.name for j in tree.moving_joints]
    # ja moves ja and its mimic jc; jb moves jb; the floating jd is not touched.
    assert sorted(moving[k] for k in plan.joints) == ['ja', 'jb', 'jc']
    assert [j.name for j in plan.tree_joints] == [moving[k] for k in plan.joints]
    q = tree.default_q().tolist()
    positions = [0.3, float('nan'), 5.0, -0.4]
    plan.update(q, positions)  # the unknown name's NaN is ignored
    assert q[tree.coordinate_index['ja']] == -0.4
    assert q[tree.coordinate_index['jb']] == 0.3
    full = dict(zip(moving, tree.joint_transforms(q)))
    # The value reported for the mimic joint jc wins over its formula (robot_state_publisher).
    reported = dict(zip((j.name for j in plan.tree_joints), plan.transforms(q, positions)))
    assert (reported['ja'], reported['jb']) == (full['ja'], full['jb'])
    by_name = {j.name: j for j in joints}
    np.testing.assert_allclose(matrix_from_tf(*reported['jc']), ref_local(by_name['jc'], [5.0]),
                               atol=TOL)
    with pytest.raises(ValueError, match='mimic joint.*jc.*pass positions'):
        plan.transforms(q)
    # A message with only the source: the formula fills in again.
    source_only = tree.joint_state_plan(['ja'])
    source_only.update(q, [-0.4])
    assert dict(zip((j.name for j in source_only.tree_joints), source_only.transforms(q))) == {
        'ja': full['ja'], 'jc': full['jc']}
    values = ref_values(joints, tree, q)
    for j in joints:
        np.testing.assert_allclose(matrix_from_tf(*full[j.name]), ref_local(j, values[j.name]),
                                   atol=TOL)
    before = list(q)
    with pytest.raises(KinematicsError, match="joint 'ja'.*finite"):
        plan.update(q, [0.1, 0.0, 0.0, float('inf')])
    with pytest.raises(KinematicsError, match="joint 'jb'.*real number"):
        plan.update(q, ['x', 0.0, 0.0, 0.0])
    with pytest.raises(KinematicsError, match='3 positions for 4 joint names'):
        plan.update(q, [0.1, 0.2, 0.3])
    with pytest.raises(KinematicsError, match="joint 'jb'.*got bool True"):
        plan.update(q, [True, 0.0, 0.0, 0.5])  # a bool among floats is still refused
    with pytest.raises(KinematicsError, match="joint 'jc'.*finite"):
        plan.update(q, [0.1, 0.0, float('nan'), 0.0])  # a mimic value is used: checked
    assert q == before
    by_index = tree.coordinate_plan([tree.coordinate_index['jb']])
    assert by_index.names == ('jb',) and [moving[k] for k in by_index.joints] == ['jb']
    with pytest.raises(IndexError):
        tree.coordinate_plan([tree.n_q])
    assert tree.joint_transforms({'ja': -0.4, 'jb': 0.3}) == tree.joint_transforms(q)
    # rclpy's array.array('d'), numpy arrays and numpy scalars all give q plain floats.
    for positions in (array.array('d', [0.25, 9.0, 9.0, -0.5]),
                      np.array([0.25, 9.0, 9.0, -0.5], dtype=np.float32),
                      [np.float32(0.25), 1e300, 9.0, np.int64(-1)]):
        plan.update(q, positions)
        assert type(q[tree.coordinate_index['jb']]) is float
        assert q[tree.coordinate_index['jb']] == 0.25


def test_reported_mimic_values_win_along_chains():
    """A reported mimic value moves its joint and the joints mimicking it, per message."""
    links = dict.fromkeys(('base', 'a', 'b', 'c', 'd'))
    joints = [J('ja', 'revolute', 'base', 'a', axis=(0, 0, 1)),
              J('jb', 'prismatic', 'a', 'b', axis=(1, 0, 0), mimic=('ja', 2.0, 0.1)),
              J('jc', 'revolute', 'b', 'c', xyz=(0.1, 0, 0), axis=(0, 1, 0),
                mimic=('jb', -1.0, 0.3)),
              J('jd', 'revolute', 'c', 'd', xyz=(0, 0.2, 0), axis=(1, 0, 0),
                mimic=('jc', 0.5, 0.0))]
    tree = compile_tree(build(links, joints))
    by_name = {j.name: j for j in joints}
    moving = [j.name for j in tree.moving_joints]
    drives = {moving[k]: drive for k, drive in tree.mimic_drives(['jb']).items()}
    n = tree.n_q
    assert drives == {'jb': (n, 1.0, 0.0), 'jc': (n, -1.0, 0.3), 'jd': (n, -0.5, 0.15)}
    with pytest.raises(KeyError, match="'ja' is not a mimic joint"):
        tree.mimic_drives(['ja'])
    # joint_states with ja and jb: jb as reported, jc and jd follow jb's reported value.
    plan = tree.joint_state_plan(['jb', 'ja', 'jb'])
    assert plan.mimic == ('jb',) and plan.duplicates == ('jb',)
    assert [moving[k] for k in plan.joints] == ['ja', 'jb', 'jc', 'jd']
    q = tree.default_q().tolist()
    positions = [0.05, 0.7, 9.0]  # the second jb is ignored: the first counts
    plan.update(q, positions)
    values = {'ja': 0.7, 'jb': 0.05, 'jc': 0.25, 'jd': 0.125}
    for j, tf in zip(plan.tree_joints, plan.transforms(q, positions)):
        np.testing.assert_allclose(matrix_from_tf(*tf), ref_local(by_name[j.name],
                                                                  [values[j.name]]), atol=TOL)
    # forward_kinematics takes the same values and agrees with composing the transforms.
    poses = forward_kinematics(tree, q, mimic_values={'jb': 0.05})
    world = np.eye(4)
    for i, name in enumerate(('ja', 'jb', 'jc', 'jd')):
        world = world @ ref_local(by_name[name], [values[name]])
        np.testing.assert_allclose(poses[tree.link_index['abcd'[i]]], world, atol=TOL)
    np.testing.assert_allclose(forward_kinematics(tree, q, mimic_values={}),
                               forward_kinematics(tree, q), atol=0)
    with pytest.raises(ValueError, match='single configuration'):
        forward_kinematics(tree, [q, q], mimic_values={'jb': 0.05})
    with pytest.raises(KinematicsError, match="joint 'jb'.*finite"):
        forward_kinematics(tree, q, mimic_values={'jb': float('inf')})


def test_reported_mimic_values_resolve_in_linear_time():
    """A mimic value given near the top of a long mimic chain costs linear time, not n²."""
    def mimic_chain(n):
        # j0 independent, j(i) mimics j(i - 1): j5's value decides j6 .. j(n - 1).
        joints = [J(f'j{i}', 'revolute', f'l{i}', f'l{i + 1}', axis=(0, 0, 1),
                    mimic=(f'j{i - 1}', 1.0, 0.0) if i else None) for i in range(n)]
        return compile_tree(build(dict.fromkeys(f'l{i}' for i in range(n + 1)), joints))

    def cpu_seconds(n):
        tree = mimic_chain(n)
        q = tree.default_q().tolist()
        moving = [j.name for j in tree.moving_joints]
        assert [moving[k] for k in tree.mimic_drives(['j5'])] == moving[5:]
        # Every joint about z: the last link turns by 0.3 rad per joint from j5 on.
        end = forward_kinematics(tree, q, mimic_values={'j5': 0.3})[tree.link_index[f'l{n}']]
        angle = 0.3 * (n - 5)
        np.testing.assert_allclose(end[:2, 0], [math.cos(angle), math.sin(angle)], atol=1e-6)

        def with_mimic_value():
            forward_kinematics(tree, q, mimic_values={'j5': 0.3})
            tree.joint_state_plan(['j0', 'j5'])

        return support.least_cpu_seconds(with_mimic_value, repeats=2)

    small, large = cpu_seconds(2_000), cpu_seconds(8_000)
    # Four times the joints: linear is about four times the CPU time, quadratic sixteen.
    assert large < 8.0 * small, (f'4x the joints took {large / small:.1f}x the CPU time '
                                 f'({small:.3f} s -> {large:.3f} s): not linear')


# --- TfArrays: the same transforms as the plain tuples ----------------------------------------

def arrays_agree(tree, names, positions):
    """Evaluate one message both ways; return the number of joints compared."""
    from sdf_tools.kinematics.joint_states import TfArrays
    plan = tree.joint_state_plan(names)
    arrays = TfArrays(plan)
    q = tree.default_q().tolist()
    plan.update(q, positions)
    expected = np.array([(*xyz, *quat) for xyz, quat in plan.transforms(q, positions)])
    got = arrays.evaluate(q, array.array('d', positions)).T
    # numpy's sin and cos are the C library's here (one ulp apart on AVX-512 builds).
    np.testing.assert_array_max_ulp(got, expected.reshape(got.shape), maxulp=1)
    return len(plan.joints)


def test_tf_arrays_equal_the_plain_tuples():
    """Every joint kind, mimic joints (with and without reported values), KDL's sign."""
    rng = np.random.default_rng(34)
    links, joints = random_tree(rng, 60)
    for j in joints[10:20]:
        if j.kind in ('revolute', 'continuous', 'prismatic'):
            j.mimic = (joints[0].name if j.kind != joints[0].kind else 'j1',
                       float(rng.uniform(-2, 2)), float(rng.uniform(-1, 1)))
    joints[0].kind = 'revolute'
    tree = compile_tree(build(links, joints))
    moving = [j.name for j in tree.moving_joints]
    compared = 0
    for k in range(40):
        names = list(tree.coordinate_names) + (moving[10:20] if k % 2 else [])
        names = [n for n in names if k < 20 or rng.random() < 0.6]
        # Angles over several turns: qw takes both signs, KDL's branches all run.
        positions = rng.uniform(-8.0, 8.0, len(names)).tolist()
        compared += arrays_agree(tree, names, positions)
    assert compared > 1000


@pytest.mark.parametrize('path', support.corpus_files()[::5],
                         ids=support.corpus_ids()[::5])
def test_tf_arrays_equal_the_plain_tuples_on_corpus_robots(path):
    from sdf_tools.ros.descriptions import load_model
    tree = load_model(path.read_text()).tree
    rng = np.random.default_rng(len(path.stem))
    names = list(tree.coordinate_names)
    for _ in range(20):
        arrays_agree(tree, names, rng.uniform(-7.0, 7.0, len(names)).tolist())


def test_tf_arrays_refuse_an_infinite_angle_as_the_tuples_do():
    links = dict.fromkeys(('base', 'a', 'b'))
    joints = [J('ja', 'revolute', 'base', 'a', axis=(0, 0, 1)),
              J('jb', 'revolute', 'a', 'b', axis=(0, 1, 0), mimic=('ja', 1e308, 0.0))]
    tree = compile_tree(build(links, joints))
    from sdf_tools.kinematics.joint_states import TfArrays
    plan = tree.joint_state_plan(['ja'])
    arrays = TfArrays(plan)
    q = tree.default_q().tolist()
    plan.update(q, [0.5])
    assert arrays_agree(tree, ['ja'], [0.5]) == 2
    plan.update(q, [10.0])  # 1e309 rad: infinite
    with pytest.raises(KinematicsError, match='jb'):
        plan.transforms(q)
    with pytest.raises(KinematicsError, match='jb'):
        arrays.evaluate(q, [10.0])
