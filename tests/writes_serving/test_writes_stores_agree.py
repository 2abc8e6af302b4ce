"""One fixed sequence of served writes answers alike whichever store keeps the state: every served
write tool of every capture called on the default store (the runtime's own memory store), on
``memory:`` and on ``sqlite:``, each call under an idempotency key then retried exactly (the
recorded answer) and with another body (refused, nothing written), data/get byte-identical after
every call. The stores' commit paths differ (the memory store keeps texts and compares a retry
itself, SQLite keeps digests), so this is where one of them answering otherwise shows."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from support.served import capture_names
from test_writes_provenance import arguments_for, holds_an_entity, served_writes
from write_calls import shown

from capenv.serving.runtime import EnvironmentRuntime


def changed_body(arguments: dict, schema: dict) -> dict | None:
    """The same call with its first string body member changed; None when it sends none. A member
    the schema holds to listed values (``const``, ``enum``), to a shape (``pattern``: a client-chosen
    identity) or to a length (``maxLength``) is left as sent: argument validation would refuse the
    change before the key is looked up."""
    body = arguments.get("body")
    if not isinstance(body, dict):
        return None
    members = schema.get("properties", {}).get("body", {}).get("properties", {})
    name = next((n for n, v in body.items() if isinstance(v, str)
                 and not {"const", "enum", "pattern", "maxLength"} & set(members.get(n, {}))), None)
    return None if name is None else {**arguments, "body": {**body, name: body[name] + " changed"}}


@pytest.mark.parametrize("capture", capture_names())
def test_every_store_answers_a_fixed_sequence_of_writes_alike(capture: str, bundle_of, tmp_path: Path) -> None:
    bundle = bundle_of(capture)
    runtimes = [EnvironmentRuntime(bundle), EnvironmentRuntime(bundle, store="memory:"),
                EnvironmentRuntime(bundle, store=f"sqlite:{tmp_path / 'state.sqlite'}")]
    first, *others = runtimes
    rng = random.Random(5)
    try:
        for number, plan in enumerate(served_writes(bundle)):
            made = holds_an_entity(first, plan, random.Random(number))  # a create of its type first, if needed
            for runtime in others:
                assert holds_an_entity(runtime, plan, random.Random(number)) == made
            if not made:
                continue
            before = {runtime.data_get() for runtime in runtimes}
            assert len(before) == 1, plan.tool
            arguments = arguments_for(first, plan, rng)
            key = f"agree-{number}"
            answers = [runtime.call_tool(plan.tool, arguments, idempotency_key=key) for runtime in runtimes]
            assert all(a == answers[0] for a in answers), shown([plan.tool, [a.structured for a in answers]])
            states = {runtime.data_get() for runtime in runtimes}
            assert len(states) == 1, f"{plan.tool}: the stores hold different states"
            if answers[0].is_error:  # refused: nothing was recorded under the key
                assert states == before
                continue
            for runtime in runtimes:
                assert runtime.call_tool(plan.tool, arguments, idempotency_key=key) == answers[0], plan.tool
                other = changed_body(arguments, next(s for s in runtime.tools() if s.name == plan.tool).input_schema)
                if other is not None:
                    refused = runtime.call_tool(plan.tool, other, idempotency_key=key)
                    assert refused.is_error and "already used" in refused.structured["message"], \
                        shown(refused.structured)
                assert runtime.data_get() in states, f"{plan.tool}: a retry changed the state"
        for runtime in runtimes:
            runtime.data_reset()
        assert len({runtime.data_get() for runtime in runtimes}) == 1
    finally:
        for runtime in runtimes:
            runtime.close()
