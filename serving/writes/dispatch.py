"""The variant of a write plan a call's path values name (``WritePlan.dispatch_params``).

A tool whose collection segment names a kind of entity per value (Parse's ``/classes/{class}``)
holds one plan per recorded value, each proven on that value's calls only. A call runs the served
variant its values name; a value with none is refused, naming the values that are served and why
the call's own value is not, since no recorded call shows what the application does there.
"""

from __future__ import annotations

from urllib.parse import unquote

from capenv.interpreter.bundle.models import WritePlan
from capenv.interpreter.bundle.paths import split_path

from .calls import WriteRefusal


def dispatch_values(plan: WritePlan, path: str) -> dict[str, str]:
    """The decoded values of the plan's dispatch parameters ``path`` sends."""
    segments = split_path(path)
    return {piece[1:-1]: unquote(segments[index]) for index, piece in enumerate(split_path(plan.template))
            if piece[1:-1] in plan.dispatch_params and piece.startswith("{") and index < len(segments)}


def spelled(values: dict[str, str]) -> str:
    return ", ".join(f"{name} {value!r}" for name, value in values.items())


def served_values(plan: WritePlan) -> list[dict[str, str]]:
    return [v.dispatch_args for v in plan.variants if v.served]


def variant_for(plan: WritePlan, path: str) -> WritePlan:
    """The served variant ``path``'s values name (``plan`` itself when it dispatches on nothing).
    Raises ``WriteRefusal`` when none does."""
    if not plan.dispatch_params:
        return plan
    values = dispatch_values(plan, path)
    chosen = next((v for v in plan.variants if v.dispatch_args == values), None)
    if chosen is not None and chosen.served:
        return chosen
    accepted = "; ".join(spelled(v) for v in served_values(plan)) or "none"
    why = (f"its plan for {spelled(values)} is not served ({chosen.reason or 'not proven'})" if chosen is not None
           else f"the capture records no write with {spelled(values)}")
    raise WriteRefusal(f"each value of {', '.join(plan.dispatch_params)} names its own kind of entity, and {why}: "
                       f"no recorded call shows what the application does there. Served values: {accepted}")
