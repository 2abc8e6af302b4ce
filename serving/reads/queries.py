"""Evaluate learned queries (filters, search, sort, paging) over a collection's members."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.filter_expressions import clause_shape, literal_kind, parse_clauses
from capenv.interpreter.bundle.models import QuerySpec
from capenv.interpreter.bundle.structured_queries import expanded
from capenv.serving.reads.text_order import collation_dependent
from capenv.serving.state.key_facts import EXACT_INTEGERS


PAGING_KINDS = frozenset({"page", "limit", "start", "end", "offset"})
_PLAIN_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]*[1-9])?")
"""A number spelled as a JSON number prints (no sign +, leading zero, trailing fractional zero, exponent)."""
_BOOLEAN_TEXT = ("true", "false")
"""The spellings a boolean equality reads (``_text``)."""
TEXT_OPERATORS = frozenset({"contains", "icontains", "startswith", "istartswith", "endswith", "iendswith"})
"""The text operators an expression's clause may carry (``!`` before one negates it)."""
FILTER_KINDS = frozenset({"equals", "compare", "in", "text", "search"})
"""The kinds ``_filtered`` selects members by, each comparing the members with the parameter's value."""

Pairs = tuple[tuple[str, str], ...]


def decoded(query: Pairs) -> Pairs:
    """The query with names and values form-decoded: learned queries name their parameters so
    (``filters[title][$eq]`` and ``filters%5Btitle%5D%5B%24eq%5D`` are one name)."""
    return tuple((unquote_plus(name), unquote_plus(value)) for name, value in query)


def containers(specs: tuple[QuerySpec, ...] | list[QuerySpec]) -> dict[str, str]:
    """The parameters whose structured values hold learned members, and their syntax."""
    return {spec.container: spec.container_syntax for spec in specs
            if spec.container is not None and spec.container_syntax is not None}


def named(specs: tuple[QuerySpec, ...] | list[QuerySpec], query: Pairs) -> Pairs:
    """The query decoded, each container parameter of ``specs`` split into its members' pairs
    (``q.order_column``); a container no member can be read from stays as sent (no learned query
    names it, so no answer is evaluated from it)."""
    pairs = decoded(query)
    split = expanded(pairs, containers(specs))
    return pairs if split is None else split[0]


def member_kinds(specs: tuple[QuerySpec, ...] | list[QuerySpec], query: Pairs) -> dict[str, str] | None:
    """The kind each container member of ``query`` was sent as; None when a container is unreadable."""
    split = expanded(decoded(query), containers(specs))
    return None if split is None else split[1]


def pages(specs: tuple[QuerySpec, ...], query: Pairs) -> bool:
    """``query`` names a learned paging parameter (its answer may list part of what it selects)."""
    kinds = {spec.param: spec.kind for spec in specs}
    return any(kinds.get(name) in PAGING_KINDS for name, _ in named(specs, query))


def spec_clauses(spec: QuerySpec, value: str):
    """The comparisons expression ``spec`` reads in ``value``, or None when it is no such expression."""
    return parse_clauses(value, spec.syntax, spec.separator or "", spec.operators or {}, spec.within, spec.clause_keys)


def evaluate_queries(members: list[dict[str, Any]], specs: tuple[QuerySpec, ...],
                     query: Pairs, *, paged: bool = True) -> list[dict[str, Any]]:
    """Apply the learned queries named by ``query`` (raw or decoded pairs) to ``members``
    (filters, sort, then paging; without ``paged``, what the filters select before any page is cut)."""
    by_param = {spec.param: spec for spec in specs}
    values = {name: value for name, value in named(specs, query) if name in by_param}
    result = list(members)
    for name, value in values.items():
        result = _filtered(result, by_param[name], value)
    for field, wanted in _indexed_lists(by_param, values).items():
        result = [m for m in result if _text(m.get(field)) in wanted]
    keys = _sort_keys(by_param, values)
    for field, descending in reversed(keys):
        result = sorted(result, key=lambda m, f=field: _sort_key(m.get(f)), reverse=descending)
    if not paged:
        return result
    return _paged(result, by_param, values)


