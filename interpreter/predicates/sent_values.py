"""Predicates on the values a write tool's successful recorded calls sent in one body member:
context ``write-sent-values``, table ``write-sent-values``.

The gate proves a plan for the values its recorded calls sent. A value of a class none of them
held, where every recorded value kept to a shape (no negative number, array elements of one JSON
kind, arrays not much longer than those sent, text shaped as an e-mail address or a date), may be refused by the application (Prefect
answers 422 to a negative concurrency limit and to tags [1, 2]; Strapi 400 to an e-mail without
@), and a model storing it answers 2xx there: a wrong answer. A match's evidence is what serving
checks: ``schema``, JSON Schema keywords the member's value must keep to (also published in the
tool's input schema; a format's with a recorded value as its example), and ``described``, how a refusal names the class the value lacks.
"""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.excerpt import excerpt
from capenv.interpreter.bundle.jsonvalue import json_kind
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate

from .chosen_ids import CharacterClass, LengthSpread, drawn_alphabet, spread_lengths
from .update_values import name_words


@context_model("write-sent-values")
class WriteSentValuesContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    sent: list[Any] = Field(default_factory=list)
    """The values the tool's successful recorded calls sent in the member (one per call sending it)."""
    member: str = ""
    """The member's name."""
    held: list[Any] = Field(default_factory=list)
    """The values the capture shows the type's entities holding in the field of the member's name:
    each entity's distinct values, from the initial state and every later read of it."""
    taken: list[Any] | None = None
    """The values sent in the member by the successful calls that sent every member the plan requires:
    the calls serving takes and the gate replays (None: as ``sent``)."""
    constants: dict[str, Any] = Field(default_factory=dict)
    """The fields the plan answers as constants, with the value it answers, in the answer's order."""
    shown: list[dict[str, Any]] = Field(default_factory=list)
    """Every state the capture shows an entity of the type in (initial state and reads), with the
    member and the constant fields only."""
    item_key: bool = False
    """The member's value names the type's entity in its item path: the member an item path takes
    beside the identity (``view-either-keys``: ZenML's /api/v1/projects/{name}) or an item tool is
    addressed by (an entity type's ``key_fields``)."""


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and json_kind(value) in ("integer", "number")


def _shown(value: Any) -> str:
    return excerpt(repr(value), 40)


class LeastNumberParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    least: int
    """The smallest number every recorded call sent (0: none negative; 1: none zero or negative)."""
    described: str
    """How a refusal names the numbers accepted (``a number of zero or more``)."""


@predicate("sent_numbers_never_below", context="write-sent-values", params=LeastNumberParams)
def sent_numbers_never_below(ctx: WriteSentValuesContext, params: LeastNumberParams) -> Outcome:
    """Numbers were sent (the value, or the elements of an array value), none below ``least``: a
    smaller one is unproven (a limit, a count, a size, a position an application refuses below zero;
    a capacity it refuses below one, as pretalx answers 400 to a room's capacity 0)."""
    values = [v for v in ctx.sent if _is_number(v)]
    elements = [e for v in ctx.sent if isinstance(v, list) for e in v if _is_number(e)]
    below = next((v for v in values + elements if v < params.least), None)  # JsonNumber compares as its value
    if below is not None:
        return Miss(f"a recorded call sent the number {below}, below {params.least}, and the gate checked it")
    if not values and not elements:
        return Miss("no number was sent in the member")
    schema: dict[str, Any] = {}
    if values:
        schema["minimum"] = params.least
    if elements:
        schema["items"] = {"minimum": params.least}
    return Match({"schema": schema, "described": params.described})


class MostIntegerParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    most: int
    """The largest integer every recorded call's integer fits under (2147483647: a signed 32-bit column)."""
    described: str
    """How a refusal names the integers accepted (``an integer of at most 2147483647``)."""


@predicate("sent_integers_never_above", context="write-sent-values", params=MostIntegerParams)
def sent_integers_never_above(ctx: WriteSentValuesContext, params: MostIntegerParams) -> Outcome:
    """Integers were sent in the member (every number sent there whole), none above ``most``: a larger
    one is unproven (an application storing the member in a 32-bit column refuses it, as Glance answers
    400 to an image's min_ram of 2**40)."""
    numbers = [v for v in ctx.sent if _is_number(v)]
    if not numbers:
        return Miss("no number was sent in the member")
    fraction = next((v for v in numbers if json_kind(v) != "integer"), None)
    if fraction is not None:
        return Miss(f"a recorded call sent {fraction}, which is no integer")
    above = next((v for v in numbers if v > params.most), None)
    if above is not None:
        return Miss(f"a recorded call sent {above}, above {params.most}, and the gate checked it")
    return Match({"schema": {"maximum": params.most}, "described": params.described})


