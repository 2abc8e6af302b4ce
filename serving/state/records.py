"""What the store keeps of every change to the served state (DESIGN.md §8): the history entry.

A served write is kept with its request (tool, path, query, body), its plan id (tool and rules
revision), the rules revision, the values it was decided with (clock, counter), its result
(status, content type, headers, body, provenance) and the fields it changed. A reset or an
add is kept too (an add with the document it installed), so the history replays from the
initial state through every change.

The record's id is the commit's record id: a client's idempotency key, or one the runtime
generated. An exact retry under a key answers the recorded result, rebuilt here; a retry is
exact when its request digest (over the canonical JSON of the request) is the recorded one.

The entry's body (request, result, changed fields) is kept as one JSON text inside the
record: the exact bytes of the first answer, read back only for a retry or a replay, and a
single string the store neither walks nor re-parses on every read.
"""

from __future__ import annotations

import hashlib
from typing import Any

from capenv.interpreter.bundle.jsonvalue import canonical, dumps, loads
from capenv.serving.read_call import ReadCall, Served
from capenv.serving.reads.answers import Answer
from capenv.serving.writes.generator_state import Decision

WRITE, RESET, ADD = "write", "reset", "add"


def request_of(tool: str, call: ReadCall) -> dict[str, Any]:
    """The request as the executor sees it (the same call by MCP or by HTTP is one request)."""
    return {"tool": tool, "path": call.path, "query": list(map(list, call.query)), "body": call.body}


def request_digest(request: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(request)).hexdigest()


def plan_id(tool: str, rules_revision: str) -> str:
    return f"{tool}@{rules_revision}"


def answer_record(served: Served) -> dict[str, Any]:
    answer = served.answer
    return {"status": answer.status, "content_type": answer.content_type,
            "headers": list(map(list, answer.headers)), "body": answer.body, "is_json": answer.is_json,
            "text": answer.text, "provenance": served.provenance}


def served_from(result: dict[str, Any]) -> Served:
    """The recorded answer, as the runtime answered it the first time."""
    answer = Answer(result["status"], result["content_type"], tuple(tuple(pair) for pair in result["headers"]),
                    result["body"], result["is_json"], result["text"])
    return Served(answer, result["provenance"])


def write_record(position: int, request: dict[str, Any], digest: str, rules_revision: str,
                 decision: Decision) -> dict[str, Any]:
    assert decision.result is not None, "only a write that changed the state is recorded"
    # The entry is only encoded here: orjson writes a tuple as the array ``answer_record``'s list
    # copies are (the same bytes), so the headers and the changed fields go in as they are held.
    served = decision.served
    answer = served.answer
    result = {"status": answer.status, "content_type": answer.content_type, "headers": answer.headers,
              "body": answer.body, "is_json": answer.is_json, "text": answer.text, "provenance": served.provenance}
    entry = {"request": request, "rules_revision": rules_revision, "clock": decision.meta.clock_text,
             "counter": decision.meta.counter, "result": result, "changed": decision.result.changed}
    return {"position": position, "kind": WRITE, "request_digest": digest,
            "plan": plan_id(request["tool"], rules_revision), "entry": dumps(entry).decode("utf-8")}


def write_entry(record: dict[str, Any]) -> dict[str, Any]:
    """A write record's entry: request, rules_revision, clock, counter, result, changed."""
    return loads(record["entry"])


def replace_record(position: int, kind: str, document_text: str | None = None) -> dict[str, Any]:
    """A reset (back to the initial state; the first install is one) or an add (``document_text``:
    the state document as data/get writes it)."""
    record: dict[str, Any] = {"position": position, "kind": kind}
    if kind == ADD:
        record["document"] = document_text
    return record
