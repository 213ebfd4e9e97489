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
Tests of the node runner (sdf_tools.ros.node_support.run) in a subprocess with real rclpy.

``run`` owns SIGINT/SIGTERM: rclpy's own handler would shut the context down from another
thread, and a shutdown landing between the loop's ``rclpy.ok()`` and the executor's wait made
a Ctrl-C exit with "failed to initialize wait set: the given context is not valid" (seen once
in CI). The EventsExecutor handles the events of 0.2 s per call in C++, the
``SingleThreadedExecutor`` one per call; ``run`` looks at its signal flag between calls.
These tests stop nodes in each way a node is stopped, with both executors, and read the exit
code.
"""
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip('rclpy', reason='rclpy is not installed')

from ros_support import subprocess_env  # noqa: E402
from support import REPO_DIR  # noqa: E402

pytestmark = pytest.mark.ros

# A node whose timer stops it in the way named by argv[1] at its third tick; it prints the
# rclpy signal handler options in force while it spins, and how often run() asked rclpy.ok().
PROGRAM = """
import os
import signal
import sys

import rclpy
from rclpy.signals import get_current_signal_handlers_options

from sdf_tools.ros import node_support
from sdf_tools.ros.node_support import FailingNode
from sdf_tools.ros.node_support import run

how = sys.argv[1]
asked = []
ok = rclpy.ok


def counted_ok(*args, **kwargs):
    asked.append(1)
    return ok(*args, **kwargs)


node_support.rclpy.ok = counted_ok


ticks = []


def make_node():
    node = FailingNode('runner_test')

    def tick():
        ticks.append(1)
        if len(ticks) == 1:
            print('options', get_current_signal_handlers_options().name, flush=True)
        elif len(ticks) == STOP_AT:
            if how == 'shutdown':
                rclpy.shutdown()
            elif how == 'failure':
                node.failure = 'cannot go on: the reason\\ncannot go on: a second one'
            else:
                os.kill(os.getpid(), getattr(signal, how))

    node.create_timer(0.02, tick)
    return node


STOP_AT = 30  # the tick that stops the node


before = signal.getsignal(signal.SIGINT)  # SIG_IGN when started in the background by sh
code = run('runner_test', 'test', (), make_node, args=['runner_test'])
print('handler restored', signal.getsignal(signal.SIGINT) is before)
print('rclpy.ok asked', len(asked))
print('ticks', len(ticks))
sys.exit(code)
"""


STOP_AT = 30  # PROGRAM's


def _run_program(how, executor):
    env = subprocess_env()
    env['PYTHONPATH'] = os.pathsep.join([str(REPO_DIR), env.get('PYTHONPATH', '')])
    env['SDF_TOOLS_EXECUTOR'] = executor
    result = subprocess.run([sys.executable, '-c', PROGRAM, how], env=env,
                            capture_output=True, text=True, timeout=30)
    asked = re.search(r'rclpy.ok asked (\d+)', result.stdout)
    ticks = re.search(r'ticks (\d+)', result.stdout)
    return result, int(asked.group(1)) if asked else None, int(ticks.group(1)) if ticks else None


@pytest.mark.parametrize('executor', ['events', 'single'])
@pytest.mark.parametrize('how', ['SIGINT', 'SIGTERM', 'shutdown'])
def test_run_stops_cleanly(how, executor):
    result, _, ticks = _run_program(how, executor)
    assert result.returncode == 0, result.stderr
    assert 'Traceback' not in result.stderr
    assert 'options NO' in result.stdout  # rclpy's handler (and its thread) is not installed
    assert 'handler restored True' in result.stdout
    assert ticks is not None and ticks >= STOP_AT


@pytest.mark.parametrize('executor', ['events', 'single'])
def test_run_stops_a_node_that_failed_with_exit_code_1(executor):
    """A node that sets ``failure`` (a cause that cannot go away) is stopped, its reason fatal."""
    result, _, ticks = _run_program('failure', executor)
    assert result.returncode == 1, result.stderr
    for reason in ('the reason', 'a second one'):  # one log line each: each is greppable
        assert re.search(r'\[FATAL\] \[[0-9.]+\] \[runner_test\]: cannot go on: ' + reason,
                         result.stderr), result.stderr
    assert 'Traceback' not in result.stderr and 'handler restored True' in result.stdout
    assert ticks == STOP_AT  # no callback after the one that failed


def test_the_events_executor_spins_in_cpp_between_events():
    """No Python loop per event: run() looks at rclpy.ok() once per call (0.2 s, 10 ticks)."""
    result, asked, ticks = _run_program('SIGINT', 'events')
    assert result.returncode == 0 and ticks >= STOP_AT, result.stderr
    assert asked is not None and asked <= STOP_AT // 3
    # the SingleThreadedExecutor is spun once per event, rclpy.ok() asked between them
    result, asked, ticks = _run_program('SIGINT', 'single')
    assert result.returncode == 0 and ticks >= STOP_AT, result.stderr
    assert asked is not None and asked >= STOP_AT


def test_a_refused_description_is_one_log_line_a_problem_in_file_order():
    from sdf_tools.errors import DescriptionError
    from sdf_tools.errors import Diagnostic
    from sdf_tools.errors import Severity
    from sdf_tools.errors import SourceLocation
    from sdf_tools.ros.node_support import problem_lines

    def at(line, message, severity=Severity.ERROR):
        return Diagnostic(message, SourceLocation('<robot_description>', line), None, severity)

    error = DescriptionError([at(9, 'bad number'), at(2, 'no parent')],
                             warnings=[at(5, 'unknown <orgin>', Severity.WARNING)])
    assert problem_lines('Rejected the new robot_description', error) == [
        'Rejected the new robot_description: <robot_description>:2: no parent',
        'Rejected the new robot_description: <robot_description>:5: warning: unknown <orgin>',
        'Rejected the new robot_description: <robot_description>:9: bad number']


def test_a_description_given_with_dash_p_gets_one_line_saying_what_works():
    """A URDF in -p, which rcl reads as YAML: one line, no XML, no rcl source path."""
    description = ('<?xml version="1.0" ?>\n<robot name="r">\n  <!-- note: a comment -->\n'
                   + '  <link name="a"/>\n' * 100 + '</robot>\n')  # > 1 kB: rcutils notes it
    env = subprocess_env()
    env['PYTHONPATH'] = os.pathsep.join([str(REPO_DIR), env.get('PYTHONPATH', '')])
    code = 'import sys; from sdf_tools.ros.sdf_converter import main; sys.exit(main())'
    result = subprocess.run([sys.executable, '-c', code, '--ros-args', '-p',
                             f'robot_description:={description}'], env=env,
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        'sdf_converter: error: rcl reads -p values as YAML, and the value of -p '
        'robot_description:=... is not valid YAML: pass the description with the launch file '
        '(ros2 launch sdf_tools bringup.launch.py description_file:=FILE) or put it in a '
        'parameters file (--ros-args --params-file FILE)']
