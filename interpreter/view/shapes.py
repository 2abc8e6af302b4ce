"""Read the shape of one response body: where a list or an entity sits, and its identity field.

Which member is an envelope and which field is the identity are rule tables
(``view-envelopes``, ``view-identity-fields``); this module only walks bodies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from capenv.interpreter.bundle.models import Locator
from capenv.interpreter.bundle.pointers import escape_token
from capenv.interpreter.predicates.view_shapes import EnvelopeMemberContext, IdentityFieldContext
from capenv.interpreter.rules_engine import Decision, RuleSet, TraceEvent, evaluate

ENVELOPE_TABLE = "view-envelopes"
IDENTITY_TABLE = "view-identity-fields"
LIST_SHAPES_TABLE = "view-list-shapes"
OMITTED_LISTS_TABLE = "view-omitted-lists"


def holds(value: Any) -> str:
    if isinstance(value, list):
        if not value:
            return "empty-array"
        if all(isinstance(v, dict) for v in value):
            return "singleton-object" if len(value) == 1 else "object-array"
        return "array"
    if isinstance(value, dict):
        return "object"
    return "null" if value is None else "scalar"


def _object_arrays(value: Any) -> tuple[str, ...]:
    """The names of the members of an object holding arrays of objects (a list one level down)."""
    if not isinstance(value, dict):
        return ()
    return tuple(name for name, member in value.items() if holds(member) in ("object-array", "singleton-object"))


def _holds_value(entity: dict[str, Any], word: str | None) -> bool:
    """Whether an object holds ``word`` as a scalar member's value."""
    return word is not None and any(isinstance(v, (str, int)) and not isinstance(v, bool) and str(v) == word
                                    for v in entity.values())


def addresses_itself(body: dict[str, Any], read_path: str) -> bool:
    """Whether a member at the top of ``body`` is ``read_path`` itself, origin-relative or as an
    absolute URL's path (no query): the entity answering at its own address (Pulp's ``pulp_href``)."""
    for value in body.values():
        if not isinstance(value, str) or not value:
            continue
        path = urlsplit(value).path if "://" in value else value
        if path == read_path:
            return True
    return False


@dataclass(frozen=True)
class ItemParam:
    """A collection's item path parameter, as its item reads show it: a list's rows may carry their
    identity under its name (``identity-field.item-param-name``) only where every value the item
    reads were made with is listed there."""

    name: str
    values: frozenset[str]


def own_address(value: Any, read_path: str) -> tuple[str, bool] | None:
    """How ``value`` spells ``read_path`` as an address (``identity-field.own-address``): the origin
    it begins with (empty when origin-relative) and whether it ends with a slash; None when it is
    no address of that path (the path itself, with or without the trailing slash the path uses, or
    an absolute URL of it with no query or fragment)."""
    if not isinstance(value, str) or not value or not read_path.startswith("/"):
        return None
    origin, path = "", value
    if "://" in value:
        parts = urlsplit(value)
        if not parts.scheme or not parts.netloc or parts.query or parts.fragment or "?" in value or "#" in value:
            return None
        origin, path = f"{parts.scheme}://{parts.netloc}", parts.path
        if value != origin + path:
            return None
    if path.rstrip("/") != read_path.rstrip("/") or not path.rstrip("/"):
        return None
    return origin, path.endswith("/")


def lookup_words(segments: Any) -> tuple[str, ...]:
    """An item read's path words before its collection word, in the run of literal segments that
    ends at it, nearest first (``flows``, ``api`` for ``/api/flows/name/{name}``)."""
    literal = list(segments)
    while literal and literal[-1].is_param:
        literal.pop()
    words: list[str] = []
    for segment in reversed(literal[:-1]):
        if segment.is_param or not segment.literal:
            break
        words.append(segment.literal)
    return tuple(words)


