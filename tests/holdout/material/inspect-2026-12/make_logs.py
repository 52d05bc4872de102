"""Produce one Inspect .eval log per recorded program (run with the Inspect venv).

usage: python make_logs.py PYTHON_BIN_DIR
PYTHON_BIN_DIR holds a `python` with pytest (it is put first on the grader's PATH).
Every machine path is scrubbed from the log afterwards (through inspect_ai's own
reader and writer): the sandbox folder becomes /work/run, PYTHON_BIN_DIR
/opt/venv/bin, this folder /work/holdout/material/inspect-2026-12.
"""
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.model import ModelOutput, ModelUsage, get_model

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from inspect_task import shortest_path  # noqa: E402


def scrub_text(text, replacements):
    for old, new in replacements:
        text = text.replace(old, new)
    # any local sandbox or temp folder that was not named above
    text = re.sub(r"/tmp/[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)*", "/work/run", text)
    return text


def main():
    bin_dir = os.path.abspath(sys.argv[1])
    runs = sorted(p for p in (HERE / "runs").iterdir() if p.is_dir())
    out_dir = HERE / "logs"
    out_dir.mkdir(exist_ok=True)
    for run in runs:
        model_name = run.name.split("--", 1)[1]
        program = (run / "code" / "shortest.py").read_text()
        outputs = [
            ModelOutput.for_tool_call(model="mockllm/" + model_name, tool_name="write_file",
                                      tool_arguments={"path": "shortest.py", "content": program},
                                      tool_call_id="call_1",
                                      content="I'll write the program to shortest.py."),
            ModelOutput.from_content(model="mockllm/" + model_name,
                                     content="I saved shortest.py: it reads the roads from standard input and prints distance= and path=."),
        ]
        # canned usage (rough counts: four characters a token), so Inspect does
        # not try to fetch a tokenizer to count them
        brief_tokens = len((HERE / "briefs" / "shortest-path.md").read_text()) // 4 + 40
        for i, out in enumerate(outputs):
            produced = len(program) // 4 if i == 0 else 25
            used_in = brief_tokens + (len(program) // 4 + 20 if i else 0)
            out.usage = ModelUsage(input_tokens=used_in, output_tokens=produced,
                                   total_tokens=used_in + produced)
        model = get_model("mockllm/" + model_name, custom_outputs=outputs)
        with tempfile.TemporaryDirectory() as tmp:
            logs = inspect_eval(shortest_path(grader_path=bin_dir + os.pathsep + "/usr/bin:/bin"),
                                model=model, log_dir=tmp, display="none", log_format="eval")
            log = logs[0]
            raw = read_eval_log(log.location)
            replacements = [(bin_dir, "/opt/venv/bin"), (str(HERE), "/work/holdout/material/inspect-2026-12"),
                            (str(Path.home()), "/home/user"), (tmp, "/work/logs")]
            text = scrub_text(raw.model_dump_json(), replacements)
            clean = EvalLog.model_validate_json(text)
            target = out_dir / f"{run.name}.eval"
            clean.location = str(target)
            write_eval_log(clean, str(target))
            meta = json.loads(text)
            print(run.name, meta["status"], [s.get("scores") and list(s["scores"].values())[0]["value"] for s in meta.get("samples") or []])


if __name__ == "__main__":
    main()
