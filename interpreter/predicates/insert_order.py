"""Predicates on a collection's recorded order, for a create's insert rule (seeds: "List position").

Context ``insert-candidate``: the initial whole listings of the collection (in recorded order),
the created entity, the members held just before the create, and the first later whole
listing that shows the created entity (if any). Placement is computed by serving's own
``insert_index``, so what a rule claims here is what serving does.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.bundle.insert import insert_index, sort_key
from capenv.interpreter.bundle.models import InsertRule
from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("insert-candidate")
class InsertCandidateContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id_field: str
    initial_orders: list[list[dict]] = []
    """Member lists of the initial window's whole listings of the collection, in recorded order."""
    created: dict = {}
    clock_fields: list[str] = []
    """Fields of the created entity holding instants."""
    previous_members: list[dict] | None = None
    """The collection's members just before the create, in order (None: not known, so a later
    listing is judged with every member it shows)."""
    later_members: list[dict] | None = None
    """The first later whole listing showing the created entity (None: no such listing)."""
    later_orders: list[list[dict]] = []
    """Member lists of every whole listing of the collection after the create (no query), in
    recorded order: an order the application keeps holds in each of them."""


class OrderParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    by: str
    """``id`` (the identity field), ``clock`` (a clock field), ``first`` or ``last``."""
    descending: bool = False


def _fields(ctx: InsertCandidateContext, by: str) -> list[str]:
    return [ctx.id_field] if by == "id" else list(ctx.clock_fields) if by == "clock" else []


def _sorted(members: list[dict], field: str, descending: bool) -> bool:
    keys = [sort_key(m.get(field)) for m in members]
    pairs = list(zip(keys, keys[1:]))
    return all(a >= b for a, b in pairs) if descending else all(a <= b for a, b in pairs)


def _sorted_field(ctx: InsertCandidateContext, by: str, descending: bool) -> str | None:
    """The first field sorting every initial whole listing; of two that do (a creation and an
    update clock, alike until an entity is updated), the one every later whole listing keeps
    sorted: after an update only the order the application keeps still holds."""
    evidence = [order for order in ctx.initial_orders if len(order) >= 2]
    if not evidence:
        return None
    fields = [field for field in _fields(ctx, by) if all(_sorted(order, field, descending) for order in evidence)]
    later = [order for order in ctx.later_orders if len(order) >= 2]
    kept = next((field for field in fields if all(_sorted(order, field, descending) for order in later)), None)
    return kept or (fields[0] if fields else None)


def _rule(by: str, field: str | None, descending: bool) -> InsertRule:
    kind = by if by in ("first", "last") else "sorted"
    return InsertRule(rule_id=f"probe.{kind}", kind=kind, field=field, descending=descending)


def _later_held(ctx: InsertCandidateContext) -> list[dict]:
    """The later listing's members held before the create, and the create (those created after
    it are left out: the rule placed it before they came)."""
    key = str(ctx.created.get(ctx.id_field))
    later = ctx.later_members or []
    if ctx.previous_members is not None:
        held = {str(m.get(ctx.id_field)) for m in ctx.previous_members} | {key}
        later = [m for m in later if str(m.get(ctx.id_field)) in held]
    return later


def _placed_as(ctx: InsertCandidateContext, rule: InsertRule) -> tuple[bool, str]:
    """Whether the later listing shows the create where ``rule`` puts it among the members held
    before it."""
    key = str(ctx.created.get(ctx.id_field))
    later = _later_held(ctx)
    actual = next((i for i, m in enumerate(later) if str(m.get(ctx.id_field)) == key), None)
    if actual is None:
        return False, "the later listing does not show the created entity"
    others = [m for m in later if str(m.get(ctx.id_field)) != key]
    expected = insert_index(others, ctx.created, rule)
    if expected == actual:
        return True, f"placed at {actual} of {len(later)}"
    return False, f"it would go at {expected}, the later listing shows it at {actual}"


@predicate("initial_order_sorted_by", context="insert-candidate", params=OrderParams)
def initial_order_sorted_by(ctx: InsertCandidateContext, params: OrderParams) -> Outcome:
    """Every initial whole listing (of two or more members) is sorted by the field."""
    if not _fields(ctx, params.by):
        return Miss(f"the created entity holds no {params.by} field")
    if not any(len(order) >= 2 for order in ctx.initial_orders):
        return Miss("no initial whole listing of two or more members to show an order")
    field = _sorted_field(ctx, params.by, params.descending)
    if field is None:
        direction = "descending" if params.descending else "ascending"
        return Miss(f"an initial listing is not {direction} by {' or '.join(_fields(ctx, params.by))}")
    return Match({"field": field})


