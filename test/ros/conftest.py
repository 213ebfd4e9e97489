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
Fixtures of the ROS tests: ``tf2_msgs/TFMessage`` for the serialised ``/tf`` path.

tf2_msgs is not on PyPI. Where a ROS install provides it, that one is used; otherwise
:func:`ros_support.build_tf2_msgs` generates it once per session from a line of our own
``.msg`` with the rosidl toolchain from PyPI (about a minute; set
``SDF_TOOLS_TF2_MSGS_DIR`` to keep the build between sessions). Tests that need it skip with
the reason when the toolchain is missing.
"""

import os
from pathlib import Path
import sys

import pytest


@pytest.fixture(scope='session')
def tf_message_type(tmp_path_factory):
    """Return the ``tf2_msgs.msg.TFMessage`` class (module docstring)."""
    pytest.importorskip('rclpy', reason='rclpy is not installed')
    pytest.importorskip('geometry_msgs.msg', reason='geometry_msgs is not installed')
    try:
        from tf2_msgs.msg import TFMessage
        return TFMessage
    except ImportError:
        pass
    from ros_support import build_tf2_msgs
    from ros_support import ToolchainMissing
    directory = os.environ.get('SDF_TOOLS_TF2_MSGS_DIR') or tmp_path_factory.mktemp('tf2_msgs')
    try:
        python_dir = build_tf2_msgs(Path(directory))
    except ToolchainMissing as e:
        pytest.skip(str(e))
    sys.path.insert(0, str(python_dir))
    from tf2_msgs.msg import TFMessage
    return TFMessage
