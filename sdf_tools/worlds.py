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
SDFormat worlds: the models of a world, placed in it, and its frames.

A :class:`~sdf_tools.model.Robot` is one model; a :class:`World` holds a document's models
as SDFormat places them (each ``Robot.origin`` is its model frame in the world frame), its
``<frame>`` s, and the names of what sdf_tools does not model (lights, actors).
"""

from sdf_tools.errors import SourceLocation
from sdf_tools.model import Pose
from sdf_tools.model import Robot
from sdf_tools.records import record


@record(frozen=True, slots=True)
class WorldFrame:
    """
    A ``<frame>`` of an SDFormat world.

    Attributes
    ----------
    name : str
        Its name.
    attached_to : str
        ``world``, a model of the world or a frame inside one (``model::link``), or another
        world frame.
    pose : Pose or None
        Its pose in the world frame (``None``: it does not resolve; reported).
    location : SourceLocation or None
        Where it is written.

    """

    name: str
    attached_to: str = 'world'
    pose: Pose | None = None
    location: SourceLocation | None = None


@record(frozen=True, eq=False)
class World:
    """
    An SDFormat ``<world>``, or the top level of a file that has none.

    Attributes
    ----------
    name : str or None
        The world's name; ``None`` for a file's top level (a model, light or actor alone).
    models : tuple of Robot
        Its models in document order, included ones where their ``<include>`` is; each
        ``Robot.origin`` is the model frame in the world frame.
    frames : tuple of WorldFrame
        Its ``<frame>`` s.
    lights, actors : tuple of str
        The names of its lights and actors (sdf_tools does not model them).
    location : SourceLocation or None
        Where it is written.

    """

    name: str | None
    models: tuple[Robot, ...] = ()
    frames: tuple[WorldFrame, ...] = ()
    lights: tuple[str, ...] = ()
    actors: tuple[str, ...] = ()
    location: SourceLocation | None = None
