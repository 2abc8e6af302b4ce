"""What a write answers: the recorded response, with the written entity rendered into it where
it carries one, or split into its identity and a projection of it (``SplitAnswer``), refused when
the rendering would lack a field the recording carried."""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import quote, unquote

from capenv.interpreter.bundle.models import AnswerReport, LocationRule, Locator, SplitAnswer, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.pointers import member_through, spell, with_member_through
from capenv.interpreter.bundle.values import locate, same_json
from capenv.serving.reads.entity_headers import state_headers
from capenv.serving.reads.render import place

from .calls import WriteRefusal, WriteResult


def render_answer(plan: WritePlan, entity: dict[str, Any] | None) -> tuple[Any, bool, str | None]:
    """The recorded response, ``entity`` rendered into it where it carries one (and one is given)."""
    response = plan.response
    if response is None:
        return None, True, None
    if response.carries_entity and entity is not None:
        omitted = response.omitted
        shown = {name: value for name, value in entity.items() if name not in omitted} if omitted else dict(entity)
        for name, value in response.added:  # what the application adds to every write answer of the type
            if name not in shown:
                shown[name] = copy.deepcopy(value)
        locator = response.locator or Locator(kind="root")
        return _envelope_repeats(place(response.body, locator, shown), response.body, locator, shown), True, None
    if response.report is not None and entity is not None:
        return render_report(response.body, response.report, entity), True, None
    return copy.deepcopy(response.body), response.is_json, response.text


def _envelope_repeats(answer: Any, recorded_body: Any, locator: Locator, shown: dict[str, Any]) -> Any:
    """The answer with each member of its envelope that repeated the recorded entity's member of
    the same name (Alerta's ``{"customer": {...}, "id": ..., "status": "ok"}``, the id beside the
    entity) showing the written entity's: left as recorded it would name the exemplar's entity."""
    if locator.kind == "root" or locator.within or not isinstance(answer, dict):
        return answer
    recorded = locate(recorded_body, locator)
    if not isinstance(recorded, dict):
        return answer
    for name, value in recorded_body.items():
        if name != locator.member and name in recorded and name in shown and same_json(value, recorded[name]):
            answer[name] = copy.deepcopy(shown[name])
    return answer


def render_report(body: Any, report: AnswerReport, entity: dict[str, Any]) -> Any:
    """The recorded report with the entity's own fields in it taken from ``entity``: a report
    naming another entity than the one the call wrote would be a wrong answer, so an entity
    lacking one of them is refused."""
    lacking = [name for name in report.fields if name not in entity]
    if lacking:
        raise WriteRefusal(f"the answer reports {', '.join(lacking)} of the entity, which it does not hold")
    recorded = locate(body, report.locator)
    rendered = {name: copy.deepcopy(entity[name]) if name in report.fields else copy.deepcopy(value)
                for name, value in (recorded.items() if isinstance(recorded, dict) else ())}
    return place(copy.deepcopy(body), report.locator, rendered)


