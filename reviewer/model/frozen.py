"""What makes a :func:`reviewer.model.records.record` frozen, as ``dataclass(frozen=True)`` makes it:
an ``__init__`` that sets each field through ``object.__setattr__``, guards that refuse to assign
or delete a field afterwards, and for a class with slots the state pickling needs.

dataclasses writes all three methods as source and compiles each, per class; here only the
``__init__`` is compiled (its parameters are the class's own), and the guards and the state
functions are closures. The ``__init__`` is the one dataclasses would write for the features the
records use: parameters in field order with their defaults, ``default_factory``, fields with
``init=False`` and ``__post_init__`` (a keyword-only field, a ``ClassVar`` or an ``InitVar`` is
refused: none is used).
"""

from __future__ import annotations

import dataclasses
from dataclasses import MISSING, FrozenInstanceError
from typing import Any, Callable

FACTORY = object()
"""The default of a parameter whose field has a ``default_factory`` (the factory is called then)."""


def frozen_init(cls: type, fields: tuple[dataclasses.Field[Any], ...], slots: bool) -> Callable[..., None]:
    """The ``__init__`` of a frozen dataclass with these fields."""
    if len(fields) != len(cls.__dataclass_fields__) or any(f.kw_only for f in fields):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: a record's fields are positional, without ClassVar or InitVar")
    names: dict[str, Any] = {"__setattr__": object.__setattr__, "FACTORY": FACTORY}
    params, body = ["self"], []
    for f in fields:
        default = f"_dflt_{f.name}"
        if f.default_factory is not MISSING:
            names[default] = f.default_factory
            value = f"{default}() if {f.name} is FACTORY else {f.name}" if f.init else f"{default}()"
            params += [f"{f.name}=FACTORY"] if f.init else []
        elif f.init:
            value = f.name
            if f.default is not MISSING:
                names[default] = f.default
            params.append(f.name if f.default is MISSING else f"{f.name}={default}")
        elif slots and f.default is not MISSING:
            names[default], value = f.default, default
        else:
            continue  # read from the class attribute that holds the default
        body.append(f"    __setattr__(self, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, names)  # noqa: S102 - the class's own field names, as dataclasses does
    init: Callable[..., None] = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def guards(cls: type[Any], names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    """``__setattr__`` and ``__delattr__`` refusing the fields (and any name, on the class itself)."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    __setattr__.__qualname__, __delattr__.__qualname__ = f"{cls.__qualname__}.__setattr__", f"{cls.__qualname__}.__delattr__"
    return __setattr__, __delattr__


def getstate(self: Any) -> list[Any]:
    """A frozen record's state for pickling and copying: its fields' values (as dataclasses gives)."""
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def setstate(self: Any, state: list[Any]) -> None:
    """Set a frozen record's fields from :func:`getstate`'s list."""
    for f, value in zip(dataclasses.fields(self), state):
        object.__setattr__(self, f.name, value)


def freeze(cls: type, slots: bool) -> None:
    """Make a dataclass made with ``frozen=False, init=False`` frozen, with its ``__init__``."""
    fields = dataclasses.fields(cls)
    if "__init__" not in cls.__dict__:
        cls.__init__ = frozen_init(cls, fields, slots)  # type: ignore[misc]
    cls.__setattr__, cls.__delattr__ = guards(cls, frozenset(f.name for f in fields))  # type: ignore[method-assign]
    if slots:
        cls.__getstate__ = getstate  # type: ignore[method-assign,assignment]
        cls.__setstate__ = setstate  # type: ignore[attr-defined]
