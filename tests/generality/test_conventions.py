"""Generality beyond the corpus: the same session recorded from one small application under many
API conventions (paths, envelopes, identities, absence and delete answers), each built and held to
the application on calls the session never made. Whatever the model serves or refuses, it must
never answer wrongly; where the conventions are ones the spec can serve (a plain create, a merge or
replace confirmed by reads, a delete confirmed by the learned absence answer), it must serve them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .convention_app import Conventions
from .holding import hold
from .scenario import DOCUMENT_WRITES, PLAIN_WRITES

CONVENTIONS = [
    Conventions("plain"),
    Conventions("drf", slash=True, list_shape="drf"),
    Conventions("drf-put", slash=True, list_shape="drf", update="PUT", delete_answer="200_empty"),
    Conventions("data-envelope", list_shape="data", item_shape="data", body_shape="data", ids="uuid"),
    Conventions("data-meta", list_shape="data_meta", item_shape="data", body_shape="data",
                absence="404_problem", delete_answer="200_entity"),
    Conventions("generic-collections", generic_segment=True, list_shape="data", item_shape="data",
                body_shape="data", absence="403_errors"),
    Conventions("generic-collections-seq", generic_segment=True, list_shape="data", item_shape="data",
                body_shape="data", ids="sequence", absence="404_empty", delete_answer="204", update="PATCH"),
    Conventions("plural-envelopes", slash=True, list_shape="plural_meta", item_shape="plural_one",
                body_shape="plural_one", ids="uuid", update="PUT"),
    Conventions("named-keys", ids="name", list_shape="plural_total", absence="404_problem"),
    Conventions("named-keys-slash", ids="name", slash=True, list_shape="items_total", update="PUT"),
    Conventions("items-total-uuid", ids="uuid", list_shape="items_total", update="PUT",
                delete_answer="200_entity", absence="404_empty"),
    Conventions("queries", queries=True),
    Conventions("queries-drf", queries=True, slash=True, list_shape="drf", update="PUT"),
    Conventions("queries-data-uuid", queries=True, list_shape="data", item_shape="data", body_shape="data", ids="uuid"),
    Conventions("silent-updates", update_answer="204", list_shape="items_total"),
    Conventions("silent-updates-put", update_answer="204", update="PUT", ids="uuid", absence="404_problem"),
    Conventions("derived-slugs", slugs=True),
    Conventions("derived-slugs-envelopes", slugs=True, slash=True, list_shape="plural_meta", item_shape="plural_one",
                body_shape="plural_one"),
    Conventions("comment-counters", comments=True),
    Conventions("comment-counters-envelopes", comments=True, slash=True, list_shape="drf", item_shape="data",
                body_shape="data", ids="uuid"),
    Conventions("null-absence", absence="200_null", clocks="iso-us-offset"),
    Conventions("html-absence", absence="404_html", clocks="epoch-seconds", ids="text-sequence"),
    Conventions("text-ids-data", ids="text-sequence", list_shape="data", item_shape="data", body_shape="data",
                clocks="iso-us-offset", delete_answer="200_entity"),
    Conventions("settings", settings=True),
    Conventions("settings-data", settings=True, generic_segment=True, list_shape="data", item_shape="data",
                body_shape="data", absence="403_errors"),
    Conventions("settings-data-bare-bodies", settings=True, generic_segment=True, list_shape="data", item_shape="data",
                absence="403_errors"),
    Conventions("bare-name-data", ids="name", list_shape="data", item_shape="data", body_shape="data",
                absence="403_errors", delete_answer="200_empty"),
]


@pytest.mark.parametrize("conventions", CONVENTIONS, ids=lambda c: c.name)
def test_no_wrong_answer_under_any_convention(conventions: Conventions, tmp_path: Path) -> None:
    hold(conventions, tmp_path, PLAIN_WRITES + DOCUMENT_WRITES)
