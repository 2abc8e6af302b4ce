"""Query spellings of real APIs (issue 16, "Better still, learn the query"): bracketed filters
(``filters[title][$eq]``, ``filter[status]``, ``filters[name][$in][0]``), sorts with a direction
suffix (``views:desc``), a ``-`` prefix and several keys (``ordering=-views,title``), indexed
sorts (``sort[0]``), bracketed paging (``pagination[page]``, ``page[size]``). Each is learned only
where a recording proves it, names compared decoded, and answered from the state after a served
create; a candidate whose evaluation differs from the recording is dropped, and the read is then
refused once the state has left its recording behind."""

from __future__ import annotations

from urllib.parse import quote

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

A1, A2, A3 = ({"id": n, "title": t, "views": v, "status": s}
              for n, t, v, s in ((1, "alpha", 10, "open"), (2, "Beta notes", 3, "done"), (3, "gamma", 7, "open")))
NEW = {"id": 4, "title": "delta", "views": 0, "status": "open"}


def listing(items: list) -> dict:
    return {"data": items}


def encoded(query: str) -> str:
    """The query as an HTTP client sends it: brackets and $ percent-encoded."""
    return "&".join("=".join(quote(part, safe="") for part in pair.split("=", 1)) for pair in query.split("&"))


def capture(*queries: tuple[str, list]) -> HarBuilder:
    har = (HarBuilder()
           .call("GET", "/articles", response=listing([A1, A2, A3]))
           .call("GET", "/articles/1", response={"data": A1}))
    for query, answer in queries:
        har.call("GET", "/articles", query=encoded(query), response=listing(answer))
    return (har.call("POST", "/articles", body={"title": "delta", "views": 0, "status": "open"}, status=201,
                     response={"data": NEW})
            .call("GET", "/articles/4", response={"data": NEW})
            .call("GET", "/articles", response=listing([A1, A2, A3, NEW])))


def learned(bundle) -> dict:
    return {q.param: (q.kind, q.rule_id) for q in bundle.view.view("get_articles").learned_queries}


def titles(runtime: EnvironmentRuntime, query: dict) -> list[str]:
    return [a["title"] for a in runtime.read("get_articles", {"query": query})["body"]["data"]]


def after_create(bundle) -> EnvironmentRuntime:
    runtime = EnvironmentRuntime(bundle)
    runtime.read("post_articles", {"body": {"title": "delta", "views": 0, "status": "open"}})
    return runtime


def test_a_strapi_equality_filter_is_learned_decoded_and_answers_a_served_create():
    bundle = build_from(capture(("filters[status][$eq]=open", [A1, A3])))
    assert learned(bundle) == {"filters[status][$eq]": ("equals", "learned-query.bracket-equals")}
    runtime = after_create(bundle)
    assert titles(runtime, {"filters[status][$eq]": "open"}) == ["alpha", "gamma", "delta"]
    assert titles(runtime, {"filters[status][$eq]": "done"}) == ["Beta notes"]  # a value never recorded


def test_bracket_operators_compare_list_and_text():
    bundle = build_from(capture(("filter[views][_gte]=5", [A1, A3]),
                                ("filters[status][$in][0]=done&filters[status][$in][1]=nope", [A2]),
                                ("filters[title][$containsi]=NOTES", [A2]),
                                ("filter[status]=done", [A2])))
    assert learned(bundle) == {
        "filter[views][_gte]": ("compare", "learned-query.bracket-compare"),
        "filters[status][$in][0]": ("in", "learned-query.bracket-in-indexed"),
        "filters[status][$in][1]": ("in", "learned-query.bracket-in-indexed"),
        "filters[title][$containsi]": ("text", "learned-query.bracket-text"),
        "filter[status]": ("equals", "learned-query.bracket-equals")}
    runtime = after_create(bundle)
    assert titles(runtime, {"filter[views][_gte]": "0"}) == ["alpha", "Beta notes", "gamma", "delta"]
    assert titles(runtime, {"filters[status][$in][0]": "open", "filters[status][$in][1]": "x"}) == [
        "alpha", "gamma", "delta"]
    assert titles(runtime, {"filters[title][$containsi]": "ELT"}) == ["delta"]
    assert titles(runtime, {"filter[status]": "open"}) == ["alpha", "gamma", "delta"]


