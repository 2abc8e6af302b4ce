"""Predicates on the shapes a list read tool's answers take (``view-list-shapes``).

Context ``list-shapes``: per place the answers list their members at (a JSON pointer), how many
calls without a query and with one answered so.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


class ListShapeGroup(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    where: str
    plain_calls: int = 0
    query_calls: int = 0


@context_model("list-shapes")
class ListShapesContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    shapes: tuple[ListShapeGroup, ...] = ()


@predicate("list_shape_of_plain_calls", context="list-shapes")
def list_shape_of_plain_calls(ctx: ListShapesContext, params: BaseModel) -> Outcome:
    """Two or more shapes, and exactly one answered calls without a query."""
    if len(ctx.shapes) < 2:
        return Miss("one shape")
    plain = [s for s in ctx.shapes if s.plain_calls]
    if len(plain) != 1:
        return Miss(f"calls without a query answered in {len(plain)} shapes")
    return Match({"where": plain[0].where})
