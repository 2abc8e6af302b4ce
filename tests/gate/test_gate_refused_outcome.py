"""A refused write's recorded outcome and the create that made its entity (write-effects, "The
gate", "Attribution": "When a refused write's recorded outcome since then left the entity lacking
a field every recording of its view carried, the create that made it is contradicted too: an
outcome merges only what its answer showed")."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan

# every recording of the item view carries "done"; the create answers without it, so serving
# makes its entities without "done" (its answer also shows "position", which no call sent: it is the
# entity, not an acknowledgement of what was sent that the later read observes, answer-envelope.echoed;
# the later reads show another "position" than the answers, so it is no acknowledgement of fields the
# application made either, answer-envelope.echoed-with-made)
DONE = [{"id": 1, "title": "t1", "done": False}, {"id": 2, "title": "t2", "done": False}]


def _create_then_refused_update(outcome, read, entities=DONE, linked=None):
    """Two calls of the create (the second still running when the first's entity is read, so that
    read checks nothing), then an update sent with another query than its exemplar's: the plan does
    not explain it, so it brings item 3 to its recorded outcome and erases the create's effect."""
    return build_from(items_app(entities)
                      .call("POST", "/items", body={"title": "c"}, status=201, response={"id": 3, "title": "c", "position": 3},
                            started="2026-01-01T00:00:01Z", duration_ms=200)                                # 4
                      .call("POST", "/items", body={"title": "e"}, status=201, response={"id": 4, "title": "e", "position": 4},
                            started="2026-01-01T00:00:01.300Z", duration_ms=500)                            # 5
                      .call("GET", "/items/3", response=linked or {"id": 3, "title": "c", "done": False, "position": 30},
                            started="2026-01-01T00:00:01.400Z")                                             # 6
                      .call("PATCH", "/items/1", body={"title": "x"},
                            response={"id": 1, "title": "x", "done": False}, started="2026-01-01T00:00:02Z")  # 7
                      .call("PATCH", "/items/3", query="notify=1", body={"title": "d"}, response=outcome)   # 8
                      .call("GET", "/items/3", response=read))                                              # 9


def test_an_outcome_leaving_the_entity_lacking_a_field_every_recording_carried_contradicts_its_create():
    bundle = _create_then_refused_update({"id": 3, "title": "d"}, {"id": 3, "title": "d", "done": False, "position": 3})
    create = plan(bundle, "POST", "/items")
    assert (create.reason, create.contradicted_by) == ("contradicted", 9)
    # the refused update itself is attributed nothing
    assert plan(bundle, "PATCH", "/items/{item_id}").contradicted_by is None


def test_an_outcome_showing_the_field_contradicts_nothing():
    # the outcome merges what its answer showed, "done" included: read 9 passes
    bundle = _create_then_refused_update({"id": 3, "title": "d", "done": False},
                                         {"id": 3, "title": "d", "done": False})
    create = plan(bundle, "POST", "/items")
    assert create.contradicted_by is None and create.reason == "unconfirmed"


def test_a_field_not_every_recording_carried_contradicts_nothing():
    # item 2's recordings lack "note": serving answers an entity without it, so read 9's difference
    # is the refused write's, which no plan explains
    entities = [{"id": 1, "title": "t1", "note": "n"}, {"id": 2, "title": "t2"}]
    bundle = _create_then_refused_update({"id": 3, "title": "d"}, {"id": 3, "title": "d", "note": "n"},
                                         entities=entities, linked={"id": 3, "title": "c", "note": "n"})
    create = plan(bundle, "POST", "/items")
    assert create.contradicted_by is None and create.reason == "unconfirmed"


def test_without_the_refused_write_the_read_checks_the_create_as_usual():
    # the same read with no outcome between: the create is exercised and contradicted by it
    bundle = build_from(items_app(DONE)
                        .call("POST", "/items", body={"title": "c"}, status=201,
                              response={"id": 3, "title": "c", "position": 3})
                        .call("GET", "/items/3", response={"id": 3, "title": "c", "done": False, "position": 30}))  # 5
    # (a read showing the answer's fields as answered would make the answer an acknowledgement of the
    # entity it observes, answer-envelope.echoed-with-made: its "position" differs, so it is the entity)
    assert plan(bundle, "POST", "/items").contradicted_by == 5
