"""Whether an earlier diverging write explains a difference, or the difference is a *suspect*.

A read under the scope of a write the two sides did not make alike (``session``'s ``diverged_by``)
may differ because of that write, but only where the write reached. A difference anywhere else follows
from no diverging write: a wrong answer may hide behind it. Per side (each side's own ids), the write reached:

* whole: a read at or under its own path (compared decoded, an encoded ``/`` split), of an entity it
  addressed by a path parameter (a literal path's last segment for an item write), made (a value saved from,
  or drawn in, its answer; an href one segment below the collection it created in; each item of a batch
  body of one list) or named in its body (a create's members, JSON or form), percent-decoded; an answer
  holding every member a create sent (the other side may answer no JSON); a read by the new name a rename
  only one side made sent; of a read its probe ``affects``: one whose query names its entity or whose path
  names a text it sent, and an entity gone (404) on the side that alone deleted;
* in a list: every item holding one of its entities (a value spelling its path's last segments too), the
  one item holding every label it sent where only it succeeded, in a read it affects any item referring to
  what it did there, and the other side's counterpart of an item set aside (the same id, no id a write made);
  the rest compared again: a count off by the items set aside from one array, or by what its creates and
  deletes made on one side alone, the last items of a page it pushed off;
* in part: the numbers and clocks (a top-level token of a drawn shape too) of an entity it links to or
  sits under, or of a read its probe ``affects``, and of a listed object naming the entity it sits under;
  the place it wrote inside a document read whole; a value it sent, on the one side it succeeded on, in an
  object naming its entity or labelled as its body labelled it; a reference a delete on one side cleared;
  a value a later write's answer drew on both sides; texts quoting the ids the two sides gave one entity.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.pointers import escape_token, member_at, parse as parse_pointer

from .jsondiff import ABSENT, Difference, ValueMap, diff_json
from .judge import in_one_order, parsed_body
from .sides import Observed
from .values import as_decimal, clock_format, drawn_format

_INDEX = re.compile(r"/\d+(?=/|$)")


@dataclass(frozen=True)
class WriteReach:
    """What one write reached, per side (``live``, ``model``): its own path's segments when it is
    no create in a collection (a create's path is the whole collection, which it reaches only by
    the entity it adds), and the values naming the entities it addressed or made."""
    index: int
    own_paths: dict[str, tuple[str, ...]] = field(default_factory=dict)
    entities: dict[str, frozenset[Any]] = field(default_factory=dict)
    named: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    """The (member, string) pairs of its request body: a create names the entity it makes so (a slug,
    a code), and an object holding them (``_named_by``) is that entity."""
    links: dict[str, frozenset[str]] = field(default_factory=dict)
    """The paths and URLs its answer holds: the entities the written one links to (its translation, its
    parent), whose counts and clocks the write changes."""
    parents: dict[str, frozenset[str]] = field(default_factory=dict)
    """The values of its path's parameters before the last (the entities it sits under): their counts and
    clocks the write changes."""
    affects: dict[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    """Its probe's ``affects`` (what the probe file says it changes, a cascade): the counts and clocks of
    what is read at or under them; and, read with a query naming one of its entities, that entity's."""
    id_members: frozenset[str] = frozenset()
    """The members naming its entities by number (where its probe saved one, or its answer held one):
    a number elsewhere (a category 4 beside a new thread 4) names another thing."""
    batch: dict[str, tuple[frozenset[tuple[str, str]], ...]] = field(default_factory=dict)
    """Of a create whose body is one list of objects (``{"rows": [{...}, {...}]}``), the (member, string)
    pairs of each: every one of them an entity it made, named as ``named`` names one."""
    sent: dict[str, frozenset[tuple[str, Any]]] = field(default_factory=dict)
    """The (member, value) leaves its request body sent at any depth (a bare value: under its path's last
    segment, the member it replaces): where they landed is what it changed."""
    labels: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    """The (member, string) pairs at the top of its request body, of any method: what names the object it
    wrote (a route's ``@id``), wherever a read shows that object."""
    succeeded: frozenset[str] = frozenset()
    """The sides that answered it with a success: only there did it change anything."""
    collection: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The collection a create made in or a delete removed from (its path's segments), per side."""
    deletes: bool = False
    """A DELETE: what its probe ``affects`` it may have removed (a cascade)."""
    tally: int = 0
    """How many more entities that collection holds on the live side than on the model's for this write
    alone: 1 for a create only the live side made (or a delete only the model made), -1 the other way."""


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
            names = _spellings({str(v) for v in reach.entities.get(side, frozenset())}
                               | {v for group in _groups(reach, side) for _, v in group})
            if (own is not None and (path[:len(own)] == own or _plain(path)[:len(_plain(own))] == _plain(own))) \
                    or names & _spellings(path):
                return []  # the entity itself, or what lies under it (its posts embedding it, a cascade)
            if own is not None and len(reach.succeeded) == 1 and {v for _, v in reach.labels.get(side, ())} \
                    & _spellings(path):
                return []  # the entity a write only one side made renamed, addressed by its new name
            plain = _plain(path)  # a parameter of many segments read as one (``archive%2Fcube.gcode``)
            affected = any(plain[:len(scope)] == scope for scope in map(_plain, reach.affects.get(side, ())))
            if affected and names & (read_queries or {}).get(side, frozenset()):
                return []  # the affected read, of the written entity (its query names it)
            if affected and {v for _, v in reach.sent.get(side, ()) if isinstance(v, str)} & set(plain):
                return []  # the affected read of what its body named (a page a form's title deleted, a copy)
            if affected and reach.deletes and reach.succeeded == {side} and _gone_on(side, live, model):
                return []  # an entity of the cascade the probe names, gone on the side that deleted alone
            linked = linked or affected or _links_to(reach.links.get(side, frozenset()), path) \
                or bool(reach.parents.get(side, frozenset()) & set(path))
    (live_json, live_body), (model_json, model_body) = parsed_body(live), parsed_body(model)
    bodies = {"live": live_body, "model": model_body}
    reached = _reached(reaches, values)
    id_members = frozenset().union(*(r.id_members for r in reaches))
    for side, body in bodies.items():  # the read answers the entity itself, wherever its path put it
        entities = reached[side]
        named = tuple(group for r in reaches for group in _groups(r, side))
        # a number names too much at the top of an answer (a count, a position): the entity is named there
        # by a string id, an href or its body's members; the other side may answer no JSON (a 404 page)
        named_by_text = frozenset(e for e in entities if isinstance(e, str) and not e.isdigit())
        if isinstance(body, dict) and _holds(body, named_by_text, named, id_members):
            return []
        # renamed: read by a name the write sent, answering every label it sent, where only it succeeded
        if isinstance(body, dict) and any(_named_by(body, labels) and {v for _, v in labels} & _spellings(
                read_paths.get(side, ())) for labels in _labels_alone(reaches, side)):
            return []
    if not (live_json and model_json):
        return list(differences)
    heads = [d for d in differences if not d.pointer.startswith("/") and d.pointer != ""]
    kept, set_aside, tallies = {}, {}, {"live": {}, "model": {}}
    gone: dict[str, list[tuple[str, Any]]] = {"live": [], "model": []}
    for side, body in bodies.items():
        entities = reached[side]
        named = tuple(group for r in reaches for group in _groups(r, side))
        # the one item holding every label a write sent where only it succeeded is the entity it wrote
        seen = (*(read_before or {}).get(side, ()), *_labels_alone(reaches, side))
        kept[side], set_aside[side] = _set_aside(in_one_order(body, unordered), entities, named, id_members, seen,
                                                 tallies[side], gone[side])
        # a cascade the probe names: in the read it affects, an item referring to what a write did on one side
        # alone, by any member (a comment's postId after its post's delete): a number names it there too
        cascading = [r for r in reaches if len(r.succeeded) == 1
                     and any(read_paths[side][:len(scope)] == scope for scope in r.affects.get(side, ()))]
        cascaded = frozenset(_spellings(
            str(e) for r in cascading for e in r.entities.get(side, ()) if not str(e).startswith("/")))
        if cascaded:
            kept[side], more = _set_aside(kept[side], cascaded, (), frozenset(), (), tallies[side])
            set_aside[side] += more
        # and the one item of a list holding a text it sent (a label a playbook's patch named, made there)
        sent_texts = frozenset(v for r in cascading for _, v in r.sent.get(side, ()) if isinstance(v, str))
        if sent_texts:
            kept[side] = copy.deepcopy(kept[side])
            set_aside[side] += _sole_holders(kept[side], sent_texts, tallies[side])
    if id_members:  # the other side's counterpart of an item set aside on one side (by its id) is set aside too
        taken = {side: list(items) for side, items in gone.items()}
        for side in ("live", "model"):
            other = "model" if side == "live" else "live"
            kept[side] = copy.deepcopy(kept[side]) if taken[other] else kept[side]
            set_aside[side] += _counterparts(kept[side], taken[other], id_members, values, side, tallies[side],
                                             frozenset(str(e) for e in reached["live"] | reached["model"]))
    counted = set_aside["live"] - set_aside["model"]
    # a count is of one list: the entity may be set aside from another too (its id in ``ids``, its row in ``result``)
    counts = {tallies["live"].get(at, 0) - tallies["model"].get(at, 0) for at in {*tallies["live"], *tallies["model"]}}
    # a page not showing what the writes made or removed still counts them
    counts.add(sum(r.tally for r in reaches if r.collection.get("live") == read_paths.get("live")))
    volatile_shapes = {_INDEX.sub("/*", p) for p in volatile}
    rest = [d for d in diff_json(kept["live"], kept["model"], values)
            if _INDEX.sub("/*", d.pointer) not in volatile_shapes and not _a_count(d, counts - {0})
            and not (linked and (_aggregate(d) or _a_tally(d, kept) or _a_version(d)))
            and not (_aggregate(d) and _in_parent_item(d, reaches, kept, id_members)) and not _both_drawn(d, drawn)
            and not _nulled_reference(d, reaches, reached, id_members)
            and not _at_own_path(d, reaches, read_paths) and not _sent_into_linked(d, reaches, kept, reached)
            and not _echoes_paired(d, values)]
    return heads + _without_pushed_off(rest, counted)


def _labels_alone(reaches: list[WriteReach], side: str) -> tuple[frozenset[tuple[str, str]], ...]:
    """The labels (``WriteReach.labels``) of each write that succeeded on ``side`` alone."""
    return tuple(r.labels[side] for r in reaches if r.succeeded == {side} and r.labels.get(side))


def _gone_on(side: str, live: Observed, model: Observed) -> bool:
    """Whether ``side`` answered the entity absent (404, 410) and the other side answered it found (2xx)."""
    gone, found = (live, model) if side == "live" else (model, live)
    return gone.status in (404, 410) and 200 <= found.status < 300


def _groups(reach: WriteReach, side: str) -> tuple[frozenset[tuple[str, str]], ...]:
    """The (member, string) groups naming the entities a write made on ``side``: its body's, each of a batch's."""
    own = (reach.named[side],) if reach.named.get(side) else ()
    return own + reach.batch.get(side, ())


def _plain(path: tuple[str, ...]) -> tuple[str, ...]:
    """A path's segments decoded, a segment holding ``/`` (``%2F``) split there."""
    return tuple(part for segment in path for part in unquote(segment).split("/") if part)


def _spellings(texts: Any) -> set[str]:
    """Each text as written and percent-decoded: a path segment ``caf%C3%A9`` names the tag ``café``."""
    return {spelled for text in texts for spelled in (text, unquote(text))}


def _at_own_path(difference: Difference, reaches: list[WriteReach], read_paths: dict[str, tuple[str, ...]]) -> bool:
    """A difference inside a document read at the very place a write wrote (the read's path and the pointer
    together at or under the write's own path: ``/config`` read at ``/servers/a/routes/0`` after a delete
    of ``/config/servers/a/routes/0``), on both sides."""
    if not difference.pointer.startswith("/"):
        return False
    tokens = parse_pointer(difference.pointer)
    for reach in reaches:
        if all((own := reach.own_paths.get(side)) is not None
               and len(own) > len(path) and (*path, *tokens)[:len(own)] == own
               for side, path in read_paths.items()):
            return True
    return False


def _sent_into_linked(difference: Difference, reaches: list[WriteReach], bodies: dict[str, Any],
                      reached: dict[str, frozenset[Any]]) -> bool:
    """A value a write sent, held where it differs by the side the write succeeded on (and only there), in
    an object naming what the write wrote (its entity, or another member its body sent): an item's
    ``tax_rate`` beside the ``tax_rule`` a refused update of that rule's ``rate`` named, a route named
    by the ``@id`` the write sent, showing the ``body`` it sent."""
    if not difference.pointer.startswith("/"):
        return False
    tokens = parse_pointer(difference.pointer)
    for reach in reaches:
        if len(reach.succeeded) != 1:
            continue  # both made it (then each holds what it made) or neither
        side = next(iter(reach.succeeded))
        value = getattr(difference, side)
        sent = reach.sent.get(side, frozenset())
        if not _a_scalar(value) or not any(v == value and type(v) is type(value) for _, v in sent):
            continue
        names = {(m, v) for m, v in reach.labels.get(side, ()) if v != value}
        entities = {str(e) for e in reached[side]}
        for holder in reversed(_around(bodies[side], tokens)):  # the objects around the value, innermost first
            if isinstance(holder, dict) and any(
                    name != tokens[-1] and _a_scalar(member)
                    and ((name, member) in names or str(member) in entities)
                    for name, member in holder.items()):
                return True
    return False


def _around(body: Any, tokens: tuple[str, ...]) -> list[Any]:
    """The values ``tokens`` pass through in ``body`` from its top, the leaf's holder last."""
    passed, value = [], body
    for token in tokens[:-1]:
        passed.append(value)
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return passed
    return [*passed, value]


def _nulled_reference(difference: Difference, reaches: list[WriteReach], reached: dict[str, frozenset[Any]],
                      id_members: frozenset[str]) -> bool:
    """A member null on the one side a write succeeded on, an object holding that write's entity by its id on
    the other: the reference a delete cleared (a book's ``author`` after its author's delete)."""
    for nulled, held in (("live", "model"), ("model", "live")):
        value = getattr(difference, held)
        if getattr(difference, nulled) is not None or not isinstance(value, dict):
            continue
        entities = reached[held]
        if any(r.succeeded == {nulled} for r in reaches) and any(
                _leaf_in(member, entities) and (name in id_members or not _a_number(member))
                for name, member in value.items()):
            return True
    return False


def _a_version(difference: Difference) -> bool:
    """A member at the top of the read both sides hold as a token of one drawn shape: the version of the
    whole a linked write changed (a document's ``rev``, a digest of what it holds), as its clock is."""
    return difference.pointer.count("/") == 1 and all(isinstance(v, str) for v in (difference.live, difference.model)) \
        and drawn_format(difference.live) is not None and drawn_format(difference.live) == drawn_format(difference.model)


def _in_parent_item(difference: Difference, reaches: list[WriteReach], bodies: dict[str, Any],
                    id_members: frozenset[str]) -> bool:
    """A number or clock of an object naming an entity a write sat under (a parameter of its path before the
    last): a listed provider's ``generation`` after a write to one of its inventories."""
    if not difference.pointer.startswith("/"):
        return False
    tokens = parse_pointer(difference.pointer)
    for side in ("live", "model"):
        parents = frozenset().union(*(r.parents.get(side, frozenset()) for r in reaches))
        if parents and any(isinstance(holder, dict) and any(
                _leaf_in(member, parents) and (name in id_members or not _a_number(member))
                for name, member in holder.items()) for holder in _around(bodies[side], tokens)):
            return True
    return False


def _a_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool) and value != ""


