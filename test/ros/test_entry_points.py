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
Tests of the nodes' console scripts (setup.py's entry points), before the node is up.

Each runs the function setup.py names, in a process as the installed script does: without
ROS 2 (rclpy hidden from ``sys.path``) it says what to install in one line, ``--help``
included; Ctrl-C while it imports ends it quietly with 0, as Ctrl-C ends a running node, and
so does ``--help`` into a pipe closed early (``| head``).
"""

import ast
import os
import signal
import subprocess
import sys

import pytest
from support import REPO_DIR

NODES = ('state_publisher', 'sdf_converter')
# Hides every folder holding rclpy (a ROS install's, or the virtual environment's).
HIDE_ROS = ('import os, sys\nsys.path[:] = [p for p in sys.path '
            "if not os.path.isdir(os.path.join(p or '.', 'rclpy'))]\n")
# Makes importing rclpy say so, then take a minute: Ctrl-C comes while the node imports.
SLOW_ROS = """
import sys
import time


class Slow:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == 'rclpy':
            print('importing rclpy', flush=True)
            time.sleep(60)
        return None


sys.meta_path.insert(0, Slow)
"""


def console_scripts() -> dict:
    """Return setup.py's console scripts: name -> ``module:function``."""
    tree = ast.parse((REPO_DIR / 'setup.py').read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == 'console_scripts':
                    items = (ast.literal_eval(item).split('=') for item in value.elts)
                    return {name.strip(): target.strip() for name, target in items}
    raise AssertionError('no console_scripts in setup.py')


def _script(node: str, prelude: str) -> list:
    """Return the command running ``node``'s console script after ``prelude``."""
    module, function = console_scripts()[node].split(':')
    code = f'{prelude}\nimport sys\nfrom {module} import {function}\nsys.exit({function}())\n'
    return [sys.executable, '-c', code]


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO_DIR), os.environ.get('PYTHONPATH', '')]))


@pytest.mark.parametrize('node', NODES)
@pytest.mark.parametrize('arguments', [['--help'], []], ids=['help', 'start'])
def test_without_ros_a_node_says_what_to_install_in_one_line(node, arguments):
    done = subprocess.run(_script(node, HIDE_ROS) + arguments, capture_output=True,
                          text=True, env=_env(), timeout=120)
    assert (done.returncode, done.stdout) == (1, ''), done.stderr
    assert done.stderr.startswith(f'{node}: error: ROS 2 is not available (no Python '
                                  "module 'rclpy'): source it first")
    assert done.stderr.count('\n') == 1 and 'Traceback' not in done.stderr


@pytest.mark.parametrize('node', NODES)
def test_ctrl_c_while_a_node_imports_ends_it_quietly(node):
    with subprocess.Popen(_script(node, SLOW_ROS), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=_env()) as child:
        assert child.stdout.readline() == 'importing rclpy\n'
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    assert (child.returncode, out, err) == (0, '', '')


@pytest.mark.parametrize('node', NODES)
def test_help_into_a_closed_pipe_ends_quietly(node):
    pytest.importorskip('rclpy', reason='rclpy is not installed')
    with subprocess.Popen(_script(node, '') + ['--help'], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=_env()) as child:
        child.stdout.close()  # before the node writes: as '| head -0'
        err = child.stderr.read()
        child.wait(timeout=120)
    assert (child.returncode, err) == (0, '')
