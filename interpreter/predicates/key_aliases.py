"""Predicates on a state type whose entities another type holds again under another key (seeds:
"Not modelled": copies of entities in other collections).

Context ``key-alias``: an item view's type, the member its path names entities by, another type,
and the entity pairs the two hold with one identity value alike (a long id both show, ``Id`` and
``id``) while their key members differ. A compatibility API beside the native one may name one
entity otherwise in each (Docker's ``bridge`` is libpod's ``podman``) and answer it under either
name: a name the type lacks is then no proof that the application lacks the entity.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class AliasPair(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    identity_member: str
    """The member both entities show the shared value at (spelled as this type spells it)."""
    identity_value: str
    key_here: str
    """The entity's key in this type."""
    key_there: str
    """The same entity's key member in the other type."""


@context_model("key-alias")
class KeyAliasContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type_name: str
    key_field: str
    other_type: str
    pairs: list[AliasPair] = Field(default_factory=list)
    """Entity pairs holding one value (unique within each type) at a member both spell alike once
    letter case and underscores are set aside, whose key members differ."""


class MinLengthParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)
    """How long the shared value must be to name one entity in both (an id, not a word)."""


@predicate("entity_keyed_otherwise_elsewhere", context="key-alias", params=MinLengthParams)
def entity_keyed_otherwise_elsewhere(ctx: KeyAliasContext, params: MinLengthParams) -> Outcome:
    """Some entity the other type holds under a shared identity value at least ``min_length``
    long has another key there than here."""
    long = [p for p in ctx.pairs if len(p.identity_value) >= params.min_length]
    if not ctx.pairs:
        return Miss(f"no entity of {ctx.type_name} is keyed otherwise in {ctx.other_type}")
    if not long:
        return Miss(f"the values shared with {ctx.other_type} are shorter than {params.min_length} characters: "
                    "words, not identities")
    return Match({"other_type": ctx.other_type,
                  "aliases": [[p.key_here, p.key_there, p.identity_member] for p in long]})
