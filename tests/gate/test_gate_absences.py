"""A recorded absence the copy cannot explain (gate/absences.py; seeds: "Not modelled": side effects
on other entities, a delete that takes its dependents with it): a read showing an entity absent —
the type's absence answer, or a whole list without it — while the copy still holds it, after
modelled writes that did not touch it, contradicts those writes as side-effect, whatever path
they wrote. A session app: ending a session stops its kernel."""

from __future__ import annotations

from support.capture_runs import build_from, plan, summary
from support.har_builder import HarBuilder

S1 = {"id": "s1", "name": "one", "kernel": {"id": "k1"}}
S2 = {"id": "s2", "name": "two", "kernel": {"id": "k2"}}
K1, K2 = {"id": "k1", "name": "python3"}, {"id": "k2", "name": "python3"}
GONE_S = {"message": "Session not found", "reason": None}
GONE_K = {"message": "Kernel does not exist", "reason": None}


def _app(deleted: dict = S1) -> HarBuilder:
    """The sessions and kernels read, then the session ``deleted`` (default s1, whose kernel is k1)."""
    kept = S2 if deleted is S1 else S1
    return (HarBuilder()
            .call("GET", "/api/sessions", response=[S1, S2])                      # 1
            .call("GET", f"/api/sessions/{deleted['id']}", response=deleted)      # 2
            .call("GET", "/api/kernels", response=[K1, K2])                       # 3
            .call("GET", "/api/kernels/k1", response=K1)                          # 4
            .call("GET", "/api/kernels/k9", status=404, response=GONE_K)          # 5
            .call("GET", "/api/sessions/s9", status=404, response=GONE_S)         # 6
            .call("DELETE", f"/api/sessions/{deleted['id']}", status=204)         # 7
            .call("GET", f"/api/sessions/{deleted['id']}", status=404, response=GONE_S)  # 8
            .call("GET", "/api/sessions", response=[kept]))                       # 9


def _record(bundle, ordinal: int):
    return next(t for t in bundle.manifest.tools if ordinal in t.record_ordinals)


def test_a_delete_whose_kernel_a_later_item_read_shows_absent_is_a_side_effect():
    bundle = build_from(_app().call("GET", "/api/kernels/k1", status=404, response=GONE_K))  # 10
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert (delete.served, delete.reason, delete.contradicted_by) == (False, "side-effect", 10), summary(bundle)
    assert 8 in delete.checked_record_ordinals  # its own absence confirmed it: the cascade is what fails
    note = next(t for t in delete.traces if "absences.py" in (t.location or ""))
    assert "kernels 'k1' absent" in note.reason and "record 7" in note.reason


def test_a_whole_list_newly_without_the_kernel_is_a_side_effect_too():
    bundle = build_from(_app().call("GET", "/api/kernels", response=[K2]))  # 10
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert (delete.reason, delete.contradicted_by) == ("side-effect", 10), summary(bundle)
    assert any("a list of the whole collection without it" in (t.reason or "") for t in delete.traces)


def test_a_delete_that_leaves_the_kernel_in_place_stays_served():
    bundle = build_from(_app().call("GET", "/api/kernels/k1", response=K1)   # 10
                        .call("GET", "/api/kernels", response=[K1, K2]))      # 11
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert delete.served and delete.contradicted_by is None, summary(bundle)


def test_a_write_of_unknown_reach_between_does_not_excuse_a_delete_linked_to_the_absent_entity():
    """A batch call no plan models lies on no type's path: it may have removed the kernel, but so may
    the delete of the session naming it (a cascade follows references): that delete stays unproven,
    since serving it would leave a session's kernel answering."""
    bundle = build_from(_app().call("POST", "/api/batch", body={"requests": [{"method": "DELETE"}]},
                                    response={"ok": True})                                  # 10
                        .call("GET", "/api/kernels/k1", status=404, response=GONE_K))       # 11
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert (delete.served, delete.reason, delete.contradicted_by) == (False, "side-effect", 11), summary(bundle)
    assert any("record 10 (POST /api/batch)" in (t.reason or "") for t in delete.traces)


def test_a_write_of_unknown_reach_between_excuses_the_absence_from_an_unlinked_delete():
    """Session s2's delete names kernel k2, not k1, on an unrelated path: of the writes between, only
    the batch may have removed k1."""
    builder = (_app(deleted=S2)
               .call("POST", "/api/batch", body={"requests": [{"method": "DELETE"}]}, response={"ok": True})  # 10
               .call("GET", "/api/kernels/k1", status=404, response=GONE_K))         # 11
    delete = plan(build_from(builder), "DELETE", "/api/sessions/{session_id}")
    assert delete.served and delete.contradicted_by is None, delete.reason


