"""An item read of an entity only the list showed, holding a field no item read of the view
carried: the list of templates shows the built-in `vpcs` with a `properties` object, while the item
reads, all of custom templates, never show `properties`. Projecting the built-in onto the item
view's fields answered it without `properties`, which the application shows: a body the state does
not hold. It is refused now. A field the list shows of an entity the item view also read, and the
item read left out, is proven dropped: that entity's listed-only neighbour is answered projected."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime

CUSTOM = {"template_id": "c1", "name": "Alpine", "template_type": "qemu", "ram": 256}
HUB = {"template_id": "c2", "name": "Hub", "template_type": "ethernet_hub", "ram": 0}
BUILTIN = {"template_id": "b1", "name": "VPCS", "template_type": "vpcs", "ram": 0,
           "properties": {"base_script_file": "vpcs_base_config.txt"}}


def templates_capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/templates", response=[BUILTIN, CUSTOM, HUB])
    har.call("GET", "/templates/c1", response=CUSTOM)
    har.call("GET", "/templates/c2", response=HUB)
    har.call("GET", "/templates/zz", status=404, response={"message": "no template zz"})
    return har


def links_capture() -> HarBuilder:
    """Every listed user carries `links`, which the item reads leave out: proven dropped."""
    har = HarBuilder()
    listed = [{"id": "u1", "name": "ann", "links": {"self": "/users/u1"}},
              {"id": "u2", "name": "bob", "links": {"self": "/users/u2"}},
              {"id": "u3", "name": "cid", "links": {"self": "/users/u3"}}]
    har.call("GET", "/users", response=listed)
    har.call("GET", "/users/u1", response={"id": "u1", "name": "ann"})
    har.call("GET", "/users/u2", response={"id": "u2", "name": "bob"})
    return har


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    return build_from(templates_capture(), tmp_path_factory.mktemp("templates") / "capture.har")


@pytest.fixture(scope="module")
def users(tmp_path_factory):
    return build_from(links_capture(), tmp_path_factory.mktemp("users") / "capture.har")


def test_a_field_no_item_read_showed_is_not_dropped_unproven(templates) -> None:
    with http_in_thread(EnvironmentRuntime(templates)) as serving:
        status, answer = send_json(serving, "/templates/c1", None, method="GET")
        assert status == 200 and answer == CUSTOM, answer
        status, answer = send_json(serving, "/templates/b1", None, method="GET")
        # must not: 200 with the built-in less its properties
        assert status != 200 and "properties" in str(answer), (status, answer)


def test_a_field_the_item_reads_left_out_is_dropped(users) -> None:
    with http_in_thread(EnvironmentRuntime(users)) as serving:
        status, answer = send_json(serving, "/users/u3", None, method="GET")
        assert status == 200 and answer == {"id": "u3", "name": "cid"}, (status, answer)
