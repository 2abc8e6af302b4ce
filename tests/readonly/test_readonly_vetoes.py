"""The vetoes that keep a POST tool a write although a way says it only reads, and the
fixed point the decision iterates to, on small synthetic HARs."""

from __future__ import annotations

from support.har_builder import HarBuilder

A = {"id": 1, "name": "a"}


def at(result, template):
    return next(v for v in result.tools if v.template == template)


def items_with_search() -> HarBuilder:
    """Two item reads, so the manifest makes ``/items/{item_id}`` a template (which relates to /items/search)."""
    return (HarBuilder()
            .call("GET", "/items/2", response={"id": 2})
            .call("GET", "/items/3", response={"id": 3}))


def test_a_quiet_search_stays_read_only(judge):
    har = (items_with_search()
           .call("GET", "/items/1", response=A)
           .call("POST", "/items/search", body={"q": "a"}, response=[A])
           .call("GET", "/items/1", response=A))
    verdict = at(judge(har), "/items/search")
    assert verdict.read_only and verdict.veto is None
    vetoes = {e.rule_id: e.reason for e in verdict.events if e.table == "readonly-vetoes"}
    assert vetoes["readonly.veto.related-read-changed"].startswith("1 related read pair(s) compared")


def test_a_redirected_call_is_vetoed(judge):
    har = (HarBuilder()
           .call("POST", "/items/search", body={}, response=[])
           .call("POST", "/items/search", body={}, status=302, redirect_url="/login", response=None))
    verdict = at(judge(har), "/items/search")
    assert not verdict.read_only
    assert (verdict.rule, verdict.veto) == ("readonly.query-word-path", "readonly.veto.redirected-or-unanswered")
    assert verdict.evidence == {"redirected": [2], "unanswered": []}


def test_an_unanswered_call_is_vetoed(judge):
    har = (HarBuilder()
           .call("POST", "/items/search", body={}, response=[])
           .call("POST", "/items/search", body={}, status=0, response=None))
    verdict = at(judge(har), "/items/search")
    assert verdict.veto == "readonly.veto.redirected-or-unanswered"
    assert verdict.evidence["unanswered"] == [2]


def test_a_related_read_that_changes_across_a_call_vetoes_it(judge):
    har = (items_with_search()
           .call("GET", "/items/1", response=A)
           .call("POST", "/items/search", body={"q": "a"}, response=[A])
           .call("GET", "/items/1", response={"id": 1, "name": "a", "searched": 1}))
    verdict = at(judge(har), "/items/search")
    assert not verdict.read_only and verdict.veto == "readonly.veto.related-read-changed"
    assert verdict.evidence == {"call": 4, "line": "GET /items/1", "before": 3, "after": 5, "statuses": [200, 200]}
    assert "vetoed by readonly.veto.related-read-changed" not in verdict.reason  # the reason names the veto plainly
    assert "readonly.veto.related-read-changed kept it a write" in verdict.reason


def test_a_parent_read_relates_too(judge):
    har = (HarBuilder()
           .call("GET", "/items", response=[A])
           .call("POST", "/items/search", body={"q": "a"}, response=[A])
           .call("GET", "/items", response=[]))
    assert at(judge(har), "/items/search").veto == "readonly.veto.related-read-changed"


def test_an_entity_found_on_one_side_only_vetoes(judge):
    har = (items_with_search()
           .call("GET", "/items/1", response=A)
           .call("POST", "/items/search", body={"q": "a"}, response=[A])
           .call("GET", "/items/1", status=404, response={"detail": "not found"}))
    verdict = at(judge(har), "/items/search")
    assert verdict.veto == "readonly.veto.related-entity-one-side"
    assert verdict.evidence["statuses"] == [200, 404]


def test_an_entity_appearing_after_a_call_vetoes(judge):
    har = (items_with_search()
           .call("GET", "/items/1", status=410, response={})
           .call("POST", "/items/search", body={"q": "a"}, response=[])
           .call("GET", "/items/1", response=A))
    assert at(judge(har), "/items/search").veto == "readonly.veto.related-entity-one-side"


def test_another_write_between_the_reads_explains_the_change(judge):
    har = (items_with_search()
           .call("GET", "/items/1", response=A)
           .call("POST", "/items/search", body={"q": "a"}, response=[A])
           .call("PATCH", "/items/1", body={"name": "b"}, response={"id": 1, "name": "b"})
           .call("GET", "/items/1", response={"id": 1, "name": "b"}))
    verdict = at(judge(har), "/items/search")
    assert verdict.read_only
    vetoes = {e.rule_id: e.reason for e in verdict.events if e.table == "readonly-vetoes"}
    assert "1 pair(s) had another write between" in vetoes["readonly.veto.related-read-changed"]


