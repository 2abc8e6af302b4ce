"""``{name}`` placeholders and JSON pointers."""

from __future__ import annotations

import pytest

from capenv.serving.compare.placeholders import MISSING, fill, fill_json, names_in, resolve_pointer


def test_names_and_literal_braces():
    assert names_in("/posts/{post}/c/{comment}") == ["post", "comment"]
    assert names_in("{{literal}} {x}") == ["x"]
    with pytest.raises(ValueError, match="stray '}'"):
        names_in("a}b")


def test_fill_replaces_what_is_saved_and_reports_the_rest():
    assert fill("/posts/{post}", {"post": 4}) == ("/posts/4", [])
    assert fill("{{x}} {y}", {}) == ("{x} {y}", ["y"])
    assert fill("{b}", {"b": True}) == ("true", [])


def test_a_path_argument_is_escaped_only_where_a_segment_cannot_hold_it():
    assert fill("/r/{id}", {"id": "a b/c"}, escape_segment=True)[0] == "/r/a%20b%2Fc"
    assert fill("/r/{id}", {"id": "my-comment_1.x~"}, escape_segment=True)[0] == "/r/my-comment_1.x~"


def test_a_whole_string_placeholder_keeps_the_saved_type():
    body, missing = fill_json({"postId": "{post}", "text": "on {post}", "list": ["{post}"], "n": 1},
                              {"post": 7})
    assert body == {"postId": 7, "text": "on 7", "list": [7], "n": 1} and missing == []
    assert fill_json({"a": "{gone}"}, {}) == ({"a": "{gone}"}, ["gone"])


def test_json_pointers():
    document = {"data": {"id": "x", "a/b": [10, 20], "m~n": 1}}
    assert resolve_pointer(document, "/data/id") == "x"
    assert resolve_pointer(document, "/data/a~1b/1") == 20
    assert resolve_pointer(document, "/data/m~0n") == 1
    assert resolve_pointer(document, "") is document
    assert resolve_pointer(document, "/data/nope") is MISSING
    assert resolve_pointer(document, "/data/a~1b/5") is MISSING
