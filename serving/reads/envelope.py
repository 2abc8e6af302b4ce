"""Render the envelope of a list answer: every member beside the listed ones (DESIGN.md §5).

A list answer's envelope carries counters (DRF's ``count``, Strapi's ``meta.pagination.total``,
Label Studio's ``total`` and ``total_annotations``), paging links and constants. The view says
what each is (``ReadView.envelope_members``, decided by the ``view-list-members`` table); here
each is rendered from what the state holds, or kept from the base recording only where the
recording still describes the state. A member the state cannot give is never rendered from a
recording that no longer holds: the answer then carries the reason, and serving refuses it.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any, Callable
from urllib.parse import unquote_plus

from capenv.interpreter.bundle import jsonvalue
from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.models import EnvelopeMember, ListLine, ReadView
from capenv.interpreter.bundle.paths import UNRESERVED
from capenv.interpreter.bundle.pointers import MISSING, member_at, with_member_at

from .queries import named

_KEEP: Any = object()
"""The base recording's value stands."""
_ECHOED_INTEGER = re.compile(r"-?[0-9]{1,20}")
"""An integer a query parameter may hold (ASCII digits: ``int`` reads other scripts' digits too)."""
_EXACT_EVERYWHERE = 2**53
"""The largest integer every JSON implementation reads exactly (a double's 53-bit mantissa)."""


def collection_digest(members: list[tuple[Any, dict[str, Any]]] | None) -> str:
    """A digest of a collection's (id, entity) pairs in order; "" for no collection."""
    if members is None:
        return ""
    canonical = jsonvalue.canonical([[str(key), value] for key, value in members])
    return hashlib.sha256(canonical).hexdigest()[:32]


