"""Execute a write plan against a state: the one path both the gate and serving take.

``execute`` checks the call (query, envelope, members, JSON kinds, limits: ``checks``),
computes every value with the plan's field rules (the serving ops: ``values``), and only
then edits the state, so a refused call leaves it unchanged. In the gate, ``recorded`` supplies
the values the capture recorded for generated fields (identities, clocks, sequences, tokens), as
the spec requires. The item effects (create, update or action, delete) are here; bulk writes
and document writes have their own modules, and a create's collection is ``create_collections``'.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.insert import insert_index, sort_key
from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import EitherKey, InsertRule, Recording, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_json
from capenv.serving.ops.sequence_state import SequenceState
from capenv.serving.read_call import CallRefused, quoted
from capenv.serving.reads.absence import held_shapes, refuse_other_key_spelling, refuse_unshaped_id
from capenv.serving.reads.escaped_spellings import UnknownSpelling, spelled_swap
from capenv.serving.reads.id_layouts import unproven_layout
from capenv.serving.reads.parents import unheld_collection
from capenv.serving.reads.redrawn import redrawn_refusal
from capenv.serving.state.edits import (ensure_collection, insert_entity, mark_unplaced, move_first, move_last,
                                        remove_entity, replace_entity)
from capenv.serving.state.index import HeldCollection, StateIndex, key_of
from capenv.serving.state.shallow import at_item_path, holders, item_collection_path
from capenv.serving.state.spellings import held_spelled_otherwise, other_spelling_refusal

from .absent_ids import names_token, with_values
from .answers import check_answer_covers, render_answer, render_split, write_result
from .bulk import write_bulk
from .calls import WriteCall, WriteEnv, WriteRefusal, WriteResult, check_tag
from .chosen_ids import check_chosen_id
from .checks import (check_bulk_body, check_members, check_query, masked_body, refuse_unheld_patch_targets,
                     unwrap_body)
from .create_collections import collection_for_create, path_arguments, refuse_under_absent_parent
from .create_keys import answer_held, held_by_key, refuse_key_case_variant, refuse_key_clash
from .distinct_values import refuse_repeated_values
from .documents import write_document
from .held_copies import refuse_held_copies
from .nested_copies import refuse_nested_copies
from .plans import PlanParts, plan_parts, sent_arguments
from .reference_copies import copy_referenced, refuse_stale_copies, rewrite_copies
from .view_absence import item_view_absence, refuse_shown_missing
from .references import check_references
from .object_merges import refuse_unproven_merges
from .parent_states import refuse_unproven_parent_states
from .protected import refuse_protected
from .referrers import refuse_referenced
from .unchanged_updates import refuse_unchanged
from .validated_values import check_validated_values
from .values import charge_growth, field_values, op_context


def _find_item(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex
               ) -> tuple[HeldCollection, str, dict[str, Any]]:
    entity_type = env.types[plan.type]
    parts = split_path(call.path)
    if plan.address is not None and plan.address.segments_after_item():
        parts = parts[:len(parts) - plan.address.segments_after_item()]
    member = plan.address.member if plan.address is not None and plan.address.by == "path" else None
    item_path = "/" + "/".join(parts)
    listed = env.view.budgets.values_quoted
    _refuse_held_twice(state, item_path, entity_type, member, listed)
    where = item_collection_path(state, item_path, entity_type, member)
    collection = state.find_collection(where, entity_type.name)
    if member and collection is not None:
        found = _one_holding(state, collection, parts[-1], member, entity_type, listed)
    else:
        found = _by_path(state, collection, parts[-1], entity_type, plan, listed) if collection else None
    if collection is not None and found is None and (held := held_spelled_otherwise(
            collection, parts[-1], member or entity_type.id_field, entity_type.id_field)):
        raise WriteRefusal(other_spelling_refusal(entity_type.name, parts[-1], held))
    if collection is None or found is None:
        refuse_shown_missing(env, entity_type, where, item_path, parts[-1], member)
        if plan.missing_refused and env.checks_references:  # the gate replays what the application did
            raise WriteRefusal(f"no {entity_type.name} entity {unquote(parts[-1])!r} is held, and {plan.method} may "
                               f"make it (a recorded {plan.method} at an item path answered 201 Created, or named "
                               "an entity nothing showed before it), which the capture never showed answered for a "
                               "missing one here: send it naming a held entity")
        own = _absence(plan, env, call.path, entity_type.either_key if member is None else None)
        # only the tool's own recorded absence outweighs a success the capture shows for a missing id:
        # a sibling's 404 (Medusa's category delete) says nothing of a tool whose kind may answer
        # such a call with success, as the capture's other deletes did
        succeeded = None if plan.tool in env.tool_absences else env.success_absences.get(plan.effect)
        if succeeded is not None:
            raise WriteRefusal(f"no {entity_type.name} entity {unquote(parts[-1])!r} is held, and the capture shows "
                               f"the application answering a {plan.effect} of an id it did not hold with success "
                               f"({succeeded}), not with the item read's absence: whether it answers this one as "
                               "missing or as done is not known", kind="missing",
                               where={"collection": collection.path if collection else where, "id": unquote(parts[-1])})
        absence = own or item_view_absence(env, entity_type, item_path, state, either=member is None)
        if absence is not None and member is None and entity_type.either_key is None:  # else a name
            _refuse_unshaped(state, entity_type, parts[-1])
            laid_out = unproven_layout(env.unproven_id_shapes.get(entity_type.name, ()), parts[-1],
                                       type_name=entity_type.name)
            if laid_out is not None:
                raise WriteRefusal(laid_out)
        if collection is None and absence is not None and 200 <= absence.status < 300:
            raise WriteRefusal(f"the state holds no {entity_type.name} collection at {where}: the recorded "
                               f"{absence.status} for a missing {entity_type.name} was answered where its "
                               "collection was held, and what the application answers under a parent it does "
                               "not hold (perhaps a 404 for the parent), no recording shows")
        unheld = unheld_collection(where, entity_type, state) if collection is None else None
        if unheld is not None:
            raise WriteRefusal(f"no {entity_type.name} entity {unquote(parts[-1])!r} is held: {unheld}",
                               kind="missing", where={"collection": where, "id": unquote(parts[-1])})
        raise WriteRefusal(f"no {entity_type.name} entity {unquote(parts[-1])!r} is held",
                           kind="missing", missing=absence,
                           where={"collection": collection.path if collection else where,
                                  "id": unquote(parts[-1])})
    redrawn = redrawn_refusal(entity_type, found[0], collection.ids.get(found[0], found[0]))
    if redrawn is not None and env.checks_references:  # the gate replays what the application did with each call
        raise WriteRefusal(redrawn)
    _refuse_copies(state, collection, found[0], found[1], entity_type, listed)
    return collection, found[0], found[1]


def _refuse_copies(state: StateIndex, collection: HeldCollection, key: str, entity: dict[str, Any],
                   entity_type: Any, listed: int) -> None:
    """The same entity (its id and every field both show alike) held in another collection of the type too, as
    an application answering it under any parent shows it (Superset's annotation 1 read under layer
    2): a write here would change or remove one copy and leave the other showing it as it was.
    ``listed``: the collections the refusal names at most (the budget ``values_quoted``)."""
    copies = [c.path for c in state.collections_of(entity_type.name)
              if c is not collection and key in c.entities and _alike(c.entities[key], entity, entity_type.id_field)]
    if copies:
        raise WriteRefusal(f"the {entity_type.name} entity {collection.ids.get(key, key)!r} is held alike under "
                           f"{len(copies) + 1} collections ({quoted([collection.path] + copies, listed)}): the "
                           f"application shows one entity under each, and a write here would change one copy and "
                           f"leave the others as they were, which this environment does not model")


def _alike(one: dict[str, Any], other: dict[str, Any], id_field: str) -> bool:
    """Two entities of one id showing the same values in every field both hold, and more than the
    id (one may be a list's projection of the other's item read)."""
    shared = [f for f in one if f in other]
    return any(f != id_field for f in shared) and all(same_json(one[f], other[f]) for f in shared)


def _refuse_held_twice(state: StateIndex, item_path: str, entity_type: Any, member: str | None,
                       listed: int) -> None:
    """A shallow type's id two held collections hold: a write at the item path would change one of
    them and leave the other showing the entity as it was."""
    if not at_item_path(item_path, entity_type):
        return
    found = holders(state, item_path, entity_type, member)
    if len(found) > 1:
        raise WriteRefusal(f"{len(found)} {entity_type.name} collections ({quoted((c.path for c in found), listed)}) "
                           f"hold the entity {item_path} names; a write here would change one of them and leave "
                           "the others as they were, which this environment does not model")


def _refuse_unshaped(state: StateIndex, entity_type: Any, raw_id: str) -> None:
    """The recorded absence is given only to an id of the shape every held id of the type has, as
    an item read's is (``refuse_unshaped_id``): the application may refuse another shape as invalid."""
    try:
        refuse_unshaped_id(raw_id, held_shapes(state, entity_type.name, address=entity_type.address),
                           type_name=entity_type.name, field=entity_type.id_field)
    except CallRefused as refused:
        raise WriteRefusal(refused.message) from None


