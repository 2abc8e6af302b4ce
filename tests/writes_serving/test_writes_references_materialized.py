"""A reference whose entity the application makes by naming it (``reference-dangling.materialized``):
a comment create naming a post no read had shown, after which the post reads as held with no write
of posts between (as a bookmark naming a new tag makes the tag, which counts the bookmarks naming
it). Serving that create would store the comment and leave the post absent where the application
answers it, so the plan stays unserved (``verdict.reference-materialized``, side-effect); with no
read of the post after it, the dangling value is only accepted and the create is served as before."""

from __future__ import annotations

import pytest
from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

POSTS = [{"id": "t6cu5l28akg4mky", "title": "Cards"}, {"id": "tji0qp4u6dy78tp", "title": "Relays"}]
NAMED = "zzzzzzzzzzzzzzz"


def capture(shown_after: bool) -> HarBuilder:
    har = HarBuilder()
    har.call("GET", "/posts", response=POSTS)
    for post in POSTS:
        har.call("GET", f"/posts/{post['id']}", response=post)
    made = [{"id": "swqqk0m73getjfi", "post": POSTS[0]["id"], "body": "first"}]
    har.call("GET", "/comments", response=made)
    for post, text, new_id in ((POSTS[1]["id"], "second", "x7bshpoldks21ov"), (NAMED, "named", "5rxhdx9am4grmk2")):
        comment = {"id": new_id, "post": post, "body": text}
        made.append(comment)
        har.call("POST", "/comments", body={"post": post, "body": text}, status=201, response=comment)
        har.call("GET", f"/comments/{new_id}", response=comment)
        har.call("GET", "/comments", response=made)
    if shown_after:
        har.call("GET", f"/posts/{NAMED}", response={"id": NAMED, "title": ""})
    return har


@pytest.mark.parametrize("shown_after", [True, False], ids=["made-by-naming", "only-accepted"])
def test_a_create_whose_named_entity_appears_after_it_is_not_served(shown_after, tmp_path):
    bundle = build_from(capture(shown_after), tmp_path / "capture.har")
    create = plan(bundle, "POST", "/comments")
    (reference,) = create.references
    assert reference.member == "post" and reference.type == "posts"
    if shown_after:
        assert reference.dangling == "materialized" and reference.record is not None
        assert not create.served and create.reason == "side-effect"
    else:
        assert reference.dangling == "accepted"
        assert create.served, create.reason
