"""Write the ATIF fixtures beside this script with Harbor's own models and writers.

    python tests/importers/atif/make_fixtures.py [--out DIR]

Every trajectory is built with ``harbor.models.trajectories`` (so Harbor's validators accept
it) and written with Harbor's ``format_trajectory_json``; every trial ``result.json`` is a
``harbor.models.trial.result.TrialResult`` written as Harbor's trial writes it
(``model_dump_json(indent=4)``). The ``harbor`` package needs Python 3.12 or newer; its models
need only ``pydantic``, ``toml`` and ``shortuuid``, so a Python 3.12 environment with
``pip install --no-deps harbor`` and those three runs this script. The written files are
committed; ``tests/importers/test_import_atif_fixtures.py`` runs this script again where
Harbor imports and compares.

The fixtures, one of each version 1.4-1.7 in a Harbor job folder (``job/<trial>/``) and two
trajectories outside any trial (``single/``):

- ``job/fix-csv-parser__Bn4kPq2``: ATIF-v1.4, OpenHands-like (``execute_bash``,
  ``str_replace_editor`` create and edits, ``finish``; token ids and logprobs in the metrics);
  the verifier's reward is 0 (a failing pytest run);
- ``job/long-task__Tm3vYy9``: ATIF-v1.5, Terminus-2-like (``bash_command`` keystrokes, tool
  definitions), summarised mid-run: a summarisation subagent in its own file
  (``trajectory_path``) and a continuation segment (``continued_trajectory_ref``) whose
  first steps are copied context; rewards in ``verifier/reward.json`` (no ``result.json``);
- ``job/sum-column__Zt8wRr1``: ATIF-v1.6, Codex-like (``shell`` with ``[bash, -lc, ...]``,
  ``apply_patch``), an image in the instruction and in an observation (content parts); the
  trial timed out before the verifier ran (``exception_info``, no rewards);
- ``job/hello-world__Qx7cLdA``: ATIF-v1.7, Claude Code-like (``Bash``, ``Write``, ``Edit``,
  ``Read``, a ``Task`` delegated to an embedded subagent), ``llm_call_count``, tool-call and
  observation ``extra``, a context compaction step; reward 1;
- ``single/mini-swe-agent__django-11099.json``: ATIF-v1.7 as Harbor converts mini-swe-agent,
  ending with the submit command whose output is the patch; no trial, outcome unknown;
- ``single/voice-notes.json``: ATIF-v1.8, an audio part (newer than the versions asked for:
  the reader's forward reading).
"""

from __future__ import annotations

import argparse
import io
import json
import struct
import sys
import wave
import zlib
from datetime import datetime, timezone
from pathlib import Path
from uuid import UUID

from harbor.models.task.id import LocalTaskId
from harbor.models.trajectories import (
    Agent,
    AudioSource,
    ContentPart,
    FinalMetrics,
    ImageSource,
    Metrics,
    Observation,
    ObservationResult,
    Step,
    SubagentTrajectoryRef,
    ToolCall,
    Trajectory,
)
from harbor.models.trial.config import AgentConfig, TaskConfig, TrialConfig
from harbor.models.trial.result import AgentInfo, ExceptionInfo, ModelInfo, TimingInfo, TrialResult
from harbor.models.verifier.result import VerifierResult
from harbor.utils.trajectory_utils import format_trajectory_json

HERE = Path(__file__).resolve().parent
JOB = "job"
JOB_ID = UUID(int=0x2026_0105_1000)


def at(minute: int, second: int = 0) -> str:
    """A fixed ISO 8601 timestamp on the job's day."""
    return f"2026-01-05T10:{minute:02d}:{second:02d}Z"


def when(minute: int) -> datetime:
    """The same instant as a datetime."""
    return datetime(2026, 1, 5, 10, minute, 0, tzinfo=timezone.utc)


def call(call_id: str, name: str, **arguments: object) -> ToolCall:
    """A tool call."""
    return ToolCall(tool_call_id=call_id, function_name=name, arguments=arguments)


def result(call_id: str | None, content: str | list[ContentPart]) -> ObservationResult:
    """An observation result answering ``call_id``."""
    return ObservationResult(source_call_id=call_id, content=content)


