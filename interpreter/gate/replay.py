"""Replay every primary-origin record in timeline order on a copy of the initial state
(seeds: "The gate"), collecting for each plan its confirmations and contradictions.

Writes a plan models apply their effect through serving's own ``execute`` (with the values
the capture recorded for generated fields); other writes bring their entity to the recorded
outcome or, where nothing shows it, leave what they may have changed unknown or unchecked.
Reads serving would answer from state are answered from the copy and compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import InsertRule, ViewResult, WritePlan
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest, split_path
from capenv.interpreter.plans.timeline import Timeline
from capenv.interpreter.view.extract import collection_path
from capenv.interpreter.view.read_gate import answer_read, compare
from capenv.interpreter.view.views import is_absence
from capenv.interpreter.view.window import is_write
from capenv.serving.ops.sequences import SequenceState, sequence_fields
from capenv.serving.render import locate
from capenv.serving.state_index import StateIndex
from capenv.serving.writes import WriteCall, WriteEnv, WriteRefusal, execute

from .embed_checks import CreatedEntities, creates_newly_embedded, embed_settings
from .write_checks import (_sent, _target_entity, _unobserved_later_update, _updates_unknown_entity,
                           form_problem)
from .item_checks import attribute_failed_item, held_entity
from .list_checks import replace_placement
from .sorted_arrays import SortedArrays

MODELLED_EFFECTS = ("create", "update", "action", "delete", "document", "bulk")


@dataclass
class Pending:
    """A modelled write awaiting a check of what it changed."""

    tool: str
    ordinal: int
    effect: str
    changed: set[str]
    observation: int | None
    sent: frozenset[str] = frozenset()
    """The body members the call sent (what a read of an entity shown again checks)."""
    entity: str | None = None
    """The key of the entity a create made (where a list shows it placed)."""


@dataclass
class PlanFindings:
    confirmations: list[int] = field(default_factory=list)
    contradicted_by: int | None = None
    side_effect_by: int | None = None
    unexplained_by: int | None = None
    """A recorded call whose generated values take another form than serving gives them."""
    notes: list[str] = field(default_factory=list)


@dataclass
class GateRun:
    findings: dict[str, PlanFindings]
    checked_reads: int = 0
    plans: dict[str, WritePlan] = field(default_factory=dict)
    created: CreatedEntities = field(default_factory=CreatedEntities)
    settings: dict[str, Any] = field(default_factory=dict)
    """The ``gate`` settings of the build's rules."""
    insert_table: Any = None
    """The build's ``insert-candidates`` table (None: the packaged one)."""
    insert_rules: dict[str, InsertRule] = field(default_factory=dict)
    """A create's insert rule a later list showed instead of the plan's (the plan takes it)."""
    rule_fixed: set[str] = field(default_factory=set)
    """Creates whose insert rule a passing list check relied on: it no longer changes."""
    sorted_arrays: SortedArrays = field(default_factory=SortedArrays)
    """String-array fields the type's views sort (reads that passed by sorting them)."""


