"""What the view learns from the gate's replay, and the gate run that holds it.

Two things only the replay shows: a list view's default page size (``default_pages``) and an
item view the initial window never read (``replay_proofs``). The gate first runs with every such
item view tried as state-backed; what the replay showed then decides which stay so and which
lists are capped, and the gate runs again on the view so learned until nothing changes (a view
returned to replay checks nothing in the run whose verdicts stand)."""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.models import ViewResult
from capenv.interpreter.rules_engine import RuleSet

from .default_pages import TABLE as DEFAULT_PAGES, with_default_pages
from .replay_proofs import TABLE as PROVEN_ITEMS, judged, tried, untried_item_views

RUNS = 4
"""Gate runs at most: the first, one learning the caps, one dropping unproven views, one to settle."""


def learned_by_replay(view: ViewResult, gate: Callable[[ViewResult, frozenset[str]], Any],
                      ruleset: RuleSet) -> tuple[ViewResult, Any]:
    """The view with what the replay proves, and the gate run over it."""
    base = view
    trying = untried_item_views(view)
    current = tried(view, trying)
    run = gate(current, trying)
    decided: dict[str, list[Any]] = {}  # per tried view, the table's latest decision
    for _ in range(RUNS - 1):
        proven, proof_traces = judged(current, run.item_proofs, ruleset.tables.get(PROVEN_ITEMS)) \
            if trying else (frozenset(), [])
        for event in proof_traces:
            decided.setdefault(event.subject.split(" ", 1)[0], [])
        for tool in {e.subject.split(" ", 1)[0] for e in proof_traces}:
            decided[tool] = [e for e in proof_traces if e.subject.split(" ", 1)[0] == tool]
        changed = proven != trying
        trying = proven
        learned = tried(base, trying)
        capped = {v.tool: v.default_page for v in current.views if v.default_page is not None}
        if capped:  # caps learned already stand
            learned = learned.model_copy(update={"views": tuple(
                v.model_copy(update={"default_page": capped[v.tool]}) if v.tool in capped else v
                for v in learned.views)})
        else:
            paged = with_default_pages(learned, run.default_pages, ruleset.tables.get(DEFAULT_PAGES))
            if paged is not None and any(v.default_page is not None for v in paged.views):
                learned, changed = paged, True
        if not changed:
            traces = tuple(e for tool in sorted(decided) for e in decided[tool])
            return learned.model_copy(update={"traces": learned.traces + traces}), run
        current = learned
        run = gate(current, trying)
    # still changing: no item view is taken on the replay's word
    fallback = base.model_copy(update={"views": tuple(
        v.model_copy(update={"default_page": c.default_page}) for v, c in zip(base.views, current.views))})
    return fallback, gate(fallback, frozenset())
