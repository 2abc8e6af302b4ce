"""The initial state's snapshot holds a recorded list's order with a set test, so a capture with
one very large list builds in time linear in its length (issue 11: 40k items took 12.9 s, 80k
items 49.6 s, from a list membership test per entity). Counted, not timed: every key comparison
the snapshot makes is counted, and a list test would make about n²/2 of them."""

from __future__ import annotations

from capenv.interpreter.view.extract import StateBuilder, _Collection, _Entity

ITEMS = 3000


class CountedKey(str):
    compared = 0

    def __eq__(self, other: object) -> bool:
        CountedKey.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_the_snapshot_of_a_large_whole_list_compares_each_key_a_bounded_number_of_times() -> None:
    keys = [CountedKey(str(n)) for n in range(ITEMS)]
    collection = _Collection("/items", "items", {})
    for n, key in enumerate(keys):
        collection.entities[key] = _Entity(n, {"id": n}, [1])
    collection.whole_order = [CountedKey(str(n)) for n in reversed(range(ITEMS))]  # equal keys, other objects
    builder = StateBuilder(types={}, collections={"/items": collection})
    CountedKey.compared = 0
    snapshot = builder.snapshot("ev-test")
    assert [e.id for e in snapshot.collections[0].entities] == list(reversed(range(ITEMS)))
    assert CountedKey.compared <= 10 * ITEMS, CountedKey.compared  # a handful per key; a list test: ~n²/2
