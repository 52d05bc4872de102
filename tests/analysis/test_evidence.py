"""Checker-versus-brief evidence: demands read from failure texts and grader sources, judged
against the brief (verbatim, near form, unstated) with the brief line that states them."""

from __future__ import annotations

from pathlib import Path

from analysis_kit import add_grader_source, fail
from hypothesis import given, settings
from hypothesis import strategies as st
from sessionkit import RunSpec, write_session

from reviewer.analysis.evidence.engine import Source, analyse, evidence_for
from reviewer.analysis.evidence.strip import render_evidence
from reviewer.analysis.reading.brief import Stated
from reviewer.analysis.reading.demands import Context, DemandKind
from reviewer.store.sessions.store import SessionStore

BRIEF = """# connected

Write `connected.py`. Output: one line of `key=value` pairs separated by single spaces:

- `nodes`: how many distinct nodes,
- `connected`: whether every node can be reached.
"""

ORACLE = '''"""Oracle."""
import subprocess
from pathlib import Path

PROGRAM = Path(__file__).with_name("connected.py")


def answer(graph):
    out = subprocess.run(["python", str(PROGRAM)], input=graph, capture_output=True, text=True).stdout
    print(f"stdout: {out!r}")
    fields = {}
    for token in out.split():
        key, sep, value = token.partition("=")
        fields[key] = value
    return fields


def walk(fields):
    return fields.get("path", "").split(",")


def test_triangle():
    assert answer("A B\\nB C\\nC A\\n").get("connected") == "yes"


def test_walk():
    assert len(walk(answer("A B\\n"))) > 1, "no walk read from path="
'''

TRIANGLE_OUTPUT = """    def test_triangle():
>       assert answer("A B\\nB C\\nC A\\n").get("connected") == "yes"
E       AssertionError: assert 'true' == 'yes'
E         - yes
E         + true

oracle.py:22: AssertionError
--------------------------------------- Captured stdout call ---------------------------------------
stdout: 'nodes=3 connected=true\\n'
"""

WALK_OUTPUT = """E       AssertionError: no walk read from path=
--------------------------------------- Captured stdout call ---------------------------------------
stdout: 'nodes=2 connected=yes trail=A,B\\n'
"""


def oracle_folder(root: Path) -> Path:
    write_session(root, "s", [RunSpec(
        "r", task="connected", brief=BRIEF, attempts=[{"connected.py": "print('nodes=3 connected=true')\n"}],
        checks=[fail("oracle.py::test_triangle", TRIANGLE_OUTPUT), fail("oracle.py::test_walk", WALK_OUTPUT)],
    )])
    (root / "s" / "graders").mkdir()
    (root / "s" / "graders" / "oracle.py").write_text(ORACLE)
    add_grader_source(root / "s" / "runs" / "r", "../../graders/oracle.py")
    return root


def evidence(root: Path, check: str):
    store = SessionStore(root)
    store.scan()
    run = store.run("s/r")
    [failure] = [f for f in store.failures(run) if f.check.key == check]
    return evidence_for(store, run, failure)


def by_value(ev, kind: DemandKind) -> dict[str, object]:
    return {d.value: d for d in ev.demands if d.kind is kind}


def test_vocabulary_demand_is_unstated_and_a_near_miss(tmp_path: Path) -> None:
    ev = evidence(oracle_folder(tmp_path / "sessions"), "oracle.py::test_triangle")
    assert [(d.kind, d.value) for d in ev.unstated] == [(DemandKind.LITERAL, "yes")]
    keys = by_value(ev, DemandKind.KEY)
    assert keys["connected"].stated is Stated.VERBATIM
    assert keys["connected"].brief_line == 6  # the code span `connected`, not the title
    assert keys["connected"].met is True
    assert by_value(ev, DemandKind.FILE)["connected.py"].brief_line == 3
    seps = by_value(ev, DemandKind.SEPARATOR)
    assert seps[" "].stated is Stated.VERBATIM  # "separated by single spaces"
    assert seps["="].stated is Stated.NEAR  # only shown in the example `key=value`
    assert "path" not in by_value(ev, DemandKind.KEY)  # read by another test's helper only
    [nm] = ev.near_misses
    assert nm.notations == ("vocabulary: true for yes",)


