"""What the predicates on a header every successful call of a tool sent share (the ``version-header``
and ``guard-value`` contexts): its name's words, and whether every call sent it with few values."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome


class WordsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    words: list[str] = Field(min_length=1)
    """Words (lower case) of which the header's name, split at ``-`` and ``_``, must hold one."""


class MaxValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_values: int = Field(ge=1)


def name_holds_words(name: str, params: WordsParams) -> Outcome:
    """The header's name holds one of the words."""
    found = sorted({w for w in re.split(r"[-_]", name) if w} & set(params.words))
    if found:
        return Match({"name": name, "words": found})
    return Miss(f"{name!r} holds none of the words {params.words}")


def sent_on_every_call(name: str, calls: int, values: dict[str, list[int]], params: MaxValuesParams) -> Outcome:
    """Every successful call sent the header, with at most ``max_values`` different values."""
    carried = len({o for records in values.values() for o in records})
    if not calls or carried < calls:
        return Miss(f"{carried} of {calls} successful calls sent {name}")
    if len(values) > params.max_values:
        return Miss(f"{len(values)} values sent, more than {params.max_values}")
    return Match({"values": sorted(values)})