def render_envelope(view: ReadView, line: ListLine, body: Any, counted: list[dict[str, Any]] | None,
                    current_digest: Callable[[], str], *, whole: bool, as_recorded: bool,
                    asked: tuple[tuple[str, str], ...] = (),
                    listed: list[dict[str, Any]] | None = None,
                    link_at: tuple[str | None, str, tuple[tuple[str, str], ...]] | None = None) -> tuple[Any, str | None]:
    """``body`` (the base with the members placed) with each envelope member rendered, and the
    reason it cannot be when one cannot (None when all can).

    ``counted`` are the members the counters count (None: the state cannot say which);
    ``current_digest()`` is the digest of the line's collection now; ``whole``: the answer lists
    the whole collection; ``as_recorded``: the call asks what the line's recording asked;
    ``asked``: the call's query (a ``query-echo`` member renders its parameter's value); ``listed``:
    the members the answer lists, in order (a ``listed-field`` member renders their field's values);
    ``link_at``: the origin the call reached the application at (None: an MCP call, answered the
    recorded links' origin), its raw path and its query as sent, for page links (none: they are not
    rendered)."""
    if not view.envelope_members or not isinstance(body, dict):
        return body, None
    result = body
    unchanged: bool | None = None
    # page counts after the others: they divide by the page size rendered for this call (an echoed
    # perPage); content tags last, as they digest the rest of the answer
    for member in sorted(view.envelope_members, key=lambda member: _RENDER_ORDER.get(member.role, 0)):
        recorded = member_at(line.base.body, member.pointer)
        if recorded is MISSING and not (member.role == "query-echo" and member.echo_added
                                        and _sends(asked, member.field)):
            if member.role == "recorded" and not whole and _carried_beside(view, member, asked):
                # A recording sent with a parameter this call sends carried it and the state cannot
                # compute it: a page the recording did not cut may carry it (Ironic's next link on a
                # cut page), so its absence holds only for what the recording asked, while the
                # collection holds. (Strapi's start, carried only beside parameters the call does
                # not send, stays absent.)
                if unchanged is None:
                    unchanged = as_recorded and line.held_digest is not None and current_digest() == line.held_digest
                if not unchanged:
                    return body, (f"the answer's {member.pointer} is absent from its recording while other recordings"
                                  " of this list carry it, a value the state cannot compute, and the call pages "
                                  + ("otherwise than that recording" if not as_recorded else
                                     "a collection that has changed since it was recorded")
                                  + ": whether the application answers it here is unknown")
            continue  # this line's answers never carried it
        # (an echo the application answers only to a call sending its parameter, Feathers' limit
        # to $limit, is added to a base recorded without it: every recording sending it showed it)
        if member.role == "digest":
            if unchanged is None:
                unchanged = as_recorded and line.held_digest is not None and current_digest() == line.held_digest
            if unchanged:
                continue  # the recording's tag still names this content
            value = content_tag(recorded, with_member_at(result, member.pointer, None))
        elif member.role == "page-count":
            value = _pages(result, member, counted)
        elif member.role == "query-echo":
            value = _echoed(member, asked, line.query, recorded)
        elif member.role == "listed-field":
            value = _listed_values(member, listed)
        elif member.role in ("page-number", "first-page", "last-page", "last-page-unless-final"):
            value = _page_position(member.role, line, asked, counted)
        elif member.role == "first-page-constant":
            value = _KEEP if whole or _first_page(view, line, asked) else _Unrendered(
                "no recording asked a page past the first, where it may hold another value (a link back)")
        elif member.role in ("next-link", "previous-link"):
            value = _page_link(member, view, line, counted, whole, link_at)
        elif member.role in ("next-number", "previous-number"):
            value = _page_link(member, view, line, counted, whole, (None, "/", asked), as_number=True)
        else:
            value = _computed(member, counted, whole)
        if value is _KEEP:
            continue
        why = value.reason if isinstance(value, _Unrendered) else None
        if why is not None:
            value = MISSING
        if value is MISSING:
            if unchanged is None:
                unchanged = as_recorded and line.held_digest is not None and current_digest() == line.held_digest
            if not unchanged and why is not None:
                what = (f", a link to the {member.role.rsplit('-', 1)[0]} page," if member.role.endswith(("-link", "-number"))
                        else f" ({_show(recorded)} on every first page recorded)")
                return body, f"the answer's {member.pointer}{what} is not rendered: {why}"
            if not unchanged:
                return body, (f"the answer's {member.pointer} is {_show(recorded)} in its recording, a value the state"
                              " cannot compute, and "
                              + ("the call asks another query than that recording" if not as_recorded else
                                 "the collection has changed since it was recorded"))
            continue
        result = with_member_at(result, member.pointer, value)
    unshown = _unshown_page_link(view, line, counted, whole, link_at)
    if unshown is not None:
        if unchanged is None:
            unchanged = as_recorded and line.held_digest is not None and current_digest() == line.held_digest
        if not unchanged:  # else the recording answers this very query over the collection it showed
            return body, unshown
    return result, None


_RENDER_ORDER = {"page-count": 1, "digest": 2}

_HEX_RUN = re.compile(r"[0-9a-fA-F]+")
_MAX_TAG_DIGITS = hashlib.sha256().digest_size * 2
"""A SHA-256 digest's hex digits (a property of the hash, not a tuning): a longer recorded tag is no
digest serving can spell."""


def content_tag(recorded: Any, content: Any) -> Any:
    """A tag of ``content`` spelled as the recorded one: its one longest run of hex digits replaced by
    as many of a SHA-256 digest of the content's canonical JSON (in the run's letter case), the text
    around it kept (an HTTP entity tag's quotes); MISSING when the recorded value holds no such run."""
    if not isinstance(recorded, str):
        return MISSING
    runs = sorted(_HEX_RUN.finditer(recorded), key=lambda m: m.end() - m.start(), reverse=True)
    if not runs or len(runs[0].group()) > _MAX_TAG_DIGITS or len(runs) > 1 and \
            len(runs[1].group()) == len(runs[0].group()):
        return MISSING
    run = runs[0]
    digits = hashlib.sha256(jsonvalue.canonical(content)).hexdigest()[:run.end() - run.start()]
    if run.group().isupper():
        digits = digits.upper()
    return recorded[:run.start()] + digits + recorded[run.end():]