def test_key_read_by_a_helper_is_a_demand_of_the_check(tmp_path: Path) -> None:
    ev = evidence(oracle_folder(tmp_path / "sessions"), "oracle.py::test_walk")
    unstated = {(d.kind, d.value) for d in ev.unstated}
    assert (DemandKind.KEY, "path") in unstated
    assert (DemandKind.SEPARATOR, ",") in unstated
    path = by_value(ev, DemandKind.KEY)["path"]
    assert path.met is False
    assert any(o.startswith("source:oracle.py:") for o in path.origins) and "message" in path.origins
    [nm] = ev.near_misses  # the check splits path on ','; the output has that list under trail
    assert (nm.kind, nm.wanted_key, nm.found_key, nm.found, nm.towards) == ("renamed-key", "path", "trail", "A,B", True)


def test_go_messages_tell_the_checks_demands_from_the_models_own_errors() -> None:
    ctx = Context(frozenset({"roman_heldout_test.go"}), frozenset({"roman.go"}))
    msg = (
        "# roman [roman.test]\n./roman.go:5:2: imported and not used: \"fmt\"\n./roman.go:20:9: undefined: strings\n"
        "./roman_heldout_test.go:23:13: undefined: ToRoman\n./roman_heldout_test.go:40:2: undefined: ErrEmpty\n"
    )
    brief = "Create `roman.go` with `ToRoman(n int) string`.\n"
    ev = analyse("f", "build:roman", msg, brief, ctx=ctx)
    symbols = by_value(ev, DemandKind.SYMBOL)
    assert set(symbols) == {"ToRoman", "ErrEmpty"}
    assert symbols["ToRoman"].stated is Stated.VERBATIM and symbols["ToRoman"].brief_line == 1
    assert [d.value for d in ev.unstated] == ["ErrEmpty"]


def test_python_and_other_messages() -> None:
    brief = "Write solution.py with `percent_change(old, new)`. Read `config.json`.\n"
    cases = {
        "load: KeyError: 'percent_change'": (DemandKind.SYMBOL, "percent_change", Stated.VERBATIM),
        "E   ImportError: cannot import name 'solve' from 'graph'": (DemandKind.SYMBOL, "solve", Stated.UNSTATED),
        "E   ModuleNotFoundError: No module named 'graphlib2'": (DemandKind.SYMBOL, "graphlib2", Stated.UNSTATED),
        "E       KeyError: 'path'": (DemandKind.KEY, "path", Stated.UNSTATED),
        "FileNotFoundError: [Errno 2] No such file or directory: 'config.json'": (DemandKind.FILE, "config.json", Stated.VERBATIM),
        "E       Failed: DID NOT RAISE <class 'ValueError'>": (DemandKind.ERROR, "ValueError", Stated.UNSTATED),
        "no mults= in the output": (DemandKind.KEY, "mults", Stated.UNSTATED),
        'err = "bad", want "invalid edge line"': (DemandKind.LITERAL, "invalid edge line", Stated.UNSTATED),
        "found packages main (roman.go) and roman (roman_test.go) in /w": (DemandKind.SYMBOL, "roman", Stated.UNSTATED),
    }
    for msg, (kind, value, stated) in cases.items():
        ev = analyse("f", "test_x", msg, brief)
        got = {(d.kind, d.value): d.stated for d in ev.demands}
        assert got.get((kind, value)) is stated, (msg, got)


