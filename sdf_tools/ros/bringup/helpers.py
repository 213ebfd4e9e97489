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
What the launch files call: read a description file into text, parse launch argument values.

Also what ``gazebo_spawn.launch.py`` decides before it starts anything: the SDFormat version
the distribution's Gazebo reads (:data:`GAZEBO_OF_DISTRO`), the packages it needs, where
joint states come from, the ``ros_gz_bridge`` arguments, and the one-line messages of a
failed spawn.

Kept out of the launch files so that it is tested without ``launch`` installed; imports
neither rclpy nor launch. Errors are :class:`ValueError` or
:class:`~sdf_tools.errors.SdfToolsError` with a message meant for the person running
``ros2 launch``.
"""

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from functools import partial
import re
import shlex
import signal
from typing import Any

from sdf_tools.errors import XmlSyntaxError
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.loading import load
from sdf_tools.loading import LoadOptions
from sdf_tools.resources.lookup import find_resources
from sdf_tools.ros.parameter_rules import option_problem
from sdf_tools.ros.parameter_rules import publish_frequency_problem
from sdf_tools.xmlio.parse import parse_xml

_TRUE = frozenset({'true', '1', 'yes', 'on'})
_FALSE = frozenset({'false', '0', 'no', 'off'})


def parse_xacro_args(text: str) -> dict:
    """
    Return the ``name:=value`` pairs of a launch argument such as ``"prefix:=left_ arm:=true"``.

    Values may be quoted (shell rules): ``'name:="a b"'``.

    Raises
    ------
    ValueError
        An item is not ``name:=value``.

    """
    mappings = {}
    for item in shlex.split(text or ''):
        name, sep, value = item.partition(':=')
        if not sep or not name:
            raise ValueError(f'xacro_args: expected name:=value items, got {item!r}')
        mappings[name] = value
    return mappings


#: What to do with a description_file that holds xacro markup but is not named .xacro.
XACRO_REMEDY = ('the launch files expand .xacro files only: if you trust it, rename it to end '
                'in .xacro (e.g. robot.urdf.xacro), or expand it first (xacro FILE > '
                'robot.urdf)')


def read_description(path: str, xacro_args: str = '', package_path: str = '') -> str:
    """
    Return the description text of a file, expanding ``.xacro`` files (through :func:`load`).

    Expanding xacro runs the code the file holds: a file of another name that holds xacro
    markup is refused (:data:`XACRO_REMEDY` says what to do).

    Parameters
    ----------
    path : str
        ``.urdf``, ``.xacro``, ``.sdf``, ``.world`` or ``.kindsl`` file (the format is decided
        as :func:`sdf_tools.loading.sources.detect_format` does).
    xacro_args : str
        ``name:=value`` items for xacro (:func:`parse_xacro_args`).
    package_path : str
        Folders where xacro's ``$(find pkg)`` looks, ``:``-separated (the
        ``package_path`` launch argument): after the package, checkout and workspace of
        ``path``, before the environment (:mod:`sdf_tools.resources.packages`).

    Raises
    ------
    ValueError
        ``path`` is empty, ``xacro_args`` are malformed or given for a file that is not
        xacro, or a ``package_path`` folder does not exist.
    SdfToolsError
        The file cannot be read, holds xacro markup but is not named ``.xacro`` (its
        line), xacro fails (file:line and xacro's reason; a package not found lists where
        it was looked for), or the description is invalid (its file and line).

    """
    return read_description_and_source(path, xacro_args, package_path)[0]


def read_description_and_source(path: str, xacro_args: str = '',
                                package_path: str = '') -> tuple[str, str]:
    """
    Return :func:`read_description`'s text and the name the nodes give it in messages.

    The name (the nodes' ``description_source`` parameter) is ``path``, whose lines are the
    text's; for xacro, ``'PATH (expanded)'``: the lines are those of xacro's expansion.
    """
    if not path:
        raise ValueError('description_file is required, e.g. description_file:=robot.urdf')
    mappings = parse_xacro_args(xacro_args)
    resources = find_resources([package_path], near=path,
                               package_option='the package_path launch argument')
    loaded = load(path, LoadOptions(mappings=mappings, xacro_remedy=XACRO_REMEDY),
                  resources=resources)
    if mappings and not loaded.xacro:
        raise ValueError(f'xacro_args given, but {path} is {loaded.fmt}, not xacro')
    return loaded.text.decode('utf-8'), f'{path} (expanded)' if loaded.xacro else path


def as_bool(name: str, value: str) -> bool:
    """Return a launch argument as a bool (``true/false``, ``1/0``, ``yes/no``, ``on/off``)."""
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f'{name} must be true or false, got {value!r}')


def as_float(name: str, value: str) -> float:
    """Return a launch argument as a float (``1`` is 1.0: ROS double parameters need it)."""
    try:
        return float(value)
    except ValueError:
        raise ValueError(f'{name} must be a number, got {value!r}') from None


def _as_text(name: str, value: str) -> str:
    """Return a launch argument that is text as it is."""
    return value


#: Launch arguments passed on as node parameters: name -> (how the text is read, the rule the
#: node applies to the value, :mod:`sdf_tools.ros.parameter_rules`).
NODE_PARAMETERS: dict[str, tuple[Callable[[str, str], Any], Callable[[Any], str | None]]] = {
    'publish_frequency': (as_float, publish_frequency_problem),
    'auto_inertials': (as_float, partial(option_problem, 'auto_inertials')),
    'mesh_uris': (_as_text, partial(option_problem, 'mesh_uris')),
}


def as_parameter(name: str, value: str) -> object:
    """
    Return a launch argument as the node parameter it sets, refused as the node would refuse it.

    The launch stops with the node's own message before anything starts, instead of
    starting a node that then exits (``publish_frequency:=0``, ``mesh_uris:=bogus``,
    ``auto_inertials:=-1``).
    """
    read, problem = NODE_PARAMETERS[name]
    parsed = read(name, value)
    why = problem(parsed)
    if why is not None:
        raise ValueError(why)
    return parsed


# --- Gazebo: which one, which packages, where joint states come from -------------------------

#: ROS 2 distribution -> (the Gazebo it is paired with, the SDFormat version to spawn with):
#: the version that Gazebo's libsdformat reads. Fortress reads 1.9 (no ``<mimic>``), Harmonic
#: 1.11 (``<mimic>``); every other name (Kilted, Rolling, Lyrical, or none) gets the newest
#: version the converter writes, for Ionic and later.
GAZEBO_OF_DISTRO = {
    'humble': ('Fortress', '1.9'),
    'iron': ('Fortress', '1.9'),
    'jazzy': ('Harmonic', '1.11'),
}
NEWER_GAZEBO = ('Ionic or later', CONVERTIBLE_VERSIONS[-1])
#: Where joint states come from in the simulation (the ``joint_states`` launch argument).
JOINT_STATE_SOURCES = ('auto', 'gazebo', 'ros2_control', 'none')
#: gz_ros2_control's hardware plugins (Jazzy and later; Humble's ign_ros2_control).
GZ_ROS2_CONTROL_HARDWARE = ('gz_ros2_control/GazeboSimSystem', 'ign_ros2_control/IgnitionSystem')
#: ros_gz_bridge's ``parameter_bridge`` arguments (``topic@ROS type[gz type``: Gazebo to ROS).
CLOCK_BRIDGE = '/clock@rosgraph_msgs/msg/Clock[gz.msgs.Clock'
#: What ros_gz_sim ``create`` logs while it waits, and what that means (create.cpp, ``main``
#: and ``set_XML_from_topic``).
CREATE_WAITS = (('Requesting list of world names', 'the world list from Gazebo (is Gazebo '
                 'running? start_gazebo:=false needs a running one)'),
                ('Waiting messages on topic', "the SDFormat on {topic} (see sdf_converter's "
                 'errors above)'),
                ('Waiting for service', "Gazebo's /world/<world>/create service (is Gazebo "
                 'running, with that world?)'))


def gazebo_of_distro(distro: str | None) -> tuple[str, str]:
    """Return ``(Gazebo, SDFormat version)`` for a ``ROS_DISTRO`` value (the table above)."""
    return GAZEBO_OF_DISTRO.get((distro or '').strip().lower(), NEWER_GAZEBO)


def default_sdf_version(environ: Mapping[str, str]) -> str:
    """Return the ``sdf_version`` launch argument's default for the environment's ROS_DISTRO."""
    return gazebo_of_distro(environ.get('ROS_DISTRO'))[1]


def as_choice(name: str, value: str, choices: Sequence[str]) -> str:
    """Return a launch argument that must be one of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {value!r}")
    return value


def as_timeout(name: str, value: str) -> float:
    """Return a timeout launch argument in seconds (``0``: none)."""
    seconds = as_float(name, value)
    if not 0.0 <= seconds < float('inf'):
        raise ValueError(f'{name} must be 0 (no limit) or a number of seconds, got {value!r}')
    return seconds


def ros2_control_hardware(description: str) -> str | None:
    """
    Return the Gazebo hardware plugin of the description's ``<ros2_control>``, or ``None``.

    A URDF whose ``<ros2_control>`` block names gz_ros2_control's hardware
    (:data:`GZ_ROS2_CONTROL_HARDWARE`) gets its joint states from the controller manager
    that gz_ros2_control starts inside Gazebo.
    """
    try:
        root = parse_xml(description, '<robot_description>')  # entities and network off
    except XmlSyntaxError:  # not XML (SDFormat and RobCoGen have no <ros2_control> anyway)
        return None
    for plugin in root.iterfind('ros2_control/hardware/plugin'):
        text = (plugin.text or '').strip()
        if text in GZ_ROS2_CONTROL_HARDWARE:
            return text
    return None


def joint_state_source(choice: str, description: str | None) -> str:
    """
    Return where joint states come from: ``'gazebo'``, ``'ros2_control'`` or ``'none'``.

    ``auto`` is ``ros2_control`` for a description with gz_ros2_control hardware
    (:func:`ros2_control_hardware`), else ``gazebo``.
    """
    as_choice('joint_states', choice, JOINT_STATE_SOURCES)
    if choice != 'auto':
        return choice
    return 'ros2_control' if ros2_control_hardware(description or '') else 'gazebo'


def ros2_control_note(description: str, distro: str | None, broadcaster: bool) -> str:
    """Return the line saying how joint states arrive with gz_ros2_control."""
    hardware = ros2_control_hardware(description) or GZ_ROS2_CONTROL_HARDWARE[0]
    start = ('spawned once the robot is created' if broadcaster else
             'start it with joint_state_broadcaster:=true or your own spawner')
    note = (f'joint_states come from {hardware.split("/")[0]}: the controller manager it runs '
            f'in Gazebo publishes them through its joint_state_broadcaster ({start}; the '
            "controller must be in the plugin's <parameters> YAML)")
    if hardware.startswith('ign_') and gazebo_of_distro(distro)[0] == 'Fortress' and \
            '<robot_param_node>' not in description:
        note += ('; ign_ros2_control reads robot_description from node robot_state_publisher '
                 'unless its <plugin> has <robot_param_node>state_publisher</robot_param_node>')
    return note


def gz_joint_state_topic(name: str) -> str:
    """
    Return the Gazebo topic of the entity's joint states (``/model/<name>/joint_state``).

    Raises
    ------
    ValueError
        ``name`` cannot be part of a ROS topic name (the bridge publishes it under that
        name before the remapping to ``joint_states``).

    """
    if not re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]*', name or ''):
        raise ValueError('name must be letters, digits and underscores (not starting with a '
                         f'digit) to bridge its joint states, got {name!r}')
    return f'/model/{name}/joint_state'