def _echoed(member: EnvelopeMember, asked: tuple[tuple[str, str], ...], recorded_query: tuple[tuple[str, str], ...],
            recorded: Any) -> Any:
    """The integer the call's query parameter holds; the base's value (the default) where neither
    the call nor the base's recording sent it; else MISSING."""
    values = [value for name, value in _decoded(asked) if name == member.field]
    if len(values) == 1 and _ECHOED_INTEGER.fullmatch(values[0].strip()):
        number = int(values[0])
        # past 2**53 the application's own number may differ (a JavaScript server echoes 2**53 + 1
        # as 2**53; past 64 bits no answer could carry it): the capture cannot show what it echoes
        return number if abs(number) <= _EXACT_EVERYWHERE else MISSING
    if not values and not any(name == member.field for name, _ in _decoded(recorded_query)):
        return _KEEP if isinstance(recorded, int) and not isinstance(recorded, bool) else MISSING
    return MISSING


def _carried_beside(view: ReadView, member: EnvelopeMember, asked: tuple[tuple[str, str], ...]) -> bool:
    """Whether a line of the view whose recording carries the member was sent with a query
    parameter the call sends too."""
    names = {name for name, _ in _decoded(asked)}
    return any(member_at(line.base.body, member.pointer) is not MISSING
               and names & {name for name, _ in _decoded(line.query)} for line in view.lines)


def _sends(asked: tuple[tuple[str, str], ...], param: str | None) -> bool:
    return param is not None and any(name == param for name, _ in _decoded(asked))


