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
SDFormat: :mod:`.reader` (models and worlds, 1.3 to 1.11) and :mod:`.writer`.

The reader is built from :mod:`.elements` and :mod:`.joints` (element values),
:mod:`.include` and :mod:`.merge` (what includes bring in), :mod:`.frames` (the pose and
attachment graphs) and :mod:`.assembly` (graph to model); the
writer writes nested models again by :mod:`.scopes`;
:mod:`.names`, :mod:`.values` and :mod:`.versions` hold the rules the reader, the writer and
the URDF converter share.
"""