def observed(*results: ObservationResult) -> Observation:
    """An observation."""
    return Observation(results=list(results))


def trial_result(task: str, trial: str, agent: AgentInfo, model: str, n: int, rewards: dict[str, float] | None,
                 exception: ExceptionInfo | None = None) -> TrialResult:
    """A trial's ``result.json`` as Harbor's trial writes it."""
    config = TrialConfig(task=TaskConfig(path=Path("tasks") / task), trial_name=trial, trials_dir=Path("jobs/2026-01-05__10-00-00"),
                         agent=AgentConfig(name=agent.name, model_name=model), job_id=JOB_ID)
    return TrialResult(
        id=UUID(int=n), task_name=task, trial_name=trial, trial_uri=f"file:///jobs/2026-01-05__10-00-00/{trial}",
        task_id=LocalTaskId(path=Path("tasks") / task), task_checksum=f"sha256:{n:064x}", config=config, agent_info=agent,
        verifier_result=VerifierResult(rewards=rewards) if rewards is not None else None, exception_info=exception,
        started_at=when(0), finished_at=when(9), agent_execution=TimingInfo(started_at=when(1), finished_at=when(7)),
    )


# ---- ATIF-v1.4: OpenHands-like -------------------------------------------------------------

CSV_TASK = "The CSV parser in csvkit/reader.py splits quoted fields that contain commas. Fix it so that\n`parse_line('a,\"b,c\",d')` returns `['a', 'b,c', 'd']`, and add a test in tests/test_reader.py."


def openhands() -> Trajectory:
    """Version 1.4: OpenHands' event log as Harbor converts it."""
    return Trajectory(
        schema_version="ATIF-v1.4",
        session_id="8f0c2f0e-3c7a-4b59-9d9e-2f4b1c6a0d11",
        agent=Agent(name="openhands", version="0.59.0", model_name="openai/gpt-5", extra={"agent_class": "CodeActAgent"}),
        steps=[
            Step(step_id=1, timestamp=at(1), source="system", message="You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks."),
            Step(step_id=2, timestamp=at(1, 5), source="user", message=CSV_TASK),
            Step(step_id=3, timestamp=at(1, 20), source="agent", model_name="openai/gpt-5", message="Let me look at the reader first.",
                 reasoning_content="The split is probably a plain str.split(',').",
                 tool_calls=[call("call_1", "execute_bash", command="sed -n 1,40p csvkit/reader.py", is_input="false")],
                 observation=observed(result("call_1", "def parse_line(line):\n    return line.split(',')\n")),
                 metrics=Metrics(prompt_tokens=1812, completion_tokens=64, cached_tokens=1024, cost_usd=0.0031,
                                 prompt_token_ids=[101, 2023, 2003, 1037], completion_token_ids=[2292, 2033], logprobs=[-0.12, -0.5])),
            Step(step_id=4, timestamp=at(2, 10), source="agent", model_name="openai/gpt-5", message="I will use the csv module.",
                 tool_calls=[call("call_2", "str_replace_editor", command="str_replace", path="/workspace/csvkit/reader.py",
                                  old_str="    return line.split(',')\n", new_str="    return next(csv.reader([line]))\n")],
                 observation=observed(result("call_2", "The file /workspace/csvkit/reader.py has been edited.")),
                 metrics=Metrics(prompt_tokens=1990, completion_tokens=120, cached_tokens=1800, cost_usd=0.0022)),
            Step(step_id=5, timestamp=at(3), source="agent", model_name="openai/gpt-5", message="Now the test.",
                 tool_calls=[call("call_3", "str_replace_editor", command="create", path="/workspace/tests/test_reader.py",
                                  file_text="from csvkit.reader import parse_line\n\n\ndef test_quoted_comma():\n    assert parse_line('a,\"b,c\",d') == ['a', 'b,c', 'd']\n")],
                 observation=observed(result("call_3", "File created successfully at: /workspace/tests/test_reader.py")),
                 metrics=Metrics(prompt_tokens=2150, completion_tokens=98, cached_tokens=1990, cost_usd=0.0019)),
            Step(step_id=6, timestamp=at(3, 30), source="agent", model_name="openai/gpt-5", message="Rename the test to match the issue number.",
                 tool_calls=[call("call_4", "str_replace_editor", command="str_replace", path="/workspace/tests/test_reader.py",
                                  old_str="def test_quoted_comma():", new_str="def test_quoted_comma_issue_42():")],
                 observation=observed(result("call_4", "The file /workspace/tests/test_reader.py has been edited.")),
                 metrics=Metrics(prompt_tokens=2260, completion_tokens=40, cached_tokens=2150, cost_usd=0.0008)),
            Step(step_id=7, timestamp=at(4), source="agent", model_name="openai/gpt-5", message="Running the tests.",
                 tool_calls=[call("call_5", "execute_bash", command="python -m pytest -q tests/test_reader.py")],
                 observation=observed(result("call_5", "E   NameError: name 'csv' is not defined\n1 failed in 0.04s")),
                 metrics=Metrics(prompt_tokens=2310, completion_tokens=30, cached_tokens=2260, cost_usd=0.0006)),
            Step(step_id=8, timestamp=at(4, 40), source="agent", model_name="openai/gpt-5", message="The fix is in place.",
                 tool_calls=[call("call_6", "finish", message="Fixed parse_line to respect quotes.", task_completed="true")],
                 metrics=Metrics(prompt_tokens=2400, completion_tokens=25, cached_tokens=2310, cost_usd=0.0005)),
        ],
        final_metrics=FinalMetrics(total_prompt_tokens=12922, total_completion_tokens=377, total_cached_tokens=11534, total_cost_usd=0.0091, total_steps=8),
    )