def run_gate(plans: list[WritePlan], view: ViewResult, manifest: Manifest, records: dict[int, Record],
             timeline: Timeline, settings: dict[str, Any] | None = None, insert_table: Any = None) -> GateRun:
    env = WriteEnv(view)
    copy = StateIndex.from_snapshot(view.state)
    sequences = SequenceState()
    sequences.restart(sequence_fields([p for p in plans if p.type]),
                      [(c.type, c.path, c.entities.values()) for c in copy.collections.values()])
    by_tool = {p.tool: p for p in plans}
    tool_of = {o: t.name for t in manifest.tools for o in t.record_ordinals}
    read_only = {p.tool for p in view.read_only_posts}
    views = {v.tool: v for v in view.views}
    findings = {p.tool: PlanFindings() for p in plans}
    pending: dict[tuple, list[Pending]] = {}
    unchecked: set[str] = set()        # collections not checked again
    failed_lists: set[str] = set()     # collections whose list check failed: lists not checked again
    unknown: set[tuple[str, str]] = set()  # entities unknown until a read shows them
    last_check: dict[tuple, int] = {}
    modelled_since: list[tuple[int, str, str]] = []  # (ordinal, tool, path) of modelled writes
    run = GateRun(findings, plans=by_tool, settings=settings if settings is not None else embed_settings(),
                  insert_table=insert_table)
    run.sorted_arrays = SortedArrays.scan(records, views, tool_of, view.state)
    counter = 0
    creating_writes: list[int] = []   # writes no built plan models: they may make entities
    running: list[tuple[Any, set[tuple]]] = []  # (finished_at, targets) of modelled writes
    changed_by_unattributed: dict[tuple, int] = {}  # target -> latest write that took its recorded outcome
    touched: set[tuple[str, str]] = {(c.type, k) for c in copy.collections.values() for k in c.entities}
    for ordinal in sorted(records):
        record = records[ordinal]
        if not record.primary:
            continue
        tool = tool_of.get(ordinal, "")
        if is_write(record, tool_of, read_only):
            plan = by_tool.get(tool)
            if plan is not None and plan.build_reason is None and plan.effect in MODELLED_EFFECTS and record.succeeded:
                if _updates_unknown_entity(plan, record, env, unknown):
                    # its call cannot be checked: it takes the recorded outcome and adds nothing to the plan
                    findings[tool].notes.append(f"record {ordinal}: an update of an unknown entity")
                    if not _bring_to_outcome(plan, record, env, copy, timeline, touched, changed_by_unattributed):
                        _unmodelled(record, env, copy, unchecked, unknown, pending)
                    continue
                if _unobserved_later_update(plan, record, env, timeline, views, tool_of):
                    findings[tool].notes.append(f"record {ordinal}: no read shows the clocks serving stamps")
                    _unmodelled(record, env, copy, unchecked, unknown, pending)
                    continue
                counter += 1
                applied = _apply(plan, record, env, copy, sequences, counter, timeline, findings[tool])
                if applied is not None:
                    run.sorted_arrays.note_written(copy, applied)
                    if plan.effect == "create":
                        _remember_created(tool, applied, copy, run.created)
                    running.append((record.finished_at, set(applied)))
                    touched.update((t[1], t[2]) for t in applied if t[0] == "entity")
                    made = next((t[2] for t in applied if t[0] == "entity"), None) if plan.effect == "create" else None
                    for target in applied:
                        pending.setdefault(target, []).append(Pending(
                            tool, ordinal, plan.effect, applied[target],
                            plan.observation if ordinal == plan.exemplar else None, _sent(plan, record), made))
                    modelled_since.append((ordinal, tool, record.path))
                    continue
                findings[tool].notes.append(f"record {ordinal}: the plan does not explain this call")
                if _bring_to_outcome(plan, record, env, copy, timeline, touched, changed_by_unattributed):
                    continue
                if plan.effect == "create":
                    creating_writes.append(ordinal)  # a linked create's call serving would refuse
            else:
                creating_writes.append(ordinal)
            _unmodelled(record, env, copy, unchecked, unknown, pending)
            continue
        read_view = run.sorted_arrays.current(views.get(tool))
        if record.method != "GET" or read_view is None or not read_view.state_backed:
            continue
        if not record.succeeded and not is_absence(record):
            continue  # a failed read that is no absence (401, 403, 5xx) shows nothing of the state
        if _overlaps_running_write(record, read_view, env, running):
            continue
        if _takes_new_entity(record, read_view, env, copy, touched, creating_writes, last_check):
            continue
        _check_read(record, read_view, env, copy, pending, unchecked, unknown, findings, last_check,
                    modelled_since, run, records, changed_by_unattributed, failed_lists)
    return run


