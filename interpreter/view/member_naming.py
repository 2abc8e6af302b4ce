"""A list line's query less the parameters that name the members its entities show
(``view-member-naming-queries``): ``?attrs=display_name&attrs=notes`` shapes every entity and
selects none, so whether the line lists the whole collection is judged on the rest (paging, or
nothing)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from capenv.interpreter.predicates.member_naming_queries import MemberNamingContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "view-member-naming-queries"

Pairs = tuple[tuple[str, str], ...]


def without_member_naming(query: Pairs, listed: list[dict[str, Any]], ruleset: RuleSet) -> Pairs:
    """``query`` without the parameters the table finds naming the listed entities' members."""
    if not query or TABLE not in ruleset.tables:
        return query
    values: dict[str, list[str]] = {}
    for name, value in query:
        values.setdefault(name, []).append(unquote_plus(value))
    naming = set()
    for name, named in values.items():
        context = MemberNamingContext(name=unquote_plus(name), values=tuple(named), listed=tuple(listed))
        if evaluate(ruleset, TABLE, context, subject=f"query {unquote_plus(name)!r}").yields.get("names_members"):
            naming.add(name)
    return tuple((name, value) for name, value in query if name not in naming)
