"""A tied create's later call outside its collection (write-effects, "Effects", "Creates": "…the
gate counts such a recorded call as a write no built plan models"; "The gate", "Writes": "A later
create outside the collection a tied plan permits is unmodelled, as serving refuses that call, so
a read of what it recorded does not confirm the plan. The gate picks that collection among equal
spellings in serving's order").

A json-server-like app: ``POST /posts/{post_id}/comments`` creates in ``/comments``, tied to the
post its exemplar named (its ``postId`` is the path's value), so serving refuses another post's."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

C1 = {"id": 1, "body": "first", "postId": 5}
C2 = {"id": 2, "body": "second", "postId": 1}
C3 = {"id": 3, "body": "hi", "postId": 5}
C4 = {"id": 4, "body": "yo", "postId": 1}


def _comments(later_post: str) -> object:
    """The exemplar answers its id alone, so its item read (7) observes it and checks nothing: only
    the later list read (10) can confirm the plan."""
    later = {**C4, "postId": int(later_post.replace("%35", "5"))}
    builder = (HarBuilder()
               .call("GET", "/posts", response=[{"id": 1, "title": "p1"}, {"id": 5, "title": "p5"}])  # 1
               .call("GET", "/users/1", response={"id": 1, "name": "u1"})                           # 2
               .call("GET", "/comments", response=[C1, C2])                                          # 3
               .call("GET", "/comments/1", response=C1)                                              # 4
               .call("GET", "/comments/2", response=C2)                                              # 5
               .call("POST", "/posts/5/comments", body={"body": "hi"}, status=201, response={"id": 3})  # 6
               .call("GET", "/comments/3", response=C3)                                              # 7
               .call("POST", f"/posts/{later_post}/comments", body={"body": "yo"}, status=201,
                     response={"id": 4})                                                             # 8
               .call("GET", "/comments/4", response=later)                                           # 9
               .call("GET", "/comments", response=[C1, C2, C3, later])                               # 10
               # another post's comment, last: its path makes the post a path parameter of the tool
               .call("POST", "/posts/2/comments", body={"body": "z"}, status=201, response={"id": 5}))  # 11
    return build_from(builder)


def test_a_create_outside_the_tied_collection_is_unmodelled():
    bundle = _comments("1")
    create = plan(bundle, "POST", "/posts/{post_id}/comments")
    assert create.collection == "/comments" and create.exemplar == 6 and create.observation == 7
    # the refused call's entity is taken from read 9, and the list of what it recorded confirms nothing
    assert 10 not in create.checked_record_ordinals and create.contradicted_by is None, summary(bundle)
    assert create.reason == "unconfirmed", summary(bundle)
    assert any("no built plan models, at /comments" in (t.reason or "") for t in create.traces)


@pytest.mark.parametrize("spelling", ["5", "%35"])
def test_a_later_create_in_the_tied_collection_is_modelled_in_either_spelling(spelling):
    bundle = _comments(spelling)
    create = plan(bundle, "POST", "/posts/{post_id}/comments")
    assert create.served and 10 in create.checked_record_ordinals, summary(bundle)


E1, E2 = {"id": 1, "title": "one"}, {"id": 2, "title": "two"}
C, D = {"id": 3, "title": "c"}, {"id": 4, "title": "d"}
F = {"id": 6, "title": "f"}
# every spelling is a project id the app returned, so the manifest makes each a path parameter
PROJECTS = [{"id": "12", "name": "p"}, {"id": "%312", "name": "q"}, {"id": "%31%32", "name": "r"},
            {"id": "34", "name": "s"}]


def test_the_gate_picks_the_tied_collection_among_equal_spellings_in_servings_order():
    """Project 12's items are held under two encoded spellings; the link read spells the
    collection plainly, which fits both equally. Serving creates in the one whose first entity
    comes first in state order (``%31%32``, holding item 1), and so the refused call (8) is
    unmodelled there: the list of that spelling showing its entity (9) is not checked, and does not
    contradict the create still awaiting its check there."""
    builder = (HarBuilder()
               .call("GET", "/projects", response=PROJECTS)                                         # 1
               .call("GET", "/projects/%312/items", response=[E2])                                  # 2
               .call("GET", "/projects/%31%32/items", response=[E1])                                # 3
               .call("GET", "/projects/34/items", response=[F])                                     # 4
               .call("GET", "/projects/34/items/6", response=F)                                     # 5
               .call("POST", "/boards/7/items", body={"title": "c"}, status=201, response={"id": 3})  # 6
               .call("GET", "/projects/12/items/3", response=C)                                     # 7
               .call("POST", "/boards/8/items", body={"title": "d"}, status=201, response={"id": 4})  # 8
               .call("GET", "/projects/%31%32/items", response=[E1, C, D])                          # 9
               .call("GET", "/projects/%312/items", response=[E2]))                                 # 10
    bundle = build_from(builder)
    held = [c.path for c in bundle.view.state.collections if c.type == "items"]
    assert held.index("/projects/%31%32/items") < held.index("/projects/%312/items")  # serving's order
    create = plan(bundle, "POST", "/boards/{board_id}/items")
    assert create.collection == "/projects/12/items", summary(bundle)
    assert (create.reason, create.contradicted_by) == ("unconfirmed", None), summary(bundle)
    assert any("no built plan models, at /projects/%31%32/items" in (t.reason or "") for t in create.traces)


def _lists(created_in_11: dict, created_in_22: dict) -> object:
    builder = (HarBuilder()
               .call("GET", "/lists/11/items", response=[E1])                                       # 1
               .call("GET", "/lists/22/items", response=[E2])                                       # 2
               .call("GET", "/lists/11/items/1", response=E1)                                       # 3
               .call("GET", "/lists/22/items/2", response=E2)                                       # 4
               .call("POST", "/lists/11/items", body={"title": "c"}, status=201, response={"id": 3})  # 5
               .call("GET", "/lists/11/items/3", response=created_in_11)                            # 6
               .call("POST", "/lists/22/items", body={"title": "d"}, status=201, response={"id": 4})  # 7
               .call("GET", "/lists/22/items", response=[E2, created_in_22])                        # 8
               .call("GET", "/lists/11/items", response=[E1, created_in_11]))                       # 9
    return build_from(builder)


def test_a_create_whose_path_names_its_collection_creates_in_the_one_each_call_names():
    """write-effects ties only a create "whose path gives it no target", or one whose constant
    keeps a path value: a create into a list's items creates in the list its own path names, so
    the call into list 22 is modelled there and its list read (8) confirms the plan too."""
    bundle = _lists(C, D)
    create = plan(bundle, "POST", "/lists/{list_id}/items")
    assert create.collection is None and create.exemplar_args == {"list_id": "11"}, summary(bundle)
    assert create.served and create.checked_record_ordinals == (8, 9), summary(bundle)
    assert any("serving creates in the collection each call names" in (t.reason or "") for t in create.traces)


def test_a_create_whose_template_keeps_a_path_value_is_tied_and_unmodelled_elsewhere():
    """Its href keeps the exemplar's list id around the new id, so serving creates only in list 11:
    the call into list 22 wrote there, so list 22 is left unchecked, while list 11 confirms."""
    bundle = _lists({**C, "href": "/lists/11/items/3"}, {**D, "href": "/lists/22/items/4"})
    create = plan(bundle, "POST", "/lists/{list_id}/items")
    assert create.collection == "/lists/11/items" and create.exemplar_args == {"list_id": "11"}, summary(bundle)
    assert create.served and create.checked_record_ordinals == (9,), summary(bundle)
    assert any("no built plan models, at /lists/22/items" in (t.reason or "") for t in create.traces)
