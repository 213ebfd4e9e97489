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
What the value readers read of an element, whichever tree holds it.

An lxml element and a kept :class:`~sdf_tools.xmlio.element.Element` (the content of a
``<gazebo>`` blob, of ``<ros2_control>``) both have a name, attributes and a line;
:class:`~sdf_tools.xmlio.parse.ValueReader` and :func:`~sdf_tools.xmlio.parse.local_name`
read either through :class:`Node`, without knowing which.
"""

from typing import Protocol


class Node(Protocol):
    """An element: lxml's ``_Element`` or a :class:`~sdf_tools.xmlio.element.Element`."""

    @property
    def tag(self) -> str:
        """Return the element's name (lxml's form: ``{namespace}name``)."""

    @property
    def sourceline(self) -> object:
        """Return its line, or ``None`` (lxml-stubs 0.5.1 types lxml's as ``...``)."""

    def get(self, key: str) -> str | None:
        """Return the value of attribute ``key``, or ``None``."""
