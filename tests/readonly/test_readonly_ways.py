"""The ways a POST tool shows it only reads, each matching and not, on small synthetic HARs."""

from __future__ import annotations

from support.har_builder import HarBuilder

JOBS = {"jobs": [{"id": 1, "state": "done"}, {"id": 2, "state": "queued"}]}


def at(result, template):
    """The verdict of the POST tool with this template."""
    return next(v for v in result.tools if v.template == template)


def misses(verdict):
    return {e.rule_id: e.reason for e in verdict.events if e.outcome == "miss"}


# -- way 1: answers as the GET of its path ------------------------------------------------

def test_a_status_lookup_answering_as_the_get_before_it_only_reads(judge):
    har = (HarBuilder()
           .call("GET", "/jobs/status", response=JOBS)
           .call("POST", "/jobs/status", body={"ids": [1, 2]},
                 response={"jobs": [{"state": "done", "id": 1}, {"id": 2, "state": "queued"}]}))
    verdict = at(judge(har), "/jobs/status")
    assert verdict.read_only and verdict.rule == "readonly.answers-as-get"
    assert verdict.evidence == {"calls_and_gets": [[2, 1]]}


def test_way_1_compares_with_the_get_that_finished_last_before_the_call(judge):
    har = (HarBuilder()
           .call("GET", "/jobs/status", response={"jobs": []})
           .call("GET", "/jobs/status", response=JOBS)
           .call("POST", "/jobs/status", body={"ids": [1, 2]}, response=JOBS))
    assert at(judge(har), "/jobs/status").rule == "readonly.answers-as-get"


def test_an_answer_unlike_the_get_before_it_is_no_read(judge):
    har = (HarBuilder()
           .call("GET", "/jobs/status", response=JOBS)
           .call("POST", "/jobs/status", body={"ids": [1]}, response={"jobs": [{"id": 1, "state": "done"}]}))
    verdict = at(judge(har), "/jobs/status")
    assert not verdict.read_only and verdict.rule is None
    assert misses(verdict)["readonly.answers-as-get"] == "call #2 answers otherwise than GET #1"


def test_a_write_between_the_get_and_the_call_spoils_way_1(judge):
    har = (HarBuilder()
           .call("GET", "/jobs/status", response=JOBS)
           .call("PUT", "/jobs/1", body={"state": "done"}, response={"id": 1, "state": "done"})
           .call("POST", "/jobs/status", body={"ids": [1, 2]}, response=JOBS))
    verdict = at(judge(har), "/jobs/status")
    assert not verdict.read_only
    assert misses(verdict)["readonly.answers-as-get"] == "call #3: write #2 may fall between GET #1 and the call"


def test_a_write_answered_4xx_changed_nothing_so_it_falls_between_nothing(judge):
    har = (HarBuilder()
           .call("GET", "/jobs/status", response=JOBS)
           .call("PUT", "/jobs/9", body={"state": "done"}, status=404, response={"detail": "not found"})
           .call("POST", "/jobs/status", body={"ids": [1, 2]}, response=JOBS))
    assert at(judge(har), "/jobs/status").rule == "readonly.answers-as-get"


def test_a_write_overlapping_the_get_may_fall_between(judge):
    har = (HarBuilder()
           .call("GET", "/jobs/status", response=JOBS, started="2026-01-01T00:00:00.000Z", duration_ms=50)
           .call("PUT", "/jobs/1", body={"state": "x"}, response={"id": 1},
                 started="2026-01-01T00:00:00.010Z", duration_ms=10)
           .call("POST", "/jobs/status", body={}, response=JOBS, started="2026-01-01T00:00:01.000Z"))
    assert not at(judge(har), "/jobs/status").read_only


def test_no_get_before_the_call_is_no_way_1(judge):
    har = (HarBuilder()
           .call("POST", "/jobs/status", body={"ids": [1, 2]}, response=JOBS)
           .call("GET", "/jobs/status", response=JOBS))
    verdict = at(judge(har), "/jobs/status")
    assert not verdict.read_only
    assert "no successful GET of its path" in misses(verdict)["readonly.answers-as-get"]


def test_failed_calls_are_passed_over_by_way_1(judge):
    har = (HarBuilder()
           .call("GET", "/jobs/status", response=JOBS)
           .call("POST", "/jobs/status", body={"ids": "x"}, status=422, response={"detail": "bad ids"})
           .call("POST", "/jobs/status", body={"ids": [1, 2]}, response=JOBS))
    assert at(judge(har), "/jobs/status").rule == "readonly.answers-as-get"


# -- way 2: read operations -----------------------------------------------------------------

