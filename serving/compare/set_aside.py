"""The items of a read's lists set aside as what a diverging write made, named or removed (``divergence``),
counted per array so a count the write changed is told apart; the other side's counterparts of those
items; and the last items of a page a write pushed off."""

from __future__ import annotations

import copy
from typing import Any

from capenv.interpreter.bundle.pointers import escape_token

from .jsondiff import ABSENT, Difference, ValueMap
from .naming import Foreign, Named, a_scalar, holds, named_by


def without_held(body: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str],
                 seen: Named = (), tally: dict[str, int] | None = None,
                 gone: list[tuple[str, Any]] | None = None, foreign: Foreign | None = None) -> tuple[Any, int]:
    """``body`` without the array items holding one of ``entities`` (or every pair of one ``named``, or the
    only item of its array holding every pair of one ``seen``) and the object members keyed by one (a copy),
    and how many array items were set aside (``tally``: added up per array, by its pointer's shape).
    ``foreign`` (``naming.Foreign``): of the read's own list (inside no other list), what an item's own
    members do not name."""
    if not entities and not named and not seen:
        return body, 0
    body = copy.deepcopy(body)
    return body, _prune(body, entities, named, id_members, seen, tally if tally is not None else {}, "", gone,
                        foreign)


def _prune(value: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str], seen: Named,
           tally: dict[str, int], at: str = "", gone: list[tuple[str, Any]] | None = None,
           foreign: Foreign | None = None) -> int:
    """Sets aside in place (``without_held``); ``gone``: each item set aside, with its array's pointer shape."""
    removed = 0
    if isinstance(value, list):
        projected = {id(item) for item in _projections(value, seen)}
        own_list = foreign if "*" not in at else None  # a list inside an item holds other entities
        kept = [item for item in value if id(item) not in projected
                and not holds(item, entities, named, id_members, own_list)]
        if gone is not None:
            gone.extend((at, item) for item in value if not any(item is k for k in kept))
        removed = len(value) - len(kept)
        tally[at] = tally.get(at, 0) + removed
        value[:] = kept
        for item in kept:
            removed += _prune(item, entities, named, id_members, seen, tally, at + "/*", gone)
    elif isinstance(value, dict):
        for name in [n for n in value if n in entities]:
            del value[name]
        for name, member in value.items():
            removed += _prune(member, entities, named, id_members, seen, tally, at + "/" + escape_token(name), gone,
                              foreign)
    return removed


def sole_holders(value: Any, texts: frozenset[str], tally: dict[str, int], at: str = "") -> int:
    """Sets aside in place, in every list, the one item holding each of ``texts`` as a member's value (a text
    many items hold names none of them: every kernel named python3). How many."""
    removed = 0
    if isinstance(value, list):
        sole = set()
        for text in texts:
            holding = [item for item in value if isinstance(item, dict) and text in item.values()]
            sole |= {id(holding[0])} if len(holding) == 1 else set()
        kept = [item for item in value if id(item) not in sole]
        removed = len(value) - len(kept)
        tally[at] = tally.get(at, 0) + removed
        value[:] = kept
        for item in kept:
            removed += sole_holders(item, texts, tally, at + "/*")
    elif isinstance(value, dict):
        for name, member in value.items():
            removed += sole_holders(member, texts, tally, at + "/" + escape_token(name))
    return removed


def counterparts(body: Any, gone: list[tuple[str, Any]], id_members: frozenset[str], values: ValueMap,
                 side: str, tally: dict[str, int], written: frozenset[str], at: str = "",
                 gone_foreign: Foreign | None = None) -> int:
    """Sets aside in place the items of ``body`` that are the other side's items set aside (``gone``): at the
    same array, the same value (or its pair) under one of ``id_members`` (a book set aside on one side for
    the author it embeds, that the other side no longer embeds). Never by a value a write made or named
    (``written``): a sequence the divergence moved gives that number to another entity on the other side;
    but in the read's own list, a number only writes to other collections named (``gone_foreign``, of the
    other side: ``naming.Foreign``) is this collection's own id still (book 1 beside the deleted author 1).
    How many."""
    removed = 0
    if isinstance(value := body, list):
        here = gone_foreign if "*" not in at else None

        def made(name: str, member: Any) -> bool:
            return str(member) in written and not (here and name in here.get(str(member), ()))

        # an item set aside for being what a write made is that entity: it has no counterpart
        referring = [item for shape, item in gone if shape == at and isinstance(item, dict) and not any(
            made(name, item.get(name)) for name in id_members if a_scalar(item.get(name)))]
        ids = {(name, _as_side(item[name], values, side)) for item in referring
               for name in id_members if a_scalar(item.get(name))}
        kept = [item for item in value if not (isinstance(item, dict) and any(
            (name, item.get(name)) in ids for name in id_members))]
        removed = len(value) - len(kept)
        tally[at] = tally.get(at, 0) + removed
        value[:] = kept
        for item in kept:
            removed += counterparts(item, gone, id_members, values, side, tally, written, at + "/*")
    elif isinstance(body, dict):
        for name, member in body.items():
            removed += counterparts(member, gone, id_members, values, side, tally, written,
                                    at + "/" + escape_token(name), gone_foreign)
    return removed


def _as_side(value: Any, values: ValueMap, side: str) -> Any:
    """The other side's ``value`` as ``side`` names it (its pair), or itself."""
    return values.live_value(value) if side == "live" else values.model_value(value)


def _projections(items: list[Any], seen: Named) -> list[Any]:
    """The items of a list that are a written entity as a read showed it, each the only item of the list
    holding its values (a list projecting a few members: a value many items share names none of them)."""
    found = []
    for group in seen:
        holding = [item for item in items if isinstance(item, dict) and named_by(item, group)]
        if len(holding) == 1:
            found.append(holding[0])
    return found


def without_pushed_off(differences: list[Difference], counted: int) -> list[Difference]:
    """``differences`` without the last items of a page the side holding more of the writes' entities lacks,
    as many as it holds more of them: a page of a fixed size whose entity the write added pushed the last
    one off to the next page (Misago's threads page of two, a new pinned thread first)."""
    if counted == 0:
        return differences
    short = "live" if counted > 0 else "model"
    tails: dict[str, list[Difference]] = {}
    for difference in differences:
        head, _, index = difference.pointer.rpartition("/")
        if index.isdigit() and getattr(difference, short) is ABSENT:
            tails.setdefault(head, []).append(difference)
    pushed = {id(d) for items in tails.values() if len(items) <= abs(counted) for d in items}
    return [d for d in differences if id(d) not in pushed]