def test_an_absence_already_recorded_before_the_write_blames_nothing():
    """The kernel was recorded absent before the session's delete (the copy still held it from the
    initial window): the delete did not remove it."""
    builder = (HarBuilder()
               .call("GET", "/api/sessions", response=[S1, S2])                      # 1
               .call("GET", "/api/sessions/s1", response=S1)                         # 2
               .call("GET", "/api/kernels", response=[K1, K2])                       # 3
               .call("GET", "/api/kernels/k9", status=404, response=GONE_K)          # 4
               .call("GET", "/api/sessions/s9", status=404, response=GONE_S)         # 5
               .call("PATCH", "/api/kernels/k2/rename", body={"x": 1}, status=500)   # 6: unanswered-like, no reach on k1
               .call("GET", "/api/kernels/k1", status=404, response=GONE_K)          # 7
               .call("DELETE", "/api/sessions/s1", status=204)                       # 8
               .call("GET", "/api/sessions/s1", status=404, response=GONE_S)         # 9
               .call("GET", "/api/kernels/k1", status=404, response=GONE_K))         # 10
    bundle = build_from(builder)
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    assert delete.served and delete.contradicted_by is None, summary(bundle)


def test_a_create_the_list_does_not_show_is_contradicted_not_blamed_on_later_writes():
    """The kernel the POST made (answered by its id alone, so the item read only observes it and
    leaves it awaiting a check) is missing from the whole list: that create is contradicted by the
    list; the session delete between, which did not touch it, is no side effect."""
    bundle = build_from(_app().call("POST", "/api/kernels", body={"name": "python3"}, status=201,
                                    response={"id": "k3"})                     # 10
                        .call("GET", "/api/kernels/k3", response={"id": "k3", "name": "python3"})  # 11
                        .call("DELETE", "/api/sessions/s2", status=204)        # 12
                        .call("GET", "/api/sessions/s2", status=404, response=GONE_S)  # 13
                        .call("GET", "/api/kernels", response=[K1, K2]))       # 14
    delete = plan(bundle, "DELETE", "/api/sessions/{session_id}")
    create = plan(bundle, "POST", "/api/kernels")
    assert create.contradicted_by == 14, summary(bundle)
    assert delete.served and delete.contradicted_by is None, summary(bundle)


def test_a_short_id_links_only_under_a_member_named_after_its_type():
    """Task 8 names project 3 under ``project``; prediction 3 shares the number by chance. Both are
    written before the task reads absent: the project delete that took its tasks with it is
    blamed, the prediction update is not."""
    task = {"id": 8, "project": 3, "inner_id": 3}
    builder = (HarBuilder()
               .call("GET", "/projects", response=[{"id": 3, "title": "p"}])                 # 1
               .call("GET", "/projects/3", response={"id": 3, "title": "p"})                 # 2
               .call("GET", "/predictions", response=[{"id": 3, "score": 1}])               # 3
               .call("GET", "/predictions/3", response={"id": 3, "score": 1})               # 4
               .call("GET", "/tasks", response=[task])                                       # 5
               .call("GET", "/tasks/8", response=task)                                       # 6
               .call("GET", "/tasks/99", status=404, response={"detail": "Not found."})      # 7
               .call("GET", "/projects/99", status=404, response={"detail": "Not found."})   # 8
               .call("GET", "/predictions/99", status=404, response={"detail": "Not found."})  # 9
               .call("PATCH", "/predictions/3", body={"score": 2}, response={"id": 3, "score": 2})  # 10
               .call("GET", "/predictions/3", response={"id": 3, "score": 2})               # 11
               .call("DELETE", "/projects/3", status=204)                                    # 12
               .call("GET", "/projects/3", status=404, response={"detail": "Not found."})    # 13
               .call("GET", "/tasks/8", status=404, response={"detail": "Not found."}))      # 14
    bundle = build_from(builder)
    assert plan(bundle, "DELETE", "/projects/{project_id}").contradicted_by == 14, summary(bundle)
    patch = plan(bundle, "PATCH", "/predictions/{prediction_id}")
    assert patch.served and patch.contradicted_by is None, summary(bundle)


def test_a_short_id_links_under_a_reference_named_after_its_type_among_other_words():
    """Region eu-1 names its parent eu under ``parent_region_id`` (a reference: its last word is id,
    another word names regions). The parent's delete took the child with it: that delete is blamed
    for the child's absence, the service update between is not."""
    eu, child = {"id": "eu", "parent_region_id": None}, {"id": "eu-1", "parent_region_id": "eu"}
    service = {"id": "s1", "name": "compute", "enabled": True}
    missing = {"error": {"code": 404, "message": "Could not find it."}}
    builder = (HarBuilder()
               .call("GET", "/regions", response={"regions": [eu, child]})                        # 1
               .call("GET", "/regions/eu", response={"region": eu})                               # 2
               .call("GET", "/regions/eu-1", response={"region": child})                          # 3
               .call("GET", "/regions/mars", status=404, response=missing)                        # 4
               .call("GET", "/services", response={"services": [service]})                        # 5
               .call("GET", "/services/s1", response={"service": service})                        # 6
               .call("GET", "/services/s9", status=404, response=missing)                         # 7
               .call("PATCH", "/services/s1", body={"service": {"enabled": False}},
                     response={"service": {**service, "enabled": False}})                         # 8
               .call("GET", "/services/s1", response={"service": {**service, "enabled": False}})  # 9
               .call("DELETE", "/regions/eu", status=204)                                         # 10
               .call("GET", "/regions/eu", status=404, response=missing)                          # 11
               .call("GET", "/regions/eu-1", status=404, response=missing))                       # 12
    bundle = build_from(builder)
    assert plan(bundle, "DELETE", "/regions/{region_id}").contradicted_by == 12, summary(bundle)
    patch = plan(bundle, "PATCH", "/services/{service_id}")
    assert patch.served and patch.contradicted_by is None, summary(bundle)


