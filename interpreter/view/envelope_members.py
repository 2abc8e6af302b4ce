"""What each member of a list view's envelope is (the ``view-list-members`` table).

Everything a list answer carries beside its listed members (a DRF ``count`` and ``next``
link, Strapi's ``meta.pagination``, Label Studio's ``total`` and ``total_annotations``, a
Datasette ``query_ms``) is one envelope member per JSON pointer (objects are walked, arrays are
values). The view's recordings are the evidence: in those that listed all their query selects
(the whole collection, or all a filter selects: no page cut), whether a member counted the
listed members or summed one of their fields; across recordings,
whether it stayed the same, or changed between two answers of one call with no write between
(per response: a request id, a timing). Serving renders each as ``serving.reads.envelope`` says.
"""

from __future__ import annotations

import re
from typing import Any, Callable
from urllib.parse import unquote_plus, urlsplit

from capenv.interpreter.bundle import jsonvalue
from capenv.interpreter.bundle.models import EnvelopeMember, Locator
from capenv.interpreter.bundle.paths import UNRESERVED
from capenv.interpreter.bundle.pointers import escape_token, parse
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.list_members import ListMemberContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

from .paging import PagingRoles

TABLE = "view-list-members"


def envelope_members(tool: str, locator: Locator | None, records: list[Record], paging: PagingRoles,
                     changed_between: Callable[[Record, Record], bool], ruleset: RuleSet,
                     traces: list[TraceEvent]) -> tuple[tuple[EnvelopeMember, ...], tuple[str, ...]]:
    """Each envelope member of a list view with its role, and the top-level members that change
    per response (not compared). ``records`` are the view's successful JSON answers in order;
    ``changed_between(a, b)`` says whether a write ran between two of them."""
    if locator is None or locator.kind == "root":
        return (), ()
    seen: dict[str, list[tuple[Record, Any, list]]] = {}
    listings: dict[int, str] = {}
    leaves_of: dict[int, dict[str, Any]] = {}
    for record in records:
        body = record.response.json_value
        listed = locate(body, locator) if isinstance(body, dict) and locator.kind == "member" else None
        if not isinstance(listed, list):
            continue
        leaves = _leaves(body, skip=locator.pointer)
        leaves_of[record.ordinal] = dict(leaves)
        if leaves:
            listings[record.ordinal] = _canonical(listed)  # once per answer, however many members it has
        for pointer, value in leaves:
            seen.setdefault(pointer, []).append((record, value, listed))
    members, per_response = [], []
    for pointer, sightings in seen.items():
        context = _context(pointer, sightings, paging, changed_between, listings, leaves_of)
        if context is None:
            if _top(pointer) == locator.top:
                continue  # beside a nested list: kept as recorded, so the read gate sees it change
            per_response.append(_top(pointer))
            continue
        decision = evaluate(ruleset, TABLE, context, subject=f"{tool} envelope {pointer}")
        traces.extend(decision.events)
        role = str(decision.yields.get("role", "recorded"))
        # summed, the page size, or the query parameter echoed
        field = (decision.evidence.get("param") if role in ("query-echo", "next-link", "previous-link", "next-number",
                                                            "previous-number")
                 else decision.evidence.get("field") if role in ("sum", "page-count", "listed-field") else None)
        added = role != "query-echo" or field is None or all(
            pointer in leaves_of.get(record.ordinal, {}) for record in records if record.ordinal in leaves_of
            and any(unquote_plus(name) == field for name, _ in record.query))
        link = {"link_origin": context.page_link_origin, "link_origin_fixed": context.page_link_origin_fixed,
                "link_first_dropped": context.page_link_first_dropped,
                "link_sorted": context.page_link_sorted} if role in ("next-link", "previous-link") else {}
        members.append(EnvelopeMember(pointer=pointer, role=role, rule_id=decision.rule_id,
                                      field=str(field) if field is not None else None, echo_added=added, **link))
    return tuple(members), tuple(sorted(set(per_response)))


