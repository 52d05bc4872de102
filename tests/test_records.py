"""``record`` behaves as ``dataclass`` does: the same equality, hash, repr, immutability, fields,
replace and pickling, for the same class body (it only makes ``__eq__``, ``__hash__`` and
``__repr__`` without compiling source)."""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import FrozenInstanceError, field
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewer.model.records import record

values = st.one_of(st.integers(-3, 3), st.text(max_size=2), st.none(), st.floats(allow_nan=True))


def body(name: str) -> type:
    """A fresh class body: compared, hashed and shown fields, one of each left out."""

    class Body:
        """A test record."""

        a: Any
        b: Any = 0
        hidden: Any = field(default=None, repr=False)
        ignored: Any = field(default=None, compare=False)
        unhashed: Any = field(default=None, hash=False)

    Body.__name__ = Body.__qualname__ = name
    return Body


Frozen = record(body("Frozen"))
FrozenDC = dataclasses.dataclass(frozen=True, slots=True)(body("Frozen"))
Mutable = record(frozen=False, slots=False)(body("Mutable"))
MutableDC = dataclasses.dataclass(body("Mutable"))
Identity = record(eq=False)(body("Identity"))
IdentityDC = dataclasses.dataclass(frozen=True, slots=True, eq=False)(body("Identity"))
PAIRS = [(Frozen, FrozenDC), (Mutable, MutableDC), (Identity, IdentityDC)]


@pytest.mark.parametrize(("mine", "theirs"), PAIRS)
@given(first=st.lists(values, min_size=5, max_size=5), second=st.lists(values, min_size=5, max_size=5))
def test_equality_hash_and_repr_are_dataclasses_own(mine: type, theirs: type, first: list[Any], second: list[Any]) -> None:
    x, y, dx, dy = mine(*first), mine(*second), theirs(*first), theirs(*second)
    assert (x == y) == (dx == dy) and (x != y) == (dx != dy)
    assert (x == mine(*first)) == (dx == theirs(*first))  # NaN compares unequal, even to itself
    assert repr(x) == repr(dx)
    if theirs.__hash__ is None:
        assert mine.__hash__ is None
    elif theirs is IdentityDC:
        assert hash(x) == object.__hash__(x)  # by identity, as dataclasses leaves it with eq=False
    else:
        assert hash(x) == hash(dx)
        if x == y:
            assert hash(x) == hash(y)
    assert (x == dx) is False  # another class: NotImplemented both ways, so not equal


def test_frozen_fields_replace_and_pickling_are_dataclasses_own() -> None:
    x = Frozen(1, 2, 3, 4, 5)
    with pytest.raises(FrozenInstanceError):
        x.a = 2  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del x.b  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(x)] == [f.name for f in dataclasses.fields(FrozenDC)]
    assert dataclasses.replace(x, a=9) == Frozen(9, 2, 3, 4, 5)
    assert pickle.loads(pickle.dumps(x)) == x
    assert Frozen.__slots__ == FrozenDC.__slots__ and Frozen.__match_args__ == FrozenDC.__match_args__
    m = Mutable(1)
    m.a = 2
    assert m == Mutable(2)


def test_methods_of_the_class_body_are_kept_and_recursion_is_shown() -> None:
    @record
    class Own:
        """Compares by ``a`` alone."""

        a: int
        b: int = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Own) and other.a == self.a

        def __repr__(self) -> str:
            return "own"

    assert Own(1, 2) == Own(1, 3) and repr(Own(1)) == "own"
    assert hash(Own(1, 2)) == hash((1, 2))  # dataclasses adds a field hash when __eq__ is the body's

    @record(frozen=False, slots=False)
    class Node:
        """Points at itself."""

        next: Any = None

    node = Node()
    node.next = node
    assert repr(node) == "test_methods_of_the_class_body_are_kept_and_recursion_is_shown.<locals>.Node(next=...)"
