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
``state_publisher``: robot_state_publisher's job, for URDF, SDFormat and RobCoGen robots.

A drop-in for robot_state_publisher: the same parameters, topics, QoS and publishing rules
(see :mod:`sdf_tools.ros.joint_state_tf` for the exact rules), plus:

* the description may be URDF, SDFormat or RobCoGen Kinematics-DSL text (detected);
* mimic joints are computed whenever their source joint is in a message, chains included
  (a value reported for a mimic joint wins, as in robot_state_publisher); a ``<mimic>``
  naming a joint that does not exist is ignored with a warning (the joint then
  moves on its own) instead of being dropped silently;
* ``joint_states`` from several publishers are merged into one configuration;
* floating and planar joints are published on ``/tf`` when their coordinates (``J/x``,
  ``J/y``, ``J/z``, ``J/qx`` .. ``J/qw`` / ``J/x``, ``J/y``, ``J/theta``) arrive, and never
  on ``/tf_static`` (robot_state_publisher skips floating joints and publishes planar ones
  as fixed at their origin);
* a ``joint_states`` stamp more than 10 s after the node clock is dropped with a
  throttled warning instead of being published (robot_state_publisher publishes it, then
  drops those joints' messages until its clock reaches that stamp: for good, for a stamp
  in 2038); a stamp more than 1 s before the last published one of its joints (a sender's
  clock jumping back) is dropped as in robot_state_publisher, with a throttled warning
  that says until when and how to recover;
* invalid messages (NaN, arrays of different lengths) are rejected with a throttled
  warning; unknown names are reported once; of a joint named twice the first value counts
  (as in robot_state_publisher), with one warning;