def _context(pointer: str, sightings: list[tuple[Record, Any, list]], paging: PagingRoles,
             changed_between: Callable[[Record, Record], bool], listings: dict[int, str],
             leaves_of: dict[int, dict[str, Any]]) -> ListMemberContext | None:
    """The member's evidence; None when it changed between two answers of one call with no write
    between (a value per response, not state)."""
    last: dict[tuple, tuple[Record, str]] = {}
    for record, value, _ in sightings:
        key, spelled = (record.path, record.query), _canonical(value)
        if key in last and last[key][1] != spelled and not changed_between(last[key][0], record):
            return None
        last[key] = (record, spelled)
    # "whole": the recordings that listed all their query selects (no page cut from it), less
    # those whose query changed the member alone (PocketBase's skipTotal=1 answers totalItems -1)
    shaped = _query_shaped(sightings, changed_between, listings)
    uncut = [(record, value, listed) for record, value, listed in sightings
             if record.ordinal not in shaped and paging.uncut(record.query, len(listed))]
    whole = [(value, listed) for _, value, listed in uncut]
    # a recording whose query changed the member alone (shaped) says nothing of its constancy either
    spelled_all = {_canonical(value) for record, value, _ in sightings if record.ordinal not in shaped}
    spelled_whole = {_canonical(value) for value, _ in whole}
    counts = bool(whole) and all(_integer(value) and value == len(listed) for value, listed in whole)
    uncut_ordinals = {record.ordinal for record, _, _ in uncut}
    page_counts = sum(1 for record, value, listed in sightings
                      if record.ordinal not in uncut_ordinals and _integer(value) and value == len(listed))
    name = parse(pointer)[-1]
    echoed = _echoed_param(sightings, name)
    return ListMemberContext(
        pointer=pointer, name=name, whole_recordings=len(whole), counts_listed=counts,
        distinct_in_whole=len(spelled_whole), counts_page_in_cut=page_counts, sum_field=_summed_field(whole),
        sums_same_named=any(listed for _, listed in whole) and all(
            _integer(value) and _sum(listed, name) == value for value, listed in whole),
        constant=len(spelled_all) == 1, constant_in_whole=bool(whole) and len(spelled_whole) == 1,
        listing_changed=len({listings[record.ordinal] for record, _, _ in sightings}) > 1,
        listing_changed_in_whole=len({listings[record.ordinal] for record, _, _ in uncut}) > 1,
        kinds=sorted({_kind(value) for _, value, _ in sightings}),
        kinds_in_whole=sorted({_kind(value) for value, _ in whole}),
        texts=list(dict.fromkeys(value for _, value, _ in sightings if isinstance(value, str))),
        listings=len({listings[record.ordinal] for record, _, _ in sightings}),
        follows_listing=_follows_listing(sightings, listings),
        page_count_of=_page_count_of(pointer, uncut, leaves_of), echoes_param=echoed,
        lists_field=_listed_field(sightings),
        page_position=_page_position(pointer, sightings, paging, leaves_of, uncut),
        echoed_values=_sent_values(sightings, echoed) if echoed is not None else 0,
        later_page_asked=any(_later_page(paging, record.query) for record, _, _ in sightings),
        cut_recordings=sum(1 for record, _, listed in sightings if not paging.uncut(record.query, len(listed))),
        **(_page_link(pointer, sightings, paging, leaves_of, uncut)
           or _page_number_link(pointer, sightings, paging, leaves_of, uncut)))


def _page_number_link(pointer: str, sightings: list[tuple[Record, Any, list]], paging: PagingRoles,
                      leaves_of: dict[int, dict[str, Any]], uncut: list[tuple[Record, Any, list]]) -> dict[str, Any]:
    """What the member says as the number of another page (privacyIDEA's ``next`` and ``prev``), as
    ``ListMemberContext.page_number_link``: in every recording an integer or null, one integer at
    least, a page parameter sent in one recording at least: ``next`` the page sent (1 where none
    was) plus one where the page size sent times the page is short of the count a sibling holds,
    else null (null where no size was sent, on a recording listing all its query selects);
    ``previous`` the page sent less one, null on page 1. Empty when not every recording reads so."""
    values = [value for _, value, _ in sightings]
    if not all(value is None or _integer(value) for value in values) or not any(_integer(v) for v in values):
        return {}
    spans = [(record, value, listed, None, None) for record, value, listed in sightings]
    totals = _count_siblings(pointer, spans, leaves_of, uncut) or [None] * len(sightings)
    uncut_ordinals = {record.ordinal for record, _, _ in uncut}
    params, fits = set(), {"next": True, "previous": True}
    for (record, value, _), total in zip(sightings, totals):
        query = list(paging.read(record.query))
        roles = [paging.role(name) for name, _ in query]
        if any(role in ("offset", "end") for role in roles) or roles.count("page") > 1 or roles.count("limit") > 1:
            return {}
        sent = {role: (unquote_plus(name), unquote_plus(text)) for (name, text), role in zip(query, roles)
                if role in ("page", "limit")}
        if "page" in sent:
            params.add(sent["page"][0])
        current = _whole_number(sent["page"][1]) if "page" in sent else 1
        size = _whole_number(sent["limit"][1]) if "limit" in sent else None
        if current is None or current < 1 or "limit" in sent and not size:
            return {}
        if value != (current - 1 if current > 1 else None):
            fits["previous"] = False
        if size is not None and total is not None:
            expected = current + 1 if current * size < total else None
        elif value is None and current == 1 and record.ordinal in uncut_ordinals:
            expected = None
        else:
            expected = object()  # no count or no size: what follows is not shown
        if value != expected:
            fits["next"] = False
    if len(params) != 1:
        return {}
    position = next((p for p in ("next", "previous") if fits[p]), None)
    return {"page_number_link": position, "page_link_param": params.pop()} if position else {}


