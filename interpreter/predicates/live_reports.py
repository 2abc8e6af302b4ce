"""Predicates on a clock a document read answered (``view-live-reports``).

Context ``live-report``: where the clock lies in the answer, and where it lies in time: seconds
from the read's start (negative before it) and seconds after the last write before the read
finished (None when no write came before). A clock at the read's own time that no write can have
stamped is the application's now, computed at each read.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("live-report")
class LiveReportContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pointer: str
    """The clock's JSON pointer in the answer."""
    seconds_from_read: float
    """The clock less the read's start, in seconds (negative: before the read began)."""
    seconds_after_write: float | None = None
    """The clock less the end of the last write that finished before the read began; None
    when no write came before it."""
    seconds_from_date: float | None = None
    """The clock less the answer's own ``Date`` header (whole seconds); None without one."""


class ReadTimeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_seconds_before: float = Field(ge=0)
    """How long before the read began the clock may lie (a heartbeat taken a moment earlier)."""
    max_seconds_after: float = Field(ge=0)
    """How long after the read began (its duration and the clocks' rounding)."""


@predicate("live_report_at_read_time", context="live-report", params=ReadTimeParams)
def live_report_at_read_time(ctx: LiveReportContext, params: ReadTimeParams) -> Outcome:
    """The clock lies at the read's own time and after the last write before it."""
    if ctx.seconds_from_read < -params.max_seconds_before:
        return Miss(f"{-ctx.seconds_from_read:g} s before the read, more than {params.max_seconds_before:g}")
    if ctx.seconds_from_read > params.max_seconds_after:
        return Miss(f"{ctx.seconds_from_read:g} s after the read began, more than {params.max_seconds_after:g}")
    if ctx.seconds_after_write is not None and ctx.seconds_after_write <= 0:
        return Miss("not after the last write before the read: the write may have stamped it")
    return Match({"pointer": ctx.pointer, "seconds_from_read": ctx.seconds_from_read})


class DateParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_seconds: float = Field(gt=0)
    """How far from the answer's Date header the clock may lie (its whole-second rounding)."""


@predicate("live_report_at_answer_date", context="live-report", params=DateParams)
def live_report_at_answer_date(ctx: LiveReportContext, params: DateParams) -> Outcome:
    """The clock is the instant the application dated its answer with (its ``Date`` header)."""
    if ctx.seconds_from_date is None:
        return Miss("the answer carries no Date header")
    if abs(ctx.seconds_from_date) >= params.max_seconds:
        return Miss(f"{ctx.seconds_from_date:g} s from the answer's Date header, {params.max_seconds:g} or more")
    return Match({"seconds_from_date": ctx.seconds_from_date})
