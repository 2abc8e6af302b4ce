"""Sequences: one more than the held, started-with and served maxima; groups; the JSON state."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ops_helpers import context, rule

from capenv.interpreter.bundle.jsonvalue import JsonNumber, dumps, loads
from capenv.serving.ops import (OpParamsError, OpRefusal, SequenceScope, SequenceState, apply_field_rule, format_sequence,
                                sequence_fields, sequence_number)


class Store:
    """A tiny stand-in for the runtime: collections of entities, one SequenceState, a commit per write."""

    def __init__(self, collections: dict[str, list[dict]], plans=()):
        self.collections = collections
        self.plans = plans
        self.sequences = SequenceState()
        self.reset()

    def reset(self):
        self.sequences.restart(sequence_fields(self.plans),
                               (("posts", path, entities) for path, entities in self.collections.items()))

    def values(self, scope: SequenceScope):
        return (e.get(scope.field) for e in self.values_entities(scope))

    def values_entities(self, scope: SequenceScope):
        paths = [scope.collection] if scope.collection else list(self.collections)
        return [e for p in paths for e in self.collections.get(p, [])]

    def create(self, field_rule, collection="/posts", refuse=False):
        ctx = context(scope_values=self.values, state=self.sequences, collection=collection)
        value = apply_field_rule(field_rule, ctx)
        if refuse:  # a later op refused: nothing is committed
            return value
        ctx.sequences.commit()
        self.collections.setdefault(collection, []).append({field_rule.field: value})
        return value


def _plan(*rules):
    class Plan:
        type = "posts"
        fields = rules
    return Plan()


def test_one_more_than_the_largest_held():
    r = rule("sequence", "n")
    store = Store({"/posts": [{"n": 3}, {"n": 7}, {"n": None}, {"n": "x"}]}, [_plan(r)])
    assert store.create(r) == 8
    assert store.create(r) == 9


def test_a_deleted_maximum_is_never_reused():
    r = rule("sequence", "n")
    store = Store({"/posts": [{"n": 1}, {"n": 2}]}, [_plan(r)])
    assert store.create(r) == 3
    store.collections["/posts"] = [e for e in store.collections["/posts"] if e["n"] != 3]
    assert store.create(r) == 4


def test_the_largest_at_reset_is_kept_after_its_entity_is_deleted():
    r = rule("sequence", "n")
    store = Store({"/posts": [{"n": 1}, {"n": 10}]}, [_plan(r)])
    store.collections["/posts"].pop()  # the entity holding 10 is deleted before any create
    assert store.create(r) == 11


def _holding(store: Store):
    """A ``holds`` callback over the store's entities (what the runtime reads from the state)."""
    def holds(scope: SequenceScope, spellings) -> bool:
        wanted = set(spellings)
        return any(e.get(scope.field) in wanted for e in store.values_entities(scope))
    return holds


def test_a_draw_after_the_largest_is_deleted_is_refused_unless_proven_fresh():
    store = Store({"/posts": [{"n": 1}, {"n": 2}]})
    store.sequences.restart([("posts", "n", "collection")], [("posts", "/posts", store.collections["/posts"])])
    holds = _holding(store)
    draft = store.sequences.draft(store.values, holds)
    scope = SequenceScope("posts", "n", "/posts")
    assert draft.deleted_largest(scope, str) is None  # 2 is held
    store.collections["/posts"] = [{"n": 2}]  # a smaller one deleted: still held
    assert draft.deleted_largest(scope, str) is None
    store.collections["/posts"] = [{"n": 1}]
    assert draft.deleted_largest(scope, str) == 2
    refused = context(scope_values=store.values, state=store.sequences)
    refused.sequences.holds = holds
    with pytest.raises(OpRefusal, match=r"holds n 2.*unproven.*data/reset"):
        apply_field_rule(rule("sequence", "n"), refused)
    fresh = context(scope_values=store.values, state=store.sequences)
    fresh.sequences.holds = holds
    assert apply_field_rule(rule("sequence", "n", fresh_after_delete=True), fresh) == 3
    named = context(scope_values=store.values, state=store.sequences)
    named.sequences.holds = holds
    with pytest.raises(OpRefusal, match=r"record 12; rule sequence-reuse.deleted-value-taken"):
        apply_field_rule(rule("sequence", "n", reuse_seen=12), named)


