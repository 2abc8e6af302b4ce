"""Field predicates for values the application generates: identity, sequence, unique (context ``create-field``).

The format each learns (sequence scope and digit groups, UUID letter case, a token's length,
character classes and separator positions) goes into ``op_params``, so serving generates a
value spelled as the recorded one without re-deriving anything.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.global_ids import global_id
from capenv.interpreter.bundle.values import entity_tag_opaque
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .create_contexts import CreateFieldContext
from .create_values import as_integer, fullmatch, token_shape, token_spans


@predicate("create_field_is_identity", context="create-field")
def create_field_is_identity(ctx: CreateFieldContext, params: BaseModel) -> Outcome:
    """The field is the type's identity field."""
    if ctx.field == ctx.id_field:
        return Match({"id_field": ctx.id_field})
    return Miss(f"not the identity field {ctx.id_field!r}")


class SpelledIdentityParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    delimiters: str = Field(min_length=1)
    """Characters that may border the sent value inside the identity (``.`` of ``xfer-key.``)."""
    min_length: int = Field(ge=1)
    """A sent string counts from this length: a shorter word recurs in a random token by chance."""


@predicate("create_identity_spells_sent_value", context="create-field", params=SpelledIdentityParams)
def create_identity_spells_sent_value(ctx: CreateFieldContext, params: SpelledIdentityParams) -> Outcome:
    """The identity holds a string the call sent as a delimited token (a name plus a final dot).

    Such an identity is made from the call, not generated: serving a fresh token in its place
    would answer an id the application never gives, so the identity rule must not claim it.
    """
    if not isinstance(ctx.value, str):
        return Miss("not a string identity")
    for member, sent in ctx.body.items():
        if isinstance(sent, str) and len(sent) >= params.min_length and token_spans(ctx.value, sent, params.delimiters):
            return Match({"member": member, "sent": sent})
    return Miss(f"holds no string the call sent of {params.min_length} characters or more")


class IdentityParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    digits_pattern: str
    """A string identity this pattern matches whole is a sequence written as a string."""
    uuid_pattern: str
    """The 8-4-4-4-12 hex shape."""
    pooled_min_classes: int = Field(ge=1, le=3)
    """A token's alphabet also takes the classes of the type's other tokens of its length and
    separators that show this many classes or more (``token_shape``)."""
    hex_min_chars: int = Field(ge=1)
    """Letters and digits all hexadecimal, this many or more across the token and its siblings:
    the token is drawn from hexadecimal digits (``token_shape``)."""
    global_id_pattern: str | None = None
    """A string identity that is base64 of text this pattern matches whole (a type name, a colon
    and a number), and whose type name every other id of the type encodes, is that number's
    sequence, written encoded (a Relay global id)."""


@predicate("create_identity_format", context="create-field", params=IdentityParams)
def create_identity_format(ctx: CreateFieldContext, params: IdentityParams) -> Outcome:
    """A sequence for an integer (or a string of digits), else a UUID for the 8-4-4-4-12 shape, else a token of the same length and classes."""
    value = ctx.value
    if ctx.address_head is not None and ctx.field == ctx.id_field:
        return _address_format(ctx, params)
    number = as_integer(value)
    if number is None and isinstance(value, str) and fullmatch(params.digits_pattern, value):
        number = int(value)
    if number is not None:
        scope, largest = _identity_scope(ctx, number)
        op = {"format": "sequence", "as_string": isinstance(value, str), "scope": scope}
        return Match({"format": "sequence", "scope": scope, "largest_before": largest, "op_params": op})
    if not isinstance(value, str) or not value:
        return Miss("neither an integer nor a non-empty string")
    encoded = _global_id_sequence(ctx, value, params)
    if encoded is not None:
        return encoded
    if fullmatch(params.uuid_pattern, value):
        return Match({"format": "uuid", "op_params": {"format": "uuid"}})
    # the type's ids made during the capture are the same generator's draws: a character the
    # exemplar holds where they do not is in its alphabet (base64url's - and _), no separator
    siblings = [v for v in [*ctx.others_holding(ctx.type_entities), *ctx.made_identities] if isinstance(v, str)]
    shape = token_shape(value, siblings, params.pooled_min_classes, params.hex_min_chars)
    return Match({"format": "token", "length": shape["length"], "classes": shape["classes"],
                  "op_params": {"format": "token", **shape}})


