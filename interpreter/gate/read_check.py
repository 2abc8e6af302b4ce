"""A read serving would answer from state, answered from the copy and compared (seeds: "The gate",
"Reads", "Comparison", "Attribution"): a pass confirms the exercised writes it shows something
of; a mismatch contradicts them, or the writes on related paths as a side effect."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import InsertRule
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import related_paths
from capenv.interpreter.plans.timeline import Timeline, own_collection
from capenv.interpreter.predicates.gate_blame import AbsenceBlameContext
from capenv.interpreter.rules_engine import TraceEvent
from capenv.interpreter.rules_engine.evaluate import evaluate_table
from capenv.interpreter.view.extract import collection_path
from capenv.interpreter.view.read_gate import (
    answer_read, choose_document_line, compare, item_query_answered,
)
from capenv.interpreter.view.views import is_absence
from capenv.serving.state.index import StateIndex
from capenv.serving.state.edits import replace_entity
from capenv.serving.state.shallow import item_collection_path
from capenv.serving.writes.calls import WriteEnv

from .absences import modelled_between
from .copy_edits import resync_item
from .default_pages import cut_short
from .count_blame import counted_elsewhere
from .count_movers import blame_count_movers
from .embed_checks import creates_newly_embedded
from .excuses import excused_in_failed_list, followed, followed_in_list, unknown_alone
from .findings import WHOLE, GateNote, GateRun, Pending, PlanFindings, Tracking
from .item_checks import attribute_failed_item, changes_whole_entity
from .item_keys import by_other_key, held_entity, item_key
from .key_spellings import same_entity_spelled_otherwise
from .linked_changes import blame_linked_changes
from .list_checks import replace_placement
from .other_collections import last_check_in
from .pages import past_the_page
from .refused_outcomes import creates_left_lacking
from .unmodelled import blamed_beside_unscoped, unscoped_since

BLAME_TABLE = "gate-absence-blame"


def check_read(record: Record, read_view: Any, env: WriteEnv, copy: StateIndex, track: Tracking, run: GateRun,
               records: dict[int, Record], timeline: Timeline) -> None:
    findings = run.findings
    pending, last_check = track.pending, track.last_check
    entity_type = env.types.get(read_view.type or "") if read_view.type else None
    line, held, key = None, None, ""
    if read_view.kind == "item" and entity_type is not None:
        collection = item_collection_path(copy, record.path, entity_type, read_view.key_field)
        # a collection not checked again (its lists) left its entities unknown: the read shows them again
        if not item_query_answered(read_view, record.query, records):
            run.traces.append(_replayed_query(record, read_view))
            return
        key = item_key(copy, record.path, entity_type, read_view,  # the entity serving names
                       timeline.absent_keys.get(record.ordinal))
        if by_other_key(read_view, entity_type):
            run.traces.append(_named_by_key(record, read_view, entity_type, key))
        targets = [("entity", entity_type.name, key)]
        if (entity_type.name, key) in track.unknown:
            if not record.succeeded and not is_absence(record, env.absence_statuses, read_view):
                return  # a failed read that is no absence shows nothing: the entity stays unknown
            # the writes an unmodelled write came after are checked only on the members they sent;
            # those made since are checked as usual
            writes = pending.get(targets[0], [])
            after = followed(writes, targets, track)
            if record.succeeded:
                check_sent_members(record, read_view, entity_type, copy, collection, key,
                                   [w for w in writes if w.tool in after], findings)
                _linked_beside_unmodelled(record, read_view, entity_type, key, writes, env, copy, track, run,
                                          records, timeline)
            track.unknown.discard((entity_type.name, key))
            later = [w for w in writes if w.tool not in after]
            if not any(w.observation != record.ordinal for w in later):
                resync_item(record, read_view, entity_type, copy, collection, key, env.absence_statuses)
                pending.pop(targets[0], None)
                last_check[targets[0]] = record.ordinal
                return
            pending[targets[0]] = later
    elif read_view.kind == "list" and entity_type is not None:
        chosen = run.choose_list_line(read_view, record.path, record.query)  # as serving chooses it
        if chosen is None:
            return
        line = chosen[0]
        held = copy.find_collection(line.collection or line.path, entity_type.name)
        collection = held.path if held is not None else collection_path(record.path, entity_type)
        spellings = {collection, collection_path(record.path, entity_type)}
        if spellings & track.unchecked or spellings & track.failed_lists:
            return  # a list whose check failed is not checked again (its items still are)
        if past_the_page(line, read_view, entity_type.name, copy, run.paging):
            return  # serving answers from the line's recording: the read checks nothing
        targets = [("collection", collection)]
    elif read_view.kind == "document":
        line = choose_document_line(read_view, record.path, record.query, copy)  # as serving chooses it
        if line is None:
            return
        targets = [("document", line.path)]
    else:
        return
    exercised = [p for t in targets for p in pending.get(t, []) if p.observation != record.ordinal]
    if read_view.kind == "list" and followed_in_list(record, read_view, entity_type, targets[0][1], exercised, track,
                                                     held.entities if held is not None else ()):
        track.failed_lists.add(targets[0][1])  # checked now; the unmodelled write may explain the rest after
    answer, is_list, _ = answer_read(read_view, record, env.types, copy, line=line)
    if answer is not None and answer.unheld:
        return  # serving refuses this list now (its envelope shows what the state cannot): it checks nothing
    reason = compare(answer, record, read_view, is_list=is_list, absence_statuses=env.absence_statuses)
    run.checked_reads += 1
    if reason is not None and read_view.kind == "list" and entity_type is not None:
        if placed_by_another_candidate(record, read_view, entity_type, copy, exercised, run, env.absence_statuses,
                                       line):
            reason = None
    if reason is not None and read_view.kind == "list" and entity_type is not None and exercised:
        if _unknown_shown_again(record, read_view, entity_type, answer, exercised, env, copy, track, run, line):
            reason = None
    if reason is not None and entity_type is not None and read_view.kind in ("item", "list"):
        # the app may show string arrays sorted: the read then checks the writes it exercises
        resorted = run.sorted_arrays.passing_view(record, read_view, entity_type, copy, env.types, line,
                                                    env.absence_statuses)
        if resorted is not None:
            read_view, reason = resorted, None
    if read_view.kind == "item" and run.item_proofs is not None:
        run.item_proofs.note(record, read_view, key, reason is None, entity_type.id_field if entity_type else "",
                             track)
    if reason is None:
        # a list its default page cut short shows nothing of the writes beyond the page: it confirms none
        _passed(record, read_view, entity_type, targets, exercised, track, run,
                confirms=not cut_short(record, read_view, held))
        return
    excused: set[str] = set()
    if read_view.kind == "list" and entity_type is not None:
        held = copy.find_collection(targets[0][1], entity_type.name)
        excused = excused_in_failed_list(record, read_view, entity_type, answer, targets[0][1], exercised, track,
                                         held.entities if held is not None else (), records)
        unknown = unknown_alone(record, read_view, entity_type, answer, exercised, track)
        if unknown and exercised:  # listed or not listed on one side: that write may have made or removed it
            excused |= {w.tool for w in exercised}
            for tool in sorted({w.tool for w in exercised} & set(findings)):
                findings[tool].notes.append(_unknown_alone_note(record, entity_type.name, unknown))
    contradicted = [w.tool for w in exercised if w.tool not in excused]
    difference = reason.removeprefix(f"record {record.ordinal}: ") + _recorded_membership_text(
        record, read_view, entity_type, answer, line, exercised)
    mine = None
    if read_view.kind == "item":
        mine = held_entity(copy, record.path, entity_type, read_view)
        if exercised:
            found = attribute_failed_item(record, read_view, mine, exercised, run.plans, records)
            contradicted = found.contradicted
            for tool in found.confirmed:
                findings[tool].confirmations.append(record.ordinal)
        contradicted += embedding_creates(record, read_view, mine, run)
    if entity_type is not None and answer is not None and answer.missing_field:
        contradicted += creates_left_lacking(record, read_view, entity_type, copy, track, run, line=line, mine=mine)
    for tool in dict.fromkeys(contradicted):
        if tool in findings and findings[tool].contradicted_by is None:
            findings[tool].contradicted_by = record.ordinal
            findings[tool].notes.append(GateNote(record.ordinal, difference, kind="contradiction",
                                                 location="interpreter/gate/read_check.py:check_read"))
    if not exercised:
        own = own_collection(record.path, entity_type) if read_view.kind == "item" and entity_type is not None \
            else None  # ids repeat across the type's collections: the last check of this one's entity
        since = max((last_check_in(track, t, own, entity_type, records) for t in targets), default=0)
        # a write no plan models that reached what the read shows explains the difference; one of unknown
        # reach (on no type's path) may explain it too, but no better than a modelled write on a related
        # path since the last check: that write stays unproven (side-effect), for serving would answer
        # the read from the state, stale if it was the cause
        changed = any(max(track.changed_by_unattributed.get(t, 0), track.latest_unmodelled.get(t, 0)) > since
                      for t in targets)
        unscoped = unscoped_since(track, since, record.ordinal)
        brought = [(o, tool, path) for o, tool, path in track.brought if since < o < record.ordinal]
        summarised = set(line.summarises) if read_view.kind == "document" and line is not None else set()
        between = [] if changed else modelled_between(track, since, record.ordinal) + brought
        blamed = _blamed_alone(between, record, read_view, records, run.blame_table, env.absence_statuses)
        for ordinal, tool, path in blamed or between:
            if _refused_after(tool, summarised, run):
                continue
            related = related_paths(path, record.path) if unscoped is None else \
                blamed_beside_unscoped((ordinal, tool, path), record.path, track)
            if tool in findings and (related or same_entity_spelled_otherwise(path, record.path, env.types, copy)):
                if findings[tool].side_effect_by is None and read_view.kind == "item" and counted_elsewhere(
                        record, entity_type.name, key, mine, _shown(record, read_view),
                        changed_members(record, read_view, mine, ()) if mine is not None else frozenset(),
                        since, ordinal, tool, run, records):
                    continue  # a count another type's creates and deletes moved: not this write's
                if findings[tool].side_effect_by is None:
                    findings[tool].side_effect_by = record.ordinal
                    findings[tool].notes.append(GateNote(record.ordinal, _side_effect_text(difference, unscoped, records),
                                                         kind="side-effect",
                                                         location="interpreter/gate/read_check.py:check_read"))
        if read_view.kind == "item" and mine is not None:
            # a cascade follows references too: writes since on an entity linked to this one by id
            # (a write of unknown reach between does not excuse them either; one no plan models that
            # reached this entity does only where the gate-linked-blame table says it explains the change)
            blame_linked_changes(record, entity_type.name, key, mine, since, difference,
                                 {name: t.id_field for name, t in env.types.items()}, track, run, timeline, records,
                                 beside=_beside(targets, since, track), differing=changed_members(record, read_view,
                                                                                                  mine, ()),
                                 shown=_shown(record, read_view))
            # a create's or delete's doing the change shows (a lost id, a moved count) blames it, linked or not
            blame_count_movers(record, entity_type.name, key, mine, _shown(record, read_view),
                               changed_members(record, read_view, mine, ()), since, track, run, records,
                               tuple(env.types))
    for target in targets:
        pending.pop(target, None)
        last_check[target] = record.ordinal
    if read_view.kind == "item":
        resync_item(record, read_view, entity_type, copy,
                    item_collection_path(copy, record.path, entity_type, read_view.key_field), key,
                    env.absence_statuses)
    elif read_view.kind == "list":
        track.failed_lists.add(targets[0][1])
    elif read_view.kind == "document" and record.response.is_json:
        copy.documents[targets[0][1]] = record.response.json_value


def _unknown_shown_again(record: Record, read_view: Any, entity_type: Any, answer: Any, exercised: list[Pending],
                         env: WriteEnv, copy: StateIndex, track: Tracking, run: GateRun, line: Any) -> bool:
    """A failed list whose only difference is members a write no plan models left unknown, each listed
    on both sides (``excuses.unknown_alone``): the list shows them again, so the copy takes the values
    it lists for them; when the list then answers as recorded, it passes and checks the writes it
    exercises (the other members, its envelope). Otherwise the copy is left as it was."""
    keys = unknown_alone(record, read_view, entity_type, answer, exercised, track)
    held = copy.find_collection((line.collection or line.path) if line is not None else "", entity_type.name) \
        if line is not None else None
    recorded = record.response.json_value if record.response.is_json else None
    listed = locate(recorded, read_view.locator) if recorded is not None else None
    if not keys or held is None or not isinstance(listed, list):
        return False
    shown = {str(m[entity_type.id_field]): m for m in listed if isinstance(m, dict) and entity_type.id_field in m}
    if any(k not in shown or k not in held.entities or not isinstance(held.entities[k], dict) for k in keys):
        return False
    before = {k: held.entities[k] for k in keys}
    for k in keys:
        replace_entity(held, k, {**before[k], **shown[k]})
    again, is_list, _ = answer_read(read_view, record, env.types, copy, line=line)
    if again is None or again.unheld or compare(again, record, read_view, is_list=is_list,
                                                absence_statuses=env.absence_statuses) is not None:
        for k in keys:
            replace_entity(held, k, before[k])
        return False
    text = (f"lists {entity_type.name} " + ", ".join(repr(k) for k in keys[:5])
            + " otherwise than the copy held, each an entity a write no plan models left unknown, which this write "
              "did not write: the list shows them again (the copy takes what it lists of them) and then answers as "
              "recorded, so it checks this write")
    for tool in sorted({w.tool for w in exercised}):
        if tool in run.findings:
            run.findings[tool].notes.append(GateNote(record.ordinal, text, kind="excuse", evidence={"unknown": keys},
                                                     location="interpreter/gate/read_check.py:_unknown_shown_again"))
    return True


def _unknown_alone_note(record: Record, type_name: str, keys: list[str]) -> GateNote:
    """Why a failed list does not contradict an exercised write (``excuses.unknown_alone``)."""
    shown = ", ".join(repr(k) for k in keys[:5]) + (" and more" if len(keys) > 5 else "")
    return GateNote(record.ordinal,
                    f"lists {type_name} {shown} otherwise than the copy holds, each an entity a write no plan models "
                    "left unknown (no read showed it since), which this write did not write: that write explains the "
                    "difference, so the list contradicts nothing here (and is not checked again)",
                    kind="excuse", evidence={"unknown": keys}, location="interpreter/gate/excuses.py:unknown_alone")


def _beside(targets: list[tuple], since: int, track: Tracking) -> tuple[int, ...]:
    """The writes no plan models, or calls brought to their recorded outcome, that reached the read's
    targets after ``since`` (the latest of each kind: what the gate remembers)."""
    found = {o for t in targets for o in (track.changed_by_unattributed.get(t, 0), track.latest_unmodelled.get(t, 0))
             if o > since}
    return tuple(sorted(found))


def _linked_beside_unmodelled(record: Record, read_view: Any, entity_type: Any, key: str, writes: list[Pending],
                              env: WriteEnv, copy: StateIndex, track: Tracking, run: GateRun,
                              records: dict[int, Record], timeline: Timeline) -> None:
    """An entity a write no plan models left unknown, shown again otherwise than the copy holds it:
    the unmodelled write may have changed it, but so may a modelled write since its last check on an
    entity linked to it by id (a book's create raising its author's count), which serving would
    not; ``blame_linked_changes`` weighs them (the ``gate-linked-blame`` table). The members the
    entity's own pending writes changed are theirs to check (``check_sent_members``)."""
    if read_view.kind != "item" or any(WHOLE in w.changed for w in writes):
        return
    mine = held_entity(copy, record.path, entity_type, read_view)
    if mine is None:
        return
    answer, is_list, _ = answer_read(read_view, record, env.types, copy)
    if answer is None or answer.unheld:
        return
    reason = compare(answer, record, read_view, is_list=is_list, absence_statuses=env.absence_statuses)
    if reason is None:
        return
    differing = changed_members(record, read_view, mine, writes)
    if not differing:
        return  # what differs is the pending writes' own (or no member): they are checked on what they sent
    target = ("entity", entity_type.name, key)
    since = track.last_check.get(target, 0)
    blame_linked_changes(record, entity_type.name, key, mine, since, reason.removeprefix(f"record {record.ordinal}: "),
                         {name: t.id_field for name, t in env.types.items()}, track, run, timeline, records,
                         beside=_beside([target], since, track) or (track.latest_unmodelled.get(target, 0),),
                         differing=differing, shown=_shown(record, read_view))


