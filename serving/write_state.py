"""What served writes share: the clock, the write counter and the sequences (write-effects
"Clock and generators"), and the one place a write call becomes ``execute``.

The clock starts at the bundle's ``write_clock`` and advances one second before each served
write; data/reset and data/add restart the clock, the counter and the sequences.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from capenv.interpreter.bundle.io import Bundle
from capenv.interpreter.bundle.models import WritePlan

from .answers import Answer, from_recording
from .ops.context import OpRefusal
from .ops.sequences import SequenceState, sequence_fields
from .read_call import CallRefused, ReadCall, Served
from .state_index import StateIndex
from .writes import WriteCall, WriteEnv, WriteRefusal, execute, latest_absences

CLOCK_STEP = timedelta(seconds=1)


class WriteState:
    def __init__(self, bundle: Bundle) -> None:
        self.bundle = bundle
        self.env = WriteEnv(bundle.view, tool_absences=latest_absences(bundle.replay))
        self.plans = [p for p in bundle.view.writes if p.served]
        self.start = _instant(bundle.view.write_clock)
        self.clock = self.start
        self.counter = 0
        self.sequences = SequenceState()
        self.limit = bundle.view.budgets.max_state_bytes

    def restart(self, state: StateIndex) -> None:
        self.clock, self.counter = self.start, 0
        self.sequences.restart(sequence_fields([p for p in self.plans if p.type]),
                               [(c.type, c.path, c.entities.values()) for c in state.collections.values()])

    def serve(self, plan: WritePlan | None, call: ReadCall, state: StateIndex, size: int) -> Served:
        if plan is None:
            raise CallRefused("this tool has no served write plan", http_status=501)
        instant = self.clock + CLOCK_STEP

        def limit_check(growth: int) -> None:
            if size + growth > self.limit:
                raise WriteRefusal(f"the write would take data/get past the {self.limit}-byte data/add limit",
                                   kind="resource_constraint")

        try:
            result = execute(plan, self.env, WriteCall(call.path, call.query, call.body), state, instant=instant,
                             counter=self.counter + 1, sequences=self.sequences, limit_check=limit_check)
        except WriteRefusal as refusal:
            if refusal.kind == "missing" and refusal.missing is not None:
                return Served(from_recording(refusal.missing, "state"), {"state": {
                    "source": "state", "view": "missing", "type": plan.type, "message": refusal.message}})
            raise CallRefused(refusal.message, http_status=404 if refusal.kind == "missing" else
                              413 if refusal.kind == "resource_constraint" else 409 if refusal.kind == "conflict"
                              else 400, kind=refusal.kind) from None
        except OpRefusal as refusal:
            raise CallRefused(refusal.message) from None
        self.clock, self.counter = instant, self.counter + 1
        answer = Answer(result.status, result.content_type, result.headers, result.body, result.is_json, result.text)
        return Served(answer, {"state": result.provenance})


def _instant(text: str | None) -> datetime:
    if not text:
        return datetime(2000, 1, 1, tzinfo=timezone.utc)
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
