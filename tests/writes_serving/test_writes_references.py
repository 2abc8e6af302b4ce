"""A body member naming another type's entity (``WritePlan.references``), served over MCP and
HTTP: a comment's ``post`` naming no post is refused, with the state unchanged, when a recorded call
shows the application refusing one (a) or no recorded call shows what it does (b), and stored as
sent when a recorded success shows the application accepting one (c). A blank value a recorded
success sent is accepted in every case; the data plane's data/add takes any state, dangling
references included; ``capenv explain --field`` and ``capenv report`` say what a dangling value does.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import call_tool, send_json

from capenv.interpreter.bundle.io import write_bundle
from capenv.interpreter.cli.main import main
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

POSTS = [{"id": "t6cu5l28akg4mky", "title": "Cards"}, {"id": "tji0qp4u6dy78tp", "title": "Relays"}]
COMMENTS = [{"id": "swqqk0m73getjfi", "post": POSTS[0]["id"], "body": "first"}]
DANGLING = "zzzzzzzzzzzzzzz"


def capture(case: str) -> HarBuilder:
    """Posts and comments, a comment naming its post by id; ``case`` says what the session shows for
    a comment naming no post: ``refused`` (a 400), ``unrecorded`` (nothing) or ``accepted`` (a 201)."""
    har = HarBuilder()
    har.call("GET", "/posts", response=POSTS)
    for post in POSTS:
        har.call("GET", f"/posts/{post['id']}", response=post)
    har.call("GET", "/comments", response=COMMENTS)
    har.call("GET", f"/comments/{COMMENTS[0]['id']}", response=COMMENTS[0])
    made = list(COMMENTS)
    sent = [(POSTS[1]["id"], "second", "x7bshpoldks21ov"), ("", "unattached", "ipuonszk4uyaz8m")]
    if case == "accepted":
        sent.append((DANGLING, "dangling", "5rxhdx9am4grmk2"))
    for post, text, new_id in sent:
        comment = {"id": new_id, "post": post, "body": text}
        made.append(comment)
        har.call("POST", "/comments", body={"post": post, "body": text}, status=201, response=comment)
        har.call("GET", f"/comments/{new_id}", response=comment)
        har.call("GET", "/comments", response=made)
    if case == "refused":
        har.call("POST", "/comments", body={"post": DANGLING, "body": "nowhere"}, status=400,
                 response={"errors": {"post": "no such post"}})
    changed = {**made[1], "post": POSTS[0]["id"]}
    har.call("PATCH", f"/comments/{changed['id']}", body={"post": POSTS[0]["id"]}, response=changed)
    har.call("GET", f"/comments/{changed['id']}", response=changed)
    return har


@pytest.fixture(scope="module", params=["refused", "unrecorded", "accepted"])
def built(request, tmp_path_factory):
    return request.param, build_from(capture(request.param), tmp_path_factory.mktemp(request.param) / "capture.har")


def test_the_plan_names_the_reference_and_what_a_dangling_value_does(built) -> None:
    case, bundle = built
    create = plan(bundle, "POST", "/comments")
    assert create.served, create.reason
    (reference,) = create.references
    assert (reference.member, reference.type, reference.rule_id) == ("post", "posts", "reference.named-type")
    assert reference.dangling == case and reference.checked == (case != "accepted")
    assert reference.blanks == ("",)  # a recorded success sent "": accepted as sent
    # many comments may name one post: a reference is no member whose repeats are refused (write-distinct-values)
    assert [d.member for d in create.distinct_members] == ["body"]
    if case == "refused":
        assert reference.record == max(o for t in bundle.manifest.tools if t.template == "/comments"
                                       and t.method == "POST" for o in t.record_ordinals)
    update = plan(bundle, "PATCH", "/comments/{comment_id}")
    assert update.served and [(r.member, r.dangling) for r in update.references] == [("post", "unrecorded")]


def test_a_dangling_reference_over_mcp_and_http(built) -> None:
    case, bundle = built
    runtime = EnvironmentRuntime(bundle)
    create = plan(bundle, "POST", "/comments").tool
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            result = anyio.run(call_tool, serving, runtime, create, {"body": {"post": DANGLING, "body": "nowhere"}})
            # a body no held comment has: every body the capture shows is distinct (a repeat is refused)
            status, answer = send_json(serving, "/comments", {"post": DANGLING, "body": "nowhere else"})
            if case == "accepted":  # the application stores it as sent
                assert result.is_error is False and result.structured_content["body"]["post"] == DANGLING
                assert status == 201 and answer["post"] == DANGLING
                return
            message = result.structured_content["message"]
            assert result.is_error is True and "'post'" in message and "posts" in message and "/posts" in message
            assert ("application refuses" in message) == (case == "refused")
            assert ("no recorded call shows" in message) == (case == "unrecorded")
            assert status == 400 and answer["message"] == message
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before  # nothing written

            held, text = POSTS[1]["id"], "held"
            good = anyio.run(call_tool, serving, runtime, create, {"body": {"post": held, "body": text}})
            assert good.is_error is False and good.structured_content["body"]["post"] == held
            blank = anyio.run(call_tool, serving, runtime, create, {"body": {"post": "", "body": "unattached"}})
            assert blank.is_error is False  # a blank a recorded success sent
            status, answer = send_json(serving, f"/comments/{COMMENTS[0]['id']}", {"post": DANGLING}, "PATCH")
            assert status == 400 and "no recorded call shows" in answer["message"]
    finally:
        runtime.close()


def test_a_reference_to_a_deleted_entity_is_dangling_and_data_add_takes_any(built, tmp_path: Path) -> None:
    case, bundle = built
    if case == "accepted":
        return
    runtime = EnvironmentRuntime(bundle)
    create = plan(bundle, "POST", "/comments").tool
    try:
        with http_in_thread(runtime) as serving:
            document = json.loads(data_client.data_get(serving.base_url, token=serving.data_token))
            posts = next(c for c in document["collections"] if c["path"] == "/posts")
            posts["entities"] = posts["entities"][1:]  # the first post gone; a comment still names it
            data_client.data_add(serving.base_url, json.dumps(document).encode(), token=serving.data_token)
            loaded = json.loads(data_client.data_get(serving.base_url, token=serving.data_token))
            comments = next(c for c in loaded["collections"] if c["path"] == "/comments")
            assert any(e["value"]["post"] == POSTS[0]["id"] for e in comments["entities"])
            result = anyio.run(call_tool, serving, runtime, create, {"body": {"post": POSTS[0]["id"], "body": "late"}})
            assert result.is_error is True and POSTS[0]["id"] in result.structured_content["message"]
    finally:
        runtime.close()


def test_explain_and_report_say_what_a_dangling_value_does(built, tmp_path: Path, capsys) -> None:
    case, bundle = built
    target = tmp_path / "bundle"
    write_bundle(target, bundle)
    create = plan(bundle, "POST", "/comments").tool
    assert main(["explain", str(target), create, "--field", "post"]) == 0
    out = capsys.readouterr().out
    said = {"refused": "is refused, as the application refused one (reference-dangling.refused, record",
            "unrecorded": "is refused, as no recorded call shows the application accepting one",
            "accepted": "is stored as sent, as the application accepted one (reference-dangling.accepted"}[case]
    assert "  reference post: an id of posts at /posts (reference.named-type); a value naming none " + said in out, out
    assert "write-references" in out and "write-reference-dangling" in out  # the rules' traces, for that member
    assert main(["report", str(target), "--json"]) == 0
    written = next(w for w in json.loads(capsys.readouterr().out)["writes"] if w["tool"] == create)
    assert written["references"] == [{"member": "post", "type": "posts", "collection": "/posts",
                                      "checked": case != "accepted", "dangling": case,
                                      "record": written["references"][0]["record"]}]
    assert (written["references"][0]["record"] is None) == (case == "unrecorded")