def _shown(record: Record, read_view: Any) -> Any:
    """The entity an item read shows (at its view's locator), None when its body is no JSON."""
    return locate(record.response.json_value, read_view.locator) if record.response.is_json else None


def changed_members(record: Record, read_view: Any, mine: dict[str, Any], writes: Any) -> frozenset[str]:
    """The top-level members the read shows otherwise than the copy's value ``mine``, less the
    view's volatile members and those the entity's pending ``writes`` changed. A member the copy
    lacks is none: nothing showed the copy a value a write could have changed (and serving refuses
    an entity lacking a member every recording of its view carried)."""
    located = _shown(record, read_view)
    if not isinstance(located, dict):
        return frozenset()
    skipped = set(read_view.volatile_fields)
    for write in writes:
        skipped |= set(write.changed)
    return frozenset(m for m, v in located.items() if m not in skipped and m in mine and mine[m] != v)


def _side_effect_text(difference: str, unscoped: int | None, records: dict[int, Record]) -> str:
    """A side effect's note; where a write of unknown reach ran in the window too, it says so: that
    write may explain the difference, but does not show the modelled write did not cause it."""
    if unscoped is None:
        return difference
    write = records.get(unscoped)
    call = f" ({write.method} {write.path})" if write is not None else ""
    return (f"{difference}; record {unscoped}{call}, a write no built plan models on no state type's path, ran "
            "since too and may explain it, but does not show this write did not cause it (serving would answer "
            "the read from the state): unproven")


