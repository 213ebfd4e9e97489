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
Our SDFormat in a real physics engine: ignition-physics 5 + DART (Gazebo Fortress).

For every corpus robot, ../shared/tools/physics_probe loads the SDF we write and reports what
the engine built. We require: no SDFormat error (Fortress refuses a file with any), every joint
that came from the URDF built with its degrees of freedom, engine link poses equal to our
forward kinematics of the URDF at zero and at a random configuration, and a 500-step
simulation with the root welded in place that stays finite, with the engine's mass equal to
the file's and no inertia the engine calls invalid. pr2's own <gazebo> blocks add joints
that close kinematic loops, which the engine cannot build; those are the only exceptions.

Needs the probe (tools/physics_probe/build.sh; SDF_TOOLS_PROBE); skips with the reason
otherwise.
"""

import numpy as np
import pytest
from sdf_tools import batch_transforms
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.model import JointType
import support

FILES = support.corpus_files()
PROBE = support.PROBE_PATH
pytestmark = [
    pytest.mark.skipif(not FILES, reason=support.NO_CORPUS),
    pytest.mark.skipif(not support.probe_built(),
                       reason=support.NO_PROBE),
]


def parse_poses(stdout):
    links, joints = {}, {}
    for line in stdout.splitlines():
        f = line.split()
        if f[:1] == ['link']:
            x, y, z, qw, qx, qy, qz = map(float, f[2:9])
            t = np.eye(4)
            t[:3, :3] = batch_transforms.matrix_from_quat((qx, qy, qz, qw))
            t[:3, 3] = (x, y, z)
            links[f[1]] = t
        elif f[:2] == ['#', 'joint']:
            joints[f[2]] = f[f.index('dofs') + 1]
    return links, joints


def blob_joint_names(robot):
    return {e.get('name') for block in robot.gazebo for e in block.elements
            if getattr(e, 'tag', None) == 'joint' and e.get('name')}


@pytest.mark.parametrize('path', FILES or [None], ids=support.corpus_ids() or ['none'])
def test_engine_builds_our_sdf_as_meant(path, tmp_path):
    robot = parse_urdf(path.read_bytes(), path.name)
    result = urdf_to_sdf(robot)
    sdf = tmp_path / f'{path.stem}.sdf'
    sdf.write_text(result.sdf)
    tree = compile_tree(robot, missing_mimic='ignore')
    renamed = result.renamed_joints
    blob_joints = blob_joint_names(robot)

    zero = support.run_probe('poses', sdf)
    assert '# sdf_errors 0' in zero.stdout, zero.stderr[-2000:]
    engine, joints = parse_poses(zero.stdout)
    urdf_kinds = {j.name: j.kind for j in robot.joints}
    for name, dofs in joints.items():
        original = next((k for k, v in renamed.items() if v == name), name)
        if original in blob_joints and dofs == 'MISSING':
            continue  # pr2: a <gazebo> joint closing a kinematic loop
        kind = urdf_kinds.get(original)
        expected = '0' if kind is JointType.FIXED else '1'
        assert dofs == expected, f'joint {name}: engine dofs {dofs}'
    free = [line for line in zero.stderr.splitlines() if 'free-floating' in line]
    loose = set(free[0].split(':')[-1].split()) if free else set()
    if loose:
        assert path.stem == 'pr2', free  # its parallel links hang on <gazebo> joints only

    rng = np.random.default_rng(sum(path.stem.encode()))
    for trial in range(2):
        q = tree.default_q()
        settings = []
        if trial:
            for i, name in enumerate(tree.coordinate_names):
                joint = robot.index.joints.get(name)
                if joint is None or joint.kind not in (JointType.REVOLUTE, JointType.CONTINUOUS,
                                                       JointType.PRISMATIC):
                    continue
                q[i] = rng.uniform(-0.2, 0.2) if joint.kind is JointType.PRISMATIC \
                    else rng.uniform(-1.5, 1.5)
            values = {name: float(q[i]) for i, name in enumerate(tree.coordinate_names)}
            for mimic in tree.mimic_joints:
                values[mimic.joint] = mimic.multiplier * float(q[mimic.coordinate]) \
                    + mimic.offset
            for name, value in values.items():
                sdf_name = renamed.get(name, name)
                if joints.get(sdf_name) == '1':
                    settings.append(f'{sdf_name}={value!r}')
        ours = dict(zip(tree.link_names, forward_kinematics(tree, q)))
        got, _ = parse_poses(support.run_probe('poses', sdf, *settings).stdout)
        compared = 0
        for name, pose in got.items():
            if name in loose:
                continue
            np.testing.assert_allclose(pose[:3, 3], ours[name][:3, 3], atol=1e-8,
                                       err_msg=f'{name} position, trial {trial}')
            np.testing.assert_allclose(pose[:3, :3], ours[name][:3, :3], atol=1e-8,
                                       err_msg=f'{name} orientation, trial {trial}')
            compared += 1
        assert compared >= 1

    step = support.run_probe('step', sdf, 500, '--fix-root')
    report = support.probe_report(step.stdout)
    assert report.get('finite', '').startswith('yes'), step.stdout[-1500:]
    assert report['inertia_invalid'].split()[0] == '0', report['inertia_invalid']
    assert float(report['mass_engine']) == pytest.approx(float(report['mass_sdf']), rel=1e-9)


@pytest.mark.parametrize('shape', [
    '<box size="5 5 0"/>', '<box size="1 -1 1"/>', '<cylinder radius="0" length="1"/>',
    '<cylinder radius="1" length="0"/>', '<sphere radius="0"/>',
    '<capsule radius="0.1" length="0"/>', '<capsule radius="0" length="1"/>',
])
def test_the_engine_never_aborts_on_our_sdf_of_shapes_without_volume(shape, tmp_path):
    # DART asserts each of these shapes has a volume (the Debian build keeps its asserts).
    urdf = (f'<robot name="flat"><link name="base"><inertial><mass value="1"/><inertia '
            'ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial><collision>'
            f'<geometry>{shape}</geometry></collision></link></robot>')
    sdf = tmp_path / 'flat.sdf'
    sdf.write_text(urdf_to_sdf(parse_urdf(urdf, 'flat.urdf')).sdf)
    step = support.run_probe('step', sdf, 10)
    assert step.returncode == 0, step.stderr[-1500:]
    assert 'finite yes' in step.stdout


def test_the_engine_loads_our_sdf_of_the_real_robot_defects(tmp_path):
    # libsdformat 12.3's conversion of the fixture does not load: two sensors of one name,
    # and DART aborts on the flat ground plane. Ours loads and steps.
    fixture = support.DATA_DIR / 'conversion' / 'real_robot_defects.urdf'
    theirs = support.run_probe('step', fixture.with_suffix('.sdformat12.3.0.sdf'), 10)
    assert 'sensor with name[eye] already exists' in theirs.stderr
    assert 'BoxShape' in theirs.stderr and theirs.returncode != 0
    sdf = tmp_path / 'defects.sdf'
    sdf.write_text(urdf_to_sdf(parse_urdf(fixture.read_bytes(), fixture.name)).sdf)
    ours = support.run_probe('step', sdf, 10)
    assert ours.returncode == 0, ours.stderr[-1500:]
    assert '# sdf_errors 0' in ours.stdout and 'finite yes' in ours.stdout
