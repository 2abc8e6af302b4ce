"""An absence answer whose text names the read's path values ("No such token a2 for user ada"):
answered for another call only with that call's values, when another absence proves the
template; otherwise only for the recorded values, and any other call is refused saying why
(issue 16 item 4: never another entity's answer)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

TOKEN_A1 = {"id": "a1", "user": "ann", "note": "laptop"}
TOKEN_B7 = {"id": "b7", "user": "bob", "note": "ci"}
TOOL = "get_users_tokens_by_token_id"


def missing(token: str, user: str) -> dict:
    return {"status": 404, "message": f"No such token {token} for user {user}"}


def tokens_app(*, second_absence: bool) -> HarBuilder:
    """Tokens under users, short ids; absences name the token and its user."""
    users = [{"name": "ann"}, {"name": "bob"}, {"name": "cat"}]
    har = (HarBuilder()
           .call("GET", "/users", response=users)
           .call("GET", "/users/ann", response=users[0])
           .call("GET", "/users/bob", response=users[1])
           .call("GET", "/users/ann/tokens", response={"tokens": [TOKEN_A1]})
           .call("GET", "/users/bob/tokens", response={"tokens": [TOKEN_B7]})
           .call("GET", "/users/ann/tokens/a1", response=TOKEN_A1)
           .call("GET", "/users/bob/tokens/b7", response=TOKEN_B7)
           .call("GET", "/users/ann/tokens/z9", status=404, response=missing("z9", "ann")))
    if second_absence:
        har = har.call("GET", "/users/bob/tokens/q3", status=404, response=missing("q3", "bob"))
    return har


def http_get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_message_naming_the_path_values_is_filled_with_the_calls_when_two_absences_prove_it():
    bundle = build_from(tokens_app(second_absence=True))
    absence = bundle.view.view(TOOL).absence
    assert absence is not None and [t.proven for t in absence.path_texts] == [True]
    runtime = EnvironmentRuntime(bundle)
    result = runtime.read(TOOL, {"user_id": "bob", "token_id": "x5"})
    assert result["status"] == 404 and result["body"] == missing("x5", "bob")
    # cat's tokens were never read: what cat holds is not known (tests/absence/test_unheld_collections.py)
    assert runtime.read(TOOL, {"user_id": "cat", "token_id": "x5"}).get("body") != missing("x5", "cat")


def test_one_absence_naming_short_path_values_answers_only_those_values_and_refuses_others():
    bundle = build_from(tokens_app(second_absence=False))
    absence = bundle.view.view(TOOL).absence
    assert absence is not None and [t.proven for t in absence.path_texts] == [False]
    runtime = EnvironmentRuntime(bundle)
    answer = http_get(runtime, "/users/bob/tokens/x5")
    assert answer.status == 404
    assert b"No such token z9" not in answer.body and b"for user ann" not in answer.body
    assert b"only a call naming" in answer.body  # the refusal says what it would answer
    recorded = runtime.read(TOOL, {"user_id": "ann", "token_id": "z9"})
    assert recorded["body"] == missing("z9", "ann")


def test_a_contradicting_absence_leaves_the_template_unproven():
    har = tokens_app(second_absence=False).call(
        "GET", "/users/dan/tokens/k2", status=404, response={"status": 404, "message": "No such user: dan"})
    absence = build_from(har).view.view(TOOL).absence
    assert absence is not None and all(not t.proven for t in absence.path_texts)


def test_the_explain_trace_shows_the_template():
    bundle = build_from(tokens_app(second_absence=True))
    reasons = [e for e in bundle.view.traces if e.table == "view-absence-answers"
               and e.subject == f"{TOOL} absence answer"]
    assert reasons and "No such token {segment 3} for user {segment 1}" in str(reasons[-1].evidence)


def test_a_missing_entity_under_a_parent_the_state_does_not_hold_is_refused_not_given_the_childs_absence():
    runtime = EnvironmentRuntime(build_from(tokens_app(second_absence=True)))
    answer = http_get(runtime, "/users/zoe/tokens/x5")  # no user zoe: the application may say so instead
    assert answer.status == 404 and b"No such token" not in answer.body
    assert b'no users whose \\"name\\" is \\"zoe\\"' in answer.body
    assert runtime.read(TOOL, {"user_id": "bob", "token_id": "x5"})["body"] == missing("x5", "bob")


def test_the_description_says_an_unproven_absence_refuses_other_ids():
    """The refusal of another id is one no schema can say, so the read's description names it
    (regression: a tracker's item read, whose one recorded 404 named its id, refused other ids while
    its description promised the recorded 404 for every id the state does not hold)."""
    runtime = EnvironmentRuntime(build_from(tokens_app(second_absence=False)))
    described = runtime.catalog.entries[TOOL].description
    assert "an id other than the recorded one is refused" in described
    proven = EnvironmentRuntime(build_from(tokens_app(second_absence=True)))
    assert "an id other than the recorded one is refused" not in proven.catalog.entries[TOOL].description