CSV_STDOUT = """\
============================= test session starts ==============================
collected 3 items

tests/test_outputs.py::test_plain_line PASSED                            [ 33%]
tests/test_outputs.py::test_quoted_comma FAILED                          [ 66%]
tests/test_outputs.py::test_agent_test_exists PASSED                     [100%]

=================================== FAILURES ===================================
______________________________ test_quoted_comma _______________________________
    def test_quoted_comma():
>       assert parse_line('a,"b,c",d') == ['a', 'b,c', 'd']
E       NameError: name 'csv' is not defined

csvkit/reader.py:2: NameError
=========================== short test summary info ============================
FAILED tests/test_outputs.py::test_quoted_comma - NameError: name 'csv' is not defined
========================= 1 failed, 2 passed in 0.21s ==========================
"""


# ---- ATIF-v1.5: Terminus-2-like, summarised into a continuation ---------------------------

LONG_TASK = "Build the project in /app with `make`, fix whatever stops the build, and make `make test` pass."
KEYSTROKES_TOOL = {"type": "function", "function": {"name": "bash_command", "description": "Send keystrokes to the terminal",
                                                    "parameters": {"type": "object", "properties": {"keystrokes": {"type": "string"}, "duration": {"type": "number"}},
                                                                   "required": ["keystrokes"]}}}
TERMINUS = Agent(name="terminus-2", version="2.0.0", model_name="anthropic/claude-opus-4-1", tool_definitions=[KEYSTROKES_TOOL], extra={"parser": "json"})


def keys(call_id: str, text: str) -> ToolCall:
    """A Terminus keystroke command."""
    return call(call_id, "bash_command", keystrokes=text, duration=1.0)


def terminus_early() -> list[Step]:
    """The steps before the summarisation (copied into the continuation)."""
    return [
        Step(step_id=1, timestamp=at(1), source="user", message=LONG_TASK),
        Step(step_id=2, timestamp=at(1, 30), source="agent", message="Run the build to see what fails.",
             tool_calls=[keys("call_0_1", "cd /app && make\n")],
             observation=observed(result("call_0_1", "gcc -c src/main.c\nsrc/main.c:3:10: fatal error: util.h: No such file or directory\nmake: *** [Makefile:4: main.o] Error 1")),
             metrics=Metrics(prompt_tokens=900, completion_tokens=60, cost_usd=0.012)),
        Step(step_id=3, timestamp=at(2, 30), source="agent", message="The header lives in include/; add it to CFLAGS.",
             tool_calls=[keys("call_1_1", "sed -i 's/^CFLAGS =/CFLAGS = -Iinclude/' Makefile && make\n")],
             observation=observed(result("call_1_1", "gcc -Iinclude -c src/main.c\ngcc -o app main.o util.o")),
             metrics=Metrics(prompt_tokens=1300, completion_tokens=70, cost_usd=0.016)),
    ]