def render_split(plan: WritePlan, entity: dict[str, Any], id_field: str, sent: dict[str, Any],
                 path: str) -> Any:
    """The recorded answer with its identity member and its projection of ``entity`` (as the state
    holds it after the call) rendered for this call; refused where the recordings do not show what
    the application would answer (``write-answer-envelopes``)."""
    split: SplitAnswer = plan.response.split
    if split.projection == "acknowledged":
        if split.sent_members and set(sent) != set(split.sent_members):
            raise WriteRefusal(
                f"send exactly {', '.join(split.sent_members)}: every recorded call sent these and was answered "
                f"{', '.join(split.fields)}, and no recording shows whether the application answers the members "
                "sent or these fields")
        return _acknowledgement(plan, split, entity, id_field)
    if split.projection == "either" and set(sent) != set(split.fields):
        raise WriteRefusal(
            f"send exactly {', '.join(split.fields)}: the application answers every recorded call with "
            "these members, and no recording shows whether it answers the members sent or these")
    names = list(split.fields) if split.projection != "sent" else list(sent)
    lacking = [name for name in names if name not in entity]
    if lacking:
        raise WriteRefusal(f"the answer would show {', '.join(lacking)}, which the entity does not hold")
    if split.projection == "sent":
        stored = [name for name in names if not same_json(entity[name], sent[name])]
        if stored:  # the recorded answers showed the value stored, always the value sent
            raise WriteRefusal(f"{', '.join(stored)} would be stored otherwise than sent, and no recording shows "
                               "which of the two the application answers")
    projected = {name: entity[name] for name in names}
    segments = [unquote(part) for part in split_path(path)]
    for member in split.path_members:
        if member.segment >= len(segments):
            raise WriteRefusal(f"the call's path has no segment {member.segment} for the answer's {member.member}")
        value = segments[member.segment]
        if member.form == "number":
            if not (value.isascii() and value.isdigit()):
                raise WriteRefusal(f"the answer's {member.member} is the number the path spells; {value!r} is none")
            projected[member.member] = int(value)
        else:
            projected[member.member] = value
    if split.sorted_members:
        projected = dict(sorted(projected.items()))
    if not isinstance(plan.response.body, dict):
        raise WriteRefusal("the capture kept no recorded answer of this write to render its answer from")
    answer = copy.deepcopy(plan.response.body)
    body = member_through(answer, spell(split.within))
    if not isinstance(body, dict):
        raise WriteRefusal("the capture kept no recorded answer of this write to render its answer from")
    if split.id_member is not None:
        body[split.id_member] = entity[id_field]
    body[split.entity_member] = projected
    return answer


def _acknowledgement(plan: WritePlan, split: SplitAnswer, entity: dict[str, Any], id_field: str) -> dict[str, Any]:
    """An acknowledging answer: the identity and the few fields every recorded answer showed, as the
    entity holds them after the call, in the recorded answer's order."""
    lacking = [name for name in split.fields if name not in entity]
    if lacking:
        raise WriteRefusal(f"the answer would show {', '.join(lacking)}, which the entity does not hold")
    names = [*([split.id_member] if split.id_member else []), *split.fields]
    around = member_through(plan.response.body, spell(split.within))
    recorded = around if isinstance(around, dict) else {}
    if split.entity_member is not None:  # the acknowledgement sits under the answer's one member
        recorded = recorded.get(split.entity_member) if isinstance(recorded.get(split.entity_member), dict) else {}
    names.sort(key=lambda name: list(recorded).index(name) if name in recorded else len(recorded))
    answer = {name: entity[id_field] if name == split.id_member else entity[name] for name in names}
    answer = answer if split.entity_member is None else {split.entity_member: answer}
    if not split.within:
        return answer
    if not isinstance(around, dict):  # the envelope the recorded answers wrap it in, as recorded
        raise WriteRefusal("the capture kept no recorded answer of this write to render its answer from")
    return with_member_through(copy.deepcopy(plan.response.body), spell(split.within), answer)


def check_answer_covers(plan: WritePlan, entity: dict[str, Any], unsent: frozenset[str] = frozenset(),
                        covers: tuple[str, ...] | None = None) -> None:
    """A rendered response missing a field the recorded response carried is refused.

    ``unsent``: for an update, the optional members the call could have sent and did not. The
    recorded answer carried such a field because its call set it; an entity that never held it,
    updated by a call that does not set it, is answered without it, as the application answers
    the entity it holds. ``covers``: ``covered_fields(plan)``, when the caller holds it."""
    names = covered_fields(plan) if covers is None else covers
    if names:
        for name in names:  # a loop, not a comprehension (a function made per call): every write asks
            if name not in entity and name not in unsent:
                break
        else:
            return
        lacking = [name for name in names if name not in entity and name not in unsent]
        if lacking:
            raise WriteRefusal(f"the answer would lack recorded field(s) {', '.join(lacking)}; "
                               "the entity does not hold them")


