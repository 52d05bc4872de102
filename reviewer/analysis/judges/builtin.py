"""The project's own instruments as judges, so they are scored against the humans like any judge.

- ``evidence``: the Evidence strip's hint. Specification when the evidence points towards
  specification (:attr:`~reviewer.analysis.evidence.engine.Evidence.towards_specification`: an
  unstated demand the program did not meet, a near miss in a notation the brief never states, a
  known interpreter limit, files graded where the brief does not say they go), capability
  otherwise; an abstention when the evidence could not be computed (stopped at its budget, a bug).
- ``rescore``: the saved re-scores (``<session>/rescores/*.toml``, anyone's). Specification when a
  re-score *flipped* the failure (failing as recorded and in the control run, passing with repairs
  of notation the brief never states); capability when a re-score ran, reproduced the failure and
  the check still failed with the repairs, or passed only with a repair of what the brief states
  (the record's evidence for capability); an abstention when the failure was never re-scored, or
  no re-score reproduced it (the experiment says nothing then). A re-score is one-sided: it is run
  where the evidence proposes a repair, so its coverage (predictions over labelled failures) is
  part of its score.

Neither gives a confidence: their verdicts are rules, not probabilities.
"""

from __future__ import annotations

from reviewer.analysis.evidence.engine import Evidence
from reviewer.model.label import Verdict
from reviewer.model.prediction import Answer
from reviewer.rescore.record import FAILING, Entry

CAUSES_SHOWN = 4


def evidence_answer(ev: Evidence | None, error: str = "") -> Answer:
    """The evidence strip's hint as a verdict."""
    if ev is None:
        return Answer(None, None, f"no evidence: {error or 'it could not be computed'}")
    causes = ev.causes
    if causes:
        more = f"; and {len(causes) - CAUSES_SHOWN} more" if len(causes) > CAUSES_SHOWN else ""
        return Answer(Verdict.SPECIFICATION, None, "the evidence points towards specification: "
                      + "; ".join(causes[:CAUSES_SHOWN]) + more)
    unstated = len(ev.unstated)
    return Answer(Verdict.CAPABILITY, None, "nothing in the evidence points towards specification "
                  f"({len(ev.demands)} demands read, {unstated} not stated in the brief and none of them "
                  f"known unmet; {len(ev.near_misses)} near misses, none in a notation the brief leaves out)")


def rescore_answer(entries: list[Entry], failure_id: str) -> Answer:
    """The saved re-scores of a failure as a verdict (see the module)."""
    mine = sorted((e for e in entries if failure_id in e.failures), key=lambda e: e.at, reverse=True)
    if not mine:
        return Answer(None, None, "never re-scored")
    flipped = [e for e in mine if failure_id in e.flipped]
    if flipped:
        e = flipped[0]
        return Answer(Verdict.SPECIFICATION, None, f"flipped to pass with only the notation repaired ({', '.join(e.repairs)}): "
                      f"{e.summary} · {e.at[:10]}" + (f" · {e.reviewer}'s record" if e.reviewer else ""))
    for e in mine:
        row = e.check(failure_id)
        if row is None or not e.reproduced or row[2] not in FAILING:
            continue
        if e.stated and row[3] == "pass":
            return Answer(Verdict.CAPABILITY, None, f"passes only by changing what the brief states: {e.stated}")
        if row[3] != "pass":
            return Answer(Verdict.CAPABILITY, None, f"still {row[3]} with the notation repaired ({', '.join(e.repairs)}): "
                          f"{e.summary} · {e.at[:10]}")
    return Answer(None, None, "no re-score reproduced the failure (the control run did not fail as recorded)")
