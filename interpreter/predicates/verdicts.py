"""Predicates on what the gate found for one plan, for the verdict precedence table.

Context ``plan-verdict``: the plan's build reason, and the gate's contradictions, side-effect
contradictions, confirmations and entity completeness, with what the gate saw (the difference a
read showed, why a call was not checked) so each verdict's evidence says why it holds.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.rules_engine.registry import Match, Miss, Outcome, context_model, predicate


@context_model("plan-verdict")
class PlanVerdictContext(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    build_reason: str | None = None
    answered_held: str | None = None
    """A recorded call of a create that answered an entity the state already held (get-or-create)."""
    key: str | None = None
    """A create's key (a get-or-create), by its members: the gate must confirm its get branch."""
    key_confirmations: int = 0
    """Recorded calls that got a held entity as serving would (the key's get branch)."""
    contradicted_by: int | None = None
    side_effect_by: int | None = None
    confirmations: int = 0
    incomplete_entities: bool = False
    contradiction: str | None = None
    """How the contradicting read differed from the state the gate held."""
    side_effect: str | None = None
    """How the read of something no write changed differed."""
    unchecked_calls: tuple[str, ...] = ()
    """Why the plan's recorded calls added nothing the gate could check (one line per call)."""
    replayed_reads: dict[str, str] = Field(default_factory=dict)
    """Read tools of the plan's type answered by replay, with the reason: their reads check nothing."""
    lacking_fields: tuple[str, ...] = ()
    """The fields of the recorded answer the most complete initial entity lacks."""
    copies: tuple[str, ...] = ()
    """Other state types holding copies of the plan's entities (``type-copies``)."""
    copies_refused_per_call: tuple[str, ...] = ()
    """Other state types whose held copies of the plan's entity make serving refuse a call
    (``WritePlan.copy_holders``): their copies are not left answering stale."""
    counted_by: tuple[str, ...] = ()
    """Members of other types counting the plan's entities that name each of theirs, where the plan
    makes, removes or moves such an entity (``referrer-counts``: ``projects.task_number``)."""
    ids_per_collection: tuple[str, ...] = ()
    """A create's identity fields numbered per collection where the type's item path names an entity
    by its id alone across its collections (``EntityType.shallow_items``)."""
    refused_held: tuple[tuple[int, int], ...] = ()
    """A delete's recorded calls (record, status) the application refused while the entity was held."""
    refused_held_as_exemplar: tuple[tuple[int, int], ...] = ()
    """Those of them sent with the credentials the delete's exemplar succeeded with: a refusal
    there is about the entity (a condition), not about who asked."""
    refused_shown: tuple[tuple[int, int], ...] = ()
    """A delete's recorded calls (record, status) the application refused while the reads showed the
    entity just before the call and in the first read after it (an absence answered for an entity
    the application goes on showing)."""
    refused_where_accepted: tuple[tuple[int, int], ...] = ()
    """A create's recorded calls (record, status) refused with a body a successful call of it sent
    into another collection: the refusal is about what the collection held."""
    refused_serving_accepts: tuple[tuple[int, int], ...] = ()
    """An update's recorded calls (record, status) the application refused where serving would have
    applied them to the state held before them: it changes the entity only under a condition
    serving does not check."""
    refused_create_values: tuple[tuple[int, int, int], ...] = ()
    """An update's type's create calls (record, status, members) refused for values of several of
    the update's members, sent as successful creates sent them, that none sent together."""
    constants_holding_generated: tuple[str, ...] = ()
    """A create's constant fields (objects or arrays) holding, in a string, a value the create generated
    for another field as a token (``field.constant``'s ``held_generated``): every create would answer it."""
    answer_names_arguments: tuple[str, ...] = ()
    """An update's or delete's path arguments (by name) that its recorded answer, which carries no
    entity, names in a string as a token (``successfully deleted entry 6``): served, every call
    would answer the exemplar's."""
    answer_status: int | None = None
    """The status the plan answers with (its exemplar's)."""
    answer_addresses: tuple[str, ...] = ()
    """Addresses (origin-relative paths, absolute URLs) the plan's recorded answer, which carries no
    entity, names in its body or its ``Location``: served as recorded, every call would name them."""
    cascade_by: int | None = None
    """The read that showed a recorded call changing state the plan does not write (``write-cascades``)."""
    cascade: str | None = None
    """What that read showed."""
    held_beneath: tuple[str, ...] = ()
    """State paths (documents, collections) below the item path of an entity the delete names
    (``gate/held_beneath.py``): what serving would go on answering after the entity is gone."""
    materialized_references: tuple[str, ...] = ()
    """Body members naming another type's entities where a recorded success named one the capture
    did not hold and a later read showed it held (``reference-dangling.materialized``)."""
    member_rules: tuple[tuple[str, str], ...] = ()
    """(member, the rule that admitted it) of each body member the plan accepts, in any way."""


