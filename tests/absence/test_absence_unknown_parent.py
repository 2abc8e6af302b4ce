"""A read under a parent no successful call of the capture named (a shelf the application does not
have) answers that the parent is missing, not how a missing id is worded: it is no absence evidence
(``absence.unknown-parent``). Left in, its wording beside a deleted id's made the answer seem worded
by the id's history, and every missing book under a held shelf was refused instead of answered."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

BOOKS = [{"id": "b-1", "title": "Dune"}, {"id": "b-2", "title": "Emma"}, {"id": "b-3", "title": "Ulysses"}]
HISTORY = [{"id": "h-1", "title": "SPQR"}, {"id": "h-2", "title": "Postwar"}]
NO_BOOK = {"code": "NotFound", "description": "identifier not found"}
NO_SHELF = {"code": "NotFound", "description": "Shelf not found"}


def library(missing_shelf_read: bool = True) -> HarBuilder:
    har = (HarBuilder().call("GET", "/shelves", response={"shelves": [{"id": "fiction"}, {"id": "history"}]})
           .call("GET", "/shelves/fiction/books", response={"books": BOOKS})
           .call("GET", "/shelves/history/books", response={"books": HISTORY}))
    for shelf, books in (("fiction", BOOKS), ("history", HISTORY)):
        for book in books:
            har.call("GET", f"/shelves/{shelf}/books/{book['id']}", response=book)
    har.call("GET", "/shelves/fiction/books/b-99", status=404, response=NO_BOOK)
    if missing_shelf_read:
        har.call("GET", "/shelves/poetry/books/p-1", status=404, response=NO_SHELF)
    return (har.call("DELETE", "/shelves/fiction/books/b-3", status=204)
            .call("GET", "/shelves/fiction/books/b-3", status=404, response=NO_BOOK)
            .call("GET", "/shelves/fiction/books", response={"books": BOOKS[:2]}))


def test_a_read_under_a_parent_never_answered_is_no_absence_evidence():
    bundle = build_from(library())
    view = bundle.view.view("get_shelves_books_by_book_id")
    assert view.absence is not None and view.absence.recording.status == 404
    answer = EnvironmentRuntime(bundle).read(view.tool, {"shelve_id": "fiction", "book_id": "b-42"})
    assert answer["status"] == 404 and answer["body"] == NO_BOOK


def test_without_it_the_same_answer_is_learned():
    assert build_from(library(missing_shelf_read=False)).view.view("get_shelves_books_by_book_id").absence is not None