def test_a_body_operation_that_reads(judge):
    har = HarBuilder().call("POST", "/rpc", body={"operation": "listItems", "limit": 5}, response=[])
    verdict = at(judge(har), "/rpc")
    assert verdict.read_only and verdict.rule == "readonly.read-operations"
    assert verdict.evidence["operations"] == ["listItems"]


def test_a_query_action_when_the_body_names_none(judge):
    har = (HarBuilder()
           .call("POST", "/rpc", query={"action": "get_schema"}, response={})
           .call("POST", "/rpc", query={"op": "describe"}, body={"table": "t"}, response={}))
    assert at(judge(har), "/rpc").rule == "readonly.read-operations"


def test_every_call_must_read(judge):
    har = (HarBuilder()
           .call("POST", "/rpc", body={"operation": "find"}, response=[])
           .call("POST", "/rpc", body={"operation": "findAndModify"}, response={}))
    verdict = at(judge(har), "/rpc")
    assert not verdict.read_only
    assert misses(verdict)["readonly.read-operations"] == "call #2: operation 'findAndModify' holds the write word 'modify'"


def test_find_one_and_replace_stays_a_write(judge):
    har = HarBuilder().call("POST", "/rpc", body={"operation": "findOneAndReplace"}, response={})
    assert "'replace'" in misses(at(judge(har), "/rpc"))["readonly.read-operations"]


def test_a_batch_of_get_operations_reads(judge):
    har = HarBuilder().call("POST", "/db", body={"operation": "batch", "operations": [
        {"operation": "get", "key": "a"}, {"operation": "getItem", "key": "b"}]}, response=[{}, {}])
    verdict = at(judge(har), "/db")
    assert verdict.read_only and verdict.rule == "readonly.read-operations"
    assert verdict.evidence["operations"] == ["get", "getItem"]


def test_a_batch_wrapper_in_the_query_wraps_the_body_operations(judge):
    har = HarBuilder().call("POST", "/db", query={"op": "batch"},
                            body={"operations": [{"operation": "count"}]}, response=[3])
    assert at(judge(har), "/db").rule == "readonly.read-operations"


def test_a_batch_with_one_write_operation_does_not_read(judge):
    har = HarBuilder().call("POST", "/db", body={"operation": "batch", "operations": [
        {"operation": "get", "key": "a"}, {"operation": "putItem", "key": "b"}]}, response=[{}, {}])
    verdict = at(judge(har), "/db")
    assert not verdict.read_only
    assert "'putItem' holds the write word 'put'" in misses(verdict)["readonly.read-operations"]


def test_an_entry_without_an_operation_keeps_the_batch_a_write(judge):
    har = HarBuilder().call("POST", "/db", body={"operation": "batch", "operations": [
        {"operation": "get"}, {"key": "b"}]}, response=[{}, {}])
    verdict = at(judge(har), "/db")
    assert not verdict.read_only
    assert "operations[1] names no string 'operation'" in misses(verdict)["readonly.read-operations"]


def test_a_batch_wrapping_nothing_else_is_no_read(judge):
    har = HarBuilder().call("POST", "/db", body={"operation": "batch"}, response=[])
    assert "names only wrappers" in misses(at(judge(har), "/db"))["readonly.read-operations"]


# -- way 3: a query word in the path ----------------------------------------------------------

def test_query_words_in_the_last_segment(judge):
    har = (HarBuilder()
           .call("POST", "/api/items/search", body={"q": "x"}, response=[])
           .call("POST", "/api/selection_data", body={}, response=[])
           .call("POST", "/api/query-history", body={}, response={})
           .call("POST", "/api/create_lookup", body={}, response={})
           .call("POST", "/api/selection_data/import", body={}, response={}))
    result = judge(har)
    assert at(result, "/api/items/search").rule == "readonly.query-word-path"
    assert at(result, "/api/selection_data").evidence == {"segment": "selection_data", "query_word": "selection"}
    for template, why in [("/api/query-history", "names 'history'"), ("/api/create_lookup", "write word 'create'"),
                          ("/api/selection_data/import", "'import'")]:
        verdict = at(result, template)
        assert not verdict.read_only, template
        assert why in misses(verdict)["readonly.query-word-path"], template


# -- way 4: a session segment -------------------------------------------------------------------

def test_a_session_renewal_only_reads(judge):
    har = (HarBuilder()
           .call("POST", "/api/collections/users/auth-refresh", response={"token": "t1"})
           .call("POST", "/api/collections/users/auth-with-password", body={"identity": "a", "password": "b"},
                 response={"token": "t2"})
           .call("POST", "/api/register", body={"email": "a@b"}, response={"id": 1}))
    result = judge(har)
    assert at(result, "/api/collections/users/auth-refresh").rule == "readonly.session-path"
    assert at(result, "/api/collections/users/auth-with-password").rule == "readonly.session-path"
    register = at(result, "/api/register")
    assert not register.read_only
    assert misses(register)["readonly.session-path"] == "'register' is not a session segment"


