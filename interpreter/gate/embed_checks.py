"""A failed item read that newly embeds an entity a create made (seeds: "The gate", "Attribution").

An object in a read's field, or within it, naming a created entity by its id and by another of
its strings shows the create changed that field too; when the copy's value lacks that object,
serving would not show the change, so the create is contradicted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from capenv.serving.state.index import key_of


@dataclass
class CreatedEntities:
    """The entities modelled creates made: id -> [(create tool, the entity as created)]."""

    by_id: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)

    def add(self, tool: str, key: str, entity: dict[str, Any]) -> None:
        self.by_id.setdefault(key, []).append((tool, dict(entity)))


def embed_settings() -> dict[str, Any]:
    from capenv.interpreter.rules_engine import load_rules

    return dict(load_rules().settings.get("gate", {}))


def creates_newly_embedded(shown: dict[str, Any], mine: dict[str, Any] | None, created: CreatedEntities,
                           settings: dict[str, Any]) -> list[str]:
    """The create tools whose entity a field of ``shown`` embeds while the copy's value does not."""
    if not created.by_id:
        return []
    mine = mine or {}
    tools: list[str] = []
    for name, value in shown.items():
        for tool, key in _named_entities(value, created, settings):
            if (tool, key) not in _named_entities(mine.get(name), created, settings) and tool not in tools:
                tools.append(tool)
    return tools


def _named_entities(value: Any, created: CreatedEntities, settings: dict[str, Any]) -> set[tuple[str, str]]:
    named = set()
    for member in _objects_within(value):
        strings = {v for v in member.values() if isinstance(v, str)}
        for scalar in member.values():
            if isinstance(scalar, (dict, list)) or scalar is None or isinstance(scalar, bool):
                continue
            key = key_of(scalar)
            for tool, entity in created.by_id.get(key, ()):
                if _names_another_string(entity, key, strings, settings):
                    named.add((tool, key))
    return named


def _names_another_string(entity: dict[str, Any], key: str, strings: set[str], settings: dict[str, Any]) -> bool:
    """Another of the entity's strings, long enough that a short id's coincidence does not count."""
    shortest = settings["embed_min_string_short_id"] if len(key) < settings["embed_short_id"] \
        else settings["embed_min_string"]
    return any(isinstance(v, str) and v != key and len(v) >= shortest and v in strings for v in entity.values())


def _objects_within(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for inner in value.values():
            yield from _objects_within(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _objects_within(inner)
