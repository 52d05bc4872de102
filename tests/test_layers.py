"""The core layers never pull in the UI toolkit or git."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import importlib, pkgutil, sys
for layer in {layers!r}:
    pkg = importlib.import_module(layer)
    for m in pkgutil.walk_packages(pkg.__path__, layer + "."):
        importlib.import_module(m.name)
print(",".join(sorted(n for n in {banned!r} if n in sys.modules)))
"""


def loaded(layers: list[str], banned: list[str]) -> str:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(layers=layers, banned=banned)],
        capture_output=True, text=True, check=True,
    )
    return out.stdout.strip()


def test_model_imports_neither_textual_nor_git() -> None:
    assert loaded(["reviewer.model"], ["textual", "git", "rich"]) == ""


def test_store_and_parsers_import_no_textual() -> None:
    assert loaded(["reviewer.store", "reviewer.parsers", "reviewer.commands"], ["textual"]) == ""


def test_the_review_session_analysis_importers_and_rescore_import_no_textual() -> None:
    assert loaded(["reviewer.review", "reviewer.analysis", "reviewer.importers", "reviewer.rescore"], ["textual"]) == ""


def test_the_probe_sees_textual_when_it_is_loaded() -> None:
    assert loaded(["reviewer.ui"], ["textual"]) == "textual"  # the probe can fail


def test_the_layer_contracts_hold() -> None:
    """import-linter's contracts in pyproject.toml (layers, Textual only in the app, no widget reads the folder)."""
    from pathlib import Path

    lint = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run([str(lint)], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    assert out.returncode == 0, out.stdout[-3000:]


def test_the_acyclic_contract_breaks_on_a_new_cycle() -> None:
    """The contract against import cycles (pyproject.toml) holds on the package, and a single import
    that closes a cycle between two modules of a package breaks it (here: the review session's
    outcomes importing the session, which imports them)."""
    import tomllib
    from pathlib import Path

    import grimp
    from importlinter.configuration import configure
    from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract

    configure()  # import-linter's own settings (its timer, its printer), as lint-imports sets them

    config = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["tool"]["importlinter"]
    [options] = [c for c in config["contracts"] if c["type"] == "acyclic_siblings"]

    def kept(*extra: tuple[str, str]) -> bool:
        graph = grimp.build_graph("reviewer")
        for importer, imported in extra:
            graph.add_import(importer=importer, imported=imported)
        contract = AcyclicSiblingsContract(name=options["name"], session_options={"root_packages": ["reviewer"]},
                                           contract_options={k: v for k, v in options.items() if k not in ("name", "type")})
        return contract.check(graph, verbose=False).kept

    assert kept()
    assert not kept(("reviewer.review.outcome", "reviewer.review.session"))
    assert not kept(("reviewer.ui.widgets.pane", "reviewer.ui.widgets.workspace"))
