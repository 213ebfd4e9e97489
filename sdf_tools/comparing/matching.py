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
Which link (joint) of one side is which of the other: by name, else a likely rename.

Links and joints of one name are the same. When the names of one side are (nearly all)
the other's with a prefix in front (``arm_base_link`` for ``base_link``: a xacro
``prefix:=arm_``), those pairs are the same too, and the prefix is one difference
(:attr:`Matching.prefix`), not a rename per link and joint. Of the rest, pairs are likely
renames, found in this order until nothing more pairs:

1. a joint both sides have whose child (or parent) is a different unmatched link on each
   side: those links;
2. an unmatched joint on each side between the same (matched) links: those joints;
3. an unmatched link on each side with the same content (mass, visuals, collisions:
   ``same_content``), each the other's only such candidate: those links.
"""

from collections.abc import Callable

from sdf_tools.model import Robot
from sdf_tools.records import record


@record(frozen=True)
class Matching:
    """
    Side A's names -> side B's names.

    ``links`` and ``joints`` hold every pair, matched by name or renamed; ``renamed_*`` the
    side A names of the renamed ones; ``prefix`` is ``(on A, on B)``: what the names of one
    side have in front of the other's (``('', 'arm_')``; ``('', '')``: none), and
    ``prefixed`` the side A names of the links and joints paired by it.
    """

    links: dict
    joints: dict
    renamed_links: frozenset
    renamed_joints: frozenset
    prefix: tuple[str, str] = ('', '')
    prefixed: frozenset = frozenset()


def match(a: Robot, b: Robot, same_content: Callable[[str, str], bool]) -> Matching:
    """
    Pair the links and joints of two robots (module docstring).

    ``same_content(a_link, b_link)`` tells whether two links hold the same (step 3).
    """
    b_links = b.index.links
    b_joints = b.index.joints
    links = {name: name for name in a.index.links if name in b_links}
    joints = {name: name for name in a.index.joints if name in b_joints}
    named_links, named_joints = set(links), set(joints)
    prefix = _prefix([n for n in a.index.links if n not in links],
                     [n for n in b_links if n not in links.values()])
    prefixed = set()
    if prefix != ('', ''):
        for found, names_a, names_b in ((links, a.index.links, b_links),
                                        (joints, a.index.joints, b_joints)):
            taken = set(found.values())
            for name in names_a:
                other = _prefixed(name, prefix)
                if name not in found and other is not None and other in names_b and \
                        other not in taken:
                    found[name] = other
                    prefixed.add(name)
    changed = True
    while changed:
        changed = _links_by_joints(a, b, links, joints) | _joints_by_links(a, b, links, joints)
        if not changed:
            changed = _links_by_content(a, b, links, same_content)
    return Matching(links, joints, frozenset(set(links) - named_links - prefixed),
                    frozenset(set(joints) - named_joints - prefixed), prefix,
                    frozenset(prefixed))


def _prefixed(name: str, prefix: tuple[str, str]) -> str | None:
    """Return side B's name for side A's ``name`` under ``prefix`` (``None``: it has none)."""
    on_a, on_b = prefix
    return on_b + name[len(on_a):] if name.startswith(on_a) else None


def _prefix(free_a: list, free_b: list) -> tuple[str, str]:
    """
    Return ``(on A, on B)``: a prefix on one side's unmatched link names that pairs them.

    The prefix that pairs the most, when it pairs at least two links and four in five of
    the side with fewer unmatched links; else ``('', '')``.
    """
    best, paired = ('', ''), 0
    for longer, shorter, flip in ((free_b, free_a, False), (free_a, free_b, True)):
        names = set(longer)
        candidates = {name[:len(name) - len(short)] for short in shorter[:8] for name in longer
                      if len(name) > len(short) and name.endswith(short)}
        for candidate in candidates:
            count = sum(candidate + short in names for short in shorter)
            if count > paired:
                best, paired = ((candidate, '') if flip else ('', candidate)), count
    smaller = min(len(free_a), len(free_b))
    return best if paired >= 2 and 5 * paired >= 4 * smaller else ('', '')


def _links_by_joints(a: Robot, b: Robot, links: dict, joints: dict) -> bool:
    """Pair the unmatched ends of matched joints (step 1); return whether any paired."""
    taken = set(links.values())
    found = False
    for name_a, name_b in list(joints.items()):
        joint_a, joint_b = a.index.joints[name_a], b.index.joints[name_b]
        for end_a, end_b in ((joint_a.child, joint_b.child), (joint_a.parent, joint_b.parent)):
            if end_a not in links and end_a in a.index.links and end_b not in taken and \
                    end_b in b.index.links:
                links[end_a] = end_b
                taken.add(end_b)
                found = True
    return found


def _joints_by_links(a: Robot, b: Robot, links: dict, joints: dict) -> bool:
    """Pair unmatched joints between the same links (step 2); return whether any paired."""
    taken = set(joints.values())
    free_b: dict = {}
    for joint in b.joints:
        if joint.name not in taken:
            free_b.setdefault((joint.parent, joint.child), []).append(joint.name)
    found = False
    for joint in a.joints:
        if joint.name in joints:
            continue
        ends = (links.get(joint.parent, joint.parent), links.get(joint.child, joint.child))
        candidates = free_b.get(ends, ())
        if len(candidates) == 1:
            joints[joint.name] = candidates[0]
            free_b[ends] = []
            found = True
    return found


def _links_by_content(a: Robot, b: Robot, links: dict[str, str],
                      same_content: Callable[[str, str], bool]) -> bool:
    """Pair unmatched links of the same content, one candidate each (step 3)."""
    taken = set(links.values())
    free_a = [name for name in a.index.links if name not in links]
    free_b = [name for name in b.index.links if name not in taken]
    if not free_a or not free_b:
        return False
    candidates = {name: [other for other in free_b if same_content(name, other)]
                  for name in free_a}
    found = False
    for name, others in candidates.items():
        if len(others) == 1 and sum(others[0] in c for c in candidates.values()) == 1:
            links[name] = others[0]
            found = True
    return found