@predicate("later_orders_keep_sort", context="insert-candidate", params=OrderParams)
def later_orders_keep_sort(ctx: InsertCandidateContext, params: OrderParams) -> Outcome:
    """Every whole listing after the create (of two or more members) is sorted by the field the
    initial listings are sorted by: an order the application keeps holds after every later create
    too (Kinto's collections named notes, then generated hzgpKu-H listed before notes: newest first,
    not by id descending as the first create alone showed)."""
    field = _sorted_field(ctx, params.by, params.descending)
    if field is None:
        return Miss(f"the initial listings admit no {params.by} order")
    direction = "descending" if params.descending else "ascending"
    for index, order in enumerate(ctx.later_orders):
        if len(order) >= 2 and not _sorted(order, field, params.descending):
            return Miss(f"later whole listing {index + 1} of {len(ctx.later_orders)} is not {direction} by {field}")
    return Match({"field": field, "later_orders": len(ctx.later_orders)})


class LaterSortParams(OrderParams):
    min_listings: int
    """How many later whole listings (of two or more members) must show the order."""


@predicate("later_orders_sorted_by", context="insert-candidate", params=LaterSortParams)
def later_orders_sorted_by(ctx: InsertCandidateContext, params: LaterSortParams) -> Outcome:
    """No initial whole listing shows an order (none lists two members), but every whole listing
    after the create does, by one field, in at least ``min_listings`` listings, and the first
    later listing showing the create places it as that order does: a collection the capture first
    listed with one member, listed newest written first once it held more."""
    if any(len(order) >= 2 for order in ctx.initial_orders):
        return Miss("an initial whole listing shows an order: the initial-order rules judge it")
    later = [order for order in ctx.later_orders if len(order) >= 2]
    if len(later) < params.min_listings:
        return Miss(f"{len(later)} later whole listing(s) of two or more members, fewer than {params.min_listings}")
    field = next((f for f in _fields(ctx, params.by) if all(_sorted(o, f, params.descending) for o in later)), None)
    if field is None:
        direction = "descending" if params.descending else "ascending"
        return Miss(f"a later whole listing is not {direction} by {' or '.join(_fields(ctx, params.by)) or params.by}")
    if ctx.later_members is None:
        return Miss("no later whole listing shows the create")
    placed, detail = _placed_as(ctx, _rule(params.by, field, params.descending))
    if not placed:
        return Miss(detail)
    return Match({"field": field, "later_orders": len(later), "later": detail})


@predicate("later_listing_places", context="insert-candidate", params=OrderParams)
def later_listing_places(ctx: InsertCandidateContext, params: OrderParams) -> Outcome:
    """A later whole listing shows the created entity where this rule would put it."""
    if ctx.later_members is None:
        return Miss("no later whole listing shows the create")
    field = _sorted_field(ctx, params.by, params.descending) if params.by in ("id", "clock") else None
    if params.by in ("id", "clock") and field is None:
        return Miss(f"the initial listings admit no {params.by} order")
    placed, detail = _placed_as(ctx, _rule(params.by, field, params.descending))
    return Match({"later": detail}) if placed else Miss(detail)


class InsertionApartParams(OrderParams):
    time_ordered_patterns: dict[str, str]
    """Identity kinds that count up with the creation time (``RandomIdParams``): their order is
    the order the entities were made in, so a listing by them is no other order than that."""


@predicate("sort_unproven_against_insertion", context="insert-candidate", params=InsertionApartParams)
def sort_unproven_against_insertion(ctx: InsertCandidateContext, params: InsertionApartParams) -> Outcome:
    """An order by an identity that does not count up with the creation time (a name the client
    chose) which no later listing tells from the order the entities were made in: every create
    the capture listed afterwards sorts last by it too (pools p2, p3 after default_pool and p1),
    and the initial listings may simply be in the order their entities were made. A create whose
    identity sorts before a held one (apool) is then placed by a guess."""
    if params.by != "id":
        return Miss("only an order by the identity is judged here")
    value = str(ctx.created.get(ctx.id_field, ""))
    kind = _id_kind(value, params.time_ordered_patterns)
    if kind is not None:
        return Miss(f"{value!r} is a time-ordered identity ({kind}): an order by it is the order of creation")
    field = _sorted_field(ctx, params.by, params.descending)
    if field is None:
        return Miss(f"the initial listings admit no {params.by} order")
    if ctx.later_members is not None:
        placed, detail = _placed_as(ctx, _rule(params.by, field, params.descending))
        last, _ = _placed_as(ctx, _rule("last", None, False))
        if placed and not last:
            return Miss(f"a later listing shows the create where the order puts it and not last ({detail})")
    return Match({"field": field, "later": "none" if ctx.later_members is None else "placed last alike"})


