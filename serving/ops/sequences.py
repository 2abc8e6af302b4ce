"""The ``sequence`` op: a value one more than any its scope holds, started with or was served.

The numbers it draws from are the runtime's ``SequenceState``, through the write's
``SequenceDraft`` (``sequence_state.py``). A draw while no entity holds the largest number its
scope counts (the entity holding it was deleted) is refused unless the plan's rule says the
capture proved the application does not give that number again (``fresh_after_delete``).
"""

from __future__ import annotations

from typing import Any, Callable

from capenv.interpreter.bundle.op_params import IdentityParams, SequenceParams

from .context import OpContext, OpRefusal
from .registry import serving_op
from .sequence_state import SEQUENCE_LIMIT, UNCOUNTED, ScopeKind, SequenceDraft, SequenceScope, format_sequence


def scope_of(ctx: OpContext, kind: ScopeKind) -> SequenceScope:
    return SequenceScope(ctx.type_name, ctx.field, ctx.collection if kind == "collection" else None)


def generate_sequence(ctx: OpContext, kind: ScopeKind, spelled: Callable[[int], Any],
                      params: SequenceParams | IdentityParams) -> int:
    """Draw the next number of the field's scope and record it in the write's draft; ``spelled``
    writes a number as the field records it."""
    if ctx.sequences is None:
        raise RuntimeError("the runtime must give a sequence op a SequenceDraft (OpContext.sequences)")
    draft = ctx.sequences
    scope = scope_of(ctx, kind)
    counted = draft.counted(scope)  # once: the refusal and the draw read the same numbers
    if not params.fresh_after_delete:
        refuse_after_deleted_largest(draft, scope, spelled, params.reuse_seen, counted)
    number = draft.next_number(scope, counted)
    if number > SEQUENCE_LIMIT:
        raise OpRefusal(f"the sequence of {scope.type_name}.{scope.field} has reached {SEQUENCE_LIMIT}, the largest "
                        "value this server writes; data/reset, or data/add a state whose values leave room")
    ctx.sequences.record(scope, number)
    return number


def refuse_after_deleted_largest(draft: SequenceDraft, scope: SequenceScope, spelled: Callable[[int], Any],
                                 reuse_seen: int | None, counted: int | None | object = UNCOUNTED) -> None:
    """Refuse a draw while no entity holds the largest number the scope counts: the entity holding
    it was deleted since the last reset or load, and the capture did not prove the application's
    sequence goes past it as the spec's does (``sequence-reuse``), rather than give it again as
    SQLite's rowid and json-server's max + 1 do."""
    deleted = draft.deleted_largest(scope, spelled, counted)
    if deleted is None:
        return
    shown = spelled(deleted)
    why = (f"the capture shows the application giving a deleted {scope.field} again (record {reuse_seen}; rule "
           "sequence-reuse.deleted-value-taken)" if reuse_seen is not None else
           "the capture shows no create after such a delete, so whether the application gives the deleted value "
           "again (as SQLite's rowid and json-server do) or goes past it is unproven (rules/sequence-reuse.yaml: "
           "no rule matched)")
    raise OpRefusal(f"no {scope.type_name} entity holds {scope.field} {shown!r}, the largest this state has held "
                    f"since its last reset or load (its entity was deleted): {why}; a create is accepted while the "
                    f"entity holding the largest {scope.field} is held, or after data/reset or data/add")


@serving_op("sequence")
def sequence(params: SequenceParams, ctx: OpContext) -> int | str:
    """One more than any value the scope holds, started with or was served, spelled as recorded."""
    def spelled(number: int) -> int | str:
        return format_sequence(number, params.groups, params.as_string)

    return spelled(generate_sequence(ctx, params.scope, spelled, params))


def identity_sequence(params: IdentityParams, ctx: OpContext) -> int | str:
    """An identity that is a sequence (an integer, a string of digits, or a Relay global id)."""
    def spelled(number: int) -> int | str:
        return format_sequence(number, None, params.as_string, params.encoded_prefix)

    return spelled(generate_sequence(ctx, params.scope, spelled, params))
