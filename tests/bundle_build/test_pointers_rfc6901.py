"""One RFC 6901 implementation (interpreter/bundle/pointers over ``jsonpointer``), proven on the
RFC's own examples and the library's edge vectors, and used by every caller (issue #13 item 3)."""

from __future__ import annotations

import pytest

from capenv.interpreter.bundle.pointers import MISSING, PointerError, parse, resolve_text, spell

RFC = {"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, 'k"l': 6, " ": 7,
       "m~n": 8}


@pytest.mark.parametrize("pointer,expected", [
    ("", RFC), ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3),
    ("/g|h", 4), ("/i\\j", 5), ('/k"l', 6), ("/ ", 7), ("/m~0n", 8),
])
def test_rfc_6901_section_5_examples(pointer, expected) -> None:
    assert resolve_text(RFC, pointer) == expected


@pytest.mark.parametrize("document,pointer", [
    ({"a": [10, 20]}, "/a/01"),     # a leading zero is no array index
    ({"a": [10, 20]}, "/a/²"),      # str.isdigit() is true for "²"; it is no index either
    ({"a": [10, 20]}, "/a/-"),      # the element past the end is never held
    ({"a": [10, 20]}, "/a/2"),
    ({"a": [10, 20]}, "/a/-1"),
    ({"a": "text"}, "/a/0"),
])
def test_what_no_array_holds(document, pointer) -> None:
    assert resolve_text(document, pointer) is MISSING


def test_object_members_named_like_indexes_and_escapes() -> None:
    document = {"a": {"01": "zero-one", "²": "two", "~1": "tilde-one", "/": "slash"}}
    assert resolve_text(document, "/a/01") == "zero-one"
    assert resolve_text(document, "/a/²") == "two"
    assert resolve_text(document, "/a/~01") == "tilde-one"  # ~0 then 1: "~1", not "/"
    assert resolve_text(document, "/a/~1") == "slash"
    assert spell(["~1", "/"]) == "/~01/~1" and parse("/~01/~1") == ("~1", "/")


def test_a_text_that_is_no_pointer() -> None:
    with pytest.raises(PointerError):
        parse("a/b")
    assert resolve_text({"a": 1}, "a") is MISSING


def test_no_module_spells_or_reads_pointer_tokens_by_hand() -> None:
    """Every pointer token is escaped and read by interpreter/bundle/pointers: a second hand-written
    ``~0``/``~1`` codec, or an ``isdigit()`` index that "²" passes, is how three implementations came
    to disagree."""
    import re
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    by_hand = re.compile(r"""replace\(\s*["']~[01]?["']""")
    found = [f"{path.relative_to(repo)}:{number}"
             for top in ("interpreter", "serving", "fleet") for path in sorted((repo / top).rglob("*.py"))
             if path != repo / "interpreter" / "bundle" / "pointers.py"
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if by_hand.search(line)]
    assert found == []


def test_an_absence_pointer_that_names_no_element_reads_nothing() -> None:
    from capenv.interpreter.view.absence_bodies import at_pointer

    body = {"a": [10, 20], "m~n": {"x/y": 1}}
    assert at_pointer(body, "/m~0n/x~1y") == 1 and at_pointer(body, "/a/1") == 20
    for pointer in ("/a/01", "/a/²", "/a/-", "/nothing"):
        assert at_pointer(body, pointer) is not None and at_pointer(body, pointer) not in (10, 20)
