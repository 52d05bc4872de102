"""Data classes that cost less to define: :func:`record` is :func:`dataclasses.dataclass` whose
``__eq__``, ``__hash__`` and ``__repr__``, and a frozen class's guards, are closures instead of
generated source.

Python 3.11's dataclasses write each generated method as source and compile it when the class is
defined: a frozen class with slots costs six compilations (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__``, ``__delattr__``), and the eighty classes on the way to the first
screen took a tenth of the app's instructions to its first frame. A record compiles only its
``__init__`` (:mod:`reviewer.model.frozen` for a frozen one); equality, hash and repr compare, hash
and show the same fields the same way (fields with ``compare=False``, ``hash=False`` or
``repr=False`` left out, ``NotImplemented`` for an object of another class), through one
:func:`operator.attrgetter` per class. A method the class defines itself is kept, as dataclasses
keeps it. Everything else is dataclasses' own: ``fields``, ``replace``, ``asdict``, slots,
``__match_args__``.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
from typing import Any, Callable, TypeVar, dataclass_transform, overload

from reviewer.model.frozen import freeze

T = TypeVar("T")


def values_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an object's values of ``names`` as a tuple (a tuple for one name too)."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    return lambda obj: ()


def add_methods(cls: type[T], eq: bool, frozen: bool, own: dict[str, Any]) -> type[T]:
    """Give a dataclass made with ``eq=False, repr=False`` the methods dataclasses would have made
    (``own``: the class body's namespace, whose methods stay)."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if eq and "__eq__" not in own:
        compared = values_of(tuple(f.name for f in fields if f.compare))

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is self.__class__:
                return compared(self) == compared(other)
            return NotImplemented

        __eq__.__qualname__ = f"{cls.__qualname__}.__eq__"
        cls.__eq__ = __eq__  # type: ignore[method-assign]
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if eq and not explicit_hash:
        if frozen:
            hashed = values_of(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))

            def __hash__(self: Any) -> int:
                return hash(hashed(self))

            __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
            cls.__hash__ = __hash__  # type: ignore[method-assign]
        else:
            cls.__hash__ = None  # type: ignore[assignment]  # mutable and compared by value: unhashable
    if "__repr__" not in own:
        shown = tuple(f.name for f in fields if f.repr)

        @reprlib.recursive_repr()
        def __repr__(self: Any) -> str:
            return f"{self.__class__.__qualname__}(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in shown) + ")"

        __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
        cls.__repr__ = __repr__  # type: ignore[method-assign]
    return cls


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(*, frozen: bool = True, slots: bool = True, eq: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def record(cls: type[T] | None = None, /, *, frozen: bool = True, slots: bool = True,
           eq: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """``@dataclass(frozen=True, slots=True)`` at a third of its cost to define; ``frozen``,
    ``slots`` and ``eq`` mean what they mean there."""

    def wrap(body: type[T]) -> type[T]:
        own = dict(body.__dict__)
        made = dataclasses.dataclass(body, init=not frozen, frozen=False, slots=slots, eq=False, repr=False)
        if frozen:
            freeze(made, slots)
        return add_methods(made, eq, frozen, own)

    return wrap if cls is None else wrap(cls)