_TOKEN_EDGE = r"(?<![0-9A-Za-z]){}(?![0-9A-Za-z])"


def _echoes_paired(difference: Difference, values: ValueMap) -> bool:
    """Two texts alike but for the paired values they quote (``No record found for id '18'`` beside ``'16'``,
    where the two sides' ids of one entity are 18 and 16), each swapped where it stands whole."""
    live, model = difference.live, difference.model
    if not (isinstance(live, str) and isinstance(model, str)):
        return False
    for number, (live_value, model_value) in enumerate(values.pairs()):
        if str(live_value) == str(model_value) or not _a_scalar(live_value) or not _a_scalar(model_value):
            continue
        marker = f"\x00{number}\x00"
        live = re.sub(_TOKEN_EDGE.format(re.escape(str(live_value))), marker, live)
        model = re.sub(_TOKEN_EDGE.format(re.escape(str(model_value))), marker, model)
    return live == model and live != difference.live


def _without_pushed_off(differences: list[Difference], counted: int) -> list[Difference]:
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


def _reached(reaches: list[WriteReach], values: ValueMap) -> dict[str, frozenset[Any]]:
    """Per side, the entities the writes reached, and the other side's as this side names them (the
    value paired with each): an id the application gave anew to a later entity after deleting the one
    it named (a sequence reusing a freed number) is set aside with its counterpart, on both sides."""
    own = {side: frozenset().union(*(r.entities.get(side, frozenset()) for r in reaches)) for side in ("live", "model")}
    # a path's segment is percent-encoded text, the answer's name decoded, its id maybe the number it spells
    own = {side: own[side] | _spellings(v for v in own[side] if isinstance(v, str)) for side in own}
    spelled = {side: {*own[side], *(int(v) for v in own[side] if isinstance(v, str) and v.isdigit()),
                      *(str(v) for v in own[side] if isinstance(v, int) and not isinstance(v, bool))}
               for side in own}
    paired_live = {values.live_value(v) for v in spelled["model"] if values.maps(values.live_value(v), v)}
    paired_model = {values.model_value(v) for v in spelled["live"] if values.maps(v, values.model_value(v))}
    return {"live": frozenset(spelled["live"]) | paired_live, "model": frozenset(spelled["model"]) | paired_model}