@predicate("sent_array_elements_of_kinds", context="write-sent-values", params=NoParams)
def sent_array_elements_of_kinds(ctx: WriteSentValuesContext, params: NoParams) -> Outcome:
    """Arrays were sent with elements, all of a few JSON kinds (tags as strings): an element of
    another kind is unproven (an application validating a typed list refuses or converts it)."""
    elements = [e for v in ctx.sent if isinstance(v, list) for e in v]
    if not elements:
        return Miss("no array with elements was sent in the member")
    kinds = {json_kind(e) for e in elements}
    if "number" in kinds:  # JSON Schema's number takes integers too
        kinds.discard("integer")
    names = sorted(kinds)
    plural = {"string": "strings", "integer": "integers", "number": "numbers", "boolean": "booleans",
              "object": "objects", "array": "arrays", "null": "nulls"}
    return Match({"schema": {"items": {"type": names}},
                  "described": "array elements that are " + " or ".join(plural.get(k, k) for k in names)})


@predicate("sent_arrays_never_repeat", context="write-sent-values")
def sent_arrays_never_repeat(ctx: WriteSentValuesContext, params: NoParams) -> Outcome:
    """Arrays with elements were sent in the member and none held an element twice: one that does
    is unproven (an application keeping a set of tags stores it once, Glance answers tags
    ["a", "b"] to ["a", "a", "b"]; another refuses it)."""
    arrays = [v for v in ctx.sent if isinstance(v, list) and v]
    if not arrays:
        return Miss("no array with elements was sent in the member")
    for array in arrays:
        for index, element in enumerate(array):
            if any(same_json(element, other) for other in array[index + 1:]):
                return Miss(f"a recorded call sent {_shown(element)} twice in one array")
    return Match({"schema": {"uniqueItems": True}, "described": "an array without repeated elements"})


class LengthBoundParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    spread: float = Field(ge=1)
    """The longest accepted array has the longest sent one's length times this, rounded up."""
    at_least: int = Field(ge=1)
    """The longest accepted array never has fewer elements than this (a capture of one or two tags
    says little of a third an application takes)."""


@predicate("sent_array_lengths_bound", context="write-sent-values", params=LengthBoundParams)
def sent_array_lengths_bound(ctx: WriteSentValuesContext, params: LengthBoundParams) -> Outcome:
    """Arrays were sent in the member: one much longer than any of them is unproven (an application
    caps a list, Feathers' TypeBox schemas with maxItems answering 400, or cuts it)."""
    arrays = [v for v in ctx.sent if isinstance(v, list)]
    if not arrays:
        return Miss("no array was sent in the member")
    bound = max(math.ceil(max(len(v) for v in arrays) * params.spread), params.at_least)
    return Match({"schema": {"maxItems": bound}, "described": f"an array of at most {bound} elements"})


class TextFormatParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression every string of the format fits whole (anchor it: ``^…$``)."""
    described: str
    """How a refusal names the format (``an e-mail address``)."""
    at_least: int = Field(ge=1)
    """How many strings must have been sent in the member before the format is taken as its rule."""
    held_too: bool = False
    """Every text the type's entities are shown holding there fits too: one that does not shows the
    application storing such text (Sails holds a country 'Poland' beside the codes PL and RU sent)."""


@predicate("sent_text_all_of_format", context="write-sent-values", params=TextFormatParams)
def sent_text_all_of_format(ctx: WriteSentValuesContext, params: TextFormatParams) -> Outcome:
    """Every string value the recorded calls sent in the member has the format: text without it is
    unproven (an application validating an e-mail address or a date refuses it)."""
    texts = [v for v in ctx.sent if isinstance(v, str)]
    if len(texts) < params.at_least:
        return Miss(f"{len(texts)} text value(s) sent, fewer than {params.at_least}")
    compiled = re.compile(params.pattern)
    other = next((t for t in texts if not compiled.search(t)), None)
    if other is not None:
        return Miss(f"a recorded call sent {_shown(other)}, which is not {params.described}")
    held = next((t for t in ctx.held if isinstance(t, str) and not compiled.search(t)), None) if params.held_too else None
    if held is not None:
        return Miss(f"an entity of the type is shown holding {_shown(held)}, which is not {params.described}")
    return Match({"schema": {"pattern": params.pattern, "examples": texts[:1]}, "described": params.described})


class VocabularyNameParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """The last word of a member naming a value from a closed list (``status``, ``sharing``)."""


@predicate("sent_member_named_as_vocabulary", context="write-sent-values", params=VocabularyNameParams)
def sent_member_named_as_vocabulary(ctx: WriteSentValuesContext, params: VocabularyNameParams) -> Outcome:
    """The member's name ends with a word naming a value from a closed list (a ``status``, an
    ``execution_state``, a ``sharing``): a title or an author never does."""
    words = [w for _, _, w in name_words(ctx.member)]
    pool = {w.lower() for w in params.words}
    if words and words[-1] in pool:
        return Match({"word": words[-1]})
    return Miss(f"{ctx.member!r} does not end with one of the words {sorted(pool)}")


@predicate("sent_member_named_otherwise", context="write-sent-values", params=VocabularyNameParams)
def sent_member_named_otherwise(ctx: WriteSentValuesContext, params: VocabularyNameParams) -> Outcome:
    """The member's name ends with none of the words: a ``name`` is chosen freely (an environment
    variable's SITE), whatever letters the recorded ones happened to use."""
    words = [w for _, _, w in name_words(ctx.member)]
    pool = {w.lower() for w in params.words}
    if words and words[-1] in pool:
        return Miss(f"{ctx.member!r} ends with {words[-1]!r}, a word naming freely chosen text")
    return Match({"member": ctx.member})


