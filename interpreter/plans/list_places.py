"""Whether an update keeps the entity it changed in its place in its collection's lists
(``WritePlan.list_place``, table ``update-list-places``).

Serving keeps an updated entity where its collection held it. That holds for an application
listing by a sort key the update leaves alone, or keeping rows in place, and not for one listing
an unsorted table in storage order, where PostgreSQL puts an updated row last (Unleash's tag
types: ``squad`` listed before ``simple`` once ``simple`` was updated). Only two recorded whole
lists (no query) of a collection, with updates of it between them, can show which, and only when
the two readings part: the members both lists show in the first list's order (kept), against that
order with each updated entity moved last in turn (moved). An update of the last entity reads
alike either way. A list between whose reads a write no update, create or delete plan of the type
models touched the collection shows nothing. The table weighs the lists that part; an unproven
place makes serving refuse the collection's lists once the plan changed an entity that was not last.
"""

from __future__ import annotations

import bisect
from datetime import datetime

from capenv.interpreter.bundle.insert import sort_key
from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.list_places import UpdateListPlaceContext
from capenv.interpreter.rules_engine import evaluate

from .context import PlanContext
from .item_keys import call_key
from .timeline import ListRead

TABLE = "update-list-places"
JUDGED_EFFECTS = ("update", "action")
KNOWN_EFFECTS = ("create", "delete", "update", "action")


def with_list_places(plans: list[WritePlan], ctx: PlanContext) -> list[WritePlan]:
    """Each built update or action plan with whether the capture shows its entity keeping its place."""
    if TABLE not in ctx.ruleset.tables:
        return plans
    evidence = _evidence(plans, ctx)
    judged = []
    for plan in plans:
        if plan.build_reason is not None or plan.effect not in JUDGED_EFFECTS or plan.type is None:
            judged.append(plan)
            continue
        shown = evidence.get(plan.tool, _empty())
        decision = evaluate(ctx.ruleset, TABLE, UpdateListPlaceContext(**{k: sorted(v) for k, v in shown.items()}),
                            subject=f"{plan.tool} list place")
        place = str(decision.yields.get("place", "unproven"))
        variants = tuple(v.model_copy(update={"list_place": place}) for v in plan.variants)  # one collection's lists
        judged.append(plan.model_copy(update={"list_place": place, "variants": variants,
                                              "traces": plan.traces + tuple(decision.events)}))
    return judged


def _empty() -> dict[str, set[int]]:
    return {"kept": set(), "last_kept": set(), "first_kept": set(), "moved": set(), "moved_last": set(),
            "moved_sorted": set(), "moved_first": set(), "moved_first_sorted": set()}


def _member_sorting(before: ListRead, after: ListRead, shared: set[str]) -> str | None:
    """A member every shared entity holds as a scalar whose values strictly order both lists' shared
    members as they are listed (either direction), else None."""
    return min(_members_sorting(before, after, shared), default=None)


def _members_sorting(before: ListRead, after: ListRead, shared: set[str]) -> set[str]:
    """Every member every shared entity holds as a scalar whose values strictly order both lists'
    shared members as they are listed (either direction)."""
    lists = [[before.members[k] for k in before.members if k in shared],
             [after.members[k] for k in after.members if k in shared]]
    if not all(isinstance(row, dict) for rows in lists for row in rows):
        return set()
    names = set()
    for name in set.intersection(*(set(row) for rows in lists for row in rows)):
        values = [[row[name] for row in rows] for rows in lists]
        if any(v is None or isinstance(v, (dict, list)) for vs in values for v in vs):
            continue
        keys = [[sort_key(v) for v in vs] for vs in values]
        if all(_strictly_ascending(ks) for ks in keys) or all(_strictly_ascending(ks[::-1]) for ks in keys):
            names.add(name)
    return names


def _stamped_clocks(tools: list[str], plans: dict[str, WritePlan]) -> set[str]:
    """The fields every one of ``tools`` sets to the write's clock."""
    stamped = [{f.field for f in plans[tool].fields if f.op == "clock"} for tool in tools if tool in plans]
    return set.intersection(*stamped) if stamped and len(stamped) == len(tools) else set()


def _strictly_ascending(keys: list[tuple]) -> bool:
    return all(a < b for a, b in zip(keys, keys[1:]))


