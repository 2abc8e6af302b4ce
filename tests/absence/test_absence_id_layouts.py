"""The learned absence is given only to ids laid out as the ids the capture shows
(``view-absence-id-shapes``): an id holding two separators side by side (an empty label), or a
separator first, where no held, read or missing id did, may be refused by the application as
malformed (PowerDNS answers ``seed-key..`` 422 and a missing ``other-key.`` 404), so it is
refused, on reads and writes alike, naming the feature; the same length and characters
(``token_shape``) do not make it one the capture shows."""

from __future__ import annotations

import base64

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

NOT_FOUND = {"error": "Not Found"}


def keys(*, missing: str = "no-such-key.") -> HarBuilder:
    alpha, beta = {"id": "alpha-key.", "algorithm": "a"}, {"id": "beta-key.", "algorithm": "b"}
    return (HarBuilder()
            .call("GET", "/keys", response=[alpha, beta])
            .call("GET", "/keys/alpha-key.", response=alpha)
            .call("GET", f"/keys/{missing}", status=404, response=NOT_FOUND)
            .call("DELETE", "/keys/beta-key.", status=204)
            .call("GET", "/keys/beta-key.", status=404, response=NOT_FOUND)
            .call("GET", "/keys", response=[alpha]))


def test_a_missing_id_laid_out_as_the_recorded_ones_answers_the_learned_absence():
    runtime = EnvironmentRuntime(build_from(keys()))
    answer = runtime.read("get_keys_by_key_id", {"key_id": "other-key."})
    assert (answer["status"], answer["body"]) == (404, NOT_FOUND)


def test_an_id_with_an_empty_label_is_refused_not_answered_missing():
    runtime = EnvironmentRuntime(build_from(keys()))
    for wanted in ("alpha-key..", "alpha..key.", ".alpha-key"):
        refused = runtime.call_tool("get_keys_by_key_id", {"key_id": wanted})
        assert refused.is_error, wanted
        message = refused.structured["message"]
        assert "Not Found" not in message and "malformed" in message, message
    doubled = runtime.call_tool("get_keys_by_key_id", {"key_id": "alpha-key.."}).structured["message"]
    assert "two separators side by side" in doubled


def test_a_write_of_an_id_with_an_empty_label_is_refused_with_the_state_unchanged():
    runtime = EnvironmentRuntime(build_from(keys()))
    before = runtime.data_get()
    refused = runtime.call_tool("delete_keys_by_key_id", {"key_id": "alpha-key.."})
    assert refused.is_error and "two separators side by side" in refused.structured["message"]
    assert runtime.read("delete_keys_by_key_id", {"key_id": "other-key."})["status"] == 404
    assert runtime.data_get() == before


def test_a_recorded_absence_of_an_id_with_an_empty_label_proves_the_layout():
    runtime = EnvironmentRuntime(build_from(keys(missing="no-such..key.")))
    answer = runtime.read("get_keys_by_key_id", {"key_id": "alpha-key.."})
    assert (answer["status"], answer["body"]) == (404, NOT_FOUND)
    assert runtime.call_tool("get_keys_by_key_id", {"key_id": ".alpha-key"}).is_error  # still no leading one


def _global_id(type_name: str, number: int) -> str:
    return base64.b64encode(f"{type_name}:{number}".encode()).decode()


def labels() -> HarBuilder:
    """Labels named by global ids (base64 of ``Label:n``), as a Relay-style API names them."""
    first, second = ({"id": _global_id("Label", n), "name": name} for n, name in ((1, "golden"), (2, "smoke")))
    return (HarBuilder()
            .call("GET", "/labels", response={"data": [first, second]})
            .call("GET", f"/labels/{first['id']}", response={"data": first})
            .call("GET", f"/labels/{_global_id('Label', 999)}", status=404, response=NOT_FOUND)
            .call("DELETE", f"/labels/{second['id']}", status=204)
            .call("GET", f"/labels/{second['id']}", status=404, response=NOT_FOUND)
            .call("GET", "/labels", response={"data": [first]}))


def test_an_id_encoding_another_type_than_every_recorded_global_id_is_refused_not_answered_missing():
    """Phoenix answers 422 'Invalid dataset label ID' to a project's global id or to text that is
    no global id, and 404 to a missing label's: the absence is given to the last alone."""
    runtime = EnvironmentRuntime(build_from(labels()))
    missing = runtime.read("get_labels_by_label_id", {"label_id": _global_id("Label", 44)})
    assert (missing["status"], missing["body"]) == (404, NOT_FOUND)
    before = runtime.data_get()
    for wanted in (_global_id("Project", 1), _global_id("Labels", 1), "not-an-id"):
        for tool in ("get_labels_by_label_id", "delete_labels_by_label_id"):
            refused = runtime.call_tool(tool, {"label_id": wanted})
            assert refused.is_error, (tool, wanted)
            assert "base64 of 'Label:'" in refused.structured["message"], refused.structured["message"]
    assert runtime.data_get() == before
