"""Whether an earlier diverging write explains a difference, or the difference is a *suspect*.

A read under the scope of a write the two sides did not make alike (``session``'s ``diverged_by``)
may differ because of that write, but only where the write reached. A difference anywhere else follows
from no diverging write: a wrong answer may hide behind it. Per side (each side's own ids), the write reached:

* whole: a read at or under its own path (compared decoded, an encoded ``/`` split), of an entity it
  addressed by a path parameter (a literal path's last segment for an item write, or for a POST no tool knows
  one an answer showed before: ``/token/disable/SEED-SPASS-1``), made (a value saved from,
  or drawn in, its answer; an href one segment below the collection it created in; each item of a batch
  body of one list) or named in its body (a create's members, JSON or form), percent-decoded; an answer
  holding every member a create sent (the other side may answer no JSON); a read by the new name a rename
  only one side made sent; of a read its probe ``affects``: one whose query names its entity or whose path
  names a text it sent, and an entity gone (404) on the side that alone deleted; a read of the collection
  it sent a list of objects to answering just those on the one side it succeeded on (a document it replaced
  whole, Node-RED's deploy);
* in a list: every item holding one of its entities (a value spelling its path's last segments too), the
  one item holding every label it sent where only it succeeded, in a read it affects any item referring to
  what it did there (or, of a delete, to what the deleted entity's last read named: its session's kernel),
  and the other side's counterpart of an item set aside (the same id, no id a write made to this collection:
  book 1 is the counterpart of book 1 set aside for the deleted author 1 it embeds); in the own list of
  a read of a collection a write reached, never by a number only writes to other collections reached, under
  the member naming their own entities (record 3 is no label 3: set aside on the one side that made the
  record, the rest of the list compared in order would be misaligned, or a label's real difference hidden);
  the rest compared again: a count off by the items set aside from one array, or by what its creates and
  deletes made on one side alone, the last items of a page it pushed off;
* in part: the numbers and clocks (a top-level token of a drawn shape too) of an entity it links to or
  sits under, or of a read its probe ``affects``, and of a listed object naming the entity it sits under;
  the place it wrote inside a document read whole; a value it sent, on the one side it succeeded on, in an
  object naming its entity or labelled as its body labelled it; a reference a delete on one side cleared;
  a value a later write's answer drew on both sides; texts quoting the ids the two sides gave one entity; the
  one member of an object the write gave its entity on one side alone, another's on the other side.

Ids of the seed a read after the writes shows first on both sides, entity by entity, pair for this
judgement alone (``pairing.first_seen_pairs``: a seeded room no read named before the writes).

The parts: what a write reached (``reach``), whether a value of an answer names an entity (``naming``), the
items of a list set aside as a write's (``set_aside``), and the differences a write explains where it
reached in part (``consequences``).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from .consequences import (
    a_count, a_tally, a_version, aggregate, at_own_path, both_drawn, displaced_member, echoes_paired, in_parent_item,
    nulled_reference, sent_into_linked,
)
from .jsondiff import Difference, ValueMap, diff_json
from .judge import in_one_order, parsed_body
from .naming import holds, links_to, named_by, plain_segments, spellings
from .reach import WriteReach, foreign_numbers, groups, labels_alone, reached_by, replaced_whole
from .set_aside import counterparts, sole_holders, without_held, without_pushed_off
from .sides import Observed


_INDEX = re.compile(r"/\d+(?=/|$)")


def unexplained(reaches: list[WriteReach], read_paths: dict[str, tuple[str, ...]], live: Observed,
                model: Observed, differences: list[Difference], values: ValueMap,
                unordered: tuple[str, ...] = (), volatile: frozenset[str] = frozenset(),
                drawn: dict[str, frozenset[Any]] | None = None,
                read_before: dict[str, tuple[frozenset[tuple[str, str]], ...]] | None = None,
                read_queries: dict[str, frozenset[str]] | None = None) -> list[Difference]:
    """The differences of a call (``read_paths``: each side's path segments, read as capenv reads them)
    that none of the diverging writes ``reaches`` explains; [] when they explain all of them. ``drawn``:
    of a write, per side, the values its answer showed first that its request did not send: the id a
    create drew, which follows how many each side created before (a sequence the divergence moved).
    ``read_before``: per side, the (member, text) pairs of each written entity as a read of its own path
    answered them on that side: the one item of a list projecting it (Pulp's ``?fields=name``, a list of
    names where the entity's id is not shown) is that entity. ``read_queries``: per side, the values of the
    read's query (decoded): one naming an entity of a write whose ``affects`` holds the read reads that
    entity there (``/db/status?folder=photos`` after a write to folder photos the probe says affects it).
    Paths and names compare decoded: a write to ``/users/two%20words`` made the user ``two words``."""
    if not differences:
        return []
    linked = False
    for reach in reaches:
        for side, path in read_paths.items():
            own = reach.own_paths.get(side)
            names = spellings({str(v) for v in reach.entities.get(side, frozenset())}
                               | {v for group in groups(reach, side) for _, v in group})
            if (own is not None and (path[:len(own)] == own
                                     or plain_segments(path)[:len(plain_segments(own))] == plain_segments(own))) \
                    or names & spellings(path):
                return []  # the entity itself, or what lies under it (its posts embedding it, a cascade)
            if own is not None and len(reach.succeeded) == 1 and {v for _, v in reach.labels.get(side, ())} \
                    & spellings(path):
                return []  # the entity a write only one side made renamed, addressed by its new name
            plain = plain_segments(path)  # a parameter of many segments read as one (``archive%2Fcube.gcode``)
            affected = any(plain[:len(scope)] == scope for scope in map(plain_segments, reach.affects.get(side, ())))
            if affected and names & (read_queries or {}).get(side, frozenset()):
                return []  # the affected read, of the written entity (its query names it)
            if affected and {v for _, v in reach.sent.get(side, ()) if isinstance(v, str)} & set(plain):
                return []  # the affected read of what its body named (a page a form's title deleted, a copy)
            if affected and reach.deletes and reach.succeeded == {side} and _gone_on(side, live, model):
                return []  # an entity of the cascade the probe names, gone on the side that deleted alone
            linked = linked or affected or links_to(reach.links.get(side, frozenset()), path) \
                or bool(reach.parents.get(side, frozenset()) & set(path))
    (live_json, live_body), (model_json, model_body) = parsed_body(live), parsed_body(model)
    bodies = {"live": live_body, "model": model_body}
    if any(replaced_whole(r, side, read_paths.get(side, ()), bodies[side]) for r in reaches for side in bodies):
        return []  # the document a write replaced whole on one side (what capenv took for a create)
    reached = reached_by(reaches, values)
    id_members = frozenset().union(*(r.id_members for r in reaches))
    for side, body in bodies.items():  # the read answers the entity itself, wherever its path put it
        entities = reached[side]
        named = tuple(group for r in reaches for group in groups(r, side))
        # a number names too much at the top of an answer (a count, a position): the entity is named there
        # by a string id, an href or its body's members; the other side may answer no JSON (a 404 page)
        named_by_text = frozenset(e for e in entities if isinstance(e, str) and not e.isdigit())
        if isinstance(body, dict) and holds(body, named_by_text, named, id_members):
            return []
        # renamed: read by a name the write sent, answering every label it sent, where only it succeeded
        if isinstance(body, dict) and any(named_by(body, labels) and {v for _, v in labels} & spellings(
                read_paths.get(side, ())) for labels in labels_alone(reaches, side)):
            return []
    if not (live_json and model_json):
        return list(differences)
    heads = [d for d in differences if not d.pointer.startswith("/") and d.pointer != ""]
    kept, set_aside, tallies = {}, {}, {"live": {}, "model": {}}
    gone: dict[str, list[tuple[str, Any]]] = {"live": [], "model": []}
    foreigns: dict[str, Any] = {}
    for side, body in bodies.items():
        entities = reached[side]
        named = tuple(group for r in reaches for group in groups(r, side))
        # the one item holding every label a write sent where only it succeeded is the entity it wrote
        seen = (*(read_before or {}).get(side, ()), *labels_alone(reaches, side))
        # record 3 is no label 3: in the read collection's own list, a number only writes to other collections
        # reached names no item by the member their own entities are named by
        foreign = foreigns[side] = foreign_numbers(reaches, side, read_paths.get(side, ()), values)
        kept[side], set_aside[side] = without_held(in_one_order(body, unordered), entities, named, id_members,
                                                   seen, tallies[side], gone[side], foreign)
        # a cascade the probe names: in the read it affects, an item referring to what a write did on one side
        # alone, by any member (a comment's postId after its post's delete): a number names it there too
        cascading = [r for r in reaches if len(r.succeeded) == 1
                     and any(read_paths[side][:len(scope)] == scope for scope in r.affects.get(side, ()))]
        cascaded = frozenset(spellings(
            str(e) for r in cascading for e in (*r.entities.get(side, ()), *r.referents.get(side, ()))
            if not str(e).startswith("/")))
        if cascaded:
            kept[side], more = without_held(kept[side], cascaded, (), frozenset(), (), tallies[side], foreign=foreign)
            set_aside[side] += more
        # and the one item of a list holding a text it sent (a label a playbook's patch named, made there)
        sent_texts = frozenset(v for r in cascading for _, v in r.sent.get(side, ()) if isinstance(v, str))
        if sent_texts:
            kept[side] = copy.deepcopy(kept[side])
            set_aside[side] += sole_holders(kept[side], sent_texts, tallies[side])
    if id_members:  # the other side's counterpart of an item set aside on one side (by its id) is set aside too
        taken = {side: list(items) for side, items in gone.items()}
        for side in ("live", "model"):
            other = "model" if side == "live" else "live"
            kept[side] = copy.deepcopy(kept[side]) if taken[other] else kept[side]
            set_aside[side] += counterparts(kept[side], taken[other], id_members, values, side, tallies[side],
                                            frozenset(str(e) for e in reached["live"] | reached["model"]),
                                            gone_foreign=foreigns[other])
    counted = set_aside["live"] - set_aside["model"]
    # a count is of one list: the entity may be set aside from another too (its id in ``ids``, its row in ``result``)
    counts = {tallies["live"].get(at, 0) - tallies["model"].get(at, 0) for at in {*tallies["live"], *tallies["model"]}}
    # a page not showing what the writes made or removed still counts them
    counts.add(sum(r.tally for r in reaches if r.collection.get("live") == read_paths.get("live")))
    volatile_shapes = {_INDEX.sub("/*", p) for p in volatile}
    rest = [d for d in diff_json(kept["live"], kept["model"], values)
            if _INDEX.sub("/*", d.pointer) not in volatile_shapes and not a_count(d, counts - {0})
            and not (linked and (aggregate(d) or a_tally(d, kept) or a_version(d)))
            and not (aggregate(d) and in_parent_item(d, reaches, kept, id_members)) and not both_drawn(d, drawn)
            and not nulled_reference(d, reaches, reached, id_members)
            and not at_own_path(d, reaches, read_paths) and not sent_into_linked(d, reaches, kept, reached)
            and not echoes_paired(d, values) and not displaced_member(d, reaches, bodies)]
    return heads + without_pushed_off(rest, counted)


def _gone_on(side: str, live: Observed, model: Observed) -> bool:
    """Whether ``side`` answered the entity absent (404, 410) and the other side answered it found (2xx)."""
    gone, found = (live, model) if side == "live" else (model, live)
    return gone.status in (404, 410) and 200 <= found.status < 300