def _one_holding(state: StateIndex, collection: HeldCollection, raw_value: str, member: str, entity_type: Any,
                 listed: int) -> tuple[str, dict[str, Any]] | None:
    """The one entity a path naming it by a key member names; None when none holds the value. Two
    or more holding it name no one entity: refused, since writing either could be the wrong one."""
    holders = state.entities_holding(collection, raw_value, member)
    if len(holders) > 1:
        ids = quoted((collection.ids.get(k, k) for k, _ in holders), listed)
        raise WriteRefusal(f"{len(holders)} {entity_type.name} entities hold {member!r} {unquote(raw_value)!r} "
                           f"({ids}): this path names one entity by its "
                           f"{member!r}, so it names none of them; write it at its item path "
                           f"{entity_type.item_template} by {entity_type.id_field!r}, or give it a unique {member!r}")
    return holders[0] if holders else None


def _by_path(state: StateIndex, collection: HeldCollection, raw_id: str, entity_type: Any, plan: WritePlan,
             listed: int) -> tuple[str, dict[str, Any]] | None:
    """The entity an item path names: by its identity, or where the path also takes another key
    member (``EitherKey``) and the value is not shaped as an identity, the one entity holding it
    there (two or more are refused: the value names no one entity). A write whose recorded calls
    never named their entity by that member is refused it: reads taking it say nothing of the
    write (Superset reads a dashboard by its slug but answers 404 to a DELETE by it)."""
    either = entity_type.either_key
    if either is not None and not either.names_identity(unquote(raw_id)):
        found = _one_holding(state, collection, raw_id, either.member, entity_type, listed)
        if found is not None and not plan.either_key_named:
            held_id = collection.ids.get(found[0], found[0])
            raise WriteRefusal(f"this write names its {entity_type.name} entity by {either.member!r} "
                               f"{unquote(raw_id)!r}, which no recorded call of it did (reads do): the capture cannot "
                               f"show the application taking it here; name it by {entity_type.id_field!r} "
                               f"({held_id!r})")
        return found
    return state.find_entity(collection, raw_id, entity_type.id_field, entity_type.id_field, None,
                             entity_type.address)


