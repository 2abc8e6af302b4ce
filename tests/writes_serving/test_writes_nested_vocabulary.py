"""Members nested in a body member are judged as top-level ones are (``write-sent-values`` applied
to an array's object elements and an object's members): a plugin's ``params`` are objects whose
``kind`` is ``text``, ``list`` or ``number`` on every held plugin and in the one recorded create,
words repeated under a name that says kind. A create or an update sending a ``kind`` the capture
never shows inside an element is refused with the state unchanged, saying which are accepted (an
application validating the element answers 400); the update, whose recorded call sent ``params``
empty, takes the words the create sent there. A free-text nested member (a label) is left alone.
"""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send_json

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

SEED = [
    {"id": "rollout", "note": "held", "params": [{"label": "percent", "kind": "number"}, {"label": "group", "kind": "text"}]},
    {"id": "hosts", "note": "held", "params": [{"label": "names", "kind": "list"}]},
    {"id": "addresses", "note": "held", "params": [{"label": "ips", "kind": "list"}, {"label": "mask", "kind": "text"}]},
]


def capture() -> HarBuilder:
    har = HarBuilder()
    held = [dict(e) for e in SEED]
    har.call("GET", "/plugins", response=list(held))
    for entity in held:
        har.call("GET", f"/plugins/{entity['id']}", response=entity)
    made = {"id": "regions", "note": "some regions", "params": [{"label": "regions", "kind": "list"}]}
    har.call("POST", "/plugins", body=made, status=201, response=made)
    har.call("GET", "/plugins/regions", response=made)
    changed = {**made, "note": "listed regions", "params": []}
    har.call("PUT", "/plugins/regions", body=changed, response=changed)
    har.call("GET", "/plugins/regions", response=changed)
    har.call("GET", "/plugins", response=[*held, changed])
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("nested-vocabulary") / "capture.har")


def _nested(write) -> list:
    return [(u.member, u.schema_keywords) for u in write.unproven_values if u.rule_id == "sent-values.vocabulary"]


def test_the_element_kind_is_a_vocabulary_on_the_create_and_the_update(bundle) -> None:
    create, update = plan(bundle, "POST", "/plugins"), plan(bundle, "PUT", "/plugins/{plugin_id}")
    assert create.served, create.reason
    assert update.served, update.reason
    expected = [("params", {"items": {"properties": {"kind": {"enum": ["list", "number", "text"]}}}})]
    assert _nested(create) == expected
    assert _nested(update) == expected  # its own call sent params empty: the create's words


def test_an_unseen_nested_word_is_refused_saying_which_are_accepted(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            before = data_client.data_get(serving.base_url, token=serving.data_token)
            bad = {"id": "zones", "note": "zones", "params": [{"label": "zone", "kind": "bogus"}]}
            status, answer = send_json(serving, "/plugins", bad, "POST")
            assert status == 400 and "params[].kind" in answer["message"] and "list, number, text" in answer["message"]
            status, answer = send_json(serving, "/plugins/hosts", {**bad, "id": "hosts"}, "PUT")
            assert status == 400 and "params[].kind" in answer["message"]
            assert data_client.data_get(serving.base_url, token=serving.data_token) == before  # nothing written
            good = {"id": "zones", "note": "zones", "params": [{"label": "anything at all", "kind": "text"}]}
            status, answer = send_json(serving, "/plugins", good, "POST")  # a shown word, a free label: served
            assert status == 201 and answer["params"] == good["params"]
    finally:
        runtime.close()
