"""Which exercised writes an unmodelled write may explain (seeds: "The gate", "Attribution").

A mismatch contradicts each exercised write that no unmodelled write came after its latest call on
any of the read's entities or collections where its effect survives (where it is still pending).
For a failed list read that unmodelled write must also follow the last check and the pending
writes of each member that differs, so an older change elsewhere does not excuse a newer write
the list shows undone. A list whose only difference is members the copy never held, each named by
id in the answer of the unmodelled write that last reached the collection (a batch create's
``[{"id": 4}, {"id": 5}]``), shows what that write made, and contradicts none of the exercised
writes: their effects show as modelled. Nor does a list whose only difference is members an
unmodelled write left unknown (below their item path, since a read last showed them) on which no
exercised write is pending (``unknown_alone``): Barbican's container ACL writes bump that
container's ``updated``, which a list after another container's delete shows; that write explains
the difference, and the delete's own effect shows as modelled.
"""

from __future__ import annotations

from typing import Any, Iterable

from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record
from capenv.serving.reads.render import with_observed

from .findings import Pending, Tracking


def followed(writes: Iterable[Pending], targets: Iterable[tuple], track: Tracking) -> dict[str, list[int]]:
    """Tool -> the latest unmodelled writes that came after its latest call on a target where it is
    pending (one per such target)."""
    tools = {w.tool for w in writes}
    found: dict[str, list[int]] = {}
    for target in targets:
        reached = track.latest_unmodelled.get(target, 0)
        if not reached:
            continue
        latest: dict[str, int] = {}
        for write in track.pending.get(target, []):
            if write.tool in tools:
                latest[write.tool] = max(latest.get(write.tool, 0), write.ordinal)
        for tool, ordinal in latest.items():
            if reached > ordinal:
                found.setdefault(tool, []).append(reached)
    return found


def excused_in_failed_list(record: Record, read_view: Any, entity_type: Any, answer: Any, collection: str,
                           exercised: list[Pending], track: Tracking, held_keys: Iterable[str],
                           records: dict[int, Record] | None = None) -> set[str]:
    """The exercised write tools a failed list read does not contradict: an unmodelled write came
    after each one's latest call where it survives, and after the last check and pending writes of
    every member that differs; or every member that differs is one the unmodelled write that last
    reached the collection made (``_made_unmodelled``)."""
    recorded_keys, differing = _members(record, read_view, entity_type, answer)
    members = set(recorded_keys) | set(held_keys)
    if differing is not None and records is not None and _made_unmodelled(
            differing, set(recorded_keys), set(held_keys), entity_type, collection, track, records):
        return {w.tool for w in exercised}
    if differing is None:
        differing = members  # the difference names no member: every member's history counts
    targets = [("collection", collection)] + [("entity", entity_type.name, k) for k in sorted(members)]
    floor = max((_last_touch(("entity", entity_type.name, k), track) for k in differing), default=0)
    return {tool for tool, reached in followed(exercised, targets, track).items() if max(reached) > floor}


def unknown_alone(record: Record, read_view: Any, entity_type: Any, answer: Any, exercised: list[Pending],
                  track: Tracking) -> list[str]:
    """The keys of the members a failed list read shows otherwise than served, when every one is an
    entity a write no plan models left unknown (``Tracking.unknown``) and no exercised write is
    pending on it; else []. That write explains the difference, which shows nothing of the exercised
    writes (their own members list as modelled)."""
    _, differing = _members(record, read_view, entity_type, answer)
    if not differing:
        return []
    mine = {w.tool for w in exercised}
    for key in differing:
        target = ("entity", entity_type.name, key)
        if (entity_type.name, key) not in track.unknown:
            return []
        if any(w.tool in mine for w in track.pending.get(target, [])):
            return []
    return sorted(differing)


def _made_unmodelled(differing: set[str], recorded: set[str], held: set[str], entity_type: Any, collection: str,
                     track: Tracking, records: dict[int, Record]) -> bool:
    """Every differing member is listed by the read, neither held by the copy nor ever checked or
    written by a modelled write, and named by id (at the type's identity field) in the successful
    answer of the latest unmodelled write that reached the collection: that write made them (a
    batch create the plans do not model), and the read shows nothing of the exercised writes."""
    latest = track.latest_unmodelled.get(("collection", collection), 0)
    call = records.get(latest)
    if not differing or call is None or not call.succeeded or not call.response.is_json:
        return False
    if any(k not in recorded or k in held or _last_touch(("entity", entity_type.name, k), track) for k in differing):
        return False
    named: set[str] = set()
    _ids_at(call.response.json_value, entity_type.id_field, named)
    return differing <= named


def _ids_at(value: Any, id_field: str, found: set[str]) -> None:
    """Every scalar held at ``id_field`` anywhere in ``value``, as text."""
    if isinstance(value, dict):
        held = value.get(id_field)
        if held is not None and not isinstance(held, (dict, list)):
            found.add(str(held))
        for inner in value.values():
            _ids_at(inner, id_field, found)
    elif isinstance(value, list):
        for inner in value:
            _ids_at(inner, id_field, found)


def followed_in_list(record: Record, read_view: Any, entity_type: Any, collection: str, exercised: list[Pending],
                     track: Tracking, held_keys: Iterable[str]) -> bool:
    """A list read with an exercised write an unmodelled write came after, on its collection or a
    member it lists or the copy holds there: the list is not checked again, since that write may
    explain the rest."""
    recorded = record.response.json_value if record.response.is_json else None
    listed = _by_key(locate(recorded, read_view.locator), entity_type) if recorded is not None else None
    members = set(listed or {}) | set(held_keys)
    targets = [("collection", collection)] + [("entity", entity_type.name, k) for k in sorted(members)]
    return bool(followed(exercised, targets, track))


def _last_touch(target: tuple, track: Tracking) -> int:
    """The member's last check and latest pending write."""
    pending = max((w.ordinal for w in track.pending.get(target, [])), default=0)
    return max(track.last_check.get(target, 0), pending)


def _members(record: Record, read_view: Any, entity_type: Any, answer: Any) -> tuple[list[str], set[str] | None]:
    """The recorded members' keys, and the keys of the members the served answer shows otherwise
    (None when the difference names no member)."""
    recorded = record.response.json_value if record.response.is_json else None
    theirs = _by_key(locate(recorded, read_view.locator) if recorded is not None else None, entity_type)
    if answer is None or answer.body is None or recorded is None or theirs is None:
        return list(theirs or {}), None
    rendered = with_observed(answer.body, recorded, read_view.locator, read_view.volatile_fields, is_list=True)
    mine = _by_key(locate(rendered, read_view.locator), entity_type)
    if mine is None:
        return list(theirs), None
    differing = {k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k)}
    return list(theirs), differing or None


def _by_key(members: Any, entity_type: Any) -> dict[str, Any] | None:
    if not isinstance(members, list):
        return None
    keyed: dict[str, Any] = {}
    for member in members:
        if not isinstance(member, dict) or entity_type.id_field not in member:
            return None
        keyed[str(member[entity_type.id_field])] = member
    return keyed
