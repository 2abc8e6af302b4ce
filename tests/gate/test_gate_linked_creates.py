"""A linked create's later call in the gate (write-effects, "Effects", "Creates": "A linked
create's call is observed only in a read of an id its response returned, at the top or in an
envelope member, so another unseen item's read is never taken for it"): the gate applies each
later call with the values the read of its returned id recorded, so serving's generated values do
not stand in for them. The envelope is the member the type's item view locates its entity in."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

R1 = {"id": "r1aaaaaa", "title": "one"}
R2 = {"id": "r2bbbbbb", "title": "two"}
R3 = {"id": "r3cccccc", "title": "three"}
R4 = {"id": "r4dddddd", "title": "four"}


def _records_app(envelope: str, later_answer: dict) -> object:
    """Records read in an envelope; two creates, each answering its id, each read after."""
    def wrapped(value):
        return {envelope: value}

    builder = (HarBuilder()
               .call("GET", "/records", response={envelope: [R1, R2]})                          # 1
               .call("GET", "/records/r1aaaaaa", response=wrapped(R1))                          # 2
               .call("GET", "/records/r2bbbbbb", response=wrapped(R2))                          # 3
               .call("POST", "/records", body={"title": "three"}, status=201,
                     response=wrapped({"id": R3["id"]}))                                        # 4
               .call("GET", "/records/r3cccccc", response=wrapped(R3))                          # 5
               .call("POST", "/records", body={"title": "four"}, status=201, response=later_answer)  # 6
               .call("GET", "/records/r4dddddd", response=wrapped(R4)))                         # 7
    return build_from(builder)


@pytest.mark.parametrize("envelope", ["data", "item"])
def test_a_later_call_is_observed_by_the_read_of_the_id_in_its_envelope(envelope):
    bundle = _records_app(envelope, {envelope: {"id": R4["id"]}})
    create = plan(bundle, "POST", "/records")
    assert create.observation == 5 and {f.field: f.op for f in create.fields}["id"] == "identity"
    assert create.served and 7 in create.checked_record_ordinals, summary(bundle)


def test_a_later_call_answering_its_id_at_the_top_is_observed_by_its_read():
    bundle = _records_app("data", {"id": R4["id"]})
    create = plan(bundle, "POST", "/records")
    assert create.served and 7 in create.checked_record_ordinals, summary(bundle)


def test_an_id_outside_the_top_and_the_envelope_is_not_looked_up():
    """The later call names the new id only under another member: the gate does not take the read
    of that id for the call's outcome, so the create it applies (with a generated id) is not
    the entity read 7 shows, and read 7 confirms nothing."""
    bundle = _records_app("data", {"meta": {"id": R4["id"]}, "ok": True})
    create = plan(bundle, "POST", "/records")
    assert 7 not in create.checked_record_ordinals, summary(bundle)