def _filtered(result: list[dict[str, Any]], spec: QuerySpec, value: str) -> list[dict[str, Any]]:
    if spec.kind == "equals":
        return [m for m in result if _text(m.get(spec.field)) == value]
    if spec.kind == "compare":
        return [m for m in result if _compare(m.get(spec.field), spec.operator or "==", value)]
    if spec.kind == "in" and spec.index is None:
        wanted = set(value.split(spec.separator)) if spec.separator else {value}
        return [m for m in result if _text(m.get(spec.field)) in wanted]
    if spec.kind == "text":
        return [m for m in result if _text_matches(m.get(spec.field), spec.operator or "", value)]
    if spec.kind == "search":
        needle = value.lower()
        return [m for m in result if needle in _all_text(m).lower()]
    if spec.kind == "expression":
        clauses = spec_clauses(spec, value)
        if clauses is None:
            return []  # never answered: ``unproven`` refuses a value that is no such expression
        for clause in clauses:
            result = [m for m in result if _clause_holds(m.get(clause.field), clause.operator, clause.value)]
        return result
    return result


def _clause_holds(value: Any, operator: str, literal: Any) -> bool:
    """One comparison of an expression: a text literal compares as text (``~`` a case-insensitive
    contains), a number as a number, true/false/null as JSON values."""
    if operator.lstrip("!") in TEXT_OPERATORS:
        found = _text_matches(value, operator.lstrip("!"), _text(literal))
        return found == (not operator.startswith("!"))
    if operator in ("in", "!in"):
        found = any(_clause_holds(value, "==", one) for one in literal)
        return found == (operator == "in")
    if literal is None or isinstance(literal, bool):
        return (value is literal) == (operator == "==") if operator in ("==", "!=") else False
    if isinstance(literal, str):
        if operator in ("==", "!="):
            return (_text(value) == literal and not isinstance(value, bool)) == (operator == "==")
        return False
    return _compare(value, operator, _text(literal))


def _indexed_lists(by_param: dict[str, QuerySpec], values: dict[str, str]) -> dict[str, set[str]]:
    """The values indexed ``in`` parameters give each field (``filters[name][$in][0]``, ``[1]``)."""
    lists: dict[str, set[str]] = {}
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind == "in" and spec.index is not None and spec.field is not None:
            lists.setdefault(spec.field, set()).add(value)
    return lists


def _sort_keys(by_param: dict[str, QuerySpec], values: dict[str, str]) -> list[tuple[str, bool]]:
    """(field, descending) in the order the keys apply: indexed parameters by index, a value's
    keys as written; an ``order`` parameter gives the direction of a single key."""
    sorts = sorted((by_param[n] for n in values if by_param[n].kind == "sort"), key=lambda s: s.index or 0)
    keys: list[tuple[str, bool]] = []
    for spec in sorts:
        text = values[spec.param]
        if spec.field is not None:  # a keyed sort: the name names the field, the value its direction
            keys.append((spec.field, spec.directions.get(text.strip().lower()) == "desc"))
            continue
        for key in (text.split(spec.separator) if spec.separator else [text]):
            keys.append(_sort_key_of(spec, key.strip()))
    order = next((by_param[n] for n in values if by_param[n].kind == "order"), None)
    if order is not None and len(keys) == 1:
        keys = [(keys[0][0], order.directions.get(values[order.param].lower()) == "desc")]
    return keys


def sort_directions(specs: tuple[QuerySpec, ...] | list[QuerySpec], query: Pairs) -> str:
    """The directions of the query's learned sort keys, in the order they apply, joined by commas
    (``desc,asc``); empty when it sorts by nothing."""
    by_param = {spec.param: spec for spec in specs}
    values = {name: value for name, value in named(specs, query) if name in by_param}
    return ",".join("desc" if descending else "asc" for _, descending in _sort_keys(by_param, values))


