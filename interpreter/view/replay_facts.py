"""The replay table (DESIGN.md §5 "Replay"): every recorded call of every tool, with what replay
needs to never answer against the state:

* ``initial``: the call finished before the capture's first write began, so its answer shows
  the state serving starts from (a later one shows the capture's own writes);
* ``reads_types``: the state types a read tool's answers may show: its path is a type's
  collection path or lies below it (segment by segment, parameters matching any segment), or
  one of its answers names an initial entity of the type by its identity (for a read-only POST, a
  search or a batch of reads, also an id too short to name it alone beside one of the entity's
  strings: ``replay_short_id_min_string``), or one of its calls
  names one by a query value (a status read of one entity, `/db/status?folder=photos`, whose
  answer is that entity's and goes when the entity does);
* ``neutral_query``: the query parameters two recordings of a tool prove change nothing.
"""

from __future__ import annotations

from bisect import bisect_right
from datetime import datetime
from typing import Any
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.jsonvalue import dumps
from capenv.interpreter.bundle.models import Locator, RecordedCall, ReplayTable, ViewResult
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import locate, same_json
from capenv.interpreter.bundle.variants import ACCEPT_ONLY
from capenv.interpreter.evidence.records import Evidence, Record
from capenv.interpreter.manifest.models import Manifest, Tool
from capenv.interpreter.predicates.clock_formats import learn_clock_format

from .negotiation import Variants
from .recordings import recording_of

def replay_table(evidence: Evidence, manifest: Manifest, view: ViewResult | None = None,
                 variants: Variants | None = None, settings: dict[str, Any] | None = None) -> ReplayTable:
    """``settings``: the ``plans`` settings (``min_linked_id_length``: how long an initial entity's id
    is to name it alone in another answer; ``replay_short_id_min_string``: how long a string of an
    initial entity an answer object naming it by a shorter id must also hold; none, no short id names)."""
    records = {r.ordinal: r for r in evidence.records}
    first_write = _first_write_start(view, records)
    tools: dict[str, tuple[RecordedCall, ...]] = {}
    variants = variants or Variants()
    default_accept = dict(variants.usual)
    variant_headers = {name: headers for name, headers in variants.headers.items() if headers != ACCEPT_ONLY}
    credential_variants = dict(variants.credentials)
    for tool in manifest.tools:
        calls = []
        negotiated = tool.name in variants.usual
        for ordinal in tool.record_ordinals:
            record = records[ordinal]
            calls.append(RecordedCall(
                accept=variants.keys[ordinal] if negotiated else None,
                ordinal=ordinal, method=record.method, path=record.path, query=record.query,
                request_body=record.request.json_value if record.request.is_json else None,
                request_is_json=record.request.is_json,
                request_text=None if record.request.is_json else record.request.text,
                response=recording_of(record), initial=first_write is None or record.finished_at <= first_write))
        tools[tool.name] = tuple(calls)
    if view is None:
        return ReplayTable(tools=tools, default_accept=default_accept, variant_headers=variant_headers,
                           credential_variant_headers=credential_variants)
    reads = ReadsTypes(view, records, settings)
    reach = {t.name: found for t in manifest.tools if (found := reads.of(t))}
    neutral = {t.name: found for t in manifest.tools if (found := _neutral(tools[t.name]))}
    return ReplayTable(tools=tools, reads_types=reach, neutral_query=neutral, default_accept=default_accept,
                       variant_headers=variant_headers, credential_variant_headers=credential_variants)



class ReadsTypes:
    """The state types each read tool's answers may show (``ReplayTable.reads_types`` before the
    gate's stale replays join it): serving refuses a recording of such a tool once a served write
    changed one of them. Also asked while plans are built (``plans/copies``: a copy a replayed read
    shows is refused after the write, not answered stale)."""

    def __init__(self, view: ViewResult, records: dict[int, Record], settings: dict[str, Any] | None) -> None:
        self._view, self._records = view, records
        self._read_only = {p.tool for p in view.read_only_posts}
        # an initial entity's id names it in another answer only when it cannot be a coincidence
        naming = int((settings or {})["min_linked_id_length"])
        self._held = initial_ids(view, naming)
        for name, ids in _read_ids(view, records, naming).items():
            self._held.setdefault(name, set()).update(ids)
        self._fields = {t.id_field for t in view.types if self._held.get(t.name)}
        short_string = (settings or {}).get("replay_short_id_min_string")
        self._short_string = int(short_string or 0)
        self._short = _short_ids(view, naming) if short_string is not None else {}
        self._memo: dict[str, tuple[str, ...]] = {}

    def of(self, tool: Tool) -> tuple[str, ...]:
        """The types ``tool`` reads; none for a tool that writes."""
        if tool.changes_state and tool.name not in self._read_only:
            return ()
        if tool.name not in self._memo:
            # a short id beside one of its entity's strings names it in a read-only POST's answers (a
            # search or a batch of reads), which no GET line's staleness check (cascades.stale_replays) covers
            self._memo[tool.name] = _reads_types(tool, self._view, self._records, self._held, self._fields,
                                                 self._short if tool.changes_state else None, self._short_string)
        return self._memo[tool.name]


