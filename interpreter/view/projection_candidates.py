"""Which recorded reads were sent with a projection candidate (``view-projection-queries``): a
parameter that may name the members the answer holds (``fields=title``). Such an answer may leave
out the identity and most members, so it never decides a read tool's shape nor which members
every entity of the view carries; the projection itself is learned from it (``projections``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.models import EntityType
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.evidence.records import Record
from capenv.interpreter.predicates.projection_queries import ProjectionCandidateContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "view-projection-queries"


def type_words(entity_type: EntityType) -> list[str]:
    """The words naming a type in a typed spelling (``fields[notes]``): its name and its
    collection's last literal segment."""
    literal = [s for s in split_path(entity_type.collection_template) if not s.startswith("{")]
    return list(dict.fromkeys([entity_type.name] + literal[-1:]))


@dataclass
class ProjectionCandidates:
    ruleset: RuleSet
    _names: dict[tuple[str, tuple[str, ...]], bool] = field(default_factory=dict)

    def projects(self, record: Record, words: tuple[str, ...] = ()) -> bool:
        """The read sent a parameter the table proposes as a projection (typed spellings only when
        ``words`` name the read's type)."""
        return any(self._proposed(unquote_plus(name), words) for name, _ in record.query)

    def _proposed(self, name: str, words: tuple[str, ...]) -> bool:
        if (name, words) not in self._names:
            decision = evaluate(self.ruleset, TABLE, ProjectionCandidateContext(param=name, type_words=list(words)),
                                subject=name)
            self._names[(name, words)] = bool(decision.matched)
        return self._names[(name, words)]

    def set_aside(self, records: list[Record]) -> list[Record]:
        """The records less those sent with a projection candidate, unless that leaves none."""
        plain = [r for r in records if not self.projects(r)]
        return plain or records