def _address_format(ctx: CreateFieldContext, params: IdentityParams) -> Outcome:
    """The identity is the entity's own address: the segment it ends with is what the application
    generates, a UUID or a token (a number is counted per collection by the sequence of segments,
    which serving does not draw around an address: not explained), and the address is rebuilt
    around it in the call's collection."""
    segment = ctx.address_segment(ctx.value)
    if segment is None:
        return Miss(f"the identity {ctx.value!r} is no address in the create's collection "
                    f"({ctx.address_head!r}, a segment{', a slash' if ctx.address_tail else ''})")
    address = {"address_origin": ctx.address_origin, "address_slash": bool(ctx.address_tail)}
    if fullmatch(params.digits_pattern, segment):
        return Miss(f"the address ends with a number ({segment!r}), a sequence no served address is drawn around")
    if fullmatch(params.uuid_pattern, segment):
        return Match({"format": "uuid", "address": True,
                      "op_params": {"format": "uuid", **address}})
    siblings = [s for s in (_last_segment(v, ctx.address_tail)
                            for v in [*ctx.others_holding(ctx.type_entities), *ctx.made_identities]) if s]
    shape = token_shape(segment, siblings, params.pooled_min_classes, params.hex_min_chars)
    return Match({"format": "token", "length": shape["length"], "classes": shape["classes"], "address": True,
                  "op_params": {"format": "token", **shape, **address}})


def _last_segment(value: Any, tail: str) -> str | None:
    if not isinstance(value, str) or not value.endswith(tail):
        return None
    text = value[:len(value) - len(tail)] if tail else value
    return text.rsplit("/", 1)[-1] or None


def _global_id_sequence(ctx: CreateFieldContext, value: str, params: IdentityParams) -> Outcome | None:
    """A Relay global id (base64 of ``Project:5``) whose type name every other id of the type held
    encodes too: a sequence of the number, written encoded (``global_id_pattern``)."""
    if not params.global_id_pattern:
        return None
    decoded = global_id(value)
    if decoded is None or fullmatch(params.global_id_pattern, decoded[0] + decoded[1]) is None:
        return None
    siblings = [v for v in ctx.others_holding(ctx.type_entities) if v is not None]
    if any(not isinstance(v, str) or (global_id(v) or ("", ""))[0] != decoded[0] for v in siblings):
        return None
    number = int(decoded[1])
    scope, largest = _identity_scope(ctx, number)
    op = {"format": "sequence", "as_string": True, "scope": scope, "encoded_prefix": decoded[0]}
    return Match({"format": "sequence", "encoded_prefix": decoded[0], "scope": scope, "largest_before": largest,
                  "op_params": op})


def _identity_scope(ctx: CreateFieldContext, number: int) -> tuple[str, int | None]:
    """Where the sequence counts: the collection when the value follows its largest, else the type
    when it follows the type's, else the collection (identities of a nested collection that do
    not follow either were numbered by something the capture does not show)."""
    collection = _largest(ctx.others_holding(ctx.collection_entities))
    whole_type = _largest(ctx.others_holding(ctx.type_entities))
    if collection is not None and number == collection + 1:
        return "collection", collection
    if whole_type is not None and number == whole_type + 1:
        return "type", whole_type
    return "collection", collection


def _largest(values: list[Any]) -> int | None:
    numbers = [n for n in (_digits_value(v) for v in values) if n is not None]
    return max(numbers) if numbers else None


_GROUPED = re.compile(r"^[0-9]+(?:-[0-9]+)*$")


def _digits_value(value: Any) -> int | None:
    """An integer, a string of digits (``-``-grouped or not), or a Relay global id, as the integer
    it counts."""
    number = as_integer(value)
    if number is not None:
        return number
    if isinstance(value, str) and _GROUPED.match(value):
        return int(value.replace("-", ""))
    decoded = global_id(value) if isinstance(value, str) else None
    return int(decoded[1]) if decoded is not None else None


class SequenceParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    group_separator: str = Field(min_length=1, max_length=1)
    min_group_width: int = Field(ge=1)
    """Digit groups narrower than this are a date, a version or an address, not an asset number."""