def test_a_write_before_the_last_read_does_not_spoil_the_pair(judge):
    har = (items_with_search()
           .call("PATCH", "/items/1", body={"name": "a"}, response=A)
           .call("GET", "/items/1", response=A)
           .call("POST", "/items/search", body={"q": "a"}, response=[A])
           .call("GET", "/items/1", status=404, response={}))
    assert at(judge(har), "/items/search").veto == "readonly.veto.related-entity-one-side"


def test_a_read_overlapping_the_call_is_neither_side(judge):
    """The read that began during the call may show either state: the after side is the first
    read that began once the call ended, and it reads as before."""
    har = (items_with_search()
           .call("GET", "/items/1", response=A, started="2026-01-01T00:00:01.000Z", duration_ms=10)
           .call("POST", "/items/search", body={"q": "a"}, response=[A],
                 started="2026-01-01T00:00:02.000Z", duration_ms=500)
           .call("GET", "/items/1", response={"id": 1, "name": "mid"},
                 started="2026-01-01T00:00:02.100Z", duration_ms=10)
           .call("GET", "/items/1", response=A, started="2026-01-01T00:00:03.000Z", duration_ms=10))
    assert at(judge(har), "/items/search").read_only


def test_reads_of_unrelated_paths_do_not_count(judge):
    """A session renewal stays read-only although an endpoint under the same root regenerates
    values on every read; the collection it belongs to does relate."""
    har = (HarBuilder()
           .call("GET", "/api/realtime", response={"clientId": "c1"})
           .call("GET", "/api/collections/users", response={"name": "users"})
           .call("POST", "/api/collections/users/auth-refresh", response={"token": "t1"})
           .call("GET", "/api/realtime", response={"clientId": "c2"})
           .call("GET", "/api/collections/users", response={"name": "users"}))
    verdict = at(judge(har), "/api/collections/users/auth-refresh")
    assert verdict.read_only and verdict.rule == "readonly.session-path"
    lines = {e.reason for e in verdict.events if e.rule_id == "readonly.veto.related-read-changed"}
    assert lines == {"1 related read pair(s) compared; each reads the same on both sides"}

    har.call("POST", "/api/collections/users/auth-refresh", response={"token": "t2"})
    har.call("GET", "/api/collections/users", response={"name": "users", "logins": 1})
    assert at(judge(har), "/api/collections/users/auth-refresh").veto == "readonly.veto.related-read-changed"


def test_other_read_only_calls_are_no_writes_between_so_both_tools_are_vetoed(judge):
    """Two read-only tools between the same two reads: neither call counts as the other's
    write, so each is vetoed, and both are dropped in the same round (nothing shows which)."""
    har = (HarBuilder()
           .call("GET", "/items", response=[A])
           .call("POST", "/items/search", body={}, response=[A])
           .call("POST", "/items/count", body={}, response=1)
           .call("GET", "/items", response=[]))
    result = judge(har)
    assert {at(result, t).veto for t in ("/items/search", "/items/count")} == {"readonly.veto.related-read-changed"}
    assert [(r.round, r.vetoed) for r in result.rounds][0] == (1, tuple(sorted(v.tool for v in result.tools)))


def test_the_fixed_point_drops_a_tool_once_another_is_dropped(judge):
    """A search tool is vetoed (its related list read changed across its call). A status lookup
    answered as the GET before it only while the search call between them counted as no write:
    once the search is dropped its call is a write, the lookup loses way 1 in the next round
    and is dropped too. The third round drops nothing: the fixed point.

    (A drop can only *remove* vetoes from the others — their read pairs gain a write between —
    so a cascade of drops runs through way 1's "no write between", as here.)"""
    har = (HarBuilder()
           .call("GET", "/things", response=[1])
           .call("GET", "/jobs/status", response=JOBS_)
           .call("POST", "/things/search", body={}, response=[1])
           .call("POST", "/jobs/status", body={"ids": [1]}, response=JOBS_)
           .call("GET", "/things", response=[1, 2]))
    result = judge(har)
    search, lookup = at(result, "/things/search"), at(result, "/jobs/status")
    assert (search.read_only, search.veto, search.decided_in_round) == (False, "readonly.veto.related-read-changed", 1)
    assert (lookup.read_only, lookup.rule, lookup.veto, lookup.decided_in_round) == (False, None, None, 2)
    assert lookup.first_rule == "readonly.answers-as-get"
    assert "matched in round 1, before other tools were dropped and their calls became writes" in lookup.reason
    assert "write #3 may fall between GET #2 and the call" in lookup.reason
    rounds = [(r.round, r.considered, r.no_way, r.vetoed, r.vetoes_tried) for r in result.rounds]
    assert rounds == [
        (1, (lookup.tool, search.tool), (), (search.tool,), True),
        (2, (lookup.tool,), (lookup.tool,), (), False),
        (3, (), (), (), True),
    ]
    # each round keeps its own trace: round 1 the lookup matched way 1, round 2 it missed
    round_1 = [e for e in result.rounds[0].events if e.subject == lookup.tool and e.rule_id == "readonly.answers-as-get"]
    round_2 = [e for e in result.rounds[1].events if e.subject == lookup.tool and e.rule_id == "readonly.answers-as-get"]
    assert [e.outcome for e in round_1 + round_2] == ["match", "miss"]


