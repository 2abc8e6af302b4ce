"""A delete of an entity others name by a member the application checks as a reference
(``delete-referrers`` refused-dangling): a category's ``label`` holds a category type's id, though no
type is called label and small integer ids of every type collide; a category create sending a label no
entity holds was refused naming the member (``{"label": ["Invalid pk \\"999\\" ..."]}``), so the
member is a reference. doccano deletes a category type's categories with it: the model refuses
the delete of a category type a category names, state unchanged, and deletes the others. Without that
recorded refusal the member is no referrer and the delete is served (the rule must not match).
"""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from write_calls import accepted, entities, refused

from capenv.serving.runtime import EnvironmentRuntime

LABELS = [{"id": 1, "text": "positive"}, {"id": 2, "text": "negative"}, {"id": 3, "text": "spam"}]
CATEGORIES = [{"id": 1, "example": 1, "label": 1}]


def _capture(refused_dangling: bool) -> HarBuilder:
    har = HarBuilder().call("GET", "/category-types", response=LABELS)
    for label in LABELS:
        har.call("GET", f"/category-types/{label['id']}", response=label)
    har.call("GET", "/categories", response=CATEGORIES)
    har.call("POST", "/categories", body={"example": 1, "label": 2}, status=201,
             response={"id": 2, "example": 1, "label": 2})
    if refused_dangling:
        har.call("POST", "/categories", body={"example": 1, "label": 999}, status=400,
                 response={"label": ['Invalid pk "999" - object does not exist.']})
    har.call("GET", "/categories", response=[*CATEGORIES, {"id": 2, "example": 1, "label": 2}])
    har.call("DELETE", "/category-types/3", status=204)
    har.call("GET", "/category-types/3", status=404, response={"detail": "Not found."})
    return har.call("GET", "/category-types", response=LABELS[:2])


def test_a_category_type_a_checked_reference_names_is_not_deleted():
    bundle = build_from(_capture(refused_dangling=True))
    delete = plan(bundle, "DELETE", "/category-types/{category_type_id}")
    assert delete.served, delete.reason
    assert ("categories", "label", "referrer.refused-dangling") in {
        (r.type, r.member, r.rule_id) for r in delete.referrers}
    runtime = EnvironmentRuntime(bundle)
    message = refused(runtime, delete.tool, {"category_type_id": 1})["message"]
    assert "categories 1 (label)" in message, message
    assert [e["id"] for e in entities(runtime, "/category-types")] == [1, 2, 3]
    accepted(runtime, delete.tool, {"category_type_id": 3})  # no category names spam
    assert [e["id"] for e in entities(runtime, "/category-types")] == [1, 2]


def test_without_a_refused_dangling_value_the_member_names_nothing():
    bundle = build_from(_capture(refused_dangling=False))
    delete = plan(bundle, "DELETE", "/category-types/{category_type_id}")
    assert delete.served, delete.reason
    assert "label" not in {r.member for r in delete.referrers}


def _wrapped_capture(refused_dangling: bool) -> HarBuilder:
    """``_capture`` in the root-key convention: every entity answered, and every body sent, as the one
    element of an array (a list as the array) under its collection's name."""
    made = {"id": 2, "example": 1, "label": 2}
    har = HarBuilder().call("GET", "/category-types", response={"category-types": LABELS})
    for label in LABELS:
        har.call("GET", f"/category-types/{label['id']}", response={"category-types": [label]})
    har.call("GET", "/categories", response={"categories": CATEGORIES})
    har.call("POST", "/categories", body={"categories": [{"example": 1, "label": 2}]}, status=201,
             response={"categories": [made]})
    if refused_dangling:
        har.call("POST", "/categories", body={"categories": [{"example": 1, "label": 999}]}, status=400,
                 response={"label": ['Invalid pk "999" - object does not exist.']})
    har.call("GET", "/categories", response={"categories": [*CATEGORIES, made]})
    har.call("DELETE", "/category-types/3", status=204)
    har.call("GET", "/category-types/3", status=404, response={"detail": "Not found."})
    return har.call("GET", "/category-types", response={"category-types": LABELS[:2]})


def test_a_refused_dangling_value_is_read_inside_the_bodies_envelope():
    """The refused create's body is read as the create's members read it, inside its envelope
    ({"categories": [{…}]}): read whole, it sent no label, the member named nothing and the delete
    of a category type a category names was served."""
    bundle = build_from(_wrapped_capture(refused_dangling=True))
    assert plan(bundle, "POST", "/categories").body_envelope == "categories"
    delete = plan(bundle, "DELETE", "/category-types/{category_type_id}")
    assert ("categories", "label", "referrer.refused-dangling") in {
        (r.type, r.member, r.rule_id) for r in delete.referrers}, delete.referrers
    delete = plan(build_from(_wrapped_capture(refused_dangling=False)), "DELETE", "/category-types/{category_type_id}")
    assert "label" not in {r.member for r in delete.referrers}
