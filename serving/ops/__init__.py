"""Serving ops: what a plan's field rules run at serving time, registered by name.

The public names below load lazily. The ops' parameters and names are the hand-over's
(``interpreter/bundle/op_params.py``), so the build side validates rules without serving.

May import: the build side's ``bundle`` models only. Nothing of serving imports back into ops'
callers: ops read an ``OpContext``, never the state or the runtime.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "OpContext": "context", "OpRefusal": "context", "OpParamsError": "context", "UNCHANGED": "context",
    "apply_field_rule": "apply", "apply_field_rules": "apply", "compile_rule": "apply",
    "CompiledRule": "apply", "order_rules": "apply",
    "SequenceState": "sequence_state", "SequenceDraft": "sequence_state", "SequenceScope": "sequence_state",
    "sequence_fields": "sequence_state", "format_sequence": "sequence_state", "sequence_number": "sequence_state",
    "format_instant": "clocks", "parse_instant": "clocks", "parse_write_clock": "clocks",
    "derive_uuid": "generated_ids", "derive_token": "generated_ids", "renewal_uuid": "generated_ids",
    "token_shape": "generated_ids",
    "slugify": "capenv.interpreter.bundle.text", "strip_markup": "capenv.interpreter.bundle.text",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module if "." in module else f"{__name__}.{module}"), name)