def _both_drawn(difference: Difference, drawn: dict[str, frozenset[Any]] | None) -> bool:
    if not drawn or isinstance(difference.live, (dict, list, bool)) or isinstance(difference.model, (dict, list, bool)):
        return False
    if difference.live not in drawn.get("live", frozenset()) or difference.model not in drawn.get("model", frozenset()):
        return False
    # of an identifier's shape: both integers (a sequence), or both of a drawn shape (a token, an encoded id)
    return all(isinstance(v, int) for v in (difference.live, difference.model)) \
        or all(drawn_format(v) is not None for v in (difference.live, difference.model))


def _links_to(links: frozenset[str], path: tuple[str, ...]) -> bool:
    """Whether one of a write's links names the entity read at ``path`` (ends with its path)."""
    if not path:
        return False
    spelled = "/" + "/".join(path)
    return any(link.rstrip("/").endswith(spelled) for link in links)


def _aggregate(difference: Difference) -> bool:
    """Both sides a number (no boolean), or both a clock reading: what a write to an entity linked to
    this one changes here (a count of its translated units, the time of its last change); or null on one
    side and a text or number on the other: a member the write set for the first time there (Weblate's
    translation's ``last_author``, null until one of its units is changed)."""
    sides = (difference.live, difference.model)
    return all(as_decimal(v) is not None and not isinstance(v, bool) for v in sides) \
        or all(clock_format(v) is not None for v in sides) \
        or any(v is None for v in sides) and any(isinstance(v, (str, int, float)) and not isinstance(v, bool)
                                                 for v in sides)