def terminus() -> tuple[Trajectory, Trajectory, Trajectory]:
    """Version 1.5: the first segment, the summarisation subagent and the continuation."""
    summary_ref = SubagentTrajectoryRef(session_id="tm3v-summarization-1-summary", trajectory_path="trajectory.summarization-1-summary.json",
                                        extra={"summary": "Context summarization 1: Step 1 - Summary generation"})
    first = Trajectory(
        schema_version="ATIF-v1.5", session_id="tm3v", agent=TERMINUS,
        steps=[*terminus_early(),
               Step(step_id=4, timestamp=at(3), source="system", message="Performed context summarization and handoff to continue task.",
                    observation=observed(ObservationResult(subagent_trajectory_ref=[summary_ref])))],
        continued_trajectory_ref="trajectory.cont-1.json",
        final_metrics=FinalMetrics(total_prompt_tokens=2200, total_completion_tokens=130, total_cost_usd=0.028),
    )
    summary = Trajectory(
        schema_version="ATIF-v1.5", session_id="tm3v-summarization-1-summary",
        agent=Agent(name="terminus-2-summarization-summary", version="2.0.0", model_name="anthropic/claude-opus-4-1",
                    extra={"parent_session_id": "tm3v", "summarization_index": 1}),
        steps=[Step(step_id=1, timestamp=at(3), source="user", message="Summarise what you have done so far for the next agent."),
               Step(step_id=2, timestamp=at(3, 10), source="agent", message="The build now passes after adding -Iinclude to CFLAGS; `make test` has not been run yet.",
                    metrics=Metrics(prompt_tokens=1500, completion_tokens=40, cost_usd=0.01))],
        final_metrics=FinalMetrics(total_prompt_tokens=1500, total_completion_tokens=40, total_cost_usd=0.01),
    )
    copied = [s.model_copy(update={"is_copied_context": True}) for s in terminus_early()]
    cont = Trajectory(
        schema_version="ATIF-v1.5", session_id="tm3v-cont-1", agent=TERMINUS.model_copy(update={"extra": {"parser": "json", "continuation_index": 1}}),
        steps=[*copied,
               Step(step_id=4, timestamp=at(3, 20), source="user", message="Summary from the previous agent: the build passes; run `make test` next."),
               Step(step_id=5, timestamp=at(4), source="agent", message="Run the tests.",
                    tool_calls=[keys("call_2_1", "make test\n")],
                    observation=observed(result("call_2_1", "./run_tests.sh\ntest_add ... ok\ntest_div ... FAIL (division by zero)\n3 passed, 1 failed")),
                    metrics=Metrics(prompt_tokens=1100, completion_tokens=50, cost_usd=0.013)),
               Step(step_id=6, timestamp=at(5), source="agent", message="Only test_div fails and it is an upstream bug; I am done.",
                    metrics=Metrics(prompt_tokens=1200, completion_tokens=30, cost_usd=0.012))],
        final_metrics=FinalMetrics(total_prompt_tokens=2300, total_completion_tokens=80, total_cost_usd=0.025),
    )
    return first, summary, cont


LONG_STDOUT = "make test\ntest_add ... ok\ntest_sub ... ok\ntest_mul ... ok\ntest_div ... FAIL (division by zero)\n"


# ---- ATIF-v1.6: Codex-like, multimodal ------------------------------------------------------

CHART_TASK = "The chart below shows the expected totals. Write sum_column.py so that `python sum_column.py data.csv price` prints the sum of the `price` column."


