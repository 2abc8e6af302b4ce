"""A delete the capture shows answering success for an id the application did not hold (a
document store deleting without checking existence: 204 for an id it never showed, or for one
already deleted) shows the application's deletes not answering a missing entity as its reads do.
A delete of a missing entity with no recorded answer of its own is then refused (capenv's 404,
saying why), never given the item read's 404: a Strapi hunt found DELETE /api/categories/<missing>
and /api/authors/<missing> answered 404 where Strapi answers 204, the capture's own authors DELETE
of a never-shown id answering 204 included."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

NOT_FOUND = {"error": "not found"}
BOOKS = [{"id": "b1", "title": "Dune"}, {"id": "b2", "title": "Emma"}]
SHELVES = [{"id": "s1", "name": "hall"}, {"id": "s2", "name": "attic"}]


def capture(*, missing_delete_status: int) -> HarBuilder:
    """Books and shelves read; a book deleted and read missing; then a DELETE of a book id the
    capture never shows, answered ``missing_delete_status``."""
    har = HarBuilder().call("GET", "/books", response=BOOKS).call("GET", "/shelves", response=SHELVES)
    for book in BOOKS:
        har.call("GET", f"/books/{book['id']}", response=book)
    for shelf in SHELVES:
        har.call("GET", f"/shelves/{shelf['id']}", response=shelf)
    har.call("GET", "/books/b404", status=404, response=NOT_FOUND)
    har.call("GET", "/shelves/s404", status=404, response=NOT_FOUND)
    har.call("DELETE", "/books/b2", status=204).call("GET", "/books/b2", status=404, response=NOT_FOUND)
    har.call("GET", "/books", response=BOOKS[:1])
    har.call("DELETE", "/shelves/s2", status=204).call("GET", "/shelves/s2", status=404, response=NOT_FOUND)
    har.call("GET", "/shelves", response=SHELVES[:1])
    if missing_delete_status == 204:
        return har.call("DELETE", "/books/zz9never", status=204)
    return har.call("DELETE", "/books/zz9never", status=404, response=NOT_FOUND)


def delete(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("DELETE", path, (), (), b""))


def test_a_success_for_a_never_shown_id_keeps_the_reads_absence_from_every_delete():
    bundle = build_from(capture(missing_delete_status=204))
    assert set(bundle.view.write_absence_vetoes) == {"delete_books_by_book_id"}
    runtime = EnvironmentRuntime(bundle)
    for path in ("/books/q7missing", "/shelves/q7missing"):  # the books' own delete, and the shelves'
        answer = delete(runtime, path)
        assert answer.status == 404 and json.loads(answer.body) != NOT_FOUND, path
        assert "with success" in json.loads(answer.body)["message"]
    assert delete(runtime, "/shelves/s1").status == 204  # a held entity is deleted as recorded


def test_a_missing_delete_answered_404_keeps_the_404():
    bundle = build_from(capture(missing_delete_status=404))
    assert bundle.view.write_absence_vetoes == {}
    runtime = EnvironmentRuntime(bundle)
    assert json.loads(delete(runtime, "/shelves/q7missing").body) == NOT_FOUND



def test_a_siblings_404_gives_way_to_a_success_for_a_missing_id():
    """Medusa: a category delete of a missing id answered 404, its tag and customer deletes of
    missing ids 200 `deleted: true`; a region delete of a missing id, which the capture never
    shows, was given the categories' 404 (a sibling of one endpoint) where Medusa answers 200.
    With a success for a missing id recorded, only a tool's own absence answers: the sibling's is
    no proof of how another kind answers."""
    racks = [{"id": "r1", "label": "top"}, {"id": "r2", "label": "low"}]
    har = HarBuilder().call("GET", "/books", response=BOOKS).call("GET", "/shelves", response=SHELVES)
    har.call("GET", "/racks", response=racks)
    for kind, items in (("books", BOOKS), ("shelves", SHELVES), ("racks", racks)):
        for item in items:
            har.call("GET", f"/{kind}/{item['id']}", response=item)
        har.call("GET", f"/{kind}/x404", status=404, response=NOT_FOUND)
    for kind, gone in (("books", "b2"), ("shelves", "s2"), ("racks", "r2")):
        har.call("DELETE", f"/{kind}/{gone}", status=204).call("GET", f"/{kind}/{gone}", status=404, response=NOT_FOUND)
    har.call("DELETE", "/books/zz9never", status=204)
    har.call("DELETE", "/racks/r9gone", status=404, response={"error": "record missing"})
    bundle = build_from(har)
    shelves = next(p for p in bundle.view.writes if p.tool.startswith("delete_shelves"))
    assert shelves.absence_tool and shelves.absence_tool.startswith("delete_racks")  # the sibling is learned
    runtime = EnvironmentRuntime(bundle)
    answer = delete(runtime, "/shelves/q7missing")
    assert answer.status == 404 and "with success" in json.loads(answer.body)["message"]
    assert json.loads(delete(runtime, "/racks/q7missing").body) == {"error": "record missing"}  # its own
