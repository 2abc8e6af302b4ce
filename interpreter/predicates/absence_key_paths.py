"""Predicates on an item tool that recorded no absence of its own and another item tool of its
type that did (``view-absence-key-paths``): whether the other's absence answer tells how this one
answers a key its type does not hold.

Context ``absence-key-path``: the two tools' templates and the members their paths name the entity
by. A path of its own for another key member (``/posts/slug/{slug}`` beside ``/posts/{id}``) is
another route of the application, which may answer a missing key otherwise (another status, a
null, an empty list): the capture shows nothing of it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("absence-key-path")
class AbsenceKeyPathContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    template: str
    """The item tool without an absence of its own."""
    key_member: str
    """The member its path names the entity by."""
    sibling_template: str
    """The item tool of the same type whose recorded absence it would take."""
    sibling_key_member: str


@predicate("sibling_keyed_otherwise", context="absence-key-path")
def sibling_keyed_otherwise(ctx: AbsenceKeyPathContext, params: BaseModel) -> Outcome:
    """The sibling's path names the entity by another member than this tool's path does."""
    if ctx.key_member == ctx.sibling_key_member:
        return Miss(f"both paths name the entity by {ctx.key_member!r}")
    return Match({"key_member": ctx.key_member, "sibling_key_member": ctx.sibling_key_member,
                  "sibling_template": ctx.sibling_template})
