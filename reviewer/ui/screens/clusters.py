"""``C``: failure clusters across models, to walk one cluster or label it all at once.

A cluster is the same check of a task (or the same normalised message) failing for several
models; "fails for 6 of 7 models" is evidence about the check. From here the reviewer can make
``j``/``k`` walk only that cluster (enter), or label every failure of it specification or
capability after a confirmation that says how many labels change (one undoable change).
Clusters are found in a worker; every recorded string enters the table as ``Text``.
"""

from __future__ import annotations

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static
from textual.worker import get_current_worker

from reviewer.analysis.clusters import Cluster, ClusterPlan
from reviewer.analysis.stats.bars import bar
from reviewer.model.label import Verdict
from reviewer.model.sanitize import one_line
from reviewer.review.session import ReviewSession
from reviewer.ui.bindings import CLUSTER_BINDINGS
from reviewer.ui.dialogs.confirm import ConfirmDialog
from reviewer.ui.outcomes import SessionAnswered

COLUMNS = ("spread", "task", "models", "failures", "labelled", "by", "check or message")
KEYS_LINE = ("[b]enter[/b] walk only this cluster with j/k  [b]s[/b] / [b]c[/b] label it all specification / capability"
             "  [b]x[/b] clear the filter  [b]u[/b] undo  [b]escape[/b] close")


def cluster_cells(c: Cluster) -> tuple[Text, ...]:
    """One table row: spread bar, task, "fails for k of n models", size, labelled, kind, key."""
    labelled = c.specification + c.capability
    done = f"{labelled}/{c.size}"
    if labelled:
        done += f" ({c.specification} spec, {c.capability} cap)"
    return (
        Text(bar(len(c.models) / max(c.models_total, 1), 10)),
        Text(one_line(c.task, 40)),
        Text(c.summary()),
        Text(str(c.size), justify="right"),
        Text(done),
        Text(c.kind),
        Text(one_line(c.key, 90)),
    )


