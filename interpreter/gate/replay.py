"""Replay every primary-origin record in timeline order on a copy of the initial state
(seeds: "The gate"), collecting for each plan its confirmations and contradictions.

Writes a plan models apply their effect through serving's own ``execute`` (with the values
the capture recorded for generated fields); other writes bring their entity to the recorded
outcome or, where nothing shows it, leave what they may have changed unknown or unchecked
(``unmodelled``, ``copy_edits``). Reads serving would answer from state are answered from the
copy and compared (``read_check``).
"""

from __future__ import annotations

from typing import Any
from capenv.interpreter.bundle.models import ViewResult, WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.plans.timeline import Timeline
from capenv.interpreter.rules_engine import load_rules
from capenv.interpreter.view.paging import PagingRoles
from capenv.interpreter.view.read_gate import choose_document_line
from capenv.interpreter.view.views import is_absence
from capenv.interpreter.view.window import is_write
from capenv.serving.ops.sequence_state import SequenceState, sequence_fields
from capenv.serving.ops.context import OpRefusal
from capenv.serving.state.index import StateIndex
from capenv.serving.state.shallow import item_collection_path
from capenv.serving.writes.calls import (WriteCall, WriteEnv, WriteRefusal, unchecked_header_refusal,
                                         unchecked_header_sent)
from capenv.serving.writes.execute import execute

from .absences import absent_held, blame_absences
from .answer_checks import (check_delete_answer_values, check_entity_answer_members, check_report_answer,
                            check_split_answer)
from .action_checks import action_note, held_back_action, hold_back
from .bulk_calls import apply_bulk, bulk_sent
from .copy_edits import bring_to_outcome, recorded_outcome, remember_created, takes_new_entity, written_values
from .default_pages import DefaultPageEvidence
from .replay_proofs import ReplayItemProofs
from .embed_checks import embed_settings
from .entity_budget import EntityBudget
from .erasure import erase, overwritten_by, remember_effect
from .findings import WHOLE, GateNote, GateRun, Pending, PlanFindings, Tracking
from .gate_notes import unexplained_call_note, unknown_entity_note
from .item_keys import item_key
from .key_checks import check_key_branch
from .count_blame import TABLE as COUNT_TABLE
from .count_movers import TABLE as MOVERS_TABLE
from .linked_changes import TABLE as LINKED_TABLE
from .presence import read_only_listings
from .other_collections import other_collections_set_aside
from .read_check import BLAME_TABLE, check_read
from .reidentified import TABLE as REIDENTIFIED_TABLE
from .sequence_reuse import note_create_after_delete
from .refused_creates import note_refused_create_values
from .refused_deletes import Credentials, note_refused_where_accepted, note_refused_while_held
from .refused_updates import note_refused_serving_accepts
from .sorted_arrays import SortedArrays
from .tied_creates import outside_tied_collection, tied_note, unmodelled_in
from .unmodelled import unmodelled
from .write_checks import CreateSite, note_form_problem, sent_members, unobserved_later_update, updates_unknown_entity

__all__ = ["GateRun", "Pending", "PlanFindings", "run_gate"]

MODELLED_EFFECTS = ("create", "update", "action", "delete", "document", "bulk")


