"""Which list lines list their whole collection (membership ``all``).

A line lists the whole collection when it has no query, or only pages its list (by the
``view-query-params`` table) at a proved zero start with fewer members than the page.
Positive page values prove nothing: their base is unknown. A parameter holding a structure of
named members (``view-structured-queries``: Flask-AppBuilder's ``q=(page:0,page_size:2)``) is read
by its members.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.structured_queries import members
from capenv.interpreter.predicates.query_candidates import QueryCandidateContext
from capenv.interpreter.predicates.view_shapes import QueryParamContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "view-query-params"
STRUCTURED = "view-structured-queries"


@dataclass
class PagingRoles:
    ruleset: RuleSet
    cache: dict[str, str] = field(default_factory=dict)
    containers: dict[tuple[str, str], tuple[tuple[str, str], ...] | None] = field(default_factory=dict)

    def read(self, query: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        """The query with each parameter ``view-structured-queries`` reads as a container replaced
        by its members (named as themselves: ``page_size`` of ``q=(page_size:2)``)."""
        result: list[tuple[str, str]] = []
        for name, value in query:
            key = (unquote_plus(name), unquote_plus(value))
            if key not in self.containers:
                self.containers[key] = self._members(*key)
            split = self.containers[key]
            result.extend(split if split is not None else [(name, value)])
        return tuple(result)

    def _members(self, name: str, value: str) -> tuple[tuple[str, str], ...] | None:
        if STRUCTURED not in self.ruleset.tables:
            return None
        decision = evaluate(self.ruleset, STRUCTURED, QueryCandidateContext(param=name, value=value),
                            subject=f"query {name!r}")
        found = members(value, str(decision.yields["syntax"])) if decision.matched else None
        return tuple((member, text) for member, text, _ in found) if found is not None else None

    def role(self, name: str) -> str:
        """The parameter's role, its name compared decoded (``pagination%5Bpage%5D`` is ``pagination[page]``)."""
        if name not in self.cache:
            decision = evaluate(self.ruleset, TABLE, QueryParamContext(name=unquote_plus(name)),
                                subject=f"query {unquote_plus(name)!r}")
            self.cache[name] = str(decision.yields.get("role", "other"))
        return self.cache[name]

    def only_pages(self, query: tuple[tuple[str, str], ...]) -> bool:
        return all(self.role(name) != "other" for name, _ in self.read(query))

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
        roles = {self.role(name): value for name, value in self.read(query) if self.role(name) != "other"}
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
