"""Recorder variants (issue 16): Playwright's ``attach`` mode (bodies in ``_file`` side files
beside the HAR) and ``.zip`` HARs, mitmproxy's zlib ``.zhar``, DevTools-style ``postData.params``
without text, and captures with nothing to model (no entries, no JSON answers): each reads as
the embedded HAR reads, or is refused with one line and exit 2."""

from __future__ import annotations

import json
import os

import pytest
from support.capture_runs import items_app
from support.har_builder import HarBuilder
from support.recorder_variants import attached, write_attached, write_zhar, write_zip

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.evidence.har import CaptureError, load_evidence
from capenv.interpreter.pipeline import build_bundle
from capenv.serving.runtime import EnvironmentRuntime

from support.served import capenv as run_capenv

ITEM = {"id": 3, "title": "c"}


def capenv(*argv: str):
    result = run_capenv(*argv)
    result.stdout, result.stderr = result.stdout.decode(), result.stderr.decode()
    return result


def assert_bad_input(result, *phrases: str) -> str:
    """Exit 2 with one line holding every phrase, and no traceback."""
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    for phrase in phrases:
        assert phrase in line, line
    return line


def scenario() -> HarBuilder:
    return (items_app()
            .call("POST", "/items", body={"title": "c"}, status=201, response=ITEM)
            .call("GET", "/items/3", response=ITEM)
            .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}, ITEM]))


def served(bundle) -> list:
    return [(w["tool"], w["served"], w["reason"]) for w in bundle.report["writes"]]


# --- Playwright attach mode and zip archives -----------------------------------------------

def test_attach_mode_reads_as_the_embedded_capture(tmp_path):
    embedded = load_evidence(scenario().write(tmp_path / "embedded.har"))
    side = load_evidence(write_attached(scenario(), tmp_path / "attached"))
    assert side.records == embedded.records and side.evidence_id == embedded.evidence_id
    assert side.records[3].request.json_value == {"title": "c"}


def test_attach_mode_builds_and_serves_through_the_cli(tmp_path):
    capture = write_attached(scenario(), tmp_path / "attached")
    result = capenv("build", str(capture), "-o", str(tmp_path / "bundle"))
    assert result.returncode == 0, result.stderr
    bundle = read_bundle(tmp_path / "bundle")
    assert served(bundle) == [("post_items", True, None)]
    assert [e.id for c in bundle.view.state.collections for e in c.entities] == [1, 2]
    runtime = EnvironmentRuntime(bundle)
    created = runtime.read("post_items", {"body": {"title": "z"}})
    assert (created["status"], created["body"]) == (201, {"id": 3, "title": "z"})
    listed = runtime.read("get_items")
    assert "state" in listed and [item["title"] for item in listed["body"]] == ["t1", "t2", "z"]


def test_a_zip_har_reads_as_the_embedded_capture(tmp_path):
    embedded = load_evidence(scenario().write(tmp_path / "embedded.har"))
    zipped = load_evidence(write_zip(scenario(), tmp_path / "capture.zip"))
    assert zipped.records == embedded.records and zipped.evidence_id == embedded.evidence_id
    result = capenv("build", str(tmp_path / "capture.zip"), "-o", str(tmp_path / "bundle"))
    assert result.returncode == 0, result.stderr
    assert served(read_bundle(tmp_path / "bundle")) == [("post_items", True, None)]


def test_a_zhar_reads_as_the_plain_capture(tmp_path):
    plain = load_evidence(scenario().write(tmp_path / "plain.har"))
    assert load_evidence(write_zhar(scenario(), tmp_path / "capture.zhar")).records == plain.records


@pytest.mark.parametrize("name", ["../outside.json", "/etc/hostname", "sub/../../outside.json"])
def test_a_side_file_leaving_the_hars_directory_is_refused(tmp_path, name):
    (tmp_path / "outside.json").write_text('{"title": "c"}')
    folder = tmp_path / "attached"
    capture = write_attached(scenario(), folder)
    har = json.loads(capture.read_text())
    har["log"]["entries"][3]["request"]["postData"]["_file"] = name
    capture.write_text(json.dumps(har))
    with pytest.raises(CaptureError, match="leaves the HAR's directory: refused") as caught:
        load_evidence(capture)
    assert caught.value.entry_index == 3
    assert_bad_input(capenv("build", str(capture), "-o", str(tmp_path / "b")), "entry 3", "refused")


def test_a_link_leading_out_of_the_hars_directory_is_refused(tmp_path):
    (tmp_path / "outside.json").write_text('{"title": "c"}')
    folder = tmp_path / "attached"
    capture = write_attached(scenario(), folder)
    os.symlink(tmp_path / "outside.json", folder / "link.json")
    har = json.loads(capture.read_text())
    har["log"]["entries"][3]["request"]["postData"]["_file"] = "link.json"
    capture.write_text(json.dumps(har))
    with pytest.raises(CaptureError, match="refused"):
        load_evidence(capture)


