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
The package reads in one sitting: no module over 600 lines, no function over 80.

The limits are the house's; a file or function that outgrows them is split
where its parts have names of their own, not wrapped.
"""

import ast

import support

MODULE_LINES = 600
FUNCTION_LINES = 80


def _modules():
    return sorted((support.REPO_DIR / 'sdf_tools').rglob('*.py'))


def test_no_module_is_longer_than_a_sitting():
    long = {str(path.relative_to(support.REPO_DIR)): lines for path in _modules()
            if (lines := path.read_text(encoding='utf-8').count('\n')) > MODULE_LINES}
    assert not long, f'modules over {MODULE_LINES} lines: {long}'


def test_no_function_is_longer_than_a_screenful_or_two():
    long = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding='utf-8'))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long[f'{path.relative_to(support.REPO_DIR)}:{node.lineno} {node.name}'] = lines
    assert not long, f'functions over {FUNCTION_LINES} lines: {long}'
