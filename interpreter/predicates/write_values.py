"""Predicates on a recorded refusal of a create or update that shows the application validating one
body member's value (context ``write-validated-value``).

PowerDNS answers 422 to a metadata ``kind`` it does not know; a blog refuses a ``status`` outside
its list. A model storing any value answers 201 where the application refuses: a wrong answer.
The refusal shows which member is validated when its body differs from a successful call's body in
that member's value only, or sends that member beside a successful call's members; or, where it
differs in more, when its answer quotes the value of exactly one of the differing members. Only
a member whose successful values repeat is taken to be validated against a set: a name or a title
(each success sending its own) may be refused for its length, pattern or uniqueness, and accepting
only recorded names would refuse nearly every new entity.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.text_templates import keeps_template, text_template, text_template_runs
from capenv.interpreter.bundle.value_shapes import shaped_like, value_shape
from capenv.interpreter.bundle.jsonvalue import dumps, texts_in
from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class ValueRefusal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    status: int
    sent: dict[str, Any] = Field(default_factory=dict)
    """The body object the refused call sent."""
    answer: str = ""
    """The refusal's answer text (an error message may quote the value it refused)."""


@context_model("write-validated-value")
class WriteValidatedValueContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    refusal: ValueRefusal
    successes: list[dict[str, Any]] = Field(default_factory=list)
    """The body objects the tool's successful calls sent."""
    members: list[str] = Field(default_factory=list)
    """The members serving accepts (a member it refuses needs no value check)."""
    references: list[str] = Field(default_factory=list)
    """The members serving accepts that name another type's entities (checked against the state):
    only a refusal of ids (another caller's entity) says more of them."""
    kin_successes: list[dict[str, Any]] = Field(default_factory=list)
    """The body objects successful calls of the type's other creates and updates sent: they store
    the same members, so their values show the same member's layout."""


class RefusalParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The statuses an application refuses a body's value with (not 401, 403, 404 or 409, which say
    other things: who calls, what exists, what clashes)."""
    max_distinct_share: float = Field(gt=0, le=1)
    """The member's distinct successful values may be at most this share of the successful calls
    sending it (values from a set repeat; free text does not)."""
    min_sent: int = Field(ge=1)
    """Fewer successful values of the member than this show no repetition: free text."""


def _free_text(member: str, ctx: WriteValidatedValueContext, params: RefusalParams) -> str | None:
    """Why the member's successful values look like free text rather than values from a set, or None
    (None too when no success sent it: no recorded value of it is accepted)."""
    sent = [s[member] for s in ctx.successes if member in s]
    strings = {value for value in sent if isinstance(value, str)}  # a string is the same JSON as an equal string only
    others: list[Any] = []
    for value in sent:
        if not isinstance(value, str) and not any(same_json(value, d) for d in others):
            others.append(value)
    distinct = len(strings) + len(others)
    if sent and (len(sent) < params.min_sent or distinct > params.max_distinct_share * len(sent)):
        return (f"{member!r}: {distinct} distinct values in {len(sent)} successful calls, free text (a name, "
                "a title) rather than values from a set")
    return None


def _differing(refused: dict[str, Any], success: dict[str, Any]) -> list[str] | None:
    """The members the refused body sends other values of than the success, or None when it leaves
    one of the success's members out (it may be refused for the missing member)."""
    if not set(success) <= set(refused):
        return None
    return [m for m in refused if m not in success or not same_json(refused[m], success[m])]


