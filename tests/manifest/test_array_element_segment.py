"""A value the parent entity's read holds in the array member the segment before names
(``/images/{id}/tags/{tag}`` beside the image's ``tags``) is an element addressed by its value
(``segment.array-element``): the tag writes are one tool each, and a tag no read showed (a missing
one) joins its siblings by their spelling. Words no array holds stay literal tools."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

IMAGE = "/v2/images/5f0c3a52-8a5e-4c4e-9a57-0c2f8d6a1b11"
OTHER = {"id": "7d7acbaf-e1c8-4129-a865-c239e68f1f00", "name": "cirros", "tags": []}


def image(tags: list[str]) -> dict:
    return {"id": IMAGE.rsplit("/", 1)[1], "name": "debian", "tags": tags}


def capture(shown: bool) -> HarBuilder:
    """Tags added and removed by value; ``shown``: the image's reads hold the tags the calls name."""
    held = (lambda tags: tags) if shown else (lambda tags: [])
    return (HarBuilder().call("GET", f"/v2/images/{OTHER['id']}", response=OTHER)
            .call("GET", IMAGE, response=image(held(["debian"])))
            .call("PUT", f"{IMAGE}/tags/stable", status=204, response=None)
            .call("GET", IMAGE, response=image(held(["debian", "stable"])))
            .call("PUT", f"{IMAGE}/tags/bookworm", status=204, response=None)
            .call("GET", IMAGE, response=image(held(["debian", "stable", "bookworm"])))
            .call("DELETE", f"{IMAGE}/tags/stable", status=204, response=None)
            .call("GET", IMAGE, response=image(held(["debian", "bookworm"])))
            .call("DELETE", f"{IMAGE}/tags/missing", status=404, response={"error": "no such tag"}))


def test_tags_the_image_holds_are_one_parameter():
    bundle = build_from(capture(shown=True))
    templates = {(t.method, t.template) for t in bundle.manifest.tools}
    assert ("PUT", "/v2/images/{image_id}/tags/{tag_id}") in templates
    assert ("DELETE", "/v2/images/{image_id}/tags/{tag_id}") in templates
    assert not any(t.template.endswith(("/stable", "/bookworm", "/missing")) for t in bundle.manifest.tools)
    rules = {e.rule_id for e in bundle.manifest.traces if e.subject.endswith("/tags/{…}")}
    assert "segment.array-element" in rules


def test_words_no_array_holds_stay_literal():
    bundle = build_from(capture(shown=False))
    templates = {t.template for t in bundle.manifest.tools}
    assert f"/v2/images/{{image_id}}/tags/stable" in templates
    assert "/v2/images/{image_id}/tags/{tag_id}" not in templates