def test_sort_spellings_with_directions_and_several_keys():
    by_views_desc = sorted([A1, A2, A3], key=lambda a: -a["views"])
    bundle = build_from(capture(("sort=views:desc", by_views_desc), ("sort=title", [A2, A1, A3]),
                                ("sort[0]=status:desc&sort[1]=views:asc", [A3, A1, A2])))
    assert learned(bundle) == {"sort": ("sort", "learned-query.sort-direction-suffix"),
                               "sort[0]": ("sort", "learned-query.sort-indexed"),
                               "sort[1]": ("sort", "learned-query.sort-indexed")}
    runtime = after_create(bundle)
    assert titles(runtime, {"sort": "views:asc"}) == ["delta", "Beta notes", "gamma", "alpha"]
    # one key per recorded value: two keys in one value are not proven (Waterline refuses them, 400)
    refused = runtime.call_tool("get_articles", {"query": {"sort": "status:asc,views:desc"}})
    assert refused.is_error and "at most 1" in refused.structured["message"]
    assert titles(runtime, {"sort[0]": "status:desc", "sort[1]": "views:asc"}) == [
        "delta", "gamma", "alpha", "Beta notes"]


def test_several_keys_in_one_sort_value_once_a_recording_proves_them():
    bundle = build_from(capture(("sort=views:desc", sorted([A1, A2, A3], key=lambda a: -a["views"])),
                                ("sort=status:desc,views:asc", [A3, A1, A2])))
    runtime = after_create(bundle)
    assert titles(runtime, {"sort": "status:asc,views:desc"}) == ["Beta notes", "alpha", "gamma", "delta"]


def test_a_minus_prefix_sort_with_several_keys():
    bundle = build_from(capture(("ordering=-views", [A1, A3, A2]), ("ordering=status,-views", [A2, A1, A3])))
    assert learned(bundle) == {"ordering": ("sort", "learned-query.sort")}
    runtime = after_create(bundle)
    assert titles(runtime, {"ordering": "status,views"}) == ["Beta notes", "delta", "gamma", "alpha"]


def test_a_sort_key_naming_no_field_is_refused_with_what_is_accepted():
    runtime = after_create(build_from(capture(("sort=views:desc", [A1, A3, A2]))))
    answer = runtime.call_tool("get_articles", {"query": {"sort": "-views"}})
    assert answer.is_error
    message = answer.structured["message"]
    assert "'-views'" in message and "':'" in message and "'views'" in message, message


def test_bracketed_paging_after_a_create():
    bundle = build_from(capture(("page[number]=1&page[size]=2", [A1, A2]), ("page[number]=2&page[size]=2", [A3])))
    assert learned(bundle) == {"page[number]": ("page", "learned-query.page-from-one"),
                               "page[size]": ("limit", "learned-query.limit")}
    runtime = after_create(bundle)
    assert titles(runtime, {"page[number]": "2", "page[size]": "2"}) == ["gamma", "delta"]
    refused = runtime.call_tool("get_articles", {"query": {"page[number]": "2"}})
    assert refused.is_error and "page[size]" in refused.structured["message"]


def test_a_candidate_the_recording_disagrees_with_is_not_kept():
    # The application matched case-insensitively ("ALPHA" found alpha): equality does not reproduce it.
    bundle = build_from(capture(("filters[title][$eq]=ALPHA", [A1])))
    assert learned(bundle) == {}
    view = bundle.view.view("get_articles")
    line = next(line for line in view.lines if line.query)
    assert "reproduces" in (line.reason or ""), line.reason
    runtime = EnvironmentRuntime(bundle)
    assert titles(runtime, {"filters[title][$eq]": "ALPHA"}) == ["alpha"]  # as recorded, while the state is
    created = runtime.call_tool("post_articles", {"body": {"title": "Alphabet", "views": 0, "status": "open"}})
    assert not created.is_error, created.structured  # ("Alpha" itself repeats a distinct title: refused)
    # The collection changed (a case-insensitive match may list more): the recorded members are no answer any more.
    answer = runtime.call_tool("get_articles", {"query": {"filters[title][$eq]": "ALPHA"}})
    assert answer.is_error and "has changed since" in answer.structured["message"], answer.structured


