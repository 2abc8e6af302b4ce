"""Arguments a client would send to a write tool, built from the tool's listed input schema
alone (as an agent builds them) plus the path of the entity it means: every required body
member (or, for a PATCH-like schema, ``minProperties`` of them) with a value of its declared
type, a ``const`` as given, nested objects (envelopes) filled the same way. A member whose
description says it names a held entity of a type takes the id of one the state holds, as an
agent would look one up (``with_held_references``)."""

from __future__ import annotations

import copy
import json
import random
import re
import uuid
from typing import Any

from capenv.interpreter.bundle.paths import split_path
from capenv.serving.writes.nested_copies import _nested_objects as nested_objects
from capenv.serving.writes.protected import marks
from capenv.serving.writes.answers import covered_fields
from capenv.serving.writes.sent_values import keeps_to


REFERENCE = re.compile(r'the id of a "([^"]+)" entity the state holds')
"""How a write tool's schema describes a member serving refuses unless it names a held entity."""

REFERENCES = re.compile(r'ids, each of a "([^"]+)" entity the state holds')
"""How it describes a list member serving refuses unless each element names a held entity (a submission's tags)."""

CHOSEN_ID = re.compile(r"\^\(\?:\[(.+)\]\{(\d+),(\d+)\}\)\$")
"""The pattern of a client-chosen identity of a character set and length range (``serving/writes/chosen_ids``)."""


UUID_ID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
INTEGER_ID = "0|-?[1-9][0-9]*"
"""The patterns of a client-chosen identity of the UUID and integer shapes (rules/write-chosen-ids.yaml)."""


def with_held_references(schema: dict[str, Any], state: Any, near: str | None = None) -> dict[str, Any]:
    """The schema with each member described as naming a held entity of a type given the ids the
    state (a data/get document, as bytes or parsed) holds of that type as its ``enum``; with
    ``near`` (the write's collection path), only those of the type's collections sharing the most
    leading segments with it, as serving looks a reference up under the write's parent."""
    document = json.loads(state) if isinstance(state, (bytes, str)) else state
    held: dict[str, list[Any]] = {}
    closest: dict[str, int] = {}
    for collection in document.get("collections", []):
        shared = _shared_segments(collection["path"], near) if near is not None else 0
        if shared < closest.get(collection["type"], 0):
            continue
        if shared > closest.get(collection["type"], 0):
            held[collection["type"]] = []
        closest[collection["type"]] = shared
        held.setdefault(collection["type"], []).extend(e["id"] for e in collection["entities"])
    resolved = copy.deepcopy(schema)

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            found = REFERENCE.search(str(node.get("description", "")))
            if found and held.get(found.group(1)):
                node["enum"] = _among(held[found.group(1)], node.get("enum"))
            many = REFERENCES.search(str(node.get("description", "")))
            if many and held.get(many.group(1)):
                items = node.get("items") if isinstance(node.get("items"), dict) else {}
                node["items"] = {**items, "enum": _among(held[many.group(1)], items.get("enum"))}
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(resolved)
    return resolved


def _among(held: list[Any], accepted: list[Any] | None) -> list[Any]:
    """The held ids the member accepts (a published ``enum``: the ids recorded calls succeeded with,
    ``plan.validated_values``); those it accepts when it holds none of them (the call is refused)."""
    if not accepted:
        return held
    return [i for i in held if str(i) in {str(a) for a in accepted}] or accepted


def _shared_segments(path: str, other: str) -> int:
    count = 0
    for mine, theirs in zip(split_path(path), split_path(other)):
        if mine != theirs:
            break
        count += 1
    return count


