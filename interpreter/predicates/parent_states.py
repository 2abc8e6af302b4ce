"""Predicates on the states a create's parent entity held at the tool's successful recorded calls:
context ``create-parent-states``, table ``create-parent-states``.

A create under a parent (``/images/{id}/members``) is modelled as accepted under any held parent.
Applications often accept it only in some states of the parent (Glance adds members only to an
image whose visibility is ``shared``, answering 403 otherwise). A parent member holding one of a
few lowercase words several parents share is such a state; when every successful recorded create
found its parent in fewer states than the parents the capture shows hold, the capture vouches only
for those, and a match's evidence is what serving accepts (``values``, ``described``).
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class ParentValue(BaseModel):
    """One sighting of a parent entity: its key and the member's value (``held`` false: it lacked it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    value: Any = None
    held: bool = True


class CreateParent(BaseModel):
    """One recorded create: its status and its parent's member as held just before it began
    (``known`` false: nothing showed the parent before the call)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    status: int = 201
    known: bool = True
    value: Any = None


@context_model("create-parent-states")
class CreateParentStatesContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    parent_type: str
    member: str
    parents: list[ParentValue] = Field(default_factory=list)
    creates: list[CreateParent] = Field(default_factory=list)
    """The successful recorded creates."""
    refused: list[CreateParent] = Field(default_factory=list)
    """The recorded creates the application refused (4xx) under a parent the capture showed held."""


class ParentWordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    word: str
    """A regular expression every value must match whole (a lowercase word)."""
    max_values: int
    """The most distinct words a state member holds (more reads as a name)."""
    shared_by: int
    """How many parents at least hold one of the words alike (a state several entities share)."""


@predicate("creates_seen_under_fewer_states", context="create-parent-states", params=ParentWordsParams)
def creates_seen_under_fewer_states(ctx: CreateParentStatesContext, params: ParentWordsParams) -> Outcome:
    """The parents' member holds a few lowercase words, one shared by several parents, and every
    successful recorded create found its parent holding one of fewer words than the parents hold:
    the capture shows no create accepted under a parent in another state."""
    if not ctx.creates:
        return Miss("no successful recorded create")
    pattern = re.compile(params.word)
    if not ctx.parents or any(not p.held for p in ctx.parents):
        return Miss(f"a {ctx.parent_type} the capture shows lacks {ctx.member}")
    words = {p.value for p in ctx.parents if isinstance(p.value, str) and pattern.fullmatch(p.value)}
    if len(words) != len({repr(p.value) for p in ctx.parents}):
        return Miss(f"{ctx.member} holds a value that is no lowercase word: not a state")
    if not 2 <= len(words) <= params.max_values:
        return Miss(f"{ctx.member} holds {len(words)} distinct words: not a state of a few")
    holders: dict[str, set[str]] = {}
    for parent in ctx.parents:
        holders.setdefault(parent.value, set()).add(parent.key)
    if max(len(keys) for keys in holders.values()) < params.shared_by:
        return Miss(f"no word of {ctx.member} is held by {params.shared_by} parents alike: a name, not a state")
    accepted: set[str] = set()
    for create in ctx.creates:
        if not create.known or create.value not in words:
            return Miss(f"record {create.ordinal}: its parent's {ctx.member} as held before it is not known")
        accepted.add(create.value)
    if accepted >= words:
        return Miss(f"the recorded creates succeeded under every {ctx.member} the parents hold")
    values = sorted(accepted)
    return Match({"values": values, "described": f"a create under a {ctx.parent_type} whose {ctx.member} is "
                  + " or ".join(f'"{v}"' for v in values)})


class StateNamesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str] = Field(min_length=1)
    """Member names that say a state (compared in lower case)."""


@predicate("parent_member_names_a_state", context="create-parent-states", params=StateNamesParams)
def parent_member_names_a_state(ctx: CreateParentStatesContext, params: StateNamesParams) -> Outcome:
    """The parent's member is named as a state (status, visibility): its words are states the
    application may accept a child in or not, not names of who or what."""
    if ctx.member.lower() in params.names:
        return Match({"named": ctx.member})
    return Miss(f"{ctx.member} is not named as a state")


class RefusedStatusesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The statuses refusing a create for the state of things (403, 409), not for its body."""


@predicate("create_refused_under_another_state", context="create-parent-states", params=RefusedStatusesParams)
def create_refused_under_another_state(ctx: CreateParentStatesContext, params: RefusedStatusesParams) -> Outcome:
    """A recorded create was refused under a parent holding a word of the member no successful
    create found its parent holding: the capture shows the parent's state may decide."""
    accepted = {c.value for c in ctx.creates if c.known}
    for call in ctx.refused:
        if call.status in params.statuses and call.known and isinstance(call.value, str) and call.value not in accepted:
            return Match({"record": call.ordinal, "status": call.status})
    return Miss(f"no recorded create was refused under a {ctx.parent_type} whose {ctx.member} no successful one found")
