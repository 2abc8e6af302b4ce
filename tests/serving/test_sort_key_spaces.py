"""A sort key sent with spaces around it (``sort=%20Title``) is refused unless a recording that
proved the sort sent one (``QuerySpec.spaced_keys_proven``): NocoDB answers ``sort=%20Title``
404 ``Field ' Title' not found`` where serving had trimmed the key and sorted by ``Title``."""

from __future__ import annotations

from support.book_lists import books_answer, books_capture
from support.capture_runs import build_from
from support.har_builder import HarBuilder


BOOKS = [{"id": 1, "title": "Solaris", "year": 1961}, {"id": 2, "title": "Dune", "year": 1965},
         {"id": 3, "title": "Ubik", "year": 1969}]


def _by(key: str, reverse: bool = False) -> list[dict]:
    return sorted(BOOKS, key=lambda b: b[key], reverse=reverse)


def _answer(bundle, sort: str) -> tuple[int, object]:
    return books_answer(bundle, (("sort", sort),))


def _capture(*sorts: tuple[str, list[dict]]) -> HarBuilder:
    return books_capture(BOOKS, *(((("sort", sort),), listed) for sort, listed in sorts))


def test_a_key_with_spaces_around_it_is_refused_when_no_recording_sent_one():
    bundle = build_from(_capture(("year", _by("year")), ("-year", _by("year", True)), ("id", BOOKS)))
    status, body = _answer(bundle, "-year")
    assert status == 200 and [b["id"] for b in body] == [3, 2, 1]
    for spaced in (" year", "year ", " -year"):
        status, body = _answer(bundle, spaced)
        assert status >= 400, (spaced, body)
        assert "spaces around it" in str(body), body


def test_a_recording_that_sent_spaced_keys_proves_them_read_trimmed():
    bundle = build_from(_capture(("year, id", _by("year")), ("-year,id", _by("year", True)), ("id", BOOKS),
                                 ("year", _by("year"))))
    learned = next(v for v in bundle.view.views if v.kind == "list").learned_queries
    sort = next(q for q in learned if q.kind == "sort")
    assert sort.separator == "," and sort.spaced_keys_proven
    status, body = _answer(bundle, " -year")
    assert status == 200 and [b["id"] for b in body] == [3, 2, 1], body
