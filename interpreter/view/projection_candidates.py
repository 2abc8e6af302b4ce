"""Which recorded reads were sent with a projection candidate (``view-projection-queries``): a
parameter that may name the members the answer holds (``fields=title``). Such an answer may leave
out the identity and most members, so it never decides a read tool's shape nor which members
every entity of the view carries; the projection itself is learned from it (``projections``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote_plus

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.projection_queries import ProjectionCandidateContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "view-projection-queries"


@dataclass
class ProjectionCandidates:
    ruleset: RuleSet
    _names: dict[str, bool] = field(default_factory=dict)

    def projects(self, record: Record) -> bool:
        """The read sent a parameter the table proposes as a projection (typed spellings aside: they
        need the read's type)."""
        return any(self._proposed(unquote_plus(name)) for name, _ in record.query)

    def _proposed(self, name: str) -> bool:
        if name not in self._names:
            decision = evaluate(self.ruleset, TABLE, ProjectionCandidateContext(param=name), subject=name)
            self._names[name] = bool(decision.matched)
        return self._names[name]

    def set_aside(self, records: list[Record]) -> list[Record]:
        """The records less those sent with a projection candidate, unless that leaves none."""
        plain = [r for r in records if not self.projects(r)]
        return plain or records
