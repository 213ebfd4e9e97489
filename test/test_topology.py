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
Tests of the joint graph (:mod:`sdf_tools.topology`): the cycle finder, the walk, the reports.

Links and joints here are bare records (a name; a parent and a child), as the module asks
of them; joint ``i`` of a test is on line ``i`` of source ``t``.
"""

from dataclasses import dataclass

import pytest
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.topology import find_cycles
from sdf_tools.topology import link_loop_message
from sdf_tools.topology import mimic_loop_message
from sdf_tools.topology import Topology

import support  # noqa: I100 - the test helpers, after the package


@dataclass(eq=False)
class Link:
    name: str
    location: SourceLocation | None = None


@dataclass(eq=False)
class Joint:
    name: str
    parent: str
    child: str
    location: SourceLocation | None = None


def links(names):
    """Return links named by the characters of ``names`` (or the items of a list)."""
    return [Link(name, SourceLocation('t', 100 + i)) for i, name in enumerate(names, 1)]


def joints(*specs):
    """Return joints from ``'name parent child'`` strings, joint i on line i."""
    return [Joint(*spec.split(), SourceLocation('t', i)) for i, spec in enumerate(specs, 1)]


def names(items):
    return [item.name for item in items]


def report(topology, **options):
    """Return the errors and warnings of ``report`` and ``report_cycles`` as text and code."""
    reporter = Reporter()
    topology.report(reporter, **options)
    topology.report_cycles(reporter)
    return ([(str(d), d.code) for d in reporter.errors],
            [(str(d), d.code) for d in reporter.warnings])


# --- find_cycles ----------------------------------------------------------------------------

def test_each_cycle_is_found_once_from_where_the_walk_entered_it():
    successor = {'a': 'b', 'b': 'c', 'c': 'a'}.get
    assert find_cycles('abc', successor) == [['a', 'b', 'c']]
    assert find_cycles('cab', successor) == [['c', 'a', 'b']]
    assert find_cycles('bca', successor) == [['b', 'c', 'a']]


def test_tails_that_lead_into_a_cycle_are_not_part_of_it():
    # x -> y -> b -> c -> d -> b: the walk from x enters the cycle at b.
    successor = {'x': 'y', 'y': 'b', 'b': 'c', 'c': 'd', 'd': 'b'}.get
    assert find_cycles('xybcd', successor) == [['b', 'c', 'd']]
    assert find_cycles('dxybc', successor) == [['d', 'b', 'c']]
    # Two tails into one cycle: still one cycle.
    successor = {'x': 'a', 'y': 'b', 'a': 'b', 'b': 'a'}.get
    assert find_cycles('xyab', successor) == [['a', 'b']]


def test_self_loops_and_several_cycles_in_start_order():
    successor = {'p': 'q', 'q': 'p', 'a': 'a', 'r': 'a', 'z': None}.get
    assert find_cycles('zraqp', successor) == [['a'], ['q', 'p']]


def test_walks_end_at_none_and_at_nodes_that_are_not_given():
    # b's successor z is not a node: the cycle z -> a -> b -> z is not in this graph.
    successor = {'a': 'b', 'b': 'z', 'z': 'a', 'c': None}.get
    assert find_cycles('abc', successor) == []
    assert find_cycles([], successor) == []


@pytest.mark.parametrize('shape', ['chain, root first', 'chain, deepest first', 'ring'])
def test_find_cycles_takes_linear_time(shape):
    def graph(n):
        if shape == 'ring':
            return list(range(n)), {i: (i + 1) % n for i in range(n)}.get
        parent = {i: i - 1 for i in range(1, n)}.get  # a chain to its root 0
        return (list(range(n)) if shape.endswith('root first') else list(range(n - 1, -1, -1)),
                parent)

    small, large = graph(10_000), graph(100_000)
    expected = [list(range(100_000))] if shape == 'ring' else []
    assert find_cycles(*large) == expected
    # Ten times the nodes: linear is ten times the CPU time (up to ~20 with cache misses),
    # quadratic a hundred.
    cpu = support.least_cpu_seconds
    ratio = cpu(find_cycles, *large) / max(cpu(find_cycles, *small), 1e-4)
    assert ratio < 40, ratio


# --- the walk -------------------------------------------------------------------------------

def test_order_is_parents_before_children_with_children_in_document_order():
    # Links listed deepest first; joint ac comes before ab in the document.
    topology = Topology(links('edcba'), joints('ac a c', 'ab a b', 'cd c d', 'be b e'))
    assert topology.order == ('a', 'c', 'd', 'b', 'e')
    assert topology.roots == ('a',)
    assert {link: names(js) for link, js in topology.child_joints.items()} == {
        'a': ['ac', 'ab'], 'c': ['cd'], 'b': ['be']}
    assert (topology.parent_of('d'), topology.parent_of('a')) == ('c', None)
    assert topology.links == frozenset('abcde')
    assert (topology.cycles, topology.loop_joints, topology.self_joints) == ((), (), ())


def test_the_first_joint_to_a_child_is_its_tree_joint_and_the_others_are_loop_joints():
    # A four-bar linkage: the coupler is the child of cc (first) and rc.
    topology = Topology(links(['ground', 'crank', 'rocker', 'coupler']),
                        joints('gc ground crank', 'gr ground rocker', 'cc crank coupler',
                               'rc rocker coupler'))
    assert topology.parent_joint['coupler'].name == 'cc'
    assert names(topology.loop_joints) == ['rc']
    assert topology.order == ('ground', 'crank', 'coupler', 'rocker')
    assert 'rocker' not in topology.child_joints  # rc is no tree joint
    assert topology.cycles == ()


def test_roots_are_the_links_without_a_tree_joint_in_document_order():
    topology = Topology(links('cab'), joints('j a b'))
    assert topology.roots == ('c', 'a')
    assert topology.order == ('c', 'a', 'b')
    assert Topology([], []).order == Topology([], []).roots == ()


def test_world_and_undefined_parents_start_trees():
    topology = Topology(links('abc'), joints('wa world a', 'gb ghost b', 'bc b c'))
    assert topology.order == ('a', 'b', 'c')
    assert topology.roots == ()
    assert names(topology.child_joints['world']) == ['wa']
    assert names(topology.child_joints['ghost']) == ['gb']
    # A link called world is a link like any other.
    topology = Topology(links(['a', 'world']), joints('wa world a'))
    assert (topology.order, topology.roots) == (('world', 'a'), ('world',))


def test_a_cycle_leaves_out_its_links_and_the_links_below_it():
    # r alone; x and y are each other's parent; z hangs below y.
    topology = Topology(links('rxyz'), joints('xy x y', 'yx y x', 'yz y z'))
    assert topology.order == ('r',)
    assert topology.roots == ('r',)
    assert topology.cycles == (('x', 'y'),)


def test_joints_from_a_link_to_itself_and_duplicate_names():
    first_a, b, second_a = links('aba')
    topology = Topology([first_a, b, second_a],
                        joints('aa a a', 'ab a b', 'ab a b'))
    assert names(topology.self_joints) == ['aa']
    assert topology.parent_joint['b'].location.line == 2
    assert [j.location.line for j in topology.loop_joints] == [3]
    assert topology.duplicate_links == (second_a,)
    assert [j.location.line for j in topology.duplicate_joints] == [3]
    assert topology.links == frozenset('ab')
    assert (topology.order, topology.roots, topology.cycles) == (('a', 'b'), ('a',), ())


# --- the reports ----------------------------------------------------------------------------

def test_report_names_duplicates_missing_links_and_self_joints_at_their_element():
    topology = Topology(links('aba'), joints('j a b', 'j a ghost', 'k nowhere a', 'aa a a'))
    errors, warnings = report(topology)
    assert errors == [
        ("t:103: link 'a': link name 'a' is used more than once", 'duplicate-name'),
        ("t:2: joint 'j': joint name 'j' is used more than once", 'duplicate-name'),
        ("t:2: joint 'j': child link 'ghost' is not defined", 'missing-link'),
        ("t:3: joint 'k': parent link 'nowhere' is not defined", 'missing-link'),
        ("t:4: joint 'aa': parent and child are the same link 'a'", 'cycle')]
    assert warnings == []


def test_world_is_a_parent_without_a_link_only_when_implicit():
    topology = Topology(links('ab'), joints('wa world a', 'bw b world'))
    child_error = ("t:2: joint 'bw': child link 'world' is not defined", 'missing-link')
    assert report(topology) == ([child_error], [])
    assert report(topology, implicit_world=False) == (
        [("t:1: joint 'wa': parent link 'world' is not defined", 'missing-link'), child_error],
        [])


def test_a_second_parent_joint_is_an_error_a_warning_or_nothing():
    topology = Topology(links('abc'), joints('ac a c', 'bc b c'))
    assert report(topology) == report(topology, loops='error') == ([(
        "t:2: joint 'bc': link 'c' is already the child of joint 'ac'; a link can have only "
        'one parent joint', 'several-parents')], [])
    assert report(topology, loops='warn') == ([], [(
        "t:2: warning: joint 'bc': closes a kinematic loop: link 'c' is already the child of "
        "joint 'ac'; forward kinematics follows 'ac' and leaves this joint out",
        'kinematic-loop')])
    assert report(topology, loops='quiet') == ([], [])


def test_a_loop_of_parent_joints_is_reported_at_the_joint_that_closes_it():
    # a -> b -> c -> a: from a, the first link in document order, the loop closes with ca.
    topology = Topology(links('abc'), joints('ab a b', 'bc b c', 'ca c a'))
    assert report(topology) == ([(
        "t:3: joint 'ca': the joints form a kinematic loop through links 'a' -> 'b' -> 'c' "
        "-> 'a'", 'cycle')], [])


def test_the_loop_messages_follow_the_joints_from_parent_to_child():
    # Links listed child to parent: c's parent is b, b's parent is a, a's parent is c.
    assert link_loop_message(['c', 'b', 'a']) == (
        "the joints form a kinematic loop through links 'c' -> 'a' -> 'b' -> 'c'")
    assert link_loop_message(['a']) == "the joints form a kinematic loop through links 'a' -> 'a'"
    # Each mimic joint follows the next: j1 mimics j2, which mimics j1.
    assert mimic_loop_message(['j1', 'j2']) == "mimic joints form a loop: 'j1' -> 'j2' -> 'j1'"
    assert mimic_loop_message(['j']) == "mimic joints form a loop: 'j' -> 'j'"


def test_a_loop_through_an_undefined_link_ends_the_walk():
    # a's parent b is no link, so a starts a tree; b is a's child through j2 and a's
    # parent through j1. The walk must list a once and stop (the missing link is reported).
    topology = Topology(links('a'), joints('j1 b a', 'j2 a b'))
    assert topology.order == ('a',)
    errors, warnings = report(topology)
    assert [code for _, code in errors] == ['missing-link', 'missing-link'] and not warnings
