"""A capture that recorded paths looking like a data plane (the application's own /_capenv/data/…,
/agentenv, /data/reset) gives the agent no grader power: on the agent's listener the reserved
paths still need the grader's token, and whatever tools the recordings became (replays of what was
recorded) neither read, reset nor replace the environment's state."""

from __future__ import annotations

import json

from support.capture_runs import build_from
from support.har_builder import HarBuilder
from support.http_thread import http_in_thread
from support.served_calls import send

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.transport import data_client

NOTES = [{"id": 1, "text": "first"}, {"id": 2, "text": "second"}]
RECORDED_STATE = {"collections": [{"path": "/notes", "entities": []}], "recorded": True}


def look_alike_capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/notes", response=NOTES)
    for note in NOTES:
        har.call("GET", f"/notes/{note['id']}", response=note)
    har.call("GET", "/_capenv/data/get", response=RECORDED_STATE)
    har.call("POST", "/_capenv/data/reset", body={}, response={})
    har.call("POST", "/agentenv", body={"jsonrpc": "2.0", "id": 1, "method": "data/reset"},
             response={"jsonrpc": "2.0", "id": 1, "result": {}})
    har.call("POST", "/data/reset", body={}, response={"reset": True})
    har.call("GET", "/data/get", response=RECORDED_STATE)
    har.call("DELETE", "/notes/2", status=204)
    har.call("GET", "/notes", response=NOTES[:1])
    return har


def test_recorded_data_plane_paths_are_no_grader_power(tmp_path) -> None:
    bundle = build_from(look_alike_capture(), tmp_path / "capture.har")
    runtime = EnvironmentRuntime(bundle)
    try:
        with http_in_thread(runtime) as serving:
            initial = data_client.data_get(serving.base_url, token=serving.data_token)
            served = {tool.name for tool in runtime.tools()}
            assert "delete_notes_by_note_id" in served and "get_capenv_data_get" in served, served
            # a served delete makes the state differ from the initial one: a reset would show
            deleted = runtime.call_tool("delete_notes_by_note_id", {"note_id": "2"})
            assert not deleted.is_error, deleted.structured
            changed = data_client.data_get(serving.base_url, token=serving.data_token)
            for path, method, body in (("/_capenv/data/get", "GET", None), ("/_capenv/data/reset", "POST", {}),
                                       ("/_capenv/data/add", "POST", RECORDED_STATE)):
                status, answer = send(serving, method, path, body)
                assert status == 401, (path, status, answer)  # the grader's, whatever the capture recorded
            for tool in sorted(served):
                if tool.startswith(("get_notes", "delete_notes")):
                    continue
                spec = next(t for t in runtime.tools() if t.name == tool)
                arguments = {"body": {}} if "body" in json.dumps(spec.input_schema) else {}
                answer = runtime.call_tool(tool, arguments)
                # a replay of what was recorded, never the environment's state document
                assert answer.structured.get("body") != json.loads(changed), tool
                assert "evidence_id" not in json.dumps(answer.structured), tool
            after = data_client.data_get(serving.base_url, token=serving.data_token)
            assert after == changed, "a recorded data-plane look-alike changed the state"
            assert after != initial
    finally:
        runtime.close()
