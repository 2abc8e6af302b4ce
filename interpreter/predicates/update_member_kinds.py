"""Predicates on how an update call treated one body member (seeds: "Body members of a create",
which updates reuse, and "Updates.").

Context ``update-member``: one member (or unsent field) of one recorded update call, with the
entity as held just before the call and as observed after it. The predicates on its clocks are in
``update_member_clocks``.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .update_change_derived import derived_text_matches, members_stored_nowhere
from .update_values import brief, holds, is_uuid, same_value

ABSENT = object()
"""What the context gives for a member the body, the entity before or the observation lacks."""


@context_model("update-member")
class UpdateMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    sent: bool = True
    """False for a field of the entity the call did not send (an unsent clock)."""
    id_field: str = "id"
    path_id: str | None = None
    """The id the call's path names."""
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    """The entity as the call's observation shows it (None: unobserved)."""
    body: dict[str, Any] = Field(default_factory=dict)
    started_at: datetime
    other_entities: list[dict[str, Any]] = Field(default_factory=list)
    other_sent_values: list[Any] = Field(default_factory=list)
    """The values the tool's other recorded calls sent this member with."""

    @property
    def sent_value(self) -> Any:
        return self.body.get(self.member, ABSENT)

    @property
    def stored(self) -> Any:
        return self.after.get(self.member, ABSENT) if self.after is not None else ABSENT

    @property
    def held(self) -> Any:
        return self.before.get(self.member, ABSENT) if self.before is not None else ABSENT


class MemberParams(BaseModel):
    """The params of an update-member predicate: closed and frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ReferenceParams(MemberParams):
    suffixes: list[str] = Field(min_length=1)
    identity_members: list[str] = Field(min_length=1)


class StateWordParams(MemberParams):
    pattern: str = "[a-z]+"
    min_sharing_entities: int = Field(default=2, ge=1)


class TextParams(MemberParams):
    min_length: int = Field(default=8, ge=1)


def not_sent(ctx: UpdateMemberContext) -> Miss | None:
    """A miss for a member the call did not send (every ``sent_*`` predicate needs one)."""
    return None if ctx.sent and ctx.member in ctx.body else Miss("not sent")


@predicate("member_is_id_field", context="update-member")
def member_is_id_field(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The member is the type's id field."""
    return Match() if ctx.member == ctx.id_field else Miss(f"not the id field {ctx.id_field!r}")


