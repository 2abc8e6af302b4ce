"""The build pipeline: capture -> evidence -> manifest -> view -> (plans, gate) -> bundle."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Callable

from capenv.interpreter.bundle.collector import collector_paused
from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import BundleInfo, ViewResult
from capenv.interpreter.evidence.application import require_an_application
from capenv.interpreter.evidence.har import load_evidence
from capenv.interpreter.evidence.records import Evidence, Record
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.manifest.overrides import load_overrides
from capenv.interpreter.report import report_document
from capenv.interpreter.rules_engine import RuleSet, load_rules
from capenv.interpreter.view.build import build_view
from capenv.interpreter.view.accept_defaults import required_accepts
from capenv.interpreter.view.live_reports import live_reports
from capenv.interpreter.view.negotiation import request_variants, without_variants
from capenv.interpreter.view.credentials import (other_callers_records, read_credentials, static_credentials,
                                                 with_callers_kept)
from capenv.interpreter.view.unrouted_spellings import without_unrouted
from capenv.interpreter.view.replay_facts import replay_table
from capenv.interpreter.view.unauthenticated import unauthenticated_reads
from capenv.interpreter.view.guard_values import guarded_headers
from capenv.interpreter.view.version_headers import pinned_headers


def read_only_posts(evidence: Evidence, manifest: Manifest, ruleset: RuleSet) -> Any:
    """The read-only POST decision for every POST tool (``ReadOnlyResult``)."""
    from capenv.interpreter.readonly import classify_read_only_posts

    return classify_read_only_posts(evidence, manifest, ruleset)


def plan_and_gate(evidence: Evidence, manifest: Manifest, view: ViewResult, ruleset: RuleSet) -> ViewResult:
    """Write plans for every state-changing tool, then the gate's verdicts (state view required)."""
    from capenv.interpreter.gate.replay_learning import learned_by_replay
    from capenv.interpreter.gate.replay import run_gate
    from capenv.interpreter.gate.sorted_arrays import with_sorted_arrays
    from capenv.interpreter.gate.verdicts import apply_verdicts
    from capenv.interpreter.gate.referrer_counts import Sightings
    from capenv.interpreter.gate.cascades import find_cascades
    from capenv.interpreter.gate.gate_notes import with_gate_traces
    from capenv.interpreter.plans.build import build_plans
    from capenv.interpreter.plans.context import PlanContext
    from capenv.interpreter.view.paging import PagingRoles

    from capenv.interpreter.gate.per_value import merge_split
    from capenv.interpreter.plans.collection_split import split_tools

    records = {r.ordinal: r for r in evidence.records}
    # a tool whose collection segment names a kind of entity per value: one part per value, each
    # built and gated as a tool of its own, folded back into the tool's plan after the gate
    manifest, splits, unsplit = split_tools(manifest, view, records, ruleset, {p.tool for p in view.read_only_posts})
    view = view.model_copy(update={"traces": view.traces + unsplit}) if unsplit else view
    context = PlanContext(manifest, view, records, ruleset)  # one timeline for the plans and the gate
    context.whole_tools = {name: s.tool for s in splits for name in s.parts}
    plans = build_plans(context)
    if view.state_available and plans:
        timeline = context.timeline
        other_callers = other_callers_records(list(evidence.records), _plans_credentials(plans), ruleset)
        # a read sent with none of those credentials shows an anonymous caller's view, not the state's either
        other_readers = other_callers_records(list(evidence.records), _plans_credentials(plans), ruleset, unsent=True)

        def gate(view: ViewResult, trying: frozenset[str]) -> Any:
            return run_gate(plans, view, manifest, records, timeline, settings=ruleset.settings.get("gate"),
                            insert_table=ruleset.tables.get("insert-candidates"), paging=PagingRoles(ruleset),
                            reach_table=ruleset.tables.get("gate-reach"), tables=ruleset.tables,
                            other_callers=other_callers, other_readers=other_readers, trying=trying)

        view, run = learned_by_replay(view, gate, ruleset)
        cascades = find_cascades(plans, evidence, manifest, view, ruleset)
        plans = apply_verdicts(with_gate_traces(plans, run.findings), run, view, ruleset, cascades,
                               Sightings(view, manifest, records, plans))
        view = with_sorted_arrays(view, run.sorted_arrays)  # serving sorts what made the gate's reads pass
        if run.redrawn:  # entities the application names anew at each read: serving refuses their item calls
            view = view.model_copy(update={"types": tuple(
                t.model_copy(update={"redrawn_ids": tuple(sorted(run.redrawn[t.name]))}) if t.name in run.redrawn
                else t for t in view.types)})
        view = view.model_copy(update={"budget_hits": view.budget_hits + tuple(run.budget_hits),
                                       "traces": view.traces + tuple(run.traces)})  # the gate's budget hit
        reproduced = {tool: tuple(found.reproduced_observations) for tool, found in run.findings.items()}
    else:
        plans = [p.model_copy(update={"served": False, "reason": p.build_reason or "state unavailable"}) for p in plans]
        reproduced = {}
    plans = merge_split(plans, splits, records, reproduced, ruleset) if splits else plans
    return view.model_copy(update={"writes": tuple(plans), "write_clock": _write_clock(evidence)})


