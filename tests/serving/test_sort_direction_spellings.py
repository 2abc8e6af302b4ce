"""A sort direction spelled otherwise than every recording that proved the sort spelled it
(``Desc``, ``DESC`` or ``descending`` where ``desc`` was sent; ``-year`` where only ``year:desc``
was) is refused, naming the spellings accepted (``QuerySpec.proven_directions``): applications
differ (one refuses an unknown spelling with 400, another ignores it and sorts ascending), so
sorting descending would be a wrong answer for either."""

from __future__ import annotations

from support.book_lists import Query, books_answer, books_capture
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

BOOKS = [{"id": 1, "title": "Solaris", "year": 1961}, {"id": 2, "title": "Dune", "year": 1965},
         {"id": 3, "title": "Ubik", "year": 1969}]


def _by(key: str, reverse: bool = False) -> list[dict]:
    return sorted(BOOKS, key=lambda b: b[key], reverse=reverse)


def _answer(bundle, *query: tuple[str, str]) -> tuple[int, object]:
    return books_answer(bundle, query)


def _capture(*queries: tuple[Query, list[dict]]) -> HarBuilder:
    return books_capture(BOOKS, *queries)


def _sort(value: str, listed: list[dict]) -> tuple[tuple[tuple[str, str], ...], list[dict]]:
    return ((("sort", value),), listed)


def test_a_direction_word_spelled_otherwise_than_recorded_is_refused():
    bundle = build_from(_capture(_sort("year:desc", _by("year", True)), _sort("title", _by("title"))))
    status, body = _answer(bundle, ("sort", "year:desc"))
    assert status == 200 and [b["id"] for b in body] == [3, 2, 1], body
    for spelled in ("year:DESC", "year:Desc", "id:desc,year:DESC"):
        status, body = _answer(bundle, ("sort", spelled))
        assert status >= 400, (spelled, body)
        assert "no recording sent" in str(body) and "'desc'" in str(body), body


def test_a_descending_prefix_no_recording_led_a_key_with_is_refused():
    bundle = build_from(_capture(_sort("title", _by("title")), _sort("year", _by("year"))))
    for spelled in ("-year", "year:desc", "year desc"):
        status, body = _answer(bundle, ("sort", spelled))
        assert status >= 400, (spelled, body)
    status, body = _answer(bundle, ("sort", "title"))
    assert status == 200 and [b["id"] for b in body] == [2, 1, 3], body


def test_the_recorded_spellings_and_their_opposites_in_the_same_case_are_accepted():
    bundle = build_from(_capture(_sort("year:DESC", _by("year", True)), _sort("title", _by("title")),
                                 _sort("id", BOOKS)))
    status, body = _answer(bundle, ("sort", "id:DESC"))
    assert status == 200 and [b["id"] for b in body] == [3, 2, 1], body
    status, body = _answer(bundle, ("sort", "year:ASC"))  # view-sort-direction-spellings: the pair's other word
    assert status == 200 and [b["id"] for b in body] == [1, 2, 3], body
    for spelled in ("id:desc", "id:asc", "id:Desc"):
        status, body = _answer(bundle, ("sort", spelled))
        assert status >= 400 and "'ASC', 'DESC'" in str(body), (spelled, body)


def test_an_order_value_spelled_otherwise_is_refused_and_never_combined_with_a_key_direction():
    bundle = build_from(_capture(((("sort", "year"), ("order", "desc")), _by("year", True)),
                                 _sort("title", _by("title")), _sort("-id", _by("id", True))))
    status, body = _answer(bundle, ("sort", "year"), ("order", "desc"))
    assert status == 200 and [b["id"] for b in body] == [3, 2, 1], body
    for order in ("DESC", "descending"):
        status, body = _answer(bundle, ("sort", "year"), ("order", order))
        assert status >= 400 and "no recording sent" in str(body), (order, body)
    status, body = _answer(bundle, ("sort", "-year"), ("order", "desc"))
    assert status >= 400 and "spells its own" in str(body), body


