"""A create's field that links to the entity by the identity the call sent (context ``create-field``).

A self link (``self_link``, ``url``, ``href``) is text around the entity's own identity:
``http://host/3.1/domains/example.net``. When the application generates the identity, the
template rule rebuilds such a link around the generated value. When the client names the entity
(the identity is echoed), an echoed value alone is no token, since it may recur in unrelated text
by chance; but a link every held entity of the type shows as the same text around its own
identity recurs by construction, and the type's entities prove it. The field is then a template
around the member the call sent the identity in.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .create_contexts import CreateFieldContext
from .create_text_fields import kept_path_values
from .create_values import same_json, token_spans


class IdentityLinkParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    delimiters: str = Field(min_length=1)
    """Characters that may border the identity inside the link (``/`` of a URL)."""
    min_other_entities: int = Field(ge=1)
    """How many held entities of the type must show the field as the same text around their own
    identity: one could agree by chance."""


def _around(text: str, identity: str, delimiters: str) -> tuple[str, str] | None:
    """The text before and after the one delimited occurrence of ``identity`` in ``text``."""
    spans = token_spans(text, identity, delimiters)
    if len(spans) != 1:
        return None
    start, end = spans[0]
    return text[:start], text[end:]


@predicate("create_field_links_identity", context="create-field", params=IdentityLinkParams)
def create_field_links_identity(ctx: CreateFieldContext, params: IdentityLinkParams) -> Outcome:
    """A string holding the identity the call sent as its one delimited token, with the same text
    around it as every held entity of the type shows around its own identity (at least
    ``min_other_entities`` of them); rebuilt around the sent member."""
    text, entity = ctx.value, ctx.whole_entity
    if ctx.field == ctx.id_field or not isinstance(text, str):
        return Miss("not a string field other than the identity")
    identity = entity.get(ctx.id_field)
    if not isinstance(identity, str) or not identity:
        return Miss(f"the entity holds no string identity at {ctx.id_field!r}")
    senders = sorted((name for name, sent in ctx.body.items() if same_json(sent, identity)),
                     key=lambda name: name != ctx.id_field)
    if not senders:
        return Miss(f"the call sent no member holding the identity {identity!r}")
    # as sent, else percent-encoded as a URL spells it (a name holding a space): the held entities prove which
    spellings = [(False, identity)] + [(True, quote(identity, safe=""))] * (quote(identity, safe="") != identity)
    holding = [e for e in ctx.type_entities if ctx.field in e]
    why = f"does not hold the identity {identity!r} once as a token with text around it"
    for encoded, spelled in spellings:
        around = _around(text, spelled, params.delimiters)
        if around is None or around == ("", ""):
            continue
        disagreeing = next((e for e in holding if not _same_around(e, ctx.id_field, ctx.field, around, encoded,
                                                                   params.delimiters)), None)
        if disagreeing is not None:
            why = (f"held entity {disagreeing.get(ctx.id_field)!r} shows {disagreeing[ctx.field]!r}, not the same "
                   "text around its identity")
            continue
        if len(holding) < params.min_other_entities:
            return Miss(f"{len(holding)} held entities show the field, fewer than {params.min_other_entities}")
        before, after = around
        source = {"encoded_member" if encoded else "member": senders[0]}
        parts = [p for p in (before, source, after) if p != ""]
        kept = kept_path_values(text, ctx.path_args, params.delimiters, [(len(before), len(text) - len(after))])
        op_params: dict[str, Any] = {"parts": parts}
        if encoded:  # the characters whose encoding the identities show; serving refuses others
            op_params["encoded_proven"] = "".join(sorted({c for e in [entity, *holding] for c in str(e[ctx.id_field])
                                                          if quote(c, safe="") != c}))
        return Match({"sources": [source], "source_kind": "identity", "proven_by": len(holding),
                      "kept_path_values": kept, "op_params": op_params})
    return Miss(why)


def _same_around(other: dict[str, Any], id_field: str, field: str, around: tuple[str, str], encoded: bool,
                 delimiters: str) -> bool:
    own = other.get(id_field)
    if not isinstance(own, str) or not isinstance(other[field], str):
        return False
    return _around(other[field], quote(own, safe="") if encoded else own, delimiters) == around
