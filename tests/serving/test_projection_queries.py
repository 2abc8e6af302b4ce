"""Projection queries (``fields=title``): learned only where every read sent with one answers
exactly the members named and those the application keeps, as a plain read of the same path
shows them; served over the state; anything the recordings do not prove refused with why."""

from __future__ import annotations

from typing import Any

from capenv.serving.runtime import EnvironmentRuntime
from support.capture_runs import build_from
from support.har_builder import HarBuilder

BOOKS = [{"id": 1, "title": "Dune", "pages": 412, "year": 1965}, {"id": 2, "title": "Emma", "pages": 320, "year": 1815}]


def _projected(rows: list[dict[str, Any]], *names: str) -> list[dict[str, Any]]:
    return [{k: v for k, v in row.items() if k in names} for row in rows]


def session(projected: list[dict[str, Any]] | None = None, query: Any = (("fields", "id,title"),)) -> HarBuilder:
    """Lists and reads books, then lists them projected (``projected``: the answer, else the true one)."""
    har = HarBuilder()
    har.call("GET", "/books", response=BOOKS)
    for book in BOOKS:
        har.call("GET", f"/books/{book['id']}", response=book)
    har.call("POST", "/books", body={"title": "Ulysses", "pages": 730, "year": 1922}, status=201,
             response={"id": 3, "title": "Ulysses", "pages": 730, "year": 1922})
    after = BOOKS + [{"id": 3, "title": "Ulysses", "pages": 730, "year": 1922}]
    har.call("GET", "/books/3", response=after[2])
    har.call("GET", "/books", response=after)
    har.call("GET", "/books", query=query, response=projected if projected is not None else _projected(after, "id", "title"))
    har.call("GET", "/books/2", response=BOOKS[1])
    har.call("GET", "/books/2", query=(("fields", "title,year"),), response=_projected([BOOKS[1]], "title", "year")[0])
    return har


def _projections(bundle, tool: str) -> tuple:
    return next(v for v in bundle.view.views if v.tool == tool).projections


def test_a_projection_is_learned_on_lists_and_items_and_served_after_a_create() -> None:
    bundle = build_from(session())
    (listed,) = _projections(bundle, "get_books")
    assert (listed.param, listed.separator, listed.kept) == ("fields", ",", ())
    assert set(listed.dropped) == {"id", "pages", "year"}  # pooled with the item reads' (which drop id and pages)
    runtime = EnvironmentRuntime(bundle)
    created = runtime.read("post_books", {"body": {"title": "Middlemarch", "pages": 880, "year": 1871}})
    answer = runtime.read("get_books", {"query": {"fields": "title,pages"}})
    assert answer["body"] == [{"title": "Dune", "pages": 412}, {"title": "Emma", "pages": 320},
                              {"title": "Middlemarch", "pages": 880}] and answer["state"]["source"] == "state"
    item = runtime.read("get_books_by_book_id", {"book_id": str(created["body"]["id"]), "query": {"fields": "title,year"}})
    assert item["body"] == {"title": "Middlemarch", "year": 1871} and item["projection"]["param"] == "fields"
    unshown = runtime.read("get_books", {"query": {"fields": "year"}})  # every recording named title
    assert unshown["error"] == "refused" and "name 'title' too" in unshown["message"]


def test_what_no_recording_proves_is_refused_with_the_reason() -> None:
    runtime = EnvironmentRuntime(build_from(session()))
    refusals = {value: runtime.call_tool("get_books", {"query": {"fields": value}}) for value in
                ("title,author.name", "title,isbn", "*", "")}
    assert all(answer.is_error for answer in refusals.values())
    assert "a path into a member" in refusals["title,author.name"].structured["message"]
    assert "'isbn', no member" in refusals["title,isbn"].structured["message"]
    assert "no recording proves (it shows no wildcard)" in refusals["*"].structured["message"]


def test_a_projected_answer_disagreeing_with_the_plain_read_is_not_learned() -> None:
    renamed = [{**row, "title": row["title"].upper()} for row in _projected(BOOKS, "id", "title")]
    renamed.append({"id": 3, "title": "ULYSSES"})
    bundle = build_from(session(projected=renamed))
    assert not _projections(bundle, "get_books") and _projections(bundle, "get_books_by_book_id")
    refuted = [t for t in bundle.view.traces if t.table == "view-projection-queries" and t.subject == "get_books ?fields"]
    assert refuted and "answers 'title' otherwise than the plain read" in refuted[-1].reason


def test_a_member_the_application_adds_refutes_it() -> None:
    after = BOOKS + [{"id": 3, "title": "Ulysses", "pages": 730, "year": 1922}]
    added = [{**row, "score": 1} for row in _projected(after, "id", "title")]
    bundle = build_from(session(projected=added))
    assert not _projections(bundle, "get_books")


def test_another_spelling_of_a_learned_projection_is_refused() -> None:
    runtime = EnvironmentRuntime(build_from(session()))
    answer = runtime.call_tool("get_books", {"query": {"fields[]": "title"}})
    assert answer.is_error  # never recorded: the schema and the description say what is accepted


def test_an_indexed_projection_keeping_the_identity() -> None:
    after = BOOKS + [{"id": 3, "title": "Ulysses", "pages": 730, "year": 1922}]
    bundle = build_from(session(projected=_projected(after, "id", "pages"), query=(("fields[0]", "pages"),)))
    (listed,) = _projections(bundle, "get_books")
    assert (listed.form, listed.kept) == ("indexed", ("id",))
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.read("get_books", {"query": {"fields[0]": "year", "fields[1]": "pages"}})
    assert answer["body"][0] == {"id": 1, "pages": 412, "year": 1965}


def test_projected_reads_leave_the_members_every_entity_carries_as_the_plain_reads_show_them() -> None:
    """A read showing part of each entity does not make the others optional: a state entity lacking
    one is still refused, not answered short."""
    views = {v.tool: v for v in build_from(session()).view.views}
    assert set(views["get_books"].required_fields) == {"id", "title", "pages", "year"}
    assert set(views["get_books_by_book_id"].required_fields) == {"id", "title", "pages", "year"}


def test_a_projected_answer_holds_to_the_tools_output_schema() -> None:
    """MCP clients check structured answers against the output schema: a view that projects does not
    require every member of its entities there (nor in the OpenAPI description, which shares it)."""
    from jsonschema import Draft202012Validator

    runtime = EnvironmentRuntime(build_from(session()))
    schema = next(spec for spec in runtime.tools() if spec.name == "get_books").output_schema
    answer = runtime.read("get_books", {"query": {"fields": "title,pages"}})
    assert answer["body"][0] == {"title": "Dune", "pages": 412}
    assert Draft202012Validator(schema).is_valid(answer)
