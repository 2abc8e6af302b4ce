"""What a write no built plan models may have changed (seeds: "The gate", "Writes"): below an
item the entity is unknown until a read shows it again; at a collection path, or above it, the
collections it reaches are not checked again. A path reaches a collection whose segments are its
own verbatim or once percent-decoded."""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.evidence.records import Record
from capenv.interpreter.manifest.models import split_path
from capenv.interpreter.view.extract import collection_path
from capenv.serving.render import same_spelling
from capenv.serving.state_index import StateIndex
from capenv.serving.writes import WriteEnv

from .findings import Tracking


def unmodelled(record: Record, env: WriteEnv, copy: StateIndex, track: Tracking) -> None:
    """A write no built plan models: what it may have changed is unknown or not checked again.
    Each entity and collection it reaches remembers it as its latest unmodelled write."""
    reached = track.latest_unmodelled
    parts = split_path(record.path)
    for entity_type in env.types.values():
        template = split_path(entity_type.collection_template)
        if len(parts) > len(template) and prefix(parts, template):
            collection = collection_path(record.path, entity_type)
            track.unknown.add((entity_type.name, unquote(parts[len(template)])))
            held = copy.find_collection(collection, entity_type.name)
            reached[("entity", entity_type.name, unquote(parts[len(template)]))] = record.ordinal
            reached[("collection", held.path if held is not None else collection)] = record.ordinal
            if held is not None and unquote(parts[len(template)]) not in held.entities:
                track.unchecked.add(held.path)
        elif len(parts) == len(template) and prefix(parts, template):
            collection = collection_path(record.path, entity_type)
            held = copy.find_collection(collection, entity_type.name)  # a plain spelling reaches an encoded one
            track.unchecked.add(held.path if held is not None else collection)
            reached[("collection", held.path if held is not None else collection)] = record.ordinal
        elif len(parts) < len(template) and prefix(template, parts):
            for held in copy.collections_of(entity_type.name):
                if prefix(split_path(held.path), parts):
                    track.unchecked.add(held.path)
                    reached[("collection", held.path)] = record.ordinal


def prefix(longer: list[str], shorter: list[str]) -> bool:
    """``shorter`` begins ``longer``: each segment a parameter, or verbatim or either spelling once
    percent-decoded (serving's ``same_spelling``)."""
    return all(a.startswith("{") or b.startswith("{") or same_spelling(a, b) for a, b in zip(longer, shorter))