def _a_tally(difference: Difference, bodies: dict[str, Any]) -> bool:
    """A number on one side, absent on the other, in an object holding only numbers on the side holding it:
    a tally per value the write changed in an entity it reached (Alerta's ``statusCounts``, an acknowledged
    alert counted under ``ack``, a tally of 0 left out)."""
    present = [side for side in ("live", "model") if getattr(difference, side) is not ABSENT]
    if len(present) != 1:
        return False
    value = getattr(difference, present[0])
    if as_decimal(value) is None or isinstance(value, bool):
        return False
    holder = member_at(bodies[present[0]], difference.pointer.rpartition("/")[0])
    return isinstance(holder, dict) and all(as_decimal(v) is not None and not isinstance(v, bool)
                                            for v in holder.values())


def _a_count(difference: Difference, counts: set[int]) -> bool:
    live, model = as_decimal(difference.live), as_decimal(difference.model)
    if not counts or live is None or model is None or isinstance(difference.live, bool) \
            or isinstance(difference.model, bool):
        return False
    return live - model in counts


Named = tuple[frozenset[tuple[str, str]], ...]
"""Per write, the (member, string) pairs its body sent."""


def _set_aside(body: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str],
               seen: Named = (), tally: dict[str, int] | None = None,
               gone: list[tuple[str, Any]] | None = None) -> tuple[Any, int]:
    """``body`` without the array items holding one of ``entities`` (or every pair of one ``named``, or the
    only item of its array holding every pair of one ``seen``) and the object members keyed by one (a copy),
    and how many array items were set aside (``tally``: added up per array, by its pointer's shape)."""
    if not entities and not named and not seen:
        return body, 0
    body = copy.deepcopy(body)
    return body, _prune(body, entities, named, id_members, seen, tally if tally is not None else {}, "", gone)