def _refuse_nested(entity_type: Any, collection: HeldCollection, key: str, listed: int) -> None:
    """A path-like id with entities under it (``EntityType.nested_ids``): the application would
    delete them along, which a delete (the entity alone) does not model."""
    if not entity_type.nested_ids:
        return
    under = [k for k in collection.entities if k.startswith(key + "/")]
    if under:
        shown = quoted(under, listed)
        raise WriteRefusal(f"{key!r} holds {len(under)} {entity_type.name} entit{'y' if len(under) == 1 else 'ies'} "
                           f"under it ({shown}); the application deletes them with it, which this environment does "
                           "not model: delete those first, then this one")


def _absence(plan: WritePlan, env: WriteEnv, call_path: str, either: EitherKey | None) -> Recording | None:
    """The tool's own recorded absence, else its sibling's (``WritePlan.absence_tool``), answered
    for the call's path: each string that carried a value of the recorded call's path parameters
    (its id, a parent's name) carries the call's value there. Where the item path takes either key
    (``either``), only for a call naming its entity in the recorded call's spelling."""
    source = plan.tool if plan.tool in env.tool_absences else plan.absence_tool
    recording = env.tool_absences.get(source) if source else None
    path = env.absence_paths.get(source) if source else None
    if recording is None or path is None or plan.address is None:
        return recording
    recorded, called, template = split_path(path), split_path(call_path), split_path(plan.template)
    depth = plan.address.segments_after_item()
    if len(recorded) <= depth or len(called) <= depth:
        return recording
    # the id, as the item path names it; with the template's shape, every other path value too
    named = unquote(recorded[len(recorded) - 1 - depth])
    try:
        refuse_other_key_spelling(either, named if names(recording, named) else None,
                                  called[len(called) - 1 - depth], type_name=plan.type or plan.tool, path=call_path)
    except CallRefused as refused:
        raise WriteRefusal(refused.message, kind="missing") from None
    pairs = [(recorded[len(recorded) - 1 - depth], called[len(called) - 1 - depth])]
    if len(recorded) == len(called) == len(template):
        pairs += [(r, c) for r, c, t in zip(recorded, called, template) if t.startswith("{")]
    swaps: dict[str, str] = {}
    for recorded_raw, called_raw in pairs:
        try:  # each value in the spelling the recorded answer shows the application writing
            swap = spelled_swap(recorded_raw, called_raw,
                                lambda text: names_token(recording.body, text) or names_token(recording.text, text))
        except UnknownSpelling as unknown:
            raise WriteRefusal(unknown.message(call_path), kind="missing") from None
        if swap is not None and swap[0] not in swaps:
            swaps[swap[0]] = swap[1]
    # a non-JSON answer (a text/plain 404) keeps its words in ``text``: swapped there too
    return recording.model_copy(update={"body": with_values(recording.body, swaps),
                                        "text": with_values(recording.text, swaps)})


