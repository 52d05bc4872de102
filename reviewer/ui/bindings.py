"""Every key of the app, declared once.

The table feeds the footer (``show=True`` rows), the ``?`` help screen and the command palette,
so keys, help and palette never drift. Each binding carries a stable kebab-case ``id`` that a
user keymap can remap (see :func:`apply_keymap`).
"""

from __future__ import annotations

from typing import Any, Mapping

from textual.app import App
from textual.binding import Binding, BindingType

from reviewer.model.records import record

FAILURES = Binding.Group("failure")
LABELS = Binding.Group("label", compact=True)


@record
class Entry:
    """One row of the binding table: the binding and the help section it belongs to."""

    section: str
    binding: Binding


def entry(
    section: str,
    key: str,
    action: str,
    description: str,
    id: str,
    tooltip: str,
    *,
    show: bool = False,
    priority: bool = False,
    group: Binding.Group | None = None,
) -> Entry:
    """Build one table row."""
    return Entry(
        section,
        Binding(key, action, description, show=show, priority=priority, id=id, tooltip=tooltip, group=group),
    )


NAVIGATE = "Navigate"
PANES = "Panes"
LABEL = "Label"
APP = "App"
REVIEWERS = "Git and reviewers"

TABLE: tuple[Entry, ...] = (
    entry(NAVIGATE, "j", "screen.next_failure", "Next failure", "next-failure",
          "Go to the next failing check, across runs", show=True, group=FAILURES),
    entry(NAVIGATE, "k", "screen.prev_failure", "Previous failure", "prev-failure",
          "Go to the previous failing check, across runs", show=True, group=FAILURES),
    entry(NAVIGATE, "J", "screen.next_run", "Next run", "next-run", "Go to the next run in the list"),
    entry(NAVIGATE, "K", "screen.prev_run", "Previous run", "prev-run", "Go to the previous run in the list"),
    entry(NAVIGATE, "l", "screen.transcript_forward", "Next turn", "transcript-forward",
          "Step the transcript forward (moves the code to that turn's attempt)"),
    entry(NAVIGATE, "h", "screen.transcript_back", "Previous turn", "transcript-back",
          "Step the transcript back (moves the code to that turn's attempt)"),
    entry(NAVIGATE, "right_square_bracket", "screen.next_attempt", "Next attempt", "next-attempt",
          "Show the next attempt's files"),
    entry(NAVIGATE, "left_square_bracket", "screen.prev_attempt", "Previous attempt", "prev-attempt",
          "Show the previous attempt's files"),
    entry(NAVIGATE, "f", "screen.next_file", "Next file", "next-file", "Show the attempt's next file"),
    entry(NAVIGATE, "d", "screen.toggle_diff", "Diff", "toggle-diff",
          "Diff this file against the previous attempt's file of the same path"),
    entry(NAVIGATE, "slash", "screen.search_runs", "Search runs", "search-runs",
          "Filter the run list by task, model or text"),
    entry(NAVIGATE, "F", "screen.cycle_filter", "Filter runs", "cycle-filter",
          "Show all runs, failing runs or runs with unlabelled failures"),
    entry(PANES, "tab", "screen.focus_next_pane", "Next pane", "focus-next",
          "Move focus to the next pane", priority=True),
    entry(PANES, "shift+tab", "screen.focus_prev_pane", "Previous pane", "focus-prev",
          "Move focus to the previous pane", priority=True),
    entry(PANES, "1", "screen.show_pane('brief')", "Brief", "pane-brief", "Show and focus the Brief pane"),
    entry(PANES, "2", "screen.show_pane('code')", "Code", "pane-code", "Show and focus the Code pane"),
    entry(PANES, "3", "screen.show_pane('grader')", "Grader", "pane-grader", "Show and focus the Grader pane"),
    entry(PANES, "4", "screen.show_pane('transcript')", "Transcript", "pane-transcript",
          "Show and focus the Transcript pane"),
    entry(PANES, "m", "screen.maximise", "Maximise", "maximise", "Maximise or restore the focused pane"),
    entry(PANES, "ctrl+f", "screen.find_in_pane", "Find", "find-in-pane",
          "Find text in the focused pane (enter: next match, escape: close)", priority=True),
    entry(PANES, "e", "screen.show_more", "Show more", "show-more",
          "Show more of lines cut at the length limit in the focused pane"),
    entry(PANES, "ctrl+b", "screen.toggle_navigator", "Runs", "toggle-navigator",
          "Show or hide the run list", priority=True),
    entry(PANES, "v", "screen.toggle_evidence", "Evidence", "toggle-evidence",
          "Show or hide the Evidence strip: what the check demanded and whether the brief states it"),
    entry(LABEL, "s", "screen.label_specification", "Specification", "label-specification",
          "Label the failure: the specification (brief or grader) was at fault", show=True, group=LABELS),
    entry(LABEL, "c", "screen.label_capability", "Capability", "label-capability",
          "Label the failure: the model could not do it", show=True, group=LABELS),
    entry(LABEL, "x", "screen.clear_label", "Clear label", "clear-label", "Remove the label of this failure"),
    entry(LABEL, "u,ctrl+z", "screen.undo", "Undo", "undo", "Undo the last labelling change"),
    entry(LABEL, "n", "screen.note", "Note", "note", "Write a note on this failure", show=True),
    entry(LABEL, "t", "screen.tags", "Tags", "tags", "Tag this failure"),
    entry(LABEL, "space", "screen.defer", "Defer", "defer", "Skip this failure for now", show=True),
    entry(APP, "y", "screen.copy_failure", "Copy failure", "copy-failure",
          "Copy the current failure's id and message to the clipboard"),
    entry(APP, "E", "screen.show_errors", "Load errors", "show-errors", "List what in the folder failed to load"),
    entry(APP, "C", "screen.clusters", "Clusters", "clusters",
          "Failure clusters across models: walk one with j/k, or label it all after a confirmation"),
    entry(APP, "S", "screen.stats", "Statistics", "stats",
          "Per task and model shares, the verifier false-negative rate and each reviewer's progress"),
    entry(APP, "a", "screen.across_models", "Across models", "across-models",
          "This check in every model's run of the task: result, message, your label; enter opens one"),
    entry(APP, "M", "screen.task_matrix", "Task matrix", "task-matrix",
          "Tasks (t: checks of a task) by model: pass / fail with your verdicts; enter opens the cell"),
    entry(APP, "R", "screen.rescore", "Re-score", "rescore",
          "Re-score with the proposed repair: run the recorded grader again on the recorded program, the notation "
          "repaired, inside the bubblewrap sandbox (asks first; runs in the background; R again or escape cancels)",
          show=True),
    entry(APP, "escape", "screen.cancel_rescore", "Cancel re-score", "cancel-rescore",
          "Cancel the re-score running in the background (its sandbox is stopped; nothing is recorded)"),
    entry(APP, "ctrl+w", "dismiss_warning", "Dismiss warning", "dismiss-warning",
          "Hide the warning bar (broken theme files, settings problems)", show=True),
    entry(REVIEWERS, "ctrl+g", "screen.commit_labels", "Commit labels", "commit-labels",
          "Commit my label files (and nothing else) to git, with a message that summarises them"),
    entry(REVIEWERS, "H", "screen.label_history", "Label history", "label-history",
          "The history of this failure's label in git: who set which verdict, when, in which commit"),
    entry(REVIEWERS, "r", "screen.reveal_others", "Reveal others", "reveal-others",
          "Show the other reviewers' verdicts on this failure before labelling it (blind mode hides them)"),
    entry(REVIEWERS, "D", "screen.disagreements", "Disagreements", "disagreements",
          "Step j/k only through failures where reviewers disagree (press again for every failure)"),
    entry(REVIEWERS, "A", "screen.adjudicate", "Adjudicate", "adjudicate",
          "Record the final verdict of this failure where reviewers disagree"),
    entry(REVIEWERS, "P", "screen.judges_walk", "Judges' walks", "judges-walk",
          "Walks the judges steer (reviewer judge): the next unlabelled failure is the one they doubt most, then the "
          "failures they decide otherwise than you, then (blind mode off) those they call specification; again: off"),
    entry(APP, "question_mark", "screen.help", "Help", "help", "Show every key", show=True),
    entry(APP, "q,ctrl+q", "quit", "Quit", "quit", "Quit reviewer", show=True),
)

