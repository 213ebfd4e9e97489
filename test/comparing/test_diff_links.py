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


"""Links compared: mass properties as what they mean, root link poses."""

from diff_support import ARM
from diff_support import compare
from diff_support import edited


def test_an_inertia_written_in_a_turned_frame_is_the_same():
    # diag(0.01, 0.02, 0.01) about z turned by 90 degrees is diag(0.02, 0.01, 0.01).
    turned = edited('<origin xyz="0 0 0.1"/><mass', '<origin xyz="0 0 0.1" rpy="0 0 '
                    '1.5707963267948966"/><mass', ARM).replace(
        'ixx="0.01" iyy="0.02" izz="0.01"', 'ixx="0.02" iyy="0.01" izz="0.01"')
    assert compare(ARM, turned).equal
    d, = compare(ARM, turned.replace('rpy="0 0 1.5707963267948966"', '')).differences
    assert (d.name, d.kind) == ('fore', 'inertia')
    assert (d.a['ixx'], d.a['iyy'], d.b['ixx'], d.b['iyy']) == (0.01, 0.02, 0.02, 0.01)


def test_a_small_inertia_compares_relative_to_its_size():
    # 1e-5 against 1.1e-5 kg m^2 is below 1e-6 absolute, and 10 % of the tensor.
    changed = edited('ixx="1e-5"', 'ixx="1.1e-5"')
    d, = compare(ARM, changed).differences
    assert (d.name, d.kind) == ('finger', 'inertia')


def test_an_inertial_on_one_side_only_is_one_difference():
    bare = edited('<inertial><mass value="0.01"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5" '
                  'ixy="0" ixz="0" iyz="0"/></inertial>', '')
    d, = compare(ARM, bare).differences
    assert (d.name, d.kind, d.b) == ('finger', 'inertial', None)
    assert d.a['mass'] == 0.01 and d.a['com'] == [0.0, 0.0, 0.0]


def test_a_root_link_pose_is_compared_in_the_model_frame():
    sdf = ('<sdf version="1.9"><model name="m"><link name="a"><pose>{}</pose></link>'
           '</model></sdf>')
    d, = compare(sdf.format('0 0 1 0 0 0'), sdf.format('0 0 1.5 0 0 0'),
                 names=('a.sdf', 'b.sdf')).differences
    assert (d.entity, d.name, d.kind, d.a['xyz'], d.b['xyz']) == (
        'link', 'a', 'pose', [0.0, 0.0, 1.0], [0.0, 0.0, 1.5])
