"""``trusted``: a model built from values already of its fields' types is the model
``model_construct`` builds (same fields, same fields set, equal, same dump)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field

from capenv.interpreter.bundle.trusted import trusted
from capenv.interpreter.rules_engine.trace import Decision, TraceEvent


def test_a_trace_event_and_a_decision_are_built_as_model_construct_builds_them() -> None:
    event = {"table": "t", "rule_id": "r", "outcome": "miss", "subject": "s", "evidence": {"a": 1},
             "reason": "why", "location": "rules/t.yaml:3"}
    decision = {"table": "t", "subject": "s", "rules_revision": "rev", "matched": ("r",), "yields": {"y": 1},
                "serve": None, "evidence": {}, "events": (TraceEvent.model_construct(**event),)}
    for cls, values in ((TraceEvent, event), (Decision, decision)):
        fast, slow = trusted(cls, dict(values)), cls.model_construct(**values)
        assert fast == slow and fast.__dict__ == slow.__dict__
        assert fast.model_fields_set == slow.model_fields_set
        assert fast.model_dump(mode="json") == slow.model_dump(mode="json") == cls(**values).model_dump(mode="json")


def test_a_model_model_construct_would_build_otherwise_is_refused() -> None:
    class Aliased(BaseModel):
        name: str = Field(alias="Name")

    class Extra(BaseModel):
        model_config = ConfigDict(extra="allow")
        name: str

    for cls in (Aliased, Extra):
        with pytest.raises(TypeError, match="not a plain model"):
            trusted(cls, {"name": "x"})
