"""What every call of one write plan shares, worked out once per plan and environment.

A served write used to rebuild these from the plan on every call: the member rules by name,
the required members, the recorded query, where the template's path parameters sit, the
exemplar's decoded path arguments. They depend on the plan alone, so ``plan_parts`` builds
them on a plan's first call and keeps them in the ``WriteEnv`` (one per runtime, one per
gate run): a cache never outlives the bundle whose plans it was built from, and it is keyed
by the plan object itself (held, so its id cannot be reused by another plan).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from capenv.interpreter.bundle.models import MemberRule, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.serving.ops.apply import CompiledRule, ordered_rules

from .answers import AnswerParts, answer_parts, covered_fields
from .calls import WriteEnv
from .sent_values import Accepting, compile_accepting
from .stored_text import TextClasses, compile_classes


MemberFacts = dict[str, tuple[str, "str | None", "tuple[str, ...] | None", MemberRule]]
"""Member name -> (admission, kind, nested members, rule): what ``check_members`` reads of each
rule per sent member, read off the models once per plan (``plans.PlanParts``): a model's
attribute costs ~10x a plain one (pydantic's ``__getattr__`` hook), and a create read ~20."""


def member_facts(rules: dict[str, MemberRule]) -> MemberFacts:
    return {name: (rule.admission, rule.kind, rule.nested_members, rule) for name, rule in rules.items()}


KIND_OF_TYPE: dict[type, str] = {str: "string", bool: "boolean", int: "integer", list: "array", dict: "object",
                                 type(None): "null"}
"""``json_kind`` of the exact types a parsed body holds, looked up instead of tested in turn."""

MemberTypes = dict[str, "frozenset[type] | None"]
"""Member name -> the exact types of a value ``check_members`` accepts for it with no other check
(None: any type): only an accepted member without nested members is listed."""


def member_types(rules: dict[str, MemberRule]) -> MemberTypes:
    """What ``check_members`` accepts at once, per member (``MemberTypes``): a value of one of these
    types passes every check of the member, so the call's usual body is checked one lookup a member."""
    plain: MemberTypes = {}
    for name, rule in rules.items():
        if rule.admission != "accepted" or rule.nested_members is not None:
            continue
        kind = rule.kind
        if kind is None:
            plain[name] = None
            continue
        types = {t for t, k in KIND_OF_TYPE.items() if k == kind or (kind == "number" and k == "integer")}
        if rule.nullable:
            types.add(type(None))
        plain[name] = frozenset(types)
    return plain


@dataclass(frozen=True, slots=True)
class PlanParts:
    members: dict[str, MemberRule]
    """The member rules by member name (``check_members``)."""
    required: tuple[str, ...]
    """The members a call must send, in plan order."""
    query: dict[str, str]
    """The recorded query (``check_query``)."""
    path_params: tuple[tuple[int, str], ...]
    """``(segment index, name)`` of each path parameter of ``plan.template``."""
    decoded_exemplar: dict[str, str]
    """The exemplar's path arguments, percent-decoded once (a create's op context)."""
    rules: tuple[CompiledRule, ...] | None
    """The field rules compiled, in the order they run (``ops.apply.ordered_rules``); None when
    one does not compile: then the write runs them as before and meets the plan's error there."""
    answer: AnswerParts | None
    """What the answer takes of the recorded response (``answers.write_result``)."""
    covers: tuple[str, ...] | None
    """The recorded answer's entity fields a rendered answer must hold (``answers.check_answer_covers``;
    empty when the check does not apply). Either is None when it could not be worked out ahead:
    then the write works it out where it is used, as before, and meets any error there."""
    collection_segments: list[str] | None
    """The segments of the plan type's collection template (None: the plan names no served type)."""
    accepting: Accepting | None
    """The plan's unproven values with their keywords compiled (``sent_values.compile_accepting``)."""
    text_classes: TextClasses | None
    """The text classes the plan refuses, one search per member (``stored_text.compile_classes``);
    either is None when it did not compile: the check then runs as before."""
    member_facts: MemberFacts
    """What ``checks.check_members`` reads of each member rule (``member_facts``)."""
    member_types: MemberTypes
    """The value types ``checks.check_members`` accepts at once per member (``member_types``)."""


def plan_parts(env: WriteEnv, plan: WritePlan) -> PlanParts:
    held = env.plan_parts.get(id(plan))
    if held is not None and held[0] is plan:
        return held[1]
    parts = _parts(env, plan)
    env.plan_parts[id(plan)] = (plan, parts)
    return parts


def _parts(env: WriteEnv, plan: WritePlan) -> PlanParts:
    members = {m.member: m for m in plan.members}
    entity_type = env.types.get(plan.type) if plan.type is not None else None
    return PlanParts(
        members=members,
        required=tuple(m for m, r in members.items() if r.required),
        query=dict(plan.query),
        path_params=tuple((index, piece[1:-1]) for index, piece in enumerate(split_path(plan.template))
                          if piece.startswith("{") and piece.endswith("}")),
        decoded_exemplar={name: unquote(value) for name, value in plan.exemplar_args.items()},
        rules=_compiled_rules(plan),
        answer=_ahead(answer_parts, plan),
        covers=_ahead(covered_fields, plan),
        collection_segments=split_path(entity_type.collection_template) if entity_type is not None else None,
        accepting=_ahead(compile_accepting, plan),
        text_classes=_ahead(compile_classes, plan),
        member_facts=member_facts(members),
        member_types=member_types(members))


def _compiled_rules(plan: WritePlan) -> tuple[CompiledRule, ...] | None:
    return _ahead(lambda p: tuple(ordered_rules(p.fields)), plan)


def _ahead(work: Any, plan: WritePlan) -> Any:
    """``work(plan)``, or None when it raises: a plan bug is raised where a write uses the part
    (as before the parts were worked out ahead), not by every call of the plan."""
    try:
        return work(plan)
    except Exception:  # noqa: BLE001 - raised again where the part is used
        return None


def field_rules(parts: PlanParts, plan: WritePlan) -> Any:
    """What ``ops.apply.apply_field_rules`` runs for ``plan``: its compiled rules, or its rules."""
    return parts.rules if parts.rules is not None else plan.fields


def sent_arguments(parts: PlanParts, path: str) -> dict[str, str]:
    """Each path parameter of the plan's template as ``path`` sends it (not decoded): what
    ``create_collections.path_arguments`` answers, without splitting the template again."""
    if not parts.path_params:
        return {}
    segments = split_path(path)
    return {name: segments[index] for index, name in parts.path_params if index < len(segments)}