def _apply(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex, sequences: SequenceState, counter: int,
           timeline: Timeline, findings: PlanFindings | None = None) -> dict[tuple, set[str]] | None:
    body = record.request.json_value if record.request.is_json else None
    recorded = _recorded_outcome(plan, record, env, timeline)
    problem = form_problem(plan, recorded)
    if problem and findings is not None and findings.unexplained_by is None:
        findings.unexplained_by = record.ordinal
        findings.notes.append(f"record {record.ordinal}: {problem}")
    call = WriteCall(record.path, record.query, body)
    try:
        result = execute(plan, env, call, copy, instant=record.started_at, counter=counter, sequences=sequences,
                         recorded=recorded)
    except WriteRefusal:
        return None
    provenance = result.provenance
    targets: dict[tuple, set[str]] = {}
    if plan.effect == "document":
        targets[("document", provenance["path"])] = set(result.changed)
        return targets
    if plan.effect == "bulk":
        for key in provenance.get("ids", []):
            targets[("entity", plan.type, str(key))] = {"*"} if plan.bulk_effect == "delete" else \
                {f.field for f in plan.fields}
        targets[("collection", provenance["collection"])] = {"*"}
        return targets
    key = str(provenance.get("id"))
    targets[("entity", plan.type, key)] = set(result.changed) if plan.effect in ("update", "action") else {"*"}
    if plan.effect in ("create", "delete"):
        targets[("collection", provenance["collection"])] = {"*"}
    else:
        targets[("collection", provenance["collection"])] = set(result.changed)
    return targets


def _recorded_outcome(plan: WritePlan, record: Record, env: WriteEnv, timeline: Timeline) -> dict[str, Any] | None:
    """The entity this call recorded: its own answer when it carries the entity, else the first later read."""
    entity_type = env.types.get(plan.type or "")
    if entity_type is None:
        return None
    if plan.response is not None and plan.response.carries_entity and record.response.is_json:
        located = locate(record.response.json_value, plan.response.locator)
        if isinstance(located, dict):
            return located
    target = _target_entity(plan, record, env)
    if plan.effect == "create" and record.response.is_json:
        body = record.response.json_value
        key = str(body.get(entity_type.id_field)) if isinstance(body, dict) else str(body)
    elif target is not None:
        key = target[1]
    else:
        return None
    sighting = timeline.first_after(entity_type.name, key, record.ordinal, via=("item",))
    return sighting.value if sighting is not None else None


def _unmodelled(record: Record, env: WriteEnv, copy: StateIndex, unchecked: set[str], unknown: set[tuple[str, str]],
                pending: dict[tuple, list[Pending]]) -> None:
    """A write no built plan models: what it may have changed is unknown or not checked again."""
    parts = split_path(record.path)
    for entity_type in env.types.values():
        template = split_path(entity_type.collection_template)
        if len(parts) > len(template) and _prefix(parts, template):
            collection = collection_path(record.path, entity_type)
            unknown.add((entity_type.name, unquote(parts[len(template)])))
            held = copy.find_collection(collection, entity_type.name)
            if held is not None and unquote(parts[len(template)]) not in held.entities:
                unchecked.add(held.path)
        elif len(parts) == len(template) and _prefix(parts, template):
            unchecked.add(collection_path(record.path, entity_type))
        elif len(parts) < len(template) and _prefix(template, parts):
            for held in copy.collections_of(entity_type.name):
                if _prefix(split_path(held.path), parts):
                    unchecked.add(held.path)


def _prefix(longer: list[str], shorter: list[str]) -> bool:
    return all(a == b or a.startswith("{") or b.startswith("{") for a, b in zip(longer, shorter))


