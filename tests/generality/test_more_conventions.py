"""Generality beyond paths and envelopes: conventions common in real REST APIs (how validation
errors are written, optimistic concurrency, item actions, bulk deletes, nested sub-collections
with their own ids, a versioned prefix with an admin/content split, ``update_mask``, JSON:API),
each recorded, built and held to the application: 0 wrong answers, and the writes the spec can
serve served alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .convention_app import Conventions
from .holding import hold
from .scenario import PLAIN_WRITES
from .scenario_extras import NESTED_WRITES

CREATES_AND_DELETES = tuple(name for name in PLAIN_WRITES if not name.startswith("update"))


def case(conventions: Conventions, servable: tuple[str, ...], unservable: dict[str, str] | None = None):
    """One convention: the probes whose writes must be served alike, and the write tools that must
    stay unserved (tool: reason) because the spec cannot serve them."""
    return pytest.param(conventions, servable, unservable or {}, id=conventions.name)


SPLIT_WRITES = dict.fromkeys(("post_admin_notes", "patch_admin_notes_by_note_id", "delete_admin_notes_by_note_id",
                              "post_admin_tags", "patch_admin_tags_by_tag_id", "delete_admin_tags_by_tag_id"),
                             "side-effect")

NOT_THE_NOTE_DELETE = tuple(p for p in PLAIN_WRITES if p != "delete the new note")
NOTE_DELETE_HELD_BENEATH = {"delete_notes_by_note_id": "held-beneath"}

CASES = [
    case(Conventions("problem-errors", errors="problem"), PLAIN_WRITES),
    case(Conventions("errors-list-400", errors="errors", invalid_status=400, list_shape="data", item_shape="data",
                     body_shape="data"), PLAIN_WRITES),
    case(Conventions("versioned-prefix-slash", prefix="/api/v2", slash=True, list_shape="drf"), PLAIN_WRITES),
    # a note's comments are held below its item path and go with it (they 404 once it is deleted):
    # serving would remove the note alone, so its delete stays unserved (verdict.held-beneath)
    case(Conventions("nested-comments", nested=True), NOT_THE_NOTE_DELETE + NESTED_WRITES, NOTE_DELETE_HELD_BENEATH),
    case(Conventions("nested-comments-envelopes", nested=True, slash=True, list_shape="drf", item_shape="data",
                     body_shape="data", ids="uuid"), NOT_THE_NOTE_DELETE + NESTED_WRITES, NOTE_DELETE_HELD_BENEATH),
    # no comment before the first write: the short id links because the empty comment list the call
    # posts to was read before it (the path and that read say whose id it is); an update answering the
    # entity could answer only for comments the environment made
    case(Conventions("nested-comments-none-seeded", nested=True, seed_comments=False), (),
         {"patch_notes_comments_by_comment_id": "incomplete-entities"}),
    # optimistic concurrency: the token must be sent as the entity holds it; a stale one is refused
    case(Conventions("version-concurrency", concurrency="version"), PLAIN_WRITES),
    case(Conventions("updated-at-concurrency", concurrency="updated_at", clocks="iso-whole-seconds-z", update="PUT"),
         PLAIN_WRITES),
    case(Conventions("updated-at-concurrency-ms", concurrency="updated_at"), PLAIN_WRITES),
    # clocks written as HTTP dates (IMF-fixdate), whole seconds in GMT
    case(Conventions("http-date-clocks", clocks="http-date"), PLAIN_WRITES),
    case(Conventions("http-date-clocks-envelopes", clocks="http-date", slash=True, list_shape="drf", ids="uuid",
                     update="PUT"), PLAIN_WRITES),
    # clocks written as JavaScript's Date text (Date.prototype.toString), whole seconds in a named zone
    case(Conventions("js-date-clocks", clocks="js-date"), PLAIN_WRITES),
    case(Conventions("js-date-clocks-put-uuids", clocks="js-date", ids="uuid", update="PUT"), PLAIN_WRITES),
    # an If-Match header naming the read's ETag: the notes' updates, whose capture shows the tag's
    # derivation (the version, quoted) and a stale tag answered 412, are served checking it; the
    # tags' updates, never recorded stale, stay unserved (precondition.checked-tag)
    case(Conventions("if-match-concurrency", concurrency="if-match"), PLAIN_WRITES,
         {"patch_tags_by_tag_id": "precondition-header"}),
    # If-Match checked only when sent, and some recorded updates sent none: served, and a call sending one refused
    case(Conventions("if-match-optional", concurrency="if-match-optional"), PLAIN_WRITES),
    case(Conventions("item-actions", actions="segment"), PLAIN_WRITES + ("archive seeded note 2",)),
    # a verb glued after a colon (/notes/5:archive) is the action segment it stands for (path-colon-actions)
    case(Conventions("colon-actions", actions="colon"), PLAIN_WRITES + ("archive seeded note 2",)),
    # the spec's bulk writes name their entities in the body; ids in the query are not modelled
    case(Conventions("bulk-delete-query", bulk_delete=True), PLAIN_WRITES, {"delete_notes": "body-unusable"}),
    # the content API shows copies of the admin API's entities: a write changes both (spec: "Not modelled"),
    # whether or not the session read the content API after a write (type-copies)
    case(Conventions("admin-content-split", prefix="/cms/v1/admin", slash=True, split=True,
                     list_shape="plural_meta", item_shape="plural_one", body_shape="plural_one"), (), SPLIT_WRITES),
    case(Conventions("admin-content-split-read-first", prefix="/cms/v1/admin", slash=True, split=True,
                     content_reads_after_writes=False), (), SPLIT_WRITES),
    # a PUT that creates the entity its path names when none is held (an upsert) is not modelled
    case(Conventions("put-upserts", ids="name", update="PUT", put_creates=True), CREATES_AND_DELETES,
         {"put_notes_by_note_id": "upsert"}),
    case(Conventions("update-mask", ids="name", update_mask=True, list_shape="plural_total"), PLAIN_WRITES),
    # list queries as real APIs write them: each probe reads a query the session never sent
    *(case(Conventions(f"query-{style}", query_style=style), PLAIN_WRITES)
      for style in ("order_by", "sort_colon", "brackets", "fields", "expand")),
    # an item path in the singular beside its plural list (/note/5 beside /notes): one type, read at both
    case(Conventions("item-path-singular", item_singular=True), PLAIN_WRITES),
    case(Conventions("item-path-singular-envelopes", item_singular=True, list_shape="plural_meta",
                     item_shape="singular", ids="uuid", update="PUT"), PLAIN_WRITES),
    case(Conventions("jsonapi", list_shape="jsonapi", item_shape="jsonapi", body_shape="jsonapi", ids="text-sequence"),
         ("delete seeded tag 2",)),
    # lists of resource identifiers alone ({type, id} rows, as Roundup lists {id, link}), creates answering
    # one: only item reads show the attributes. A seeded entity no item read showed is held by no
    # state, but the initial list shows it: its absence is refused, never answered 404
    case(Conventions("jsonapi-identifier-rows", list_shape="jsonapi_ids", item_shape="jsonapi", ids="text-sequence",
                     create_answer="201_id", seed_item_reads="first"), ()),
    case(Conventions("jsonapi-identifier-rows-items-read", list_shape="jsonapi_ids", item_shape="jsonapi",
                     ids="text-sequence", create_answer="201_id"), ()),
]


@pytest.mark.parametrize("conventions,servable,unservable", CASES)
def test_no_wrong_answer_under_more_conventions(conventions: Conventions, servable: tuple[str, ...],
                                                 unservable: dict[str, str], tmp_path: Path) -> None:
    hold(conventions, tmp_path, servable, unservable)


def test_a_put_beside_an_upsert_refuses_a_missing_entity(tmp_path: Path) -> None:
    """Notes' PUT made an entity the session named (201): the tags' PUT, whose calls never named a
    missing tag, may make one too. A PUT of a deleted tag is refused (the application creates it
    with 201), never answered with the tags' 404; updates of held tags are served."""
    conventions = Conventions("put-beside-upsert", ids="name", update="PUT", put_creates=True)
    bundle, results = hold(conventions, tmp_path, CREATES_AND_DELETES, {"put_notes_by_note_id": "upsert"})
    tag_put = next(plan for plan in bundle.view.writes if plan.tool == "put_tags_by_tag_id")
    assert tag_put.served and tag_put.missing_refused
    missing = next(r for r in results if r.probe.name == "an update of the deleted seeded tag")
    assert (missing.answers["live"].status, missing.verdict) == (201, "refused")
    assert b"PUT may make it" in missing.answers["model"].body
    assert next(r for r in results if r.probe.name == "update seeded note 3").tool.served is False


