"""A difference after a diverging write is excused only where that write reached (``divergence``):
its own path, the entities it addressed or made, the membership and count of their collection."""

from __future__ import annotations

from capenv.serving.compare import parse_probes
from capenv.serving.compare.divergence import WriteReach, unexplained
from capenv.serving.compare.jsondiff import Difference, ValueMap
from capenv.serving.compare.sides import Observed

from test_session_values import session

# a GET that differs is sent to the live side twice (volatile members): its answer is scripted twice
JSON = (("content-type", "application/json"),)
REFUSED = b'{"error": "refused", "message": "no plan"}'


def test_a_list_member_the_refused_update_did_not_address_is_a_suspect():
    probes = parse_probes("""
- {method: PATCH, path: /notes/1, body: {title: new}}
- {method: GET, path: /notes}
""")
    compare, _, _ = session(
        [(200, b'{"id": 1, "title": "new"}'), *[(200, b'[{"id": 1, "title": "new"}, {"id": 2, "title": "live"}]')] * 2],
        [(405, REFUSED), (200, b'[{"id": 1, "title": "old"}, {"id": 2, "title": "stale"}]')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1]
    assert results[1].suspect
    assert [d.pointer for d in results[1].unexplained] == ["/0/title"]  # note 2, after note 1 set aside


def test_the_addressed_entity_in_a_list_is_explained():
    probes = parse_probes("""
- {method: PATCH, path: /notes/1, body: {title: new}}
- {method: GET, path: /notes}
- {method: GET, path: /notes/1}
""")
    compare, _, _ = session(
        [(200, b'{"id": 1, "title": "new"}'), *[(200, b'{"data": [{"id": 1, "title": "new"}, {"id": 2}]}')] * 2,
         *[(200, b'{"id": 1, "title": "new"}')] * 2],
        [(405, REFUSED), (200, b'{"data": [{"id": 1, "title": "old"}, {"id": 2}]}'),
         (200, b'{"id": 1, "title": "old"}')])
    results = compare.run(probes)
    assert [r.verdict for r in results[1:]] == ["different", "different"]
    assert not results[1].suspect and not results[2].suspect


def test_a_refused_create_explains_the_new_member_and_the_count_only():
    probes = parse_probes("""
- {method: POST, path: /notes, body: {title: new}, save: {note: /id}}
- {method: GET, path: /notes}
- {method: GET, path: /notes}
""")
    compare, _, _ = session(
        [(201, b'{"id": 9, "title": "new"}'),
         *[(200, b'{"count": 2, "items": [{"id": 9, "title": "new"}, {"id": 2, "title": "a"}]}')] * 4],
        [(405, REFUSED),
         (200, b'{"count": 1, "items": [{"id": 2, "title": "a"}]}'),
         (200, b'{"count": 1, "items": [{"id": 2, "title": "b"}]}')])
    results = compare.run(probes)
    assert not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/items/0/title"]


def test_a_count_off_by_other_than_the_set_aside_members_is_a_suspect():
    live = Observed(200, JSON, b'{"count": 5, "items": [{"id": 9}]}')
    model = Observed(200, JSON, b'{"count": 1, "items": []}')
    reach = WriteReach(1, {}, {"live": frozenset({"9"}), "model": frozenset()})
    paths = {"live": ("notes",), "model": ("notes",)}
    differences = [Difference("/count", 5, 1), Difference("/items/0", {"id": 9}, None)]
    assert [d.pointer for d in unexplained([reach], paths, live, model, differences, ValueMap())] == ["/count"]


def test_a_read_at_the_writes_own_path_or_naming_its_entity_is_explained():
    live, model = Observed(200, JSON, b'{"a": 1}'), Observed(200, JSON, b'{"a": 2}')
    differences = [Difference("/a", 1, 2)]
    document = WriteReach(1, {"live": ("settings",), "model": ("settings",)}, {})
    assert unexplained([document], {"live": ("settings",), "model": ("settings",)}, live, model, differences,
                       ValueMap()) == []
    entity = WriteReach(1, {}, {"live": frozenset({"7"}), "model": frozenset({"7"})})
    assert unexplained([entity], {"live": ("things", "7", "parts"), "model": ("things", "7", "parts")}, live,
                       model, differences, ValueMap()) == []
    assert unexplained([entity], {"live": ("things", "8"), "model": ("things", "8")}, live, model, differences,
                       ValueMap()) == differences


def test_a_status_difference_on_a_read_the_write_did_not_address_is_a_suspect():
    live, model = Observed(200, JSON, b'[]'), Observed(404, JSON, b'{"detail": "gone"}')
    differences = [Difference("status", 200, 404), Difference("", [], {"detail": "gone"})]
    entity = WriteReach(1, {}, {"live": frozenset({"7"}), "model": frozenset({"7"})})
    found = unexplained([entity], {"live": ("other",), "model": ("other",)}, live, model, differences, ValueMap())
    assert [d.pointer for d in found] == ["status", ""]


def test_a_list_item_naming_the_written_entity_by_its_href_is_explained():
    probes = parse_probes("""
- {method: PATCH, path: /site/about, body: {title: new}}
- {method: GET, path: /site}
""")
    compare, _, _ = session(
        [(204, b""), *[(200, b'{"items": [{"@id": "{origin}/site/news", "title": "News"},'
                             b' {"@id": "http://x/site/about", "title": "new"}]}')] * 2],
        [(405, REFUSED), (200, b'{"items": [{"@id": "{origin}/site/news", "title": "News"},'
                                b' {"@id": "http://y/site/about/", "title": "old"}]}')])  # spelled with a slash
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and results[1].verdict == "different"
    assert not results[1].suspect


def test_a_refused_create_explains_reads_of_the_entity_its_body_named():
    probes = parse_probes("""
- {method: POST, path: /projects, body: {slug: tools, name: Tools, public: true}}
- {method: GET, path: /projects/tools}
- {method: GET, path: /projects}
""")
    listed = b'[{"slug": "docs", "name": "Docs"}, {"slug": "tools", "name": "Tools"}]'
    compare, _, _ = session(
        [(201, b'{"slug": "tools"}'), *[(200, b'{"slug": "tools", "name": "Tools"}')] * 2, *[(200, listed)] * 2],
        [(405, REFUSED), (404, b'{"detail": "Not found."}'), (200, b'[{"slug": "docs", "name": "Docs"}]')])
    results = compare.run(probes)
    assert [r.verdict for r in results[1:]] == ["refused", "different"]  # a 404 where the application found it
    assert not results[1].suspect and not results[2].suspect


def test_an_entity_the_written_one_links_to_differs_only_in_its_numbers():
    probes = parse_probes("""
- {method: PATCH, path: /units/22, body: {target: done}, affects: [/translations]}
- {method: GET, path: /translations/fr}
- {method: GET, path: /translations/fr}
""")
    unit = b'{"id": 22, "translation": "{origin}/translations/fr/"}'
    compare, _, _ = session(
        [(200, unit), *[(200, b'{"code": "fr", "translated": 1, "percent": 33.3}')] * 2,
         *[(200, b'{"code": "fr", "translated": 1, "name": "French"}')] * 2],
        [(405, REFUSED), (200, b'{"code": "fr", "translated": 0, "percent": 0.0}'),
         (200, b'{"code": "fr", "translated": 0, "name": "Francais"}')])
    results = compare.run(probes)
    assert not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/name"]


def test_an_answer_holding_every_member_the_create_sent_is_that_entity_and_no_other_is():
    named = {"live": frozenset({("fqdn_listname", "owl@example.info"), ("style", "announce")}),
             "model": frozenset({("fqdn_listname", "owl@example.info"), ("style", "announce")})}
    reach = WriteReach(1, {}, {"live": frozenset(), "model": frozenset()}, named)
    paths = {"live": ("lists", "owl.example.info"), "model": ("lists", "owl.example.info")}
    found = Observed(200, JSON, b'{"fqdn_listname": "owl@example.info", "style": "announce", "count": 0}')
    absent = Observed(404, JSON, b'{"title": "404 Not Found"}')
    differences = [Difference("status", 200, 404)]
    assert unexplained([reach], paths, found, absent, differences, ValueMap()) == []
    other = Observed(200, JSON, b'{"fqdn_listname": "ant@example.com", "style": "announce", "count": 0}')
    assert unexplained([reach], paths, other, absent, differences, ValueMap())[0] == differences[0]


def test_a_read_the_probe_says_the_write_affects_differs_only_in_numbers_and_clocks():
    probes = parse_probes("""
- {method: DELETE, path: /members/m1, affects: [/lists]}
- {method: GET, path: /lists/ant}
- {method: GET, path: /lists/ant}
""")
    compare, _, _ = session(
        [(204, b""), *[(200, b'{"member_count": 1, "changed": "2026-12-07T01:44:34.015727Z"}')] * 2,
         *[(200, b'{"member_count": 1, "name": "Ant"}')] * 2],
        [(405, REFUSED), (200, b'{"member_count": 2, "changed": "2026-01-05T09:00:00Z"}'),
         (200, b'{"member_count": 2, "name": "Ants"}')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/name"]


def test_a_member_the_affecting_write_set_first_is_explained_and_another_text_is_not():
    """Weblate's translation names its last author once a unit of it is changed (null before): null beside
    the live author follows the write the probe says affects it; a text changed otherwise does not."""
    probes = parse_probes("""
- {method: PATCH, path: /units/22, body: {target: [x]}, affects: [/translations]}
- {method: GET, path: /translations/fr}
- {method: GET, path: /translations/fr}
""")
    compare, _, _ = session(
        [(200, b'{"id": 22}'), *[(200, b'{"translated": 1, "last_author": "Site Admin", "name": "fr"}')] * 4],
        [(405, REFUSED), (200, b'{"translated": 0, "last_author": null, "name": "fr"}'),
         (200, b'{"translated": 0, "last_author": "Someone", "name": "fr"}')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/last_author"]


def test_an_embedded_copy_of_an_entity_another_diverging_write_changed_is_explained():
    probes = parse_probes("""
- {method: PUT, path: /tags/t-1, body: {color: orange}}
- {method: POST, path: /models, body: {name: demand}}
- {method: GET, path: /models}
""")
    listed = b'{"items": [{"id": "m-1", "tags": [{"id": "t-1", "color": "%s"}], "name": "%s"}]}'
    compare, _, _ = session(
        [(200, b'{"id": "t-1", "color": "orange"}'), (201, b'{"id": "m-2"}'), *[(200, listed % (b"orange", b"a"))] * 2],
        [(405, REFUSED), (405, REFUSED), (200, listed % (b"yellow", b"b"))])
    results = compare.run(probes)
    assert results[2].diverged_by == [2]  # only the create's scope holds the read
    assert [d.pointer for d in results[2].unexplained] == ["/items/0/name"]


def test_an_id_a_create_drew_after_a_diverging_create_is_explained_and_an_echo_is_not():
    probes = parse_probes("""
- {method: POST, path: /projects, body: {name: one}}
- {method: POST, path: /projects, body: {name: two}}
""")
    compare, _, _ = session(
        [(201, b'{"id": "UHJvamVjdDox"}'), (201, b'{"id": "UHJvamVjdDoy", "name": "two", "kind": "live"}')],
        [(405, REFUSED), (201, b'{"id": "UHJvamVjdDox", "name": "Two", "kind": "model"}')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1]
    assert [d.pointer for d in results[1].unexplained] == ["/name", "/kind"]  # no id of a drawn shape


def test_an_id_reused_after_the_diverging_delete_is_set_aside_with_its_counterpart():
    live = Observed(200, JSON, b'[{"id": 4, "title": "later"}, {"id": 2, "title": "two"}]')
    model = Observed(200, JSON, b'[{"id": 5, "title": "later"}, {"id": 4, "title": "deleted"},'
                                b' {"id": 2, "title": "2"}]')
    values = ValueMap()
    values.pair(4, 5)  # the later create: live drew 4 again, the model 5
    reach = WriteReach(1, {}, {"live": frozenset({"4"}), "model": frozenset({"4"})})
    paths = {"live": ("posts",), "model": ("posts",)}
    differences = [Difference("/0/id", 4, 5)]
    assert [(d.pointer, d.live, d.model) for d in unexplained([reach], paths, live, model, differences, values)] \
        == [("/0/title", "two", "2")]


def test_a_create_in_an_envelope_names_its_entity_by_the_envelopes_members():
    probes = parse_probes("""
- {method: POST, path: /projects, body: {project: {identifier: vostok, name: Vostok}}}
- {method: GET, path: /projects/vostok}
""")
    compare, _, _ = session(
        [(201, b'{"project": {"id": 4}}'), *[(200, b'{"project": {"id": 4, "identifier": "vostok"}}')] * 2],
        [(405, REFUSED), (404, b"")])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect


def test_the_member_a_refused_create_made_with_an_empty_body_is_set_aside_by_the_id_it_drew():
    probes = parse_probes("""
- {method: POST, path: /posts, body: {}}
- {method: GET, path: /posts}
""")
    compare, _, _ = session(
        [(201, b'{"id": 12}'), *[(200, b'[{"id": 1, "title": "a"}, {"id": 12}]')] * 2],
        [(400, REFUSED), (200, b'[{"id": 1, "title": "a"}]')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and results[1].verdict == "different" and not results[1].suspect


def test_a_suspect_is_shown_in_the_text_and_the_json_report():
    from capenv.serving.compare import render_text, report_document
    probes = parse_probes("""
- {method: PATCH, path: /notes/1, body: {title: new}}
- {method: GET, path: /notes}
""")
    compare, _, _ = session(
        [(200, b'{"id": 1, "title": "new"}'), *[(200, b'[{"id": 1, "title": "new"}, {"id": 2, "title": "live"}]')] * 2],
        [(405, REFUSED), (200, b'[{"id": 1, "title": "old"}, {"id": 2, "title": "stale"}]')])
    results = compare.run(probes)
    assert '      suspect: 1 no diverging write reached, first /0/title: live "live" | model "stale"' \
        in render_text(results, "live", "model").splitlines()
    assert report_document(results, "live", "model")["calls"][1]["unexplained"] == [
        {"pointer": "/0/title", "live": "live", "model": "stale"}]


def test_under_the_written_entity_all_is_explained_and_of_its_parent_only_numbers_and_clocks():
    live = Observed(200, JSON, b'{"count": 1, "title": "a"}')
    model = Observed(200, JSON, b'{"count": 2, "title": "b"}')
    differences = [Difference("/count", 1, 2), Difference("/title", "a", "b")]
    paths = {"live": ("things", "7", "parts"), "model": ("things", "7", "parts")}
    written = WriteReach(1, {}, {"live": frozenset({"7"}), "model": frozenset({"7"})})
    assert unexplained([written], paths, live, model, differences, ValueMap()) == []
    child = WriteReach(1, {}, {"live": frozenset({"9"}), "model": frozenset({"9"})},
                       parents={"live": frozenset({"7"}), "model": frozenset({"7"})})
    parent = {"live": ("things", "7"), "model": ("things", "7")}
    assert [d.pointer for d in unexplained([child], parent, live, model, differences, ValueMap())] == ["/title"]


def test_a_member_made_by_a_refused_create_is_the_item_agreeing_with_every_member_it_holds_of_the_body():
    named = frozenset({("list_id", "owl.example.info"), ("subscriber", "bart@example.com")})
    reach = WriteReach(1, {}, {"live": frozenset(), "model": frozenset()}, {"live": named, "model": named})
    live = Observed(200, JSON, b'{"total_size": 3, "entries": [{"list_id": "ant.example.com", "email": "a@x"},'
                               b' {"list_id": "owl.example.info", "email": "b@x"},'
                               b' {"list_id": "owl.example.info", "email": "c@x", "subscriber": "carl@x"}]}')
    model = Observed(200, JSON, b'{"total_size": 1, "entries": [{"list_id": "ant.example.com", "email": "a@x"},'
                                b' {"list_id": "owl.example.info", "email": "c@x", "subscriber": "carl@x"}]}')
    paths = {"live": ("members",), "model": ("members",)}
    differences = [Difference("/total_size", 3, 1)]
    assert [(d.pointer, d.live, d.model) for d in unexplained([reach], paths, live, model, differences, ValueMap())] \
        == [("/total_size", 3, 1)]  # one member set aside (the one holding no subscriber), the count off by two


def test_a_number_names_the_written_entity_only_under_the_member_that_held_it():
    probes = parse_probes("""
- {method: POST, path: /threads, body: {category: 4, title: Maintenance}, save: {thread: /id}}
- {method: GET, path: /threads}
""")
    compare, _, _ = session(
        [(200, b'{"id": 4, "title": "Maintenance"}'),
         *[(200, b'[{"id": 4, "category": 4, "title": "Maintenance"}, {"id": 1, "category": 4, "title": "W"}]')] * 2],
        [(405, REFUSED), (200, b'[{"id": 1, "category": 4, "title": "W"}]')])
    results = compare.run(probes)
    assert results[1].verdict == "different" and not results[1].suspect  # thread 1 in category 4 is kept


def test_the_last_item_a_created_entity_pushed_off_a_page_is_explained():
    """Misago's threads page holds two: the live side's new thread 4 pushed thread 2 to the next page;
    set aside, the live page lacks its last item, which the create explains; a third item missing is not."""
    probes = parse_probes("""
- {method: POST, path: /threads, body: {title: maint}}
- {method: GET, path: /threads}
- {method: GET, path: /threads}
""")
    page = b'{"results": [%s]}'
    t4, t3, t2, t1 = (b'{"id": %d, "title": "t%d"}' % (n, n) for n in (4, 3, 2, 1))
    compare, _, _ = session(
        [(201, b'{"id": 4, "title": "maint"}'), *[(200, page % b",".join([t4, t3]))] * 2,
         *[(200, page % b",".join([t4, t3]))] * 2],
        [(405, REFUSED), (200, page % b",".join([t3, t2])), (200, page % b",".join([t3, t2, t1]))])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect, results[1].unexplained
    assert results[2].suspect


def test_a_tally_per_value_a_linked_write_moved_is_explained():
    """Alerta counts alerts per status, a status counted 0 left out: an action the probe says affects the
    counts moves one alert to "ack" on the live side only; a member of another kind missing stays a suspect."""
    probes = parse_probes("""
- {method: PUT, path: /alert/a1/action, body: {action: ack}, affects: [/alerts/count]}
- {method: GET, path: /alerts/count}
- {method: GET, path: /alerts/count}
""")
    compare, _, _ = session(
        [(200, b'{"status": "ok"}'), *[(200, b'{"statusCounts": {"open": 1, "ack": 1}, "note": "x"}')] * 4],
        [(405, REFUSED), (200, b'{"statusCounts": {"open": 2}, "note": "x"}'),
         (200, b'{"statusCounts": {"open": 2, "ack": 0}}')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect, results[1].unexplained
    assert [d.pointer for d in results[2].unexplained] == ["/note"]


def _names_after_a_refused_delete(model_names: bytes) -> list:
    """A delete the model refused, then a list of names only: the live list lacks the deleted entity,
    which a read of its own path before the delete showed by its name."""
    probes = parse_probes("""
- {method: GET, path: /repos/a1}
- {method: DELETE, path: /repos/a1}
- {method: GET, path: /repos, query: {fields: name}}
""")
    compare, _, _ = session(
        [(200, b'{"id": "a1", "name": "legacy", "kind": "file"}'), (204, b''),
         *[(200, b'{"count": 2, "results": [{"name": "docs"}, {"name": "web"}]}')] * 2],
        [(200, b'{"id": "a1", "name": "legacy", "kind": "file"}'), (405, REFUSED), (200, model_names)])
    return compare.run(probes)


def test_the_only_item_projecting_the_written_entity_as_read_before_is_explained():
    results = _names_after_a_refused_delete(
        b'{"count": 3, "results": [{"name": "docs"}, {"name": "legacy"}, {"name": "web"}]}')
    assert results[2].diverged_by == [2]
    assert results[2].verdict == "different" and not results[2].suspect


def test_a_projection_other_items_share_or_another_difference_stays_a_suspect():
    # the written entity's values shown by two items: neither is set aside
    shared = _names_after_a_refused_delete(
        b'{"count": 3, "results": [{"kind": "file"}, {"kind": "file"}, {"kind": "web"}]}')
    assert shared[2].suspect
    # set aside, the rest still differs: another entity renamed
    renamed = _names_after_a_refused_delete(
        b'{"count": 3, "results": [{"name": "docs"}, {"name": "legacy"}, {"name": "other"}]}')
    assert renamed[2].suspect and [d.pointer for d in renamed[2].unexplained] == ["/results/1/name"]


def _labels_after(live_labels: list, model_labels: list,
                  label_members: frozenset[str] = frozenset({"id"}),
                  record: WriteReach | None = None) -> list[tuple[str, object, object]]:
    """The unexplained differences of a labels list read after two writes only the live side made: a
    label create (its id 7) and a create in another collection, records, whose id 3 a label holds too;
    label 8 on the live side and 5 on the model's are the one label a create both sides made."""
    from capenv.interpreter.bundle.jsonvalue import dumps
    from capenv.serving.compare.jsondiff import diff_json
    live, model = (Observed(200, JSON, dumps(body)) for body in (live_labels, model_labels))
    values = ValueMap()
    values.pair(8, 5)
    label = WriteReach(1, {}, {"live": frozenset({7}), "model": frozenset()}, id_members=label_members,
                       succeeded=frozenset({"live"}), collection={"live": ("labels",), "model": ("labels",)}, tally=1)
    record = record or WriteReach(2, {}, {"live": frozenset({3}), "model": frozenset()}, id_members=frozenset({"id"}),
                                  succeeded=frozenset({"live"}),
                                  collection={"live": ("records",), "model": ("records",)})
    paths = {"live": ("labels",), "model": ("labels",)}
    differences = diff_json(live_labels, model_labels, values)
    return [(d.pointer, d.live, d.model) for d in unexplained([label, record], paths, live, model, differences,
                                                               values)]


def test_an_id_another_collections_write_reached_sets_no_item_of_this_list_aside():
    """Record 3 is no label 3: set aside for it on one side alone, the rest of the list compared in order
    pairs label 8 with label 3, not with its own counterpart 5."""
    live = [{"id": 3, "name": "archived"}, {"id": 7, "name": "extra"}, {"id": 8, "name": "both"}]
    model = [{"id": 3, "name": "archived"}, {"id": 5, "name": "both"}]
    assert _labels_after(live, model) == []


def test_a_label_differing_beside_another_collections_write_stays_a_suspect():
    live = [{"id": 3, "name": "archived"}, {"id": 7, "name": "extra"}, {"id": 8, "name": "both"}]
    model = [{"id": 3, "name": "ARCHIVED"}, {"id": 5, "name": "both"}]
    assert _labels_after(live, model) == [("/0/name", "archived", "ARCHIVED")]


def test_a_reference_to_another_collections_entity_still_names_it():
    """A label listing record 3 under ``record`` (a member naming entities by number, not the record write's
    own id member) is set aside for that record's update (only the live side made it), on both sides."""
    update = WriteReach(2, {"live": ("records", "3"), "model": ("records", "3")}, {side: frozenset({"3"}) for side in
                        ("live", "model")}, id_members=frozenset({"id"}), succeeded=frozenset({"live"}))
    live = [{"id": 1, "record": 3, "name": "moved"}, {"id": 7, "name": "extra"}, {"id": 8, "name": "both"}]
    model = [{"id": 1, "record": 3, "name": "kept"}, {"id": 5, "name": "both"}]
    assert _labels_after(live, model, frozenset({"id", "record"}), update) == []
    live[0]["id"], model[0]["id"] = 3, 3  # the label 3 is no record 3: compared
    assert _labels_after(live, model, frozenset({"id"}), update) == [("/0/name", "moved", "kept")]


def test_a_cascade_into_this_list_names_no_item_by_another_collections_id():
    """A playbook create only the live side made, its probe affecting labels: playbook 3 is no label 3."""
    cascade = WriteReach(2, {}, {"live": frozenset({3}), "model": frozenset()}, id_members=frozenset({"id"}),
                         succeeded=frozenset({"live"}), collection={"live": ("playbooks",), "model": ("playbooks",)},
                         affects={"live": (("labels",),), "model": (("labels",),)})
    live = [{"id": 3, "name": "archived"}, {"id": 7, "name": "extra"}, {"id": 8, "name": "both"}]
    assert _labels_after(live, [{"id": 3, "name": "archived"}, {"id": 5, "name": "both"}], record=cascade) == []
    assert _labels_after(live, [{"id": 3, "name": "ARCHIVED"}, {"id": 5, "name": "both"}], record=cascade) \
        == [("/0/name", "archived", "ARCHIVED")]


def test_the_pair_of_another_collections_id_sets_no_item_of_this_list_aside():
    """Record 8 (only the live side made it) is no label 8, nor label 5 that the model gave the label the live
    side numbered 8: neither side sets its label aside."""
    record = WriteReach(2, {}, {"live": frozenset({8}), "model": frozenset()}, id_members=frozenset({"id"}),
                        succeeded=frozenset({"live"}), collection={"live": ("records",), "model": ("records",)})
    live = [{"id": 3, "name": "archived"}, {"id": 7, "name": "extra"}, {"id": 8, "name": "both"}]
    assert _labels_after(live, [{"id": 3, "name": "archived"}, {"id": 5, "name": "both"}], record=record) == []
    assert _labels_after(live, [{"id": 3, "name": "archived"}, {"id": 5, "name": "BOTH"}], record=record) \
        == [("/1/name", "both", "BOTH")]


def test_the_counterpart_of_an_item_set_aside_for_what_it_embeds_keeps_its_own_id():
    """An author delete only the live side made: the model's book 1 still embeds author 1 and is set aside;
    the live book 1 (its author now null) is its counterpart by the id 1, which names a book here, not the
    author; book 2 is compared, and a difference there stays a suspect."""
    delete = WriteReach(1, {"live": ("authors", "1"), "model": ("authors", "1")},
                        {side: frozenset({"1"}) for side in ("live", "model")}, id_members=frozenset({"id"}),
                        succeeded=frozenset({"live"}), collection={"live": ("authors",), "model": ("authors",)},
                        deletes=True, tally=-1)
    edit = WriteReach(2, {"live": ("books", "9"), "model": ("books", "9")},
                      {side: frozenset({"9"}) for side in ("live", "model")}, id_members=frozenset({"id"}),
                      succeeded=frozenset({"live"}))
    paths = {"live": ("books",), "model": ("books",)}
    values = ValueMap()
    from capenv.interpreter.bundle.jsonvalue import dumps
    from capenv.serving.compare.jsondiff import diff_json

    def after(second_title: str) -> list[tuple[str, object, object]]:
        live = [{"id": 1, "title": "Left Hand", "author": None}, {"id": 2, "title": "Dune", "author": None}]
        model = [{"id": 1, "title": "Left Hand", "author": {"id": 1, "name": "Ursula"}},
                 {"id": 2, "title": second_title, "author": None}]
        found = unexplained([delete, edit], paths, Observed(200, JSON, dumps(live)), Observed(200, JSON, dumps(model)),
                            diff_json(live, model, values), values)
        return [(d.pointer, d.live, d.model) for d in found]

    assert after("Dune") == []
    assert after("DUNE") == [("/0/title", "Dune", "DUNE")]