def _plans_credentials(plans: list) -> frozenset[str]:
    """The credentials headers the write plans' calls must send (``write-credentials``)."""
    return frozenset(h for plan in plans for p in (plan, *plan.variants) for h in p.credential_headers)


def _with_read_only_traces(view: ViewResult, read_only: Any) -> ViewResult:
    """Each POST tool's read-only decision joins its trace: the view's for read-only tools, the
    plan's for the others (why it stays a write)."""
    verdicts = {v.tool: v for v in read_only.tools}
    traces = list(view.traces) + [e for v in read_only.tools if v.read_only for e in v.events]
    plans = tuple(p.model_copy(update={"traces": verdicts[p.tool].events + p.traces}) if p.tool in verdicts else p
                  for p in view.writes)
    return view.model_copy(update={"traces": tuple(traces), "writes": plans})


def _with_stale_replays(reads_types: dict[str, tuple[str, ...]],
                        stale: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """Each replayed read's state types, and the types of the served writes the capture shows changing
    its answers (``gate/cascades.stale_replays``): a served write of one makes its recordings stale."""
    merged = dict(reads_types)
    for tool, types in stale.items():
        merged[tool] = tuple(dict.fromkeys((*merged.get(tool, ()), *types)))
    return merged


def _write_clock(evidence: Evidence) -> str | None:
    """The served clock starts at the capture's last recorded instant (so generated clocks follow it)."""
    if not evidence.records:
        return None
    return max(r.finished_at for r in evidence.records).replace(microsecond=0).isoformat()


def build_bundle(capture: str | Path, *, origin: str | None = None, overrides: str | None = None,
                 rules: str | None = None, progress: Callable[[int, int], None] | None = None,
                 phases: PhaseTimes | None = None) -> Bundle:
    """The whole build, with the cyclic garbage collector paused (``collector_paused``);
    ``phases`` (``capenv build --profile``) receives each phase's wall time."""
    with collector_paused():
        return _build_bundle(capture, origin=origin, overrides=overrides, rules=rules, progress=progress,
                             phase=(phases or PhaseTimes()).phase)


class PhaseTimes:
    """Wall seconds per build phase, in the order they ran."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - started


def _build_bundle(capture: str | Path, *, origin: str | None, overrides: str | None, rules: str | None,
                  progress: Callable[[int, int], None] | None,
                  phase: Callable[[str], AbstractContextManager[None]]) -> Bundle:
    with phase("rules"):
        ruleset = load_rules(rules)
        from capenv.interpreter.predicates.clock_formats import configure_clocks

        configure_clocks(ruleset.settings["clocks"])
    with phase("evidence"):
        evidence = load_evidence(capture, origin=origin, progress=progress, ruleset=ruleset)
        require_an_application(evidence)
    with phase("manifest"):
        manifest = build_manifest(evidence, ruleset, load_overrides(overrides) if overrides else None)
    with phase("read-only POSTs"):
        read_only = read_only_posts(evidence, manifest, ruleset)
    with phase("view"):
        # a read tool answering another shape per Accept or another selecting header: the view and
        # the gates read its usual one; a recording spelled in a way its template does not route
        # reads no entity of it
        by_ordinal = {r.ordinal: r for r in evidence.records}
        variants = request_variants(manifest, by_ordinal, ruleset)
        usual = without_unrouted(without_variants(manifest, variants), by_ordinal)
        view = build_view(evidence, usual, ruleset, read_only.read_only_rules())
    with phase("plans and gate"):
        view = plan_and_gate(evidence, usual, view, ruleset)
    with phase("report"):
        view = _with_read_only_traces(view, read_only)
        view = view.model_copy(update={"traces": evidence.timing_trace + variants.traces + view.traces})  # the capture's own decisions
        info = BundleInfo(evidence_id=evidence.evidence_id, rules_revision=ruleset.revision,
                          source=Path(str(capture)).name, records=len(evidence.records),
                          primary_origin=evidence.primary_origin)
        reports, report_traces = live_reports(manifest, view, by_ordinal, ruleset)
        view = view.model_copy(update={"traces": view.traces + report_traces}) if report_traces else view
        credentials = read_credentials(manifest, view, by_ordinal, ruleset)
        required = {h for names in credentials.values() for h in names} | {
            h for plan in view.writes for p in (plan, *plan.variants) for h in p.credential_headers}
        static, static_traces = static_credentials(required, by_ordinal, ruleset, _path_args_of(manifest, by_ordinal))
        credentials = with_callers_kept(credentials, static, manifest, view, by_ordinal, ruleset)
        view = view.model_copy(update={"traces": view.traces + static_traces}) if static_traces else view
        guarded, guard_traces = guarded_headers(manifest, by_ordinal, ruleset,
                                                {h for names in credentials.values() for h in names} | required)
        view = view.model_copy(update={"traces": view.traces + guard_traces}) if guard_traces else view
        accepts, accept_traces = required_accepts(manifest, by_ordinal, ruleset)
        view = view.model_copy(update={"traces": view.traces + accept_traces}) if accept_traces else view
        from capenv.interpreter.gate.cascades import stale_replays
        replay = replay_table(evidence, manifest, view, variants, settings=ruleset.settings.get("plans"))
        stale, stale_traces = stale_replays(evidence, manifest, view, ruleset)
        view = view.model_copy(update={"traces": view.traces + stale_traces}) if stale_traces else view
        replay = replay.model_copy(update={
            "reads_types": _with_stale_replays(replay.reads_types, stale), "live_reports": reports, "credential_headers": credentials, "required_accept": accepts,
            "static_credentials": static,
            "pinned_headers": pinned_headers(manifest, by_ordinal, ruleset),
            "guarded_headers": guarded,
            "unauthenticated": tuple(sorted(unauthenticated_reads(list(evidence.records), ruleset)
                                            | other_callers_records(list(evidence.records), frozenset(required),
                                                                    ruleset)))})
        return Bundle(info=info, manifest=manifest, view=view, replay=replay,
                      report=report_document(manifest, view, len(evidence.records), replay))


def _path_args_of(manifest: Manifest, records: dict[int, Record]) -> dict[int, dict[str, str]]:
    """Per record of a tool, its path arguments (the tool's template matched): what a credential bound
    to a path parameter is told by (``write-credential-values``)."""
    found: dict[int, dict[str, str]] = {}
    for tool in manifest.tools:
        for ordinal in tool.record_ordinals:
            record = records.get(ordinal)
            args = tool.match(record.path) if record is not None else None
            if args is not None:
                found[ordinal] = args
    return found