def _decoded(query: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    return [(unquote_plus(name), unquote_plus(value)) for name, value in query]


def _pages(body: Any, member: EnvelopeMember, counted: list[dict[str, Any]] | None) -> Any:
    """How many pages of the size the sibling member holds the counted members fill."""
    size = member_at(body, member.field) if member.field else MISSING
    if counted is None or not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        return MISSING
    return -(-len(counted) // size)


def _computed(member: EnvelopeMember, counted: list[dict[str, Any]] | None, whole: bool) -> Any:
    """The member's value from the state, the base's value where it stands, else MISSING."""
    if member.role == "constant" or member.role == "whole-constant" and whole:
        return _KEEP
    if member.role == "count" and counted is not None or member.role == "whole-count" and whole and counted is not None:
        return len(counted)
    if member.role == "sum" and counted is not None and member.field:
        total = 0
        for entity in counted:
            value = entity.get(member.field)
            if not isinstance(value, int) or isinstance(value, bool):
                return MISSING  # the state holds no integer to add up
            total += value
        return total
    return MISSING


def _page_position(role: str, line: ListLine, asked: tuple[tuple[str, str], ...],
                   counted: list[dict[str, Any]] | None) -> Any:
    """What a ``page-number``, ``first-page`` or ``last-page`` member says of the page the call's
    start and size cut (NocoDB's pageInfo): MISSING where the start is no multiple of the size
    (NocoDB then answers another shape), past the end (readings part: a last page or none), or the
    size is 0 or unknown beside a start."""
    if asked and not line.queries:
        return MISSING  # a query no learned meaning reads: its recording says which page it was
    kinds = {spec.param: spec.kind for spec in line.queries}
    sent = {kinds[name]: value for name, value in named(line.queries, asked) if name in kinds}
    start_text, size_text = sent.get("start", sent.get("offset", "0")), sent.get("limit")
    if "page" in sent or "end" in sent or not _PLAIN_COUNT.fullmatch(start_text) \
            or size_text is not None and not _PLAIN_COUNT.fullmatch(size_text):
        return MISSING
    start, size = int(start_text), int(size_text) if size_text is not None else None
    if size is None:
        if start != 0:
            return MISSING  # the default size is not known
        return {"page-number": 1, "first-page": True}.get(role, True if counted is not None else MISSING)
    if size == 0 or start % size:
        return MISSING
    if role == "page-number":
        return start // size + 1
    if role == "first-page":
        return start == 0
    if counted is None or start >= len(counted) > 0:
        return MISSING
    last = start + size >= len(counted)
    if role == "last-page-unless-final" and last and start > 0:
        return MISSING  # a final page past the first: a whole-list flag would say false, no recording tells
    return last


def _first_page(view: ReadView, line: ListLine, asked: tuple[tuple[str, str], ...]) -> bool:
    """The call asks the first page: every page number or start it sends (as the view's learned
    queries read them) is the first (a page 1 counted from 1, 0 from 0, a start 0). A parameter no
    learned query reads is one a recording sent alike (only a recorded line answers it), and no
    recording of a view holding this member asked a page past the first."""
    kinds = {spec.param: spec for spec in (*view.learned_queries, *line.queries)}
    for name, text in named(line.queries, asked):
        spec = kinds.get(name)
        if spec is None:
            continue
        if spec.kind == "page" and text != (spec.operator or "1") or spec.kind in ("offset", "start") and text != "0":
            return False
    return True


class _Unrendered:
    """A member not rendered, and why (a refusal then says it)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


_PLAIN_TEXT = UNRESERVED
"""A link's parameters are rendered only where the application's re-encoding cannot spell them otherwise."""
_PLAIN_PATH = re.compile(r"/[A-Za-z0-9._~/-]*")


def _page_link(member: EnvelopeMember, view: ReadView, line: ListLine,
               counted: list[dict[str, Any]] | None, whole: bool,
               link_at: tuple[str | None, str, tuple[tuple[str, str], ...]] | None, *, as_number: bool = False) -> Any:
    """A ``next-link`` or ``previous-link`` for the page the call asks (``view-list-members``): the
    call's own URL at the origin it reached, with the page parameter ``member.field`` moved one
    page; None where there is no such page; ``_KEEP`` for a call asking no page (every recording of
    a whole list showed it null); ``_Unrendered`` where the state or the recordings cannot say (the page
    size unknown, a page past the end, a spelling the application may re-encode, a parameter order
    or a link to the first page no recording showed). ``as_number``: the page's number alone
    (``next-number``, ``previous-number``: privacyIDEA's next and prev), whatever the spelling."""
    if whole:
        return _KEEP  # no page asked: null, as every recording of a whole list showed it
    if link_at is None:
        return _Unrendered("the call reached no origin the link could name")
    asked = link_at[2]  # as sent (the answer's members follow the query the line evaluates: the same, decoded)
    # the view's learned meanings: a line evaluated for a query no recording asked holds only the
    # parameters sent (a page size alone leaves out the page parameter the link moves)
    kinds = {spec.param: spec for spec in (*view.learned_queries, *line.queries)}
    spec = kinds.get(member.field or "")
    if spec is None or spec.kind not in ("page", "offset", "start") or spec.kind == "page" and spec.operator != "1":
        return _Unrendered(f"no learned query reads {member.field} as a page counted from 1 or a start")
    style = "page" if spec.kind == "page" else "offset"
    if as_number:
        asked = tuple(named(line.queries, asked))  # decoded: the numbers are read, not spelled
        if spec.kind != "page":
            return _Unrendered(f"no learned query reads {member.field} as a page counted from 1")
    elif any(not _PLAIN_TEXT.fullmatch(name) or not _PLAIN_TEXT.fullmatch(text) for name, text in asked):
        return _Unrendered("the query holds characters the application may spell otherwise in its link"
                           " (letters, digits and . _ ~ - are rendered)")
    by_kind: dict[str, list[str]] = {}
    for name, text in asked:
        if name in kinds:
            kind = "offset" if kinds[name].kind == "start" else kinds[name].kind
            by_kind.setdefault(kind, []).append(text)
    if any(len(texts) > 1 for texts in by_kind.values()) or "end" in by_kind \
            or ("page" in by_kind and "offset" in by_kind):
        return _Unrendered("the call pages by more than one page number, start or size")
    sent = [text for name, text in asked if name == member.field]
    size_text = by_kind.get("limit", [None])[0]
    if size_text is None or not _PLAIN_COUNT.fullmatch(size_text) or sent and not _PLAIN_COUNT.fullmatch(sent[0]):
        return _Unrendered("the page size is not sent, or a page or size is no plain whole number"
                           " (the application's default size and its reading of other spellings are not shown)")
    size = int(size_text)
    current = int(sent[0]) if sent else (1 if style == "page" else 0)
    if size <= 0 or counted is None or style == "page" and current < 1:
        return _Unrendered("the page size is 0, the page is before the first, or the state cannot say how many"
                           " entities the query selects")
    start = (current - 1) * size if style == "page" else current
    if start > 0 and start >= len(counted):
        # past the end: the application answers otherwise (DRF: 404 "Invalid page.")
        return _Unrendered(f"the page starts past the {len(counted)} entities the query selects, an answer no"
                           " recording showed")
    step = 1 if style == "page" else size
    if member.role in ("next-link", "next-number"):
        if start + size >= len(counted):
            return None
        target, to_first = current + step, False
    else:
        if start == 0:
            return None
        target = current - step
        to_first = target <= (1 if style == "page" else 0)
        target = max(target, 1 if style == "page" else 0)
        if to_first and member.link_first_dropped is None and not as_number:
            return _Unrendered("no recording showed a link back to the first page (whether it names the page"
                               " parameter is not shown)")
    if as_number:
        return target
    if not _PLAIN_PATH.fullmatch(link_at[1]):
        return _Unrendered("the path holds characters the application may spell otherwise in its link")
    origin = link_at[0] if link_at[0] is not None and not member.link_origin_fixed else member.link_origin
    if origin is None:
        return _Unrendered("the call reached no origin the link could name")
    dropped = to_first and bool(member.link_first_dropped)
    pairs = [(name, str(target) if name == member.field else text) for name, text in asked
             if name != member.field or not dropped]
    if not sent and not dropped:
        pairs.append((member.field or "", str(target)))
    in_place, by_name = pairs, sorted(pairs, key=lambda pair: pair[0])
    if member.link_sorted is None and in_place != by_name:
        return _Unrendered("whether the application writes the link's parameters sorted by name or in the order"
                           " sent (the page parameter added last) is not shown: no recording told them apart")
    chosen = by_name if member.link_sorted else in_place
    query = "&".join(f"{name}={text}" for name, text in chosen)
    return origin + link_at[1] + (f"?{query}" if query else "")


_LINK_ROLES = (("next-link", "previous-link"), ("next-number", "previous-number"))


def _unshown_page_link(view: ReadView, line: ListLine, counted: list[dict[str, Any]] | None, whole: bool,
                       link_at: tuple[str | None, str, tuple[tuple[str, str], ...]] | None) -> str | None:
    """Why a cut page of a list that learned page links (or numbers) is not answered: it has a page
    on a side whose link the line's recording does not carry (the list never showed one there, or
    this line's base was recorded without it), or whether it has one cannot be told. Barbican leaves
    ``next`` out on a last page: a list recorded only at its last page never showed its ``next``,
    and a page rendered from a whole listing's recording would leave out a link the application
    sends (a wrong answer). None: every side with a page carries its link."""
    links = {member.role: member for member in view.envelope_members
             if member.role in ("next-link", "previous-link", "next-number", "previous-number")}
    if whole or not links:
        return None
    template = next(iter(links.values()))
    for roles in _LINK_ROLES:
        if not any(role in links for role in roles):
            continue
        for role in roles:
            own = links.get(role)
            if own is not None and member_at(line.base.body, own.pointer) is not MISSING:
                continue  # rendered (or refused) with the answer's other members
            as_number = role.endswith("-number")
            where = (None, "/", link_at[2] if link_at else ()) if as_number else link_at
            other = _page_link((own or template).model_copy(update={"role": role}), view, line, counted, whole,
                               where, as_number=as_number)
            if other is None or other is _KEEP:
                continue  # no page on that side: the link is absent, as the recordings show it
            side = role.split("-", 1)[0]
            why = other.reason if isinstance(other, _Unrendered) else "this page has one"
            return (f"whether this page has a {side} page, and how the application links to it, is not shown by"
                    f" the recording this query is answered from ({why}): only pages whose links the recordings"
                    " show are answered")
    return None


_PLAIN_COUNT = re.compile(r"(?:0|[1-9][0-9]{0,17})")
"""A start or size the page position reads: digits without a leading zero, short of any overflow."""


def _listed_values(member: EnvelopeMember, listed: list[dict[str, Any]] | None) -> Any:
    """The listed members' values of ``field``, in the order listed; MISSING where one lacks it."""
    if listed is None or not member.field or any(member.field not in entity for entity in listed):
        return MISSING
    return [entity[member.field] for entity in listed]


def _show(value: Any) -> str:
    text = jsonvalue.dumps(value).decode()
    return excerpt(text, 40)
