"""Predicates on one of several candidate meanings of a list line's query parameter that reproduce
its recordings equally well (context ``learned-query-tie``, table ``view-learned-query-ties``):
whether the line should keep it before the others. Without a preference the
``view-learned-queries`` table's order decides (``sort=title`` alone takes its first sort rule).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, NoParams, Outcome, context_model, predicate


@context_model("learned-query-tie")
class LearnedQueryTieContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    param: str
    """The query parameter's name, decoded (``sort``)."""
    rule_id: str
    """The ``view-learned-queries`` rule of the candidate meaning (``learned-query.sort``)."""
    elsewhere: list[str] = Field(default_factory=list)
    """The rules the same parameter name was learned by on the capture's other lists."""


@predicate("query_rule_learned_on_another_list", context="learned-query-tie", params=NoParams)
def query_rule_learned_on_another_list(ctx: LearnedQueryTieContext, params: NoParams) -> Outcome:
    """The candidate's rule is one the same parameter name was learned by on another list of the
    capture."""
    if not ctx.elsewhere:
        return Miss(f"no other list learned {ctx.param!r}")
    if ctx.rule_id in ctx.elsewhere:
        return Match({"param": ctx.param, "rule": ctx.rule_id, "elsewhere": ctx.elsewhere})
    return Miss(f"other lists learned {ctx.param!r} by {sorted(ctx.elsewhere)}, not {ctx.rule_id}")
