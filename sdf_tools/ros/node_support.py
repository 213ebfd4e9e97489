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
What both nodes share: parameter tables, QoS profiles and the ``main()`` plumbing.

Each node lists its parameters once, as :class:`ParameterSpec` rows: the node declares them
from the table (with a ``ParameterDescriptor`` each), ``--help`` prints it, and the tests
check the launch files and ``config/*.yaml`` against it.

``main()`` spins the node with rclpy's ``EventsExecutor`` where it exists (rclpy 9,
Kilted and later): it dispatches a callback in about 14 us where the
``SingleThreadedExecutor`` takes about 130 us, which decides how fast ``joint_states`` can
arrive before messages are dropped (measured: 7 kHz kept up with against 2 kHz). The
EventsExecutor handles the events of 0.2 s at a time in C++ (stopping at once when the node
fails, :class:`FailingNode`), with no Python between two of them. Older rclpy uses the
``SingleThreadedExecutor``, spun one event at a time; ``SDF_TOOLS_EXECUTOR=single`` forces
it. Between two calls, ``run()`` looks at its SIGINT/SIGTERM flag and the node's failure.
"""

import contextlib
import os
import re
import signal
import sys
import tempfile
import textwrap
from typing import Any
from typing import Callable
from typing import Iterable
from typing import Iterator
from typing import Sequence

from rcl_interfaces.msg import FloatingPointRange
from rcl_interfaces.msg import ParameterDescriptor
from rcl_interfaces.msg import SetParametersResult
import rclpy
from rclpy.context import Context
from rclpy.exceptions import ParameterException
from rclpy.executors import Executor
from rclpy.executors import ExternalShutdownException
from rclpy.impl.rcutils_logger import RcutilsLogger
import rclpy.logging
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy
from rclpy.qos import HistoryPolicy
from rclpy.qos import QoSProfile
from rclpy.qos import ReliabilityPolicy
from rclpy.task import Future
from sdf_tools.errors import clip
from sdf_tools.errors import presented
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import short_name
from sdf_tools.records import record
from sdf_tools.resources.lookup import find_resources
from sdf_tools.resources.lookup import Resources

#: ``robot_description`` and ``robot_description_sdf``: depth 1, reliable, transient local
#: ("latched"), as robot_state_publisher publishes and ``ros_gz_sim create -topic`` reads.
LATCHED_QOS = QoSProfile(depth=1, history=HistoryPolicy.KEEP_LAST,
                         reliability=ReliabilityPolicy.RELIABLE,
                         durability=DurabilityPolicy.TRANSIENT_LOCAL)
#: rcl's source places in its messages (``, at /project/src/rcl/arguments.c:352``).
_RCL_SOURCE = re.compile(r', at /\S+\.c:\d+')
#: rcl's message for a ``-p`` value it cannot read, and the parameter's name.
_PARAMETER_RULE = re.compile(r"Couldn't parse parameter override rule: '(?:-p|--param) "
                             r"([^:=\s']+):=")
#: Exit codes of ``main()``.
EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
#: What :func:`make_executor` returns: an rclpy ``Executor``, or rclpy 9's
#: ``EventsExecutor`` (a C++ object, no ``Executor``; not a type for mypy).
AnyExecutor = Any


#: The ``package_path`` parameter of both nodes (read only, ``:``-separated folders).
PACKAGE_PATH_DESCRIPTION = (
    "Folders where the packages of package:// URIs are looked for, separated by ':' (as "
    'ROS_PACKAGE_PATH): packages, folders of packages, install prefixes or colcon '
    'workspaces; searched before AMENT_PREFIX_PATH and ROS_PACKAGE_PATH. Each description '
    'is checked: package:// URIs that name no file are warned about.')


class FailingNode(Node):
    """
    A node that can stop :func:`run` for good: it sets ``failure`` to the reason.

    Setting ``failure`` to a message (a cause that cannot go away by itself) completes
    ``failed``, the future ``run()`` spins until: the executor stops right after the callback
    that set it, and ``run()`` logs the message as fatal and exits with code 1.

    Attributes
    ----------
    failed : rclpy.task.Future
        Done once ``failure`` is set (its result: the message).

    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.failed: Future[str] = Future()
        super().__init__(*args, **kwargs)

    @property
    def failure(self) -> str | None:
        """Get or set why the node cannot go on (``None``: it can); set once."""
        return self.failed.result() if self.failed.done() else None

    @failure.setter
    def failure(self, message: str | None) -> None:
        if message is not None and not self.failed.done():
            self.failed.set_result(message)


class StartupError(Exception):
    """
    The node cannot start (missing or invalid configuration); the text says why.

    Each line of the text is logged as a line of its own (:func:`problem_lines`).
    """


def problem_lines(what: str, error: SdfToolsError) -> list:
    """
    Return the log lines of a description refused: one a problem, each saying ``what``.

    Every warning and error, in file order (:func:`~sdf_tools.errors.presented`), e.g.
    ``Rejected the new robot_description: <robot_description>:12: joint 'j': ...``: a
    ``grep`` of the log finds each with its place.
    """
    return [f'{what}: {d}' for d in presented(error.warnings + error.diagnostics)]


def log_lines(log: RcutilsLogger, text: str) -> None:
    """Log each line of ``text`` as a fatal message of its own (each greppable)."""
    for line in text.splitlines() or ['']:
        log.fatal(line)


def node_resources(package_path: str) -> Resources:
    """
    Return where a node looks for packages: the ``package_path`` parameter, the environment.

    Models (``model://``, SDFormat ``<include>`` s) are looked for on Gazebo's resource path
    of the environment, then as the packages of their names. The node builds them once, at
    startup, and loads every description with them.

    Raises
    ------
    StartupError
        A folder it names does not exist.

    """
    try:
        return find_resources([package_path], package_option='the package_path parameter')
    except ValueError as e:
        raise StartupError(str(e)) from None


@record(frozen=True)
class ParameterSpec:
    """
    One declared parameter of a node.

    Attributes
    ----------
    name : str
        Parameter name.
    default : bool, int, float or str
        Default value (its type is the parameter's type).
    description : str
        What it does (``ros2 param describe``).
    read_only : bool
        Whether it can only be set at startup.
    float_range : tuple of float, optional
        Inclusive ``(from, to)`` of a double parameter.
    constraints : str
        ``additional_constraints`` text of the descriptor.

    """

    name: str
    default: object
    description: str
    read_only: bool = False
    float_range: tuple[float, float] | None = None
    constraints: str = ''

    def descriptor(self) -> ParameterDescriptor:
        """Return the ``ParameterDescriptor`` the node declares the parameter with."""
        descriptor = ParameterDescriptor(name=self.name, description=self.description,
                                         read_only=self.read_only,
                                         additional_constraints=self.constraints)
        if self.float_range is not None:
            descriptor.floating_point_range = [FloatingPointRange(
                from_value=float(self.float_range[0]), to_value=float(self.float_range[1]),
                step=0.0)]
        return descriptor


def declare_parameters(node: Node, specs: Iterable[ParameterSpec]) -> dict[str, Any]:
    """
    Declare every parameter of ``specs`` on ``node``; return name -> value.

    Raises
    ------
    StartupError
        A value given at startup (launch file, ``--ros-args -p``, YAML) has the wrong type
        or is out of range; the message names the parameter.

    """
    values: dict[str, Any] = {}
    for spec in specs:
        try:
            values[spec.name] = node.declare_parameter(spec.name, spec.default,
                                                       spec.descriptor()).value
        except ParameterException as e:
            kind = type(spec.default).__name__.replace('float', 'double').replace('str',
                                                                                  'string')
            hint = ''
            if isinstance(spec.default, str) and "expecting type 'STRING'" in str(e):
                hint = (' (a string that reads as a number or bool needs YAML quotes: '
                        f'-p {spec.name}:="\'{spec.default}\'")')
            raise StartupError(f'parameter {spec.name!r} ({kind}, default {spec.default!r}): '
                               f'{e}{hint}') from None
    return values


def accept() -> SetParametersResult:
    """Return a successful ``SetParametersResult``."""
    return SetParametersResult(successful=True)


def reject(reason: str, limit: int = 4000) -> SetParametersResult:
    """Return a failed ``SetParametersResult`` (reason shortened to ``limit`` characters)."""
    if len(reason) > limit:
        reason = reason[:limit] + ' [...]'
    return SetParametersResult(successful=False, reason=reason)


def parameter_help(prog: str, summary: str, specs: Iterable[ParameterSpec]) -> str:
    """Return the ``--help`` text: usage and the parameter table."""
    lines = [f'usage: ros2 run sdf_tools {prog} [--ros-args -p name:=value ... '
             '| --params-file FILE]', '', textwrap.fill(summary, 79), '', 'parameters:']
    for spec in specs:
        flags = ', read only' if spec.read_only else ''
        kind = {bool: 'bool', float: 'double', str: 'string'}.get(type(spec.default), 'int')
        lines.append(f'  {spec.name} ({kind}, default {spec.default!r}{flags})')
        lines.append(textwrap.fill(spec.description, 79, initial_indent=' ' * 6,
                                   subsequent_indent=' ' * 6))
    lines += ['', 'environment:', textwrap.fill(
        "SDF_TOOLS_EXECUTOR=single spins with rclpy's SingleThreadedExecutor instead of the "
        'EventsExecutor (used where rclpy has it).', 79, initial_indent=' ' * 2,
        subsequent_indent=' ' * 2)]
    return '\n'.join(lines)


def make_executor(context: Context | None = None) -> AnyExecutor:
    """
    Return the executor ``main()`` spins with (module docstring).

    Parameters
    ----------
    context : rclpy.context.Context, optional
        The context (default: the global one).

    """
    if os.environ.get('SDF_TOOLS_EXECUTOR', '').lower() != 'single':
        try:
            from rclpy.experimental import EventsExecutor
        except ImportError:
            pass
        else:
            return EventsExecutor(context=context)
    from rclpy.executors import SingleThreadedExecutor
    return SingleThreadedExecutor(context=context)


def _own_signal_handling() -> dict:
    """
    Return ``rclpy.init`` keyword arguments that leave SIGINT/SIGTERM to :func:`run`.

    rclpy's own handler shuts the context down from its signal thread, which can land between
    the ``rclpy.ok()`` check and the executor's wait ("context is not valid"), and is a thread
    more; :func:`run` handles the signals itself and stops between two calls of the executor
    instead (:func:`_spin`).
    """
    try:
        from rclpy.signals import SignalHandlerOptions
    except ImportError:  # distributions before Humble: rclpy installs no handler to opt out of
        return {}
    return {'signal_handler_options': SignalHandlerOptions.NO}


def ros_arguments_message(prog: str, error: Exception) -> str:
    """
    Return the one line for ROS arguments rcl refused, without rcl's source paths.

    rcl reads ``-p`` values as YAML: a description given as ``-p robot_description:="$(cat
    robot.urdf)"`` is refused with its first kilobyte quoted; the line names the parameter
    and the ways that work instead.
    """
    text = _RCL_SOURCE.sub('', str(error)).strip()
    match = _PARAMETER_RULE.search(text)
    if match is not None:
        name = short_name(match.group(1))
        way = (' pass the description with the launch file (ros2 launch sdf_tools '
               'bringup.launch.py description_file:=FILE) or' if 'description' in name else '')
        return (f'{prog}: error: rcl reads -p values as YAML, and the value of -p {name}:=... '
                f'is not valid YAML:{way} put it in a parameters file (--ros-args --params-file '
                'FILE)')
    lines = text.splitlines() or [type(error).__name__]
    return f'{prog}: error: {clip(lines[0], 300)}'


@contextlib.contextmanager
def _c_stderr_held() -> Iterator[None]:
    """
    Hold back what C code writes on file descriptor 2 in the block; let it out on success.

    rcutils prints a note of its own when rcl's message about a refused argument is too
    long; the exception carries the message anyway, and :func:`ros_arguments_message` says it
    in one line.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no usable descriptor 2: nothing to hold back
        yield
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield  # an exception leaves what was held back unsaid
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
        held.seek(0)
        out = held.read()
    if out:
        sys.stderr.write(out.decode(errors='replace'))
        sys.stderr.flush()


def _command_line(prog: str, summary: str, specs: Iterable[ParameterSpec],
                  argv: list[str]) -> int | None:
    """Answer ``--help`` or refuse bad arguments (return the exit code); ``None``: go on."""
    try:
        with _c_stderr_held():
            rest = rclpy.utilities.remove_ros_args(argv)[1:]
    except Exception as e:  # malformed --ros-args (e.g. '-p name' without ':='): rcl says why
        print(ros_arguments_message(prog, e), file=sys.stderr)
        return EXIT_USAGE
    if any(a in ('-h', '--help') for a in rest):
        print(parameter_help(prog, summary, specs))
        return EXIT_OK
    if rest:
        shown = ', '.join(f"'{short_name(a)}'" for a in rest[:5]) + (', ...' if rest[5:] else '')
        print(f'{prog}: error: unexpected arguments {shown}; parameters go after --ros-args '
              '(--ros-args -p name:=value); see --help', file=sys.stderr)
        return EXIT_USAGE
    return None


def _spin(executor: AnyExecutor, node: FailingNode, stop: list[int]) -> None:
    """
    Spin ``executor`` until the context is shut down, ``stop`` is set or the node fails.

    The EventsExecutor (a C++ object, no :class:`rclpy.executors.Executor`) handles the
    events of 0.2 s per call, in C++, and stops at once when ``node.failed`` is done
    (:class:`FailingNode`); ``stop``, which run()'s signal handler sets, is seen between two
    calls. (rclpy 9.1's EventsExecutor neither sees signals itself nor waits without a
    timeout: ``spin()`` and a timeout of 1e6 s hang in a busy loop.) Another executor handles
    one event per call, so that ``stop`` and the node's ``failure`` are seen after each.
    """
    in_cpp = not isinstance(executor, Executor)
    while rclpy.ok() and not stop and node.failure is None:
        try:
            if in_cpp:
                executor.spin_until_future_complete(node.failed, timeout_sec=0.2)
            else:
                executor.spin_once(timeout_sec=0.2)
        except Exception:
            if rclpy.ok():
                raise
            break  # the context was shut down while waiting (another shutdown path)


def run(prog: str, summary: str, specs: Iterable[ParameterSpec],
        make_node: Callable[[], FailingNode], args: Sequence[str] | None = None,
        check: Callable[[], str | None] | None = None) -> int:
    """
    Run a node until Ctrl-C; return the exit code.

    Parameters
    ----------
    prog : str
        Executable name (messages).
    summary : str
        One paragraph for ``--help``.
    specs : sequence of ParameterSpec
        The node's parameters (for ``--help``).
    make_node : callable
        Builds the node, a :class:`FailingNode` (after ``rclpy.init``); may raise
        :class:`StartupError`.
    args : list of str, optional
        Command line (default ``sys.argv``).
    check : callable, optional
        Called after ``--help`` handling; returns a message when a requirement is missing
        (the node then does not start).

    Returns
    -------
    int
        0 after a normal shutdown, 1 when the node could not start (missing requirement,
        bad parameters) or set its ``failure`` attribute to a message (a cause that cannot go
        away by itself: logged as fatal, the node stopped; :class:`FailingNode`), 2 on a usage
        error.

    """
    argv = list(sys.argv if args is None else args)
    done = _command_line(prog, summary, specs, argv)
    if done is not None:
        return done
    problem = check() if check is not None else None
    if problem:
        print(problem, file=sys.stderr)
        return EXIT_FAILURE
    # Ctrl-C and SIGTERM request a stop instead of raising KeyboardInterrupt wherever the
    # interpreter happens to be (e.g. in a __del__, where it would be printed and ignored).
    stop: list[int] = []
    previous = {sig: signal.signal(sig, lambda signum, frame: stop.append(signum))
                for sig in (signal.SIGINT, signal.SIGTERM)}
    node = None
    executor = None
    code = EXIT_OK
    try:
        try:
            with _c_stderr_held():
                rclpy.init(args=argv, **_own_signal_handling())
        except Exception as e:  # bad --ros-args: rcl says why
            print(ros_arguments_message(prog, e), file=sys.stderr)
            return EXIT_USAGE
        node = make_node()
        executor = make_executor()
        executor.add_node(node)
        _spin(executor, node, stop)
        failure = node.failure
        if failure is not None:
            log_lines(node.get_logger(), failure)
            code = EXIT_FAILURE
    except StartupError as e:
        log_lines(rclpy.logging.get_logger(prog), str(e))
        code = EXIT_FAILURE
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if executor is not None:
            executor.shutdown()
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return code