@dataclass
class ShapeReader:
    ruleset: RuleSet
    traces: list[TraceEvent] = field(default_factory=list)
    _envelope_cache: dict[tuple, bool] = field(default_factory=dict)
    # One decision per distinct field shape and subject: a tool's answers repeat the same fields,
    # and the decision reads nothing else (the reader belongs to one rule set).
    _identity_decisions: dict[tuple, Decision] = field(default_factory=dict)
    _identity_rule_index: dict[str, int] | None = None

    def is_envelope(self, member: str, value_kind: str, collection_word: str | None, candidates: int,
                    lookup_words: tuple[str, ...] = (), names_path_word: bool = False,
                    self_addressed: bool = False, lists_inside: tuple[str, ...] = (),
                    lists_beside: tuple[str, ...] = ()) -> bool:
        key = (member, value_kind, collection_word, candidates, lookup_words, names_path_word, self_addressed,
               lists_inside, lists_beside)
        if key not in self._envelope_cache:
            decision = evaluate(self.ruleset, ENVELOPE_TABLE,
                                EnvelopeMemberContext(member=member, holds=value_kind,
                                                      collection_word=collection_word, candidates=candidates,
                                                      lookup_words=lookup_words, names_path_word=names_path_word,
                                                      self_addressed=self_addressed, lists_inside=lists_inside,
                                                      lists_beside=lists_beside),
                                subject=f"member {member!r}")
            self._envelope_cache[key] = bool(decision.yields.get("envelope"))
            if decision.ok:
                self.traces.extend(decision.events)
        return self._envelope_cache[key]

    def chosen_list_shape(self, tool: str, found_by: dict[Locator, list]) -> Locator | None:
        """The place a list tool's view reads when its answers list their members at several
        (``view-list-shapes``, traced); None when the table chooses none. ``found_by``: per place,
        the (record, members) pairs answered so."""
        from capenv.interpreter.predicates.list_shapes import ListShapeGroup, ListShapesContext

        if LIST_SHAPES_TABLE not in self.ruleset.tables:
            return None

        groups = tuple(ListShapeGroup(where=loc.pointer or "/",
                                      plain_calls=sum(1 for r, _ in pairs if not r.query),
                                      query_calls=sum(1 for r, _ in pairs if r.query))
                       for loc, pairs in found_by.items())
        decision = evaluate(self.ruleset, LIST_SHAPES_TABLE, ListShapesContext(shapes=groups),
                            subject=f"{tool} answer shapes")
        self.traces.extend(decision.events)
        if decision.yields.get("choose") != "plain":
            return None
        return next(loc for loc, pairs in found_by.items() if any(not r.query for r, _ in pairs))

    def lists_nothing(self, tool: str, locator: Locator, listing: list[Any], listless: list[Any]) -> bool:
        """Whether each answer carrying no list (``listless``) is an empty listing whose list the
        application left out (``view-omitted-lists``, traced), beside the answers ``listing`` under
        ``locator``'s member."""
        from capenv.interpreter.predicates.omitted_lists import OmittedListContext

        if locator.kind != "member" or locator.within or OMITTED_LISTS_TABLE not in self.ruleset.tables:
            return False
        beside = [[name for name in r.response.json_value if name != locator.member] for r in listing]
        for record in listless:
            body = record.response.json_value
            if not isinstance(body, dict):
                return False
            context = OmittedListContext(member=locator.member or "", members=list(body), beside=beside,
                                         arrays=[name for name, value in body.items() if isinstance(value, list)])
            decision = evaluate(self.ruleset, OMITTED_LISTS_TABLE, context,
                                subject=f"{tool} record {record.ordinal}")
            self.traces.extend(decision.events)
            if not decision.yields.get("empty"):
                return False
        return True

    def list_locator(self, body: Any, collection_word: str | None,
                     read_path: str | None = None) -> tuple[Locator, list] | None:
        """Where a list of objects sits: the root array, one envelope member, or, where the body
        holds no array of objects of its own, one envelope member holding an object whose list is
        found so in turn (Roundup's ``{"data": {"collection": [...], "@total_size": N}}``).
        ``read_path``: the path the body answered, when known (a body naming it is self-addressed)."""
        if isinstance(body, list):
            if all(isinstance(v, dict) for v in body):
                return Locator(kind="root"), body
            return None
        if not isinstance(body, dict):
            return None
        kinds = {name: holds(value) for name, value in body.items()}
        arrays = [n for n, k in kinds.items() if k in ("object-array", "singleton-object", "empty-array")]
        addressed = read_path is not None and addresses_itself(body, read_path)
        inside = {n: _object_arrays(body[n]) for n, k in kinds.items() if k == "object"}
        found = [n for n in arrays
                 if self.is_envelope(n, "object-array" if kinds[n] == "singleton-object" else kinds[n],
                                     collection_word, len(arrays),
                                     names_path_word=kinds[n] == "singleton-object"
                                     and _holds_value(body[n][0], collection_word),
                                     self_addressed=addressed,
                                     lists_beside=tuple(dict.fromkeys(a for lists in inside.values()
                                                                      for a in lists)))]
        if len(found) == 1:
            return Locator(kind="member", member=found[0]), body[found[0]]
        if found:
            return None
        # No array of the body's own is its list (none, or none an envelope rule takes): an object
        # member may hold it (Roundup's {"data": {"collection": [...]}}, Misago's post_set beside the
        # thread's path).
        return self._nested_list(body, kinds, collection_word, inside)

    def _nested_list(self, body: dict[str, Any], kinds: dict[str, str],
                     collection_word: str | None,
                     inside: dict[str, tuple[str, ...]]) -> tuple[Locator, list] | None:
        """The list inside the one envelope member holding an object, found as ``list_locator``
        finds a body's own; None when no such member or more than one holds a list."""
        objects = [n for n, k in kinds.items() if k == "object"]
        found = []
        for name in objects:
            if not self.is_envelope(name, "object", collection_word, len(objects), lists_inside=inside[name]):
                continue
            inner = self.list_locator(body[name], collection_word)
            if inner is not None and inner[0].kind == "member":
                found.append((inner[0].model_copy(update={"within": (name, *inner[0].within)}), inner[1]))
        return found[0] if len(found) == 1 else None

    def item_locators(self, body: Any, collection_word: str | None,
                      lookup_words: tuple[str, ...] = ()) -> list[tuple[Locator, dict]]:
        """Candidate places of one entity: the root object, an envelope member, a one-element array,
        and those places inside an envelope member holding an object (JSON-RPC's
        ``{"result": {"value": [{…}]}}``), the deepest first. ``lookup_words``: the item path's
        words before its collection word (``EnvelopeMemberContext.lookup_words``)."""
        found: list[tuple[Locator, dict]] = []
        if isinstance(body, dict):
            found.append((Locator(kind="root"), body))
            for name, value in body.items():
                kind = holds(value)
                if kind == "object" and self.is_envelope(name, "object", collection_word, 1, lookup_words):
                    found.insert(0, (Locator(kind="member", member=name), value))
                    inner = [(locator.model_copy(update={"within": (name, *locator.within)}), obj)
                             for locator, obj in self.item_locators(value, collection_word, lookup_words)
                             if locator.kind != "root"]
                    found[0:0] = inner
                elif kind == "singleton-object" and self.is_envelope(name, "singleton-object", collection_word, 1,
                                                                     lookup_words):
                    found.insert(0, (Locator(kind="singleton", member=name), value[0]))
        return found

    def holds_no_entity(self, body: Any, collection_word: str | None, lookup_words: tuple[str, ...] = ()) -> bool:
        """Whether an envelope member holds an empty array where an item read's entity would be
        (``{"result": {"value": []}}``: a name the application holds nothing under), at the top or
        inside envelope members holding objects, an empty object (``{"data": {}}``, an envelope
        around an application's ``{}`` for an id it holds nothing under), or null there
        (``{"data": null}``)."""
        if not isinstance(body, dict):
            return False
        for name, value in body.items():
            kind = holds(value)
            if kind == "empty-array" and self.is_envelope(name, kind, collection_word, 1, lookup_words):
                return True
            if value == {} and self.is_envelope(name, kind, collection_word, 1, lookup_words):
                return True
            # ``{"data": null}``: the envelope's place for the entity holds null, as a bare null
            # body answers a name held by nothing; judged as the envelope of an object would be
            if value is None and self.is_envelope(name, "object", collection_word, 1, lookup_words):
                return True
            if kind == "object" and self.is_envelope(name, kind, collection_word, 1, lookup_words) \
                    and self.holds_no_entity(value, collection_word, lookup_words):
                return True
        return False

    def identity_field(self, groups: list[list[dict]], path_value: str | None = None,
                       subject: str = "", carried: str | None = None,
                       item_param: ItemParam | None = None) -> tuple[str | None, str | None]:
        """The identity field of some objects (and the rule that chose it), by rule order.

        ``groups`` are the object lists of separate answers: values must be distinct within
        each answer (one entity may appear in several answers). ``carried``: for a list, the
        field its collection's item reads carry in their path (None when none shows one).
        ``item_param``: for a list, its collection's item path parameter and the values its
        successful item reads were made with (None when the collection has no such read).
        """
        found = self.identity_candidates(groups, path_value, subject, carried, item_param=item_param)
        if not found:
            return None, None
        self.traces.extend(found[0][1].events)
        return found[0][0], found[0][1].rule_id

    def identity_candidates(self, groups: list[list[dict]], path_value: str | None = None,
                            subject: str = "", carried: str | None = None,
                            read_path: str | None = None, item_param: ItemParam | None = None) -> list[tuple[str, Any]]:
        """Every field a rule accepts as the identity, with its decision, best rule first (not traced).
        ``read_path``: an item read's path, for a member that is the entity's own address."""
        objects = [obj for group in groups for obj in group]
        if not objects:
            return []
        names = list(dict.fromkeys(name for obj in objects for name in obj))  # first-seen order
        accepted: list[tuple[int, str, Any]] = []
        rule_index = self._identity_rules()
        decoded = None if path_value is None else unquote(path_value)
        for name in names:
            if len(objects) == 1:  # one object (an item read's): every figure follows from its one value
                value = objects[0][name]
                scalar = isinstance(value, (str, int)) and not isinstance(value, bool)
                in_every, distinct, single = True, scalar, True
            else:
                values = [obj.get(name) for obj in objects]
                scalar = all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values)
                in_every = all(name in obj for obj in objects)
                distinct = scalar and all(len({str(o.get(name)) for o in g}) == len(g) for g in groups)
                single = len(values) == 1
                value = values[0]
            shape = (subject, name, in_every, scalar, distinct,
                     None if path_value is None else (scalar and single and str(value) in (decoded, path_value)),
                     None if carried is None else name == carried,
                     None if read_path is None else (single and own_address(value, read_path) is not None),
                     None if item_param is None else name == item_param.name,
                     None if item_param is None else item_param.values <= {str(o.get(name)) for o in objects})
            decision = self._identity_decisions.get(shape)
            if decision is None:
                context = IdentityFieldContext(field=name, in_every_object=shape[2], scalar=scalar,
                                               distinct=shape[4], equals_path_parameter=shape[5],
                                               carried_by_item_path=shape[6], addresses_item_path=shape[7],
                                               named_as_item_param=shape[8], lists_item_reads=shape[9])
                decision = evaluate(self.ruleset, IDENTITY_TABLE, context, subject=f"{subject} field {name!r}")
                self._identity_decisions[shape] = decision
            if decision.ok:
                accepted.append((rule_index[decision.rule_id], name, decision))
        accepted.sort(key=lambda a: a[0])  # stable: names in first-seen order within a rule
        return [(name, decision) for _, name, decision in accepted]

    def _identity_rules(self) -> dict[str, int]:
        """Each identity rule's position in its table (an earlier rule wins among fields)."""
        if self._identity_rule_index is None:
            self._identity_rule_index = {rule.id: i for i, rule in enumerate(self.ruleset.table(IDENTITY_TABLE).rules)}
        return self._identity_rule_index


