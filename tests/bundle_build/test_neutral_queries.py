"""The query parameters two recordings prove neutral (``view/replay_facts._neutral``) are the
ones a walk over every pair of calls finds, proven by the same pair and found in the same
order: the walk compares each pair of distinct queries once instead of each pair of calls.
Two answers that list nothing prove nothing (any two filters selecting nothing agree)."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace
from urllib.parse import unquote_plus

from hypothesis import given, settings
from hypothesis import strategies as st

from capenv.interpreter.bundle.values import same_json
from capenv.interpreter.view.replay_facts import _neutral, lists_nothing


def every_pair(calls: list) -> dict[str, tuple[int, int]]:
    """The reference: every pair of calls of the same path and body, in recorded order."""
    found: dict[str, tuple[int, int]] = {}
    groups: dict[tuple, list] = {}
    for call in calls:
        groups.setdefault((call.path, repr(call.request_body)), []).append(call)
    for group in groups.values():
        for index, first in enumerate(group):
            for second in group[index + 1:]:
                left = Counter((unquote_plus(n), unquote_plus(v)) for n, v in first.query)
                right = Counter((unquote_plus(n), unquote_plus(v)) for n, v in second.query)
                names = {n for n, _ in (left - right) + (right - left)}
                name = names.pop() if len(names) == 1 else None
                one, two = first.response, second.response
                same = one.status == two.status and same_json(one.body, two.body) and not lists_nothing(one)
                if name is not None and name not in found and same:
                    found[name] = (first.ordinal, second.ordinal)
    return found


queries = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "a%20"]), st.sampled_from(["1", "2", "x", "1.0"])),
                   max_size=3)
answers = st.tuples(st.sampled_from([200, 404]), st.sampled_from([[1], [2], {"k": 1}, [1, 2], [], {"items": []}]))
calls = st.lists(st.tuples(st.sampled_from(["/p", "/q"]), queries, answers), max_size=24)


@settings(max_examples=300, deadline=None)
@given(recorded=calls)
def test_neutral_parameters_are_those_every_pair_finds(recorded: list) -> None:
    made = [SimpleNamespace(ordinal=i + 1, path=path, query=tuple(query), request_body=None,
                            request_is_json=False, request_text=None,
                            response=SimpleNamespace(status=status, is_json=True, body=body, text=None))
            for i, (path, query, (status, body)) in enumerate(recorded)]
    expected = every_pair(made)
    found = _neutral(tuple(made))
    assert list(found.items()) == list(expected.items())


def _call(ordinal: int, query: tuple, body) -> SimpleNamespace:
    return SimpleNamespace(ordinal=ordinal, path="/api/things:get", query=query, request_body=None,
                           request_is_json=False, request_text=None,
                           response=SimpleNamespace(status=200, is_json=True, body=body, text=None))


def test_two_ids_naming_nothing_prove_the_id_parameter_nothing() -> None:
    """An item read addressed by a query parameter answers an envelope around null for every id
    that names nothing: two such ids answering alike are no proof that the parameter changes
    nothing, or replay would answer another id with the recording of the entity one id named."""
    recorded = (_call(1, (("key", "1"),), {"data": {"id": 1, "name": "alpha"}}),
                _call(2, (("key", "99"),), {"data": None}),
                _call(3, (("key", "5"),), {"data": None, "meta": None}),
                _call(4, (("key", "5"),), {"data": None}))
    assert lists_nothing(recorded[1].response) and lists_nothing(recorded[2].response)
    assert "key" not in _neutral(recorded)


def test_answers_holding_values_still_prove_a_parameter() -> None:
    """A cache-buster answered alike with a value in the answer still proves itself neutral."""
    recorded = (_call(1, (("_", "1"),), {"data": {"id": 1}}), _call(2, (("_", "2"),), {"data": {"id": 1}}))
    assert not lists_nothing(recorded[0].response)
    assert _neutral(recorded) == {"_": (1, 2)}