def joint_state_bridge(gz_topic: str) -> str:
    """Return the ``parameter_bridge`` argument for a JointStatePublisher topic."""
    return f'{gz_topic}@sensor_msgs/msg/JointState[gz.msgs.Model'


def required_packages(*, bridge: bool, broadcaster: bool) -> list:
    """Return the packages ``gazebo_spawn.launch.py`` starts something from."""
    needed = ['ros_gz_sim']
    if bridge:
        needed.append('ros_gz_bridge')
    if broadcaster:
        needed.append('controller_manager')
    return needed


def missing_packages(names: Iterable[str], lookup: Callable[[str], object]) -> list:
    """Return the names that ``lookup`` (``get_package_share_directory``) cannot find."""
    missing = []
    for name in names:
        try:
            lookup(name)
        except LookupError:  # ament_index_python's PackageNotFoundError is a KeyError
            missing.append(name)
    return missing


def missing_packages_message(missing: Sequence[str], distro: str | None) -> str:
    """Return the one line saying which packages are missing and how to install them."""
    them = ' and '.join(missing)
    prefix = f'ros-{distro}-' if distro else 'ros-$ROS_DISTRO-'
    install = ' '.join(prefix + name.replace('_', '-') for name in missing)
    return (f'gazebo_spawn.launch.py needs {them}, which {"is" if len(missing) == 1 else "are"} '
            f'not installed: apt install {install} (or source the workspace that has '
            f'{"it" if len(missing) == 1 else "them"}); nothing was started')


def create_waiting_for(line: str, topic: str) -> str | None:
    """Return what ros_gz_sim ``create`` waits for, from one of its log lines, or ``None``."""
    for marker, what in CREATE_WAITS:
        if marker in line:
            return what.format(topic=topic)
    return None


def spawn_timeout_message(name: str, seconds: float, waiting_for: str | None) -> str:
    """Return the line that ends a launch whose ``create`` did not finish in time."""
    what = waiting_for or 'Gazebo and the SDFormat'
    return (f'ros_gz_sim create did not spawn {name!r} within spawn_timeout={seconds:g} s: '
            f'it was waiting for {what}; stopping the launch')


def exit_message(executable: str, returncode: int) -> str:
    """
    Return the line that ends a launch whose ``executable`` failed.

    A process that exited with an error code said why before (our nodes log a fatal line); one
    killed by a signal had no chance to: nothing is said to be above.
    """
    if returncode >= 0:
        return (f'{executable} exited with code {returncode} (its error is above); stopping '
                'the launch')
    try:
        name = f' ({signal.Signals(-returncode).name})'
    except ValueError:  # not a signal of this platform
        name = ''
    return f'{executable} was killed by signal {-returncode}{name}; stopping the launch'
