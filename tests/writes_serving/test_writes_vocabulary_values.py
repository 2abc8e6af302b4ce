"""A member naming a value from a closed list (``sent-values.vocabulary``): a ticket's ``status``
is ``open`` on every held ticket and ``locked`` in the one recorded update, words repeated across
entities under a name that says status. An update sending a word the capture never shows is
refused with the state unchanged, saying which words are accepted (an application validating the
member answers 422 'Status is not included in the list'), and the tool's input schema lists them.
A free-text member repeating one lower-case word everywhere (an ``author``) is left alone.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

SEED = [{"id": n, "title": f"ticket {n}", "status": "open", "author": "ada"} for n in (1, 2, 3)]


def capture() -> HarBuilder:
    har = HarBuilder()
    held = [dict(e) for e in SEED]
    har.call("GET", "/tickets", response=list(held))
    for entity in held:
        har.call("GET", f"/tickets/{entity['id']}", response=entity)
    for ticket, body in ((1, {"status": "locked"}), (2, {"author": "ada"})):
        changed = {**held[ticket - 1], **body}
        held[ticket - 1] = changed
        har.call("PATCH", f"/tickets/{ticket}", body=body, response=changed)
        har.call("GET", f"/tickets/{ticket}", response=changed)
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("vocabulary") / "capture.har")


def test_the_status_is_a_vocabulary_and_the_author_free_text(bundle) -> None:
    update = plan(bundle, "PATCH", "/tickets/{ticket_id}")
    assert update.served, update.reason
    vocabulary = [u for u in update.unproven_values if u.rule_id == "sent-values.vocabulary"]
    assert [(u.member, u.schema_keywords) for u in vocabulary] == [("status", {"enum": ["locked", "open"]})]


def test_an_unseen_word_is_refused_saying_which_are_accepted(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    tool = plan(bundle, "PATCH", "/tickets/{ticket_id}").tool
    try:
        schema = runtime.catalog.get(tool).inputs.checked.schema
        assert "['locked', 'open']" in str(schema) or '"locked", "open"' in str(schema)  # the enum, published
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            status, answer = send_json(serving, "/tickets/2", {"status": "bogus"}, "PATCH")
            assert status == 400 and "'status'" in answer["message"] and "locked, open" in answer["message"]
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before  # nothing written
            status, answer = send_json(serving, "/tickets/2", {"status": "locked"}, "PATCH")  # a word shown: served
            assert status == 200 and answer["status"] == "locked"
            status, answer = send_json(serving, "/tickets/3", {"author": "grace"}, "PATCH")  # free text: served
            assert status == 200 and answer["author"] == "grace"
    finally:
        runtime.close()
