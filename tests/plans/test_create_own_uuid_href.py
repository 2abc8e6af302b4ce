"""A create whose answer names the new entity by an href or a resource name around a UUID the
application drew (Pulp's ``pulp_href: /pulp/api/v3/contentguards/core/header/<uuid>/`` and
``prn: prn:core.headercontentguard:<uuid>``), where no field holds the UUID alone: a template has no
generated value to rebuild around, and a constant would answer every later create with the
exemplar's own href, naming the entity the recording made (another entity's identity). Found by
tests/live -k pulp: a served POST of a header content guard answered the recorded guard's href and
prn, and the next probe's PATCH of that href reached the recorded guard. The field is left
unexplained (rule field.constant, unless create_text_holds_own_uuid), so the create is refused.

Where the href is the very path the entity is read at (``identity-field.own-address``), it is the
type's identity: a served create draws a new UUID and rebuilds the href and the prn around it
(tests/plans/test_href_creates.py), never answering the recorded guard's; an href naming another
path than the one the entity is read at stays refused."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

API = "/api/guards/"
SEEDED_ID = "019b0000-0000-7000-8000-000000000017"
MADE_ID = "01a24baf-ce59-7b57-a161-acb64df88c10"


def guard(uuid: str, name: str, header: str, **links: str) -> dict:
    return {"href": f"{API}{uuid}/", "prn": f"prn:core.guard:{uuid}", "name": name, "header_name": header,
            **links}


def app(seeded: dict, made: dict) -> HarBuilder:
    return (HarBuilder()
            .call("GET", API, response={"count": 1, "results": [seeded]})
            .call("GET", f"{API}{SEEDED_ID}/", response=seeded)
            .call("POST", API, body={"name": "beta", "header_name": "X-Beta"}, status=201, response=made)
            .call("GET", f"{API}{MADE_ID}/", response=made)
            .call("GET", API, response={"count": 2, "results": [made, seeded]}))


def test_a_create_answering_an_href_around_its_own_drawn_uuid_is_not_served():
    """The href names another path than the one the guard is read at: no identity of its own
    address, so no template rebuilds it."""
    def elsewhere(uuid: str, name: str, header: str) -> dict:
        return guard(uuid, name, header, href=f"/api/v3/guards/{uuid}/")
    created = plan(build_from(app(elsewhere(SEEDED_ID, "token", "X-Token"), elsewhere(MADE_ID, "beta", "X-Beta"))),
                   "POST", API)
    assert created.effect == "create"
    assert not created.served, "a constant href would name the recorded guard in every later create"


def test_an_href_that_is_the_entity_s_own_address_is_rebuilt_around_a_new_uuid():
    bundle = build_from(app(guard(SEEDED_ID, "token", "X-Token"), guard(MADE_ID, "beta", "X-Beta")))
    created = plan(bundle, "POST", API)
    assert created.served, (created.reason, created.contradicted_by)
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.http(HttpRequest("POST", API, (), (("content-type", "application/json"),),
                                      dumps({"name": "gamma", "header_name": "X-Gamma"})))
    body = loads(answer.body)
    assert answer.status == 201, body
    drawn = body["href"][len(API):-1]
    assert body["href"] == f"{API}{drawn}/" and drawn not in (SEEDED_ID, MADE_ID)
    assert body["prn"] == f"prn:core.guard:{drawn}"


def test_a_create_whose_links_name_only_what_the_call_sent_stays_served():
    """The same create with a link every entity shares (the one domain they live in) and no href of
    its own: the constant is the application's, and the create is served."""
    domain = {"domain": "prn:core.domain:e730bcc6-c641-4d4f-a1b1-09dfdd0d56b3"}
    seeded = {"name": "token", "header_name": "X-Token", **domain}
    made = {"name": "beta", "header_name": "X-Beta", **domain}
    har = (HarBuilder()
           .call("GET", API, response={"count": 1, "results": [seeded]})
           .call("GET", f"{API}token/", response=seeded)
           .call("POST", API, body={"name": "beta", "header_name": "X-Beta"}, status=201, response=made)
           .call("GET", f"{API}beta/", response=made)
           .call("GET", API, response={"count": 2, "results": [made, seeded]}))
    created = plan(build_from(har), "POST", API)
    assert created.served, (created.reason, created.contradicted_by)
