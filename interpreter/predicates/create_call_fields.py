"""Field predicates that read the call: echo, copy, path, slug (context ``create-field``).

These come first in ``create-fields`` so that a value the client sent, an identity
included, is explained by the call rather than taken for one the application generated.
Each match carries ``op_params``: the serving op's parameters (interpreter/bundle/op_params.py).
"""

from __future__ import annotations

from typing import Any, Literal
from urllib.parse import unquote

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .create_contexts import CreateFieldContext
from .create_values import pointers_breadth_first, same_json, slugify


@predicate("create_field_echoes_member", context="create-field")
def create_field_echoes_member(ctx: CreateFieldContext, params: BaseModel) -> Outcome:
    """A body member of the field's own name holds an equal value."""
    if ctx.field not in ctx.body:
        return Miss(f"the body sent no member {ctx.field!r}")
    if not same_json(ctx.body[ctx.field], ctx.value):
        return Miss(f"the body sent {ctx.field!r} with another value")
    return Match({"member": ctx.field, "op_params": {"member": ctx.field}})


@predicate("create_field_echoes_member_sorted", context="create-field")
def create_field_echoes_member_sorted(ctx: CreateFieldContext, params: BaseModel) -> Outcome:
    """A string array the answer shows sorted, where a body member of the field's own name sent
    the same strings in another order: the application sorts what it was sent."""
    sent = ctx.body.get(ctx.field)
    if not _string_array(ctx.value) or not _string_array(sent):
        return Miss(f"the body sent no string array {ctx.field!r}, or the entity holds none")
    if sent == ctx.value:
        return Miss("stored in the order sent")
    if sorted(sent) != ctx.value:
        return Miss("the stored array is not the sent strings sorted")
    return Match({"member": ctx.field, "op_params": {"member": ctx.field, "sorted": True}})


class LetterCaseParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    cases: list[Literal["lower", "upper"]] = Field(min_length=1)
    """The foldings tried, in order."""


@predicate("create_field_echoes_member_case_folded", context="create-field", params=LetterCaseParams)
def create_field_echoes_member_case_folded(ctx: CreateFieldContext, params: LetterCaseParams) -> Outcome:
    """A body member of the field's own name, a text or texts, stored in one letter case: every
    recorded successful call's answer shows the field as its sent member folded, and one sent it in
    another case (else an echo explains it). Never the identity, which keys what serving looks up."""
    if ctx.field == ctx.id_field:
        return Miss("the identity is keyed as sent")
    calls = [(ctx.body, ctx.value)] + [(body, None if entity is None else entity.get(ctx.field, _UNSEEN))
                                        for body, entity in ctx.answered_calls]
    if any(ctx.field not in body or not _texts(body[ctx.field]) for body, _ in calls):
        return Miss(f"a successful call sent no text member {ctx.field!r}")
    if any(value is None or value is _UNSEEN for _, value in calls):
        return Miss("a successful call's answer does not show the field")
    for case in params.cases:
        if all(_folded(body[ctx.field], case) == value for body, value in calls):
            if all(_folded(body[ctx.field], case) == body[ctx.field] for body, _ in calls):
                return Miss(f"every call sent {ctx.field!r} already in {case} case: an echo")
            return Match({"member": ctx.field, "letter_case": case,
                          "calls": len(calls), "op_params": {"member": ctx.field, "letter_case": case}})
    return Miss(f"some call's answer shows {ctx.field!r} otherwise than its sent text folded to {' or '.join(params.cases)} case")


_UNSEEN = object()


def _texts(value: object) -> bool:
    return isinstance(value, str) or _string_array(value)


def _folded(value: Any, case: str) -> Any:
    fold = str.lower if case == "lower" else str.upper
    return fold(value) if isinstance(value, str) else [fold(item) for item in value]