def _scalar(value: object) -> bool:
    return value is None or isinstance(value, (str, int, float, bool)) or hasattr(value, "text")


@predicate("another_member_places_as_listed", context="insert-candidate", params=NoParams)
def another_member_places_as_listed(ctx: InsertCandidateContext, params: NoParams) -> Outcome:
    """The later listing (every member it shows, creates after this one too) is also ordered by
    another member (neither the identity nor a clock, which keep a first or last place for every
    later create) that puts the create where the listing shows it among the members held before
    it: a tax rule listed before the one held is first, and also first by its rate or its name, so
    the capture cannot tell where the application lists the next one."""
    key = str(ctx.created.get(ctx.id_field))
    later = _later_held(ctx)
    actual = next((i for i, m in enumerate(later) if str(m.get(ctx.id_field)) == key), None)
    if actual is None:
        return Miss("the later listing does not show the created entity")
    created, others = later[actual], [m for m in later if str(m.get(ctx.id_field)) != key]
    listed = ctx.later_members or []  # creates after it too
    if not others:
        return Miss("the later listing shows no member held before the create beside it")
    explaining = []
    for field, value in created.items():
        if field == ctx.id_field or field in ctx.clock_fields or value is None or not _scalar(value):
            continue
        if any(field not in m or m[field] is None or not _scalar(m[field]) for m in listed):
            continue
        for descending in (False, True):
            rule = InsertRule(rule_id="probe.sorted", kind="sorted", field=field, descending=descending)
            if _sorted(listed, field, descending) and insert_index(others, created, rule) == actual:
                explaining.append(f"{field} {'descending' if descending else 'ascending'}")
    if not explaining:
        return Miss("no other member orders the later listing with the create in its place")
    return Match({"members": explaining})


class OthersParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_others: int
    """How many members held before the create the later listing must show beside it."""


@predicate("later_listing_shows_others", context="insert-candidate", params=OthersParams)
def later_listing_shows_others(ctx: InsertCandidateContext, params: OthersParams) -> Outcome:
    """The later whole listing shows the create beside members held before it, so its place among
    them is evidence (a listing of the create alone places it first and last alike)."""
    if ctx.later_members is None:
        return Miss("no later whole listing shows the create")
    key = str(ctx.created.get(ctx.id_field))
    others = [m for m in _later_held(ctx) if str(m.get(ctx.id_field)) != key]
    if len(others) < params.min_others:
        return Miss(f"the later listing shows {len(others)} member(s) held before the create beside it, "
                    f"fewer than {params.min_others}")
    return Match({"others": len(others)})


@predicate("later_listing_agrees_or_absent", context="insert-candidate", params=OrderParams)
def later_listing_agrees_or_absent(ctx: InsertCandidateContext, params: OrderParams) -> Outcome:
    """No later listing shows the create, or one shows it where this rule would put it."""
    if ctx.later_members is None:
        return Match({"later": "none"})
    return later_listing_places(ctx, params)


@predicate("admitted_sorts_agree", context="insert-candidate")
def admitted_sorts_agree(ctx: InsertCandidateContext, params: BaseModel) -> Outcome:
    """Without a later listing, every sort the recorded order admits places the entity alike."""
    if ctx.later_members is not None:
        return Match({"later": "a later listing settles it"})
    places: dict[str, int] = {}
    for by in ("id", "clock"):
        for descending in (False, True):
            field = _sorted_field(ctx, by, descending)
            if field is not None:
                places[f"{field} {'desc' if descending else 'asc'}"] = insert_index(
                    ctx.previous_members or [], ctx.created, _rule(by, field, descending))
    if len(set(places.values())) <= 1:
        return Match({"sorts": sorted(places)})
    return Miss(f"the admitted sorts place it differently: {places}")


class RandomIdParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    random_patterns: dict[str, str]
    """Identity kinds whose values are random (version 4 UUIDs), by name."""
    time_ordered_patterns: dict[str, str] = {}
    """Identity kinds whose values count up with the creation time (ObjectId, ULID, TSID, version
    7 UUIDs, a sequence), by name: an order by them keeps."""


def _id_kind(value: str, patterns: dict[str, str]) -> str | None:
    return next((kind for kind, pattern in patterns.items() if re.fullmatch(pattern, value, re.IGNORECASE)), None)


def _clock_listing_otherwise(ctx: InsertCandidateContext) -> str | None:
    """A clock field of the created entity that lists the collection's entities in another
    order than their ids; None when some clock lists them alike (or none shows an order)."""
    entities = [m for m in [*(ctx.previous_members or []), ctx.created] if ctx.id_field in m]
    found = None
    for clock in ctx.clock_fields:
        held = [(sort_key(m.get(ctx.id_field)), sort_key(m.get(clock))) for m in entities if m.get(clock) is not None]
        if len(held) < 2:
            return None
        if not any(a[0] < b[0] and a[1] > b[1] for a in held for b in held):
            return None  # this clock lists them as their ids do
        found = found or clock
    return found