* a new description set as a parameter is validated first: an invalid one is rejected with
  its file:line error as the reason and the current model keeps publishing; an invalid one
  on the topic is logged and ignored; with ``description_from_topic`` the parameter is
  refused with the reason (Rolling's robot_state_publisher ignores it silently);
* ``/tf_static`` always holds exactly the current fixed joints: it is re-sent in full
  through a new publisher on each description (or ``frame_prefix``) change, so frames of
  removed links do not survive (Jazzy's Python ``StaticTransformBroadcaster`` would keep
  the first value per frame);
* a ``frame_prefix`` change renames the frames of ``/tf`` at once and re-sends
  ``/tf_static``.

Topics (relative names follow the node's namespace; ``/tf`` and ``/tf_static`` do not):

===================== ===== ====================== =====================================
topic                 dir   type                   QoS
===================== ===== ====================== =====================================
``robot_description`` pub   std_msgs/String        depth 1, reliable, transient local
                                                   (parameter mode only)
``robot_description`` sub   std_msgs/String        the same (``description_from_topic``)
``joint_states``      sub   sensor_msgs/JointState SensorDataQoS (best effort, depth 5),
                                                   overridable (``qos_overrides``)
``/tf``               pub   tf2_msgs/TFMessage     tf2_ros: depth 100, reliable, volatile
``/tf_static``        pub   tf2_msgs/TFMessage     depth 1, reliable, transient local
===================== ===== ====================== =====================================

``/tf`` is published without rclpy's conversion of a ``TFMessage`` object (about 190 us
for 44 transforms): as serialised bytes written into a template per set of frames, on a
publisher created as tf2_ros's ``TransformBroadcaster`` creates it; ``SDF_TOOLS_TF=broadcaster``
sends it through tf2_ros's broadcaster instead (:mod:`sdf_tools.ros.tf_broadcasters`).
``/tf_static`` goes through tf2_ros's ``StaticTransformBroadcaster``. ``joint_states`` is
received serialised and read by :class:`~sdf_tools.ros.tf_cdr.JointStateReader` (rclpy's
conversion to a message object where it cannot). Pass ``broadcaster_factory`` to use other
broadcasters, e.g. in tests.
"""

import time
from typing import Any
from typing import Callable
from typing import cast
from typing import Sequence

from rcl_interfaces.msg import SetParametersResult
from rclpy.clock import JumpThreshold
from rclpy.clock import ROSClock
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import qos_profile_sensor_data
from rclpy.qos_overriding_options import QoSOverridingOptions
from rclpy.serialization import deserialize_message
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import short_name
from sdf_tools.ros.descriptions import load_model
from sdf_tools.ros.descriptions import RobotModel
from sdf_tools.ros.descriptions import SOURCE
from sdf_tools.ros.joint_state_tf import JointStateTf
from sdf_tools.ros.joint_state_tf import THROTTLE_SEC
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
from sdf_tools.ros.parameter_rules import MAX_PUBLISH_FREQUENCY
from sdf_tools.ros.parameter_rules import publish_frequency_problem
from sdf_tools.ros.tf_broadcasters import Broadcaster
from sdf_tools.ros.tf_broadcasters import default_broadcaster
from sdf_tools.ros.tf_broadcasters import missing_tf2_ros
from sdf_tools.ros.tf_cdr import JointStateReader
from sdf_tools.ros.tf_messages import static_transforms
from sensor_msgs.msg import JointState
from std_msgs.msg import String

NODE_NAME = 'state_publisher'
#: ``(node, static) -> broadcaster`` (:class:`StatePublisher`'s ``broadcaster_factory``).
BroadcasterFactory = Callable[[Node, bool], Broadcaster]
#: Why ``robot_description`` is refused in topic mode (at startup and when set).
DESCRIPTION_FROM_TOPIC_REASON = (
    'robot_description cannot be set while description_from_topic is true: the description '
    'comes from the robot_description topic (start the node with description_from_topic '
    'false to give it as a parameter)')
SUMMARY = ('Publish /tf and /tf_static for a robot description (URDF, SDFormat or RobCoGen) '
           'and joint_states, like robot_state_publisher.')
PARAMETERS = (
    ParameterSpec(
        'robot_description', '',
        'The robot description: URDF, SDFormat or RobCoGen Kinematics-DSL text (xacro '
        'expanded). Required unless description_from_topic is true (then refused); '
        'republished on the robot_description topic. A new value is validated first: an '
        'invalid one is rejected with its file:line error and the current model stays.'),
    ParameterSpec(
        'publish_frequency', 20.0,
        'Maximum rate (Hz) of /tf per set of joints: a joint_states message is published '
        'only if its stamp is at least 1/publish_frequency after the last one published for '
        'its joints (robot_state_publisher semantics).',
        float_range=(0.0, MAX_PUBLISH_FREQUENCY), constraints='0 < publish_frequency <= 1000'),
    ParameterSpec(
        'ignore_timestamp', False,
        'Publish every valid joint_states message, whatever its stamp (no throttling, no '
        'dropping of old or zero stamps).'),
    ParameterSpec(
        'frame_prefix', '',
        'Prepended verbatim to every frame id, e.g. "left/". A change renames the frames of '
        '/tf at once and re-sends /tf_static.'),
    ParameterSpec(
        'description_from_topic', False,
        'Read the description from the robot_description topic (transient local) instead of '
        'the robot_description parameter, and do not republish it.', read_only=True),
    ParameterSpec('package_path', '', PACKAGE_PATH_DESCRIPTION, read_only=True),
    ParameterSpec(
        'description_source', '',
        'Name of the robot_description parameter given at startup in messages (file:line); '
        'empty: <robot_description>. The launch files set it to the description file.',
        read_only=True),
)


class StatePublisher(FailingNode):
    """
    The ``state_publisher`` node (module docstring).

    A :class:`~sdf_tools.ros.node_support.FailingNode` that never fails: a bad message or
    description is logged and the node goes on with what it had.

    Parameters
    ----------
    node_name : str
        Node name.
    broadcaster_factory : callable, optional
        ``(node, static: bool) -> broadcaster``; default
        :func:`~sdf_tools.ros.tf_broadcasters.default_broadcaster`.
        Called once for ``/tf`` and once per description for ``/tf_static``; a replaced
        static broadcaster's ``pub_tf`` publisher, if it has one, is destroyed. A
        broadcaster has ``sendTransform(list of TransformStamped)``; one for ``/tf`` with a
        true ``serialized`` attribute has ``publish(bytes)`` instead, and gets serialised
        ``tf2_msgs/TFMessage``.
    **kwargs
        Passed to :class:`rclpy.node.Node` (``namespace``, ``context``,
        ``parameter_overrides``, ...).

    Raises
    ------
    StartupError
        Bad parameters at startup, or (parameter mode) an empty or invalid description.

    """

    def __init__(self, node_name: str = NODE_NAME, *,
                 broadcaster_factory: BroadcasterFactory | None = None, **kwargs: Any) -> None:
        super().__init__(node_name, **kwargs)
        try:
            self._setup(broadcaster_factory or default_broadcaster)
        except BaseException:
            self.destroy_node()
            raise

    def _setup(self, broadcaster_factory: BroadcasterFactory) -> None:
        self._make_broadcaster = broadcaster_factory
        self._log = self.get_logger()
        # a node's clock is a ROSClock (rclpy.Node keeps its own in _clock)
        self._ros_clock = cast(ROSClock, self.get_clock())
        values = declare_parameters(self, PARAMETERS)
        problem = publish_frequency_problem(values['publish_frequency'])
        if problem:
            raise StartupError(problem)
        self._publish_frequency = values['publish_frequency']
        self._ignore_timestamp = values['ignore_timestamp']
        self._frame_prefix = values['frame_prefix']
        self._from_topic = values['description_from_topic']
        self.resources = node_resources(values['package_path'])
        self.model: RobotModel | None = None
        self.tf_state: JointStateTf | None = None
        self._pending: RobotModel | None = None
        self._static = None
        self._description_pub = None
        self._tf = self._make_broadcaster(self, False)
        self._serialized_tf = bool(getattr(self._tf, 'serialized', False))
        self._read_joint_states = JointStateReader().read
        self._now_ns = time.time_ns
        self._clock_jump = self._ros_clock.create_jump_callback(
            JumpThreshold(min_forward=None, min_backward=None, on_clock_change=True),
            post_callback=self._on_clock_change)
        self._on_clock_change(None)
        if self._from_topic:
            if values['robot_description']:
                raise StartupError(DESCRIPTION_FROM_TOPIC_REASON)
            self.create_subscription(String, 'robot_description', self._on_description,
                                     LATCHED_QOS)
            self._log.info('Waiting for the robot description on topic '
                           f"'{self.resolve_topic_name('robot_description')}'")
        else:
            text = values['robot_description']
            if not text:
                raise StartupError('robot_description parameter must not be empty (or set '
                                   'description_from_topic:=true)')
            try:
                model = load_model(text, resources=self.resources,
                                   source=values['description_source'] or SOURCE)
            except SdfToolsError as e:
                raise StartupError('\n'.join(problem_lines(
                    'Unable to load the robot description', e))) from None
            self._description_pub = self.create_publisher(String, 'robot_description',
                                                          LATCHED_QOS)
            self._install(model)
        self.create_subscription(JointState, 'joint_states', self._on_joint_states,
                                 qos_profile_sensor_data,
                                 qos_overriding_options=QoSOverridingOptions
                                 .with_default_policies(), raw=True)
        self.add_on_set_parameters_callback(self._validate_parameters)
        self.add_post_set_parameters_callback(self._apply_parameters)

    # --- callbacks --------------------------------------------------------------------------

    def _on_joint_states(self, data: bytes) -> None:
        state = self.tf_state
        if state is None:
            return
        try:
            try:
                sec, nanosec, names, positions = self._read_joint_states(data)
            except ValueError:  # a layout the reader does not know: rclpy converts it
                msg = deserialize_message(data, JointState)
                sec, nanosec = msg.header.stamp.sec, msg.header.stamp.nanosec
                names, positions = msg.name, msg.position
            transforms = state.process_values(sec, nanosec, names, positions, self._now_ns())
            if transforms is not None:
                if self._serialized_tf:
                    self._tf.publish(transforms)
                else:
                    self._tf.sendTransform(transforms)
        except Exception as e:  # never let a message kill the node
            self._log.error(f'joint_states callback failed: {type(e).__name__}: {e}',
                            throttle_duration_sec=THROTTLE_SEC)

    def _on_clock_change(self, jump: object) -> None:
        """
        Choose how the node clock is read: ROS time activated or deactivated.

        While ROS time is inactive (no ``use_sim_time``), the ROS clock reads the system
        clock (``CLOCK_REALTIME``), which ``time.time_ns`` reads with no ``Time`` object
        (about a tenth of ``Clock.now()``'s cost, once per message).
        """
        clock = self._ros_clock
        if clock.ros_time_is_active:
            self._now_ns = lambda: clock.now().nanoseconds
        else:
            self._now_ns = time.time_ns

    def _on_description(self, msg: String) -> None:
        try:
            model = load_model(msg.data, resources=self.resources)
        except SdfToolsError as e:
            for line in problem_lines('Ignored an invalid robot description from the topic '
                                      '(the current model stays)', e):
                self._log.error(line)
            return
        except Exception as e:  # a reader bug must not kill the node either
            self._log.error('Ignored a robot description from the topic that could not be '
                            f'read ({type(e).__name__}: {e}); the current model stays')
            return
        try:
            self._install(model)
        except Exception as e:
            self._log.error(f'Failed to install the new model: {type(e).__name__}: {e}')

    def _validate_parameters(self, parameters: list[Parameter]) -> SetParametersResult:
        try:
            for p in parameters:
                if p.name == 'publish_frequency':
                    problem = publish_frequency_problem(p.value)
                    if problem:
                        return reject(problem)
                elif p.name == 'robot_description' and self._from_topic:
                    return reject(DESCRIPTION_FROM_TOPIC_REASON)
                elif p.name == 'robot_description':
                    if not p.value:
                        return reject('Empty robot_description is not allowed')
                    try:
                        self._pending = load_model(p.value, resources=self.resources)
                    except SdfToolsError as e:
                        for line in problem_lines('Rejected the new robot_description', e):
                            self._log.warning(line)
                        return reject(str(e))
            return accept()
        except Exception as e:  # a reader bug: refuse the value, keep running
            return reject(f'cannot validate the value ({type(e).__name__}: {e})')

    def _apply_parameters(self, parameters: list[Parameter]) -> None:
        try:
            self._apply(parameters)
        except Exception as e:
            self._log.error(f'Failed to apply parameters: {type(e).__name__}: {e}')

    def _apply(self, parameters: list[Parameter]) -> None:
        values = {p.name: p.value for p in parameters}
        state = self.tf_state
        if 'publish_frequency' in values:
            self._publish_frequency = values['publish_frequency']
            if state is not None:
                state.publish_frequency = self._publish_frequency
        if 'ignore_timestamp' in values:
            self._ignore_timestamp = values['ignore_timestamp']
            if state is not None:
                state.ignore_timestamp = self._ignore_timestamp
        text = values.get('robot_description')
        if 'frame_prefix' in values:
            self._frame_prefix = values['frame_prefix']
            if state is not None and text is None:
                state.frame_prefix = self._frame_prefix
                self._send_static()
        if text is not None:
            pending, self._pending = self._pending, None
            if pending is None or pending.text != text:
                pending = load_model(text, resources=self.resources)
            self._install(pending)

    # --- model installation -----------------------------------------------------------------

    def _install(self, model: RobotModel) -> None:
        """Make ``model`` current: new TF state, full ``/tf_static``, republished text."""
        for warning in model.warnings:
            self._log.warning(warning)
        old = self.tf_state
        self.tf_state = JointStateTf(
            model.tree, frame_prefix=self._frame_prefix,
            publish_frequency=self._publish_frequency, ignore_timestamp=self._ignore_timestamp,
            logger=self._log, positions=old.positions() if old is not None else None,
            serialized=self._serialized_tf)
        self.model = model
        self._send_static()
        if self._description_pub is not None:
            self._description_pub.publish(String(data=model.text))
        tree = model.tree
        name = short_name(tree.name)  # no line of its own for a newline, nor 9 MB of log
        self._log.info(f"Robot initialized: '{name}' from {model.robot.source_format}, "
                       f'{len(tree.moving_joints)} moving joint(s) on /tf, '
                       f'{len(tree.fixed_joints)} fixed on /tf_static')

    def _send_static(self) -> None:
        """Send the whole fixed-joint set through a fresh ``/tf_static`` publisher."""
        old, self._static = self._static, None
        if old is not None:
            publisher = getattr(old, 'pub_tf', None)
            if publisher is not None:
                self.destroy_publisher(publisher)
        model = self.model
        if model is None:
            return
        static = self._static = self._make_broadcaster(self, True)
        stamp = self._ros_clock.now().to_msg()
        static.sendTransform(static_transforms(model.tree, self._frame_prefix, stamp,
                                               model.robot.frames))


def main(args: Sequence[str] | None = None) -> int:
    """Entry point of ``state_publisher``; return the exit code."""
    return run(NODE_NAME, SUMMARY, PARAMETERS, StatePublisher, args, check=missing_tf2_ros)
