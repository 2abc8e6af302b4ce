"""Evidence + manifest -> the environment-state view (types, state, views, read gate)."""

from __future__ import annotations

import time
from bisect import bisect_left
from itertools import accumulate

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import BudgetHit, Budgets, EntityType, ReadOnlyPost, ReadView, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Evidence
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.rules_engine import RuleSet
from capenv.serving.state.index import StateIndex

from .document_summaries import with_summarised_types
from .absence import learn_absences
from .reserved_ids import with_reserved_ids
from .write_absence import learn_write_absences
from .answer_members import per_answer_members, with_per_answer
from .envelope_members import envelope_members
from .credentials import other_callers_records, write_credential_names
from .extract import extract_state
from .id_history import IdHistories
from .empty_answers import with_empty_answers
from .entity_tags import with_entity_tag
from .item_members import with_item_members
from .learned_queries import learn_queries, learned_across_lists, with_directions_of_other_lists
from .page_size_bounds import with_page_size_bounds
from .query_vocabularies import with_query_vocabularies
from .line_fields import with_line_fields
from .list_projections import list_projections
from .projected_state import without_list_projections
from .absence_id_shapes import with_unproven_id_shapes
from .absence_other_parents import with_other_parent_absence
from .absence_sequence_gaps import with_skipped_numbers
from .key_aliases import with_key_aliases
from .letter_case_reads import with_letter_case_reads
from .malformed_ids import with_malformed_ids
from .paging import PagingRoles
from .projection_candidates import ProjectionCandidates
from .projections import learn_projections
from .query_members import query_members, with_query_shaped_records
from .read_gate import run_read_gate, with_held_digests
from .unauthenticated import unauthenticated_reads
from .shapes import ShapeReader
from .implied_items import with_implied_items
from .types import infer_types, with_nested_ids
from .views import build_views
from .volatile import volatile_fields
from .window import initial_window, is_write


def budgets_from(ruleset: RuleSet) -> Budgets:
    return Budgets.model_validate(ruleset.settings["budgets"])


def _with_envelope(view, shape, by_ordinal, paging, writes, records, ruleset, traces, others=frozenset()):
    """The list view with its envelope members (``view-list-members``) and the members that
    change per response, which are not compared. ``others``: reads sent as another caller, whose
    envelope counts that caller's view (a count that is no per-response value)."""
    ok = [by_ordinal[o] for o in shape.tool.record_ordinals
          if by_ordinal[o].succeeded and by_ordinal[o].response.is_json and o not in others]
    # some write began before the later read ended and ended after the earlier one began: the
    # writes by start, with the latest end among each prefix, answer that by bisection
    write_records = sorted((r for r in records if writes(r)), key=lambda r: r.started_at)
    starts = [w.started_at for w in write_records]
    latest_end = list(accumulate((w.finished_at for w in write_records), max))

    def changed_between(earlier, later) -> bool:
        began = bisect_left(starts, later.finished_at)  # the writes that began before ``later`` ended
        return began > 0 and latest_end[began - 1] > earlier.started_at

    members, per_response = envelope_members(view.tool, view.locator, ok, paging, changed_between, ruleset, traces)
    if not members and not per_response:
        return view
    return view.model_copy(update={"envelope_members": members, "per_response_members": per_response})


def _by_identity_alone(view: ReadView, types: dict[str, EntityType]) -> bool:
    """Whether the item path names its entity by the type's identity and nothing else (no other
    key member, no path taking either the identity or another member)."""
    entity_type = types.get(view.type or "")
    return entity_type is not None and entity_type.either_key is None \
        and view.key_field in (None, entity_type.id_field)


def _answers(view, by_ordinal) -> list:
    """A view's successful JSON answers, its recorded absences left out."""
    absent = set(view.absence_records)
    return [by_ordinal[o] for o in view.record_ordinals
            if by_ordinal[o].succeeded and by_ordinal[o].response.is_json and o not in absent]