def names(recording: Recording, value: str) -> bool:
    """Whether the recorded answer's body or text carries ``value`` (a body's exact numbers, as
    privacyIDEA's epoch ``time`` 1796522461.5307019, written verbatim)."""
    return bool(value) and (value in (recording.text or "") or value in dumps(recording.body).decode("utf-8"))


def refuse_other_identity(rules: dict[str, Any], body: dict[str, Any], entity: dict[str, Any]) -> None:
    """An identity member accepted only as the path's id (``MemberRule.path_id_only``) sent with
    another value: no recorded call shows what the application does with it."""
    for name, rule in rules.items():
        if rule.path_id_only and name in body and str(body[name]) != str(entity.get(name)):
            raise WriteRefusal(f"member {name!r} is accepted only as the id the path names "
                               f"({entity.get(name)!r}): no recorded call sent another")


def execute(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex, *, instant: datetime, counter: int,
            sequences: SequenceState, recorded: dict[str, Any] | None = None, limit_check: Any = None) -> WriteResult:
    """Serve one call of ``plan`` on ``state`` (edited only when the call is accepted).

    ``limit_check(growth_in_bytes)`` may raise a ``WriteRefusal`` before anything is edited."""
    parts = plan_parts(env, plan)
    effect = plan.effect  # a model's attribute, read once (pydantic's ``__getattr__`` hook makes each read dear)
    if call.query:
        check_query(plan, call, parts)
    budgets = env.view.budgets
    if effect == "delete":
        collection, key, entity = _find_item(plan, env, call, state)
        check_tag(plan, call, entity)
        _refuse_nested(env.types[plan.type], collection, key, budgets.values_quoted)
        if plan.referrers and env.checks_references:
            refuse_referenced(plan, state, key, entity, env.types[plan.type].id_field)
        if plan.protected and env.checks_references:
            refuse_protected(plan, entity, collection.ids.get(key, key))
        if plan.copy_holders and env.checks_references:
            refuse_held_copies(plan.copy_holders, state, key, entity, None, env.types[plan.type].id_field, plan.type,
                               budgets.values_quoted)
        if env.checks_references:  # the gate judges the recorded writes' copies by write-copies
            refuse_nested_copies(state, collection, key, entity, None, env.types[plan.type].id_field, plan.type,
                                 env.summarising_documents.get(plan.type, frozenset()), budgets.values_quoted,
                                 budgets.copy_name_characters)
        body, is_json, text = render_answer(plan, entity)
        remove_entity(collection, key)
        return write_result(plan, body, is_json, text, {"source": "state", "view": "delete", "type": plan.type,
                                                        "collection": collection.path,
                                                        "id": collection_id(entity, env, plan)},
                            [key])
    if effect == "bulk":
        check_bulk_body(call.body, budgets.max_nesting)
        return write_bulk(plan, env, call, state, call.body, instant, counter, sequences, limit_check)
    placed = None
    if effect == "create":  # a call in another collection is refused for that first
        placed = collection_for_create(plan, env, call, state, sent_arguments(parts, call.path), parts)
        if env.checks_references:  # the gate replays what the application did
            refuse_under_absent_parent(placed[0], env, state)
            if plan.parent_states:
                refuse_unproven_parent_states(plan, placed[0], env.types, state)
    body = unwrap_body(plan, call.body)
    check_members(plan, body, budgets.max_nesting, parts)
    if effect == "document":
        if plan.validated_values and env.checks_references:
            check_validated_values(plan, body)

        def stamp(target: dict[str, Any]) -> dict[str, Any]:
            ctx, draft = op_context(plan, state, body, instant, counter, sequences, None, {}, dict(target))
            values = field_values(plan, ctx, recorded)
            draft.commit()
            return values

        return write_document(plan, call, body, state, limit_check, stamp=stamp)
    if placed is not None:
        if plan.references and env.checks_references:
            check_references(plan, body, state, placed[1])
        if plan.validated_values and env.checks_references:
            check_validated_values(plan, body)
        held = held_by_key(plan, env, body, state, placed[0]) if plan.key is not None else None
        if held is not None:  # a get-or-create naming a held key: the held entity, nothing written
            return answer_held(plan, env, placed[0], *held)
        if plan.key is not None and env.checks_references:  # the gate replays what the application did
            refuse_key_case_variant(plan, body, state, placed[0])
        if plan.distinct_members and env.checks_references:
            refuse_repeated_values(plan, body, state.find_collection(placed[0], plan.type))
        return _create(plan, env, state, body, placed, parts, instant, counter, sequences, recorded, limit_check,
                       call.path)
    if effect in ("update", "action"):
        collection, key, entity = _find_item(plan, env, call, state)
        refuse_other_identity(parts.members, body, entity)  # before the mask, which need not name it
        body = masked_body(plan, call, body)
        check_tag(plan, call, entity)
        refuse_unheld_patch_targets(plan, call.body, entity)
        if plan.protected and env.checks_references:
            refuse_protected(plan, entity, collection.ids.get(key, key))
        if plan.references and env.checks_references:  # a missing entity answers as the application does first
            check_references(plan, body, state, dict(collection.args))
        if plan.validated_values and env.checks_references:
            check_validated_values(plan, body)
        if plan.object_merges and env.checks_references:
            refuse_unproven_merges(plan, body, entity)
        ctx, draft = op_context(plan, state, body, instant, counter, sequences, collection.path,
                                dict(collection.args), entity)
        values = field_values(plan, ctx, recorded, parts.rules)
        if env.checks_references:  # the gate replays what the application did with each recorded call
            refuse_unchanged(entity, body, values)
        updated = dict(entity)
        updated.update(values)
        if plan.reference_copies:  # a re-pointed reference takes its copy from the entity it names now
            copies = rewrite_copies(plan, state, entity, values, updated)
            values.update(copies)
            updated.update(copies)
        if plan.copied_by and env.checks_references:
            refuse_stale_copies(plan, state, key, entity, updated)
        refuse_key_clash(plan, env, collection, key, updated)
        if plan.distinct_members and env.checks_references:
            refuse_repeated_values(plan, body, collection, key)
        if plan.copy_holders and env.checks_references:
            refuse_held_copies(plan.copy_holders, state, key, entity, updated, env.types[plan.type].id_field,
                               plan.type, budgets.values_quoted)
        if env.checks_references:  # the gate judges the recorded writes' copies by write-copies
            refuse_nested_copies(state, collection, key, entity, updated, env.types[plan.type].id_field, plan.type,
                                 env.summarising_documents.get(plan.type, frozenset()), budgets.values_quoted,
                                 budgets.copy_name_characters)
        # serving refuses an entity that lacks a field the answer shows; the gate too, so the call is
        # one serving refuses (unexplained), not one whose later read contradicts the plan
        check_answer_covers(plan, updated, unsent_members(plan, body), parts.covers)
        charge_growth(limit_check, entity, updated)
        split = _split_answer(plan, env, updated, body, call.path)  # refused before the state changes
        unplaced = len(collection.order) > 1 and (  # else the capture proves it listed where it was
            plan.list_place == "unproven" or plan.list_place == "last-kept" and collection.order[-1] != key)
        draft.commit()
        replace_entity(collection, key, updated)
        if unplaced:
            mark_unplaced(collection, key)
        if plan.list_place == "moved-last":  # the application lists an updated entity last
            move_last(collection, key)
        elif plan.list_place == "moved-first":  # or first, newest written first
            move_first(collection, key)
        response, is_json, text = split if split is not None else render_answer(plan, updated)
        return write_result(plan, response, is_json, text, {"source": "state", "view": "update", "type": plan.type,
                                                            "collection": collection.path,
                                                            "id": collection.ids.get(key, key)}, list(values),
                            parts.answer)
    raise WriteRefusal(f"{effect} writes are not served")