def test_a_checked_if_match_refuses_a_stale_or_missing_tag(tmp_path: Path) -> None:
    """The notes' update checks If-Match against the version the state holds: the probe naming the
    tag a read answered is served alike, the stale one is refused (412) naming the current tag, and
    an HTTP call without the header is refused (428), never applied."""
    conventions = Conventions("if-match-checked", concurrency="if-match")
    bundle, results = hold(conventions, tmp_path, PLAIN_WRITES, {"patch_tags_by_tag_id": "precondition-header"})
    plan = next(plan for plan in bundle.view.writes if plan.tool == "patch_notes_by_note_id")
    assert plan.served and plan.tag_check is not None
    assert (plan.tag_check.header, plan.tag_check.member, plan.tag_check.form) == ("if-match", "version", '"{}"')
    stale = next(r for r in results if r.probe.name == "a stale update")
    assert (stale.answers["live"].status, stale.answers["model"].status, stale.verdict) == (412, 412, "refused")
    assert b"is stale" in stale.answers["model"].body


def test_an_update_mask_applies_only_the_members_it_names(tmp_path: Path) -> None:
    """The session's second update of each type names fewer members in ``update_mask`` than its body
    sends, and the read after shows the member left out unchanged: the plan learns the mask
    (update-mask.narrower-than-body), a probe masking out ``done`` is served alike (the note keeps
    its ``done``), and a mask naming a member the body does not send is refused, naming the members."""
    from capenv.serving.writes.calls import WriteCall, WriteRefusal
    from capenv.serving.writes.checks import masked_body

    conventions = Conventions("update-mask-narrowed", ids="name", update_mask=True)
    bundle, results = hold(conventions, tmp_path, PLAIN_WRITES)
    plan = next(plan for plan in bundle.view.writes if plan.tool == "patch_notes_by_note_id")
    assert plan.served and plan.update_mask is not None and plan.update_mask.param == "update_mask"
    narrowed = next(r for r in results if r.probe.name == "update seeded note 3")
    assert dict(narrowed.probe.query) == {"update_mask": "title,body"} and narrowed.verdict == "same"
    assert next(r for r in results if r.probe.name == "seeded note 3 after").verdict == "same"
    body = {"title": "a", "body": "b", "done": True}
    assert masked_body(plan, WriteCall("/notes/x", (("update_mask", "title%2Cdone"),), body, ()), body) == {
        "title": "a", "done": True}
    assert masked_body(plan, WriteCall("/notes/x", (), body, ()), body) == body
    with pytest.raises(WriteRefusal, match="colour"):
        masked_body(plan, WriteCall("/notes/x", (("update_mask", "title,colour"),), body, ()), body)


def test_an_item_read_from_the_state_carries_the_version_its_etag_spells(tmp_path: Path) -> None:
    """The item reads recorded ``ETag: "<version>"``: a read answered from the state after a served
    update carries the tag of the version the state holds, as the application's does
    (entity-tag.spelled-member)."""
    conventions = Conventions("if-match-tagged-reads", concurrency="if-match")
    bundle, results = hold(conventions, tmp_path, PLAIN_WRITES, {"patch_tags_by_tag_id": "precondition-header"})
    view = next(view for view in bundle.view.views if view.tool == "get_notes_by_note_id")
    assert view.entity_tag is not None and (view.entity_tag.member, view.entity_tag.form) == ("version", '"{}"')
    after = next(r for r in results if r.probe.name == "the updated note")
    tags = {side: dict((k.lower(), v) for k, v in after.answers[side].headers).get("etag") for side in ("live", "model")}
    assert tags == {"live": '"2"', "model": '"2"'}
