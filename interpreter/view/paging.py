"""Which list lines list their whole collection (membership ``all``).

A line lists the whole collection when it has no query, or only pages its list (by the
``view-query-params`` table) at a proved zero start with fewer members than the page.
Positive page values prove nothing: their base is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote_plus

from capenv.interpreter.predicates.view_shapes import QueryParamContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "view-query-params"


@dataclass
class PagingRoles:
    ruleset: RuleSet
    cache: dict[str, str] = field(default_factory=dict)

    def role(self, name: str) -> str:
        """The parameter's role, its name compared decoded (``pagination%5Bpage%5D`` is ``pagination[page]``)."""
        if name not in self.cache:
            decision = evaluate(self.ruleset, TABLE, QueryParamContext(name=unquote_plus(name)),
                                subject=f"query {unquote_plus(name)!r}")
            self.cache[name] = str(decision.yields.get("role", "other"))
        return self.cache[name]

    def only_pages(self, query: tuple[tuple[str, str], ...]) -> bool:
        return all(self.role(name) != "other" for name, _ in query)

    def whole(self, query: tuple[tuple[str, str], ...], listed: int) -> bool:
        """The line's recording listed the whole collection."""
        if not query:
            return True
        if not self.only_pages(query):
            return False
        return self.uncut(query, listed)

    def uncut(self, query: tuple[tuple[str, str], ...], listed: int) -> bool:
        """The recording listed everything its query selects: no page was cut from it (its other
        parameters, filters say, may select part of the collection)."""
        roles = {self.role(name): value for name, value in query if self.role(name) != "other"}
        if not roles:
            return True
        if "page" in roles:
            return False
        start = _integer(roles.get("offset", "0"))
        if start != 0:
            return False
        size = _integer(roles["limit"]) if "limit" in roles else None
        if "end" in roles:
            end = _integer(roles["end"])
            size = end if size is None or (end is not None and end < size) else size
        if size is None:
            return False
        return listed < size or size == 0 and listed > 0


def _integer(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None
