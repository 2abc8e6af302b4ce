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


class CounterCalls(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    words: tuple[str, ...]
    """The type name's lower-case words."""
    creates: int = Field(ge=0)
    """Successful recorded creates of the type in the window (each may make one entity or more)."""
    deletes: int = Field(ge=0)
    """Successful recorded deletes of the type in the window."""


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
