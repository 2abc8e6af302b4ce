"""A body member whose values the application validates (``WritePlan.validated_values``), served
over HTTP: a recorded refusal of a create whose body differs from a success's in the member's value
(a), or sends a new value the refusal's answer quotes beside another new value (b), of a member
whose successful values repeat (values from a set, not free text), makes serving
accept only the values recorded successes sent and refuse another, saying which and citing the
refusal, with the state unchanged. A capture with no such refusal, or refusing a free-text member, validates nothing: a status of a few repeated words is still
taken only with a word the capture shows (``sent-values.vocabulary``, tests/writes_serving/test_writes_vocabulary_values.py).
"""

from __future__ import annotations


import anyio
import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import call_tool, runtime_over_http, send_json, served_over_http, state_of


POSTS = [{"id": 1, "title": "Cards", "status": "draft"}]


def capture(case: str) -> HarBuilder:
    """Posts made with a ``status``; ``case`` says what refusal the session records: ``one-member``
    (the same title, another status), ``quoted`` (another title and status, the answer quoting the
    status) or ``none``."""
    har = HarBuilder()
    har.call("GET", "/posts", response=POSTS)
    har.call("GET", "/posts/1", response=POSTS[0])
    made = list(POSTS)
    for new_id, title, status in ((2, "Relays", "published"), (3, "Gears", "draft"), (4, "Wheels", "draft")):
        post = {"id": new_id, "title": title, "status": status}
        made.append(post)
        har.call("POST", "/posts", body={"title": title, "status": status}, status=201, response=post)
        har.call("GET", f"/posts/{new_id}", response=post)
        har.call("GET", "/posts", response=made)
    if case == "one-member":
        har.call("POST", "/posts", body={"title": "Gears", "status": "bogus"}, status=422,
                 response={"error": "invalid"})
    elif case == "free-text":  # each success sent its own title: a length or pattern refusal, not a set
        har.call("POST", "/posts", body={"title": "x", "status": "draft"}, status=422, response={"error": "too short"})
    elif case == "quoted":
        har.call("POST", "/posts", body={"title": "Other", "status": "bogus"}, status=422,
                 response={"error": "Unsupported status 'bogus'"})
    return har


@pytest.fixture(scope="module", params=["one-member", "quoted", "free-text", "none"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(request.param), tmp_path_factory.mktemp(request.param) / "capture.har")


def test_the_plan_names_the_validated_member(built) -> None:
    case, bundle = built
    create = plan(bundle, "POST", "/posts")
    assert create.served, create.reason
    if case in ("none", "free-text"):
        assert create.validated_values == ()
        return
    (rule,) = create.validated_values
    assert rule.member == "status" and set(rule.accepted) == {"published", "draft"} and rule.status == 422
    assert rule.rule_id == ("validated.one-member" if case == "one-member" else "validated.quoted-value")


def test_another_value_is_refused_and_a_recorded_one_served(built) -> None:
    case, bundle = built
    with runtime_over_http(bundle) as (runtime, serving):
        before = state_of(serving)
        status, answer = send_json(serving, "/posts", {"title": "New", "status": "archived"})
        if case in ("none", "free-text"):  # no refusal shows it validated, but a status repeating a few
            # words is a vocabulary (sent-values.vocabulary): another word is refused naming those shown
            assert status == 400 and "one of the values the capture shows (draft, published)" in answer["message"]
            assert "was refused" not in answer["message"]  # no refusal to cite
            assert state_of(serving) == before
            status, answer = send_json(serving, "/posts", {"title": "New", "status": "published"})
            assert status == 201 and answer["status"] == "published"
            return
        assert status == 400, answer
        message = answer["message"]
        assert "'status'" in message and '"draft"' in message and '"published"' in message
        assert f"recorded call {plan(bundle, 'POST', '/posts').validated_values[0].record}" in message
        assert state_of(serving) == before  # nothing written
        create = plan(bundle, "POST", "/posts").tool
        result = anyio.run(call_tool, serving, runtime, create, {"body": {"title": "New", "status": "archived"}})
        said = str(result.content)
        assert result.is_error is True and "archived" in said and "draft" in said and "recorded call" in said
        assert state_of(serving) == before
        status, answer = send_json(serving, "/posts", {"title": "New", "status": "published"})
        assert status == 201 and answer["status"] == "published" and answer["title"] == "New"


def test_an_update_of_the_type_validates_the_member_the_create_showed_validated(tmp_path) -> None:
    """PocketBase refuses a select value outside its list on a PATCH as on the POST whose recorded
    refusal showed it: the update accepts the values either tool's successful calls sent, and
    refuses another, state unchanged."""
    har = capture("one-member")
    har.call("PATCH", "/posts/2", body={"status": "draft"}, response={"id": 2, "title": "Relays", "status": "draft"})
    har.call("GET", "/posts/2", response={"id": 2, "title": "Relays", "status": "draft"})
    bundle = build_from(har, tmp_path / "capture.har")
    update = plan(bundle, "PATCH", "/posts/{post_id}")
    assert update.served, update.reason
    (rule,) = update.validated_values
    assert rule.member == "status" and set(rule.accepted) == {"published", "draft"}
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send_json(serving, "/posts/1", {"status": "archived"}, method="PATCH")
        assert status == 400 and "'status'" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send_json(serving, "/posts/1", {"status": "published"}, method="PATCH")
        assert status == 200 and answer["status"] == "published", answer
