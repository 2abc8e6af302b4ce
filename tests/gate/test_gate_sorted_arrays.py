"""Learned sorted string arrays (write-effects, "The gate": "A failed item or list read the gate
counts passes when the view lists some string-array fields sorted…"; DESIGN §5 sorted_arrays).

The app below stores tags sorted: the create sends ``["b", "a"]`` (its answer echoes it), later
reads show ``["a", "b"]``. Sorting is claimed only with that evidence, and a read listing the
field unsorted rules it out for its view."""

from __future__ import annotations

from support.capture_runs import build_from, items_app, plan, summary, tool_name

INITIAL = [{"id": 1, "title": "t1", "tags": ["x", "y"]}, {"id": 2, "title": "t2", "tags": []}]
MADE = {"id": 3, "title": "c", "tags": ["b", "a"]}
SORTED = {**MADE, "tags": ["a", "b"]}


def _views(bundle):
    return {v.tool: v.sorted_arrays for v in bundle.view.views}


def test_reads_showing_the_written_tags_sorted_pass_and_the_views_sort_them():
    bundle = build_from(items_app(INITIAL)
                        .call("POST", "/items", body={"title": "c", "tags": ["b", "a"]}, status=201,
                              response=MADE)                                                    # 4
                        .call("GET", "/items/3", response=SORTED)                               # 5
                        .call("GET", "/items", response=[*INITIAL, SORTED]))                    # 6
    create = plan(bundle, "POST", "/items")
    assert create.served and create.checked_record_ordinals == (5, 6), summary(bundle)
    # one set per type: both views of items sort tags
    assert _views(bundle) == {tool_name(bundle, "GET", "/items"): ("tags",),
                              tool_name(bundle, "GET", "/items/{item_id}"): ("tags",)}


def test_a_read_listing_the_field_unsorted_rules_it_out_and_the_create_stays_contradicted():
    # record 7 shows d before c: this item view does not sort tags, so read 5 cannot pass by sorting
    bundle = build_from(items_app(INITIAL)
                        .call("POST", "/items", body={"title": "c", "tags": ["b", "a"]}, status=201,
                              response=MADE)                                                    # 4
                        .call("GET", "/items/3", response=SORTED)                               # 5
                        .call("POST", "/items", body={"title": "d", "tags": ["d", "c"]}, status=201,
                              response={"id": 4, "title": "d", "tags": ["d", "c"]})             # 6
                        .call("GET", "/items/4", response={"id": 4, "title": "d", "tags": ["d", "c"]}))  # 7
    create = plan(bundle, "POST", "/items")
    assert (create.served, create.contradicted_by) == (False, 5), summary(bundle)
    assert set(_views(bundle).values()) == {()}


def test_a_read_showing_other_values_claims_no_sorting():
    bundle = build_from(items_app(INITIAL)
                        .call("POST", "/items", body={"title": "c", "tags": ["b", "a"]}, status=201,
                              response=MADE)                                                    # 4
                        .call("GET", "/items/3", response={**MADE, "tags": ["a", "c"]}))        # 5
    assert plan(bundle, "POST", "/items").contradicted_by == 5, summary(bundle)
    assert set(_views(bundle).values()) == {()}


def test_a_sorted_read_in_the_order_the_values_were_first_held_in_claims_no_sorting():
    # tags were first held as ["x", "y"]; the update writes ["y", "x"] and the read shows the first order:
    # that is how the values arrived, not evidence of a sort
    bundle = build_from(items_app(INITIAL)
                        .call("PATCH", "/items/1", body={"tags": ["y", "x"]},
                              response={"id": 1, "title": "t1", "tags": ["y", "x"]})            # 4
                        .call("GET", "/items/1", response=INITIAL[0]))                          # 5
    update = plan(bundle, "PATCH", "/items/{item_id}")
    assert update.contradicted_by == 5, summary(bundle)
    assert set(_views(bundle).values()) == {()}


def test_a_list_read_alone_passes_by_sorting_and_the_types_views_learn_it():
    # the exemplar sends tags already sorted: only the list (record 7) shows the second create's sorted
    made = {"id": 3, "title": "c", "tags": ["a", "b"]}
    second = {"id": 4, "title": "d", "tags": ["d", "c"]}
    bundle = build_from(items_app(INITIAL)
                        .call("POST", "/items", body={"title": "c", "tags": ["a", "b"]}, status=201,
                              response=made)                                                    # 4
                        .call("GET", "/items/3", response=made)                                 # 5
                        .call("POST", "/items", body={"title": "d", "tags": ["d", "c"]}, status=201,
                              response=second)                                                  # 6
                        .call("GET", "/items", response=[*INITIAL, made, {**second, "tags": ["c", "d"]}]))  # 7
    create = plan(bundle, "POST", "/items")
    assert create.served and 7 in create.checked_record_ordinals, summary(bundle)
    assert set(_views(bundle).values()) == {("tags",)}
