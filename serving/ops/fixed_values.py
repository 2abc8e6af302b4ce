"""Values the plan fixes: ``constant`` (a create's recorded value) and ``set`` (an action's value)."""

from __future__ import annotations

from typing import Any

from capenv.interpreter.bundle.op_params import ConstantParams, SetParams

from .context import OpContext, copy_json
from .registry import serving_op


@serving_op("constant")
def constant(params: ConstantParams, ctx: OpContext) -> Any:
    """The exemplar's value, for a field no other rule explains."""
    return copy_json(params.value)


@serving_op("set")
def set_value(params: SetParams, ctx: OpContext) -> Any:
    """An action's value, set on every call (``archived: true``)."""
    return copy_json(params.value)
