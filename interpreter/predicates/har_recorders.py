"""Predicates on the recorder that wrote a HAR file (``log.creator``).

Context ``har-recorder``: the creator's name and version, as the file gives them.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate

from .names import WordsParams


@context_model("har-recorder")
class HarRecorderContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = ""
    """``log.creator.name`` ("mitmproxy", "Playwright", "WebInspector"…); empty when absent."""
    version: str = ""


@predicate("recorder_named", context="har-recorder", params=WordsParams)
def recorder_named(ctx: HarRecorderContext, params: WordsParams) -> Outcome:
    """The creator's name, or its first word ("mitmproxy exporthar"), is one of a word list."""
    words = ctx.name.split()
    first = words[0] if words else ""
    pool = {w.lower() for w in params.words} if params.ignore_case else set(params.words)
    for probe in (ctx.name, first):
        if (probe.lower() if params.ignore_case else probe) in pool:
            return Match({"recorder": ctx.name})
    return Miss(f"recorder {ctx.name!r} is not one of {sorted(params.words)}")
