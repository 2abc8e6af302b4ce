"""Two servers on one lasting store serve one fleet (issue 14): the registry, the instances'
states and their snapshots live in the store, so either server reaches every instance. Each
fleet here opens its own store connection, as a second ``capenv serve`` process would."""

from __future__ import annotations

import pytest
from support.fleets import open_fleet_store

from capenv.serving.instances.fleet import InstanceFleet, UnknownInstance

POST = {"title": "shared", "author": "a", "views": 1, "published": True, "tags": []}


@pytest.mark.parametrize("store_url", ["sqlite", "postgres"], indirect=True)
def test_two_servers_on_one_store_see_one_set_of_instances(template, store_url) -> None:
    one = InstanceFleet(template, open_fleet_store(store_url))
    two = InstanceFleet(template, open_fleet_store(store_url))
    try:
        made = one.create()
        assert [i["id"] for i in two.instances()] == [made]
        one.runtime(made).call_tool("post_posts", {"body": POST})
        assert two.runtime(made).data_get() == one.runtime(made).data_get()
        answer = two.runtime(made).call_tool("post_posts", {"body": {**POST, "title": "from two"}}).structured
        assert answer["status"] == 201
        seen = one.runtime(made).call_tool("get_posts", {}).structured["body"]
        assert [p["title"] for p in seen][-2:] == ["shared", "from two"]
        snapshot = one.snapshot(made)
        copy = two.create(from_snapshot=snapshot)
        assert one.runtime(copy).data_get() == two.runtime(made).data_get()
        one.delete(made)
        with pytest.raises(UnknownInstance):
            two.runtime(made)
        assert [i["id"] for i in two.instances()] == [copy]
    finally:
        one.close()
        two.close()


@pytest.mark.parametrize("store_url", ["sqlite", "postgres"], indirect=True)
def test_two_serve_processes_on_one_store_serve_one_fleet(bundle_dir, store_url) -> None:
    import httpx2
    from support.served import GRADER_TOKEN, serving_http

    bundle = bundle_dir("json-server")
    grader = {"authorization": f"Bearer {GRADER_TOKEN}"}
    with serving_http(bundle, "--instances", "--store", store_url) as first, \
            serving_http(bundle, "--instances", "--store", store_url) as second, \
            httpx2.Client(trust_env=False, timeout=60) as client:
        made = client.post(f"{first}/_capenv/instances", headers=grader)
        assert made.status_code == 201, made.text
        instance = made.json()["id"]
        listed = client.get(f"{second}/_capenv/instances", headers=grader).json()["instances"]
        assert [i["id"] for i in listed] == [instance]
        written = client.post(f"{second}/i/{instance}/posts", json={**POST, "title": "via second"})
        assert written.status_code == 201, written.text
        assert client.get(f"{first}/i/{instance}/posts/{written.json()['id']}").json()["title"] == "via second"
        state = f"/_capenv/instances/{instance}/data/get"
        assert client.get(first + state, headers=grader).content == client.get(second + state, headers=grader).content
        assert client.delete(f"{second}/_capenv/instances/{instance}", headers=grader).status_code == 200
        assert client.get(f"{first}/i/{instance}/posts").status_code == 404
        assert client.get(f"{first}/_capenv/instances", headers=grader).json()["instances"] == []
