"""A create storing a value the call sent percent-encoded beside it (a binding's key ``order.#``
kept also as ``order.%23``): the text follows the whole sent value through an encoding no field
rule rebuilds. A template around the sent value's slug (``order`` + ``.%23``) reproduces the
exemplar alone and would answer ``job.%23`` for a sent ``job``; the exemplar's text kept would
answer ``order.%23`` for every create. Found by a metamorphic check (a capture's 201s answered
200): a create whose answer was empty was observed by a list read, the template was learned from
that one call and checked only on it, and serving answered such keys for every later binding."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

OLD = {"key": "email", "queue": "q1", "props": "email"}
NEW = {"key": "order.#", "queue": "q1", "props": "order.%23"}


def app() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/queues/q1/bindings", response=[OLD])
            .call("GET", "/queues/q1/bindings/email", response=OLD)
            .call("POST", "/queues/q1/bindings", body={"key": "order.#"}, response=NEW)
            .call("GET", "/queues/q1/bindings/order.%23", response=NEW)
            .call("GET", "/queues/q1/bindings", response=[OLD, NEW]))


def test_a_sent_value_stored_percent_encoded_is_no_template_and_the_create_is_not_served():
    bundle = build_from(app())
    create = plan(bundle, "POST", "/queues/q1/bindings")
    assert create.effect == "create", create.build_reason
    assert not any(f.field == "props" and f.op in ("template", "constant") for f in create.fields), create.fields
    vetoes = [e for e in create.traces if e.rule_id in ("field.template", "field.constant") and e.outcome == "miss"
              and "create_text_encodes_sent" in (e.reason or "")]
    assert vetoes, [(e.rule_id, e.reason) for e in create.traces if e.rule_id and e.rule_id.startswith("field.")]
    assert not create.served
    answer = EnvironmentRuntime(bundle).call_tool(create.tool, {"body": {"key": "job"}})
    assert answer.is_error, answer.structured  # never {"props": "job.%23"}