def value_for(name: str, schema: dict[str, Any], rng: random.Random, tag: str) -> Any:
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return rng.choice(schema["enum"])
    if schema.get("anyOf"):  # ranges a validated-by-shape integer keeps to
        return value_for(name, {**schema, **rng.choice(schema["anyOf"]), "anyOf": None}, rng, tag)
    kind = schema.get("type", "string")
    if (kind == "integer" or kind == "number") and ("minimum" in schema or "maximum" in schema):
        return rng.randint(schema.get("minimum", 1), schema.get("maximum", 999))
    if kind == "integer" or kind == "number":
        return rng.randint(1, 999)
    if kind == "boolean":
        return rng.choice([True, False])
    if kind == "null":  # a member accepted only as null, whatever examples its text rules publish
        return None
    if schema.get("examples"):  # text of a format every recorded call kept to (write-sent-values)
        # text of its own where it keeps to the format (non-empty text, upper case), as an agent
        # told the format writes: a recorded example may be a value a held entity has (distinct_values)
        own = within_length(f"{tag} {name} {rng.randint(100000, 999999)}", schema)
        # spelled as the layout wants (upper case and hyphens, or lower case and underscores: Prefect's
        # ^[0-9a-z_]+$), so two draws differ; a recorded example repeats (an update of the entity
        # the agent created with it would change nothing)
        spellings = (own, own.upper().replace(" ", "-"), re.sub(r"[^0-9a-z]+", "_", own.lower()))
        return next((text for text in spellings if kind == "string" and keeps_to(schema, text)),
                    None) or rng.choice(schema["examples"])
    if kind == "array":
        items = schema.get("items")
        for kept in schema.get("allOf", ()):  # element keywords kept apart (write-sent-values)
            if isinstance(kept.get("items"), dict):
                items = {**(items if isinstance(items, dict) else {}), **kept["items"]}
        if isinstance(items, dict) and items.get("enum"):  # elements a recorded call succeeded with (validated)
            return [rng.choice(items["enum"])]
        if isinstance(items, dict) and isinstance(items.get("type"), list):  # elements of the recorded kinds
            return [value_for(name, {**items, "type": items["type"][0]}, rng, tag)]
        if isinstance(items, dict) and items.get("type") == "object":
            return [body_for(items, rng, tag)]
        if isinstance(items, dict) and items.get("type") in ("integer", "number", "boolean"):  # of the recorded kind
            return [value_for(name, items, rng, tag)]
        return [f"{tag}-{name}"]
    if kind == "object":
        return body_for(schema, rng, tag)  # an envelope's object, or {} when it declares no members
    if kind == "null":
        return None
    if schema.get("pattern") == f"^(?:{UUID_ID})$":  # a client-chosen identity the capture shows only as UUIDs
        return str(uuid.UUID(int=rng.getrandbits(128), version=4))
    if schema.get("pattern") == f"^(?:{INTEGER_ID})$":  # ... only as integers
        return str(rng.randint(100000, 999999))
    text = f"{tag} {name} {rng.randint(100000, 999999)}"  # a repeat would be refused as taken (distinct_values)
    if schema.get("pattern", "").startswith("^["):  # the characters a validated-by-shape string keeps to
        allowed = re.compile(schema["pattern"][1:-2])
        text = "".join(c for c in text if allowed.fullmatch(c)) or "x"
    chosen = CHOSEN_ID.fullmatch(schema.get("pattern", ""))
    if chosen:  # a client-chosen identity: the characters and length range the capture's ids keep to
        characters, least, most = chosen.group(1), int(chosen.group(2)), int(chosen.group(3))
        allowed = re.compile(f"[{characters}]")
        text = "".join(c for c in text.replace(" ", "") if allowed.fullmatch(c))
        filler = next((c for c in "xaA0-_" if allowed.fullmatch(c)), text[:1] or "x")
        text = (text + filler * least)[:max(least, min(len(text), most))]
    return within_length(text, schema)


def within_length(text: str, schema: dict[str, Any]) -> str:
    """The text cut to a published ``maxLength`` (validated.text-length), keeping its end: the
    random digits that keep two drawn values apart."""
    most = schema.get("maxLength")
    return text if most is None or len(text) <= most else text[len(text) - most:].strip() or text[-most:]


