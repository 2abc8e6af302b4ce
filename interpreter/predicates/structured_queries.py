"""Predicates reading a query value that holds a structure: a container of named members
(Flask-AppBuilder's rison ``q=(order_column:name,page:0)``, table ``view-structured-queries``), and
a member holding a list of column filters (``filters:!((col:name,opr:ct,value:ent))``, read as
compact JSON text, table ``view-learned-queries``).

Context ``query-candidate`` (names and values decoded). Both are proposals: a container's members
are kept only as each is learned, by reproducing the recorded answers.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.filter_expressions import parse_column_objects
from capenv.interpreter.bundle.structured_queries import SYNTAXES, members
from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, predicate

from .query_candidates import QueryCandidateContext, unfit_field


class StructuredParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    syntax: str
    """The spelling of the value's object (``rison``)."""


@predicate("query_value_structured", context="query-candidate", params=StructuredParams)
def query_value_structured(ctx: QueryCandidateContext, params: StructuredParams) -> Outcome:
    """The value is a non-empty object of named members in the syntax (``(order_column:name,page:0)``
    in rison), each member a text, number, boolean, null, list or object."""
    if params.syntax not in SYNTAXES:
        return Miss(f"{params.syntax!r} is no syntax read ({', '.join(SYNTAXES)})")
    found = members(ctx.value, params.syntax)
    if found is None:
        return Miss(f"{ctx.value!r} is no {params.syntax} object of named members")
    return Match({"syntax": params.syntax, "members": [name for name, _, _ in found]})


class ColumnFilterParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    keys: list[str] = Field(min_length=3, max_length=3)
    """The members each filter object names its field, operator and literal by, in that order."""
    operators: dict[str, str] = Field(min_length=1)
    """Spelled operator -> ==, !=, >, >=, <, <=, icontains, !icontains, istartswith, iendswith."""


@predicate("query_value_column_filters", context="query-candidate", params=ColumnFilterParams)
def query_value_column_filters(ctx: QueryCandidateContext, params: ColumnFilterParams) -> Outcome:
    """The value is a JSON list of filter objects, each naming a field of the members, a spelled
    operator and a literal by exactly the three keys (``[{"col": "name", "opr": "ct", "value": "ent"}]``),
    none of them a field the members hold as an object or array."""
    clauses = parse_column_objects(ctx.value, params.operators, tuple(params.keys))
    if clauses is None:
        return Miss(f"{ctx.value!r} is no list of {params.keys} filter objects with a spelled operator")
    unfit = unfit_field(clauses, ctx)
    if unfit is not None:
        return Miss(unfit)
    return Match({"operators": params.operators, "clause_keys": list(params.keys), "clauses": len(clauses)})
