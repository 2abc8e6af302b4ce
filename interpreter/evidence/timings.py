"""Which timing convention a HAR file's recorder follows (the ``har-timings`` table).

Recorders write ``time`` differently (mitmproxy counts the server connection it opened before
the request started; Playwright counts ``ssl`` inside ``connect`` and again on its own), and a
sequential client's calls must not overlap because of it. The recorder is ``log.creator``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from capenv.interpreter.bundle.trace_event import TraceEvent

from .instants import TimingConvention

TABLE = "har-timings"


@dataclass(frozen=True)
class TimingDecision:
    convention: TimingConvention
    events: tuple[TraceEvent, ...]


def timing_convention(creator: Any, ruleset: Any = None) -> TimingDecision:
    """The convention for a file whose ``log.creator`` is ``creator`` (traced)."""
    from capenv.interpreter.predicates.har_recorders import HarRecorderContext
    from capenv.interpreter.rules_engine import evaluate, load_rules

    ruleset = ruleset if ruleset is not None else load_rules()
    creator = creator if isinstance(creator, dict) else {}
    name, version = creator.get("name"), creator.get("version")
    context = HarRecorderContext(name=name if isinstance(name, str) else "",
                                 version=version if isinstance(version, str) else "")
    decision = evaluate(ruleset, TABLE, context, subject=f"capture timings (recorder {context.name!r})")
    phases = decision.yields.get("phases") or ()
    convention = TimingConvention(rule_id=decision.rule_id, end=str(decision.yields.get("end", "time")),
                                  phases=tuple(str(p) for p in phases))
    return TimingDecision(convention, decision.events)