def test_near_forms_and_brief_lines() -> None:
    brief = "# Title\n\nPrint the Odd Degree count.\nList the `edges`.\nReturn the empty string for 0.\nRound to two decimal places.\n"
    ev = analyse("f", "t", "E   KeyError: 'odd_degree'\nE   KeyError: 'edge'\nE   KeyError: 'oddity'", brief)
    keys = by_value(ev, DemandKind.KEY)
    assert (keys["odd_degree"].stated, keys["odd_degree"].brief_line) == (Stated.NEAR, 3)
    assert (keys["edge"].stated, keys["edge"].brief_line) == (Stated.NEAR, 4)  # singular of `edges`
    assert keys["oddity"].stated is Stated.UNSTATED
    ev = analyse("f", "t", 'zero_test.go:9: Zero(0) = "N", want ""', brief)
    assert by_value(ev, DemandKind.LITERAL)[""].stated is Stated.NEAR
    ev = analyse("f", "test 3", "test 3: wrong answer 33.3333333", brief,
                 [Source("runner.py", "TESTS = [((1, 2), 1.0), ((1, 3), 2.0), ((2, 3), 0.5), ((3, 4), 33.33)]\n")])
    [form] = [d for d in ev.demands if d.note.startswith("rounded to")]
    assert (form.stated, form.brief_line) == (Stated.NEAR, 6)
    assert ev.near_misses[0].notations == ("precision: 7 decimals for 2",)


def test_values_bound_to_the_input_are_shown_but_not_counted() -> None:
    lines = "\n".join(
        f'    roman_test.go:24: ToRoman({n}) returned "{bad}", expected "{good}"'
        for n, bad, good in [(4, "IIII", "IV"), (9, "VIIII", "IX"), (19, "XVIIII", "XIX"), (44, "XXXXIIII", "XLIV")]
    )
    ev = analyse("f", "TestToRoman", lines, "4 is IV\n")
    literals = by_value(ev, DemandKind.LITERAL)
    assert set(literals) == {"IV", "IX", "XIX", "XLIV"} and all(d.bound for d in literals.values())
    assert ev.unstated == () and ev.near_misses == ()
    ev = analyse("f", "case", "the answer must contain '15'\n\nanswer:\nPark 10 feet away.", "how far?\n")
    assert [d.bound for d in ev.demands] == [True] and ev.unstated == ()


def test_go_source_demands(tmp_path: Path) -> None:
    source = '''package roman

import "testing"

func helper(t *testing.T, s string) []string {
	return strings.Split(s, ";")
}

// TestZero wants the empty string.
func TestZero(t *testing.T) {
	if got := ToRoman(0); got != "" {
		t.Errorf("ToRoman(0) = %q", got)
	}
	parts := helper(t, Describe(Config{Mode: "x"}))
	_ = parts
}
'''
    ev = analyse("f", "TestZero", "panic: out of range", "Write `ToRoman`.\n", [Source("g/roman_test.go", source)])
    found = {(d.kind, d.value) for d in ev.demands}
    assert {(DemandKind.LITERAL, ""), (DemandKind.SYMBOL, "ToRoman"), (DemandKind.SYMBOL, "Describe"),
            (DemandKind.SYMBOL, "Config"), (DemandKind.SEPARATOR, ";")} <= found
    assert (DemandKind.SYMBOL, "Mode") not in found  # a struct field key, not a symbol
    assert not any(v in ("t", "helper", "got", "Errorf") for _, v in found)


def test_rendering_is_plain_and_sanitised() -> None:
    ev = analyse("f", "t", "E       KeyError: 'pa\x1b]0;pwned\x07th'\nE   assert 'true' == 'yes'", None)
    text = render_evidence(ev)
    assert "\x1b" not in text and "\x07" not in text
    assert "the brief could not be read" in text
    assert "near-miss: expected 'yes'" in text and "vocabulary: true for yes" in text


GRADERISH = st.text(alphabet=st.one_of(st.sampled_from(list("ab=:,;'\"`[]{}() \n-+>Ee0123456789.\\")), st.characters()), max_size=300)


@settings(max_examples=300, deadline=None)
@given(GRADERISH, GRADERISH)
def test_any_text_gives_evidence_without_raising(message: str, brief: str) -> None:
    ev = analyse("f", "t", "E   assert " + message, brief, [Source("t.py", "def t():\n    assert x == " + repr(message) + "\n")])
    render_evidence(ev)
    for d in ev.demands:
        assert d.stated in Stated
