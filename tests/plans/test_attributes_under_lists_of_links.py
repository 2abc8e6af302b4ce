"""A create whose entity keeps the members it sent under a nested object (JSON:API-like
``{"data": {"id", "type", "link", "attributes": {…}}}``, as Roundup's REST API answers an item),
where lists show each entity as a row of its id and link alone. The group field is learned from the
type's other entities (``field.grouped-members``: they hold it as an object of the same members); a
list row shows part of an entity, not an entity without its attributes, so an entity last seen in a
list keeps the fields the list does not show as its item read showed them
(``PlanContext.type_entities(completed=True)``). Before, the entities' latest sightings were the
list rows, no entity held ``attributes``, and the sent ``title`` was "not shown": unserved."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

API = "/rest/data/issue"
ORIGIN = "http://127.0.0.1:3000"


def link(key: str) -> str:
    return f"{ORIGIN}{API}/{key}"


def item(key: str, title: str, etag: str, status: str = "1") -> dict:
    return {"data": {"id": key, "type": "issue", "link": link(key),
                     "attributes": {"assignedto": None, "nosy": [], "status": {"id": status, "link": f"/status/{status}"},
                                    "title": title},
                     "@etag": etag}}


def rows(*keys: str) -> dict:
    return {"data": {"collection": [{"id": k, "link": link(k)} for k in keys], "@total_size": len(keys)}}


def app(list_after_items: bool = True) -> HarBuilder:
    har = HarBuilder(origin=ORIGIN)
    if not list_after_items:
        har.call("GET", API, response=rows("1", "2"))
    har.call("GET", f"{API}/1", response=item("1", "Login page is blank", '"4e6de702035c9c5be4c5cb33c32f3a0f"', "2"))
    har.call("GET", f"{API}/2", response=item("2", "Document the backup", '"7bcd1df5aa2aee974a999567c12cdd90"'))
    har.call("GET", f"{API}/9", status=404, response={"error": {"status": 404, "msg": "no such issue 9"}})
    if list_after_items:  # the entities' latest sightings before the create are list rows
        har.call("GET", API, response=rows("1", "2"))
    (har.call("POST", API, body={"title": "Crash when saving"}, status=201,
              response={"data": {"id": "3", "link": link("3")}})
        .call("GET", f"{API}/3", response=item("3", "Crash when saving", '"b793c2b70b627d8d58f68f106bf9d9f1"'))
        .call("GET", API, response=rows("1", "2", "3"))
        .call("POST", API, body={"title": "Export as CSV"}, status=201, response={"data": {"id": "4", "link": link("4")}})
        .call("GET", f"{API}/4", response=item("4", "Export as CSV", '"0a1b2c3d4e5f60718293a4b5c6d7e8f9"'))
        .call("GET", API, response=rows("1", "2", "3", "4")))
    return har


def test_a_member_sent_into_the_attributes_object_is_served_when_lists_show_links_alone():
    bundle = build_from(app())
    created = plan(bundle, "POST", API)
    assert created.served, (created.reason, created.contradicted_by)
    rules = {rule.field: rule.op for rule in created.fields}
    assert rules["attributes"] == "grouped-members" and rules["@etag"] == "unique", rules
    runtime = EnvironmentRuntime(bundle)
    json = (("content-type", "application/json"),)
    answer = runtime.http(HttpRequest("POST", API, (), json, dumps({"title": "Dark theme"})))
    made = loads(answer.body)["data"]["id"]
    assert answer.status == 201 and made == "3", answer.body  # the initial state holds issues 1 and 2
    read = loads(runtime.http(HttpRequest("GET", f"{API}/{made}", (), (), b"")).body)["data"]
    assert read["attributes"] == {"assignedto": None, "nosy": [], "status": {"id": "1", "link": "/status/1"},
                                  "title": "Dark theme"}, read
    listed = loads(runtime.http(HttpRequest("GET", API, (), (), b"")).body)["data"]["collection"]
    assert [row["id"] for row in listed][-1] == made
    refused = runtime.http(HttpRequest("POST", API, (), json, dumps({"title": "x", "status": "2"})))
    assert refused.status >= 400, "status is a member the capture never showed sent: not accepted"


def test_the_same_capture_with_its_list_read_first_was_served_already():
    """The entities' latest sightings are their item reads: the group was learned without completing rows."""
    assert plan(build_from(app(list_after_items=False)), "POST", API).served
