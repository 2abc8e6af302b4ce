"""Update-change predicates for values derived from what the call sent or the entity held: the
slug of an echoed member, a modified…by stamp taken from its created…by counterpart, and text
derived from a sent member the entity stores nowhere."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .update_change_context import ABSENT, ChangeParams, UpdateChangeContext
from .update_values import has_markup, holds, name_words, plain_text, same_value, slugify


class StampNameParams(ChangeParams):
    change_words: list[str] = Field(min_length=1)
    """First words of a stamp field's name (modified, updated, …), before a later ``by``."""
    leading_words: list[str] = Field(default_factory=list)
    """Words that may come first (last: lastModifiedBy)."""
    by_word: str = "by"
    created_word: str = "created"
    """The word that names the counterpart (modifiedByName -> createdByName)."""


class TextParams(ChangeParams):
    min_length: int = Field(default=8, ge=1)


@predicate("changed_to_slug_of_echo", context="update-change")
def changed_to_slug_of_echo(ctx: UpdateChangeContext, params: BaseModel) -> Outcome:
    """The slug of a string member the call sent and the entity stores as sent."""
    if not isinstance(ctx.new, str) or not ctx.new:
        return Miss("not a string")
    for member, value in ctx.body.items():
        if (member != ctx.field and isinstance(value, str) and member in ctx.after
                and same_value(ctx.after[member], value) and slugify(value) == ctx.new):
            return Match({"params": {"member": member}})
    return Miss("the slug of no echoed string member")


def stamp_name(name: str, params: StampNameParams) -> tuple[str, str] | None:
    """(stem, counterpart) of a stamp field's name: ``modifiedByName`` -> (``modifiedby``,
    ``createdByName``); ``last_edited_by`` -> (``lasteditedby``, ``created_by``)."""
    words = name_words(name)
    first = 1 if words and words[0][2] in {w.lower() for w in params.leading_words} else 0
    if len(words) <= first + 1 or words[first][2] not in {w.lower() for w in params.change_words}:
        return None
    by = next((w for w in words[first + 1:] if w[2] == params.by_word.lower()), None)
    if by is None:
        return None
    start = words[0][0]
    created = params.created_word.capitalize() if name[start].isupper() else params.created_word
    stem = "".join(c for c in name[:by[1]].lower() if c.isalnum())
    return stem, name[:start] + created + name[words[first][1]:]


@predicate("changed_to_stamp", context="update-change", params=StampNameParams)
def changed_to_stamp(ctx: UpdateChangeContext, params: StampNameParams) -> Outcome:
    """The acting user on a modified…by field: the value the entity held under its created…by
    counterpart, the call sending nothing naming the same thing; a sibling …by field naming the
    same user takes its own counterpart's value, even where the entity lacked it."""
    named = stamp_name(ctx.field, params)
    if named is None:
        return Miss("not named modified…by, updated…by, edited…by or changed…by")
    stem, counterpart = named
    for member in ctx.body:
        if "".join(c for c in member.lower() if c.isalnum()).startswith(stem):
            return Miss(f"the call sent {member}, naming the same thing")
    before = ctx.before or {}
    if counterpart in before and same_value(before[counterpart], ctx.new):
        return Match({"params": {"from_field": counterpart}})
    held = ctx.after.get(counterpart, before.get(counterpart, ABSENT))
    for sibling, value in ctx.after.items():
        sibling_named = stamp_name(sibling, params) if sibling != ctx.field else None
        if (sibling_named and sibling_named[0] == stem and sibling_named[1] in before
                and same_value(before[sibling_named[1]], value) and held is not ABSENT
                and same_value(held, ctx.new)):
            return Match({"params": {"from_field": counterpart}, "beside": sibling})
    return Miss(f"the entity held another value under {counterpart}")


def members_stored_nowhere(body: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Body members whose value no field of the observed entity holds."""
    return [m for m, v in body.items() if not any(holds(stored, v) for stored in after.values())]


def derived_text_matches(source: str, value: Any, min_length: int) -> str | None:
    """None when ``value`` shows ``source``'s text, markup aside; else why not."""
    text = plain_text(source)
    if len(text) < min_length:
        return f"the sent text has {len(text)} characters, fewer than {min_length}"
    if not isinstance(value, str) or plain_text(value) != text:
        return "does not show the sent member's text"
    return None


@predicate("changed_to_derived_text", context="update-change", params=TextParams)
def changed_to_derived_text(ctx: UpdateChangeContext, params: TextParams) -> Outcome:
    """The call sent exactly one member the entity stores nowhere, and the field shows that
    member's text, markup aside (Ghost's plaintext from html)."""
    unstored = members_stored_nowhere(ctx.body, ctx.after)
    if len(unstored) != 1:
        return Miss(f"the call sent {len(unstored)} members the entity stores nowhere, not one")
    member = unstored[0]
    source = ctx.body[member]
    if not isinstance(source, str):
        return Miss(f"{member} is not a string")
    problem = derived_text_matches(source, ctx.new, params.min_length)
    if problem:
        return Miss(problem)
    # The member is accepted only as recorded, so the text is fixed: serving stores the recorded
    # value, and only on an entity holding what the recorded call found there.
    held = ctx.old is not ABSENT
    return Match({"params": {"member": member, "markup": "html" if has_markup(source) else "none",
                             "requires_from": held, "from_value": ctx.old if held else None, "value": ctx.new}})
