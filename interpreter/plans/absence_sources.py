"""Which recorded absence answers an update or delete of an entity the state does not hold
(the ``write-absences`` table), for a tool that recorded none of its own.

The spec's order is the tool's own latest 400, 404 or 410, else an item view's of the type. An
application often answers a write of a missing id otherwise than a read of it (Datasette: "Record
not found: ['3']" against a read's "Row not found"), so a sibling tool of one endpoint (the same
template for another kind of entity) that recorded its own answers first; serving gives it for
the call's id.
"""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.manifest.models import Manifest
from capenv.interpreter.predicates.absence_siblings import SegmentDifference, WriteAbsenceSourceContext
from capenv.interpreter.rules_engine import RuleSet, evaluate

TABLE = "write-absences"
KIND_WORD_RULE = "segment.kind-word"


def with_absence_sources(plans: list[WritePlan], manifest: Manifest, statuses: dict[int, int],
                         absence_statuses: tuple[int, ...], ruleset: RuleSet, collections: tuple[str, ...] = (),
                         answers: dict[int, str] | None = None, masked: dict[int, str] | None = None,
                         item_reads: dict[str, tuple[int, ...]] | None = None) -> list[WritePlan]:
    """The plans, each update or delete with no recorded absence of its own given the sibling tool
    whose recorded absence answers for it (``absence_tool``), traced. ``statuses``: each record's
    (those in ``absence_statuses``, the budget, recorded an absence);
    ``answers``: each record's answer text (absences' at least); ``masked``: those texts with
    their call's path segments masked; ``item_reads``: per state type, its item reads' records."""
    answers, masked, item_reads = answers or {}, masked or {}, item_reads or {}
    types = {p.tool: p.type for p in plans}

    def read_absences(type_name: str | None) -> tuple[str, ...]:
        return tuple(masked.get(o, "") for o in item_reads.get(type_name or "", ())
                     if statuses.get(o) in absence_statuses)

    if TABLE not in ruleset.tables:
        return plans
    tools = {t.name: t for t in manifest.tools}
    # a literal names a kind of entity when segment.kind-word made it one, or it ends a state
    # type's collection path (``collections``: their templates)
    kind_words = {tuple(split_path(e.subject)) for e in manifest.traces
                  if e.rule_id == KIND_WORD_RULE and e.outcome == "match"}
    kind_words |= {tuple(split_path(c)) for c in collections}
    recorded = {t.name for t in manifest.tools if any(statuses.get(o) in absence_statuses for o in t.record_ordinals)}
    effects = {p.tool: p.effect for p in plans}
    result = []
    for plan in plans:
        if plan.effect not in ("update", "delete", "action") or plan.tool in recorded or plan.tool not in tools:
            result.append(plan)
            continue
        mine = split_path(plan.template)
        chosen, events = None, []
        for other in sorted(recorded):
            theirs = split_path(tools[other].template)
            if other == plan.tool or len(theirs) != len(mine):
                continue
            differences = [SegmentDifference(mine=a, theirs=b, kind_words=not a.startswith("{") and not b.startswith(
                "{") and tuple(mine[:i + 1]) in kind_words and tuple(theirs[:i + 1]) in kind_words)
                for i, (a, b) in enumerate(zip(mine, theirs))
                if a != b and not (a.startswith("{") and b.startswith("{"))]
            context = WriteAbsenceSourceContext(same_method=tools[other].method == plan.method,
                                                same_effect=effects.get(other) == plan.effect,
                                                differences=tuple(differences),
                                                answers=tuple(answers.get(o, "") for o in tools[other].record_ordinals
                                                              if statuses.get(o) in absence_statuses),
                                                masked_answers=tuple(masked.get(o, "") for o in tools[other].record_ordinals
                                                                     if statuses.get(o) in absence_statuses),
                                                sibling_read_answers=read_absences(types.get(other)),
                                                own_read_answers=read_absences(plan.type))
            decision = evaluate(ruleset, TABLE, context, subject=f"{plan.tool} absence from {other}")
            if decision.yields.get("source") == "sibling":
                chosen, events = other, decision.events
                break
        result.append(plan.model_copy(update={"absence_tool": chosen, "traces": plan.traces + tuple(events)})
                      if chosen else plan)
    return result


def masked_answer(text: str, path: str, template: str) -> str:
    """An absence answer with each path argument of its call (the segments ``template`` names by
    a parameter, decoded) masked as ``{}`` where it stands as a token of its own: the id a
    missing-entity answer quotes, so two calls' answers compare."""
    arguments = [unquote(segment) for segment, slot in zip(split_path(path), split_path(template))
                 if slot.startswith("{") and segment]
    for argument in sorted(set(arguments), key=len, reverse=True):
        text = _masked_token(text, argument)
    return text


_TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def _masked_token(text: str, argument: str) -> str:
    """``text`` with each occurrence of ``argument`` no ASCII letter or digit adjoins replaced by
    ``{}``, leftmost first, as ``re.sub`` with lookarounds would: a pattern per argument (every
    call's own id) missed the regular expression cache and compiled hundreds of them per build."""
    parts, start, found = [], 0, text.find(argument)
    while found >= 0:
        end = found + len(argument)
        if (found == 0 or text[found - 1] not in _TOKEN_CHARACTERS) and \
                (end == len(text) or text[end] not in _TOKEN_CHARACTERS):
            parts += [text[start:found], "{}"]
            start = end
            found = text.find(argument, end)
        else:
            found = text.find(argument, found + 1)
    return "".join(parts) + text[start:] if parts else text
