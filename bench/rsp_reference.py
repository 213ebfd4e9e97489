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
The C++ robot_state_publisher as a subject of ``bench_ros_node.py --rsp PATH``.

:func:`rsp_environment` is what the executable needs to run beside the rclpy wheels;
:func:`compare_tf` compares the ``/tf`` it publishes for the feeder's configurations with the
state publisher's.
"""

import os
from pathlib import Path


def rsp_environment(rsp: Path, env: dict) -> dict:
    """
    Return ``env`` with what a robot_state_publisher built beside the rclpy wheels needs.

    Its install prefix (``<prefix>/lib/robot_state_publisher/robot_state_publisher``) and
    the wheels' libraries go first on ``LD_LIBRARY_PATH`` and ``AMENT_PREFIX_PATH`` (where
    they exist); a ROS install's environment already has them.
    """
    import sysconfig
    prefix = Path(rsp).resolve().parents[2]
    data, site = (Path(sysconfig.get_paths()[k]) for k in ('data', 'purelib'))

    def join(paths, old):
        return os.pathsep.join([str(p) for p in paths if p.is_dir()] + ([old] if old else []))

    return dict(env, LD_LIBRARY_PATH=join([prefix / 'lib', data / 'lib',
                                           *sorted(site.glob('ros_*.libs'))],
                                          env.get('LD_LIBRARY_PATH')),
                AMENT_PREFIX_PATH=join([prefix, data], env.get('AMENT_PREFIX_PATH')))


def compare_tf(ours, theirs) -> dict:
    """
    Compare two subjects' ``/tf`` of the same feeder configurations.

    Parameters
    ----------
    ours, theirs : dict
        Configuration index -> list of ``[frame_id, child_frame_id, x, y, z, qx, qy, qz,
        qw]`` (the receiver's ``tf``).

    Returns
    -------
    dict
        Configurations compared, those whose frame pairs differ, transforms compared, those
        whose quaternions have opposite signs, the largest difference of a number, and how
        many numbers are equal bit for bit of how many.

    """
    common = sorted(set(ours) & set(theirs), key=int)
    out = {'configurations': len(common), 'frame_sets_differ': 0, 'transforms': 0,
           'opposite_signs': 0, 'max_difference': 0.0, 'equal_numbers': 0, 'numbers': 0}
    for index in common:
        a = {(t[0], t[1]): t[2:] for t in ours[index]}
        b = {(t[0], t[1]): t[2:] for t in theirs[index]}
        if a.keys() != b.keys():
            out['frame_sets_differ'] += 1
            continue
        for frames, values in a.items():
            other = b[frames]
            out['transforms'] += 1
            out['opposite_signs'] += sum(x * y for x, y in zip(values[3:], other[3:])) < 0
            out['max_difference'] = max(out['max_difference'],
                                        *(abs(x - y) for x, y in zip(values, other)))
            out['equal_numbers'] += sum(x == y for x, y in zip(values, other))
            out['numbers'] += len(values)
    return out


def tf_comparison_text(c) -> str:
    """Return one line about :func:`compare_tf`'s result."""
    text = (f"/tf against rsp: {c['configurations']} configurations, {c['transforms']} "
            f"transforms, {c['opposite_signs']} of opposite sign, largest difference "
            f"{c['max_difference']:.1e}, {c['equal_numbers']} of {c['numbers']} numbers equal "
            'bit for bit')
    if c['frame_sets_differ']:
        text += f", frame pairs differ in {c['frame_sets_differ']} configurations"
    return text
