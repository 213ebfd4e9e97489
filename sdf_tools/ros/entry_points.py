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
The console scripts of the nodes, ``state_publisher`` and ``sdf_converter``: their first second.

Importing a node (rclpy, the message packages, tf2_ros) takes most of a second, before
:func:`sdf_tools.ros.node_support.run` installs the node's own Ctrl-C handling. So each
script, importing nothing heavy itself:

* handles SIGINT first: Ctrl-C while the node imports or reads its command line ends it
  quietly with 0, as Ctrl-C ends a running node (a launch file stopped at once then logs no
  30-line ``KeyboardInterrupt`` traceback and no "process has died");
* then imports the node: without ROS 2 (a plain ``pip install .``: no rclpy), even for
  ``--help``, it prints one line saying what to install and exits with 1;
* ``--help`` into a pipe closed early (``| head``) ends quietly too.
"""

import importlib
import os
import signal
import sys
from types import FrameType
from typing import NoReturn

#: Exit code of a node stopped by Ctrl-C (as :func:`~sdf_tools.ros.node_support.run`), or
#: whose reader went away.
EXIT_INTERRUPTED = 0
#: Exit code of a node that cannot start.
EXIT_FAILURE = 1


def state_publisher() -> int:
    """Run ``state_publisher`` (:mod:`sdf_tools.ros.state_publisher`); return the exit code."""
    return _start('state_publisher')


def sdf_converter() -> int:
    """Run ``sdf_converter`` (:mod:`sdf_tools.ros.sdf_converter`); return the exit code."""
    return _start('sdf_converter')


def _start(node: str) -> int:
    """Handle Ctrl-C, import the node's module, and run its ``main()``."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored (nohup)
        signal.signal(signal.SIGINT, _interrupted)
    try:
        importlib.import_module('rclpy')  # first: a missing ROS is named, not what it holds
        module = importlib.import_module(f'sdf_tools.ros.{node}')
    except ModuleNotFoundError as e:
        if (e.name or '').partition('.')[0] == 'sdf_tools':
            raise  # a module of our own missing: a broken install, not a missing ROS
        print(missing_module(node, e.name or str(e)), file=sys.stderr)
        return EXIT_FAILURE
    try:
        return module.main()
    except BrokenPipeError:  # --help | head: what was not read is not wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_INTERRUPTED


def _interrupted(signum: int, frame: FrameType | None) -> NoReturn:
    """End the process quietly: Ctrl-C came before the node took over its handling."""
    raise SystemExit(EXIT_INTERRUPTED)


def missing_module(node: str, name: str) -> str:
    """Return the one line for a node whose module ``name`` cannot be imported."""
    distro = os.environ.get('ROS_DISTRO') or '<distro>'
    if name.partition('.')[0] in ('rclpy', 'rcl_interfaces', 'builtin_interfaces',
                                  'std_msgs', 'sensor_msgs', 'geometry_msgs', 'tf2_msgs',
                                  'tf2_ros'):
        return (f"{node}: error: ROS 2 is not available (no Python module '{name}'): source "
                f'it first (source /opt/ros/{distro}/setup.bash) and run the node with ros2 '
                f'run sdf_tools {node}; pip install gives the command-line tools only')
    return (f"{node}: error: no Python module '{name}': install sdf_tools with its "
            'requirements (rosdep install, or pip install .)')