AUTHORS = [{"id": 1, "name": "Lem"}, {"id": 2, "name": "Herbert"}, {"id": 3, "name": "Dick"}]


def _two_lists(books_sort: str, authors_param: str) -> HarBuilder:
    """``ordering`` and ``order`` are read by one rule alone (a key led by ``-`` for descending);
    the books list proves ``-``, the authors list sends plain keys only."""
    return (HarBuilder().call("GET", "/books", response=BOOKS)
            .call("GET", "/books", query=[("ordering", books_sort)], response=_by("year", True))
            .call("GET", "/books", query=[("ordering", "title")], response=_by("title"))
            .call("GET", "/books/1", response=BOOKS[0])
            .call("GET", "/authors", response=AUTHORS)
            .call("GET", "/authors", query=[(authors_param, "name")], response=sorted(AUTHORS, key=lambda a: a["name"]))
            .call("GET", "/authors", query=[(authors_param, "id")], response=AUTHORS)
            .call("GET", "/authors/1", response=AUTHORS[0]))


def _authors(bundle, *query: tuple[str, str]) -> tuple[int, object]:
    answer = EnvironmentRuntime(bundle).http(HttpRequest("GET", "/authors", tuple(query), (), b""))
    return answer.status, loads(answer.body)


def test_a_spelling_the_same_parameter_is_proven_with_on_another_list_is_accepted():
    bundle = build_from(_two_lists("-year", "ordering"))
    status, body = _authors(bundle, ("ordering", "-name"))
    assert status == 200 and [a["id"] for a in body] == [1, 2, 3], body


def test_another_parameter_proves_nothing_on_this_list():
    bundle = build_from(_two_lists("-year", "order"))
    status, body = _authors(bundle, ("order", "-name"))
    assert status >= 400 and "no recording sent" in str(body), body


def _minus_on_books_plain_on_authors() -> HarBuilder:
    """The books list proves ``sort=-year`` (only a leading minus reads it); the authors list is
    recorded with ``sort=name`` alone, which a suffix rule (``name:desc``) reproduces as well."""
    return (HarBuilder().call("GET", "/books", response=BOOKS)
            .call("GET", "/books", query=[("sort", "-year")], response=_by("year", True))
            .call("GET", "/books/1", response=BOOKS[0])
            .call("GET", "/authors", response=AUTHORS)
            .call("GET", "/authors", query=[("sort", "name")], response=sorted(AUTHORS, key=lambda a: a["name"]))
            .call("GET", "/authors/1", response=AUTHORS[0]))


def test_a_plain_sort_takes_the_rule_the_parameter_was_learned_by_on_another_list():
    bundle = build_from(_minus_on_books_plain_on_authors())
    status, body = _authors(bundle, ("sort", "-name"))
    assert status == 200 and [a["id"] for a in body] == [1, 2, 3], body  # Lem, Herbert, Dick
    status, body = _authors(bundle, ("sort", "name"))
    assert status == 200 and [a["id"] for a in body] == [3, 2, 1], body
    status, body = _authors(bundle, ("sort", "name:desc"))
    assert status >= 400, body  # a suffix nothing shows the application reading


def test_a_plain_sort_alone_in_the_capture_keeps_the_tables_first_rule():
    har = (HarBuilder().call("GET", "/authors", response=AUTHORS)
           .call("GET", "/authors", query=[("sort", "name")], response=sorted(AUTHORS, key=lambda a: a["name"]))
           .call("GET", "/authors/1", response=AUTHORS[0]))
    bundle = build_from(har)
    status, body = _authors(bundle, ("sort", "-name"))
    assert status >= 400 and "names no field" in str(body), body  # read as the suffix rule reads it
    status, body = _authors(bundle, ("sort", "name:desc"))
    assert status >= 400 and "no recording sent" in str(body), body
    status, body = _authors(bundle, ("sort", "name"))
    assert status == 200 and [a["id"] for a in body] == [3, 2, 1], body
