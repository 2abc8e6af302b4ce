"""``capenv compare --explore``: reads of the seed state derived from the bundle, against a fake
application whose seed draws its ids anew at each start (as Prefect's or Kolibri's do)."""

from __future__ import annotations

import json
import uuid
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any, Iterator

import pytest

from capenv.interpreter.cli.main import main
from capenv.interpreter.pipeline import build_bundle
from capenv.serving.compare import DIFFERENT, REFUSED, SAME, compare_explored, derive_probes

from support.har_builder import HarBuilder
from support.loopback_server import on_loopback

RECORDED = ["1b0e5c1e-0000-4000-8000-000000000001", "5c2f7a10-0000-4000-8000-000000000002",
            "9d4e8b20-0000-4000-8000-000000000003"]
NAMES = ["alpha", "beta", "gamma"]


def flows(ids: list[str], twins: bool = False) -> list[dict[str, Any]]:
    """The seed: three flows, the first with a set of tags; ``twins``: the last two alike but for their ids."""
    made = [{"id": i, "name": n, "tags": ["nightly", "etl", "core"] if n == "alpha" else []}
            for i, n in zip(ids, NAMES)]
    if twins:
        made[2]["name"] = made[1]["name"]
    return made


class FlowsApp:
    """``GET /flows`` lists the flows ordered by id; ``GET /flows/{id}`` reads one. ``ids``: the seed's
    ids (None: drawn anew, as at a start); ``reversed_sets``: tags answered in another order;
    ``wrong``: an item read answers the next flow's body (a model answering another entity)."""

    def __init__(self, ids: list[str] | None = None, *, twins: bool = False, reversed_sets: bool = False,
                 wrong: bool = False) -> None:
        self.flows = flows(ids or [str(uuid.uuid4()) for _ in NAMES], twins)
        self.reversed_sets, self.wrong = reversed_sets, wrong

    def shown(self, flow: dict[str, Any]) -> dict[str, Any]:
        return {**flow, "tags": list(reversed(flow["tags"]))} if self.reversed_sets else flow

    def answer(self, path: str) -> tuple[int, Any]:
        ordered = sorted(self.flows, key=lambda f: f["id"])
        parts = [p for p in path.split("?", 1)[0].split("/") if p]
        if parts == ["flows"]:
            return 200, [self.shown(f) for f in ordered]
        if len(parts) == 2 and parts[0] == "flows":
            index = next((i for i, f in enumerate(ordered) if f["id"] == parts[1]), None)
            if index is None:
                return 404, {"detail": "Flow not found."}
            if self.wrong:
                index = (index + 1) % len(ordered)
            return 200, self.shown(ordered[index])
        return 404, {"detail": "Not Found"}


@contextmanager
def serving(app: FlowsApp) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            status, body = app.answer(self.path)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    with on_loopback(Handler) as url:
        yield url


def capture(tmp_path, twins: bool = False):
    seed = sorted(flows(RECORDED, twins), key=lambda f: f["id"])
    har = HarBuilder().call("GET", "/flows", response=seed)
    for flow in seed:
        har = har.call("GET", f"/flows/{flow['id']}", response=flow)
    har = har.call("POST", "/flows", body={"name": "delta"}, status=201,
                   response={"id": "e0000000-0000-4000-8000-000000000004", "name": "delta", "tags": []})
    return har.write(tmp_path / "flows.har")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    return build_bundle(capture(tmp_path_factory.mktemp("flows")))


def test_derived_reads_are_the_recorded_ones_an_item_read_of_each_entity_and_a_never_held_id(bundle):
    derived = derive_probes(bundle)
    paths = [d.probe.path for d in derived]
    assert paths[0] == "/flows"
    assert "/flows/00000000-0000-4000-8000-00000000c0de" in paths  # never held, sent alike to both
    # the entities' ids are drawn anew at the start: each read names its id by a placeholder
    items = [d for d in derived if d.probe.path.startswith("/flows/{")]
    assert sorted(v for d in items for v in d.seeded.values()) == RECORDED
    assert all(d.probe.method == "GET" for d in derived)


