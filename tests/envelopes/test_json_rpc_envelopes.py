"""A JSON-RPC-like envelope on every answer (privacyIDEA: ``{"id", "jsonrpc", "result": {"status",
"value"}, "time", "signature"}``): lists and items sit two members deep under ``result.value``, an
item read answers its entity as an array of one, a name the application holds nothing under
answers ``value: []`` with 200, an empty page holds ``tokens: []``, and every answer carries an
epoch ``time`` with more digits than a double holds."""

from __future__ import annotations

import hashlib

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

POLICIES = [{"name": "pin", "scope": "authentication", "priority": 1},
            {"name": "lock-all", "scope": "user", "priority": 2},
            {"name": "pass", "scope": "authentication", "priority": 3}]
TOKENS = [{"serial": "S1", "id": 1, "active": True}, {"serial": "S2", "id": 2, "active": False}]


class Clock:
    """Each answer's ``time`` (epoch seconds with seven decimals, written as the application does)
    and ``signature`` (new in every answer: a missing name's answers differ only there)."""

    def __init__(self) -> None:
        self.tick = 0

    def __call__(self, value, status: bool = True) -> str:
        self.tick += 1
        return ('{"id": 1, "jsonrpc": "2.0", "result": {"status": %s, "value": %s}, '
                '"time": 1796522461.53070%02d, "version": "App 3.14", "signature": "rsa_sha256_pss:%s"}' % (
                    "true" if status else "false", _json(value), self.tick,
                    hashlib.sha512(str(self.tick).encode()).hexdigest() * 4))


def _json(value) -> str:
    import json
    return json.dumps(value)


def capture(deleted=(True, True)) -> HarBuilder:
    """``deleted``: what the two deletes answer as ``value`` (privacyIDEA answers the deleted policy's
    database id: a value of each entity's own)."""
    at = Clock()
    har = HarBuilder()
    for _ in range(2):  # each read twice: only the answer's time moves
        har.call("GET", "/policy/", response=at(POLICIES))
        for policy in POLICIES:
            har.call("GET", f"/policy/{policy['name']}", response=at([policy]))
    har.call("GET", "/policy/never-made", response=at([]))
    for _ in range(2):
        har.call("GET", "/token/", response=at({"count": 2, "next": None, "prev": None, "tokens": TOKENS}))
    har.call("GET", "/token/", query="serial=S2", response=at({"count": 1, "next": None, "prev": None,
                                                               "tokens": [TOKENS[1]]}))
    har.call("GET", "/token/", query="serial=S9", response=at({"count": 0, "next": None, "prev": None,
                                                               "tokens": []}))
    har.call("DELETE", "/policy/lock-all", response=at(deleted[0]))
    har.call("GET", "/policy/lock-all", response=at([]))
    har.call("GET", "/policy/", response=at([POLICIES[0], POLICIES[2]]))
    har.call("DELETE", "/policy/pass", response=at(deleted[1]))
    har.call("GET", "/policy/pass", response=at([]))
    har.call("DELETE", "/policy/pass", status=404,
             response=at({"code": 601, "message": "The requested Policy could not be found."}, status=False))
    return har


def test_lists_and_items_two_members_deep_are_read_from_the_state(tmp_path):
    bundle = build_from(capture(), tmp_path / "capture.har")
    views = {v.tool: v for v in bundle.view.views}
    tokens, item = views["get_token"], views["get_policy_by_policy_id"]
    assert tokens.kind == "list" and tokens.locator.within == ("result", "value") and tokens.locator.member == "tokens"
    assert item.kind == "item" and item.locator.kind == "singleton" and item.locator.within == ("result",)
    assert item.state_backed and tokens.state_backed
    assert item.absence is not None and item.absence.proof in ("never-shown", "deleted")


def test_a_delete_answered_so_is_served_and_a_missing_name_is_answered_without_a_crash(tmp_path):
    bundle = build_from(capture(), tmp_path / "capture.har")
    delete = plan(bundle, "DELETE", "/policy/{policy_id}")
    assert delete.served, delete.reason
    runtime = EnvironmentRuntime(bundle)
    gone = runtime.call_tool(delete.tool, {"policy_id": "pin"})
    assert not gone.is_error and gone.structured["status"] == 200, gone.structured
    again = runtime.call_tool(delete.tool, {"policy_id": "pin"})  # the recorded time is no plain float
    assert again.structured["status"] == 404 or again.is_error, again.structured
    read = runtime.call_tool("get_policy_by_policy_id", {"policy_id": "pin"})
    assert read.structured["status"] == 200 and read.structured["body"]["result"]["value"] == [], read.structured


def test_a_delete_answering_each_policy_its_own_value_is_not_served(tmp_path):
    """Each delete answered a value of its own (the deleted policy's id, 2 and 3): served, it would answer
    the recorded one for every policy (plans/entity_bound_answers)."""
    bundle = build_from(capture(deleted=(2, 3)), tmp_path / "capture.har")
    delete = plan(bundle, "DELETE", "/policy/{policy_id}")
    assert not delete.served and delete.reason == "body-unusable", delete.reason


def test_a_signature_new_in_every_answer_is_left_out_of_every_view(tmp_path):
    """Every answer signs itself anew: proven once, by one request answered twice with no write
    between (the policy list), it is no state of the resolver map either, which is never read twice
    without a write between; a member every answer repeats (the version) stays compared."""
    signed = iter(range(100, 200))

    def answer(value) -> str:
        return ('{"id": 1, "result": {"status": true, "value": %s}, "signature": "rsa:%d", "version": "3.14"}'
                % (_json(value), next(signed)))

    resolvers = {"staff": {"resolvername": "staff", "type": "passwd"}}
    more = dict(resolvers, interns={"resolvername": "interns", "type": "passwd"})
    har = (HarBuilder()
           .call("GET", "/policy/", response=answer(POLICIES))
           .call("GET", "/policy/", response=answer(POLICIES))
           .call("GET", "/resolver/", response=answer(resolvers))
           .call("POST", "/resolver/interns", body={"type": "passwd"}, response=answer(2))
           .call("GET", "/resolver/", response=answer(more)))
    bundle = build_from(har, tmp_path / "capture.har")
    views = {v.tool: v for v in bundle.view.views}
    assert "signature" in views["get_resolver"].per_response_members
    assert "version" not in views["get_resolver"].per_response_members
    assert views["get_resolver"].state_backed, views["get_resolver"].reason
    assert not any(m.pointer == "/signature" for m in views["get_policy"].envelope_members)
