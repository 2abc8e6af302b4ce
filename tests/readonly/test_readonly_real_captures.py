"""Acceptance on the real captures: what the spec's rules say about their POST tools."""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.interpreter.evidence.har import load_evidence
from capenv.interpreter.manifest.infer import build_manifest
from capenv.interpreter.predicates.readonly_contexts import WayCall, WaysContext
from capenv.interpreter.readonly import classify_read_only_posts
from capenv.interpreter.readonly.contexts import vetoes_context
from capenv.interpreter.readonly.timeline import Timeline
from capenv.interpreter.rules_engine import Match, Miss, evaluate, evaluate_rule

CAPTURES = Path(__file__).resolve().parents[2] / "captures"


@pytest.fixture(scope="module")
def judged(ruleset):
    cache = {}

    def run(app):
        if app not in cache:
            evidence = load_evidence(CAPTURES / app / "capture.har")
            manifest = build_manifest(evidence, ruleset)
            cache[app] = (evidence, manifest, classify_read_only_posts(evidence, manifest, ruleset))
        return cache[app]

    return run


def at(result, template):
    return next(v for v in result.tools if v.template == template)


def misses(verdict):
    return {e.rule_id: e.reason for e in verdict.events if e.outcome == "miss"}


# -- Kinto --------------------------------------------------------------------------------------

def test_kinto_batch_is_a_write_because_no_way_names_its_calls(judged):
    """``POST /v1/batch`` has two calls: #114 batches three GETs, #115 batches POST, PATCH,
    DELETE and PUT sub-requests. The spec reads operations only from ``operation`` /
    ``operations[].operation`` (or the query's operation, op, action); Kinto names its
    sub-requests by ``requests[].method`` (and ``defaults.method``), so neither call names an
    operation and way 2 misses on the very first call, the read-only one. Ways 1, 3 and 4 miss
    too (no GET of /v1/batch; ``batch`` is no query word and no session segment). The whole tool
    is a write, and no veto was needed for it."""
    _, _, result = judged("kinto")
    verdict = at(result, "/v1/batch")
    assert (verdict.read_only, verdict.rule, verdict.veto) == (False, None, None)
    reasons = misses(verdict)
    assert reasons["readonly.answers-as-get"] == "call #114: no successful GET of its path finished before it began"
    assert reasons["readonly.read-operations"].startswith("call #114: names no operation")
    assert reasons["readonly.query-word-path"] == "'batch' names 'batch', not a query word"
    assert reasons["readonly.session-path"] == "'batch' is not a session segment"


def test_kinto_batch_would_still_be_a_write_if_its_methods_named_operations(judged, ruleset):
    """Read the sub-requests' methods as operation names (a reading the spec does not make):
    #114 names get, get, get and reads, but #115 names post, post, patch, delete, put, and a
    tool reads by way 2 only when *every* call names read operations only. So the one writing
    call makes the whole tool a write."""
    evidence, manifest, _ = judged("kinto")
    calls = []
    for ordinal in manifest.tool("post_batch").record_ordinals:
        record = next(r for r in evidence.records if r.ordinal == ordinal)
        body = record.request.json_value
        default = body.get("defaults", {}).get("method", "GET")
        operations = [{"operation": sub.get("method", default)} for sub in body["requests"]]
        calls.append(WayCall(ordinal=ordinal, body={"operations": operations}))
    rule = ruleset.table("readonly-ways").rule("readonly.read-operations")
    first_only = evaluate_rule(rule, WaysContext(template="/v1/batch", calls=calls[:1]))
    assert isinstance(first_only, Match) and first_only.evidence["operations"] == ["GET"]
    both = evaluate_rule(rule, WaysContext(template="/v1/batch", calls=calls))
    assert isinstance(both, Miss)
    assert both.reason == "call #115: operation 'POST' holds the write word 'post'"


def test_kinto_has_no_read_only_post(judged):
    _, _, result = judged("kinto")
    assert result.read_only_tools == ()


