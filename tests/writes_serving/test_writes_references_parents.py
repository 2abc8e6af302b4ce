"""A reference (or a list of them, a talk's ``tags``) to a type whose collection lies under the parent the write's own collection names
(a talk's ``track`` at /events/{event_id}/tracks/, the talk at /events/{event_id}/talks/) names an
entity of that parent alone: another event's track is refused as a missing one, state unchanged
(pretalx answers 400 'Invalid pk "3" - object does not exist.' to a submission naming the other
event's track), while a track of the talk's own event is stored as sent."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

TRACKS = {"7": [{"id": 1, "name": "Backend"}, {"id": 2, "name": "Frontend"}], "8": [{"id": 3, "name": "Community"}]}
TAGS = {"7": [{"id": 21, "tag": "keynote"}, {"id": 22, "tag": "beginner"}], "8": [{"id": 23, "tag": "local"}]}


def capture() -> HarBuilder:
    har = HarBuilder()
    for kind, held in (("tracks", TRACKS), ("tags", TAGS)):
        for event, entities in held.items():
            har.call("GET", f"/events/{event}/{kind}", response=entities)
            for entity in entities:
                har.call("GET", f"/events/{event}/{kind}/{entity['id']}", response=entity)
    talk = {"id": 10, "title": "Scaling", "track": 1, "tags": [21]}
    har.call("GET", "/events/7/talks", response=[talk])
    har.call("GET", "/events/7/talks/10", response=talk)
    made = {"id": 11, "title": "Styles", "track": 2, "tags": [21, 22]}
    har.call("POST", "/events/7/talks", body={"title": "Styles", "track": 2, "tags": [21, 22]}, status=201,
             response=made)
    har.call("GET", "/events/7/talks/11", response=made)
    har.call("GET", "/events/7/talks", response=[talk, made])
    har.call("POST", "/events/7/talks", body={"title": "Lost", "track": 99, "tags": []}, status=400,
             response={"track": ['Invalid pk "99" - object does not exist.']})
    moved = {**made, "track": 1}
    har.call("PATCH", "/events/7/talks/11", body={"track": 1}, response=moved)
    har.call("GET", "/events/7/talks/11", response=moved)
    return har


def test_a_track_of_another_event_is_refused_on_create_and_update_with_the_state_unchanged(tmp_path):
    bundle = build_from(capture(), tmp_path / "capture.har")
    create, update = plan(bundle, "POST", "/events/{event_id}/talks"), plan(bundle, "PATCH", "/events/{event_id}/talks/{talk_id}")
    assert create.served and update.served, (create.reason, update.reason)
    assert [(r.member, r.many) for r in create.references] == [("track", False), ("tags", True)]
    assert [r.member for r in update.references] == ["track"]
    runtime = EnvironmentRuntime(bundle)
    before = runtime.data_get()
    refused = runtime.call_tool(create.tool, {"event_id": "7", "body": {"title": "Elsewhere", "track": 3, "tags": [21]}})
    assert refused.is_error and "at /events/7/tracks" in refused.structured["message"], refused.structured
    for tags in ([99], [21, 23]):  # a missing tag, another event's: each element must name a tag of the event
        refused = runtime.call_tool(create.tool, {"event_id": "7", "body": {"title": "Tagged", "track": 1, "tags": tags}})
        assert refused.is_error and "member 'tags' holds" in refused.structured["message"], refused.structured
    refused = runtime.call_tool(update.tool, {"event_id": "7", "talk_id": "10", "body": {"track": 3}})
    assert refused.is_error and "no tracks entity with that id" in refused.structured["message"], refused.structured
    assert runtime.data_get() == before
    made = runtime.call_tool(create.tool, {"event_id": "7", "body": {"title": "Here", "track": 2, "tags": [22]}})
    assert not made.is_error and made.structured["body"]["track"] == 2, made.structured
    moved = runtime.call_tool(update.tool, {"event_id": "7", "talk_id": "10", "body": {"track": 2}})
    assert not moved.is_error and moved.structured["body"]["track"] == 2, moved.structured