def _string_array(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


class CopyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_length: int = Field(ge=1)
    """Shorter strings recur by chance too easily to say where a value came from."""


@predicate("create_field_copies_body_string", context="create-field", params=CopyParams)
def create_field_copies_body_string(ctx: CreateFieldContext, params: CopyParams) -> Outcome:
    """The value is a string of min_length or more characters found in the body; the shallowest pointer wins."""
    if not isinstance(ctx.value, str):
        return Miss("not a string")
    if len(ctx.value) < params.min_length:
        return Miss(f"{len(ctx.value)} characters, fewer than {params.min_length}")
    for pointer, found in pointers_breadth_first(ctx.body):
        if isinstance(found, str) and found == ctx.value:
            return Match({"pointer": pointer, "op_params": {"pointer": pointer}})
    return Miss("no body string holds it")


@predicate("create_field_is_path_value", context="create-field")
def create_field_is_path_value(ctx: CreateFieldContext, params: BaseModel) -> Outcome:
    """The value is a string equal to a path parameter of the call, percent-decoded once."""
    if not isinstance(ctx.value, str):
        return Miss("not a string")
    if not ctx.path_args:
        return Miss("the call's path has no parameter")
    for name, raw in ctx.path_args.items():
        if unquote(raw) == ctx.value:
            return Match({"param": name, "recorded": raw, "op_params": {"param": name}})
    return Miss("equals no decoded path parameter")


class SlugParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kept: str
    """The characters a slug keeps, as a regular-expression class body (``a-z0-9``)."""
    min_copy_length: int = Field(default=1, ge=1)
    """A sent value that is its own slug shows a copy as well as a slug: below this length it is no
    evidence of either (a short word recurs by chance, and a copy under another name this short is
    not taken either)."""
    taken_suffix: str | None = None
    """How the application makes a taken slug unique, ``{}`` standing for a number counting from
    ``taken_first`` (``-{}``: call-ana-2): taken only when a recorded successful call sent a member
    whose slug another entity held then, so the gate's replay of that call proves it."""
    taken_first: int = Field(default=2, ge=0)


@predicate("create_field_slugs_member", context="create-field", params=SlugParams)
def create_field_slugs_member(ctx: CreateFieldContext, params: SlugParams) -> Outcome:
    """The value is the slug of a body string member: lower case, runs of other characters joined by -."""
    if not isinstance(ctx.value, str) or not ctx.value:
        return Miss("not a non-empty string")
    for member, sent in ctx.body.items():
        if isinstance(sent, str) and slugify(sent, params.kept) == ctx.value:
            if sent == ctx.value and len(sent) < params.min_copy_length:
                return Miss(f"{member!r} sent {sent!r}, already its own slug and {len(sent)} characters, fewer than "
                            f"{params.min_copy_length}: a copy or a slug alike, and too short to show either")
            clash = _recorded_clash(ctx, member, params) if params.taken_suffix else None
            if clash is None:
                return Match({"member": member, "op_params": {"member": member}})
            return Match({"member": member, "taken_slug": clash, "op_params": {
                "member": member, "taken_suffix": params.taken_suffix, "taken_first": params.taken_first}})
    return Miss("the slug of no body string member")


def _recorded_clash(ctx: CreateFieldContext, member: str, params: SlugParams) -> str | None:
    """The slug a later successful call sent under ``member`` that another entity of the type held
    at the field when it ran (a title taken already): what the application made of it is recorded."""
    for body, held in ctx.later_successes:
        sent = body.get(member)
        if isinstance(sent, str) and (slug := slugify(sent, params.kept)) in {
                e.get(ctx.field) for e in held if isinstance(e.get(ctx.field), str)}:
            return slug
    return None


class NestedSentParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_members: int = Field(ge=1)
    """How many sent members the object must repeat under their own names."""
    min_length: int = Field(ge=1)
    """A sent string counts from this length: a short word recurs by chance."""


@predicate("create_field_nests_sent_members", context="create-field", params=NestedSentParams)
def create_field_nests_sent_members(ctx: CreateFieldContext, params: NestedSentParams) -> Outcome:
    """An object repeating min_members or more strings the call sent, each under the member's own
    name: the body stored again as the application shaped it (FlexGet's entry, the sent title
    and URL beside an original_title it added), which the call's values fill, never a constant."""
    if not isinstance(ctx.value, dict):
        return Miss("not an object")
    repeated = sorted(name for name, sent in ctx.body.items()
                      if isinstance(sent, str) and len(sent) >= params.min_length
                      and name in ctx.value and same_json(ctx.value[name], sent))
    if len(repeated) < params.min_members:
        return Miss(f"repeats {len(repeated)} sent string(s) under their own names, fewer than {params.min_members}")
    return Match({"members": repeated})
