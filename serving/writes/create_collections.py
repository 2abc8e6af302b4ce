"""The collection a create goes to, spelled as the call spells it (write-effects "Serving"):
a create whose own path names its collection goes there; a tied create (its path names no
collection of the type, or a field keeps a path value of its exemplar) is refused outside its
collection, and a collection held under more than one
spelling takes the create in the one the call names. The gate asks the same question of a
recorded create (``interpreter/gate/tied_creates.py``)."""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.models import EntityType, WritePlan
from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_spelling
from capenv.serving.reads.parents import missing_parent
from capenv.serving.state.index import StateIndex

from .calls import WriteCall, WriteEnv, WriteRefusal
from .plans import PlanParts, plan_parts, sent_arguments


def path_arguments(template: str, path: str) -> dict[str, str]:
    """Each path parameter of ``template`` as ``path`` sends it (not decoded)."""
    if "{" not in template:
        return {}  # no parameter to find (the usual collection): nothing to split
    args = {}
    for part, piece in zip(split_path(path), split_path(template)):
        if piece.startswith("{") and piece.endswith("}"):
            args[piece[1:-1]] = part
    return args


def _spelled_by_call(plan: WritePlan, entity_type: EntityType, call_path: str, parts: PlanParts) -> str:
    """The tied collection as the call spells it, so a create in a collection held under more
    than one spelling goes to the one the call spells verbatim (write-effects "Serving"): its
    segments as the call's path sends them where that path begins with it, else each path
    argument as the call sends the tool's argument of that name (the one the exemplar's path
    values fill it from) when the two name the same value."""
    collection = plan.collection or ""
    if call_path == collection and collection.startswith("/"):
        return collection  # the usual create: what the general case below answers, unsplit
    theirs, mine = split_path(collection), split_path(call_path)
    if theirs and len(mine) >= len(theirs) and all(same_spelling(a, b) for a, b in zip(mine, theirs)):
        return "/" + "/".join(mine[:len(theirs)])
    sent = sent_arguments(parts, call_path)
    spelled = [sent[piece[1:-1]] if piece.startswith("{") and piece[1:-1] in sent
               and same_spelling(sent[piece[1:-1]], part) else part
               for part, piece in zip(theirs, split_path(entity_type.collection_template))]
    return "/" + "/".join(spelled) if len(spelled) == len(theirs) and theirs else collection


def _named_by_call(entity_type: EntityType, call: WriteCall, state: StateIndex,
                   template: list[str] | None = None) -> tuple[str, dict[str, str]]:
    """An untied create goes to the collection its own path names, in the spelling the state
    holds or knows for it (the call's verbatim first), else as the call spells it. ``template``:
    the type's collection template split, when the caller holds it."""
    if template is None:
        template = split_path(entity_type.collection_template)
    own = "/" + "/".join(split_path(call.path)[:len(template)])
    path = state.spelling_of(own, entity_type.name) or own
    if "{" not in entity_type.collection_template:
        return path, {}  # a collection without parameters: nothing to split
    return path, {t.strip("{}"): unquote(p) for p, t in zip(split_path(path), template) if t.startswith("{")}


def tied_refusal(plan: WritePlan, entity_type: EntityType, name: str) -> str:
    """Why a tied create refuses another value of path parameter ``name``, and what it accepts:
    the capture shows the create only with its exemplar's path values (write-effects "Creates"),
    because its own path names no collection of the type (it creates where the exemplar's entity
    was read), or because a value it stores or answers keeps one of those path values."""
    recorded = unquote(plan.exemplar_args[name])
    exemplar_path = "/" + "/".join(plan.exemplar_args.get(piece[1:-1], piece) if piece.startswith("{") else piece
                                   for piece in split_path(plan.template))
    if _names_own_collection(plan.template, entity_type.collection_template):
        cause = "a value it stores or answers keeps that call's path value"
    else:
        cause = (f"its path names no collection of the {entity_type.name} type "
                 f"({entity_type.collection_template}), so it creates where that call's entity was read")
    return (f"path parameter {name!r} must be {recorded!r}: the capture shows this create only as recorded call "
            f"{plan.exemplar} ({plan.method} {exemplar_path}) made it, in {plan.collection}, and {cause}; no "
            f"recorded call shows what a create with another {name} stores, answers or where it goes. Accepted: "
            f"{name} {recorded!r} (in any percent-encoding)")


def _names_own_collection(template: str, collection_template: str) -> bool:
    """The tool's path begins with the type's collection path (a parameter in either matches any segment)."""
    mine, theirs = split_path(template), split_path(collection_template)
    return len(mine) >= len(theirs) and all(a == b or a.startswith("{") or b.startswith("{")
                                            for a, b in zip(mine, theirs))


def collection_for_create(plan: WritePlan, env: WriteEnv, call: WriteCall, state: StateIndex,
                          args: dict[str, str], parts: PlanParts | None = None) -> tuple[str, dict[str, str]]:
    """The collection a create goes to: the spelling the call names among those the state holds
    or knows (``StateIndex.spelling_of``), else the tied one as recorded; and the decoded path
    arguments its path fields take (an untied create's: the call's own). ``parts``: the plan's
    (``plans.plan_parts``), when the caller holds them."""
    entity_type = env.types[plan.type]
    if parts is None:
        parts = plan_parts(env, plan)
    if not plan.collection:  # the call's own arguments too: one may name the entity (a create at its item path)
        path, collection_args = _named_by_call(entity_type, call, state, parts.collection_segments)
        if not args:
            return path, dict(collection_args)
        return path, {**{name: unquote(value) for name, value in args.items()}, **collection_args}
    for name, value in args.items():
        recorded = plan.exemplar_args.get(name)
        if recorded is not None and not same_spelling(value, recorded):
            raise WriteRefusal(tied_refusal(plan, entity_type, name))
    spelled = _spelled_by_call(plan, entity_type, call.path, parts)
    spelling = state.spelling_of(spelled, entity_type.name)
    path = spelling or plan.collection or entity_type.collection_template
    template = entity_type.collection_template
    if "{" not in template:
        return path, {}  # a collection without parameters: nothing to split
    collection_args = {t.strip("{}"): unquote(p) for p, t in zip(split_path(path), split_path(template))
                       if t.startswith("{")}
    return path, collection_args


def refuse_under_absent_parent(collection_path: str, env: WriteEnv, state: StateIndex) -> None:
    """A create in a collection under a parent the state answers absent (its held collection lacks
    it: a zone never made, or deleted) is refused, never made there: the state would answer the
    parent's read missing and the child's read found, and the application answers the create as
    it answers the parent, missing (PowerDNS's metadata of a zone that does not exist: 404). A
    parent in a collection never read is not judged here: nothing says it is absent."""
    absent = missing_parent(collection_path, env.types, state, unread=False)
    if absent is not None:
        raise WriteRefusal(f"{absent}, so the state answers that parent missing: a create under it is not made "
                           "(the application may answer it missing, or make the parent; no recording shows which); "
                           "create the parent first, or name one the state holds",
                           kind="missing", where={"collection": collection_path})
