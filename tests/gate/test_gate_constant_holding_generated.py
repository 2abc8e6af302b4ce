"""A create whose answer nests the new id inside an object (a self link, ``{"links": {"self":
".../notes/<new id>"}}``) keeps that object as a constant, which no rule rebuilds: served, every
create would answer the exemplar's id there. The plan stays built (the gate models its calls) but
is not served (``verdict.constant-holds-generated``). The same create answering a link that does
not name the new id is served."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

SEEDED = [{"id": "3f0a9c1e5b7d4e2f8a6c0b1d9e7f5a3c", "title": "Groceries"},
          {"id": "8b2e4d6f0a1c3e5b7d9f1a3c5e7b9d0f", "title": "Errands"}]
NEW_ID = "c4e6a8b0d2f4e6a8c0b2d4f6a8c0e2b4"


def note(entity: dict, self_link: bool) -> dict:
    link = f"http://notes.test/v1/notes/{entity['id']}" if self_link else "http://notes.test/v1/notes"
    return {**entity, "links": {"self": link}}


def notes_app(self_link: bool) -> HarBuilder:
    created = {"id": NEW_ID, "title": "Chores"}
    har = HarBuilder().call("GET", "/v1/notes", response={"notes": [note(n, self_link) for n in SEEDED]})
    for entity in SEEDED:
        har = har.call("GET", f"/v1/notes/{entity['id']}", response={"note": note(entity, self_link)})
    return (har.call("POST", "/v1/notes", body={"note": {"title": "Chores"}}, status=201,
                     response={"note": note(created, self_link)})
            .call("GET", f"/v1/notes/{NEW_ID}", response={"note": note(created, self_link)})
            .call("GET", "/v1/notes", response={"notes": [note(n, self_link) for n in SEEDED + [created]]}))


def test_a_create_answering_an_object_around_the_new_id_is_not_served():
    create = plan(build_from(notes_app(self_link=True)), "POST", "/v1/notes")
    links = next(f for f in create.fields if f.field == "links")
    assert (links.op, links.evidence.get("held_generated")) == ("constant", ["id"])
    assert (create.served, create.reason) == (False, "constant-holds-generated")


def test_the_same_create_answering_a_link_without_the_id_is_served():
    create = plan(build_from(notes_app(self_link=False)), "POST", "/v1/notes")
    assert create.served, create.reason