def _evidence(plans: list[WritePlan], ctx: PlanContext) -> dict[str, dict[str, set[int]]]:
    """Per update tool, the list reads showing an entity it changed where it stood (one that was
    not last: ``kept``; the last: ``last_kept``), and those showing one elsewhere (``moved``)."""
    found: dict[str, dict[str, set[int]]] = {}
    timeline = ctx.timeline
    tools = {t.name: t for t in ctx.manifest.tools}
    effects = {plan.tool: plan for plan in plans if plan.type is not None and plan.effect in KNOWN_EFFECTS}
    plans_by_tool = {plan.tool: plan for plan in plans}
    calls = CallsBetween(ctx)
    for type_name, entity_type in timeline.types.items():
        updates = [plan for plan in effects.values() if plan.type == type_name and plan.effect in JUDGED_EFFECTS]
        if not updates:
            continue
        whole = [read for read in timeline.list_reads if read.type == type_name and not read.record.query]
        for before, after in zip(whole, whole[1:]):
            if before.collection != after.collection:
                continue
            changed = _updates_between(before, after, updates, tools, ctx, calls)
            if changed is None or _unknown_write_between(before, after, set(effects), ctx, calls):
                continue
            order, shown = list(before.members), list(after.members)
            shared = set(order) & set(shown)
            kept_order = [k for k in order if k in shared]
            moved_order = list(order)
            for _, key in changed:
                if key in moved_order:
                    moved_order.remove(key)
                    moved_order.append(key)
            moved_order = [k for k in moved_order if k in shared]
            first_order = list(order)
            for _, key in changed:
                if key in first_order:
                    first_order.remove(key)
                    first_order.insert(0, key)
            first_order = [k for k in first_order if k in shared]
            listed = [k for k in shown if k in shared]
            in_place = listed == kept_order
            for tool, key in changed:
                if key not in shared or len(shared) < 2:
                    continue
                if kept_order == first_order:  # the list cannot tell keeping from moving first
                    found.setdefault(tool, _empty())["first_kept"].add(after.record.ordinal)
                if not in_place:
                    found.setdefault(tool, _empty())["moved"].add(after.record.ordinal)
                    if listed == moved_order:
                        # a member sorting both lists alike (a name the update changed, a clock it
                        # stamped) tells the same story: the list shows no storage order then
                        sorter = _member_sorting(before, after, shared)
                        kind = "moved_sorted" if sorter is not None else "moved_last"
                        found.setdefault(tool, _empty())[kind].add(after.record.ordinal)
                    elif listed == first_order:
                        # newest written first: only a clock every update between stamps may sort
                        # both lists alike (a name the update changed would sort other calls otherwise)
                        sorters = _members_sorting(before, after, shared)
                        stamped = _stamped_clocks(sorted({t for t, _ in changed}), plans_by_tool)
                        kind = "moved_first" if sorters <= stamped else "moved_first_sorted"
                        found.setdefault(tool, _empty())[kind].add(after.record.ordinal)
                elif kept_order[-1] == key:
                    found.setdefault(tool, _empty())["last_kept"].add(after.record.ordinal)
                elif kept_order != moved_order:  # else the list cannot tell keeping from moving last
                    found.setdefault(tool, _empty())["kept"].add(after.record.ordinal)
    return found


def _updates_between(before: ListRead, after: ListRead, updates: list[WritePlan], tools: dict,
                     ctx: PlanContext, calls: CallsBetween) -> list[tuple[str, str]] | None:
    """The (tool, key) of every successful update call of the collection between the two reads."""
    changed: list[tuple[int, str, str]] = []
    for plan in updates:
        tool = tools.get(plan.tool)
        if tool is None:
            continue
        depth = plan.address.segments_after_item() if plan.address is not None else 0
        for ordinal in calls.between(plan.tool, tool.record_ordinals, before, after):
            record = ctx.records[ordinal]
            if not record.succeeded:
                continue
            key = call_key(ctx.timeline, record, depth)
            entity_type = ctx.timeline.types[plan.type or ""]
            if ctx.timeline.collection_at(record.path, entity_type, key) == after.collection:
                changed.append((ordinal, plan.tool, key))
    return [(tool, key) for _, tool, key in sorted(changed)] or None


def _unknown_write_between(before: ListRead, after: ListRead, known: set[str], ctx: PlanContext,
                           calls: CallsBetween) -> bool:
    """A write between the reads, under the collection's path, of a tool no create, update,
    action or delete plan models (it may have reordered the list); a modelled write of another
    type (a nested collection's create) leaves this one's order alone."""
    prefix = split_path(after.collection)
    for ordinal in calls.between("", ctx.write_ordinals, before, after):
        record = ctx.records[ordinal]
        if split_path(record.path)[:len(prefix)] != prefix:
            continue
        if ctx.tool_of.get(ordinal) not in known:
            return True
    return False


def _between(record: Record, before: ListRead, after: ListRead) -> bool:
    return record.started_at >= before.record.finished_at and record.finished_at <= after.record.started_at


class CallsBetween:
    """The calls of an ordinal list made wholly between two list reads. Every pair of reads asked
    about used to walk every write of the capture (quadratic in the records); when ordinals follow
    start times (``Timeline.start_ordered``) the calls starting between the reads are one slice,
    found by bisection, and a call starting after the second read began cannot end before it."""

    def __init__(self, ctx: PlanContext) -> None:
        self.records, self.ordered = ctx.records, ctx.timeline.start_ordered
        self.starts: dict[str, tuple[list[int], list[datetime]]] = {}

    def between(self, name: str, ordinals: list[int], before: ListRead, after: ListRead) -> list[int]:
        """``ordinals`` (kept under ``name``) of calls ending before ``after`` began and starting
        after ``before`` ended."""
        candidates = ordinals
        if self.ordered:
            if name not in self.starts:
                ordered = sorted(ordinals)
                self.starts[name] = ordered, [self.records[o].started_at for o in ordered]
            ordered, starts = self.starts[name]
            candidates = ordered[bisect.bisect_left(starts, before.record.finished_at):
                                 bisect.bisect_right(starts, after.record.started_at)]
        return [o for o in candidates if _between(self.records[o], before, after)]
