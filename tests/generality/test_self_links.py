"""Entities linking to themselves. DRF's ``url`` member, a string ending in the new id, is a
template (write-effects: "a string containing a generated value … as a delimited token"): creates
served, the link rebuilt. HAL's ``_links.self.href`` nests the new id inside an object, which the
spec's template does not reach: kept as a constant it would answer every create with the
exemplar's link, so the create is refused (``constant-holds-generated``), never answered so;
updates and deletes keep the link and are served."""

from __future__ import annotations

from pathlib import Path

import pytest

from .convention_app import Conventions
from .holding import hold
from .scenario import PLAIN_WRITES
from .test_crossed_conventions import plain_tools

CREATES = ("create a note", "create a tag", "delete the new tag", "delete the new note", "update the new note")
"""The probes on the created entities (and the writes on them): refused with the creates."""


@pytest.mark.parametrize("conventions", [
    Conventions("drf-url-links", links="url", list_shape="drf", slash=True),
    Conventions("url-links-uuid-data", links="url", ids="uuid", list_shape="data", item_shape="data"),
], ids=lambda c: c.name)
def test_a_url_member_is_rebuilt_around_the_new_identity(conventions: Conventions, tmp_path: Path) -> None:
    hold(conventions, tmp_path, PLAIN_WRITES, served=plain_tools(conventions))


@pytest.mark.parametrize("conventions", [
    Conventions("hal-links", links="hal"),
    Conventions("hal-links-uuid-data", links="hal", ids="uuid", list_shape="data", item_shape="data"),
    Conventions("hal-links-objectids-camel", links="hal", ids="hex24", names="mongo-camel", slash=True),
], ids=lambda c: c.name)
def test_a_hal_self_link_refuses_the_create_and_serves_the_rest(conventions: Conventions, tmp_path: Path) -> None:
    creates = [f"post_{kind}" for kind in ("notes", "tags")]
    hold(conventions, tmp_path, tuple(p for p in PLAIN_WRITES if p not in CREATES),
         dict.fromkeys(creates, "constant-holds-generated"),
         served=tuple(t for t in plain_tools(conventions) if t not in creates))