def _check_read(record: Record, read_view: Any, env: WriteEnv, copy: StateIndex, pending: dict[tuple, list[Pending]],
                unchecked: set[str], unknown: set[tuple[str, str]], findings: dict[str, PlanFindings],
                last_check: dict[tuple, int], modelled_since: list[tuple[int, str, str]], run: GateRun,
                records: dict[int, Record], changed_by_unattributed: dict[tuple, int],
                failed_lists: set[str]) -> None:
    entity_type = env.types.get(read_view.type or "") if read_view.type else None
    if read_view.kind == "item" and entity_type is not None:
        collection = collection_path(record.path, entity_type)
        if collection in unchecked:
            return
        key = unquote(split_path(record.path)[-1])
        targets = [("entity", entity_type.name, key)]
        if (entity_type.name, key) in unknown:
            if record.succeeded:
                _check_sent_members(record, read_view, entity_type, copy, collection, key,
                                    pending.get(targets[0], []), findings)
            if record.succeeded or is_absence(record):  # a failed read that is no absence shows nothing
                _resync_item(record, read_view, entity_type, copy, collection, key)
                unknown.discard((entity_type.name, key))
                pending.pop(targets[0], None)
                last_check[targets[0]] = record.ordinal
            return
    elif read_view.kind == "list" and entity_type is not None:
        collection = collection_path(record.path, entity_type)
        if collection in unchecked or collection in failed_lists:
            return  # a list whose check failed is not checked again (its items still are)
        if any(t == entity_type.name and _held_in(copy, collection, entity_type.name, k) for t, k in unknown):
            failed_lists.add(collection)  # an unmodelled write may explain the rest: not checked again
            return
        line = next((l for l in read_view.lines if l.path == record.path and l.query == record.query), None)
        if line is None or not line.state_backed:
            return
        targets = [("collection", collection)]
    elif read_view.kind == "document":
        line = next((l for l in read_view.documents if l.path == record.path and l.query == record.query), None)
        if line is None or not line.state_backed:
            return
        targets = [("document", record.path)]
    else:
        return
    exercised = [p for t in targets for p in pending.get(t, []) if p.observation != record.ordinal]
    answer, is_list, _ = answer_read(read_view, record, env.types, copy)
    reason = compare(answer, record, read_view, is_list=is_list)
    run.checked_reads += 1
    if reason is not None and read_view.kind == "list" and entity_type is not None:
        if _placed_by_another_candidate(record, read_view, entity_type, copy, exercised, run):
            reason = None
    if reason is not None and entity_type is not None and read_view.kind in ("item", "list"):
        # the app may show string arrays sorted: the read then checks the writes it exercises
        resorted = run.sorted_arrays.passing_view(record, read_view, entity_type, copy, env.types)
        if resorted is not None:
            read_view, reason = resorted, None
    if reason is None:
        if read_view.kind == "list":
            run.rule_fixed.update(w.tool for w in exercised if w.effect == "create")
        shown = [w for w in exercised if _shows(w, read_view)]
        for write in shown:
            findings[write.tool].confirmations.append(record.ordinal)
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
                    remaining = [w for w in pending.get(entity, []) if not _shows(w, read_view)]
                    if remaining:
                        pending[entity] = remaining
                    else:
                        pending.pop(entity, None)
        return
    contradicted = [w.tool for w in exercised]
    if read_view.kind == "item":
        mine = held_entity(copy, collection_path(record.path, entity_type), entity_type, read_view, record.path)
        if exercised:
            found = attribute_failed_item(record, read_view, mine, exercised, run.plans, records)
            contradicted = found.contradicted
            for tool in found.confirmed:
                findings[tool].confirmations.append(record.ordinal)
        contradicted += _embedding_creates(record, read_view, mine, run)
    for tool in dict.fromkeys(contradicted):
        if tool in findings and findings[tool].contradicted_by is None:
            findings[tool].contradicted_by = record.ordinal
            findings[tool].notes.append(reason)
    if not exercised:
        since = max((last_check.get(t, 0) for t in targets), default=0)
        changed = any(changed_by_unattributed.get(t, 0) > since for t in targets)
        for ordinal, tool, path in ([] if changed else modelled_since):
            if ordinal > since and _related(path, record.path) and tool in findings:
                if findings[tool].side_effect_by is None:
                    findings[tool].side_effect_by = record.ordinal
                    findings[tool].notes.append(f"side effect: {reason}")
    for target in targets:
        pending.pop(target, None)
        last_check[target] = record.ordinal
    if read_view.kind == "item":
        _resync_item(record, read_view, entity_type, copy, collection_path(record.path, entity_type),
                     unquote(split_path(record.path)[-1]))
    elif read_view.kind == "list":
        failed_lists.add(targets[0][1])
    elif read_view.kind == "document" and record.response.is_json:
        copy.documents[record.path] = record.response.json_value


