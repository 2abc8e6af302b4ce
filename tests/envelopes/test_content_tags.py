"""A list answer's envelope member that tags its content (an HTTP entity tag hashing the page:
one value per listing, another for every other listing) is a ``digest`` (``list-member.content-
digest``): kept as recorded while the collection is, else a SHA-256 of the rendered answer spelled
as the recorded tag; the gates compare the listing beside it, not the tag. A tag that stayed the
same across different listings is no digest and stays a recorded value."""

from __future__ import annotations

import hashlib

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

R1 = {"name": "r1", "size": 1}
R2 = {"name": "r2", "size": 2}
R3 = {"name": "r3", "size": 3}


def tag(*members: dict) -> str:
    return '"' + hashlib.sha1(dumps(list(members))).hexdigest() + '"'


def page(*members: dict, fixed_tag: str | None = None) -> dict:
    return {"total": len(members), "items": list(members), "etag": fixed_tag or tag(*members)}


def rooms_app(fixed_tag: str | None = None) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/rooms", response=page(R1, R2, fixed_tag=fixed_tag))
            .call("GET", "/rooms/r1", response=R1)
            .call("GET", "/rooms/r2", response=R2)
            .call("POST", "/rooms", body={"name": "r3", "size": 3}, status=201, response=R3)
            .call("GET", "/rooms/r3", response=R3)
            .call("GET", "/rooms", response=page(R1, R2, R3, fixed_tag=fixed_tag))
            .call("DELETE", "/rooms/r3", status=204, response="")
            .call("GET", "/rooms/r3", status=404, response={"error": "not found"})
            .call("GET", "/rooms", response=page(R1, R2, fixed_tag=fixed_tag)))


def list_view(bundle):
    return next(v for v in bundle.view.views if v.kind == "list")


def get_rooms(runtime: EnvironmentRuntime):
    return runtime.http(HttpRequest("GET", "/rooms", (), (), b""))


def test_a_tag_following_the_listing_is_a_digest_and_the_writes_its_lists_show_are_served():
    bundle = build_from(rooms_app())
    roles = {m.pointer: m.role for m in list_view(bundle).envelope_members}
    assert roles["/etag"] == "digest"
    served = {p.method: p.served for p in bundle.view.writes}
    assert served == {"POST": True, "DELETE": True}, [(p.tool, p.reason) for p in bundle.view.writes]


def test_serving_keeps_the_recorded_tag_while_the_collection_is_as_recorded_and_spells_a_new_one_after():
    runtime = EnvironmentRuntime(build_from(rooms_app()))
    first = get_rooms(runtime)
    assert first.status == 200 and loads(first.body)["etag"] == tag(R1, R2)
    made = runtime.http(HttpRequest("POST", "/rooms", (), (("content-type", "application/json"),),
                                    dumps({"name": "r4", "size": 4})))
    assert made.status == 201, made.body
    after = loads(get_rooms(runtime).body)
    assert after["total"] == 3 and [r["name"] for r in after["items"]] == ["r1", "r2", "r4"]
    assert after["etag"] != tag(R1, R2) and len(after["etag"]) == len(tag(R1, R2))
    assert after["etag"].startswith('"') and after["etag"].endswith('"')
    again = loads(get_rooms(runtime).body)
    assert again["etag"] == after["etag"]  # the same content, the same tag


def test_a_tag_that_stayed_the_same_across_listings_is_no_digest():
    bundle = build_from(rooms_app(fixed_tag='"0123456789abcdef0123456789abcdef01234567"'))
    roles = {m.pointer: m.role for m in list_view(bundle).envelope_members}
    assert roles["/etag"] != "digest"
