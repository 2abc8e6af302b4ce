"""A create answered 200 with no body and no ``Location`` (a 201's header is what names what it
made; a 200 names nothing): the plan is linked by the one entity the next plain list read newly
lists, and the gate replays each such call with the values that read, or the item read of that
entity, recorded, as it does for a create whose Location or answer names the id. Before, the gate
had no recorded outcome for such a call: serving's freshly drawn values (a digest, a tag) differed
from the item read that observed the create, which then contradicted it as a side effect. Found by
a metamorphic check (every 201 answered 200): a mailing-list server's domain create lost service."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder


def domain(host: str, tag: str, description: str | None = None) -> dict:
    return {"mail_host": host, "description": description,
            "http_etag": f'"{tag}"'}


COM = domain("example.com", "d3911539095df6e43e97fd173bbcb564563c89cf", "Example lists")
NET = domain("example.net", "28eaa9413433507549a1837b029e7aa34dbdb6fc", "Net lists")
EDU = domain("example.edu", "9c1e0b6a7f2d4e8a1b3c5d7e9f0a2b4c6d8e0f1a", "Edu lists")


def app(status: int) -> HarBuilder:
    headers = [] if status == 200 else [("Location", "http://x/3.1/domains/example.net")]
    headers_edu = [] if status == 200 else [("Location", "http://x/3.1/domains/example.edu")]
    return (HarBuilder()
            .call("GET", "/3.1/domains", response={"start": 0, "total_size": 1, "entries": [COM]})
            .call("GET", "/3.1/domains/example.com", response=COM)
            .call("GET", "/3.1/domains/example.org", status=404, response={"title": "404 Not Found"})
            .call("POST", "/3.1/domains", body={"mail_host": "example.net", "description": "Net lists"},
                  status=status, response=None, response_headers=headers)
            .call("GET", "/3.1/domains/example.net", response=NET)
            .call("GET", "/3.1/domains", response={"start": 0, "total_size": 2, "entries": [COM, NET]})
            .call("POST", "/3.1/domains", body={"mail_host": "example.edu", "description": "Edu lists"},
                  status=status, response=None, response_headers=headers_edu)
            .call("GET", "/3.1/domains/example.edu", response=EDU)
            .call("GET", "/3.1/domains", response={"start": 0, "total_size": 3, "entries": [COM, NET, EDU]}))


def test_a_create_answered_200_with_no_body_is_served_as_one_answered_201_with_a_location():
    created = plan(build_from(app(201)), "POST", "/3.1/domains")
    assert created.served, (created.reason, created.contradicted_by)
    answered_ok = plan(build_from(app(200)), "POST", "/3.1/domains")
    assert answered_ok.effect == "create"
    assert answered_ok.served, (answered_ok.reason, answered_ok.contradicted_by)
