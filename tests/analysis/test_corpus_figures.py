"""The evidence classes on the bundled corpus, each both ways (a specification failure and a
capability look-alike), and the three figures computed over the whole corpus from
``reviewer show --json``. Grader output in the corpus was produced by really running the
graders (tests/corpus/build.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from reviewer.analysis.evidence import Evidence, evidence_for, with_across
from reviewer.analysis.evidence.proposals import judged, propose
from reviewer.model import Failure, Run
from reviewer.model.repair import RepairKind
from reviewer.store.sessions.store import SessionStore

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from corpus_figures import EXPECTED, compute, show_json
from sessionkit import example_corpus

SESSIONS = HERE.parents[1] / "sessions"
FE = "oracle-2026-10/fast-expt--{}#oracle:oracle_fast_expt.py::{}"
CONNECTED = "oracle-2026-10/connected--{}#oracle:oracle_connected.py::{}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the example corpus."""
    if not EXPECTED.is_file() or not any(SESSIONS.glob("heldout-2026-12/runs/*/run.toml")):
        pytest.skip("the example corpus is not built")
    return example_corpus(tmp_path_factory.mktemp("corpus") / "sessions")


@pytest.fixture(scope="module")
def store(corpus: Path) -> SessionStore:
    s = SessionStore(corpus, use_index=False)
    s.scan()
    return s


def ev(store: SessionStore, fid: str) -> Evidence:
    """The evidence of one corpus failure."""
    run, failure = find(store, fid)
    return evidence_for(store, run, failure)


def find(store: SessionStore, fid: str) -> tuple[Run, Failure]:
    """The run and failure of a corpus failure id."""
    run = store.run(fid.split("#", 1)[0])
    assert run is not None, fid
    [failure] = [f for f in store.failures(run) if f.id == fid]
    return run, failure


def test_the_three_figures_meet_their_targets(corpus: Path) -> None:
    figures = compute(show_json(corpus))
    print("\n" + "\n".join(figures.lines()))
    assert (figures.specification, figures.capability, figures.planted_near_misses) == (30, 40, 26)
    assert figures.pointed == figures.specification, figures.misses
    assert figures.near_misses_found == figures.planted_near_misses, figures.misses
    assert figures.capability_hinted * 10 <= figures.capability, figures.misses


def test_renamed_key_both_ways(store: SessionStore) -> None:
    spec = ev(store, FE.format("ember-9b", "test_mults_within_log_bound"))
    [nm] = [n for n in spec.near_misses if n.kind == "renamed-key"]
    assert (nm.check, nm.wanted_key, nm.found_key, nm.found, nm.towards) == (
        "oracle:oracle_fast_expt.py::test_mults_within_log_bound", "mults", "multiplications", "16", True)
    look_alike = ev(store, FE.format("gale-13b", "test_small_powers"))
    [nm] = look_alike.near_misses
    assert (nm.kind, nm.wanted_key, nm.found_key, nm.found, nm.towards) == ("renamed-key", "value", "result", "1024", False)
    assert "line 11" in nm.why and not look_alike.towards_specification  # the brief names `value`


def test_met_or_unmet_both_ways(store: SessionStore) -> None:
    unmet = ev(store, FE.format("cobalt-mini", "test_mults_within_log_bound"))
    [mults] = [d for d in unmet.demands if d.value == "mults"]
    assert (mults.unstated, mults.met, mults.evidence) == (True, False, True)
    printed = ev(store, FE.format("delta-pro", "test_mults_within_log_bound"))
    [mults] = [d for d in printed.demands if d.value == "mults"]
    assert (mults.unstated, mults.met, mults.met_where, mults.evidence) == (True, True, "output", False)
    crashed = ev(store, CONNECTED.format("ember-9b", "test_isolated_node"))
    by_value = {d.value: d for d in crashed.demands}
    assert by_value["no"].unstated and by_value["no"].met and by_value["no"].met_where.startswith("connected.py:")
    assert by_value["connected"].met_where.startswith("connected.py:")  # from the code: the output never came
    assert not crashed.towards_specification