PALETTE_NAMES: dict[str, str] = {"rescore": "Re-score with the proposed repair",
                                  "judges-walk": "Judges: doubts first, disagreements with me, judged specification",
                                  "grader-raw-output": "Grader output: raw or decoded"}
"""Binding id -> the command palette's name where it says more than the footer's word."""

BINDINGS: list[BindingType] = [e.binding for e in TABLE]
"""The app's bindings, in table order."""

BY_ID: dict[str, Entry] = {e.binding.id or "": e for e in TABLE}
"""Table rows by binding id."""

LABELLING_IDS = tuple(e.binding.id or "" for e in TABLE if e.section == LABEL)
"""Ids of the keys reserved for labelling."""


def current_keys(app: App[Any], binding: Binding) -> str:
    """The keys bound to a binding now, after the app's keymap (comma separated)."""
    keymap: Mapping[str, str] = getattr(app, "_keymap", {}) or {}
    return keymap.get(binding.id or "", binding.key)


def key_label(app: App[Any], binding: Binding) -> str:
    """The keys of a binding as a person reads them (``j``, ``?``, ``ctrl+f``)."""
    return " / ".join(app.get_key_display(Binding(k.strip(), "")) for k in current_keys(app, binding).split(","))


def apply_keymap(app: App[Any], keymap: Mapping[str, str]) -> list[str]:
    """Remap keys by binding id (``{"next-failure": "down,j"}``); returns the unknown ids.

    Unknown ids are ignored (and returned, for the caller to report); known ones go to
    Textual's :meth:`App.set_keymap`, so footer, help and palette follow.
    """
    unknown = [k for k in keymap if k not in BY_ID]
    app.set_keymap({k: v for k, v in keymap.items() if k in BY_ID})
    return unknown


