"""The primary origin, skipping where it cannot change a verdict, the Evidence id, progress."""

from __future__ import annotations

import pytest
from support.har_builder import HarBuilder

from capenv.interpreter.evidence.har import CaptureError, load_evidence, parse_har_bytes
from capenv.interpreter.evidence.identity import evidence_id

APP = "http://127.0.0.1:3000"
CDN = "https://cdn.example.com"
AUTH = "https://auth.example.com"


def ingest(har: HarBuilder, **options):
    return parse_har_bytes(har.bytes(), source="t.har", **options)


def mixed() -> HarBuilder:
    """Two JSON answers from the app, one from auth, more (but HTML) from the CDN."""
    har = HarBuilder(origin=APP)
    har.call("GET", "/token", origin=AUTH, response={"t": 1})
    for n in range(3):
        har.call("GET", f"/asset{n}.html", origin=CDN, response="<p>", response_type="text/html")
    har.call("GET", "/posts", response=[]).call("GET", "/posts/1", response={"id": 1})
    return har


# --- primary origin -------------------------------------------------------------------------

def test_primary_origin_is_the_most_frequent_json_origin():
    evidence = ingest(mixed())
    assert evidence.primary_origin == APP
    assert evidence.origins == {AUTH: 1, CDN: 3, APP: 2}
    assert [r.path for r in evidence.primary_records] == ["/posts", "/posts/1"]


def test_primary_origin_tie_goes_to_the_earliest_json_record():
    har = HarBuilder().call("GET", "/b", origin=CDN, response={}).call("GET", "/a", origin=AUTH, response={})
    har.entries[0]["startedDateTime"] = "2026-01-01T00:00:09Z"  # CDN is first in the file, AUTH first in time
    assert ingest(har).primary_origin == AUTH


def test_primary_origin_by_argument_is_normalised():
    evidence = ingest(mixed(), origin="HTTPS://CDN.example.com:443/")
    assert evidence.primary_origin == CDN
    assert {r.origin for r in evidence.primary_records} == {CDN}


def test_unknown_origin_argument_is_an_error():
    with pytest.raises(CaptureError) as caught:
        ingest(mixed(), origin="http://localhost:9999")
    assert str(caught.value).startswith('t.har: origin "http://localhost:9999" matches no record (the capture has ')
    assert caught.value.entry_index is None


def test_origin_argument_with_a_path_is_an_error():
    with pytest.raises(CaptureError, match="is not an origin"):
        ingest(mixed(), origin=APP + "/posts")


def test_no_json_answers_means_no_primary_origin():
    evidence = ingest(HarBuilder().call("GET", "/", response="<html>", response_type="text/html"))
    assert evidence.primary_origin is None and evidence.primary_records == ()


# --- skipping where it cannot change a verdict ----------------------------------------------

def test_body_malformed_entry_of_another_origin_is_skipped_with_a_warning():
    har = mixed()
    har.entries[1]["response"]["content"].update(text="%%%", encoding="base64")
    evidence = ingest(har)
    assert len(evidence.records) == 5 and 1 not in [r.entry_index for r in evidence.records]
    assert [r.ordinal for r in evidence.records] == [1, 2, 3, 4, 5]
    (warning,) = evidence.warnings
    assert warning.startswith(f"entry 1: skipped, {CDN} is not the primary origin and response.content.text")


def test_body_malformed_entry_of_the_primary_origin_is_an_error():
    har = mixed()
    har.entries[4]["response"]["content"].update(text="%%%", encoding="base64")
    with pytest.raises(CaptureError) as caught:
        ingest(har)
    assert caught.value.entry_index == 4


# --- the Evidence id ------------------------------------------------------------------------

def test_evidence_id_is_deterministic_and_recomputable(tmp_path):
    har = mixed()
    first, second = ingest(har), load_evidence(har.write(tmp_path / "a.har"))
    assert first.evidence_id == second.evidence_id
    assert first.evidence_id.startswith("ev-") and len(first.evidence_id) == 3 + 32
    assert evidence_id(first.records) == first.evidence_id


def test_gz_input_reads_like_plain(tmp_path):
    har = mixed()
    plain = load_evidence(har.write(tmp_path / "a.har"))
    zipped = load_evidence(har.write(tmp_path / "a.har.gz"))
    misnamed = tmp_path / "gzip-without-suffix.har"  # told apart by the magic bytes, not the name
    misnamed.write_bytes((tmp_path / "a.har.gz").read_bytes())
    assert plain.records == zipped.records == load_evidence(misnamed).records
    assert plain.evidence_id == zipped.evidence_id


def test_one_byte_of_a_body_changes_the_id():
    before = ingest(HarBuilder().call("GET", "/posts/1", response='{"id": 1, "title": "a"}'))
    after = ingest(HarBuilder().call("GET", "/posts/1", response='{"id": 1, "title": "b"}'))
    spaced = ingest(HarBuilder().call("GET", "/posts/1", response='{"id": 1,  "title": "a"}'))
    assert len({before.evidence_id, after.evidence_id, spaced.evidence_id}) == 3


def test_the_chosen_primary_origin_is_part_of_the_id():
    assert ingest(mixed()).evidence_id != ingest(mixed(), origin=AUTH).evidence_id


# --- progress -------------------------------------------------------------------------------

@pytest.mark.parametrize("count", [0, 1, 7, 250])
def test_progress_is_reported_at_most_about_a_hundred_times(count):
    har = HarBuilder()
    for n in range(count):
        har.call("GET", f"/p/{n}", response={"n": n})
    calls: list[tuple[int, int]] = []
    ingest(har, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (count, count)
    assert len(calls) <= 101
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_a_record_fingerprint_is_the_record_dumped_less_its_spelling_and_parsed_bodies() -> None:
    from capenv.interpreter.bundle.jsonvalue import canonical
    from capenv.interpreter.evidence.identity import iso_microseconds, record_fingerprint

    har = mixed().call("POST", "/posts", body={"title": "t"}, response={"id": 2}, status=201)
    for record in ingest(har).records:
        dumped = record.model_dump(mode="python")
        dumped.pop("format_suffix")
        dumped.update(started_at=iso_microseconds(record.started_at), finished_at=iso_microseconds(record.finished_at))
        assert canonical(record_fingerprint(record)) == canonical(dumped)