def test_hidden_crash_both_ways(store: SessionStore) -> None:
    spec = ev(store, FE.format("atlas-7b", "test_mults_within_log_bound_huge_exponent"))
    c = spec.crash
    assert c is not None and c.error.startswith("ValueError: Exceeds the limit (4300 digits)")
    assert (c.limit, c.lift, c.rescorable, c.hides) == ("int-max-str-digits", "PYTHONINTMAXSTRDIGITS=0", True, ("mults",))
    deep = ev(store, "oracle-2026-10/depth--cobalt-mini#oracle:oracle_depth.py::test_long_chain")
    assert deep.crash is not None and deep.crash.limit == "recursion-limit" and deep.towards_specification
    endless = ev(store, "oracle-2026-10/depth--delta-pro#oracle:oracle_depth.py::test_long_chain")
    assert endless.crash is not None and endless.crash.limit == "recursion-limit" and endless.crash.everywhere
    assert not endless.towards_specification  # it fails every check: its own loop, not a limit
    own = ev(store, CONNECTED.format("ember-9b", "test_single_node"))
    assert own.crash is not None and own.crash.limit is None and not own.crash.rescorable
    assert own.crash.error.startswith("ValueError: not enough values to unpack")


def test_separator_and_shape_both_ways(store: SessionStore) -> None:
    comma = ev(store, "oracle-2026-10/eulerian--ember-9b#oracle:oracle_eulerian.py::test_square_walk_closes")
    [nm] = comma.near_misses
    assert (nm.kind, nm.wanted_key, nm.wanted, nm.found, nm.towards) == ("separator", "path", " ", ",", True)
    stated = ev(store, CONNECTED.format("fjord-xl", "test_counts"))
    [nm] = stated.near_misses
    assert nm.kind == "separator" and not nm.towards and not stated.towards_specification
    tree = ev(store, "oracle-2026-10/mst--breeze-large#oracle:oracle_mst.py::test_six_nodes_edges_form_a_spanning_tree")
    kinds = {(n.kind, n.found_key) for n in tree.near_misses}
    assert {("shape", "edges"), ("renamed-key", "tree")} <= kinds


def test_literals_from_assertions_and_one_classification_per_grader(store: SessionStore) -> None:
    for grader in ("heldout-pytest:roman_check.py::", "heldout-junit:roman_check::"):
        run = "roman-py--atlas-7b" if "pytest" in grader else "roman-py--cobalt-mini"
        four = ev(store, f"heldout-2026-12/{run}#{grader}test_four")
        table = ev(store, f"heldout-2026-12/{run}#{grader}test_table")
        assert [(d.value, d.bound) for d in four.demands if d.kind.value == "literal"] == [("iv", True)]
        assert all(d.bound for d in table.demands if d.kind.value == "literal")
        [nm] = four.near_misses
        assert (nm.kind, nm.wanted, nm.found, nm.towards) == ("case", "iv", "IV", True)
    script = ev(store, "heldout-2026-12/roman-py--delta-pro#heldout-script:run")
    [pair] = script.pairs
    assert (pair.expected, pair.actual) == ('"i"', '"I"')  # not '"i", candidate(1)'
    wrong = ev(store, "heldout-2026-12/roman-py--breeze-large#heldout-pytest:roman_check.py::test_nineteen")
    assert wrong.unstated == () and not wrong.near_misses