@predicate("sent_member_named_as_own_name", context="write-sent-values", params=VocabularyNameParams)
def sent_member_named_as_own_name(ctx: WriteSentValuesContext, params: VocabularyNameParams) -> Outcome:
    """The member's whole name is one of the words (``name``, ``slug``): it names the entity itself,
    not another field (a ``display_name``, a ``first_name``)."""
    if ctx.member.lower() in {w.lower() for w in params.words}:
        return Match({"member": ctx.member})
    return Miss(f"{ctx.member!r} is none of {sorted(params.words)}")


class VocabularyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """A regular expression every held and sent value fits whole (a word such as ``open``)."""
    max_distinct: int = Field(ge=1)
    """The most distinct values a vocabulary shows."""
    min_repeats: int = Field(ge=1)
    """How many values (held and sent) at least repeat one shown before: a vocabulary's words recur."""


@predicate("sent_text_of_a_vocabulary", context="write-sent-values", params=VocabularyParams)
def sent_text_of_a_vocabulary(ctx: WriteSentValuesContext, params: VocabularyParams) -> Outcome:
    """Every value held and sent is a word of a few (statuses open, locked), some held or sent more
    than once: a word the capture never shows is unproven (an application validating the member
    against a list refuses it: Redmine's 'Status is not included in the list')."""
    if not ctx.sent:
        return Miss("no value was sent in the member")
    values = ctx.held + ctx.sent
    compiled = re.compile(params.pattern)
    others = [v for v in values if not isinstance(v, str) or not compiled.fullmatch(v)]
    if others:
        return Miss(f"{_shown(others[0])} is no word of the shape {params.pattern}")
    distinct = sorted(set(values))
    if len(distinct) > params.max_distinct:
        return Miss(f"{len(distinct)} distinct values, more than {params.max_distinct}")
    repeats = len(values) - len(distinct)
    if repeats < params.min_repeats:
        return Miss(f"{repeats} repeated value(s), fewer than {params.min_repeats}: names rather than a vocabulary")
    return Match({"schema": {"enum": distinct},
                  "described": f"one of the values the capture shows ({', '.join(distinct)})"})


class OneBooleanParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    named_constants: int = Field(ge=0)
    """How many of the constant members that may follow the member a refusal names."""
    follower_kinds: list[str] = Field(min_length=1)
    """The JSON kinds of the constants that may follow the member (a flag derived from a flag); a
    constant of another kind (a count, a text) is judged by its own rules."""


def _bool_text(value: bool) -> str:
    return "true" if value else "false"


def _followers(ctx: WriteSentValuesContext, value: bool, kinds: list[str]) -> list[str]:
    """The constants the capture does not show independent of the member: every one when no
    entity holds the other value; else those no state of an entity holding the other value shows
    as answered (a state a later write changed, an archived note, still shows the constant beside
    it before), while entities holding the sent value all show them as answered."""
    constants = {f: c for f, c in ctx.constants.items() if json_kind(c) in kinds}
    other = [s for s in ctx.shown if s.get(ctx.member) is (not value)]
    if not other:
        return list(constants)
    same = [s for s in ctx.shown if s.get(ctx.member) is value]
    followers = []
    for field, constant in constants.items():
        if any(field in s and same_json(s[field], constant) for s in other):
            continue  # shown beside the other value as the plan answers it (a later write may change it)
        if any(field in s and not same_json(s[field], constant) for s in same):
            continue  # varies beside the sent value too: something else decides it
        followers.append(field)
    return followers


