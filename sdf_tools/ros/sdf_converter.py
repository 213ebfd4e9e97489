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
``sdf_converter``: the robot description as SDFormat, latched for ``ros_gz_sim create``.

Reads a description (URDF, SDFormat or RobCoGen text, detected) and publishes its SDFormat
conversion on ``robot_description_sdf`` (``std_msgs/String``, depth 1, reliable, transient
local), which ``ros2 run ros_gz_sim create -topic robot_description_sdf`` waits for. URDF is
converted as ``urdf2sdf`` does (``<gazebo>`` extensions, fixed-joint lumping); SDFormat and
RobCoGen input is written back with the SDFormat writer.

Where the description comes from: the ``robot_description`` **parameter** when it is not
empty, otherwise the last message on the ``robot_description`` **topic** (depth 1, reliable,
transient local, as robot_state_publisher and ``state_publisher`` publish it). Messages that
arrive while the parameter is set are remembered, and used once the parameter is cleared.

With ``gz_joint_state_topic`` set (``gazebo_spawn.launch.py`` sets it), Gazebo's
JointStatePublisher system is added to the model, publishing on that Gazebo topic
(:func:`sdf_tools.ros.bringup.gazebo.joint_state_publisher`; the system's names follow
``sdf_version``: Fortress's below 1.10).

The node re-converts whenever the description or a conversion parameter changes, logs every
conversion warning, and optionally writes the result to ``output_file`` (atomically). Bad
input never kills it once it has published: an invalid description on the topic is logged
with its file:line error; an invalid parameter value (or an option the current description
cannot be converted with) is rejected with that error as the reason. Either way the last
good SDFormat stays published.

Before the first SDFormat is published, a cause that cannot go away by itself stops the
node with a fatal log and exit code 1, so that a launch waiting for the SDFormat (``ros_gz_sim
create``) stops at once: a ``robot_description`` parameter given at startup that cannot be
converted, or a first description from the topic that is valid but cannot be converted with
the node's options (:class:`~sdf_tools.errors.ConversionError`, e.g. ``auto_inertials``
without trimesh). An invalid description on the topic is logged and the node waits for a
valid one.

