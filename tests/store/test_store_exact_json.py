"""Property: any JSON object of exact values reads back with the same canonical bytes and the same
member order from every provider (numbers keep their text through the jsonvalue codec)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_conformance import env

from capenv.interpreter.bundle import jsonvalue
from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.store import Expect, Store, SubjectWrite

number_texts = st.one_of(
    st.decimals(allow_nan=False, allow_infinity=False).map(lambda d: str(d)),
    st.integers(min_value=-(10**40), max_value=10**40).map(lambda i: f"{i}.0"),
    st.sampled_from(["1e400", "-0.0", "1.10", "12345678901234567890123456789", "2.5E-7"]),
).filter(lambda t: "E" in t or "e" in t or "." in t).map(JsonNumber)

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**64 - 1), st.text(),
                    number_texts)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(), inner, max_size=4)),
                      max_leaves=20)
states = st.dictionaries(st.text(), values, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=states)
def test_exact_values_round_trip(store: Store, state: dict) -> None:
    store_id = f"s{len(store.list_ids('exact'))}"
    store.commit(env(f"r-{store_id}"), [SubjectWrite("exact", store_id, Expect.absent(), state)])
    loaded = store.load("exact", store_id)
    assert loaded is not None
    assert jsonvalue.dumps(loaded.state) == jsonvalue.dumps(state)
    assert jsonvalue.canonical(store.history("exact", store_id)[-1].state) == jsonvalue.canonical(state)