def sorted_ties(specs: tuple[QuerySpec, ...] | list[QuerySpec], query: Pairs,
                members: list[dict[str, Any]]) -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]]]:
    """(the runs of two or more selected members equal in every sort key the query names, in the
    order serving lists them; the page it answers), the runs those with a member on the page."""
    by_param = {spec.param: spec for spec in specs}
    values = {name: value for name, value in named(specs, query) if name in by_param}
    keys = _sort_keys(by_param, values)
    if not keys:
        return [], []
    selected = evaluate_queries(members, tuple(specs), query, paged=False)
    page = _paged(selected, by_param, values)
    on_page = {id(m) for m in page}
    runs: list[list[dict[str, Any]]] = []
    run: list[dict[str, Any]] = []
    last: tuple | None = None
    for member in selected:
        key = tuple(_sort_key(member.get(field)) for field, _ in keys)
        if run and key == last:
            run.append(member)
            continue
        if len(run) > 1 and any(id(m) in on_page for m in run):
            runs.append(run)
        run, last = [member], key
    if len(run) > 1 and any(id(m) in on_page for m in run):
        runs.append(run)
    return runs, page


def unproven_tie(specs: tuple[QuerySpec, ...] | list[QuerySpec], query: Pairs, members: list[dict[str, Any]],
                 id_field: str) -> str | None:
    """Why a sorted list is not answered: held entities equal in every sort key stand on its page
    (their order there, or which of them the page holds, is the application's tie-break), and no
    line that proved the sort listed tied entities in that direction, as serving orders them."""
    by_param = {spec.param: spec for spec in specs}
    sorting = [by_param[name] for name, _ in named(specs, query) if name in by_param and by_param[name].kind == "sort"]
    if not sorting:
        return None
    directions = sort_directions(specs, query)
    runs, _ = sorted_ties(specs, query, members)
    if all(directions in spec.tie_order_unlike_ids for spec in sorting):
        return None
    if all(directions in spec.tie_order_proven for spec in sorting):
        # the recordings showed ties broken in the state's order, where it was also the identities'
        # order (seeded entities): a run whose state order is not its id order (an entity made here
        # with a lesser id) tells the two apart, which no recording did
        runs = [run for run in runs if [m.get(id_field) for m in run] != [
            m.get(id_field) for m in sorted(run, key=lambda m: value_sort_key(m.get(id_field)))]]
        if not runs:
            return None
        tied = [str(m.get(id_field, "?")) for m in runs[0]]
        return (f"{len(tied)} held entities ({id_field} {', '.join(repr(t) for t in tied[:5])}) are equal in the "
                f"sort key(s) {', '.join(repr(f) for f in sort_fields(specs, query))} and stand on the page asked "
                f"in an order that is not their {id_field!r} order: the recordings show ties broken in the order "
                f"the entities were held, which was also their {id_field!r} order there, so they do not show which "
                f"of the two the application follows; sort by a key that tells them apart, or ask a page none of "
                f"them is on")
    if not runs:
        return None
    fields = sort_fields(specs, query)
    tied = [str(m.get(id_field, "?")) for m in runs[0]]
    shown = ", ".join(repr(t) for t in tied[:5]) + (", …" if len(tied) > 5 else "")
    proven = sorted({d for spec in sorting for d in spec.tie_order_proven})
    accepted = (f"; the recordings show ties broken in the order serving keeps in direction(s) "
                f"{', '.join(repr(d) for d in proven)}" if proven else "")
    return (f"{len(tied)} held entities ({id_field} {shown}) are equal in the sort key(s) "
            f"{', '.join(repr(f) for f in fields)} and stand on the page asked: their order there, or which of "
            f"them the page holds, is the application's tie-break (by id, by insertion, or none), which no "
            f"recording of this sort showed{accepted}; sort by a key that tells them apart (add "
            f"{id_field!r} as a last key where the recordings prove more keys), or ask a page none of them is on")


def sort_fields(specs: tuple[QuerySpec, ...] | list[QuerySpec], query: Pairs) -> list[str]:
    """The fields the query's learned sorts order by, in the order they apply."""
    by_param = {spec.param: spec for spec in specs}
    values = {name: value for name, value in named(specs, query) if name in by_param}
    return [field for field, _ in _sort_keys(by_param, values)]


