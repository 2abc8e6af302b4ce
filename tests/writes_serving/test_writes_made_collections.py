"""A create into a value of a generic collection segment whose collection the state does not hold:
served where the capture showed the tool making a value's collection with its first create (Parse
makes a class on its first create), refused where every such collection was made first by another
write no plan models (a schema write: the environment never made it, and an application that needs
it would refuse the create), naming what it accepts."""

from __future__ import annotations

import json

from support.capture_runs import build_from

from capenv.serving.runtime import EnvironmentRuntime

from tests.gate.test_collection_value_proofs import SYSTEM, at, data, http, shelves_app


def _post_plan(bundle):
    return next(p for p in bundle.view.writes if p.method == "POST" and p.dispatch_params)


def schema_first_app():
    """The shelves app, with the shelves collection made by a schema write before its first create."""
    app = shelves_app()
    first = next(i for i, e in enumerate(app.entries)
                 if e["request"]["method"] == "POST" and e["request"]["url"].endswith("/items/shelves"))
    schema = shelves_app()  # a builder whose one call is the schema write, moved in before the create
    schema.entries.clear()
    schema.call("POST", "/collections", body={"collection": "shelves", "meta": {"icon": "box"}}, started=at(5),
                response=data({"collection": "shelves"}))
    app.entries.insert(first, schema.entries[0])
    return app


def test_a_tool_that_made_a_collection_with_its_first_create_creates_where_none_is_held():
    bundle = build_from(shelves_app())
    variants = {v.dispatch_args.get(next(iter(v.dispatch_args))): v for v in _post_plan(bundle).variants}
    assert variants["shelves"].served and variants["shelves"].makes_collection
    runtime = EnvironmentRuntime(bundle)
    answer = http(runtime, "POST", "/items/shelves", {"name": "Later", "position": 5, **SYSTEM})
    assert answer.status == 201, answer.body


def test_a_collection_another_write_made_first_is_not_created_into_where_none_is_held():
    bundle = build_from(schema_first_app())
    shelves = next(v for v in _post_plan(bundle).variants if "shelves" in v.dispatch_args.values())
    assert not shelves.makes_collection
    runtime = EnvironmentRuntime(bundle)
    answer = http(runtime, "POST", "/items/shelves", {"name": "Later", "position": 5, **SYSTEM})
    if shelves.served:  # served by the gate, refused here: the state never made the collection
        assert answer.status >= 400, answer.body
        message = json.loads(answer.body)["message"]
        assert "holds no /items/shelves" in message and "creates only where the state holds" in message
    else:
        assert answer.status >= 400
    listed = http(runtime, "GET", "/items/shelves")
    assert b"Later" not in listed.body