def _blamed_alone(between: list[tuple[int, str, str]], record: Record, read_view: Any,
                  records: dict[int, Record], table: Any,
                  absence_statuses: tuple[int, ...]) -> list[tuple[int, str, str]]:
    """Of the writes in between, those the ``gate-absence-blame`` table blames alone for what the
    read shows (a delete of an entity the absent read's path lies beneath took it along, a cascade
    its plan does not model): none, and every write in between shares the blame."""
    if table is None or not between:
        return []
    absent = is_absence(record, absence_statuses, read_view)
    below = split_path(record.path)
    alone = []
    for ordinal, tool, path in between:
        above = split_path(path)
        context = AbsenceBlameContext(method=records[ordinal].method, read_absent=absent,
                                      above_read=len(above) < len(below) and above == below[:len(above)])
        if evaluate_table(table, context, subject=f"record {record.ordinal} write {ordinal}").yields.get("alone"):
            alone.append((ordinal, tool, path))
    return alone


def _refused_after(tool: str, summarised: set[str], run: GateRun) -> bool:
    """A write to a collection the read's document summarises shows nothing there: serving refuses
    the document once a served write has changed that collection (``serving/reads/summaries``)."""
    plan = run.plans.get(tool)
    return plan is not None and plan.type is not None and plan.type in summarised


