"""Conventions real APIs commonly use that the other matrices lack, and crossings of ones they hold
separately: Rails' singular member wrapping (``{"note": {…}}`` items and bodies, lists with
``total_count``/``offset``/``limit``, ``.json`` paths, a PUT that merges and answers 204), generic
collections behind a trailing slash with uuids, ``updated_at`` concurrency on ``{"notes": [{…}]}``
bodies, ``{"data", "meta": {"total_count"}}`` and ``{"entries", "total_entries"}`` lists with
filters and projections, colon actions (``/notes/5:archive``) behind envelopes and trailing slashes.
Each is recorded, built and held to the application: 0 wrong answers, the
writes the spec can serve served alike, and exactly the write tools named served.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from capenv.serving.compare import SAME

from .convention_app import Conventions
from .holding import hold
from .scenario import DOCUMENT_WRITES, PLAIN_WRITES
from .scenario_extras import NESTED_WRITES


def plain_tools(c: Conventions) -> tuple[str, ...]:
    """The create, update and delete tools of notes and tags."""
    update = c.update.lower()
    return tuple(f"{verb}_{kind}" + (f"_by_{kind[:-1]}_id" if verb != "post" else "")
                 for kind in ("notes", "tags") for verb in ("post", update, "delete"))


RAILS = dict(item_shape="singular", body_shape="singular", list_shape="rails", suffix=".json")

CASES = [
    Conventions("rails", **RAILS, update="PUT", put_merges=True, update_answer="204"),
    Conventions("rails-patch-uuid", **RAILS, ids="uuid", delete_answer="200_entity"),
    # Rails with jbuilder: bodies wrapped {"note": …} (params.require(:note)), answers bare
    Conventions("rails-bare-answers", body_shape="singular", suffix=".json", update="PUT", put_merges=True),
    Conventions("rails-slash-put-merge", item_shape="singular", body_shape="singular", list_shape="plural_total",
                slash=True, update="PUT", put_merges=True, absence="404_empty"),
    Conventions("generic-slash-uuid", generic_segment=True, slash=True, list_shape="data", item_shape="data",
                body_shape="data", ids="uuid"),
    Conventions("plural-updated-at-put", slash=True, list_shape="plural_meta", item_shape="plural_one",
                body_shape="plural_one", concurrency="updated_at", update="PUT", ids="uuid"),
    Conventions("data-meta-total-brackets", list_shape="data_meta_total", item_shape="data", body_shape="data",
                query_style="brackets", generic_segment=True, absence="403_errors"),
    Conventions("data-meta-total-fields", list_shape="data_meta_total", item_shape="data", body_shape="data",
                query_style="fields", ids="uuid"),
    Conventions("entries-fields", list_shape="entries", query_style="fields", ids="text-sequence"),
    Conventions("generic-singular-rails-403", generic_segment=True, item_shape="singular", body_shape="singular",
                list_shape="rails", absence="403_errors"),
    Conventions("rails-html-absence", **RAILS, absence="404_html", delete_answer="200_entity"),
    Conventions("update-mask-data-slash", update_mask=True, list_shape="data", item_shape="data", body_shape="data",
                ids="uuid", slash=True),
]


COLON_ACTIONS = [
    Conventions("colon-actions-slash-uuid-data", actions="colon", slash=True, ids="uuid", list_shape="data",
                item_shape="data", body_shape="data"),
    Conventions("colon-actions-rails", actions="colon", **RAILS),
    Conventions("colon-actions-named-keys", actions="colon", ids="name", list_shape="plural_total"),
    Conventions("colon-actions-entries-put-merge-null", actions="colon", list_shape="entries", absence="200_null",
                update="PUT", put_merges=True, update_answer="204"),
]


@pytest.mark.parametrize("conventions", COLON_ACTIONS, ids=lambda c: c.name)
def test_colon_actions_are_served_as_item_actions(conventions: Conventions, tmp_path: Path) -> None:
    hold(conventions, tmp_path, PLAIN_WRITES + ("archive seeded note 2",),
         served=plain_tools(conventions) + ("post_notes_archive",))


@pytest.mark.parametrize("conventions", CASES, ids=lambda c: c.name)
def test_no_wrong_answer_under_crossed_conventions(conventions: Conventions, tmp_path: Path) -> None:
    hold(conventions, tmp_path, PLAIN_WRITES, served=plain_tools(conventions))


@pytest.mark.parametrize("conventions", [
    Conventions("rails-settings", **RAILS, settings=True),
    Conventions("singular-data-meta-total-settings", item_shape="singular", body_shape="singular",
                list_shape="data_meta_total", settings=True, ids="uuid"),
], ids=lambda c: c.name)
def test_a_settings_document_beside_singular_entities(conventions: Conventions, tmp_path: Path) -> None:
    """A singleton document at ``/settings.json`` beside entities wrapped ``{"note": …}``: its merge served."""
    hold(conventions, tmp_path, PLAIN_WRITES + DOCUMENT_WRITES, served=plain_tools(conventions) + ("patch_settings",))


def test_rails_comment_counters(tmp_path: Path) -> None:
    """A comment create also changes its note's ``comment_count``, a side effect the spec leaves
    unmodelled: unserved (side-effect: the create is linked by the comments list that newly lists it,
    write-create-links, and the note's read shows the counter it did not write), and the probes say
    which reads the refused call affects."""
    conventions = Conventions("rails-comment-counters", **RAILS, comments=True)
    hold(conventions, tmp_path, PLAIN_WRITES, {"post_notes_comments": "side-effect"}, served=plain_tools(conventions))


def test_rails_nested_comments(tmp_path: Path) -> None:
    """Comments with their own ids under ``/notes/5/comments/7.json``: created, updated and deleted.
    A note's delete stays unserved (``verdict.held-beneath``): the state holds its comments below its
    item path, which the application stops answering with it (they 404 with their note), while
    serving would remove the note alone and go on answering them."""
    conventions = Conventions("rails-nested-comments", **RAILS, nested=True)
    note_delete = "delete_notes_by_note_id"
    hold(conventions, tmp_path, tuple(p for p in PLAIN_WRITES if p != "delete the new note") + NESTED_WRITES,
         {note_delete: "held-beneath"},
         served=tuple(t for t in plain_tools(conventions) if t != note_delete)
         + ("post_notes_comments", "patch_notes_comments_by_comment_id", "delete_notes_comments_by_comment_id"))


@pytest.mark.parametrize("conventions", [c for c in CASES if c.list_shape in ("rails", "data_meta_total")],
                         ids=lambda c: c.name)
def test_pages_echoing_their_query_are_answered_from_the_state(conventions: Conventions, tmp_path: Path) -> None:
    """A list's ``offset`` and ``limit`` echo the call's query (``list-member.query-echo``): pages
    the session never asked for, after writes, are answered from the state as the application does."""
    _, results = hold(conventions, tmp_path, PLAIN_WRITES)
    pages = {r.probe.name: r.verdict for r in results if "page of notes" in r.probe.name}
    assert pages == {"a page of notes": SAME, "another page of notes": SAME}, pages
