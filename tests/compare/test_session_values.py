"""Saved values per side: borrowing, unresolved names, and pairs made by saves."""

from __future__ import annotations

from capenv.serving.compare import CompareSession, Observed, parse_probes, render_text
from capenv.serving.compare.tool_index import CallTool

JSON = (("content-type", "application/json"),)


class ScriptedSide:
    """Answers each request with the next scripted (status, body) and keeps what it was sent."""

    def __init__(self, label: str, answers: list[tuple[int, bytes]]) -> None:
        self.label = label
        self.answers = list(answers)
        self.sent = []

    def send(self, request):
        self.sent.append(request)
        status, body = self.answers.pop(0)
        return Observed(status, JSON if body else (), body)


class NoTools:
    initial_generated: frozenset = frozenset()
    initial_drawn: frozenset = frozenset()

    def tool(self, method, path):
        return CallTool(None, False, method != "GET")

    def write_scopes(self, method, path):
        return [tuple(p for p in path.split("/") if p)[:1]]

    def read_as(self, method, path):
        return path

    def write_target(self, method, path):
        parts = [p for p in path.split("/") if p]
        return (tuple(parts[1:2]), (), method == "POST" and len(parts) == 1)

    def volatile_members(self, tool):
        return frozenset()


def session(live_answers, model_answers):
    live, model = ScriptedSide("live", live_answers), ScriptedSide("model", model_answers)
    return CompareSession(live, model, NoTools()), live, model


def test_a_side_without_the_value_borrows_the_other_sides():
    probes = parse_probes("""
- {method: POST, path: /posts, body: {t: a}, save: {post: /id}}
- {method: GET, path: "/posts/{post}", query: {of: "{post}"}}
""")
    compare, live, model = session([(201, b'{"id": 7}'), (200, b'{"id": 7}'), (200, b'{"id": 7}')],
                                   [(405, b'{"error": "refused", "message": "no"}'), (404, b"{}")])
    results = compare.run(probes)
    assert results[0].unsaved == {"model": ["post"]}
    assert results[1].borrowed == {"model": ["post"]} and results[1].unresolved == []
    assert model.sent[1].target == live.sent[1].target == "/posts/7?of=7"
    assert results[1].diverged_by == [1]
    text = render_text(results, "live", "model").splitlines()
    assert "      model had no {post}: sent the live value" in text
    assert text[-1] == "2 calls, 0 same, 0 different, 2 refused"


def test_names_neither_side_saved_are_sent_as_written():
    probes = parse_probes("- {method: POST, path: /a, save: {x: /missing}}\n- {method: GET, path: '/a/{x}'}\n")
    compare, live, model = session([(200, b"{}"), (404, b"{}")], [(200, b"{}"), (404, b"{}")])
    results = compare.run(probes)
    assert results[1].unresolved == ["x"] and live.sent[1].path == "/a/{x}"


def test_a_save_pairs_the_two_values_and_later_answers_map_them():
    probes = parse_probes("""
- {method: POST, path: /things, body: {}, save: {thing: /data/id}}
- {method: GET, path: /things}
""")
    compare, live, model = session(
        [(201, b'{"data": {"id": "live-id-1234"}}'), (200, b'{"data": [{"id": "live-id-1234", "parent": 1}]}')],
        [(201, b'{"data": {"id": "model-id-99"}}'), (200, b'{"data": [{"id": "model-id-99", "parent": 1}]}')])
    results = compare.run(probes)
    assert [r.verdict for r in results] == ["same", "same"]
    assert compare.values.maps("live-id-1234", "model-id-99")


def test_body_placeholders_keep_types_and_headers_fill_too():
    probes = parse_probes("""
headers: {x-client: probe}
probes:
  - {method: GET, path: /me, save: {owner: /id}}
  - {method: POST, path: /notes, headers: {x-owner: "{owner}"}, body: {owner: "{owner}", text: "by {owner}"}}
""")
    compare, live, model = session([(200, b'{"id": 5}'), (201, b"{}")], [(200, b'{"id": 6}'), (201, b"{}")])
    compare.run(probes)
    assert live.sent[1].body == b'{"owner":5,"text":"by 5"}' and model.sent[1].body == b'{"owner":6,"text":"by 6"}'
    assert ("x-owner", "6") in model.sent[1].headers and ("content-type", "application/json") in model.sent[1].headers
    assert ("x-client", "probe") in live.sent[0].headers and live.sent[0].body is None


