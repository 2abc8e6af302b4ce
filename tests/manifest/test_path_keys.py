"""What an item path carries: the identity member is the one item reads show equal to the path
value, whatever it is called; literal sub-paths under a collection (``/posts/slug/{slug}/``,
``/users/me/``) are no item paths of an id."""

from __future__ import annotations

from support.capture_runs import build_from
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime

W1 = {"id": 1, "documentId": "k8v2qz0m4x7c1n5b3r9t6y2w", "label": "alpha"}
W2 = {"id": 2, "documentId": "p3l6d9s2f5g8h1j4k7z0x3c6", "label": "beta"}
B1 = {"number": 11, "sku": "blue-widget", "price": 3}
B2 = {"number": 12, "sku": "red-widget", "price": 4}


def test_the_identity_is_the_member_the_item_path_carries_even_beside_an_id():
    har = (HarBuilder().call("GET", "/api/widgets", response={"data": [W1, W2], "meta": {}})
           .call("GET", f"/api/widgets/{W1['documentId']}", response={"data": W1, "meta": {}})
           .call("GET", f"/api/widgets/{W2['documentId']}", response={"data": W2, "meta": {}}))
    bundle = build_from(har)
    (widgets,) = bundle.view.types
    assert widgets.id_field == "documentId" and widgets.item_template == "/api/widgets/{widget_id}"
    assert widgets.list_tools == ("get_widgets",) and widgets.item_tools == ("get_widgets_by_widget_id",)


def test_a_client_chosen_key_of_any_name_makes_an_item_path_and_a_type():
    har = (HarBuilder().call("GET", "/bins", response=[B1, B2])
           .call("GET", "/bins/blue-widget", response=B1).call("GET", "/bins/red-widget", response=B2)
           .call("PATCH", "/bins/red-widget", body={"price": 5}, response={**B2, "price": 5})
           .call("GET", "/bins/red-widget", response={**B2, "price": 5}))
    bundle = build_from(har)
    assert {t.template for t in bundle.manifest.tools} == {"/bins", "/bins/{bin_id}"}
    (bins,) = bundle.view.types
    assert bins.id_field == "sku"
    runtime = EnvironmentRuntime(bundle)
    assert runtime.call_tool("get_bins_by_bin_id", {"bin_id": "blue-widget"}).structured["body"] == B1
    unknown = runtime.call_tool("get_bins_by_bin_id", {"bin_id": "green-widget"})
    assert unknown.is_error or unknown.structured["status"] >= 400  # never another bin's recording


def posts_app() -> HarBuilder:
    p1 = {"id": "5f1a2b3c4d5e6f7a8b9c0d1e", "slug": "welcome", "title": "Welcome"}
    p2 = {"id": "5f1a2b3c4d5e6f7a8b9c0d2f", "slug": "about", "title": "About"}
    return (HarBuilder().call("GET", "/posts/", response={"posts": [p1, p2]})
            .call("GET", f"/posts/{p1['id']}/", response=p1)
            .call("GET", f"/posts/{p2['id']}/", response=p2)
            .call("GET", "/posts/slug/welcome/", response=p1)
            .call("GET", "/posts/slug/about/", response=p2)
            .call("GET", "/users/", response=[{"id": 1, "name": "ann"}, {"id": 2, "name": "bob"}])
            .call("GET", "/users/1/", response={"id": 1, "name": "ann"})
            .call("GET", "/users/2/", response={"id": 2, "name": "bob"})
            .call("GET", "/users/me/", response={"id": 1, "name": "ann"}))


def test_literal_sub_paths_under_a_collection_are_no_item_paths_of_an_id():
    bundle = build_from(posts_app())
    templates = {t.name: t.template for t in bundle.manifest.tools}
    assert templates == {"get_posts": "/posts/", "get_posts_by_post_id": "/posts/{post_id}/",
                         "get_posts_slug_by_slug": "/posts/slug/{slug}/", "get_users": "/users/",
                         "get_users_by_user_id": "/users/{user_id}/", "get_users_me": "/users/me/"}
    posts = next(t for t in bundle.view.types if t.name == "posts")
    assert posts.id_field == "id" and posts.key_fields == {"get_posts_slug_by_slug": "slug"}
    assert bundle.view.view("get_users_me").kind == "document"


def test_reads_by_a_key_field_answer_the_entity_the_key_names():
    runtime = EnvironmentRuntime(build_from(posts_app()))
    answer = runtime.call_tool("get_posts_slug_by_slug", {"slug": "about"})
    assert answer.structured["body"]["title"] == "About"
