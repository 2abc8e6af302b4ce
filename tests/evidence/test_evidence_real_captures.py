"""Ingest of the real captures in ``captures/`` (see captures/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.interpreter.evidence.har import load_evidence

CAPTURES = Path(__file__).resolve().parents[2] / "captures"

SCENARIOS = [
    ("json-server", 112, "http://127.0.0.1:3100"),
    ("kinto", 145, "http://127.0.0.1:8888"),
    ("prefect", 250, "http://127.0.0.1:4200"),
]
LARGE = [("json-server", 4076), ("kinto", 3264), ("prefect", 3032)]


@pytest.mark.parametrize(("app", "count", "origin"), SCENARIOS)
def test_scenario_capture(app, count, origin):
    evidence = load_evidence(CAPTURES / app / "capture.har")
    assert len(evidence.records) == count
    assert evidence.primary_origin == origin
    assert len(evidence.primary_records) == count
    assert evidence.warnings == ()
    assert [r.ordinal for r in evidence.records] == list(range(1, count + 1))
    assert all(a.started_at <= b.started_at for a, b in zip(evidence.records, evidence.records[1:]))
    assert evidence.evidence_id == load_evidence(CAPTURES / app / "capture.har").evidence_id
    # every answer these applications gave with a JSON media type parsed
    assert not [r.entry_index for r in evidence.records if r.response.json_error]


def test_kinto_keeps_the_raw_spelling_of_a_bad_id():
    evidence = load_evidence(CAPTURES / "kinto" / "capture.har")
    assert any(r.path.endswith("/records/bad%20id!") for r in evidence.records)


def test_prefect_no_content_answers_are_absent_bodies():
    evidence = load_evidence(CAPTURES / "prefect" / "capture.har")
    no_content = [r for r in evidence.records if r.status == 204]
    assert no_content and all(r.response.text in (None, "") and not r.response.is_json for r in no_content)


@pytest.mark.slow
@pytest.mark.parametrize(("app", "count"), LARGE)
def test_large_capture_loads(app, count):
    calls: list[tuple[int, int]] = []
    evidence = load_evidence(CAPTURES / app / "large.har.gz", progress=lambda done, total: calls.append((done, total)))
    assert len(evidence.records) == count and evidence.primary_origin is not None
    assert len(calls) <= 101 and calls[-1] == (count, count)
    # Its speed is a benchmark's figure (python -m benchmarks), never a timed test.