def _first_write_start(view: ViewResult | None, records: dict[int, Record]) -> datetime | None:
    if view is None or view.window.first_write_ordinal is None:
        return None
    return records[view.window.first_write_ordinal].started_at


def _segments(template: str) -> list[str]:
    return [s for s in split_path(template) if s]


def _at_or_below(template: str, collection: str) -> bool:
    """The tool's path is the collection's or lies below it (a path above it, such as an API
    root, reads the type only when its answers name the type's entities)."""
    mine, theirs = _segments(template), _segments(collection)
    return len(mine) >= len(theirs) and all(
        x == y or x.startswith("{") or y.startswith("{") for x, y in zip(mine, theirs))


def _reads_types(tool: Tool, view: ViewResult, records: dict[int, Record], held: dict[str, set[str]],
                 fields: set[str], short: dict[str, dict[str, dict[str, Any]]] | None = None,
                 short_string: int = 0) -> tuple[str, ...]:
    found = []
    shown = _Shown(tool, records, fields)
    for entity_type in view.types:
        if _at_or_below(tool.template, entity_type.collection_template) or (
                entity_type.shallow_items and _at_or_below(tool.template, entity_type.item_template or "")) or shown.names(
                entity_type.id_field, held.get(entity_type.name, set())) or shown.shows_whole(
                entity_type.id_field, (short or {}).get(entity_type.name, {}), short_string):
            found.append(entity_type.name)
    return tuple(found)