def _later_page(paging: PagingRoles, query: tuple[tuple[str, str], ...]) -> bool:
    """The query asks a page past the first: a page number past 1, or a start past 0 (or one not
    read as a whole number)."""
    for name, text in paging.read(query):
        role = paging.role(name)
        if role in ("page", "offset"):
            number = _whole_number(unquote_plus(text))
            if number is None or number > (1 if role == "page" else 0):
                return True
    return False


_PLAIN = UNRESERVED


def _page_link(pointer: str, sightings: list[tuple[Record, Any, list]], paging: PagingRoles,
               leaves_of: dict[int, dict[str, Any]], uncut: list[tuple[Record, Any, list]]) -> dict[str, Any]:
    """What the member says as a link to another page (DRF's ``next`` and ``previous``), as
    ``ListMemberContext.page_link*``: in every recording a string or null, one string at least;
    each string an absolute URL at the request's origin and path whose query is the request's, every
    parameter spelled as sent, with the page parameter (a page number counted from 1, or a start
    beside the page size sent) moved one page on (``next``) or back (``previous``); null exactly
    where there is no such page (past the count a sibling holds, or before the first page). Empty
    when not every recording reads so."""
    values = [value for _, value, _ in sightings]
    if not all(value is None or isinstance(value, str) for value in values) or not any(isinstance(v, str) for v in values):
        return {}
    spans = [(record, value, listed, None, None) for record, value, listed in sightings]
    totals = _count_siblings(pointer, spans, leaves_of, uncut) or [None] * len(sightings)
    uncut_ordinals = {record.ordinal for record, _, _ in uncut}
    readings: dict[str, list] = {"next": [], "previous": []}
    for (record, value, listed), total in zip(sightings, totals):
        query = list(record.query)
        roles = [paging.role(name) for name, _ in query]
        if paging.read(record.query) != record.query or "end" in roles or roles.count("page") > 1 \
                or roles.count("offset") > 1 or roles.count("limit") > 1 or "page" in roles and "offset" in roles:
            return {}
        sent = {role: (name, text) for (name, text), role in zip(query, roles) if role in ("page", "offset", "limit")}
        size = _whole_number(sent["limit"][1]) if "limit" in sent else None
        if "limit" in sent and not size:
            return {}
        for position in ("next", "previous"):
            readings[position].append(_link_reading(position, record, value, listed, total, sent, size,
                                                    record.ordinal in uncut_ordinals, paging))
    for position, found in readings.items():
        if all(reading is not None for reading in found):
            params = {r["param"] for r in found if r.get("param")}
            origins = {r["origin"] for r in found if r.get("origin")}
            own = all(r["own"] for r in found if r.get("origin"))
            if len(params) != 1 or len(origins) != 1 and not own:
                continue  # neither the request's origin nor one fixed origin (a configured base URL)
            dropped = {r["dropped"] for r in found if r.get("dropped") is not None}
            orders = {r["sorted"] for r in found if r.get("sorted") is not None}
            if len(dropped) > 1 or len(orders) > 1:
                continue
            return {"page_link": position, "page_link_param": params.pop(), "page_link_origin": sorted(origins)[0],
                    "page_link_origin_fixed": not own,
                    "page_link_first_dropped": dropped.pop() if dropped else None,
                    "page_link_sorted": orders.pop() if orders else None}
    return {}