# --- a cascade from a write no plan models --------------------------------------------------

NA, NB = "5f0c4a2e-0000-4000-8000-00000000a001", "5f0c4a2e-0000-4000-8000-00000000a002"
PA, PB = "6a1d5b3f-0000-4000-8000-00000000b001", "6a1d5b3f-0000-4000-8000-00000000b002"
TA, TB = "7b2e6c40-0000-4000-8000-00000000c001", "7b2e6c40-0000-4000-8000-00000000c002"
N1, N2 = {"id": NA, "name": "node-1"}, {"id": NB, "name": "node-2"}
P1 = {"id": PA, "node_id": NA, "address": "52:54:00:00:01:01"}
P2 = {"id": PB, "node_id": NB, "address": "52:54:00:00:02:01"}
T1, T2 = {"id": TA, "title": "one"}, {"id": TB, "title": "two"}
GONE = {"error": "not found"}


def _cascade(*, retire_node: bool) -> HarBuilder:
    """A port vanishes after its node was retired by a call no plan models (202, a job), with an
    unrelated modelled delete of a template between."""
    har = (HarBuilder()
           .call("GET", "/nodes", response=[N1, N2])
           .call("GET", f"/nodes/{NA}", response=N1)
           .call("GET", f"/nodes/{NB}", response=N2)
           .call("GET", "/ports", response=[P1, P2])
           .call("GET", f"/ports/{PA}", response=P1)
           .call("GET", f"/ports/{PB}", response=P2)
           .call("GET", "/templates", response=[T1, T2])
           .call("GET", f"/templates/{TA}", response=T1)
           .call("GET", f"/templates/{TB}", response=T2)
           .call("DELETE", f"/templates/{TA}", status=204)
           .call("GET", f"/templates/{TA}", status=404, response=GONE)
           .call("GET", "/templates", response=[T2]))
    if retire_node:
        har.call("POST", f"/nodes/{NA}/retire", body={"reason": "old"}, status=202,
                 response={"job": "j-77", "state": "queued"})
    return har.call("GET", f"/ports/{PA}", status=404, response=GONE)


def test_an_absence_after_an_unmodelled_write_to_a_linked_entity_blames_no_modelled_write():
    bundle = build_from(_cascade(retire_node=True))
    delete = plan(bundle, "DELETE", "/templates/{template_id}")
    assert delete.served, (delete.reason, summary(bundle))


def test_without_that_write_the_writes_in_between_are_blamed():
    bundle = build_from(_cascade(retire_node=False))
    delete = plan(bundle, "DELETE", "/templates/{template_id}")
    assert (delete.served, delete.reason) == (False, "side-effect"), summary(bundle)


def test_a_slug_id_links_through_the_copy_of_its_entity_nested_under_a_member_named_after_its_type():
    """Projects are keyed by slug; a translation nests its project whole ({"project": {"slug": "mob",
    ...}}). The project delete takes the translation with it: that delete is blamed for the
    translation's 404, and a label's update in between, linked to nothing, is not (before, no write
    was linked, so every write in between was)."""
    proj = {"slug": "mob", "name": "Mobile", "id": 3}
    trans = {"code": "fr", "name": "French", "project": {"slug": "mob", "name": "Mobile", "id": 3}}
    label = {"id": 7, "name": "urgent", "color": "red"}
    builder = (HarBuilder()
               .call("GET", "/projects", response=[proj])                                       # 1
               .call("GET", "/projects/mob", response=proj)                                     # 2
               .call("GET", "/projects/nope", status=404, response={"detail": "Not found."})    # 3
               .call("GET", "/labels", response=[label])                                        # 4
               .call("GET", "/labels/7", response=label)                                        # 5
               .call("GET", "/labels/99", status=404, response={"detail": "Not found."})        # 6
               .call("GET", "/translations/fr", response=trans)                                 # 7
               .call("GET", "/translations/xx", status=404, response={"detail": "Not found."})  # 8
               .call("PATCH", "/labels/7", body={"color": "blue"}, response={**label, "color": "blue"})  # 9
               .call("GET", "/labels/7", response={**label, "color": "blue"})                   # 10
               .call("DELETE", "/projects/mob", status=204)                                     # 11
               .call("GET", "/projects/mob", status=404, response={"detail": "Not found."})     # 12
               .call("GET", "/translations/fr", status=404, response={"detail": "Not found."}))  # 13
    bundle = build_from(builder)
    delete = plan(bundle, "DELETE", "/projects/{project_id}")
    assert (delete.served, delete.contradicted_by) == (False, 13), summary(bundle)
    assert any("linked to it by id" in (t.reason or "") for t in delete.traces)
    patch = plan(bundle, "PATCH", "/labels/{label_id}")
    assert patch.served and patch.contradicted_by is None, summary(bundle)
