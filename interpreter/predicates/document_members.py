"""Predicates admitting a document write's body members (seeds: "Documents").

Context ``document-member``: one member the exemplar's body sent, with the call's method. A
document write merges the body's members into the document (replaces them, for PUT), so every
member sent is accepted with the JSON kind it was sent as; the table decides whether a call
must send it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("document-member")
class DocumentMemberContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    member: str
    method: str
    body: dict[str, Any] = Field(default_factory=dict)
    """The exemplar's body (the document write's members)."""


class DocumentMethodsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    methods: list[str] = Field(min_length=1)


@predicate("document_member_sent", context="document-member")
def document_member_sent(ctx: DocumentMemberContext, params: BaseModel) -> Outcome:
    """The exemplar sent the member; the evidence gives the JSON kind it was sent as."""
    if ctx.member not in ctx.body:
        return Miss("the exemplar did not send it")
    return Match({"kind": json_kind(ctx.body[ctx.member])})


@predicate("document_method_in", context="document-member", params=DocumentMethodsParams)
def document_method_in(ctx: DocumentMemberContext, params: DocumentMethodsParams) -> Outcome:
    """The document write's method is one of some methods (PUT replaces the document's members)."""
    if ctx.method.upper() in {m.upper() for m in params.methods}:
        return Match({"method": ctx.method})
    return Miss(f"method {ctx.method}, not {'/'.join(params.methods)}")
