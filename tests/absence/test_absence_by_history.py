"""An application that words its absence by the id's history (a never-held name answered one way,
a deleted one another, at one status and id shape) gives the model no one answer that fits every
missing id: nothing is learned, and a read of a missing entity is refused instead of answered with
the other history's message. Bodies that differ only by the path values each names still agree."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

FLAGS = [{"name": "alpha-flag", "kind": "release"}, {"name": "beta-flag", "kind": "ops"}]


def flag_store(never: str, gone: str) -> HarBuilder:
    """Flags at client-chosen names; ``never`` and ``gone`` word the 404 of a never-held name and of
    a deleted one (``{}`` is the name)."""
    return (HarBuilder()
            .call("GET", "/flags", response={"flags": FLAGS})
            .call("GET", "/flags/alpha-flag", response=FLAGS[0])
            .call("GET", "/flags/beta-flag", response=FLAGS[1])
            .call("GET", "/flags/ghost-flag", status=404, response={"message": never.format("ghost-flag")})
            .call("DELETE", "/flags/beta-flag", status=204)
            .call("GET", "/flags/beta-flag", status=404, response={"message": gone.format("beta-flag")})
            .call("GET", "/flags", response={"flags": FLAGS[:1]}))


def test_a_history_worded_absence_is_not_learned_and_the_trace_names_both_reads():
    bundle = build_from(flag_store('There is no flag named "{}".', "Could not find flag with name {}"))
    assert bundle.view.view("get_flags_by_flag_id").absence is None
    events = [e for e in bundle.view.traces if e.subject == "get_flags_by_flag_id absence answer"]
    assert [e.outcome for e in events] == ["default"]
    assert "history" in events[0].reason and "record 6" in events[0].reason and "record 4" in events[0].reason


def test_absences_worded_alike_around_their_own_names_are_still_learned():
    bundle = build_from(flag_store("No flag {} here", "No flag {} here"))
    absence = bundle.view.view("get_flags_by_flag_id").absence
    assert absence is not None and absence.records == (4, 6)


def test_a_different_status_by_history_keeps_the_latest_answer():
    """A 400 for one id and a 404 for another is conflicting evidence, served as before: the latest."""
    har = (HarBuilder()
           .call("GET", "/flags", response={"flags": FLAGS})
           .call("GET", "/flags/alpha-flag", response=FLAGS[0])
           .call("GET", "/flags/beta-flag", response=FLAGS[1])
           .call("GET", "/flags/ghost-flag", status=400, response={"message": "bad name ghost-flag"})
           .call("DELETE", "/flags/beta-flag", status=204)
           .call("GET", "/flags/beta-flag", status=404, response={"message": "Could not find beta-flag"}))
    absence = build_from(har).view.view("get_flags_by_flag_id").absence
    assert absence is not None and absence.recording.status == 404