def _passed(record: Record, read_view: Any, entity_type: Any, targets: list[tuple], exercised: list[Pending],
            track: Tracking, run: GateRun, confirms: bool = True) -> None:
    """A pass confirms the writes it shows something of and leaves the others for a later check
    (every one, when it ``confirms`` nothing)."""
    pending, last_check = track.pending, track.last_check
    for target in targets:  # the read a write was learned from, answered as recorded after it
        for write in pending.get(target, []):
            observed = run.findings[write.tool].reproduced_observations
            if write.observation == record.ordinal and record.ordinal not in observed:
                observed.append(record.ordinal)
    if read_view.kind == "list":
        run.rule_fixed.update(w.tool for w in exercised if w.effect == "create")
    shown = [w for w in exercised if confirms and shows(w, read_view)]
    for write in shown:
        run.findings[write.tool].confirmations.append(record.ordinal)
    # a read that shows none of a write's changes leaves it for a later check
    kept = [w for w in exercised if w not in shown]
    for target in targets:
        pending[target] = [w for w in pending.get(target, []) if w in kept or w.observation == record.ordinal]
        if not pending[target]:
            pending.pop(target)
        last_check[target] = record.ordinal
    if read_view.kind == "list" and entity_type is not None:
        members = locate(record.response.json_value, read_view.locator)
        for member in members if isinstance(members, list) else []:
            if isinstance(member, dict) and entity_type.id_field in member:
                entity = ("entity", entity_type.name, str(member[entity_type.id_field]))
                last_check[entity] = record.ordinal
                # the read a write's effect was learned from leaves that write for a later check
                remaining = [w for w in pending.get(entity, [])
                             if not shows(w, read_view) or w.observation == record.ordinal]
                if remaining:
                    pending[entity] = remaining
                else:
                    pending.pop(entity, None)


