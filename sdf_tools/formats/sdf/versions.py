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
The SDFormat versions sdf_tools reads, writes and converts to, side by side.

The three lists differ for a reason: the reader takes every version Gazebo has shipped
models in; the writer writes model-level ``relative_to`` poses, which need 1.7; the URDF
converter starts at libsdformat 12's 1.9, the version ``gz sdf -p`` writes, and 1.11 is the
first with ``<mimic>``.
"""

#: Versions :func:`~sdf_tools.formats.sdf.reader.parse_sdf` reads (a newer one is read with
#: the newest rules and a warning).
READABLE_VERSIONS = ('1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11')
#: Versions :func:`~sdf_tools.formats.sdf.writer.write_sdf` writes.
WRITABLE_VERSIONS = ('1.7', '1.8', '1.9', '1.10', '1.11')
#: Versions :func:`~sdf_tools.convert.urdf_to_sdf.urdf_to_sdf` writes (and the tools offer).
CONVERTIBLE_VERSIONS = ('1.9', '1.10', '1.11')
#: The first version with joint ``<mimic>``.
MIMIC_VERSION = '1.11'


def version_tuple(text: str) -> tuple[int, int]:
    """Return ``(major, minor)`` of a version text such as ``'1.10'`` (for comparisons)."""
    major, _, minor = text.partition('.')
    return (int(major), int(minor))