def _prune(value: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str], seen: Named,
           tally: dict[str, int], at: str = "", gone: list[tuple[str, Any]] | None = None) -> int:
    """Sets aside in place (``_set_aside``); ``gone``: each item set aside, with its array's pointer shape."""
    removed = 0
    if isinstance(value, list):
        projected = {id(item) for item in _projections(value, seen)}
        kept = [item for item in value if id(item) not in projected and not _holds(item, entities, named, id_members)]
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
            removed += _prune(member, entities, named, id_members, seen, tally, at + "/" + escape_token(name), gone)
    return removed


def _sole_holders(value: Any, texts: frozenset[str], tally: dict[str, int], at: str = "") -> int:
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
            removed += _sole_holders(item, texts, tally, at + "/*")
    elif isinstance(value, dict):
        for name, member in value.items():
            removed += _sole_holders(member, texts, tally, at + "/" + escape_token(name))
    return removed


def _counterparts(body: Any, gone: list[tuple[str, Any]], id_members: frozenset[str], values: ValueMap,
                  side: str, tally: dict[str, int], written: frozenset[str], at: str = "") -> int:
    """Sets aside in place the items of ``body`` that are the other side's items set aside (``gone``): at the
    same array, the same value (or its pair) under one of ``id_members`` (a book set aside on one side for
    the author it embeds, that the other side no longer embeds). Never by a value a write made or named
    (``written``): a sequence the divergence moved gives that number to another entity on the other side.
    How many."""
    removed = 0
    if isinstance(value := body, list):
        # an item set aside for being what a write made is that entity: it has no counterpart
        referring = [item for shape, item in gone if shape == at and isinstance(item, dict) and not any(
            str(item.get(name)) in written for name in id_members if _a_scalar(item.get(name)))]
        ids = {(name, _as_side(item[name], values, side)) for item in referring
               for name in id_members if _a_scalar(item.get(name))}
        kept = [item for item in value if not (isinstance(item, dict) and any(
            (name, item.get(name)) in ids for name in id_members))]
        removed = len(value) - len(kept)
        tally[at] = tally.get(at, 0) + removed
        value[:] = kept
        for item in kept:
            removed += _counterparts(item, gone, id_members, values, side, tally, written, at + "/*")
    elif isinstance(body, dict):
        for name, member in body.items():
            removed += _counterparts(member, gone, id_members, values, side, tally, written,
                                     at + "/" + escape_token(name))
    return removed