def covered_fields(plan: WritePlan) -> tuple[str, ...]:
    """The fields of the entity the plan's recorded response carried, which a rendered answer must
    hold (empty when the response carries no located entity)."""
    response = plan.response
    if response is None or not response.carries_entity or not response.locator:
        return ()
    return _recorded_fields(response)


_fields: dict[int, tuple[Any, tuple[str, ...]]] = {}
"""id(response) -> (response, the names of the entity it recorded): a plan's recorded response
is immutable, so its entity's fields are read once, not located again on every served write
(the entry holds the response, so its id cannot be reused by another while it lives)."""


def _recorded_fields(response: Any) -> tuple[str, ...]:
    held = _fields.get(id(response))
    if held is not None and held[0] is response:
        return held[1]
    recorded = locate(response.body, response.locator)
    # what the application adds to every answer, and what it answers only for an entity holding it
    unneeded = {name for name, _ in response.added} | set(response.held_only)
    names = tuple(name for name in recorded if name not in unneeded) if isinstance(recorded, dict) else ()
    if len(_fields) >= 4096:
        _fields.clear()
    _fields[id(response)] = (response, names)
    return names


def write_result(plan: WritePlan, body: Any, is_json: bool, text: str | None, provenance: dict[str, Any],
                 changed: list[str], answer: AnswerParts | None = None) -> WriteResult:
    """The answer with the recorded status, content type and headers (200 when none was kept), less
    those that described the recorded entity (``state_headers``). ``answer``: ``answer_parts(plan)``,
    when the caller holds it."""
    status, content_type, headers, location = _answer_parts(plan) if answer is None else answer
    if location is not None and provenance.get("view") == "create":
        headers = (*headers, ("Location", located(location, provenance["id"])))
    return WriteResult(status, content_type, headers, body, is_json, text, provenance, changed)


AnswerParts = tuple[int, "str | None", tuple[tuple[str, str], ...], "LocationRule | None"]
"""What ``write_result`` takes of a plan's recorded response: status, content type, headers less
the entity's (``state_headers``), location rule."""

_answer_kept: dict[int, tuple[Any, AnswerParts]] = {}
"""id(plan) -> (plan, what ``write_result`` takes of its recorded response): a plan is immutable,
so its status, content type, headers less the entity's (``state_headers``) and location rule are
worked out once, not per served write (the entry holds the plan: its id is not reused meanwhile)."""


def answer_parts(plan: WritePlan) -> AnswerParts:
    response = plan.response
    return ((response.status, response.content_type, answer_headers(response), response.location)
            if response is not None else (200, None, (), None))


def answer_headers(response: Any) -> tuple[tuple[str, str], ...]:
    """A recorded answer's headers less those describing its entity (``state_headers``) and those
    naming the exemplar's entity by its key (``ResponseRule.entity_headers``)."""
    kept = state_headers(response.headers)
    named = response.entity_headers
    return tuple((name, value) for name, value in kept if name.lower() not in named) if named else kept


def _answer_parts(plan: WritePlan) -> AnswerParts:
    held = _answer_kept.get(id(plan))
    if held is not None and held[0] is plan:
        return held[1]
    parts = answer_parts(plan)
    if len(_answer_kept) >= 4096:
        _answer_kept.clear()
    _answer_kept[id(plan)] = (plan, parts)
    return parts


def located(rule: LocationRule, id_value: Any) -> str:
    """The created entity's ``Location``: the recorded header's shape around its id, the id
    percent-encoded where a path segment needs it."""
    text = str(id_value)
    if not (text.isascii() and text.isalnum()):  # letters and digits are never encoded: the usual id as it is
        text = quote(text, safe="@:!$&'()*+,;=~")
    return rule.prefix + text + rule.suffix
