"""``list_places.CallsBetween``: the calls made wholly between two list reads, found by bisection
when ordinals follow start times. It must find exactly what a walk over every call finds (calls
overlapping either read left out, calls ending when the next read starts kept), and look only at
the calls starting between the two reads (the walk over every write per pair of reads was
quadratic in the capture's records)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from capenv.interpreter.plans.list_places import CallsBetween, _between

EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)


class CountingRecords(dict):
    """Records by ordinal, counting the lookups."""

    looked = 0

    def __getitem__(self, key):
        self.looked += 1
        return super().__getitem__(key)


def records(spans: list[tuple[float, float]]) -> CountingRecords:
    found = CountingRecords()
    for ordinal, (start, length) in enumerate(spans):
        found[ordinal] = SimpleNamespace(started_at=EPOCH + timedelta(seconds=start),
                                         finished_at=EPOCH + timedelta(seconds=start + length))
    return found


def finder(held: CountingRecords, ordered: bool) -> CallsBetween:
    return CallsBetween(SimpleNamespace(records=held, timeline=SimpleNamespace(start_ordered=ordered)))


def read(held: CountingRecords, ordinal: int) -> SimpleNamespace:
    return SimpleNamespace(record=dict.__getitem__(held, ordinal))


def test_finds_what_a_walk_over_every_call_finds():
    chance = random.Random(15)
    for _ in range(200):
        starts = sorted(chance.choice([0, 1, 2, 2.5, 3, 4, 5, 6]) for _ in range(chance.randint(2, 12)))
        held = records([(s, chance.choice([0, 0.5, 1, 2])) for s in starts])
        ordinals = sorted(held)
        calls = finder(held, ordered=True)
        for first in ordinals:
            for second in ordinals:
                before, after = read(held, first), read(held, second)
                walked = [o for o in ordinals if _between(dict.__getitem__(held, o), before, after)]
                assert calls.between("every call", ordinals, before, after) == walked


def test_calls_out_of_start_order_are_all_walked():
    held = records([(5, 1), (0, 1), (2, 1), (9, 1)])  # ordinal 0 starts last but one
    calls = finder(held, ordered=False)
    assert calls.between("every call", [0, 1, 2, 3], read(held, 1), read(held, 3)) == [0, 2]


def test_looks_only_at_the_calls_starting_between_the_reads():
    held = records([(second, 0.5) for second in range(10_000)])
    calls = finder(held, ordered=True)
    ordinals = sorted(held)
    calls.between("every call", ordinals, read(held, 0), read(held, 1))  # the start times, once
    held.looked = 0
    for first in range(0, 9_990, 10):
        assert calls.between("every call", ordinals, read(held, first), read(held, first + 4)) == \
            [first + 1, first + 2, first + 3]
    assert held.looked == 999 * 4  # the three between and the second read itself (it starts then)