def direction_spellings(spec: QuerySpec, value: str) -> list[str]:
    """The direction spellings ``value`` of sort or order parameter ``spec`` carries, as sent: an
    ``order`` value, a keyed sort's value, and for each key of a sort's value its descending
    prefix (``-``) and its direction word (``desc`` of ``views:desc``)."""
    if spec.kind == "order":
        return [value]
    if spec.kind != "sort" or spec.operator == "desc":
        return []
    if spec.field is not None:
        return [value.strip()]
    spelled = []
    for key in (value.split(spec.separator) if spec.separator else [value]):
        key = key.strip()
        if spec.descending_prefix and key.startswith(spec.descending_prefix):
            spelled.append(spec.descending_prefix)
            key = key[len(spec.descending_prefix):]
        if spec.direction_separator and spec.direction_separator in key:
            word = key.rpartition(spec.direction_separator)[2]
            if word.lower() in spec.directions:
                spelled.append(word)
    return spelled


def _unproven_member(by_param: dict[str, QuerySpec], values: dict[str, str], sent: dict[str, str]) -> str | None:
    """Why a container's members cannot be read as the recordings proved them: a member sent as
    another kind than every proving line sent it (``page:'0'`` beside ``page:0``), a sort by a field
    its rule sorts by only where a recording did, or a sort whose direction parameter is left out."""
    for name, value in values.items():
        spec = by_param[name]
        kind = sent.get(name)
        if spec.member_kinds is not None and kind is not None and kind not in spec.member_kinds:
            return (f"{name} is sent as a {kind} ({value!r}), and every recording sent it as "
                    f"{' or '.join(spec.member_kinds)}: the application may refuse it (a schema checking the "
                    f"member's type) or read it otherwise; send it as {' or '.join(spec.member_kinds)}")
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind != "sort" or spec.field is not None:
            continue
        if spec.fields_proven_only and spec.proven_fields is not None:
            odd = next((f for f, _ in [_sort_key_of(spec, k.strip()) for k in
                                       (value.split(spec.separator) if spec.separator else [value])]
                        if f not in spec.proven_fields), None)
            if odd is not None:
                return (f"{name}={value!r} sorts by {odd!r}, which no recording sorted by: this application sorts "
                        f"only by the columns it lists as sortable and refuses another; accepted: "
                        f"{', '.join(repr(f) for f in spec.proven_fields)}")
        if spec.direction_required and not any(by_param[n].kind == "order" for n in values):
            orders = sorted(s.param for s in by_param.values() if s.kind == "order")
            return (f"{name}={value!r} is sent without its direction, and no recording shows the direction the "
                    f"application then sorts in; send {' or '.join(repr(o) for o in orders) or 'a direction'} too")
    return None


def _unproven_direction(by_param: dict[str, QuerySpec], values: dict[str, str]) -> str | None:
    """Why a sort's direction cannot be read as the recordings proved it: a spelling no proving
    line sent (``Desc``, ``DESC`` or ``descending`` where ``desc`` was sent; ``-views`` where only
    ``views:desc`` was), which an application may refuse or ignore where serving would sort
    descending; or a direction parameter beside a key that spells its own."""
    carried = False
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind not in ("sort", "order") or spec.proven_directions is None:
            continue
        spelled = direction_spellings(spec, value)
        carried = carried or (spec.kind == "sort" and spec.field is None and bool(spelled))
        odd = next((s for s in spelled if s not in spec.proven_directions), None)
        if odd is not None:
            accepted = ", ".join(repr(s) for s in spec.proven_directions) or "none (send keys without a direction)"
            return (f"{name}={value!r} spells a sort direction {odd!r}, which no recording sent: the application "
                    f"may read another spelling otherwise (refuse it, or ignore it and sort ascending); "
                    f"accepted: {accepted}")
    order = next((n for n in values if by_param[n].kind == "order"), None)
    if order is not None and carried:
        return (f"{order}={values[order]!r} gives a direction to a sort key that spells its own, and no recording "
                f"sent both: the application may follow either; send the direction one way")
    return None


def _sort_key_of(spec: QuerySpec, key: str) -> tuple[str, bool]:
    descending = spec.operator == "desc"  # a parameter that sorts descending (``_sort_desc``)
    if spec.descending_prefix and key.startswith(spec.descending_prefix):
        key, descending = key[len(spec.descending_prefix):], True
    if spec.direction_separator and spec.direction_separator in key:
        field, _, word = key.rpartition(spec.direction_separator)
        direction = spec.directions.get(word.lower())
        if direction is not None:
            key, descending = field, direction == "desc"
    return key, descending