@predicate("create_field_follows_largest", context="create-field", params=SequenceParams)
def create_field_follows_largest(ctx: CreateFieldContext, params: SequenceParams) -> Outcome:
    """An integer (or digits in separated groups of one width) one greater than the field's largest value in the collection, else in the type."""
    value = ctx.value
    number, groups, as_string = _sequence_spelling(value, params)
    if number is None:
        return Miss(groups if isinstance(groups, str) else "not an integer or grouped digits")
    for scope, entities in (("collection", ctx.collection_entities), ("type", ctx.type_entities)):
        largest = _largest([v for v in ctx.others_holding(entities) if _same_kind(v, value)])
        if largest is not None and number == largest + 1:
            op: dict[str, Any] = {"scope": scope, "as_string": as_string}
            if groups:
                op["groups"] = groups
            return Match({"scope": scope, "largest_before": largest, "op_params": op})
    collection = _largest([v for v in ctx.others_holding(ctx.collection_entities) if _same_kind(v, value)])
    whole = _largest([v for v in ctx.others_holding(ctx.type_entities) if _same_kind(v, value)])
    if collection is None and whole is None:
        return Miss("no other entity holds the field to count from")
    return Miss(f"{number} does not follow the largest {collection} (collection) or {whole} (type)")


def _same_kind(other: Any, value: Any) -> bool:
    return isinstance(other, str) == isinstance(value, str) and not isinstance(other, bool)


def _sequence_spelling(value: Any, params: SequenceParams) -> tuple[int | None, Any, bool]:
    """(number, group widths or None, written as a string); on a miss (None, reason, False)."""
    number = as_integer(value)
    if number is not None:
        return number, None, False
    if not isinstance(value, str) or not value:
        return None, None, False
    parts = value.split(params.group_separator)
    if not all(p.isascii() and p.isdigit() for p in parts):
        return None, None, False
    widths = [len(p) for p in parts]
    if len(parts) == 1 and not (len(value) > 1 and value.startswith("0")):
        return int(value), None, True  # digits with no padding: a plain sequence written as a string
    if len(set(widths)) != 1:
        return None, f"digit groups of widths {widths}, not one width", False
    if widths[0] < params.min_group_width:
        return None, f"digit groups {widths[0]} wide, narrower than {params.min_group_width}", False
    if _reads_as_date(parts):
        return None, f"{value!r} reads as a date", False
    return int("".join(parts)), widths, True


def _reads_as_date(parts: list[str]) -> bool:
    """Three two-digit groups that name a day and a month in some order (yy-mm-dd, dd-mm-yy, mm-dd-yy)."""
    if len(parts) != 3 or any(len(p) != 2 for p in parts):
        return False
    a, b, c = (int(p) for p in parts)

    def day_month(day: int, month: int) -> bool:
        return 1 <= month <= 12 and 1 <= day <= 31

    return day_month(c, b) or day_month(a, b) or day_month(b, a)


class UniqueParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    uuid_pattern: str
    token_alphabet: str
    """The characters an opaque token is made of, as a regular-expression class body."""
    min_length: int = Field(ge=1)
    max_length: int = Field(ge=1)
    min_other_entities: int = Field(ge=0)
    """A token is told from a constant only by other entities holding other tokens like it."""
    pooled_min_classes: int = Field(ge=1, le=3)
    """As the identity's (``IdentityParams.pooled_min_classes``)."""
    hex_min_chars: int = Field(ge=1)
    """As the identity's (``IdentityParams.hex_min_chars``)."""


