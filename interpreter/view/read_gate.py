"""The read gate: render each initial-window read from the initial state and compare.

A view (or list line) whose every initial-window read reproduces is state-backed; the others
stay on replay with the reason (the first difference, as a JSON pointer, and the record).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from capenv.interpreter.bundle.models import LATER_STATE, DocumentLine, EntityType, ListLine, ReadView
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.pointers import MISSING, member_at, with_member_at
from capenv.interpreter.evidence.records import Record
from capenv.serving.reads.answers import Answer, answer_document, answer_item, answer_list, line_digest
from capenv.serving.reads.call_match import path_fit, same_query
from capenv.serving.reads.projection import ProjectionRefused, projected_answer, projecting, without_projection
from capenv.serving.reads.render import first_difference, with_observed, without_members
from capenv.serving.state.index import StateIndex

from .views import is_absence

def compare(answer: Answer | None, record: Record, view: ReadView, *, is_list: bool,
            absence_statuses: tuple[int, ...]) -> str | None:
    """None when the answer reproduces the recording, else a short reason (``absence_statuses``: the
    budget, what a recorded absence answers)."""
    if answer is None:
        if is_absence(record, absence_statuses, view):
            return None
        return f"record {record.ordinal}: the state does not hold what it shows"
    if is_absence(record, absence_statuses, view):
        return f"record {record.ordinal}: recorded an absence ({record.status}), the state holds it"
    if answer.missing_field:
        return f"record {record.ordinal}: the entity lacks required field {answer.missing_field!r}"
    if answer.unheld:
        return f"record {record.ordinal}: {answer.unheld}"
    if answer.status != record.status:
        return f"record {record.ordinal}: status {answer.status} rendered, {record.status} recorded"
    if not record.response.is_json:
        return f"record {record.ordinal}: the recorded answer is not JSON"
    recorded = record.response.json_value
    rendered = with_observed(answer.body, recorded, view.locator, view.volatile_fields, is_list=is_list)
    rendered = _with_recorded_tags(rendered, recorded, view)
    difference = first_difference(without_members(rendered, view.per_response_members),
                                  without_members(recorded, view.per_response_members))
    return None if difference is None else f"record {record.ordinal}: differs at {difference}"


def _with_recorded_tags(rendered: Any, recorded: Any, view: ReadView) -> Any:
    """The rendered body with each content tag of the envelope (``digest``) taking the recorded
    value: the application's tag hashes its own answer (clocks included), which a model's cannot
    reproduce; a tag shows nothing of the state beyond the content compared beside it."""
    pointers = [m.pointer for m in view.envelope_members if m.role == "digest"]
    if not pointers or not isinstance(rendered, dict) or not isinstance(recorded, dict):
        return rendered
    result = rendered
    for pointer in pointers:
        mine, theirs = member_at(result, pointer), member_at(recorded, pointer)
        if mine is not MISSING and theirs is not MISSING:
            result = with_member_at(result, pointer, theirs)
    return result


def answer_read(view: ReadView, record: Record, types: dict[str, EntityType], state: StateIndex,
                *, line: Any = None) -> tuple[Answer | None, bool, Any]:
    """What serving answers from state for a recorded read: (answer, is_list, line or None).

    Without ``line``, a list or document read answers from its own recorded line (the read
    gate proves each line by its own reads); the write gate passes the line serving would
    choose (``choose_list_line``, ``choose_document_line``). A read sent with a learned
    projection is answered as serving answers it: as the read without it, projected (an answer
    serving refuses carries why in ``unheld``)."""
    try:
        call = projecting(view.projections, record.query)
    except ProjectionRefused:
        call = None  # another spelling: serving refuses it, and it is checked as its own line
    query = call.rest if call is not None else record.query
    answer, is_list, line = _answer_read(view, record.path, query, types, state, line,
                                         (record.origin, record.path, record.query))
    if call is None or answer is None:
        return answer, is_list, line
    try:
        return projected_answer(answer, view, call), is_list, line
    except ProjectionRefused as refused:
        return replace(answer, unheld=str(refused)), is_list, line


def _answer_read(view: ReadView, path: str, query: Any, types: dict[str, EntityType], state: StateIndex,
                 line: Any, link_at: tuple[str | None, str, Any]) -> tuple[Answer | None, bool, Any]:
    if view.kind == "item":
        return answer_item(view, types[view.type], state, path), False, None
    if view.kind == "list":
        if line is not None:  # as serving answers from the line it chose
            return answer_list(view, line, types[view.type], state, line.query, link_at=link_at), True, line
        line = next((l for l in view.lines if l.path == path and l.query == query), None)
        if line is None:
            return None, True, None
        return answer_list(view, line, types[view.type], state, link_at=link_at), True, line
    if view.kind == "document":
        line = line or next((l for l in view.documents if l.path == path and l.query == query), None)
        if line is None:
            return None, False, None
        return answer_document(line, state), False, line
    return None, False, None


def choose_list_line(view: ReadView, path: str, query: Any) -> tuple[ListLine, bool] | None:
    """The checked line serving answers a list call from, and whether its query matched (as
    ``StateReads`` chooses it): each path segment verbatim or either spelling once percent-decoded,
    verbatim spellings first, then recorded order, the query values decoded in any order (a line
    repeating a name with different values never matches). A call with no query falls back on a
    whole line, one with no query before one that only pages. None: no checked line answers it
    (serving evaluates a learned query, or replays). A learned projection's parameters are left out
    (serving projects the line's answer)."""
    query = without_projection(view.projections, query)
    fits = sorted(((fit, index, line) for index, line in enumerate(l for l in view.lines if l.state_backed)
                   if (fit := path_fit(line.path, path)) is not None), key=lambda item: (-item[0], item[1]))
    exact = next((line for _, _, line in fits if same_query(line.query, query)), None)
    if exact is not None:
        return exact, True
    if query:
        return None
    whole = sorted((line for _, _, line in fits if line.membership == "all"), key=lambda line: bool(line.query))
    return (whole[0], False) if whole else None


class LineChoices:
    """``choose_list_line`` remembered per view, path and query (a pure function of them) for one
    replay, whose reads ask it again for every read of a path, in two or three places each."""

    def __init__(self) -> None:
        self._chosen: dict[tuple[int, str, Any], tuple[ReadView, tuple[ListLine, bool] | None]] = {}

    def __call__(self, view: ReadView, path: str, query: Any) -> tuple[ListLine, bool] | None:
        key = (id(view), path, query)
        found = self._chosen.get(key)
        if found is None or found[0] is not view:  # the view is kept beside its answer: its id is not reused
            found = self._chosen[key] = (view, choose_list_line(view, path, query))
        return found[1]


def choose_document_line(view: ReadView, path: str, query: Any, state: StateIndex) -> DocumentLine | None:
    """The checked document line serving answers a call from (as ``StateReads`` chooses it)."""
    fits = sorted(((fit, index, line) for index, line in enumerate(view.documents)
                   if line.state_backed and (fit := path_fit(line.path, path)) is not None
                   and same_query(line.query, query)), key=lambda item: (-item[0], item[1]))
    return next((line for _, _, line in fits if line.path in state.documents), None)


def item_query_answered(view: ReadView, query: Any, records: dict[int, Record]) -> bool:
    """Serving answers an item call from the state only with a query one of its view's checked
    reads used (none, when it has none; ``StateReads``): another query (``populate``, ``_embed``,
    ``fields``) may change the shape, so serving replays it, and such a read shows the entity
    neither as the state holds it nor as the gate checks it. A read sent with a learned projection
    shows part of the entity: serving answers it projected, and it sights nothing of the state."""
    if projecting_or_none(view, query) is not None:
        return False
    queries = [records[o].query for o in view.entity_query_ordinals() if o in records] or [()]
    return any(same_query(recorded, query) for recorded in queries)


def projecting_or_none(view: ReadView, query: Any) -> Any:
    """The read's projection (``serving/reads/projection``), or None (none, or another spelling)."""
    try:
        return projecting(view.projections, query)
    except ProjectionRefused:
        return None


def run_read_gate(views: list[ReadView], records: dict[int, Record], window_reads: tuple[int, ...],
                  tool_of: dict[int, str], types: dict[str, EntityType], state: StateIndex,
                  absence_statuses: tuple[int, ...], unauthenticated: frozenset[int] = frozenset()) -> list[ReadView]:
    """``unauthenticated``: the reads refused for credentials they were sent without
    (``unauthenticated.unauthenticated_reads``), which show nothing of the state."""
    by_tool = {v.tool: v for v in views}
    failures: dict[str, list[str]] = {}
    checked: dict[str, list[int]] = {}
    line_failures: dict[tuple[str, tuple], list[str]] = {}
    line_checked: dict[tuple[str, tuple], list[int]] = {}
    for ordinal in window_reads:
        record = records[ordinal]
        view = by_tool.get(tool_of.get(ordinal, ""))
        if view is None or view.kind == "none" or ordinal in view.other_shape_records:
            continue
        if ordinal in view.malformed_id_records:
            continue  # refused for the id's shape before the application looked it up (view-malformed-ids)
        if ordinal in unauthenticated:
            continue  # refused before the application looked at what it asked for: it shows nothing of the state
        if record.status >= 500 and not is_absence(record, absence_statuses, view):
            continue  # the application failed: the answer shows nothing of the state (as in the write gate)
        if record.succeeded and not record.response.retained:
            continue  # the recorder kept no body: it neither confirms nor contradicts the state
        answer, is_list, _line = answer_read(view, record, types, state)
        reason = compare(answer, record, view, is_list=is_list, absence_statuses=absence_statuses)
        checked.setdefault(view.tool, []).append(ordinal)
        key = (view.tool, (record.path, record.query))
        line_checked.setdefault(key, []).append(ordinal)
        if reason:
            failures.setdefault(view.tool, []).append(reason)
            line_failures.setdefault(key, []).append(reason)
    result = []
    for view in views:
        if view.kind == "none":
            result.append(view)
            continue
        done = tuple(checked.get(view.tool, ()))
        failed = failures.get(view.tool, [])
        reason = failed[0] if failed else (None if done else "no read in the initial window to prove it")
        update: dict[str, Any] = {"state_backed": bool(done) and not failed, "reason": reason,
                                  "checked_record_ordinals": done}
        if view.kind == "list":
            update["lines"] = tuple(_line_verdict(view.tool, line, line_checked, line_failures) for line in view.lines)
        if view.kind == "document":
            update["documents"] = tuple(_line_verdict(view.tool, line, line_checked, line_failures)
                                        for line in view.documents)
        result.append(view.model_copy(update=update))
    return result


def _line_verdict(tool: str, line: Any, checked: dict, failures: dict) -> Any:
    key = (tool, (line.path, line.query))
    done, failed = checked.get(key, []), failures.get(key, [])
    reason = failed[0] if failed else (None if done else "no read in the initial window to prove it")
    own = next((member for member in getattr(line, "projected_members", ()) if member.role == "own"), None)
    if own is not None:
        failed, reason = [own], own_projection(own)
    return line.model_copy(update={"state_backed": bool(done) and not failed, "reason": reason})


def own_projection(member: Any) -> str:
    """Why a list line showing a member as its own projection is not answered from the state, and
    what would be accepted (``view-list-projections``)."""
    return (f"it shows {member.name!r} otherwise than the item reads of the same entity ({member.evidence}), and not"
            f" one value for every entity listed: the state does not determine what this list shows; it would be"
            f" answered from the state if its recordings showed {member.name!r} as the item reads do, or one value"
            f" for every entity it lists ({member.rule_id or 'view-list-projections default'})")


def _first_write_below(written_paths: list[tuple[int, tuple[str, ...]]]) -> dict[tuple[str, ...], int]:
    """Per path (as segments), the first write to it or below it: each write counts for every
    prefix of its path (one look-up per list line instead of a walk over every write)."""
    first: dict[tuple[str, ...], int] = {}
    for ordinal, segments in written_paths:
        for end in range(len(segments) + 1):
            prefix = segments[:end]
            if ordinal < first.get(prefix, ordinal + 1):
                first[prefix] = ordinal
    return first


def with_held_digests(view: ReadView, types: dict[str, EntityType], state: StateIndex,
                      written_paths: list[tuple[int, tuple[str, ...]]]) -> ReadView:
    """Each list line with the digest of its collection in the initial state (``recorded``
    envelope members, and the recorded members of a filter no learned query evaluates, stand
    only while the collection still has it). A line whose base was recorded after a write to its
    collection's path or below it (``written_paths``: each write's ordinal and path segments)
    showed another state than the initial one: ``LATER_STATE``, which no digest equals, so what
    only its recording shows (a page's ``isLastPage``) is never answered for the state."""
    if view.kind != "list" or view.type not in types:
        return view
    first_write = _first_write_below(written_paths)

    def written_before(line: ListLine) -> bool:
        first = first_write.get(tuple(split_path(line.collection or line.path)))
        return first is not None and first < line.base.ordinal

    lines = tuple(line.model_copy(update={"held_digest": LATER_STATE if written_before(line)
                                          else line_digest(line, types[view.type], state)})
                  for line in view.lines)
    return view.model_copy(update={"lines": lines})