def body_for(schema: dict[str, Any], rng: random.Random, tag: str) -> dict[str, Any]:
    """An object the schema accepts: its required members, else ``minProperties`` of the
    optional ones (free members before const ones, since a const only repeats the recorded
    value). An envelope ({"data": {…}} or {"posts": [{…}]}) is a required member like any other."""
    properties = schema.get("properties", {})
    chosen = list(schema.get("required", []))
    wanted = max(schema.get("minProperties", 0), 0)
    if len(chosen) < wanted:
        free = [n for n in properties if n not in chosen and "const" not in properties[n]]
        fixed = [n for n in properties if n not in chosen and "const" in properties[n]]
        rng.shuffle(free)
        chosen += (free + fixed)[:wanted - len(chosen)]
    return {name: value_for(name, properties[name], rng, tag) for name in chosen}


def path_arguments(template: str, collection_path: str, entity_id: Any | None) -> dict[str, str]:
    """The template's parameters named by a collection path (and, last, the entity id). An item path
    outside the collection (shallow nesting: ``/versions/{id}`` beside ``/projects/{p}/versions``)
    takes the id alone."""
    arguments: dict[str, str] = {}
    parts = split_path(collection_path)
    pieces = split_path(template)
    if entity_id is not None and not all(piece.startswith("{") or piece == part for piece, part in zip(pieces, parts)):
        parts = []
    for index, piece in enumerate(pieces):
        if not (piece.startswith("{") and piece.endswith("}")):
            continue
        if index < len(parts):
            arguments[piece[1:-1]] = parts[index]
        elif entity_id is not None:
            arguments[piece[1:-1]] = str(entity_id)
    return arguments


def write_arguments(input_schema: dict[str, Any], template: str, collection_path: str, entity_id: Any | None,
                    rng: random.Random, tag: str, state: Any = None) -> dict[str, Any]:
    """``state``: the data/get document the members naming a held entity take their ids from."""
    if state is not None:
        input_schema = with_held_references(input_schema, state, collection_path)
    arguments: dict[str, Any] = path_arguments(template, collection_path, entity_id)
    if "body" in input_schema.get("properties", {}):
        schema = body_schema_for(input_schema, arguments)
        arguments["body"] = body_for(schema, rng, tag)
        name_the_path_id(arguments, schema)
        held = _held_value(state, collection_path, entity_id)
        for _ in range(ATTEMPTS_TO_CHANGE):  # an update sending only held values is refused (unchanged_updates)
            if not _unchanged(arguments["body"], held):
                break
            arguments["body"] = body_for(schema, rng, tag)
            name_the_path_id(arguments, schema)
    return arguments


PATH_ID = re.compile(r"^the id the path names \(([^)]+)\)")


def name_the_path_id(arguments: dict[str, Any], schema: dict[str, Any]) -> None:
    """An identity member accepted only as the id the path names takes that path argument."""
    body = arguments.get("body")
    for name, prop in schema.get("properties", {}).items():
        said = PATH_ID.match(prop.get("description", ""))
        if said and isinstance(body, dict) and name in body and said.group(1) in arguments:
            value = str(arguments[said.group(1)])
            arguments["body"][name] = int(value) if prop.get("type") == "integer" and value.isdigit() else value


ATTEMPTS_TO_CHANGE = 20
"""How often a body sending only the entity's own values is drawn anew, as an agent told so would."""


def _held_value(state: Any, collection_path: str, entity_id: Any | None) -> dict[str, Any] | None:
    """The value of the entity the path names (by its id or a key member's value), if held."""
    if state is None or entity_id is None:
        return None
    document = json.loads(state) if isinstance(state, (bytes, str)) else state
    for collection in document.get("collections", []):
        if collection["path"] != collection_path:
            continue
        for entity in collection["entities"]:
            value = entity["value"]
            if str(entity["id"]) == str(entity_id) or (isinstance(value, dict) and entity_id in value.values()):
                return value if isinstance(value, dict) else None
    return None