NAVIGATOR_BINDINGS: list[BindingType] = [
    Binding("up", "cursor(-1)", "Up", show=False, id="runs-up", tooltip="Previous row of the run list"),
    Binding("down", "cursor(1)", "Down", show=False, id="runs-down", tooltip="Next row of the run list"),
    Binding("pageup", "page(-1)", "Page up", show=False, id="runs-page-up", tooltip="A page up the run list"),
    Binding("pagedown", "page(1)", "Page down", show=False, id="runs-page-down",
            tooltip="A page down the run list"),
    Binding("home", "edge(-1)", "First", show=False, id="runs-first", tooltip="First row of the run list"),
    Binding("end", "edge(1)", "Last", show=False, id="runs-last", tooltip="Last row of the run list"),
    Binding("enter", "activate", "Open", show=True, id="runs-open",
            tooltip="Open the run, or fold / unfold a group"),
    Binding("left", "fold(True)", "Fold", show=False, id="runs-fold", tooltip="Fold the group"),
    Binding("right", "fold(False)", "Unfold", show=False, id="runs-unfold", tooltip="Unfold the group"),
]
"""Keys of the run list while it has focus (listed under "Run list" in help)."""

FIND_BINDINGS: list[BindingType] = [
    Binding("enter", "find_step(1)", "Next match", show=True, id="find-next", tooltip="Jump to the next match"),
    Binding("shift+enter", "find_step(-1)", "Previous match", show=False, id="find-prev",
            tooltip="Jump to the previous match"),
    Binding("escape", "close", "Close find", show=True, id="find-close", tooltip="Close the find bar"),
]
"""Keys of the find bar (ctrl+f) while it has focus."""

SEARCH_BINDINGS: list[BindingType] = [
    Binding("escape", "close", "Close search", show=True, id="search-close",
            tooltip="Clear the run search and return to the list"),
]
"""Keys of the run search box (/) while it has focus."""

TEXT_VIEW_BINDINGS: list[BindingType] = [
    Binding("n", "find_step(1)", "Next match", show=True, id="match-next",
            tooltip="After a find: jump to the next match (otherwise n writes a note)"),
    Binding("N", "find_step(-1)", "Previous match", show=True, id="match-prev",
            tooltip="After a find: jump to the previous match"),
    Binding("escape", "clear_find", "Clear find", show=True, id="match-clear", tooltip="Clear find highlights"),
]
"""Keys of a text pane while a find is active."""

GRADER_RAW = Binding("o", "toggle_raw_output", "Raw / decoded", show=True, id="grader-raw-output",
                     tooltip="Show the grader's output as recorded (go test -json lines) or decoded (the test output "
                             "they carry)")
GRADER_BINDINGS: list[BindingType] = [GRADER_RAW]
"""Keys of the Grader pane while it has focus (the command palette offers them too)."""

