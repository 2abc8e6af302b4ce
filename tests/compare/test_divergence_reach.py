"""Where a diverging write reached, beyond its own path and the ids it made (``divergence``): names spelled
percent-encoded on one side of the comparison, a batch create's items, a side answering no JSON, a query
naming the written entity, a path value spelling the written path's tail, the place a write wrote inside a
document, the value an update sent shown beside a reference to its entity, and paired ids quoted in text.
Each widening says what the write reached; a difference elsewhere stays a suspect."""

from __future__ import annotations

from capenv.serving.compare import parse_probes
from capenv.serving.compare.divergence import WriteReach, unexplained
from capenv.serving.compare.jsondiff import ABSENT, Difference, ValueMap
from capenv.serving.compare.sides import Observed

from capenv.serving.compare import CompareSession

from test_session_values import NoTools, ScriptedSide, session

JSON = (("content-type", "application/json"),)
TEXT = (("content-type", "text/plain"),)
REFUSED = b'{"error": "refused", "message": "no plan"}'
BOTH = ("live", "model")


def _on_both(value):
    return {side: value for side in BOTH}


def test_a_name_written_percent_encoded_is_the_entity_a_list_shows_decoded():
    probes = parse_probes("""
- {method: PUT, path: "/users/two%20words", body: {}}
- {method: GET, path: /users}
- {method: GET, path: /users}
""")
    listed = b'[{"name": "ada", "admin": %s}, {"name": "two words", "admin": false}]'
    compare, _, _ = session(
        [(201, b'{"name": "two words"}'), *[(200, listed % b"false")] * 4],
        [(405, REFUSED), (200, b'[{"name": "ada", "admin": false}]'), (200, b'[{"name": "ada", "admin": true}]')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and results[1].verdict == "different" and not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/0/admin"]  # ada was not written


def test_a_read_path_spelling_a_created_name_encoded_reads_that_entity_even_where_one_side_answers_no_json():
    reach = WriteReach(1, {}, _on_both(frozenset()), _on_both(frozenset({("username", "hélène")})))
    found = Observed(200, JSON, b'{"username": "h\xc3\xa9l\xc3\xa8ne", "id": "c1"}')
    missing = Observed(404, TEXT, b"User not found")
    differences = [Difference("status", 200, 404)]
    assert unexplained([reach], _on_both(("users", "h%C3%A9l%C3%A8ne")), found, missing, differences,
                       ValueMap()) == []
    assert unexplained([reach], _on_both(("users", "helene")), Observed(200, JSON, b'{"username": "helene"}'),
                       missing, differences, ValueMap()) == differences


def test_the_entity_a_create_named_is_the_answer_one_side_gave_though_the_other_answered_no_json():
    named = frozenset({("name", "chosen-key"), ("algorithm", "hmac-sha512")})
    reach = WriteReach(1, {}, _on_both(frozenset()), _on_both(named))
    paths = _on_both(("tsigkeys", "chosen-key."))  # the application adds a dot to the name it was sent
    missing = Observed(404, TEXT, b"Not Found")
    differences = [Difference("status", 200, 404), Difference("body", {}, "Not Found")]
    key = Observed(200, JSON, b'{"id": "chosen-key.", "name": "chosen-key", "algorithm": "hmac-sha512"}')
    assert unexplained([reach], paths, key, missing, differences, ValueMap()) == []
    other = Observed(200, JSON, b'{"id": "chosen-key.", "name": "other-key", "algorithm": "hmac-sha512"}')
    assert unexplained([reach], paths, other, missing, differences, ValueMap()) == differences


def test_each_item_of_a_batch_create_is_an_entity_it_made():
    probes = parse_probes("""
- {method: POST, path: /authors/insert, body: {rows: [{name: Barbara}, {name: Edsger}]}}
- {method: GET, path: /authors}
- {method: POST, path: /scopes, body: {scopes: [metrics, support]}}
- {method: GET, path: /scopes}
- {method: GET, path: /scopes/metrics}
""")
    authors = b'{"rows": [{"id": 1, "name": "Ada"}, {"id": 6, "name": "Barbara"}, {"id": 7, "name": "Edsger"}]}'
    compare, _, _ = session(
        [(201, b'{"ok": true}'), *[(200, authors)] * 2, (201, b'{"ok": true}'),
         *[(200, b'{"scopes": ["read", "metrics", "support"]}')] * 2, *[(200, b'{"scope": "metrics"}')] * 2],
        [(400, REFUSED), (200, b'{"rows": [{"id": 1, "name": "Ada L."}]}'), (400, REFUSED),
         (200, b'{"scopes": ["read"]}'), (404, b'{"detail": "scope not found"}')])
    results = compare.run(probes)
    assert [d.pointer for d in results[1].unexplained] == ["/rows/0/name"]  # Ada was in no batch
    assert results[3].verdict == "different" and not results[3].suspect
    assert results[4].diverged_by == [3] and not results[4].suspect


def test_a_query_naming_the_written_entity_of_a_read_the_write_affects_is_explained():
    probes = parse_probes("""
- {method: PATCH, path: /folders/photos, body: {paused: true}, affects: [/db/status]}
- {method: GET, path: /db/status, query: {folder: photos}}
- {method: GET, path: /db/status, query: {folder: music}}
""")
    compare, _, _ = session(
        [(200, b'{"id": "photos", "paused": true}'), *[(200, b'{"state": ""}')] * 4],
        [(405, REFUSED), (200, b'{"state": "idle"}'), (200, b'{"state": "idle"}')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/state"]  # another folder's state


def test_a_value_spelling_the_tail_of_the_written_path_names_that_entity():
    written = WriteReach(1, {}, _on_both(frozenset({"/api/contents/data/raw/sensor-04.csv", "/v2/keys/archive"})))
    live = Observed(200, JSON, b'{"content": [{"path": "data/raw/a.csv", "size": 1},'
                               b' {"path": "data/raw/sensor-04.csv", "size": 15}], "keys": [{"key": "/archive"}]}')
    model = Observed(200, JSON, b'{"content": [{"path": "data/raw/a.csv", "size": 2}], "keys": []}')
    differences = [Difference("/content/1", {}, None)]
    found = unexplained([written], _on_both(("api", "contents", "data", "raw")), live, model, differences, ValueMap())
    assert [d.pointer for d in found] == ["/content/0/size"]  # set aside: the file and /archive; a.csv stays
    one_segment = Observed(200, JSON, b'{"content": [{"path": "sensor-04.csv"}], "keys": []}')
    assert [d.pointer for d in unexplained([WriteReach(1, {}, _on_both(frozenset({"/x/y/sensor-04.csv"})))],
                                           _on_both(("api",)), one_segment, Observed(200, JSON, b'{"content": []}'),
                                           differences, ValueMap())] == ["/content/0", "/keys"]


def test_a_document_read_differs_at_the_place_the_write_wrote_and_nowhere_else():
    reach = WriteReach(1, _on_both(("config", "servers", "a", "routes", "0")), _on_both(frozenset()))
    live = Observed(200, JSON, b'{"a": {"routes": [{"@id": "landing"}]}, "b": {"routes": [{"body": "x"}]}}')
    model = Observed(200, JSON, b'{"a": {"routes": [{"@id": "api"}]}, "b": {"routes": [{"body": "y"}]}}')
    differences = [Difference("/a/routes/0/@id", "landing", "api")]
    found = unexplained([reach], _on_both(("config", "servers")), live, model, differences, ValueMap())
    assert [d.pointer for d in found] == ["/b/routes/0/body"]


def _taxed(succeeded: frozenset[str], rule: int, model_rate: str = "8.00") -> list[Difference]:
    """An update of tax rule 5's rate to 9.00, then an item naming ``rule`` showing the live rate."""
    reach = WriteReach(1, _on_both(("taxrules", "5")), _on_both(frozenset({"5"})),
                       sent=_on_both(frozenset({("rate", "9.00")})), succeeded=succeeded)
    live = Observed(200, JSON, b'{"id": 3, "tax_rule": %d, "tax_rate": "9.00", "name": "a"}' % rule)
    model = Observed(200, JSON, b'{"id": 3, "tax_rule": %d, "tax_rate": "%s", "name": "a"}' % (rule, model_rate.encode()))
    return unexplained([reach], _on_both(("items", "3")), live, model, [Difference("/tax_rate", "9.00", model_rate)],
                       ValueMap())


def test_the_value_a_refused_update_sent_beside_a_reference_to_its_entity_is_explained():
    assert _taxed(frozenset({"live"}), rule=5) == []


def test_the_value_a_refused_update_sent_in_a_listed_item_referencing_its_entity_is_explained():
    reach = WriteReach(1, _on_both(("taxrules", "5")), _on_both(frozenset({"5"})),
                       sent=_on_both(frozenset({("rate", "9.00")})), succeeded=frozenset({"live"}))
    listed = b'{"results": [{"id": 3, "tax_rule": %d, "tax_rate": "%s"}]}'
    differences = [Difference("/results/0/tax_rate", "9.00", "8.00")]
    for rule, expected in ((5, []), (6, ["/results/0/tax_rate"])):
        found = unexplained([reach], _on_both(("items",)), Observed(200, JSON, listed % (rule, b"9.00")),
                            Observed(200, JSON, listed % (rule, b"8.00")), differences, ValueMap())
        assert [d.pointer for d in found] == expected


def test_the_sent_value_beside_no_reference_or_where_both_made_the_update_stays_a_suspect():
    assert [d.pointer for d in _taxed(frozenset({"live"}), rule=6)] == ["/tax_rate"]  # another rule's item
    # both sides made the update: the model's item still showing the old rate is its own, a suspect
    assert [d.pointer for d in _taxed(frozenset(BOTH), rule=5)] == ["/tax_rate"]


def test_a_route_named_by_the_label_the_write_sent_shows_the_value_it_sent():
    reach = WriteReach(1, {}, _on_both(frozenset()), sent=_on_both(frozenset({("body", "fine"), ("@id", "status")})),
                       labels=_on_both(frozenset({("@id", "status")})), succeeded=frozenset({"live"}))
    live = Observed(200, JSON, b'{"@id": "status", "handle": [{"body": "fine"}]}')
    model = Observed(200, JSON, b'{"@id": "status", "handle": [{"body": "ok"}]}')
    other = Observed(200, JSON, b'{"@id": "health", "handle": [{"body": "fine"}]}')
    differences = [Difference("/handle/0/body", "fine", "ok")]
    assert unexplained([reach], _on_both(("id", "status")), live, model, differences, ValueMap()) == []
    assert [d.pointer for d in unexplained([reach], _on_both(("id", "health")), other,
                                           Observed(200, JSON, b'{"@id": "health", "handle": [{"body": "ok"}]}'),
                                           differences, ValueMap())] == ["/handle/0/body"]


def test_a_text_quoting_each_sides_id_of_one_entity_agrees_and_another_id_does_not():
    values = ValueMap()
    values.pair(18, 16)  # one user: the live application drew 18, the model 16
    reach = WriteReach(1, {}, _on_both(frozenset({"3"})))
    missing = "No record found for id '{}'"

    def judged(model_id: int) -> list[Difference]:
        live = Observed(404, JSON, b'{"message": "%s"}' % missing.format(18).encode())
        model = Observed(404, JSON, b'{"message": "%s"}' % missing.format(model_id).encode())
        return unexplained([reach], _on_both(("users", "x")), live, model,
                           [Difference("/message", missing.format(18), missing.format(model_id))], values)

    assert judged(16) == []
    assert [d.pointer for d in judged(17)] == ["/message"]


def _renamed(status: int = 200):
    """A rename of node-2 (a JSON Patch) only the live side made, then a read by the new name and a list."""
    probes = parse_probes("""
- {method: PATCH, path: /nodes/node-2, body: [{op: replace, path: /name, value: node-2a}]}
- {method: GET, path: /nodes/node-2a}
- {method: GET, path: /nodes}
""")
    listed = b'[{"uuid": "u1", "name": "node-1"}, {"uuid": "u2", "name": "%s"}]'
    compare, _, _ = session(
        [(status, b'{"uuid": "u2", "name": "node-2a"}'), *[(200, b'{"uuid": "u2", "name": "node-2a"}')] * 2,
         *[(200, listed % b"node-2a")] * 2],
        [(404, REFUSED), (404, b'{"detail": "no node node-2a"}'), (200, listed % b"node-2")])
    return compare.run(probes)


def test_a_read_by_the_new_name_a_rename_sent_reads_the_renamed_entity():
    results = _renamed()
    assert results[1].diverged_by == [1] and not results[1].suspect
    assert results[2].verdict == "different" and not results[2].suspect


def test_a_rename_both_sides_refused_changed_nothing():
    results = _renamed(status=404)
    assert results[1].diverged_by == []


def test_a_read_the_write_affects_naming_a_text_its_form_sent_is_explained_and_another_is_not():
    probes = parse_probes("""
- method: POST
  path: /api.php
  headers: {content-type: application/x-www-form-urlencoded}
  raw_body: action=delete&title=Start_here
  affects: [/rest/page]
- {method: GET, path: /rest/page/Start_here}
- {method: GET, path: /rest/page/Main_page}
""")
    compare, _, _ = session(
        [(200, b'{"delete": {"title": "Start_here"}}'), *[(404, b'{"httpCode": 404}')] * 2,
         *[(200, b'{"title": "Main_page", "model": "wikitext"}')] * 2],
        [(400, REFUSED), (200, b'{"title": "Start_here"}'), (200, b'{"title": "Main_page", "model": "css"}')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/model"]


def test_a_listed_item_withholding_a_sent_secret_as_empty_is_the_created_entity():
    named = frozenset({("name", "chosen-key"), ("key", "c2VjcmV0")})
    reach = WriteReach(1, {}, _on_both(frozenset()), _on_both(named))
    live = Observed(200, JSON, b'[{"name": "a", "key": ""}, {"name": "chosen-key", "key": ""}]')
    model = Observed(200, JSON, b'[{"name": "a", "key": ""}]')
    differences = [Difference("/1", {}, None)]
    assert unexplained([reach], _on_both(("keys",)), live, model, differences, ValueMap()) == []
    other = Observed(200, JSON, b'[{"name": "a", "key": ""}, {"name": "other", "key": ""}]')
    assert [d.pointer for d in unexplained([reach], _on_both(("keys",)), other, model, differences,
                                           ValueMap())] == ["/1"]


def test_a_read_under_an_affected_folder_by_a_path_of_many_segments_encoded_as_one():
    """A copy into folder archive the probe says affects /files/archive; capenv reads the file's path as one
    parameter, ``archive%2Fbracket.gcode``: the read lies under the affected folder its body named."""
    reach = WriteReach(1, {}, _on_both(frozenset({"models/bracket.gcode"})),
                       affects=_on_both((("files", "archive"),)),
                       sent=_on_both(frozenset({("command", "copy"), ("destination", "archive")})))
    found, missing = Observed(200, JSON, b'{"name": "bracket.gcode"}'), Observed(404, JSON, b'{"error": "no"}')
    differences = [Difference("status", 200, 404)]
    assert unexplained([reach], _on_both(("files", "archive%2Fbracket.gcode")), found, missing, differences,
                       ValueMap()) == []
    assert unexplained([reach], _on_both(("files", "models%2Fcube.gcode")), found, missing, differences,
                       ValueMap())[0] == differences[0]


def test_a_listed_parent_of_the_write_differs_in_its_numbers_only():
    reach = WriteReach(1, {}, _on_both(frozenset({"DISK_GB"})), parents=_on_both(frozenset({"rp-1"})))
    live = Observed(200, JSON, b'[{"uuid": "rp-1", "generation": 5, "name": "a"}, {"uuid": "rp-2", "generation": 4}]')
    model = Observed(200, JSON, b'[{"uuid": "rp-1", "generation": 4, "name": "b"}, {"uuid": "rp-2", "generation": 2}]')
    found = unexplained([reach], _on_both(("providers",)), live, model, [Difference("/0/generation", 5, 4)],
                        ValueMap())
    assert [d.pointer for d in found] == ["/0/name", "/1/generation"]  # its name, another's number


def test_a_version_token_at_the_top_of_a_linked_read_follows_the_write():
    probes = parse_probes("""
- {method: POST, path: /flow, body: {label: Pumps}, affects: [/flows]}
- {method: GET, path: /flows}
""")
    compare, _, _ = session(
        [(200, b'{"id": "91e0"}'), *[(200, b'{"rev": "%s", "flows": [{"id": "a1", "rev": "%s"}]}' % (b"a" * 64,
                                                                                                    b"c" * 64))] * 2],
        [(405, REFUSED), (200, b'{"rev": "%s", "flows": [{"id": "a1", "rev": "%s"}]}' % (b"b" * 64, b"d" * 64))])
    results = compare.run(probes)
    assert [d.pointer for d in results[1].unexplained] == ["/flows/0/rev"]  # an item's token is no version


def test_a_reference_the_delete_cleared_on_its_side_alone_is_explained():
    def judged(author_id: int, succeeded: frozenset[str]) -> list[str]:
        reach = WriteReach(1, _on_both(("author", "1")), _on_both(frozenset({"1"})), id_members=frozenset({"id"}),
                           succeeded=succeeded)
        live = Observed(200, JSON, b'{"id": 2, "author": null}')
        model = Observed(200, JSON, b'{"id": 2, "author": {"id": %d, "name": "U"}}' % author_id)
        return [d.pointer for d in unexplained([reach], _on_both(("book", "2")), live, model,
                                               [Difference("/author", None, {})], ValueMap())]

    assert judged(1, frozenset({"live"})) == []
    assert judged(3, frozenset({"live"})) == ["/author"]  # another author cleared
    assert judged(1, frozenset(BOTH)) == ["/author"]  # both deleted it: the model's book still holding it is its own


def test_a_read_under_the_written_path_read_as_one_encoded_parameter_is_explained():
    reach = WriteReach(1, _on_both(("files", "archive")), _on_both(frozenset({"archive"})))
    failed, found = Observed(500, JSON, b'{"error": "internal"}'), Observed(200, JSON, b'{"name": "old.gcode"}')
    differences = [Difference("status", 500, 200)]
    assert unexplained([reach], _on_both(("files", "archive%2Fold.gcode")), failed, found, differences,
                       ValueMap()) == []
    assert unexplained([reach], _on_both(("files", "models%2Fold.gcode")), failed, found, differences,
                       ValueMap())[0] == differences[0]


def test_an_item_of_an_affected_read_referring_to_what_a_write_did_on_one_side_alone_is_set_aside():
    def judged(succeeded: frozenset[str], affects: tuple[tuple[str, ...], ...]) -> list[str]:
        reach = WriteReach(1, _on_both(("posts", "1")), _on_both(frozenset({"1", "/posts/1"})),
                           affects=_on_both(affects), id_members=frozenset({"id"}), succeeded=succeeded)
        live = Observed(200, JSON, b'[{"id": "2", "postId": "2", "text": "a"}]')
        model = Observed(200, JSON, b'[{"id": "3", "postId": "1", "text": "Thanks"}, {"id": "2", "postId": "2", "text": "a"}]')
        return [d.pointer for d in unexplained([reach], _on_both(("comments",)), live, model,
                                               [Difference("/0", ABSENT, {})], ValueMap())]

    assert judged(frozenset({"live"}), (("comments",),)) == []
    assert judged(frozenset({"live"}), ()) != []  # no affects: a comment naming post 1 by postId is no cascade
    assert judged(frozenset(BOTH), (("comments",),)) != []  # both deleted: the model's comment is its own


def test_a_count_of_a_list_showing_the_created_entity_in_two_arrays_counts_it_once():
    reach = WriteReach(1, {}, _on_both(frozenset({"3"})), id_members=frozenset({"id"}))
    live = Observed(200, JSON, b'{"count": 3, "ids": [1, 2, 3], "result": [{"id": 1}, {"id": 2}, {"id": 3}]}')
    model = Observed(200, JSON, b'{"count": 2, "ids": [1, 2], "result": [{"id": 1}, {"id": 2}]}')
    assert unexplained([reach], _on_both(("templates",)), live, model, [Difference("/count", 3, 2)], ValueMap()) == []
    off = Observed(200, JSON, b'{"count": 1, "ids": [1, 2], "result": [{"id": 1}, {"id": 2}]}')
    assert [d.pointer for d in unexplained([reach], _on_both(("templates",)), live, off,
                                           [Difference("/count", 3, 1)], ValueMap())] == ["/count"]


def test_a_page_not_showing_the_created_entity_still_counts_it():
    probes = parse_probes("""
- {method: POST, path: /templates, body: {name: probe}, save: {made: /id}}
- {method: GET, path: /templates, query: {page: "1"}}
- {method: GET, path: /templates, query: {page: "2"}}
""")
    page = b'{"count": %d, "result": [{"id": 1, "name": "a"}]}'
    compare, _, _ = session(
        [(201, b'{"id": 9}'), *[(200, page % 3)] * 2, *[(200, page % 4)] * 2],
        [(405, REFUSED), (200, page % 2), (200, page % 2)])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/count"]  # off by two after one create


def test_the_counterpart_of_an_item_set_aside_on_one_side_is_set_aside_on_the_other():
    """Book 2 embeds author 1 on the model's side (set aside: it holds the written author); the live side's
    book 2 no longer embeds it, after the delete only the live side made: the same book, set aside too."""
    reach = WriteReach(1, _on_both(("author", "1")), _on_both(frozenset({"1"})), id_members=frozenset({"id"}),
                       succeeded=frozenset({"live"}))
    live = Observed(200, JSON, b'[{"id": 2, "author": null}, {"id": 3, "title": "x", "author": null}]')
    model = Observed(200, JSON, b'[{"id": 2, "author": {"id": 1}}, {"id": 3, "title": "y", "author": null}]')
    found = unexplained([reach], _on_both(("book",)), live, model, [Difference("/0/author", None, {})], ValueMap())
    assert [d.pointer for d in found] == ["/0/title"]  # book 3, never written, still compared


def test_each_object_of_a_replace_whose_body_is_one_list_is_an_entity_it_wrote():
    probes = parse_probes("""
- {method: PUT, path: /flow/global, body: {configs: [{id: c0ffee01, type: global-config}]}, affects: [/flows]}
- {method: GET, path: /flows}
""")
    compare, _, _ = session(
        [(200, b'{"id": "global"}'), *[(200, b'[{"id": "t1", "label": "A"}, {"id": "c0ffee01", "type": "global-config",'
                                            b' "env": [1]}]')] * 2],
        [(405, REFUSED), (200, b'[{"id": "c0ffee01", "type": "global-config"}, {"id": "t1", "label": "A"}]')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and results[1].verdict == "different" and not results[1].suspect


def _after_a_cascade(kernel_live: tuple, kernel_model: tuple) -> list:
    """A session end only the live side made, its probe naming the kernels it removes, then the kernel."""
    probes = parse_probes("""
- {method: DELETE, path: /sessions/s0, affects: [/kernels]}
- {method: GET, path: /kernels/k0}
""")
    compare, _, _ = session([(204, b""), *[kernel_live] * 2], [(405, REFUSED), kernel_model])
    return compare.run(probes)


GONE, FOUND = (404, b'{"message": "Kernel does not exist"}'), (200, b'{"id": "k0", "name": "python3"}')


def test_an_entity_of_the_cascade_a_delete_names_is_gone_on_the_side_that_deleted_alone():
    results = _after_a_cascade(GONE, FOUND)
    assert results[1].diverged_by == [1] and not results[1].suspect


def test_an_entity_of_the_cascade_gone_on_the_side_that_did_not_delete_stays_a_suspect():
    results = _after_a_cascade(FOUND, GONE)
    assert results[1].diverged_by == [1] and results[1].suspect


def test_a_form_create_names_its_entity_as_a_json_one_does():
    probes = parse_probes("""
- method: POST
  path: /webhooks
  headers: {content-type: application/x-www-form-urlencoded}
  raw_body: url=http%3A%2F%2Fh%2Fnew&enabled=0&events=closed
- {method: GET, path: /webhooks}
- {method: GET, path: /webhooks}
""")
    listed = b'[{"id": 1, "url": "http://h/old", "enabled": true}, {"id": 2, "url": "http://h/new", "enabled": false,' \
             b' "events": ["closed"]}]'
    compare, _, _ = session(
        [(201, b'{"stat": "ok"}'), *[(200, listed)] * 4],
        [(405, REFUSED), (200, b'[{"id": 1, "url": "http://h/old", "enabled": true}]'),
         (200, b'[{"id": 1, "url": "http://h/older", "enabled": true}]')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and results[1].verdict == "different" and not results[1].suspect
    assert [d.pointer for d in results[2].unexplained] == ["/0/url"]


def test_the_href_a_create_answered_below_its_collection_names_what_it_made():
    probes = parse_probes("""
- {method: POST, path: /users, body: {Name: gina, RealName: Gina}}
- {method: GET, path: /users}
- {method: POST, path: /tickets, body: {Subject: disk}}
- {method: GET, path: /tickets}
""")
    users = b'{"items": [{"id": "bob", "_url": "{origin}/user/bob"}, {"id": "gina", "_url": "{origin}/user/gina"}]}'
    tickets = b'{"items": [{"id": "1", "type": "ticket"}, {"id": "6", "type": "ticket"}]}'
    compare, _, _ = session(
        [(201, b'{"_url": "http://x/users/gina"}'), *[(200, users)] * 2,
         (201, b'{"id": 6, "_url": "http://x/tickets/6"}'), *[(200, tickets)] * 2],
        [(405, REFUSED), (200, b'{"items": [{"id": "bob", "_url": "{origin}/user/bob"}]}'),
         (405, REFUSED), (200, b'{"items": [{"id": "1", "type": "ticket"}]}')])
    results = compare.run(probes)
    assert results[1].diverged_by == [1] and results[1].verdict == "different" and not results[1].suspect
    assert results[3].diverged_by == [3] and results[3].verdict == "different" and not results[3].suspect


def test_an_id_a_write_made_on_one_side_names_no_counterpart_on_the_other():
    """Label 7 made by a create only the live side made is set aside there; the model's label 7 is another (its
    sequence gave 7 to a later create both made): it stays, and its absence from the live list is a suspect."""
    reach = WriteReach(1, {}, {"live": frozenset({7}), "model": frozenset()}, id_members=frozenset({"id"}),
                       succeeded=frozenset({"live"}))
    live = Observed(200, JSON, b'[{"id": 6, "name": "a"}, {"id": 7, "name": "seven"}]')
    model = Observed(200, JSON, b'[{"id": 6, "name": "a"}, {"id": 7, "name": "uber"}, {"id": 9, "name": "z"}]')
    found = unexplained([reach], _on_both(("labels",)), live, model, [Difference("/1/name", "seven", "uber")],
                        ValueMap())
    assert [d.pointer for d in found] == ["/1", "/2"]


def test_an_entity_a_rename_only_one_side_made_addressed_by_its_new_name_is_explained():
    renamed = WriteReach(1, _on_both(("rules", "aa-rule")), _on_both(frozenset({"aa-rule"})),
                         labels=_on_both(frozenset({("name", "alpha-rule")})), succeeded=frozenset({"live"}))
    deleted, missing = Observed(204, (), b""), Observed(404, JSON, b'{"title": "Not Found"}')
    differences = [Difference("status", 204, 404)]
    assert unexplained([renamed], _on_both(("rules", "alpha-rule")), deleted, missing, differences, ValueMap()) == []
    assert unexplained([renamed], _on_both(("rules", "beta-rule")), deleted, missing, differences,
                       ValueMap()) == differences


def test_an_item_write_addresses_its_last_segment_though_no_parameter_names_it():
    from capenv.serving.compare.session import CompareSession
    from test_session_values import NoTools, ScriptedSide

    class LiteralTools(NoTools):
        def write_target(self, method, path):
            return (), (), False  # a tool of a literal path, /tokens/T-2

    probes = parse_probes("""
- {method: DELETE, path: /tokens/T-2}
- {method: GET, path: /tokens}
""")
    listed = b'{"tokens": [{"serial": "T-1", "active": true}%s]}'
    live = ScriptedSide("live", [(200, b'{"result": true}'), *[(200, listed % b"")] * 2])
    model = ScriptedSide("model", [(405, REFUSED), (200, listed % b', {"serial": "T-2", "active": true}')])
    results = CompareSession(live, model, LiteralTools()).run(probes)
    assert results[1].diverged_by == [1] and results[1].verdict == "different" and not results[1].suspect


def test_an_item_of_an_affected_read_holding_a_text_the_write_sent_on_one_side_alone_is_set_aside():
    reach = WriteReach(1, _on_both(("playbooks", "1")), _on_both(frozenset({"1"})),
                       affects=_on_both((("labels",),)), sent=_on_both(frozenset({("labels", "audited")})),
                       succeeded=frozenset({"live"}))
    live = Observed(200, JSON, b'{"results": [{"id": 3, "name": "flaky"}, {"id": 12, "name": "audited"}]}')
    model = Observed(200, JSON, b'{"results": [{"id": 3, "name": "flaky"}]}')
    differences = [Difference("/results/1", {}, ABSENT)]
    assert unexplained([reach], _on_both(("labels",)), live, model, differences, ValueMap()) == []
    other = Observed(200, JSON, b'{"results": [{"id": 3, "name": "flaky"}, {"id": 12, "name": "other"}]}')
    assert [d.pointer for d in unexplained([reach], _on_both(("labels",)), other, model, differences,
                                           ValueMap())] == ["/results/1"]


def test_a_text_the_affecting_write_sent_that_many_items_hold_names_none_of_them():
    reach = WriteReach(1, {}, _on_both(frozenset()), affects=_on_both((("kernels",),)),
                       sent=_on_both(frozenset({("name", "python3")})), succeeded=frozenset({"live"}))
    live = Observed(200, JSON, b'[{"id": "k1", "name": "python3", "state": "idle"}, {"id": "k2", "name": "python3",'
                               b' "state": "busy"}]')
    model = Observed(200, JSON, b'[{"id": "k1", "name": "python3", "state": "idle"}, {"id": "k2", "name": "python3",'
                                b' "state": "idle"}]')
    found = unexplained([reach], _on_both(("kernels",)), live, model, [Difference("/1/state", "busy", "idle")],
                        ValueMap())
    assert [d.pointer for d in found] == ["/1/state"]


def test_a_link_to_the_parent_a_create_answered_names_no_entity_it_made():
    probes = parse_probes("""
- {method: GET, path: /providers/p2}
- {method: POST, path: /providers, body: {name: child}}
- {method: GET, path: /providers}
""")
    listed = b'[{"uuid": "p1", "name": "a"}, {"uuid": "p2", "name": "%s"}, {"uuid": "c9", "name": "child"}]'
    compare, _, _ = session(
        [(200, b'{"uuid": "p2", "links": [{"href": "/providers/p2"}]}'),
         (200, b'{"uuid": "c9", "links": [{"href": "/providers/c9"}, {"href": "/providers/p2"}]}'),
         *[(200, listed % b"b2")] * 2],
        [(200, b'{"uuid": "p2", "links": [{"href": "/providers/p2"}]}'), (405, REFUSED),
         (200, b'[{"uuid": "p1", "name": "a"}, {"uuid": "p2", "name": "b"}]')])
    results = compare.run(probes)
    assert [d.pointer for d in results[2].unexplained] == ["/1/name"]  # the parent, p2, was not made


def test_an_item_a_write_made_has_no_counterpart_by_the_references_it_holds():
    """A child provider made on the live side alone, its root the seeded provider p2: p2 on the model's side is
    no counterpart of it (its own root is p2 too)."""
    reach = WriteReach(1, {}, {"live": frozenset({"c9"}), "model": frozenset()},
                       id_members=frozenset({"uuid", "root"}), succeeded=frozenset({"live"}))
    live = Observed(200, JSON, b'[{"uuid": "p2", "root": "p2", "name": "b2"}, {"uuid": "c9", "root": "p2"}]')
    model = Observed(200, JSON, b'[{"uuid": "p2", "root": "p2", "name": "b"}]')
    found = unexplained([reach], _on_both(("providers",)), live, model, [Difference("/0/name", "b2", "b")],
                        ValueMap())
    assert [d.pointer for d in found] == ["/0/name"]


class _DrawnAtStart(NoTools):
    """The model's state held room !opsSEEDroomAAAAAAA:t before the capture began (drawn at the start)."""
    initial_drawn = frozenset({"!opsSEEDroomAAAAAAA:t"})


def _rooms_after_a_create(live_ops: bytes, model_ops: bytes, model_name: bytes = b"Ops",
                          shown_before: bool = False, written: bool = False) -> list:
    """A room create the model refused, then the room list twice: Ops, a seeded room no read paired before
    the writes (``shown_before``: a read before them showed its live id, the model answering none; ``written``:
    a write only the live side made answered it)."""
    probes = parse_probes(("- {method: GET, path: /ops}\n" if shown_before else "")
                          + ("- {method: PUT, path: /settings, body: {}}\n" if written else "") + """
- {method: POST, path: /rooms, body: {name: Probe room}}
- {method: GET, path: /rooms}
- {method: GET, path: /rooms}
""")
    made = b'"!probeLIVEroomBBBBB:t"'
    live = b'[{"room_id": %s, "name": "Ops", "members": 1}, {"room_id": %s, "name": "Probe room", "members": 1}]' \
        % (live_ops, made)
    model = b'[{"room_id": %s, "name": "%s", "members": 1}]' % (model_ops, model_name)
    before = ([(200, b'{"room_id": %s}' % live_ops)] * 2, [(200, b'{"room_id": null}')]) if shown_before else ([], [])
    if written:
        before = ([(200, b'{"rooms": [%s]}' % live_ops)], [(400, REFUSED)])
    compare = CompareSession(
        ScriptedSide("live", [*before[0], (200, b'{"room_id": %s}' % made), *[(200, live)] * 4]),
        ScriptedSide("model", [*before[1], (400, REFUSED), (200, model), (200, model)]), _DrawnAtStart())
    return compare.run(probes)[-3:]


def test_a_seed_entitys_id_drawn_anew_and_paired_by_no_read_before_the_writes_pairs_after_them():
    """Ops's id, drawn anew at the live start, first paired by no read (the live side showed it where the model
    answered none): the same entity (it agrees on every other member), paired to judge what the create reached,
    in later reads too."""
    for shown_before in (False, True):
        results = _rooms_after_a_create(b'"!opsLIVEroomCCCCCCC:t"', b'"!opsSEEDroomAAAAAAA:t"',
                                        shown_before=shown_before)
        create = [results[0].index]
        assert [(r.verdict, r.diverged_by, r.suspect) for r in results[1:]] == [("different", create, False)] * 2


def test_a_seed_id_beside_one_a_write_answered_or_beside_another_entity_stays_a_suspect():
    written = _rooms_after_a_create(b'"!opsLIVEroomCCCCCCC:t"', b'"!opsSEEDroomAAAAAAA:t"', written=True)
    assert [d.pointer for d in written[1].unexplained] == ["/0/room_id"]  # a write answered it: unpaired
    renamed = _rooms_after_a_create(b'"!opsLIVEroomCCCCCCC:t"', b'"!opsSEEDroomAAAAAAA:t"', b"Ops old")
    assert {d.pointer for d in renamed[1].unexplained} == {"/0/name", "/0/room_id"}  # another name: unpaired
    unseeded = _rooms_after_a_create(b'"!opsLIVEroomCCCCCCC:t"', b'"!opsMODELroomDDDDDD:t"')
    assert [d.pointer for d in unseeded[1].unexplained] == ["/0/room_id"]  # the model's state never held it


def _deployed(live: bytes, model: bytes) -> list[Difference]:
    """A POST of two flows to /flows only the live side made (capenv takes it for a create), then /flows read."""
    sent = ({"id": "f2", "type": "tab", "label": "Only"}, {"id": "c2", "type": "comment", "z": "f2", "x": 80})
    reach = WriteReach(1, {}, _on_both(frozenset()), collection=_on_both(("flows",)),
                       succeeded=frozenset({"live"}), items=_on_both(sent))
    return unexplained([reach], _on_both(("flows",)), Observed(200, JSON, live), Observed(200, JSON, model),
                       [Difference("/0/id", "f2", "s1")], ValueMap())


def test_a_collection_read_answering_just_what_a_write_sent_there_is_the_document_it_replaced_whole():
    seed = b'[{"id": "s1", "type": "tab", "label": "Sensors"}, {"id": "s2", "type": "tab", "label": "Alerts"}]'
    only = b'[{"id": "f2", "type": "tab", "label": "Only"},' \
           b' {"id": "c2", "type": "comment", "z": "f2", "x": 80, "y": 0}]'
    assert _deployed(only, seed) == []
    assert _deployed(b'{"rev": "9f", "flows": %s}' % only, b'{"rev": "4a", "flows": %s}' % seed) == []


def test_a_collection_read_holding_more_than_the_write_sent_stays_a_suspect_where_it_differs():
    """The live side still lists Sensors beside what the write sent: no replace; Sensors's label differs."""
    kept = b'[{"id": "s1", "type": "tab", "label": "Sensors 2"}, {"id": "f2", "type": "tab", "label": "Only"},' \
           b' {"id": "c2", "type": "comment", "z": "f2", "x": 80}]'
    assert "/0/label" in [d.pointer for d in _deployed(kept, b'[{"id": "s1", "type": "tab", "label": "Sensors"}]')]
    other = b'[{"id": "f2", "type": "tab", "label": "Only"}, {"id": "c2", "type": "comment", "z": "f2", "x": 90}]'
    assert [d.pointer for d in _deployed(other, b'[{"id": "f2", "type": "tab", "label": "Only"},'
                                                b' {"id": "c2", "type": "comment", "z": "f2", "x": 70}]')] == ["/1/x"]


class _NoRoutes(NoTools):
    """No tool for any path, as the build's manifest knows none (``ToolIndex.write_target``): a POST names
    no path parameter."""

    def write_target(self, method, path):
        parts = [p for p in path.split("/") if p]
        return ((parts[-1],) if method in ("PUT", "PATCH", "DELETE") else (), (), method == "POST")


def _after_an_action(action: str, live_tokens: bytes) -> list:
    """Both sides list T-1 and T-2, then a POST ``action`` only the live side made, then the list again."""
    probes = parse_probes(f"""
- {{method: GET, path: /tokens}}
- {{method: POST, path: "{action}", body: {{}}}}
- {{method: GET, path: /tokens}}
""")
    seeded = (200, b'{"tokens": [{"serial": "T-1", "active": true}, {"serial": "T-2", "active": true}], "count": 2}')
    compare = CompareSession(ScriptedSide("live", [seeded, (200, b'{"result": true}'), *[(200, live_tokens)] * 2]),
                             ScriptedSide("model", [seeded, (404, REFUSED), seeded]), _NoRoutes())
    return compare.run(probes)


def test_the_last_segment_of_a_post_no_tool_knows_names_the_entity_an_answer_showed():
    """POST /tokens/disable/T-1 acts on T-1, the serial the token list answered: T-1 is set aside there."""
    disabled = b'{"tokens": [{"serial": "T-1", "active": false}, {"serial": "T-2", "active": true}], "count": 2}'
    results = _after_an_action("/tokens/disable/T-1", disabled)
    assert results[2].diverged_by == [2] and results[2].verdict == "different" and not results[2].suspect


def test_a_post_acting_on_one_entity_or_ending_in_a_word_no_answer_showed_leaves_the_rest_a_suspect():
    both = b'{"tokens": [{"serial": "T-1", "active": false}, {"serial": "T-2", "active": false}], "count": 2}'
    assert [d.pointer for d in _after_an_action("/tokens/disable/T-1", both)[2].unexplained] \
        == ["/tokens/0/active"]  # T-2, in the kept list's first place
    assert [d.pointer for d in _after_an_action("/tokens/disable-all", both)[2].unexplained] \
        == ["/tokens/0/active", "/tokens/1/active"]


def _kernels_after_a_session_delete(read: tuple[str, ...], live: bytes, model: bytes) -> list[Difference]:
    """A session s0 deleted on the live side alone, its probe affecting /kernels; its last read named kernel k0."""
    reach = WriteReach(1, _on_both(("sessions", "s0")), _on_both(frozenset({"s0"})), affects=_on_both((("kernels",),)),
                       succeeded=frozenset({"live"}), deletes=True,
                       referents=_on_both(frozenset({"8597a883-0fda-4b62-8916-e2f033202735"})))
    return unexplained([reach], _on_both(read), Observed(200, JSON, live), Observed(200, JSON, model),
                       [Difference("/0", ABSENT, {})], ValueMap())


def test_an_entity_the_deleted_one_named_is_reached_in_the_read_its_cascade_affects():
    k0 = b'{"id": "8597a883-0fda-4b62-8916-e2f033202735", "name": "python3"}'
    assert _kernels_after_a_session_delete(("kernels",), b"[]", b"[%s]" % k0) == []


def test_another_kernel_or_a_read_the_cascade_does_not_affect_stays_a_suspect():
    k0 = b'{"id": "8597a883-0fda-4b62-8916-e2f033202735", "name": "python3"}'
    k9 = b'{"id": "3c1e0d6a-5b3e-4c8e-9f5e-0a7d2b1c4e9f", "name": "python3", "state": "%s"}'
    assert [d.pointer for d in _kernels_after_a_session_delete(
        ("kernels",), b"[%s]" % (k9 % b"busy"), b"[%s, %s]" % (k0, k9 % b"idle"))] == ["/0/state"]
    assert [d.pointer for d in _kernels_after_a_session_delete(("terminals",), b"[]", b"[%s]" % k0)] == ["/0"]


def _default_realm(live: bytes, model: bytes, succeeded: frozenset[str] = frozenset({"live"})) -> list[Difference]:
    """POST /defaultrealm/partners made on ``succeeded``, then /defaultrealm read: an object keyed by the default."""
    reach = WriteReach(1, {}, _on_both(frozenset({"partners"})), succeeded=succeeded)
    return unexplained([reach], _on_both(("defaultrealm",)), Observed(200, JSON, live), Observed(200, JSON, model),
                       [Difference("/value/partners", {}, ABSENT)], ValueMap())


def test_the_one_member_a_write_gave_its_entity_on_one_side_is_held_by_another_on_the_other():
    assert _default_realm(b'{"value": {"partners": {"id": 2}}}', b'{"value": {"corp": {"id": 1}}}') == []


def test_a_member_beside_others_or_where_both_sides_made_the_write_stays_a_suspect():
    both = _default_realm(b'{"value": {"partners": {"id": 2}}}', b'{"value": {"corp": {"id": 1}}}',
                          frozenset({"live", "model"}))
    assert [d.pointer for d in both] == ["/value/corp"]
    assert [d.pointer for d in _default_realm(b'{"value": {"partners": {"id": 2}, "interns": {"id": 3}}}',
                                              b'{"value": {"corp": {"id": 1}, "interns": {"id": 3}}}')] \
        == ["/value/corp"]
    assert [d.pointer for d in _default_realm(b'{"value": {"partners": {"id": 2}}}',
                                              b'{"value": {"corp": {"id": 1}, "interns": {"id": 3}}}')] \
        == ["/value/corp", "/value/interns"]