def _placed_by_another_candidate(record: Record, read_view: Any, entity_type: Any, copy: StateIndex,
                                 exercised: list[Pending], run: GateRun) -> bool:
    """A list failing only for where one create placed its entity passes when another of that
    create's insert candidates reproduces it; that candidate becomes the plan's rule."""
    held = copy.find_collection(collection_path(record.path, entity_type), entity_type.name)
    if held is None:
        return False

    def reproduces() -> bool:
        answer, is_list, _ = answer_read(read_view, record, {entity_type.name: entity_type}, copy)
        return compare(answer, record, read_view, is_list=is_list) is None

    for write in exercised:
        plan = run.plans.get(write.tool)
        if write.effect != "create" or write.entity is None or plan is None or write.tool in run.rule_fixed:
            continue
        rule = replace_placement(plan, entity_type, held, write.entity, reproduces, run.insert_table)
        if rule is not None:
            run.insert_rules[write.tool] = rule
            run.plans[write.tool] = plan.model_copy(update={"insert": rule})  # later calls place by it
            run.rule_fixed.add(write.tool)
            return True
    return False


def _remember_created(tool: str, applied: dict[tuple, set[str]], copy: StateIndex, created: CreatedEntities) -> None:
    for target in applied:
        if target[0] != "entity":
            continue
        for held in copy.collections_of(target[1]):
            if target[2] in held.entities:
                created.add(tool, target[2], held.entities[target[2]])


def _embedding_creates(record: Record, read_view: Any, mine: dict[str, Any] | None, run: GateRun) -> list[str]:
    """Creates whose entity a failed item read newly embeds in a field the copy's value lacks it in."""
    if not record.succeeded or not record.response.is_json:
        return []
    shown = locate(record.response.json_value, read_view.locator)
    if not isinstance(shown, dict):
        return []
    return creates_newly_embedded(shown, mine, run.created, run.settings)


def _shows(write: Pending, read_view: Any) -> bool:
    """A pass confirms a write it shows something of: membership, or a changed field the view
    shows and does not treat as volatile."""
    if write.effect in ("create", "delete") or "*" in write.changed:
        return True
    if read_view.kind == "document":
        return bool(write.changed)
    shown = set(read_view.shown_fields) - set(read_view.volatile_fields)
    return bool(write.changed & shown) if shown else bool(write.changed)


def _related(a: str, b: str) -> bool:
    left, right = split_path(a), split_path(b)
    shorter, longer = (left, right) if len(left) <= len(right) else (right, left)
    return all(x == y for x, y in zip(shorter, longer[: len(shorter)]))


def _resync_item(record: Record, read_view: Any, entity_type: Any, copy: StateIndex, collection: str, key: str) -> None:
    """After a failed check (or for an unknown entity) the copy takes the read's recorded values."""
    held = copy.find_collection(collection, entity_type.name)
    if is_absence(record):
        if held is not None and key in held.entities:
            from capenv.serving.state_edits import remove_entity

            remove_entity(held, key)
        return
    located = locate(record.response.json_value, read_view.locator)
    if not isinstance(located, dict):
        return
    from capenv.serving.state_edits import ensure_collection, insert_entity, replace_entity

    held = held or ensure_collection(copy, collection, entity_type.name, {})
    if key in held.entities:
        # the copy takes the read's values; fields the view never shows are kept as held
        shown = set(read_view.shown_fields)
        merged = {k: v for k, v in held.entities[key].items() if shown and k not in shown}
        merged.update(located)
        replace_entity(held, key, merged)
    else:
        insert_entity(held, located.get(entity_type.id_field, key), dict(located), len(held.order))