def _clock_listing_alike(ctx: InsertCandidateContext) -> str | None:
    """A clock field of the created entity that lists the collection's entities (two or more
    holding it) in their ids' order; None when none does."""
    entities = [m for m in [*(ctx.previous_members or []), ctx.created] if ctx.id_field in m]
    for clock in ctx.clock_fields:
        held = [(sort_key(m.get(ctx.id_field)), sort_key(m.get(clock))) for m in entities if m.get(clock) is not None]
        if len(held) >= 2 and not any(a[0] < b[0] and a[1] > b[1] for a in held for b in held):
            return clock
    return None


@predicate("identity_is_random", context="insert-candidate", params=RandomIdParams)
def identity_is_random(ctx: InsertCandidateContext, params: RandomIdParams) -> Outcome:
    """The created entity's identity is random, so an order by it is a coincidence until shown:
    a random kind (a version 4 UUID), or generated ids every creation clock lists in another
    order. A time-ordered kind (ObjectId, ULID, TSID, version 7 UUID, a sequence) is not."""
    value = str(ctx.created.get(ctx.id_field, ""))
    kind = _id_kind(value, params.time_ordered_patterns)
    if kind is not None:
        return Miss(f"{value!r} is a time-ordered identity ({kind})")
    kind = _id_kind(value, params.random_patterns)
    if kind is not None:
        return Match({"id": value, "kind": kind})
    clock = _clock_listing_otherwise(ctx)
    if clock is not None:
        return Match({"id": value, "kind": "listed otherwise by every creation clock", "clock": clock})
    return Miss(f"{value!r} is not a random identity, and no creation clock lists the ids otherwise")


def _orders_alike(listings: list[list[dict]], field: str) -> str | None:
    """The direction (``ascending`` or ``descending``) every listing is sorted in by ``field``, its
    values varying in at least one; None when none is."""
    if not any(len({repr(sort_key(m[field])) for m in order}) > 1 for order in listings):
        return None
    for descending in (False, True):
        if all(_sorted(order, field, descending) for order in listings):
            return "descending" if descending else "ascending"
    return None


class SortsAlikeParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    random_patterns: dict[str, str] = {}
    """Unused here (the same parameters as ``identity_is_random``, so one anchor serves both)."""
    time_ordered_patterns: dict[str, str] = {}
    """Identity kinds whose values count up with the creation time: listed by them is listed in
    creation order, which another member sorting the same few listings alike does not put in doubt."""


@predicate("another_member_sorts_every_listing", context="insert-candidate", params=SortsAlikeParams)
def another_member_sorts_every_listing(ctx: InsertCandidateContext, params: SortsAlikeParams) -> Outcome:
    """Every whole listing the capture holds of the collection (of two or more members: the initial
    ones, and those after the create) is also sorted by another member the created entity holds
    (neither the identity, nor a copy of it, nor a clock), so an order by the identity is only one
    of two the capture admits: entities named m and d, listed by name descending, are listed by
    their codes q.* and * descending as well, and a next one named a with the code b.* goes last
    by its name and before d by its code. A time-ordered identity (a sequence, ...) is no such
    case: an order by it is the creation order."""
    kind = _id_kind(str(ctx.created.get(ctx.id_field, "")), params.time_ordered_patterns)
    if kind is not None:
        return Miss(f"the identity is time-ordered ({kind})")
    clock = _clock_listing_alike(ctx)
    if clock is not None:
        return Miss(f"the creation clock {clock} lists the ids alike: an order by them is the creation order")
    listings = [order for order in [*ctx.initial_orders, *ctx.later_orders, *([ctx.later_members] if ctx.later_members
                                                                              else [])] if len(order) >= 2]
    if not listings:
        return Miss("no whole listing of two or more members to show an order")
    key = ctx.created.get(ctx.id_field)
    found = []
    for field, value in ctx.created.items():
        if field == ctx.id_field or field in ctx.clock_fields or value is None or not _scalar(value) \
                or isinstance(value, bool):
            continue
        members = [m for order in listings for m in order]
        if any(field not in m or m[field] is None or not _scalar(m[field]) or isinstance(m[field], bool)
               for m in members):
            continue
        if value == key and all(m[field] == m.get(ctx.id_field) for m in members):
            continue  # a copy of the identity orders nothing otherwise
        direction = _orders_alike(listings, field)
        if direction is not None:
            found.append(f"{field} {direction}")
    if not found:
        return Miss("no other member sorts every whole listing")
    return Match({"members": found})