@predicate("create_field_is_unique", context="create-field", params=UniqueParams)
def create_field_is_unique(ctx: CreateFieldContext, params: UniqueParams) -> Outcome:
    """A UUID no other entity of the type shares, or an opaque token of letters and digits no other field repeats, where every other entity holds another token of its length."""
    value = ctx.value
    if not isinstance(value, str):
        return Miss("not a string")
    others = ctx.others_holding(ctx.type_entities)
    if fullmatch(params.uuid_pattern, value):
        if any(isinstance(o, str) and o.lower() == value.lower() for o in others):
            return Miss("another entity of the type holds the same UUID")
        uppercase = value.upper() == value and value.lower() != value
        return Match({"format": "uuid", "op_params": {"format": "uuid", "uppercase": uppercase}})
    token = entity_tag_opaque(value) or value  # an entity tag's quotes are its syntax: kept as separators
    if not (params.min_length <= len(token) <= params.max_length):
        return Miss(f"{len(token)} characters, not a UUID nor {params.min_length} to {params.max_length}")
    if not fullmatch(f"[{params.token_alphabet}]+", token):
        return Miss("holds characters outside the token alphabet")
    if not (any(c.isalpha() for c in token) and any(c.isdigit() for c in token)):
        return Miss("a token holds letters and digits both")
    repeated = [k for k, v in ctx.whole_entity.items() if k != ctx.field and v == value]
    if repeated:
        return Miss(f"repeated by field {repeated[0]!r}")
    if len(others) < params.min_other_entities:
        return Miss(f"{len(others)} other entities hold the field, fewer than {params.min_other_entities}")
    for other in others:
        if not isinstance(other, str) or len(other) != len(value):
            return Miss(f"another entity holds {other!r}, not a token of {len(value)} characters")
        if other == value:
            return Miss("another entity holds the same token")
    shape = token_shape(value, [o for o in others if isinstance(o, str)], params.pooled_min_classes,
                        params.hex_min_chars)
    return Match({"format": "token", "length": shape["length"], "classes": shape["classes"], "op_params": {"format": "token", **shape}})


class OpaqueValueParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    alphabet: str = Field(min_length=1)
    """The characters of an encoded random value (base64's letters, digits, ``+``, ``/``, ``=``, and ``_``, ``-``)."""
    min_length: int = Field(ge=1)
    """Shorter strings may be words or codes the application keeps."""
    min_class_changes: float = Field(gt=0, le=1)
    """The least share of neighbouring characters of different classes (lower, upper, digit,
    other): random text changes class every second or third character, words seldom do
    (``Quarterly-report-2026``: a quarter)."""
    min_other_entities: int = Field(ge=1)


@predicate("create_field_is_opaque_value", context="create-field", params=OpaqueValueParams)
def create_field_is_opaque_value(ctx: CreateFieldContext, params: OpaqueValueParams) -> Outcome:
    """An encoded random value the call did not send (a secret, a key, a digest), where every other entity of the type holds another.

    No rule makes such a value (``field.unique`` draws only tokens of one length), and answering
    it as a constant would give every new entity this one's secret, an answer the application
    never gives: the field stays unexplained.
    """
    value = ctx.value
    if not _opaque(value, params):
        return Miss(f"not a string of {params.min_length} or more characters of [{params.alphabet}] "
                    f"with letters and digits, changing class at {params.min_class_changes:.0%} of them or more")
    if any(sent == value for sent in ctx.body.values()):
        return Miss("the call sent it")
    others = ctx.others_holding(ctx.type_entities)
    if len(others) < params.min_other_entities:
        return Miss(f"{len(others)} other entities hold the field, fewer than {params.min_other_entities}")
    for other in others:
        if other == value or not _opaque(other, params):
            return Miss(f"another entity holds {str(other)[:40]!r}, not another encoded value")
    return Match({"length": len(value)})


def _opaque(value: Any, params: OpaqueValueParams) -> bool:
    return (isinstance(value, str) and len(value) >= params.min_length
            and fullmatch(f"[{params.alphabet}]+", value) is not None
            and any(c.isalpha() for c in value) and any(c.isdigit() for c in value)
            and _class_changes(value) >= params.min_class_changes)


def _class_changes(text: str) -> float:
    """The share of neighbouring characters whose classes differ."""
    def kind(c: str) -> str:
        return "a" if c.islower() else "A" if c.isupper() else "9" if c.isdigit() else "-"
    pairs = list(zip(text, text[1:]))
    return sum(kind(a) != kind(b) for a, b in pairs) / len(pairs) if pairs else 0.0


class KeptTokenParams(OpaqueValueParams):
    delimiters: str = Field(min_length=1)
    """What separates the tokens of the text (a template's own delimiters)."""