def run_gate(plans: list[WritePlan], view: ViewResult, manifest: Manifest, records: dict[int, Record],
             timeline: Timeline, settings: dict[str, Any] | None = None, insert_table: Any = None,
             paging: PagingRoles | None = None, reach_table: Any = None, tables: dict[str, Any] | None = None,
             other_callers: frozenset[int] = frozenset(), trying: frozenset[str] = frozenset(),
             other_readers: frozenset[int] | None = None) -> GateRun:
    """``other_callers``: the records sent as another caller than the principal
    (``view/credentials.other_callers_records``), whose reads show that caller's view, not the state;
    ``other_readers``: the reads so set aside (by default ``other_callers``), those sent with no
    credential too (an anonymous caller's view);
    ``trying``: the item views tried as state-backed (``replay_proofs``), whose compared reads are noted."""
    env = WriteEnv(view, checks_references=False)  # it replays calls the application accepted
    serving_env = WriteEnv(view)  # what serving would answer to a call the application refused
    copy = StateIndex.from_snapshot(view.state)
    sequences = SequenceState()
    sequences.restart(sequence_fields([p for p in plans if p.type]),
                      [(c.type, c.path, c.entities.values()) for c in copy.collections.values()])
    by_tool = {p.tool: p for p in plans}
    tool_of = {o: t.name for t in manifest.tools for o in t.record_ordinals}
    read_only = {p.tool for p in view.read_only_posts}
    views = {v.tool: v for v in view.views}
    findings = {p.tool: PlanFindings() for p in plans}
    track = Tracking(touched={(c.type, k) for c in copy.collections.values() for k in c.entities},
                     reach_table=reach_table if reach_table is not None else load_rules().tables.get("gate-reach"))
    run = GateRun(findings, plans=by_tool, settings=settings if settings is not None else embed_settings(),
                  insert_table=insert_table, paging=paging if paging is not None else PagingRoles(load_rules()))
    track.reach_min_string = int(run.settings.get("reach_name_min_string", 0))
    tables = tables if tables is not None else load_rules().tables
    run.blame_table, run.reidentified_table = tables.get(BLAME_TABLE), tables.get(REIDENTIFIED_TABLE)
    run.linked_table, run.count_table = tables.get(LINKED_TABLE), tables.get(COUNT_TABLE)
    run.movers_table = tables.get(MOVERS_TABLE)
    run.tool_of = tool_of
    run.default_pages = DefaultPageEvidence()
    run.item_proofs = ReplayItemProofs(trying=trying, initial=frozenset(track.touched))
    run.listings = read_only_listings(records, tool_of, read_only, env.types)
    run.sorted_arrays = SortedArrays.scan(records, views, tool_of, view.state)
    run.sorted_arrays.exhaustive_up_to = int(run.settings["sorted_arrays_exhaustive_up_to"])
    run.sorted_arrays.learn_from_plans(plans)
    credentials = Credentials(records)
    calls_of: dict[str, list[int]] = {}
    for ordinal_, tool_ in sorted(tool_of.items()):
        calls_of.setdefault(tool_, []).append(ordinal_)
    counter = 0
    running: list[tuple[Any, set[tuple]]] = []  # (finished_at, targets) of modelled writes
    budget = EntityBudget(view.budgets.max_entities)
    for ordinal in sorted(records):
        record = records[ordinal]
        if not record.primary:
            continue
        if budget.exceeded(copy, ordinal):
            break  # reported: later records check nothing
        tool = tool_of.get(ordinal, "")
        if tool in by_tool and record.changes_state and record.status >= 400 and ordinal not in other_callers:
            # another caller's refusal is about who asked, not the entity
            note_refused_while_held(by_tool[tool], record, env, copy, timeline, findings[tool], credentials,
                                    [records[o] for o in calls_of.get(tool, []) if o > ordinal])
            note_refused_where_accepted(by_tool[tool], record, records, calls_of.get(tool, []), findings[tool])
            note_refused_serving_accepts(by_tool[tool], record, serving_env, copy, sequences, findings[tool])
        if is_write(record, tool_of, read_only):
            plan = by_tool.get(tool)
            if plan is not None and plan.build_reason is None and plan.effect in MODELLED_EFFECTS and record.succeeded:
                if plan.effect == "create":  # what the application drew after a delete, before the copy changes
                    note_create_after_delete(plan, record, env, copy, sequences, timeline, findings[tool])
                if updates_unknown_entity(plan, record, env, track.unknown, timeline):
                    # its call cannot be checked: it takes the recorded outcome and adds nothing to the plan
                    findings[tool].notes.append(unknown_entity_note(plan, record, env, track, timeline))
                    if not bring_to_outcome(plan, record, env, copy, timeline, track):
                        unmodelled(record, env, copy, track)
                    continue
                if unobserved_later_update(plan, record, env, timeline, views, tool_of):
                    findings[tool].notes.append(GateNote(ordinal, "no read shows the clocks serving stamps",
                                                        location="interpreter/gate/write_checks.py:"
                                                                 "unobserved_later_update"))
                    unmodelled(record, env, copy, track)
                    continue
                held = held_back_action(plan, record, env, timeline, track, records, by_tool, tool_of, read_only)
                if held is not None:  # another tool's write the action's read checks instead
                    findings[tool].notes.append(action_note(held, record))
                    hold_back(held, plan, record, env, copy, timeline, track)
                    continue
                tied = outside_tied_collection(plan, record, env, copy)
                if tied is not None:  # serving refuses it: a write no built plan models, there
                    findings[tool].notes.append(tied_note(plan, record, tied))
                    unmodelled_in(tied, plan, record, env, copy, track)
                    unmodelled(record, env, copy, track)
                    continue
                counter += 1
                applied = apply_bulk(plan, record, env, copy, sequences, counter, track, findings[tool]) \
                    if plan.effect == "bulk" else _apply(plan, record, env, copy, sequences, counter, timeline,
                                                         findings[tool])
                if applied == {} and plan.effect == "create":
                    continue  # a get-or-create's call that got a held entity wrote nothing
                if applied is not None:
                    run.sorted_arrays.note_written(copy, applied)
                    if plan.effect == "create":
                        remember_created(tool, applied, copy, run.created)
                    running.append((record.finished_at, set(applied)))
                    track.touched.update((t[1], t[2]) for t in applied if t[0] == "entity")
                    made = next((t[2] for t in applied if t[0] == "entity"), None) if plan.effect == "create" else None
                    increments = {f.field for f in plan.fields if f.op == "increment"}
                    for target, fields in overwritten_by(applied, increments).items():
                        erase(track, target, fields, before=ordinal)
                    remember_effect(track, ordinal, applied)
                    for target in applied:
                        track.pending.setdefault(target, []).append(Pending(
                            tool, ordinal, plan.effect, applied[target],
                            plan.observation if ordinal == plan.exemplar else None,
                            bulk_sent(applied, target) if plan.effect == "bulk" else sent_members(plan, record), made))
                    track.modelled_since.append((ordinal, tool, record.path))
                    track.modelled_targets[ordinal] = frozenset(applied)
                    track.written[ordinal] = written_values(applied, copy)
                    track.last_touched.update((t, ordinal) for t in applied if t[0] == "entity")
                    continue
                if plan.effect == "bulk":
                    continue  # unmodelled at the entities it names, not the whole collection
                findings[tool].notes.append(unexplained_call_note(record, findings[tool]))
                if bring_to_outcome(plan, record, env, copy, timeline, track):
                    if plan.effect != "document":  # a document's outcome is what its next read shows
                        track.brought.append((ordinal, tool, record.path))
                    continue
                if plan.effect == "create":
                    track.creating_writes.append(ordinal)  # a create whose outcome nothing shows
            else:
                track.creating_writes.append(ordinal)
                if plan is not None and plan.build_reason is None and plan.effect == "create" and not record.succeeded:
                    track.failed_creates.add(ordinal)  # gate-reach: at most it made a new entity
            unmodelled(record, env, copy, track)
            continue
        read_view = run.sorted_arrays.current(views.get(tool))
        if record.method != "GET" or read_view is None or ordinal in read_view.other_shape_records:
            continue  # another shape than the view reads (a query asking for it) shows nothing it checks
        if ordinal in read_view.malformed_id_records:
            continue  # refused for the id's shape (view-malformed-ids): it shows nothing of the state
        if record.succeeded and not record.response.retained:
            continue  # the recorder kept no body: it neither confirms nor contradicts the state
        if ordinal in (other_callers if other_readers is None else other_readers):
            continue  # another caller's view (their own annotations, a 403 for what they may not see)
        if not record.succeeded and not is_absence(record, env.absence_statuses, read_view):
            continue  # a failed read that is no absence (401, 403, 5xx) shows nothing of the state
        if _overlaps_running_write(record, read_view, env, copy, running, run):
            continue
        absent = absent_held(record, read_view, env, copy, track, run)
        if absent:  # removed by a side effect no plan models: the writes since it last showed caused it
            blame_absences(record, read_view, absent, env, copy, track, run, timeline, records)
        if not read_view.state_backed:
            continue
        if takes_new_entity(record, read_view, env, copy, track):
            continue
        run.default_pages.observe(record, read_view, copy, run)
        with other_collections_set_aside(record, read_view, env.types.get(read_view.type or ""), track, records):
            check_read(record, read_view, env, copy, track, run, records, timeline)
    note_refused_create_values(by_tool, records, calls_of, timeline, findings)
    run.traces.extend(track.reach_events)  # what each unmodelled write reached
    if budget.exceeded(copy, None):
        run.budget_hits.append(budget.hit)
        run.traces.append(budget.trace)
    return run


