"""The gate decides with the rule tables the build was given (``--rules``, a maintainer's edited
copy), not the packaged ones: the page bound reads the build's ``view-query-params`` table and a
later list's placement the build's ``insert-candidates`` table."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.har_builder import HarBuilder
from support.rules_copy import copy_rules, edit_pattern

from capenv.interpreter.pipeline import build_bundle

ITEMS = [{"id": 1, "title": "a"}, {"id": 2, "title": "b"}]
C, D = {"id": 3, "title": "c"}, {"id": 4, "title": "d"}


def _create(bundle):
    return next(p for p in bundle.view.writes if p.tool == "post_items")


# --- the page bound -------------------------------------------------------------------------------

def _paged_capture(tmp_path: Path, size: int) -> Path:
    """A whole list paged by ``count_max`` (a page-size word only the edited table knows), two
    creates, then the page again showing only the first."""
    builder = HarBuilder()
    builder.call("GET", "/items", query=f"count_max={size}", response=ITEMS)              # 1
    builder.call("GET", "/items/1", response=ITEMS[0])                                    # 2
    builder.call("GET", "/items/2", response=ITEMS[1])                                    # 3
    builder.call("POST", "/items", body={"title": "c"}, status=201, response=C)           # 4
    builder.call("POST", "/items", body={"title": "d"}, status=201, response=D)           # 5
    builder.call("GET", "/items/3", response=C)                                           # 6
    builder.call("GET", "/items/4", response=D)                                           # 7
    builder.call("GET", "/items", query=f"count_max={size}", response=ITEMS + [C][:size - 2])   # 8
    return builder.write(tmp_path / "capture.har")


@pytest.fixture
def paging_rules(tmp_path: Path) -> Path:
    rules = copy_rules(tmp_path)
    edit_pattern(rules / "view-query-params.yaml", r"(id: query-param\.limit.*?words: \[)", r"\1count_max, ")
    return rules


def test_a_page_word_of_the_builds_table_bounds_the_page(tmp_path, paging_rules):
    create = _create(build_bundle(_paged_capture(tmp_path, 3), rules=str(paging_rules)))
    # the collection holds 4 entities, past the page of 3: serving answers it from its recording
    assert create.contradicted_by is None and 8 not in create.checked_record_ordinals
    assert create.served, create.reason


def test_a_page_the_collection_still_fits_is_checked_with_the_builds_table(tmp_path, paging_rules):
    create = _create(build_bundle(_paged_capture(tmp_path, 10), rules=str(paging_rules)))
    # a page of 10 lists every entity, so the list lacking both creates contradicts one
    assert create.contradicted_by == 8


# --- the insert candidates ------------------------------------------------------------------------

def _listed_first_capture(tmp_path: Path) -> Path:
    """A create a later whole list shows first, the initial list being in no sorted order."""
    unsorted = [{"id": 5, "title": "e"}, {"id": 1, "title": "a"}]
    builder = HarBuilder()
    builder.call("GET", "/items", response=unsorted)                                      # 1
    builder.call("GET", "/items/5", response=unsorted[0])                                 # 2
    builder.call("GET", "/items/1", response=unsorted[1])                                 # 3
    builder.call("POST", "/items", body={"title": "c"}, status=201, response=C)           # 4
    builder.call("GET", "/items/3", response=C)                                           # 5
    builder.call("GET", "/items", response=[C] + unsorted)                                # 6
    return builder.write(tmp_path / "capture.har")


def test_the_packaged_insert_candidates_place_the_create_first(tmp_path):
    create = _create(build_bundle(_listed_first_capture(tmp_path)))
    assert create.served and create.insert.kind == "first", create.reason


def test_an_edited_insert_candidates_table_without_first_decides_the_placement(tmp_path):
    rules = copy_rules(tmp_path)
    edit_pattern(rules / "insert-candidates.yaml", r"^  - id: insert\.first\n.*?(?=^  - id: insert\.last)", "")
    create = _create(build_bundle(_listed_first_capture(tmp_path), rules=str(rules)))
    assert create.insert is None or create.insert.kind != "first"
    assert not create.served and create.contradicted_by == 6
