"""Values the plan fixes: ``constant`` (a create's recorded value) and ``set`` (an action's value)."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.op_params import ConstantParams, SetParams

from .context import OpContext, OpRefusal, absent, copy_json
from .registry import serving_op


@serving_op("constant")
def constant(params: ConstantParams, ctx: OpContext) -> Any:
    """The exemplar's value, for a field no other rule explains; for an update's member stored
    otherwise than sent, only when the call sends it, on an entity holding what the recorded call
    found (``requires_from``)."""
    if params.member is not None:
        if params.member not in ctx.body:
            return absent(ctx, f"body member {params.member!r}")
        before = ctx.entity_before or {}
        if params.requires_from and (ctx.field not in before or before[ctx.field] != params.from_value):
            raise OpRefusal(f"member {params.member!r} is served only on an entity whose {ctx.field!r} holds "
                            f"{params.from_value!r}, as the recorded call found it: the application stored "
                            "another value than the one sent, which may depend on what the entity held")
    return copy_json(params.value)


@serving_op("set")
def set_value(params: SetParams, ctx: OpContext) -> Any:
    """An action's value, set on every call (``archived: true``)."""
    return copy_json(params.value)
