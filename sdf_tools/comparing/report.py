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
A comparison written for people (:func:`to_text`) and for programs (:func:`to_json`).

The text names both inputs, then the differences grouped by entity, one line each with both
sides' values and ``file:line``, then the pose check, the notes and a verdict::

    A: arm.urdf (URDF)
    B: arm_v2.urdf (URDF)
    joint 'elbow'
      limit upper: 1.57 | 2  [arm.urdf:42 | arm_v2.urdf:40]
    poses (5 configurations, 7 links): largest 0.1 m at link 'hand' (configuration 2),
      0.2 rad at link 'hand' (configuration 2); explained by the differences above
    different: 1 difference (tolerance 1e-06)

Several differences end with how many there are of each kind (``different: 8 differences: 1
only in B, 6 pose, 1 mesh (tolerance 1e-06)``). A mesh named in a ``not found`` detail is
named once, at its first difference.

The JSON schema is in :mod:`sdf_tools.comparing`'s docstring.
"""

from collections.abc import Sequence

from sdf_tools.comparing.results import Comparison
from sdf_tools.comparing.results import Difference
from sdf_tools.comparing.results import KINDS
from sdf_tools.comparing.results import Side
from sdf_tools.comparing.values import shown
from sdf_tools.errors import SourceLocation

_NOT_FOUND = 'not found: '
_FORMATS = {'urdf': 'URDF', 'sdf': 'SDFormat', 'kindsl': 'RobCoGen Kinematics-DSL'}
_ENTITY_WORDS = {'model': 'model', 'link': 'link', 'joint': 'joint', 'frame': 'frame',
                 'gazebo': '<gazebo reference>'}
_KIND_WORDS = {'only-in-a': 'only in A', 'only-in-b': 'only in B', 'renamed': 'renamed',
               'prefix': 'name prefix',
               'joint-in-child': 'joint frame in the child link',
               'centre-of-mass': 'centre of mass', 'safety-controller': 'safety controller',
               'poses': 'pose in the model frame', 'attached-to': 'attached to',
               'content': ''}


def _describe(tag: str, side: Side) -> str:
    """Return the heading line of one side."""
    loaded = side.loaded
    text = f'{tag}: {loaded.source} ({_FORMATS.get(loaded.fmt, loaded.fmt)}'
    if loaded.xacro:
        text += ', from xacro'
    if side.lumped:
        text += ', compared as SDFormat: converted, fixed joints lumped'
    return text + ')'


def _place(location: SourceLocation | None) -> str:
    return str(location) if location is not None else '-'


def _heading(d: Difference) -> str:
    """Return the group heading of a difference's entity."""
    if d.entity == 'model':
        return 'model'
    if d.entity == 'gazebo' and not d.name:
        return '<gazebo> (model)'
    return f"{_ENTITY_WORDS[d.entity]} '{d.name}'"


def _line(d: Difference, missing: set) -> str:
    """
    Return one difference as an indented line (without its group heading).

    ``missing``: the mesh URIs already said not to be found (each is said once).
    """
    what = ' '.join(p for p in (d.part, _KIND_WORDS.get(d.kind, d.kind), d.field) if p)
    places = f'[{_place(d.a_location)} | {_place(d.b_location)}]'
    if d.kind in ('only-in-a', 'only-in-b') and not d.part:
        text = what
    elif d.kind == 'renamed':
        text = f'renamed: {d.a} | {d.b}'
    elif d.kind == 'poses':
        text = what
    else:
        text = f'{what}: {shown(d.a)} | {shown(d.b)}'
    detail = d.detail
    if detail.startswith(_NOT_FOUND):
        uris = [uri for uri in detail[len(_NOT_FOUND):].split(', ') if uri not in missing]
        missing.update(uris)
        detail = _NOT_FOUND + ', '.join(uris) if uris else ''
    if detail:
        text += f' ({detail})'
    return f'  {text}  {places}'


def _poses(comparison: Comparison) -> str | None:
    """Return the pose check line."""
    poses = comparison.poses
    if poses.skipped:
        return None
    head = (f'poses ({len(poses.configurations)} configurations, {poses.links} '
            f'link{"" if poses.links == 1 else "s"}): ')
    if poses.position_link is None and poses.angle_link is None:
        return head + 'the same'
    largest = [f"{error:.6g} {unit} at link '{link}' (configuration {k})"
               for error, unit, link, k in (
                   (poses.position_error, 'm', poses.position_link, poses.position_configuration),
                   (poses.angle_error, 'rad', poses.angle_link, poses.angle_configuration))
               if link is not None]
    text = head + 'largest ' + ', '.join(largest)
    tol = comparison.tolerance
    if poses.position_error <= tol and poses.angle_error <= tol:
        return text + ': within the tolerance'
    return text + ('; explained by the differences above' if not poses.unexplained else '')


def to_text(comparison: Comparison) -> str:
    """Return the report for people (module docstring), ending with a newline."""
    lines = [_describe('A', comparison.a), _describe('B', comparison.b)]
    heading = None
    missing: set = set()
    for d in comparison.differences:
        if _heading(d) != heading:
            heading = _heading(d)
            lines.append(heading)
        lines.append(_line(d, missing))
    poses = _poses(comparison)
    if poses:
        lines.append(poses)
    if comparison.notes:
        lines.append('notes:')
        lines += [f'  {_place(n.location)}: {n.text}' if n.location else f'  {n.text}'
                  for n in comparison.notes]
    lines.append(f'{_verdict(comparison.differences)} (tolerance {comparison.tolerance:g})')
    return '\n'.join(lines) + '\n'


def _verdict(differences: Sequence[Difference]) -> str:
    """Return ``equal``, or how many differences there are, by kind when more than one."""
    n = len(differences)
    if n < 2:
        return 'different: 1 difference' if n else 'equal'
    counts: dict = {}
    for d in sorted(differences, key=lambda d: KINDS.index(d.kind)):
        word = _KIND_WORDS.get(d.kind, d.kind) or d.kind
        counts[word] = counts.get(word, 0) + 1
    kinds = ', '.join(f'{k} {word}' for word, k in counts.items())
    return f'different: {n} differences: {kinds}'


def _side(side: Side) -> dict:
    loaded = side.loaded
    return {'source': loaded.source, 'format': loaded.fmt, 'xacro': loaded.xacro,
            'lumped': side.lumped}


def _location(location: SourceLocation | None) -> str | None:
    return None if location is None else str(location)


def to_json(comparison: Comparison) -> dict:
    """Return the comparison as JSON-ready data (schema: :mod:`sdf_tools.comparing`)."""
    poses = comparison.poses
    return {
        'equal': comparison.equal,
        'tolerance': comparison.tolerance,
        'a': _side(comparison.a),
        'b': _side(comparison.b),
        'differences': [
            {'entity': d.entity, 'name': d.name, 'kind': d.kind, 'part': d.part,
             'field': d.field, 'a': d.a, 'b': d.b, 'a_location': _location(d.a_location),
             'b_location': _location(d.b_location), 'detail': d.detail}
            for d in comparison.differences],
        'poses': {
            'configurations': list(poses.configurations), 'links': poses.links,
            'position_error': poses.position_error, 'position_link': poses.position_link,
            'position_configuration': poses.position_configuration,
            'angle_error': poses.angle_error, 'angle_link': poses.angle_link,
            'angle_configuration': poses.angle_configuration,
            'unexplained': list(poses.unexplained), 'skipped': poses.skipped},
        'notes': [{'kind': n.kind, 'text': n.text, 'location': _location(n.location)}
                  for n in comparison.notes],
    }