@predicate("stored_id_changed", context="update-member")
def stored_id_changed(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The observation shows the entity under another id than the path names."""
    if ctx.stored is ABSENT or ctx.path_id is None:
        return Miss("the observation does not show the id")
    if str(ctx.stored) == ctx.path_id:
        return Miss("the stored id is the path's")
    return Match({"path_id": ctx.path_id, "stored": ctx.stored})


@predicate("sent_as_path_id", context="update-member")
def sent_as_path_id(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The call sent the member with the id its path names."""
    miss = not_sent(ctx)
    if miss:
        return miss
    if ctx.path_id is not None and str(ctx.sent_value) == ctx.path_id:
        return Match({"sent": ctx.sent_value})
    return Miss(f"sent {brief(ctx.sent_value)}, the path names {ctx.path_id!r}")


@predicate("sent_other_than_path_id", context="update-member")
def sent_other_than_path_id(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The call sent the member with another value than the id its path names."""
    miss = not_sent(ctx)
    if miss:
        return miss
    if ctx.path_id is not None and str(ctx.sent_value) == ctx.path_id:
        return Miss("sent as the path's id")
    return Match({"sent": ctx.sent_value})


@predicate("sent_value_stored", context="update-member")
def sent_value_stored(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The observation shows the member as sent (a UUID in another letter case is the sent value)."""
    miss = not_sent(ctx)
    if miss:
        return miss
    if ctx.stored is ABSENT:
        return Miss("the observation does not show it")
    if not same_value(ctx.stored, ctx.sent_value):
        return Miss(f"stored {brief(ctx.stored)}, sent {brief(ctx.sent_value)}")
    evidence: dict[str, Any] = {"params": {"member": ctx.member}}
    if ctx.stored != ctx.sent_value:
        evidence["letter_case"] = "differs"
    return Match(evidence)


@predicate("sent_names_nested_object", context="update-member", params=ReferenceParams)
def sent_names_nested_object(ctx: UpdateMemberContext, params: ReferenceParams) -> Outcome:
    """The member refers to the object the entity nests under the name it refers to
    (collection_id beside a collection object holding that id)."""
    suffix = next((s for s in params.suffixes if ctx.member.endswith(s) and len(ctx.member) > len(s)), None)
    if suffix is None:
        return Miss(f"not named as a reference ({', '.join(params.suffixes)})")
    field = ctx.member[: -len(suffix)]
    nested = (ctx.after or {}).get(field)
    if not isinstance(nested, dict):
        return Miss(f"the entity nests no {field} object")
    for name in params.identity_members:
        if name in nested and same_value(nested[name], ctx.sent_value):
            return Match({"object_field": field})
    return Miss(f"the {field} object holds another id")


@predicate("sent_state_word", context="update-member", params=StateWordParams)
def sent_state_word(ctx: UpdateMemberContext, params: StateWordParams) -> Outcome:
    """A lowercase word several entities share, where every entity in another state holds a field
    the updated one leaves null, or the reverse (status: draft beside published_at: null), unless
    the tool's calls sent other values of it."""
    value = ctx.sent_value
    if not isinstance(value, str) or not re.fullmatch(params.pattern, value):
        return Miss(f"{brief(value)} is not a lowercase word")
    if any(not same_value(v, value) for v in ctx.other_sent_values):
        return Miss("the tool's calls sent other values of it")
    sharing = 1 + sum(1 for e in ctx.other_entities if same_value(e.get(ctx.member), value))
    if sharing < params.min_sharing_entities:
        return Miss(f"{sharing} entities share it, fewer than {params.min_sharing_entities}")
    elsewhere = [e for e in ctx.other_entities if ctx.member in e and not same_value(e[ctx.member], value)]
    if not elsewhere:
        return Miss("no entity is in another state")
    after = ctx.after or {}
    for field, mine in after.items():
        if field == ctx.member:
            continue
        if mine is None and all(e.get(field) is not None for e in elsewhere):
            return Match({"goes_with": field, "null": True})
        if mine is not None and all(field in e and e[field] is None for e in elsewhere):
            return Match({"goes_with": field, "null": False})
    return Miss("no field goes with it (null in one state, held in the others)")


@predicate("sent_replaced_by_fresh_uuid", context="update-member")
def sent_replaced_by_fresh_uuid(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The application stored a fresh UUID in place of the sent value: none of the type's other
    entities holds it and the call sent it nowhere."""
    miss = not_sent(ctx)
    if miss:
        return miss
    stored = ctx.stored
    if not is_uuid(stored) or same_value(stored, ctx.sent_value):
        return Miss("no UUID in place of the sent value")
    if holds(ctx.body, stored) or any(holds(e, stored) for e in ctx.other_entities):
        return Miss("the UUID is not fresh")
    return Match({"params": {"format": "uuid", "uppercase": stored == stored.upper()}})


@predicate("sent_text_derived", context="update-member", params=TextParams)
def sent_text_derived(ctx: UpdateMemberContext, params: TextParams) -> Outcome:
    """The only member the entity stores nowhere, whose text (markup aside) a field the call
    changed shows (Ghost's html, shown as plaintext)."""
    miss = not_sent(ctx)
    if miss:
        return miss
    if ctx.after is None:
        return Miss("unobserved")
    unstored = members_stored_nowhere(ctx.body, ctx.after)
    if unstored != [ctx.member]:
        return Miss("not the one member the entity stores nowhere")
    if not isinstance(ctx.sent_value, str):
        return Miss("not a string")
    before = ctx.before or {}
    for field, value in ctx.after.items():
        if field in ctx.body or (field in before and same_value(before[field], value)):
            continue
        if derived_text_matches(ctx.sent_value, value, params.min_length) is None:
            return Match({"field": field, "from": before.get(field)})
    return Miss("no changed field shows its text")


@predicate("sent_not_shown", context="update-member")
def sent_not_shown(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The observation does not show the member."""
    miss = not_sent(ctx)
    if miss:
        return miss
    return Match() if ctx.stored is ABSENT else Miss("shown")


@predicate("sent_stored_differently", context="update-member")
def sent_stored_differently(ctx: UpdateMemberContext, params: BaseModel) -> Outcome:
    """The observation shows the member with another value than sent (transformed)."""
    miss = not_sent(ctx)
    if miss:
        return miss
    if ctx.stored is ABSENT or same_value(ctx.stored, ctx.sent_value):
        return Miss("not stored differently")
    held = ctx.held is not ABSENT
    return Match({"params": {"value": ctx.stored, "member": ctx.member, "requires_from": held,
                             "from_value": ctx.held if held else None}, "sent": ctx.sent_value})