def test_reset_restarts_the_sequences():
    r = rule("sequence", "n")
    initial = [{"n": 1}, {"n": 2}]
    store = Store({"/posts": list(initial)}, [_plan(r)])
    assert [store.create(r), store.create(r)] == [3, 4]
    store.collections = {"/posts": list(initial)}
    store.reset()
    assert store.create(r) == 3


def test_a_refused_write_leaves_the_state_unchanged():
    r = rule("sequence", "n")
    store = Store({"/posts": []}, [_plan(r)])
    before = SequenceState.from_json(store.sequences.to_json())
    assert store.create(r, refuse=True) == 1
    assert store.sequences == before
    assert store.create(r) == 1


def test_collection_and_type_scopes():
    by_collection = rule("sequence", "n")
    by_type = rule("sequence", "n", scope="type")
    store = Store({"/a/posts": [{"n": 5}], "/b/posts": [{"n": 2}]}, [_plan(by_collection)])
    assert store.create(by_collection, collection="/b/posts") == 3
    assert store.create(by_type, collection="/b/posts") == 6
    assert store.create(by_collection, collection="/new/posts") == 1


def test_grouped_sequences_keep_their_groups_and_overflow_leads():
    r = rule("sequence", "asset", groups=[3, 3])
    store = Store({"/posts": [{"asset": "000-005"}]}, [_plan(r)])
    assert store.create(r) == "000-006"
    store = Store({"/posts": [{"asset": "999-999"}]}, [_plan(r)])
    assert store.create(r) == "1000-000"
    assert store.create(r) == "1000-001"


def test_plain_sequences_as_strings_and_identities():
    assert Store({"/posts": [{"id": "41"}]}).create(rule("sequence", "id", as_string=True)) == "42"
    ident = rule("identity", "id", format="sequence", as_string=True)
    assert Store({"/posts": [{"id": "41"}]}, [_plan(ident)]).create(ident) == "42"
    assert Store({"/posts": [{"id": 41}]}).create(rule("identity", "id", format="sequence")) == 42


@pytest.mark.parametrize("value,number", [
    (5, 5), ("0042", 42), ("000-005", 5), ("1000-000", 1000000), (JsonNumber("18446744073709551615"), 2**64 - 1),
    # past what the state writes as an integer: the limit, never a Python integer of any size
    (JsonNumber("12345678901234567890123"), 2**64 - 1), (JsonNumber("1e999999999"), 2**64 - 1), ("9" * 10_000, 2**64 - 1),
    ("0" * 30 + "7", 7), (2**70, 2**64 - 1),
    (True, None), ("1.5", None), ("-5", None), ("12-", None), ("²", None), (JsonNumber("1.5"), None), (None, None),
])
def test_sequence_number(value, number):
    assert sequence_number(value) == number


@given(st.integers(min_value=0, max_value=10**12), st.lists(st.integers(1, 4), min_size=1, max_size=4))
def test_grouped_values_read_back(number, groups):
    text = format_sequence(number, groups)
    assert sequence_number(text) == number
    widths = [len(part) for part in text.split("-")]
    assert widths[1:] == groups[1:] and widths[0] >= groups[0]


def test_state_round_trips_through_json():
    state = SequenceState({SequenceScope("posts", "n", "/posts"): 3}, {SequenceScope("posts", "n", None): 9})
    assert SequenceState.from_json(loads(dumps(state.to_json()))) == state


def test_bad_groups_are_a_plan_error():
    with pytest.raises(OpParamsError):
        apply_field_rule(rule("sequence", "n", groups=[3, 0]), context())
