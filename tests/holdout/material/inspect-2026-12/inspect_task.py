"""Inspect AI task for the `shortest-path` brief, graded by the held-out oracle.

The model answers by calling `write_file`; the file lands in the sample's local
sandbox. The scorer lays the oracle beside it, runs pytest there and reports
C/I with the oracle's raw output as the explanation. Run by make_logs.py with a
`mockllm/<model>` model whose canned outputs are a recorded program.
"""
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer
from inspect_ai.solver import TaskState, generate, system_message, use_tools
from inspect_ai.tool import tool
from inspect_ai.util import sandbox

HERE = Path(__file__).parent
ORACLE = "oracle_shortest.py"
COMMAND = ["python", "-m", "pytest", "-rA", ORACLE]


@tool
def write_file():
    async def execute(path: str, content: str) -> str:
        """Write a text file into the workspace.

        Args:
          path: path of the file, relative to the workspace
          content: the complete text of the file
        """
        await sandbox().write_file(path, content)
        return f"wrote {len(content.encode())} bytes to {path}"

    return execute


@scorer(metrics=[accuracy()])
def heldout_oracle(grader_path: str = ""):
    async def score(state: TaskState, target: Target) -> Score:
        box = sandbox()
        await box.write_file(ORACLE, (HERE / "graders" / ORACLE).read_text())
        env = {"PATH": grader_path} if grader_path else {}  # PATH with a python that has pytest
        result = await box.exec(COMMAND, env=env, timeout=120)
        output = result.stdout + result.stderr
        try:
            program = await box.read_file("shortest.py")
        except FileNotFoundError:
            program = ""
        return Score(
            value=CORRECT if result.returncode == 0 else INCORRECT,
            answer=program,
            explanation=output,
            metadata={"command": " ".join(COMMAND), "exit_status": result.returncode},
        )

    return score


@task
def shortest_path(grader_path: str = ""):
    brief = (HERE / "briefs" / "shortest-path.md").read_text()
    return Task(
        dataset=[Sample(id="shortest-path", input=brief)],
        solver=[
            system_message("You are a careful programmer. Save every file with the write_file tool."),
            use_tools(write_file()),
            generate(),
        ],
        scorer=heldout_oracle(grader_path),
        sandbox="local",
    )