def codex() -> Trajectory:
    """Version 1.6: Codex's rollout as Harbor converts it, with images in content parts."""
    return Trajectory(
        schema_version="ATIF-v1.6",
        session_id="0199a0f1-codex-zt8w",
        agent=Agent(name="codex", version="0.46.0", model_name="gpt-5-codex", extra={"reasoning_effort": "medium"}),
        steps=[
            Step(step_id=1, timestamp=at(1), source="user", message=[
                ContentPart(type="text", text=CHART_TASK),
                ContentPart(type="image", source=ImageSource(media_type="image/png", path="images/expected_totals.png"))]),
            Step(step_id=2, timestamp=at(1, 40), source="agent", model_name="gpt-5-codex", message="", reasoning_content="Look at the data first.",
                 tool_calls=[call("call_a1", "shell", command=["bash", "-lc", "head -3 data.csv"], workdir="/app", timeout_ms=10000)],
                 observation=observed(result("call_a1", "item,price\napple,1.50\npear,2.25")),
                 metrics=Metrics(prompt_tokens=3400, completion_tokens=90, cached_tokens=3000, extra={"reasoning_output_tokens": 64})),
            Step(step_id=3, timestamp=at(2, 30), source="agent", model_name="gpt-5-codex", message="Writing the script.",
                 tool_calls=[call("call_a2", "apply_patch", input="*** Begin Patch\n*** Add File: sum_column.py\n+import csv, sys\n+\n+path, column = sys.argv[1], sys.argv[2]\n+with open(path) as f:\n+    print(sum(float(row[column]) for row in csv.DictReader(f)))\n*** End Patch")],
                 observation=observed(result("call_a2", "Success. Updated the following files:\nA sum_column.py")),
                 metrics=Metrics(prompt_tokens=3600, completion_tokens=150, cached_tokens=3400)),
            Step(step_id=4, timestamp=at(3, 30), source="agent", model_name="gpt-5-codex", message="Plotting the result to compare with the chart.",
                 tool_calls=[call("call_a3", "shell", command=["bash", "-lc", "python sum_column.py data.csv price && python plot.py"])],
                 observation=observed(result("call_a3", [ContentPart(type="text", text="3.75"),
                                                         ContentPart(type="image", source=ImageSource(media_type="image/png", path="images/step_4_plot.png"))])),
                 metrics=Metrics(prompt_tokens=3900, completion_tokens=70, cached_tokens=3600)),
        ],
        final_metrics=FinalMetrics(total_prompt_tokens=10900, total_completion_tokens=310, total_cached_tokens=10000, total_steps=4),
    )


# ---- ATIF-v1.7: Claude Code-like, embedded subagent --------------------------------------

HELLO_TASK = "Create hello.py that prints `Hello, world!`, and a README.md that says how to run it."