@predicate("refusal_differs_in_one_member", context="write-validated-value", params=RefusalParams)
def refusal_differs_in_one_member(ctx: WriteValidatedValueContext, params: RefusalParams) -> Outcome:
    """The refused body differs from a successful call's body in one member's value only, or sends one member beside all of its members: that member's value was refused."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    for success in ctx.successes:
        differing = _differing(ctx.refusal.sent, success)
        if differing is not None and len(differing) == 1 and differing[0] in ctx.members:
            if (why := _free_text(differing[0], ctx, params)) is not None:
                return Miss(why)
            return Match({"member": differing[0], "record": ctx.refusal.ordinal, "status": ctx.refusal.status})
    return Miss("no successful call's body differs from the refused one in one served member only")


def _quoted(value: Any, answer: str) -> bool:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return False
    text = str(value)
    return len(text) >= 2 and text in answer


@predicate("refusal_quotes_one_new_value", context="write-validated-value", params=RefusalParams)
def refusal_quotes_one_new_value(ctx: WriteValidatedValueContext, params: RefusalParams) -> Outcome:
    """The refused body sends the members of a successful call's body, and its answer quotes the value of exactly one member whose value no successful call sent: that member's value was refused."""
    quoted = _quoted_new_values(ctx, params.statuses)
    if isinstance(quoted, Miss):
        return quoted
    if len(quoted) == 1:
        if (why := _free_text(quoted[0], ctx, params)) is not None:
            return Miss(why)
        return Match({"member": quoted[0], "record": ctx.refusal.ordinal, "status": ctx.refusal.status})
    if quoted:
        return Miss(f"the answer quotes the values of several members: {', '.join(quoted)}")
    return Miss("the answer quotes no value only the refused call sent")


def _quoted_new_values(ctx: WriteValidatedValueContext, statuses: list[int]) -> list[str] | Miss:
    """The members whose value no successful call sent that the refusal's answer quotes; a Miss
    when the call is no refusal of a value or leaves out a member every successful call sent."""
    if ctx.refusal.status not in statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    if not any(_differing(ctx.refusal.sent, s) is not None for s in ctx.successes):
        return Miss("the refused body leaves out a member every successful call sent")
    new = [m for m, v in ctx.refusal.sent.items() if m in ctx.members
           and not any(m in s and same_json(s[m], v) for s in ctx.successes)]
    return [m for m in new if _quoted(ctx.refusal.sent[m], ctx.refusal.answer)]


class StatusParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """As ``RefusalParams.statuses``."""


def _elements(value: Any) -> list[Any]:
    return [e for e in value if not isinstance(e, bool) and isinstance(e, (str, int, float))] \
        if isinstance(value, list) else []


@predicate("refusal_quotes_one_new_element", context="write-validated-value", params=StatusParams)
def refusal_quotes_one_new_element(ctx: WriteValidatedValueContext, params: StatusParams) -> Outcome:
    """The refused body sends the members of a successful call's body, and its answer quotes an
    element of exactly one array member that no successful call sent in it ("'no-such-scheme://x'
    is not a valid AppRise URL."): the application validates the member's elements."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    if not any(_differing(ctx.refusal.sent, s) is not None for s in ctx.successes):
        return Miss("the refused body leaves out a member every successful call sent")
    quoted: dict[str, list[Any]] = {}
    for member, value in ctx.refusal.sent.items():
        if member not in ctx.members or not any(isinstance(s.get(member), list) for s in ctx.successes):
            continue  # successful calls sent it as no array: an array refused is a value of another kind
        sent = [e for s in ctx.successes if member in s for e in _elements(s[member])]
        new = [e for e in _elements(value) if not any(same_json(e, k) for k in sent) and _quoted(e, ctx.refusal.answer)]
        if new:
            quoted[member] = new
    if len(quoted) != 1:
        return Miss(f"the answer quotes new elements of {len(quoted)} array member(s), not one")
    member, elements = next(iter(quoted.items()))
    return Match({"member": member, "record": ctx.refusal.ordinal, "status": ctx.refusal.status,
                  "elements": elements})


@predicate("refusal_sends_new_vocabulary_element", context="write-validated-value", params=RefusalParams)
def refusal_sends_new_vocabulary_element(ctx: WriteValidatedValueContext, params: RefusalParams) -> Outcome:
    """The refused body sends every member of a successful call's body and differs from it only in
    free text (strings each success sends its own) and in one array member holding an element no
    successful call sent in it, whose successful elements repeat (words from a set: an optimisation
    direction, a role): the application validates that member's elements, whatever its answer says."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    for success in ctx.successes:
        differing = _differing(ctx.refusal.sent, success)
        if differing is None:
            continue
        arrays = {m: new for m in differing if m in ctx.members and (new := _new_elements(m, ctx))}
        texts = [m for m in differing if m not in arrays and m in ctx.members
                 and isinstance(ctx.refusal.sent[m], str) and _free_text(m, ctx, params) is not None]
        if len(arrays) != 1 or set(arrays) | set(texts) != set(differing):
            continue
        member, new = next(iter(arrays.items()))
        sent = [e for s in ctx.successes if isinstance(s.get(member), list) for e in _elements(s[member])]
        distinct = [e for i, e in enumerate(sent) if not any(same_json(e, k) for k in sent[:i])]
        if len(sent) < params.min_sent or len(distinct) > params.max_distinct_share * len(sent):
            return Miss(f"{member!r}: {len(distinct)} distinct elements in {len(sent)} sent by successful calls, "
                        "free text rather than words from a set")
        return Match({"member": member, "record": ctx.refusal.ordinal, "status": ctx.refusal.status,
                      "elements": new})
    return Miss("no successful call's body differs from the refused one only in free text and in one array "
                "member holding an element no successful call sent")


def _new_elements(member: str, ctx: WriteValidatedValueContext) -> list[Any]:
    """The elements of the refused call's array member that no successful call sent in it (none
    when successful calls sent it as no array of texts or numbers)."""
    value = ctx.refusal.sent.get(member)
    arrays = [s[member] for s in ctx.successes if member in s]
    if not isinstance(value, list) or not arrays or not all(isinstance(a, list) and a and len(_elements(a)) == len(a)
                                                          for a in arrays):
        return []
    sent = [e for a in arrays for e in a]
    return [e for e in _elements(value) if not any(same_json(e, k) for k in sent)]


class ListedSetParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """As ``RefusalParams.statuses``."""
    min_listed: int = Field(ge=1)
    """How many distinct values successful calls sent the member with the answer must quote too:
    an answer listing the accepted values (an enumeration), not one echoing a name."""


@predicate("refusal_quotes_value_and_the_set", context="write-validated-value", params=ListedSetParams)
def refusal_quotes_value_and_the_set(ctx: WriteValidatedValueContext, params: ListedSetParams) -> Outcome:
    """The refused body sends the members of a successful call's body, and its answer quotes the
    value of exactly one member whose value no successful call sent beside min_listed or more of
    the values successful calls sent it with: it lists the values the member takes (an enum's
    error, "Input should be 'grey', 'purple', 'red'…"), whether or not those values repeat."""
    quoted = _quoted_new_values(ctx, params.statuses)
    if isinstance(quoted, Miss):
        return quoted
    if len(quoted) != 1:
        return Miss(f"the answer quotes the values of {len(quoted)} member(s) only the refused call sent, not one")
    member = quoted[0]
    listed = {str(s[member]) for s in ctx.successes if member in s and _quoted(s[member], ctx.refusal.answer)}
    if len(listed) < params.min_listed:
        return Miss(f"the answer quotes {len(listed)} value(s) successful calls sent {member!r} with, "
                    f"fewer than {params.min_listed}")
    return Match({"member": member, "record": ctx.refusal.ordinal, "status": ctx.refusal.status,
                  "listed": sorted(listed)})


@predicate("refusal_differs_in_one_member_by_shape", context="write-validated-value", params=RefusalParams)
def refusal_differs_in_one_member_by_shape(ctx: WriteValidatedValueContext, params: RefusalParams) -> Outcome:
    """The refused body differs from a successful call's body in one served member's value only (or
    sends it beside all of the success's members), and that value is an integer shaped unlike every
    integer of the member a success sent (a negative count, 4 digits where 13 were sent): the member
    is validated by shape, whatever its successful values. Strings are not judged so: a name may be
    refused for what its characters do not show (taken, reserved, too long)."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    for success in ctx.successes:
        differing = _differing(ctx.refusal.sent, success)
        if differing is not None and len(differing) == 1 and differing[0] in ctx.members:
            member = differing[0]
            sent = [s[member] for s in ctx.successes if member in s]
            value = ctx.refusal.sent[member]
            kind = (value_shape(value) or "").split(" ")[0]
            if kind != "integer":  # a name may be refused for what its characters do not show (taken, reserved)
                return Miss(f"{member!r}: only an integer is judged by shape, not {kind or 'this value'}")
            same_kind = [v for v in sent if (value_shape(v) or "").split(" ")[0] == kind] if kind else []
            if not same_kind:  # another JSON kind than the successes': the kind check refuses it already
                return Miss(f"{member!r}: no successful value is of the refused value's kind")
            if shaped_like(value, same_kind, value):
                return Miss(f"{member!r}: the refused value is shaped like a successful one")
            return Match({"member": member, "record": ctx.refusal.ordinal, "status": ctx.refusal.status,
                          "shape": value_shape(value)})
    return Miss("no successful call's body differs from the refused one in one served member only")


class TemplateParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """As ``RefusalParams.statuses``."""
    min_distinct: int = Field(ge=2)
    """How many distinct successful values of the member must keep to the layout (one value is
    every layout's example: its own characters say nothing of what varies)."""
    alphabets: list[str] = Field(min_length=1)
    """The alphabets a run of letters and digits is drawn from, narrowest first, each a regular
    expression character class body (``0-9a-f``)."""
    plain_alphabets: list[str] = Field(default_factory=list)
    """Alphabets of words and numbers: values whose every run is drawn from one of them are words
    from a vocabulary (``optional``, ``required``: an enumeration whose words may share a length,
    which a layout would wrongly accept any word of) or numbers written as text (``7.00``, whose
    count of digits varies by value: ``19.00`` is one too)."""


def _named(answer: str, keys: bool = True) -> set[str]:
    """The names an answer gives: a JSON answer's keys and text values at any depth (an error
    keyed by its field, ``{"color": ["Enter a valid value."]}``, or naming it, ``{"field":
    "color"}``), else the words of its text. ``keys=False``: its text values alone, which name
    what the error speaks of where its keys (``name``, ``message``) are the error's own (and no
    words of a text answer)."""
    try:
        parsed = json.loads(answer)
    except ValueError:
        return set(re.findall(r"\w+", answer)) if keys else set()
    return texts_in(parsed, names=keys)


def one_named_new_member(ctx: WriteValidatedValueContext) -> str | Miss:
    """The one served member the refusal's answer names (``_named``) whose value no successful call
    sent, or why there is not exactly one. Where its keys name several (an answer echoing the
    refused body, Prefect's ``request_body``), the one a text value names (``"loc": ["body",
    "name"]``) is the one it speaks of."""
    new = [m for m, v in ctx.refusal.sent.items() if m in ctx.members
           and not any(m in s and same_json(s[m], v) for s in ctx.successes)]
    named = sorted(set(new) & _named(ctx.refusal.answer))
    if len(named) > 1:
        named = sorted(set(named) & _named(ctx.refusal.answer, keys=False))
    if len(named) != 1:
        return Miss(f"the answer names {len(named)} member(s) whose value only the refused call sent, not one")
    return named[0]


@predicate("refusal_names_one_member_off_template", context="write-validated-value", params=TemplateParams)
def refusal_names_one_member_off_template(ctx: WriteValidatedValueContext, params: TemplateParams) -> Outcome:
    """The refusal's answer names exactly one served member whose value no successful call sent
    (``{"color": ["Enter a valid value."]}``), every value the type's successful creates and
    updates sent it keeps to one layout (``#`` and six hexadecimal characters), and the refused
    value does not (``red``): the application validates the member's layout, whatever else the
    refused body sent."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    member = one_named_new_member(ctx)
    if isinstance(member, Miss):
        return member
    values = [s[member] for s in ctx.successes + ctx.kin_successes if member in s]
    distinct = {dumps(v) for v in values}
    if len(distinct) < params.min_distinct:
        return Miss(f"{member!r}: {len(distinct)} distinct successful value(s), fewer than {params.min_distinct}")
    pattern = text_template(values, params.alphabets)
    if pattern is None:
        return Miss(f"{member!r}: the successful values keep to no one layout of text")
    runs = text_template_runs(pattern)
    if all(run in params.plain_alphabets for run in runs):
        return Miss(f"{member!r}: the successful values are words or numbers ({pattern}), not a layout")
    if keeps_template(ctx.refusal.sent[member], pattern):
        return Miss(f"{member!r}: the refused value keeps the successful values' layout {pattern}")
    return Match({"member": member, "record": ctx.refusal.ordinal, "status": ctx.refusal.status,
                  "pattern": pattern})


class LengthParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """As ``RefusalParams.statuses``."""
    words: list[str] = Field(min_length=1)
    """Words of which the answer must hold one (any letter case, whole words): a refusal that
    speaks of a length ('shorter than the max length', 'no more than 8 characters'). A longer
    refused text refused for something else (a taken name, a character the application refuses)
    bounds nothing."""


@predicate("refusal_names_one_member_too_long", context="write-validated-value", params=LengthParams)
def refusal_names_one_member_too_long(ctx: WriteValidatedValueContext, params: LengthParams) -> Outcome:
    """The refusal's answer names one served member whose value only the refused call sent, a text
    longer than every text the type's successful creates and updates sent it (a color of 34
    characters where orange and cyan were taken, answered 'This value must be shorter than the max
    length of 16 characters.'): the application bounds its length somewhere between. Where the
    answer's keys and values name two such members, the one a text value names (``"field":
    "color"``) is the one it speaks of."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value")
    spoken = {word.lower() for word in re.findall(r"[^\W\d_]+", ctx.refusal.answer)}
    if not spoken & {word.lower() for word in params.words}:
        return Miss(f"the answer speaks of no length (none of {', '.join(params.words)})")
    longest: dict[str, int] = {}
    for member, value in ctx.refusal.sent.items():
        texts = [s[member] for s in ctx.successes + ctx.kin_successes
                 if member in s and isinstance(s[member], str)]
        if member in ctx.members and isinstance(value, str) and texts and len(value) > max(map(len, texts)) \
                and not any(member in s and same_json(s[member], value) for s in ctx.successes):
            longest[member] = max(map(len, texts))
    named = sorted(set(longest) & _named(ctx.refusal.answer))
    if len(named) > 1:
        named = sorted(set(named) & _named(ctx.refusal.answer, keys=False))
    if len(named) != 1:
        return Miss(f"the answer names {len(named)} member(s) whose text only the refused call sent, longer than "
                    "every successful one, not one")
    member = named[0]
    return Match({"member": member, "record": ctx.refusal.ordinal, "status": ctx.refusal.status,
                  "max_length": longest[member]})


class IdValueParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The statuses refusing a body's value, or the entity it names for the caller (403: another
    caller's entity named by its id)."""
    max_distinct_share: float = Field(gt=0, le=1)
    """As ``RefusalParams.max_distinct_share``: a member whose successful values are this distinct
    is free text (a name, a description), refused for itself rather than as an id."""
    min_sent: int = Field(ge=1)
    """As ``RefusalParams.min_sent``."""


def _id_like(value: Any) -> bool:
    """A positive integer, or an array of them with an element: an id or ids of entities."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value > 0
    return isinstance(value, list) and bool(value) and all(_id_like(e) and not isinstance(e, list) for e in value)


def _answer_keys(answer: str) -> set[str]:
    """The members a JSON object answer keys its errors by ({"day": ["Invalid pk"]})."""
    try:
        parsed = json.loads(answer)
    except ValueError:
        return set()
    return set(parsed) if isinstance(parsed, dict) else set()


@predicate("refusal_sends_new_ids", context="write-validated-value", params=IdValueParams)
def refusal_sends_new_ids(ctx: WriteValidatedValueContext, params: IdValueParams) -> Outcome:
    """The refused body sends every member of a successful call's body, and the members it sends a
    value of that no successful call sent are free text (strings each success sends its own) or ids
    (positive integers or arrays of them, as every successful value of that member is), one of the
    id members repeating among the successes (ids from a set) or keying the refusal's error: the
    application refused an id it does not take (no such entity, another caller's), which ids it
    takes the capture cannot show beyond those it accepted. A number sent anew that varies among
    the successes (an offset, an amount) and keys no error is no id; an array of them may be."""
    if ctx.refusal.status not in params.statuses:
        return Miss(f"answered {ctx.refusal.status}, not a refusal of a value or of a named entity")
    free = RefusalParams(statuses=params.statuses, max_distinct_share=params.max_distinct_share,
                         min_sent=params.min_sent)
    keyed = _answer_keys(ctx.refusal.answer)
    for success in ctx.successes:
        differing = _differing(ctx.refusal.sent, success)
        if differing is None:
            continue
        ids = [m for m in differing if m in ctx.members + ctx.references and _id_like(ctx.refusal.sent[m])
               and any(m in s for s in ctx.successes) and all(_id_like(s[m]) for s in ctx.successes if m in s)]
        texts = [m for m in differing if m not in ids and m in ctx.members and isinstance(ctx.refusal.sent[m], str)
                 and _free_text(m, ctx, free) is not None]
        shown = [m for m in ids if m in keyed or _free_text(m, ctx, free) is None]
        # a number sent anew that neither repeats nor keys the error may be an offset or an amount
        varying = [m for m in ids if m not in shown and not isinstance(ctx.refusal.sent[m], list)]
        if shown and not varying and set(ids) | set(texts) == set(differing):
            return Match({"member": ids[0], "members": ids, "record": ctx.refusal.ordinal,
                          "status": ctx.refusal.status})
    return Miss("no successful call's body differs from the refused one only in ids and free text, one of the ids "
                "repeating among the successes or keying the answer's error")
