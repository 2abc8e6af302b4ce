"""A list whose rows carry their identity under the name of the collection's item path parameter
(``{"thing_summaries": [{"thing_id": 1, …}]}`` listed at /things, each read at /things/{thing_id}
whose page carries no identity of its own): ``identity-field.item-param-name`` takes that field as
the identity, but only where every item read was made with one of its listed values. An item read
made with another key (an email where the rows list opaque ids) is evidence the parameter names
something else: the list then stays a document, never a collection keyed by a guess."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder


def summary(thing_id: int, name: str) -> dict:
    return {"thing_id": thing_id, "thing_name": name, "tags": []}


def page(name: str) -> dict:
    return {"name": name, "parts": [{"part_id": 1, "size": 2}], "note": None}


def things_app(extra_read: str | None = None) -> HarBuilder:
    seeded = [summary(1, "alpha"), summary(2, "beta")]
    har = (HarBuilder()
           .call("GET", "/api/things", response={"thing_summaries": seeded})
           .call("GET", "/api/things/1", response=page("alpha"))
           .call("GET", "/api/things/2", response=page("beta"))
           .call("GET", "/api/things/9", status=404, response={"reason": "not found"}))
    if extra_read is not None:
        har.call("GET", f"/api/things/{extra_read}", response=page("alpha"))
    return (har
            .call("POST", "/api/things", body={"name": "gamma"}, status=201,
                  response={"thing_summary": summary(3, "gamma")})
            .call("GET", "/api/things", response={"thing_summaries": seeded + [summary(3, "gamma")]})
            .call("POST", "/api/things", body={"name": "delta"}, status=201,
                  response={"thing_summary": summary(4, "delta")})
            .call("GET", "/api/things", response={"thing_summaries": seeded + [summary(3, "gamma"), summary(4, "delta")]})
            .call("DELETE", "/api/things/3", status=204)
            .call("GET", "/api/things", response={"thing_summaries": seeded + [summary(4, "delta")]})
            .call("GET", "/api/things/3", status=404, response={"reason": "not found"}))


def things_type(bundle):
    return next((t for t in bundle.view.types if t.collection_template.endswith("/things")), None)


def test_the_field_named_as_the_item_parameter_identifies_the_listed_rows():
    bundle = build_from(things_app())
    things = things_type(bundle)
    assert things is not None and things.id_field == "thing_id"
    create = plan(bundle, "POST", "/api/things")
    assert create.served, create.reason


def test_an_item_read_made_with_a_value_the_field_never_lists_leaves_the_list_a_document():
    bundle = build_from(things_app(extra_read="alpha"))  # read by its name: the parameter is no thing_id
    things = things_type(bundle)
    assert things is None or things.id_field != "thing_id"
