"""The Scout and Docent exports read back by the tools' own readers, against a log Inspect itself wrote.

Inspect runs a three-sample task on its offline ``mockllm`` model (two samples fail); reviewer
imports the log, two failures are labelled (one note hostile), and then:

- Scout reads the validation set with ``validation_set`` and picks, from the transcripts *it*
  reads out of the same log, exactly the labelled samples (``Transcripts.for_validation``): the
  ids match, for a log whose samples carry a ``uuid`` and for one whose samples do not (Scout
  then derives the id from the eval id, sample id and epoch, and so does the export);
- Docent's meta-schema accepts the label set's schema, every label value validates against it,
  each label's ``match`` finds exactly one of the agent runs Docent's Inspect loader makes of the
  log, and Docent's ``Label`` model takes the result.

Skipped unless ``inspect_ai``, ``inspect_scout`` and ``docent`` are installed (``pip install
'.[interop]'``; see pyproject.toml for why docent goes in with ``--no-deps``).
"""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path

import pytest

from reviewer.cli import main

pytest.importorskip("inspect_ai")
pytest.importorskip("inspect_scout")

HOSTILE_NOTE = '=cmd|" /C calc"!A0\x1b]0;PWNED\x07 red,\n"quoted" \\'


def inspect_log(folder: Path) -> Path:
    """A real Inspect log: samples pass, spec and cap on ``mockllm``; spec and cap are scored incorrect."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer
    from inspect_ai.solver import TaskState, generate

    @scorer(metrics=[accuracy()])
    def verdict():  # type: ignore[no-untyped-def]
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=CORRECT if state.sample_id == "pass" else INCORRECT, explanation=f"checked {state.sample_id}")

        return score

    task = Task(dataset=[Sample(id=i, input=f"write {i}") for i in ("pass", "spec", "cap")], solver=generate(), scorer=verdict())
    # the outputs carry their usage: mockllm would otherwise count tokens with an encoding it downloads
    outputs = [ModelOutput.from_content("mockllm/model", "done") for _ in range(3)]
    for output in outputs:
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    model = get_model("mockllm/model", custom_outputs=outputs)
    logs = inspect_eval(task, model=model, log_dir=str(folder), display="none")
    assert logs[0].status == "success"
    return Path(logs[0].location)


def without_uuids(log: Path, out: Path) -> Path:
    """The same log with every sample's ``uuid`` removed, as logs written before Inspect had them."""
    from inspect_ai.log import read_eval_log, write_eval_log

    doc = read_eval_log(str(log))
    for sample in doc.samples or []:
        sample.uuid = None
    write_eval_log(doc, str(out))
    return out


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def labelled_export(capsys: pytest.CaptureFixture[str], log: Path, work: Path, fmt: str) -> Path:
    """Import ``log``, label spec (specification, hostile note) and cap (capability), export as ``fmt``."""
    sessions = work / "sessions"
    assert run_cli(capsys, "import", "inspect", str(log), "--into", str(sessions), "--session", "ev")[0] == 0
    for sample, verdict, note in (("spec", "specification", HOSTILE_NOTE), ("cap", "capability", "")):
        code, _, err = run_cli(capsys, "label", str(sessions), "--failure", f"ev/{sample}-epoch-1#verdict:score",
                               "--verdict", verdict, "--reviewer", "alice", "--note", note)
        assert code == 0, err
    out = work / ("verdicts.csv" if fmt == "scout" else "verdicts.json")
    code, _, err = run_cli(capsys, "export", str(sessions), "--format", fmt, "-o", str(out))
    assert code == 0, err
    return out


def scout_matches(log: Path, validation: Path) -> list[tuple[str, str | None, int | None]]:
    """(transcript id, sample id, epoch) of the transcripts Scout picks from ``log`` for ``validation``."""
    from inspect_scout import transcripts_from

    async def index() -> list[tuple[str, str | None, int | None]]:
        async with transcripts_from(str(log)).for_validation(str(validation)).reader() as reader:
            return [(info.transcript_id, info.task_id, info.task_repeat) async for info in reader.index()]

    return asyncio.run(index())


@pytest.mark.parametrize("uuids", [True, False], ids=["sample-uuids", "no-uuids"])
def test_scout_reads_the_validation_set_and_matches_its_transcripts(tmp_path: Path, capsys: pytest.CaptureFixture[str], uuids: bool) -> None:
    from inspect_scout import validation_set

    log = inspect_log(tmp_path / "logs")
    if not uuids:
        log = without_uuids(log, tmp_path / "old.eval")
    path = labelled_export(capsys, log, tmp_path, "scout")
    targets = {c.id: c.target for c in validation_set(str(path)).cases}
    picked = scout_matches(log, path)
    # Scout's own transcripts of the log, picked by the set's ids: the two labelled samples, each with its verdict
    assert sorted((task, repeat, targets[transcript]) for transcript, task, repeat in picked) == [
        ("cap", 1, False), ("spec", 1, True)]
    assert len(targets) == 2
    with path.open(newline="") as f:
        assert "\x1b" not in f.read()


def test_docent_takes_the_label_set_and_each_label_finds_its_agent_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("docent")
    import jsonschema
    from docent.data_models.judge import Label
    from docent.judges.util.meta_schema import validate_judge_result_schema
    from docent.loaders.load_inspect import runs_from_file

    log = inspect_log(tmp_path / "logs")
    doc = json.loads(labelled_export(capsys, log, tmp_path, "docent").read_text())
    schema = doc["label_set"]["label_schema"]
    validate_judge_result_schema(schema)
    with log.open("rb") as f:
        _, runs = runs_from_file(f, format="eval")
        agent_runs = list(runs)
    assert len(agent_runs) == 3
    labels = []
    for entry in doc["labels"]:
        jsonschema.validate(entry["label_value"], schema)
        match = entry["match"]
        found = [r for r in agent_runs if str(r.metadata["sample_id"]) == match["sample_id"] and r.metadata["epoch"] == match["epoch"]]
        assert len(found) == 1, match
        assert entry["agent_run_id"] is None  # Docent assigns it at ingestion
        labels.append(Label(label_set_id="set", agent_run_id=found[0].id, label_value=entry["label_value"]))
    by_sample = {lab.label_value["label"]: next(r for r in agent_runs if r.id == lab.agent_run_id).metadata["sample_id"] for lab in labels}
    assert by_sample == {"specification": "spec", "capability": "cap"}
    spec = next(lab for lab in labels if lab.label_value["label"] == "specification")
    assert spec.label_value["checks"][0]["note"] == HOSTILE_NOTE
    assert Label.model_validate_json(spec.model_dump_json()).label_value == spec.label_value


def test_the_scout_csv_is_plain_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same file through the stdlib: the header Scout's docs show, booleans as Scout writes them."""
    log = inspect_log(tmp_path / "logs")
    with labelled_export(capsys, log, tmp_path, "scout").open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["id", "target", "task_id", "task_repeat"]
    assert sorted(r[1:] for r in rows[1:]) == [["false", "cap", "1"], ["true", "spec", "1"]]
