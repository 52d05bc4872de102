"""Judges' predictions on disk: ``<session>/predictions/<judge>.toml``, one file per judge and session.

Written like the re-score records: the folders made from the sessions root down refusing any link
on the way (:func:`reviewer.store.fs.nofollow.ensure_dir`), a lock on the folder, the file read
again and merged (a prediction on the same failure replaces the earlier one), then written whole
with :func:`reviewer.store.fs.atomic.atomic_write` through the project's one TOML writer, tables
sorted by run and check so the same predictions give the same bytes. A file that cannot be read
whole is never written over (:class:`PredictionsUnsafe`). Where the session folder is not writable
(the bundled examples) the file goes to the per-user data folder, as labels and re-scores do.

Reading treats every file as hostile: a link, a FIFO, a file over :data:`FILE_CAP`, bytes that
are not TOML, a table of the wrong shape, a session that is not the folder's, a ``judge`` key
naming another judge (counted as the file's own), two predictions on one failure (the newer
counts): each is a problem with the file, table and reason, never a crash, and what could be read
is used. The format is documented in ``sessions/README.md`` (Predictions).
"""

from __future__ import annotations

import math
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from reviewer.model.label import Verdict
from reviewer.model.prediction import (
    MAX_JUDGE_VERSION,
    Prediction,
    cut_rationale,
    judge_name_problem,
)
from reviewer.model.records import record
from reviewer.store.fs.atomic import atomic_write, clean_stale_temps, folder_lock
from reviewer.store.fs.nofollow import check_dir, ensure_dir
from reviewer.store.fs.paths import fallback_root, writable
from reviewer.store.fs.tomlfile import BadToml, parse_toml_bytes
from reviewer.store.fs.tomlfile import dumps as toml_dumps

PREDICTIONS_DIR = "predictions"
FORMAT = 1
FILE_CAP = 64 << 20
MAX_COMMAND = 2_000
FailureKey = tuple[str, str, str]


class PredictionsUnsafe(Exception):
    """A predictions file exists but cannot be read whole: it is not written over."""


@record
class PredictionSet:
    """Every judge's predictions of a folder's sessions, and what could not be read.

    Attributes:
        by_judge: per judge, its prediction (or abstention) on each failure, by (session, run, check).
        problems: one ``path: reason`` per file or table that could not be used.
    """

    by_judge: dict[str, dict[FailureKey, Prediction]]
    problems: tuple[str, ...] = ()

    @property
    def judges(self) -> tuple[str, ...]:
        """The judges with at least one prediction, by name."""
        return tuple(sorted(j for j, preds in self.by_judge.items() if preds))

    def on(self, key: FailureKey) -> tuple[Prediction, ...]:
        """Every judge's prediction on one failure, by judge."""
        return tuple(preds[key] for _, preds in sorted(self.by_judge.items()) if key in preds)


EMPTY = PredictionSet({})


def prediction_dir(root: Path, session: str) -> tuple[Path, Path, str]:
    """(trusted base, its folder for ``session``'s predictions, that folder relative to the base)."""
    inside = root / session / PREDICTIONS_DIR
    if writable(inside):
        return root, inside, f"{session}/{PREDICTIONS_DIR}"
    base = fallback_root(root)
    base.mkdir(parents=True, exist_ok=True)
    return base, base / session / PREDICTIONS_DIR, f"{session}/{PREDICTIONS_DIR}"


def prediction_path(root: Path, session: str, judge: str) -> Path:
    """Where ``judge``'s predictions of ``session`` are written."""
    return prediction_dir(root, session)[1] / f"{judge}.toml"


def prediction_table(p: Prediction) -> dict[str, Any]:
    """The ``[[prediction]]`` (or ``[[abstention]]``) table of one prediction, keys sorted.

    ``flagged`` repeats the verdict as ``reviewer score`` reads it, so a predictions file can be
    handed to ``reviewer score`` and ``reviewer report --predictions`` as it is."""
    t: dict[str, Any] = {
        "check": p.check, "command": p.command, "evidence": p.evidence, "judge_version": p.judge_version,
        "predicted_at": p.predicted_at, "rationale": p.rationale, "run": p.run, "seconds": round(p.seconds, 3),
        "session": p.session,
    }
    if p.verdict is not None:
        t["flagged"] = p.verdict is Verdict.SPECIFICATION
        t["verdict"] = p.verdict.value
    if p.confidence is not None:
        t["confidence"] = p.confidence
    return dict(sorted(t.items()))


