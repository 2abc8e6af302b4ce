"""An entity read at its own address: an item path whose answer holds that very path at a member
of its top (Pulp's ``pulp_href``) is the entity, so an array of objects among its members is one of
its members, not a list of entities. Pulp's remote read at /pulp/api/v3/remotes/file/file/{id}/
holds ``hidden_fields: [{name: client_key, is_set: false}, ...]``: envelope.sole-object-array took it
for the read's list, made a type of it (keyed by ``name``, its collection the remote's item path)
and the remote's PATCH, PUT and DELETE bulk writes of that type (body-unusable). A list whose
answer names its own path (a self or page link) keeps its list."""

from __future__ import annotations

from support.capture_runs import build_from, plan, tool_name
from support.har_builder import HarBuilder

API = "/api/remotes/"
IDS = ("019b0000-0000-7000-8000-000000000014", "019b0000-0000-7000-8000-000000000015")
HIDDEN = [{"name": "client_key", "is_set": False}, {"name": "password", "is_set": True}]


def remote(uuid: str, name: str, url: str) -> dict:
    return {"pulp_href": f"{API}{uuid}/", "name": name, "url": url, "hidden_fields": HIDDEN}


def capture(self_addressed: bool) -> HarBuilder:
    remotes = [remote(IDS[0], "docs", "http://h/docs"), remote(IDS[1], "web", "http://h/web")]
    if not self_addressed:
        remotes = [{**r, "pulp_href": "/elsewhere/"} for r in remotes]
    changed = {**remotes[0], "url": "http://h/docs2"}
    return (HarBuilder()
            .call("GET", API, response={"count": 2, "self": API, "results": remotes})
            .call("GET", f"{API}{IDS[0]}/", response=remotes[0])
            .call("GET", f"{API}{IDS[1]}/", response=remotes[1])
            .call("PATCH", f"{API}{IDS[0]}/", body={"url": "http://h/docs2"}, response=changed)
            .call("GET", f"{API}{IDS[0]}/", response=changed))


def view_kind(bundle, template: str) -> str:
    tool = tool_name(bundle, "GET", template)
    return next(v.kind for v in bundle.view.views if v.tool == tool)


def test_an_item_read_at_its_own_address_is_no_list_of_its_array_member():
    bundle = build_from(capture(self_addressed=True))
    assert view_kind(bundle, f"{API}{{remote_id}}/") != "list"
    assert plan(bundle, "PATCH", f"{API}{{remote_id}}/").effect != "bulk"
    assert view_kind(bundle, API) == "list", "the list naming its own path keeps its list"


def test_without_its_own_address_the_array_member_stays_the_read_s_list():
    bundle = build_from(capture(self_addressed=False))
    assert view_kind(bundle, f"{API}{{remote_id}}/") == "list"
