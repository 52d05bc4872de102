"""What a re-score saw the program do: every invocation of it while the recorded grader ran.

A property oracle often runs the program itself (in a subprocess), keeps its output and prints
only the assertion that failed (``KeyError: 'mults'``): none of what the program printed, nor
where it died, reaches the recorded grader output. The control run of a re-score (the recorded
grader on the recorded program, nothing repaired, in the sandbox) puts an observing shim where
the checker expects the program; the shim runs the program unchanged and notes, for each run of
it, its arguments, its standard input, its standard output and error, and its exit status.
Those notes are an :class:`Observation`; the evidence reads them wherever the recorded output
lacks the program's own. Pure data: nothing here runs anything.
"""

from __future__ import annotations

from reviewer.model.records import record

STREAM_CUT = "\n[... cut ...]\n"
"""The marker between the head and the tail of a stream kept only in part."""


@record
class Invocation:
    """One run of the program.

    Attributes:
        argv: its arguments (the program's own path first, as the checker gave it).
        stdin: what it was given on standard input (head and tail when long).
        stdout: what it printed on standard output (head and tail when long).
        stderr: what it printed on standard error (head and tail when long).
        exit_status: its exit status; a negative number ``-N`` when signal ``N`` ended it;
            None when it was still running as the grader ended.
        test: the check that ran it, when the grader says (pytest's current test id), else "".
        cut: the streams kept only in part (``stdin``, ``stdout``, ``stderr``).
        seconds: how long it ran.
    """

    argv: tuple[str, ...] = ()
    stdin: str = ""
    stdout: str = ""
    stderr: str = ""
    exit_status: int | None = None
    test: str = ""
    cut: tuple[str, ...] = ()
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        """True when the program did not end with status 0."""
        return self.exit_status != 0

    def ran_for(self, check_key: str) -> bool:
        """True when this run belongs to the check ``check_key`` (a pytest node id, a JUnit
        ``classname::name``, or a test name), as far as the grader told; False when it did not tell."""
        if not self.test or not check_key:
            return False
        test = self.test
        if test == check_key or test.endswith("/" + check_key) or check_key.endswith("/" + test):
            return True
        name = test.rsplit("::", 1)[-1]
        return name == check_key.rsplit("::", 1)[-1] and ("::" in check_key or "::" in test)


@record
class Observation:
    """The program's runs during one control run of a grading.

    Attributes:
        grading: ``<session>/<run>#<grader>``.
        program: the workspace path of the program the checker ran.
        at: when it was observed (``YYYY-MM-DDTHH:MM:SSZ``).
        invocations: the runs, in the order they started (at most a cap of them).
        dropped: runs beyond the cap, counted and not kept.
        exit_status: the grader's own exit status in that run (None when it was stopped).
        stopped: why the sandbox stopped the grader ("" when it ended by itself).
        reviewer: whose record it was read from ("" when not read from one).
    """

    grading: str
    program: str
    at: str
    invocations: tuple[Invocation, ...] = ()
    dropped: int = 0
    exit_status: int | None = None
    stopped: str = ""
    reviewer: str = ""

    def for_check(self, check_key: str) -> tuple[Invocation, ...]:
        """The runs the check ``check_key`` made, when the grader told which check ran each;
        every run when it told for none."""
        if not any(i.test for i in self.invocations):
            return self.invocations
        return tuple(i for i in self.invocations if i.ran_for(check_key))

    def summary(self) -> str:
        """``5 runs of roman.py observed, 2 ended with an error`` (one line)."""
        n = len(self.invocations)
        bad = sum(1 for i in self.invocations if i.failed)
        noun = "run" if n == 1 else "runs"
        text = f"{n} {noun} of {self.program} observed"
        if self.dropped:
            text += f" (and {self.dropped} more not kept)"
        if bad:
            text += f", {bad} ended with an error" if bad != 1 else ", 1 ended with an error"
        return text