def _as_side(value: Any, values: ValueMap, side: str) -> Any:
    """The other side's ``value`` as ``side`` names it (its pair), or itself."""
    return values.live_value(value) if side == "live" else values.model_value(value)


def _projections(items: list[Any], seen: Named) -> list[Any]:
    """The items of a list that are a written entity as a read showed it, each the only item of the list
    holding its values (a list projecting a few members: a value many items share names none of them)."""
    found = []
    for group in seen:
        holding = [item for item in items if isinstance(item, dict) and _named_by(item, group)]
        if len(holding) == 1:
            found.append(holding[0])
    return found


def _holds(value: Any, entities: frozenset[Any], named: Named, id_members: frozenset[str] = frozenset()) -> bool:
    """Whether an array item is one of the entities or names one: itself, a member of it, or of an
    object inside it (a wrapper), never an item of a list inside it (its children naming the entity)."""
    if isinstance(value, dict):
        return any(_named_by(value, group) for group in named) or any(
            _holds(member, entities, named, id_members) if isinstance(member, dict)
            else _leaf_in(member, entities) and (name in id_members or not id_members or not _a_number(member))
            for name, member in value.items())
    return _leaf_in(value, entities)


def _a_number(value: Any) -> bool:
    """A number, or text spelling one: what names an entity only under a member known to (``id_members``)."""
    if isinstance(value, str):
        return value.isdigit()
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _named_by(value: dict[str, Any], group: frozenset[tuple[str, str]]) -> bool:
    """Whether an object is the entity a create's body named: every member of the body it holds has the
    value sent, and it holds one at least (an answer shows what was sent by other names too: a member's
    ``subscriber`` as its ``email``); a member it shows empty is one a list withholds (a key's secret), no
    other value, and one it shows as no text (a list, a number, a boolean) is what the text sent became there
    (a form's ``enabled=0``, ``users=carol``): neither contradicts, and neither names it."""
    held = [(name, sent) for name, sent in group if isinstance(value.get(name), str) and value[name] != ""]
    return bool(held) and all(value[name] == sent for name, sent in held)