def text_field(t: dict[str, Any], name: str, required: bool = False) -> str:
    """A string field of a table; ValueError naming it when it has the wrong type (or is missing)."""
    value = t.get(name, None)
    if value is None:
        if required:
            raise ValueError(f"lacks `{name}` (a non-empty string)")
        return ""
    if not isinstance(value, str) or (required and not value):
        raise ValueError(f"`{name}` must be a{' non-empty' if required else ''} string")
    return value


def prediction_from(t: Any, judge: str, abstained: bool) -> Prediction:
    """One table read back; ValueError (the reason) when it is not one this program writes."""
    if not isinstance(t, dict):
        raise ValueError("is not a table")
    session, run, check = (text_field(t, name, required=True) for name in ("session", "run", "check"))
    if abstained:
        verdict = None
        if "verdict" in t:
            raise ValueError("an abstention carries no `verdict`")
    else:
        word = t.get("verdict")
        if word not in (Verdict.SPECIFICATION.value, Verdict.CAPABILITY.value):
            raise ValueError(f"`verdict` is {str(word)[:40]!r}: want specification or capability")
        verdict = Verdict(word)
        flagged = t.get("flagged")
        if flagged is not None and flagged is not (verdict is Verdict.SPECIFICATION):
            raise ValueError(f"`flagged = {str(flagged).lower()}` contradicts `verdict = {word}`")
    confidence = t.get("confidence")
    if confidence is not None and (isinstance(confidence, bool) or not isinstance(confidence, (int, float))
                                   or not math.isfinite(confidence) or not 0 <= confidence <= 1):
        raise ValueError(f"`confidence` is {str(confidence)[:40]!r}: want a number from 0 to 1")
    seconds = t.get("seconds", 0.0)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
        raise ValueError("`seconds` must be a number")
    return Prediction(
        session, run, check, judge, verdict,
        None if confidence is None else float(confidence),
        cut_rationale(text_field(t, "rationale")), text_field(t, "predicted_at"),
        text_field(t, "command")[:MAX_COMMAND], text_field(t, "judge_version")[:MAX_JUDGE_VERSION],
        text_field(t, "evidence"), float(seconds),
    )


