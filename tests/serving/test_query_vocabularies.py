"""An equality filter on a field whose values come from a closed list (``view-query-vocabularies``):
the capture shows tickets holding ``state`` open or closed, filtered by each; a filter by a word the
capture never shows there is refused, saying which are accepted (the application may refuse it as
invalid, as Ironic answers 400 'Provision state "flying" is not valid', where the state would list
nothing); a shown word is answered from the state. A free-text field (``owner``) keeps answering
any value."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.interpreter.bundle.models import QuerySpec
from capenv.serving.reads.queries import unproven
from capenv.serving.runtime import EnvironmentRuntime

TICKETS = [{"id": 1, "title": "a", "state": "open", "owner": "ann"},
           {"id": 2, "title": "b", "state": "closed", "owner": "bob"},
           {"id": 3, "title": "c", "state": "open", "owner": "ann"}]


def capture() -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/tickets", response=TICKETS)
    for ticket in TICKETS:
        har.call("GET", f"/tickets/{ticket['id']}", response=ticket)
    for field, value in (("state", "open"), ("state", "closed"), ("owner", "ann"), ("owner", "bob")):
        har.call("GET", "/tickets", query=f"{field}={value}", response=[t for t in TICKETS if t[field] == value])
    har.call("GET", "/tickets", query="owner=cy", response=[])  # how the list answers a filter selecting nothing
    return har


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_from(capture(), tmp_path_factory.mktemp("b") / "capture.har")


def test_the_state_filter_keeps_its_words(bundle) -> None:
    (view,) = [v for v in bundle.view.views if v.kind == "list"]
    specs = {q.param: q for q in view.learned_queries}
    assert specs["state"].kind == "equals" and specs["state"].vocabulary == ("closed", "open")
    assert specs["owner"].vocabulary is None


def test_an_unshown_word_is_refused_and_a_shown_one_answered(bundle) -> None:
    runtime = EnvironmentRuntime(bundle)
    try:
        refused = runtime.call_tool("get_tickets", {"query": {"state": "flying"}})
        assert refused.is_error and "'closed', 'open'" in str(refused.structured), refused.structured
        answered = runtime.call_tool("get_tickets", {"query": {"state": "closed"}})
        assert not answered.is_error and [t["id"] for t in answered.structured["body"]] == [2]
        anyone = runtime.call_tool("get_tickets", {"query": {"owner": "zed"}})
        assert not anyone.is_error and anyone.structured["body"] == []
    finally:
        runtime.close()


def test_unproven_names_the_accepted_words() -> None:
    spec = QuerySpec(param="state", kind="equals", field="state", vocabulary=("closed", "open"))
    reason = unproven((spec,), (("state", "OPEN"),), {"state"})
    assert reason is not None and "'closed', 'open'" in reason
    assert unproven((spec,), (("state", "open"),), {"state"}) is None