def _link_reading(position: str, record: Record, value: Any, listed: list, total: int | None,
                  sent: dict[str, tuple[str, str]], size: int | None, uncut: bool,
                  paging: PagingRoles) -> dict[str, Any] | None:
    """What one recording's value shows of a ``position`` link (its page parameter, origin, whether
    a link to the first page dropped the parameter, whether its query is sorted), None where it
    is no such link."""
    style = "offset" if "offset" in sent else "page"
    start_text = sent[style][1] if style in sent else None
    current = _whole_number(start_text) if start_text is not None else (1 if style == "page" else 0)
    if current is None or style == "page" and current < 1:
        return None
    first = current == 1 if style == "page" else current == 0
    offset = (current - 1) * size if style == "page" and size is not None else current if style == "offset" else None
    if value is None:
        if position == "previous":
            return {} if first else None
        if total is not None and offset is not None:
            return {} if offset + len(listed) >= total else None
        return {} if uncut and first else None
    if position == "previous" and first or style == "offset" and size is None:
        return None
    parts = urlsplit(value)
    if not parts.scheme or not parts.netloc or parts.fragment or parts.path != record.path:
        return None
    origin = _origin(parts.scheme, parts.netloc)
    link = [(piece.split("=", 1)[0], piece.split("=", 1)[1] if "=" in piece else "")
            for piece in parts.query.split("&") if piece]
    asked = list(record.query)
    if not all(_PLAIN.fullmatch(name) and _PLAIN.fullmatch(text) for name, text in asked + link):
        return None
    moved = [name for name, _ in link if paging.role(name) == style]
    if len(moved) > 1 or style in sent and moved and moved[0] != sent[style][0]:
        return None
    param = sent[style][0] if style in sent else moved[0] if moved else None
    if style == "page":
        target = current + 1 if position == "next" else current - 1
        to_first = target == 1
    else:
        target = current + size if position == "next" else current - size  # type: ignore[operator]
        to_first = target <= 0
    if total is not None and position == "next" and (offset is None or offset + len(listed) >= total):
        return None  # a next link on the last page
    shown = [text for name, text in link if name == param]
    if param is None or not shown:
        if not (position == "previous" and to_first):
            return None
        dropped = True
    else:
        if shown[0] != str(max(target, 0) if style == "offset" else target):
            return None
        dropped = False if to_first else None
    rest_link = [(n, t) for n, t in link if n != param]
    rest_asked = [(n, t) for n, t in asked if n != param]
    if sorted(rest_link) != sorted(rest_asked):
        return None
    expected = [(n, t) for n, t in asked] if param in {n for n, _ in asked} else asked + [(param, "")]
    expected = [(n, (t if n != param else dict(link).get(param, ""))) for n, t in expected
                if n != param or not dropped]
    in_place, by_name = expected == link, sorted(expected, key=lambda pair: pair[0]) == link
    if not in_place and not by_name:
        return None
    return {"param": param, "origin": origin, "own": origin == record.origin, "dropped": dropped,
            "sorted": None if in_place == by_name else by_name}


def _origin(scheme: str, netloc: str) -> str:
    """scheme://host[:port], lower-cased, default ports dropped (as ``Record.origin``)."""
    scheme, netloc = scheme.lower(), netloc.lower()
    default = {"http": ":80", "https": ":443"}.get(scheme)
    if default and netloc.endswith(default):
        netloc = netloc[:-len(default)]
    return f"{scheme}://{netloc}"


