"""An item read sent with a query is no absence evidence (``absence.query-scoped``): the query may
scope the lookup and be worded into the answer (Mistral's ``?namespace=team`` answers "Workflow not
found [workflow_identifier=purge, namespace=team]" where a read without it names ``namespace=``), so
it neither splits the wording the application gives a missing id nor lends it; and a call sending a
query parameter none of the absence evidence sent is refused rather than answered the learned
absence (``GuardedReplay._refuse_unproven_query``)."""

from __future__ import annotations

import pytest
from support.har_builder import HarBuilder
from support.capture_runs import build_from

from capenv.serving.runtime import EnvironmentRuntime

FLOWS = [{"id": "backup", "namespace": ""}, {"id": "notify", "namespace": ""}]


def missing(name: str, namespace: str = "") -> dict:
    return {"faultcode": "Client", "faultstring": f"Flow not found [flow_identifier={name}, namespace={namespace}]"}


@pytest.fixture(scope="module")
def runtime():
    har = (HarBuilder()
           .call("GET", "/flows", response=FLOWS)
           .call("GET", "/flows/backup", response=FLOWS[0])
           .call("GET", "/flows/notify", response=FLOWS[1])
           .call("GET", "/flows/deploy", status=404, response=missing("deploy"))
           .call("GET", "/flows/purge", query="namespace=team", status=404, response=missing("purge", "team"))
           .call("DELETE", "/flows/notify", status=204)
           .call("GET", "/flows/notify", status=404, response=missing("notify"))
           .call("GET", "/flows", response=FLOWS[:1]))
    return EnvironmentRuntime(build_from(har))


def test_the_queried_read_does_not_split_the_learned_wording(runtime):
    answer = runtime.read("get_flows_by_flow_id", {"flow_id": "rollback"})
    assert (answer.get("status"), answer.get("body")) == (404, missing("rollback")), answer


def test_a_call_with_a_query_the_absence_evidence_never_sent_is_refused(runtime):
    answer = runtime.read("get_flows_by_flow_id", {"flow_id": "rollback", "query": {"namespace": "team"}})
    assert answer.get("error") == "refused" and "namespace" in answer["message"], answer
