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
How the state publisher's TF leaves the node: tf2_ros's broadcasters, or serialised ``/tf``.

:func:`default_broadcaster` is the node's ``broadcaster_factory``: ``/tf`` goes out as
serialised ``tf2_msgs/TFMessage`` bytes (:class:`SerializedTfBroadcaster`, fed by
:class:`~sdf_tools.ros.tf_cdr.TfMessageCdr`) on a publisher created as tf2_ros's
``TransformBroadcaster`` creates it: topic ``/tf``, ``QoSProfile(depth=100)`` (reliable,
volatile), no QoS overrides (tf2_ros_py has none; rclcpp's broadcaster offers them). tf2_ros's
``TransformBroadcaster`` is used instead when ``SDF_TOOLS_TF=broadcaster`` or ``tf2_msgs``
cannot be imported; ``/tf_static`` always goes through its ``StaticTransformBroadcaster``.
"""

import os
from typing import Any

from rclpy.node import Node
from rclpy.qos import QoSProfile

#: The ``/tf`` publisher's QoS: tf2_ros's ``TransformBroadcaster`` default (depth 100,
#: reliable, volatile).
TF_QOS = QoSProfile(depth=100)
#: Environment variable: ``broadcaster`` sends ``/tf`` through tf2_ros's broadcaster.
TF_PATH_VARIABLE = 'SDF_TOOLS_TF'
#: A broadcaster: :class:`SerializedTfBroadcaster` (``publish(bytes)``) or tf2_ros's
#: ``TransformBroadcaster`` / ``StaticTransformBroadcaster`` (``sendTransform(list)``,
#: untyped).
Broadcaster = Any


class SerializedTfBroadcaster:
    """
    The ``/tf`` publisher of tf2_ros's ``TransformBroadcaster``, fed serialised messages.

    Parameters
    ----------
    node : rclpy.node.Node
        The node that publishes.

    Attributes
    ----------
    pub_tf : rclpy.publisher.Publisher
        The ``/tf`` publisher.
    publish : callable
        ``publish(data: bytes)`` publishes one serialised ``tf2_msgs/TFMessage`` (CDR bytes)
        on ``/tf``: the ``publish_raw`` of ``pub_tf``'s handle where rclpy has it (rclpy 9:
        ``Publisher.publish`` adds a handle guard and two type checks, about 3 us of 4.6 for
        talos's 3 kB), else ``pub_tf.publish``.

    Raises
    ------
    ImportError
        ``tf2_msgs`` is not installed.

    """

    #: The node hands ``publish`` a serialised ``TFMessage`` instead of calling
    #: ``sendTransform``.
    serialized = True

    def __init__(self, node: Node):
        from tf2_msgs.msg import TFMessage
        self.pub_tf = node.create_publisher(TFMessage, '/tf', TF_QOS)
        self.publish = getattr(self.pub_tf.handle, 'publish_raw', None) or self.pub_tf.publish


def default_broadcaster(node: Node, static: bool) -> Broadcaster:
    """
    Return the node's broadcaster for ``/tf`` or ``/tf_static`` (module docstring).

    ``/tf``: a :class:`SerializedTfBroadcaster`, or tf2_ros's ``TransformBroadcaster`` when
    ``SDF_TOOLS_TF=broadcaster`` or ``tf2_msgs`` cannot be imported. ``/tf_static``: tf2_ros's
    ``StaticTransformBroadcaster``.

    Raises
    ------
    ImportError
        tf2_ros is needed and not installed.

    """
    if not static and os.environ.get(TF_PATH_VARIABLE, '').lower() != 'broadcaster':
        try:
            return SerializedTfBroadcaster(node)
        except ImportError:
            pass
    return tf2_broadcaster(node, static)


def tf2_broadcaster(node: Node, static: bool) -> Broadcaster:
    """
    Return a tf2_ros ``StaticTransformBroadcaster`` or ``TransformBroadcaster`` for ``node``.

    Raises
    ------
    ImportError
        tf2_ros is not installed.

    """
    if static:
        from tf2_ros.static_transform_broadcaster import StaticTransformBroadcaster
        return StaticTransformBroadcaster(node)
    from tf2_ros.transform_broadcaster import TransformBroadcaster
    return TransformBroadcaster(node)


def missing_tf2_ros() -> str | None:
    """Return the message for a missing tf2_ros, or ``None`` when it can be imported."""
    try:
        import tf2_ros.static_transform_broadcaster  # noqa: F401
        import tf2_ros.transform_broadcaster  # noqa: F401
    except ImportError as e:
        distro = os.environ.get('ROS_DISTRO') or '<distro>'
        return (f'state_publisher needs tf2_ros (ros-{distro}-tf2-ros-py) to broadcast /tf '
                f'and /tf_static: {e}')
    return None
