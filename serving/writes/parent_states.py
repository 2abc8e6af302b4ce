"""Refuse a create under a parent in a state no successful recorded create found
(``WritePlan.parent_states``, learned by ``interpreter/plans/parent_states``): the application may
accept a child only in some states of its parent (Glance adds members only to a shared image, 403
otherwise), so a create under a parent holding another word, or one the state does not hold, is
refused, state unchanged, saying what is accepted. The gate replays recorded calls and never runs
this check (``WriteEnv.checks_references``)."""

from __future__ import annotations

from capenv.interpreter.bundle.models import EntityType, WritePlan
from capenv.serving.reads.parents import held_parent
from capenv.serving.state.index import StateIndex

from .calls import WriteRefusal


def refuse_unproven_parent_states(plan: WritePlan, collection_path: str, types: dict[str, EntityType],
                                  state: StateIndex) -> None:
    for parent_state in plan.parent_states:
        parent_type = types.get(parent_state.parent_type)
        if parent_type is None:
            continue
        parent = held_parent(collection_path, parent_type, state)
        if parent is None:
            held = "the state does not hold the parent, so its state is not known"
        elif parent.get(parent_state.member) in parent_state.values:
            continue
        else:
            held = f"its {parent_state.member} is {parent.get(parent_state.member)!r}"
        raise WriteRefusal(f"a create under this {parent_type.name} is not served: {held}, and every successful "
                           f"recorded create found its {parent_type.name} holding {parent_state.member} "
                           f"{' or '.join(repr(v) for v in parent_state.values)} (the application may refuse a create "
                           f"under a {parent_type.name} in another state; no recording shows it accepted); accepted: "
                           f"{parent_state.described}", where={"collection": collection_path})