def _recorded_membership_text(record: Record, read_view: Any, entity_type: Any, answer: Any, line: Any,
                              exercised: list[Pending]) -> str:
    """Why a list line answering its recorded members failed, when it did for a create's entity it
    lists and serving would not (a filter no learned query covers): the note says so, not only where."""
    if read_view.kind != "list" or line is None or line.membership != "recorded" or entity_type is None \
            or answer is None or not record.response.is_json:
        return ""
    shown = locate(record.response.json_value, read_view.locator)
    body = locate(answer.body, read_view.locator) if answer.body is not None else None
    ids = {str(m.get(entity_type.id_field)) for m in body if isinstance(m, dict)} if isinstance(body, list) else set()
    listed = {str(m.get(entity_type.id_field)) for m in shown if isinstance(m, dict)} if isinstance(shown, list) else set()
    made = [w.entity for w in exercised if w.effect == "create" and w.entity is not None
            and str(w.entity) in listed - ids]
    if not made:
        return ""
    query = "&".join(f"{name}={value}" for name, value in record.query)
    return (f" ({entity_type.name} {', '.join(map(repr, made))}, made by a create, is listed; the line"
            f"{' ?' + query if query else ''} answers its recorded members, as no learned query covers it, so "
            "serving would answer it without the created entity)")


