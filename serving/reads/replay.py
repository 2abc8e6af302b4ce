"""Replay (DESIGN.md §5): answer a call with a recorded response of its tool.

* **Exact**: a recorded call with the same arguments: each path argument the same (verbatim
  or either spelling once percent-decoded), the same query as a multiset of decoded pairs,
  and the same body by JSON value (or the same text, for a body that is not JSON). When
  several match, the earliest wins: the served environment starts from the initial state,
  and the earliest recording is the one nearest it.
* **Nearest**: otherwise the recorded call of the tool that has, in this order of
  importance, the most path arguments in common, the same body, the most query pairs in
  common, the most query names in common, and the fewest query names only one side has;
  ties again go to the earliest recording. Answered with ``exact_match: false``.
* A tool with no recorded call at all is a tool error.
"""

from __future__ import annotations

from capenv.interpreter.bundle.models import RecordedCall, ReplayTable
from capenv.serving.read_call import CallRefused, ReadCall, Served

from .answers import from_recording
from .call_match import query_overlap, same_query_multiset
from .render import same_json, same_spelling


class Replayer:
    def __init__(self, table: ReplayTable) -> None:
        self._calls = {tool: tuple(sorted(calls, key=lambda c: c.ordinal)) for tool, calls in table.tools.items()}

    def calls(self, tool: str) -> tuple[RecordedCall, ...]:
        return self._calls.get(tool, ())

    def find(self, call: ReadCall) -> tuple[RecordedCall, bool] | None:
        """(the recording to answer with, whether it matches exactly), or None with no recording."""
        best: tuple[tuple, RecordedCall] | None = None
        for recorded in self.calls(call.tool.name):
            args = call.tool.match(recorded.path) or {}
            path_common = sum(1 for name, value in call.path_args.items()
                              if name in args and same_spelling(args[name], value))
            body_same = _same_body(recorded, call)
            if (path_common == len(call.path_args) and body_same
                    and same_query_multiset(recorded.query, call.query)):
                return recorded, True
            pairs, names, apart = query_overlap(recorded.query, call.query)
            score = (path_common, body_same, pairs, names, -apart)
            if best is None or score > best[0]:  # strictly better: ties keep the earlier
                best = (score, recorded)
        return (best[1], False) if best else None

    def replay(self, call: ReadCall) -> Served:
        found = self.find(call)
        if found is None:
            raise CallRefused(f"{call.tool.name} has no recorded call to replay", http_status=404)
        recorded, exact = found
        return Served(from_recording(recorded.response),
                      {"replay": {"exact_match": exact, "record": recorded.ordinal}})


def _same_body(recorded: RecordedCall, call: ReadCall) -> bool:
    if not call.has_body:
        return recorded.request_body is None and not recorded.request_text
    if call.body_text is not None:
        return not recorded.request_is_json and recorded.request_text == call.body_text
    return recorded.request_is_json and same_json(recorded.request_body, call.body)
