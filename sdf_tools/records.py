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
Records: the part of :mod:`dataclasses` this package uses, built in a tenth of the time.

``@record(frozen=True, slots=True)`` over a class body is ``@dataclass(frozen=True,
slots=True)`` over it: the fields are the class annotations in order, defaults are class
attributes or :func:`field` ``(default=..., default_factory=...)``, and the class gets
``__init__`` (calling ``__post_init__`` when the class has one), ``__repr__``, ``__eq__``
(same class, fields equal) and, frozen with ``eq``, ``__hash__`` of the fields; a frozen
record refuses assignment with :class:`FrozenInstanceError`, and copies and pickles. A
method the class defines itself is kept. :func:`replace` is :func:`dataclasses.replace`.
Not supported, because nothing here uses them: inheritance between records, ``ClassVar``,
``InitVar``, keyword-only fields, per-field ``repr``/``compare``/``init``.

Why not :mod:`dataclasses` itself: a process pays ~20 ms to import it (it imports
:mod:`inspect`, and with it :mod:`ast`, :mod:`dis` and :mod:`tokenize`) and ~0.9 ms for each
frozen slotted class (five ``exec`` calls and a second class for the slots). For this
package's record types that was over half of what ``urdf2sdf`` spent starting (issue 14).
Here ``__init__`` is compiled once per shape of record (the 35 records a conversion loads have
16 shapes) and the other methods are closures. ``test/test_records.py`` holds records to what
:mod:`dataclasses` does with the same class body.
"""

import builtins
from functools import cache
from operator import attrgetter
import sys
from types import CodeType
from types import FunctionType
from typing import Any
from typing import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # @record is @dataclass to type checkers (PEP 681; see record below)
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**kwargs):
        """Return the decorator unchanged: PEP 681 only informs type checkers."""
        return lambda decorator: decorator

_MISSING: Any = object()  # a field's absent default or factory
# A code object holds its function's qualified name (for tracebacks) from Python 3.11 on;
# 3.10's has no such field, and the function's own __qualname__ does there.
_CODE_HAS_QUALNAME = sys.version_info >= (3, 11)
# From this many fields a frozen slotted record's __init__ sets them by name on an instance
# of a subclass that is not frozen, whose class is then set back (_init): a field set through
# its slot's own setter is a call of a C wrapper (a tuple made and unpacked), five to ten
# times the cost of an assignment; changing the class twice costs about what three such
# calls do.
_SWAP_FROM = 4
_SET_CLASS = object.__dict__['__class__'].__set__


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record (as :class:`dataclasses.FrozenInstanceError`)."""


class _Field:
    """A :func:`field` marker, replaced by its default when the record is built."""

    __slots__ = ('default', 'default_factory')

    def __init__(self, default: Any, default_factory: Any) -> None:
        self.default = default
        self.default_factory = default_factory


def field(*, default: Any = _MISSING, default_factory: Any = _MISSING) -> Any:
    """Give a field a default value, or a factory called for each new record."""
    if default is not _MISSING and default_factory is not _MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return _Field(default, default_factory)


# What type checkers see: @record is @dataclass (PEP 681), so they know every record's fields,
# its __init__ and that a frozen one refuses assignment. At run time the decorator is the
# identity: nothing from typing_extensions or dataclasses is imported.
@dataclass_transform(field_specifiers=(field,))
def record(cls: Any = None, /, *, frozen: bool = False, eq: bool = True,
           repr: bool = True, slots: bool = False) -> Any:  # noqa: A002
    """Make ``cls`` a record; the options mean what they mean to ``@dataclass``."""
    def build(cls: type) -> type:
        return _build(cls, frozen, eq, repr, slots)
    return build if cls is None else build(cls)


def replace(obj: Any, /, **changes: Any) -> Any:
    """Return a copy of the record ``obj`` with the given fields changed (through ``__init__``)."""
    try:
        names = obj.__record_fields__
    except AttributeError:
        raise TypeError('replace() should be called on record instances') from None
    values = {name: getattr(obj, name) for name in names}
    values.update(changes)
    return obj.__class__(**values)


