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
Scoped names back into nested models, for the SDFormat writer.

The reader flattens nested models into scoped names (``outer::inner::link``); the writer
writes each scope as a nested ``<model>`` again (SDFormat 1.8+ forbids ``::`` in names).
:func:`group_by_scope` groups the links, joints and frames by the scope of their names and
reports what SDFormat could not read back: a reference out of the scope of a name, a name
used twice in one scope. URDF's empty root link ``world`` is no link of the model
(:func:`world_link`): joints from it are joints to ``world``. A frame attached to ``world``
(without such a link) is fixed in the model frame: it may be in any scope. A nested model
without links is written static (:func:`holds_links`), as SDFormat requires.

``fail(message, entity=None, location=None)`` records each problem.
"""

from collections.abc import Callable

from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf import names as sdf_names
from sdf_tools.model import Frame
from sdf_tools.model import Joint
from sdf_tools.model import Link
from sdf_tools.model import Robot
from sdf_tools.topology import WORLD

#: What records a problem: ``fail(message, entity, location)``.
Fail = Callable[[str, str | None, SourceLocation | None], None]
#: A scope's content: ``'link'``, ``'joint'``, ``'frame'`` -> the items, in document order.
Scope = dict[str, list[Link | Joint | Frame]]


def empty_scope() -> Scope:
    """Return the content of a scope with nothing in it: kind -> list."""
    return {'link': [], 'joint': [], 'frame': []}


def world_link(robot: Robot, fail: Fail) -> str | None:
    """Return the name of a URDF-style empty root link called ``world``, if any."""
    index = robot.index
    link = index.links.get(WORLD)
    if link is None:
        return None
    if (link.name in index.parent_joint or link.inertial is not None or link.visuals
            or link.collisions or link.extras):
        fail("the link name 'world' is reserved in SDFormat", "link 'world'", link.location)
        return None
    return WORLD


def group_by_scope(robot: Robot, world: str | None, version: tuple[int, int],
                   fail: Fail) -> dict[str, Scope]:
    """
    Group links, joints and frames by scope prefix (``''``, ``'a::'``, ``'a::b::'``, ...).

    Parameters
    ----------
    robot : Robot
        The model.
    world : str or None
        The name of URDF's world link (:func:`world_link`), which is left out.
    version : tuple
        The SDFormat version written, ``(major, minor)``.
    fail : callable
        Records a problem.

    Returns
    -------
    dict
        Prefix -> :func:`empty_scope` filled in document order; every enclosing scope of
        a prefix is there too.

    """
    scopes: dict[str, Scope] = {}
    for link in robot.links:
        if link.name == world:
            continue
        prefix = _scope_of(scopes, link.name, f"link '{link.name}'", link.location, version,
                           fail)
        scopes[prefix]['link'].append(link)
    for joint in robot.joints:
        entity = f"joint '{joint.name}'"
        prefix = _scope_of(scopes, joint.name, entity, joint.location, version, fail)
        for role, name in (('parent', joint.parent), ('child', joint.child)):
            if name in (WORLD, world) and role == 'parent':
                continue
            if not name.startswith(prefix):
                fail(f'its {role} link {name!r} is outside the scope of its name '
                     f'{prefix[:-2]!r}; SDFormat cannot refer to it', entity, joint.location)
        scopes[prefix]['joint'].append(joint)
    for frame in robot.frames:
        entity = f"frame '{frame.name}'"
        prefix = _scope_of(scopes, frame.name, entity, frame.location, version, fail)
        if frame.attached_to == world:
            fail("it is attached to the link 'world', which SDFormat has not", entity,
                 frame.location)
        elif frame.attached_to != WORLD and not frame.attached_to.startswith(prefix):
            fail(f'it is attached to {frame.attached_to!r}, outside the scope of its name '
                 f'{prefix[:-2]!r}; SDFormat cannot refer to it', entity, frame.location)
        scopes[prefix]['frame'].append(frame)
    for prefix, items in scopes.items():
        _check_names(prefix, items, scopes, fail)
    return scopes


def _scope_of(scopes: dict[str, Scope], name: str, entity: str,
              location: SourceLocation | None, version: tuple[int, int], fail: Fail) -> str:
    """Return the scope prefix of a name, adding it and its enclosing scopes to ``scopes``."""
    prefix, _, local = name.rpartition('::')
    if prefix and version < (1, 8):
        fail("scoped names (with '::') need nested models, which this writer writes for "
             'SDFormat 1.8 and later', entity, location)
    if not sdf_names.as_read(local) or sdf_names.is_reserved(local):
        fail(f'the name {local!r} is reserved or empty in SDFormat', entity, location)
    prefix = prefix + '::' if prefix else ''
    parts = prefix.split('::')[:-1]
    for i in range(len(parts) + 1):
        scopes.setdefault('::'.join(parts[:i]) + ('::' if i else ''), empty_scope())
    return prefix


def holds_links(prefix: str, scopes: dict[str, Scope]) -> bool:
    """Return whether the scope ``prefix`` or a scope inside it holds a link."""
    return any(items['link'] for p, items in scopes.items() if p.startswith(prefix))


def _check_names(prefix: str, items: Scope, scopes: dict[str, Scope], fail: Fail) -> None:
    taken: dict[str, str] = {}
    nested = {p[len(prefix):-2] for p in scopes if p != prefix and p.startswith(prefix)
              and '::' not in p[len(prefix):-2]}
    for name in nested:
        taken[name] = 'nested model'
    for kind in ('link', 'joint', 'frame'):
        for item in items[kind]:
            local = item.name[len(prefix):]
            read = sdf_names.as_read(local)
            if read in taken:
                trimmed = '' if read == local else f' (read as {read!r}: SDFormat trims names)'
                fail(f'its name {local!r}{trimmed} is also used by a {taken[read]}; SDFormat '
                     'needs distinct names for links, joints, frames and nested models',
                     f"{kind} '{item.name}'", item.location)
            else:
                taken[read] = kind
