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
ROS 2 nodes of sdf_tools: the TF state publisher and the SDF converter.

This sub-package is the only part of sdf_tools that imports rclpy or ROS message packages;
``import sdf_tools`` never loads it. The modules:

* :mod:`~sdf_tools.ros.state_publisher`: ``state_publisher``, a drop-in for
  robot_state_publisher (``robot_description`` + ``joint_states`` -> ``/tf``, ``/tf_static``);
* :mod:`~sdf_tools.ros.sdf_converter`: ``sdf_converter`` (``robot_description`` ->
  ``robot_description_sdf`` for ``ros_gz_sim create -topic``);
* :mod:`~sdf_tools.ros.descriptions`: description text -> compiled model or SDFormat,
  through :mod:`sdf_tools.loading` (no rclpy);
* :mod:`~sdf_tools.ros.joint_state_tf`: the ``joint_states`` -> ``/tf`` hot path and its
  publishing rules;
* :mod:`~sdf_tools.ros.tf_messages`: TF as ``TransformStamped`` objects (tf2_ros's
  broadcasters; the ``/tf_static`` set);
* :mod:`~sdf_tools.ros.tf_cdr`: ``JointState`` read and ``TFMessage`` written as serialised
  CDR (``/tf`` without rclpy's message conversions);
* :mod:`~sdf_tools.ros.tf_broadcasters`: how TF leaves the node (serialised ``/tf``,
  tf2_ros's broadcasters);
* :mod:`~sdf_tools.ros.bringup`: what the launch files call (no rclpy): launch arguments,
  the description, Gazebo's systems, and the actions that stop a failed launch;
* :mod:`~sdf_tools.ros.node_support`: parameter tables, QoS profiles, ``main()`` plumbing;
* :mod:`~sdf_tools.ros.entry_points`: the nodes' console scripts (no rclpy): Ctrl-C while a
  node imports, and a missing ROS 2, in one quiet line.
"""
