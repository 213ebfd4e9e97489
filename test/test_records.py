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

"""Records behave as :mod:`dataclasses` does with the same class body and options."""

import copy
import dataclasses
from functools import cached_property
import pickle
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st
import pytest
from sdf_tools import records

OPTIONS = [
    {'frozen': True, 'slots': True},
    {'frozen': True},
    {'frozen': True, 'eq': False},
    {'frozen': True, 'slots': True, 'eq': False},
    {'slots': True},
    {'slots': True, 'eq': False},
    {},
    {'frozen': True, 'eq': False, 'repr': False},
]


def make_pair(options):
    """Return the same class body made a dataclass and a record, with the same options."""
    def body(decorate, field):
        @decorate(**options)
        class Point:
            """A point with a label."""

            x: float
            y: float = 0.0
            tags: tuple = ()
            extra: list = field(default_factory=list)

            def norm2(self):
                return self.x * self.x + self.y * self.y

        return Point
    return body(dataclasses.dataclass, dataclasses.field), body(records.record, records.field)


def state(obj):
    return (obj.x, obj.y, obj.tags, obj.extra)


@pytest.mark.parametrize('options', OPTIONS, ids=str)
def test_same_behaviour_as_dataclasses(options):
    reference, ours = make_pair(options)
    for args, kwargs in [((1.0,), {}), ((1.0, 2.0), {'tags': ('a',)}), ((), {'x': 3.0}),
                         ((1.0, 2.0, (), [4]), {})]:
        a, b = reference(*args, **kwargs), ours(*args, **kwargs)
        assert state(a) == state(b)
        assert b.norm2() == a.norm2()
        if options.get('repr', True):
            assert repr(b) == repr(a)
        assert (b == ours(*args, **kwargs)) == (a == reference(*args, **kwargs))
        assert (b == ours(9.0)) == (a == reference(9.0))
        assert (b == a) is False  # other classes are never equal
        assert (reference.__hash__ is None) == (ours.__hash__ is None)
        if reference.__hash__ is not None and options.get('eq', True):
            assert hash(records.replace(b, extra=tuple(b.extra))) == hash(
                dataclasses.replace(a, extra=tuple(a.extra)))
        assert hasattr(b, '__dict__') == hasattr(a, '__dict__')
        assert records.replace(b, y=5.0).y == dataclasses.replace(a, y=5.0).y == 5.0
        assert state(records.replace(b)) == state(dataclasses.replace(a))
    fresh_a, fresh_b = reference(1.0), ours(1.0)
    assert fresh_b.extra is not ours(1.0).extra  # a factory runs for every record
    for obj, refusal in ((fresh_a, dataclasses.FrozenInstanceError),
                         (fresh_b, records.FrozenInstanceError)):
        if options.get('frozen'):
            with pytest.raises(refusal):
                obj.x = 2.0
            with pytest.raises(refusal):
                del obj.x
        else:
            obj.x = 2.0
    assert state(fresh_b) == state(fresh_a)
    assert ours.__doc__ == reference.__doc__ == 'A point with a label.'
    assert ours.__match_args__ == reference.__match_args__ == ('x', 'y', 'tags', 'extra')
    assert ours.__qualname__ == reference.__qualname__


@pytest.mark.parametrize('options', OPTIONS, ids=str)
def test_copies_and_pickles(options):
    ours = make_pair(options)[1]
    original = ours(1.5, tags=('t',), extra=[1, 2])
    globals()['Point'] = ours  # pickle finds classes by module and name
    ours.__qualname__ = 'Point'
    try:
        for clone in (copy.copy(original), copy.deepcopy(original),
                      pickle.loads(pickle.dumps(original))):
            assert state(clone) == state(original)
            assert clone is not original
    finally:
        del globals()['Point']


@given(st.floats(allow_nan=False), st.floats(allow_nan=False),
       st.lists(st.text(max_size=3), max_size=3).map(tuple))
def test_values_compare_and_hash_as_dataclasses(x, y, tags):
    reference, ours = make_pair({'frozen': True, 'slots': True})
    assert hash(ours(x, y, tags, ())) == hash(reference(x, y, tags, ()))
    assert (ours(x, y, tags) == ours(y, x, tags)) == (reference(x, y, tags) ==
                                                      reference(y, x, tags))


@pytest.mark.parametrize('options', OPTIONS, ids=str)
def test_wrong_arguments_are_refused_as_by_dataclasses(options):
    def refusal(cls, *args, **kwargs):
        with pytest.raises(TypeError) as raised:
            cls(*args, **kwargs)
        return str(raised.value).split('() ', 1)[1]  # without the function's name

    reference, ours = make_pair(options)
    for args, kwargs in [((), {}), ((1.0,), {'x': 2.0}), ((1.0,), {'z': 0}),
                         ((1.0, 2.0, (), [], 5), {}), ((), {'y': 1.0})]:
        assert refusal(ours, *args, **kwargs) == refusal(reference, *args, **kwargs)


