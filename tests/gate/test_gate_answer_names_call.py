"""An update or delete whose recorded answer names its call's path argument in its text
(``{"message": "removed note 3"}``) stays unserved (``verdict.answer-names-call``): served, the
answer is the recorded one, so every call would say it removed the exemplar's entity. The same
delete answering a message that names no argument is served; so is one whose argument is only
part of a longer word or number."""

from __future__ import annotations

import pytest

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

NOTES = [{"id": 31, "text": "alpha"}, {"id": 32, "text": "beta"}, {"id": 33, "text": "gamma"}]
MISSING = {"error": "not found"}


def notes_app(answer) -> HarBuilder:
    har = HarBuilder().call("GET", "/notes", response=NOTES)
    for note in NOTES:
        har = har.call("GET", f"/notes/{note['id']}", response=note)
    return (har.call("DELETE", "/notes/33", response=answer(33))
            .call("GET", "/notes/33", status=404, response=MISSING)
            .call("GET", "/notes", response=NOTES[:2])
            .call("DELETE", "/notes/32", response=answer(32))
            .call("GET", "/notes/32", status=404, response=MISSING)
            .call("GET", "/notes", response=NOTES[:1]))


@pytest.mark.parametrize("answer", [
    lambda i: {"message": f"removed note {i}", "status": "success"},
    lambda i: {"result": {"detail": f"note-{i} removed"}},
    lambda i: [f"{i}"],
])
def test_a_delete_answering_its_id_in_text_is_not_served(answer):
    delete = plan(build_from(notes_app(answer)), "DELETE", "/notes/{note_id}")
    assert (delete.served, delete.reason) == (False, "answer-names-call")
    verdict = next(e for e in delete.traces if e.rule_id == "verdict.answer-names-call")
    assert verdict.evidence["arguments"] == ["note_id"]


@pytest.mark.parametrize("answer", [
    lambda i: {"message": "removed", "status": "success"},
    lambda i: {"message": "freed 3331 bytes", "status": "success"},  # 33 only inside a longer number
])
def test_a_delete_whose_answer_names_no_argument_is_served(answer):
    delete = plan(build_from(notes_app(answer)), "DELETE", "/notes/{note_id}")
    assert delete.served, delete.reason