def test_a_member_the_live_application_answers_differently_twice_is_no_difference():
    """A GET that disagrees is sent to the live application once more: a member that moved
    between its two answers (a timing) is volatile, and the call agrees on everything else."""
    probes = parse_probes("- {method: GET, path: /rows/1}\n- {method: GET, path: /rows/2}\n")
    compare, live, model = session(
        [(200, b'{"id": 1, "ms": 2.5}'), (200, b'{"id": 1, "ms": 3.1}'),
         (200, b'{"id": 2, "name": "b", "ms": 1.0}'), (200, b'{"id": 2, "name": "b", "ms": 1.2}')],
        [(200, b'{"id": 1, "ms": 9.9}'), (200, b'{"id": 2, "name": "another", "ms": 4.0}')])
    first, second = compare.run(probes)
    assert first.verdict == "same" and "/ms" in first.judgement.note
    assert second.verdict == "different" and [d.pointer for d in second.differences] == ["/name"]
    assert len(live.sent) == 4 and len(model.sent) == 2  # only the live side is asked again


class VolatileSince(NoTools):
    """A read tool whose entities' ``since`` the build found changing with no write."""

    def tool(self, method, path):
        return CallTool("get_beats", True, method != "GET")

    def volatile_members(self, tool):
        return frozenset({"since"}) if tool == "get_beats" else frozenset()


def test_a_member_the_build_found_volatile_is_read_again_after_a_pause(monkeypatch):
    """A count of whole seconds (a heartbeat's ``since``) reads alike twice at once; when a read
    disagrees only at members the build found volatile, the live application is asked again after
    a pause, and what moved then is no difference. Anything else still is."""
    import capenv.serving.compare.session as session_module
    pauses = []
    monkeypatch.setattr(session_module.time, "sleep", pauses.append)
    probes = parse_probes("- {method: GET, path: /beats}\n- {method: GET, path: /beats}\n"
                          "- {method: GET, path: /beats}\n")
    live = ScriptedSide("live", [
        (200, b'{"beats": [{"id": 1, "since": 5}]}'), (200, b'{"beats": [{"id": 1, "since": 5}]}'),
        (200, b'{"beats": [{"id": 1, "since": 6}]}'),
        (200, b'{"beats": [{"id": 1, "since": 9, "tag": "a"}]}'), (200, b'{"beats": [{"id": 1, "since": 9, "tag": "a"}]}'),
        (200, b'{"beats": [{"id": 1, "since": 9}]}'), (200, b'{"beats": [{"id": 1, "since": 9}]}'),
        (200, b'{"beats": [{"id": 1, "since": 9}]}')])
    model = ScriptedSide("model", [(200, b'{"beats": [{"id": 1, "since": 2}]}'),
                                   (200, b'{"beats": [{"id": 1, "since": 2, "tag": "b"}]}'),
                                   (200, b'{"beats": [{"id": 1, "since": 2}]}')])
    first, second, third = CompareSession(live, model, VolatileSince()).run(probes)
    assert first.verdict == "same" and "/beats/0/since" in first.judgement.note
    assert second.verdict == "different"  # another member differs too: no pause, no excuse
    assert third.verdict == "different"  # the live application shows the same since after the pause
    assert [d.pointer for d in third.differences] == ["/beats/0/since"]
    assert len(pauses) == 2 and len(live.sent) == 8 and len(model.sent) == 3


def test_a_read_that_agrees_is_sent_once():
    probes = parse_probes("- {method: GET, path: /rows/1}\n")
    compare, live, _ = session([(200, b'{"id": 1}')], [(200, b'{"id": 1}')])
    assert compare.run(probes)[0].verdict == "same" and len(live.sent) == 1