def _bring_to_outcome(plan: WritePlan, record: Record, env: WriteEnv, copy: StateIndex, timeline: Timeline,
                      touched: set[tuple[str, str]], changed_by_unattributed: dict[tuple, int]) -> bool:
    """A modelled write whose call the plan does not explain brings its entity to the recorded
    outcome, without attribution; False when nothing shows the outcome."""
    entity_type = env.types.get(plan.type or "")
    if entity_type is None or plan.effect == "document":
        return False
    outcome = _recorded_outcome(plan, record, env, timeline)
    if plan.effect == "delete":
        target = _target_entity(plan, record, env)
        if target is None:
            return False
        for held in copy.collections_of(entity_type.name):
            if target[1] in held.entities:
                from capenv.serving.state_edits import remove_entity

                remove_entity(held, target[1])
        touched.add(target)
        return True
    if not isinstance(outcome, dict) or entity_type.id_field not in outcome:
        return False
    key = str(outcome[entity_type.id_field])
    own = collection_path(record.path, entity_type)
    in_type = len(split_path(record.path)) >= len(split_path(entity_type.collection_template)) and _prefix(
        split_path(record.path), split_path(entity_type.collection_template))
    collection = own if in_type or not plan.collection else plan.collection
    from capenv.serving.state_edits import ensure_collection, insert_entity, replace_entity

    held = copy.find_collection(collection, entity_type.name) or ensure_collection(copy, collection,
                                                                                 entity_type.name, {})
    if key in held.entities:
        merged = dict(held.entities[key])
        merged.update(outcome)
        replace_entity(held, key, merged)
    else:
        insert_entity(held, outcome[entity_type.id_field], dict(outcome), len(held.order))
    touched.add((entity_type.name, key))
    changed_by_unattributed.update({("entity", entity_type.name, key): record.ordinal,
                                    ("collection", held.path): record.ordinal})
    return True


def _takes_new_entity(record: Record, read_view: Any, env: WriteEnv, copy: StateIndex,
                      touched: set[tuple[str, str]], creating_writes: list[int], last_check: dict[tuple, int]) -> bool:
    """A successful item read of an entity the copy never held, after a write no built plan models
    (since that entity or its collection was last checked), shows that entity: the copy takes it."""
    if read_view.kind != "item" or not record.succeeded or not record.response.is_json:
        return False
    entity_type = env.types.get(read_view.type or "")
    if entity_type is None:
        return False
    located = locate(record.response.json_value, read_view.locator)
    if not isinstance(located, dict) or entity_type.id_field not in located:
        return False
    key = str(located[entity_type.id_field])
    if (entity_type.name, key) in touched:
        return False
    collection = collection_path(record.path, entity_type)
    since = max(last_check.get(("entity", entity_type.name, key), 0), last_check.get(("collection", collection), 0))
    if not any(since < ordinal < record.ordinal for ordinal in creating_writes):
        return False
    _resync_item(record, read_view, entity_type, copy, collection, key)
    touched.add((entity_type.name, key))
    return True


def _overlaps_running_write(record: Record, read_view: Any, env: WriteEnv, running: list[tuple[Any, set[tuple]]]
                            ) -> bool:
    """A read that began before a modelled write to its entity or collection ended may show
    either state: it checks nothing."""
    entity_type = env.types.get(read_view.type or "") if read_view.type else None
    if read_view.kind == "document":
        mine = {("document", record.path)}
    elif entity_type is not None:
        collection = collection_path(record.path, entity_type)
        mine = {("collection", collection)}
        if read_view.kind == "item":
            mine.add(("entity", entity_type.name, unquote(split_path(record.path)[-1])))
    else:
        return False
    running[:] = [item for item in running if item[0] > record.started_at]  # the others ended before it
    return any(targets & mine for _, targets in running)


def _held_in(copy: StateIndex, collection: str, type_name: str, key: str) -> bool:
    held = copy.find_collection(collection, type_name)
    return held is not None and key in held.entities


def _check_sent_members(record: Record, read_view: Any, entity_type: Any, copy: StateIndex, collection: str,
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


