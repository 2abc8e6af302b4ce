"""``protected._distinct``: the values the protected tables judge, each once in the order first
seen. Every list read shows an unchanged entity again; the tables' predicates walked each repeat
per rule and per judged plan. The first occurrence stays first and is the one kept, so the value
a predicate names first (its example, its miss's reason) is the one it named before."""

from __future__ import annotations

from capenv.interpreter.plans.protected import _distinct


def test_each_value_once_in_the_order_first_seen():
    system = {"id": 1, "name": "default", "system": True}
    other = {"id": 2, "name": "mine", "system": False}
    renamed = {"id": 2, "name": "ours", "system": False}
    assert _distinct([system, other, dict(system), renamed, dict(other)]) == [system, other, renamed]


def test_the_first_occurrence_is_the_one_kept():
    first = {"id": 1, "flags": {"locked": True, "system": False}}
    again = {"flags": {"system": False, "locked": True}, "id": 1}  # the same JSON, spelled in another order
    kept = _distinct([first, again])
    assert len(kept) == 1 and kept[0] is first


def test_values_differing_only_in_a_number_spelling_or_type_stay_apart():
    assert len(_distinct([{"id": 1, "on": True}, {"id": 1, "on": 1}, {"id": "1", "on": True}])) == 3
