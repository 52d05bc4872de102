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


def made_both(slots: bool) -> tuple[type, type]:
    """The same frozen class body as a record and as a dataclass: defaults, a factory, a field
    left out of ``__init__`` and a ``__post_init__`` (module names: pickling finds them)."""

    def body(name: str) -> type:
        class Body:
            """A test record."""

            a: Any
            b: Any = 2
            c: list[Any] = field(default_factory=list)
            d: str = field(init=False, default="", repr=False)

            def __post_init__(self) -> None:
                object.__setattr__(self, "d", f"{self.a}/{self.b}")

        Body.__name__ = Body.__qualname__ = name
        return Body

    name = f"Made{'Slots' if slots else 'Dict'}"
    mine = globals()[name] = record(slots=slots)(body(name))
    return mine, dataclasses.dataclass(frozen=True, slots=slots)(body(name))


@pytest.mark.parametrize("slots", [True, False])
def test_a_frozen_records_init_guards_and_copies_are_dataclasses_own(slots: bool) -> None:
    import copy

    mine, theirs = made_both(slots)
    for args, kwargs in [((1,), {}), ((1, 3), {}), ((1,), {"c": [4]}), ((), {"a": 1, "b": 5})]:
        x, dx = mine(*args, **kwargs), theirs(*args, **kwargs)
        assert repr(x) == repr(dx) and x.d == dx.d and [x.a, x.b, x.c] == [dx.a, dx.b, dx.c]
    assert mine(1).c is not mine(1).c  # a fresh list each time
    for args, kwargs in [((), {}), ((1, 2, 3, 4), {}), ((1,), {"d": "x"}), ((1,), {"a": 2}), ((1,), {"e": 0})]:
        with pytest.raises(TypeError) as got:
            mine(*args, **kwargs)
        with pytest.raises(TypeError) as expected:
            theirs(*args, **kwargs)
        assert str(got.value).split(" ", 1)[1] == str(expected.value).split(" ", 1)[1]
    x, dx = mine(1, 2, [3]), theirs(1, 2, [3])
    for change in (lambda o: setattr(o, "a", 9), lambda o: delattr(o, "b")):
        with pytest.raises(FrozenInstanceError) as got:
            change(x)
        with pytest.raises(FrozenInstanceError) as expected:
            change(dx)
        assert str(got.value) == str(expected.value)
    with pytest.raises(FrozenInstanceError):  # (3.11's own guard of a slots class fails in super() here)
        x.new = 1
    for clone in (pickle.loads(pickle.dumps(x)), copy.copy(x), copy.deepcopy(x), dataclasses.replace(x)):
        assert clone == x and clone.d == "1/2" and type(clone) is mine
    assert dataclasses.replace(x, b=7) == mine(1, 7, [3]) and dataclasses.replace(x, b=7).d == "1/7"
