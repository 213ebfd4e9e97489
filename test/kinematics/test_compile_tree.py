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
Tests of sdf_tools.kinematics.compile: the compiled structure, mimic joints and the errors.

Expected poses come from the independent reference in kinematics_reference.py.
"""

import math

from chain_fk import rot
from diagnostics import mimic_urdf
from diagnostics import sdf
from diagnostics import urdf
from kinematics_reference import assert_poses_close
from kinematics_reference import build
from kinematics_reference import J
from kinematics_reference import matrix_from_tf
from kinematics_reference import random_q
from kinematics_reference import random_tree
from kinematics_reference import ref_fk
from kinematics_reference import ref_local
from kinematics_reference import ref_values
from kinematics_reference import SUFFIXES
from kinematics_reference import TOL
from kinematics_reference import trans
import numpy as np
import pytest
from sdf_tools.errors import KinematicsError
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics


def test_topological_order_and_coordinate_names():
    rng = np.random.default_rng(1)
    links, joints = random_tree(rng, 22)
    tree = compile_tree(build(links, joints))
    assert sorted(tree.link_names) == sorted(links)
    for i, p in enumerate(tree.link_parent):
        assert p < i
    expected = []
    for name in tree.link_names:
        j = next((j for j in joints if j.child == name), None)
        if j is None or j.kind == 'fixed':
            continue
        expected.extend([j.name] if j.kind not in SUFFIXES
                        else [f'{j.name}/{s}' for s in SUFFIXES[j.kind]])
    assert tree.coordinate_names == tuple(expected)
    q0 = tree.default_q()
    for name, value in zip(tree.coordinate_names, q0):
        assert value == (1.0 if name.endswith('/qw') else 0.0)
    assert {j.name for j in tree.moving_joints} == {j.name for j in joints
                                                    if j.kind != 'fixed'}
    assert {j.name for j in tree.fixed_joints} == {j.name for j in joints if j.kind == 'fixed'}


# --- mimic joints -----------------------------------------------------------------------------

def mimic_chain():
    links = dict.fromkeys(('base', 'a', 'b', 'c', 'd'))
    joints = [  # the mimics come before their sources in the document
        J('jd', 'revolute', 'c', 'd', xyz=(0, 0, 0.1), axis=(0, 1, 0), mimic=('jc', 3.0, -0.2)),
        J('jc', 'prismatic', 'b', 'c', xyz=(0.2, 0, 0), axis=(1, 0, 0), mimic=('jb', -0.5, 0.3)),
        J('jb', 'revolute', 'a', 'b', xyz=(0, 0.1, 0), axis=(0, 0, 1), mimic=('ja', 2.0, 0.1)),
        J('ja', 'revolute', 'base', 'a', xyz=(0, 0, 0.3), axis=(1, 0, 0)),
    ]
    return links, joints


def test_mimic_chain_resolved():
    links, joints = mimic_chain()
    tree = compile_tree(build(links, joints))
    assert tree.coordinate_names == ('ja',)
    assert {j.name for j in tree.moving_joints} == {'ja', 'jb', 'jc', 'jd'}
    resolved = {m.joint: (m.source, m.multiplier, m.offset) for m in tree.mimic_joints}
    # jb = 2 ja + 0.1; jc = -0.5 jb + 0.3 = -ja + 0.25; jd = 3 jc - 0.2 = -3 ja + 0.55
    assert resolved['jb'] == pytest.approx(('ja', 2.0, 0.1))
    assert resolved['jc'] == pytest.approx(('ja', -1.0, 0.25))
    assert resolved['jd'] == pytest.approx(('ja', -3.0, 0.55))
    rng = np.random.default_rng(8)
    batch = random_q(rng, tree, 30)
    ours = forward_kinematics(tree, batch)
    for n, q in enumerate(batch):
        expected = ref_fk(links, joints, tree, q)
        assert_poses_close(ours[n], expected, tree.link_names)
        tf = dict(zip((j.name for j in tree.moving_joints), tree.joint_transforms(q)))
        values = ref_values(joints, tree, q)
        for j in joints:
            np.testing.assert_allclose(matrix_from_tf(*tf[j.name]),
                                       ref_local(j, values[j.name]), atol=TOL)


def test_mimic_cycle_raises_in_both_modes():
    links = dict.fromkeys(('base', 'a', 'b', 'c'))
    joints = [J('ja', 'revolute', 'base', 'a', mimic=('jb', 1.0, 0.0)),
              J('jb', 'revolute', 'a', 'b', mimic=('ja', 1.0, 0.0)),
              J('jc', 'revolute', 'b', 'c', mimic=('jc', 1.0, 0.0))]
    for mode in ('error', 'ignore'):
        with pytest.raises(KinematicsError, match='mimic joints form a loop') as info:
            compile_tree(build(links, joints), missing_mimic=mode)
        codes = [d.code for d in info.value.diagnostics]
        assert codes == ['cycle', 'cycle']  # the two-joint loop and the self-mimic
        assert info.value.diagnostic.location.line == 7
        assert "joint 'j" in str(info.value)


MISSING_SOURCE_URDF = """<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="ja" type="revolute">
    <parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="jb" type="revolute">
    <parent link="a"/><child link="b"/><axis xyz="0 1 0"/><origin xyz="0.1 0 0"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
    <mimic joint="nope" multiplier="2"/>
  </joint>
