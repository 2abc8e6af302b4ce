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


def images_capture() -> HarBuilder:
    """Two images held, two created with a disk_format of raw or qcow2, each read back."""
    held = [{"id": 1, "name": "image 1", "disk_format": "raw"}, {"id": 2, "name": "image 2", "disk_format": "qcow2"}]
    har = HarBuilder()
    har.call("GET", "/images", response=list(held))
    for image in held:
        har.call("GET", f"/images/{image['id']}", response=image)
    for number, disk in ((3, "raw"), (4, "qcow2")):
        image = {"id": number, "name": f"image {number}", "disk_format": disk}
        har.call("POST", "/images", body={"name": f"image {number}", "disk_format": disk}, status=201, response=image)
        har.call("GET", f"/images/{number}", response=image)
        held.append(image)
    har.call("GET", "/images", response=list(held))
    return har


def test_a_format_unseen_is_refused(tmp_path) -> None:
    # must not: 201 storing disk_format "bogus" or "RAW" where Glance answers 400
    bundle = build_from(images_capture(), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/images")
    assert create.served, create.reason
    assert [(u.member, u.schema_keywords) for u in create.unproven_values if u.rule_id == "sent-values.vocabulary"] \
        == [("disk_format", {"enum": ["qcow2", "raw"]})]
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            for disk in ("bogus", "RAW"):
                status, answer = send_json(serving, "/images", {"name": "odd", "disk_format": disk})
                assert status == 400 and "'disk_format'" in answer["message"], answer
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before
            status, answer = send_json(serving, "/images", {"name": "fine", "disk_format": "qcow2"})
            assert status == 201 and answer["disk_format"] == "qcow2", answer
    finally:
        runtime.close()
