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

"""Tests of the sdf_tools.kinematics package itself: its public API and what it imports."""

import ast

import sdf_tools.kinematics
from support import REPO_DIR

# The ground the kinematics stands on; never a format, the converter or files.
ALLOWED = ('sdf_tools.records', 'sdf_tools.errors', 'sdf_tools.transforms',
           'sdf_tools.batch_transforms', 'sdf_tools.topology', 'sdf_tools.model',
           'sdf_tools.validate', 'sdf_tools.kinematics')


def test_public_api():
    assert sorted(sdf_tools.kinematics.__all__) == sorted([
        'compile_tree', 'forward_kinematics', 'frame_poses', 'KinematicTree', 'JointStatePlan',
        'JointVector', 'TreeJoint', 'MimicJoint', 'DEFAULT_CHUNK_SIZE', 'MISSING_MIMIC_MODES'])
    for name in sdf_tools.kinematics.__all__:
        assert getattr(sdf_tools.kinematics, name) is not None, name


def test_kinematics_imports_only_the_ground_modules():
    paths = sorted((REPO_DIR / 'sdf_tools' / 'kinematics').glob('*.py'))
    assert len(paths) > 5
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or '']
            else:
                continue
            for module in modules:
                if module.split('.')[0] == 'sdf_tools':
                    assert module.startswith(ALLOWED), f'{path.name} imports {module}'
