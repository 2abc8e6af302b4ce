"""Verbs glued to the last path segment after a colon (``/notes/5:archive``) read as action segments.

The ``path-colon-actions`` table decides, per verb, from the whole capture, whether ``:verb`` is a
custom method on what the text before it names (the capture addresses that text alone as a whole
segment in the same place: ``/notes/5`` beside ``/notes/5:archive``) or part of a value (an answer
returns the glued segment whole). Every primary-origin record's path then spells the action as its
own segment, the colon kept (``/notes/5/:archive``, ``bundle.path_actions``); serving reads request
paths the same way. The evidence id is computed over the paths as sent, before this step.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.path_actions import colon_verb, split_action
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.trace_event import TraceEvent

from .format_suffix import answered_values
from .records import Record

TABLE = "path-colon-actions"


def _glued(records: tuple[Record, ...]) -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """verb -> (the segments before the glued one, its stem) of each primary-origin path so spelled."""
    found: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for record in records:
        parts = split_path(record.path) if record.primary else []
        verb = colon_verb(parts[-1]) if parts else None
        if verb is not None:
            found.setdefault(verb[1], []).append((tuple(parts[:-1]), verb[0]))
    return found


def colon_actions(records: tuple[Record, ...], ruleset: Any) -> tuple[tuple[Record, ...], tuple[str, ...],
                                                                      tuple[TraceEvent, ...]]:
    """The records with each proven verb spelled as its own segment, the verbs (sorted) and the
    decisions' traces."""
    glued = _glued(records)
    if not glued:
        return records, (), ()
    from capenv.interpreter.predicates.path_actions import PathColonActionContext
    from capenv.interpreter.rules_engine import evaluate, load_rules

    ruleset = ruleset if ruleset is not None else load_rules()
    if TABLE not in ruleset.tables:
        return records, (), ()
    alone = {tuple(parts) for record in records if record.primary for parts in [split_path(record.path)]}
    verbs: list[str] = []
    events: list[TraceEvent] = []
    for verb, places in sorted(glued.items()):
        stems = tuple(dict.fromkeys(stem for _, stem in places))
        stems_alone = tuple(dict.fromkeys(stem for before, stem in places
                                          if any(p[: len(before) + 1] == before + (stem,) for p in alone)))
        context = PathColonActionContext(
            verb=verb, calls=len(places), stems=stems, stems_alone=stems_alone,
            read_back=answered_values(records, {f"{stem}:{verb}" for stem in stems}))
        decision = evaluate(ruleset, TABLE, context, subject=f"path colon action :{verb}")
        events.extend(decision.events)
        if decision.yields.get("action"):
            verbs.append(verb)
    if not verbs:
        return records, (), tuple(events)
    split = tuple(r.model_copy(update={"path": path}) if r.primary and (path := split_action(r.path, tuple(verbs))) != r.path
                  else r for r in records)
    return split, tuple(verbs), tuple(events)
