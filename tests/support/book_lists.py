"""A ``/books`` list captured whole, then with the queries a test names, then one item read: the
shape the tests of learned list queries (sorts, projections) build their captures on, and read
the served list of."""

from __future__ import annotations

from typing import Any, Sequence

from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

Query = tuple[tuple[str, str], ...]


def books_capture(books: list[dict[str, Any]], *queried: tuple[Query, list[dict[str, Any]]]) -> HarBuilder:
    """``GET /books`` answering ``books``, then once per (query pairs, answer), then ``GET /books/1``."""
    har = HarBuilder().call("GET", "/books", response=books)
    for query, listed in queried:
        har = har.call("GET", "/books", query=list(query), response=listed)
    return har.call("GET", "/books/1", response=books[0])


def books_answer(bundle: Any, query: Sequence[tuple[str, str]]) -> tuple[int, Any]:
    """The status and decoded body a fresh runtime of ``bundle`` answers ``GET /books`` with ``query``."""
    answer = EnvironmentRuntime(bundle).http(HttpRequest("GET", "/books", tuple(query), (), b""))
    return answer.status, loads(answer.body)
