"""Property oracle for `fast-expt`: values, and the multiplication count against log2(b).

Copied next to the program after the model has stopped; run with pytest.
"""

import subprocess
import sys
from pathlib import Path

PROGRAM = Path(__file__).with_name("fast_expt.py")


def run(a: int, b: int) -> tuple[dict, str]:
    proc = subprocess.run(
        [sys.executable, str(PROGRAM)], input=f"{a} {b}\n", capture_output=True, text=True,
        timeout=120,
    )
    print(f"input: {a} {b}")
    print(f"stdout: {proc.stdout}")
    fields = {}
    for token in proc.stdout.split():
        key, sep, value = token.partition("=")
        if sep:
            fields[key] = value
    return fields, proc.stderr


def last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[-1] if lines else "(empty)"


def bound(b: int) -> int:
    """Square-and-multiply needs at most two multiplications per bit of b."""
    return 2 * max(b.bit_length(), 1)


def test_small_powers():
    for a, b, want in [(2, 10, 1024), (5, 0, 1), (7, 13, 96889010407), (-3, 5, -243)]:
        assert run(a, b)[0].get("value") == str(want)


def test_large_value():
    fields, _ = run(7, 4000)
    assert fields.get("value") == str(7**4000)


def test_mults_within_log_bound():
    fields, stderr = run(3, 1000)
    assert "mults" in fields, f"no mults= in the output; stderr: {last_line(stderr)}"
    assert int(fields["mults"]) <= bound(1000)


def test_mults_within_log_bound_huge_exponent():
    fields, stderr = run(3, 65536)
    assert "mults" in fields, f"no mults= in the output; stderr: {last_line(stderr)}"
    assert int(fields["mults"]) <= bound(65536)