def _build(cls: type, frozen: bool, eq: bool, with_repr: bool, slots: bool) -> type:
    namespace = dict(cls.__dict__)
    names = tuple(namespace.get('__annotations__', {}))
    defaults: list[Any] = []
    factories: dict[int, Callable[[], Any]] = {}
    for index, name in enumerate(names):
        default, factory = namespace.get(name, _MISSING), _MISSING
        if isinstance(default, _Field):
            default, factory = default.default, default.default_factory
        if default is not _MISSING and default.__class__.__hash__ is None:
            raise ValueError(f'mutable default {type(default)} for field {name} is not allowed: '
                             'use default_factory')
        if default is _MISSING and factory is _MISSING:
            if defaults:
                raise TypeError(f'non-default argument {name!r} follows default argument')
        elif factory is _MISSING:
            defaults.append(default)
        else:
            defaults.append(_MISSING)
            factories[index] = factory
        if slots or default is _MISSING:
            namespace.pop(name, None)
        else:
            namespace[name] = default  # a class attribute, as dataclasses leaves it
    for name, method in _methods(names, frozen, eq, with_repr, slots).items():
        method.__qualname__ = f'{cls.__qualname__}.{name}'
        if name not in namespace or (name == '__hash__' and namespace[name] is None):
            namespace[name] = method
    if eq and not frozen and '__hash__' not in cls.__dict__:
        namespace['__hash__'] = None  # mutable and compared by value: unhashable
    namespace['__record_fields__'] = names
    namespace['__match_args__'] = names
    if slots:
        namespace.pop('__dict__', None)
        namespace.pop('__weakref__', None)
        namespace['__slots__'] = names
        namespace['__qualname__'] = cls.__qualname__
        record_class = type(cls)(cls.__name__, cls.__bases__, namespace)
    else:
        for name, value in namespace.items():
            if name not in cls.__dict__ or cls.__dict__[name] is not value:
                setattr(cls, name, value)
        for name in names:
            if name not in namespace and name in cls.__dict__:
                delattr(cls, name)
        record_class = cls
    if '__init__' not in cls.__dict__:
        setting = 'slots' if frozen and slots else 'frozen' if frozen else 'plain'
        init = _init(record_class, names, tuple(defaults), factories, setting,
                     '__post_init__' in namespace)
        setattr(record_class, '__init__', init)  # a class built at run time
    return record_class


def _init(record_class: type, names: tuple[str, ...], defaults: tuple[Any, ...],
          factories: dict[int, Callable[[], Any]], setting: str,
          post_init: bool) -> FunctionType:
    """
    Return ``__init__``, the one method compiled (creating records must be fast).

    Its code depends only on the number of fields, which have factories and how fields are
    set (``setting``), so it is compiled once per such shape (:func:`_init_code`) and given
    the field names as its parameter names (and, setting fields by name, as its attribute
    names); what it calls comes through its globals. A frozen record's fields are set past
    its ``__setattr__``: without slots through ``object.__setattr__``; with slots through the
    slots' own setters (faster than ``object.__setattr__`` by name) or, from
    :data:`_SWAP_FROM` fields (``setting`` ``'swap'``), by assignment while the instance's
    class is a subclass of the record that is not frozen (``_Unfrozen``), then the record's
    (an object of a class derived from the record is given its fields through the setters).
    """
    qualname = f'{record_class.__qualname__}.__init__'
    if setting == 'slots' and len(names) >= _SWAP_FROM:
        setting = 'swap'
    code = _init_code(len(names), tuple(factories), setting, post_init)
    named: dict[str, Any] = {'co_qualname': qualname} if _CODE_HAS_QUALNAME else {}
    attributes = tuple(names[int(name[2:])] if name[:2] == '_a' and name[2:].isdigit()
                       else name for name in code.co_names)  # (fields set by name: 'swap')
    code = code.replace(co_varnames=('self', *names), co_names=attributes, **named)
    globs = {'__builtins__': builtins, '_MISSING': _MISSING, '_setattr': object.__setattr__}
    if setting == 'swap':  # a subclass that is not frozen, whose instances take fields fast
        globs.update(_Frozen=record_class, _to_class=_SET_CLASS, _Unfrozen=type(record_class)(
            record_class.__name__, (record_class,),
            {'__slots__': (), '__setattr__': object.__setattr__,
             '__delattr__': object.__delattr__, '__qualname__': record_class.__qualname__}))
    setters = tuple(record_class.__dict__[name].__set__ for name in names) \
        if setting in ('slots', 'swap') else ()
    for index, name in enumerate(names):
        globs[f'_name_{index}'] = name
        if setting == 'slots':
            globs[f'_set_{index}'] = setters[index]
    if setting == 'swap':  # (one line of code for the rare object of a derived class)
        def _set_fields(obj: Any, *values: Any) -> None:
            for setter, value in zip(setters, values):
                setter(obj, value)
        globs['_set_fields'] = _set_fields
    for index, factory in factories.items():
        globs[f'_factory_{index}'] = factory
    init = FunctionType(code, globs, '__init__', defaults or None)
    init.__qualname__ = qualname
    return init


