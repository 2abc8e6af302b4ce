"""Predicates on an item view's reads of an id in another letter case than the entity it answered.

Context ``letter-case-read``: an item view's type and its recorded reads whose path value spells an
identity another way only by letter case: those answered successfully with that entity (the path's
``SENSOR.KITCHEN`` answering the entity ``sensor.kitchen``), and those answered with an absence while
the type's reads answered the identity otherwise spelled. An application that folds letter case (a
DNS name, an entity id it stores lower-cased) answers every spelling with the entity; one that does
not answers the absence. Only the capture can tell which.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class CaseRead(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ordinal: int
    path_value: str
    identity: str
    """The identity of the entity the read answered (or, for an absence, the one its spelling folds to)."""


@context_model("letter-case-read")
class LetterCaseReadContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type_name: str
    answered: list[CaseRead] = Field(default_factory=list)
    """Successful reads whose path value differs from the answered entity's identity by letter case only."""
    refused: list[CaseRead] = Field(default_factory=list)
    """Reads answered with an absence for a path value that differs only by letter case from an
    identity the type's reads answered."""


class MinReadsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    min_reads: int = Field(ge=1)


@predicate("read_answered_other_letter_case", context="letter-case-read", params=MinReadsParams)
def read_answered_other_letter_case(ctx: LetterCaseReadContext, params: MinReadsParams) -> Outcome:
    """At least ``min_reads`` successful reads answered an entity at a path spelling its identity in
    another letter case."""
    if len(ctx.answered) < params.min_reads:
        return Miss(f"{len(ctx.answered)} read(s) of {ctx.type_name} answered an entity its path spelled in "
                    f"another letter case, fewer than {params.min_reads}")
    return Match({"records": [r.ordinal for r in ctx.answered],
                  "spellings": [[r.path_value, r.identity] for r in ctx.answered]})


@predicate("read_absent_in_other_letter_case", context="letter-case-read")
def read_absent_in_other_letter_case(ctx: LetterCaseReadContext, params: BaseModel) -> Outcome:
    """A read answered an absence for an identity the type's reads answered, spelled in another letter case."""
    if not ctx.refused:
        return Miss(f"no read of {ctx.type_name} answered an absence for an identity spelled in another letter case")
    return Match({"records": [r.ordinal for r in ctx.refused],
                  "spellings": [[r.path_value, r.identity] for r in ctx.refused]})