def test_ids_drawn_anew_are_paired_entity_by_entity_and_item_reads_address_the_live_entity(bundle):
    live_app = FlowsApp()
    with serving(live_app) as live:
        explored = compare_explored(bundle, live)
    assert explored.skipped == []
    verdicts = {r.requests["model"].path: r.verdict for r in explored.results}
    assert DIFFERENT not in verdicts.values()
    assert [verdicts[f"/flows/{i}"] for i in RECORDED] == [SAME] * 3
    assert verdicts["/flows/00000000-0000-4000-8000-00000000c0de"] == REFUSED  # no absence recorded: said so
    live_ids = {f["name"]: f["id"] for f in live_app.flows}
    sent = {r.requests["model"].path: r.requests["live"].path for r in explored.results}
    for flow in flows(RECORDED):
        assert sent[f"/flows/{flow['id']}"] == f"/flows/{live_ids[flow['name']]}"
    # the live list is ordered by the ids it drew, the model's by the recorded ones: the same entities
    listing = explored.results[0]
    assert listing.judgement.note is None or "model's order" in listing.judgement.note


def test_a_set_answered_in_another_order_before_any_write_is_the_same(bundle):
    with serving(FlowsApp(reversed_sets=True)) as live:
        explored = compare_explored(bundle, live)
    assert DIFFERENT not in [r.verdict for r in explored.results]
    assert explored.results[0].verdict == SAME
    assert any("compared as sets: /0/tags" in (r.judgement.note or "") for r in explored.results)


def test_an_entity_two_live_ones_agree_with_is_skipped_saying_why_never_compared(tmp_path):
    twins = build_bundle(capture(tmp_path, twins=True))
    with serving(FlowsApp(twins=True)) as live:
        explored = compare_explored(twins, live)
    skipped = {s.probe.path: s.reason for s in explored.skipped}
    assert sorted(skipped) == ["/flows/{seed1}"] and len(explored.skipped) == 2  # each twin's recorded read
    assert all("no read before paired it with one live entity alone" in reason for reason in skipped.values())
    assert DIFFERENT not in [r.verdict for r in explored.results]


def test_a_model_answering_another_entity_is_still_different(bundle):
    """Pairing never hides a wrong answer: the model (here a fake answering the next flow) differs."""
    with serving(FlowsApp()) as live, serving(FlowsApp(RECORDED, wrong=True)) as model:
        explored = compare_explored(bundle, live, model)
    verdicts = {r.requests["model"].path: r.verdict for r in explored.results}
    assert verdicts[f"/flows/{RECORDED[0]}"] == DIFFERENT


def test_cli_explore_reports_skipped_reads_and_needs_probes_or_explore(tmp_path, capsys):
    har = capture(tmp_path, twins=True)
    with serving(FlowsApp(twins=True)) as live:
        assert main(["compare", str(har), "--live", live, "--explore", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"]["skipped"] == 2 and len(report["skipped"]) == 2
    assert report["summary"]["different"] == 0
    assert main(["compare", str(har), "--live", "http://127.0.0.1:9"]) == 2
    assert "--probes FILE, --explore, or both" in capsys.readouterr().err


def test_reordered_arrays_of_exact_numbers_are_compared():
    """An answer's exact numbers (JsonNumber, as loads keeps 16.3) sort as written: no TypeError."""
    from capenv.interpreter.bundle.jsonvalue import loads
    from capenv.serving.compare.jsondiff import ValueMap
    from capenv.serving.compare.judge import reordered_sets

    live, model = loads(b'{"a": [{"v": 16.3}, {"v": 1.5}]}'), loads(b'{"a": [{"v": 1.5}, {"v": 16.3}]}')
    assert reordered_sets(live, model, ValueMap(), objects=True) == ("/a",)
    assert reordered_sets(live, model, ValueMap()) == ()  # objects only where the model replayed