def test_a_minted_token_is_signed_for_each_call_and_sent_alike_to_both_sides():
    import base64
    import hashlib
    import hmac
    import json
    import time

    probes = parse_probes("""
minted:
  api_token: {jwt: {algorithm: HS512, secret: s3cret, claims: {sub: agent}}}
headers: {authorization: "Bearer {api_token}"}
probes:
- {method: GET, path: /posts}
- {method: GET, path: /posts/1}
""")
    compare, live, model = session([(200, b"[]"), (200, b"{}")], [(200, b"[]"), (200, b"{}")])
    before = int(time.time())
    results = compare.run(probes)
    assert [r.unresolved for r in results] == [[], []] and [r.borrowed for r in results] == [{}, {}]
    for sent_live, sent_model in zip(live.sent, model.sent):
        token = dict(sent_live.headers)["authorization"].removeprefix("Bearer ")
        assert dict(sent_model.headers)["authorization"] == f"Bearer {token}"
        header, payload, signature = token.split(".")
        expected = hmac.new(b"s3cret", f"{header}.{payload}".encode(), hashlib.sha512).digest()
        assert base64.urlsafe_b64decode(signature + "==") == expected
        claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
        assert claims["sub"] == "agent" and before <= claims["iat"] <= time.time()
        assert json.loads(base64.urlsafe_b64decode(header + "==")) == {"typ": "JWT", "alg": "HS512"}


def test_a_minted_name_is_never_saved_by_a_probe():
    import pytest

    from capenv.serving.compare import ProbeFileError

    with pytest.raises(ProbeFileError, match="saves 'api_token', a name the file mints"):
        parse_probes("""
minted: {api_token: {jwt: {secret: s}}}
probes:
- {method: POST, path: /tokens, save: {api_token: /token}}
""")
    with pytest.raises(ProbeFileError, match=r"\{other\} is not saved"):
        parse_probes("""
minted: {api_token: {jwt: {secret: s}}}
probes:
- {method: GET, path: /posts, headers: {authorization: "Bearer {other}"}}
""")


class SeededTools(NoTools):
    """The model's state held ``01M94TKX43GZN2881TSSKMMMG3`` before the capture began (a seed)."""
    initial_generated = frozenset({"01M94TKX43GZN2881TSSKMMMG3"})


SEEDED_ID = b'"01M94TKX43GZN2881TSSKMMMG3"'
LIVE_ID = b'"01M94TMKSKY7BWAS0J7GK7PP23"'
OTHER_LIVE_ID = b'"01M94TMKSNQBKZ8JR3PND03757"'


def seeded_session(live_answers, model_answers):
    live, model = ScriptedSide("live", live_answers), ScriptedSide("model", model_answers)
    return CompareSession(live, model, SeededTools())


def test_a_generated_id_of_the_seed_pairs_with_the_live_starts_own_before_any_write():
    """An id the application drew at its start (a seed entity's ULID) is drawn anew at the live
    start: before any write, the two pair by shape, and the pair holds afterwards."""
    probes = parse_probes("""
- {method: GET, path: /states/a}
- {method: GET, path: /states/a}
""")
    results = seeded_session([(200, b'{"id": "a", "context": ' + LIVE_ID + b'}')] * 2,
                             [(200, b'{"id": "a", "context": ' + SEEDED_ID + b'}')] * 2).run(probes)
    assert [r.verdict for r in results] == ["same", "same"]


def test_a_seed_id_answered_where_the_live_start_answers_another_entitys_is_different():
    """The pair is one to one: once the seed's id stands for one live value, the model answering it
    where the live side answers another is a difference."""
    probes = parse_probes("""
- {method: GET, path: /states/a}
- {method: GET, path: /states/b}
""")
    other = (200, b'{"context": ' + OTHER_LIVE_ID + b'}')  # twice: a differing read is sent again (volatile?)
    results = seeded_session([(200, b'{"context": ' + LIVE_ID + b'}'), other, other],
                             [(200, b'{"context": ' + SEEDED_ID + b'}')] * 2).run(probes)
    assert [r.verdict for r in results] == ["same", "different"]


