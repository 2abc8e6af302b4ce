"""A member lists show as an id and item reads as the object it names (Django REST Framework's list
and detail serializers: `"playbook": 1` beside `"playbook": {"id": 1, ...}`) differs across lines
in kind, so the view takes it as volatile. Volatile members take the recorded value in the gate's
comparison, but only a value of the same kind: a create echoing the id it was sent would serve
an item read with the id where the application embeds the object, so the read after the create
contradicts it (a wrong answer otherwise, seen live on ARA's records). An update answered the same
way (ARA's write serializer answers `"playbook": 1`) is contradicted by its own answer: serving
answers an update from the copy, which holds the object the reads embed."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

SITE = {"id": 1, "name": "Site", "path": "/srv/site.yml"}


def note(key: int, name: str, playbook) -> dict:
    return {"id": key, "key": name, "value": "v", "playbook": playbook}


def _records_app(created_read_playbook) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/records", response={"count": 2, "results": [note(1, "release", 1), note(2, "ticket", 1)]})
            .call("GET", "/records/1", response=note(1, "release", SITE))
            .call("GET", "/records/2", response=note(2, "ticket", SITE))
            .call("POST", "/records", body={"playbook": 1, "key": "owner", "value": "v"}, status=201,
                  response=note(3, "owner", 1))
            .call("GET", "/records/3", response=note(3, "owner", created_read_playbook))
            .call("GET", "/records", response={"count": 3, "results": [note(1, "release", 1), note(2, "ticket", 1),
                                                                        note(3, "owner", 1)]}))


def test_an_id_echoed_where_the_item_read_embeds_the_object_contradicts_the_create():
    bundle = build_from(_records_app(SITE))
    assert "playbook" in bundle.view.view("get_records_by_record_id").volatile_fields, summary(bundle)
    create = plan(bundle, "POST", "/records")
    assert (create.reason, create.contradicted_by) == ("contradicted", 5), summary(bundle)


def test_an_item_read_showing_the_id_as_sent_confirms_the_create():
    bundle = build_from(_records_app(1))
    create = plan(bundle, "POST", "/records")
    assert create.contradicted_by is None, summary(bundle)


def _patched(answered_playbook) -> HarBuilder:
    return (HarBuilder()
            .call("GET", "/records", response={"count": 2, "results": [note(1, "release", 1), note(2, "ticket", 1)]})
            .call("GET", "/records/1", response=note(1, "release", SITE))
            .call("GET", "/records/2", response=note(2, "ticket", SITE))
            .call("PATCH", "/records/1", body={"value": "w"}, response={**note(1, "release", answered_playbook),
                                                                        "value": "w"})
            .call("GET", "/records/1", response={**note(1, "release", SITE), "value": "w"})
            .call("PATCH", "/records/2", body={"value": "x"}, response={**note(2, "ticket", answered_playbook),
                                                                        "value": "x"})
            .call("GET", "/records/2", response={**note(2, "ticket", SITE), "value": "x"}))


def test_an_update_answering_the_id_where_the_copy_holds_the_object_is_contradicted():
    # serving answers an update from the copy: the embedded playbook where the application's write
    # serializer answered its id
    bundle = build_from(_patched(1))
    update = plan(bundle, "PATCH", "/records/{record_id}")
    assert update.reason == "contradicted", summary(bundle)
    assert any("another kind of value" in (t.reason or "") for t in update.traces), summary(bundle)


def test_an_update_answering_the_object_as_reads_show_it_is_not_contradicted_by_its_answer():
    bundle = build_from(_patched(SITE))
    update = plan(bundle, "PATCH", "/records/{record_id}")
    assert not any("another kind of value" in (t.reason or "") for t in update.traces), summary(bundle)