@predicate("create_text_keeps_opaque_token", context="create-field", params=KeptTokenParams)
def create_text_keeps_opaque_token(ctx: CreateFieldContext, params: KeptTokenParams) -> Outcome:
    """The text holds, as a delimited token, an encoded random value (a digest) the call did not
    send and no rule generated, which no other entity's value of the field holds.

    A template rebuilt around the new id would keep it for every new entity (Superset's
    ``thumbnail_url``, ``/api/v1/dashboard/4/thumbnail/<a digest of the dashboard>/``), an
    answer the application never gives, where each entity has its own."""
    if not isinstance(ctx.value, str):
        return Miss("not a string")
    generated = {str(value) for value in ctx.generated.values()}
    sent = {str(value) for value in ctx.body.values() if isinstance(value, (str, int))}
    tokens = [t for t in re.split("[" + re.escape(params.delimiters) + "]+", ctx.value)
              if _opaque(t, params) and t not in generated and t not in sent]
    others = [str(other) for other in ctx.others_holding(ctx.type_entities)]
    if len(others) < params.min_other_entities:
        return Miss(f"{len(others)} other entities hold the field, fewer than {params.min_other_entities}")
    own = [t for t in tokens if not any(t in other for other in others)]
    if not own:
        return Miss("keeps no encoded random value of its own")
    return Match({"token": own[0][:16] + "…", "length": len(own[0])})


class DrawnValueParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_other_entities: int = Field(ge=1)
    """Fewer entities may hold distinct values by chance (two or three seeded names)."""


@predicate("create_field_is_drawn_value", context="create-field", params=DrawnValueParams)
def create_field_is_drawn_value(ctx: CreateFieldContext, params: DrawnValueParams) -> Outcome:
    """A number or text the call did not send, in a field where no two entities of the type hold one
    value (a console port drawn from a pool, a name made with a counter such as ``Router-1``).

    Every entity holds its own, so the application drew this one for this entity: answered as a
    constant, every later create would get it again, a value the application never repeats. No
    rule makes it, so the field stays unexplained.
    """
    value = ctx.value
    if isinstance(value, bool) or not isinstance(value, (int, str)) or value == "":
        return Miss("not a number or a nonempty text")
    if any(sent == value for sent in ctx.body.values()):
        return Miss("the call sent it")
    others = ctx.others_holding(ctx.type_entities)
    if len(others) < params.min_other_entities:
        return Miss(f"{len(others)} other entities hold the field, fewer than {params.min_other_entities}")
    kind = type(value)
    if any(type(other) is not kind for other in others):
        return Miss("another entity holds a value of another kind")
    if len({*others, value}) != len(others) + 1:
        return Miss("two entities hold the same value")
    return Match({"others": len(others)})


class OwnUuidParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_other_entities: int = Field(ge=1)
    """The other entities whose values show the same text around a UUID of their own."""


_UUID_TOKEN = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def _sent_texts(value: Any) -> list[str]:
    """Every string the call sent, at any depth."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for member in value.values() for text in _sent_texts(member)]
    if isinstance(value, list):
        return [text for member in value for text in _sent_texts(member)]
    return []


@predicate("create_text_holds_own_uuid", context="create-field", params=OwnUuidParams)
def create_text_holds_own_uuid(ctx: CreateFieldContext, params: OwnUuidParams) -> Outcome:
    """The text holds a UUID the call did not send, where every other entity of the type holding the
    field shows the same text around a UUID of its own (an href or a resource name that names the
    entity by an identity the application drew: Pulp's ``/pulp/api/v3/contentguards/core/header/<uuid>/``
    and ``prn:core.headercontentguard:<uuid>``).

    The entity's own address or name: answered as a constant, every later create would name the
    entity the exemplar made (another entity's identity), and no field of the entity holds the
    UUID alone for a template to rebuild around, so the field stays unexplained."""
    if not isinstance(ctx.value, str):
        return Miss("not a string")
    sent = _sent_texts(ctx.body)
    tokens = [t for t in _UUID_TOKEN.findall(ctx.value) if not any(t.lower() in s.lower() for s in sent)]
    if not tokens:
        return Miss("holds no UUID the call did not send")
    masked = _UUID_TOKEN.sub("{uuid}", ctx.value)
    others = [o for o in ctx.others_holding(ctx.type_entities) if isinstance(o, str)]
    if len(others) < params.min_other_entities:
        return Miss(f"{len(others)} other entities hold the field as text, fewer than {params.min_other_entities}")
    for other in others:
        if _UUID_TOKEN.sub("{uuid}", other) != masked:
            return Miss(f"another entity holds {other[:60]!r}, not the same text around a UUID")
    held = {t.lower() for other in others for t in _UUID_TOKEN.findall(other)}
    own = [t for t in tokens if t.lower() not in held]
    if not own:
        return Miss("every UUID it holds another entity holds too")
    return Match({"uuid": own[0], "others": len(others)})
