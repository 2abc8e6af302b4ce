"""Request headers that select the answer: a read tool whose recordings sent a header with
several values may answer another shape per value. JupyterHub's lists answer ``{"items",
"_pagination"}`` to ``Accept: application/jupyterhub-pagination+json`` and a bare array
otherwise; Node-RED's ``GET /flows`` answers ``{"flows", "rev"}`` to ``Node-RED-API-Version: v2``,
the bare array without it and 400 to a version it does not know. Which headers select is the
``view-variant-headers`` table's (Accept on its values alone; another header where recordings
show it changing the answer's shape, nothing else changing; credentials where successful answers
show each caller an object of their own, as a whoami answers ``{}`` to no token and
``{"username"}`` to one, whatever writes ran between: those are ``Variants.credentials``, whose
values a refusal never says).

A tool's usual variant is the one most of its recordings sent (ties: the earliest); a call
sending none of the headers, as every MCP call does, or ``Accept: */*``, is taken to send it. The
view, the read gate and the write gate read only the recordings of the usual variant
(``without_variants``), so one view reads one shape; replay answers the others only for a call
sending their values (``serving/reads/replay.py``), and serving answers from the state only a
call of the usual one.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field

from capenv.interpreter.bundle.variants import ACCEPT, normalised_value, variant_key
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import Manifest, Tool
from capenv.interpreter.predicates.variant_headers import VariantHeaderContext
from capenv.interpreter.rules_engine import RuleSet, TraceEvent, evaluate

TABLE = "view-variant-headers"


@dataclass(frozen=True)
class Variants:
    """Per read tool whose recordings vary in a selecting header: the headers (``headers``), the
    key each recording sent (``keys``, by ordinal) and the usual key (``usual``); ``credentials``:
    per tool, those of its headers that carry credentials."""

    headers: dict[str, tuple[str, ...]] = field(default_factory=dict)
    usual: dict[str, str] = field(default_factory=dict)
    keys: dict[int, str] = field(default_factory=dict)
    traces: tuple[TraceEvent, ...] = ()
    credentials: dict[str, tuple[str, ...]] = field(default_factory=dict)


def request_variants(manifest: Manifest, records: dict[int, Record], ruleset: RuleSet) -> Variants:
    """Which headers select each read tool's answer, and each recording's variant of them."""
    headers: dict[str, tuple[str, ...]] = {}
    usual: dict[str, str] = {}
    keys: dict[int, str] = {}
    credentials: dict[str, tuple[str, ...]] = {}
    traces: list[TraceEvent] = []
    writes = sorted(r.ordinal for r in records.values() if r.changes_state)
    for tool in manifest.tools:
        if tool.changes_state or len(tool.record_ordinals) < 2:
            continue
        mine = [records[o] for o in tool.record_ordinals]
        selecting, secret = [], []
        for name in _sent_names(mine):
            values = sorted({normalised_value(name, r.header(name, response=False)) for r in mine})
            context = VariantHeaderContext(name=name, values=values, pair_statuses=_shape_pairs(mine, name, writes),
                                           member_pairs=_member_pairs(mine, name))
            decision = evaluate(ruleset, TABLE, context, subject=f"{tool.name} {name}")
            if decision.yields.get("variant"):
                selecting.append(name)
                traces.extend(decision.events)
                if decision.yields.get("credentials"):
                    secret.append(name)
        if not selecting:
            continue
        names = tuple(sorted(selecting, key=lambda n: (n != ACCEPT, n)))
        tool_keys = {r.ordinal: variant_key(names, lambda n, r=r: r.header(n, response=False)) for r in mine}
        headers[tool.name] = names
        usual[tool.name] = Counter(tool_keys[o] for o in tool.record_ordinals).most_common(1)[0][0]
        keys.update(tool_keys)
        if secret:
            credentials[tool.name] = tuple(n for n in names if n in secret)
    return Variants(headers, usual, keys, tuple(traces), credentials)


def _sent_names(records: list[Record]) -> list[str]:
    """Accept, and every other request header some recording sent, lower case."""
    names = {ACCEPT}
    for record in records:
        names.update(key.lower() for key, _ in record.request_headers)
    return sorted(names)


def _shape_pairs(records: list[Record], name: str, writes: list[int]) -> list[list[int]]:
    """The statuses of each pair of successive recordings of one path, query and body, no write
    between them, that sent different values of ``name`` and answered in different shapes."""
    last: dict[tuple, Record] = {}
    pairs: list[list[int]] = []
    for record in sorted(records, key=lambda r: r.ordinal):
        call = (record.path, record.query, record.request.text)
        before = last.get(call)
        last[call] = record
        if before is None or _write_between(writes, before.ordinal, record.ordinal):
            continue
        if (normalised_value(name, before.header(name, response=False))
                != normalised_value(name, record.header(name, response=False))
                and _shape(before) != _shape(record)):
            pairs.append([before.status, record.status])
    return pairs


def _member_pairs(records: list[Record], name: str) -> int:
    """How many pairs of successive recordings of one path, query and body, writes between them or
    not, sent different values of ``name`` and were both answered 2xx with objects of different
    members; none when one value's recordings of one call were answered objects of different members
    (then writes changed them, not the caller)."""
    members: dict[tuple, set[tuple]] = {}
    for record in records:
        status, kind, shown = _shape(record)
        if status == 2 and kind == "dict":
            value = normalised_value(name, record.header(name, response=False))
            members.setdefault((record.path, record.query, record.request.text, value), set()).add(shown)
    if any(len(shapes) > 1 for shapes in members.values()):
        return 0
    last: dict[tuple, Record] = {}
    pairs = 0
    for record in sorted(records, key=lambda r: r.ordinal):
        call = (record.path, record.query, record.request.text)
        before = last.get(call)
        last[call] = record
        if before is None or (normalised_value(name, before.header(name, response=False))
                              == normalised_value(name, record.header(name, response=False))):
            continue
        shapes = (_shape(before), _shape(record))
        if all(status == 2 and kind == "dict" for status, kind, _ in shapes) and shapes[0][2] != shapes[1][2]:
            pairs += 1
    return pairs


def _write_between(writes: list[int], first: int, second: int) -> bool:
    index = bisect_right(writes, first)
    return index < len(writes) and writes[index] < second


def _shape(record: Record) -> tuple:
    """Status class, JSON kind and, for an object, its members: what another shape differs in."""
    body = record.response.json_value if record.response.is_json else None
    kind = type(body).__name__ if record.response.is_json else "text"
    members = tuple(sorted(body)) if isinstance(body, dict) else ()
    return record.status // 100, kind, members


def without_variants(manifest: Manifest, variants: Variants) -> Manifest:
    """The manifest whose read tools keep only the recordings of their usual variant."""
    if not variants.usual:
        return manifest
    tools: list[Tool] = []
    for tool in manifest.tools:
        if tool.name in variants.usual and not tool.changes_state:
            usual = variants.usual[tool.name]
            tool = tool.model_copy(update={"record_ordinals": tuple(
                o for o in tool.record_ordinals if variants.keys[o] == usual)})
        tools.append(tool)
    return manifest.model_copy(update={"tools": tuple(tools)})

