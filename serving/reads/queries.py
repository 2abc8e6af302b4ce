"""Evaluate learned queries (filters, search, sort, paging) over a collection's members."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.models import QuerySpec


PAGING_KINDS = frozenset({"page", "limit", "start", "end", "offset"})


def pages(specs: tuple[QuerySpec, ...], query: tuple[tuple[str, str], ...]) -> bool:
    """``query`` names a learned paging parameter (its answer may list part of what it selects)."""
    kinds = {spec.param: spec.kind for spec in specs}
    return any(kinds.get(name) in PAGING_KINDS for name, _ in query)


def evaluate_queries(members: list[dict[str, Any]], specs: tuple[QuerySpec, ...],
                     query: tuple[tuple[str, str], ...], *, paged: bool = True) -> list[dict[str, Any]]:
    """Apply the learned queries named by ``query`` to ``members`` (filters, sort, then paging;
    without ``paged``, what the filters select before any page is cut)."""
    by_param = {spec.param: spec for spec in specs}
    values = {name: value for name, value in query if name in by_param}
    result = list(members)
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind == "equals":
            result = [m for m in result if _text(m.get(spec.field)) == value]
        elif spec.kind == "compare":
            result = [m for m in result if _compare(m.get(spec.field), spec.operator or "==", value)]
        elif spec.kind == "in":
            wanted = set(value.split(","))
            result = [m for m in result if _text(m.get(spec.field)) in wanted]
        elif spec.kind == "search":
            needle = value.lower()
            result = [m for m in result if needle in _all_text(m).lower()]
    sort = next((by_param[n] for n in values if by_param[n].kind == "sort"), None)
    if sort is not None:
        field = values[sort.param]
        descending = field.startswith("-")
        field = field.lstrip("-")
        order = next((values[n] for n in values if by_param[n].kind == "order"), None)
        if order is not None:
            descending = order.lower() == "desc"
        result = sorted(result, key=lambda m: _sort_key(m.get(field)), reverse=descending)
    if not paged:
        return result
    limit = _int(next((values[n] for n in values if by_param[n].kind == "limit"), None))
    page = next((by_param[n] for n in values if by_param[n].kind == "page"), None)
    start = _int(next((values[n] for n in values if by_param[n].kind in ("start", "offset")), None))
    end = _int(next((values[n] for n in values if by_param[n].kind == "end"), None))
    if page is not None and limit:
        number = _int(values[page.param]) or 0
        base = int(page.operator or "1")
        first = (number - base) * limit
        return result[max(first, 0): max(first, 0) + limit]
    if start is not None or end is not None:
        result = result[(start or 0): end]
    if limit is not None:
        result = result[:limit]
    return result


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(getattr(value, "text", value))


def _all_text(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_all_text(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_all_text(v) for v in value)
    return _text(value)


def _number(value: Any) -> float | None:
    try:
        return float(str(getattr(value, "text", value)))
    except (TypeError, ValueError):
        return None


def _compare(value: Any, operator: str, wanted: str) -> bool:
    left, right = _number(value), _number(wanted)
    if left is None or right is None:
        return False
    return {">=": left >= right, "<=": left <= right, ">": left > right, "<": left < right,
            "!=": left != right, "==": left == right}.get(operator, False)


def _sort_key(value: Any) -> tuple:
    number = _number(value) if not isinstance(value, (str, bool)) else None
    if number is not None:
        return (0, number, "")
    return (1, 0, _text(value))


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
