"""Predicates on the texts a field that a learned equality filter matches is shown holding
(context ``query-vocabulary``, table ``view-query-vocabularies``): a field whose values come from a
closed list (a state, a status) is one the application may validate a filter value against,
refusing another word (Ironic answers 400 'Provision state "flying" is not valid' to
``/v1/nodes?provision_state=flying``), where the model would list nothing.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("query-vocabulary")
class QueryVocabularyContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    """The field the filter matches (its last name, as answers spell it)."""
    values: dict[str, int] = Field(default_factory=dict)
    """Each text the capture's successful answers show the field holding, or a successful filtered
    read sent, with how many times."""


class WordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """The last word of the field's name (split at ``_``, ``-`` and lower-to-upper case) is one of these."""


@predicate("query_field_named_as_vocabulary", context="query-vocabulary", params=WordsParams)
def query_field_named_as_vocabulary(ctx: QueryVocabularyContext, params: WordsParams) -> Outcome:
    """The field's name ends with a word naming a value from a closed list."""
    words = [w.lower() for w in re.split(r"[-_]|(?<=[a-z0-9])(?=[A-Z])", ctx.field) if w]
    if words and words[-1] in params.words:
        return Match({"field": ctx.field, "word": words[-1]})
    return Miss(f"{ctx.field!r} does not end with one of {params.words}")


class VocabularyParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    pattern: str
    """Every value matches this whole."""
    min_distinct: int = Field(ge=1)
    """At least this many distinct values (one value alone shows no list)."""
    max_distinct: int = Field(ge=1)
    min_repeats: int = Field(ge=1)
    """At least one value is shown this many times or more."""


@predicate("query_field_values_of_a_vocabulary", context="query-vocabulary", params=VocabularyParams)
def query_field_values_of_a_vocabulary(ctx: QueryVocabularyContext, params: VocabularyParams) -> Outcome:
    """Every text shown is a word of the pattern, from ``min_distinct`` to ``max_distinct`` of them, one repeated."""
    if not ctx.values:
        return Miss("no text shown in the field")
    odd = sorted(v for v in ctx.values if not re.fullmatch(params.pattern, v))
    if odd:
        return Miss(f"{odd[0]!r} is not a word of {params.pattern}")
    if len(ctx.values) < params.min_distinct:
        return Miss(f"{len(ctx.values)} distinct value{'s' if len(ctx.values) != 1 else ''}, fewer than {params.min_distinct}")
    if len(ctx.values) > params.max_distinct:
        return Miss(f"{len(ctx.values)} distinct values, more than {params.max_distinct}")
    if max(ctx.values.values()) < params.min_repeats:
        return Miss(f"no value is shown {params.min_repeats} times or more")
    return Match({"values": sorted(ctx.values)})
