"""What an OpenAPI operation says its answers are: every shape a served answer can take (the
state-rendered body, and a recorded body of another shape that replay answers verbatim), and
no content for an answer sent without a body."""

from __future__ import annotations

from types import SimpleNamespace

from jsonschema import Draft202012Validator

from capenv.interpreter.bundle.models import Locator, ReadView, RecordedCall, Recording
from capenv.serving.catalog.openapi_responses import operation_responses
from capenv.serving.catalog.recorded_shapes import shape_of_all

ROWS = {"ok": True, "rows": [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]}
ARRAY = [{"id": 1, "title": "a"}, {"id": 2, "title": None}]


def _list_entry() -> SimpleNamespace:
    view = ReadView(tool="get_articles", kind="list", type="articles", locator=Locator(kind="member", member="rows"),
                    state_backed=True, shown_fields=("id", "title"), required_fields=("id", "title"))
    return SimpleNamespace(from_state=True, handler="read", view=view)


def _call(ordinal: int, recording: Recording, query: tuple[tuple[str, str], ...] = ()) -> RecordedCall:
    return RecordedCall(ordinal=ordinal, method="GET", path="/articles", query=query, response=recording)


def _json(ordinal: int, status: int, body) -> Recording:
    return Recording(ordinal=ordinal, status=status, content_type="application/json", body=body)


def test_a_recorded_answer_of_another_shape_is_described_beside_the_rendered_one() -> None:
    calls = (_call(1, _json(1, 200, ROWS)), _call(2, _json(2, 200, ARRAY), (("_shape", "array"),)))
    schema = operation_responses(_list_entry(), calls)["200"]["content"]["application/json"]["schema"]
    valid = Draft202012Validator(schema).is_valid
    assert valid(ROWS) and valid(ARRAY)
    assert not valid("text") and not valid([1, 2])  # only the shapes served answers take
    assert not valid({"ok": True})  # the rendered shape still asks for its rows


def test_answers_of_the_rendered_shape_alone_keep_that_shape() -> None:
    calls = (_call(1, _json(1, 200, ROWS)),)
    media = operation_responses(_list_entry(), calls)["200"]["content"]["application/json"]
    assert "anyOf" not in media["schema"] and media["example"] == ROWS


def test_an_answer_recorded_without_a_body_is_described_without_content() -> None:
    empty = Recording(ordinal=3, status=404, content_type="application/json", is_json=False, text="")
    responses = operation_responses(_list_entry(), (_call(1, _json(1, 200, ROWS)),), absences=(empty,))
    assert "content" not in responses["404"]
    assert "without a body" in responses["404"]["description"]
    null = operation_responses(_list_entry(), (_call(4, _json(4, 404, None)),))  # JSON null is a body
    assert "content" in null["404"]


def test_the_recorded_shape_admits_every_recording_and_requires_only_common_members() -> None:
    values = [{"id": 1, "tags": ["x"], "at": None}, {"id": 2.5, "tags": [], "at": "2026"}, {"id": 3, "tags": [1]}]
    schema = shape_of_all(values)
    valid = Draft202012Validator(schema).is_valid
    assert all(valid(v) for v in values)
    assert schema["required"] == ["id", "tags"]
    assert not valid({"id": "1", "tags": []}) and not valid([])