def _paged(result: list[dict[str, Any]], by_param: dict[str, QuerySpec], values: dict[str, str]) -> list[dict[str, Any]]:
    limit = _int(next((values[n] for n in values if by_param[n].kind == "limit"), None))
    page = next((by_param[n] for n in values if by_param[n].kind == "page"), None)
    start = _int(next((values[n] for n in values if by_param[n].kind in ("start", "offset")), None))
    end = _int(next((values[n] for n in values if by_param[n].kind == "end"), None))
    if page is not None and limit:
        number = _int(values[page.param]) or 0
        base = int(page.operator or "1")
        if number < base:  # before the first page: ``unproven`` refuses it, so it proves no reading either
            return []
        first = (number - base) * limit
        return result[first: first + limit]
    if start is not None or end is not None:
        result = result[(start or 0): end]
    if limit is not None:
        result = result[:limit]
    return result


def _text_matches(value: Any, operator: str, wanted: str) -> bool:
    if value is None or isinstance(value, (dict, list)):
        return False
    text = _text(value)
    if operator.startswith("i"):
        text, wanted, operator = text.lower(), wanted.lower(), operator[1:]
    return {"contains": wanted in text, "startswith": text.startswith(wanted),
            "endswith": text.endswith(wanted)}.get(operator, False)


def _wildcards_in(text: str, spec: QuerySpec) -> str | None:
    """The wildcards of ``spec`` (its rule's: SQL LIKE's ``%`` and ``_``) that ``text`` holds, spelled
    for a refusal, or None: an application matching by pattern reads them so, another as themselves."""
    held = [c for c in spec.wildcards if c in text]
    return " and ".join(held) if held else None


def _unproven_text(by_param: dict[str, QuerySpec], values: dict[str, str], texts: dict[str, set[str]]) -> str | None:
    """Why a text filter (contains, starts or ends with) cannot answer ``values`` as the recordings
    proved it: the text holds one of its rule's wildcards (SQL LIKE's), or letter case decides whether a text the entities
    hold matches (a held text matches it in one reading of case and not in the other), which no
    recording shows (``QuerySpec.text_case_proven``): Datasette's title__contains matches letters of either case and reads % and _
    as wildcards (SQLite's LIKE), where the learned operator matched case and both characters as
    written (a hunt of session 17)."""
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind != "text" or spec.field is None or not spec.operator:
            continue
        wildcards = _wildcards_in(value, spec)
        if wildcards is not None:
            return (f"{name}={value!r} holds {wildcards}, which an application matching with a pattern (SQL LIKE) "
                    f"reads as wildcards and another as the characters themselves; the capture shows neither: "
                    f"send the text without them")
        split = None if spec.text_case_proven else case_decided(spec.operator, value, texts.get(spec.field, ()))
        if split is not None:
            return (f"{name}={value!r} finds {split!r} in {spec.field!r} only where letters of another case "
                    f"match, and no recording shows whether the application matches letter case (SQL LIKE folds "
                    f"it, other engines do not); send the text in the letter case the entities hold it")
    return None


def case_decided(operator: str, value: str, held: Any) -> str | None:
    """The first of the ``held`` texts that text filter ``operator`` with ``value`` matches in one
    reading of letter case (as sent, or folded) and not in the other, else None."""
    other = operator[1:] if operator.startswith("i") else "i" + operator
    return next((t for t in sorted(h for h in held if isinstance(h, str))
                 if _text_matches(t, operator, value) != _text_matches(t, other, value)), None)


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
    if operator in ("==", "!=") and (left is None or right is None or isinstance(value, bool)):
        return (_text(value) == wanted) == (operator == "==")
    if left is None or right is None:
        return False
    return {">=": left >= right, "<=": left <= right, ">": left > right, "<": left < right,
            "!=": left != right, "==": left == right}.get(operator, False)


def value_sort_key(value: Any) -> tuple:
    """How serving orders one sort key's values: numbers by value before texts by code point."""
    return _sort_key(value)


def _sort_key(value: Any) -> tuple:
    number = _number(value) if not isinstance(value, (str, bool)) else None
    if number is not None:
        return (0, number, "")
    return (1, 0, _text(value))