def read_doc(path: Path) -> dict[str, Any] | None:
    """A predictions file's document (None when there is none); PredictionsUnsafe when it cannot be read."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise PredictionsUnsafe(f"{path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise PredictionsUnsafe(f"{path}: not a regular file (a link, a folder or a device is never read)")
    if st.st_size > FILE_CAP:
        raise PredictionsUnsafe(f"{path}: over {FILE_CAP >> 20} MiB ({st.st_size:,} bytes), not read")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            data = fh.read(FILE_CAP + 1)
    except OSError as exc:
        raise PredictionsUnsafe(f"{path}: {exc.strerror or exc}") from None
    try:
        doc = parse_toml_bytes(data)
    except BadToml as exc:
        raise PredictionsUnsafe(f"{path} {exc}") from None
    fmt = doc.get("format")
    if isinstance(fmt, int) and not isinstance(fmt, bool) and fmt > FORMAT:
        raise PredictionsUnsafe(f"{path}: written in predictions format {fmt} by a newer reviewer (this one reads {FORMAT})")
    if fmt != FORMAT:
        raise PredictionsUnsafe(f"{path}: not a format-{FORMAT} predictions file (`format = {FORMAT}` missing)")
    for name in ("prediction", "abstention"):
        if not isinstance(doc.get(name, []), list):
            raise PredictionsUnsafe(f"{path}: `{name}` is not an array of tables")
    return doc


def owner(doc: dict[str, Any], path: Path, problems: list[str]) -> str:
    """Whose predictions a file holds: its file name's judge. A ``judge`` key naming another is
    reported and ignored (a received ``mallory.toml`` may claim to be anyone's)."""
    claimed = doc.get("judge")
    if claimed is not None and claimed != path.stem:
        problems.append(f"{path}: says it holds judge {str(claimed)[:60]!r}'s predictions, but that judge's file would be "
                        f"{str(claimed)[:60]}.toml: counted as {path.stem}'s")
    return path.stem


def entries_of(doc: dict[str, Any], path: Path, session: str, judge: str) -> tuple[list[Prediction], list[str]]:
    """Every usable prediction of a file's document, and one problem per table that is not."""
    out: list[Prediction] = []
    problems: list[str] = []
    for name, abstained in (("prediction", False), ("abstention", True)):
        for n, t in enumerate(doc.get(name, []), start=1):
            try:
                p = prediction_from(t, judge, abstained)
            except ValueError as exc:
                problems.append(f"{path}: {name} {n} {exc}")
                continue
            if p.session != session:
                problems.append(f"{path}: {name} {n} names session {p.session[:60]!r}, not {session!r} whose folder "
                                "holds it: not used")
                continue
            out.append(p)
    return out, problems


def read_file(path: Path, session: str) -> tuple[str, list[Prediction], list[str]]:
    """(judge, predictions, problems) of one file; a file that cannot be read is one problem."""
    problems: list[str] = []
    why = judge_name_problem(path.stem)
    if why:
        return "", [], [f"{path}: the file name is not a judge's: {why}; not read"]
    try:
        doc = read_doc(path)
    except PredictionsUnsafe as exc:
        return path.stem, [], [str(exc)]
    judge = owner(doc or {}, path, problems)
    found, bad = entries_of(doc or {}, path, session, judge)
    return judge, found, problems + bad


def folders(root: Path, session: str, problems: list[str]) -> list[Path]:
    """The session's predictions folders (in the folder and in the per-user fallback) that exist."""
    out = []
    for base in (root, fallback_root(root)):
        try:
            out.append(check_dir(base, f"{session}/{PREDICTIONS_DIR}"))
        except FileNotFoundError:
            continue
        except OSError as exc:
            problems.append(str(exc))
    return list(dict.fromkeys(out))


def read_predictions(root: Path, sessions: list[str] | tuple[str, ...]) -> PredictionSet:
    """Every judge's predictions of ``sessions`` and the problems met; two predictions of one judge
    on one failure: the newer counts, and it is a problem."""
    by_judge: dict[str, dict[FailureKey, Prediction]] = {}
    problems: list[str] = []
    for session in sessions:
        for folder in folders(Path(root), session, problems):
            try:
                paths = sorted(p for p in folder.iterdir() if p.suffix == ".toml" and not p.name.startswith("."))
            except OSError as exc:
                problems.append(f"{folder}: {exc.strerror or exc}")
                continue
            for path in paths:
                judge, found, bad = read_file(path, session)
                problems += bad
                mine = by_judge.setdefault(judge, {}) if judge else {}
                for p in found:
                    seen = mine.get(p.key)
                    if seen is not None:
                        problems.append(f"{path}: two predictions of {judge} on {p.failure_id} "
                                        f"({seen.predicted_at or 'no time'} and {p.predicted_at or 'no time'}): the newer counts")
                        if seen.predicted_at > p.predicted_at:
                            continue
                    mine[p.key] = p
    return PredictionSet({j: preds for j, preds in by_judge.items() if preds}, tuple(problems))


def dumps(doc: dict[str, Any]) -> bytes:
    """TOML that reads back exactly (multi-line strings unless a carriage return forbids them)."""
    for multiline in (True, False):
        text = toml_dumps(doc, multiline=multiline)
        try:
            if tomllib.loads(text) == doc:
                return text.encode("utf-8")
        except (tomllib.TOMLDecodeError, ValueError):
            continue
    return toml_dumps(doc).encode("utf-8")


def file_bytes(judge: str, predictions: list[Prediction]) -> bytes:
    """A whole predictions file: predictions and abstentions, each sorted by run and check."""
    ordered = sorted(predictions, key=lambda p: (p.run, p.check))
    doc: dict[str, Any] = {"format": FORMAT, "judge": judge}
    made = [prediction_table(p) for p in ordered if p.verdict is not None]
    abstained = [prediction_table(p) for p in ordered if p.verdict is None]
    if made:
        doc["prediction"] = made
    if abstained:
        doc["abstention"] = abstained
    return dumps(doc)


def save_predictions(root: Path, judge: str, predictions: list[Prediction]) -> list[Path]:
    """Merge ``predictions`` (one judge's) into each session's file of that judge; the files written.

    Raises PredictionsUnsafe (a file that cannot be read whole, or holds a table this program
    would not write: it is never written over) or OSError (a link on the way, a full disk).
    """
    why = judge_name_problem(judge)
    if why:
        raise ValueError(why)
    by_session: dict[str, list[Prediction]] = {}
    for p in predictions:
        if p.judge != judge:
            raise ValueError(f"a prediction of {p.judge} given to save as {judge}'s")
        by_session.setdefault(p.session, []).append(p)
    written = []
    for session, preds in sorted(by_session.items()):
        base, _, rel = prediction_dir(Path(root), session)
        folder = ensure_dir(base, rel)
        path = folder / f"{judge}.toml"
        with folder_lock(folder):
            clean_stale_temps(folder)
            doc = read_doc(path)
            merged: dict[tuple[str, str], Prediction] = {}
            if doc is not None:
                found, bad = entries_of(doc, path, session, judge)
                if bad:
                    raise PredictionsUnsafe(f"{bad[0]}; the file is not written over until it is repaired")
                merged = {(p.run, p.check): p for p in found}
            for p in preds:
                merged[(p.run, p.check)] = p
            atomic_write(path, file_bytes(judge, list(merged.values())))
        written.append(path)
    return written