def test_records_of_one_shape_share_compiled_code_but_not_names():
    @records.record(frozen=True, slots=True)
    class A:
        a: int
        b: int = 2

    @records.record(frozen=True, slots=True)
    class B:
        c: str
        d: str = 'd'

    assert (A(1).a, A(1).b, A(b=3, a=4).b, B('x').c, B(d='y', c='z').d) == (1, 2, 3, 'x', 'y')
    assert A.__init__.__code__.co_code == B.__init__.__code__.co_code
    assert A.__init__.__code__.co_varnames == ('self', 'a', 'b')
    assert B.__init__.__qualname__.endswith('B.__init__')


def test_post_init_runs_and_may_set_frozen_fields():
    for decorate in (dataclasses.dataclass, records.record):
        @decorate(frozen=True, slots=True)
        class Named:
            name: str

            def __post_init__(self):
                object.__setattr__(self, 'name', self.name.upper())

        assert Named('a').name == 'A'


def test_many_fields_records_are_of_their_class_and_frozen_in_post_init():
    """From four fields __init__ sets them on a subclass that is not frozen, then not."""
    seen = []

    @records.record(frozen=True, slots=True)
    class Wide:
        a: int
        b: int
        c: int
        d: int = 4
        e: list = records.field(default_factory=list)

        def __post_init__(self):
            seen.append(type(self))
            with pytest.raises(records.FrozenInstanceError):
                self.a = 0

    wide = Wide(1, 2, 3)
    assert (type(wide), seen, wide.a, wide.d, wide.e) == (Wide, [Wide], 1, 4, [])
    assert Wide(1, 2, 3) == wide and Wide(1, 2, 5) != wide


def test_a_subclass_of_a_many_fields_record_is_made_of_its_own_class():
    """A class derived from a frozen slotted record (not a record itself) is made as such."""
    for decorate in (dataclasses.dataclass, records.record):
        @decorate(frozen=True, slots=True)
        class Wide:
            a: int
            b: int
            c: int
            d: list = dataclasses.field(default_factory=list) if decorate is \
                dataclasses.dataclass else records.field(default_factory=list)

        class Derived(Wide):
            __slots__ = ()

        derived = Derived(1, 2, 3)
        assert (type(derived), derived.a, derived.d) == (Derived, 1, [])
        with pytest.raises(AttributeError):  # (FrozenInstanceError is one)
            derived.a = 0
        assert type(Wide(1, 2, 3)) is Wide


def test_methods_the_class_defines_are_kept():
    for decorate in (dataclasses.dataclass, records.record):
        @decorate(frozen=True, slots=True)
        class Shown:
            value: int

            def __init__(self, text):
                object.__setattr__(self, 'value', int(text))

            def __repr__(self):
                return 'shown'

        assert repr(Shown('1')) == 'shown' and Shown('1').value == 1
        assert Shown('1') == Shown('1') and hash(Shown('1')) == hash(Shown('1'))


def test_cached_property_on_a_frozen_record_without_slots():
    @records.record(frozen=True, eq=False)
    class Lazy:
        n: int

        @cached_property
        def square(self):
            return self.n * self.n

    lazy = Lazy(3)
    assert lazy.square == 9 and lazy.__dict__['square'] == 9


def test_declaration_errors_as_dataclasses():
    for decorate, field in ((dataclasses.dataclass, dataclasses.field),
                            (records.record, records.field)):
        with pytest.raises(TypeError, match='non-default argument'):
            @decorate
            class Late:
                a: int = 0
                b: int
        with pytest.raises(ValueError, match='mutable default'):
            @decorate
            class Shared:
                a: list = []
        with pytest.raises(ValueError, match='both default and default_factory'):
            field(default=1, default_factory=list)
    with pytest.raises(TypeError, match='record instances'):
        records.replace(object())
    with pytest.raises(TypeError):
        records.replace(make_pair({})[1](1.0), nonsense=1)


def test_building_records_does_not_import_dataclasses():
    """The point of this module: a process that builds records never loads dataclasses."""
    code = ('import sys; import sdf_tools.records as r\n'
            '@r.record(frozen=True, slots=True)\n'
            'class A:\n    x: int = 0\n'
            'assert A(1) == A(1)\n'
            'print(sorted({"dataclasses", "inspect"} & set(sys.modules)))')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == '[]'
