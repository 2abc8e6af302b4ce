"""A create storing a sent text case-folded (``field.case-folded-echo``): every recorded successful
call's answer shows the member as its sent text in lower case, one call sending it in upper case;
serving stores it folded. A call whose answer keeps another case is no fold. Beside it: a name sent
again after its entity was deleted is no repeat taken (``distinct.text-never-repeated``), and a
refusal of an array element no success sent, beside new free text, shows the elements validated
(``validated.new-vocabulary-element``)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.jsonvalue import dumps, loads
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest


def row(thing_id: int, name: str, modes: list[str]) -> dict:
    return {"thing_id": thing_id, "thing_name": name, "modes": modes, "tags": []}


def things_app(upper_answer: list[str] | None = None) -> HarBuilder:
    """Things listed under their item parameter's name; the second create sends HIGH, stored high
    (or, with ``upper_answer``, answered as given)."""
    rows = [row(1, "alpha", ["low"]), row(2, "beta", ["high", "low"])]
    second = upper_answer or ["high", "low"]
    har = (HarBuilder()
           .call("GET", "/api/things", response={"things": rows})
           .call("GET", "/api/things/1", response={"name": "alpha", "parts": []})
           .call("GET", "/api/things/2", response={"name": "beta", "parts": []})
           .call("POST", "/api/things", body={"thing_name": "gamma", "modes": ["low"]}, status=201,
                 response={"thing": row(3, "gamma", ["low"])}))
    rows = rows + [row(3, "gamma", ["low"])]
    har.call("GET", "/api/things", response={"things": rows})
    har.call("POST", "/api/things", body={"thing_name": "delta", "modes": ["HIGH", "low"]}, status=201,
             response={"thing": row(4, "delta", second)})
    rows = rows + [row(4, "delta", second)]
    har.call("GET", "/api/things", response={"things": rows})
    har.call("POST", "/api/things", body={"thing_name": "eta", "modes": ["low"]}, status=201,
             response={"thing": row(5, "eta", ["low"])})
    rows = rows + [row(5, "eta", ["low"])]
    har.call("GET", "/api/things", response={"things": rows})
    har.call("POST", "/api/things", body={"thing_name": "alpha", "modes": ["low"]}, status=400,
             response={"reason": "taken"})
    har.call("POST", "/api/things", body={"thing_name": "epsilon", "modes": ["sideways"]}, status=400,
             response={"reason": "You need a name and modes"})
    har.call("DELETE", "/api/things/3", status=204)
    rows = [r for r in rows if r["thing_id"] != 3]
    har.call("GET", "/api/things", response={"things": rows})
    har.call("POST", "/api/things", body={"thing_name": "gamma", "modes": ["high"]}, status=201,
             response={"thing": row(6, "gamma", ["high"])})
    rows = rows + [row(6, "gamma", ["high"])]
    har.call("GET", "/api/things", response={"things": rows})
    return har


def post(runtime: EnvironmentRuntime, body: dict):
    answer = runtime.http(HttpRequest("POST", "/api/things", (), (("content-type", "application/json"),), dumps(body)))
    return answer.status, loads(answer.body)


def modes_rule(bundle):
    return next(rule for rule in plan(bundle, "POST", "/api/things").fields if rule.field == "modes")


def test_a_member_every_call_shows_lower_cased_is_served_folded():
    bundle = build_from(things_app())
    create = plan(bundle, "POST", "/api/things")
    assert create.served, create.reason
    assert modes_rule(bundle).params == {"member": "modes", "letter_case": "lower"}
    status, body = post(EnvironmentRuntime(bundle), {"thing_name": "zeta", "modes": ["HIGH"]})
    assert status == 201 and body["thing"]["modes"] == ["high"]


def test_an_answer_keeping_the_sent_case_is_no_fold():
    bundle = build_from(things_app(upper_answer=["HIGH", "low"]))
    assert modes_rule(bundle).params.get("letter_case") is None


def test_a_taken_name_and_an_unknown_element_are_refused_not_stored():
    runtime = EnvironmentRuntime(build_from(things_app()))
    status, body = post(runtime, {"thing_name": "alpha", "modes": ["low"]})  # gamma was sent twice, alpha held
    assert status == 400 and "alpha" in body["message"]
    status, body = post(runtime, {"thing_name": "omega", "modes": ["sideways"]})
    assert status == 400 and "sideways" in body["message"]
