"""Predicates on the Accept headers a read tool's recordings sent (``view-accept-defaults``).

Context ``accept-default``: per recording of the tool, the Accept header it sent (normalised:
lower case, no white space; None when it sent none). A capture whose every recording of a path
asked for one specific media type shows only the answer to that request: an application may
answer a call sending none (or ``*/*``) in another representation (Node-RED answers ``GET /nodes``
with its HTML editor list unless asked for ``application/json``; CouchDB answers ``text/plain``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("accept-default")
class AcceptDefaultContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sent: list[str | None] = Field(default_factory=list)
    """The normalised Accept header each recording of the tool sent, in recorded order (None: none)."""


class RecordingsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_recordings: int = Field(ge=1)
    """How many recordings the tool must have."""


@predicate("accept_sent_by_every_recording", context="accept-default", params=RecordingsParams)
def accept_sent_by_every_recording(ctx: AcceptDefaultContext, params: RecordingsParams) -> Outcome:
    """Every recording of the tool sent an Accept header: none shows the answer to a call sending none."""
    if len(ctx.sent) < params.min_recordings:
        return Miss(f"{len(ctx.sent)} recording(s), fewer than {params.min_recordings}")
    if any(not value for value in ctx.sent):
        return Miss("a recording sent no Accept header: it shows the answer to a call sending none")
    return Match({"sent": sorted({str(v) for v in ctx.sent})})


@predicate("accept_names_no_wildcard", context="accept-default", params=NoParams)
def accept_names_no_wildcard(ctx: AcceptDefaultContext, params: NoParams) -> Outcome:
    """No recorded Accept names a wildcard range (``*/*``, ``text/*``): each asked for specific media
    types, so none shows what the application prefers when the client leaves it the choice."""
    for value in ctx.sent:
        for part in (value or "").split(","):
            media = part.split(";", 1)[0]
            if media.endswith("/*"):
                return Miss(f"a recording sent Accept {value!r}, naming the wildcard {media!r}: it shows the "
                            "application's own choice")
    return Match({})
