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
