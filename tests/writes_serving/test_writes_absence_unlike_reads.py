"""A write of an entity the state does not hold, with no recorded absence of its own, answers as
the type's item read would (its learned absence), unless the capture shows a write's own absence
answering otherwise than that read would for the same id: the application's writes then do not
answer a missing entity as its reads do (Unleash: DELETE of a missing strategy "Could not find
strategy with id=x", its read "... with id: x"), and such a write is refused as missing, with
capenv's own 404, rather than given the read's words."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

LAMPS = [{"id": 1, "label": "porch", "watts": 40}, {"id": 2, "label": "desk", "watts": 9},
         {"id": 3, "label": "hall", "watts": 12}]


def capture(delete_says: str) -> HarBuilder:
    har = HarBuilder().call("GET", "/lamps", response=LAMPS)
    for lamp in LAMPS:
        har.call("GET", f"/lamps/{lamp['id']}", response=lamp)
    har.call("GET", "/lamps/77", status=404, response={"message": "no lamp 77"})
    har.call("GET", "/lamps/78", status=404, response={"message": "no lamp 78"})
    held = dict(LAMPS[1], watts=11)
    har.call("PATCH", "/lamps/2", body={"watts": 11}, response=held)
    har.call("GET", "/lamps/2", response=held)
    har.call("DELETE", "/lamps/3", status=204)
    har.call("GET", "/lamps/3", status=404, response={"message": "no lamp 3"})
    har.call("DELETE", "/lamps/3", status=404, response={"message": delete_says})
    har.call("GET", "/lamps", response=[LAMPS[0], held])
    return har


@pytest.mark.parametrize("delete_says,patch_answer", [("no lamp 3", "no lamp 55"), ("lamp 3 cannot be removed", None)],
                         ids=["writes-answer-as-reads", "writes-answer-otherwise"])
def test_a_write_of_a_missing_entity_answers_as_reads_only_where_writes_do(tmp_path, delete_says, patch_answer):
    # must not: the read's "no lamp 55" for a PATCH where the capture shows writes answering otherwise
    bundle = build_from(capture(delete_says), tmp_path / "capture.har")
    lamps = plan(bundle, "PATCH", "/lamps/{lamp_id}")
    assert lamps.served, lamps.reason
    runtime = EnvironmentRuntime(bundle)
    answer = runtime.call_tool(lamps.tool, {"lamp_id": "55", "body": {"watts": 5}})
    if patch_answer is not None:
        assert answer.structured["status"] == 404 and answer.structured["body"] == {"message": patch_answer}
    else:
        assert answer.is_error and answer.structured.get("kind") == "missing", answer.structured
        assert "no lamps entity '55' is held" in answer.structured["message"]
