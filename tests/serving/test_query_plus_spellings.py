"""A query value is read form-decoded, as applications read query strings: a recorded
``label=tech+support`` is "tech support", a call's ``tech%2Bsupport`` is "tech+support", another
value, never answered with the recording of the first."""

from __future__ import annotations

import json

import pytest
from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.reads.call_match import same_query_multiset, same_value
from capenv.serving.runtime import EnvironmentRuntime
from capenv.serving.runtime_api import HttpRequest

TICKETS = [{"id": 1, "label": "tech support"}, {"id": 2, "label": "sales"}, {"id": 3, "label": "tech+support"}]


@pytest.fixture(scope="module")
def runtime():
    har = (HarBuilder()
           .call("GET", "/tickets", response=TICKETS)
           .call("GET", "/tickets", query="label=tech+support", response=[TICKETS[0]]))
    return EnvironmentRuntime(build_from(har))


@pytest.mark.parametrize(("sent", "ids"), [("tech+support", [1]), ("tech%20support", [1]),
                                           ("tech%2Bsupport", [3])])  # once: the recording of "tech support"
def test_an_http_call_names_the_value_its_spelling_means(runtime, sent, ids):
    answer = runtime.http(HttpRequest("GET", "/tickets", (("label", sent),), (), b""))
    assert answer.status == 200 and [t["id"] for t in json.loads(answer.body)] == ids


def test_values_compare_as_written_or_form_decoded_only():
    assert same_value("tech+support", "tech%20support") and same_value("carol%2Cdave", "carol,dave")
    assert not same_value("id+DESC", "id%2BDESC")
    assert not same_query_multiset((("sort", "id+DESC"),), (("sort", "id%2BDESC"),))
    assert same_query_multiset((("sort", "id+DESC"),), (("sort", "id%20DESC"),))


@pytest.mark.parametrize(("value", "ids"), [("tech support", [1]), ("tech+support", [3]), ("tech%2Bsupport", [3]),
                                            ("tech%20support", [1])])
def test_an_mcp_value_is_the_value_as_written(runtime, value, ids):
    """The schema shows values decoded, so an agent's "+" is a plus (a time zone, an address), never a
    form-encoded space; an escape copied from a link still reads as one."""
    answer = runtime.call_tool("get_tickets", {"query": {"label": value}})
    assert [t["id"] for t in answer.structured["body"]] == ids
