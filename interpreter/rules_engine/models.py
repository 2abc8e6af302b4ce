"""The schema of a rule table (pydantic models with unknown keys refused).

A table file::

    table: manifest-segments          # the table's name, used by the interpreter
    summary: One line on what the table decides.
    context: segment                  # the registered context model its predicates read
    evaluation: first-match           # or all-of (every rule is tried; vetoes, lists of reasons)
    yields_required: [kind]           # keys every rule's ``yields`` must carry
    default: {kind: literal}          # yields when no rule matches (first-match only)
    rules:
      - id: segment.integer
        summary: A run of decimal digits.
        when: digits_only             # one predicate, with ``params``, or a list of calls
        params: {min_length: 1}
        unless: [{predicate: ..., params: {...}}]   # none of these may match
        yields: {kind: integer}
        serve: sequence               # optional serving op
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

RULE_ID_PATTERN = r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9_-]*)+$"


class PredicateCall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    predicate: str
    params: dict[str, Any] = Field(default_factory=dict)


class RuleModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=RULE_ID_PATTERN)
    summary: str
    when: str | list[PredicateCall]
    params: dict[str, Any] = Field(default_factory=dict)
    unless: list[PredicateCall] = Field(default_factory=list)
    yields: dict[str, Any] = Field(default_factory=dict)
    serve: str | None = None
    redirect_from: list[str] = Field(default_factory=list)
    """Old ids of this rule; they resolve to it (ids are never reused)."""

    @field_validator("summary")
    @classmethod
    def _one_line(cls, value: str) -> str:
        value = value.strip()
        if not value or "\n" in value:
            raise ValueError("summary must be one non-empty line")
        return value


class TableModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    summary: str
    context: str
    evaluation: Literal["first-match", "all-of"] = "first-match"
    yields_required: list[str] = Field(default_factory=list)
    default: dict[str, Any] | None = None
    rules: list[RuleModel] = Field(min_length=1)


class SettingsModel(BaseModel):
    """A settings file beside the tables (budgets, limits): ``settings: NAME`` plus values."""

    model_config = ConfigDict(extra="forbid")

    settings: str
    summary: str
    values: dict[str, Any]


class FixtureCase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    context: dict[str, Any]
    evidence: dict[str, Any] | None = None
    """For a match case: members the match's evidence must hold."""
    reason_contains: str | None = None
    """For a no-match case: a phrase the miss reason must hold."""


class TableCase(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    context: dict[str, Any]
    expect_rule: str | None
    """The rule the whole table decides by, or null for no match (the default)."""


class FixtureFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    table: str
    cases: dict[str, dict[str, FixtureCase]] = Field(default_factory=dict)
    """rule id -> case name (``match_…`` or ``no_match_…``) -> case."""
    table_cases: list[TableCase] = Field(default_factory=list)