def test_a_zip_member_leaving_the_archive_is_refused(tmp_path):
    har, files = attached(scenario())
    har["log"]["entries"][3]["request"]["postData"]["_file"] = "../escape.json"
    import zipfile

    with zipfile.ZipFile(tmp_path / "c.zip", "w") as archive:
        archive.writestr("har.har", json.dumps(har))
        for name, raw in files.items():
            archive.writestr(name, raw)
    with pytest.raises(CaptureError, match="leaves the zip archive: refused"):
        load_evidence(tmp_path / "c.zip")


def test_a_missing_side_file_is_named(tmp_path):
    capture = write_attached(scenario(), tmp_path / "attached")
    har = json.loads(capture.read_text())
    name = har["log"]["entries"][0]["response"]["content"]["_file"]
    (tmp_path / "attached" / name).unlink()
    assert_bad_input(capenv("build", str(capture), "-o", str(tmp_path / "b")), "entry 0", name,
                     "cannot be read beside the HAR")


def test_a_zip_without_a_har_is_refused(tmp_path):
    import zipfile

    with zipfile.ZipFile(tmp_path / "c.zip", "w") as archive:
        archive.writestr("notes.txt", "hello")
    assert_bad_input(capenv("inspect", str(tmp_path / "c.zip")), "zip archive with no .har file")


# --- DevTools-style form parameters without text --------------------------------------------

def test_params_without_text_say_the_body_was_not_retained(tmp_path):
    har = scenario()
    post = har.entries[3]["request"]["postData"]
    post.pop("text")
    post.update(mimeType="application/x-www-form-urlencoded", params=[{"name": "title", "value": "c"}])
    evidence = load_evidence(har.write(tmp_path / "c.har"))
    body = evidence.records[3].request
    assert (body.retained, body.text) == (False, None) and "postData.params" in body.note
    bundle = build_bundle(tmp_path / "c.har")
    (plan,) = bundle.view.writes
    assert (plan.served, plan.reason) == (False, "body-unusable")
    assert any(e.reason == "body-unusable: the capture did not retain the request body: the recorder kept only"
               " its form parameters (postData.params), not the body text" for e in plan.traces)


def test_an_empty_text_for_a_body_the_request_sent_was_not_retained(tmp_path):
    # Playwright's "omit" mode keeps the media type and size, and an empty text
    har = scenario()
    har.entries[3]["request"]["postData"]["text"] = ""
    body = load_evidence(har.write(tmp_path / "c.har")).records[3].request
    assert (body.retained, body.text) == (False, None) and "empty" in body.note


# --- nothing to model -----------------------------------------------------------------------

@pytest.mark.parametrize("command", ["build", "inspect"])
def test_a_capture_with_no_entries_is_bad_input(tmp_path, command):
    path = HarBuilder().write(tmp_path / "empty.har")
    extra = ["-o", str(tmp_path / "b")] if command == "build" else []
    assert_bad_input(capenv(command, str(path), *extra), str(path), "has no entries")
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("command", ["build", "inspect"])
def test_a_capture_with_no_json_answers_is_bad_input(tmp_path, command):
    path = (HarBuilder().call("GET", "/", response="<html></html>", response_type="text/html")
            .call("GET", "/logo.png", origin="http://cdn.example", response=b"\x89PNG", response_type="image/png")
            .write(tmp_path / "pages.har"))
    extra = ["-o", str(tmp_path / "b")] if command == "build" else []
    assert_bad_input(capenv(command, str(path), *extra), "no origin answered JSON", "http://127.0.0.1:3000")


def test_a_named_origin_that_answered_no_json_is_bad_input(tmp_path):
    path = (HarBuilder().call("GET", "/posts", response=[{"id": 1}])
            .call("GET", "/logo.png", origin="http://cdn.example", response=b"\x89PNG", response_type="image/png")
            .write(tmp_path / "c.har"))
    assert_bad_input(capenv("build", str(path), "--origin", "http://cdn.example", "-o", str(tmp_path / "b")),
                     "origin http://cdn.example answered no JSON")


def test_a_delete_body_the_recorder_dropped_is_named_in_the_plan(tmp_path):
    # mitmproxy writes postData for POST, PUT and PATCH only: an RPC-style DELETE naming its
    # entity in the body keeps its Content-Length and nothing else
    har = items_app().call("DELETE", "/items/remove", body={"id": 2}, status=200, response={})
    entry = har.entries[-1]["request"]
    del entry["postData"]
    evidence = load_evidence(har.write(tmp_path / "c.har"))
    body = evidence.records[-1].request
    assert (body.retained, body.text) == (False, None) and "no postData" in body.note
    (plan,) = build_bundle(tmp_path / "c.har").view.writes
    assert not plan.served
    assert any("did not retain the request body: the recorder wrote no postData" in (e.reason or "")
               for e in plan.traces), [e.reason for e in plan.traces]
