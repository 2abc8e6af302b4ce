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

from .context import OpContext
from .generated_ids import derive_token, derive_uuid, token_shape
from .registry import serving_op
from .sequences import identity_sequence


def _uuid(ctx: OpContext, uppercase: bool) -> str:
    return derive_uuid(ctx.evidence_id, ctx.tool, ctx.field, ctx.write_counter,
                       ctx.type_values(ctx.field), uppercase=uppercase)


def _token(ctx: OpContext, params: IdentityParams | UniqueParams) -> str:
    shape = token_shape(params.length, params.classes, params.separators)
    return derive_token(ctx.evidence_id, ctx.tool, ctx.field, ctx.write_counter, shape,
                        ctx.type_values(ctx.field))


@serving_op("identity")
def identity(params: IdentityParams, ctx: OpContext) -> Any:
    if params.format == "sequence":
        return identity_sequence(params, ctx)
    if params.format == "uuid":
        return _uuid(ctx, params.uppercase)
    return _token(ctx, params)


@serving_op("unique")
def unique(params: UniqueParams, ctx: OpContext) -> str:
    if params.format == "uuid":
        return _uuid(ctx, params.uppercase)
    return _token(ctx, params)