def build_view(evidence: Evidence, manifest: Manifest, ruleset: RuleSet,
               read_only_posts: dict[str, str] | None = None) -> ViewResult:
    """Build the view. ``read_only_posts`` maps POST tools that only read to the deciding rule."""
    started = time.monotonic()
    read_only_posts = dict(read_only_posts or {})
    read_only = set(read_only_posts)
    budgets = budgets_from(ruleset)
    records = list(evidence.records)
    by_ordinal = {r.ordinal: r for r in records}
    tool_of = {o: t.name for t in manifest.tools for o in t.record_ordinals}
    reader = ShapeReader(ruleset)
    inference = infer_types(manifest, by_ordinal, reader)
    inference.types = with_implied_items([with_nested_ids(t, manifest) for t in inference.types], inference.shapes,
                                         manifest, by_ordinal, ruleset, reader.traces)
    types = {t.name: t for t in inference.types}
    window = initial_window(records, manifest, read_only)
    writes = lambda record: is_write(record, tool_of, read_only)  # noqa: E731
    traces: list = list(reader.traces)
    histories = IdHistories(records, writes)  # what the capture shows of each id, for both absences
    per_answer = per_answer_members(records, tool_of, writes, ruleset, traces)  # view-answer-members
    absences = learn_absences(inference.shapes, types, records, tool_of, histories, ruleset, traces, per_answer)
    write_absences, held_refusals, absence_vetoes = learn_write_absences(manifest, types, records, histories, ruleset, traces)
    window_set = set(window.read_ordinals)
    paging = PagingRoles(ruleset)
    window_records = [by_ordinal[o] for o in window.read_ordinals]

    def whole_line(record) -> bool:
        shape = inference.shapes.get(tool_of.get(record.ordinal, ""))
        members = locate(record.response.json_value, shape.locator) if shape and shape.locator else None
        return paging.whole(record.query, len(members) if isinstance(members, list) else 0)

    added_by_query = query_members(records, inference.shapes, tool_of, types, paging, ruleset, traces)
    # another caller's answer (a member's, an anonymous one) is their view: the state takes the
    # principal's wherever the principal read the entity too
    others = other_callers_records(records, write_credential_names(manifest, by_ordinal, read_only, ruleset), ruleset,
                                   unsent=True)
    state = extract_state(window_records, inference.shapes, tool_of, types, whole_line, evidence.evidence_id,
                          added_by_query, others)
    volatile = volatile_fields(inference.shapes, records, tool_of, types, writes, ruleset, traces,
                               added_by_query.projections)
    # the views are the principal's: another caller's reads neither give a line its recording nor
    # prove or fail one against the principal's state (serving refuses that caller's credentials)
    principal_window = {o for o in window_set if o not in others}
    views = build_views(inference.shapes, by_ordinal, types, principal_window, volatile, paging, read_only_posts, absences,
                        budgets.absence_statuses, ProjectionCandidates(ruleset))
    views = [with_query_shaped_records(v, added_by_query) for v in views]
    write_ordinals = sorted(r.ordinal for r in records if writes(r))
    views = [with_line_fields(v, by_ordinal, types, write_ordinals, ruleset, traces) for v in views]
    hits: list[BudgetHit] = []
    entity_count = sum(len(c.entities) for c in state.collections)
    state_bytes = len(dumps(state.model_dump()))
    state_available = True
    if entity_count > budgets.max_entities:
        hits.append(BudgetHit(budget="max_entities", limit=budgets.max_entities, reached=entity_count,
                              effect="state unavailable: every read replays"))
        state_available = False
    if state_bytes > budgets.max_state_bytes:
        hits.append(BudgetHit(budget="max_state_bytes", limit=budgets.max_state_bytes, reached=state_bytes,
                              effect="state unavailable: every read replays"))
        state_available = False
    views = [_with_envelope(v, inference.shapes[v.tool], by_ordinal, paging, writes, records, ruleset, traces, others)
             if v.kind == "list" and v.tool in inference.shapes else v for v in views]
    views = [with_per_answer(v, per_answer) for v in views]
    views = with_empty_answers(views, by_ordinal, ruleset, traces)
    views = list_projections(views, records, types, writes, ruleset, traces, added_by_query.projections)
    state, views = without_list_projections(state, views, {name: t.id_field for name, t in types.items()})
    views = [with_item_members(v, _answers(v, by_ordinal), ruleset, traces,
                               by_identity_alone=_by_identity_alone(v, types)) if v.kind == "item" else v
             for v in views]
    views = [with_entity_tag(v, _answers(v, by_ordinal), ruleset, traces) if v.kind == "item" else v for v in views]
    views = learn_projections(views, by_ordinal, types, writes, ruleset, traces)
    views = [with_unproven_id_shapes(v, by_ordinal, types, state.collections, ruleset, traces) for v in views]
    views = [with_skipped_numbers(v, types, state.collections, ruleset, traces) for v in views]
    views = [with_other_parent_absence(v, by_ordinal, types, state.collections, window_set, ruleset, traces)
             for v in views]
    if state_available:
        initial = StateIndex.from_snapshot(state)
        written_paths = [(r.ordinal, tuple(split_path(r.path))) for r in records if writes(r)]
        views = [with_held_digests(v, types, initial, written_paths) for v in views]
        views = [with_key_aliases(v, types, state.collections, ruleset, traces) for v in views]
        views = [with_letter_case_reads(v, by_ordinal, types, ruleset, traces) for v in views]
        views = [with_malformed_ids(v, by_ordinal, types, state.collections, ruleset, traces) for v in views]
        views = [with_reserved_ids(v, manifest, types, state.collections, by_ordinal, ruleset, traces) for v in views]
        principal_reads = tuple(o for o in window.read_ordinals if o in principal_window)
        views = run_read_gate(views, by_ordinal, principal_reads, tool_of, types, initial,
                              budgets.absence_statuses, unauthenticated_reads(records, ruleset))
        write_ordinals = sorted(r.ordinal for r in records if writes(r))
        held_ids = {name: frozenset(str(e.id) for c in state.collections if c.type == name for e in c.entities)
                    for name in types}
        views = [with_summarised_types(v, types, by_ordinal, write_ordinals, held_ids) for v in views]
        views = learned_across_lists(
            views, lambda v, own, elsewhere: learn_queries(v, records, by_ordinal, writes, ruleset, own, elsewhere,
                                                         id_field=types[v.type].id_field)
            if v.kind == "list" and v.type in types else v, traces)
        views = with_directions_of_other_lists(views, ruleset, traces)
        views = [with_page_size_bounds(v, records, ruleset, traces) if v.learned_queries else v for v in views]
        views = [with_query_vocabularies(v, records, ruleset, traces) if v.learned_queries else v for v in views]
    else:
        views = [v.model_copy(update={"state_backed": False, "reason": "state unavailable (budget)"}) for v in views]
    elapsed = time.monotonic() - started
    if elapsed > budgets.build_seconds:
        hits.append(BudgetHit(budget="build_seconds", limit=budgets.build_seconds, reached=round(elapsed, 3),
                              effect="reported only: the build finished"))
    return ViewResult(
        evidence_id=evidence.evidence_id, rules_revision=ruleset.revision, primary_origin=evidence.primary_origin,
        types=tuple(inference.types), views=tuple(views), window=window, state=state,
        state_available=state_available, budgets=budgets, budget_hits=tuple(hits),
        read_only_posts=tuple(ReadOnlyPost(tool=t, rule=r) for t, r in sorted(read_only_posts.items())),
        write_absences=write_absences, write_held_refusals=held_refusals,
        write_absence_vetoes=absence_vetoes, traces=tuple(traces))