def _orders_disagree(members: list[dict[str, Any]], entity: dict[str, Any], index: int) -> bool:
    """Whether an order the held members also follow (by another of their scalar members, either
    direction) places ``entity`` elsewhere than ``index``: where every such order agrees, so does
    the member the capture could not tell from the identity (``InsertRule.unproven_anywhere``)."""
    if index != len(members):
        return True  # creation order puts it last
    for name, value in entity.items():
        if isinstance(value, (dict, list)) or value is None:
            continue
        if any(not isinstance(m.get(name), (str, int, float)) or isinstance(m.get(name), bool) for m in members):
            continue
        keys = [sort_key(m[name]) for m in members]
        for descending in (False, True):
            pairs = list(zip(keys, keys[1:]))
            if all((a >= b) if descending else (a <= b) for a, b in pairs):
                rule = InsertRule(rule_id="probe.sorted", kind="sorted", field=name, descending=descending)
                if insert_index(members, entity, rule) != index:
                    return True
    return False


def _split_answer(plan: WritePlan, env: WriteEnv, entity: dict[str, Any], body: dict[str, Any],
                  path: str) -> tuple[Any, bool, None] | None:
    """The answer of a plan whose recorded answers split the entity's identity from it, rendered
    (or refused) before the state changes; None for any other plan."""
    if plan.response is None or plan.response.split is None:
        return None
    return render_split(plan, entity, env.types[plan.type].id_field, body, path), True, None