def _placement_unproven(record: Record, tool: str, rule: InsertRule, alike: list[str]) -> TraceEvent:
    return TraceEvent(table="gate", rule_id=None, outcome="match", subject=tool,
                      evidence={"record": record.ordinal, "placed": rule.rule_id, "alike": alike},
                      reason=f"record {record.ordinal} lists the create where {rule.rule_id} puts it, but so does "
                             f"another order ({', '.join(alike)}): its place is unproven, and serving refuses a list "
                             "showing a served create beside another")


def _named_by_key(record: Record, read_view: Any, entity_type: Any, key: str) -> TraceEvent:
    field = read_view.key_field
    return TraceEvent(table="gate", rule_id=None, outcome="match", subject=read_view.tool,
                      evidence={"record": record.ordinal, "key_field": field, "entity": key},
                      reason=f"record {record.ordinal} names {entity_type.name} {key!r} by its {field}, as serving "
                             f"looks it up: the read checks the writes to that entity")


def _replayed_query(record: Record, read_view: Any) -> TraceEvent:
    return TraceEvent(table="gate", rule_id=None, outcome="miss", subject=read_view.tool,
                      evidence={"record": record.ordinal, "query": [list(pair) for pair in record.query]},
                      reason=f"record {record.ordinal}: serving replays an item read with this query (no checked "
                             f"read of the view used it, and it may change the shape): it checks nothing")