def _apply(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex, sequences: SequenceState, counter: int,
           timeline: Timeline, findings: PlanFindings | None = None) -> dict[tuple, set[str]] | None:
    header = unchecked_header_sent(plan, lambda name: record.header(name, response=False))
    if header is not None:  # serving refuses it before executing: a call the plan does not explain
        if findings is not None:
            findings.refusals[record.ordinal] = unchecked_header_refusal(header)
        return None
    body = record.request.json_value if record.request.is_json else None
    recorded = recorded_outcome(plan, record, env, timeline)
    call = WriteCall(record.path, record.query, body, record.request_headers)
    try:
        result = execute(plan, env, call, copy, instant=record.started_at, counter=counter, sequences=sequences,
                         recorded=recorded)
    except (WriteRefusal, OpRefusal) as refusal:  # serving refuses an op's refusal too
        if findings is not None:
            findings.refusals[record.ordinal] = str(refusal)  # the note says why
            check_key_branch(plan, record, None, findings, refusal)
        return None
    if findings is not None:
        check_key_branch(plan, record, result, findings)
        check_split_answer(plan, record, result, findings)
        check_entity_answer_members(plan, record, result, findings)
        check_delete_answer_values(plan, record, result, findings)
        check_report_answer(plan, record, result, findings)
    if result.provenance.get("view") == "get":
        return {}  # a get-or-create's held entity: nothing written
    note_form_problem(plan, recorded, CreateSite(record, copy, sequences, result.provenance), findings)
    provenance = result.provenance
    targets: dict[tuple, set[str]] = {}
    if plan.effect == "document":
        targets[("document", provenance["path"])] = set(result.changed)
        return targets
    key = str(provenance.get("id"))
    targets[("entity", plan.type, key)] = set(result.changed) if plan.effect in ("update", "action") else {WHOLE}
    if plan.effect in ("create", "delete"):
        targets[("collection", provenance["collection"])] = {WHOLE}
    else:
        targets[("collection", provenance["collection"])] = set(result.changed)
    return targets


