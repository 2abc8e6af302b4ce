"""One call's verdict: ``same``, ``different`` or ``refused``, with the differences.

Status, media type and body are compared (headers are not: dates, ETags and lengths differ
by nature). ``refused`` is a disagreement where the model declined the call: it answered a
capenv refusal (the JSON error the HTTP surface writes for a path or method it does not
serve, or for arguments it does not accept), or a 4xx where the live application succeeded.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from jsonpointer import resolve_pointer

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.jsonvalue import JsonError, canonical, loads
from capenv.interpreter.bundle.pointers import escape_token

from .jsondiff import Difference, PairingAllowed, ValueMap, diff_json, leaf_agrees
from .sides import Observed
from .values import as_decimal as as_decimal_or_none

SAME, DIFFERENT, REFUSED = "same", "different", "refused"

CAPENV_ERROR_KINDS = frozenset({"refused", "not_found", "method_not_allowed", "internal", "invalid",
                                "resource_constraint", "conflict"})
"""The ``error`` member of capenv's own error bodies (``serving/http_surface.py``, the transports)."""

TEXT_EXCERPT = 120


@dataclass(frozen=True)
class Judgement:
    verdict: str
    differences: list[Difference] = field(default_factory=list)
    note: str | None = None


def parsed_body(observed: Observed) -> tuple[bool, Any]:
    """(True, value) for a JSON body, (False, text) otherwise; an empty body is text ``""``."""
    media = observed.media_type or ""
    if observed.body and ("json" in media or not media):
        try:
            return True, loads(observed.body)
        except JsonError:
            pass
    return False, observed.body.decode("utf-8", errors="replace")


def capenv_refusal(observed: Observed) -> str | None:
    """The message of a capenv refusal, or None when the answer is not one."""
    if observed.media_type != "application/json" or not 400 <= observed.status < 600:
        return None
    is_json, body = parsed_body(observed)
    kind = body.get("error") if is_json and isinstance(body, dict) else None
    if isinstance(kind, str) and kind in CAPENV_ERROR_KINDS \
            and isinstance(body.get("message"), str):
        return body["message"]
    return None


def judge(live: Observed, model: Observed, values: ValueMap, may_pair: PairingAllowed | None = None,
          volatile: frozenset[str] = frozenset(), unordered: tuple[str, ...] = ()) -> Judgement:
    """``volatile``: body pointers the live application answered differently to the same read
    made twice (a timing, a counter of requests): no model can agree there, so they are no
    differences. ``unordered``: pointers of arrays whose order the probe file says the application
    does not keep from one start to the next (a set it serialises): compared as multisets."""
    differences: list[Difference] = []
    if live.status != model.status:
        differences.append(Difference("status", live.status, model.status))
    if live.media_type != model.media_type:
        differences.append(Difference("content-type", live.media_type, model.media_type))
    differences += [d for d in body_differences(live, model, values, may_pair, unordered)
                    if d.pointer not in volatile]
    if not differences:
        note = f"volatile in the live answers: {', '.join(sorted(volatile))}" if volatile else None
        return Judgement(SAME, note=note)
    message = capenv_refusal(model)
    if message is not None:
        return Judgement(REFUSED, differences, f"capenv refused: {message}")
    if 200 <= live.status < 300 and 400 <= model.status < 500:
        return Judgement(REFUSED, differences,
                         f"the model answered {model.status} where the live application answered {live.status}")
    return Judgement(DIFFERENT, differences)


def body_differences(live: Observed, model: Observed, values: ValueMap,
                     may_pair: PairingAllowed | None = None, unordered: tuple[str, ...] = ()) -> list[Difference]:
    live_json, live_body = parsed_body(live)
    model_json, model_body = parsed_body(model)
    if live_json and model_json:
        return diff_json(in_one_order(live_body, unordered), in_one_order(model_body, unordered), values,
                         may_pair=may_pair)
    if not live_json and not model_json and leaf_agrees(live_body, model_body, values):
        return []
    return [Difference("body", _excerpt(live_body, live_json), _excerpt(model_body, model_json))]


def in_one_order(body: Any, pointers: tuple[str, ...]) -> Any:
    """``body`` with the array at each pointer sorted by its items' canonical JSON (a copy; a
    pointer the body does not hold, or holding no array, is left alone)."""
    if not pointers:
        return body
    body = copy.deepcopy(body)
    for pointer in pointers:
        if pointer == "":
            if isinstance(body, list):
                body.sort(key=_canonical)
            continue
        found = resolve_pointer(body, pointer, None)
        if isinstance(found, list):
            found.sort(key=_canonical)
    return body


def reordered_sets(live: Any, model: Any, values: ValueMap, pointer: str = "", *,
                   objects: bool = False) -> tuple[str, ...]:
    """The pointers of arrays of distinct strings or numbers the two bodies hold with the same items
    in another order (a set the application serialises in the order of its own start: Kinto's
    principals, a token's scopes), a model item read as the live value it is paired with
    (``values``); outermost first. ``objects``: arrays of anything, items equal as JSON, too (the
    model replayed the application's own answer to the same read of the same seed: only the order it
    chose at that start differs, as Home Assistant's services listed in the order they loaded)."""
    if isinstance(live, dict) and isinstance(model, dict):
        return tuple(found for name in live if name in model
                     for found in reordered_sets(live[name], model[name], values, f"{pointer}/{escape_token(name)}",
                                                 objects=objects))
    if not (isinstance(live, list) and isinstance(model, list)) or len(live) != len(model):
        return ()
    if live and (objects or all(_scalar(item) for item in [*live, *model])):
        keys = [_canonical(item) for item in live], [_canonical(values.live_value(item)) for item in model]
        distinct = len(set(keys[0])) == len(keys[0])
        if distinct and keys[0] != keys[1] and sorted(keys[0]) == sorted(keys[1]):
            return (pointer,)
        if not objects or all(_scalar(item) for item in live):
            return ()
    return tuple(found for index, (a, b) in enumerate(zip(live, model))
                 for found in reordered_sets(a, b, values, f"{pointer}/{index}", objects=objects))


def _scalar(value: Any) -> bool:
    return isinstance(value, str) or (as_decimal_or_none(value) is not None)


def _canonical(value: Any) -> bytes:
    return canonical(value)  # exact numbers (JsonNumber) written as they read


def _excerpt(body: Any, is_json: bool) -> Any:
    if is_json:
        return body
    text = " ".join(str(body).split())
    return excerpt(text, TEXT_EXCERPT)
