"""Predicates on a write blamed for a count another type's creates and deletes move.

Context ``count-blame`` (the ``gate-count-blame`` table): an item read shows members of its entity
changed that no write to it explains, and the gate would blame a write on a related path or linked
to it by id (DESIGN §6, seeds "Not modelled": side effects on other entities). Where each changed
member is a count named after another type (``comment_count``, ``num_comments``), moved no further
than that type's recorded creates and deletes in the same window could move it, those calls explain
it; a write of another type (a category's update under the same example), or an update of that type
that sent nothing naming the entity (a comment's new text), does not move such a count.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class CountChange(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    words: tuple[str, ...]
    """The member name's lower-case words."""
    before: int | None = None
    """The copy's value (None: not an integer)."""
    after: int | None = None
    """The read's value (None: not an integer)."""
    dropped: tuple[tuple[str, ...], ...] | None = None
    """Where the member is an array on both sides: per element the copy's array held that the read's
    lacks, the texts it holds (a scalar's own, an object's top-level scalars) (None: no array)."""
    gained: int = 0
    """Where it is an array: how many elements the read's array holds that the copy's lacked."""


class CounterCalls(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    words: tuple[str, ...]
    """The type name's lower-case words."""
    creates: int = Field(ge=0)
    """Successful recorded creates of the type in the window (each may make one entity or more)."""
    deletes: int = Field(ge=0)
    """Successful recorded deletes of the type in the window."""


class NamedType(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    words: tuple[str, ...]
    """The type name's lower-case words."""


@context_model("count-blame")
class CountBlameContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    changed: tuple[CountChange, ...] = ()
    """Each member the read shows otherwise than the copy held."""
    counters: tuple[CounterCalls, ...] = ()
    """Each type a successful recorded create or delete made or removed entities of in the window."""
    write_type: str | None = None
    """The blamed write's type."""
    write_effect: str = ""
    """The blamed write's effect (create, update, action, delete, bulk, document)."""
    write_names_entity: bool = False
    """The blamed write sent the changed entity's id (in its path, query or body)."""
    write_type_words: tuple[str, ...] = ()
    """The blamed write's type name's lower-case words."""
    deleted: tuple[str, ...] = ()
    """The ids (their item path's last segment) the successful recorded deletes in the window removed,
    the blamed write's own call left out."""
    write_deleted: tuple[str, ...] = ()
    """The ids the blamed write's own call removed (a delete's item path's last segment)."""
    state_types: tuple[NamedType, ...] = ()
    """Every state type, with its name's words (a count naming one counts that type's entities)."""


class CountParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: tuple[str, ...] = Field(min_length=1)
    """Words a member name holds when it counts (count, total, num, ...)."""
    plural_suffixes: tuple[str, ...] = ()
    """Endings a type's name may add to or drop from the member's word (comment_count, comments)."""
    update_effects: tuple[str, ...] = Field(min_length=1)
    """Effects of a write that moves no entity of its type: an update or action of the counted type
    that did not send the entity's id cannot move the count."""


def _names_type(word: str, type_words: tuple[str, ...], suffixes: tuple[str, ...]) -> bool:
    return any(word == t or any(word + s == t or t + s == word for s in suffixes) for t in type_words)


@predicate("changed_counts_of_other_writes", context="count-blame", params=CountParams)
def changed_counts_of_other_writes(ctx: CountBlameContext, params: CountParams) -> Outcome:
    """Every changed member is an integer count named after a type whose recorded creates and deletes
    in the window could have moved it as far as it moved, and the blamed write is not one of them: of
    another type, or an update or action of that type that did not name the entity."""
    if not ctx.changed:
        return Miss("the difference names no member")
    counted: dict[str, str] = {}
    for change in ctx.changed:
        if not set(change.words) & set(params.words):
            return Miss(f"{change.member} is no count (its name holds none of {', '.join(params.words)})")
        if change.before is None or change.after is None:
            return Miss(f"{change.member} is not an integer on both sides")
        named = [c for c in ctx.counters
                 if any(_names_type(w, c.words, params.plural_suffixes) for w in change.words if w not in params.words)]
        if not named:
            return Miss(f"{change.member} names no type a recorded create or delete in the window wrote")
        moved = change.after - change.before
        if not any(-c.deletes <= moved <= c.creates for c in named):
            return Miss(f"{change.member} moved by {moved}, beyond what the creates and deletes of "
                        f"{', '.join(c.type for c in named)} in the window could move it")
        counted[change.member] = named[0].type
    types = set(counted.values())
    if ctx.write_type in types and (ctx.write_effect not in params.update_effects or ctx.write_names_entity):
        return Miss(f"the write is a {ctx.write_effect} of {ctx.write_type}, which the count counts"
                    + (" (it names the entity)" if ctx.write_effect in params.update_effects else ""))
    return Match({"counts": counted})


class DeletesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: tuple[str, ...] = Field(min_length=1)
    """Words a member name holds when it counts (count, total, num, ...)."""
    plural_suffixes: tuple[str, ...] = ()
    """Endings a type's name may add to or drop from the count's word."""
    effects: tuple[str, ...] = Field(min_length=1)
    """The blamed write's effects the rule may leave unblamed."""


@predicate("changed_members_left_by_deletes", context="count-blame", params=DeletesParams)
def changed_members_left_by_deletes(ctx: CountBlameContext, params: DeletesParams) -> Outcome:
    """Every changed member lost what the window's deletes of other types removed: an array of ids
    that lost only ids those deletes removed (and gained none), or a count that fell by no more than
    those deletes number, named after no type of the blamed write; the blamed write (one of the
    effects, an update not naming the entity) neither removed them nor counts them."""
    if not ctx.changed:
        return Miss("the difference names no member")
    if ctx.write_effect not in params.effects:
        return Miss(f"the write is a {ctx.write_effect}, not one of {', '.join(params.effects)}")
    if ctx.write_effect == "update" and ctx.write_names_entity:
        return Miss("the update names the entity")
    others = [c for c in ctx.counters if c.type != ctx.write_type]
    deletes = sum(c.deletes for c in others)
    if not deletes or not ctx.deleted:
        return Miss("no recorded delete of another type ran in the window")
    for change in ctx.changed:
        if change.dropped is not None:
            if change.gained or not change.dropped:
                return Miss(f"{change.member} gained values or lost none")
            if not all(set(texts) & set(ctx.deleted) for texts in change.dropped):
                return Miss(f"{change.member} lost an element naming no id a delete in the window removed")
            continue
        if not set(change.words) & set(params.words):
            return Miss(f"{change.member} is no count (its name holds none of {', '.join(params.words)})")
        if change.before is None or change.after is None or not 0 < change.before - change.after <= deletes:
            return Miss(f"{change.member} did not fall by 1 to {deletes} (the deletes of other types in the window)")
        if any(_names_type(w, ctx.write_type_words, params.plural_suffixes) for w in change.words if w not in params.words):
            return Miss(f"{change.member} names the write's type {ctx.write_type}")
    return Match({"deleted": len(ctx.deleted), "changed": [c.member for c in ctx.changed]})



class MovedParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: tuple[str, ...] = Field(min_length=1)
    """Words a member name holds when it counts (count, total, num, ...)."""
    raising: tuple[str, ...] = Field(min_length=1)
    """Effects that add entities (a count rises with them)."""
    lowering: tuple[str, ...] = Field(min_length=1)
    """Effects that remove entities (a count falls with them)."""
    plural_suffixes: tuple[str, ...] = ()
    """Endings a type's name may add to or drop from the count's word (run_count, runs)."""


@predicate("array_lost_the_id_it_deleted", context="count-blame")
def array_lost_the_id_it_deleted(ctx: CountBlameContext, params: BaseModel) -> Outcome:
    """Some changed member is an array that lost an element naming an id the write's own call
    deleted: the application dropped the deleted entity from where this one named it."""
    if not ctx.write_deleted:
        return Miss("the write deleted no id by its path")
    for change in ctx.changed:
        for texts in change.dropped or ():
            named = set(texts) & set(ctx.write_deleted)
            if named:
                return Match({"member": change.member, "id": sorted(named)[0]})
    return Miss(f"no changed array lost an element naming {', '.join(ctx.write_deleted)}")


@predicate("count_moved_with_the_writes_calls", context="count-blame", params=MovedParams)
def count_moved_with_the_writes_calls(ctx: CountBlameContext, params: MovedParams) -> Outcome:
    """Some changed member is an integer count that moved the way the write's effect moves one
    (up with creates, down with deletes), by no more than the write's type's such calls in the
    window, and names the write's type or no type at all: those calls may have moved it, and
    serving them would not."""
    if ctx.write_effect in params.raising:
        sign, effect = 1, "creates"
    elif ctx.write_effect in params.lowering:
        sign, effect = -1, "deletes"
    else:
        return Miss(f"the write is a {ctx.write_effect}, which adds or removes no entity")
    calls = sum(getattr(c, effect) for c in ctx.counters if c.type == ctx.write_type)
    for change in ctx.changed:
        if not set(change.words) & set(params.words) or change.before is None or change.after is None:
            continue
        # a count naming a type (run_count) counts that type's entities (its name's last word, the
        # thing it is: a runs_note is a note); one naming none (learner_count) may count any type's
        named = {t.type for t in ctx.state_types if t.words and any(
            _names_type(w, t.words[-1:], params.plural_suffixes) for w in change.words if w not in params.words)}
        if named and ctx.write_type not in named:
            continue
        if 0 < sign * (change.after - change.before) <= calls:
            return Match({"member": change.member, "moved": change.after - change.before, effect: calls})
    return Miss(f"no changed count moved as 1 to {calls} {effect} of {ctx.write_type} would move it")
