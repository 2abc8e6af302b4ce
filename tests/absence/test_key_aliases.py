"""An entity another type holds under another key (a compatibility API's ``bridge`` network is the
native API's ``podman``, one long ``Id`` in both) may be answered by the application under either
key: an item read of a key the type lacks is refused, naming the alias, never answered with the
learned absence (regression: Podman's ``GET /v1.41/networks/podman`` answered 404)."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

LONG_IDS = {"edge": "2f259bab93aaaaa2542ba43ef33eb990d0999ee1b9924b557b7be53c0b7a1bb9",
            "back": "10e08a419e850eba1ebba18fdd28eb7ec1b7e8baa9bcc3b973e2b8891ec726be"}


def compat(name: str, key: str) -> dict:
    return {"Name": name, "Id": LONG_IDS[key], "Driver": "bridge", "Internal": False}


def native(name: str, key: str) -> dict:
    return {"name": name, "id": LONG_IDS[key], "driver": "bridge", "internal": False, "dns": True}


def capture(native_default: str) -> HarBuilder:
    """Two APIs over the same networks; the native one names the default network ``native_default``."""
    return (HarBuilder()
            .call("GET", "/compat/networks", response=[compat("edge", "edge"), compat("back", "back")])
            .call("GET", "/compat/networks/edge", response=compat("edge", "edge"))
            .call("GET", "/compat/networks/back", response=compat("back", "back"))
            .call("GET", "/compat/networks/nowhere", status=404, response={"message": "network not found"})
            .call("GET", "/native/networks", response=[native(native_default, "edge"), native("back", "back")])
            .call("GET", f"/native/networks/{native_default}", response=native(native_default, "edge")))


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_key_the_other_type_holds_the_entity_under_is_refused_naming_the_held_key():
    bundle = build_from(capture(native_default="main"))
    view = next(v for v in bundle.view.views if v.kind == "item" and v.tool.startswith("get") and v.key_aliases)
    assert [(a.key, a.other_key) for a in view.key_aliases] == [("edge", "main")]
    runtime = EnvironmentRuntime(bundle)
    assert get(runtime, "/compat/networks/edge").status == 200
    answer = get(runtime, "/compat/networks/main")
    assert answer.status == 409, answer
    assert 'read it as "edge"' in json.loads(answer.body)["message"]
    other = get(runtime, "/compat/networks/missing")  # any key not held: aliases are proven to exist
    assert other.status == 409 and "another name" in json.loads(other.body)["message"]


def test_types_keyed_alike_keep_the_learned_absence():
    bundle = build_from(capture(native_default="edge"))
    assert not any(v.key_aliases for v in bundle.view.views)
    runtime = EnvironmentRuntime(bundle)
    assert get(runtime, "/compat/networks/missing").status == 404