@cache
def _init_code(count: int, factories: tuple[int, ...], setting: str,
               post_init: bool) -> CodeType:
    """Return the code of ``__init__`` for records of one shape (fields ``_0``, ``_1``...)."""
    body, values = [], []
    for index in range(count):
        value = f'_{index}'
        if index in factories:
            value = f'_factory_{index}() if {value} is _MISSING else {value}'
        values.append(value)
        if setting == 'slots':
            body.append(f'_set_{index}(self, {value})')
        elif setting == 'frozen':
            body.append(f'_setattr(self, _name_{index}, {value})')
        elif setting == 'plain':
            body.append(f'setattr(self, _name_{index}, {value})')
    if setting == 'swap':  # by assignment; a subclass's object through the slots' setters
        body = ['if self.__class__ is _Frozen:', '  _to_class(self, _Unfrozen)',
                *(f'  self._a{index} = {value}' for index, value in enumerate(values)),
                '  self.__class__ = _Frozen', 'else:', f'  _set_fields(self, {", ".join(values)})']
    if post_init:
        body.append('self.__post_init__()')
    params = ''.join(f', _{index}' for index in range(count))
    source = '\n '.join([f'def __init__(self{params}):', *(body or ['pass'])])
    namespace: dict[str, Any] = {}
    exec(source, {}, namespace)  # our own text, made of numbers: 0.05-0.2 ms
    return namespace['__init__'].__code__


def _methods(names: tuple[str, ...], frozen: bool, eq: bool, with_repr: bool,
             slots: bool) -> dict[str, Callable[..., Any]]:
    """Return the methods besides ``__init__``: closures over the field names, no ``exec``."""
    values: Callable[[Any], tuple[Any, ...]]
    if len(names) > 1:
        values = attrgetter(*names)
    else:
        getters = tuple(attrgetter(name) for name in names)

        def values(obj: Any) -> tuple[Any, ...]:
            return tuple(get(obj) for get in getters)
    methods: dict[str, Callable[..., Any]] = {}
    if with_repr:
        def __repr__(self: Any) -> str:
            shown = ', '.join(f'{name}={value!r}' for name, value in zip(names, values(self)))
            return f'{self.__class__.__qualname__}({shown})'
        methods['__repr__'] = __repr__
    if eq:
        def __eq__(self: Any, other: object) -> Any:
            if other.__class__ is not self.__class__:
                return NotImplemented
            return values(self) == values(other)
        methods['__eq__'] = __eq__
    if eq and frozen:
        def __hash__(self: Any) -> int:
            return hash(values(self))
        methods['__hash__'] = __hash__
    if frozen:
        def __setattr__(self: Any, name: str, value: Any) -> None:
            raise FrozenInstanceError(f'cannot assign to field {name!r}')

        def __delattr__(self: Any, name: str) -> None:
            raise FrozenInstanceError(f'cannot delete field {name!r}')
        methods.update(__setattr__=__setattr__, __delattr__=__delattr__)
    if frozen and slots:  # copy and pickle would set the state through __setattr__
        def __getstate__(self: Any) -> tuple[Any, ...]:
            return values(self)

        def __setstate__(self: Any, state: tuple[Any, ...]) -> None:
            for name, value in zip(names, state):
                object.__setattr__(self, name, value)
        methods.update(__getstate__=__getstate__, __setstate__=__setstate__)
    return methods