class ClustersScreen(ModalScreen[None]):
    """The clusters of the folder, widest spread first."""

    BINDINGS = CLUSTER_BINDINGS

    class Found(Message):
        """Clusters computed in the worker (``error`` when they could not be)."""

        def __init__(self, clusters: tuple[Cluster, ...], error: str = "") -> None:
            super().__init__()
            self.clusters = clusters
            self.error = error

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self.analyses = session.analyses
        self.clusters: tuple[Cluster, ...] = ()
        """The clusters listed, in table order."""
        self.wanted = ""
        """The cluster ident to put the cursor on once the table is filled."""

    @property
    def table(self) -> DataTable[Text]:
        """The cluster table."""
        return self.query_one("#clusters-table", DataTable)

    def compose(self) -> ComposeResult:
        """A note, the table and the keys."""
        with Vertical(id="clusters-box") as box:
            box.border_title = Content("Clusters")
            yield Static(Content("finding clusters\u2026"), id="clusters-note", markup=False)
            yield DataTable[Text](id="clusters-table", cursor_type="row", zebra_stripes=True)
            yield Static(Content.from_markup(KEYS_LINE), classes="dialog-keys")

    def on_mount(self) -> None:
        """Columns, then find the clusters."""
        self.table.add_columns(*COLUMNS)
        current = self.session.walking.cluster
        self.wanted = current.ident if current is not None else ""
        self.table.focus()
        self.find()

    @work(thread=True, exclusive=True, group="clusters")
    def find(self) -> None:
        """Gather the folder's failures and final verdicts and cluster them (worker thread)."""
        try:
            clusters = self.analyses.clusters()
        except Exception as exc:  # noqa: BLE001 - shown on the screen, never a crash
            clusters, error = (), f"{type(exc).__name__}: {exc}"
        else:
            error = ""
        if not get_current_worker().is_cancelled:
            self.post_message(self.Found(clusters, error))

    def on_clusters_screen_found(self, message: Found) -> None:
        """Fill the table, keeping the cursor on the cluster it was on."""
        if self.clusters and self.table.row_count:
            row = self.current()
            self.wanted = row.ident if row is not None else self.wanted
        self.clusters = message.clusters
        table = self.table
        table.clear()
        for c in self.clusters:
            table.add_row(*cluster_cells(c), key=c.ident)
        self.draw_note(message.error)
        idents = [c.ident for c in self.clusters]
        if self.wanted in idents:
            table.move_cursor(row=idents.index(self.wanted))

    def draw_note(self, error: str = "") -> None:
        """How many clusters, and the walk filter in force."""
        if error:
            text: Content = Content.styled(f"the clusters could not be computed: {one_line(error, 300)}", "$text-error")
        elif not self.clusters:
            text = Content("no clusters: no check or message fails more than once per task")
        else:
            n = len(self.clusters)
            text = Content(f"{n} cluster{'s' if n != 1 else ''} \u00b7 a check failing for most models is evidence about the check")
        current = self.session.walking.cluster
        if current is not None:
            text = Content.assemble(text, ("  \u00b7  walking: ", "$text-muted"),
                                    (f"{one_line(current.task, 40)} \u00b7 {one_line(current.key, 60)}", "bold $text-accent"))
        self.query_one("#clusters-note", Static).update(text)

    def walk(self, cluster: Cluster | None) -> None:
        """Make j/k walk a cluster (None: every failure)."""
        session = self.session
        self.app.post_message(SessionAnswered(session.walking.follow_cluster(cluster, session.listed_runs(), session.selection)))

    def current(self) -> Cluster | None:
        """The cluster under the cursor."""
        index = self.table.cursor_row
        return self.clusters[index] if self.clusters and 0 <= index < len(self.clusters) else None

    # ---- keys ------------------------------------------------------------------------------

    @on(DataTable.RowSelected, "#clusters-table")
    def row_selected(self) -> None:
        """Enter (or a click on the cursor row): walk only this cluster."""
        self.action_walk()

    def action_walk(self) -> None:
        """Make j/k walk only the cluster under the cursor, and close."""
        cluster = self.current()
        if cluster is None:
            self.app.bell()
            return
        self.dismiss()
        self.walk(cluster)

    def action_clear_filter(self) -> None:
        """Walk every failure again."""
        if self.session.walking.cluster is None:
            self.app.notify("j/k already walk every failure.", markup=False)
            return
        self.walk(None)
        self.draw_note()

    def action_cursor(self, step: int) -> None:
        """``j``/``k`` move the cursor here (not the review underneath)."""
        table = self.table
        if table.row_count:
            table.move_cursor(row=max(0, min(table.row_count - 1, table.cursor_row + step)))

    def action_label(self, verdict: str) -> None:
        """``s``/``c``: label the whole cluster, after a confirmation."""
        cluster = self.current()
        if cluster is None:
            self.app.bell()
            return
        self.plan(cluster, Verdict(verdict))

    @work(thread=True, exclusive=True, group="cluster-plan", description="plan a cluster label")
    def plan(self, cluster: Cluster, verdict: Verdict) -> None:
        """Work out what labelling the cluster would change (worker thread: reads the evidence)."""
        try:
            planned = self.analyses.plan(cluster, verdict)
        except Exception as exc:  # noqa: BLE001 - reported, never a crash
            self.app.call_from_thread(self.app.notify, one_line(f"{type(exc).__name__}: {exc}", 300),
                                      title="Cluster", severity="error", markup=False)
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.confirm, cluster, planned)

    def confirm(self, cluster: Cluster, planned: ClusterPlan) -> None:
        """Ask before changing many labels; apply on yes."""
        if not planned.to_change:
            self.app.notify(planned.message(), markup=False)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                outcome = self.session.label_cluster(planned)
                self.app.post_message(SessionAnswered(outcome))
                if not any(n.severity == "error" for n in outcome.notices):
                    self.find()

        title = f"Label the cluster: {one_line(cluster.task, 40)} \u00b7 {one_line(cluster.key, 60)}"
        self.app.push_screen(ConfirmDialog(title, planned.message()), answered)

    def action_undo(self) -> None:
        """``u``: undo the last labelling change (a cluster label is one change), then recount."""
        self.app.post_message(SessionAnswered(self.session.undo()))
        self.find()