def test_proposed_repairs(store: SessionStore) -> None:
    def kinds(fid: str) -> set[tuple[RepairKind, tuple[str, ...]]]:
        return {(r.kind, r.args) for r in propose(ev(store, fid))}

    assert kinds(FE.format("ember-9b", "test_mults_within_log_bound_huge_exponent")) >= {
        (RepairKind.RENAME_KEY, ("multiplications", "mults")), (RepairKind.LIFT_LIMIT, ("int-max-str-digits",))}
    assert (RepairKind.SEPARATOR, ("path", ",", " ")) in kinds(
        "oracle-2026-10/eulerian--ember-9b#oracle:oracle_eulerian.py::test_square_walk_closes")
    assert (RepairKind.MAP_VALUE, ("connected", "true", "yes")) in kinds(CONNECTED.format("atlas-7b", "test_triangle_is_connected"))
    assert (RepairKind.LIFT_LIMIT, ("recursion",)) in kinds("oracle-2026-10/depth--cobalt-mini#oracle:oracle_depth.py::test_long_chain")
    # The brief says "In this folder": grading the files where they were saved would repair a stated
    # demand, so it is not proposed (a flip would only show the model ignored the brief).
    assert kinds("pounce-2026-11/roman-go--fjord-xl#heldout:build:roman") == set()
    fjord = ev(store, "pounce-2026-11/roman-go--fjord-xl#heldout:build:roman")
    [stated] = [j for j in judged(fjord) if not j.notation_only]
    assert stated.repair.kind is RepairKind.GRADE_WHERE_SAVED and "In this folder" in stated.stated
    # gale-13b printed result= where the brief names value: the rename is never proposed either.
    gale = ev(store, FE.format("gale-13b", "test_small_powers"))
    assert (RepairKind.RENAME_KEY, ("result", "value")) not in kinds(FE.format("gale-13b", "test_small_powers"))
    assert any(j.repair.args == ("result", "value") and "value" in j.stated for j in judged(gale))
    # edges=5 is a count where the check reads a list, and the tree is under tree=: the count is moved
    # out of the way and the tree renamed onto edges (never re-shaping the count).
    assert kinds("oracle-2026-10/mst--breeze-large#oracle:oracle_mst.py::test_six_nodes_edges_form_a_spanning_tree") == {
        (RepairKind.RENAME_KEY, ("edges", "edges_as_printed")), (RepairKind.RENAME_KEY, ("tree", "edges"))}
    # trail=A->B->C where the check reads path= split on whitespace: renamed, then re-joined.
    assert [(r.kind, r.args) for r in propose(ev(store, "oracle-2026-10/eulerian--delta-pro#oracle:oracle_eulerian.py::test_square_walk_closes"))] == [
        (RepairKind.RENAME_KEY, ("trail", "path")), (RepairKind.SEPARATOR, ("path", "->", " "))]


def test_the_task_by_model_matrix(store: SessionStore) -> None:
    from reviewer.analysis.evidence.across import task_matrix, tasks

    assert "roman-py" in tasks(store)
    verdicts = {FE.format("cobalt-mini", "test_mults_within_log_bound"): "specification"}
    m = task_matrix(store, "fast-expt", verdicts)
    assert [model for _, model in m.runs] == ["atlas-7b", "breeze-large", "cobalt-mini", "delta-pro", "ember-9b", "gale-13b"]
    check = "oracle:oracle_fast_expt.py::test_mults_within_log_bound"
    assert m.checks[2] == check and m.share(check) == (4, 6, 1, 0)
    assert m.cells[("oracle-2026-10/fast-expt--breeze-large", check)] == "pass"


def test_the_same_check_across_models(store: SessionStore) -> None:
    ev_alone = ev(store, FE.format("cobalt-mini", "test_mults_within_log_bound"))
    assert all(h.kind != "across" for h in ev_alone.hints)  # the strip's evidence leaves it to its own view
    with_hint, a = with_across(store, *find(store, FE.format("cobalt-mini", "test_mults_within_log_bound")))
    assert any(h.kind == "across" for h in with_hint.hints)
    assert a.keys == ("mults",)
    rows = {r.model: r for r in a.rows}
    assert rows["cobalt-mini"].current and rows["cobalt-mini"].looked_at == "steps=15"
    assert (rows["breeze-large"].result, rows["breeze-large"].looked_at) == ("pass", "mults=16")
    assert (rows["delta-pro"].result, rows["delta-pro"].looked_at, rows["delta-pro"].notation) == ("fail", "mults=1000", "")
    assert set(a.notations) == {"steps", "multiplications", "mult_count"}
    assert a.hint == "4 of 6 models fail this check, with 3 different notations (steps, mult_count, multiplications)"