def _short_ids(view: ViewResult, naming: int) -> dict[str, dict[str, dict[str, Any]]]:
    """Per type, its initial entities whose id is too short to name them alone, by id as text."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for collection in view.state.collections:
        for entity in collection.entities:
            if len(str(entity.id)) < naming:
                found.setdefault(collection.type, {}).setdefault(str(entity.id), entity.value)
    return found


def _read_ids(view: ViewResult, records: dict[int, Record], naming: int) -> dict[str, set[str]]:
    """Per type, the ids its item reads showed anywhere in the capture (entities its writes made
    as well as initial ones): a read whose answers name one shows the type, whether or not the
    initial state held the entity (a node's links read listing links made during the capture shows
    the links a served create or delete, or data/add, changes)."""
    ids: dict[str, set[str]] = {}
    types = {t.name: t for t in view.types}
    for item_view in view.views:
        entity_type = types.get(item_view.type or "")
        if item_view.kind != "item" or entity_type is None:
            continue
        for ordinal in item_view.record_ordinals:
            record = records.get(ordinal)
            if ordinal in item_view.absence_records or record is None or not record.succeeded \
                    or not record.response.is_json:
                continue
            shown = locate(record.response.json_value, item_view.locator or Locator(kind="root"))
            value = shown.get(entity_type.id_field) if isinstance(shown, dict) else None
            if isinstance(value, (str, int)) and not isinstance(value, bool) and len(str(value)) >= naming:
                ids.setdefault(entity_type.name, set()).add(str(value))
    return ids


def initial_ids(view: ViewResult, naming: int) -> dict[str, set[str]]:
    """Per type, the ids (as text) of its initial entities, those ``naming`` characters long or longer."""
    ids: dict[str, set[str]] = {}
    for collection in view.state.collections:
        ids.setdefault(collection.type, set()).update(
            str(e.id) for e in collection.entities if len(str(e.id)) >= naming)
    return ids


class _Shown:
    """What a tool's recorded calls show that could name an entity: each id field's values (as text)
    wherever an answer's objects hold the field, and the calls' query values (percent-decoded).
    Answers are walked in order, each once for every type's id field, and only until one names
    an id asked for (the first answers usually do)."""

    def __init__(self, tool: Tool, records: dict[int, Record], fields: set[str]) -> None:
        self._answers = [records[o].response.json_value for o in tool.record_ordinals if records[o].response.is_json]
        self._queries = {unquote_plus(value) for o in tool.record_ordinals for _, value in records[o].query}
        self._fields = fields
        self._values: dict[str, set[str]] = {field: set() for field in fields}
        self._walked = 0

    def names(self, field: str, ids: set[str]) -> bool:
        """One of the calls names one of ``ids``: an answer's object holds it under ``field``, or a
        query value is one."""
        if not ids:
            return False
        if not ids.isdisjoint(self._queries) or not ids.isdisjoint(self._values[field]):
            return True
        while self._walked < len(self._answers):
            _add_field_values(self._answers[self._walked], self._fields, self._values)
            self._walked += 1
            if not ids.isdisjoint(self._values[field]):
                return True
        return False


    def shows_whole(self, field: str, entities: dict[str, dict[str, Any]], min_string: int) -> bool:
        """An answer's object holds one of ``entities``' short ids under ``field`` and, beside it, one of
        that entity's strings at least ``min_string`` long, as the entity holds it under the same
        member (a search answer listing ``{"id": 1, "title": "Buy milk"}``): it shows that entity. A
        clock is no such string: entities seeded at one instant share it."""
        if not entities or min_string <= 0:
            return False
        stack = list(self._answers)
        while stack:
            current = stack.pop()
            if isinstance(current, dict):
                entity = entities.get(str(current[field])) if field in current and not isinstance(
                    current[field], (dict, list, bool)) else None
                if entity is not None and any(
                        member != field and isinstance(value, str) and len(value) >= min_string
                        and entity.get(member) == value and learn_clock_format(value) is None
                        for member, value in current.items()):
                    return True
                stack.extend(current.values())
            elif isinstance(current, list):
                stack.extend(current)
        return False


def _add_field_values(answer: Any, fields: set[str], values: dict[str, set[str]]) -> None:
    stack = [answer]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            for field in fields:
                if field in current:
                    values[field].add(str(current[field]))
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)


def _neutral(calls: tuple[RecordedCall, ...]) -> dict[str, tuple[int, int]]:
    """Parameters whose presence or value two recordings (same path and body) show change nothing.

    Each parameter is proven by the first pair of calls (in recorded order: the first call,
    then the second) whose queries differ in it alone and whose answers are the same. An answer
    that lists nothing proves nothing: two filters that both select nothing answer it alike.
    Replay takes a proof only for what its pair holds (serving/reads/replay.NeutralProof)."""
    groups: dict[tuple[str, bytes], list[RecordedCall]] = {}
    for call in calls:
        body = dumps(call.request_body) if call.request_is_json else (call.request_text or "").encode()
        groups.setdefault((call.path, body), []).append(call)
    found: dict[str, tuple[int, int]] = {}
    for group in groups.values():
        if len(group) > 1:
            for name, pair in _first_pairs(group, found):
                found[name] = pair
    return found


_Query = tuple[tuple[str, tuple[str, ...]], ...]
"""A decoded query as a multiset: each parameter name with its values, sorted."""


def _query_key(call: RecordedCall) -> _Query:
    values: dict[str, list[str]] = {}
    for name, value in call.query:
        values.setdefault(unquote_plus(name), []).append(unquote_plus(value))
    return tuple(sorted((name, tuple(sorted(held))) for name, held in values.items()))


def _first_pairs(group: list[RecordedCall], found: dict[str, tuple[int, int]]) -> list[tuple[str, tuple[int, int]]]:
    """For each parameter not in ``found``, the first pair of ``group`` (by the first call, then
    the second) proving it neutral, in the order a walk over every pair would find them.

    Calls are classed by their query; two distinct queries differ in parameter ``n`` alone
    exactly when they agree on every other parameter, i.e. share the bucket (``n``, the query
    less ``n``), so each call looks only at the queries one parameter away from its own. A
    tool read 1,000 times used to compare half a million pairs of queries."""
    keys = [_query_key(call) for call in group]
    classes: dict[_Query, list[int]] = {}
    for index, key in enumerate(keys):
        classes.setdefault(key, []).append(index)
    if len(classes) < 2:
        return []
    names = sorted({name for key in classes for name, _ in key})
    class_of = {key: number for number, key in enumerate(classes)}
    answers = _Answers(group)
    # per bucket, its calls by the form of their answer: a pair proves a parameter only when its
    # answers are the same, so each call looks only at the later calls answered alike
    buckets: dict[tuple[str, _Query], dict[Any, list[int]]] = {}
    for key, members in classes.items():
        for name in names:
            alike = buckets.setdefault((name, tuple(item for item in key if item[0] != name)), {})
            for index in members:
                alike.setdefault(answers.form(index), []).append(index)
    runs = {bucket: {form: _Runs(sorted(members), keys, class_of) for form, members in alike.items()}
            for bucket, alike in buckets.items()}
    proven: list[tuple[str, tuple[int, int]]] = []
    taken = set(found)
    for first in range(len(group)):
        mine = keys[first]
        form = answers.form(first)
        hits: list[tuple[int, str]] = []
        for name in names:
            if name in taken:
                continue
            alike = runs[(name, tuple(item for item in mine if item[0] != name))].get(form)
            best = alike.first_same(first, class_of[mine], answers) if alike is not None else None
            if best is not None:
                hits.append((best, name))
        for second, name in sorted(hits):
            if name not in taken:
                taken.add(name)
                proven.append((name, (group[first].ordinal, group[second].ordinal)))
    return proven


class _Runs:
    """Calls in recorded order (indices of a group) with, at each position, the next position
    holding another query: skipping a run of one query's calls is one step."""

    def __init__(self, members: list[int], keys: list[_Query], class_of: dict[_Query, int]) -> None:
        self.members = members
        self.classes = [class_of[keys[index]] for index in members]
        self.next_other = [len(members)] * len(members)
        for position in range(len(members) - 2, -1, -1):
            following = position + 1
            self.next_other[position] = following if self.classes[following] != self.classes[position] \
                else self.next_other[following]

    def first_same(self, first: int, mine: int, answers: "_Answers") -> int | None:
        """The first call after ``first``, of a query other than ``mine``, answered the same."""
        position = bisect_right(self.members, first)
        while position < len(self.members):
            if self.classes[position] == mine:
                position = self.next_other[position]
                continue
            second = self.members[position]
            if answers.same(first, second):
                return second
            position += 1
        return None


