"""A package's public names, each loaded from its module on first use (PEP 562).

Importing a store package then costs nothing until one of its names is used: the app's first
screen needs a few modules of several packages, never all of them.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable


def lazy_names(package: str, public: dict[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name in ``public`` read from the module named beside it."""

    def load(name: str) -> Any:
        module = public.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return load
