"""``{"<plural>": [{…}], "meta": {"pagination": …}}`` (Ghost's admin API): lists under the
collection's own word with a pagination block, single entities as one-element arrays in answers
and in request bodies; and ``{"data": {…}}`` items written with a ``{"data": {…}}`` body."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def page(posts: list) -> dict:
    return {"posts": posts, "meta": {"pagination": {"page": 1, "limit": 15, "pages": 1, "total": len(posts),
                                                    "next": None, "prev": None}}}


A, B = {"id": "a1b2c3d4e5f6a1b2c3d4e5f6", "title": "A"}, {"id": "b1b2c3d4e5f6a1b2c3d4e5f6", "title": "B"}
C = {"id": "c1b2c3d4e5f6a1b2c3d4e5f6", "title": "C"}


def ghost() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/posts", response=page([A, B]))                                          # 1
            .call("GET", f"/posts/{A['id']}", response={"posts": [A]})                             # 2
            .call("GET", f"/posts/{B['id']}", response={"posts": [B]})                             # 3
            .call("POST", "/posts", body={"posts": [{"title": "C"}]}, status=201,
                  response={"posts": [C]})                                                         # 4
            .call("GET", f"/posts/{C['id']}", response={"posts": [C]})                             # 5
            .call("PUT", f"/posts/{A['id']}", body={"posts": [{"title": "A2"}]},
                  response={"posts": [{**A, "title": "A2"}]})                                      # 6
            .call("GET", f"/posts/{A['id']}", response={"posts": [{**A, "title": "A2"}]})         # 7
            .call("GET", "/posts", response=page([{**A, "title": "A2"}, B, C])))                  # 8


def test_plural_lists_items_and_bodies():
    bundle = build_from(ghost())
    listed, item = bundle.view.view("get_posts"), bundle.view.view("get_posts_by_post_id")
    assert (listed.kind, listed.locator.member, listed.state_backed) == ("list", "posts", True)
    assert (item.kind, item.locator.kind, item.locator.member, item.state_backed) == ("item", "singleton", "posts", True)
    assert {m.pointer: m.role for m in listed.envelope_members}["/meta/pagination/total"] == "count"
    create, update = plan(bundle, "POST", "/posts"), plan(bundle, "PUT", "/posts/{post_id}")
    assert (create.served, create.body_envelope) == (True, "posts"), create.reason
    assert update.served, update.reason


def test_served_writes_answer_and_list_in_the_plural_envelope():
    runtime = EnvironmentRuntime(build_from(ghost()))
    created = runtime.read("post_posts", {"body": {"posts": [{"title": "D"}]}})
    (post,) = created["body"]["posts"]
    assert post["title"] == "D"
    listed = runtime.read("get_posts")["body"]
    assert [p["title"] for p in listed["posts"]] == ["A", "B", "D"]
    assert listed["meta"]["pagination"]["total"] == 3 and listed["meta"]["pagination"]["next"] is None
    refused = runtime.call_tool("post_posts", {"body": {"title": "bare"}})
    assert refused.is_error  # the application takes the entity wrapped, as recorded


F1 = {"id": "f1b2c3d4-0000-4000-8000-000000000001", "name": "etl-daily", "tags": []}
F2 = {"id": "f1b2c3d4-0000-4000-8000-000000000002", "name": "ml-train", "tags": []}
F3 = {"id": "f1b2c3d4-0000-4000-8000-000000000003", "name": "nightly", "tags": []}


def flows_by_name() -> HarBuilder:
    """Flows read by id and by name below the collection (``/flows/name/{name}``), every entity
    answered as a one-element array under ``flows``."""
    return (HarBuilder()
            .call("GET", "/flows", response=page([F1, F2]) | {"flows": [F1, F2]})                   # 1
            .call("GET", f"/flows/{F1['id']}", response={"flows": [F1]})                           # 2
            .call("GET", "/flows/name/etl-daily", response={"flows": [F1]})                        # 3
            .call("GET", "/flows/name/ml-train", response={"flows": [F2]})                         # 4
            .call("POST", "/flows", body={"flows": [{"name": "nightly", "tags": []}]}, status=201,
                  response={"flows": [F3]})                                                        # 5
            .call("GET", f"/flows/{F3['id']}", response={"flows": [F3]})                           # 6
            .call("GET", "/flows/name/nightly", response={"flows": [F3]})                          # 7
            .call("GET", "/flows", response={"flows": [F1, F2, F3], "meta": {"pagination": {
                "page": 1, "limit": 15, "pages": 1, "total": 3, "next": None, "prev": None}}}))    # 8


def test_an_entity_looked_up_by_name_below_its_collection_is_the_item():
    """``/flows/name/{name}`` answering ``{"flows": [{…}]}``: the path's last word is the key's name,
    the member the collection's (envelope.lookup-path-word), so the read is an item view of the flows
    (not a list of one of a type ``name`` holding copies of them, which kept the create unserved)."""
    bundle = build_from(flows_by_name())
    by_name = bundle.view.view("get_flows_name_by_name")
    assert by_name is not None, [v.tool for v in bundle.view.views]
    assert (by_name.kind, by_name.type, by_name.locator.kind, by_name.locator.member) == \
        ("item", "flows", "singleton", "flows")
    assert {t.name for t in bundle.view.types} == {"flows"}
    create = plan(bundle, "POST", "/flows")
    assert create.served, create.reason
    runtime = EnvironmentRuntime(bundle)
    made = runtime.read("post_flows", {"body": {"flows": [{"name": "weekly", "tags": []}]}})["body"]
    (flow,) = made["flows"]
    assert runtime.read("get_flows_name_by_name", {"name": "weekly"})["body"] == {"flows": [flow]}


M1 = {"kind": "ALLOW-AXFR-FROM", "metadata": ["192.0.2.0/24"], "type": "Metadata"}
M2 = {"kind": "X-Owner", "metadata": ["ops"], "type": "Metadata"}


def test_an_item_keyed_by_a_member_read_back_in_a_list_of_one_is_a_parameter():
    """``/metadata/{kind}`` answering ``{"metadata": [{"kind": …}]}``: the path's value read back in
    the one object of a one-element array names the entity (manifest segment.read-back), as in a bare
    object, so the two reads are one item tool, not one literal tool per kind."""
    bundle = build_from(HarBuilder()
                        .call("GET", "/zones/z1/metadata", response={"metadata": [M1, M2]})
                        .call("GET", "/zones/z1/metadata/ALLOW-AXFR-FROM", response={"metadata": [M1]})
                        .call("GET", "/zones/z1/metadata/X-Owner", response={"metadata": [M2]}))
    tools = {v.tool for v in bundle.view.views}
    assert "get_zones_z1_metadata_X_Owner" not in tools, tools
    item = next(v for v in bundle.view.views if v.kind == "item")
    assert (item.type, item.locator.member, item.state_backed) == ("metadata", "metadata", True)


def test_a_literal_path_answering_the_entity_it_names_as_a_list_of_one_is_no_list():
    """``/servers/localhost`` answering ``{"servers": [{"id": "localhost", …}]}``: the one object holds
    the path's last word, so the path names it (envelope.entity-named-by-path-word); it is no list of a
    type ``localhost``, which took the item reads below it (/servers/localhost/keys/{id}) as its own."""
    server = {"id": "localhost", "url": "/servers/localhost", "version": "4.9"}
    k1, k2 = {"id": "k1.", "name": "k1", "algorithm": "hmac-sha256"}, {"id": "k2.", "name": "k2", "algorithm": "hmac-sha256"}
    bundle = build_from(HarBuilder()
                        .call("GET", "/servers", response={"servers": [server]})
                        .call("GET", "/servers/localhost", response={"servers": [server]})
                        .call("GET", "/servers/localhost/keys/k1.", response={"keys": [k1]})
                        .call("GET", "/servers/localhost/keys/k2.", response={"keys": [k2]})
                        .call("DELETE", "/servers/localhost/keys/k2.", status=204)
                        .call("GET", "/servers/localhost/keys/k2.", status=404, response={"error": "Not Found"}))
    assert "localhost" not in {t.name for t in bundle.view.types}
    assert bundle.view.view("get_servers_localhost").kind == "document"
    delete = plan(bundle, "DELETE", "/servers/localhost/keys/{key_id}")
    assert delete.effect == "delete" and delete.type == "keys", (delete.effect, delete.reason)
