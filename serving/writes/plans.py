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
from urllib.parse import unquote

from capenv.interpreter.bundle.models import MemberRule, WritePlan
from capenv.interpreter.bundle.paths import split_path

from .calls import WriteEnv


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


def plan_parts(env: WriteEnv, plan: WritePlan) -> PlanParts:
    held = env.plan_parts.get(id(plan))
    if held is not None and held[0] is plan:
        return held[1]
    parts = _parts(plan)
    env.plan_parts[id(plan)] = (plan, parts)
    return parts


def _parts(plan: WritePlan) -> PlanParts:
    members = {m.member: m for m in plan.members}
    return PlanParts(
        members=members,
        required=tuple(m for m, r in members.items() if r.required),
        query=dict(plan.query),
        path_params=tuple((index, piece[1:-1]) for index, piece in enumerate(split_path(plan.template))
                          if piece.startswith("{") and piece.endswith("}")),
        decoded_exemplar={name: unquote(value) for name, value in plan.exemplar_args.items()})


def sent_arguments(parts: PlanParts, path: str) -> dict[str, str]:
    """Each path parameter of the plan's template as ``path`` sends it (not decoded): what
    ``create_collections.path_arguments`` answers, without splitting the template again."""
    if not parts.path_params:
        return {}
    segments = split_path(path)
    return {name: segments[index] for index, name in parts.path_params if index < len(segments)}
