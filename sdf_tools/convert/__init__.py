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
URDF to SDFormat the way libsdformat does it.

:mod:`.urdf_to_sdf` is the entry point and reads as the order of steps; then, in data-flow
order, :mod:`.gazebo_ext`, :mod:`.tree`, :mod:`.auto_inertials` (only with that option),
:mod:`.lumping`, :mod:`.naming`, :mod:`.mesh_uris`, :mod:`.decide_links`, :mod:`.decide_joints`
and :mod:`.gazebo_apply`.
"""