Messages name the description ``<robot_description>``, or ``description_source`` (read only)
for the description the node starts with: the ``robot_description`` parameter given at
startup or, when that is empty, the first description from the topic (bringup.launch.py sets
it to the file state_publisher's description was read from).
"""

from typing import Any
from typing import Sequence

from rcl_interfaces.msg import SetParametersResult
from rclpy.parameter import Parameter
from sdf_tools.convert.mesh_uris import MODES
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.errors import ConversionError
from sdf_tools.errors import SdfToolsError
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS
from sdf_tools.outputs import check_outputs
from sdf_tools.outputs import OverwriteError
from sdf_tools.outputs import write_file
from sdf_tools.ros.bringup.gazebo import joint_state_publisher
from sdf_tools.ros.descriptions import Conversion
from sdf_tools.ros.descriptions import convert
from sdf_tools.ros.descriptions import SOURCE
from sdf_tools.ros.node_support import accept
from sdf_tools.ros.node_support import declare_parameters
from sdf_tools.ros.node_support import FailingNode
from sdf_tools.ros.node_support import LATCHED_QOS
from sdf_tools.ros.node_support import node_resources
from sdf_tools.ros.node_support import PACKAGE_PATH_DESCRIPTION
from sdf_tools.ros.node_support import ParameterSpec
from sdf_tools.ros.node_support import problem_lines
from sdf_tools.ros.node_support import reject
from sdf_tools.ros.node_support import run
from sdf_tools.ros.node_support import StartupError
from sdf_tools.ros.parameter_rules import option_problem
from std_msgs.msg import String

NODE_NAME = 'sdf_converter'
SUMMARY = ('Convert the robot description (URDF, SDFormat or RobCoGen) to SDFormat and publish '
           'it latched on robot_description_sdf, for ros_gz_sim create -topic.')
_DEFAULTS = ConversionOptions()
PARAMETERS = (
    ParameterSpec(
        'robot_description', '',
        'Description text (URDF, SDFormat or RobCoGen). When not empty it takes precedence '
        'over the robot_description topic; when empty the topic is used.'),
    ParameterSpec(
        'preserve_fixed_joints', _DEFAULTS.preserve_fixed_joints,
        'URDF: keep every fixed joint instead of lumping its child link into the parent.'),
    ParameterSpec(
        'sdf_version', _DEFAULTS.sdf_version,
        'SDFormat version to write: ' + ', '.join(CONVERTIBLE_VERSIONS) + ' (1.11 adds <mimic>).',
        constraints='one of ' + ', '.join(CONVERTIBLE_VERSIONS)),
    ParameterSpec(
        'massless_mass', _DEFAULTS.massless_mass,
        'URDF: mass (kg) of the placeholder inertial given to links without mass.',
        constraints='finite, > 0'),
    ParameterSpec(
        'massless_inertia', _DEFAULTS.massless_inertia,
        'URDF: principal moments (kg m^2) of that placeholder inertial.',
        constraints='finite, > 0'),
    ParameterSpec(
        'mesh_uris', _DEFAULTS.mesh_uris,
        'URDF: how mesh URIs are written: model (libsdformat: package:// becomes model://, '
        'which Gazebo finds through GZ_SIM_RESOURCE_PATH), file (absolute file:// paths, the '
        'packages found as for package_path), package (as written).',
        constraints='one of ' + ', '.join(MODES)),
    ParameterSpec(
        'auto_inertials', 0.0,
        'URDF: density (kg/m^3) at which links without <inertial> get the mass properties of '
        'their collision geometry (meshes need the trimesh package); 0: off, they get the '
        'placeholder inertial.',
        constraints='finite, >= 0 (0: off)'),
    ParameterSpec(
        'gz_joint_state_topic', '',
        "Add Gazebo's JointStatePublisher system to the model, publishing the joint states "
        'on this Gazebo topic (bridge it to joint_states with ros_gz_bridge); empty: add '
        'none. gazebo_spawn.launch.py sets it to /model/<name>/joint_state.'),
    ParameterSpec(
        'output_file', '',
        'Also write each conversion to this file (atomically: readers see the old or the '
        'whole new file; a FIFO or device is written in place, never replaced); empty: do '
        'not write.'),
    ParameterSpec('package_path', '', PACKAGE_PATH_DESCRIPTION, read_only=True),
    ParameterSpec(
        'description_source', '',
        'Name of the description the node starts with in messages (file:line): the '
        'robot_description parameter given at startup or, when that is empty, the first '
        'description from the topic; empty: <robot_description>. The launch files set it to '
        'the description file.', read_only=True),
)
_OPTION_NAMES = ('preserve_fixed_joints', 'sdf_version', 'massless_mass', 'massless_inertia',
                 'mesh_uris', 'auto_inertials', 'gz_joint_state_topic')


class SdfConverter(FailingNode):
    """
    The ``sdf_converter`` node (module docstring).

    Parameters
    ----------
    node_name : str
        Node name.
    **kwargs
        Passed to :class:`rclpy.node.Node`.

    Attributes
    ----------
    converted : Conversion or None
        The last good conversion (what ``robot_description_sdf`` holds).
    failure : str or None
        Why the node cannot go on (:class:`~sdf_tools.ros.node_support.FailingNode`:
        ``run()`` then stops it with exit code 1).

    Raises
    ------
    StartupError
        A parameter given at startup has the wrong type or an invalid value.

    """

    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        super().__init__(node_name, **kwargs)
        try:
            self._setup()
        except BaseException:
            self.destroy_node()
            raise

    def _setup(self) -> None:
        self._log = self.get_logger()
        self._values = declare_parameters(self, PARAMETERS)
        for name in _OPTION_NAMES:
            problem = option_problem(name, self._values[name])
            if problem:
                raise StartupError(problem)
        self.resources = node_resources(self._values['package_path'])
        self.converted: Conversion | None = None
        # The names of the parameter's and the topic's descriptions in messages: the first
        # description the node gets is description_source, any later one SOURCE.
        self._first_source = self._values['description_source'] or SOURCE
        self._parameter_source = self._first_source
        self._topic_text: str | None = None
        self._topic_source = SOURCE
        # The parameter values a validated change will set, and their conversion.
        self._pending: tuple[dict[str, Any], Conversion] | None = None
        self._publisher = self.create_publisher(String, 'robot_description_sdf', LATCHED_QOS)
        self.create_subscription(String, 'robot_description', self._on_description,
                                 LATCHED_QOS)
        self.add_on_set_parameters_callback(self._validate_parameters)
        self.add_post_set_parameters_callback(self._apply_parameters)
        if self._values['robot_description']:
            self._first_source = SOURCE
            self._convert_startup_parameter()
        else:
            self._log.info('Waiting for the robot description on topic '
                           f"'{self.resolve_topic_name('robot_description')}'")

    # --- conversion -------------------------------------------------------------------------

    def _options(self, values: dict[str, Any]) -> ConversionOptions:
        """Return the conversion options of ``values``, with the Gazebo systems asked for."""
        topic = values['gz_joint_state_topic']
        plugins = (joint_state_publisher(values['sdf_version'], topic),) if topic else ()
        return ConversionOptions(preserve_fixed_joints=values['preserve_fixed_joints'],
                                 sdf_version=values['sdf_version'],
                                 massless_mass=values['massless_mass'],
                                 massless_inertia=values['massless_inertia'],
                                 mesh_uris=values['mesh_uris'],
                                 packages=self.resources.packages,
                                 auto_inertials=values['auto_inertials'] or None,
                                 plugins=plugins)

    def _convert(self, text: str, source: str, values: dict[str, Any]) -> Conversion:
        """Convert ``text`` with the options of ``values``."""
        return convert(text, self._options(values), resources=self.resources, source=source)

    def _text(self, values: dict[str, Any]) -> tuple[str | None, str]:
        """Return the description ``values`` select and its name in messages."""
        if values['robot_description']:
            return values['robot_description'], self._parameter_source
        return self._topic_text, self._topic_source

    def _convert_startup_parameter(self) -> None:
        """Convert the robot_description parameter given at startup, or stop the node."""
        text = self._values['robot_description']
        try:
            result = self._convert(text, self._parameter_source, self._values)
        except SdfToolsError as e:
            raise StartupError('\n'.join(problem_lines(
                'Cannot convert the robot_description parameter (nothing is published, '
                'stopping)', e))) from None
        except Exception as e:  # a converter bug: say so rather than wait for nothing
            raise StartupError('Cannot convert the robot_description parameter; nothing is '
                               f'published, stopping: {type(e).__name__}: {e}') from None
        self._publish(result)

    def _update_from_topic(self) -> None:
        """Convert the topic's description with the current options; publish or log."""
        text, source = self._text(self._values)
        if text is None:
            return
        try:
            result = self._convert(text, source, self._values)
        except ConversionError as e:
            if self.converted is None:  # the options cannot convert it: nothing will come
                self.failure = '\n'.join(problem_lines(
                    'Cannot convert the description from the robot_description topic with '
                    'these options (nothing is published, stopping)', e))
                return
            for line in problem_lines('Cannot convert the description from the '
                                      f'robot_description topic ({self._kept()})', e):
                self._log.error(line)
        except SdfToolsError as e:
            for line in problem_lines('Ignored an invalid description from the '
                                      f'robot_description topic ({self._kept()})', e):
                self._log.error(line)
        except Exception as e:  # a converter bug must not kill the node
            self._log.error('Cannot convert the description from the robot_description topic '
                            f'({type(e).__name__}: {e}); {self._kept()}')
        else:
            self._publish(result)

    def _kept(self) -> str:
        """Say what stays published after a failed conversion."""
        if self.converted is None:
            return 'nothing is published yet: waiting for a valid description'
        return 'the last good SDFormat stays published'

    def _publish(self, result: Conversion) -> None:
        for warning in result.warnings:
            self._log.warning(warning)
        self.converted = result
        self._publisher.publish(String(data=result.sdf))
        topic = self._values['gz_joint_state_topic']
        system = f", with Gazebo's JointStatePublisher on {topic}" if topic else ''
        self._log.info(f'Published SDFormat {self._values["sdf_version"]} converted from '
                       f'{result.source_format} ({len(result.sdf)} characters{system})')
        self._write_file()

    def _write_file(self) -> None:
        path = self._values['output_file']
        if not path or self.converted is None:
            return
        try:
            check_outputs((path,), self.converted.inputs)
            write_file(path, self.converted.sdf, wait_for_reader=False)
        except OverwriteError as e:  # a mesh or package.xml the conversion read
            self._log.error(f'Cannot write output_file: {e}')
        except OSError as e:
            self._log.error(f'Cannot write output_file {path!r}: {e.strerror or e}')

    # --- callbacks --------------------------------------------------------------------------

    def _on_description(self, msg: String) -> None:
        try:
            self._topic_text = msg.data
            self._topic_source, self._first_source = self._first_source, SOURCE
            if self._values['robot_description']:
                self._log.info('Received a description on the topic; the robot_description '
                               'parameter takes precedence (clear it to use the topic)')
                return
            self._update_from_topic()
        except Exception as e:  # never let a message kill the node
            self._log.error(f'robot_description callback failed: {type(e).__name__}: {e}')

    def _validate_parameters(self, parameters: list[Parameter]) -> SetParametersResult:
        try:
            values = dict(self._values)
            for p in parameters:
                if p.name in values:
                    problem = option_problem(p.name, p.value)
                    if problem:
                        return reject(problem)
                    values[p.name] = p.value
            self._pending = None
            new_description = any(p.name == 'robot_description' for p in parameters)
            if new_description or any(p.name in _OPTION_NAMES for p in parameters):
                text, source = self._text(values)
                if new_description and values['robot_description']:
                    source = SOURCE
                if text:
                    try:
                        result = self._convert(text, source, values)
                    except SdfToolsError as e:
                        return reject(str(e))
                    self._pending = (values, result)
            return accept()
        except Exception as e:  # a converter bug: refuse the value, keep running
            return reject(f'cannot validate the value ({type(e).__name__}: {e})')

    def _apply_parameters(self, parameters: list[Parameter]) -> None:
        try:
            for p in parameters:
                if p.name in self._values:
                    self._values[p.name] = p.value
                if p.name == 'robot_description':
                    self._parameter_source = SOURCE
            pending, self._pending = self._pending, None
            if pending is not None and pending[0] == self._values:
                self._publish(pending[1])
            elif any(p.name == 'output_file' for p in parameters):
                self._write_file()
        except Exception as e:
            self._log.error(f'Failed to apply parameters: {type(e).__name__}: {e}')


def main(args: Sequence[str] | None = None) -> int:
    """Entry point of ``sdf_converter``; return the exit code."""
    return run(NODE_NAME, SUMMARY, PARAMETERS, SdfConverter, args)
