"""A member naming the entity in its item path (``sent-values.item-key-characters``): projects read
by id and by name (/projects/research), every name the capture shows lower-case letters, so a create
naming a project with a capital or a space (``Bad Name``, ``MyProject``) is refused, state unchanged,
saying which text is accepted (ZenML answers 422 to both), while ``nlp`` is served. Where the capture
shows a name with capitals created, capitals stay accepted (a space is still refused); where the
reads name projects by id only, the name names no item and is stored as sent, as before."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder
from support.served_calls import send_json, served_over_http, state_of

SEED = [{"id": 1, "name": "default", "display_name": "Default"},
        {"id": 2, "name": "research", "display_name": "Research"}]


def capture(second: str, by_name: bool) -> HarBuilder:
    """Two seeded projects read, two created (``vision`` and ``second``) and read back; ``by_name``:
    some reads name a project by its name."""
    har = HarBuilder()
    har.call("GET", "/projects", response=SEED)
    har.call("GET", "/projects/1", response=SEED[0])
    har.call("GET", "/projects/research" if by_name else "/projects/2", response=SEED[1])
    made = []
    for number, name in enumerate(("vision", second), start=3):
        project = {"id": number, "name": name, "display_name": name.title()}
        har.call("POST", "/projects", body={"name": name, "display_name": name.title()}, status=201,
                 response=project)
        har.call("GET", f"/projects/{name}" if by_name and number == 4 else f"/projects/{number}", response=project)
        made.append(project)
    har.call("GET", "/projects", response=SEED + made)
    return har


@pytest.fixture(scope="module", params=["lower", "capitals", "by-id"])
def built(request, tmp_path_factory):
    har = capture("MyProject" if request.param == "capitals" else "sandbox", by_name=request.param != "by-id")
    return request.param, build_from(har, tmp_path_factory.mktemp(request.param) / "capture.har")


def test_the_create_learns_the_key_characters(built) -> None:
    case, bundle = built
    create = plan(bundle, "POST", "/projects")
    assert create.served
    learned = [u for u in create.unproven_values if u.rule_id == "sent-values.item-key-characters"]
    if case == "by-id":
        assert learned == []
        return
    assert [u.member for u in learned] == ["name"]
    assert learned[0].schema_keywords["pattern"] == ("^[a-zA-Z]+$" if case == "capitals" else "^[a-z]+$")
    assert any(t.rule_id == "sent-values.item-key-characters" and t.outcome == "match" for t in create.traces)


def test_a_name_of_other_characters_is_refused(built) -> None:
    case, bundle = built
    with served_over_http(bundle) as serving:
        before = state_of(serving)
        status, answer = send_json(serving, "/projects", {"name": "Bad Name", "display_name": "Bad"})
        if case == "by-id":  # the name names no item: stored as sent, as before
            assert status == 201 and answer["name"] == "Bad Name", answer
            return
        assert status == 400, answer
        assert "'name'" in answer["message"] and "lower-case letters" in answer["message"], answer
        assert state_of(serving) == before
        status, answer = send_json(serving, "/projects", {"name": "OtherProject", "display_name": "Other"})
        if case == "capitals":  # the capture shows a name with capitals created
            assert status == 201 and answer["name"] == "OtherProject", answer
        else:
            assert status == 400 and "upper-case" not in answer["message"], answer
            assert state_of(serving) == before
        status, answer = send_json(serving, "/projects", {"name": "nlp", "display_name": "NLP"})
        assert status == 201 and answer["name"] == "nlp", answer
