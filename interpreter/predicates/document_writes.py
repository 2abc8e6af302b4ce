"""Predicates deciding what a document write does to the members its call leaves out (seeds:
"Documents": a document write merges the body's members into the object that holds most of
them, and a PUT replaces them).

Context ``document-write``: the exemplar's method, its body (envelope unwrapped), the object it
wrote as held before the call, and as the call's own answer shows it after (None when the answer
does not show it). A PUT whose answer shows the object still holding every member it did not
send is a merge there, as an update's PUT is; one whose answer shows none of them replaced it.
A call that sent every member its object held shows nothing of what the write does to a member
a call leaves out: a merge and a replace of that object end alike.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.values import holds_at_any_depth, same_json
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("document-write")
class DocumentWriteContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    method: str
    body: dict[str, Any] = Field(default_factory=dict)
    """The exemplar's body members (its envelope unwrapped)."""
    before: dict[str, Any] | None = None
    """The object the write addresses, as the state held it before the call."""
    after: dict[str, Any] | None = None
    """The same object as the call's answer shows it (None: the answer does not show it)."""


class WriteMethodsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    methods: list[str] = Field(min_length=1)


class KeptMembersParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_kept: int = Field(ge=1)
    """How many members the call did not send the answer must still show."""


@predicate("document_write_method_in", context="document-write", params=WriteMethodsParams)
def document_write_method_in(ctx: DocumentWriteContext, params: WriteMethodsParams) -> Outcome:
    """The document write's method is one of some methods."""
    if ctx.method.upper() in {m.upper() for m in params.methods}:
        return Match({"method": ctx.method})
    return Miss(f"method {ctx.method}, not {'/'.join(params.methods)}")


@predicate("document_answer_keeps_unsent", context="document-write", params=KeptMembersParams)
def document_answer_keeps_unsent(ctx: DocumentWriteContext, params: KeptMembersParams) -> Outcome:
    """The call's answer shows the written object still holding every member it held that the
    call did not send (their values are the field rules' business), at least ``min_kept`` of them."""
    if ctx.before is None or ctx.after is None:
        return Miss("the object before the call, or the answer's, is not shown")
    unsent = [name for name in ctx.before if name not in ctx.body]
    if len(unsent) < params.min_kept:
        return Miss(f"the call left out {len(unsent)} member(s) of the object, fewer than {params.min_kept}")
    dropped = [name for name in unsent if name not in ctx.after]
    if dropped:
        return Miss(f"the answer no longer shows {', '.join(dropped[:5])}")
    return Match({"kept": unsent[:10]})


@predicate("document_call_sent_every_held", context="document-write")
def document_call_sent_every_held(ctx: DocumentWriteContext, params: BaseModel) -> Outcome:
    """The call's body holds every member the written object held before it (none left out), so
    its outcome is the same whether the write merges into the object or replaces it."""
    if ctx.before is None:
        return Miss("the object before the call is not shown")
    unsent = [name for name in ctx.before if name not in ctx.body]
    if unsent:
        return Miss(f"the call left out {', '.join(unsent[:5])}, which the object held")
    return Match({"held": sorted(ctx.before)[:10], "sent": sorted(ctx.body)[:10]})


@context_model("document-copy")
class DocumentCopyContext(BaseModel):
    """A document write's object as the state holds it, and the other values the state holds
    (other documents, entities), each ``{"read": where it is read, "value": ...}``."""
    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    held: dict[str, Any] = Field(default_factory=dict)
    elsewhere: list[dict[str, Any]] = Field(default_factory=list)


class CopyMembersParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_members: int = Field(ge=1)
    """How many members the object must hold to count as a copy when another value holds it."""


def _holds_inside(value: Any, held: dict[str, Any]) -> bool:
    """Whether an object equal to ``held`` is nested inside ``value`` (not ``value`` itself: two
    documents of one template holding equal values are two documents, not copies)."""
    if isinstance(value, dict):
        return any(holds_at_any_depth(v, held) for v in value.values())
    if isinstance(value, list):
        return any(holds_at_any_depth(v, held) for v in value)
    return False


@predicate("document_object_shown_elsewhere", context="document-copy", params=CopyMembersParams)
def document_object_shown_elsewhere(ctx: DocumentCopyContext, params: CopyMembersParams) -> Outcome:
    """Another value the state holds (a document read at another path, an entity) holds, nested
    inside it, an object equal to the one the write addresses, with at least ``min_members``
    members: a copy the write would leave as it was."""
    if len(ctx.held) < params.min_members:
        return Miss(f"the object holds {len(ctx.held)} member(s), fewer than {params.min_members}")
    for other in ctx.elsewhere:
        if _holds_inside(other.get("value"), ctx.held):
            return Match({"read": other.get("read"), "members": sorted(ctx.held)[:10]})
    return Miss("no other document or entity the state holds shows the object")


class EntityCopyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_equal: int = Field(ge=1)
    """How many members besides the identity the object must show with the entity's values."""
    min_share: float = Field(gt=0, le=1)
    """The least share of the object's other members the entity shows too (by name): the same
    entity, not another object that shares an id value and a few common members (createdAt)."""


@predicate("document_object_is_an_entity", context="document-copy", params=EntityCopyParams)
def document_object_is_an_entity(ctx: DocumentCopyContext, params: EntityCopyParams) -> Outcome:
    """The object the write addresses names, by its type's identity member, an entity the state
    holds (``elsewhere`` entries marked ``entity``, with their ``identity`` member and value), shows
    at least ``min_equal`` other members with that entity's values and ``min_share`` of its other
    members among the entity's: the same entity read at another path (``/users/me`` answering the
    caller's user), which the write would leave as it was."""
    for other in ctx.elsewhere:
        identity, value = other.get("identity"), other.get("value")
        if not other.get("entity") or not identity or not isinstance(value, dict):
            continue
        member, key = identity
        if member not in ctx.held or isinstance(ctx.held[member], (dict, list)) or str(ctx.held[member]) != key:
            continue
        names = [name for name in ctx.held if name != member]
        shared = [name for name in names if name in value]
        equal = sorted(name for name in shared if same_json(ctx.held[name], value[name]))
        if len(equal) >= params.min_equal and len(shared) >= params.min_share * len(names):
            return Match({"read": other.get("read"), "members": equal[:10]})
    return Miss("the object names no entity the state holds by its identity and shows it")


@predicate("document_object_holds_another", context="document-copy", params=CopyMembersParams)
def document_object_holds_another(ctx: DocumentCopyContext, params: CopyMembersParams) -> Outcome:
    """The object the write addresses holds, nested inside it, a value equal to another value the
    state holds (a document read at a path of its own, an entity; an object or array with at least
    ``min_members`` members): that read answers from the state as it was, where the write changes
    the application's one object (``/settings`` written, ``/settings/mail`` read)."""
    for other in ctx.elsewhere:
        value = other.get("value")
        if not isinstance(value, (dict, list)) or len(value) < params.min_members:
            continue
        if _holds_inside(ctx.held, value):
            shown = sorted(value)[:10] if isinstance(value, dict) else [f"{len(value)} element(s)"]
            return Match({"read": other.get("read"), "members": shown})
    return Miss("the object holds no other document or entity the state holds")
