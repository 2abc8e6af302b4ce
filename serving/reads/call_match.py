"""How a call's arguments compare with a recorded request line (DESIGN.md §5, write-effects
"Reads"): path segments verbatim or either spelling once percent-decoded, query values decoded
and in any order.

A recorded query is raw text (``carol%2Cdave``, ``hello+world``); a call may spell the same
value decoded (an MCP client) or encoded (an HTTP client). Two values are the same when they
are equal as written or once form-decoded (``+`` as a space, as query strings are read): never
once only percent-decoded, which would take a recorded ``id+DESC`` ("id DESC") for a call's
``id%2BDESC`` (a literal plus, which the application reads as another value).
"""

from __future__ import annotations

from collections import Counter
from urllib.parse import unquote_plus

from capenv.interpreter.bundle.paths import split_path
from capenv.interpreter.bundle.values import same_spelling

Pairs = tuple[tuple[str, str], ...]

VERBATIM = 2
DECODED = 1


def same_value(a: str, b: str) -> bool:
    return a == b or unquote_plus(a) == unquote_plus(b)


def path_fit(recorded: str, call: str) -> int | None:
    """``VERBATIM`` when spelled alike, ``DECODED`` when every segment matches once decoded, else None."""
    if recorded == call:
        return VERBATIM
    mine, theirs = split_path(recorded), split_path(call)
    if len(mine) == len(theirs) and all(same_spelling(a, b) for a, b in zip(mine, theirs)):
        return DECODED
    return None


def single_valued(pairs: Pairs) -> dict[str, str] | None:
    """The query as name -> value, or None when a name repeats with different values.

    A name repeated with one value counts once: a call naming it matches both pieces.
    """
    values: dict[str, str] = {}
    for name, value in pairs:
        key = unquote_plus(name)
        if key in values and not same_value(values[key], value):
            return None
        values.setdefault(key, value)
    return values


def same_query(recorded: Pairs, call: Pairs) -> bool:
    """The line's query and the call's name the same values, in any order."""
    mine, theirs = single_valued(recorded), single_valued(call)
    if mine is None or theirs is None:  # a name repeated with different values (attrs=a&attrs=b)
        return _same_repeats(recorded, call)
    if mine.keys() != theirs.keys():
        return False
    return all(same_value(mine[name], theirs[name]) for name in mine)


def _same_repeats(recorded: Pairs, call: Pairs) -> bool:
    """Each name with the same values in the same order (the order of different names free): a
    call spelling the recorded repeats names what the recording named, as an HTTP client sends it;
    a call leaving one out or naming it once (MCP arguments cannot repeat) names something else."""
    def values(pairs: Pairs) -> dict[str, list[str]]:
        grouped: dict[str, list[str]] = {}
        for name, value in pairs:
            grouped.setdefault(unquote_plus(name), []).append(value)
        return grouped

    mine, theirs = values(recorded), values(call)
    return mine.keys() == theirs.keys() and all(
        len(mine[name]) == len(theirs[name]) and all(same_value(a, b) for a, b in zip(mine[name], theirs[name]))
        for name in mine)


def _multiset(pairs: Pairs, decode) -> Counter:
    return Counter((decode(name), decode(value)) for name, value in pairs)


def same_query_multiset(recorded: Pairs, call: Pairs) -> bool:
    """Equal as multisets of pairs (replay's exact match: repeats count)."""
    return _multiset(recorded, unquote_plus) == _multiset(call, unquote_plus)


def query_overlap(recorded: Pairs, call: Pairs) -> tuple[int, int, int]:
    """(pairs in common, names in common, names only one side has): how near two queries are."""
    mine, theirs = _multiset(recorded, unquote_plus), _multiset(call, unquote_plus)
    pairs = sum((mine & theirs).values())
    my_names = {name for name, _ in mine}
    their_names = {name for name, _ in theirs}
    return pairs, len(my_names & their_names), len(my_names ^ their_names)


def decoded_pairs(pairs: Pairs) -> Pairs:
    """The query with names and values form-decoded, as learned queries evaluate them."""
    return tuple((unquote_plus(name), unquote_plus(value)) for name, value in pairs)
