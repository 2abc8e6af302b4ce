"""Document writes (write-effects "Documents"): the body's members merged into (or, when the plan
says so, replacing) the held document's object at the plan's pointer, the plan's field rules (its
clocks) applied there by ``stamp``, served only at the path the state holds the document at."""

from __future__ import annotations

import copy
from typing import Any

from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.models import WritePlan
from capenv.serving.reads.call_match import path_fit
from capenv.serving.state.edits import set_document
from capenv.serving.state.index import StateIndex

from .answers import render_answer, write_result
from .calls import WriteCall, WriteRefusal, WriteResult
from .values import charge_growth


def write_document(plan: WritePlan, call: WriteCall, body: dict[str, Any], state: StateIndex,
                   limit_check: Any = None, *, stamp: Any = None) -> WriteResult:
    """Merge the body into the held document, served only at the path the state holds it at
    (write-effects "Documents": each segment verbatim or either spelling once percent-decoded);
    the gate, which takes this path too, counts a recorded write at another path as unmodelled."""
    path = plan.document_path or ""
    if path not in state.documents:
        raise WriteRefusal(f"no document is held at {path}", kind="missing")
    if path_fit(path, call.path) is None:
        raise WriteRefusal(f"no document is held at {call.path}: this document is written only at {path}, "
                           "the path the state holds it at")
    document = copy.deepcopy(state.documents[path])
    target = document
    pointer = [p for p in (plan.document_pointer or "").split("/") if p]
    for part in pointer:
        target = target.get(part) if isinstance(target, dict) else None
    if not isinstance(target, dict):
        raise WriteRefusal(f"the document at {path} holds no object at {plan.document_pointer!r}")
    for name, value in body.items():
        if name in target and json_kind(target[name]) != json_kind(value) and target[name] is not None:
            raise WriteRefusal(f"member {name!r} must be a JSON {json_kind(target[name])}, as the document holds it")
    if plan.replace:
        target.clear()
    target.update(copy.deepcopy(body))
    stamped = stamp(target) if stamp is not None and plan.fields else {}
    target.update(stamped)
    charge_growth(limit_check, state.documents[path], document)
    set_document(state, path, document)
    response, is_json, text = render_answer(plan, target if plan.response and plan.response.carries_entity else None)
    return write_result(plan, response, is_json, text, {"source": "state", "view": "document-write", "path": path},
                        list(body) + [name for name in stamped if name not in body])