def claude_code() -> Trajectory:
    """Version 1.7: a Claude Code session as Harbor converts it, with a Task subagent embedded."""
    explorer = Trajectory(
        schema_version="ATIF-v1.7", trajectory_id="task-explore-1",
        agent=Agent(name="claude-code-subagent", version="2.0.58", model_name="claude-haiku-4-5"),
        steps=[Step(step_id=1, timestamp=at(1, 10), source="user", message="List the files in /app and say whether a Python file exists."),
               Step(step_id=2, timestamp=at(1, 12), source="agent", message="", llm_call_count=1,
                    tool_calls=[call("toolu_sub1", "Bash", command="ls -la /app", description="List files")],
                    observation=observed(result("toolu_sub1", "total 0")), metrics=Metrics(prompt_tokens=400, completion_tokens=20)),
               Step(step_id=3, timestamp=at(1, 14), source="agent", message="/app is empty: no Python file yet.", llm_call_count=1,
                    metrics=Metrics(prompt_tokens=450, completion_tokens=15))],
    )
    return Trajectory(
        schema_version="ATIF-v1.7",
        session_id="c1a7d3e2-5b8f-4e0a-9c61-7d2e8f3a4b5c",
        trajectory_id="hello-world__Qx7cLdA",
        agent=Agent(name="claude-code", version="2.0.58", model_name="claude-sonnet-4-5", extra={"permission_mode": "bypassPermissions"}),
        steps=[
            Step(step_id=1, timestamp=at(1), source="user", message=HELLO_TASK),
            Step(step_id=2, timestamp=at(1, 5), source="agent", model_name="claude-sonnet-4-5", message="I'll check what is in /app first.", llm_call_count=1,
                 tool_calls=[ToolCall(tool_call_id="toolu_01", function_name="Task", arguments={"description": "Explore /app", "prompt": "List the files in /app", "subagent_type": "Explore"},
                                      extra={"timeout_ms": 120000})],
                 observation=observed(ObservationResult(source_call_id="toolu_01", content="/app is empty: no Python file yet.",
                                                        subagent_trajectory_ref=[SubagentTrajectoryRef(trajectory_id="task-explore-1", extra={"summary": "Explore /app"})],
                                                        extra={"duration_ms": 9100})),
                 metrics=Metrics(prompt_tokens=5200, completion_tokens=110, cached_tokens=4800, cost_usd=0.0042, extra={"cache_creation_input_tokens": 400})),
            Step(step_id=3, timestamp=at(2), source="agent", model_name="claude-sonnet-4-5", message="", llm_call_count=1,
                 tool_calls=[call("toolu_02", "Write", file_path="/app/hello.py", content="print('Hello, world!')\n")],
                 observation=observed(result("toolu_02", "File created successfully at: /app/hello.py")),
                 metrics=Metrics(prompt_tokens=5400, completion_tokens=60, cached_tokens=5200, cost_usd=0.0021)),
            Step(step_id=4, timestamp=at(2, 30), source="agent", model_name="claude-sonnet-4-5", message="", llm_call_count=1,
                 tool_calls=[call("toolu_03", "Write", file_path="/app/README.md", content="# hello\n\nRun `python hello.py`.\n")],
                 observation=observed(result("toolu_03", "File created successfully at: /app/README.md")),
                 metrics=Metrics(prompt_tokens=5500, completion_tokens=50, cached_tokens=5400, cost_usd=0.0018)),
            Step(step_id=5, timestamp=at(3), source="agent", model_name="claude-sonnet-4-5", message="", llm_call_count=1,
                 tool_calls=[call("toolu_04", "Edit", file_path="/app/README.md", old_string="Run `python hello.py`.", new_string="Run `python3 hello.py`; it prints `Hello, world!`.")],
                 observation=observed(ObservationResult(source_call_id="toolu_04", content="The file /app/README.md has been updated.", extra={"is_error": False})),
                 metrics=Metrics(prompt_tokens=5600, completion_tokens=70, cached_tokens=5500, cost_usd=0.0019)),
            Step(step_id=6, timestamp=at(3, 30), source="agent", model_name="claude-sonnet-4-5", message="Checking it runs.", llm_call_count=1,
                 tool_calls=[call("toolu_05", "Bash", command="python3 /app/hello.py", description="Run hello.py"),
                             call("toolu_06", "Read", file_path="/app/README.md")],
                 observation=observed(result("toolu_05", "Hello, world!"), result("toolu_06", "     1\t# hello\n     2\t\n     3\tRun `python3 hello.py`; it prints `Hello, world!`.")),
                 metrics=Metrics(prompt_tokens=5800, completion_tokens=80, cached_tokens=5600, cost_usd=0.0020)),
            Step(step_id=7, timestamp=at(4), source="system", message="Context compaction performed",
                 observation=observed(ObservationResult(content="Summary: hello.py and README.md written and checked.")),
                 extra={"context_management": {"type": "compaction", "boundary": "replace"}}),
            Step(step_id=8, timestamp=at(4, 10), source="agent", model_name="claude-sonnet-4-5", message="Done: hello.py prints `Hello, world!` and README.md says how to run it.",
                 llm_call_count=1, metrics=Metrics(prompt_tokens=900, completion_tokens=30, cost_usd=0.0006)),
        ],
        final_metrics=FinalMetrics(total_prompt_tokens=28400, total_completion_tokens=400, total_cached_tokens=26500, total_cost_usd=0.0126, total_steps=8,
                                   extra={"total_cache_creation_input_tokens": 400}),
        subagent_trajectories=[explorer],
    )