def _unchanged(body: Any, held: dict[str, Any] | None) -> bool:
    """Whether every member the body sends (inside an envelope the entity does not hold) is held alike."""
    if held is None or not isinstance(body, dict) or not body:
        return False
    if len(body) == 1 and next(iter(body)) not in held and isinstance(next(iter(body.values())), dict):
        return _unchanged(next(iter(body.values())), held)  # {"version": {...}}: the envelope's object
    return all(name in held and held[name] == sent for name, sent in body.items())


def body_schema_for(input_schema: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    """The body's schema; for a write dispatching on a collection segment (a ``oneOf`` per served
    value), the body of the choice the path arguments' values name."""
    return next((choice["properties"]["body"] for choice in input_schema.get("oneOf", ())
                 if "body" in choice.get("properties", {})
                 and all(arguments.get(name) == member["const"] for name, member in choice["properties"].items()
                         if "const" in member)), input_schema["properties"]["body"])


LACKING = re.compile(r"lack recorded field\(s\) ([^;]+);")


def amended(arguments: dict[str, Any], input_schema: dict[str, Any], refusal: str, rng: random.Random,
            tag: str) -> dict[str, Any] | None:
    """What an agent sends next after "the answer would lack recorded field(s) …": the same call
    with those fields added where the body accepts them (None when it accepts none of them); after
    "sends only values the entity already holds": a body with some value changed; after a value
    another entity already holds where the capture shows each distinct: another value."""
    if isinstance(arguments.get("body"), dict) and UNCHANGED.search(refusal):
        return _changed(arguments, input_schema, rng, tag)
    taken = TAKEN.search(refusal)
    if taken is not None and isinstance(arguments.get("body"), dict) and taken.group(1) in arguments["body"]:
        return _another_value(arguments, input_schema, taken.group(1), rng, tag)
    found = LACKING.search(refusal)
    body_schema = input_schema.get("properties", {}).get("body", {})
    members = body_schema.get("properties", {})
    wanted = [name.strip() for name in found.group(1).split(",")] if found else []
    if not wanted or not all(name in members for name in wanted) or not isinstance(arguments.get("body"), dict):
        return None
    body = dict(arguments["body"])
    body.update({name: value_for(name, members[name], rng, tag) for name in wanted})
    return {**arguments, "body": body}


UNCHANGED = re.compile(r"sends only values the entity already holds \(")
TAKEN = re.compile(r"member '([^']+)' is .+?, which the .+? entity .+? already holds")
"""A value every recorded entity held distinct (``WritePlan.distinct_members``), sent as another
entity holds it: an agent told so sends another."""


def _another_value(arguments: dict[str, Any], input_schema: dict[str, Any], member: str, rng: random.Random,
                   tag: str) -> dict[str, Any] | None:
    """The call with ``member`` drawn anew, another value than it sent (from the schema's enum when
    it has one)."""
    prop = body_schema_for(input_schema, arguments).get("properties", {}).get(member, {})
    sent = arguments["body"][member]
    others = [value for value in prop.get("enum", ()) if value != sent]
    if prop.get("enum") is not None:
        return {**arguments, "body": {**arguments["body"], member: rng.choice(others)}} if others else None
    for _ in range(ATTEMPTS_TO_CHANGE):
        value = value_for(member, prop, rng, tag)
        if value != sent:
            return {**arguments, "body": {**arguments["body"], member: value}}
    return None


def _changed(arguments: dict[str, Any], input_schema: dict[str, Any], rng: random.Random, tag: str
             ) -> dict[str, Any] | None:
    """What an agent told its update "sends only values the entity already holds" sends next: the
    body drawn anew until some member differs from what it sent (an entity made in the session is
    not in the state the agent read first, so the first draw could not avoid its values)."""
    schema = body_schema_for(input_schema, arguments)
    for _ in range(ATTEMPTS_TO_CHANGE):
        retry = {**arguments, "body": body_for(schema, rng, tag)}
        name_the_path_id(retry, schema)
        if not _unchanged(retry["body"], arguments["body"]):
            return retry
    return None


def key_member(plan: Any) -> str | None:
    """The key member a write names its entity by in its path (``/variables/name/{name}``), if
    not its identity."""
    address = getattr(plan, "address", None)
    return address.member if address is not None and address.by == "path" and address.member else None


def named_by(plan: Any, entity: dict[str, Any], bundle: Any = None, collection: str | None = None) -> Any:
    """What the write's path names a held entity (a data/get entity: id and value) by: its key
    member's value for a write addressed by one, else its id, or, for a type whose identity is its
    own address (``EntityType.address``: Barbican's ``container_ref``), the address's last segment
    (given the ``bundle`` and the entity's ``collection`` path)."""
    member = key_member(plan)
    if member:
        return entity["value"].get(member)
    return path_value(bundle, plan.type if plan is not None else None, collection, entity["id"])


def path_value(bundle: Any, type_name: str | None, collection: str | None, identity: Any) -> Any:
    """The value an item path carries for ``identity``: the last segment of an own-address identity
    (``IdAddress.segment_of``), else the identity itself."""
    if bundle is None or collection is None:
        return identity
    entity_type = next((t for t in bundle.view.types if t.name == type_name), None)
    address = getattr(entity_type, "address", None)
    value = address.segment_of(identity, collection) if address is not None else None
    return identity if value is None else value


def deletable(plan: Any, state: Any, collection: dict[str, Any]) -> list[dict[str, Any]]:
    """The entities of a data/get collection the plan may write: for an update, those holding every
    field its recorded answer carried when some do (a field a call sets need not be held before it);
    for a delete with referrers
    (``WritePlan.referrers``), those no held entity names, since serving refuses to delete a
    referenced one, as it should, and (for a delete or an update) none a protection marks
    (``WritePlan.protected``); for an update
    of a member held entities copy (``WritePlan.copied_by``), those none of them names, for the same
    reason; for any other plan, all of them."""
    entities = collection["entities"]
    if plan is not None and plan.effect == "update" and getattr(plan, "response", None) is not None:
        # one lacking a field the recorded answer carried is refused (check_answer_covers), as it should
        # be: a template of another kind than the one the recording updated holds other fields
        covers = covered_fields(plan)
        entities = [e for e in entities if not isinstance(e["value"], dict)
                    or all(n in e["value"] for n in covers)] or entities
    if plan is not None and plan.effect in ("delete", "update") and getattr(plan, "protected", ()):
        # a default or built-in one, or one not editable (WritePlan.protected), is refused, as it should be
        entities = [e for e in entities if not any(marks(p, e["value"]) is not None for p in plan.protected)]
    copied_by = getattr(plan, "copied_by", ()) if plan is not None else ()
    if copied_by:  # an update of a member held entities copy is refused while they name the entity
        document = json.loads(state) if isinstance(state, (bytes, str)) else state
        copying = {str(entity["value"].get(copy.member)) for copy in copied_by
                   for held in document.get("collections", []) if held["type"] == copy.holder
                   for entity in held["entities"] if isinstance(entity["value"], dict)}
        entities = [e for e in entities if str(e["id"]) not in copying]
    if plan is not None and plan.effect in ("delete", "update"):
        # one another held entity nests a copy of is refused, as it should be (serving/writes/nested_copies):
        # a delete always, an update changing a member the copy shows (a stamped updatedAt: any update),
        # so an update writes another when one is not copied
        document = json.loads(state) if isinstance(state, (bytes, str)) else state
        if plan.effect == "update":
            # a copy showing a member every update changes (a stamped updatedAt) refuses every update of
            # the entity, so it is never one a valid call writes (Payload's authors, each copied in a post)
            every_update = {rule.field for rule in getattr(plan, "fields", ()) if rule.op in EVERY_UPDATE_CHANGES}
            entities = [e for e in entities if not copied_inside_another(document, e, showing=every_update)]
        uncopied = [e for e in entities if not copied_inside_another(document, e)]
        entities = uncopied if plan.effect == "delete" else uncopied or entities
    referrers = getattr(plan, "referrers", ()) if plan is not None and plan.effect == "delete" else ()
    if not referrers:
        return entities
    document = json.loads(state) if isinstance(state, (bytes, str)) else state
    named: set[str] = set()
    own: dict[str, set[str]] = {}  # ids an entity of the plan's own type names (its nested copies: itself)
    for referrer in referrers:
        for held in document.get("collections", []):
            for entity in held["entities"] if held["type"] == referrer.type else ():
                # a member inside objects (referrer.within: a JSON:API relationships.author.data)
                # is found through them; one naming many (WordPress's categories: [1, 3]) names
                # each of its elements
                for value in referrer.holders(entity["value"]):
                    for element in (value if isinstance(value, list) and referrer.many else [value]):
                        if referrer.id_member is not None:
                            element = element.get(referrer.id_member) if isinstance(element, dict) else None
                        if element is not None and not isinstance(element, (dict, list, bool)):
                            if held["type"] == plan.type:
                                own.setdefault(str(element), set()).add(str(entity["id"]))
                            else:
                                named.add(str(element))
    # an entity naming itself (a deployment's own schedules name it) is no referrer of it
    return [e for e in entities if str(e["id"]) not in named and not own.get(str(e["id"]), set()) - {str(e["id"])}]


EVERY_UPDATE_CHANGES = ("clock", "increment")
"""The field ops of an update plan that change their member with every served update."""


def copied_inside_another(document: dict[str, Any], entity: dict[str, Any],
                          showing: set[str] | None = None) -> bool:
    """Whether an object nested inside another held entity carries this data/get entity's id (under the
    member its value holds the id at) and another of its members (one of ``showing``, when given) as it
    holds it now, or a held document is or holds such an object: serving refuses its delete
    (serving/writes/nested_copies: Payload's posts nest their tags), and an update changing such a member."""
    value = entity["value"]
    if not isinstance(value, dict) or showing is not None and not showing:
        return False
    id_fields = [name for name, held in value.items() if held == entity["id"] or str(held) == str(entity["id"])]
    holders = [nested_objects(other["value"]) for held in document.get("collections", [])
               for other in held["entities"] if other["value"] is not value]
    # a document may be the copy itself (a name lookup answering the entity whole: Prefect's
    # /deployments/name/{flow}/{name}) where every member it shares with the entity is alike, as
    # serving counts it
    holders += [[*([held["value"]] if all(v == value[n] for n, v in held["value"].items() if n in value) else []),
                 *nested_objects(held["value"])] for held in document.get("documents", [])
                if isinstance(held.get("value"), dict)]
    for objects in holders:
        for nested in objects:
            texts = [n for n, v in nested.items() if n not in id_fields and isinstance(v, str)
                     and isinstance(value.get(n), str)]
            if texts and all(nested[n] != value[n] for n in texts):
                continue  # another kind of object numbered alike: every text it shares differs
            for id_field in id_fields:
                if id_field in nested and nested[id_field] == value[id_field] and any(
                        name != id_field and name in nested and nested[name] == member
                        and (showing is None or name in showing) for name, member in value.items()):
                    return True
    return False


ABSENT_PARENT_REFUSAL = "so the state answers that parent missing"
"""What serving says refusing a create under a parent the state answers missing (docs/absence.md)."""


PARENT_STATE_REFUSAL = "every successful recorded create found its"
"""What serving says refusing a create under a parent in a state no recorded create found its
parent in (``plan.parent_states``, serving/writes/parent_states)."""


def refused_for_its_parent(message: str) -> bool:
    """Whether a create's refusal is for its parent: one the state answers missing, or one in a
    state no successful recorded create found its parent in."""
    return ABSENT_PARENT_REFUSAL in message or PARENT_STATE_REFUSAL in message


def no_parent_in_an_accepted_state(runtime, plan: Any) -> bool:
    """Whether a create refusing parents in other states (``plan.parent_states``) finds none of
    its parent type in the initial state in a state it accepts (Glance's member creates: only under
    a shared, queued image, which the initial state holds none of): it has no valid call to serve."""
    if plan is None or not plan.parent_states:
        return False
    state = json.loads(runtime.data_get())
    parent_type = plan.parent_states[0].parent_type
    return not any(all(e.get("value", {}).get(s.member) in s.values for s in plan.parent_states)
                   for c in state.get("collections", []) if c["type"] == parent_type for e in c["entities"])


def no_accepted_reference_held(runtime, plan: Any) -> bool:
    """Whether a write takes, in a member naming another type's entity (``plan.references``), only ids
    a recorded call succeeded with (``plan.validated_values``) of which the state holds none (wger's day
    create: ``training`` 4 alone, a workout the capture made and no served create can): it has no valid
    call to serve, and refuses every one, state unchanged. So has a write whose reference member names
    an entity no other held entity of its type may name too (``DistinctMember.names``: a dashboard's
    app), when every held entity of that type is named already (Aim's two apps, each a dashboard's)."""
    if plan is None:
        return False
    state = json.loads(runtime.data_get())
    for distinct in plan.distinct_members:
        if distinct.names is None:
            continue
        targets = {str(e["id"]) for c in state.get("collections", []) if c["type"] == distinct.names
                   for e in c["entities"]}
        named = {str(e.get("value", {}).get(distinct.member)) for c in state.get("collections", [])
                 if c["type"] == plan.type for e in c["entities"]}
        if targets <= named:
            return True
    for validated in plan.validated_values:
        if validated.by_shape or validated.layout is not None or validated.max_length is not None:
            continue
        for reference in plan.references:
            if reference.member != validated.member or not reference.checked:
                continue
            held = {str(e["id"]) for c in state.get("collections", []) if c["type"] == reference.type
                    for e in c["entities"]}
            if not held & {str(v) for v in validated.accepted}:
                return True
    return False


def refused_under_absent_parent(runtime, tool: str, arguments: dict[str, Any]) -> bool:
    """Whether a create is refused, the state unchanged, because the state answers its parent missing
    (or holds it in a state no recorded create found its parent in, ``refused_for_its_parent``):
    named by the recorded call's path values (a tied create's exemplar), its parent was made by a write
    the capture recorded after its reads (JupyterHub's user marie, PowerDNS's zone demo.test.,
    Glance's namespace OS::Demo::Network). A call that is served is undone (data/reset)."""
    before = runtime.data_get()
    answer = runtime.call_tool(tool, arguments)
    if not answer.is_error:
        runtime.data_reset()
        return False
    assert refused_for_its_parent(json.dumps(answer.structured)), (tool, answer.structured)
    assert runtime.data_get() == before
    return True


def keep_held_keys(body: Any, plan: Any, entity: dict[str, Any] | None) -> None:
    """An object member an update refuses leaving out a key the entity holds there
    (``plan.object_merges``, serving/writes/object_merges) sent holding the held keys too."""
    held = entity.get("value") if isinstance(entity, dict) else None
    if plan is None or not isinstance(body, dict) or not isinstance(held, dict):
        return
    for merge in plan.object_merges:
        if merge.check == "held-keys" and isinstance(body.get(merge.member), dict) \
                and isinstance(held.get(merge.member), dict):
            body[merge.member] = {**held[merge.member], **body[merge.member]}


def name_the_bulk_ids(arguments: dict[str, Any], plan: Any, state: Any, collection_path: str) -> None:
    """A bulk body naming its entities by id in one member ({"ids": [5]}) names one the state holds
    in the collection the path names, as a caller told which are held would (a drawn integer names
    none, and serving refuses the whole call)."""
    body = arguments.get("body")
    address = getattr(plan, "address", None)
    if plan is None or plan.effect != "bulk" or address is None or address.by != "ids" or not address.member \
            or not isinstance(body, dict):
        return
    document = json.loads(state) if isinstance(state, (str, bytes)) else state
    held = [e["id"] for c in document.get("collections", []) if c["path"] == collection_path
            and c["type"] == plan.type for e in c["entities"]]
    if held:
        body[address.member] = [held[0]]
