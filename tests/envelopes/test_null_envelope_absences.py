"""An API that wraps every answer in ``{"data": …}`` answers an item read of an id it holds nothing
under with ``{"data": null}`` (a 200), and a PUT of such an id with ``{"data": []}``, the rows it
updated. The null where the entity would be is an absence, as a bare null body or ``{"data": {}}``
is (``ShapeReader.holds_no_entity``, ``absence_bodies.entity_place_kind``): the item read is still
an item view, and the missing id is answered with that recording. A PUT whose every call naming an
absent id answered rows of nothing made nothing there: an update, not an upsert
(``write_absent_call_answered_entity`` in ``effect.upsert-absent-before``). Before, the null answer
made the item read a document, so the PUT related to no type (``no-effect``), and the empty rows
made it an upsert."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def author(n: int, name: str) -> dict:
    return {"id": n, "name": name, "email": f"{name.lower()}@x.test"}


def app(*, absent_put_answer: object = None) -> HarBuilder:
    ada, bob, cy = author(1, "Ada"), author(2, "Bob"), author(3, "Cy")
    renamed = {**bob, "name": "Rob"}
    return (HarBuilder()
            .call("GET", "/api/authors", response={"data": [ada, bob, cy]})
            .call("GET", "/api/authors/1", response={"data": ada})
            .call("GET", "/api/authors/2", response={"data": bob})
            .call("GET", "/api/authors/99", response={"data": None})
            .call("PUT", "/api/authors/2", body={"name": "Rob"}, response={"data": [renamed]})
            .call("GET", "/api/authors/2", response={"data": renamed})
            .call("GET", "/api/authors", response={"data": [ada, renamed, cy]})
            .call("PUT", "/api/authors/999", body={"name": "Nobody"},
                  response={"data": []} if absent_put_answer is None else absent_put_answer)
            .call("GET", "/api/authors", response={"data": [ada, renamed, cy]}))


def test_a_null_in_the_envelope_is_an_absence_and_the_item_read_an_item_view():
    bundle = build_from(app())
    item = bundle.view.view("get_authors_by_author_id")
    assert item.kind == "item" and item.state_backed, (item.kind, item.reason)
    runtime = EnvironmentRuntime(bundle)
    assert runtime.read("get_authors_by_author_id", {"author_id": "1"})["body"] == {"data": author(1, "Ada")}
    missing = runtime.read("get_authors_by_author_id", {"author_id": "42"})
    assert missing["body"] == {"data": None} and missing["state"]["view"] == "missing"


def test_a_put_answering_rows_of_nothing_for_an_absent_id_is_an_update():
    bundle = build_from(app())
    put = plan(bundle, "PUT", "/api/authors/{author_id}")
    assert put.effect == "update" and put.served, (put.effect, put.build_reason, put.reason)
    runtime = EnvironmentRuntime(bundle)
    runtime.read("put_authors_by_author_id", {"author_id": "3", "body": {"name": "Cyd"}})
    assert runtime.read("get_authors_by_author_id", {"author_id": "3"})["body"]["data"]["name"] == "Cyd"


def test_a_put_answering_an_entity_for_an_absent_id_stays_an_upsert():
    made = {"data": [author(999, "Nobody")]}
    put = plan(build_from(app(absent_put_answer=made)), "PUT", "/api/authors/{author_id}")
    assert not put.served and put.build_reason == "upsert"