HELLO_STDOUT = """\
============================= test session starts ==============================
collected 2 items

tests/test_outputs.py::test_hello_prints PASSED                          [ 50%]
tests/test_outputs.py::test_readme_exists PASSED                         [100%]

============================== 2 passed in 0.05s ===============================
"""


# ---- outside any trial ---------------------------------------------------------------------

DJANGO_PATCH = """diff --git a/django/contrib/auth/validators.py b/django/contrib/auth/validators.py
--- a/django/contrib/auth/validators.py
+++ b/django/contrib/auth/validators.py
@@ -7,7 +7,7 @@
 class ASCIIUsernameValidator(validators.RegexValidator):
-    regex = r'^[\\w.@+-]+$'
+    regex = r'\\A[\\w.@+-]+\\Z'
"""


def mini_swe_agent() -> Trajectory:
    """ATIF-v1.7 as Harbor converts a mini-swe-agent run: the submit command's output is the patch."""
    return Trajectory(
        schema_version="ATIF-v1.7", session_id="mini-django-11099",
        agent=Agent(name="mini-swe-agent", version="1.14.2", model_name="anthropic/claude-sonnet-4-5",
                    extra={"original_format": "mini-swe-agent-1.1", "agent_config": {"step_limit": 250}}),
        steps=[
            Step(step_id=1, source="system", message="You are a helpful assistant that can interact with a computer."),
            Step(step_id=2, source="user", message="UsernameValidator allows a trailing newline in usernames. Use \\A and \\Z in the regexes."),
            Step(step_id=3, source="agent", message="THOUGHT: find the validators.", llm_call_count=1,
                 tool_calls=[call("call_3_1", "bash", command="grep -n regex django/contrib/auth/validators.py")],
                 observation=observed(result("call_3_1", "10:    regex = r'^[\\w.@+-]+$'\n20:    regex = r'^[\\w.@+-]+$'")),
                 metrics=Metrics(prompt_tokens=2100, completion_tokens=40)),
            Step(step_id=4, source="agent", message="THOUGHT: replace the anchors and submit.", llm_call_count=1,
                 tool_calls=[call("call_4_1", "bash", command="sed -i \"s/r'^\\[/r'\\\\A[/; s/+\\$'/+\\\\Z'/\" django/contrib/auth/validators.py && echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff")],
                 observation=observed(result("call_4_1", DJANGO_PATCH)),
                 metrics=Metrics(prompt_tokens=2300, completion_tokens=90)),
        ],
        notes="Converted from mini-swe-agent trajectory format to ATIF",
        final_metrics=FinalMetrics(total_prompt_tokens=4400, total_completion_tokens=130, total_steps=4),
    )


def voice_notes() -> Trajectory:
    """ATIF-v1.8 (audio parts): newer than the versions this round asked for."""
    return Trajectory(
        schema_version="ATIF-v1.8", session_id="voice-1",
        agent=Agent(name="voice-agent", version="0.1.0", model_name="gemini-2.5-flash"),
        steps=[
            Step(step_id=1, source="user", message=[ContentPart(type="text", text="Transcribe the recording and save it as notes.txt."),
                                                    ContentPart(type="audio", source=AudioSource(media_type="audio/wav", path="audio/memo.wav", duration_sec=12.5))]),
            Step(step_id=2, source="agent", message="Saved the transcript.",
                 tool_calls=[call("c1", "write_file", path="notes.txt", content="Buy milk. Call Ana at five.\n")],
                 observation=observed(result("c1", "wrote 28 bytes"))),
        ],
    )


# ---- writing -------------------------------------------------------------------------------


def png_bytes(rgb: tuple[int, int, int]) -> bytes:
    """A one-pixel PNG (the images the trajectories reference, so Harbor's validator finds them)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes([0, *rgb]))) + chunk(b"IEND", b"")


def wav_bytes() -> bytes:
    """A tenth of a second of silence as 8 kHz WAV (the audio a v1.8 trajectory references)."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(8000)
        out.writeframes(bytes([128]) * 800)
    return buffer.getvalue()


