"""Answers of bytes that are no UTF-8 text (a tarball, an image), which a HAR keeps base64: the bundle
keeps no text of them, so serving never answers with such a recording (an empty 200 would be a wrong
answer: the application sent bytes); it refuses, saying why. A text answer kept base64 is answered."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

GZIP_BYTES = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xed\xc1\x01\r\x00\x00\x00\xc2\xa0\xf7Om"


def capture() -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/status", response={"ok": True})
            .call("GET", "/downloads/pad-1.0.0.tgz", response=GZIP_BYTES, response_type="application/octet-stream")
            .call("GET", "/notes.txt", response="plain words".encode(), response_type="text/plain"))


def get(runtime: EnvironmentRuntime, path: str):
    return runtime.http(HttpRequest("GET", path, (), (), b""))


def test_a_binary_recording_is_refused_never_answered_empty(tmp_path):
    runtime = EnvironmentRuntime(build_from(capture(), tmp_path / "capture.har"))
    answer = get(runtime, "/downloads/pad-1.0.0.tgz")
    assert answer.status == 501 and b"binary" in answer.body, (answer.status, answer.body)


def test_a_text_answer_kept_base64_is_answered(tmp_path):
    runtime = EnvironmentRuntime(build_from(capture(), tmp_path / "capture.har"))
    answer = get(runtime, "/notes.txt")
    assert answer.status == 200 and answer.body == b"plain words", (answer.status, answer.body)