def _page_position(pointer: str, sightings: list[tuple[Record, Any, list]], paging: PagingRoles,
                   leaves_of: dict[int, dict[str, Any]], uncut: list[tuple[Record, Any, list]]) -> str | None:
    """What the member says of the page a recording cut, from the start and page size its query
    sent (``view-query-params``: offset 0 and no size where none was sent), in every recording:
    ``page-number`` (start / size + 1, one at least past 1; NocoDB's pageInfo.page),
    ``first-page`` (start 0; a cut first page shows it true, so it is no "whole list" or "last page"
    flag, and a later page false), ``last-page`` (start + size reaching the count a sibling holds,
    that count equal to the listed members in every plain uncut recording; a cut page shows it false
    and a cut first page false, so it is no "first page" flag; ``last-page-unless-final`` where no
    recording shows a final page past the first true, so it may be a "whole list" flag: served only
    where both readings agree); else None."""
    spans = []
    for record, value, listed in sightings:
        roles = {paging.role(name): text for name, text in paging.read(record.query) if paging.role(name) != "other"}
        if "page" in roles or "end" in roles:
            return None  # a page number or an end: not the start and size this reads
        start, size = _whole_number(roles.get("offset", "0")), (_whole_number(roles["limit"]) if "limit" in roles else None)
        if start is None or start < 0 or "limit" in roles and (size is None or size <= 0):
            return None
        spans.append((record, value, listed, start, size))
    if all(_integer(value) for _, value, _, _, _ in spans) and any(value > 1 for _, value, _, _, _ in spans) and all(
            (value == start // size + 1 and start % size == 0) if size is not None else (start == 0 and value == 1)
            for _, value, _, start, size in spans):
        return "page-number"
    if not all(isinstance(value, bool) for _, value, _, _, _ in spans) \
            or len({value for _, value, _, _, _ in spans}) < 2:
        return None
    totals_of = _count_siblings(pointer, spans, leaves_of, uncut)
    if all(value == (start == 0) for _, value, _, start, _ in spans):
        cut_first = any(start == 0 and size is not None and total is not None and size < total
                        for (_, _, _, start, size), total in zip(spans, totals_of or [None] * len(spans)))
        return "first-page" if cut_first else None
    if totals_of is None:
        return None
    if all(value == (size is None and start == 0 or size is not None and start + size >= total)
           for (_, value, _, start, size), total in zip(spans, totals_of)):
        if not any(start == 0 and not value and size is not None for _, value, _, start, size in spans):
            return None  # a cut first page not last is needed to tell it from a first-page flag
        final = any(start > 0 and value for _, value, _, start, _ in spans)
        return "last-page" if final else "last-page-unless-final"
    return None


def _count_siblings(pointer: str, spans: list, leaves_of: dict[int, dict[str, Any]],
                    uncut: list[tuple[Record, Any, list]]) -> list[int] | None:
    """The values, per recording, of the first sibling member holding an integer in every recording
    and equal to the listed members in every plain uncut one (one at least): the count beside it."""
    parent = pointer.rsplit("/", 1)[0] + "/"
    uncut_ordinals = {record.ordinal for record, _, _ in uncut}
    for sibling in sorted({p for record, *_ in spans for p in leaves_of.get(record.ordinal, {})
                           if p != pointer and p.startswith(parent) and "/" not in p[len(parent):]}):
        totals = [leaves_of.get(record.ordinal, {}).get(sibling) for record, *_ in spans]
        plain = [(listed, total) for (record, _, listed, _, _), total in zip(spans, totals)
                 if record.ordinal in uncut_ordinals and record.query == ()]
        if plain and all(_integer(total) for total in totals) and all(total == len(listed) for listed, total in plain):
            return totals
    return None


def _whole_number(text: str) -> int | None:
    """A query value of ASCII digits (at most 18) as an integer, else None."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def _listed_field(sightings: list[tuple[Record, Any, list]]) -> str | None:
    """The field of the listed members whose values, in the order listed, the member holds in every
    recording whose listed members are all objects (two such at least, one listing two or more);
    the first such field in name order, else None."""
    shown = [(value, listed) for _, value, listed in sightings if all(isinstance(m, dict) for m in listed)]
    if len(shown) < 2 or not any(len(listed) >= 2 for _, listed in shown) \
            or not all(isinstance(value, list) and len(value) == len(listed) for value, listed in shown):
        return None
    candidates = sorted(set.intersection(*(set(m) for _, listed in shown for m in listed)))
    return next((name for name in candidates if all(
        value == [m[name] for m in listed] for value, listed in shown)), None)


def _follows_listing(sightings: list[tuple[Record, Any, list]], listings: dict[int, str]) -> bool:
    """One value per listing, and a different one for each different listing."""
    value_of: dict[str, str] = {}
    listing_of: dict[str, str] = {}
    for record, value, _ in sightings:
        listing, spelled = listings[record.ordinal], _canonical(value)
        if value_of.setdefault(listing, spelled) != spelled or listing_of.setdefault(spelled, listing) != listing:
            return False
    return True


def _echoed_param(sightings: list[tuple[Record, Any, list]], member: str) -> str | None:
    """The query parameter (decoded name) whose integer value the member equals in every recording
    that sent it, while the others show one value (its default) or lack the member (Feathers
    answers ``limit`` only to a call sending ``$limit``); one that sent it at least. Where
    several do (``limit=1&offset=1`` answering ``"offset": 1``, ``"limit": 1``), the one named as
    the member; none when none is: which one it echoes is not shown, and a wrong guess answers
    ``"offset": 2`` to ``limit=2``."""
    def decoded(query: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
        return [(unquote_plus(n), unquote_plus(v)) for n, v in query]

    names = sorted({name for record, _, _ in sightings for name, _ in decoded(record.query)})
    echoed = []
    for name in names:
        sent, unsent = [], set()
        for record, value, _ in sightings:
            asked = [v for n, v in decoded(record.query) if n == name]
            if asked:
                sent.append(len(asked) == 1 and _integer(value) and asked[0].strip().lstrip("-").isdigit()
                            and int(asked[0]) == value)
            else:
                unsent.add(_canonical(value))
        if sent and all(sent) and len(unsent) <= 1:
            echoed.append(name)
    if len(echoed) <= 1:
        return echoed[0] if echoed else None
    return next((name for name in echoed if name == member), None)


def _sent_values(sightings: list[tuple[Record, Any, list]], param: str) -> int:
    """How many different values of ``param`` the recordings sent."""
    return len({unquote_plus(v) for record, _, _ in sightings for n, v in record.query if unquote_plus(n) == param})


def _query_shaped(sightings: list[tuple[Record, Any, list]], changed_between: Callable[[Record, Record], bool],
                  listings: dict[int, str]) -> set[int]:
    """The recordings sent with a query whose member differs from that of a recording sent
    without one that listed the same members, no write between: their query changed the member
    alone, so their value says nothing of what the state holds."""
    plain = [(record, _canonical(value), listed) for record, value, listed in sightings if not record.query]
    shaped = set()
    for record, value, listed in sightings:
        if not record.query:
            continue
        spelled, listing = _canonical(value), listings.get(record.ordinal)
        if any((listings.get(other.ordinal) == listing or _projected(listed, other_listed)) and other_value != spelled
               and not changed_between(*sorted((other, record), key=lambda r: r.ordinal))
               for other, other_value, other_listed in plain):
            shaped.add(record.ordinal)
    return shaped


def _projected(listed: list, whole: list) -> bool:
    """``listed`` shows the entities ``whole`` shows, in its order, each with some of their members
    only (a query naming the columns to show: Flask-AppBuilder's ``q=(columns:!(id,name))``)."""
    return len(listed) == len(whole) and bool(listed) and all(
        isinstance(a, dict) and isinstance(b, dict) and a and set(a) < set(b) and all(b[k] == v for k, v in a.items())
        for a, b in zip(listed, whole))


def _page_count_of(pointer: str, uncut: list[tuple[Record, Any, list]], leaves_of: dict[int, dict[str, Any]]) -> str | None:
    """The first sibling (same parent object) holding a positive integer that the member equals
    the listed members divided by, rounded up, in every whole recording."""
    if not uncut:
        return None
    parent = pointer.rsplit("/", 1)[0] + "/"
    first = leaves_of.get(uncut[0][0].ordinal, {})
    siblings = [p for p in first if p != pointer and p.startswith(parent) and "/" not in p[len(parent):]]
    for sibling in siblings:
        if all(_integer(value) and _integer(size := leaves_of.get(record.ordinal, {}).get(sibling)) and size > 0
               and value == -(-len(listed) // size) for record, value, listed in uncut):
            return sibling
    return None


def _summed_field(whole: list[tuple[Any, list]]) -> str | None:
    """The first integer field of the listed members whose sum the member equals in every whole
    recording, when it is not zero in one of them."""
    if not whole or not all(_integer(value) for value, _ in whole) or not any(value for value, _ in whole):
        return None
    fields: list[str] = []
    for _, listed in whole:
        for member in listed:
            if isinstance(member, dict):
                fields += [name for name, v in member.items() if name not in fields and _integer(v)]
    for name in fields:
        if all(_sum(listed, name) == value for value, listed in whole):
            return name
    return None


def _sum(listed: list, name: str) -> int | None:
    total = 0
    for member in listed:
        value = member.get(name) if isinstance(member, dict) else None
        if not _integer(value):
            return None
        total += value
    return total


def _leaves(body: dict[str, Any], *, skip: str | None, prefix: str = "") -> list[tuple[str, Any]]:
    """Each leaf of ``body`` with its pointer, but the value at pointer ``skip`` (the list)."""
    found: list[tuple[str, Any]] = []
    for name, value in body.items():
        pointer = f"{prefix}/{escape_token(name)}"
        if pointer == skip:
            continue
        if isinstance(value, dict) and value:
            found += _leaves(value, skip=skip, prefix=pointer)
        else:
            found.append((pointer, value))
    return found


def _top(pointer: str) -> str:
    return parse(pointer)[0]


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (dict, list)):
        return ("object" if isinstance(value, dict) else "array") if value else "empty"
    return "string" if isinstance(value, str) else "number"


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _canonical(value: Any) -> str:
    return jsonvalue.canonical(value).decode()