CLUSTER_BINDINGS: list[BindingType] = [
    Binding("enter", "walk", "Walk cluster", show=False, id="cluster-walk",
            tooltip="Make j/k walk only the failures of the cluster under the cursor"),
    Binding("s", "label('specification')", "Label all specification", show=False, id="cluster-specification",
            tooltip="Label every failure of the cluster specification (asks first; u undoes it)"),
    Binding("c", "label('capability')", "Label all capability", show=False, id="cluster-capability",
            tooltip="Label every failure of the cluster capability (asks first; u undoes it)"),
    Binding("x", "clear_filter", "Clear filter", show=False, id="cluster-clear",
            tooltip="Make j/k walk every failure again"),
    Binding("u", "undo", "Undo", show=False, id="cluster-undo", tooltip="Undo the last labelling change"),
    Binding("j", "cursor(1)", "Down", show=False, id="cluster-down", tooltip="Next cluster"),
    Binding("k", "cursor(-1)", "Up", show=False, id="cluster-up", tooltip="Previous cluster"),
    Binding("escape,q,C", "dismiss", "Close", show=False, id="cluster-close", tooltip="Close the clusters screen"),
]
"""Keys of the clusters screen (C)."""

CONFIRM_BINDINGS: list[BindingType] = [
    Binding("y", "answer(True)", "Yes", show=False, id="confirm-yes", tooltip="Yes: make the change"),
    Binding("n,escape", "answer(False)", "No", show=False, id="confirm-no", tooltip="No: change nothing"),
]
"""Keys of a confirmation dialog."""

STATS_BINDINGS: list[BindingType] = [
    Binding("r", "recompute", "Recompute", show=False, id="stats-recompute", tooltip="Compute the statistics again"),
    Binding("escape,q,S", "dismiss", "Close", show=False, id="stats-close", tooltip="Close the statistics"),
]
"""Keys of the statistics screen (S)."""

ACROSS_BINDINGS: list[BindingType] = [
    Binding("enter", "open", "Open", show=False, id="across-open",
            tooltip="Open the run under the cursor at this check (its failure, or the run when it passes)"),
    Binding("j", "cursor(1)", "Down", show=False, id="across-down", tooltip="Next run"),
    Binding("k", "cursor(-1)", "Up", show=False, id="across-up", tooltip="Previous run"),
    Binding("escape,q,a", "dismiss", "Close", show=False, id="across-close", tooltip="Close the across-models view"),
]
"""Keys of the across-models view (a)."""

MATRIX_BINDINGS: list[BindingType] = [
    Binding("enter", "open", "Open", show=False, id="matrix-open",
            tooltip="Open the cell's run at its check; on a task's name, show the task's checks"),
    Binding("t", "switch", "Tasks / checks", show=False, id="matrix-toggle",
            tooltip="Switch between every task and the checks of the task under the cursor"),
    Binding("h", "move(0, -1)", "Left", show=False, id="matrix-left", tooltip="Previous column"),
    Binding("j", "move(1, 0)", "Down", show=False, id="matrix-down", tooltip="Next row"),
    Binding("k", "move(-1, 0)", "Up", show=False, id="matrix-up", tooltip="Previous row"),
    Binding("l", "move(0, 1)", "Right", show=False, id="matrix-right", tooltip="Next column"),
    Binding("escape,q,M", "dismiss", "Close", show=False, id="matrix-close", tooltip="Close the task matrix"),
]
"""Keys of the task matrix (M)."""

LOCAL_TABLES: tuple[tuple[str, list[BindingType]], ...] = (
    ("Run list", NAVIGATOR_BINDINGS),
    ("Run search (/)", SEARCH_BINDINGS),
    ("Find bar (ctrl+f)", FIND_BINDINGS),
    ("Text panes after a find", TEXT_VIEW_BINDINGS),
    ("Grader pane (3)", GRADER_BINDINGS),
    ("Clusters screen (C)", CLUSTER_BINDINGS),
    ("Statistics screen (S)", STATS_BINDINGS),
    ("Across models (a)", ACROSS_BINDINGS),
    ("Task matrix (M)", MATRIX_BINDINGS),
    ("Confirmation dialog", CONFIRM_BINDINGS),
)
"""Keys that belong to one widget, by help section."""

PANE_BINDINGS: tuple[tuple[str, list[BindingType]], ...] = (("#grader", GRADER_BINDINGS),)
"""Keys of a pane (by its selector) that the command palette offers whichever widget has focus."""

DEFAULT_KEYS: dict[str, str] = {e.binding.id or "": e.binding.key for e in TABLE}
"""Binding id -> default keys (for settings readers that validate a user's keymap)."""