@predicate("sent_booleans_of_one_value", context="write-sent-values", params=OneBooleanParams)
def sent_booleans_of_one_value(ctx: WriteSentValuesContext, params: OneBooleanParams) -> Outcome:
    """Every value the calls the plan takes sent in the member is one boolean, and the plan
    answers constant members the capture does not show independent of it: the capture cannot
    tell a constant from a member derived from this one (pretix answered personalized true to
    every recorded item create, all sending admission true, and holds an item with admission
    false and personalized false), so the other value is unproven. A constant the type's entities
    holding the other value show as answered, or that varies beside the sent value too, is not
    the member's. Only the calls the plan takes count (the gate replays no call leaving out a
    required member)."""
    taken = ctx.sent if ctx.taken is None else ctx.taken
    if not taken or any(not isinstance(v, bool) for v in taken):
        return Miss("a value other than a boolean was sent in the member" if taken else "no value was sent")
    if len(set(taken)) > 1:
        return Miss("the recorded calls sent both true and false, and the gate checked both")
    if not ctx.constants:
        return Miss("the plan answers no constant member: nothing it answers could follow the member unseen")
    value = taken[0]
    followers = _followers(ctx, value, params.follower_kinds)
    if not followers:
        return Miss(f"the entities the capture shows holding {_bool_text(not value)} hold every constant member as "
                    "the plan answers it, or one varying beside the sent value too")
    named = ", ".join(followers[:params.named_constants]) + (", ..." if len(followers) > params.named_constants else "")
    why = ("no entity the capture shows holds " + _bool_text(not value)
           if not any(s.get(ctx.member) is (not value) for s in ctx.shown)
           else f"entities holding {_bool_text(not value)} hold them otherwise")
    return Match({"schema": {"const": value}, "followers": followers,
                  "described": f"{_bool_text(value)} (the one value they sent; the answer's constant members {named} "
                               f"may follow it: {why})"})


@predicate("sent_member_names_the_item", context="write-sent-values", params=NoParams)
def sent_member_names_the_item(ctx: WriteSentValuesContext, params: NoParams) -> Outcome:
    """The member's value names the type's entity in its item path (an either-key member, or the
    field an item tool is addressed by): the application takes it as a key in a URL."""
    if ctx.item_key:
        return Match({"member": ctx.member})
    return Miss(f"{ctx.member!r} names no entity of the type in its item path")


class KeyTextParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    classes: list[CharacterClass] = Field(min_length=1)
    """The classes a character is judged by; a character in none stands for itself."""
    length_spread: LengthSpread
    """The lengths accepted around the texts' (an application bounds a key's length)."""
    min_distinct: int = Field(ge=1)
    """How many distinct texts (sent and held) the classes are read from: one shows only its own."""


@predicate("sent_text_draws_on_classes", context="write-sent-values", params=KeyTextParams)
def sent_text_draws_on_classes(ctx: WriteSentValuesContext, params: KeyTextParams) -> Outcome:
    """Every value sent in the member and every value the type's entities are shown holding there is
    text; together they draw on some character classes (lower-case letters; any character in no class
    stands for itself): text drawing on another (an upper-case letter, a space) or of a length far
    outside theirs is unproven."""
    other = next((v for v in ctx.sent + ctx.held if not isinstance(v, str)), None)
    if other is not None:
        return Miss(f"{_shown(other)} was sent or held in the member, which is no text")
    texts: list[str] = []
    for text in [*ctx.sent, *ctx.held]:
        if text not in texts:
            texts.append(text)
    if len(texts) < params.min_distinct:
        return Miss(f"{len(texts)} distinct text(s) sent and held, fewer than {params.min_distinct}")
    if not all(texts):
        return Miss("an empty text was sent or held in the member")
    alphabet, names = drawn_alphabet(texts, params.classes)
    least, most = spread_lengths(texts, params.length_spread)
    shown = ", ".join(sorted(texts, key=lambda t: (len(t), t))[:3])
    return Match({"schema": {"pattern": f"^[{alphabet}]+$", "minLength": least, "maxLength": most,
                             "examples": texts[:1]},
                  "described": f"text of {least} to {most} characters drawing only on {', '.join(names)} "
                               f"(a key its item path takes, as every one the capture shows: {shown})"})