def _digits_below(value: str, bound: int) -> bool:
    """``value`` is ASCII digits spelling a number below ``bound`` (0 or 1), however many leading
    zeros (read without converting a long text to an integer)."""
    return value.isascii() and value.isdigit() and bound > 0 and not value.strip("0")


def _int(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def value_kinds(members: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Per field, the JSON kinds its non-null values take among ``members`` (text, number,
    boolean, object, array)."""
    kinds: dict[str, set[str]] = {}
    for member in members:
        for name, value in member.items():
            if isinstance(value, dict):
                kinds.setdefault(name, set()).add("object")
            elif isinstance(value, list):
                kinds.setdefault(name, set()).add("array")
            elif value is not None:
                kinds.setdefault(name, set()).add(literal_kind(value))
    return kinds


def held_texts(members: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Per field, the texts ``members`` hold there."""
    texts: dict[str, set[str]] = {}
    for member in members:
        for name, value in member.items():
            if isinstance(value, str):
                texts.setdefault(name, set()).add(value)
    return texts


def _spaced_key(name: str, value: str) -> str:
    return (f"{name}={value!r} spells a sort key with spaces around it, and no recording sent one: the "
            f"application may trim the spaces or refuse the key as naming no field; send the key without them")


def unproven(specs: tuple[QuerySpec, ...], query: Pairs, fields: set[str],
             kinds: dict[str, set[str]] | None = None, texts: dict[str, set[str]] | None = None) -> str | None:
    """Why the learned queries cannot answer ``query`` as the recordings proved them (a filter sent
    empty, a sort key naming no field the entities hold, a page number with no page size, an expression comparing a
    field with a literal of another kind than the entities hold there, ``kinds`` from
    ``value_kinds``: an object or array, or a number field with a text; an equality with a text a
    held one spells in other letter case, ``texts`` from ``held_texts``), else None."""
    kinds = kinds or {}
    texts = texts or {}
    by_param = {spec.param: spec for spec in specs}
    values = {name: value for name, value in named(specs, query) if name in by_param}
    structured = _unproven_member(by_param, values, member_kinds(specs, query) or {})
    if structured is not None:
        return structured
    direction = _unproven_direction(by_param, values)
    if direction is not None:
        return direction
    keyed = [name for name in values if by_param[name].kind == "sort" and by_param[name].field is not None]
    for name in keyed:
        spec, value = by_param[name], values[name]
        if value != value.strip() and not spec.spaced_keys_proven:
            return _spaced_key(name, value)
        if value.strip().lower() not in spec.directions:
            return (f"{name}={value!r} is none of the directions the recordings prove for it: send "
                    f"{' or '.join(repr(d) for d in sorted(spec.directions))}")
        if spec.proven_keys is not None and len(keyed) > spec.proven_keys:
            return (f"the call sorts by {len(keyed)} keyed sort parameters ({', '.join(keyed)}), and the recordings "
                    f"prove sorting by at most {spec.proven_keys}: the application may refuse more, or apply them "
                    f"otherwise; send at most {spec.proven_keys}")
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind == "equals" and spec.vocabulary is not None and value and value not in spec.vocabulary:
            return (f"{name}={value!r} is none of the values the capture shows {spec.field!r} holding or filtered by, "
                    f"a closed list the application may check a filter against (refusing another as invalid) where "
                    f"the state would list nothing; accepted: {', '.join(repr(v) for v in spec.vocabulary)}")
    for name, value in values.items():
        if by_param[name].kind in FILTER_KINDS and not value:
            return (f"{name} is sent empty, which the learned filter was never proven on: an application may "
                    f"ignore an empty filter (listing everything), match the empty text or refuse it; leave "
                    f"{name!r} out to list everything, or send the value to match")
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind != "sort" or spec.field is not None:
            continue
        keys = value.split(spec.separator) if spec.separator else [value]
        if spec.proven_keys is not None and len(keys) > spec.proven_keys:
            return (f"{name}={value!r} sorts by {len(keys)} keys, and the recordings prove sorting by at most "
                    f"{spec.proven_keys}: the application may refuse more, or read them otherwise; send at most "
                    f"{spec.proven_keys}")
        for key in keys:
            if key != key.strip() and not spec.spaced_keys_proven:
                return _spaced_key(name, value)
            field, _ = _sort_key_of(spec, key.strip())
            if field not in fields:
                spelled = []
                if spec.descending_prefix:
                    spelled.append(f"led by {spec.descending_prefix!r} for descending")
                if spec.direction_separator:
                    words = "/".join(sorted(spec.directions))
                    spelled.append(f"followed by {spec.direction_separator!r} and {words}")
                how = f" ({', '.join(spelled)})" if spelled else ""
                return (f"sort key {key.strip()!r} of {name!r} names no field the listed entities hold; accepted: "
                        f"a field name{how}, among {', '.join(repr(f) for f in sorted(fields)[:20])}")
            if kinds.get(field, set()) & {"object", "array"}:
                return (f"sort key {key.strip()!r} of {name!r} names {field!r}, which the listed entities hold as an "
                        f"object or array: the capture does not show how the application orders those (by an id "
                        f"inside, or not at all: it may refuse the sort); sort by a field holding a text, number or "
                        f"boolean")
    sorting = [by_param[name] for name in values if by_param[name].kind == "sort"]
    if sorting and not all(spec.text_order_proven for spec in sorting):
        for field, _ in _sort_keys(by_param, values):
            pair = collation_dependent(texts.get(field, ()))
            if pair is not None:
                return (f"the sort by {field!r} orders texts whose order depends on the application's collation "
                        f"({pair[0]!r} and {pair[1]!r}: code-point order and a case- and punctuation-insensitive "
                        f"one put them otherwise), and no recording sorted such texts to show which it uses; "
                        f"sort by a field whose texts both orders agree on, or by a number or clock")
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind != "expression":
            continue
        spelled = " or ".join(sorted(spec.operators or {}))
        clauses = spec_clauses(spec, value)
        if clauses is None and spec.syntax == "column-objects":
            return (f"{name}={value!r} is not a filter the capture proves: accepted, a non-empty list of objects "
                    f"each holding exactly {', '.join(repr(k) for k in spec.clause_keys or ())} (a field, one of "
                    f"{spelled}, and a text, number or boolean)")
        if clauses is None and spec.syntax == "json-object":
            return (f"{name}={value!r} is not a filter the capture proves: accepted, a JSON object whose members "
                    f"name fields, each holding a text, number, boolean or null (equal to it) or an object of "
                    f"operators ({spelled}) holding one")
        if clauses is None:
            return (f"{name}={value!r} is not a filter the capture proves: accepted, comparisons of a field with a "
                    f"quoted text or a number, with {spelled}, joined by {spec.separator!r}, in optional parentheses")
        unknown = next((c.field for c in clauses if c.field not in fields), None)
        if unknown is not None:
            return (f"{name} compares {unknown!r}, no field the listed entities hold; accepted: "
                    f"{', '.join(repr(f) for f in sorted(fields)[:20])}")
        nested = next((c.field for c in clauses if kinds.get(c.field, set()) & {"object", "array"}), None)
        if nested is not None:
            return (f"{name} compares {nested!r}, which the listed entities hold as an object or array: the capture "
                    f"does not show what the application compares a literal with there (an id inside it, or "
                    f"nothing); filter on a field holding a text, number or boolean")
        mismatched = next((c for c in clauses if c.value is not None
                           and kinds.get(c.field, set()) - {literal_kind(c.value)}), None)
        if mismatched is not None:
            held = " or ".join(sorted(kinds[mismatched.field]))
            return (f"{name} compares {mismatched.field!r}, held as a {held}, with a {literal_kind(mismatched.value)}: "
                    f"the capture does not show whether the application converts it, refuses it or matches "
                    f"nothing; send a {held} literal")
        proven = spec.proven_clauses or ()
        unproven_clause = next((c for c in clauses if clause_shape(c, spec.syntax) not in proven), None)
        if unproven_clause is not None:
            return (f"{name} compares {unproven_clause.field!r} by {clause_shape(unproven_clause, spec.syntax)!r} "
                    f"(operator:literal kind), which no recording proves; proven: {', '.join(proven) or 'none'}")
        wildcard = next((c for c in clauses if c.operator.lstrip("!") in TEXT_OPERATORS
                         and _wildcards_in(str(c.value), spec) is not None), None)
        if wildcard is not None:
            return (f"{name} looks for {wildcard.value!r}, holding {_wildcards_in(str(wildcard.value), spec)}, "
                    f"which the application may read as wildcards: send the text without them")
    text_reason = _unproven_text(by_param, values, texts)
    if text_reason is not None:
        return text_reason
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind != "limit" or spec.sizes is None:
            continue
        low, high = spec.sizes
        size = _int(value)
        if size is None or not low <= size <= high:
            return (f"page size {name}={value!r} lies outside {low}-{high}, the sizes recorded answers show: the "
                    f"capture shows a size beyond them refused, so the application bounds {name!r} somewhere "
                    f"between; send a size from {low} to {high}")
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind not in ("equals", "compare", "in") or spec.field is None:
            continue
        held = kinds.get(spec.field, set())
        # an ``in`` list compares each of its items (``ids=1,2``): `` 2`` or ``abc`` is no plain number
        items = value.split(spec.separator) if spec.kind == "in" and spec.index is None and spec.separator \
            else [value]
        odd = next((item for item in items if not _PLAIN_NUMBER.fullmatch(item)), None)
        if held == {"number"} and odd is not None:
            shown = f"{name}={value!r}" if odd == value else f"{name}={value!r} (its item {odd!r})"
            return (f"{shown} compares {spec.field!r}, which the listed entities hold as a number, with text "
                    f"that is no plain number: the capture does not show whether the application converts it "
                    f"(1.0 as 1, ' 2' as 2), refuses it (400, 500) or matches nothing; send a number spelled as "
                    f"3 or 2.5")
        huge = next((item for item in items if "." not in item and abs(int(item)) > EXACT_INTEGERS), None) \
            if held == {"number"} else None
        if huge is not None:
            return (f"{name}={value!r} compares {spec.field!r}, which the listed entities hold as a number, with "
                    f"{huge}, past 2**53: the application may read it as an inexact number, overflow (Label Studio "
                    f"answers ids=99999999999999999999 with a 500) or refuse it, and the capture shows none of "
                    f"these; send a number below 2**53")
        odd = next((item for item in items if item not in _BOOLEAN_TEXT), None)
        if held == {"boolean"} and odd is not None:
            return (f"{name}={value!r} compares {spec.field!r}, which the listed entities hold as a boolean, with "
                    f"neither true nor false: the capture does not show whether the application converts it, "
                    f"refuses it (400) or matches nothing; send true or false")
        if spec.kind == "equals":
            other_case = sorted(t for t in texts.get(spec.field, ()) if t != value and t.casefold() == value.casefold())
            if other_case:
                return (f"{name}={value!r} matches {spec.field!r} {other_case[0]!r} of a listed entity but for letter "
                        f"case: the capture does not show whether the application compares it ignoring case (and "
                        f"lists that entity) or exactly (and does not); send the text as the entity holds it")
    for name, value in values.items():
        if by_param[name].kind in PAGING_KINDS and not (value.isascii() and value.isdigit()):
            return (f"{name}={value!r} is no whole number of 0 or more, the only paging values the learned "
                    f"query reads: the capture does not show what the application makes of a negative, "
                    f"fractional or other value (no limit, its default, or a refusal); send digits only")
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind == "limit" and _digits_below(value, 1) and not spec.zero_size_proven:
            return (f"page size {name}={value!r}: no recording sent a size of 0, which applications read apart "
                    f"(an empty page, their default page, everything, or a refusal); send a size of 1 or more")
    for name, value in values.items():
        spec = by_param[name]
        if spec.kind == "page" and _digits_below(value, int(spec.operator or "1")):
            return (f"{name}={value!r} asks for a page before the first, which the learned query counts from "
                    f"{spec.operator or '1'}: the capture does not show what the application makes of it (the first "
                    f"page, nothing, or a refusal); send a page number from {spec.operator or '1'}")
    kinds = {by_param[name].kind for name in values}
    if "page" in kinds and "limit" not in kinds:
        sizes = sorted(s.param for s in specs if s.kind == "limit")
        return (f"a page number with no page size: the capture proves pages only with their size; "
                f"send {' or '.join(repr(s) for s in sizes) or 'a page size'} too")
    return None
