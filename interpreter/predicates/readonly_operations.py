"""Read-only POST way 2: every call names read operations only.

Context ``readonly-ways``. A call names its operations in its JSON body (one in
``operation``, or one per entry of ``operations``) or in its query (``operation``, ``op``,
``action``); the rule gives those member names. Wrapper operations (``batch``) only wrap the
others, so they are passed over wherever they appear, and a call must name at least one other.
Every ``operations`` entry must name one of its own: an entry without a string operation, or
one that is itself a container (its own ``operations``, or a wrapper), keeps the call a write.

When the body and the query both name operations, all of them must read: "else the query"
in the spec says where to look when the body names none, and a call whose query names a
write is no call that only reads, whatever its body says.
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .readonly_contexts import WayCall, WaysContext
from .readonly_words import lowered, split_words


class OperationParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    separators: str = Field(min_length=1)
    """Characters that split an operation name into words (letter case splits too)."""
    read_words: list[str] = Field(min_length=1)
    write_words: list[str] = Field(min_length=1)
    wrapper_words: list[str] = Field(default_factory=list)
    """Words of operations that only wrap others (``batch``)."""
    operation_member: str = Field(min_length=1)
    """The body member naming one operation, and the member each ``operations`` entry names its own in."""
    operations_member: str = Field(min_length=1)
    """The body member listing operation entries."""
    query_names: list[str] = Field(min_length=1)
    """Query parameters that name the operation."""


class _Problem(Exception):
    """A call that names something other than read operations: the message says what."""


@predicate("calls_name_read_operations", context="readonly-ways", params=OperationParams)
def calls_name_read_operations(ctx: WaysContext, params: OperationParams) -> Outcome:
    """Every call names at least one operation besides wrappers, and every operation it names reads."""
    if not ctx.calls:
        return Miss("the tool made no call")
    named: set[str] = set()
    for call in ctx.calls:
        try:
            named.update(_read_operations(call, params))
        except _Problem as problem:
            return Miss(f"call #{call.ordinal}: {problem}")
    return Match({"operations": sorted(named), "calls": len(ctx.calls)})


def _read_operations(call: WayCall, params: OperationParams) -> list[str]:
    named = _body_operations(call, params) + [unquote_plus(value) for key, value in call.query
                                              if key in params.query_names]
    if not named:
        raise _Problem(f"names no operation (in the body's {params.operation_member!r} or "
                       f"{params.operations_member!r}, or the query's {params.query_names})")
    names = [name for name in named if not _is_wrapper(name, params)]
    if not names:
        raise _Problem(f"names only wrappers {named}, which wrap no operation of their own")
    for name in names:
        reason = _why_not_read(name, params)
        if reason:
            raise _Problem(f"operation {name!r} {reason}")
    return names


def _body_operations(call: WayCall, params: OperationParams) -> list[str]:
    if call.body_kind != "json" or not isinstance(call.body, dict):
        return []
    names: list[str] = []
    if params.operation_member in call.body:
        value = call.body[params.operation_member]
        if not isinstance(value, str):
            raise _Problem(f"the body's {params.operation_member!r} is not a string")
        names.append(value)
    if params.operations_member in call.body:
        entries = call.body[params.operations_member]
        if not isinstance(entries, list):
            raise _Problem(f"the body's {params.operations_member!r} is not an array")
        for index, entry in enumerate(entries):
            names.append(_entry_operation(index, entry, params))
    return names


def _entry_operation(index: int, entry: object, params: OperationParams) -> str:
    where = f"{params.operations_member}[{index}]"
    if not isinstance(entry, dict):
        raise _Problem(f"{where} is not an object naming an operation")
    if params.operations_member in entry:
        raise _Problem(f"{where} is another container (it holds {params.operations_member!r})")
    value = entry.get(params.operation_member)
    if not isinstance(value, str):
        raise _Problem(f"{where} names no string {params.operation_member!r}")
    if _is_wrapper(value, params):
        raise _Problem(f"{where} is another container ({value!r} only wraps)")
    return value


def _is_wrapper(name: str, params: OperationParams) -> bool:
    words = split_words(name, params.separators)
    return bool(words) and all(word in lowered(params.wrapper_words) for word in words)


def _why_not_read(name: str, params: OperationParams) -> str | None:
    words = split_words(name, params.separators)
    writes = [word for word in words if word in lowered(params.write_words)]
    if writes:
        return f"holds the write word {writes[0]!r}"
    if not any(word in lowered(params.read_words) for word in words):
        return f"holds no read word (words {list(words)})"
    return None