def test_without_the_vetoed_tool_the_lookup_stays_read_only(judge):
    """The same capture, the search quiet: nothing is dropped, both only read."""
    har = (HarBuilder()
           .call("GET", "/things", response=[1])
           .call("GET", "/jobs/status", response=JOBS_)
           .call("POST", "/things/search", body={}, response=[1])
           .call("POST", "/jobs/status", body={"ids": [1]}, response=JOBS_)
           .call("GET", "/things", response=[1]))
    result = judge(har)
    assert set(result.read_only_tools) == {v.tool for v in result.tools}
    assert len(result.rounds) == 1


JOBS_ = {"jobs": [{"id": 1, "state": "done"}]}


def test_a_create_answered_201_at_a_collection_named_like_a_query_stays_a_write(judge):
    """``/reading_list`` ends in the query word list, but a 201 says the call made a resource: the
    veto needs no related read around it (here another collection's write falls between)."""
    har = (HarBuilder()
           .call("GET", "/reading_list", response=[A])
           .call("GET", "/reading_list/1", response=A)
           .call("POST", "/notes", body={"text": "x"}, status=201, response={"id": 7, "text": "x"})
           .call("POST", "/reading_list", body={"name": "b"}, status=201, response={"id": 2, "name": "b"})
           .call("GET", "/reading_list/2", response={"id": 2, "name": "b"}))
    verdict = at(judge(har), "/reading_list")
    assert not verdict.read_only
    assert (verdict.rule, verdict.veto) == ("readonly.query-word-path", "readonly.veto.answered-created")
    assert verdict.evidence == {"calls": [4]}


def test_a_search_answered_200_is_not_vetoed_by_its_status(judge):
    har = (HarBuilder()
           .call("POST", "/items/search", body={"q": "a"}, response=[A])
           .call("POST", "/items/search", body={"q": "b"}, response=[]))
    verdict = at(judge(har), "/items/search")
    assert verdict.read_only and verdict.veto is None


def created_at_a_query_word_path(answer: dict, *, listed_before: bool = False) -> HarBuilder:
    """A POST to a collection whose last word is a query word (``watch_list``), answered 200 with
    ``answer``; the item read of the answer's id after it."""
    har = (HarBuilder()
           .call("GET", "/api/watch_list/1", response={"id": 1, "name": "a"})
           .call("GET", "/api/watch_list/2", response={"id": 2, "name": "b"}))
    if listed_before:
        har.call("GET", "/api/watch_list", response=[{"id": 1, "name": "a"}, {"id": 3, "name": "q"}])
    return (har.call("POST", "/api/watch_list", body={"name": "q"}, response=answer)
            .call("GET", "/api/watch_list/3", response={"id": 3, "name": "q"}))


def test_a_create_answered_200_at_a_query_word_path_is_vetoed(judge):
    """The answer's id 3, shown by nothing before, is read at the collection's path plus 3 after
    the call: the call made it, though it answered 200 (replayed as a read, a repeat would answer
    the recorded entity where the application makes another)."""
    verdict = at(judge(created_at_a_query_word_path({"id": 3, "name": "q"})), "/api/watch_list")
    assert (verdict.rule, verdict.veto) == ("readonly.query-word-path", "readonly.veto.answered-new-identity")
    assert verdict.evidence == {"call": 3, "member": "id", "identity": "3", "read": 4}


def test_an_entity_listed_before_the_call_is_no_new_identity(judge):
    har = created_at_a_query_word_path({"id": 3, "name": "q"}, listed_before=True)
    verdict = at(judge(har), "/api/watch_list")
    assert verdict.read_only
    reason = next(e.reason for e in verdict.events if e.rule_id == "readonly.veto.answered-new-identity")
    assert "none answered an identity new at its path" in reason


def test_a_session_answer_is_left_to_the_session_ways(judge):
    """A login answering the person it signed in beside a token, read after it, made nothing."""
    har = created_at_a_query_word_path({"user": {"id": 3, "name": "q"}, "access_token": "t0k3n"})
    verdict = at(judge(har), "/api/watch_list")
    assert verdict.read_only
