"""A create that changes another entity linked to it by id (a book's create raising its author's
``book_count``) stays unproven when a write no plan models reached that entity in the same window
(an avatar upload on the author): the upload may explain the change, but does not show the
create did not, and serving would answer the author from the state, unchanged by a served
create (gate/linked_changes, the ``gate-linked-blame`` table). Only a write beside it that sent
every member that changed explains it (a rename's ``name``). A create links by the entity it
made, which no read before the create shows (``Tracking.written``): a modelled write of another
type between no longer hides the change either."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.rules_copy import edit_pattern
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime


def capture(between: str, *, counts: bool = True) -> HarBuilder:
    """Authors 1 and 2 (``book_count`` when ``counts``), a book of author 2, then three creates of a
    book naming an author, each read back, with ``between`` the create and its author's read:
    ``avatar`` (a write no plan models on the author sending ``url``), ``rename`` (one sending the
    author's ``name``, which changes), ``tag`` (a modelled create of another type) or ``none``."""
    har = HarBuilder()
    authors = [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]
    if counts:
        authors[0]["book_count"], authors[1]["book_count"] = 0, 1
    books = [{"id": 1, "title": "seed", "author_id": 2}]
    tags = [{"id": 1, "label": "t1"}]
    har.call("GET", "/authors", response=authors)
    for author in authors:
        har.call("GET", f"/authors/{author['id']}", response=author)
    har.call("GET", "/books", response=books).call("GET", "/books/1", response=books[0])
    har.call("GET", "/tags", response=tags)
    for number, (title, author_id) in enumerate((("one", 1), ("two", 2), ("three", 1)), start=2):
        book = {"id": number, "title": title, "author_id": author_id}
        books.append(book)
        har.call("POST", "/books", body={"title": title, "author_id": author_id}, status=201, response=book)
        har.call("GET", f"/books/{number}", response=book).call("GET", "/books", response=list(books))
        author = authors[author_id - 1]
        if counts:
            author["book_count"] += 1
        if between == "avatar":
            har.call("PUT", f"/authors/{author_id}/avatar", body={"url": f"http://x/{number}.png"}, status=204)
        elif between == "rename":
            author["name"] += "+"
            har.call("PUT", f"/authors/{author_id}/profile", body={"name": author["name"]}, status=204)
        elif between == "tag":
            tag = {"id": number, "label": f"t{number}"}
            tags.append(tag)
            har.call("POST", "/tags", body={"label": tag["label"]}, status=201, response=tag)
            har.call("GET", f"/tags/{number}", response=tag).call("GET", "/tags", response=list(tags))
        har.call("GET", f"/authors/{author_id}", response=dict(author))
    return har


@pytest.mark.parametrize("between", ["avatar", "tag", "none"])
def test_a_create_moving_its_authors_count_is_unproven(between):
    bundle = build_from(capture(between))
    create = plan(bundle, "POST", "/books")
    assert (create.served, create.reason) == (False, "side-effect"), summary(bundle)


def test_the_note_says_the_write_beside_does_not_excuse_it():
    bundle = build_from(capture("avatar"))
    notes = [e.reason for e in plan(bundle, "POST", "/books").traces
             if e.table == "gate" and "linked to it by id" in (e.reason or "")]
    assert notes and "authors '1' changed" in notes[0] and "PUT /authors/1/avatar" in notes[0], notes
    assert "book_count" in notes[0] and "unproven" in notes[0]


def test_served_the_create_would_leave_the_author_answering_the_old_count(tmp_path: Path):
    """What the refusal prevents: before, the create was served and the author answered 0 after it."""
    bundle = build_from(capture("avatar"), tmp_path / "capture.har")
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as server:
            status, _ = send(server, "POST", "/books", {"title": "four", "author_id": 1})
    finally:
        runtime.close()
    assert status != 201


def test_a_rename_beside_the_create_explains_the_change():
    """The write beside sent the one member that changed: the create stays served."""
    bundle = build_from(capture("rename", counts=False))
    create = plan(bundle, "POST", "/books")
    assert create.served, summary(bundle)


def test_a_rename_does_not_explain_a_count_beside_it():
    bundle = build_from(capture("rename"))
    assert (plan(bundle, "POST", "/books").served, plan(bundle, "POST", "/books").reason) == (False, "side-effect")


def test_an_author_unchanged_beside_the_avatar_leaves_the_create_served():
    bundle = build_from(capture("avatar", counts=False))
    assert plan(bundle, "POST", "/books").served, summary(bundle)


def test_the_excuse_is_the_tables(rules_dir):
    """A maintainer dropping the rule leaves the rename's create unproven too."""
    edit_pattern(rules_dir / "gate-linked-blame.yaml", r"yields: \{blamed: false\}", "yields: {blamed: true}")
    bundle = build_from(capture("rename", counts=False), rules=rules_dir)
    assert not plan(bundle, "POST", "/books").served, summary(bundle)
