"""Generated identities and unique values: ``identity`` and ``unique``.

``identity`` gives the type's id field a new value: a sequence (an integer or a string of
digits), a UUID, or a token of the recorded length, classes and separator positions.
``unique`` gives a field a UUID or token no other entity of the type holds, on a create or on
every update (a version the application assigns). UUIDs and tokens skip the values the type
holds in the field.
"""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.op_params import IdentityParams, UniqueParams

from .context import OpContext, OpRefusal
from .generated_ids import CLASS_LETTERS, derive_token, derive_uuid, token_shape
from .registry import serving_op
from .sequences import identity_sequence


def _uuid(ctx: OpContext, uppercase: bool) -> str:
    return derive_uuid(ctx.evidence_id, ctx.tool, ctx.field, ctx.write_counter,
                       ctx.type_values(ctx.field), uppercase=uppercase)


HEX_CLASSES = ("x", "X")


def _token(ctx: OpContext, params: IdentityParams | UniqueParams) -> str:
    shape = token_shape(params.length, params.classes, params.separators)
    held = ctx.type_values(ctx.field)
    if isinstance(params, IdentityParams) and params.classes in HEX_CLASSES and not params.separators:
        following = _following_hex(ctx, params.length or 0, CLASS_LETTERS[params.classes], held)
        if following is not None:
            return following
    return derive_token(ctx.evidence_id, ctx.tool, ctx.field, ctx.write_counter, shape, held)


def _following_hex(ctx: OpContext, length: int, digits: str, held: Any) -> str | None:
    """A hexadecimal identity above every one the type holds of its length: ObjectIds and other
    hexadecimal ids that lead with their creation time list a new entity after the held ones, as
    an order by id shows it; a random digest loses nothing by it. None when none is held (or the
    space above the largest is spent)."""
    largest = getattr(held, "largest_text", lambda n: None)(length)
    if largest is None or any(c not in digits for c in largest):
        return None
    step = 1 + int(derive_token(ctx.evidence_id, ctx.tool, ctx.field, ctx.write_counter,
                                token_shape(4, "x", {})), 16)
    value = int(largest, 16) + step
    text = format(value, "x").rjust(length, "0")
    return None if len(text) > length else (text if digits[-1] == "f" else text.upper())


@serving_op("identity")
def identity(params: IdentityParams, ctx: OpContext) -> Any:
    if params.format == "sequence":
        return identity_sequence(params, ctx)
    drawn = _uuid(ctx, params.uppercase) if params.format == "uuid" else _token(ctx, params)
    if params.address_origin is None:
        return drawn
    if ctx.collection is None:
        raise OpRefusal(f"field {ctx.field!r} is the entity's own address, and this write names no collection")
    # the entity's own address around the id drawn (IdAddress): as every recorded create showed it
    return f"{params.address_origin}{ctx.collection.rstrip('/')}/{drawn}{'/' if params.address_slash else ''}"


@serving_op("unique")
def unique(params: UniqueParams, ctx: OpContext) -> str:
    if params.format == "uuid":
        return _uuid(ctx, params.uppercase)
    return _token(ctx, params)
