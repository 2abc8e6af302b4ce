"""A delete of an entity others name by a summary object or a long key rather than by name
(``delete-referrers`` composed-objects, unexplained-ids): a ticket's ``owner: {"id": 1, "name": "Ada Byron"}`` names person 1 (its name
made of her firstname and lastname), as do the elements of its ``watchers`` array, though no type
is called owner or watchers and the ids of people, tickets and states collide (small integers); a
ticket's ``state`` names a state (its objects repeat the states), not the person of the same id. The item delete and the bulk delete of a
person a ticket names are refused with the state unchanged; people nothing names are deleted.
"""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from write_calls import accepted, entities, refused

from capenv.serving.runtime import EnvironmentRuntime

PEOPLE = [{"id": 1, "firstname": "Ada", "lastname": "Byron"},
          {"id": 2, "firstname": "Alan", "lastname": "Turing"},
          {"id": 3, "firstname": "Grace", "lastname": "Hopper"},
          {"id": 4, "firstname": "Edsger", "lastname": "Dijkstra"}]
STATES = [{"id": 1, "name": "open"}, {"id": 2, "name": "done"}]
TICKETS = [{"id": 1, "title": "Engine", "state": {"id": 1, "name": "open"}, "owner": {"id": 1, "name": "Ada Byron"}},
           {"id": 2, "title": "Bombe", "state": {"id": 2, "name": "done"}, "owner": {"id": 2, "name": "Alan Turing"}},
           {"id": 3, "title": "Compiler", "state": {"id": 2, "name": "done"}, "owner": {"id": 2, "name": "Alan Turing"},
            "watchers": [{"id": 3, "name": "Grace Hopper"}]}]


def _reads(har: HarBuilder) -> HarBuilder:
    har.call("GET", "/people", response=PEOPLE)
    for person in PEOPLE:
        har.call("GET", f"/people/{person['id']}", response=person)
    har.call("GET", "/states", response=STATES)
    return har.call("GET", "/tickets", response=TICKETS)


def _runtime(har: HarBuilder, method: str, template: str):
    bundle = build_from(har)
    delete = plan(bundle, method, template)
    assert delete.served, delete.reason
    return bundle, delete, EnvironmentRuntime(bundle)


def test_a_summary_object_names_its_entity_and_a_repeating_one_another_type():
    har = _reads(HarBuilder()).call("DELETE", "/people/4", status=204)
    har.call("GET", "/people/4", status=404, response={"error": "not found"})
    har.call("GET", "/people", response=PEOPLE[:3])
    _, delete, runtime = _runtime(har, "DELETE", "/people/{people_id}")
    assert {(r.type, r.member, r.many, r.rule_id) for r in delete.referrers} == {
        ("tickets", "owner", False, "referrer.composed-objects"),
        ("tickets", "watchers", True, "referrer.composed-objects")}
    message = refused(runtime, delete.tool, {"people_id": 1})["message"]
    assert "tickets 1 (owner)" in message, message
    assert "tickets 3 (watchers)" in refused(runtime, delete.tool, {"people_id": 3})["message"]
    accepted(runtime, delete.tool, {"people_id": 4})  # nothing names Edsger
    assert [e["id"] for e in entities(runtime, "/people")] == [1, 2, 3]


def test_a_bulk_delete_naming_a_referenced_entity_changes_none():
    har = _reads(HarBuilder()).call("DELETE", "/people", body={"ids": [4]}, status=204)
    har.call("GET", "/people", response=PEOPLE[:3])
    _, delete, runtime = _runtime(har, "DELETE", "/people")
    assert {(r.type, r.member) for r in delete.referrers} == {("tickets", "owner"), ("tickets", "watchers")}
    message = refused(runtime, delete.tool, {"body": {"ids": [4, 2]}})["message"]
    assert "tickets 2 (owner)" in message, message
    assert [e["id"] for e in entities(runtime, "/people")] == [1, 2, 3, 4]
    accepted(runtime, delete.tool, {"body": {"ids": [4]}})
    assert [e["id"] for e in entities(runtime, "/people")] == [1, 2, 3]


WORKERS = [{"id": f"7f3c2a10-0000-4000-8000-00000000000{n}", "host": f"node-{n}"} for n in (1, 2, 3)]
JOBS = [{"id": 1, "runner": WORKERS[0]["id"], "title": "nightly"}]


def test_a_long_key_under_any_name_names_its_entity():
    """A job's ``runner`` holds a worker's UUID: no type is called runner, but keys this long of
    two types do not collide, so the worker it names is not deleted; the others are."""
    har = HarBuilder().call("GET", "/workers", response=WORKERS)
    for worker in WORKERS:
        har.call("GET", f"/workers/{worker['id']}", response=worker)
    har.call("GET", "/jobs", response=JOBS).call("DELETE", f"/workers/{WORKERS[2]['id']}", status=204)
    har.call("GET", "/workers", response=WORKERS[:2])
    _, delete, runtime = _runtime(har, "DELETE", "/workers/{worker_id}")
    assert {(r.type, r.member, r.rule_id) for r in delete.referrers} == {
        ("jobs", "runner", "referrer.unexplained-ids")}
    assert "jobs 1 (runner)" in refused(runtime, delete.tool, {"worker_id": WORKERS[0]["id"]})["message"]
    accepted(runtime, delete.tool, {"worker_id": WORKERS[1]["id"]})
    assert [e["id"] for e in entities(runtime, "/workers")] == [WORKERS[0]["id"], WORKERS[2]["id"]]
