"""The gate on real captures, for what it must prove (issue "Any real REST API": served writes
whose effect reaches other entities; the two readings of write-effects corrected on Kinto).
Assertions name tools and what the recordings show, never record numbers."""

from __future__ import annotations

import pytest

from capenv.interpreter.bundle.io import read_bundle
from capenv.interpreter.evidence.har import load_evidence

from support.capture_runs import plan

CAPTURES = __import__("pathlib").Path(__file__).resolve().parents[2] / "captures"


@pytest.fixture(scope="module")
def jupyter(bundle_dir):
    bundle = read_bundle(bundle_dir("jupyter-server"))
    records = {r.ordinal: r for r in load_evidence(CAPTURES / "jupyter-server" / "capture.har").records}
    return bundle, records


@pytest.mark.parametrize("tool,absent_type", [("delete_sessions_by_session_id", "/api/kernels/"),
                                              ("delete_kernels_by_kernel_id", "/api/sessions/")])
def test_jupyters_cascading_deletes_are_not_served(jupyter, tool, absent_type):
    """Ending a session stops its kernel; deleting a kernel removes its sessions. The recorded
    absence of the other entity, which the plan's copy still held, contradicts the delete."""
    bundle, records = jupyter
    delete = plan(bundle, tool)
    assert (delete.served, delete.reason) == (False, "side-effect")
    read = records[delete.contradicted_by]
    assert read.method == "GET" and read.path.startswith(absent_type) and read.status == 404
    # the gate's trace blames that read (the absence check or the linked-change check finds it first)
    assert any(t.location and "interpreter/gate/" in t.location and (t.evidence or {}).get("record") == read.ordinal
               for t in delete.traces)


@pytest.fixture(scope="module")
def kinto(bundle_dir):
    return read_bundle(bundle_dir("kinto"))


def test_kintos_record_create_creates_in_the_collection_its_path_names(kinto):
    create = plan(kinto, "post_buckets_collections_records")
    assert create.served and create.collection is None
    assert any("creates in the collection each call names" in (t.reason or "") for t in create.traces)


def test_kintos_record_patch_is_not_unexplained_by_calls_serving_refuses(kinto):
    """Two PATCH calls serving refuses (a JSON-patch array body; {"tags": null}, a member it does
    not accept) bring their records to the recorded outcome: no evidence about the plan."""
    patch = plan(kinto, "patch_buckets_collections_records_by_record_id")
    assert patch.reason != "unexplained-change" and patch.served
    refused = [t for t in patch.traces if t.rule_id == "update-consistency.refused-call"]
    reasons = " ".join(t.reason or "" for t in refused)
    assert "no JSON object" in reasons and "'tags' is not accepted" in reasons
