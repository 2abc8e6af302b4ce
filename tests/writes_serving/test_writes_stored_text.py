"""A write that stores a member as sent (an echo) is proven by the gate for the text its recorded
calls sent; text of a class none of them held (markup characters, white space around it, an
empty string, control characters, line breaks, far more characters) is refused with the state
unchanged, saying what is accepted: an application may store it otherwise (WordPress stores the
term name 'Rock & Roll' as 'Rock &amp; Roll', strips tags and trims), which the capture cannot
show. A class a recorded call sent, the gate checked, so it is served."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import sent_beside_the_state

from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.writes.calls import WriteRefusal
from capenv.serving.writes.stored_text import TextClasses, check_stored_text, compile_classes

TAGS = [{"id": 1, "name": "php", "description": "The language"}, {"id": 2, "name": "sql", "description": "Queries"}]


def tags_capture(*renames: str) -> HarBuilder:
    """Tags renamed by PATCH /tags/{id}, each rename read back and listed."""
    har = HarBuilder()
    held = {t["id"]: dict(t) for t in TAGS}
    har.call("GET", "/tags", response=list(held.values()))
    for tag in TAGS:
        har.call("GET", f"/tags/{tag['id']}", response=tag)
    for index, name in enumerate(renames):
        tag_id = 1 + index % 2
        held[tag_id] = {**held[tag_id], "name": name}
        har.call("PATCH", f"/tags/{tag_id}", body={"name": name}, response=held[tag_id])
        har.call("GET", f"/tags/{tag_id}", response=held[tag_id])
        har.call("GET", "/tags", response=list(held.values()))
    return har


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    return build_from(tags_capture("PHP", "Databases and storage"), tmp_path_factory.mktemp("p") / "capture.har")


def rename(bundle, name: str) -> tuple[int, dict, bytes, bytes]:
    return sent_beside_the_state(bundle, "PATCH", "/tags/1", {"name": name})


def test_the_plan_names_the_text_classes_no_call_sent(plain) -> None:
    update = plan(plain, "PATCH", "/tags/{tag_id}")
    assert update.served, update.reason
    assert {u.rule_id for u in update.unproven_text if u.member == "name"} == {
        "stored-text.markup", "stored-text.surrounding-space", "stored-text.control",
        "stored-text.line-breaks", "stored-text.length"}


def test_plain_text_is_stored_as_sent(plain) -> None:
    status, answer, _, after = rename(plain, "Rock and Roll 2")
    assert status == 200 and answer["name"] == "Rock and Roll 2", answer
    assert "Rock and Roll 2" in str(after)


@pytest.mark.parametrize("name, said", [
    ("Rock & Roll", "markup characters"), ("<b>Bold</b>", "markup characters"),
    ("  spaced  ", "white space before or after"), ("bell\u0007", "control characters"),
    ("two\nlines", "line breaks"), ("x" * 51, "more than 50 characters"),
])
def test_unproven_text_is_refused_with_the_state_unchanged(plain, name, said) -> None:
    status, answer, before, after = rename(plain, name)
    assert status == 400, answer
    assert said in answer["message"] and "'name'" in answer["message"] and "is accepted" in answer["message"]
    assert after == before


def test_a_class_a_recorded_call_sent_is_served(tmp_path) -> None:
    bundle = build_from(tags_capture("PHP", "Tips & Tricks"), tmp_path / "capture.har")
    assert "stored-text.markup" not in {u.rule_id for u in plan(bundle, "PATCH", "/tags/{tag_id}").unproven_text}
    status, answer, _, _ = rename(bundle, "Rock & Roll")
    assert status == 200 and answer["name"] == "Rock & Roll", answer


def test_the_tool_input_schema_says_which_text_is_refused(plain) -> None:
    runtime = EnvironmentRuntime(plain)
    try:
        tool = next(t for t in runtime.tools() if t.name == plan(plain, "PATCH", "/tags/{tag_id}").tool)
        said = str(tool.input_schema)
        assert "refused when its text holds markup characters (<, >, &)" in said and "line breaks" in said
    finally:
        runtime.close()


def test_the_input_schema_refuses_each_class_itself_and_names_it(plain) -> None:
    """The string member's schema holds a ``not`` of one pattern per class: validation refuses the
    text before the write runs, naming the class it holds, and a client validating against the
    published schema refuses it too."""
    from jsonschema import Draft202012Validator

    runtime = EnvironmentRuntime(plain)
    try:
        tool = next(t for t in runtime.tools() if t.name == plan(plain, "PATCH", "/tags/{tag_id}").tool)
        member = tool.input_schema["properties"]["body"]["properties"]["name"]
        assert member["type"] == "string" and member["not"]["type"] == "string" and len(member["not"]["anyOf"]) == 5
        validator = Draft202012Validator(member)
        assert validator.is_valid("Rock and Roll") and not validator.is_valid("Rock & Roll")
        answer = runtime.call_tool(tool.name, {"tag_id": "1", "body": {"name": "two\nlines"}})
        assert answer.is_error and "member 'name' holds line breaks" in answer.structured["message"], answer.structured
    finally:
        runtime.close()


def test_the_precheck_accepts_only_text_outside_every_class() -> None:
    from capenv.interpreter.bundle.schema_precheck import compile_precheck

    check = compile_precheck({"type": ["string", "null"],
                              "not": {"type": "string", "anyOf": [{"pattern": "[<>&]", "description": "markup"},
                                                                  {"pattern": "^$", "description": "empty"}]}})
    assert check is not None
    assert check("plain") and check(None) and not check("a & b") and not check("") and not check(3)
    assert compile_precheck({"type": "string", "not": {"type": "integer"}}) is None  # left to jsonschema


@pytest.mark.parametrize("name", ["Rock and Roll", "Rock & Roll", " x", "x ", "", "bell\u0007", "two\nlines",
                                  "x" * 50, "x" * 51, "<b>\n", 5, None])
def test_the_compiled_classes_refuse_exactly_what_each_class_refuses(plain, name) -> None:
    """The plan's text classes searched as one pattern per member (``compile_classes``, what served
    writes run) refuse the same text, naming the same first class, as the classes one by one."""
    update = plan(plain, "PATCH", "/tags/{tag_id}")
    classes = compile_classes(update)
    assert [member for member, _ in classes] == sorted({u.member for u in update.unproven_text})

    def refusal(compiled: TextClasses | None) -> str | None:
        try:
            check_stored_text(update, {"name": name}, compiled)
        except WriteRefusal as refused:
            return str(refused)
        return None

    assert refusal(classes) == refusal(None)


def labelled_capture() -> HarBuilder:
    """Notes whose ``labels`` array of text a PATCH stores as sent, each read back and listed."""
    har = HarBuilder()
    held = {1: {"id": 1, "title": "a", "labels": ["red"]}, 2: {"id": 2, "title": "b", "labels": []}}
    har.call("GET", "/notes", response=list(held.values()))
    for note_id, labels in ((1, ["red", "blue"]), (2, ["green"]), (1, ["amber"])):
        har.call("GET", f"/notes/{note_id}", response=held[note_id])
        held[note_id] = {**held[note_id], "labels": labels}
        har.call("PATCH", f"/notes/{note_id}", body={"labels": labels}, response=held[note_id])
        har.call("GET", f"/notes/{note_id}", response=held[note_id])
        har.call("GET", "/notes", response=list(held.values()))
    return har


@pytest.mark.parametrize("labels, said", [
    (["x" * 300], "more than 50 characters"), (["ok", "Rock & Roll"], "markup characters"),
    ([" padded"], "white space before or after"),
])
def test_each_text_element_of_an_array_member_is_judged_as_its_text(tmp_path, labels, said) -> None:
    """An array of text stored as sent (a list of tags) holds each element as sent: an element of a
    class no recorded call sent (a 300-character tag a 255-character column refuses) is refused,
    state unchanged, by the input schema and by the write's own check alike."""
    bundle = build_from(labelled_capture(), tmp_path / "capture.har")
    update = plan(bundle, "PATCH", "/notes/{note_id}")
    assert update.served, update.reason
    assert "stored-text.length" in {u.rule_id for u in update.unproven_text if u.member == "labels"}
    status, answer, before, after = sent_beside_the_state(bundle, "PATCH", "/notes/1", {"labels": labels})
    assert status == 400 and said in answer["message"] and "'labels" in answer["message"], answer
    assert after == before
    with pytest.raises(WriteRefusal, match=said):
        check_stored_text(update, {"labels": labels}, compile_classes(update))
    runtime = EnvironmentRuntime(bundle)
    try:  # the tool's input schema refuses the element itself, naming it
        answer = runtime.call_tool(update.tool, {"note_id": "1", "body": {"labels": labels}})
        assert answer.is_error and f"member 'labels[{len(labels) - 1}]' holds {said}" in answer.structured["message"]
    finally:
        runtime.close()
    status, answer, _, after = sent_beside_the_state(bundle, "PATCH", "/notes/1", {"labels": ["teal", "navy"]})
    assert status == 200 and answer["labels"] == ["teal", "navy"], answer
