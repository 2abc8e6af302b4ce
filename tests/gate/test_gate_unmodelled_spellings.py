"""An unmodelled write reaches collections whatever the spelling (write-effects, "The gate":
"a path above collections covers each collection whose segments are its own verbatim or once
percent-decoded"; "a plain spelling reaches a collection held under an encoded one").

A project named ``a-b``, recorded as ``a%2Db``, holds items. A failed write above its items (or
at them), spelled plainly, leaves them unchecked, so a later list showing the write's outcome
contradicts nothing; the same write to another project leaves them checked."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

HELD = "/projects/a%2Db/items"
ITEMS = [{"id": 1, "title": "t1"}, {"id": 2, "title": "t2"}]
NEW = {"id": 3, "title": "c"}


def _capture(unmodelled_path: str):
    builder = HarBuilder()
    builder.call("GET", HELD, response=ITEMS)                                          # 1
    builder.call("GET", f"{HELD}/1", response=ITEMS[0])                                # 2
    builder.call("GET", f"{HELD}/2", response=ITEMS[1])                                # 3
    builder.call("POST", HELD, body={"title": "c"}, status=201, response=NEW)          # 4
    builder.call("GET", f"{HELD}/3", response=NEW)                                     # 5: confirms the create
    builder.call("DELETE", unmodelled_path, status=500, response={"error": "boom"})   # 6: may have changed state
    builder.call("GET", HELD, response=ITEMS)                                          # 7: the create's item gone
    return build_from(builder)


@pytest.mark.parametrize("path", ["/projects/a-b",          # above the collection, plainly spelled
                                  "/projects/a%2Db",        # ... as recorded
                                  "/projects/a-b/items"])   # at the collection, plainly spelled
def test_an_unmodelled_write_reaches_the_collection_in_either_spelling(path):
    create = plan(_capture(path), "POST", HELD)
    assert create.contradicted_by is None, create.reason
    assert 7 not in create.checked_record_ordinals
    assert create.served and 5 in create.checked_record_ordinals


@pytest.mark.parametrize("path", ["/projects/x", "/projects/a-c", "/projects/a%2Dc"])
def test_an_unmodelled_write_to_another_project_leaves_the_collection_checked(path):
    create = plan(_capture(path), "POST", HELD)
    assert (create.served, create.contradicted_by) == (False, 7)