def placed_by_another_candidate(record: Record, read_view: Any, entity_type: Any, copy: StateIndex,
                                exercised: list[Pending], run: GateRun, absence_statuses: tuple[int, ...],
                                line: Any = None) -> bool:
    """A list failing only for where one create placed its entity passes when another of that
    create's insert candidates reproduces it; that candidate becomes the plan's rule."""
    where = (line.collection or line.path) if line is not None else item_collection_path(copy, record.path,
                                                                                         entity_type)
    held = copy.find_collection(where, entity_type.name)
    if held is None:
        return False

    def reproduces() -> bool:
        answer, is_list, _ = answer_read(read_view, record, {entity_type.name: entity_type}, copy, line=line)
        return compare(answer, record, read_view, is_list=is_list, absence_statuses=absence_statuses) is None

    for write in exercised:
        plan = run.plans.get(write.tool)
        if write.effect != "create" or write.entity is None or plan is None or write.tool in run.rule_fixed:
            continue
        replaced = replace_placement(plan, entity_type, held, write.entity, reproduces, run.insert_table)
        if replaced is not None:
            rule, alike = replaced
            if alike:
                run.traces.append(_placement_unproven(record, write.tool, rule, alike))
            run.insert_rules[write.tool] = rule
            run.plans[write.tool] = plan.model_copy(update={"insert": rule})  # later calls place by it
            run.rule_fixed.add(write.tool)
            return True
    return False


def embedding_creates(record: Record, read_view: Any, mine: dict[str, Any] | None, run: GateRun) -> list[str]:
    """Creates whose entity a failed item read newly embeds in a field the copy's value lacks it in."""
    if not record.succeeded or not record.response.is_json:
        return []
    shown = locate(record.response.json_value, read_view.locator)
    if not isinstance(shown, dict):
        return []
    return creates_newly_embedded(shown, mine, run.created, run.settings)


def shows(write: Pending, read_view: Any) -> bool:
    """A pass confirms a write it shows something of: membership, or a changed field the view
    shows and does not treat as volatile."""
    if changes_whole_entity(write):
        return True
    if read_view.kind == "document":
        return bool(write.changed)
    shown = set(read_view.shown_fields) - set(read_view.volatile_fields)
    return bool(write.changed & shown) if shown else bool(write.changed)


def check_sent_members(record: Record, read_view: Any, entity_type: Any, copy: StateIndex, collection: str,
                       key: str, writes: list[Pending], findings: dict[str, PlanFindings]) -> None:
    """An item read showing an unknown entity again checks the writes since its last check only
    on the members they sent, less those the view treats as volatile."""
    located = locate(record.response.json_value, read_view.locator)
    held = copy.find_collection(collection, entity_type.name)
    if not isinstance(located, dict) or held is None or key not in held.entities:
        return
    mine = held.entities[key]
    volatile = set(read_view.volatile_fields)
    for write in writes:
        members = {m for m in write.sent if m in mine and m not in volatile}
        if not members:
            continue
        # an unmodelled write came after it: a difference may be that write's, so it contradicts nothing
        if all(m in located and located[m] == mine[m] for m in members):
            findings[write.tool].confirmations.append(record.ordinal)
