"""An item path's learned absence is not given for an id starting like the application's own
routes beside it (``view-reserved-ids``): ``/_stats`` beside ``/{shelf}`` makes ``/_other`` a
possible route of the application rather than a missing shelf, so it is refused, saying why; an id
of another shape keeps the absence (the table's fixtures show ids starting alike reserving nothing)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

MISSING = {"error": "not_found", "reason": "no such shelf"}


def shelves_app() -> HarBuilder:
    har = HarBuilder().call("GET", "/_stats", response={"shelves": 2, "uptime": 12})
    for name in ("north", "south"):
        har.call("GET", f"/{name}", response={"name": name, "rows": 3})
    return har.call("GET", "/west", status=404, response=MISSING).call("GET", "/east", status=404, response=MISSING)


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_an_id_starting_like_a_route_beside_the_item_path_is_refused_not_answered_missing():
    # must not: the learned 404 for /_other, which the application may answer as a route of its own
    bundle = build_from(shelves_app())
    view = next(v for v in bundle.view.views if v.absence is not None)
    assert view.absence.reserved_prefixes == ("_",)
    runtime = EnvironmentRuntime(bundle)
    refused = get(runtime, "/_other")  # refused as starting like /_stats, or for its layout (view-absence-id-shapes)
    assert refused.status == 404 and b"no such shelf" not in refused.body
    missing = get(runtime, "/up")
    assert missing.status == 404 and b"no such shelf" in missing.body
    assert get(runtime, "/north").status == 200



def test_a_collection_holding_an_entity_of_empty_id_answers_no_absence():
    # must not: the learned 404 for /hubs/a/main.default, the name the application may give the "" hub
    hubs_a = [{"name": "", "kind": "direct"}, {"name": "orders", "kind": "topic"}]
    hubs_b = [{"name": "billing", "kind": "topic"}]
    har = (HarBuilder().call("GET", "/hubs/a", response=hubs_a).call("GET", "/hubs/b", response=hubs_b)
           .call("GET", "/hubs/a/orders", response=hubs_a[1]).call("GET", "/hubs/b/billing", response=hubs_b[0])
           .call("GET", "/hubs/a/nope", status=404, response=MISSING)
           .call("GET", "/hubs/b/gone", status=404, response=MISSING))
    bundle = build_from(har)
    view = next(v for v in bundle.view.views if v.absence is not None)
    assert view.absence.reserved_collections == ("/hubs/a",)
    runtime = EnvironmentRuntime(bundle)
    refused = get(runtime, "/hubs/a/main.default")
    assert refused.status == 404 and b"no such shelf" not in refused.body and b"empty text" in refused.body
    assert b"no such shelf" in get(runtime, "/hubs/b/other").body  # a collection without one keeps its absence
    assert get(runtime, "/hubs/a/orders").status == 200
