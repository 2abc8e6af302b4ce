"""Read-only POST ways 3 and 4: what the path's last literal segment says the call does.

Context ``readonly-ways``. Both look only at the template's last literal segment
(``/api/work_pools/{name}/queues/filter`` -> ``filter``), never at the calls.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .readonly_contexts import WaysContext
from .readonly_words import last_literal_segment, lowered, split_words


class QueryWordParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    separators: str = Field(min_length=1)
    """Characters that split a segment into words (letter case splits too)."""
    query_words: list[str] = Field(min_length=1)
    """Words that name a query when they are the segment's last meaningful word."""
    write_words: list[str] = Field(min_length=1)
    """Words that name a write anywhere in the segment."""
    skipped_trailing_words: list[str] = Field(default_factory=list)
    """Trailing words that add nothing (``selection_data`` means ``selection``)."""


class SessionSegmentParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    segments: list[str] = Field(min_length=1)
    """Whole segments that renew or open a session (compared ignoring letter case)."""


@predicate("last_segment_names_query", context="readonly-ways", params=QueryWordParams)
def last_segment_names_query(ctx: WaysContext, params: QueryWordParams) -> Outcome:
    """The last literal segment's last meaningful word is a query word, and no word of it is a write word."""
    segment = last_literal_segment(ctx.template)
    if segment is None:
        return Miss("the path has no literal segment")
    words = list(split_words(segment, params.separators))
    writes = [word for word in words if word in lowered(params.write_words)]
    if writes:
        return Miss(f"{segment!r} holds the write word {writes[0]!r}")
    skipped = lowered(params.skipped_trailing_words)
    while words and words[-1] in skipped:
        words.pop()
    if not words:
        return Miss(f"{segment!r} has no word left once trailing {sorted(skipped)} are skipped")
    if words[-1] not in lowered(params.query_words):
        return Miss(f"{segment!r} names {words[-1]!r}, not a query word")
    return Match({"segment": segment, "query_word": words[-1]})


@predicate("last_segment_is_session", context="readonly-ways", params=SessionSegmentParams)
def last_segment_is_session(ctx: WaysContext, params: SessionSegmentParams) -> Outcome:
    """The last literal segment is one that renews or opens a session (login, token, refresh, …)."""
    segment = last_literal_segment(ctx.template)
    if segment is None:
        return Miss("the path has no literal segment")
    if segment.lower() in lowered(params.segments):
        return Match({"segment": segment})
    return Miss(f"{segment!r} is not a session segment")


class SessionAnswerParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    path_segments: list[str] = Field(min_length=1)
    """Literal segments, anywhere in the path, that place it under authentication (compared ignoring letter case)."""
    credential_members: list[str] = Field(min_length=1)
    """The only members a session's answer may hold: the credential and how long it lasts."""


def _unwrapped(answer: Any, credentials: set[str]) -> Any:
    """The answer, or the object its one member holds (``{"data": {"token": …}}``), or the one
    object it holds beside scalars only, none a credential member (``{"code": 0, "msg": "ok",
    "data": {"token": …}}``): an envelope and its status add nothing a session's answer would not
    show; a member holding an object or array beside it (a user) keeps the answer as it is."""
    if not isinstance(answer, dict):
        return answer
    inner = [value for value in answer.values() if isinstance(value, (dict, list))]
    if len(inner) != 1 or not isinstance(inner[0], dict) or not inner[0]:
        return answer
    if len(answer) > 1 and any(name.lower() in credentials for name in answer):
        return answer
    return inner[0]


@predicate("session_answer_under_auth_path", context="readonly-ways", params=SessionAnswerParams)
def session_answer_under_auth_path(ctx: WaysContext, params: SessionAnswerParams) -> Outcome:
    """A literal segment places the path under authentication (/auth/user/emailpass), and every
    successful call answered an object holding only credential members ({token}): a session opened
    by a provider's own name, which the last segment alone cannot tell."""
    literals = [part for part in split_path(ctx.template) if part and not part.startswith("{")]
    under = [part for part in literals if part.lower() in lowered(params.path_segments)]
    if not under:
        return Miss(f"no literal segment of {ctx.template!r} is one of {sorted(lowered(params.path_segments))}")
    answered = [call for call in ctx.calls if call.succeeded]
    if not answered:
        return Miss("no call succeeded")
    allowed = lowered(params.credential_members)
    for call in answered:
        answer = _unwrapped(call.response, allowed) if call.response_kind == "json" else None
        if not isinstance(answer, dict) or not answer:
            return Miss(f"call #{call.ordinal} answered no object of credentials")
        others = sorted(name for name in answer if name.lower() not in allowed)
        if others:
            return Miss(f"call #{call.ordinal} answered {others[0]!r}, no credential member")
    return Match({"segment": under[0], "calls": [call.ordinal for call in answered]})