class _Answers:
    """``_same_answer`` of two calls of a group. Each answer is hashed once in a form two
    answers ``same_json`` calls equal always share (``_loose``), so most unequal pairs are told
    apart without walking their bodies; a pair whose forms agree is compared exactly. An answer
    that lists nothing (``lists_nothing``) is the same as no other: its form is its own."""

    def __init__(self, group: list[RecordedCall]) -> None:
        self.group = group
        self.hashes: list[tuple[int, bool, int] | None] = [None] * len(group)

    def form(self, index: int) -> tuple[int, bool, int]:
        """What two calls answered the same always share: status, JSON or not, the body's hash."""
        found = self.hashes[index]
        if found is None:
            response = self.group[index].response
            if lists_nothing(response):
                found = (response.status, response.is_json, hash(("lists nothing", index)))
            else:
                found = (response.status, response.is_json,
                         hash(_loose(response.body)) if response.is_json else hash(response.text))
            self.hashes[index] = found
        return found

    def same(self, a: int, b: int) -> bool:
        if self.form(a) != self.form(b) or lists_nothing(self.group[a].response):
            return False
        return _same_answer(self.group[a], self.group[b])


def lists_nothing(response: Any) -> bool:
    """A JSON answer that is empty, or whose every array is, or that holds no value at all (every
    member null, as an envelope around an absence: ``{"data": null}``): what any query selecting
    nothing answers, so two such answers agreeing shows nothing of the queries (two ids that name
    nothing answer alike, and say nothing of an id that names an entity)."""
    if not response.is_json:
        return False
    arrays, stack, valued = [], [response.body], False
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            stack.extend(current.values())
        elif isinstance(current, list):
            arrays.append(current)
            stack.extend(current)
        elif current is not None:
            valued = True
    return response.body in ({}, None) or (bool(arrays) and not any(arrays)) or not valued


def _loose(value: Any) -> Any:
    """A form of a JSON value that two values ``same_json`` calls equal always share: members in
    name order, numbers as floats (equal numbers are equal floats), booleans and strings as they are."""
    if isinstance(value, dict):
        return ("o", tuple(sorted((name, _loose(member)) for name, member in value.items())))
    if isinstance(value, list):
        return ("a", tuple(_loose(item) for item in value))
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    try:
        return ("n", float(value))
    except OverflowError:  # an integer past a float's range: equal ones are equal infinities
        return ("n", float("inf") if value > 0 else float("-inf"))
    except (TypeError, ValueError):
        return ("?",)  # not a number this codec reads: left to same_json


def _same_answer(a: RecordedCall, b: RecordedCall) -> bool:
    one, two = a.response, b.response
    if one.status != two.status or one.is_json != two.is_json:
        return False
    return same_json(one.body, two.body) if one.is_json else one.text == two.text