def write(path: Path, text: str) -> None:
    """Write ``text`` (creating folders), ending with one newline."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


def trajectory_text(trajectory: Trajectory) -> str:
    """A trajectory as Harbor's agents write ``trajectory.json``."""
    return format_trajectory_json(trajectory.to_json_dict())


def build(out: Path) -> list[Path]:
    """Write every fixture below ``out``; the paths written."""
    written: list[Path] = []

    def put(rel: str, text: str) -> None:
        write(out / rel, text)
        written.append(out / rel)

    model = "anthropic/claude-sonnet-4-5"
    trial = f"{JOB}/hello-world__Qx7cLdA"
    put(f"{trial}/agent/trajectory.json", trajectory_text(claude_code()))
    put(f"{trial}/result.json", trial_result("hello-world", "hello-world__Qx7cLdA", AgentInfo(name="claude-code", version="2.0.58",
                                             model_info=ModelInfo(name="claude-sonnet-4-5", provider="anthropic")), model, 1, {"reward": 1.0}).model_dump_json(indent=4))
    put(f"{trial}/verifier/reward.txt", "1")
    put(f"{trial}/verifier/test-stdout.txt", HELLO_STDOUT)

    trial = f"{JOB}/fix-csv-parser__Bn4kPq2"
    put(f"{trial}/agent/trajectory.json", trajectory_text(openhands()))
    put(f"{trial}/result.json", trial_result("fix-csv-parser", "fix-csv-parser__Bn4kPq2", AgentInfo(name="openhands", version="0.59.0",
                                             model_info=ModelInfo(name="gpt-5", provider="openai")), "openai/gpt-5", 2, {"reward": 0.0}).model_dump_json(indent=4))
    put(f"{trial}/verifier/reward.txt", "0")
    put(f"{trial}/verifier/test-stdout.txt", CSV_STDOUT)

    trial = f"{JOB}/long-task__Tm3vYy9"
    first, summary, cont = terminus()
    put(f"{trial}/agent/trajectory.json", trajectory_text(first))
    put(f"{trial}/agent/trajectory.summarization-1-summary.json", trajectory_text(summary))
    put(f"{trial}/agent/trajectory.cont-1.json", trajectory_text(cont))
    put(f"{trial}/verifier/reward.json", reward_json({"correctness": 0.75, "build": 1}))
    put(f"{trial}/verifier/test-stdout.txt", LONG_STDOUT)

    trial = f"{JOB}/sum-column__Zt8wRr1"
    put(f"{trial}/agent/trajectory.json", trajectory_text(codex()))
    timeout = ExceptionInfo(exception_type="AgentTimeoutError", exception_message="Agent execution timed out after 600.0 seconds",
                            exception_traceback="Traceback (most recent call last):\n  File \"harbor/trial/trial.py\", line 412, in _execute_agent\nharbor.trial.trial.AgentTimeoutError: Agent execution timed out after 600.0 seconds\n",
                            occurred_at=when(8))
    put(f"{trial}/result.json", trial_result("sum-column", "sum-column__Zt8wRr1", AgentInfo(name="codex", version="0.46.0",
                                             model_info=ModelInfo(name="gpt-5-codex", provider="openai")), "openai/gpt-5-codex", 3, None, timeout).model_dump_json(indent=4))

    for rel, data in ((f"{trial}/agent/images/expected_totals.png", png_bytes((30, 120, 200))),
                      (f"{trial}/agent/images/step_4_plot.png", png_bytes((200, 60, 30))),
                      ("single/audio/memo.wav", wav_bytes())):
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
        written.append(out / rel)

    put("single/mini-swe-agent__django-11099.json", trajectory_text(mini_swe_agent()))
    put("single/voice-notes.json", trajectory_text(voice_notes()))
    return written


def reward_json(rewards: dict[str, float]) -> str:
    """``verifier/reward.json``: a flat table of rewards, as a task's test script writes it (Harbor
    reads this file; no Harbor model writes it)."""
    return json.dumps(rewards, indent=4)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where to write (default: beside this script)")
    args = parser.parse_args(argv)
    for path in build(args.out):
        print(path.relative_to(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