def test_no_pairing_by_shape_for_a_value_the_seed_never_held_or_after_a_write():
    probes = parse_probes("""
- {method: GET, path: /states/a}
- {method: POST, path: /events, body: {}}
- {method: GET, path: /states/b}
""")
    unseeded = b'"01M94TKX4MRQCHDCBXQ9X3VN8Z"'
    first, other = (200, b'{"context": ' + LIVE_ID + b'}'), (200, b'{"context": ' + OTHER_LIVE_ID + b'}')
    results = seeded_session(
        [first, first, (200, b'{}'), other, other],
        [(200, b'{"context": ' + unseeded + b'}'), (200, b'{}'), (200, b'{"context": ' + SEEDED_ID + b'}')]).run(probes)
    assert [r.verdict for r in results] == ["different", "same", "different"]

def test_each_sides_own_origin_reads_as_one():
    """A page link names the origin its side was reached at (DRF's next): the two sides' origins are
    one in the comparison; another host, or a longer port beginning with the side's, still differs."""
    probes = parse_probes("- {method: GET, path: /a}\n- {method: GET, path: /a}\n")
    compare, live, model = session(
        [(200, b'{"next": "http://127.0.0.1:8000/a?page=2"}')] + [(200, b'{"next": "http://127.0.0.1:80001/a"}')] * 3,
        [(200, b'{"next": "http:\\/\\/model.compare.invalid\\/a?page=2"}'),
         (200, b'{"next": "http://model.compare.invalid/a"}')])
    live.origin, model.origin = "http://127.0.0.1:8000", "http://model.compare.invalid"
    results = compare.run(probes)
    assert [r.verdict for r in results] == ["same", "different"]


def test_each_sides_own_origin_in_its_websocket_spelling_reads_as_one():
    """A discovery document names its stream endpoint at the side's host and port with the ws scheme
    (Signal K's signalk-ws): each side's ws spelling of its own origin is one in the comparison, as its
    http one is; another port still differs. Before, the two sides' ws links were a wrong answer."""
    verdicts = []
    for port in ("8000", "8001"):
        compare, live, model = session([(200, b'{"ws": "ws://127.0.0.1:%s/stream"}' % port.encode())] * 4,
                                       [(200, b'{"ws": "ws://model.compare.invalid/stream"}')])
        live.origin, model.origin = "http://127.0.0.1:8000", "http://model.compare.invalid"
        verdicts += [r.verdict for r in compare.run(parse_probes("- {method: GET, path: /a}\n"))]
    assert verdicts == ["same", "different"]


def test_a_path_saved_whole_is_sent_as_each_side_answered_it():
    """An href the application answers (Pulp's pulp_href) names the entity's path itself: a probe's path
    that is exactly ``{name}`` is each side's saved path, its slashes kept, where a placeholder inside a
    path is one segment (escaped)."""
    probes = parse_probes("""
- {method: POST, path: /repos, body: {name: a}, save: {repo: /href}}
- {method: GET, path: "{repo}"}
- {method: GET, path: "/repos/{repo}"}
""")
    compare, live, model = session(
        [(201, b'{"href": "/repos/0193-a/"}'), (200, b"{}"), (404, b"{}")],
        [(201, b'{"href": "/repos/0193-b/"}'), (200, b"{}"), (404, b"{}")])
    compare.run(probes)
    assert live.sent[1].target == "/repos/0193-a/" and model.sent[1].target == "/repos/0193-b/"
    assert live.sent[2].target == "/repos/%2Frepos%2F0193-a%2F"


def test_a_path_saved_whole_must_be_the_whole_path():
    import pytest
    from capenv.serving.compare.probes import ProbeFileError

    with pytest.raises(ProbeFileError, match="a path starting with /"):
        parse_probes('- {method: GET, path: "{repo}versions/"}')
