"""A query that reshapes a member the entity's own reads show (DRF's ``?expand=track`` answers the
track object where a plain read answers its id; ``?expand=speakers`` the speaker objects for their
codes) is no read of the entity's own values (``view-query-members``: query-member.reshaped-by-query):
the state takes nothing from it, its values count as no change of the member (no volatility), and
it shows no list projection (regression: a plain item read answered the expanded objects an
earlier expanded read had merged into the state, and the reference member, taken for volatile,
was left out of the state, so a delete of the entity it names was served)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

T1 = {"id": 1, "name": "Backend"}
T2 = {"id": 2, "name": "Frontend"}
A = {"id": 10, "title": "One", "track": 1, "speakers": ["S1"]}
B = {"id": 11, "title": "Two", "track": 2, "speakers": ["S2"]}
S2 = {"code": "S2", "name": "Bea"}


def capture() -> HarBuilder:
    return (HarBuilder().call("GET", "/tracks", response=[T1, T2])
            .call("GET", "/tracks/1", response=T1)
            .call("GET", "/talks", response=[A, B])
            .call("GET", "/talks/10", response=A)
            .call("GET", "/talks/11", response=B)
            .call("GET", "/talks/11", query="expand=speakers", response={**B, "speakers": [S2]})
            .call("GET", "/talks", query="expand=track", response=[{**A, "track": T1}, {**B, "track": T2}])
            .call("POST", "/tracks", body={"name": "Ops"}, response={"id": 3, "name": "Ops"}, status=201)
            .call("GET", "/tracks/3", response={"id": 3, "name": "Ops"})
            .call("DELETE", "/tracks/3", status=204)
            .call("GET", "/tracks/3", response={"detail": "Not found."}, status=404)
            .call("GET", "/tracks", response=[T1, T2]))


def test_the_state_holds_the_plain_shape():
    bundle = build_from(capture())
    held = {str(e.id): e.value for c in bundle.view.state.collections for e in c.entities}
    assert held["11"] == B and held["10"] == A
    why = {e.subject for e in bundle.view.traces if e.rule_id == "query-member.reshaped-by-query"
           and e.outcome == "match"}
    assert any("'track'" in s for s in why) and any("'speakers'" in s for s in why), why


def test_a_delete_of_a_track_a_talk_names_is_refused():
    bundle = build_from(capture())
    runtime = EnvironmentRuntime(bundle)
    plain = runtime.call_tool("get_talks_by_talk_id", {"talk_id": "11"})
    assert not plain.is_error and plain.structured["body"] == B
    refused = runtime.call_tool("delete_tracks_by_track_id", {"track_id": "2"})
    assert refused.is_error and "names this tracks entity" in refused.structured["message"]
