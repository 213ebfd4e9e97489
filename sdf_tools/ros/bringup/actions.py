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
The launch actions both launch files use: stop the whole launch when one process fails.

A launch that keeps running after ``state_publisher``, ``sdf_converter`` or ros_gz_sim's
``create`` failed leaves ``create`` waiting forever for a description or Gazebo running
without the robot. :func:`stop_on_failure` watches one process: a non-zero exit stops the
launch (:func:`stop`) with one line (:func:`~sdf_tools.ros.bringup.helpers.exit_message`). The
stop raises :class:`LaunchStopped` inside the launch: ``launch`` logs it as one line
(``Caught exception in launch ...: <why>``, as for the preflight check), stops every process
it started (our nodes stop on SIGINT) and exits with 1, where its ``Shutdown`` action would
exit with 0. ``launch`` is imported inside the functions: this module is importable without it.
"""

from typing import Callable
from typing import NoReturn
from typing import TYPE_CHECKING

from sdf_tools.ros.bringup.helpers import exit_message

if TYPE_CHECKING:  # launch is imported inside the functions
    from launch.actions import ExecuteProcess
    from launch.actions import RegisterEventHandler
    from launch.events.process import ProcessExited
    from launch.launch_context import LaunchContext


class LaunchStopped(RuntimeError):
    """Why sdf_tools stopped a launch; ``launch`` logs it, shuts down and exits with 1."""


def stop(message: str) -> list:
    """Return the action that stops the launch with exit code 1, ``message`` its one line."""
    from launch.actions import OpaqueFunction

    def fail(context: 'LaunchContext') -> NoReturn:
        raise LaunchStopped(message)

    return [OpaqueFunction(function=fail)]


def stop_on_failure(action: 'ExecuteProcess', executable: str,
                    on_success: Callable[[], list] | None = None) -> 'RegisterEventHandler':
    """
    Return the event handler that stops the launch when ``action``'s process fails.

    Parameters
    ----------
    action : launch.actions.ExecuteProcess
        The process (a ``launch_ros`` ``Node``) to watch.
    executable : str
        Its name in the message.
    on_success : callable, optional
        ``() -> list of actions`` run when it exits with 0 (e.g. start the next step).

    Returns
    -------
    launch.actions.RegisterEventHandler

    """
    from launch.actions import RegisterEventHandler
    from launch.event_handlers import OnProcessExit

    def on_exit(event: 'ProcessExited', context: 'LaunchContext') -> list | None:
        if context.is_shutdown:  # stopped by the launch itself: not a failure
            return None
        if event.returncode != 0:
            return stop(exit_message(executable, event.returncode))
        return on_success() if on_success is not None else None

    return RegisterEventHandler(OnProcessExit(target_action=action, on_exit=on_exit))
