"""A member two reads of one entity show differently with no write between is volatile when one
request line answered both (the same read tool and query), or two lines with scalar values (a
relative time); an array two lines show differently (a folder's children, [] in the plain
listing, whole with ?recursive=true) is what each line asks, not a change (``view-volatile-members``)."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

DOC = {"key": "notes/alpha.txt", "kind": "doc", "words": 12}


def folder(children: list[dict], seen: str = "2 seconds ago") -> dict:
    return {"key": "notes", "kind": "folder", "seen": seen, "children": children}


def listing(recursive_second: bool) -> HarBuilder:
    har = HarBuilder().call("GET", "/docs", response={"docs": [folder([])]})
    if recursive_second:
        har.call("GET", "/docs", query={"recursive": "true"}, response={"docs": [folder([DOC], "3 seconds ago")]})
    else:
        har.call("GET", "/docs", response={"docs": [folder([DOC], "3 seconds ago")]})
    return har


def test_children_shown_whole_only_by_another_query_are_not_volatile():
    view = build_from(listing(recursive_second=True)).view.view("get_docs")
    assert "children" not in view.volatile_fields
    assert "seen" in view.volatile_fields  # a scalar two lines show differently still is
    (plain,) = [line for line in view.lines if not line.query]
    assert not plain.state_backed  # the state holds the whole children the plain listing never shows


def test_children_one_line_shows_differently_are_volatile():
    view = build_from(listing(recursive_second=False)).view.view("get_docs")
    assert "children" in view.volatile_fields