def _overlaps_running_write(record: Record, read_view: Any, env: WriteEnv, copy: StateIndex,
                            running: list[tuple[Any, set[tuple]]], run: GateRun) -> bool:
    """A read that began before a modelled write to its entity or collection ended may show
    either state: it checks nothing. Its collection is the one serving answers it from (the
    list's line, any spelling of the path), as the writes name theirs."""
    running[:] = [item for item in running if item[0] > record.started_at]  # the others ended before it
    if not running:
        return False  # most reads: naming the read's targets (a line choice, a lookup) would be wasted
    entity_type = env.types.get(read_view.type or "") if read_view.type else None
    if read_view.kind == "document":
        line = choose_document_line(read_view, record.path, record.query, copy)
        mine = {("document", line.path if line is not None else record.path)}
    elif entity_type is not None:
        where = item_collection_path(copy, record.path, entity_type, read_view.key_field)
        if read_view.kind == "list":
            chosen = run.choose_list_line(read_view, record.path, record.query)
            where = (chosen[0].collection or chosen[0].path) if chosen is not None else where
        held = copy.find_collection(where, entity_type.name)
        mine = {("collection", held.path if held is not None else where)}
        if read_view.kind == "item":
            mine.add(("entity", entity_type.name, item_key(copy, record.path, entity_type, read_view)))
    else:
        return False
    return any(targets & mine for _, targets in running)
