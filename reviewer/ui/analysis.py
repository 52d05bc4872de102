"""The analysis keys: the Evidence strip (``v``), clusters (``C``) and statistics (``S``).

A cluster chosen on the clusters screen becomes the *walk filter*: ``j``/``k`` and the
auto-advance after a label then move only between that cluster's failures, and the status line
says so until it is cleared (``x`` on the clusters screen). Labelling a whole cluster is one
undoable change: ``u`` restores every label it touched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.content import Content

from reviewer.analysis.clusters import Cluster, ClusterPlan, apply_cluster_label
from reviewer.ui.actions import NavigationActions
from reviewer.ui.labelling import LabellingActions
from reviewer.ui.render import one_line
from reviewer.ui.screens.clusters import ClustersScreen
from reviewer.ui.screens.stats import StatsScreen
from reviewer.ui.state import Target
from reviewer.ui.widgets.evidence import EvidencePanel

if TYPE_CHECKING:
    from reviewer.ui.app import ReviewApp

StatusPart = Content | tuple[str, str] | str


def run_key_of(failure_id: str) -> str:
    """``session/run`` of a failure id."""
    return failure_id.partition("#")[0]


class AnalysisActions(NavigationActions, LabellingActions):
    """Evidence strip, clusters, statistics, and the cluster walk filter."""

    cluster_filter: Cluster | None = None
    """The cluster j/k walk, None for every failure."""

    @property
    def this(self) -> "ReviewApp":
        """This app, typed."""
        return cast("ReviewApp", self)

    # ---- keys ------------------------------------------------------------------------------

    def action_toggle_evidence(self) -> None:
        """``v``: hide or show the Evidence strip."""
        panel = self.this.review_screen.query_one(EvidencePanel)
        panel.display = not panel.display
        if panel.display:
            panel.shown_again()

    def action_clusters(self) -> None:
        """``C``: the clusters screen."""
        if self.on_review_screen():
            self.push_screen(ClustersScreen())

    def action_stats(self) -> None:
        """``S``: the statistics screen."""
        if self.on_review_screen():
            self.push_screen(StatsScreen())

    # ---- the walk filter -------------------------------------------------------------------

    def set_cluster_filter(self, cluster: Cluster | None) -> None:
        """Walk only this cluster's failures (None: every failure); go to its first one."""
        self.cluster_filter = cluster
        app = self.this
        if cluster is not None and app.selection.failure_id not in cluster.failure_ids:
            first = next((f for f in cluster.failure_ids if run_key_of(f) in app.runs_by_key), "")
            if first:
                app.go_to(Target(run_key_of(first), first))
        if cluster is None:
            self.notify("j/k walk every failure again.", markup=False, timeout=3)
        else:
            self.notify(f"j/k walk the {cluster.size} failures of this cluster (C, then x: every failure).",
                        markup=False, timeout=4)
        app.refresh_status()

    def filter_status(self) -> list[StatusPart]:
        """The status line's part for the walk filter: ``cluster 2/6 connected · test_x``."""
        cluster = self.cluster_filter
        if cluster is None:
            return []
        ids = cluster.failure_ids
        here = self.this.selection.failure_id
        position = f"{ids.index(here) + 1}/{len(ids)}" if here in ids else f"\u2013/{len(ids)}"
        return ["  \u00b7  ", ("cluster ", "$text-muted"), (position, "bold $text-accent"),
                " ", (f"{one_line(cluster.task, 30)} \u00b7 {one_line(cluster.key, 50)}", "$text-accent"),
                (" (C, x: clear)", "$text-muted")]

    def step_failures(self, step: int) -> None:
        """``j``/``k``: within the cluster when one is chosen, else across runs."""
        cluster = self.cluster_filter
        if cluster is None:
            super().step_failures(step)
            return
        app = self.this
        ids = [f for f in cluster.failure_ids if run_key_of(f) in app.runs_by_key]
        here = app.selection.failure_id
        if here in ids:
            index = ids.index(here) + step
        else:
            index = 0 if step > 0 else len(ids) - 1
        if not 0 <= index < len(ids):
            self.bell()
            self.notify("No more failures in this cluster in this direction (C, then x: every failure).", markup=False)
            return
        app.go_to(Target(run_key_of(ids[index]), ids[index]))

    def advance(self) -> None:
        """After a label: the cluster's next failure this reviewer has not labelled, else as usual."""
        cluster = self.cluster_filter
        if cluster is None:
            super().advance()
            return
        app = self.this
        ids = [f for f in cluster.failure_ids if run_key_of(f) in app.runs_by_key]
        here = app.selection.failure_id
        start = ids.index(here) + 1 if here in ids else 0
        for fid in ids[start:] + ids[:start]:
            if fid != here and self.unlabelled(fid):
                app.go_to(Target(run_key_of(fid), fid))
                return
        self.notify("Every failure in this cluster is labelled.", title="Done", markup=False)

    # ---- labelling a cluster ---------------------------------------------------------------

    def label_cluster(self, plan: ClusterPlan) -> bool:
        """Apply a confirmed cluster plan as one undoable change; True when it was recorded."""
        app = self.this
        for fid in plan.to_change:
            app.labels.forget(fid)
        changed: list[int] = []
        done = self.save("Cluster label", lambda: changed.append(apply_cluster_label(app.labeller, plan)))
        if done:
            count = changed[0] if changed else len(plan.to_change)
            self.notify(f"Labelled {count} failure{'s' if count != 1 else ''} {plan.verdict.value} (u undoes them all).",
                        markup=False)
        return done
