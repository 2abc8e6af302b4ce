"""Document writes of an application answering every call in one envelope, ``{"data": …}``.
A settings document held as ``{"data": {"data": {…}, "meta": {}}}`` (Strapi's single type, wrapped)
is written two members deep although an empty ``meta`` sits beside (``document_plan._object_pointer``
took only an object of one member for an envelope), and a write answered ``{"data": {"message": …,
"result": {…}}}`` shows the object it wrote in ``result`` inside the document's own member
(``_answer_locator``), so the clock it moved is learned from it. Before, the first was
unexplained-change (the whole ``data`` taken for one changed member) and the second contradicted
(``updatedAt`` moved by a rule no one learned)."""

from __future__ import annotations

from support.capture_runs import build_from, plan
from support.har_builder import HarBuilder

from capenv.serving.runtime import EnvironmentRuntime


def wrapped(answer: object) -> dict:
    return {"data": answer}


def single_type(wrap=wrapped) -> HarBuilder:
    """A document answered as ``{"data": {…}, "meta": {}}`` and written with a ``{"data": …}`` body."""
    one = {"id": 1, "siteName": "blog", "theme": "light", "updatedAt": "2026-12-01T10:00:00.000Z"}
    two = {**one, "theme": "dark", "updatedAt": "2026-12-01T10:00:05.000Z"}
    three = {**two, "siteName": "journal", "updatedAt": "2026-12-01T10:00:09.000Z"}
    return (HarBuilder()
            .call("GET", "/api/global", response=wrap({"data": one, "meta": {}}))
            .call("PUT", "/api/global", body={"data": {"theme": "dark"}}, response=wrap({"data": two, "meta": {}}),
                  started="2026-12-01T10:00:05.000Z")
            .call("GET", "/api/global", response=wrap({"data": two, "meta": {}}))
            .call("PUT", "/api/global", body={"data": {"siteName": "journal"}},
                  response=wrap({"data": three, "meta": {}}), started="2026-12-01T10:00:09.000Z")
            .call("GET", "/api/global", response=wrap({"data": three, "meta": {}})))


def settings(wrap=wrapped) -> HarBuilder:
    """A document answered bare and written with a bare body, answered ``{"message", "result"}``."""
    one = {"id": 1, "siteName": "blog", "perPage": 10, "updatedAt": "2026-12-01T10:00:00.000Z"}
    two = {**one, "perPage": 25, "updatedAt": "2026-12-01T10:00:05.000Z"}
    three = {**two, "siteName": "journal", "updatedAt": "2026-12-01T10:00:09.000Z"}
    return (HarBuilder()
            .call("GET", "/api/settings", response=wrap(one))
            .call("POST", "/api/settings", body={"perPage": 25}, started="2026-12-01T10:00:05.000Z",
                  response=wrap({"message": "Updated successfully.", "result": two}))
            .call("GET", "/api/settings", response=wrap(two))
            .call("POST", "/api/settings", body={"siteName": "journal"}, started="2026-12-01T10:00:09.000Z",
                  response=wrap({"message": "Updated successfully.", "result": three}))
            .call("GET", "/api/settings", response=wrap(three)))


def test_a_document_beside_an_empty_meta_is_written_two_members_deep():
    for wrap, pointer in ((lambda answer: answer, "/data"), (wrapped, "/data/data")):
        write = plan(build_from(single_type(wrap)), "PUT", "/api/global")
        assert write.served and write.document_pointer == pointer, (write.build_reason, write.document_pointer)


def test_an_answer_wrapping_the_written_object_in_a_member_of_its_own_is_rendered_inside_the_envelope():
    bundle = build_from(settings())
    write = plan(bundle, "POST", "/api/settings")
    assert write.served, write.build_reason
    assert write.response.locator.member == "result" and write.response.locator.within == ("data",)
    answer = EnvironmentRuntime(bundle).read(write.tool, {"body": {"perPage": 50}})["body"]
    assert answer["data"]["message"] == "Updated successfully."
    assert answer["data"]["result"]["perPage"] == 50 and answer["data"]["result"]["siteName"] == "blog"


def sections(wrap=wrapped) -> HarBuilder:
    """A settings document of sections, each written by a body naming its section
    (``{"appearance": {…}}``): the body's envelope names the object the write merges into."""
    one = {"appearance": {"name": "North", "color": "blue", "closeOnLoad": False}, "feature": {"sizeDetection": True, "sounds": False},
           "temperature": {"cutoff": 30, "profiles": 2}}
    two = {**one, "appearance": {"name": "Workshop", "color": "green", "closeOnLoad": False}}
    three = {**two, "feature": {"sizeDetection": False, "sounds": False}}
    four = {**three, "temperature": {"cutoff": 45, "profiles": 2}}
    return (HarBuilder()
            .call("GET", "/api/settings", response=wrap(one))
            .call("POST", "/api/settings", body={"appearance": {"name": "Workshop", "color": "green"}},
                  response=wrap(two))
            .call("GET", "/api/settings", response=wrap(two))
            .call("POST", "/api/settings", body={"feature": {"sizeDetection": False}}, response=wrap(three))
            .call("GET", "/api/settings", response=wrap(three))
            .call("POST", "/api/settings", body={"temperature": {"cutoff": 45}}, response=wrap(four))
            .call("GET", "/api/settings", response=wrap(four)))


def test_a_section_the_body_names_is_found_inside_the_documents_own_envelope():
    """Wrapped, the section sits one member deeper (``/data/appearance``); before, only the bare
    document's sections were looked in, and the wrapped write was unexplained-change (the whole
    ``data`` taken for one changed member)."""
    bare = plan(build_from(sections(lambda answer: answer)), "POST", "/api/settings")
    enveloped = plan(build_from(sections()), "POST", "/api/settings")
    assert bare.served and bare.document_pointer == "/appearance", (bare.build_reason, bare.document_pointer)
    assert enveloped.served, enveloped.build_reason
    assert enveloped.document_pointer == "/data" + bare.document_pointer