def test_a_login_named_by_its_provider_only_reads_when_it_answers_credentials_alone(judge):
    """Medusa's `POST /auth/user/emailpass` answers `{token}`: a session opened under /auth whose
    last segment names the provider, not the session; a token create outside /auth stays a write,
    and so does a call under /auth answering an entity beside the token."""
    har = (HarBuilder()
           .call("POST", "/auth/user/emailpass", body={"email": "a@b", "password": "c"}, response={"token": "t1"})
           .call("POST", "/auth/user/emailpass", body={"email": "a@b", "password": "x"}, status=401,
                 response={"type": "unauthorized", "message": "Invalid email or password"})
           .call("POST", "/auth/customer/register", body={"email": "a@b"}, response={"token": "t2", "customer": {"id": 1}})
           .call("POST", "/api/tokens", body={"name": "ci"}, response={"token": "t3"}))
    result = judge(har)
    assert at(result, "/auth/user/emailpass").rule == "readonly.session-answer"
    register = at(result, "/auth/customer/register")
    assert not register.read_only
    assert "no credential member" in misses(register)["readonly.session-answer"]
    tokens = at(result, "/api/tokens")
    assert not tokens.read_only
    assert "no literal segment" in misses(tokens)["readonly.session-answer"]


def test_a_login_answering_its_token_beside_a_status_only_reads(judge):
    """Every answer as ``{"code": 0, "msg": "ok", "data": …}`` (found by a metamorphic check: a
    capture so rewritten took its login for a write, so no read fell in the initial window and none
    was answered from the state); a registration answering an entity in that envelope stays a write."""
    def ok(data: dict) -> dict:
        return {"code": 0, "msg": "ok", "data": data}
    har = (HarBuilder()
           .call("POST", "/auth/user/emailpass", body={"email": "a@b", "password": "c"}, response=ok({"token": "t1"}))
           .call("POST", "/auth/customer/register", body={"email": "a@b"},
                 response=ok({"token": "t2", "customer": {"id": 1}})))
    result = judge(har)
    assert at(result, "/auth/user/emailpass").rule == "readonly.session-answer"
    register = at(result, "/auth/customer/register")
    assert not register.read_only
    assert "no credential member" in misses(register)["readonly.session-answer"]


# -- order and trace --------------------------------------------------------------------------

def test_the_first_way_that_applies_decides_and_the_trace_shows_the_ones_before(judge):
    har = (HarBuilder()
           .call("GET", "/items/search", response=[1])
           .call("POST", "/items/search", body={}, response=[1])
           .call("POST", "/items/count", body={"operation": "getCount"}, response=1))
    result = judge(har)
    assert at(result, "/items/search").rule == "readonly.answers-as-get"
    count = at(result, "/items/count")
    assert count.rule == "readonly.read-operations"
    ways = [(e.rule_id, e.outcome) for e in count.events if e.table == "readonly-ways"]
    assert ways == [("readonly.answers-as-get", "miss"), ("readonly.read-operations", "match")]
    assert all(e.location.startswith("rules/readonly-ways.yaml:") for e in count.events if e.table == "readonly-ways")


def test_no_way_leaves_a_write_with_every_miss_in_its_trace(judge):
    har = HarBuilder().call("POST", "/posts", body={"title": "a"}, status=201, response={"id": 1, "title": "a"})
    verdict = at(judge(har), "/posts")
    assert not verdict.read_only and verdict.rule is None and verdict.veto is None
    assert list(misses(verdict)) == ["readonly.answers-as-get", "readonly.read-operations",
                                     "readonly.query-word-path", "readonly.session-path",
                                     "readonly.session-answer"]
    assert [e.outcome for e in verdict.events][-1] == "default"
    assert verdict.reason.startswith("no way shows it only reads in round 1:")


def test_only_post_tools_are_judged(judge):
    har = (HarBuilder().call("GET", "/items", response=[])
           .call("PUT", "/items/search", body={}, response={})
           .call("POST", "/items/search", body={}, response=[]))
    result = judge(har)
    assert [v.template for v in result.tools] == ["/items/search"]
    assert result.report_rows() == [{"tool": result.tools[0].tool, "rule": "readonly.query-word-path"}]


def test_read_only_rules_maps_each_read_only_tool_to_its_way(judge):
    har = (HarBuilder().call("POST", "/items/search", body={}, response=[])
           .call("POST", "/items", body={"a": 1}, status=201, response={"id": 1}))
    result = judge(har)
    assert result.read_only_rules() == {at(result, "/items/search").tool: "readonly.query-word-path"}
