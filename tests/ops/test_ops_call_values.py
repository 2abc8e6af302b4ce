"""echo, copy, path, slug, template: values a field takes from the call."""

from __future__ import annotations

import pytest
from ops_helpers import context, rule

from capenv.interpreter.bundle.jsonvalue import JsonNumber
from capenv.serving.ops import UNCHANGED, OpRefusal, apply_field_rule, slugify


def test_echo_stores_the_member_as_sent_without_aliasing_the_body():
    body = {"title": "Hello", "tags": ["a", {"b": 1}]}
    ctx = context(body)
    value = apply_field_rule(rule("echo", "tags", member="tags"), ctx)
    assert value == ["a", {"b": 1}]
    value[1]["b"] = 2
    assert body["tags"][1]["b"] == 1
    assert ctx.generated["tags"] == value


def test_echo_refuses_a_create_without_the_member_and_keeps_an_update_field():
    with pytest.raises(OpRefusal, match="'title'"):
        apply_field_rule(rule("echo", "title", member="title"), context({}))
    assert apply_field_rule(rule("echo", "title", member="title"), context({}, entity_before={"title": "x"})) is UNCHANGED


def test_copy_reads_a_json_pointer_of_the_body():
    ctx = context({"meta": {"a/b": ["x", "a long enough value"]}})
    assert apply_field_rule(rule("copy", "f", pointer="/meta/a~1b/1"), ctx) == "a long enough value"


def test_copy_refuses_a_pointer_the_body_does_not_hold():
    with pytest.raises(OpRefusal, match="/meta/x"):
        apply_field_rule(rule("copy", "f", pointer="/meta/x"), context({"meta": {}}))


def test_path_takes_the_decoded_parameter_and_refuses_a_missing_one():
    assert apply_field_rule(rule("path", "bucket", param="bucket"), context(path_args={"bucket": "a b"})) == "a b"
    with pytest.raises(OpRefusal, match="path parameter 'bucket'"):
        apply_field_rule(rule("path", "bucket", param="bucket"), context())


@pytest.mark.parametrize("text,slug", [
    ("Hello, World!", "hello-world"),
    ("  --Already-slugged--  ", "already-slugged"),
    ("it's 2 o'clock", "it-s-2-o-clock"),
    ("snake_case and  spaces", "snake-case-and-spaces"),
    ("Café au lait", "caf-au-lait"),
    ("Привет мир", ""),
    ("!!!", ""),
])
def test_slugify(text, slug):
    assert slugify(text) == slug


def test_slug_op_refuses_a_non_string_and_a_missing_member_on_create():
    assert apply_field_rule(rule("slug", "slug", member="title"), context({"title": "My Post"})) == "my-post"
    with pytest.raises(OpRefusal, match="must be a string"):
        apply_field_rule(rule("slug", "slug", member="title"), context({"title": 5}))
    with pytest.raises(OpRefusal, match="'title'"):
        apply_field_rule(rule("slug", "slug", member="title"), context({}))
    assert apply_field_rule(rule("slug", "slug", member="title"), context({}, entity_before={"slug": "x"})) is UNCHANGED


def test_a_taken_slug_is_refused_unless_the_plan_learned_the_suffix():
    taken = {"slug": {"my-post", "my-post-2"}}
    with pytest.raises(OpRefusal, match="another held entity has"):
        apply_field_rule(rule("slug", "slug", member="title"), context({"title": "My Post"}, held=taken))
    suffixed = rule("slug", "slug", member="title", taken_suffix="-{}", taken_first=2)
    assert apply_field_rule(suffixed, context({"title": "My Post"}, held=taken)) == "my-post-3"  # the first free
    assert apply_field_rule(suffixed, context({"title": "Other"}, held=taken)) == "other"
    assert apply_field_rule(suffixed, context({"title": "My Post"}, held=taken,  # its own slug is kept
                                              entity_before={"slug": "my-post"})) == "my-post"


def test_template_is_rebuilt_around_generated_sent_and_path_values():
    ctx = context({"title": "My Post", "n": JsonNumber("1.50")}, path_args={"site": "blog"})
    ctx.generated["id"] = 42
    parts = ["https://", {"param": "site"}, ".example/p/", {"field": "id"}, "/", {"slug_of": "title"},
             "?n=", {"member": "n"}]
    assert apply_field_rule(rule("template", "url", parts=parts), ctx) == "https://blog.example/p/42/my-post?n=1.50"


def test_template_refuses_a_source_the_write_lacks():
    with pytest.raises(OpRefusal, match="field 'id'"):
        apply_field_rule(rule("template", "url", parts=["/p/", {"field": "id"}]), context())
    with pytest.raises(OpRefusal, match="'title'"):
        apply_field_rule(rule("template", "url", parts=["/p/", {"member": "title"}]), context())


def test_template_on_an_update_uses_the_held_field_and_keeps_itself_without_its_member():
    before = {"id": "abc", "url": "/p/abc/old"}
    assert apply_field_rule(rule("template", "url", parts=["/p/", {"field": "id"}, "/", {"slug_of": "t"}]),
                            context({"t": "New"}, entity_before=before)) == "/p/abc/new"
    assert apply_field_rule(rule("template", "url", parts=["/p/", {"slug_of": "t"}]),
                            context({}, entity_before=before)) is UNCHANGED


def test_an_encoded_member_is_rebuilt_percent_encoded_and_an_unproven_character_refused():
    template = rule("template", "url", parts=["http://h/notes/", {"encoded_member": "name"}], encoded_proven=" ")
    assert apply_field_rule(template, context({"name": "Call Ana"})) == "http://h/notes/Call%20Ana"
    assert apply_field_rule(template, context({"name": "gate-2.x_~"})) == "http://h/notes/gate-2.x_~"
    with pytest.raises(OpRefusal, match="'/'"):  # some applications keep a slash in a path, others encode it
        apply_field_rule(template, context({"name": "a/b"}))
