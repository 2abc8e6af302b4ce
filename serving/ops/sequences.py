"""The ``sequence`` op: a value one more than any its scope holds, started with or was served.

The numbers it draws from are the runtime's ``SequenceState``, through the write's
``SequenceDraft`` (``sequence_state.py``).
"""

from __future__ import annotations

from capenv.interpreter.bundle.op_params import IdentityParams, SequenceParams

from .context import OpContext, OpRefusal
from .registry import serving_op
from .sequence_state import SEQUENCE_LIMIT, ScopeKind, SequenceScope, format_sequence


def scope_of(ctx: OpContext, kind: ScopeKind) -> SequenceScope:
    return SequenceScope(ctx.type_name, ctx.field, ctx.collection if kind == "collection" else None)


def generate_sequence(ctx: OpContext, kind: ScopeKind) -> int:
    """Draw the next number of the field's scope and record it in the write's draft."""
    if ctx.sequences is None:
        raise RuntimeError("the runtime must give a sequence op a SequenceDraft (OpContext.sequences)")
    scope = scope_of(ctx, kind)
    number = ctx.sequences.next_number(scope)
    if number > SEQUENCE_LIMIT:
        raise OpRefusal(f"the sequence of {scope.type_name}.{scope.field} has reached {SEQUENCE_LIMIT}, the largest "
                        "value this server writes; data/reset, or data/add a state whose values leave room")
    ctx.sequences.record(scope, number)
    return number


@serving_op("sequence")
def sequence(params: SequenceParams, ctx: OpContext) -> int | str:
    """One more than any value the scope holds, started with or was served, spelled as recorded."""
    return format_sequence(generate_sequence(ctx, params.scope), params.groups, params.as_string)


def identity_sequence(params: IdentityParams, ctx: OpContext) -> int | str:
    """An identity that is a sequence (an integer, a string of digits, or a Relay global id)."""
    return format_sequence(generate_sequence(ctx, params.scope), None, params.as_string, params.encoded_prefix)
