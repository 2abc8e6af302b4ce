"""Ranks keep a collection's order in its entities' subjects: any sequence of insertions gets
ranks in the order of the positions, and appending stays one integer long."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from capenv.serving.state.ranks import InstalledRanks, copy_ranks, initial_ranks, rank_between, ranks_in_order


def test_appending_and_prepending_stay_short() -> None:
    ranks = initial_ranks(3)
    for _ in range(1000):
        ranks.append(rank_between(ranks[-1], None))
        ranks.insert(0, rank_between(None, ranks[0]))
    assert ranks == sorted(ranks) and all(len(rank) == 1 for rank in ranks)


@pytest.mark.parametrize("before, after, expected", [
    (None, None, [0]),
    ([3], None, [4]),
    (None, [3], [2]),
    ([1], [5], [2]),
    ([1], [2], [1, 0]),
    ([1], [1, 0], [1, -1]),
    ([1, 3], [1, 4], [1, 3, 0]),
    ([1, 3, 0], [1, 4], [1, 3, 1]),
])
def test_a_rank_between_two_neighbours(before, after, expected) -> None:
    assert rank_between(before, after) == expected


def test_neighbours_out_of_order_are_refused() -> None:
    with pytest.raises(ValueError, match="not in order"):
        rank_between([2], [1])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=200), st.integers(min_value=0, max_value=5))
def test_any_insertions_keep_the_order(positions: list[int], start: int) -> None:
    ranks = initial_ranks(start)
    for position in positions:
        at = position % (len(ranks) + 1)
        ranks.insert(at, rank_between(ranks[at - 1] if at > 0 else None, ranks[at] if at < len(ranks) else None))
    assert all(a < b for a, b in zip(ranks, ranks[1:]))


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=30),
       st.lists(st.tuples(st.sampled_from(["get", "set", "pop", "read-all", "copy"]), st.integers(0, 40)), max_size=30))
def test_installed_ranks_read_and_change_as_the_dict_of_initial_ranks(count: int, steps) -> None:
    """An install's ranks kept as its order answer every read and change as the dict of
    ``initial_ranks`` they stand for would, before and after the first one is read."""
    keys = [f"k{i}" for i in range(count)]
    installed, plain = InstalledRanks(keys), dict(zip(keys, initial_ranks(count)))
    order = list(keys)
    assert list(ranks_in_order(installed, order)) == [plain[k] for k in order]
    for step, number in steps:
        key = f"k{number}"
        if step == "get":
            assert installed.get(key) == plain.get(key)
            if key in plain:
                assert installed[key] == plain[key]
        elif step == "set":
            installed[key] = plain[key] = [number, 1]
            if key not in order:
                order.append(key)
        elif step == "pop":
            assert installed.pop(key, None) == plain.pop(key, None)
            if key in order:
                order.remove(key)
        elif step == "read-all":
            assert installed.materialized() == plain
        elif step == "copy":  # the copy reads alike and changes apart
            copied = copy_ranks(installed)
            assert copied == plain
            copied[key] = [-1]
            assert installed.get(key) == plain.get(key)
        assert list(ranks_in_order(installed, order)) == [plain[k] for k in order]
        assert len(installed) == len(plain) and (key in installed) == (key in plain)
