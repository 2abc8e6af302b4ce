"""Values the application returned as identities (for segments that are not id-shaped)."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from urllib.parse import unquote

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.names import MemberNameContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

from .kinds import envelope_object

TABLE = "manifest-identity-members"


def identity_judge(ruleset: RuleSet) -> Callable[[str], bool]:
    """Whether a member name is an identity member (``manifest-identity-members``), each name
    judged once."""
    verdicts: dict[str, bool] = {}

    def is_identity(name: str) -> bool:
        if name not in verdicts:
            decision = evaluate(ruleset, TABLE, MemberNameContext(name=name), subject=name)
            verdicts[name] = bool(decision.yields.get("identity"))
        return verdicts[name]

    return is_identity


def returned_identities(records: Iterable[Record], ruleset: RuleSet) -> set[str]:
    """Every string or integer value of an identity member in a successful JSON response."""
    is_identity = identity_judge(ruleset)
    found: set[str] = set()
    for record in records:
        if record.succeeded and record.response.is_json:
            _collect(record.response.json_value, is_identity, found)
    return found


def made_identities(records: Iterable[Record], ruleset: RuleSet) -> list[str]:
    """The identity values successful POSTs answered at the top of their JSON object, of the object
    it wraps (``kinds.envelope_object``: its one member's object, or its one object member beside
    scalars only, no identity beside it), or the one object of its one member's one-element array:
    the ids of what each made at its path (``manifest-lone-segments``)."""
    is_identity = identity_judge(ruleset)
    found: list[str] = []
    for record in records:
        if record.method != "POST" or not record.succeeded or not record.response.is_json:
            continue
        body = record.response.json_value
        inner = envelope_object(body, is_identity)
        if inner is not None:
            body = inner
        elif isinstance(body, dict) and len(body) == 1 and _one_object(next(iter(body.values()))):
            body = next(iter(body.values()))[0]  # Ghost's {"posts": [{…}]}
        if not isinstance(body, dict):
            continue
        for name, value in body.items():
            if isinstance(value, (str, int)) and not isinstance(value, bool) and is_identity(name):
                found.append(str(value))
    return list(dict.fromkeys(found))


def listed_identities(records: Iterable[Record], ruleset: RuleSet) -> list[str]:
    """The identity values successful GETs listed: the identity members of the objects of their
    array (at the root, or in the root's one array member beside scalars or one page object:
    ``{"data": […]}``, ``{"posts": […], "meta": {…}}``), the ids of the entities listed at its path
    (``manifest-lone-segments``)."""
    is_identity = identity_judge(ruleset)
    found: list[str] = []
    for record in records:
        if record.method != "GET" or not record.succeeded or not record.response.is_json:
            continue
        for item in _listed(record.response.json_value):
            for name, value in item.items():
                if isinstance(value, (str, int)) and not isinstance(value, bool) and is_identity(name):
                    found.append(str(value))
    return list(dict.fromkeys(found))


def _listed(body: Any) -> list[dict[str, Any]]:
    """The objects an answer lists: its root array, or the one array of objects its root holds."""
    if isinstance(body, list):
        return [item for item in body if isinstance(item, dict)]
    if not isinstance(body, dict):
        return []
    arrays = [value for value in body.values() if isinstance(value, list) and value
              and all(isinstance(item, dict) for item in value)]
    return arrays[0] if len(arrays) == 1 else []


def _one_object(value: Any) -> bool:
    """A one-element array holding one object (an entity answered as a list of one)."""
    return isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict)


def _collect(value: Any, is_identity: Any, found: set[str]) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, member in item.items():
                if isinstance(member, (dict, list)):
                    stack.append(member)
                elif isinstance(member, (str, int)) and not isinstance(member, bool) and is_identity(key):
                    found.add(str(member))
        elif isinstance(item, list):
            stack.extend(item)


def read_back_values(records: Iterable[Record], ruleset: RuleSet) -> set[str]:
    """Last path segments (decoded) that the successful JSON GET of their own path answered as a
    member's value, at the top of the answer object, one object below it (an envelope) or in the one
    object of a one-element array, the answer's only member (``{"posts": [{…}]}``), or, in the
    object an answer wraps (``kinds.envelope_object``), one object below that (an envelope around an
    envelope: ``{"data": {"result": {"username": "carol"}}}``, ``{"code": 0, "data": {"result": {…},
    "type": "userconfig"}}``): an item read naming its entity by a value the entity holds, whatever
    the member is called."""
    is_identity = identity_judge(ruleset)
    found: set[str] = set()
    for record in records:
        parts = split_path(record.path)
        if record.method != "GET" or not parts or not record.succeeded or not record.response.is_json:
            continue
        body, value = record.response.json_value, unquote(parts[-1])
        if not isinstance(body, dict):
            continue
        members = list(body.values()) + [v for m in body.values() if isinstance(m, dict) for v in m.values()]
        if len(body) == 1 and _one_object(inner := next(iter(body.values()))):
            members += list(inner[0].values())  # the whole answer one entity as a list of one
        if (inner := envelope_object(body, is_identity)) is not None:
            members += [v for m in inner.values() if isinstance(m, dict) for v in m.values()]
        if any(isinstance(m, (str, int)) and not isinstance(m, bool) and str(m) == value for m in members):
            found.add(parts[-1])
    return found


def array_element_values(records: Iterable[Record]) -> set[str]:
    """Last path segments (decoded) that a successful JSON GET of the path two segments above
    answered as a string element of the array member the segment between names: a tag or label
    addressed as /{items}/{id}/tags/{tag}, which the item's own read holds in ``tags``."""
    held: dict[tuple[str, ...], list[dict]] = {}
    for record in records:
        if record.method == "GET" and record.succeeded and record.response.is_json \
                and isinstance(record.response.json_value, dict):
            held.setdefault(tuple(split_path(record.path)), []).append(record.response.json_value)
    found: set[str] = set()
    for record in records:
        parts = split_path(record.path)
        if len(parts) < 3:
            continue
        member, value = unquote(parts[-2]), unquote(parts[-1])
        for body in held.get(tuple(parts[:-2]), ()):
            elements = body.get(member)
            if isinstance(elements, list) and value in (e for e in elements if isinstance(e, str)):
                found.add(parts[-1])
                break
    return found