def unsent_members(plan: WritePlan, body: dict[str, Any]) -> frozenset[str]:
    """The accepted, optional members of an update that this call left out."""
    return frozenset(m.member for m in plan.members
                     if m.admission == "accepted" and not m.required and m.member not in body)


def _values(args: dict[str, str]) -> str:
    return ", ".join(f"{name} {value!r}" for name, value in args.items())


def collection_id(entity: dict[str, Any], env: WriteEnv, plan: WritePlan) -> Any:
    return entity.get(env.types[plan.type].id_field) if plan.type in env.types else None


def _create(plan: WritePlan, env: WriteEnv, state: StateIndex, body: dict[str, Any],
            placed: tuple[str, dict[str, str]], parts: PlanParts, instant: datetime, counter: int,
            sequences: SequenceState, recorded: dict[str, Any] | None, limit_check: Any = None,
            call_path: str = "") -> WriteResult:
    """``placed``: the collection ``collection_for_create`` chose for the call (and its arguments);
    ``call_path``: the path the call was sent to."""
    entity_type = env.types[plan.type]
    id_field, type_name, insert = entity_type.id_field, entity_type.name, plan.insert  # models' attributes, read once
    path, collection_args = placed
    decoded = parts.decoded_exemplar | collection_args
    ctx, draft = op_context(plan, state, body, instant, counter, sequences, path, decoded, None)
    entity = field_values(plan, ctx, recorded, parts.rules)
    if plan.reference_copies:  # never the exemplar's copy: the one the named entity holds now
        entity.update(copy_referenced(plan, state, entity, creating=True))
    if id_field not in entity:
        raise WriteRefusal(f"the plan gives no value to the identity field {id_field!r}")
    if env.checks_references and plan.chosen_id is not None:  # the gate replays what the application took
        check_chosen_id(plan.chosen_id, type_name, entity[id_field])
    held = state.find_collection(path, type_name)
    if held is None and plan.dispatch_args and not plan.makes_collection and env.checks_references:
        raise WriteRefusal(
            f"the state holds no {path}: every recorded create of {_values(plan.dispatch_args)} followed a write "
            "naming it that no plan models (its collection made by another call), and the capture never showed a "
            f"create making a new collection, so this environment cannot tell whether the application accepts one "
            f"here; it creates only where the state holds the collection")
    if held is not None and key_of(entity[id_field]) in held.entities:
        raise WriteRefusal(f"a {type_name} entity {entity[id_field]!r} is already held", kind="conflict")
    if recorded is None:
        check_answer_covers(plan, entity, covers=parts.covers)
    charge_growth(limit_check, None, entity)
    recorded_response = plan.response
    split = (_split_answer(plan, env, entity, body, call_path)  # refused before the state changes
             if recorded_response is not None and recorded_response.split is not None else None)
    # a held collection keeps its arguments as its path spells them (data/get loads them back)
    collection = ensure_collection(state, path, type_name, path_arguments(entity_type.collection_template, path))
    members = collection.ordered()
    index = insert_index(members, entity, insert) if insert else len(collection.order)
    anywhere = insert is not None and insert.unproven_anywhere and _orders_disagree(members, entity, index)
    draft.commit()
    key = insert_entity(collection, entity[id_field], entity, index)
    if insert is not None and insert.unproven and env.checks_references and len(collection.order) > 1 \
            and (insert.kind != "sorted" or index != len(collection.order) - 1 or insert.alike
                 or anywhere):
        # the gate replays the recorded lists, which show the place; a sort left unproven against
        # the order of creation places a create it puts last as that order does (not so where
        # other orders fit the lists alike, or another member sorts them alike: they may put it elsewhere)
        mark_unplaced(collection, key)
    response, is_json, text = split if split is not None else render_answer(plan, entity)
    return write_result(plan, response, is_json, text, {"source": "state", "view": "create", "type": plan.type,
                                                        "collection": collection.path,
                                                        "id": entity[id_field]},
                        [key], parts.answer)
