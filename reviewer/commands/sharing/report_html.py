"""The report as one self-contained HTML page: inline styles, inline SVG plots, no script.

Nothing in the page is fetched: a Content-Security-Policy of ``default-src 'none'`` (inline
styles allowed) makes the browser refuse any load even if one slipped in. Every recorded or
labelled string (task, model, check, note, tag, reviewer) is sanitised and escaped. Each figure
cell carries ``data-group``, ``data-name`` (or ``data-model``/``data-task``), ``data-field`` and
``data-value`` (the fraction of ``reviewer stats --json``), so scripts can read the numbers back.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from reviewer import __version__
from reviewer.analysis.stats.passrates import PassRate, Proportion, percent1
from reviewer.analysis.stats.report_data import ReportData
from reviewer.analysis.stats.summary import Group
from reviewer.commands.sharing import report_plots as plots
from reviewer.model.sanitize import plain
from reviewer.model.wording import count, plural

NOTE_CHARS = 600
CSS = """
:root { --ink: #1a1a1a; --muted: #5a5a5a; --rule: #d0d0d0; --spec: SPEC; --cap: CAP; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink);
       background: #fff; margin: 0 auto; padding: 1.5rem 2rem 3rem; max-width: 76rem; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; } h2 { font-size: 1.25rem; margin: 2.2rem 0 .6rem; border-bottom: 2px solid var(--ink); }
h3 { font-size: 1.02rem; margin: 1.4rem 0 .4rem; }
p, li { max-width: 60rem; } .muted { color: var(--muted); } code { font: .92em ui-monospace, "DejaVu Sans Mono", monospace; }
.warn { border-left: 4px solid var(--cap); background: #fff6e5; padding: .5rem .8rem; }
.note { border-left: 4px solid var(--spec); background: #eef5fb; padding: .5rem .8rem; }
nav ol { columns: 2; margin: .4rem 0; }
.pair { display: grid; grid-template-columns: minmax(20rem, 30rem) minmax(0, auto); gap: 1.2rem; align-items: start; }
@media (max-width: 60rem) { .pair { grid-template-columns: 1fr; } svg.plot { max-width: 32rem; } }
svg.plot { width: 100%; height: auto; }
table { border-collapse: collapse; margin: .3rem 0 1rem; font-size: .9rem; }
th, td { padding: .22rem .5rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
th { background: #f2f2f2; font-weight: 600; } td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { white-space: nowrap; } .iv { display: block; font-size: .8em; color: var(--muted); }
figure { margin: 0; }
.id { font: .78rem ui-monospace, "DejaVu Sans Mono", monospace; word-break: break-all; color: var(--muted); }
.spec { color: var(--spec); font-weight: 600; } .cap { color: #8a5a00; font-weight: 600; }
.up { color: #00664a; } .down { color: #a33c00; }
footer { margin-top: 3rem; font-size: .85rem; color: var(--muted); }
@media print { body { padding: 0; max-width: none; font-size: 11pt; } nav { display: none; }
  .pair { grid-template-columns: 1fr; gap: .3rem; } svg.plot { max-width: 32rem; } table, figure, .pair { break-inside: avoid; } h2 { break-after: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
"""


def esc(text: object, limit: int = NOTE_CHARS) -> str:
    """Recorded text made safe: sanitised, cut to ``limit`` characters, HTML-escaped."""
    s = plain(str(text))
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    return html.escape(s, quote=True)


def cell(p: Proportion, attrs: str, field: str, interval: bool = True) -> str:
    """A rate cell: ``62.5%`` (with its interval), carrying the fraction for scripts."""
    if p.value is None:
        return f'<td class="num" {attrs} data-field="{field}">—</td>'
    data = f'{attrs} data-field="{field}" data-value="{p.value!r}" data-low="{p.low!r}" data-high="{p.high!r}"'
    span = f'<span class="iv">{percent1(p.low)}–{percent1(p.high)}</span>' if interval else ""
    return f'<td class="num" {data}>{percent1(p.value)}{span}</td>'


def rate_table(rates: Sequence[PassRate], group: str, places: dict[str, str] | None = None) -> str:
    """Pass rates per row: checks, graded, corrected (re-scored), unlabelled (and the places)."""
    rescored = any(r.rescored is not None for r in rates)
    head = ["model / task" if group == "model_tasks" else group[:-1], "checks", "as graded<br>95% CI", "corrected<br>95% CI"]
    head += ["re-scored<br>95% CI"] if rescored else []
    head += ["unlabelled"] + (["place<br>graded → corrected"] if places is not None else [])
    rows = []
    for r in rates:
        if group == "model_tasks":
            attrs, name = f'data-group="model_tasks" data-model="{esc(r.model)}" data-task="{esc(r.task)}"', r.name
        else:
            attrs, name = f'data-group="{group}" data-name="{esc(r.name)}"', r.name
        tds = [f'<td class="name">{esc(name)}</td>', f'<td class="num" {attrs} data-field="checks" data-value="{r.checks}">{r.checks}</td>',
               cell(r.graded, attrs, "pass_rate"), cell(r.corrected, attrs, "corrected_pass_rate")]
        rs = r.rescored
        if rescored:
            tds.append(cell(rs, attrs, "rescored_pass_rate") if rs else '<td class="num">—</td>')
        tds.append(f'<td class="num" {attrs} data-field="unlabelled" data-value="{r.unlabelled}">{r.unlabelled}</td>')
        if places is not None:
            tds.append(f'<td class="num">{places.get(r.name, "—")}</td>')
        rows.append("<tr>" + "".join(tds) + "</tr>")
    return table(head, rows, numeric_from=1)


def table(head: Sequence[str], rows: Sequence[str], numeric_from: int = 99) -> str:
    """A table from a header and pre-rendered ``<tr>`` rows."""
    ths = "".join(f'<th class="num">{h}</th>' if i >= numeric_from else f"<th>{h}</th>" for i, h in enumerate(head))
    return f"<table><thead><tr>{ths}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def pair(svg: str, side: str) -> str:
    """A plot with its text table beside it."""
    return f'<div class="pair"><figure>{svg}</figure><div>{side}</div></div>'


def place_labels(data: ReportData) -> dict[str, str]:
    """``2 → 1 ▲1`` per model."""
    out = {}
    pr = data.stats.pass_rates
    for p in pr.ranking if pr else ():
        move = f'<span class="up">▲{p.change}</span>' if p.change > 0 else f'<span class="down">▼{-p.change}</span>' if p.change < 0 else "="
        out[p.model] = f"{p.graded} → {p.corrected} {move}"
    return out


def pass_rate_section(data: ReportData, pal: plots.Palette) -> str:
    """Pass rates per model (plot, table, ranking), per task (plot, table) and per model x task."""
    pr = data.stats.pass_rates
    if pr is None or not pr.overall.checks:
        return "<section id=pass-rates><h2>Pass rates</h2><p>No check ran in this folder.</p></section>"
    o = pr.overall
    parts = [
        "<section id=pass-rates><h2>Pass rates, as graded and corrected</h2>",
        (f"<p>Of <b>{o.checks}</b> checks that ran, <b>{percent1(o.graded.value)}</b> passed as graded "
         f"({o.passed}); counting the {count(o.specification, 'failure')} labelled specification as passes, "
         f"<b>{percent1(o.corrected.value)}</b> ({o.corrected.hits}).</p>"),
    ]
    if o.rescored is not None:
        parts.append(f"<p>Counting as well the {count(o.rescored.hits - o.corrected.hits, 'other failure')} that re-scoring flipped to "
                     f"pass once only the notation was repaired (<a href=\"#rescores\">Re-scores</a>): <b>{percent1(o.rescored.value)}</b> "
                     f"({o.rescored.hits}).</p>")
    if o.unlabelled:
        parts.append(f'<p class="warn">{count(o.unlabelled, "failure")} {plural("is", o.unlabelled)} still unlabelled: each could still move a '
                     "corrected figure up by one check. These figures are not final.</p>")
    parts.append("<h3>Per model</h3>")
    parts.append(pair(plots.rate_plot(pr.models, pal, "model"), rate_table(pr.models, "models", place_labels(data))))
    moved = [p for p in pr.ranking if p.change]
    parts.append(f"<p>{count(len(moved), 'model')} {plural('changes', len(moved), 'change')} place once specification failures count as passes.</p>" if moved
                 else "<p>No model changes place once specification failures count as passes.</p>")
    parts.append("<h3>Per task</h3>")
    parts.append(pair(plots.rate_plot(pr.tasks, pal, "task"), rate_table(pr.tasks, "tasks")))
    parts.append("<h3>Per model and task</h3>" + rate_table(pr.model_tasks, "model_tasks"))
    return "".join(parts) + "</section>"


def share_rows(groups: Sequence[Group]) -> list[tuple[str, int, int, int]]:
    """(name, specification, capability, unlabelled) per group with failures."""
    return [(g.name, g.specification, g.capability, g.failures - g.labelled) for g in groups if g.failures]


def verdict_section(data: ReportData, pal: plots.Palette) -> str:
    """Verdict shares per task and per tag."""
    rows = share_rows(data.stats.tasks)
    parts = ["<section id=verdicts><h2>Verdicts per task and per tag</h2>"]
    if not rows:
        return parts[0] + "<p>No failures.</p></section>"

    def share_table(rs: Sequence[tuple[str, int, int, int]], first: str, field: str) -> str:
        body = []
        for name, s, c, u in rs:
            share = percent1(s / (s + c)) if s + c else "—"
            rest = f'<td class="num">{u}</td>' if field == "tasks" else ""
            body.append(f'<tr><td class="name">{esc(name)}</td><td class="num">{s}</td><td class="num">{c}</td>{rest}'
                        f'<td class="num" data-group="{field}" data-name="{esc(name)}" data-field="specification_share"'
                        f'{f" data-value={s / (s + c)!r}" if s + c else ""}>{share}</td></tr>')
        head = [first, "◆ spec", "▲ cap"] + (["unlabelled"] if field == "tasks" else []) + ["spec share"]
        return table(head, body, numeric_from=1)

    parts.append("<h3>Per task</h3>" + pair(plots.shares_plot(rows, pal, "task"), share_table(rows, "task", "tasks")))
    tags = [(t.tag, t.specification, t.capability, 0) for t in data.tags]
    if tags:
        parts.append("<h3>Per tag</h3><p class=muted>A failure with several tags counts under each.</p>")
        parts.append(pair(plots.shares_plot(tags, pal, "tag"), share_table(tags, "tag", "tag")))
    else:
        parts.append("<h3>Per tag</h3><p>No labelled failure yet.</p>")
    return "".join(parts) + "</section>"


def verdict_word(v: str) -> str:
    """A verdict with its symbol and class."""
    if v == "specification":
        return '<span class="spec">◆ specification</span>'
    if v == "capability":
        return '<span class="cap">▲ capability</span>'
    return esc(v)


def agreement_section(data: ReportData) -> str:
    """Kappa per pair with its interval, the confusion tables and the disagreements, or why hidden."""
    head = "<section id=agreement><h2>Reviewer agreement</h2>"
    ag = data.agreement
    if ag is None:
        why = "blind mode is on" if data.scope.blind else f"this report uses only {esc(data.scope.reviewer)}'s labels"
        return head + (f'<p class="note">Hidden: {why}, so no other reviewer\'s verdicts are shown. '
                       "<code>reviewer report --final</code> includes agreement, kappa and the disagreements.</p></section>")
    if not ag.pairs:
        return head + f"<p>{count(len(ag.reviewers), 'reviewer')}: agreement needs two who labelled the same failures.</p></section>"
    rows = []
    for pk in ag.pairs:
        p = pk.pair
        kappa = "—" if p.kappa is None else f"{p.kappa:.2f}"
        iv = "" if pk.low is None else f' <span class="muted">({pk.low:.2f} to {pk.high:.2f})</span>'
        pct = "—" if p.percent is None else percent1(p.percent / 100)
        rows.append(f"<tr><td>{esc(p.a)}</td><td>{esc(p.b)}</td><td class=num>{p.n}</td><td class=num>{pct}</td>"
                    f"<td class=num>{kappa}{iv}</td><td class=num>{p.ss}</td><td class=num>{p.sc}</td>"
                    f"<td class=num>{p.cs}</td><td class=num>{p.cc}</td></tr>")
    parts = [head, ("<p class=muted>Cohen's kappa over failures both decided; interval: 95%, Cohen's large-sample "
                    "standard error (too narrow below a few dozen failures). Confusion: first reviewer's verdict, then the "
                    "second's (s specification, c capability).</p>"),
             table(["reviewer a", "reviewer b", "both decided", "agree", "kappa (95% CI)", "s/s", "s/c", "c/s", "c/c"], rows, 2)]
    parts.append(f"<h3>Disagreements ({len(ag.disagreements)})</h3>")
    if ag.disagreements:
        body = []
        for d in ag.disagreements:
            said = "<br>".join(f"{esc(lab.reviewer)}: {verdict_word(lab.verdict.value)}" + (f" <span class=muted>— {esc(lab.note)}</span>" if lab.note else "")
                               for lab in d.labels)
            final = verdict_word(d.adjudicated.verdict.value) if d.adjudicated else '<span class="muted">not adjudicated</span>'
            body.append(f'<tr><td><span class="id">{esc(d.failure_id)}</span></td><td>{said}</td><td>{final}</td></tr>')
        parts.append(table(["failure", "verdicts", "adjudicated"], body))
    return "".join(parts) + "</section>"


def verifier_section(data: ReportData) -> str:
    """The verifier false-negative rate with its interval."""
    r = data.stats.verifier_fnr
    head = "<section id=verifier><h2>Verifier false-negative rate</h2>"
    if not r.runs or r.value is None:
        return head + "<p>No failing run is fully labelled yet.</p></section>"
    return head + (f'<p><b data-group="verifier_fnr" data-field="value" data-value="{r.value!r}" data-low="{r.low!r}" data-high="{r.high!r}">{percent1(r.value)}</b> '
                   f"(95% Wilson interval {percent1(r.low)} to {percent1(r.high)}): of {r.runs} failing runs whose every "
                   f"failure is labelled, {r.hits} failed only on checks labelled specification: the verifier rejected "
                   "them for things the brief never asked.</p></section>")


def predictor_section(data: ReportData, pal: plots.Palette) -> str:
    """Each predictor beside the flag-everything baseline."""
    if not data.scorecards:
        return ""
    f: Callable[[float | None], str] = percent1
    base = data.scorecards[0].score
    rows = [(f"<tr><td>flag every failure</td><td class=num>{f(base.baseline_precision)}</td>"
             f"<td class=num>{f(base.baseline_recall)}</td>"
             f"<td class=num>{'—' if base.baseline_f1 is None else f'{base.baseline_f1:.3f}'}</td><td class=num>—</td><td></td></tr>")]
    for card in data.scorecards:
        s = card.score
        diff = "—" if s.precision is None or s.baseline_precision is None else f"{round((s.precision - s.baseline_precision) * 100):+d} points"
        rows.append(f"<tr><td>{esc(card.name)}</td><td class=num>{f(s.precision)}</td><td class=num>{f(s.recall)}</td>"
                    f"<td class=num>{'—' if s.f1 is None else f'{s.f1:.3f}'}</td><td class=num>{diff}</td>"
                    f"<td class=num>tp {s.tp} · fp {s.fp} · fn {s.fn} · tn {s.tn}</td></tr>")
    side = table(["predictor", "precision", "recall", "F1", "precision vs baseline", "counts"], rows, 1)
    svg = plots.predictor_plot([(c.name, c.score) for c in data.scorecards], pal)
    return "<section id=predictors><h2>Predictor scorecards</h2>" + pair(svg, side) + "</section>"


def figure_cell(attrs: str, field: str, value: float | None, shown: str) -> str:
    """A numeric cell carrying its figure for scripts (``data-value`` left out when there is none)."""
    data_value = "" if value is None else f' data-value="{value!r}"'
    return f'<td class=num {attrs} data-field="{field}"{data_value}>{shown}</td>'


def judges_section(data: ReportData) -> str:
    """Each judge (``reviewer judge``) against the humans: kappa with its interval, precision and recall
    of specification, the confusion table, which way it errs, its coverage."""
    scores = data.stats.judges
    if not scores:
        return ""
    rows = []
    for j in scores:
        attrs = f'data-group="judges" data-judge="{esc(j.judge)}" data-against="{esc(j.against)}"'
        kappa = "—" if j.kappa is None else f"{j.kappa:.2f}"
        iv = "" if j.kappa_low is None else f'<span class="iv">{j.kappa_low:.2f} to {j.kappa_high:.2f}</span>'
        kappa_cell = (f'<td class=num {attrs} data-field="kappa"'
                      + ("" if j.kappa is None else f' data-value="{j.kappa!r}" data-low="{j.kappa_low!r}" data-high="{j.kappa_high!r}"')
                      + f">{kappa}{iv}</td>")
        errs = "no error" if not j.leans else "even" if j.leans == "neither" else f"blames {j.leans}"
        cover = f"{j.n}/{j.labelled}" + (f", {j.abstained} abstained" if j.abstained else "") + \
            (f", {j.stale} stale" if j.stale else "")
        rows.append(
            f"<tr><td>{esc(j.judge)}</td><td>{esc(j.against)}</td>"
            + figure_cell(attrs, "n", j.n, str(j.n))
            + figure_cell(attrs, "percent", None if j.percent is None else j.percent / 100,
                          "—" if j.percent is None else percent1(j.percent / 100))
            + kappa_cell
            + figure_cell(attrs, "precision", j.precision, percent1(j.precision))
            + figure_cell(attrs, "recall", j.recall, percent1(j.recall))
            + figure_cell(attrs, "recall_all", j.recall_all, percent1(j.recall_all))
            + "".join(figure_cell(attrs, f, getattr(j, f), str(getattr(j, f))) for f in ("ss", "sc", "cs", "cc"))
            + f"<td>{errs} <span class=muted>({j.sc} task / {j.cs} model)</span></td><td class=num>{cover}</td></tr>")
    intro = ("<p class=muted>Each judge (<code>reviewer judge</code>) against the humans, over the failures both decided. "
             "Kappa: Cohen's, with a 95% interval from its large-sample standard error (analytic; too narrow below a few "
             "dozen failures). Precision and recall of the judge's specification (and its recall of every failure the humans "
             "called specification, a failure it said nothing of counting as a miss). Confusion: the judge's verdict first, then "
             "the humans' (s specification, c capability). It blames the task where it says specification and the humans "
             "capability, the model where it says capability and the humans specification. Coverage: failures it decided "
             "over failures the humans decided (abstentions and predictions made before the failure changed count as "
             "undecided).</p>")
    head = ["judge", "against", "n", "agree", "kappa (95% CI)", "spec precision", "spec recall", "recall of all spec",
            "s/s", "s/c", "c/s", "c/c", "errs", "coverage"]
    return "<section id=judges><h2>Judges against the humans</h2>" + intro + table(head, rows, 2) + "</section>"


def rescore_section(data: ReportData) -> str:
    """What the saved re-scores did: checks flipped per task and model, and what they add."""
    rs = data.rescored
    if rs is None:
        return ""
    pr = data.stats.pass_rates
    o = pr.overall if pr else None
    added = o.rescored.hits - o.corrected.hits if o and o.rescored else 0
    head = (f"<section id=rescores><h2>Re-scores: only the notation repaired</h2><p><b data-group=rescores data-field=flipped "
            f'data-value="{rs.flipped}">{rs.flipped}</b> failing {plural("check", rs.flipped)} passed once the recorded program was re-graded in the '
            "sandbox with only the notation repaired (failing as recorded and in the control run, passing with the repairs). "
            f"{added} of them were not labelled specification: the re-scored column of the pass rates counts them as passes too. "
            "A re-score is evidence, not a label: <code>reviewer rescore</code> records it, a reviewer decides. "
            f"<span class=provenance>{esc(rs.provenance(data.scope.reviewer))}.</span></p>")
    body = []
    for t in rs.tally:
        attrs = f'data-group=rescores data-model="{esc(t.model)}" data-task="{esc(t.task)}"'
        broken = f'<td class="num down">{t.broken}</td>' if t.broken else '<td class="num">0</td>'
        body.append(f'<tr><td class="name">{esc(t.task)}<br><span class=muted>{esc(t.model)}</span></td>'
                    f"<td class=num>{t.gradings}</td><td class=num>{t.checks}</td>"
                    f"<td class=num {attrs} data-field=passing_before data-value={t.passing_before}>{t.passing_before}/{t.checks}</td>"
                    f"<td class=num {attrs} data-field=passing_after data-value={t.passing_after}>{t.passing_after}/{t.checks}</td>"
                    f"<td class=num {attrs} data-field=repaired data-value={t.repaired}>{t.repaired}</td>{broken}</tr>")
    note = ('<p class=muted>Per task and model, every check of the re-run gradings: passing as recorded, passing with the '
            "repairs, repaired (flipped to pass) and broken (passing as recorded, not with the repairs: a repair must never "
            "do that). The same rows as <code>reviewer stats --json</code> (<code>repaired_by_notation</code>).</p>")
    return head + note + table(["task / model", "gradings", "checks", "passing as recorded", "with the repairs", "repaired",
                                "broken"], body, 1) + "</section>"


def spec_section(data: ReportData) -> str:
    """The failures labelled specification."""
    head = f"<section id=specification><h2>Specification failures ({len(data.spec_failures)})</h2>"
    if not data.spec_failures:
        return head + "<p>None labelled yet.</p></section>"
    body = []
    for s in data.spec_failures:
        demands = "<br>".join(esc(d, 200) for d in s.demands) or '<span class="muted">none read from the check</span>'
        tags = ", ".join(esc(t) for t in s.tags) or "—"
        body.append(f"<tr><td>{esc(s.task)}<br><span class=muted>{esc(s.model)}</span></td>"
                    f'<td>{esc(s.check)}<div class="id">{esc(s.id)}</div></td><td>{demands}</td>'
                    f"<td>{esc(s.note) or '—'}</td><td>{tags}</td><td>{esc(s.rescore) or '<span class=muted>not re-scored</span>'}</td></tr>")
    intro = ("<p class=muted>Open one with <code>reviewer --failure ID</code>. &ldquo;Unstated&rdquo;: what the check demanded "
             "that the brief does not state, as the evidence read it.</p>")
    return head + intro + table(["task / model", "check and failure id", "unstated demands", "note", "tags", "re-score"], body) + "</section>"


def render(data: ReportData, generated: str, command: str) -> str:
    """The whole page."""
    pal = plots.palette()
    st = data.stats
    t = st.total
    sections = [pass_rate_section(data, pal), verdict_section(data, pal), agreement_section(data), verifier_section(data),
                predictor_section(data, pal), judges_section(data), rescore_section(data), spec_section(data)]
    toc = [("pass-rates", "Pass rates"), ("verdicts", "Verdicts per task and tag"), ("agreement", "Reviewer agreement"),
           ("verifier", "Verifier false-negative rate")] + ([("predictors", "Predictor scorecards")] if data.scorecards else [])
    toc += [("judges", "Judges against the humans")] if st.judges else []
    toc += [("rescores", "Re-scores")] if data.rescored else []
    toc.append(("specification", "Specification failures"))
    problems = []
    if data.load_errors:
        problems.append(f"{count(data.load_errors, 'file')} of the folder did not load: <code>reviewer check</code> lists them.")
    problems += [f"not read: {esc(e)}" for e in (*st.errors, *st.judge_problems)]
    if st.left_out:
        problems.append(f"{count(st.left_out, 'failure')} left out: reviewers disagree and nobody adjudicated.")
    if st.stale:
        problems.append(f"{count(st.stale, 'label')} {plural('is', st.stale)} stale (the evidence changed since) and {plural('counts', st.stale, 'count')} as unlabelled.")
    css = CSS.replace("SPEC", pal.specification).replace("CAP", pal.capability)
    return "".join([
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>",
        "<meta http-equiv=Content-Security-Policy content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">",
        "<meta name=viewport content=\"width=device-width, initial-scale=1\">",
        f"<title>Review report: {esc(data.folder)}</title><style>{css}</style></head><body>",
        f"<header><h1>Review report: {esc(data.folder)}</h1>",
        (f"<p class=muted>{count(data.runs, 'run')} · {count(t.failures, 'failure')} · {t.labelled} labelled · generated {esc(generated)} "
         f"by reviewer {esc(__version__)}: <code>{esc(command)}</code></p>"),
        f'<p class="{"note" if st.scope.reviewer else "muted"}">{esc(st.scope.describe())}.</p>',
        "".join(f'<p class="warn">{p}</p>' for p in problems),
        "<nav><ol>" + "".join(f'<li><a href="#{a}">{b}</a></li>' for a, b in toc) + "</ol></nav></header>",
        "".join(sections),
        ("<footer><p>Pass rate: checks passed over checks that ran (skipped checks left out). Corrected: failures labelled "
         "specification (the checker demanded what the brief never stated) count as passes. Intervals: 95% Wilson. "
         "The same figures as fractions: <code>reviewer stats --json</code> with the same options.</p></footer>"),
        "</body></html>\n",
    ])
