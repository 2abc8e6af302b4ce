"""Volatile members learned from the capture (rules/view-volatile-members.yaml): a member a
write answered that the next read, with no write between, shows otherwise is maintained by the
application (a process's last_activity), so a create's check takes its observed value."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

K0 = {"id": "8597a883-0fda-4b62-8916-e2f033202735", "name": "py", "last_activity": "2026-01-01T00:00:00.000100Z",
      "state": "idle"}
IDS = ["9a0554d8-342a-42e9-af63-05c6552db920", "396d567e-c6b7-4adc-b052-5cf7e28bd31a"]


def _kernel(n: int, clock: str) -> dict:
    return {"id": IDS[n], "name": "py", "last_activity": f"2026-01-01T00:00:0{clock}Z", "state": "idle"}


def _bare(value):
    return value


def _data(value):
    return {"data": value}


def _root_key(value):
    return {"kernels": value if isinstance(value, list) else [value]}


def kernels(creates: int, wrap=_bare) -> HarBuilder:
    """Each create answers its clock; the next read (no write between) shows it moved on. ``wrap``
    puts every answer in the application's envelope, the write answers as the reads."""
    har = (HarBuilder()
           .call("GET", "/kernels", response=wrap([K0]))
           .call("GET", f"/kernels/{K0['id']}", response=wrap(K0)))
    listed = [K0]
    for n in range(creates):
        har.call("POST", "/kernels", body={"name": "py"}, status=201, response=wrap(_kernel(n, f"{2 * n + 1}.100000")))
        moved = _kernel(n, f"{2 * n + 2}.200000")
        listed = listed + [moved]
        har.call("GET", f"/kernels/{IDS[n]}", response=wrap(moved))
        har.call("GET", "/kernels", response=wrap(listed))
    return har


def _plan(bundle, tool):
    return next(p for p in bundle.view.writes if p.tool == tool)


@pytest.mark.parametrize("wrap", [_bare, _data, _root_key], ids=["bare", "data-envelope", "root-key-array"])
def test_a_clock_two_creates_answered_before_it_moved_is_volatile_and_the_create_served(wrap):
    """Enveloped answers too: the write's answer is read where the type's item reads locate the
    entity (without it, the envelope hid the answer's clock and the create was contradicted)."""
    bundle = build_from(kernels(creates=2, wrap=wrap))
    view = bundle.view.view("get_kernels_by_kernel_id")
    assert view.volatile_fields == ("last_activity",)
    plan = _plan(bundle, "post_kernels")
    assert plan.served, plan.reason
    rules = {e.rule_id for e in bundle.view.traces if e.table == "view-volatile-members" and e.outcome == "match"}
    assert rules == {"volatile.after-write-answer"}


def test_one_create_is_no_evidence_and_its_check_contradicts_it():
    bundle = build_from(kernels(creates=1))
    assert bundle.view.view("get_kernels_by_kernel_id").volatile_fields == ()
    plan = _plan(bundle, "post_kernels")
    assert not plan.served and plan.reason == "contradicted"


def test_a_member_the_write_sent_is_not_made_volatile_by_its_answer():
    """An update answering the value it was sent, read back otherwise, is a write the read checks
    (unexplained), not a volatile member."""
    note, other = {"id": 7, "title": "a", "body": "x"}, {"id": 8, "title": "z", "body": "y"}
    har = (HarBuilder()
           .call("GET", "/notes", response=[note, other])
           .call("GET", "/notes/7", response=note)
           .call("GET", "/notes/8", response=other))
    for title in ("b", "c"):
        har.call("PATCH", "/notes/7", body={"title": title}, response={**note, "title": title})
        har.call("GET", "/notes/7", response={**note, "title": title.upper()})
    bundle = build_from(har)
    assert bundle.view.view("get_notes_by_note_id").volatile_fields == ()
    assert not _plan(bundle, "patch_notes_by_note_id").served
