"""The packages of reviewer are grouped by concept: each says what it holds, names its public API,
holds at most 20 modules, and every public name it lists is really there."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "reviewer"
FOLDERS = sorted(p.parent for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts)


def module_name(folder: Path) -> str:
    return ".".join(folder.relative_to(PACKAGE.parent).parts)


@pytest.mark.parametrize("folder", FOLDERS, ids=module_name)
def test_a_package_says_what_it_holds_and_holds_at_most_twenty_modules(folder: Path) -> None:
    doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text(encoding="utf-8")))
    assert doc and len(doc) > 20, f"{module_name(folder)} has no docstring saying what it holds"
    modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
    assert len(modules) <= 20, f"{module_name(folder)} holds {len(modules)} modules: group them by concept"


@pytest.mark.parametrize("folder", [f for f in FOLDERS if "PUBLIC" in (f / "__init__.py").read_text(encoding="utf-8")],
                         ids=module_name)
def test_every_public_name_of_a_package_is_there(folder: Path) -> None:
    package = importlib.import_module(module_name(folder))
    assert package.PUBLIC
    for name, module in package.PUBLIC.items():
        assert getattr(package, name) is getattr(importlib.import_module(f"{package.__name__}.{module}"), name), name
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018