def strapi(items: list) -> dict:
    pages = -(-len(items) // 25)
    return {"data": items, "meta": {"pagination": {"page": 1, "pageSize": 25, "pageCount": pages, "total": len(items)}}}


def test_a_strapi_page_count_and_total_count_the_selection_after_a_create():
    har = (HarBuilder()
           .call("GET", "/api/articles", response=strapi([A1, A2, A3]))
           .call("GET", "/api/articles/1", response={"data": A1, "meta": {}})
           .call("GET", "/api/articles", query=encoded("filters[status][$eq]=open"), response=strapi([A1, A3]))
           .call("GET", "/api/articles", query=encoded("filters[status][$eq]=none"), response=strapi([]))
           .call("POST", "/api/articles", body={"title": "delta", "views": 0, "status": "open"}, status=201,
                 response={"data": NEW, "meta": {}})
           .call("GET", "/api/articles/4", response={"data": NEW, "meta": {}})
           .call("GET", "/api/articles", response=strapi([A1, A2, A3, NEW])))
    bundle = build_from(har)
    roles = {m.pointer: (m.role, m.field) for m in bundle.view.view("get_articles").envelope_members}
    assert roles["/meta/pagination/pageCount"] == ("page-count", "/meta/pagination/pageSize")
    assert roles["/meta/pagination/total"][0] == "count"
    runtime = EnvironmentRuntime(bundle)
    runtime.read("post_articles", {"body": {"title": "delta", "views": 0, "status": "open"}})
    answer = runtime.read("get_articles", {"query": {"filters[status][$eq]": "open"}})["body"]
    assert [a["title"] for a in answer["data"]] == ["alpha", "gamma", "delta"]
    assert answer["meta"]["pagination"] == {"page": 1, "pageSize": 25, "pageCount": 1, "total": 3}
    # a status the capture shows filtered by and no entity holds (another word is refused:
    # view-query-vocabularies, the application may check a filter against its closed list)
    empty = runtime.read("get_articles", {"query": {"filters[status][$eq]": "none"}})["body"]
    assert empty["data"] == [] and empty["meta"]["pagination"]["pageCount"] == 0


def test_django_style_lookups_and_a_descending_sort_parameter():
    bundle = build_from(capture(("views__gt=5", [A1, A3]), ("title__icontains=NOTES", [A2]),
                                ("status__exact=done", [A2]), ("_sort_desc=views", [A1, A3, A2])))
    assert learned(bundle) == {
        "views__gt": ("compare", "learned-query.compare-double-underscore"),
        "title__icontains": ("text", "learned-query.text-double-underscore"),
        "status__exact": ("compare", "learned-query.compare-double-underscore"),
        "_sort_desc": ("sort", "learned-query.sort-descending")}
    runtime = after_create(bundle)
    assert titles(runtime, {"views__gt": "-1"}) == ["alpha", "Beta notes", "gamma", "delta"]
    assert titles(runtime, {"title__icontains": "DEL"}) == ["delta"]
    assert titles(runtime, {"status__exact": "open"}) == ["alpha", "gamma", "delta"]
    assert titles(runtime, {"_sort_desc": "views"}) == ["alpha", "gamma", "Beta notes", "delta"]
    # titles in two letter cases: code points and a case-insensitive collation order them otherwise,
    # and the recordings only sorted numbers (serving/reads/text_order)
    refused = runtime.read("get_articles", {"query": {"_sort_desc": "title"}})
    assert "body" not in refused and "collation" in str(refused), refused


def test_a_sort_direction_word_after_a_space():
    bundle = build_from(capture(("order_by=views DESC", [A1, A3, A2]), ("order_by=title", [A2, A1, A3])))
    assert learned(bundle) == {"order_by": ("sort", "learned-query.sort-direction-word")}
    runtime = after_create(bundle)
    assert titles(runtime, {"order_by": "views ASC"}) == ["delta", "Beta notes", "gamma", "alpha"]


def test_a_field_parameter_that_matches_substrings_and_a_plural_id_list():
    bundle = build_from(capture(("title=ET", [A2]), ("ids=1,3", [A1, A3])))
    assert learned(bundle) == {"title": ("text", "learned-query.field-contains"),
                               "ids": ("in", "learned-query.plural-id-list")}
    runtime = after_create(bundle)
    assert titles(runtime, {"title": "ta"}) == ["Beta notes", "delta"]
    assert titles(runtime, {"ids": "4,2"}) == ["Beta notes", "delta"]


def test_a_plural_id_list_item_that_is_no_plain_number_or_past_2_53_is_refused():
    # Label Studio answers ids=1,%202 with both projects (it reads " 2" as 2) and ids=abc with a 500,
    # where the state compared each item as text: " 2" matched nothing, "abc" listed nothing
    bundle = build_from(capture(("ids=1,3", [A1, A3])))
    runtime = after_create(bundle)
    assert titles(runtime, {"ids": "3,1"}) == ["alpha", "gamma"]
    for value in ("1, 3", "abc", "1,,3", "1,03", " 1"):
        answer = runtime.call_tool("get_articles", {"query": {"ids": value}})
        assert answer.is_error, (value, answer.structured)
        assert "no plain number" in str(answer.structured), answer.structured
    # Label Studio answers ids=99999999999999999999 with a 500 (an integer overflow), where the state listed nothing
    for value in ("99999999999999999999", "1,9007199254740993"):
        answer = runtime.call_tool("get_articles", {"query": {"ids": value}})
        assert answer.is_error and "past 2**53" in str(answer.structured), (value, answer.structured)
    # 2**53 itself is read, and selects nothing: refused, as the capture never showed this list empty
    answer = runtime.call_tool("get_articles", {"query": {"ids": "9007199254740992"}})
    assert answer.is_error and "would list nothing" in answer.structured["message"], answer.structured


def test_an_exact_field_parameter_stays_an_equality():
    bundle = build_from(capture(("status=open", [A1, A3]), ("title=alpha", [A1])))
    assert learned(bundle) == {"status": ("equals", "learned-query.equals"), "title": ("equals", "learned-query.equals")}


def test_a_parameter_one_line_shows_meaning_more_than_another_line_proved_is_not_learned():
    # status=open is an equality, but status=in:open,done (an operator in the value) lists what no
    # candidate meaning of `status` reproduces: the equality would answer a value of that form with
    # nothing, so no line keeps a meaning for it, and a value never recorded is refused.
    bundle = build_from(capture(("status=open", [A1, A3]), ("status=in:open,done", [A1, A2, A3])))
    assert "status" not in learned(bundle)
    view = bundle.view.view("get_articles")
    reasons = [line.reason or "" for line in view.lines if line.query]
    assert all("'status'" in r or "reproduces" in r for r in reasons), reasons
    runtime = after_create(bundle)
    answer = runtime.call_tool("get_articles", {"query": {"status": "in:done"}})
    assert answer.is_error, answer.structured


def test_a_line_failing_on_another_parameter_contests_nothing():
    # The second line fails for `weird` (no meaning learned), not for `status`: status keeps its equality.
    bundle = build_from(capture(("status=open", [A1, A3]), ("status=open&weird=1", [A3])))
    assert learned(bundle).get("status") == ("equals", "learned-query.equals")
    runtime = after_create(bundle)
    assert titles(runtime, {"status": "done"}) == ["Beta notes"]


def test_a_filter_inside_a_bracketed_where_clause_and_bracketed_paging():
    """LoopBack's ``filter[where][status]=open``, ``filter[where][views][gt]=5``, ``filter[limit]`` and
    ``filter[skip]``: the clause word before the field is a scope, not a field."""
    bundle = build_from(capture(("filter[where][status]=open", [A1, A3]),
                                ("filter[where][views][gt]=5", [A1, A3]),
                                ("filter[limit]=2&filter[skip]=1", [A2, A3])))
    assert learned(bundle) == {
        "filter[where][status]": ("equals", "learned-query.bracket-equals"),
        "filter[where][views][gt]": ("compare", "learned-query.bracket-compare"),
        "filter[limit]": ("limit", "learned-query.limit"),
        "filter[skip]": ("start", "learned-query.start")}
    runtime = after_create(bundle)
    assert titles(runtime, {"filter[where][status]": "open"}) == ["alpha", "gamma", "delta"]
    assert titles(runtime, {"filter[where][views][gt]": "8"}) == ["alpha"]
    assert titles(runtime, {"filter[limit]": "2", "filter[skip]": "2"}) == ["gamma", "delta"]


def test_a_clause_word_is_no_field_of_its_own():
    """``filter[fields][title]`` (a projection) is no filter on a field named by its first bracket."""
    bundle = build_from(capture(("filter[fields][title]=true", [{"title": a["title"]} for a in (A1, A2, A3)])))
    assert "filter[fields][title]" not in learned(bundle)


def test_a_json_filter_holding_only_a_where_clause_is_learned_and_answers_a_served_create():
    """LoopBack's ``filter={"where":{"views":{"gt":5}}}``; a filter with an order beside it is not read."""
    bundle = build_from(capture(('filter={"where":{"views":{"gt":5}}}', [A1, A3])))
    assert learned(bundle) == {"filter": ("expression", "learned-query.json-filter-where")}
    runtime = after_create(bundle)
    assert titles(runtime, {"filter": '{"where":{"views":{"gt":-1}}}'}) == ["alpha", "Beta notes", "gamma", "delta"]
    ordered = runtime.call_tool("get_articles", {"query": {"filter": '{"where":{"views":{"gt":5}},"order":["title DESC"]}'}})
    assert ordered.is_error and "not a filter the capture proves" in ordered.structured["message"], ordered.structured
