"""Two calls overlap only when the second was sent before the first's answer ended, whichever
recorder wrote the HAR (issue 16, "Timing as recorders write it"): the same sequential scenario
written with mitmproxy's, Playwright's and Chrome DevTools' timing conventions gives the same
records in the same order, no overlaps, and the same verdicts."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, items_app
from support.har_builder import HarBuilder
from support.recorder_timings import RECORDERS, as_recorded_by

from capenv.interpreter.evidence.har import parse_har_bytes

ITEM = {"id": 3, "title": "c"}


def scenario() -> HarBuilder:
    """A sequential client: initial reads, then a create, an update and a delete, each read back."""
    return (items_app()
            .call("POST", "/items", body={"title": "c"}, status=201, response=ITEM)
            .call("GET", "/items/3", response=ITEM)
            .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}, ITEM])
            .call("PATCH", "/items/3", body={"title": "d"}, response={"id": 3, "title": "d"})
            .call("GET", "/items/3", response={"id": 3, "title": "d"})
            .call("DELETE", "/items/2", status=204)
            .call("GET", "/items/2", status=404, response={"error": "not found"})
            .call("GET", "/items", response=[{"id": 1, "title": "t1"}, {"id": 3, "title": "d"}]))


def verdicts(bundle) -> dict:
    report = bundle.report
    return {"writes": [(w["tool"], w["effect"], w["served"], w["reason"], w["checked_record_ordinals"])
                       for w in report["writes"]],
            "reads": [(r["tool"], r["state_backed"], r["reason"]) for r in report["reads"]]}


@pytest.mark.parametrize("recorder", sorted(RECORDERS))
def test_a_sequential_client_never_overlaps(recorder):
    evidence = parse_har_bytes(as_recorded_by(scenario(), recorder).bytes(), source="t.har")
    assert evidence.timing_rule == f"timing.{recorder}"
    for earlier, later in zip(evidence.records, evidence.records[1:]):
        assert later.started_at >= earlier.finished_at, (recorder, earlier.ordinal)


@pytest.mark.parametrize("recorder", ["mitmproxy", "playwright"])
def test_reading_time_as_har_says_would_overlap_them(recorder, tmp_path):
    # what the conventions prevent: these recorders' ``time`` runs past the answer's end, every
    # read back would overlap its write, and no write could be proved by its read back (only by a
    # later read that overlaps nothing, as a list read after it: write-create-links)
    har = as_recorded_by(scenario(), recorder)
    har.creator = {"name": "some other recorder", "version": "1"}
    evidence = parse_har_bytes(har.bytes(), source="t.har")
    assert evidence.timing_rule is None
    assert any(later.started_at < earlier.finished_at
               for earlier, later in zip(evidence.records, evidence.records[1:]))
    read_backs = {later.ordinal for earlier, later in zip(evidence.records, evidence.records[1:])
                  if earlier.method != "GET" and later.method == "GET"}
    assert len(read_backs) == 3

    def checked(built: dict) -> set[int]:
        return {ordinal for write in built["writes"] for ordinal in write[4]}

    assert not read_backs & checked(verdicts(build_from(har, tmp_path / "other.har")))
    assert read_backs <= checked(verdicts(build_from(as_recorded_by(scenario(), recorder), tmp_path / "own.har")))


def test_every_recorder_gives_the_same_verdicts(tmp_path):
    built = {recorder: verdicts(build_from(as_recorded_by(scenario(), recorder), tmp_path / f"{recorder}.har"))
             for recorder in sorted(RECORDERS)}
    first = built["devtools"]
    assert [w[2] for w in first["writes"]] == [True, True, True], first  # served: create, update, delete
    assert built["mitmproxy"] == first and built["playwright"] == first


def test_the_timing_decision_is_traced(tmp_path):
    bundle = build_from(as_recorded_by(scenario(), "mitmproxy"), tmp_path / "m.har")
    (event,) = [e for e in bundle.view.traces if e.table == "har-timings"]
    assert (event.rule_id, event.outcome) == ("timing.mitmproxy", "match")
    assert event.location.startswith("rules/har-timings.yaml:")


def test_an_entry_without_the_named_phases_falls_back_on_time():
    har = as_recorded_by(scenario(), "mitmproxy")
    for entry in har.entries:
        entry["timings"] = {}
    evidence = parse_har_bytes(har.bytes(), source="t.har")
    first = evidence.records[0]
    assert (first.finished_at - first.started_at).total_seconds() * 1000 == pytest.approx(har.entries[0]["time"])