def _leaf_in(value: Any, entities: frozenset[Any]) -> bool:
    if isinstance(value, bool) or value is None or isinstance(value, (dict, list)):
        return False
    if isinstance(value, str):  # an entity given as a path (``/``...): an href ending so names it
        return value in entities or any(isinstance(e, str) and e.startswith("/") and (
            value.rstrip("/").endswith(e) or _tail_of(value, e)) for e in entities)
    return str(value) in entities or value in entities


def _tail_of(value: str, path: str) -> bool:
    """Whether ``value`` spells the last segments of a written ``path`` as a path itself: of two segments or
    more (``data/raw/sensor-04.csv``) or led by a slash (etcd's ``/archive`` of ``/v2/keys/archive``)."""
    tail = value.strip("/")
    return bool(tail) and ("/" in tail or value.startswith("/")) and path.rstrip("/").endswith("/" + tail)


def batch_groups(body: Any) -> tuple[frozenset[tuple[str, str]], ...]:
    """Of a body that is one list of objects (``{"rows": [{...}, {...}]}``), each object's (member, string)
    pairs: the entities a batch create names (``WriteReach.batch``)."""
    if not (isinstance(body, dict) and len(body) == 1 and isinstance(items := next(iter(body.values())), list)):
        return ()
    return tuple(group for item in items if isinstance(item, dict)
                 and (group := frozenset((n, v) for n, v in item.items() if isinstance(v, str))))


def batch_names(body: Any) -> frozenset[str]:
    """Of a body that is one list of strings (``{"scopes": ["metrics", "support"]}``), those strings: the
    entities a batch create of names makes."""
    if not (isinstance(body, dict) and len(body) == 1 and isinstance(items := next(iter(body.values())), list)):
        return frozenset()
    return frozenset(item for item in items if isinstance(item, str) and item)


def sent_leaves(body: Any, member: str) -> frozenset[tuple[str, Any]]:
    """The (member, value) leaves of a request body at any depth (``WriteReach.sent``); a bare value is
    under ``member`` (the path's last segment, which it replaces)."""
    found: set[tuple[str, Any]] = set()
    stack: list[tuple[str, Any]] = [(member, body)]
    while stack:
        name, value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.items())
        elif isinstance(value, list):
            stack.extend((name, item) for item in value)
        elif _a_scalar(value):
            found.add((name, value))
    return frozenset(found)


def top_labels(body: Any) -> frozenset[tuple[str, str]]:
    """The (member, string) pairs at the top of a request body (``WriteReach.labels``); of a JSON Patch
    (RFC 6902), the top members it replaces or adds (``{"op": "replace", "path": "/name", "value": ...}``)."""
    if isinstance(body, dict):
        return frozenset((n, v) for n, v in body.items() if isinstance(v, str) and v)
    if isinstance(body, list) and body and all(isinstance(op, dict) and set(op) == {"op", "path", "value"}
                                               for op in body):
        return frozenset((op["path"][1:], op["value"]) for op in body if op["op"] in ("add", "replace")
                         and isinstance(op["path"], str) and op["path"].count("/") == 1
                         and isinstance(op["value"], str) and op["value"])
    return frozenset()