# -- Prefect -----------------------------------------------------------------------------------

QUERY_ENDPOINTS = ("filter", "count", "paginate")


def test_prefect_filter_count_and_paginate_are_read_only_by_their_path_word(judged):
    _, manifest, result = judged("prefect")
    expected = {t.name for t in manifest.tools if t.method == "POST" and t.template.rsplit("/", 1)[1] in QUERY_ENDPOINTS}
    assert {"post_flows_filter", "post_flows_count", "post_flows_paginate"} <= expected
    assert set(result.read_only_tools) == expected
    for name in expected:
        verdict = result.verdict(name)
        assert (verdict.rule, verdict.veto) == ("readonly.query-word-path", None), name
        assert verdict.evidence["query_word"] in QUERY_ENDPOINTS


@pytest.mark.parametrize("template, why", [
    ("/api/flows/bulk_delete", "holds the write word 'delete'"),
    ("/api/flow_runs/{flow_run_id}/set_state", "holds the write word 'set'"),
    ("/api/v2/concurrency_limits/increment", "holds the write word 'increment'"),
    ("/api/deployments/{deployment_id}/pause_deployment", "holds the write word 'pause'"),
    ("/api/deployments/get_scheduled_flow_runs", "names 'runs', not a query word"),
    ("/api/work_pools/{work_pool_id}/get_scheduled_flow_runs", "names 'runs', not a query word"),
])
def test_prefect_actions_are_writes(judged, template, why):
    _, _, result = judged("prefect")
    verdict = at(result, template)
    assert (verdict.read_only, verdict.rule, verdict.veto) == (False, None, None)
    assert why in misses(verdict)["readonly.query-word-path"]


@pytest.mark.parametrize("template", ["/api/deployments/get_scheduled_flow_runs",
                                      "/api/work_pools/{work_pool_id}/get_scheduled_flow_runs"])
def test_prefect_get_scheduled_flow_runs_side_effect_is_out_of_the_vetoes_sight(judged, ruleset, template):
    """get_scheduled_flow_runs marks deployments polled (README: #190's ``POST /deployments/filter``
    shows ``last_polled`` and ``READY``). The vetoes would not catch that: they compare GET lines
    only, and that change shows in a read-only POST's answer; the related GET lines read around
    the calls (``/api/deployments/{id}``, ``/api/work_pools/{name}``) have other writes between
    their two reads, so they show nothing; their calls answered 200, not 201 Created. The tool is a
    write only because no way names it."""
    evidence, manifest, result = judged("prefect")
    tool = next(t for t in manifest.tools if t.method == "POST" and t.template == template)
    timeline = Timeline(evidence, manifest, tuple(ruleset.setting("readonly", "unchanged_write_status_range")))
    context = vetoes_context(tool, timeline, timeline.writes(frozenset(result.read_only_tools)))
    assert context.observations and all(obs.writes_between for obs in context.observations)
    decision = evaluate(ruleset, "readonly-vetoes", context, subject=tool.name)
    assert decision.matched == ()
    assert all("had another write between" in e.reason for e in decision.events
               if e.rule_id not in ("readonly.veto.redirected-or-unanswered", "readonly.veto.answered-created",
                                   "readonly.veto.answered-new-identity"))


def test_prefect_creates_and_upserts_are_writes(judged):
    _, _, result = judged("prefect")
    for template in ("/api/flows/", "/api/variables/", "/api/deployments/", "/api/flow_runs/"):
        assert not at(result, template).read_only, template


# -- json-server -------------------------------------------------------------------------------

def test_json_server_has_no_read_only_post(judged):
    _, _, result = judged("json-server")
    assert result.tools and result.read_only_tools == ()
    profile = at(result, "/profile")  # answers what it was sent, not what GET /profile showed before
    assert misses(profile)["readonly.answers-as-get"] == "call #101 answers otherwise than GET #100"