def id_matches(value: Any, path_value: str) -> bool:
    """A path segment names an identity value: the segment percent-decoded once, then as written."""
    text = str(value)
    return text == unquote(path_value) or text == path_value


def unknown_shape(tool: Any, answers: list[Any], reader: ShapeReader, collection_word: str | None) -> str:
    """Where the first answer of a tool no view reads stops making sense, as a JSON pointer:
    what the view would need and what the body holds there (for the read's reason)."""
    lists: dict[str, list[int]] = {}
    for record in answers:
        body = record.response.json_value
        found = _unknown_in(body, reader, collection_word)
        if found is not None:
            return f"record {record.ordinal}: {found}"
        located = reader.list_locator(body, collection_word)
        if located is not None:
            where = located[0].pointer or "/"
            lists.setdefault(where, []).append(record.ordinal)
    if len(lists) > 1:
        shown = "; ".join(f"record {ordinals[0]} at {where}" for where, ordinals in lists.items())
        return f"its answers list their members at different places ({shown}): one view reads one shape"
    return "no identity field is shared by the listed objects, nor equals the path's value"


def _unknown_in(body: Any, reader: ShapeReader, collection_word: str | None) -> str | None:
    if isinstance(body, list):
        odd = next((i for i, v in enumerate(body) if not isinstance(v, dict)), None)
        if odd is not None:
            return f"/{odd} is {_kind(body[odd])}, in an array at / that a list of entities would hold objects in"
        return None
    if not isinstance(body, dict):
        return f"/ is {_kind(body)}, not an object or an array of objects"
    arrays = [name for name, value in body.items() if holds(value) in ("object-array", "singleton-object")]
    if len(arrays) > 1 and reader.list_locator(body, collection_word) is None:
        shown = ", ".join(f"/{_escape(name)}" for name in arrays)
        return f"{shown} each hold an array of objects, and no view-envelopes rule says which one is the list"
    return None


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return "null" if value is None else "a number"


def _escape(name: str) -> str:
    return escape_token(name)
