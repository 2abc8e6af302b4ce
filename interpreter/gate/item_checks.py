"""Attribution of a failed item read (seeds: "The gate", "Attribution").

A failed item read contradicts the writes that changed the whole entity (its create or delete).
When one of them is exercised, the updates exercised with it are checked on the fields their
effect holds instead, since the read's difference may be the create's alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.values import locate
from capenv.interpreter.evidence.records import Record

from .findings import WHOLE

_MISSING = object()


@dataclass
class ItemAttribution:
    """What one failed item read found of the writes it exercises."""

    contradicted: list[str] = field(default_factory=list)
    confirmed: list[str] = field(default_factory=list)


@dataclass
class _Update:
    tool: str
    effect: set[str]
    latest: int


def changes_whole_entity(write: Any) -> bool:
    return write.effect in ("create", "delete") or WHOLE in write.changed


def attribute_failed_item(record: Record, read_view: Any, mine: dict[str, Any] | None, exercised: list[Any],
                          plans: dict[str, WritePlan], records: dict[int, Record]) -> ItemAttribution:
    """Which exercised writes a failed item read contradicts and which it still confirms."""
    tools = _unique([w.tool for w in exercised])
    shown = locate(record.response.json_value, read_view.locator) if record.response.is_json else None
    whole = _unique([w.tool for w in exercised if changes_whole_entity(w)])
    if not whole or mine is None or not record.succeeded or not isinstance(shown, dict):
        return ItemAttribution(contradicted=tools)  # only updates: any of them may have caused it
    visible = _visibility(read_view)
    updates = _updates([w for w in exercised if not changes_whole_entity(w) and w.tool not in whole])
    responses = {u.tool: _response_entity(plans.get(u.tool), records.get(u.latest)) for u in updates}
    differing = {f for f in set(mine) | set(shown) if visible(f) and mine.get(f, _MISSING) != shown.get(f, _MISSING)}
    # a field the copy lacks that the read and an update's answer both show alike is that update's change
    owners = {f: {u.tool for u in updates if _answered(responses[u.tool], f, shown[f])}
              for f in differing if f not in mine and shown.get(f) is not None}
    owners = {f: tools_ for f, tools_ in owners.items() if tools_}
    written = set().union(*(u.effect for u in updates)) if updates else set()
    if any(f in mine and f not in written for f in differing):
        return ItemAttribution(contradicted=tools)  # any of the writes may have caused it
    result = ItemAttribution()
    if not differing or not differing <= set(owners):
        result.contradicted.extend(whole)
    for update in updates:
        verdict = _check_update(update, updates, owners, responses[update.tool], mine, shown, visible)
        if verdict is True:
            result.confirmed.append(update.tool)
        elif verdict is False:
            result.contradicted.append(update.tool)
    return result


def _check_update(update: _Update, updates: list[_Update], owners: dict[str, set[str]], response: Any,
                  mine: dict[str, Any], shown: dict[str, Any], visible: Any) -> bool | None:
    """True: confirmed, False: contradicted, None: the read shows nothing of it."""
    if any(update.tool in tools and f not in update.effect for f, tools in owners.items()):
        return None  # a change of its own that its effect does not hold: the read cannot judge it
    checked = [f for f in update.effect if visible(f) and f in shown]
    if not checked:
        return None
    if any(mine.get(f, _MISSING) != shown[f] for f in checked):
        return False
    # serving answers an update from the copy: its answer must show the entity as the read does
    others = set().union(*(u.effect for u in updates if u.tool != update.tool))
    if isinstance(response, dict):
        for name, value in response.items():
            if name in shown and visible(name) and name not in update.effect and name not in others \
                    and shown[name] != value:
                return False
    return True


def _visibility(read_view: Any):
    volatile = set(read_view.volatile_fields)
    shown_fields = set(read_view.shown_fields)
    return lambda name: name not in volatile and (not shown_fields or name in shown_fields)


def _updates(writes: list[Any]) -> list[_Update]:
    by_tool: dict[str, _Update] = {}
    for write in writes:
        update = by_tool.setdefault(write.tool, _Update(write.tool, set(), write.ordinal))
        update.effect |= set(write.changed)
        update.latest = max(update.latest, write.ordinal)
    return list(by_tool.values())


def _response_entity(plan: WritePlan | None, record: Record | None) -> dict[str, Any] | None:
    if plan is None or record is None or plan.response is None or not plan.response.carries_entity:
        return None
    if not record.response.is_json:
        return None
    located = locate(record.response.json_value, plan.response.locator) if plan.response.locator \
        else record.response.json_value
    return located if isinstance(located, dict) else None


def _answered(response: dict[str, Any] | None, name: str, value: Any) -> bool:
    return isinstance(response, dict) and name in response and response[name] == value


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))