@predicate("plan_has_build_reason", context="plan-verdict")
def plan_has_build_reason(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """Building the plan already stopped with a reason."""
    if ctx.build_reason:
        return Match({"reason": ctx.build_reason})
    return Miss("the plan was built")


@predicate("plan_answered_held", context="plan-verdict")
def plan_answered_held(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """A recorded call of the create answered an entity the state already held (get-or-create)."""
    if ctx.answered_held:
        return Match({"call": ctx.answered_held})
    return Miss("every recorded call made a new entity")


@predicate("plan_contradicted", context="plan-verdict")
def plan_contradicted(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """A read the gate checked contradicted one of the plan's calls."""
    if ctx.contradicted_by is not None:
        return Match(_with({"contradicted_by": ctx.contradicted_by}, difference=ctx.contradiction))
    return Miss("no checked read contradicts it")


@predicate("plan_side_effect", context="plan-verdict")
def plan_side_effect(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """A read of something no write changed differed after one of the plan's calls on a related path."""
    if ctx.side_effect_by is not None:
        return Match(_with({"read": ctx.side_effect_by}, difference=ctx.side_effect))
    return Miss("no unexplained change on a related path")


@predicate("plan_cascade", context="plan-verdict")
def plan_cascade(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """A recorded call changed state the plan does not write, where no gate check looks (a read of
    another collection's unrelated path, ``write-cascades``): serving would go on answering it as before."""
    if ctx.cascade_by is not None:
        return Match(_with({"read": ctx.cascade_by}, shown=ctx.cascade))
    return Miss("no read of another collection showed a recorded call changing it")


@predicate("plan_reference_materialized", context="plan-verdict")
def plan_reference_materialized(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """A member of the plan names another type's entities, and the application made one such entity
    when a call named it (``reference-dangling.materialized``): its writes change that type too."""
    if ctx.materialized_references:
        return Match({"members": list(ctx.materialized_references)})
    return Miss("no member names entities the application makes when named")


@predicate("plan_type_copied", context="plan-verdict")
def plan_type_copied(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """Another state type holds copies of the plan's entities: its write changes what that type
    answers too, which serving would not do."""
    left = [name for name in ctx.copies if name not in ctx.copies_refused_per_call]
    if left:
        return Match({"copies": left})
    if ctx.copies:
        return Miss(f"{', '.join(ctx.copies)} hold copies of its entities, and serving refuses a call while a "
                    "held entity of them copies the one it writes")
    return Miss("no other type holds copies of its entities")


@predicate("plan_referrer_counted", context="plan-verdict")
def plan_referrer_counted(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """Another type's member counts the plan's entities naming each of its entities, and the plan makes,
    removes or moves one: its write changes that count too, which serving would not do."""
    if ctx.counted_by:
        return Match({"counts": list(ctx.counted_by)})
    return Miss("no other type's member counts the entities it makes, removes or moves")


@predicate("plan_holds_beneath", context="plan-verdict")
def plan_holds_beneath(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """The state holds documents or collections below the item path of an entity the delete names."""
    if ctx.held_beneath:
        return Match({"paths": list(ctx.held_beneath)})
    return Miss("nothing is held below the item path of an entity it names")


@predicate("plan_ids_per_collection", context="plan-verdict")
def plan_ids_per_collection(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """The create numbers its identity per collection, yet the type's item path names an entity by
    its id alone whichever collection holds it: a create under another parent would make an id another
    collection holds, which the application's one sequence never does."""
    if ctx.ids_per_collection:
        return Match({"fields": list(ctx.ids_per_collection)})
    return Miss("no identity numbered per collection of a type whose item path names ids alone")


@predicate("plan_constant_holds_generated", context="plan-verdict")
def plan_constant_holds_generated(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """A create keeps as a constant an object or array whose string holds the value it generated for
    another field (a self link around the new id): served, every create would answer the exemplar's."""
    if ctx.constants_holding_generated:
        return Match({"fields": list(ctx.constants_holding_generated)})
    return Miss("no constant holds a value the create generated")


@predicate("plan_answer_names_arguments", context="plan-verdict")
def plan_answer_names_arguments(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """The recorded answer an update or delete is served with names the exemplar's path arguments
    (the id it deleted) in its text: serving answers that text as recorded, for any entity."""
    if ctx.answer_names_arguments:
        return Match({"arguments": list(ctx.answer_names_arguments)})
    return Miss("its recorded answer names none of the call's path arguments")


class AnswerStatusesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)


@predicate("plan_answer_defers_to_address", context="plan-verdict", params=AnswerStatusesParams)
def plan_answer_defers_to_address(ctx: PlanVerdictContext, params: AnswerStatusesParams) -> Outcome:
    """The plan answers with one of some statuses (202 Accepted: the work is done later) and its
    recorded answer, which carries no entity, names an address (the task doing the work)."""
    if ctx.answer_status not in params.statuses:
        return Miss(f"answers {ctx.answer_status}, not {' or '.join(str(s) for s in params.statuses)}")
    if not ctx.answer_addresses:
        return Miss("its recorded answer names no address")
    return Match({"status": ctx.answer_status, "addresses": list(ctx.answer_addresses)})


@predicate("plan_unconfirmed", context="plan-verdict")
def plan_unconfirmed(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """No checked read confirmed any of the plan's calls."""
    if ctx.confirmations == 0:
        return Match(_with({}, calls=list(ctx.unchecked_calls), replayed_reads=dict(ctx.replayed_reads)))
    return Miss(f"{ctx.confirmations} read(s) confirm it")


@predicate("plan_key_unconfirmed", context="plan-verdict")
def plan_key_unconfirmed(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """A create with a key whose get branch no recorded call confirmed."""
    if ctx.key and ctx.key_confirmations == 0:
        return Match({"key": ctx.key})
    if not ctx.key:
        return Miss("the create has no key")
    return Miss(f"{ctx.key_confirmations} call(s) got a held entity by its key {ctx.key} as serving would")


@predicate("plan_incomplete_entities", context="plan-verdict")
def plan_incomplete_entities(ctx: PlanVerdictContext, params: BaseModel) -> Outcome:
    """No initial entity holds every field the plan's recorded answer shows."""
    if ctx.incomplete_entities:
        return Match(_with({}, lacking=list(ctx.lacking_fields)))
    return Miss("an initial entity holds every field its answer shows")


def _with(evidence: dict, **more: object) -> dict:
    """The evidence with each explanation that says something (an empty one is left out)."""
    return {**evidence, **{k: v for k, v in more.items() if v}}


class StatusesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int]
    as_exemplar_statuses: list[int] = []
    """Statuses that count only for a call sent with the exemplar's credentials (a 403 may else
    be about who asked, which the spec does not model)."""


class RefusedStatusesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The refusals that count (a conflict or a validation failure, not a missing parent's 404)."""


@predicate("plan_refused_where_accepted", context="plan-verdict", params=RefusedStatusesParams)
def plan_refused_where_accepted(ctx: PlanVerdictContext, params: RefusedStatusesParams) -> Outcome:
    """A recorded call of the create was refused with one of ``statuses`` although another call
    created with the same body elsewhere."""
    refused = [(record, status) for record, status in ctx.refused_where_accepted if status in params.statuses]
    if refused:
        return Match({"record": refused[0][0], "status": refused[0][1], "calls": len(refused)})
    return Miss("no recorded call was refused with a body another call created with" if not ctx.refused_where_accepted
                else f"refused only with {sorted({s for _, s in ctx.refused_where_accepted})}, none of {params.statuses}")


class RefusedValuesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    statuses: list[int] = Field(min_length=1)
    """The refusals that count (a validation failure or a conflict, not a missing parent's 404)."""
    min_members: int = Field(ge=1)
    """How many of the update's members the refused body must send (one member's values are
    judged by write-validated-values; several may be judged together)."""


@predicate("plan_refused_create_values", context="plan-verdict", params=RefusedValuesParams)
def plan_refused_create_values(ctx: PlanVerdictContext, params: RefusedValuesParams) -> Outcome:
    """A create of the update's type was refused with one of ``statuses`` for a body sending at
    least ``min_members`` of the update's members as successful creates sent them."""
    refused = [(record, status, members) for record, status, members in ctx.refused_create_values
               if status in params.statuses and members >= params.min_members]
    if refused:
        return Match({"record": refused[0][0], "status": refused[0][1], "members": refused[0][2],
                      "calls": len(refused)})
    if not ctx.refused_create_values:
        return Miss("no create of the type was refused for values of the update's members")
    return Miss(f"refused creates sent at most {max(m for _, _, m in ctx.refused_create_values)} of the "
                f"update's members with statuses {sorted({s for _, s, _ in ctx.refused_create_values})}, "
                f"not {params.min_members} or more with one of {params.statuses}")


@predicate("plan_refused_serving_accepts", context="plan-verdict", params=RefusedStatusesParams)
def plan_refused_serving_accepts(ctx: PlanVerdictContext, params: RefusedStatusesParams) -> Outcome:
    """A recorded call of the update was refused with one of ``statuses`` where serving would have
    applied it to the state held before it."""
    refused = [(record, status) for record, status in ctx.refused_serving_accepts if status in params.statuses]
    if refused:
        return Match({"record": refused[0][0], "status": refused[0][1], "calls": len(refused)})
    return Miss("no recorded call was refused that serving would have applied" if not ctx.refused_serving_accepts
                else f"refused only with {sorted({s for _, s in ctx.refused_serving_accepts})}, none of {params.statuses}")


@predicate("plan_refused_while_held", context="plan-verdict", params=StatusesParams)
def plan_refused_while_held(ctx: PlanVerdictContext, params: StatusesParams) -> Outcome:
    """A recorded call of the delete was refused with one of ``statuses`` while its entity was held."""
    refused = [(record, status) for record, status in ctx.refused_held if status in params.statuses]
    refused += [(record, status) for record, status in ctx.refused_held_as_exemplar
                if status in params.as_exemplar_statuses]
    if refused:
        return Match({"record": refused[0][0], "status": refused[0][1], "calls": len(refused)})
    return Miss("no recorded call was refused while its entity was held" if not ctx.refused_held else
                f"refused only with {sorted({s for _, s in ctx.refused_held})}, none of {params.statuses}"
                + (f" (nor of {params.as_exemplar_statuses} with the exemplar's credentials)"
                   if params.as_exemplar_statuses else ""))


@predicate("plan_refused_while_shown", context="plan-verdict", params=StatusesParams)
def plan_refused_while_shown(ctx: PlanVerdictContext, params: StatusesParams) -> Outcome:
    """A recorded call of the delete was answered with one of ``statuses`` while the reads showed its
    entity just before the call and again in the first read after it."""
    refused = [(record, status) for record, status in ctx.refused_shown if status in params.statuses]
    if refused:
        return Match({"record": refused[0][0], "status": refused[0][1], "calls": len(refused)})
    return Miss("no recorded call was refused while the reads showed its entity around it" if not ctx.refused_shown
                else f"refused only with {sorted({s for _, s in ctx.refused_shown})}, none of {params.statuses}")


class MemberRulesParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: list[str] = Field(min_length=1)


@predicate("plan_member_admitted_by", context="plan-verdict", params=MemberRulesParams)
def plan_member_admitted_by(ctx: PlanVerdictContext, params: MemberRulesParams) -> Outcome:
    """A body member the plan accepts was admitted by one of these member rules."""
    found = [member for member, rule in ctx.member_rules if rule in params.rules]
    if found:
        return Match({"members": found})
    return Miss(f"no member admitted by {', '.join(params.rules)}")