</robot>"""


def test_missing_mimic_source_error_or_ignore():
    robot = parse_urdf(MISSING_SOURCE_URDF, 'hand.urdf')
    with pytest.raises(KinematicsError, match="names joint 'nope', which does not exist") as info:
        compile_tree(robot)
    d = info.value.diagnostic
    assert (d.code, d.entity, str(d.location)) == ('missing-joint', "joint 'jb'", 'hand.urdf:7')
    tree = compile_tree(robot, missing_mimic='ignore')
    assert tree.coordinate_names == ('ja', 'jb')
    assert tree.mimic_joints == ()
    [w] = tree.warnings
    assert (w.code, w.entity, str(w.location)) == ('missing-joint', "joint 'jb'", 'hand.urdf:7')
    assert w.message.endswith('the <mimic> is ignored and the joint moves independently')
    assert compile_tree(parse_urdf(MISSING_SOURCE_URDF.replace('nope', 'ja'))).warnings == ()
    q = [0.4, -0.7]
    expected = rot((0, 0, 1), 0.4) @ trans((0.1, 0, 0)) @ rot((0, 1, 0), -0.7)
    np.testing.assert_allclose(forward_kinematics(tree, q)[tree.link_index['b']], expected,
                               atol=TOL)
    with pytest.raises(ValueError, match='missing_mimic'):
        compile_tree(robot, missing_mimic='warn')


def test_mimic_of_fixed_or_multi_dof_source():
    links = dict.fromkeys(('base', 'a', 'b'))
    joints = [J('ball', 'ball', 'base', 'a'), J('jb', 'revolute', 'a', 'b', mimic=('ball', 1, 0))]
    with pytest.raises(KinematicsError, match='no single value') as info:
        compile_tree(build(links, joints))
    assert info.value.diagnostic.code == 'bad-mimic'
    tree = compile_tree(build(links, joints), missing_mimic='ignore')
    assert 'jb' in tree.coordinate_names


# --- structural errors ------------------------------------------------------------------------

def test_zero_axis_raises():
    links = dict.fromkeys(('base', 'a', 'b', 'c'))
    joints = [J('ok_fixed', 'fixed', 'base', 'a', axis=(0, 0, 0)),  # fixed: axis unused
              J('bad', 'revolute', 'a', 'b', axis=(0, 0, 0)),
              J('bad2', 'universal', 'b', 'c', axis=(1, 0, 0), axis2=(0, 0, 0))]
    with pytest.raises(KinematicsError) as info:
        compile_tree(build(links, joints))
    found = [(d.code, d.entity) for d in info.value.diagnostics]
    assert found == [('zero-axis', "joint 'bad'"), ('zero-axis', "joint 'bad2'")]
    assert '<axis2>' in str(info.value)


def test_loop_raises_and_a_second_parent_joint_is_left_out_as_a_loop_joint():
    links = dict.fromkeys(('base', 'a', 'b', 'c'))
    loop = [J('j1', 'revolute', 'base', 'a'), J('j2', 'revolute', 'b', 'c'),
            J('j3', 'revolute', 'c', 'b')]
    with pytest.raises(KinematicsError, match='kinematic loop') as info:
        compile_tree(build(links, loop))
    assert info.value.diagnostic.code == 'cycle'
    # A four-bar style closure: b is the child of j2 (its tree joint) and of j3.
    two_parents = [J('j1', 'revolute', 'base', 'a'), J('j2', 'revolute', 'base', 'b'),
                   J('j3', 'revolute', 'a', 'b'), J('j4', 'revolute', 'base', 'c')]
    tree = compile_tree(build(links, two_parents))
    assert tree.loop_joints == ('j3',)
    assert tree.coordinate_names == ('j1', 'j2', 'j4')
    assert tree.link_parent[tree.link_index['b']] == tree.link_index['base']
    mimic_of_loop = [*two_parents[:3], J('j4', 'revolute', 'base', 'c', mimic=('j3', 2.0, 0.0))]
    with pytest.raises(KinematicsError, match="'j3', which closes a kinematic loop"):
        compile_tree(build(links, mimic_of_loop))
    assert 'j4' in compile_tree(build(links, mimic_of_loop),
                                missing_mimic='ignore').coordinate_names
    with pytest.raises(KinematicsError, match="'nowhere' is not defined"):
        compile_tree(build(links, [J('j1', 'revolute', 'nowhere', 'a')]))


# --- moved from the cross-reader tests of invalid descriptions ---------------------------

def test_compile_tree_refuses_a_mimic_of_a_missing_joint():
    robot = parse_urdf(mimic_urdf('<mimic joint="ghost"/>'))
    with pytest.raises(KinematicsError, match="<mimic> names joint 'ghost', which does not "
                       'exist') as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5
    assert info.value.diagnostic.entity == "joint 'j1'"
    tree = compile_tree(robot, missing_mimic='ignore')
    assert tree.coordinate_names == ('j1', 'j2')


def test_compile_tree_refuses_mimic_cycles():
    robot = parse_urdf(mimic_urdf('<mimic joint="j2"/>', '<mimic joint="j1"/>'))
    with pytest.raises(KinematicsError, match="mimic joints form a loop: 'j1' -> 'j2' -> "
                       "'j1'") as info:
        compile_tree(robot, missing_mimic='ignore')
    assert (info.value.diagnostic.location.line, info.value.diagnostic.code) == (5, 'cycle')
    robot = parse_urdf(mimic_urdf('<mimic joint="j1"/>'))
    with pytest.raises(KinematicsError, match='mimic joints form a loop') as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5


def test_compile_tree_refuses_an_sdf_mimic_of_a_missing_joint():
    doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
              '<parent>a</parent><child>b</child>',
              '<axis><xyz>0 0 1</xyz><mimic joint="ghost"/></axis>', '</joint>',
              version='1.11')
    robot = parse_sdf(doc)
    with pytest.raises(KinematicsError, match="names joint 'ghost'") as info:
        compile_tree(robot)
    assert info.value.diagnostic.location.line == 5


def test_mimic_chains_whose_factors_overflow_are_refused_by_compile_tree():
    doc = urdf('<link name="a"/>', '<link name="b"/>', '<link name="c"/>', '<link name="d"/>',
               '<joint name="j1" type="continuous"><parent link="a"/><child link="b"/></joint>',
               '<joint name="j2" type="continuous"><parent link="b"/><child link="c"/>',
               '<mimic joint="j1" multiplier="1e200"/></joint>',
               '<joint name="j3" type="continuous"><parent link="c"/><child link="d"/>',
               '<mimic joint="j2" multiplier="1e200"/></joint>')
    with pytest.raises(KinematicsError, match=r"the mimic chain to 'j1' multiplies to value \* "
                       r'inf \+ 0, which is not finite') as info:
        compile_tree(parse_urdf(doc))
    assert (info.value.diagnostic.entity, info.value.diagnostic.location.line) == (
        "joint 'j3'", 9)


@pytest.mark.parametrize('xyz', ['1e200 1e200 0', '1e-200 0 0', '1e154 1e154 1e154'])
def test_tiny_and_huge_axes_are_not_zero_and_do_not_overflow(xyz):
    urdf_doc = urdf('<link name="a"/>', '<link name="b"/>',
                    '<joint name="j" type="continuous"><parent link="a"/><child link="b"/>',
                    f'<axis xyz="{xyz}"/></joint>')
    sdf_doc = sdf('<link name="a"/>', '<link name="b"/>', '<joint name="j" type="revolute">',
                  f'<parent>a</parent><child>b</child><axis><xyz>{xyz}</xyz></axis>',
                  '</joint>')
    expected = np.array([float(v) for v in xyz.split()])
    expected = expected / np.abs(expected).max()
    expected = expected / np.linalg.norm(expected)
    for robot in (parse_urdf(urdf_doc), parse_sdf(sdf_doc)):
        tree = compile_tree(robot)
        pose = forward_kinematics(tree, [0.5])[tree.link_index['b']]
        rotation = pose[:3, :3]
        np.testing.assert_allclose(rotation @ expected, expected, atol=1e-12)
        assert abs(np.trace(rotation) - (1 + 2 * math.cos(0.5))) < 1e-12
