"""A projection whose one value names several members (``fields=title,year``) sent more than once
is refused unless a recording that proved it sent it so (``Projection.repeats_proven``): NocoDB
answers ``fields=Title,Year&fields=Genre`` 404 ``Field 'Title,Year' not found`` where serving had
answered the three members."""

from __future__ import annotations

from support.book_lists import Query, books_answer, books_capture
from support.capture_runs import build_from
from support.har_builder import HarBuilder


BOOKS = [{"id": 1, "title": "Solaris", "year": 1961, "genre": "fiction"},
         {"id": 2, "title": "Dune", "year": 1965, "genre": "fiction"}]


def _only(*names: str) -> list[dict]:
    return [{k: v for k, v in b.items() if k in names} for b in BOOKS]


def _answer(bundle, query: Query) -> tuple[int, object]:
    return books_answer(bundle, query)


def _capture(*projected: tuple[Query, list[dict]]) -> HarBuilder:
    return books_capture(BOOKS, *projected)


def test_a_joined_projection_sent_twice_is_refused_unless_a_recording_sent_it_so():
    bundle = build_from(_capture(((("fields", "title,year"),), _only("title", "year"))))
    (projection,) = next(v for v in bundle.view.views if v.kind == "list").projections
    assert projection.separator == "," and not projection.repeats_proven
    status, body = _answer(bundle, (("fields", "genre,title,year"),))
    assert status == 200 and body == _only("title", "year", "genre"), body
    status, body = _answer(bundle, (("fields", "title,year"), ("fields", "genre")))
    assert status >= 400 and "sent 2 times" in str(body), body


def test_a_recording_that_sent_it_twice_proves_the_values_joined():
    bundle = build_from(_capture(((("fields", "title"), ("fields", "year")), _only("title", "year"))))
    (projection,) = next(v for v in bundle.view.views if v.kind == "list").projections
    assert projection.repeats_proven
    status, body = _answer(bundle, (("fields", "title,year"), ("fields", "genre")))
    assert status == 200 and body == _only("title", "year", "genre"), body
